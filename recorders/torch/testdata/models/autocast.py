"""Models under torch.autocast, which casts nothing on the meta device: the
recorder refuses them, for its error messages; and one that turns autocast
off again, which it records."""

import torch
import torch.nn as nn


class Autocast(nn.Module):
    def __init__(self, device, dtype, enabled=True):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.device, self.dtype, self.enabled = device, dtype, enabled

    def forward(self, x):
        with torch.autocast(self.device, dtype=self.dtype, enabled=self.enabled):
            return self.fc(x)  # under autocast


def cpu(B):
    return Autocast("cpu", torch.bfloat16), torch.randn(B, 8), lambda y: y.sum()


def cuda(B):
    return Autocast("cuda", torch.float16), torch.randn(B, 8), lambda y: y.sum()


def disabled(B):
    return Autocast("cpu", torch.bfloat16, enabled=False), torch.randn(B, 8), lambda y: y.sum()


def left_on(B):
    torch.set_autocast_cpu_enabled(True)
    return nn.Linear(8, 8), torch.randn(B, 8)
