"""A hand picked short of any hand joined to the clusters lying apart, likeliest join first."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from fanscan.vision import hand_joins, hand_links
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_rules import HandRules

UP = np.array([0.0, -1.0])


def _tile(code: str, x: float, y: float, side: float = 30) -> TileReading:
    box = np.float32([[x, y], [x + side, y], [x + side, y + 4 * side / 3], [x, y + 4 * side / 3]])
    return TileReading(code, 0.95, box, 0.0, False, x + side / 2, ((code, 0.95),))


# A standing row of ten, and beyond it (up the photo) a chow and a flower lying flat, and a pile of
# discards further off.
ROW = [_tile(c, 31 * i, 600) for i, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s E E".split())]
CHOW = [_tile(c, 31 * (11 + i), 560) for i, c in enumerate("4s 5s 6s".split())]
FLOWER = [_tile("3f", 31 * 15, 560)]
PILE = [_tile(c, 31 * (2 + i), 480) for i, c in enumerate("9m 1p W".split())]


def _set_links(monkeypatch: pytest.MonkeyPatch, everything: list[TileReading], strength: dict) -> None:
    """The links' probabilities set by hand: ``strength[(a, b)]`` between tiles a < b of
    ``everything`` (each tile known by its box, so that a link keeps its strength in any subset),
    0.01 for any pair not named."""
    real = hand_links.links

    def links(readings, up, model=None):  # noqa: ANN001, ANN202
        found = real(readings, up, model)
        named = [next(k for k, t in enumerate(everything) if np.array_equal(t.box, r.box)) for r in readings]
        return replace(found, probabilities=np.array(
            [strength.get((min(named[i], named[j]), max(named[i], named[j])), 0.01) for i, j in found.pairs]))

    monkeypatch.setattr(hand_links, "links", links)


@pytest.fixture
def joins(monkeypatch: pytest.MonkeyPatch) -> dict:
    """The links over ``ROW + CHOW + FLOWER + PILE`` (``_set_links``): the row, the chow with its
    flower and the pile each surely one; what joins them the test names."""
    strength: dict[tuple[int, int], float] = {}
    _set_links(monkeypatch, ROW + CHOW + FLOWER + PILE, strength)
    strength.update({(i, i + 1): 0.99 for i in range(9)})  # the row
    strength.update({(10, 11): 0.99, (11, 12): 0.99, (12, 13): 0.9})  # the chow and the flower beside it
    strength.update({(14, 15): 0.99, (15, 16): 0.99})  # the pile
    return strength


def _odds_against(p: float) -> float:
    return math.log((1 - p) / p)


def test_the_cheapest_join_takes_in_the_cluster_likeliest_linked_to_the_hand(joins: dict) -> None:
    joins.update({(9, 10): 0.3, (4, 15): 0.1})  # the chow beside the row's end, the pile behind it
    parts = list(hand_joins.parts_that_may_be_hands(ROW, CHOW + FLOWER + PILE, UP, HandRules((14,), "waiting")))
    # 10 + 3 (the flower counts in no size) is a waiting hand; 10 + 3 + 3 is none
    assert parts[0].kept == tuple(range(14))
    assert parts[0].cost == pytest.approx(_odds_against(0.3))
    # The pile alone (13 tiles too) costs more: its link is weaker
    pile_part = next(p for p in parts if p.kept == (*range(10), 14, 15, 16))
    assert pile_part.cost == pytest.approx(_odds_against(0.1))
    assert [p.cost for p in parts] == sorted(p.cost for p in parts)


def test_a_cluster_out_of_every_link_s_reach_is_never_joined() -> None:
    far = [_tile(c, 31 * (40 + i), 100) for i, c in enumerate("4s 5s 6s".split())]  # many tile lengths off
    assert list(hand_joins.parts_that_may_be_hands(ROW, far, UP, HandRules((14,), "waiting"))) == []


def test_a_cluster_is_joined_through_another_joined_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pung lies beyond the chow: linked to it, to the row only as any tile within reach is (0.01);
    # joined through the chow, the two joins' prices summed
    pung = [_tile("9m", 31 * (11 + i), 500) for i in range(3)]
    strength = {(i, i + 1): 0.99 for i in range(9)} | {(10, 11): 0.99, (11, 12): 0.99, (13, 14): 0.99, (14, 15): 0.99}
    strength |= {(9, 10): 0.3, (11, 14): 0.2}
    _set_links(monkeypatch, ROW + CHOW + pung, strength)
    parts = list(hand_joins.parts_that_may_be_hands(ROW, CHOW + pung, UP, HandRules((17,), "waiting")))
    assert parts[0].kept == tuple(range(16))
    assert parts[0].cost == pytest.approx(_odds_against(0.3) + _odds_against(0.2))


def test_joins_stop_at_as_many_as_a_hand_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    singles = [_tile(c, 31 * (11 + i), 600) for i, c in enumerate("1p 2p 3p 4p 5p".split())]  # each alone
    strength = {(i, i + 1): 0.99 for i in range(9)} | {(9 + i, 10 + i): 0.3 for i in range(5)}
    _set_links(monkeypatch, ROW + singles, strength)
    parts = list(hand_joins.parts_that_may_be_hands(ROW, singles, UP, HandRules((14, 17), "waiting")))
    # Three joins make 13, a waiting hand; 16 would take six, and no part is joined past three
    assert parts and all(len(p.kept) == 13 for p in parts)
    assert parts[0].kept == tuple(range(13)) and parts[0].cost == pytest.approx(3 * _odds_against(0.3))


def _read_of(hand: dict | None, satisfied: bool, readings: list[TileReading] = ()):  # noqa: ANN202
    if hand is None:
        return SimpleNamespace(best=None, readings=list(readings))
    return SimpleNamespace(readings=list(readings), best=SimpleNamespace(
        satisfied=satisfied, layout=SimpleNamespace(hand=hand, groups=()), events=Counter()))


def _tiles(n: int) -> dict:
    return {"concealed": ["1m"] * n, "melds": []}


def test_only_a_hand_short_of_the_smallest_the_rules_allow_and_read_as_none_is_joined_to() -> None:
    win = HandRules((14, 17))
    assert [n for n in range(10, 18) if hand_joins.worth_joining(_read_of(_tiles(n), False), win)] == [10, 11, 12, 13]
    assert not hand_joins.worth_joining(_read_of(_tiles(11), True), win)  # read as a hand already
    waiting = HandRules((14, 17), "waiting")
    assert [n for n in range(10, 18) if hand_joins.worth_joining(_read_of(_tiles(n), False), waiting)] == [10, 11, 12]
    assert not hand_joins.worth_joining(_read_of(_tiles(5), False), HandRules((14,), "any"))  # no size asked
    kong = {"concealed": ["1m"] * 11, "melds": [{"type": "kong", "tiles": ["E"] * 4}]}
    assert not hand_joins.worth_joining(_read_of(kong, False), win)  # 14 counted: the kong as three


def test_a_hand_the_search_could_not_read_is_joined_to_when_its_playing_tiles_are_too_few() -> None:
    short = [_tile("1m", 31 * i, 0) for i in range(9)] + [_tile("1f", 31 * 9, 0)]
    assert hand_joins.worth_joining(_read_of(None, False, short), HandRules((14,)))
    assert not hand_joins.worth_joining(_read_of(None, False, short[:1] * 14), HandRules((14,)))


class _Reader:
    """Reads a part as a hand the rules accept when it holds ``complete`` tiles; keeps what it was asked."""

    def __init__(self, complete: int) -> None:
        self.complete = complete
        self.read: list[tuple[int, int]] = []  # (tiles, most layouts)

    def __call__(self, part: list[TileReading], most_layouts: int):  # noqa: ANN204
        self.read.append((len(part), most_layouts))
        return SimpleNamespace(best=SimpleNamespace(satisfied=len(part) == self.complete), readings=part)


def test_the_first_join_read_as_a_hand_is_kept_and_the_rest_stays_apart(joins: dict) -> None:
    joins.update({(9, 10): 0.3, (4, 15): 0.1})
    reader = _Reader(complete=17)  # the row and the chow read as no hand; with the pile too as one
    read, apart = hand_joins.first_complete(ROW, CHOW + FLOWER + PILE, UP, HandRules((17,), "waiting"), reader)
    assert read.readings == ROW + CHOW + FLOWER + PILE and apart == []
    assert reader.read == [(17, hand_joins.SPLIT_LAYOUTS)]


def test_no_join_read_as_a_hand_leaves_the_first_reading_standing(joins: dict) -> None:
    joins.update({(9, 10): 0.3, (4, 15): 0.1})
    reader = _Reader(complete=99)
    assert hand_joins.first_complete(ROW, CHOW + FLOWER + PILE, UP, HandRules((14,), "waiting"), reader) is None
    assert 0 < len(reader.read) <= hand_joins.MOST_SPLITS_READ


def test_slivers_apart_never_join_the_hand() -> None:
    tiny = replace(_tile("2p", 31 * 11, 600, side=12), confidence=0.6)  # small and doubtful: a sliver
    joinable, slivers = hand_joins.joinable(ROW, CHOW + [tiny])
    assert joinable == CHOW and slivers == [tiny]


def test_a_photo_of_many_tiles_apart_offers_a_bounded_number_of_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    # Forty single tiles lying about a short hand, none of whose joins makes a hand's size: of the
    # parts made by as many joins only the cheapest few are joined to again, so the search ends
    # after a few hundred parts, not the thousands of every three of forty.
    scattered = [_tile("1p", 31 * (i % 10), 400 + 45 * (i // 10)) for i in range(40)]
    strength = {(i, i + 1): 0.99 for i in range(9)} | {(k, 10 + k): 0.2 for k in range(10)}
    _set_links(monkeypatch, ROW + scattered, strength)
    looked_at = []
    monkeypatch.setattr(hand_joins, "may_be_a_hand", lambda part, rules: looked_at.append(len(part)) or False)
    assert list(hand_joins.parts_that_may_be_hands(ROW, scattered, UP, HandRules((99,), "waiting"))) == []
    assert 0 < len(looked_at) <= (1 + 2 * hand_joins.PARTS_CUT_AGAIN) * len(scattered)
