"""Start a fine-tune from a shipped classifier whose torch weights are gone: its ONNX export.

The export folds each batch norm into the convolution before it
(``train_finder.load_onnx_weights`` maps that back: each norm becomes the identity plus the
folded bias, and must stay frozen while training); the last layer is the graph's one ``Gemm``.
"""

from __future__ import annotations

from pathlib import Path

import torch

from fanscan.models.net import TileNet
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.models.train_finder import load_onnx_weights


def tile_net_from_onnx(path: Path) -> TileNet:
    """A ``TileNet`` with the weights of the exported classifier at ``path``; raises ValueError
    for a file that is no ONNX model or holds another network."""
    import onnx
    from onnx import numpy_helper

    net = TileNet(len(CLASS_LABELS))
    load_onnx_weights(net, path)
    model = onnx.load(str(path))
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    gemms = [node for node in model.graph.node if node.op_type == "Gemm"]
    linear = net.head[-1]
    if len(gemms) != 1:
        raise ValueError(f"{path} has {len(gemms)} fully connected layers, the network 1")
    weight, bias = arrays[gemms[0].input[1]], arrays[gemms[0].input[2]]
    transposed = any(a.name == "transB" and a.i == 1 for a in gemms[0].attribute)
    weight = weight if transposed else weight.T
    if tuple(weight.shape) != tuple(linear.weight.shape):
        raise ValueError(f"{path}: the last layer is {weight.shape}, not {tuple(linear.weight.shape)}")
    with torch.no_grad():
        linear.weight.copy_(torch.from_numpy(weight.copy()))
        linear.bias.copy_(torch.from_numpy(bias.copy()))
    return net


def freeze_norms(net: torch.nn.Module) -> None:
    """Keep every batch norm on its stored statistics (call after ``net.train()``); its scale
    and the folded bias still learn."""
    for module in net.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.eval()
