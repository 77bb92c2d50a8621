"""Kongs shown face up in the concealed row (``vision.row_kongs``, read by ``layout.analyse``)."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.scoring import score
from fanscan.vision import interpret, row_kongs
from fanscan.vision.geometry import hand_frame, rows_and_groups
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.layout import analyse
from tile_rows import tile_row


def _layout(spec: str, complete: bool = True):  # noqa: ANN202
    tiles = tile_row(spec)
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return analyse(tiles, right, up, complete=complete)


def test_four_alike_in_a_row_one_tile_over_a_hand_are_a_concealed_kong() -> None:
    found = _layout("P P P N N N 9s 9s 6s 6s 6s 6s 8s 8s | 8s")
    hand = found.hand
    assert hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]
    assert sorted(hand["concealed"]) == sorted("P P P N N N 9s 9s 8s 8s 8s".split())
    assert hand["win_tile"] == "8s"
    assert [g.role for g in found.groups if g.role == "concealed_kong"] == ["concealed_kong"]
    assert any("Four 6s stand side by side" in d for d in found.doubts)
    (described, exposed), = [(d, h) for d, h in found.alternatives if "claimed (exposed)" in d]
    assert exposed["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": False}]
    assert hand["melds"][0]["concealed"]  # the alternative is a copy
    result = score(hand)
    assert result.error is None and result.total > 0


def test_a_kong_parted_by_a_gap_in_the_row_is_still_a_kong_and_its_group_no_longer_in_doubt() -> None:
    found = _layout("P P P N N N 9s 9s 6s 6s | 6s 6s 8s 8s 8s")
    assert found.hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]
    assert sorted(found.hand["concealed"]) == sorted("P P P N N N 9s 9s 8s 8s 8s".split())
    assert not any("stand apart but do not form a set" in d for d in found.doubts)
    assert score(found.hand).error is None


def test_a_kong_that_takes_the_tile_standing_apart_leaves_no_winning_tile_apart() -> None:
    found = _layout("6s | 6s 6s 6s P P P N N N 9s 9s 8s 8s 8s")
    assert found.hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]
    assert found.hand["win_tile"] == "8s"
    assert [g.role for g in found.groups].count("win") == 0
    assert not any("left of the concealed tiles" in d for d in found.doubts)
    assert any(d.startswith("No tile stands apart as the winning tile once the kong of 6s takes the tile "
                            "that stood apart, so the last concealed tile (8s) was taken") for d in found.doubts)


def test_a_set_laid_between_parts_four_alike() -> None:
    # 6s 6s, a chow laid apart, 6s 6s: the four are no neighbours in the row.
    found = _layout("P P P N N N 9s 9s 6s 6s | 1m 2m 3m | 6s 6s")
    assert not any(m["type"] == "kong" for m in found.hand["melds"])


def test_a_group_the_kong_takes_only_part_of_is_said_again_for_the_rest() -> None:
    found = _layout("P P P N N N 9s 9s 9s 6s 6s 6s | 6s 7s | 8s")
    assert found.hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]
    assert "The tile 7s stands apart but is no set; it was counted as a concealed tile." in found.doubts
    assert not any("6s 7s" in d for d in found.doubts)


def test_two_kongs_in_a_row_of_sixteen_and_one_in_a_sixteen_tile_game_s_eighteen() -> None:
    two = _layout("1s 1s 1s 1s 4s 4s 4s 6s 6s 6s W W W W 5s | 5s").hand
    assert [m["tiles"][0] for m in two["melds"]] == ["1s", "W"] and len(two["concealed"]) == 8
    eighteen = _layout("1m 1m 1m 1m 2m 3m 4m 5p 6p 7p 7s 8s 9s 2s 3s 4s E | E").hand
    assert [m["tiles"] for m in eighteen["melds"]] == [["1m"] * 4] and len(eighteen["concealed"]) == 14


@pytest.mark.parametrize("spec", [
    "1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s E | E",  # 14 tiles: four alike used in sets, no kong
    "1s 1s 1s 3s 3s 3s 2s 3s 4s 4s 5s 6s 7s 8s | 8s",  # 15, but the four 3s do not stand together
    "1m 1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 1s 2s | 3s",  # 21: a pile, no hand with a kong
])
def test_no_kong_where_the_hand_needs_none_or_the_four_stand_apart(spec: str) -> None:
    assert _layout(spec).hand["melds"] == []


def test_a_waiting_hand_is_not_read_for_shown_kongs() -> None:
    assert _layout("P P P N N N 9s 9s 6s 6s 6s 6s 8s 8s | 8s", complete=False).hand["melds"] == []


def test_runs_of_four_are_faces_alike_side_by_side_never_backs_or_flowers() -> None:
    tiles = tile_row("back back back back 1f 1f 1f 1f 2p 2p 2p 2p 2p 3p")
    codes = [t.code for t in tiles]
    assert row_kongs.runs_of_four(list(range(len(tiles))), codes, tiles) == [[8, 9, 10, 11]]


def test_the_search_reads_a_row_with_a_shown_kong_as_a_complete_hand() -> None:
    tiles = tile_row("P P P N N N 9s 9s 6s 6s 6s 6s 8s 8s | 8s")
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    best = interpret.interpret(tiles, right, up, rows_and_groups(tiles, right, up), (2000, 1000),
                               HandRules((14,), "win"))[0]
    assert best.satisfied and len(best.kept) == 15
    assert best.layout.hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]


def test_four_alike_in_the_hand_s_second_row_are_a_kong_and_that_row_no_longer_in_doubt() -> None:
    # A long hand laid in two rows: the kong shown face up in the second.
    tiles = tile_row("P P P 9s 9s 8s 8s | 8s") + tile_row("4s 4s 4s 6s 6s 6s 6s", y=160.0)
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    found = analyse(tiles, right, up, rows_and_groups(tiles, right, up), complete=True)
    assert found.hand["melds"] == [{"type": "kong", "tiles": ["6s"] * 4, "concealed": True}]
    assert sorted(found.hand["concealed"]) == sorted("P P P 9s 9s 8s 8s 8s 4s 4s 4s".split())
    (kong,) = [g for g in found.groups if g.role == "concealed_kong"]
    assert all(tiles[i].box[0][1] == 160.0 for i in kong.members)  # the second row's
    assert not any("is not a chow, pung or kong" in d for d in found.doubts)
    assert score(found.hand).error is None
    # The same row of seven with a tile fewer (14 playing tiles) needs no kong: four alike stay four tiles.
    short = tile_row("P P P 9s 9s 8s | 8s") + tile_row("4s 4s 4s 6s 6s 6s 6s", y=160.0)
    right, up = hand_frame(np.stack([t.box for t in short]))
    assert analyse(short, right, up, rows_and_groups(short, right, up), complete=True).hand["melds"] == []
