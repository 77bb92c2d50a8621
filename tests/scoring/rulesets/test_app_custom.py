"""App-custom rules (seed 003): its fan values, its * fans, dealer doubling and the wild tile."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from fanscan.scoring.generate import random_hand
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import get_ruleset, score

# The values seed 003's table gives the MCR fans it lists (by MCR fan id).
SEED_VALUES = {
    "thirteen_orphans": 88, "lesser_honors_and_knitted_tiles": 12,
    "greater_honors_and_knitted_tiles": 24, "seven_pairs": 24, "seven_shifted_pairs": 88,
    "knitted_straight": 12, "last_tile_claim": 8, "last_tile_draw": 8,
    "out_with_replacement_tile": 8, "big_four_winds": 88, "little_four_winds": 64,
    "big_three_dragons": 88, "little_three_dragons": 64, "mixed_straight": 8,
    "pure_straight": 16, "nine_gates": 88, "all_green": 88, "all_even_pungs": 24,
    "all_fives": 16, "outside_hand": 4, "upper_four": 12, "lower_four": 12, "upper_tiles": 24,
    "middle_tiles": 24, "lower_tiles": 24, "all_simples": 2, "all_terminals_and_honors": 32,
    "all_terminals": 64, "reversible_tiles": 8, "two_terminal_chows": 1,
    "three_suited_terminal_chows": 16, "pure_terminal_chows": 64, "mixed_shifted_chows": 6,
    "pure_shifted_chows": 16, "four_pure_shifted_chows": 32, "mixed_shifted_pungs": 8,
    "pure_shifted_pungs": 24, "four_pure_shifted_pungs": 48, "pure_double_chow": 1,
    "pure_triple_chow": 24, "quadruple_chow": 48, "mixed_double_chow": 1,
    "mixed_triple_chow": 8, "full_flush": 24, "all_honors": 64, "half_flush": 6,
    "one_voided_suit": 1, "no_honors": 1, "all_types": 6, "last_tile": 4,
    "robbing_the_kong": 8, "tile_hog": 2, "all_chows": 2, "two_concealed_pungs": 2,
    "three_concealed_pungs": 16, "four_concealed_pungs": 64, "double_pung": 2,
    "triple_pung": 16, "big_three_winds": 12, "prevalent_wind": 2, "seat_wind": 2,
    "dragon_pung": 2, "two_dragon_pungs": 6, "pung_of_terminals_or_honors": 1,
    "concealed_hand": 2, "fully_concealed_hand": 4, "melded_hand": 6, "all_pungs": 6,
    "short_straight": 1, "edge_wait": 1, "closed_wait": 1, "single_wait": 1, "self_drawn": 1,
    "chicken_hand": 8, "flower_tiles": 1, "melded_kong": 1, "concealed_kong": 2,
    "two_melded_kongs": 4, "two_concealed_kongs": 6, "three_kongs": 32, "four_kongs": 88,
}
SEED_EXTRAS = {
    "heavenly_win": 168, "earthly_win": 158, "human_win": 108, "big_four_winds_and_green": 168,
    "mixed_three_shifted_chows": 2, "mixed_four_shifted_chows": 4,
    "mixed_three_shifted_pungs": 4, "mixed_four_shifted_pungs": 6, "pair_258": 1,
    "terminal_pair": 1, "season_tiles": 1, "wild_kong": 88,
}
PLAIN = "123m456p789s123sEE"  # 花龙 8, 门前清 2, 喜相逢 1, 单钓将 1, 么九头 1


def app(notation: str, **fields: Any) -> Any:
    return score({**parse_notation(notation).to_json(), **fields}, "app-custom")


def fans_of(result: Any) -> dict[str, int]:
    return {f.chinese: f.count for f in result.fans}


def test_app_custom_table_has_the_seed_values() -> None:
    points = {f.id: f.points for f in get_ruleset("app-custom").fans}
    assert {fid: points[fid] for fid in SEED_VALUES} == SEED_VALUES
    assert {fid: points[fid] for fid in SEED_EXTRAS} == SEED_EXTRAS


@pytest.mark.parametrize(
    ("notation", "fields", "fan"),
    [
        pytest.param(PLAIN, {"first_turn": True, "dealer": True, "self_drawn": True}, "天和",
                     id="tian-he"),
        pytest.param(PLAIN, {"first_turn": True, "self_drawn": True}, "地和", id="di-he"),
        pytest.param(PLAIN, {"first_turn": True}, "人和", id="ren-he"),
        pytest.param("EEESSSWWWNNNFF", {}, "四方大发财", id="si-fang-da-fa-cai"),
        pytest.param("123m234m345p789s55s", {}, "混三步", id="hun-san-bu"),
        pytest.param("123m234m345p456p99m", {}, "混四步", id="hun-si-bu"),
        pytest.param("111m222m333p789s55s", {}, "混三节", id="hun-san-jie"),
        pytest.param("111m222p333p444s99m", {}, "混四节", id="hun-si-jie"),
        pytest.param("123m456p789s123s55s", {}, "二五八将", id="er-wu-ba-jiang"),
        pytest.param(PLAIN, {}, "么九头", id="yao-jiu-tou"),
    ],
)
def test_app_custom_extra_fans(notation: str, fields: dict[str, Any], fan: str) -> None:
    assert fan in fans_of(app(notation, **fields))


def test_app_custom_big_four_winds_with_green_replaces_big_four_winds() -> None:
    found = fans_of(app("EEESSSWWWNNNFF"))
    assert not {"大四喜", "碰碰和", "字一色", "三风刻"} & set(found)


def test_app_custom_big_four_winds_with_green_excludes_what_its_fans_exclude() -> None:
    # Seed 003: "四方大發財* 168 碰碰和, 門風刻, 圈風刻, 三風刻, 字一色". It holds 字一色 and 大四喜, so
    # it also drops what they drop (字一色 不计 全带幺 混幺九 幺九刻; 大四喜 不计 小四喜) and its 發 pair's
    # 么九头. Left: 四暗刻 64 (all standing, won on the pair) and 单钓将 1.
    result = app("EEESSSWWWNNNFF")
    assert fans_of(result) == {"四方大发财": 1, "四暗刻": 1, "单钓将": 1}
    assert result.total == 168 + 64 + 1


def test_app_custom_three_suits_are_not_mixed_three_step() -> None:
    found = fans_of(app("123m234p345s789s55m"))
    assert "三色三步高" in found
    assert "混三步" not in found


def test_app_custom_heavenly_win_drops_self_drawn_and_waits() -> None:
    found = fans_of(app(PLAIN, first_turn=True, dealer=True, self_drawn=True))
    assert not {"自摸", "不求人", "门前清", "单钓将"} & set(found)


def test_app_custom_dealer_doubles_the_total() -> None:
    plain, dealer = app(PLAIN + "+1f"), app(PLAIN + "+1f", dealer=True)
    assert plain.total == 14
    assert dealer.total == 28
    assert fans_of(dealer)["庄家翻倍"] == 1


def test_app_custom_flowers_and_seasons_score_one_each() -> None:
    result = app(PLAIN + "+1f2f6f")
    assert {k: v for k, v in fans_of(result).items() if k in ("花牌", "季花")} == {
        "花牌": 2, "季花": 1}
    assert result.flower_points == 3


def test_app_custom_minimum_and_base_points() -> None:
    small = app("[234m]345p678s234s99m")
    assert small.minimum == 0 and small.meets_minimum and small.details == {"base": 2}
    strict = app("[234m]345p678s234s99m", eight_point_minimum=True)
    assert strict.minimum == 8 and not strict.meets_minimum and strict.details == {"base": 8}
    wild = app("[234m]345p678s234s99m", wild="same", wild_indicator="E")
    assert wild.details == {"base": 0}


@pytest.mark.parametrize(
    ("mode", "indicator", "face"),
    [
        pytest.param("same", "S", "S", id="fan-hun"),
        pytest.param("翻混", "S", "S", id="fan-hun-chinese"),
        pytest.param("previous", "W", "S", id="shang-gun-hun"),
        pytest.param("next", "E", "S", id="xia-gun-hun"),
        pytest.param("next", "N", "E", id="winds-wrap"),
        pytest.param("previous", "1m", "9m", id="one-wraps-to-nine"),
        pytest.param("next", "P", "C", id="dragons-wrap"),
    ],
)
def test_app_custom_wild_face_from_the_turned_tile(mode: str, indicator: str, face: str) -> None:
    # The wild, drawn last, stands for the 3s of an edge wait: 123m 456p 789s 12s+3s 99p.
    result = app(f"123m456p789s12s99p{face}", wild=mode, wild_indicator=indicator)
    natural = app("123m456p789s12s99p3s")
    assert result.error is None
    assert fans_of(result) == fans_of(natural)


def test_app_custom_wild_takes_the_lower_reading() -> None:
    # Two wilds beside 123m 456p 789s 1s EE: 111s + EE, 11s + EEE, or 123s + EE.
    result = app("123m456p789sCC1sEE", wild="same", wild_indicator="C")
    readings = [app(n).total for n in ("123m456p789s111sEE", "123m456p789s11sEEE",
                                       "123m456p789s123sEE")]
    assert len(set(readings)) > 1
    assert result.total == min(readings)


WILD_P = {"wild": "same", "wild_indicator": "P"}  # every 白 (P) is a wild


def test_app_custom_wild_takes_the_lowest_layout_of_a_filling() -> None:
    # Seed 003: "含有財神的牌，在有多種排列，組合不同的牌型時，將按分數低的牌型計算". 3m beside
    # 444555666777s: the wild can only be the second 3m, and 444555666777s then reads as four pungs
    # (一色四节高 48, 三暗刻 16: 69 in all, what the same tiles score without a wild) or as 456s x3 +
    # 777s (一色三同顺 24, 门前清 2, 断幺 2, 缺一门 1: 29). The lowest layout counts.
    assert app("33m444555666777s").total == 69
    result = app("3mP444555666777s", **WILD_P)
    assert result.total == 29
    assert fans_of(result) == {"一色三同顺": 1, "门前清": 1, "断幺": 1, "缺一门": 1}


def test_app_custom_wild_chow_read_two_ways_makes_no_chow_pattern() -> None:
    # Seed 003: "含有財神的順子，在有多種組合方式時將不參與牌型算分的計算". 34p + a wild is 234p or
    # 345p; beside 234m 345m either makes 喜相逢, yet the chow takes part in no chow pattern.
    for natural in ("234m345m234p789s55s", "234m345m345p789s55s"):
        assert "喜相逢" in fans_of(app(natural))
    result = app("234m345m34pP789s55s", **WILD_P)
    assert fans_of(result) == {"门前清": 1, "平和": 1, "单钓将": 1, "二五八将": 1}


def test_app_custom_wild_chow_read_one_way_keeps_its_patterns() -> None:
    # 4p 6p + a wild can only be 456p: that chow still makes 花龙 with 123m and 789s.
    result = app("123m46pP789s234s55s", **WILD_P)
    assert fans_of(result) == fans_of(app("123m456p789s234s55s"))
    assert "花龙" in fans_of(result)


def test_app_custom_wild_nine_gates_is_read_as_sets_too() -> None:
    # 1112345678999m + a wild: one filling is 九莲宝灯 (88), but the same tiles laid into sets
    # score far less, and the lowest reading counts.
    result = app("1112345678999mP", **WILD_P, self_drawn=True)
    assert result.error is None
    assert "九莲宝灯" not in fans_of(result)
    assert result.total < 88


def test_app_custom_default_wild_is_explained_by_rules_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Seed 003: "自定義規則下，默認有財神": the default game has a wild, chosen at the table; the
    # rule set says what it does when the hand names none.
    from fanscan.cli import main

    assert main(["rules", "app-custom"]) == 0
    out = capsys.readouterr().out
    assert "默認有財神" in out
    assert "with no wild given, the hand is scored without one (wild none, 底分 2)" in out
    plain = app(PLAIN)
    assert plain.error is None and plain.details == {"base": 2}


def test_app_custom_flowers_as_wilds_are_part_of_the_hand() -> None:
    hand = {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "2s", "5s"],
            "win_tile": "5s", "flowers": ["1f", "5f"], "wild": "flowers"}
    result = score(hand, "app-custom")
    assert result.error is None
    assert result.flower_points == 0
    assert "花龙" in fans_of(result)


def test_app_custom_four_wilds_score_wild_kong_quickly() -> None:
    start = time.perf_counter()
    result = app("123m456p789sSSSSE", wild="same", wild_indicator="S")
    assert fans_of(result)["混杠"] == 1
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    ("hand", "code", "culprit"),
    [
        pytest.param({**parse_notation(PLAIN).to_json(), "wild": "joker"}, "unknown_wild",
                     "wild is 'joker'", id="bad-mode"),
        pytest.param({**parse_notation(PLAIN).to_json(), "wild": "same"},
                     "wild_indicator_missing", "wild_indicator", id="no-indicator"),
        pytest.param({**parse_notation(PLAIN).to_json(), "wild": "none", "wild_indicator": "E"},
                     "wild_indicator_unused", "needs wild", id="indicator-without-mode"),
        pytest.param({**parse_notation(PLAIN).to_json(), "wild": "same", "wild_indicator": "3f"},
                     "wild_indicator_flower", "is a flower", id="flower-indicator"),
        pytest.param({**parse_notation(PLAIN).to_json(), "wild": "same", "wild_indicator": "0m"},
                     "wild_indicator_unknown", "unknown tile code '0m'", id="unknown-indicator"),
        pytest.param({**parse_notation("[EEE]123m456p789s11s").to_json(), "wild": "same",
                      "wild_indicator": "E"}, "wild_in_meld", "wild tile", id="wild-in-meld"),
        pytest.param({**parse_notation("[123m]456p789s123sEE").to_json(), "first_turn": True},
                     "first_turn_claimed", "claimed sets", id="first-turn-with-chow"),
        pytest.param({"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"],
                      "win_tile": "9s", "flowers": ["1f", "2f", "3f", "4f", "5f"],
                      "wild": "flowers"}, "too_many_wilds", "at most 4", id="five-wilds"),
        pytest.param(parse_notation("123m456p789s12sEEP").to_json(), "not_winning",
                     "no winning hand", id="not-a-win"),
        pytest.param({**parse_notation(PLAIN).to_json(), "dealer": "yes"}, "invalid_hand",
                     "dealer must be true or false", id="mistyped-field"),
    ],
)
def test_app_custom_refuses(hand: dict[str, Any], code: str, culprit: str) -> None:
    result = score(hand, "app-custom")
    assert result.total is None
    assert result.error_code == code
    assert culprit in result.error


def test_app_custom_wilds_never_score_more_than_their_natural_reading() -> None:
    # Any tile held may be named the wild: the hand still wins, and the lowest filling is at most
    # the hand read with each wild as its own face.
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        hand = random_hand(rng).to_json()
        face = hand["concealed"][0]
        if hand["concealed"].count(face) == 4 or any(face in m["tiles"] for m in hand["melds"]):
            continue
        natural = score(hand, "app-custom")
        wild = score({**hand, "wild": "same", "wild_indicator": face}, "app-custom")
        assert wild.error is None, (hand, wild.error)
        assert wild.total <= natural.total
        checked += 1
