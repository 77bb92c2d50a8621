"""ScoreResult.json_text: the fast JSON line must be the text json.dumps writes, byte for byte."""

from __future__ import annotations

import json
import random

from fanscan.scoring.generate import random_hand
from fanscan.scoring.ruleset import FanCount, ScoreResult, available, score


def _dumped(result: ScoreResult) -> str:
    return json.dumps(result.to_json(), ensure_ascii=False)


def test_result_text_matches_json_dumps_for_every_rule_set() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        hand = random_hand(rng).to_json()
        for rules in available():
            result = score(hand, rules)
            assert result.json_text() == _dumped(result), rules
            checked += 1
    assert checked == 60 * len(available())


def test_result_text_matches_json_dumps_for_errors_and_details() -> None:
    failed = ScoreResult.failed("mcr", 8, 'the tile "x" is unknown \\ 未知\n')
    assert failed.json_text() == _dumped(failed)
    with_details = score(random_hand(random.Random(5)).to_json(), "app-custom")
    assert with_details.details
    assert with_details.json_text() == _dumped(with_details)


def test_result_text_writes_other_values_as_the_encoder_does() -> None:
    fan = FanCount("Odd", "怪", 2, 3)
    result = ScoreResult("x", 1.5, (fan, fan), 0.25, 0, True, None)
    assert result.json_text() == _dumped(result)
    assert json.loads(result.json_text())["fans"][1]["chinese"] == "怪"
