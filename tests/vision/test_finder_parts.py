"""The finder's network on a large image in parts: the same logits as on the whole image, no part
larger than the bound, and the finder's boxes the same whole or in parts."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.vision import finder


def _image(height: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    # smooth blobs plus noise: something for the network's filters to respond to at every scale
    ys, xs = np.mgrid[0:height, 0:width]
    base = 0.5 + 0.4 * np.sin(xs / 23.0) * np.cos(ys / 17.0)
    image = np.clip(base[..., None] + 0.1 * rng.standard_normal((height, width, 3)), 0, 1)
    return (image * 255).astype(np.uint8)


def _in_parts_of(monkeypatch, side: int) -> None:
    """Parts of at most ``side`` for any image larger than one part."""
    monkeypatch.setattr(finder, "PART_SIDE", side)
    monkeypatch.setattr(finder, "WHOLE_RUN_PIXELS", side * side)


def _spy_runs(monkeypatch) -> list[tuple[int, ...]]:
    session = finder._get_session()
    seen: list[tuple[int, ...]] = []
    run = session.run
    monkeypatch.setattr(session, "run", lambda array: seen.append(array.shape) or run(array))
    return seen


def test_parts_give_the_logits_of_the_whole_image_and_stay_within_the_bound(monkeypatch) -> None:
    image = _image(712, 480)
    whole = finder._get_session().run(finder.network_input(image))[0]
    _in_parts_of(monkeypatch, 160)
    seen = _spy_runs(monkeypatch)
    parts = finder._network_logits(image)
    assert len(seen) == 5 * 3  # 712 rows in 5 parts, 480 columns in 3
    assert max(h for _, _, h, _ in seen) <= 160 + 2 * finder.PART_CONTEXT
    assert max(w for _, _, _, w in seen) <= 160 + 2 * finder.PART_CONTEXT
    assert parts.shape == whole.shape
    np.testing.assert_allclose(parts, whole, atol=1e-5)


def test_an_image_of_the_working_size_goes_through_whole_and_a_larger_in_parts(monkeypatch) -> None:
    seen = _spy_runs(monkeypatch)
    finder._network_logits(_image(finder.WORK_SIDE, finder.WORK_SIDE))
    assert seen == [(1, 3, finder.WORK_SIDE, finder.WORK_SIDE)]
    seen.clear()
    finder._network_logits(_image(finder.WORK_SIDE + 8, finder.WORK_SIDE))
    assert len(seen) > 1 and max(max(shape[2:]) for shape in seen) <= finder.PART_SIDE + 2 * finder.PART_CONTEXT


@pytest.mark.parametrize("context", [0, 8])
def test_too_little_context_would_change_the_logits(monkeypatch, context: int) -> None:
    """The parts' context is what makes them exact: without enough of it the seams show."""
    image = _image(712, 480)
    whole = finder._get_session().run(finder.network_input(image))[0]
    _in_parts_of(monkeypatch, 160)
    monkeypatch.setattr(finder, "PART_CONTEXT", context)
    assert float(np.abs(finder._network_logits(image) - whole).max()) > 1e-3


@pytest.mark.parametrize("length", [8, 640, 648, 960, 1920, 2560, 1000])
def test_even_parts_cover_the_length_in_the_fewest_parts_on_the_stride(length: int) -> None:
    parts = finder._even_parts(length)
    assert parts[0][0] == 0 and parts[-1][1] == length
    assert all(a == previous for (a, _), (_, previous) in zip(parts[1:], parts))
    assert all(b - a <= finder.PART_SIDE and a % 8 == 0 for a, b in parts)
    assert len(parts) == -(-length // finder.PART_SIDE)


def test_the_boxes_are_those_of_the_whole_image(monkeypatch) -> None:
    """``find_tiles`` on an image too large for one run: the same boxes with parts of a quarter
    of it as with the whole image in one run."""
    image = _image(720, 960)
    whole = finder.find_tiles(image)  # 691,200 px: already in parts; make it one run
    _in_parts_of(monkeypatch, 2048)
    one_run = finder.find_tiles(image)
    _in_parts_of(monkeypatch, 360)
    quarters = finder.find_tiles(image)
    assert len(one_run) and len(one_run) == len(whole) == len(quarters)
    np.testing.assert_allclose(quarters.quads, one_run.quads, atol=1e-3)
    np.testing.assert_allclose(whole.quads, one_run.quads, atol=1e-3)


def test_the_heap_goes_back_before_a_pass_on_a_far_photo_s_fine_copy_only(monkeypatch) -> None:
    handed_back: list[int] = []
    monkeypatch.setattr(finder.memory, "hand_back_if_over", lambda: handed_back.append(1) or True)
    monkeypatch.setattr(finder, "HAND_BACK_PIXELS", 480 * 640)
    finder.find_tiles(_image(480, 640))  # the working size: nothing handed back
    assert handed_back == []
    finder.find_tiles(_image(488, 640))
    assert handed_back == [1]


def test_the_tile_map_is_one_less_the_table_s_plane_brought_up_and_lets_the_plane_go() -> None:
    rng = np.random.default_rng(3)
    planes = [rng.random((30, 40), dtype=np.float32) for _ in range(3)]
    table, face, back = planes
    expected = 1.0 - finder.upsampled(table, 59, 80)
    tile = finder._tile_map(planes, 59, 80)
    assert tile.shape == (59, 80) and tile.dtype == np.float32
    np.testing.assert_array_equal(tile, expected)
    assert len(planes) == 2 and planes[0] is face and planes[1] is back
