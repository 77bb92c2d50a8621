"""The finder's training targets and network shape."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.vision.finder import SHRINK
from fanscan.vision.train_finder import target_mask


def test_train_finder_target_keeps_touching_tiles_apart() -> None:
    left = np.float32([[10, 10], [40, 10], [40, 50], [10, 50]])
    right = left + np.float32([30, 0])  # shares an edge with the left tile
    mask = target_mask((60, 80), [left, right], [False, True])
    assert set(np.unique(mask)) == {0, 1, 2}
    assert mask[30, 40] == 0  # the shared edge stays table
    assert mask[30, 25] == 1 and mask[30, 55] == 2
    face_area = int((mask == 1).sum())
    assert face_area == pytest.approx(30 * 40 * SHRINK**2, rel=0.15)


def test_train_finder_network_halves_the_resolution() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.vision.train_finder import build_net

    net = build_net().eval()
    with torch.no_grad():
        out = net(torch.zeros(1, 3, 64, 96))
    assert tuple(out.shape) == (1, 3, 32, 48)


def test_train_finder_fit_lowers_the_loss_and_reports_it(capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    from fanscan.vision.train_finder import fit

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    truth = np.float32([[0.2], [-0.1]])  # within reach of a one-cycle run peaking at 3e-3

    def batches():
        while True:
            x = rng.normal(size=(32, 2)).astype(np.float32)
            yield x, x @ truth

    net = torch.nn.Linear(2, 1, bias=False)
    torch.nn.init.zeros_(net.weight)
    loss_of = lambda out, y: ((out - y) ** 2).mean()  # noqa: E731
    x, y = next(batches())
    with torch.no_grad():
        before = float(loss_of(net(torch.from_numpy(x)), torch.from_numpy(y)))
    fit(net, batches(), 200, loss_of, 100, lambda loss: f"mse {loss:.3f}")
    with torch.no_grad():
        after = float(loss_of(net(torch.from_numpy(x)), torch.from_numpy(y)))
    assert after < before / 10
    logged = capsys.readouterr().err.splitlines()
    assert [line.split(" mse ")[0] for line in logged] == ["step 0/200", "step 100/200"]
