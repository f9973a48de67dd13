"""A Llama-shaped decoder block: RMSNorm, causal attention with rotary
position embeddings and a SwiGLU feed-forward, each behind a residual. The
defaults are small; --const D=4096 --const H=32 --const FF=11008 gives the
block of a 7B model."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        norm = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return norm.type_as(x) * self.weight


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Rotary(nn.Module):
    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, q, k):
        T = q.shape[-2]
        t = torch.arange(T, device=q.device, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[None, None], emb.sin()[None, None]
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
        self.rotary = Rotary(d // heads)

    def forward(self, x):
        B, T, D = x.shape
        hd = D // self.heads
        q = self.q_proj(x).view(B, T, self.heads, hd).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, hd).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, hd).transpose(1, 2)
        q, k = self.rotary(q, k)
        scores = torch.matmul(q, k.transpose(2, 3)) / hd**0.5
        mask = torch.full((T, T), float("-inf"), device=x.device).triu(1)
        scores = F.softmax(scores + mask, dim=-1, dtype=torch.float32).type_as(q)
        out = torch.matmul(scores, v).transpose(1, 2).reshape(B, T, D)
        return self.o_proj(out)


class SwiGLU(nn.Module):
    def __init__(self, d, ff):
        super().__init__()
        self.gate_proj = nn.Linear(d, ff, bias=False)
        self.up_proj = nn.Linear(d, ff, bias=False)
        self.down_proj = nn.Linear(ff, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.input_layernorm = RMSNorm(d)
        self.self_attn = Attention(d, heads)
        self.post_attention_layernorm = RMSNorm(d)
        self.mlp = SwiGLU(d, ff)

    def forward(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))


def build(B, T, D=64, H=4, FF=172):
    x = torch.randn(B, T, D)
    return Block(D, H, FF), x, lambda y: y.float().pow(2).mean()
