"""Whole hands with every fan and the total, as the MIL calculator and a referee count them."""

from __future__ import annotations

from typing import Any

import pytest
from mcr_helpers import score_text

GOLDEN: list[Any] = [
    pytest.param(
        "147m258p369s35m55s4m",
        {},
        {"组合龙": 1, "门前清": 1, "平和": 1, "坎张": 1},
        17,
        id="knitted-straight",
    ),
    pytest.param(
        "EEESSSWWWNNCCC",
        {},
        {"小四喜": 1, "字一色": 1, "三暗刻": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1},
        152,
        id="little-four-winds-all-honors",
    ),
    pytest.param(
        "234234666888s22s",
        {},
        {"绿一色": 1, "清一色": 1, "门前清": 1, "四归一": 1, "双暗刻": 1, "断幺": 1, "一般高": 1},
        121,
        id="all-green-full-flush",
    ),
    pytest.param(
        "[1111m][2222p1]333s678s99m",
        {},
        {"三色三节高": 1, "明暗杠": 1, "双暗刻": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
        18,
        id="concealed-and-melded-kong",
    ),
    pytest.param(
        "123123123123p99m",
        {},
        {"一色四同顺": 1, "全带幺": 1, "门前清": 1, "平和": 1, "缺一门": 1, "单钓将": 1},
        58,
        id="quadruple-chow",
    ),
    pytest.param(
        "11123456789991m", {}, {"九莲宝灯": 1, "清龙": 1, "四归一": 1}, 106, id="nine-gates-on-1"
    ),
    pytest.param(
        "[345m1][456m1][567m1]67mEE5m",
        {},
        {"一色三步高": 1, "混一色": 1, "和绝张": 1, "四归一": 1, "一般高": 1},
        29,
        id="shifted-chows-last-tile",
    ),
    pytest.param(
        "234s223344567p55m",
        {},
        {"门前清": 1, "平和": 1, "断幺": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "单钓将": 1},
        10,
        id="account-once",
    ),
    pytest.param(
        "[234m1][567p1][678s1]34mEE5m",
        {"self_drawn": True, "last_tile": True, "flowers": ["2f", "7f"]},
        {"妙手回春": 1, "花牌": 2},
        10,
        id="last-tile-draw-flowers",
    ),
    pytest.param(
        "EEESSSWWWNNNCC",
        {},
        {"大四喜": 1, "字一色": 1, "四暗刻": 1, "单钓将": 1},
        217,
        id="big-four-winds",
    ),
]


@pytest.mark.parametrize(("notation", "conditions", "fans", "total"), GOLDEN)
def test_examples_golden_hands(
    notation: str, conditions: dict[str, Any], fans: dict[str, int], total: int
) -> None:
    result = score_text(notation, **conditions)
    assert {f.chinese: f.count for f in result.fans} == fans
    assert result.total == total
