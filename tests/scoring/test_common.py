"""The shared hand fields and first-turn wins (fanscan.scoring.common) as each rule set reads them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from fanscan.scoring.common import SeatOptions, first_turn_win
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import NoOptions, available, get_ruleset, hand_fields, score

PLAIN = "123m456p789s123sEE"


@pytest.mark.parametrize(
    ("dealer", "self_drawn", "kwargs", "expected"),
    [
        pytest.param(True, True, {}, "heavenly_win", id="dealer-self-drawn"),
        pytest.param(True, False, {}, None, id="dealer-on-a-discard"),
        pytest.param(False, True, {}, "earthly_win", id="non-dealer-self-drawn"),
        pytest.param(False, False, {}, "human_win", id="non-dealer-on-a-discard"),
        pytest.param(False, False, {"earthly_on_discard": True}, "earthly_win",
                     id="every-non-dealer-win-is-earthly"),
        pytest.param(False, True, {"earthly_self_drawn": False}, "human_win",
                     id="earthly-only-for-one-seat"),
    ],
)
def test_common_first_turn_win(
    dealer: bool, self_drawn: bool, kwargs: dict[str, Any], expected: str | None
) -> None:
    assert first_turn_win(dealer=dealer, self_drawn=self_drawn, **kwargs) == expected


@pytest.mark.parametrize(
    ("rules", "fields", "fan"),
    [
        pytest.param("app-custom", {"self_drawn": True, "dealer": True}, "天和", id="app-tian-he"),
        pytest.param("app-custom", {"self_drawn": True}, "地和", id="app-di-he"),
        pytest.param("app-custom", {}, "人和", id="app-ren-he"),
        pytest.param("mingxing", {"self_drawn": True, "dealer": True}, "天胡",
                     id="mingxing-tian-hu"),
        pytest.param("mingxing", {}, "人胡", id="mingxing-ren-hu"),
        pytest.param("guobiao-plus", {"self_drawn": True, "seat_wind": "S"}, "地胡",
                     id="guobiao-di-hu-seat-s"),
        pytest.param("guobiao-plus", {"self_drawn": True, "seat_wind": "W"}, "人胡",
                     id="guobiao-ren-hu-other-seat"),
    ],
)
def test_common_first_turn_win_in_each_rule_set(
    rules: str, fields: dict[str, Any], fan: str
) -> None:
    result = score({**parse_notation(PLAIN).to_json(), "first_turn": True, **fields}, rules)
    assert fan in {f.chinese for f in result.fans}


def test_common_mcr_has_an_empty_options_record() -> None:
    ruleset: Any = get_ruleset("mcr")
    assert ruleset.options_type is NoOptions
    assert ruleset.hand_fields == () == hand_fields(NoOptions)
    options = ruleset.options_of(parse_notation(PLAIN))
    with pytest.raises(AttributeError):
        options.dealer = True


@pytest.mark.parametrize("rules", [r for r in available() if r != "mcr"])
def test_common_options_are_a_frozen_typed_record(rules: str) -> None:
    ruleset: Any = get_ruleset(rules)
    options_type = ruleset.options_type
    assert dataclasses.is_dataclass(options_type)
    assert options_type.__dataclass_params__.frozen
    assert ruleset.hand_fields == hand_fields(options_type)
    for field in dataclasses.fields(options_type):
        assert field.metadata["help"], field.name
        assert type(field.default).__name__ == field.type, field.name
    defaults = ruleset.options_of(parse_notation(PLAIN))
    assert defaults == options_type()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(defaults, ruleset.hand_fields[0].name, defaults)


@pytest.mark.parametrize("rules", ["app-custom", "mingxing", "sichuan", "changsha",
                                   "guobiao-plus"])
def test_common_seat_fields_are_shared(rules: str) -> None:
    options_type: Any = get_ruleset(rules).options_type
    assert issubclass(options_type, SeatOptions)
    names = [f.name for f in dataclasses.fields(options_type)]
    assert names[:2] == ["dealer", "first_turn"]
