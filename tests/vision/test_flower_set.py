"""The photo's flowers read as one set's: no two boxes taken as the same flower."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fanscan.scoring.tiles import CLASS_LABELS, FLOWER_CODES
from fanscan.vision import flower_set
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import face_probabilities


def _reading(k: int, faces: dict[str, float]) -> TileReading:
    """A box at x = 50 k whose classifier probabilities are ``faces`` (the rest spread evenly)."""
    probs = np.full(len(CLASS_LABELS), (1 - sum(faces.values())) / (len(CLASS_LABELS) - len(faces)))
    for code, p in faces.items():
        probs[CLASS_LABELS.index(code)] = p
    code = max(faces, key=faces.__getitem__)
    box = np.float32([[50 * k, 0], [50 * k + 40, 0], [50 * k + 40, 54], [50 * k, 54]])
    ranked = tuple(sorted(faces.items(), key=lambda item: -item[1]))
    return TileReading(code, faces[code], box, 0.0, False, 50.0 * k + 20, ranked, probs=probs)


def test_the_less_sure_of_two_boxes_read_as_one_flower_takes_its_next_likeliest() -> None:
    readings = [_reading(0, {"7f": 0.90, "6f": 0.05}),
                _reading(1, {"7f": 0.55, "8f": 0.40}),
                _reading(2, {"5m": 0.97})]
    out = flower_set.one_of_each_flower(readings)
    assert [r.code for r in out] == ["7f", "8f", "5m"]
    assert out[0] is readings[0] and out[2] is readings[2]
    taken = out[1]
    assert taken.candidates[0][0] == "8f" and [c for c, _ in taken.candidates].count("8f") == 1
    assert taken.confidence == pytest.approx(0.40, abs=0.01)  # all flowers' share times 8f's
    assert CLASS_LABELS[int(face_probabilities(taken).argmax())] == "8f"  # the search starts from it


def test_a_sure_box_is_not_moved_for_an_unsure_one() -> None:
    readings = [_reading(0, {"4f": 0.45, "3f": 0.44}),  # barely 4f: 3f costs it almost nothing
                _reading(1, {"4f": 0.60, "3f": 0.02})]
    assert [r.code for r in flower_set.one_of_each_flower(readings)] == ["3f", "4f"]


def test_distinct_flowers_one_flower_and_no_flower_are_left_as_read() -> None:
    distinct = [_reading(0, {"1f": 0.6, "2f": 0.3}), _reading(1, {"2f": 0.9})]
    assert flower_set.one_of_each_flower(distinct) is distinct
    single = [_reading(0, {"1f": 0.6}), _reading(1, {"1m": 0.9})]
    assert flower_set.one_of_each_flower(single) is single
    assert flower_set.one_of_each_flower([]) == []


def test_more_boxes_read_as_flowers_than_a_set_holds_are_not_one_set_s() -> None:
    readings = [_reading(k, {FLOWER_CODES[k % 8]: 0.9}) for k in range(8)] + [_reading(8, {"1f": 0.8})]
    assert flower_set.one_of_each_flower(readings) is readings


def test_whether_a_box_is_a_flower_stays_as_read() -> None:
    # a box read 2f whose next guess is a suit tile still becomes a flower, never the suit tile
    readings = [_reading(0, {"2f": 0.9}), _reading(1, {"2f": 0.5, "2s": 0.45, "6f": 0.01})]
    out = flower_set.one_of_each_flower(readings)
    assert out[0].code == "2f" and out[1].code == "6f"


def test_tiles_apart_from_the_hand_take_only_the_flowers_the_hand_does_not_hold() -> None:
    lone = [_reading(0, {"1f": 0.47, "3f": 0.30, "2f": 0.10})]
    assert [r.code for r in flower_set.one_of_each_flower(lone, frozenset({"1f", "5f"}))] == ["3f"]
    assert flower_set.one_of_each_flower(lone, frozenset({"5f"})) is lone  # 1f is free
    held = frozenset(FLOWER_CODES[:7])  # one flower free, two boxes apart: not one set's
    two = [_reading(0, {"1f": 0.5}), _reading(1, {"2f": 0.5})]
    assert flower_set.one_of_each_flower(two, held) is two


def test_the_assignment_is_the_likeliest_of_all_distinct_ones() -> None:
    rng = np.random.default_rng(7)
    for k, trials in ((2, 20), (3, 20), (5, 20), (8, 1)):
        for _ in range(trials):
            shares = rng.dirichlet(np.full(8, 0.3), size=k)
            chosen = flower_set.likeliest_distinct(shares)
            assert len(set(chosen)) == k
            logs = np.log(np.maximum(shares, 1e-9))
            every = np.array(list(itertools.permutations(range(8), k)))
            best = logs[np.arange(k), every].sum(axis=1).max()
            assert logs[np.arange(k), chosen].sum() == pytest.approx(best)


def test_the_reader_sets_a_hand_photo_s_flowers_apart_and_a_photo_to_label_s_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision import reader
    from fanscan.vision.samples import sample_photo_path

    calls: list[tuple[list[str], frozenset[str]]] = []

    def recorded(readings: list[TileReading], taken: frozenset[str] = frozenset()) -> list[TileReading]:
        calls.append(([r.code for r in readings], taken))
        return readings

    monkeypatch.setattr(reader.flower_set, "one_of_each_flower", recorded)
    reading = reader.read_photo(sample_photo_path()).to_json()
    before, after = calls[0], calls[-1]  # the whole photo before the hand is picked; the tiles apart after
    assert before[1] == frozenset() and sorted(c for c in before[0] if c in FLOWER_CODES) == \
        sorted(reading["hand"]["flowers"])
    assert after[0] == [t["code"] for t in reading["tiles"] if not t["in_hand"]]
    assert set(reading["hand"]["flowers"]) <= after[1]  # the hand's flowers are taken
    calls.clear()
    reader.read_photo(sample_photo_path(), one_hand=False)
    assert calls == []
