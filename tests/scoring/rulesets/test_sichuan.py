"""Sichuan rules (seed 004): the seed's own example hands, every pattern, and the refused hands."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fanscan.cli import main
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import get_ruleset, score


def sichuan(notation: str, **fields: Any) -> Any:
    return score({**parse_notation(notation).to_json(), **fields}, "sichuan")


def fans_of(result: Any) -> dict[str, int]:
    return {f.chinese: f.count for f in result.fans}


# The example hands of section 五 and of the first section's 另加分 list, with the 番 a referee
# gives them under section 五 (docs/rules/sichuan.md explains the four the seed labels oddly).
@pytest.mark.parametrize(
    ("notation", "expected", "total"),
    [
        pytest.param("23445677p345789s", {"平胡": 1}, 1, id="ping-hu"),
        pytest.param("111222444m33399p", {"对对胡": 1}, 2, id="dui-dui-hu"),
        pytest.param("111444m222999p66p", {"对对胡": 1}, 2, id="dui-dui-hu-first-section"),
        pytest.param("111222333m78999p", {"带幺九": 1}, 3, id="dai-yao-jiu"),
        pytest.param("123789s123789m99m", {"带幺九": 1}, 3, id="dai-yao-jiu-first-section"),
        pytest.param("112299m44668899p", {"七对": 1}, 3, id="qi-dui-first-section"),
        pytest.param("222555888s88855m", {"将对": 1}, 4, id="jiang-dui"),
        pytest.param("111444222999m66m", {"清对": 1}, 4, id="qing-dui-first-section"),
        pytest.param("11222244p557799m", {"龙七对": 1}, 5, id="long-qi-dui-less-one-root"),
        pytest.param("2244552299m1199p", {"龙七对": 1}, 5, id="seed-qi-dui-is-long-qi-dui"),
        pytest.param("99887755221166p", {"清七对": 1}, 5, id="seed-qing-dui-is-qing-qi-dui"),
        pytest.param("11123777888999p", {"清幺九": 1}, 5, id="qing-yao-jiu"),
        pytest.param("11224444557799m", {"清龙七对": 1}, 6, id="qing-long-qi-dui"),
        pytest.param("123567234888s99s", {"清一色": 1}, 3, id="qing-yi-se"),
        pytest.param("123567678888s77s", {"清一色": 1, "根": 2}, 5, id="qing-yi-se-two-roots"),
        pytest.param("[8888s]123567234s77s", {"清一色": 1, "根": 1}, 4, id="qing-yi-se-kong"),
        pytest.param("[2222p]123345m999p66p", {"平胡": 1, "根": 1}, 2, id="ping-hu-kong"),
        pytest.param("[2222p]111444m999p66p", {"对对胡": 1, "根": 1}, 3, id="dui-dui-hu-kong"),
    ],
)
def test_sichuan_seed_examples(notation: str, expected: dict[str, int], total: int) -> None:
    result = sichuan(notation)
    assert result.error is None
    assert fans_of(result) == expected
    assert result.total == total


def test_sichuan_pure_seven_pairs_without_four_alike() -> None:
    result = sichuan("11224455667799s")
    assert fans_of(result) == {"清七对": 1}
    assert result.total == 5


def test_sichuan_double_dragon_seven_pairs_keeps_second_root() -> None:
    result = sichuan("11114455m555577p")
    assert fans_of(result) == {"龙七对": 1, "根": 1}
    assert result.total == 6


def test_sichuan_heavenly_win_needs_dealer_and_self_drawn() -> None:
    hand = "123456m234p55577p"
    assert fans_of(sichuan(hand, first_turn=True, dealer=True, self_drawn=True)) == {"天胡": 1}
    assert fans_of(sichuan(hand, first_turn=True, dealer=True)) == {"平胡": 1}


def test_sichuan_earthly_win_for_non_dealer() -> None:
    result = sichuan("123456m234p55577p", first_turn=True, self_drawn=True)
    assert fans_of(result) == {"地胡": 1}
    assert result.total == 6


def test_sichuan_first_turn_beats_dragon_seven_pairs_and_keeps_root() -> None:
    result = sichuan("11224444557799m", first_turn=True, dealer=True, self_drawn=True)
    assert fans_of(result) == {"天胡": 1, "根": 1}
    assert result.total == 7


@pytest.mark.parametrize(
    ("fields", "extra"),
    [
        pytest.param({"kong": True, "self_drawn": True}, "杠上花", id="gang-shang-hua"),
        pytest.param({"kong_discard": True}, "杠上炮", id="gang-shang-pao"),
    ],
)
def test_sichuan_kong_wins_add_one_fan(fields: dict[str, Any], extra: str) -> None:
    result = sichuan("[2222p]123345m999p66p", **fields)
    assert fans_of(result) == {"平胡": 1, "根": 1, extra: 1}
    assert result.total == 3


def test_sichuan_robbing_a_kong_adds_one_fan() -> None:
    result = sichuan("123345m999p6645p3p", kong=True)
    assert fans_of(result) == {"平胡": 1, "抢杠": 1}
    assert result.total == 2


def test_sichuan_points_double_per_fan_from_the_base() -> None:
    result = sichuan("11123777888999p", base=6)
    assert result.details == {"fan": 5, "base": 6, "points": 6 * 16}
    assert sichuan("23445677p345789s").details["points"] == 1


def test_sichuan_best_reading_wins_over_plain() -> None:
    # 112233 in two suits: sets and a pair (平胡 1) or seven pairs (七对 3).
    result = sichuan("112233m11224455p")
    assert fans_of(result) == {"七对": 1}


@pytest.mark.parametrize(
    ("hand", "code", "culprit"),
    [
        pytest.param({"concealed": list("EEE") + ["1m", "2m", "3m", "4m", "5m", "6m", "7m",
                                                   "8m", "9m", "1m", "1m"], "win_tile": "1m"},
                     "honor_tile", "E is an honor", id="honor"),
        pytest.param({**parse_notation("123456789m11122m").to_json(), "flowers": ["1f"]},
                     "flower_tile", "1f is a flower", id="flower"),
        pytest.param(parse_notation("[123m]456789m11122m").to_json(), "declared_chow", "no chows",
                     id="chow"),
        pytest.param(parse_notation("123m456p789s11122s").to_json(), "three_suits",
                     "all three suits", id="three-suits"),
        pytest.param({**parse_notation("123456789m11122m").to_json(), "base": 0}, "bad_base",
                     "base is 0", id="base"),
        pytest.param({**parse_notation("[2222p]123345m999p66p").to_json(), "kong_discard": True,
                      "self_drawn": True}, "kong_discard_conflict", "kong_discard",
                     id="kong-discard-self-drawn"),
        # The first section's 将对 example 222万 555万 888万 222条 55筒 holds three suits.
        pytest.param(parse_notation("222555888m222s55p").to_json(), "three_suits",
                     "all three suits", id="seed-jiang-dui-three-suits"),
        pytest.param(parse_notation("12345678m111p22p9p").to_json(), "not_winning",
                     "no reading", id="not-a-win"),
    ],
)
def test_sichuan_refuses(hand: dict[str, Any], code: str, culprit: str) -> None:
    result = score(hand, "sichuan")
    assert result.total is None
    assert result.error_code == code
    assert culprit in result.error


def test_sichuan_table_base_patterns_exclude_each_other() -> None:
    table = get_ruleset("sichuan").fans
    fans = {f.id: f for f in table}
    assert "plain_win" in fans["heavenly_win"].excludes
    assert "root" not in fans["pure_dragon_seven_pairs"].excludes
    base = [f.points for f in table[:13]]
    assert base == sorted(base, reverse=True)


def test_sichuan_cli_base_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "--hand", "11123777888999p", "--rules", "sichuan", "--base", "6",
                 "--option", "kong_discard=false", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["total"] == 5
    assert result["details"] == {"fan": 5, "base": 6, "points": 96}
