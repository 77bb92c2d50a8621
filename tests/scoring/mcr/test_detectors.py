"""Every MCR fan: one hand that scores it and a near miss that does not (fan_cases.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fan_cases import FAN_CASES
from fanscan.scoring.mcr.fans import FANS
from mcr_helpers import fan_ids


def _cases(expected: bool) -> list[Any]:
    index = 0 if expected else 1
    return [
        pytest.param(fan, *pair[index], id=f"{fan}-{'scores' if expected else 'misses'}")
        for fan, pair in FAN_CASES.items()
    ]


def test_detectors_every_fan_has_cases() -> None:
    assert sorted(FAN_CASES) == sorted(f.id for f in FANS)


@pytest.mark.parametrize(("fan", "notation", "conditions"), _cases(True))
def test_detectors_fan_scores(fan: str, notation: str, conditions: dict[str, Any]) -> None:
    assert fan in fan_ids(notation, **conditions)


@pytest.mark.parametrize(("fan", "notation", "conditions"), _cases(False))
def test_detectors_fan_misses(fan: str, notation: str, conditions: dict[str, Any]) -> None:
    assert fan not in fan_ids(notation, **conditions)
