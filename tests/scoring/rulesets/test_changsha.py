"""Changsha rules (seed 004, 大胡 / 小胡): the 2-5-8 pair, every hand, opening wins, payments."""

from __future__ import annotations

from typing import Any

import pytest

from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import score

SMALL = "123m456p789s234s55s"  # sets and a pair of 5s: a 小胡


def changsha(notation: str, **fields: Any) -> Any:
    return score({**parse_notation(notation).to_json(), **fields}, "changsha")


def hands(result: Any) -> dict[str, int]:
    return {f.chinese: f.points for f in result.fans}


@pytest.mark.parametrize(
    ("fields", "collected", "payers"),
    [
        pytest.param({}, 1, {"discarder": 1}, id="discard-by-non-dealer"),
        pytest.param({"discarder_dealer": True}, 2, {"discarder": 2}, id="discard-by-dealer"),
        pytest.param({"dealer": True}, 2, {"discarder": 2}, id="dealer-wins-on-discard"),
        pytest.param({"self_drawn": True}, 4, {"dealer": 2, "each other non-dealer": 1},
                     id="self-drawn"),
        pytest.param({"self_drawn": True, "dealer": True}, 6, {"each non-dealer": 2},
                     id="dealer-self-drawn"),
    ],
)
def test_changsha_small_win_payments(fields: dict[str, Any], collected: int,
                                     payers: dict[str, int]) -> None:
    result = changsha(SMALL, **fields)
    assert hands(result) == {"小胡": collected}
    assert result.total == collected
    assert result.details == {"hand": "小胡", "payers": payers}


def test_changsha_small_win_needs_a_258_pair() -> None:
    result = changsha("123m456p789s234s11s")
    assert result.total is None
    assert "2, 5 or 8" in result.error


@pytest.mark.parametrize(
    ("notation", "fields", "big"),
    [
        pytest.param("111m444p777s999s11s", {}, "碰碰胡", id="peng-peng-hu"),
        pytest.param("22558m22558s2588p", {}, "将将胡", id="jiang-jiang-hu-any-shape"),
        pytest.param("123456789m23411m", {}, "清一色", id="qing-yi-se"),
        pytest.param("1122m3344p5566s77s", {}, "七巧对", id="qi-qiao-dui"),
        pytest.param(SMALL, {"last_tile": True}, "海底捞月", id="hai-di"),
        pytest.param("[2222m]456p789s234s55s", {"kong": True, "self_drawn": True}, "杠上花",
                     id="gang-shang-hua"),
        pytest.param("123m456p789s23s55s4s", {"kong": True}, "抢杠胡", id="qiang-gang"),
        pytest.param(SMALL, {"first_turn": True, "dealer": True, "self_drawn": True}, "天胡",
                     id="tian-hu"),
        pytest.param(SMALL, {"first_turn": True, "discarder_dealer": True}, "地胡", id="di-hu"),
    ],
)
def test_changsha_big_hands(notation: str, fields: dict[str, Any], big: str) -> None:
    result = changsha(notation, **fields)
    assert big in hands(result)
    assert result.details["hand"] == "大胡"


@pytest.mark.parametrize(
    ("notation", "fields", "collected"),
    [
        pytest.param("111m444p777s999s11s", {}, 6, id="discard-non-dealer-pays-6"),
        pytest.param("111m444p777s999s11s", {"discarder_dealer": True}, 7, id="dealer-pays-7"),
        pytest.param("111m444p777s999s11s", {"self_drawn": True}, 10, id="self-drawn-4-3-3"),
        pytest.param("111m444p777s999s11s", {"self_drawn": True, "dealer": True}, 12,
                     id="dealer-self-drawn-4-each"),
        pytest.param(SMALL, {"first_turn": True, "dealer": True, "self_drawn": True}, 12,
                     id="tian-hu-4-each"),
        pytest.param(SMALL, {"first_turn": True, "discarder_dealer": True}, 7, id="di-hu-7"),
        pytest.param("123m456p789s23s55s4s", {"kong": True}, 10, id="robbed-non-dealer-10"),
        pytest.param("123m456p789s23s55s4s", {"kong": True, "discarder_dealer": True}, 12,
                     id="robbed-dealer-12"),
    ],
)
def test_changsha_big_hand_payments(notation: str, fields: dict[str, Any],
                                    collected: int) -> None:
    assert changsha(notation, **fields).total == collected


def test_changsha_big_hands_stack() -> None:
    result = changsha("111222333444m99m", self_drawn=True)
    assert hands(result) == {"碰碰胡": 10, "清一色": 10}
    assert result.total == 20
    assert result.details["payers"] == {"dealer": 8, "each other non-dealer": 6}


@pytest.mark.parametrize(
    ("notation", "fields"),
    [
        pytest.param("123m456p789s234s11s", {"last_tile": True}, id="hai-di"),
        pytest.param("[2222m]456p789s234s11s", {"kong": True, "self_drawn": True},
                     id="gang-shang-hua"),
    ],
)
def test_changsha_some_big_hands_need_a_258_pair(notation: str, fields: dict[str, Any]) -> None:
    result = changsha(notation, **fields)
    assert result.total is None
    assert "2, 5 or 8" in result.error


def test_changsha_any_pair_for_a_free_big_hand() -> None:
    result = changsha("111m444p777s999s11s", last_tile=True)
    assert hands(result) == {"碰碰胡": 6}


@pytest.mark.parametrize(
    ("tiles", "dealer", "expected"),
    [
        pytest.param("1m 1m 1m 1m 3m 4m 6m 7m 9p 9p 3s 4s 6s", False, {"四喜", "板板胡"},
                     id="si-xi-and-ban-ban-hu"),
        pytest.param("1m 2m 3m 5m 5m 6m 7m 2p 3p 4p 5p 6p 7p 8p", True, {"缺一色"},
                     id="que-yi-se-dealer-14"),
    ],
)
def test_changsha_opening_wins(tiles: str, dealer: bool, expected: set[str]) -> None:
    # Seed 004: "四喜:起完牌後,玩家手上已有四張一樣的牌,即可胡牌": the hand as dealt wins; nothing
    # completed it, so the dealer's 14 tiles name no winning tile.
    hand = {"concealed": tiles.split(), "opening": True, "dealer": dealer}
    result = score(hand, "changsha")
    assert set(hands(result)) == expected
    per_win = 6 if dealer else 4  # paid like a small self-draw
    assert result.total == per_win * len(expected)


def test_changsha_dealer_opening_may_name_a_win_tile() -> None:
    tiles = "1m 2m 3m 5m 5m 6m 7m 2p 3p 4p 5p 6p 7p 8p".split()
    hand = {"concealed": tiles, "opening": True, "dealer": True, "win_tile": "8p"}
    assert set(hands(score(hand, "changsha"))) == {"缺一色"}


def test_changsha_dealer_hand_that_is_not_an_opening_still_needs_a_win_tile() -> None:
    tiles = "1m 2m 3m 5m 5m 6m 7m 2p 3p 4p 5p 6p 7p 8p".split()
    result = score({"concealed": tiles, "dealer": True}, "changsha")
    assert result.error_code == "invalid_hand"
    assert "win_tile" in result.error


_DEALT = ["1m", "2m", "3m", "5m", "6m", "7m", "2p", "3p", "4p", "5p", "6p", "7p"]


@pytest.mark.parametrize(
    ("hand", "code", "culprit"),
    [
        pytest.param({**parse_notation("123m456p789s234sEE").to_json()}, "not_suited",
                     "E is not a suit tile", id="honor"),
        pytest.param({**parse_notation(SMALL).to_json(), "flowers": ["1f"]}, "not_suited", "1f",
                     id="flower"),
        pytest.param({**parse_notation(SMALL).to_json(), "first_turn": True, "dealer": True},
                     "dealer_first_turn_on_discard", "self_drawn", id="tian-hu-on-discard"),
        pytest.param({**parse_notation(SMALL).to_json(), "first_turn": True},
                     "earthly_win_not_on_dealer_discard", "地胡",
                     id="di-hu-without-dealer-discard"),
        pytest.param({**parse_notation(SMALL).to_json(), "discarder_dealer": True,
                      "self_drawn": True}, "discarder_dealer_conflict", "discarder_dealer",
                     id="discarder-and-self-drawn"),
        pytest.param({**parse_notation("[123m]456p789s234s55s").to_json(), "opening": True,
                      "dealer": True}, "opening_conflict", "no declared sets",
                     id="opening-with-a-meld"),
        pytest.param({"concealed": [*_DEALT, "8s"], "opening": True}, "no_opening_win",
                     "no opening win", id="no-opening-win"),
        pytest.param({"concealed": [*_DEALT, "8p", "9p"], "opening": True}, "invalid_hand", "13",
                     id="non-dealer-opening-has-13"),
        pytest.param(parse_notation("123m456p789s234s11s").to_json(), "not_winning", "2, 5 or 8",
                     id="small-hand-without-258-pair"),
    ],
)
def test_changsha_refuses(hand: dict[str, Any], code: str, culprit: str) -> None:
    result = score(hand, "changsha")
    assert result.total is None
    assert result.error_code == code
    assert culprit in result.error
