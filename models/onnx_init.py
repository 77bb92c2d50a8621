"""Start a fine-tune from a shipped classifier whose torch weights are gone: its ONNX export.

The export folds each batch norm into the convolution before it
(``train_finder.load_onnx_weights`` maps that back: each norm becomes the identity plus the
folded bias, and must stay frozen while training); the last layer is the graph's one ``Gemm``.
A network with more classes than the export (the classifier learning ``NO_TILE`` on top of the
43) keeps the export's rows for its classes and starts each new one at zero weights and the
lowest bias of the others: a class it has never answered.
"""

from __future__ import annotations

from pathlib import Path

import torch

from fanscan.models.net import TileNet
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.models.train_finder import load_onnx_weights


def tile_net_from_onnx(path: Path, num_classes: int | None = None) -> TileNet:
    """A ``TileNet`` of ``num_classes`` outputs (None: the export's) with the weights of the
    exported classifier at ``path`` (new classes past the export's: see above); raises ValueError
    for a file that is no ONNX model or holds another network."""
    import onnx
    from onnx import numpy_helper

    def exported_classes() -> int:
        try:
            graph = onnx.load(str(path)).graph
        except Exception:  # noqa: BLE001 - load_onnx_weights below says what is wrong
            return len(CLASS_LABELS)
        gemm = next((node for node in graph.node if node.op_type == "Gemm"), None)
        biases = {t.name: t.dims for t in graph.initializer}
        return int(biases[gemm.input[2]][0]) if gemm is not None and gemm.input[2] in biases else len(CLASS_LABELS)

    net = TileNet(num_classes if num_classes is not None else exported_classes())
    load_onnx_weights(net, path)
    model = onnx.load(str(path))
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    gemms = [node for node in model.graph.node if node.op_type == "Gemm"]
    if len(gemms) != 1:
        raise ValueError(f"{path} has {len(gemms)} fully connected layers, the network 1")
    weight, bias = arrays[gemms[0].input[1]], arrays[gemms[0].input[2]]
    transposed = any(a.name == "transB" and a.i == 1 for a in gemms[0].attribute)
    weight = weight if transposed else weight.T
    linear = net.head[-1]
    rows, width = linear.weight.shape
    if weight.shape[1] != width or not 0 < weight.shape[0] <= rows:
        raise ValueError(f"{path}: the last layer is {weight.shape}, not {tuple(linear.weight.shape)}")
    with torch.no_grad():
        linear.weight.zero_()
        linear.weight[: weight.shape[0]].copy_(torch.from_numpy(weight.copy()))
        linear.bias.fill_(float(bias.min()))
        linear.bias[: weight.shape[0]].copy_(torch.from_numpy(bias.copy()))
    return net


def freeze_norms(net: torch.nn.Module) -> None:
    """Keep every batch norm on its stored statistics (call after ``net.train()``); its scale
    and the folded bias still learn."""
    for module in net.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.eval()
