"""`fanscan rules`: the rule sets and the MCR fan table."""

from __future__ import annotations

import json

import pytest

from fanscan.cli import main


def test_rules_lists_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mcr ")
    # the titles line up in one column, however long a rule set's name
    names = {line.split()[0] for line in lines}
    assert {"mcr", "guobiao-plus", "changsha"} <= names
    starts = {len(line) - len(line[len(line.split()[0]):].lstrip()) for line in lines}
    assert len(starts) == 1 and starts.pop() == max(len(n) for n in names) + 1


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


def test_rules_mcr_counts_81_fans_and_marks_the_ruling_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mcr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "81 fans + 1 from the MIL rulings (marked *)" in lines[0]
    numbered = [line for line in lines[1:] if line.split()[0].isdigit()]
    assert len(numbered) == 81 and numbered[-1].split()[0] == "81"
    (ruling,) = [line for line in lines[1:] if line.split()[0] == "*"]
    assert "明暗杠" in ruling


def test_rules_mcr_and_the_readme_agree_on_the_fans(capsys: pytest.CaptureFixture[str]) -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (said,) = re.findall(r"MCR / 国标, (\d+) fans", readme)
    assert main(["rules"]) == 0
    listed = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("mcr "))
    assert f": {said} fans" in listed
    assert main(["rules", "mcr", "--json"]) == 0
    fans = json.loads(capsys.readouterr().out)["fans"]
    assert sum(not f.get("ruling") for f in fans) == int(said)


def test_rules_one_point_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "sichuan"]) == 0  # Sichuan's minimum is 1
    first = capsys.readouterr().out.splitlines()[0]
    assert "minimum 1 point " in first or first.endswith("minimum 1 point")
