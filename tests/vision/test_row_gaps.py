"""A gap in the hand's rows with room for one or two tiles is probed (``vision.row_gaps``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scenes import generate_scene
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import reader, row_gaps
from fanscan.vision.classifier import Looks
from fanscan.vision.detections import TileDetections, TileReading
from fanscan.vision.image_io import load_photo

STEP, WIDTH = 34.0, 30.0
RIGHT, UP = np.array([1.0, 0.0]), np.array([0.0, -1.0])


def _tile(x: float, code: str = "5m", sideways: bool = False) -> TileReading:
    width, height = (40.0, WIDTH) if sideways else (WIDTH, 40.0)
    box = np.float32([[x, 100], [x + width, 100], [x + width, 100 + height], [x, 100 + height]])
    return TileReading(code, 0.99, box, 0.0, sideways, x + width / 2, ((code, 0.99),), frame_up=(0.0, -1.0))


def _one_row(readings: list[TileReading]) -> list[list[list[int]]]:
    return [[list(range(len(readings)))]]


def _slot_centres(readings: list[TileReading]) -> list[float]:
    slots = row_gaps.gap_slots(readings, _one_row(readings), RIGHT)
    return [round(float(slot.mean(axis=0)[0]), 1) for _, slot in slots]


def test_a_gap_of_two_steps_in_a_row_gives_one_slot_half_way() -> None:
    row = [_tile(STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    assert _slot_centres(row) == [STEP * 3 + WIDTH / 2]
    ((left, slot),) = row_gaps.gap_slots(row, _one_row(row), RIGHT)
    assert left == 2 and np.allclose(slot, row[2].box + [STEP, 0])


@pytest.mark.parametrize("apart", [1.3, 4.0])
def test_a_gap_between_sets_or_of_three_tiles_gives_no_slot(apart: float) -> None:
    # A player's gap between sets (1.3 steps) has no room for a tile; one of four steps has room
    # for three, which are left to the finder (rarely missed side by side).
    row = [_tile(STEP * k) for k in (0, 1, 2)] + [_tile(STEP * (2 + apart + k)) for k in (0, 1, 2)]
    assert _slot_centres(row) == []


def test_a_gap_of_three_steps_gives_two_slots_a_third_and_two_thirds_of_the_way() -> None:
    row = [_tile(STEP * k) for k in (0, 1, 2, 5, 6, 7)]
    assert _slot_centres(row) == [STEP * 3 + WIDTH / 2, STEP * 4 + WIDTH / 2]


def test_a_box_likelier_no_tile_than_a_tile_leaves_its_place_open() -> None:
    row = [_tile(STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    straddling = replace(_tile(STEP * 3 + 15), no_tile=0.6)  # half on the missed tile, half on its neighbour
    with_it = row[:3] + [straddling] + row[3:]
    assert _slot_centres(with_it) == [STEP * 3 + WIDTH / 2]
    surer = row[:3] + [replace(straddling, no_tile=0.4)] + row[3:]
    assert _slot_centres(surer) == []


@pytest.mark.parametrize("plain", ["P", "back"])
def test_a_blank_or_a_back_the_classifier_doubts_still_fills_its_place(plain: str) -> None:
    row = [_tile(STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    doubted = replace(_tile(STEP * 3, code=plain), no_tile=0.7)
    assert _slot_centres(row[:3] + [doubted] + row[3:]) == []


def test_no_slot_where_a_box_lies_already_or_beside_a_sideways_tile() -> None:
    row = [_tile(STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    filled = row + [_tile(STEP * 3 + 4)]  # a box found there, not in the row's list
    assert row_gaps.gap_slots(filled, [[[0, 1, 2, 3, 4, 5]]], RIGHT) == []
    claimed = ([_tile(STEP * k) for k in (0, 1, 2)] + [_tile(STEP * 4, sideways=True)]
               + [_tile(STEP * k) for k in (5, 6)])
    assert _slot_centres(claimed) == []


def test_too_few_neighbours_give_no_typical_step() -> None:
    assert _slot_centres([_tile(0), _tile(STEP), _tile(STEP * 3)]) == []


class _Reads:
    """A stand-in classifier: every crop read as ``code`` at 0.9, with ``no_tile``."""

    answers_no_tile = True

    def __init__(self, code: str, no_tile: float) -> None:
        self.code, self.no_tile, self.crops = code, no_tile, []

    def looks(self, images: list[np.ndarray]) -> Looks:
        self.crops += images
        probs = np.full((len(images), len(CLASS_LABELS)), 0.1 / (len(CLASS_LABELS) - 1), np.float32)
        probs[:, CLASS_LABELS.index(self.code)] = 0.9
        return Looks(probs, np.full(len(images), self.no_tile, np.float32))


@pytest.mark.parametrize(("code", "no_tile", "look", "added"),
                         [("7p", 0.02, 0.9, True), ("7p", 0.3, 0.05, False),
                          ("7p", 0.3, 0.45, True), ("7p", 0.6, 0.9, False),
                          ("back", 0.02, 0.9, False), ("P", 0.85, 0.9, True),
                          ("P", 0.85, 0.45, False)])
def test_a_slot_becomes_a_candidate_when_both_looks_together_find_a_tile_there(
        monkeypatch: pytest.MonkeyPatch, code: str, no_tile: float, look: float,
        added: bool) -> None:
    # The classifier must find a tile likelier than none, and the finder's own look at the slot
    # find a tile likelier than the classifier finds none: a face read on a neighbour's side wall
    # ("no tile" 0.3), where the finder sees table, is no candidate; a far tile the finder looks
    # at weakly, where the classifier is sure, is one. A blank white dragon, of which the
    # classifier's "no tile" says nothing, needs a look likelier a tile than table; a back none.
    from fanscan.vision import slot_looks

    looked_at = []

    def looks(photo, tiles, slots):  # noqa: ANN001, ANN202, ARG001
        looked_at.extend(slots)
        return np.full(len(slots), look)

    monkeypatch.setattr(slot_looks, "tile_probabilities", looks)
    photo = load_photo(cv2.imencode(".png", np.full((300, 400, 3), 200, np.uint8))[1].tobytes())
    row = [_tile(10 + STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    classifier = _Reads(code, no_tile)
    probed = row_gaps.probe_gaps(photo, row, RIGHT, UP, classifier)
    assert len(classifier.crops) == 1 and classifier.crops[0].shape[:2] == (128, 96)
    assert probed[:6] == row
    assert len(probed) == 6 + added
    # The finder is asked only about slots the classifier lets through.
    assert len(looked_at) == (code != "back" and (no_tile < 0.5 or code == "P"))
    if added:
        new = probed[6]
        assert new.code == code and new.confidence == pytest.approx(0.9)
        assert new.finder_score == pytest.approx(look) and new.no_tile == pytest.approx(no_tile)
        assert np.allclose(new.box.mean(axis=0), [10 + STEP * 3 + WIDTH / 2, 120])


def test_the_finder_s_look_at_a_slot_on_plain_table_finds_no_tile() -> None:
    # The real look, not a stand-in: a slot on a plain grey table is table to the finder.
    photo = load_photo(cv2.imencode(".png", np.full((300, 400, 3), 200, np.uint8))[1].tobytes())
    row = [_tile(10 + STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    assert row_gaps.probe_gaps(photo, row, RIGHT, UP, _Reads("7p", 0.02)) == row


def test_a_classifier_that_cannot_say_no_tile_probes_nothing() -> None:
    photo = load_photo(cv2.imencode(".png", np.full((300, 400, 3), 200, np.uint8))[1].tobytes())
    row = [_tile(10 + STEP * k) for k in (0, 1, 2, 4, 5, 6)]
    classifier = _Reads("7p", 0.0)
    classifier.answers_no_tile = False
    assert row_gaps.probe_gaps(photo, row, RIGHT, UP, classifier) == row and classifier.crops == []


def test_the_search_leaves_out_a_probed_slot_that_makes_the_hand_one_too_many() -> None:
    # A complete hand and, in the gap before its winning tile set apart, a slot read as 8p at 90 %
    # whose look by the finder gave even odds of a tile.
    from dataclasses import replace

    from fanscan.vision import interpret
    from fanscan.vision.geometry import hand_frame, rows_and_groups
    from fanscan.vision.hand_rules import HandRules
    from tile_rows import tile_row

    hand = tile_row("1m 2m 3m 9m 9m 2s 4s 5s 5s 5s 3m 4m 5m | 3s")
    probs = np.full(len(CLASS_LABELS), 0.1 / (len(CLASS_LABELS) - 1), np.float32)
    probs[CLASS_LABELS.index("8p")] = 0.9
    slot = replace(hand[-1], code="8p", confidence=0.9, box=hand[-1].box - [31, 0], candidates=(("8p", 0.9),),
                   probs=probs, finder_score=0.5, position=hand[-1].position - 31)
    tiles = [*hand, slot]
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    best = interpret.interpret(tiles, right, up, rows_and_groups(tiles, right, up), (2000, 1000),
                               HandRules((14,), "win"))[0]
    assert best.satisfied and len(tiles) - 1 not in best.kept and len(best.kept) == 14


def _finder_misses(monkeypatch: pytest.MonkeyPatch, centre: np.ndarray) -> None:
    """The reader's first look finds every tile but the one whose centre is ``centre``."""
    located = reader.locate

    def without_one(photo, judge=None):  # noqa: ANN001, ANN202
        small, found = located(photo, judge=judge)
        keep = np.linalg.norm(found.quads.mean(axis=1) - centre, axis=1) > 10
        assert (~keep).sum() == 1
        return small, TileDetections(found.quads[keep], found.scores[keep], found.backs[keep])

    monkeypatch.setattr(reader, "locate", without_one)


@pytest.mark.skipif("xmahjongg-real" not in tile_art.available_styles(), reason="xmahjongg not installed")
def test_a_tile_the_finder_missed_inside_the_hand_s_row_is_read_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision.samples import sample_groups

    scene = generate_scene(2032, size=(1280, 960), style="xmahjongg-real", groups=sample_groups())
    concealed = sorted((t for t in scene.tiles if t.group == 0), key=lambda t: t.quad.mean(axis=0)[0])
    _finder_misses(monkeypatch, concealed[len(concealed) // 2].quad.mean(axis=0))
    hand = reader.read_photo(scene.jpeg).hand.to_json()
    assert sorted(hand["concealed"]) == sorted(scene.hand["concealed"])
    assert hand["melds"] == scene.hand["melds"] and hand["win_tile"] == scene.hand["win_tile"]


@pytest.mark.skipif("kmahjongg-default" not in tile_art.available_styles(), reason="kmahjongg not installed")
@pytest.mark.parametrize("seed", [2030, 2031, 2032])
def test_a_blank_white_dragon_the_finder_missed_in_the_row_is_read_all_the_same(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    # kmahjongg's default set leaves the white dragon blank: the classifier's "no tile" for a crop
    # of it is as high as for a plain patch of table, and only the finder's look tells them apart.
    from fanscan.datasets.scenes import SceneGroup

    groups = [SceneGroup("concealed", ("2m", "3m", "4m", "P", "P", "P", "6s", "7s", "8s", "5p", "5p", "2s", "3s")),
              SceneGroup("win", ("4s",))]
    scene = generate_scene(seed, size=(1280, 960), style="kmahjongg-default", groups=groups)
    blanks = sorted((t for t in scene.tiles if t.code == "P"), key=lambda t: t.quad.mean(axis=0)[0])
    _finder_misses(monkeypatch, blanks[1].quad.mean(axis=0))
    hand = reader.read_photo(scene.jpeg).hand.to_json()
    assert sorted(hand["concealed"]) == sorted(scene.hand["concealed"])
    assert hand["win_tile"] == scene.hand["win_tile"]
