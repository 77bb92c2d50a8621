"""The hand cut along its weakest joins when what was picked reads as no hand."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from fanscan.vision import hand_links, hand_splits
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_rules import HandRules

UP = np.array([0.0, -1.0])


def _tile(code: str, x: float, y: float) -> TileReading:
    box = np.float32([[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]])
    return TileReading(code, 0.95, box, 0.0, False, x + 15, ((code, 0.95),))


ROW = [_tile(c, 31 * i, 600) for i, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S S".split())]
PILE = [_tile(c, 31 * (5 + i), 540) for i, c in enumerate("9m 1p W".split())]  # a tile's length behind


@pytest.fixture
def joins(monkeypatch: pytest.MonkeyPatch) -> dict:
    """The links' probabilities set by hand: ``strength[(i, j)]`` (i < j), 0.1 for any pair not named."""
    strength: dict[tuple[int, int], float] = {}
    real = hand_links.links

    def links(readings, up, model=None):  # noqa: ANN001, ANN202
        found = real(readings, up, model)
        probs = np.array([strength.get((min(i, j), max(i, j)), 0.1) for i, j in found.pairs])
        return replace(found, probabilities=probs)

    monkeypatch.setattr(hand_links, "links", links)
    return strength


def test_the_cheapest_cut_parts_a_pile_joined_by_two_weak_links_from_the_row(joins: dict) -> None:
    joins.update({(i, i + 1): 0.99 for i in range(13)})  # the row, surely one
    joins.update({(14, 15): 0.99, (15, 16): 0.99})  # the pile, surely one
    joins.update({(5, 14): 0.8, (7, 16): 0.7})  # the pile to the row: likelier than not, twice
    found = hand_splits.splits(ROW + PILE, UP, fewest=14)
    assert found[0].kept == tuple(range(14))  # the row kept: the fitted choice scores it first
    assert found[0].cost == pytest.approx(math.log(0.8 / 0.2) + math.log(0.7 / 0.3))
    assert [s.cost for s in found] == sorted(s.cost for s in found)
    assert all(len(s.kept) >= 14 for s in found)  # no cut leaves fewer tiles than a hand


def test_no_cut_when_the_hand_is_no_larger_than_the_smallest_complete_hand(joins: dict) -> None:
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    assert hand_splits.splits(ROW, UP, fewest=14) == []


def test_flowers_count_in_no_hand_size_and_cutting_off_only_flowers_is_no_cut(joins: dict) -> None:
    flowers = [_tile("1f", 31 * 15, 600), _tile("2f", 31 * 16, 600)]
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(13, 14): 0.6, (14, 15): 0.99})  # two flowers laid on at the row's end
    assert hand_splits.splits(ROW + flowers, UP, fewest=14) == []  # 14 playing tiles: nothing to cut


def _read_of(hand: dict, satisfied: bool, groups: tuple = (), codes: str = "", stray_backs: int = 0):  # noqa: ANN202
    readings = [_tile(code, 31 * i, 600) for i, code in enumerate(codes.split())]
    return SimpleNamespace(best=SimpleNamespace(satisfied=satisfied, readings=readings,
                                                layout=SimpleNamespace(hand=hand, groups=groups),
                                                events=Counter(stray_back=stray_backs)))


def _tiles(n: int) -> dict:
    return {"concealed": ["1m"] * n, "melds": []}


def test_a_declared_win_that_reads_as_no_hand_is_cut_whenever_it_holds_more_than_the_smallest() -> None:
    # Hands of 14 or 17: 15 and 16 tiles are none (a tile of the table joined to a 14-tile hand),
    # and 17 that read as none may be a 14-tile hand and three tiles of the table
    assert hand_splits.worth_cutting(_read_of(_tiles(15), False), HandRules((14, 17)))
    assert hand_splits.worth_cutting(_read_of(_tiles(16), False), HandRules((14, 17)))
    assert hand_splits.worth_cutting(_read_of(_tiles(17), False), HandRules((14, 17)))
    assert not hand_splits.worth_cutting(_read_of(_tiles(17), True), HandRules((14, 17)))  # a hand already
    assert not hand_splits.worth_cutting(_read_of(_tiles(14), False), HandRules((14, 17)))  # the smallest
    assert not hand_splits.worth_cutting(_read_of(_tiles(13), False), HandRules((14, 17)))  # one short
    # Waiting: 13 or 16, and a complete 14 or 17 is what the photo shows; 15 is neither
    waiting = HandRules((14, 17), "waiting")
    assert [n for n in range(12, 19) if hand_splits.worth_cutting(_read_of(_tiles(n), False), waiting)] == [15, 18]


def test_no_cut_of_a_hand_read_already_of_any_hand_or_of_a_complete_one_asked_for_waiting() -> None:
    eighteen = {"concealed": ["1m"] * 18, "melds": []}
    fifteen_and_a_kong = {"concealed": ["1m"] * 11, "melds": [{"type": "kong", "tiles": ["E"] * 4}]}
    assert hand_splits.worth_cutting(_read_of(eighteen, False), HandRules((14, 17)))
    assert not hand_splits.worth_cutting(_read_of(eighteen, True), HandRules((14, 17)))  # a hand already
    assert not hand_splits.worth_cutting(_read_of(eighteen, False), HandRules((14, 17), "any"))
    # 14 tiles counted (the kong as three): the smallest size, a misread tile's to mend, not to cut off
    assert not hand_splits.worth_cutting(_read_of(fifteen_and_a_kong, False), HandRules((14,)))
    # Asked for a waiting hand, a complete one is what the photo shows, not a tile too many
    assert not hand_splits.worth_cutting(_read_of({"concealed": ["1m"] * 14, "melds": []}, False),
                                          HandRules((14,), "waiting"))
    assert hand_splits.worth_cutting(_read_of({"concealed": ["1m"] * 15, "melds": []}, False),
                                      HandRules((14,), "waiting"))


def test_a_kong_of_four_backs_counts_three_in_a_hand_too_long() -> None:
    # Fourteen faces and four backs of a wall read as a concealed kong: 17 tiles, no MCR hand.
    from fanscan.vision.detections import LayoutGroup

    unread = (LayoutGroup((14, 15, 16, 17), 1, "concealed_kong"),)
    read = _read_of(_tiles(14), False, unread)
    assert hand_splits.worth_cutting(read, HandRules((14,)))
    assert not hand_splits.worth_cutting(_read_of(_tiles(14), False), HandRules((14,)))
    read_kong = (LayoutGroup((11, 12, 13, 14), 1, "concealed_kong", {"type": "kong", "tiles": ["C"] * 4}),)
    laid_so = " ".join(["1m"] * 11 + ["back", "C", "C", "back"])
    assert not hand_splits.worth_cutting(_read_of(_tiles(11), False, read_kong, laid_so), HandRules((14,)))


def test_a_face_down_tile_in_no_kong_counts_in_a_hand_too_long() -> None:
    # Fourteen faces and a wall's end tile, face down and in no concealed kong: 15 tiles, cut;
    # the hand's JSON holds faces only, so counted by faces alone it would be the smallest hand.
    assert hand_splits.worth_cutting(_read_of(_tiles(14), False, stray_backs=1), HandRules((14, 17)))
    assert not hand_splits.worth_cutting(_read_of(_tiles(13), False, stray_backs=1), HandRules((14, 17)))


def test_a_kong_read_as_shown_face_up_in_a_hand_that_reads_as_none_may_be_a_tile_too_many() -> None:
    # Four C side by side among 15 faces, read as a kong (14 counted), but no hand: cut as 15.
    from fanscan.vision.detections import LayoutGroup

    kong = {"type": "kong", "tiles": ["C"] * 4, "concealed": True}
    shown = (LayoutGroup((11, 12, 13, 14), 0, "concealed_kong", kong),)
    hand, faces = {"concealed": ["1m"] * 11, "melds": [kong]}, " ".join(["1m"] * 11 + ["C"] * 4)
    assert hand_splits.worth_cutting(_read_of(hand, False, shown, faces), HandRules((14,)))
    assert not hand_splits.worth_cutting(_read_of(hand, True, shown, faces), HandRules((14,)))


def test_a_part_is_read_as_a_hand_only_when_its_tiles_could_make_one_of_the_rules_sizes() -> None:
    def part(codes: str) -> list[TileReading]:
        return [_tile(c, 31 * i, 0) for i, c in enumerate(codes.split())]

    fourteen = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S S"
    assert hand_splits.may_be_a_hand(part(fourteen), HandRules((14,)))
    assert hand_splits.may_be_a_hand(part(fourteen + " 1f 2f"), HandRules((14,)))  # flowers count in no size
    assert not hand_splits.may_be_a_hand(part(fourteen + " 9m"), HandRules((14,)))
    assert hand_splits.may_be_a_hand(part(fourteen + " E"), HandRules((14,)))  # four E: a kong, counted as three
    with_a_concealed_kong = "1m 2m 3m 4p 5p 6p 7s 8s 9s S S back E E back"  # 15 tiles, counted 14
    assert hand_splits.may_be_a_hand(part(with_a_concealed_kong), HandRules((14,)))
    assert not hand_splits.may_be_a_hand(part(with_a_concealed_kong.replace("back", "W")), HandRules((14,)))
    assert not hand_splits.may_be_a_hand(part(fourteen), HandRules((14,), "waiting"))  # a waiting hand holds 13
    assert hand_splits.may_be_a_hand(part(fourteen), HandRules((14, 17), "win"))


def test_parts_come_in_order_of_their_cuts_summed_cost(joins: dict) -> None:
    second_pile = [_tile(c, 31 * (10 + i), 540) for i, c in enumerate("2p 3s N".split())]
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (17, 18): 0.99, (18, 19): 0.99})
    joins.update({(5, 14): 0.8, (10, 17): 0.75})  # each pile joined to the row by one link
    parts = list(hand_splits.parts_that_may_be_hands(ROW + PILE + second_pile, UP, HandRules((14, 17))))
    sizes = [len(p.kept) for p in parts]
    assert sizes[:2] == [17, 17] and 14 in sizes[2:]  # one pile cut off first, then both
    both = next(p for p in parts if p.kept == tuple(range(14)))
    assert both.cost == pytest.approx(math.log(0.8 / 0.2) + math.log(0.75 / 0.25))
    assert [p.cost for p in parts[:2]] == sorted(p.cost for p in parts[:2])


def test_two_cuts_of_weak_links_come_before_one_cut_of_a_strong_one(joins: dict) -> None:
    stray = [_tile("N", 31 * 14, 600)]  # at the row's end, barely joined to it
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (5, 14): 0.8, (13, 17): 0.6})
    parts = list(hand_splits.parts_that_may_be_hands(ROW + PILE + stray, UP, HandRules((14,))))
    assert parts[0].kept == tuple(range(14))  # pile and stray tile cut off: 1.39 + 0.41 nats
    assert parts[0].cost == pytest.approx(math.log(0.8 / 0.2) + math.log(0.6 / 0.4))
    # A single cut leaves 14 tiles only across the row (its tail cut off with the stray tile)
    assert any(14 in p.kept for p in parts[1:])
    assert min(p.cost for p in parts[1:]) == pytest.approx(math.log(0.99 / 0.01))  # one link of the row


def test_a_hand_joined_to_two_piles_and_a_stray_tile_is_cut_three_times(joins: dict) -> None:
    stray = [_tile("N", 31 * 14, 600)]
    second_pile = [_tile(c, 31 * (10 + i), 540) for i, c in enumerate("2p 3s N".split())]
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (18, 19): 0.99, (19, 20): 0.99})
    joins.update({(5, 14): 0.8, (13, 17): 0.6, (10, 18): 0.75})
    reader = _Reader()
    read, apart = hand_splits.first_complete(ROW + PILE + stray + second_pile, UP, HandRules((14,)), reader)
    assert read.readings == ROW and apart == PILE + stray + second_pile
    assert reader.read == [(14, hand_splits.SPLIT_LAYOUTS)]  # three weak links (2.9 nats) before any of the row's


class _Reader:
    """Reads a part as a hand the rules accept when it holds 14 tiles; keeps what it was asked."""

    def __init__(self) -> None:
        self.read: list[tuple[int, int]] = []  # (tiles, most layouts)

    def __call__(self, part: list[TileReading], most_layouts: int):  # noqa: ANN204
        self.read.append((len(part), most_layouts))
        return SimpleNamespace(best=SimpleNamespace(satisfied=len(part) == 14), readings=part)


def test_the_first_cut_read_as_a_hand_the_rules_accept_is_kept_and_the_rest_set_apart(joins: dict) -> None:
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (5, 14): 0.8, (7, 16): 0.7})
    reader = _Reader()
    read, apart = hand_splits.first_complete(ROW + PILE, UP, HandRules((14,)), reader)
    assert read.readings == ROW and apart == PILE
    assert reader.read == [(14, hand_splits.SPLIT_LAYOUTS)]  # the cheapest cut first, searched less deeply


def test_a_hand_joined_to_two_piles_is_cut_twice(joins: dict) -> None:
    second_pile = [_tile(c, 31 * (10 + i), 540) for i, c in enumerate("2p 3s N".split())]
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (17, 18): 0.99, (18, 19): 0.99})
    joins.update({(5, 14): 0.8, (10, 17): 0.75})  # each pile joined to the row by one link
    reader = _Reader()
    # One cut leaves 17 tiles, no hand of 14: only the row cut from both piles is read
    read, apart = hand_splits.first_complete(ROW + PILE + second_pile, UP, HandRules((14,)), reader)
    assert read.readings == ROW and apart == PILE + second_pile
    assert reader.read == [(14, hand_splits.SPLIT_LAYOUTS)]


def test_no_part_read_as_a_hand_leaves_none_after_a_bounded_number_of_reads(joins: dict) -> None:
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (5, 14): 0.8, (7, 16): 0.7})
    read: list[int] = []

    def never(part: list[TileReading], most_layouts: int):  # noqa: ANN202
        read.append(len(part))
        return SimpleNamespace(best=SimpleNamespace(satisfied=False))

    assert hand_splits.first_complete(ROW + PILE, UP, HandRules((14, 17)), never) is None
    assert 0 < len(read) <= hand_splits.MOST_SPLITS_READ


def test_a_part_is_cut_as_its_tiles_were_linked_and_read_from_them_as_the_whole_read_them(joins: dict) -> None:
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (5, 14): 0.8, (7, 16): 0.7})
    as_read = [replace(r, confidence=0.7) for r in ROW + PILE]  # the whole's second looks, say
    read, apart = hand_splits.first_complete(ROW + PILE, UP, HandRules((14,)), _Reader(), as_read)
    assert read.readings == as_read[:14] and apart == as_read[14:]


def test_tiles_first_read_as_flowers_but_read_by_the_whole_as_playing_tiles_may_be_cut_off(joins: dict) -> None:
    # Two discards touching the hand first read as flowers (a claimed tile's crop, say) and then,
    # read again in the hand's frame, as E and 5m: cutting them off is cutting off playing tiles,
    # and the part left is a hand of 14.
    pair = [_tile("2f", 31 * 5, 540), _tile("5f", 31 * 6, 540)]
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (5, 14): 0.8})
    as_read = ROW + [replace(pair[0], code="E"), replace(pair[1], code="5m")]
    reader = _Reader()
    read, apart = hand_splits.first_complete(ROW + pair, UP, HandRules((14,)), reader, as_read)
    assert read.readings == ROW and apart == as_read[14:]
    # As first read, the two are flowers, which count in no hand's size: no cut is tried
    assert hand_splits.first_complete(ROW + pair, UP, HandRules((14,)), _Reader()) is None


def test_the_links_are_measured_on_the_boxes_as_first_read_and_the_faces_as_read_again(
        monkeypatch: pytest.MonkeyPatch, joins: dict) -> None:
    # Read again in the hand's own frame, a box's corners start elsewhere (its frame turned): the
    # links, fitted on boxes as the hand is picked, are measured on the first boxes.
    joins.update({(i, i + 1): 0.99 for i in range(13)})
    joins.update({(14, 15): 0.99, (15, 16): 0.99, (5, 14): 0.8, (7, 16): 0.7})
    seen: list[list[TileReading]] = []
    measured = hand_links.links

    def recording(readings, up, model=None):  # noqa: ANN001, ANN202
        seen.append(readings)
        return measured(readings, up, model)

    monkeypatch.setattr(hand_links, "links", recording)
    as_read = [replace(r, box=np.roll(r.box, 1, axis=0), code="9m" if k == 16 else r.code)
               for k, r in enumerate(ROW + PILE)]
    read, apart = hand_splits.first_complete(ROW + PILE, UP, HandRules((14,)), _Reader(), as_read)
    assert read.readings == as_read[:14] and apart == as_read[14:]
    first = seen[0]
    assert all(np.array_equal(a.box, b.box) for a, b in zip(first, ROW + PILE))
    assert first[16].code == "9m"  # the face as read again
