"""`fanscan rules`: the rule sets and the MCR fan table."""

from __future__ import annotations

import json

import pytest

from fanscan.cli import main


def test_rules_lists_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert capsys.readouterr().out.startswith("mcr ")


def test_rules_mcr_prints_fan_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mcr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "minimum 8" in lines[0]
    assert lines[1].split()[:4] == ["1", "88", "Big", "Four"]
    assert len(lines) == 1 + 82
    assert any("Chicken Hand" in line and "无番和" in line for line in lines)


def test_rules_mcr_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mcr", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["minimum"] == 8 and len(obj["fans"]) == 82
    seven = next(f for f in obj["fans"] if f["id"] == "seven_pairs")
    assert seven["points"] == 24 and "single_wait" in seven["excludes"]


def test_rules_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "riichi"]) == 1
    assert "unknown rule set 'riichi'" in capsys.readouterr().err
