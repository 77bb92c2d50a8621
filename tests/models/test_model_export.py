"""ONNX export: the sidecar names the contract classes and the graph matches the torch model."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from fanscan.models.export import export  # noqa: E402
from fanscan.models.net import TileNet  # noqa: E402
from fanscan.scoring.tiles import CLASS_LABELS  # noqa: E402
from fanscan.vision.classifier import TileClassifier  # noqa: E402
from fanscan.vision.preprocess import PreprocessSpec, preprocess  # noqa: E402


def test_model_export_writes_model_and_sidecar_that_agree_with_torch(tmp_path):
    torch.manual_seed(0)
    net = TileNet(len(CLASS_LABELS)).eval()
    spec = PreprocessSpec()
    path = tmp_path / "m.onnx"
    export(net, spec, path, {"steps": 0})
    sidecar = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert tuple(sidecar["labels"]) == CLASS_LABELS
    assert PreprocessSpec.from_json(sidecar["input"]) == spec
    assert sidecar["training"] == {"steps": 0}

    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 256, (100, 75, 3), dtype=np.uint8) for _ in range(3)]
    with torch.no_grad():
        expected = torch.softmax(net(torch.from_numpy(preprocess(crops, spec))), 1).numpy()
    assert np.allclose(TileClassifier(path).probabilities(crops), expected, atol=1e-4)


def test_a_classifier_that_answers_no_tile_gives_faces_as_they_stand_for_a_tile(tmp_path):
    from fanscan.scoring.tiles import CLASSIFIER_LABELS

    torch.manual_seed(1)
    net = TileNet(len(CLASSIFIER_LABELS)).eval()
    with torch.no_grad():  # a network sure of nothing: every crop's second look runs too
        net.head[3].weight.mul_(0.01)
    spec = PreprocessSpec()
    path = tmp_path / "m.onnx"
    export(net, spec, path, {"steps": 0}, CLASSIFIER_LABELS)
    classifier = TileClassifier(path)
    assert classifier.answers_no_tile and classifier.labels == CLASS_LABELS

    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 256, (100, 75, 3), dtype=np.uint8) for _ in range(3)]
    turned = [np.ascontiguousarray(c[::-1, ::-1]) for c in crops]
    with torch.no_grad():
        def soft(images):
            return torch.softmax(net(torch.from_numpy(preprocess(images, spec))), 1).numpy()
        both = (soft(crops) + soft(turned)) / 2
    looked = classifier.looks(crops)
    np.testing.assert_allclose(looked.no_tile, both[:, -1], atol=1e-4)
    np.testing.assert_allclose(looked.probs, both[:, :-1] / (1 - both[:, -1:]), atol=1e-4)
    codes, confidences, no_tile = classifier.named(crops)
    assert codes == [CLASS_LABELS[i] for i in looked.probs.argmax(axis=1)]
    np.testing.assert_allclose(no_tile, looked.no_tile)
