"""Models that cannot be recorded as they are, for the recorder's error
messages, and one whose input requires a gradient."""

import torch
import torch.nn as nn


class Twice(nn.Module):
    def forward(self, x):
        return x * 2


def no_params(B):
    return Twice(), torch.randn(B, 4)


def argmax_loss(B):
    return nn.Linear(4, 4), torch.randn(B, 4), lambda y: y.argmax().float()


def frozen(B):
    model = nn.Linear(4, 4)
    model.requires_grad_(False)
    return model, torch.randn(B, 4), lambda y: y.sum()


class Branch(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        if x.sum().item() > 0:  # reads a value
            return self.fc(x)
        return x


def branch(B):
    return Branch(), torch.randn(B, 4)


def sized(B, D=4):
    return nn.Linear(D, D), torch.randn(B, D)  # D a size


class Odd:
    pass


def odd(B):
    return Odd()


def number(B):
    return 3


def input_grad(B):
    x = torch.randn(B, 4, requires_grad=True)
    return nn.Linear(4, 4), x, lambda y: y.sum()
