"""The generic engine: exclusions from the table, the registry, results and the score() API."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from fanscan.scoring import ruleset
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import (
    Fan,
    FanCount,
    FanTable,
    Refusal,
    Scored,
    ScoreResult,
    TableRuleSet,
    available,
    get_ruleset,
    option,
    score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from fanscan.errors import FanscanError

TABLE = FanTable(
    [
        Fan("a", "A", "甲", 8, ("b",)),
        Fan("b", "B", "乙", 4, ("c",)),
        Fan("c", "C", "丙", 2),
        Fan("d", "D", "丁", 1),
    ]
)


def test_ruleset_apply_removes_excluded_fans() -> None:
    assert TABLE.apply({"b": 1, "c": 1, "d": 2}) == {"b": 1, "d": 2}


def test_ruleset_apply_lets_a_removed_fan_exclude_nothing() -> None:
    # a removes b; b, being removed, no longer removes c.
    assert TABLE.apply({"a": 1, "b": 1, "c": 1}) == {"a": 1, "c": 1}


def test_ruleset_apply_keeps_table_order_and_drops_zero_counts() -> None:
    assert list(TABLE.apply({"d": 1, "a": 1, "c": 0})) == ["a", "d"]
    assert TABLE.points({"a": 1, "d": 3}) == 11


def test_ruleset_table_rejects_unknown_exclusion() -> None:
    with pytest.raises(ValueError, match="excludes unknown fan"):
        FanTable([Fan("a", "A", "甲", 1, ("zz",))])


def test_ruleset_registry_lists_and_loads_mcr() -> None:
    assert "mcr" in available()
    assert get_ruleset("mcr") is get_ruleset("mcr")
    assert get_ruleset("mcr").minimum == 8


def test_ruleset_registry_rejects_unknown_name() -> None:
    with pytest.raises(FanscanError, match="unknown rule set 'riichi'"):
        get_ruleset("riichi")


def test_ruleset_result_json_has_contract_keys_and_details_only_when_set() -> None:
    result = ScoreResult("mcr", 9, (FanCount("Chicken Hand", "无番和", 8, 1),), 1, 8, True)
    assert list(result.to_json()) == [
        "rules",
        "total",
        "fans",
        "flower_points",
        "minimum",
        "meets_minimum",
        "error",
    ]
    with_details = ScoreResult("x", 1, details={"han": 3})
    assert with_details.to_json()["details"] == {"han": 3}


def test_ruleset_score_dict_with_bad_hand_gives_error_result() -> None:
    result = score({"concealed": ["1m"], "win_tile": "1m"})
    assert result.total is None
    assert result.error == "the hand has 1 tile (1 concealed); a complete hand here has 14"
    assert result.to_json()["fans"] == []


def test_ruleset_score_accepts_hand_and_dict_alike() -> None:
    hand = parse_notation("123m456p789s123sEE")
    assert score(hand) == score(hand.to_json())


def test_ruleset_score_not_a_win_gives_error_result() -> None:
    result = score(parse_notation("123m456p789s124sEE"))
    assert result.total is None and "no winning hand" in (result.error or "")


def test_ruleset_registry_is_one_dict() -> None:
    assert ruleset.RULESETS["mcr"] == "fanscan.scoring.mcr:RULESET"


_CODES = st.sampled_from(["1m", "5p", "9s", "E", "P", "1f", "back", "0m", "", 7, None])
_VALUES = st.one_of(
    st.lists(_CODES, max_size=16),
    st.booleans(),
    st.integers(),
    st.text(max_size=3),
    st.none(),
    st.lists(
        st.dictionaries(
            st.sampled_from(["type", "tiles", "concealed", "x"]),
            st.one_of(
                st.sampled_from(["chow", "pung", "kong"]),
                st.lists(_CODES, max_size=5),
                st.booleans(),
            ),
            max_size=4,
        ),
        max_size=5,
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "concealed",
                "melds",
                "win_tile",
                "flowers",
                "self_drawn",
                "seat_wind",
                "kong",
                "fourth_tile",
                "extra",
            ]
        ),
        _VALUES,
        max_size=9,
    )
)
def test_ruleset_score_never_raises_on_junk_hands(obj: dict) -> None:
    result = score(obj)
    assert (result.total is None) == (result.error is not None)


def test_ruleset_refused_result_has_its_code_beside_the_sentence() -> None:
    result = score(parse_notation("123m456p789s124sEE"))
    obj = result.to_json()
    assert list(obj)[-2:] == ["error", "error_code"]
    assert obj["error_code"] == "not_winning"
    assert json.loads(result.json_text()) == obj


def test_ruleset_scored_result_has_no_error_code() -> None:
    obj = json.loads(score(parse_notation("123m456p789s123sEE")).json_text())
    assert "error_code" not in obj


@dataclass(frozen=True)
class _ToyOptions:
    bonus: int = option(0, "points added to every reading")


class _Toy(TableRuleSet[dict, _ToyOptions]):
    """A rule set whose readings are given as fan counts, to test the engine's hooks alone."""

    name = "toy"
    minimum = 3
    table = FanTable([Fan("big", "Big", "大", 5, ("small",)), Fan("small", "Small", "小", 2),
                      Fan("extra", "Extra", "外", 1), Fan("flower", "Flower", "花", 1)])
    options_type = _ToyOptions
    flower_fan = "flower"

    def __init__(self, readings: list[dict[str, int]], *, low: bool = False) -> None:
        super().__init__()
        self.readings = readings
        self.low = low

    def refusal(self, hand: Any, options: _ToyOptions) -> Refusal | None:
        return Refusal("negative_bonus", "bonus < 0") if options.bonus < 0 else None

    def contexts(self, hand: Any, options: _ToyOptions) -> list[dict[str, int]]:
        return self.readings

    def detect(self, context: dict[str, int]) -> dict[str, int]:
        return dict(context)

    def extras(self, hand: Any, options: _ToyOptions) -> dict[str, int]:
        return {"extra": options.bonus} if options.bonus else {}

    def choose(self, hand: Any, options: _ToyOptions) -> Scored[dict] | None:
        if self.low:
            return self.lowest(self.contexts(hand, options), self.extras(hand, options))
        return super().choose(hand, options)

    def final_rows(self, total: int, hand: Any, options: _ToyOptions) -> tuple[FanCount, ...]:
        return (FanCount("Double", "倍", total, 1),)

    def details(self, scored: Scored[dict], total: int, hand: Any, options: _ToyOptions
                ) -> dict[str, Any]:
        return {"chosen": scored.context}


_TOY_HAND = parse_notation("123m456p789s123sEE +1f")


def test_ruleset_engine_keeps_the_highest_reading_after_exclusions() -> None:
    toy = _Toy([{"small": 2}, {"big": 1, "small": 1}, {}])  # 4, 5 (small excluded), no fan
    result = toy.score(_TOY_HAND)
    assert [(f.chinese, f.count) for f in result.fans] == [("大", 1), ("花", 1), ("倍", 1)]
    assert result.flower_points == 1
    assert result.total == (5 + 1) * 2
    assert result.meets_minimum
    assert result.details == {"chosen": {"big": 1, "small": 1}}


def test_ruleset_engine_lowest_and_whole_hand_extras() -> None:
    toy = _Toy([{"big": 1}, {"small": 1}], low=True)
    result = toy.score(_TOY_HAND.replace(options={"bonus": 2}))
    assert [(f.chinese, f.count) for f in result.fans][:2] == [("小", 1), ("外", 2)]
    assert result.total == (2 + 2 + 1) * 2


def test_ruleset_engine_refusal_and_no_winning_reading() -> None:
    refused = _Toy([{"big": 1}]).score(_TOY_HAND.replace(options={"bonus": -1}))
    assert (refused.error_code, refused.error, refused.total) == ("negative_bonus", "bonus < 0",
                                                                  None)
    none = _Toy([{}]).score(_TOY_HAND)
    assert none.error_code == "not_winning" and none.total is None
    assert none.minimum == 3
