"""Five layers whose activations are named locals, as much model code is
written: eager PyTorch holds h1 to h4 until forward returns, where a
compiler frees each after its last use."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Locals(nn.Module):
    def __init__(self, D):
        super().__init__()
        self.a, self.b, self.c, self.d, self.e = (nn.Linear(D, D) for _ in range(5))

    def forward(self, x):
        h1 = F.relu(self.a(x))
        h2 = F.relu(self.b(h1))
        h3 = F.relu(self.c(h2))
        h4 = F.relu(self.d(h3))
        return self.e(h4)


def build(B, T, D=256):
    return Locals(D), torch.zeros(B, T, D)


class Kept(nn.Module):
    """Keeps its first layer's output on itself: PyTorch releases it after
    the forward, whatever reads it last."""

    def __init__(self, D):
        super().__init__()
        self.a, self.b, self.c = (nn.Linear(D, D) for _ in range(3))

    def forward(self, x):
        h = self.a(x)
        self.cache = h
        return self.c(self.b(h))


def build_kept(B, T, D=256):
    return Kept(D), torch.zeros(B, T, D)
