"""The generic engine: exclusions from the table, the registry, results and the score() API."""

from __future__ import annotations

import pytest
from fanscan.scoring import ruleset
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import (
    Fan,
    FanCount,
    FanTable,
    ScoreResult,
    available,
    get_ruleset,
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
    assert result.error == "the hand has 1 tiles (1 concealed); a complete hand here has 14"
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
