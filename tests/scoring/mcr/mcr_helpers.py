"""Scoring a notation with win conditions, for the MCR tests."""

from __future__ import annotations

from typing import Any

from fanscan.scoring.mcr.fans import FANS
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.ruleset import ScoreResult, score

ID_BY_NAME = {f.name: f.id for f in FANS}


def score_text(notation: str, **conditions: Any) -> ScoreResult:
    """Score ``notation`` with hand JSON fields ``conditions`` (self_drawn=True, ...)."""
    hand = parse_notation(notation).to_json()
    hand.update(conditions)
    return score(hand)


def fan_ids(notation: str, **conditions: Any) -> dict[str, int]:
    """{fan id: count} of the scored hand (flowers included as flower_tiles)."""
    result = score_text(notation, **conditions)
    assert result.error is None, result.error
    return {ID_BY_NAME[f.name]: f.count for f in result.fans}
