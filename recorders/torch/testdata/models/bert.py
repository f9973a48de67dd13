"""A BERT encoder: word, position and token-type embeddings, L post-norm
layers of bidirectional attention under a padding mask and a GELU
feed-forward, a pooler on the first token and a classifier; the loss is the
cross-entropy of the class."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)
        self.dropout = nn.Dropout(0.1)

    def split(self, x):
        B, T, D = x.shape
        return x.view(B, T, self.heads, D // self.heads).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1)) + mask
        probs = self.dropout(F.softmax(scores, dim=-1))
        ctx = (probs @ v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(x.shape)


class Layer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.attention = SelfAttention(d, heads)
        self.attention_output = nn.Linear(d, d)
        self.attention_norm = nn.LayerNorm(d, eps=1e-12)
        self.intermediate = nn.Linear(d, ff)
        self.output = nn.Linear(ff, d)
        self.output_norm = nn.LayerNorm(d, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask):
        a = self.attention_norm(x + self.dropout(self.attention_output(self.attention(x, mask))))
        return self.output_norm(a + self.dropout(self.output(F.gelu(self.intermediate(a)))))


class Bert(nn.Module):
    def __init__(self, vocab, positions, d, heads, ff, layers, classes):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, d)
        self.position_embeddings = nn.Embedding(positions, d)
        self.token_type_embeddings = nn.Embedding(2, d)
        self.embeddings_norm = nn.LayerNorm(d, eps=1e-12)
        self.dropout = nn.Dropout(0.1)
        self.layers = nn.ModuleList(Layer(d, heads, ff) for _ in range(layers))
        self.pooler = nn.Linear(d, d)
        self.classifier = nn.Linear(d, classes)

    def forward(self, input_ids, token_type_ids, attention_mask):
        T = input_ids.shape[1]
        pos = torch.arange(T, device=input_ids.device).unsqueeze(0)
        x = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        x = self.dropout(self.embeddings_norm(x))
        mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return self.classifier(self.dropout(pooled))


def build(B, T, V=512, P=128, D=64, H=4, FF=256, L=2, C=3):
    model = Bert(V, P, D, H, FF, L, C)
    inputs = {
        "input_ids": torch.randint(0, V, (B, T)),
        "token_type_ids": torch.zeros(B, T, dtype=torch.long),
        "attention_mask": torch.ones(B, T, dtype=torch.long),
    }
    labels = torch.randint(0, C, (B,))
    return model, inputs, lambda logits: F.cross_entropy(logits, labels)
