"""Two layers and a table the module holds (register_buffer), for the test
that a step keeps what the loop and the module hold: every gradient
through the optimizer's step, the table through the whole step."""

import torch
import torch.nn as nn


class Held(nn.Module):
    def __init__(self, d, rows):
        super().__init__()
        self.a = nn.Linear(d, d, bias=False)
        self.b = nn.Linear(d, d, bias=False)
        self.register_buffer("table", torch.ones(rows, d))

    def forward(self, x):
        return (self.b(self.a(x)) * self.table[: x.shape[0]]).sum()


def build(B, D=64, R=256):
    return Held(D, R), torch.randn(B, D)
