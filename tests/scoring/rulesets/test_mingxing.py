"""明星三缺一 (seed 000): the extras on top of MCR, flowers told apart, and the refused hands."""

from __future__ import annotations

from typing import Any

import pytest

from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import get_ruleset, score

# 花龙 8, 门前清 2, 喜相逢 1, 单钓将 1 under MCR: 12 points.
PLAIN = "123m456p789s123sEE"


def mingxing(notation: str, **fields: Any) -> Any:
    return score({**parse_notation(notation).to_json(), **fields}, "mingxing")


def fans_of(result: Any) -> dict[str, int]:
    return {f.chinese: f.count for f in result.fans}


def test_mingxing_plain_hand_scores_as_mcr() -> None:
    ours, mcr = mingxing(PLAIN), score(parse_notation(PLAIN).to_json(), "mcr")
    assert ours.total == mcr.total == 12
    assert [f.points for f in ours.fans] == [f.points for f in mcr.fans]


@pytest.mark.parametrize(
    ("fields", "fan", "points", "gone"),
    [
        pytest.param({"first_turn": True, "dealer": True, "self_drawn": True}, "天胡", 64,
                     ["门前清", "单钓将"], id="tian-hu"),
        pytest.param({"first_turn": True, "self_drawn": True}, "地胡", 48, ["门前清", "单钓将"],
                     id="di-hu"),
        pytest.param({"first_turn": True}, "人胡", 48, ["门前清"], id="ren-hu"),
        pytest.param({"first_turn_ready": True, "dealer": True}, "天听", 32, [], id="tian-ting"),
        pytest.param({"first_turn_ready": True}, "地听", 16, [], id="di-ting"),
    ],
)
def test_mingxing_first_round_fans(fields: dict[str, Any], fan: str, points: int,
                                   gone: list[str]) -> None:
    result = mingxing(PLAIN, **fields)
    found = fans_of(result)
    assert found[fan] == 1
    assert not set(gone) & set(found)
    assert "花龙" in found
    assert {f.chinese: f.points for f in result.fans}[fan] == points


def test_mingxing_dealer_first_turn_on_a_discard_is_no_heavenly_win() -> None:
    found = fans_of(mingxing(PLAIN, first_turn=True, dealer=True))
    assert not {"天胡", "地胡", "人胡"} & set(found)


@pytest.mark.parametrize(
    ("flowers", "expected", "flower_points"),
    [
        pytest.param("+1f3f", {"花牌": 2}, 2, id="two-flowers"),
        pytest.param("+1f2f3f4f", {"花牌": 4, "梅兰竹菊": 1}, 36, id="mei-lan-zhu-ju"),
        pytest.param("+5f6f7f8f1f", {"花牌": 5, "春夏秋冬": 1}, 37, id="chun-xia-qiu-dong"),
        pytest.param("+1f2f3f5f6f7f8f", {"花牌": 7, "春夏秋冬": 1}, 39, id="one-set-of-two"),
    ],
)
def test_mingxing_flowers_one_by_one(flowers: str, expected: dict[str, int],
                                     flower_points: int) -> None:
    result = mingxing(PLAIN + flowers)
    found = {k: v for k, v in fans_of(result).items() if k in ("花牌", "梅兰竹菊", "春夏秋冬")}
    assert found == expected
    assert result.flower_points == flower_points
    assert result.total == 12 + flower_points


def test_mingxing_eight_flowers_replace_both_sets_and_count_toward_minimum() -> None:
    result = mingxing(PLAIN + "+1f2f3f4f5f6f7f8f")
    found = fans_of(result)
    assert found["八仙过海"] == 1
    assert "梅兰竹菊" not in found and "春夏秋冬" not in found
    assert result.flower_points == 8
    assert result.total == 12 + 64 + 8


def test_mingxing_eight_flowers_win_without_a_winning_hand() -> None:
    result = mingxing("123m456p789s12sEEP +1f2f3f4f5f6f7f8f")
    assert fans_of(result) == {"八仙过海": 1, "花牌": 8}
    assert result.meets_minimum


def test_mingxing_flower_sets_do_not_reach_the_minimum() -> None:
    # 平和, 断幺, 喜相逢, 无字: under 8; the 32-point set does not lift it to the minimum.
    result = mingxing("234m456p678s234s55s +1f2f3f4f")
    assert result.total - result.flower_points < 8
    assert not result.meets_minimum


@pytest.mark.parametrize(
    ("notation", "alias"),
    [
        pytest.param("333444555666m99p", "四连刻", id="si-lian-ke"),
        pytest.param("333444555m789p99s", "三连刻", id="san-lian-ke"),
        pytest.param("666m666p666s123s99m", "三色同刻", id="san-se-tong-ke"),
        pytest.param("111999m111999p11s", "清老头", id="qing-lao-tou"),
        pytest.param("111999mEEE999pWW", "混老头", id="hun-lao-tou"),
    ],
)
def test_mingxing_seed_names_score_once(notation: str, alias: str) -> None:
    named = [f for f in mingxing(notation).fans if alias in f.chinese]
    assert len(named) == 1
    assert named[0].count == 1


@pytest.mark.parametrize(
    ("notation", "fields", "code", "culprit"),
    [
        pytest.param("[123m]456p789s123sEE", {"first_turn": True}, "first_turn_claimed",
                     "claimed sets", id="first-turn-with-chow"),
        pytest.param("[123m]456p789s123sEE", {"first_turn_ready": True}, "first_turn_claimed",
                     "first_turn_ready is set", id="ready-with-chow"),
        pytest.param(PLAIN, {"first_turn": True, "first_turn_ready": True},
                     "first_turn_and_ready", "both set", id="win-and-ready"),
        pytest.param("123m456p789s12sEEP", {}, "not_winning", "no winning hand", id="not-a-win"),
    ],
)
def test_mingxing_refuses(notation: str, fields: dict[str, Any], code: str, culprit: str
                          ) -> None:
    result = mingxing(notation, **fields)
    assert result.total is None
    assert result.error_code == code
    assert culprit in result.error


def test_mingxing_unknown_field_is_an_error() -> None:
    result = score({**parse_notation(PLAIN).to_json(), "kong_discard": True}, "mingxing")
    assert result.total is None
    assert result.error_code == "invalid_hand"
    assert "kong_discard" in result.error


def test_mingxing_table_is_mcr_plus_extras_in_points_order() -> None:
    ours = get_ruleset("mingxing").fans
    assert len(ours) == len(get_ruleset("mcr").fans) + 8
    assert [f.points for f in ours] == sorted((f.points for f in ours), reverse=True)
