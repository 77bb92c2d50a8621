"""国标加强版 (seed 001): the five worked examples of 附录2, every point of 附录1, the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from fanscan.scoring.guobiao_plus import RULESET
from fanscan.scoring.guobiao_plus.points import RARE
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import get_ruleset, score


def plus(notation: str, **fields: Any) -> Any:
    return score({**parse_notation(notation).to_json(), **fields}, "guobiao-plus")


def rows(result: Any) -> dict[str, int]:
    return {f.chinese: f.points for f in result.fans}


# ---------------------------------------------------------------- 附录2: the worked examples

def test_guobiao_plus_example_1_mixed_hand_below_minimum() -> None:
    result = plus("[123m2][567m2][555s1][333s1]EE")
    assert rows(result) == {"混牌": 2, "单调将 ×3": 4}
    assert result.total == 6
    assert not result.meets_minimum


def test_guobiao_plus_example_2_quadruple_chow() -> None:
    result = plus("[123m1][123m1][123m1]123m33p", self_drawn=True)
    assert rows(result) == {"顺牌": 4, "一门四同顺": 48, "全小": 24, "四归一×3": 24}
    assert result.total == 100
    assert result.details["T"] == 300


def test_guobiao_plus_example_3_seven_stars() -> None:
    result = plus("ESWNCFP147m369p2s", flowers=["5f", "2f", "7f", "3f", "8f"])
    assert rows(result) == {"不靠": 6, "七星不靠": 6, "双花双季配": 2, "门清 ×2": 14}
    assert result.total == 28
    assert result.details == {"P": 28, "discarder_pays": 28, "others_pay": 7, "T": 42}


def test_guobiao_plus_example_4_seven_pairs_last_tile() -> None:
    result = plus("CCFFPPCC11s11p11m", flowers=["5f", "6f", "7f", "8f", "3f"], last_tile=True)
    assert rows(result) == {"七对": 8, "福禄寿": 8, "三同对": 4, "四归一": 2, "海底捞月": 12,
                            "四美人": 8, "六暗对 ×3": 84}
    assert result.total == 126
    assert result.details == {"P": 126, "discarder_pays": 126, "others_pay": 32, "T": 190}


def test_guobiao_plus_example_5_heavenly_four_kongs() -> None:
    hand = {"concealed": ["C", "C"], "win_tile": "C", "self_drawn": True, "kong": True,
            "melds": [{"type": "kong", "tiles": [w] * 4, "concealed": True} for w in "ESWN"],
            "flowers": [f"{i}f" for i in range(1, 9)], "dealer": True, "first_turn": True}
    result = score(hand, "guobiao-plus")
    assert rows(result) == {"刻牌": 12, "天下无敌": 168, "五岳独尊": 64, "十八罗汉": 64,
                            "天胡": 128, "锦上添花": 8, "八仙过海": 64, "四暗刻 ×4": 1524}
    assert result.total == 2032
    assert result.details["T"] == 6096


# ---------------------------------------------------------------- 附录1: every point

COMBO_HANDS = [
    ("EEESSSWWWNNNCC", "天下无敌"), ("EEESSSWWWNNN66p", "四大天王"),
    ("EEEWWWNNNSS111m", "四小天王"), ("EEEWWWNNN222m55p", "三风刻"),
    ("EEENNNSS999m555p", "准三风刻"), ("CCCFFFPPP111s44m", "彩凤祥云"),
    ("CCCFFFPPP666s33s", "大三喜"), ("CCCPPPFF111m999m", "小三喜"),
    ("FFFPPP444p777m11p", "双喜"), ("FFF888s888p888mEE", "财神"),
    ("333444m333444pWW", "双门同环刻"), ("111333m111333pCC", "双门双同刻"),
    ("666p666s666mNNNFF", "三同刻"), ("22p222s222mNNNPPP", "准三同刻"),
    ("11122233344555m", "天衣无缝"), ("333444555666s88m", "一门四连刻"),
    ("333s444m555s666pPP", "混四连刻"), ("111222555666m77s", "一门双环刻"),
    ("888999m333444pEE", "双门双环刻"), ("666777888p888m99s", "一门三连刻"),
    ("777m888p999sEEEWW", "三门三连刻"),
    ("EESSWWNNCCFFPP", "战国无双"), ("EESSSSWWWWNNNN", "霸王别姬"),
    ("CCCCFFFFPPPP55m", "三国演义"), ("EESSWWNNCCFF22m", "流星蝴蝶"),
    ("EESSWWNNCC11p22m", "十面埋伏"), ("EESSWWNN5588mPP", "风调雨顺"),
    ("CCFFPP3344mWWEE", "福禄寿"), ("EESSNN5588mPP99p", "三风对"),
    ("22334455667788p", "麒麟"), ("334455667788mNN", "六连对"),
    ("1122s33445566m77p", "混七连对"), ("1122334455sWW77m", "五连对"),
    ("22334455s11m33m77p", "四连对"), ("7777m7777p777711s", "七喜"),
    ("118899m1199s1199p", "六翼齐飞"), ("222233m2222s2222p", "金陵十二钗"),
    ("33446688m88s88pFF", "大富翁"), ("11225588m88s88pWW", "三同对"),
    ("ESWNCFP7m7s11117p", "七星伴月"), ("19m19p19sESWNCFPE", "七星海棠"),
    ("ESWNCFP3p4m5s6p7m8s9p", "七星七连"), ("ESWNCFP147m369p2s", "七星不靠"),
    ("ESWNC147m369p258s", "五岳不靠"), ("13579m13579p1357s", "藕断丝连"),
    ("123123789789s55s", "全家团圆"), ("123789m123789p55s", "天涯共比邻"),
    ("234234678678mWW", "一门双顺同"), ("234678m234678pCC", "双门双顺同"),
    ("[123m1][123m1][123m1]123m33p", "一门四同顺"), ("345345345m678m11m", "一门三同顺"),
    ("567m567s567p123m88m", "三门三同顺"), ("123345567789p99m", "叠龙"),
    ("123234345456pSS", "一门四步高"), ("123234345789m88s", "一门三步高"),
    ("234m345p456s789s55p", "三门三步高"), ("[345m1]678345678mWW", "凤求凰"),
    ("345678m345678sFF", "燕双飞"), ("345678m234567sEE", "双六连"),
    ("123456789p678m55s", "清龙"), ("123p456m789s789m44m", "花龙"),
    ("123456789mESWNC", "万里江山"), ("11123455678999p", "九宝莲灯"),
    ("111s123456789pWW", "龙凤呈祥"), ("111s123p456m789sCC", "准龙凤"),
    ("EEEWWWNNN234m55p", "三风刻"), ("[345m1]345345m666pCC", "一门三同顺"),
]


@pytest.mark.parametrize(("notation", "point"), [pytest.param(n, p, id=p) for n, p in COMBO_HANDS])
def test_guobiao_plus_super_combination(notation: str, point: str) -> None:
    assert point in rows(plus(notation))


RARE_HANDS = [
    ("111m345pPPPNNN11s", "五门齐", 6), ("111222333m789mEE", "混一色", 6),
    ("111333555m777p99s", "全单", 8), ("123m789m123p789s11s", "带幺九", 12),
    ("111222444p888s55p", "不倒翁", 12), ("111m999pEEECCC11s", "混幺九", 12),
    ("222444m666888p22s", "全双", 12), ("666777m888p999s66p", "大于五", 12),
    ("111222m333p444s11p", "小于五", 12), ("345m456p567s555m55s", "全带五", 16),
    ("444555m666p456s44p", "全中", 24), ("777888m999p789s77p", "全大", 24),
    ("111222m333p123s11p", "全小", 24), ("111333555777m99m", "清一色", 24),
    ("FFF222s444s666sCC", "绿点红", 32), ("EEESSSCCCFFFPP", "风云会", 32),
    ("456m456p456s555m55s", "全中全带五", 32), ("111999m111999p11s", "九九归一", 48),
    ("222333444s666sFF", "翡翠", 48), ("EEEESSSSWWNNCC", "五岳独尊", 64),
    ("EESSSSWWWWNNNN", "风神四绝", 96),
]


@pytest.mark.parametrize(("notation", "point", "points"),
                         [pytest.param(n, p, v, id=p) for n, p, v in RARE_HANDS])
def test_guobiao_plus_rare_group_highest_only(notation: str, point: str, points: int) -> None:
    found = rows(plus(notation))
    assert found[point] == points
    assert len({chinese for _, chinese, _, _ in RARE.values()} & set(found)) == 1


def test_guobiao_plus_rare_group_needs_its_hand_type() -> None:
    # 全单 is for 刻牌 and 七对 only: the same odd tiles as a 混牌 do not score it.
    assert "全单" not in rows(plus("111333m357m777p99s"))


@pytest.mark.parametrize(
    ("notation", "point", "points"),
    [
        pytest.param("[2222m]345m678p11sEEE", "单杠", 2, id="one-kong"),
        pytest.param("[2222m][EEEE]345m678p11s", "双杠", 8, id="two-kongs"),
        pytest.param("[2222m][EEEE][9999p]678p11s", "三杠", 32, id="three-kongs"),
        pytest.param("111m123m888p999sEE", "四归一", 2, id="tile-hog"),
        pytest.param("678s666s345p333pCC", "四归一×2", 6, id="two-tile-hogs"),
        pytest.param("[2222m]345m555mEEEWW", "单杠四归一", 4, id="kong-and-hog"),
        pytest.param("[6666p][8888p]111s123sPP", "双杠四归一", 12, id="two-kongs-and-hog"),
    ],
)
def test_guobiao_plus_full_set_bonus(notation: str, point: str, points: int) -> None:
    assert rows(plus(notation))[point] == points


def test_guobiao_plus_unlisted_full_sets_add_up() -> None:
    # One kong (5s) and two 四归一 (1m, 2m): not in the seed's list, so 单杠 2 + 四归一×2 6.
    found = rows(plus("[5555s]111123234m22m"))
    assert (found["单杠"], found["四归一×2"]) == (2, 6)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param({"first_turn": True, "dealer": True, "self_drawn": True}, {"天胡": 128},
                     id="tian-hu"),
        pytest.param({"first_turn": True, "self_drawn": True, "seat_wind": "S"}, {"地胡": 64},
                     id="di-hu"),
        pytest.param({"first_turn": True, "seat_wind": "W"}, {"人胡": 32}, id="ren-hu"),
        pytest.param({"last_tile": True}, {"海底捞月": 12}, id="hai-di"),
        pytest.param({"fourth_tile": True}, {"绝处逢生": 4}, id="jue-chu"),
        pytest.param({"last_tile": True, "fourth_tile": True}, {"海底捞月": 12, "绝处逢生": 4},
                     id="hai-di-and-jue-chu-add"),
    ],
)
def test_guobiao_plus_special_wins(fields: dict[str, Any], expected: dict[str, int]) -> None:
    found = rows(plus("123m456p789s23sEE1s", **fields))
    assert {k: v for k, v in found.items() if k in ("天胡", "地胡", "人胡", "海底捞月", "绝处逢生",
                                                    "锦上添花")} == expected


def test_guobiao_plus_win_after_kong_adds_to_last_tile() -> None:
    found = rows(plus("[2222m]345m678p11sEEE", self_drawn=True, kong=True, last_tile=True))
    assert (found["锦上添花"], found["海底捞月"]) == (8, 12)


@pytest.mark.parametrize(
    ("flowers", "point", "points"),
    [
        pytest.param(["5f", "2f", "6f", "4f"], "双花双季配", 2, id="two-pairs"),
        pytest.param(["5f", "2f", "6f", "4f", "7f", "3f"], "三花三季配", 4, id="three-pairs"),
        pytest.param(["5f", "6f", "7f", "8f"], "四美人", 8, id="four-seasons"),
        pytest.param(["1f", "2f", "3f", "4f"], "四君子", 8, id="four-flowers"),
        pytest.param([f"{i}f" for i in range(1, 9)], "八仙过海", 64, id="eight"),
    ],
)
def test_guobiao_plus_flower_bonus(flowers: list[str], point: str, points: int) -> None:
    result = plus("123m456p789s111sEE", flowers=flowers)
    found = rows(result)
    assert found[point] == points
    assert result.flower_points == 0  # flowers count toward the 起胡分 (例1)


@pytest.mark.parametrize(
    ("notation", "fields", "factor"),
    [
        pytest.param("[123m1]456p789s111sEE", {}, None, id="ordinary"),
        pytest.param("123m456p789s111sEE", {}, "门清 ×2", id="concealed"),
        pytest.param("[123m1][456p1][789s1][111s1]EE", {}, "单调将 ×3", id="single"),
        pytest.param("CCFFPP3344mWWEE", {}, "六暗对 ×3", id="six-pairs"),
        pytest.param("111m222p333s999mEE", {}, "四暗刻 ×4", id="four-concealed-pungs"),
        pytest.param("111m222p333sEE999m", {}, None, id="pungs-on-a-double-wait"),
        pytest.param("[111m1]222p333s999mEE", {}, None, id="pungs-with-a-claim"),
    ],
)
def test_guobiao_plus_ready_factor(notation: str, fields: dict[str, Any],
                                   factor: str | None) -> None:
    found = [k for k in rows(plus(notation, **fields)) if "×" in k and k[-1].isdigit()]
    assert found == ([factor] if factor else [])


def test_guobiao_plus_factor_multiplies_the_sum() -> None:
    result = plus("123m456p789s111sEE")
    assert result.total == 2 * sum(p for k, p in rows(result).items() if "×" not in k)


@pytest.mark.parametrize("level", [8, 16, 24])
def test_guobiao_plus_levels(level: int) -> None:
    result = plus("[123m1]456p789s23sEE1s", level=level)  # 顺牌 4 + 花龙 8, ×1
    assert result.total == 12
    assert result.minimum == level
    assert result.meets_minimum == (level == 8)


def test_guobiao_plus_pure_triple_chow_is_24_in_both_lists() -> None:
    points = {f.id: f.points for f in get_ruleset("guobiao-plus").fans}
    assert points["pure_triple_chow"] == 24


def test_guobiao_plus_best_reading_wins() -> None:
    # 111222333m: pungs (混牌, 一门三连刻) or chows (顺牌, 一门三同顺); the higher P counts.
    hand = parse_notation("111222333m789p55s").replace(options=_defaults())
    options = RULESET.options_of(hand)
    extra = RULESET.extras(hand, options)
    totals = {c.shape.kind: RULESET.value(RULESET.table.apply({**RULESET.detect(c), **extra}), c)
              for c in RULESET.contexts(hand, options)}
    assert set(totals) == {"H", "S"} and totals["H"] != totals["S"]
    assert plus("111222333m789p55s").total == max(totals.values())


def _defaults() -> dict[str, Any]:
    return {f.name: f.default for f in RULESET.hand_fields}


@pytest.mark.parametrize(
    ("notation", "fields", "code", "culprit"),
    [
        pytest.param("123m456p789s111sEE", {"level": 10}, "bad_level", "level is 10",
                     id="bad-level"),
        pytest.param("123m456p789s111sEE", {"first_turn": True, "dealer": True},
                     "dealer_first_turn_on_discard", "self_drawn", id="heavenly-on-a-discard"),
        pytest.param("[123m1]456p789s111sEE", {"first_turn": True}, "first_turn_claimed",
                     "claimed sets", id="first-turn-with-chow"),
        pytest.param("123m456p789s12sEEP", {}, "not_winning", "no winning hand", id="not-a-win"),
        pytest.param("147m258p369s123sEE", {}, "not_winning", "no winning hand",
                     id="knitted-straight-set"),
    ],
)
def test_guobiao_plus_refuses(
    notation: str, fields: dict[str, Any], code: str, culprit: str
) -> None:
    result = plus(notation, **fields)
    assert result.total is None
    assert result.error_code == code
    assert culprit in result.error
