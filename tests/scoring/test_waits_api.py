"""fanscan.scoring.waits: the winning tiles of a waiting hand and their scores."""

from __future__ import annotations

import pytest
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.tiles import Tile
from fanscan.scoring.waits import unscored_waits, waits

from fanscan.errors import FanscanError


def test_waits_lists_each_tile_with_both_ways_to_win() -> None:
    options = waits(parse_notation("123m456p78s234sEE", complete=False))
    assert [o.tile for o in options] == [Tile.S6, Tile.S9]
    six, nine = options
    assert nine.remaining == 4
    names = {f.name for f in nine.discard.fans}
    assert "Mixed Straight" in names and "Self-Drawn" not in names
    assert "Fully Concealed Hand" in {f.name for f in nine.self_drawn.fans}
    assert "Mixed Straight" not in {f.name for f in six.discard.fans}


def test_waits_marks_a_tile_with_no_copy_left() -> None:
    (option,) = waits(parse_notation("1111m234p567s789s", complete=False))
    assert option.tile is Tile.M1 and option.remaining == 0
    assert option.discard.total is None and "all four 1m" in (option.discard.error or "")


def test_waits_not_waiting_gives_nothing() -> None:
    assert waits(parse_notation("1357m2468p13579s", complete=False)) == []


def test_waits_rejects_complete_hand() -> None:
    with pytest.raises(FanscanError, match="a waiting hand here has 13"):
        waits(parse_notation("123m456p789s123sEE"))


def test_waits_json_names_the_tile() -> None:
    (option,) = waits(parse_notation("123m456p789s123sE", complete=False))
    obj = option.to_json()
    assert obj["tile"] == "E" and obj["discard"]["total"] == 12


def test_unscored_waits_lists_a_sixteen_tile_hands_winning_tiles() -> None:
    # Five sets and a pair when won: 123m 456p 789s 123s and 45m wait on 3m or 6m, 77p the pair;
    # the hand holds one 3m (3 left) and no 6m (4 left).
    options = unscored_waits(parse_notation("123m456p789s123s45m77p", complete=False, size=16))
    assert [(o.tile, o.remaining) for o in options] == [(Tile.M3, 3), (Tile.M6, 4)]
    assert all(o.discard is None and o.self_drawn is None for o in options)
    assert options[0].to_json() == {"tile": "3m", "remaining": 3, "discard": None, "self_drawn": None}


def test_unscored_waits_knows_no_fourteen_tile_forms() -> None:
    # Eight pairs: no tile makes them five sets and a pair (the 14-tile rules' seven pairs is no
    # form of the 16-tile games).
    assert unscored_waits(parse_notation("1133m5577p1199s22sEE", complete=False, size=16)) == []


def test_unscored_waits_asks_for_sixteen_tiles() -> None:
    with pytest.raises(FanscanError, match="a waiting hand here has 16"):
        unscored_waits(parse_notation("123m456p789s123sE", complete=False))


@pytest.mark.parametrize("waiting", ["123m456m789m123pE", "123m456m789m12pEE"])
def test_waits_lists_every_tile_a_wild_hand_is_scored_a_win_on(waiting: str) -> None:
    # app-custom with 東 as the wild (翻混 on a turned 東): the wild stands for any tile, so the
    # hand wins on tiles its shape alone does not wait on; waits lists exactly those score accepts.
    from fanscan.scoring.hand import Hand
    from fanscan.scoring.ruleset import extra_field_defaults, get_ruleset, score
    from fanscan.scoring.tiles import PLAYING_TILES

    wild = {"wild": "same", "wild_indicator": "E"}
    ruleset = get_ruleset("app-custom")
    obj = {**parse_notation(waiting, complete=False).to_json(), **wild}
    hand = Hand.from_json(obj, extra_fields=extra_field_defaults(ruleset), size=13)
    listed = {o.tile.code for o in waits(hand, "app-custom")}
    scored = {t.code for t in PLAYING_TILES
              if score({**parse_notation(waiting + t.code).to_json(), **wild}, "app-custom").error is None}
    assert listed == scored and len(listed) > 1  # the shape alone: E (one wild) or 3p (two)
    assert {o.tile.code for o in waits(parse_notation(waiting, complete=False), "app-custom")} < listed


def test_waits_under_rules_without_wilds_are_the_shapes_alone() -> None:
    assert [o.tile.code for o in waits(parse_notation("123m456p789s123sE", complete=False))] == ["E"]
