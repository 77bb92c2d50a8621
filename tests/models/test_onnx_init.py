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
