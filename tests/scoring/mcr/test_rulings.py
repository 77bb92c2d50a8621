"""The counting principles and the rulings of ../shared/docs/mcr-interpretations.md, one by one."""

from __future__ import annotations

import pytest
from mcr_helpers import fan_ids, score_text

WAIT_FANS = {"edge_wait", "closed_wait", "single_wait"}
CHOW_PAIR_FANS = ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")


# ---------------------------------------------------------------- counting principles


def test_rulings_not_repeated_big_four_winds_drops_what_it_implies() -> None:
    fans = fan_ids("EEESSSWWWNNN11m", seat_wind="E", round_wind="E")
    assert not {"prevalent_wind", "seat_wind", "big_three_winds", "all_pungs"} & set(fans)


def test_rulings_not_repeated_keeps_all_simples_beside_green_and_flush() -> None:
    fans = fan_ids("234234666888s22s")
    assert {"all_green", "full_flush", "all_simples"} <= set(fans)


def test_rulings_account_once_four_chows_give_at_most_three_pair_fans() -> None:
    fans = fan_ids("234567s234567p99m")
    assert sum(fans.get(f, 0) for f in CHOW_PAIR_FANS) == 3


def test_rulings_no_pair_of_chows_counts_twice() -> None:
    fans = fan_ids("234s223344567p55m")
    assert {f: fans.get(f, 0) for f in CHOW_PAIR_FANS[:3]} == {
        "pure_double_chow": 1,
        "mixed_double_chow": 1,
        "short_straight": 1,
    }


def test_rulings_highest_reading_counts() -> None:
    # 111222333m as pungs (一色三节高 + 三暗刻) beats the chows (一色三同顺).
    fans = fan_ids("111222333m456p77s")
    assert "pure_shifted_pungs" in fans and "pure_triple_chow" not in fans


# ---------------------------------------------------------------- waits


def test_rulings_several_waits_score_no_wait_fan() -> None:
    assert not WAIT_FANS & set(fan_ids("12345m456p789sEE3m"))


def test_rulings_wait_on_a_tile_held_four_times_still_counts_as_a_wait() -> None:
    # 23m waits on 1m and 4m; all four 1m are in the kong, yet 4m is not an edge wait.
    assert not WAIT_FANS & set(fan_ids("[1111m1]23m456p789sEE4m"))


def test_rulings_knitted_straight_adds_all_chows() -> None:
    fans = fan_ids("147m258p369s123m55s")
    assert {"knitted_straight", "all_chows"} <= set(fans)


def test_rulings_knitted_straight_tile_read_as_closed_wait_counts() -> None:
    # 4m belongs to the knitted 147m and is the closed wait of 35m.
    assert "closed_wait" in fan_ids("147m258p369s35m55s4m")


# ---------------------------------------------------------------- concealed forms


@pytest.mark.parametrize(
    ("notation", "fan"),
    [
        pytest.param("1133m5577p88sEECC", "seven_pairs", id="seven-pairs"),
        pytest.param("147m258p3sESWNCFP", "greater_honors_and_knitted_tiles", id="greater-knitted"),
        pytest.param("147m258p36sESWNCF", "lesser_honors_and_knitted_tiles", id="lesser-knitted"),
        pytest.param("19m19p19sESWNCFPP", "thirteen_orphans", id="thirteen-orphans"),
        pytest.param("111m222p333444s55m", "four_concealed_pungs", id="four-concealed-pungs"),
        pytest.param("22334455667788p", "seven_shifted_pairs", id="seven-shifted-pairs"),
        pytest.param("11123456789995m", "nine_gates", id="nine-gates"),
    ],
)
def test_rulings_concealed_forms_add_self_drawn_not_fully_concealed(
    notation: str, fan: str
) -> None:
    fans = fan_ids(notation, self_drawn=True)
    assert fan in fans
    assert "self_drawn" in fans
    assert "fully_concealed_hand" not in fans and "concealed_hand" not in fans


# ---------------------------------------------------------------- seven pairs


@pytest.mark.parametrize(
    ("notation", "fan"),
    [
        pytest.param("222233446688sFF", "all_green", id="all-green"),
        pytest.param("EESSWWNNCCFFPP", "all_honors", id="all-honors"),
        pytest.param("111199m1199p1199s", "all_terminals", id="all-terminals"),
        pytest.param("1199m1199pEESSWW", "all_terminals_and_honors", id="terminals-honors"),
        pytest.param("778899m778899p77s", "upper_tiles", id="upper-tiles"),
        pytest.param("4455m4466p445566s", "middle_tiles", id="middle-tiles"),
        pytest.param("112233m112233p11s", "lower_tiles", id="lower-tiles"),
        pytest.param("667788m667788p66s", "upper_four", id="upper-four"),
        pytest.param("223344m223344p11s", "lower_four", id="lower-four"),
    ],
)
def test_rulings_seven_pairs_combine_with_tile_fans(notation: str, fan: str) -> None:
    fans = fan_ids(notation)
    assert {"seven_pairs", fan} <= set(fans)


def test_rulings_seven_pairs_of_even_tiles_is_not_all_even_pungs() -> None:
    fans = fan_ids("224466m224466p88s")
    assert set(fans) == {"seven_pairs", "all_simples"}


@pytest.mark.parametrize(
    ("notation", "fan"),
    [
        pytest.param("EEESSSWWWCCCFF", "all_honors", id="all-honors"),
        pytest.param("111m999pEEESSSNN", "all_terminals_and_honors", id="terminals-honors"),
        pytest.param("[111m1]999m111p999p11s", "all_terminals", id="all-terminals"),
    ],
)
def test_rulings_terminal_and_honor_fans_do_not_add_all_pungs(notation: str, fan: str) -> None:
    fans = fan_ids(notation)
    assert fan in fans and "all_pungs" not in fans


# ---------------------------------------------------------------- suits


@pytest.mark.parametrize(
    ("notation", "fan"),
    [
        pytest.param("CCCFFFPPP123m55p", "big_three_dragons", id="big-three-dragons"),
        pytest.param("CCCFFFPP123m555p", "little_three_dragons", id="little-three-dragons"),
        pytest.param("EEESSSWWW123m55p", "big_three_winds", id="big-three-winds"),
        pytest.param("123123123123p99m", "quadruple_chow", id="quadruple-chow"),
        pytest.param("111222333444m55p", "four_pure_shifted_pungs", id="four-shifted-pungs"),
        pytest.param("123234345456m55p", "four_pure_shifted_chows", id="four-shifted-chows"),
    ],
)
def test_rulings_fans_lacking_a_suit_still_add_one_voided_suit(notation: str, fan: str) -> None:
    fans = fan_ids(notation)
    assert {fan, "one_voided_suit"} <= set(fans)


def test_rulings_reversible_tiles_do_not_add_one_voided_suit() -> None:
    fans = fan_ids("123p345p999p456sPP")
    assert "reversible_tiles" in fans and "one_voided_suit" not in fans


@pytest.mark.parametrize(
    ("notation", "fans_expected"),
    [
        pytest.param("EEESSSWWWNNN11m", {"big_four_winds", "half_flush"}, id="big-half-flush"),
        pytest.param("EEESSSWWWNNNCC", {"big_four_winds", "all_honors"}, id="big-all-honors"),
        pytest.param("EEESSSWWWNN111m", {"little_four_winds", "half_flush"}, id="little-half"),
        pytest.param("EEESSSWWWNNCCC", {"little_four_winds", "all_honors"}, id="little-honors"),
    ],
)
def test_rulings_four_winds_add_half_flush_or_all_honors(
    notation: str, fans_expected: set[str]
) -> None:
    assert fans_expected <= set(fan_ids(notation))


def test_rulings_all_green_adds_full_flush_not_half_flush() -> None:
    assert "half_flush" not in fan_ids("234234666s88sFFF")
    assert "full_flush" in fan_ids("234234666888s22s")


def test_rulings_all_terminals_adds_triple_pung_not_double_pung() -> None:
    assert "double_pung" not in fan_ids("111m111p999m999p11s")
    assert "triple_pung" in fan_ids("111m111p111s999m99p")


# ---------------------------------------------------------------- nine gates


@pytest.mark.parametrize(
    ("win", "pungs"),
    [("2m", 1), ("5m", 1), ("8m", 1), ("1m", 0), ("3m", 0), ("7m", 0), ("9m", 0)],
)
def test_rulings_nine_gates_adds_a_terminal_pung_only_on_2_5_8(win: str, pungs: int) -> None:
    fans = fan_ids(f"1112345678999m{win}")
    assert "nine_gates" in fans
    assert fans.get("pung_of_terminals_or_honors", 0) == pungs


# ---------------------------------------------------------------- kongs and concealed pungs


@pytest.mark.parametrize(
    ("notation", "fan", "points"),
    [
        pytest.param("[1111m][2222p1]345s678s99m", "concealed_kong_and_melded_kong", 5, id="mixed"),
        pytest.param("[1111m][2222p]345s678s99m", "two_concealed_kongs", 6, id="two-concealed"),
        pytest.param("[1111m1][2222p1]345s678s99m", "two_melded_kongs", 4, id="two-melded"),
    ],
)
def test_rulings_two_kongs_score_one_kong_fan(notation: str, fan: str, points: int) -> None:
    result = score_text(notation)
    kong_fans = [f for f in result.fans if "Kong" in f.name]
    assert [(f.points, f.count) for f in kong_fans] == [(points, 1)]


def test_rulings_two_concealed_kongs_do_not_add_two_concealed_pungs() -> None:
    assert "two_concealed_pungs" not in fan_ids("[1111m][2222p]345s678s99m")


def test_rulings_kong_fan_and_concealed_pung_fan_count_together() -> None:
    fans = fan_ids("[1111m][2222p]333s678s99m")
    assert {"two_concealed_kongs", "three_concealed_pungs"} <= set(fans)
    fans = fan_ids("[1111m][2222p1]333s678s99m")
    assert {"concealed_kong_and_melded_kong", "two_concealed_pungs"} <= set(fans)


def test_rulings_concealed_kong_counts_as_concealed_pung() -> None:
    fans = fan_ids("[1111m]222p333s678s99m")
    assert {"concealed_kong", "three_concealed_pungs"} <= set(fans)


def test_rulings_pung_completed_on_a_discard_is_not_concealed() -> None:
    assert "three_concealed_pungs" in fan_ids("111m222p456m99p333s", self_drawn=True)
    assert "three_concealed_pungs" not in fan_ids("111m222p456m99p333s")


# ---------------------------------------------------------------- flowers, minimum, win flags


def test_rulings_flowers_add_after_and_never_reach_the_minimum() -> None:
    result = score_text(
        "[234m1][567p1][678s1]34mEE5m",
        self_drawn=True,
        flowers=["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"],
    )
    assert result.total == 9
    assert result.flower_points == 8
    assert result.meets_minimum is False


def test_rulings_win_on_flower_replacement_is_self_drawn() -> None:
    fans = fan_ids("123m456p789s123sEE", self_drawn=True, flowers=["5f"])
    assert "out_with_replacement_tile" not in fans and "flower_tiles" in fans


def test_rulings_robbing_the_kong_never_adds_last_tile() -> None:
    fans = fan_ids("[234m1][567p1][678s1]34mEE5m", kong=True, fourth_tile=True)
    assert "robbing_the_kong" in fans and "last_tile" not in fans


def test_rulings_last_tile_derived_from_own_melds() -> None:
    # The other three 5m are in the hand's own melds: the win tile is the last one.
    assert "last_tile" in fan_ids("[345m1][456m1][567m1]67mEE5m")


@pytest.mark.parametrize(
    ("conditions", "message"),
    [
        pytest.param({"self_drawn": True, "kong": True}, "the hand has no kong", id="replacement"),
        pytest.param({"fourth_tile": True}, "hold another E", id="fourth-tile"),
    ],
)
def test_rulings_contradictions_are_errors(conditions: dict[str, bool], message: str) -> None:
    result = score_text("123m456p789s123sEE", **conditions)
    assert result.total is None and message in (result.error or "")


def test_rulings_hand_under_minimum_is_still_scored() -> None:
    result = score_text("[123m1][567p1]789s12sEE3s")
    assert result.total is not None and result.total < 8
    assert result.meets_minimum is False and result.error is None


def test_rulings_chicken_hand_only_when_nothing_else_scores() -> None:
    assert fan_ids("[234m1][567p1][678s1]34mEE5m", flowers=["1f"]) == {
        "chicken_hand": 1,
        "flower_tiles": 1,
    }
    assert "chicken_hand" not in fan_ids("[234m1][567p1][678s1]34mEE5m", self_drawn=True)
