"""A Llama-shaped language model: token embeddings, L of llama.py's blocks,
a final RMSNorm and the head; the loss is the cross-entropy of the next
token. The defaults are Llama 2 7B's: 32 layers 4096 wide, 32 heads, a
feed-forward of 11008 and 32000 tokens, 6.7 billion parameters."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from llama import Block, RMSNorm


class Llama(nn.Module):
    def __init__(self, vocab, d, heads, ff, layers):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(Block(d, heads, ff) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed_tokens(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.norm(x))


def build(B, T, V=32000, D=4096, H=32, FF=11008, L=32):
    tokens, targets = torch.randint(0, V, (B, T)), torch.randint(0, V, (B, T))
    return Llama(V, D, H, FF, L), tokens, lambda logits: F.cross_entropy(logits.view(-1, V), targets.view(-1))
