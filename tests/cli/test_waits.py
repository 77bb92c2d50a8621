"""`fanscan waits`: the table and the JSON."""

from __future__ import annotations

import json

import pytest

from fanscan.cli import main


def test_waits_table_lists_each_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p78s234sEE"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "123m456p78s234sEE: waits on 2 tiles"
    assert [line.split()[0] for line in lines[2:]] == ["6s", "9s"]
    assert "Mixed Straight" in lines[3]


def test_waits_json_has_both_ways_to_win(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s123sE", "--seat", "S", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    (wait,) = obj["waits"]
    assert wait["tile"] == "E" and wait["remaining"] == 3
    assert (wait["discard"]["total"], wait["self_drawn"]["total"]) == (12, 14)


def test_waits_not_waiting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "1357m2468p13579s"]) == 0
    assert "not waiting" in capsys.readouterr().out


def test_waits_rejects_complete_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s123sEE"]) == 1
    assert "a waiting hand here has 13" in capsys.readouterr().err
