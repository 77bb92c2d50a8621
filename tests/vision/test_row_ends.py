"""A hand still a tile short is looked for beyond its rows' ends (``vision.row_ends``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scenes import generate_scene
from fanscan.vision import reader, row_ends
from fanscan.vision.detections import TileDetections, TileReading

STEP, WIDTH = 34.0, 30.0
SIZE = (1000, 400)
RIGHT = np.array([1.0, 0.0])


def _tile(x: float, code: str = "5m", sideways: bool = False) -> TileReading:
    width, height = (40.0, WIDTH) if sideways else (WIDTH, 40.0)
    box = np.float32([[x, 100], [x + width, 100], [x + width, 100 + height], [x, 100 + height]])
    return TileReading(code, 0.99, box, 0.0, sideways, x + width / 2, ((code, 0.99),), frame_up=(0.0, -1.0))


def _slot_centres(readings: list[TileReading], others: list[TileReading] = (), size=SIZE) -> list[float]:
    centres = np.array([r.box.mean(axis=0) for r in [*readings, *others]])
    slots = row_ends.end_slots(readings, [[list(range(len(readings)))]], RIGHT, centres, size)
    return sorted(round(float(slot.mean(axis=0)[0]), 1) for _, slot in slots)


def test_slots_lie_one_step_and_a_step_and_a_half_beyond_each_end() -> None:
    row = [_tile(300 + STEP * k) for k in range(5)]
    first, last = 300 + WIDTH / 2, 300 + STEP * 4 + WIDTH / 2
    assert _slot_centres(row) == [first - 1.5 * STEP, first - STEP, last + STEP, last + 1.5 * STEP]
    (end, slot), *_ = row_ends.end_slots(row, [[list(range(5))]], RIGHT, np.array([r.box.mean(axis=0) for r in row]),
                                         SIZE)
    assert end == 0 and np.allclose(slot, row[0].box - [STEP, 0])


def test_no_slot_where_a_box_lies_or_beyond_the_photo() -> None:
    row = [_tile(10 + STEP * k) for k in range(5)]  # its left end against the photo's edge
    apart = [_tile(10 + STEP * 4.9, "E")]  # a tile apart lies where the right end's first slot is
    last = 10 + STEP * 4 + WIDTH / 2
    assert _slot_centres(row, apart) == [last + 1.5 * STEP]


def test_a_slot_the_photo_s_frame_cuts_is_probed_while_its_centre_lies_within_the_reach() -> None:
    reach = row_ends.CUT_REACH * STEP
    for beyond, probed in ((0.8 * reach, True), (1.2 * reach, False)):
        first = -beyond + STEP  # the first tile's centre: its slot one step on lies ``beyond`` past the edge
        row = [_tile(first - WIDTH / 2 + STEP * k) for k in range(5)]
        assert (round(-beyond, 1) in _slot_centres(row)) == probed
    # The slot a step and a half on (a tile set apart) must lie in the photo: here 0.8 of the
    # reach past the frame, while the slot touching the end lies inside.
    first = STEP * 1.5 - 0.8 * reach
    row = [_tile(first - WIDTH / 2 + STEP * k) for k in range(5)]
    assert min(_slot_centres(row)) == round(first - STEP, 1) > 0


def test_a_real_hand_whose_last_tile_the_frame_cuts_is_read_whole() -> None:
    """hand_043 of rf-chinese (fold 4, held out): thirteen orphans, its 1m cut by the photo's right
    edge to about a third of its width; the finder boxes thirteen tiles."""
    import cv2
    from fanscan.datasets.real_tables import least_turned, load_table_photos, upright_version

    photos = [p for p in least_turned(load_table_photos()) if p.source == "hand_043"]
    if not photos:
        pytest.skip("../shared/data/rf-chinese is not here")
    upright = upright_version(photos[0])
    reading = reader.read_photo(cv2.imencode(".png", upright.image)[1].tobytes())
    assert sorted(t.code for t in reading.tiles if t.in_hand) == sorted(upright.codes)
    assert reading.hand_accepted


@pytest.mark.parametrize("fifth", ["sideways", "back"])
def test_only_upright_face_up_tiles_make_a_row_s_ends(fifth: str) -> None:
    # The right end is the fourth tile: its slot one step on lies on the fifth, filled; the one a
    # step and a half on lies half a step beyond an upright back's centre, but only 13 px from a
    # sideways tile's, which is longer along the row.
    row = [_tile(300 + STEP * k) for k in range(4)] + [_tile(300 + STEP * 4, "back", sideways=fifth == "sideways")]
    first, fourth = 300 + WIDTH / 2, 300 + STEP * 3 + WIDTH / 2
    beyond = [] if fifth == "sideways" else [fourth + 1.5 * STEP]
    assert _slot_centres(row) == [first - 1.5 * STEP, first - STEP, *beyond]


def test_too_few_neighbours_give_no_typical_step() -> None:
    assert _slot_centres([_tile(300), _tile(300 + STEP), _tile(600)]) == []


def _read(satisfied: bool, tiles: list[TileReading]) -> SimpleNamespace:
    return SimpleNamespace(readings=tiles, best=SimpleNamespace(satisfied=satisfied))


@pytest.mark.parametrize("accepted", [True, False])
def test_the_hand_read_with_a_tile_found_beyond_its_end_is_kept_only_when_the_rules_accept_it(
        monkeypatch: pytest.MonkeyPatch, accepted: bool) -> None:
    hand = [_tile(300 + STEP * k) for k in range(13)]
    found = _tile(300 + STEP * 14, "7p")
    monkeypatch.setattr(row_ends, "probe_ends", lambda *args: [found])
    asked = []

    def read_part(tiles, most_layouts, read_again):  # noqa: ANN001, ANN202
        asked.append((tiles, read_again))
        return _read(accepted, tiles), tiles

    before = _read(False, hand)
    after = row_ends.read_with_ends(before, None, [], np.array([1.0, 0.0]), np.array([0.0, -1.0]), None, None,
                                    read_part)
    assert asked == [([*hand, found], False)]  # the hand's tiles as read, and the tile found
    assert after is (before if not accepted else after) and (after.readings == [*hand, found]) == accepted


def test_nothing_found_beyond_the_ends_leaves_the_hand_as_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_ends, "probe_ends", lambda *args: [])
    before = _read(False, [_tile(300)])
    assert row_ends.read_with_ends(before, None, [], None, None, None, None, None) is before


def test_a_stand_in_classifier_that_cannot_say_no_tile_probes_nothing() -> None:
    row = [_tile(300 + STEP * k) for k in range(5)]
    assert row_ends.probe_ends(None, row, [], np.array([1.0, 0.0]), np.array([0.0, -1.0]), object()) == []


@pytest.mark.skipif("xmahjongg-real" not in tile_art.available_styles(), reason="xmahjongg not installed")
def test_a_winning_tile_set_apart_that_the_finder_missed_is_read_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision.samples import sample_groups

    groups = sample_groups()  # the concealed row, the winning tile set apart after it, a chow, ...
    scene = generate_scene(2032, size=(1280, 960), style="xmahjongg-real", groups=groups)
    (win,) = [t for t in scene.tiles if groups[t.group].kind == "win"]
    located = reader.locate

    def without_it(photo, judge=None):  # noqa: ANN001, ANN202
        small, found = located(photo, judge=judge)
        keep = np.linalg.norm(found.quads.mean(axis=1) - win.quad.mean(axis=0), axis=1) > 10
        assert (~keep).sum() == 1
        return small, TileDetections(found.quads[keep], found.scores[keep], found.backs[keep])

    monkeypatch.setattr(reader, "locate", without_it)
    hand = reader.read_photo(scene.jpeg).hand.to_json()
    assert sorted(hand["concealed"]) == sorted(scene.hand["concealed"])
    assert hand["win_tile"] == scene.hand["win_tile"] and hand["melds"] == scene.hand["melds"]
