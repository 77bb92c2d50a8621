"""The tile classifier network: a small MobileNet-style CNN (depthwise-separable blocks).

The stem is a 4 x 4 stride-4 "patchify" convolution: it keeps the full 128 x 96 input (the
numerals on flowers need those pixels) while the blocks run at 32 x 24 and below, which makes
training on a shared CPU affordable. About 0.19 M parameters and 10 M multiply-adds per crop.
Needs torch (the ``train`` extra).
"""

from __future__ import annotations

import torch
from torch import nn

# (output channels, stride) of each depthwise-separable block after the stride-4 stem.
BLOCKS: tuple[tuple[int, int], ...] = (
    (64, 1), (96, 2), (96, 1), (160, 2), (160, 1), (256, 2), (256, 1),
)
STEM_CHANNELS = 32


def _conv_bn_relu(c_in: int, c_out: int, kernel: int, stride: int = 1, groups: int = 1,
                  padding: int | None = None) -> list[nn.Module]:
    padding = kernel // 2 if padding is None else padding
    return [
        nn.Conv2d(c_in, c_out, kernel, stride, padding, groups=groups, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    ]


class TileNet(nn.Module):
    """Crops (n, 3, 128, 96) -> class logits (n, num_classes)."""

    def __init__(self, num_classes: int, dropout: float = 0.2) -> None:
        super().__init__()
        layers = _conv_bn_relu(3, STEM_CHANNELS, 4, 4, padding=0)
        channels = STEM_CHANNELS
        for c_out, stride in BLOCKS:
            layers += _conv_bn_relu(channels, channels, 3, stride, groups=channels)
            layers += _conv_bn_relu(channels, c_out, 1)
            channels = c_out
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(dropout), nn.Linear(channels, num_classes)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))
