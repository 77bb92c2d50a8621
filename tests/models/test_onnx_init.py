"""Fine-tuning from a shipped ONNX classifier: the weights come back exactly, norms stay frozen."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from fanscan.models.onnx_init import freeze_norms, tile_net_from_onnx  # noqa: E402
from fanscan.vision.classifier import DEFAULT_MODEL, TileClassifier  # noqa: E402

pytestmark = pytest.mark.train


def test_onnx_init_gives_the_shipped_models_probabilities():
    net = tile_net_from_onnx(DEFAULT_MODEL).eval()
    x = np.random.default_rng(0).random((3, 3, 128, 96)).astype(np.float32)
    with torch.no_grad():
        ours = torch.softmax(net(torch.from_numpy(x)), 1).numpy()
    np.testing.assert_allclose(ours, TileClassifier(DEFAULT_MODEL)._run(x), atol=1e-5)


def test_onnx_init_refuses_another_network():
    finder = Path(DEFAULT_MODEL).with_name("tile_finder.onnx")  # shipped beside the classifier
    with pytest.raises(ValueError, match="convolutions"):
        tile_net_from_onnx(finder)


def test_onnx_init_refuses_a_file_that_is_no_model(tmp_path):
    path = tmp_path / "x.onnx"
    path.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not an ONNX model"):
        tile_net_from_onnx(path)


def test_onnx_init_frozen_norms_keep_their_statistics():
    net = tile_net_from_onnx(DEFAULT_MODEL)
    net.train()
    freeze_norms(net)
    norm = next(m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d))
    before = norm.running_mean.clone()
    net(torch.rand(4, 3, 128, 96) * 4)
    assert torch.equal(norm.running_mean, before)
    assert not norm.training and norm.weight.requires_grad


def test_onnx_init_grows_a_class_the_export_never_had(tmp_path):
    from fanscan.models.export import export
    from fanscan.models.net import TileNet
    from fanscan.scoring.tiles import CLASS_LABELS, CLASSIFIER_LABELS
    from fanscan.vision.preprocess import PreprocessSpec

    torch.manual_seed(2)
    old = TileNet(len(CLASS_LABELS)).eval()
    for norm in (m for m in old.modules() if isinstance(m, torch.nn.BatchNorm2d)):
        # Statistics of their own: a fresh net's equal folded biases come out shared in the graph.
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.bias.data.uniform_(-0.1, 0.1)
    old_path = tmp_path / "old.onnx"
    export(old, PreprocessSpec(), old_path, {"steps": 0})
    assert tile_net_from_onnx(old_path).head[3].out_features == len(CLASS_LABELS)
    grown = tile_net_from_onnx(old_path, len(CLASSIFIER_LABELS)).eval()
    x = np.random.default_rng(1).random((2, 3, 128, 96)).astype(np.float32)
    with torch.no_grad():
        logits = grown(torch.from_numpy(x))
    shipped = TileClassifier(old_path)._run(x)
    # The old classes keep their odds among themselves; the new one starts at the lowest bias.
    old = torch.softmax(logits[:, :-1], 1).numpy()
    np.testing.assert_allclose(old, shipped, atol=1e-5)
    assert torch.count_nonzero(grown.head[3].weight[-1]) == 0
