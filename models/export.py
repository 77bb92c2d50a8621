"""Export a trained ``TileNet`` to ONNX with its JSON sidecar (labels, preprocessing, version).

The ONNX graph ends in a softmax: its one output is ``probabilities`` (n, 43) over
``CLASS_LABELS``, or (n, 44) over ``CLASSIFIER_LABELS`` for a network that also answers "no
tile"; its input ``image`` is (n, 3, h, w) float32 as ``vision.preprocess`` makes it.
The sidecar (same name, ``.json``) is what ``vision.classifier`` reads to preprocess and to name
the classes. Both files are written atomically.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path
from typing import Any

import torch
from torch import nn

from fanscan.atomic import write_bytes_atomic, write_text_atomic
from collections.abc import Sequence

from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision.preprocess import PreprocessSpec

FORMAT_VERSION = 1


class _WithSoftmax(nn.Module):
    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


def sidecar_path(model_path: Path) -> Path:
    """The JSON sidecar beside an ONNX model."""
    return model_path.with_suffix(".json")


def export(net: nn.Module, spec: PreprocessSpec, model_path: Path, training: dict[str, Any],
           labels: Sequence[str] = CLASS_LABELS) -> None:
    """Write ``model_path`` (ONNX) and its sidecar; ``training`` records how it was trained,
    ``labels`` names the network's outputs in order."""
    wrapped = _WithSoftmax(net).eval()
    buffer = io.BytesIO()
    # The TorchScript exporter: the newer dynamo one needs onnxscript, an extra dependency.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            wrapped,
            torch.zeros(1, 3, spec.height, spec.width),
            buffer,
            input_names=["image"],
            output_names=["probabilities"],
            dynamic_axes={"image": {0: "batch"}, "probabilities": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    write_bytes_atomic(model_path, buffer.getvalue())
    sidecar = {
        "format_version": FORMAT_VERSION,
        "labels": list(labels),
        "input": {"name": "image", **spec.to_json()},
        "output": {"name": "probabilities", "softmax": True},
        "training": training,
    }
    write_text_atomic(sidecar_path(model_path), json.dumps(sidecar, indent=2) + "\n")
