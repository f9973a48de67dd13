"""A small CNN on S×S images: two stages of convolution, batch norm, ReLU
and max pooling, a global average pool and a linear classifier; the loss is
the cross-entropy of the class. S is a multiple of 4."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class CNN(nn.Module):
    def __init__(self, channels, width, classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(channels, width, 3, padding=1),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1),
            nn.BatchNorm2d(2 * width),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(2 * width, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


def build(B, S, C=3, W=16, K=10):
    images = torch.randn(B, C, S, S)
    labels = torch.randint(0, K, (B,))
    return CNN(C, W, K), images, lambda logits: F.cross_entropy(logits, labels)
