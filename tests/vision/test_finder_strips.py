"""The finder's network on a large image in strips of rows: the same logits as on the whole image,
and no strip larger than the bound."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.vision import finder


def _tensor(height: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    # smooth blobs plus noise: something for the network's filters to respond to at every scale
    ys, xs = np.mgrid[0:height, 0:width]
    base = 0.5 + 0.4 * np.sin(xs / 23.0) * np.cos(ys / 17.0)
    image = np.clip(base[None, None] + 0.1 * rng.standard_normal((1, 3, height, width)), 0, 1)
    return image.astype(np.float32)


def test_strips_give_the_logits_of_the_whole_image_and_stay_within_the_bound(monkeypatch) -> None:
    tensor = _tensor(712, 480)
    whole = finder._get_session().run(tensor)[0]
    monkeypatch.setattr(finder, "STRIP_PIXELS", 480 * 160)
    session = finder._get_session()
    seen: list[tuple[int, ...]] = []
    run = session.run
    monkeypatch.setattr(session, "run", lambda array: seen.append(array.shape) or run(array))
    strips = finder._network_logits(tensor)
    assert len(seen) >= 4  # the image really went through in strips
    assert max(h for _, _, h, _ in seen) <= 160 + 2 * finder.STRIP_CONTEXT
    assert strips.shape == whole.shape
    np.testing.assert_allclose(strips, whole, atol=1e-5)


def test_a_small_image_goes_through_whole(monkeypatch) -> None:
    session = finder._get_session()
    seen: list[tuple[int, ...]] = []
    run = session.run
    monkeypatch.setattr(session, "run", lambda array: seen.append(array.shape) or run(array))
    finder._network_logits(_tensor(480, 640))
    assert seen == [(1, 3, 480, 640)]


@pytest.mark.parametrize("context", [0, 8])
def test_too_little_context_would_change_the_logits(monkeypatch, context: int) -> None:
    """The strips' context is what makes them exact: without enough of it the seams show."""
    tensor = _tensor(712, 480)
    whole = finder._get_session().run(tensor)[0]
    monkeypatch.setattr(finder, "STRIP_PIXELS", 480 * 160)
    monkeypatch.setattr(finder, "STRIP_CONTEXT", context)
    assert float(np.abs(finder._network_logits(tensor) - whole).max()) > 1e-3
