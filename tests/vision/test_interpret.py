"""The reading search (``vision.interpret``) on constructed hands, with evidence made for the test.

The evidence here is not the fitted one: a box's tile probability is its finder score (the tile
model's one weight), faces keep the classifier's probabilities (temperature 1), and each layout
event costs ``EVENT`` nats. Each test pins one constraint or one kind of mend the search must find.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from fanscan.vision import interpret
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import FEATURES, Evidence, LayoutEvidence, TileEvidence
from fanscan.vision.hand_rules import (
    SIXTEEN_TILE_HAND, HandRules, copies_allowed, hand_rules, is_complete, is_waiting, satisfies, tile_count,
    unread_kongs)
from fanscan.vision.geometry import hand_frame, rows_and_groups

from fanscan.errors import FanscanError
from tile_rows import tile_row

EVENT = math.log(0.01)
_WEIGHTS = tuple(2.0 if name == "finder_logit" else 0.0 for name in FEATURES)
EVIDENCE = Evidence(  # a tile's probability is its finder score (logit / 2 * 2, within the model's range)
    TileEvidence(_WEIGHTS, 0.0, (0.0,) * len(FEATURES), (2.0,) * len(FEATURES), 1.0),
    LayoutEvidence(claimed_not_set=EVENT, back_group_not_kong=EVENT, stray_back=EVENT,
                   flower_in_group=EVENT, flower_ends_group=EVENT, max_cost=6.0),
)
WIN = HandRules((14, 17), "win")


def _hand(spec: str, sure: float = 0.99) -> list[TileReading]:
    return tile_row(spec, sure)


def _doubt(tile: TileReading, confidence: float, *guesses: tuple[str, float]) -> TileReading:
    return replace(tile, confidence=confidence, candidates=((tile.code, confidence), *guesses))


def _read(tiles: list[TileReading], rules: HandRules = WIN, n_best: int = 3) -> list[interpret.Interpretation]:
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    rows = rows_and_groups(tiles, right, up)
    return interpret.interpret(tiles, right, up, rows, (2000, 1000), rules, EVIDENCE, n_best)


def _codes(reading: interpret.Interpretation) -> list[str]:
    return [r.code for r in reading.readings]


COMPLETE = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m"


def test_a_complete_hand_is_read_as_it_is() -> None:
    best = _read(_hand(COMPLETE))[0]
    assert best.satisfied and best.changes == () and best.cost == pytest.approx(0.0)
    assert _codes(best) == COMPLETE.replace("| ", "").split()


def test_the_cheapest_completing_guess_is_taken() -> None:
    tiles = _hand(COMPLETE)
    tiles[13] = _doubt(tiles[13], 0.5, ("9m", 0.3), ("8m", 0.15))  # read 9m-ish: 6m 7m 9m breaks it
    tiles[13] = replace(tiles[13], code="9m", confidence=0.5, candidates=(("9m", 0.5), ("8m", 0.3), ("5s", 0.1)))
    best = _read(tiles)[0]
    assert best.satisfied and _codes(best)[13] == "8m"
    (change,) = best.changes
    assert (change.index, change.read, change.taken, change.reason) == (13, "9m", "8m", "that completes the hand")


def test_two_tiles_change_when_one_is_not_enough() -> None:
    tiles = _hand(COMPLETE)
    tiles[0] = replace(tiles[0], code="7m", confidence=0.6, candidates=(("7m", 0.6), ("1m", 0.3)))
    tiles[5] = replace(tiles[5], code="8p", confidence=0.55, candidates=(("8p", 0.55), ("6p", 0.4)))
    best = _read(tiles)[0]
    assert _codes(best)[0] == "1m" and _codes(best)[5] == "6p" and len(best.changes) == 2


def test_no_face_is_taken_more_often_than_a_set_holds_it() -> None:
    tiles = _hand("1m 1m 1m 1m 1m 5p 6p 7p 7s 8s 9s E E | E", sure=0.95)
    tiles[4] = replace(tiles[4], confidence=0.7, candidates=(("1m", 0.7), ("2m", 0.2)))
    for reading in _read(tiles, HandRules((14,), "any")):
        assert all(_codes(reading).count(c) <= copies_allowed(c) for c in set(_codes(reading)))
    best = _read(tiles, HandRules((14,), "any"))[0]
    assert _codes(best)[4] == "2m" and best.changes[0].reason == "a set has only 4 1m"


def test_each_flower_exists_once() -> None:
    tiles = _hand(COMPLETE + " | 2f 2f")
    tiles[-1] = replace(tiles[-1], confidence=0.6, candidates=(("2f", 0.6), ("6f", 0.3)))
    best = _read(tiles)[0]
    assert sorted(best.layout.hand["flowers"]) == ["2f", "6f"]


def test_a_box_of_no_tile_is_left_out_of_a_hand_too_long() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 9p 6m 7m | 8m")
    tiles[11] = replace(tiles[11], confidence=0.4, candidates=(("9p", 0.4), ("5s", 0.2)), finder_score=0.7)
    best = _read(tiles)[0]
    assert best.satisfied and 11 not in best.kept and tile_count(best.layout.hand) == 14
    (change,) = best.changes
    assert change.taken is None and change.reason.startswith("the hand is possible only without it")


def test_a_box_likelier_no_tile_is_left_out_even_when_nothing_asks_it() -> None:
    tiles = _hand(COMPLETE + " | 3f")
    tiles[-1] = replace(tiles[-1], finder_score=0.2)
    best = _read(tiles, HandRules((14,), "any"))[0]
    assert len(best.kept) == 14 and best.layout.hand["flowers"] == []
    assert best.changes[0].reason.startswith("it is more likely no tile (80%)")


def test_a_doubtful_flower_against_the_rows_end_is_kept_and_one_inside_a_group_is_not() -> None:
    # Flowers often lie against the row's end on real tables, seldom inside a group of suit tiles:
    # a box of 80 % read as a flower there is kept (the end event's 0.5 nats against leaving out a
    # tile's 1.4), inside the group it is left out (4.6 nats).
    laid_against = replace(EVIDENCE, layout=replace(EVIDENCE.layout, flower_ends_group=math.log(0.6)))

    def read(spec: str, flower: int, evidence: Evidence) -> interpret.Interpretation:
        tiles = _hand(spec)
        tiles[flower] = replace(tiles[flower], finder_score=0.8)
        right, up = hand_frame(np.stack([t.box for t in tiles]))
        return interpret.interpret(tiles, right, up, rows_and_groups(tiles, right, up), (2000, 1000), WIN,
                                   evidence, 1)[0]

    at_the_end = "3f " + COMPLETE
    assert read(at_the_end, 0, laid_against).layout.hand["flowers"] == ["3f"]
    assert read(at_the_end, 0, EVIDENCE).layout.hand["flowers"] == []  # priced as a flower inside
    inside = "1m 2m 3f 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m"
    best = read(inside, 2, laid_against)
    assert best.layout.hand["flowers"] == []
    (change,) = best.changes  # the hand was complete either way: the reason is where the flower lay
    assert change.taken is None and change.reason == "a flower does not lie in a set, and it may be no tile (20%)"


def test_a_box_left_out_of_a_hand_possible_with_it_is_not_said_to_be_needed_out() -> None:
    tiles = _hand(COMPLETE)
    tiles[5] = replace(tiles[5], finder_score=0.6)
    readings = _read(tiles, HandRules((14,), "any"), n_best=3)
    without = next(r for r in readings if 5 not in r.kept)
    (change,) = without.changes
    assert change.taken is None and change.reason == "it may be no tile (40%)"


def test_a_sure_tile_is_never_left_out_to_complete_a_hand() -> None:
    best = _read(_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 9p 6m 7m | 8m"))[0]
    assert len(best.kept) == 15 and not best.satisfied  # as read, the layout's doubts say why


def test_a_waiting_hand_of_sixteen_is_never_cut_to_a_complete_one() -> None:
    spec = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7s"
    tiles = _hand(spec)
    tiles[15] = replace(tiles[15], confidence=0.5, candidates=(("7s", 0.5),), finder_score=0.8)
    best = _read(tiles, HandRules((17,), "waiting"))[0]
    assert best.satisfied and len(best.kept) == 16


def test_waiting_and_complete_are_told_apart() -> None:
    hand = {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m"],
            "melds": [], "flowers": [], "win_tile": "7m"}
    assert is_waiting(hand) and not is_complete(hand)
    complete = {**hand, "concealed": hand["concealed"] + ["8m"], "win_tile": "8m"}
    assert is_complete(complete) and not is_waiting(complete)


def test_a_claimed_group_is_made_a_set_even_from_a_far_guess() -> None:
    tiles = _hand("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p* 7p")
    tiles[13] = replace(tiles[13], confidence=0.54, candidates=(("7p", 0.54), ("8f", 0.15)),
                        far_guesses=(("6p", 0.01),))
    best = _read(tiles)[0]
    assert _codes(best)[13] == "6p"
    assert {"type": "chow", "tiles": ["4p", "5p", "6p"], "concealed": False} in best.layout.hand["melds"]


def test_back_face_face_back_is_a_concealed_kong() -> None:
    tiles = _hand("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | back 4p 4p back")
    best = _read(tiles)[0]
    assert {"type": "kong", "tiles": ["4p"] * 4, "concealed": True} in best.layout.hand["melds"]


def test_a_concealed_kong_is_not_broken_up_to_make_a_hand_of_the_rules_size() -> None:
    # 14 tiles read as a hand waiting to win (13): leaving out one back of the kong would make the
    # count, but a group with a back that is no concealed kong costs as much as it gains.
    tiles = _hand("2m 3m 4m 2s 3s 5p 5p | 4s | 2p 3p* 4p | back C C back")
    for i in (len(tiles) - 1, len(tiles) - 4):
        tiles[i] = replace(tiles[i], finder_score=0.98)
    best = _read(tiles, HandRules((14,), "waiting"))[0]
    assert not best.satisfied and len(best.kept) == len(tiles)
    assert {"type": "kong", "tiles": ["C"] * 4, "concealed": True} in best.layout.hand["melds"]


def test_a_back_in_no_concealed_kong_costs_the_reading() -> None:
    tiles = _hand(COMPLETE + " back")
    tiles[-1] = replace(tiles[-1], finder_score=0.9)
    best = _read(tiles)[0]
    assert 14 not in best.kept  # its box is left out: 0.9 as a tile, but no back lies alone


def test_four_backs_are_a_kong_in_the_hands_size() -> None:
    # Beside a complete hand of 14, four backs make 17 (a kong whose face is unseen): no MCR hand.
    # Read as a hand of 14 (wall tiles taken in, say), the backs go, though each is likelier a
    # tile than not (before, the hand JSON, which cannot hold a kong of no known face, passed).
    tiles = _hand(COMPLETE + " | back back back back")
    for i in range(14, 18):
        tiles[i] = replace(tiles[i], finder_score=0.7)
    best = _read(tiles, HandRules((14,), "win"))[0]
    assert best.satisfied and best.kept == tuple(range(14))
    as_sixteen_tile_game = _read(tiles, HandRules((17,), "win"))[0]  # 5 sets and a pair: a 17-tile hand
    assert as_sixteen_tile_game.satisfied and len(as_sixteen_tile_game.kept) == 18


def test_an_unread_kong_completes_a_hand_of_eleven_faces() -> None:
    tiles = _hand("1m 2m 3m 7s 8s 9s E E 6m 7m | 8m | back back back back")
    best = _read(tiles, HandRules((14,), "win"))[0]
    assert best.satisfied and len(best.kept) == 15 and best.changes == ()
    assert tile_count(best.layout.hand) == 11 and unread_kongs(best.layout.groups) == 1
    assert any("four backs" in d for d in best.layout.doubts)  # its face is still to be shown


def test_a_stray_back_makes_no_hand_even_when_the_faces_do() -> None:
    reading = _read(_hand(COMPLETE + " | back back back"), HandRules((14, 17), "win"))[0]
    # Three backs are no kong: the faces alone make 14, but three tiles of the hand are unknown.
    assert not reading.satisfied or len(reading.kept) == 14


def test_hand_sizes_count_an_unread_kong_as_three() -> None:
    eleven = {"concealed": ["1m", "2m", "3m", "7s", "8s", "9s", "E", "E", "6m", "7m", "8m"], "melds": [],
              "flowers": [], "win_tile": "8m"}
    assert tile_count(eleven, unread_kongs=1) == 14
    assert satisfies(eleven, HandRules((14,), "win"), unread_kongs=1)
    assert not satisfies(eleven, HandRules((14,), "win"))
    assert not satisfies(eleven, HandRules((14,), "win"), unread_kongs=2)
    ten = {**eleven, "concealed": eleven["concealed"][:-1], "win_tile": None}
    assert satisfies(ten, HandRules((14,), "waiting"), unread_kongs=1)
    fourteen = {**eleven, "concealed": eleven["concealed"][:-1] + ["9m", "9m", "9m", "8m"]}
    assert satisfies(fourteen, HandRules((14,), "win"))
    assert not satisfies(fourteen, HandRules((14,), "win"), stray_backs=1)  # a tile of unknown face beside it
    assert satisfies(fourteen, HandRules((14,), "any"), stray_backs=1)


def test_a_flower_inside_a_pung_is_its_kongs_fourth_tile() -> None:
    tiles = _hand("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 5s 5s* 5s 3f")
    tiles[-1] = replace(tiles[-1], confidence=0.5, candidates=(("3f", 0.5), ("5s", 0.2)))
    best = _read(tiles)[0]
    assert {"type": "kong", "tiles": ["5s"] * 4, "concealed": False} in best.layout.hand["melds"]
    assert best.layout.hand["flowers"] == []


def test_a_search_bounded_to_fewer_layouts_stops_before_a_mend_it_would_find() -> None:
    tiles = _hand(COMPLETE)
    tiles[0] = replace(tiles[0], code="7m", confidence=0.6, candidates=(("7m", 0.6), ("1m", 0.3)))
    tiles[5] = replace(tiles[5], code="8p", confidence=0.55, candidates=(("8p", 0.55), ("6p", 0.4)))
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    rows = rows_and_groups(tiles, right, up)
    found = interpret.interpret(tiles, right, up, rows, (2000, 1000), WIN, EVIDENCE, most_layouts=1)
    assert not found[0].satisfied  # the tiles as read, laid out once, make no hand
    assert _read(tiles)[0].satisfied  # within the whole budget two changes mend it


def test_a_hand_no_mend_within_the_budget_completes_stays_as_read() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 1s")  # a sure 1s where 8m should be
    best = _read(tiles)[0]
    assert not best.satisfied and best.changes == () and _codes(best)[13] == "1s"


def test_any_hand_asks_no_mending() -> None:
    tiles = _hand(COMPLETE)
    tiles[13] = replace(tiles[13], code="9m", confidence=0.5, candidates=(("9m", 0.5), ("8m", 0.3)))
    best = _read(tiles, HandRules((14,), "any"))[0]
    assert best.satisfied and _codes(best)[13] == "9m"


def test_the_best_readings_come_likeliest_first() -> None:
    tiles = _hand(COMPLETE)
    tiles[13] = replace(tiles[13], confidence=0.45, candidates=(("8m", 0.45), ("5m", 0.40)))
    found = _read(tiles)
    assert len(found) >= 2 and [r.cost for r in found] == sorted(r.cost for r in found)
    assert _codes(found[0])[13] == "8m" and _codes(found[1])[13] == "5m"


def test_no_readings_means_no_interpretations() -> None:
    assert interpret.interpret([], np.array([1.0, 0.0]), np.array([0.0, -1.0]), [], (10, 10), WIN, EVIDENCE) == []


def test_hand_rules_come_from_the_rule_set() -> None:
    assert hand_rules("mcr").sizes == (14,)
    assert hand_rules(None).sizes == (14, SIXTEEN_TILE_HAND)
    assert hand_rules("sichuan", "waiting") == HandRules((14,), "waiting")
    with pytest.raises(FanscanError, match="win, waiting or any"):
        hand_rules("mcr", "standing")  # type: ignore[arg-type]
    with pytest.raises(FanscanError, match="unknown rule set"):
        hand_rules("riichi-ish")


def test_hand_rules_take_a_size_asked_for_outright() -> None:
    assert hand_rules("mcr", "waiting", SIXTEEN_TILE_HAND) == HandRules((SIXTEEN_TILE_HAND,), "waiting")
    assert hand_rules(None, "win", 14) == HandRules((14,), "win")
    with pytest.raises(FanscanError, match="unknown rule set"):
        hand_rules("riichi-ish", "win", 17)
    for size in (13, 16, 20, -1):
        with pytest.raises(FanscanError, match="not " + str(size)):
            hand_rules(None, "win", size)


def test_a_photo_of_more_tiles_than_any_hand_asks_only_for_the_copies() -> None:
    # 40 tiles of a wall: no reading within the budget has 14 or 17 tiles, so the search lays out
    # two readings (as made, and mending only faces read more often than a set holds them), not hundreds.
    codes = " ".join(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p"] * 4)
    tiles = _hand(codes)
    tiles[0] = replace(tiles[0], confidence=0.6, candidates=(("1m", 0.6), ("1s", 0.3)))
    fifth = _hand("1m")[0]
    tiles.append(replace(fifth, box=fifth.box + np.float32([1400, 0])))  # a fifth 1m, far to the right
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    search = interpret._Search(tiles, right, up, rows_and_groups(tiles, right, up), (4000, 1000), WIN, EVIDENCE)
    assert not search._sizes_reachable()
    best = search.run(3)[0]
    assert not best.satisfied and search.layouts <= 2  # the reading as made, and the one mended
    assert [r.code for r in best.readings].count("1m") == 4 and best.readings[0].code == "1s"


def test_the_hand_size_registry_agrees_with_every_rule_set() -> None:
    from fanscan.scoring.ruleset import HAND_SIZES, RULESETS, get_ruleset

    assert set(HAND_SIZES) == set(RULESETS)
    assert all(HAND_SIZES[name] == get_ruleset(name).hand_size for name in RULESETS)


def test_two_boxes_on_one_tile_are_never_both_kept() -> None:
    # A gap's probe cut where a box first read as no tile lies (then read again as 6p, surely):
    # one tile, so one reading, even where the rules ask nothing of the hand's size.
    tiles = _hand(COMPLETE)
    probe = replace(tiles[5], code="9p", confidence=0.64, candidates=(("9p", 0.64), ("6p", 0.2)),
                    box=tiles[5].box + np.float32([6, 0]), finder_score=0.5)
    best = _read([*tiles, probe], HandRules((14,), "any"))[0]
    assert best.kept == tuple(range(14)) and _codes(best) == COMPLETE.replace("| ", "").split()
    (change,) = best.changes
    assert change.index == 14 and change.taken is None
    assert change.reason == "another box on the same tile reads it as 6p"
    # A box beside the tile, not on it, is a tile of its own
    beside = replace(probe, box=tiles[5].box + np.float32([400, 0]))
    assert len(_read([*tiles, beside], HandRules((15,), "any"))[0].kept) == 15


def test_a_box_across_two_tiles_of_a_pung_is_no_fourth_tile() -> None:
    # The box read as 1m across the second and third 1m would make a concealed kong (a complete
    # hand of 15): its centre lies half a tile from theirs, so it is no tile of its own.
    pung = "1m 1m 1m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m"
    tiles = _hand(pung)
    across = replace(tiles[1], confidence=0.9, candidates=(("1m", 0.9),), box=tiles[1].box + np.float32([15, 0]),
                     finder_score=0.9)
    best = _read([*tiles, across])[0]
    assert best.satisfied and best.kept == tuple(range(14)) and _codes(best) == pung.replace("| ", "").split()
    (change,) = best.changes
    assert change.index == 14 and change.reason == "another box on the same tile reads it as 1m"


TIGHT = Evidence(EVIDENCE.tiles, replace(EVIDENCE.layout, max_cost=3.0))  # the shipped evidence's budget


def _read_tight(tiles: list[TileReading]) -> interpret.Interpretation:
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return interpret.interpret(tiles, right, up, rows_and_groups(tiles, right, up), (2000, 1000), WIN, TIGHT)[0]


def test_a_sure_half_box_on_a_pung_tile_is_left_out_though_a_tile_that_sure_costs_past_the_budget() -> None:
    # One tile of a pung boxed twice, the second box a narrow half read as surely as the rest:
    # leaving a box that sure out costs more than the budget (-log 0.01 = 4.6 nats), but this
    # one's twin holds the tile, so leaving it out costs nothing and the pung is no kong.
    pung = "1m 1m 1m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m"
    tiles = _hand(pung)
    half = replace(tiles[0], box=tiles[0].box * np.float32([0.6, 1]) + np.float32([12, 0]))
    best = _read_tight([*tiles, half])
    assert best.satisfied and len(best.kept) == 14 and sorted(_codes(best)) == sorted(pung.replace("| ", "").split())
    assert best.layout.hand["melds"] == []
    (change,) = best.changes
    assert change.taken is None and change.reason == "another box on the same tile reads it as 1m"


def test_a_sure_tile_boxed_twice_is_not_left_out_whole_to_complete_a_hand() -> None:
    # A 15th tile, sure, boxed twice: either box may go for the other's sake, not both at once,
    # which would leave out a sure tile.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 9p 6m 7m | 8m")
    twin = replace(tiles[11], box=tiles[11].box + np.float32([8, 0]))
    best = _read_tight([*tiles, twin])
    assert not best.satisfied and sum(r.code == "9p" for r in best.readings) == 1


def test_of_two_boxes_on_one_tile_the_hand_keeps_the_one_that_completes_it() -> None:
    tiles = _hand(COMPLETE)
    tiles[5] = replace(tiles[5], code="9p", confidence=0.9, candidates=(("9p", 0.9),), finder_score=0.5)
    probe = replace(tiles[5], code="6p", confidence=0.6, candidates=(("6p", 0.6),),
                    box=tiles[5].box + np.float32([6, 0]), finder_score=0.5)
    best = _read([*tiles, probe])[0]
    assert best.satisfied and 5 not in best.kept and 14 in best.kept
    assert sorted(_codes(best)) == sorted(COMPLETE.replace("| ", "").split())


def test_a_box_on_one_tile_with_another_that_is_likelier_no_tile_keeps_its_tile() -> None:
    # The box first read is likelier no tile (a straddling box, say): the tiles as read keep only
    # the probe, which breaks nothing, and it stays the hand's tile.
    tiles = _hand(COMPLETE)
    tiles[5] = replace(tiles[5], code="2f", confidence=0.16, candidates=(("2f", 0.16),), finder_score=0.2)
    probe = replace(tiles[5], code="6p", confidence=0.97, candidates=(("6p", 0.97),),
                    box=tiles[5].box + np.float32([2, -6]), finder_score=0.5)
    best = _read([*tiles, probe], HandRules((14,), "any"))[0]
    assert 5 not in best.kept and 14 in best.kept
    assert best.changes[0].reason.startswith("it is more likely no tile")
