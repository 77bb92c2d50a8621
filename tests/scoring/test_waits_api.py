"""fanscan.scoring.waits: the winning tiles of a waiting hand and their scores."""

from __future__ import annotations

import pytest
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.tiles import Tile
from fanscan.scoring.waits import waits

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
