"""`fanscan score --hand` and `fanscan score --jsonl`: tables, JSON, errors, streaming order."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fanscan.cli import main

HAND = "123m456p789s123sEE"


def _hand_json() -> dict[str, object]:
    """HAND as hand JSON, won on the second E."""
    return {"concealed": ["E", "E", *"1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s".split()], "win_tile": "E"}


def test_score_hand_prints_table_with_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", HAND]) == 0
    out = capsys.readouterr().out
    assert "Mixed Straight" in out and "花龙" in out
    assert out.rstrip().endswith("Total: 12; minimum 8: met")


def test_score_hand_flags_change_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "score",
                "--hand",
                "SSS123m456p789s99s",
                "--self-drawn",
                "--seat",
                "S",
                "--round",
                "S",
                "--flowers",
                "1f6f",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    names = {f["name"] for f in result["fans"]}
    assert {"Seat Wind", "Prevalent Wind", "Fully Concealed Hand"} <= names
    assert result["flower_points"] == 2
    assert result["total"] == sum(f["points"] * f["count"] for f in result["fans"])


def test_score_hand_json_matches_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", "--hand", HAND, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert list(result) == [
        "rules",
        "total",
        "fans",
        "flower_points",
        "minimum",
        "meets_minimum",
        "error",
    ]
    assert result["fans"][0] == {
        "name": "Mixed Straight",
        "chinese": "花龙",
        "points": 8,
        "count": 1,
    }


def test_score_hand_under_minimum_says_not_met(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", "[123m1][567p1]789s12sEE3s"]) == 0
    assert "minimum 8: NOT met" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--hand", "123m4x5p"], "unexpected 'x' at column 6", id="bad-notation"),
        pytest.param(["--hand", "123m456p789s124sEE"], "no winning hand", id="not-a-win"),
        pytest.param(["--hand", HAND, "--kong", "--self-drawn"], "has no kong", id="contradiction"),
        pytest.param(["--hand", HAND, "--rules", "riichi"], "unknown rule set", id="rules"),
        pytest.param(["--hand", HAND, "--flowers", "9f"], "'9f'", id="flowers"),
        pytest.param(["--jsonl", "/nonexistent/hands.jsonl"], "cannot read", id="missing-file"),
    ],
)
def test_score_bad_input_exits_1_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_score_jsonl_keeps_order_and_survives_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {
        "concealed": [
            *list("EE"),
            "1m",
            "2m",
            "3m",
            "4p",
            "5p",
            "6p",
            "7s",
            "8s",
            "9s",
            "1s",
            "2s",
            "3s",
        ],
        "win_tile": "3s",
    }
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({"concealed": ["1m"]}),
        "",
        json.dumps({**good, "self_drawn": True}),
    ]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", "--jsonl", str(path)]) == 1  # some lines failed; all are answered
    captured = capsys.readouterr()
    results = [json.loads(x) for x in captured.out.splitlines()]
    assert [r["total"] for r in results] == [12, None, None, None, 14]
    assert captured.err == "fanscan: error: 3 of 5 lines failed (their results say why)\n"
    assert "line 2 is not JSON" in results[1]["error"]
    assert results[3]["error"] == "line 4 is empty"


def test_score_jsonl_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = _hand_json()
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(hand) + "\n"))
    assert main(["score", "--jsonl", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 12


def test_score_option_sets_rule_set_field(capsys: pytest.CaptureFixture[str]) -> None:
    # MCR declares no extra field, so the field reaches the hand check and is named there.
    assert main(["score", "--hand", HAND, "--option", "first-turn=true"]) == 1
    assert "unknown field 'first_turn' in the hand" in capsys.readouterr().err


def test_score_option_needs_name_and_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", HAND, "--option", "dealer"]) == 2
    assert "--option 'dealer' is not NAME=VALUE" in capsys.readouterr().err


@pytest.mark.parametrize(("extra", "named"), [
    (["--rules", "sichuan", "--base", "2", "--option", "base=3"], "base is given twice (--base and --option base=3)"),
    (["--rules", "app-custom", "--option", "dealer=true", "--option", "dealer=false"],
     "dealer is given twice (--option dealer=true and --option dealer=false)"),
    (["--seat", "S", "--option", 'seat_wind="W"'], "seat_wind is given twice (--seat and"),
    (["--self-drawn", "--option", "self_drawn=false"], "self_drawn is given twice (--self-drawn and"),
])
def test_score_a_field_given_two_values_is_a_usage_error_not_the_last_one_silently(
    extra: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--hand", "123m456m789m123p55p", *extra]) == 2
    err = capsys.readouterr().err
    assert named in err and err.count("\n") == 1


def test_score_a_field_given_twice_alike_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", "--hand", "123m456m789m123p55p", "--rules", "app-custom", "--json"]
    assert main([*args, "--option", "dealer=true", "--option", "dealer=true"]) == 0
    twice = json.loads(capsys.readouterr().out)
    assert main([*args, "--option", "dealer=true"]) == 0
    assert twice == json.loads(capsys.readouterr().out)


def test_score_a_hand_json_naming_a_field_twice_is_refused_not_read_with_the_last(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(_hand_json())[:-1] + ', "self_drawn": false, "self_drawn": true}'
    _stdin(monkeypatch, text.encode())
    assert main(["score", "-"]) == 1
    assert "the field 'self_drawn' is given twice" in capsys.readouterr().err
    meld = '{"type": "chow", "type": "pung", "tiles": ["1m", "2m", "3m"]}'
    lines = text + "\n" + json.dumps(_hand_json()) + "\n" + json.dumps(_hand_json())[:-1] + f', "melds": [{meld}]}}\n'
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["score", "--jsonl", "-"]) == 1
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("error_code") for r in results] == ["invalid_hand", None, "invalid_hand"]
    assert results[0]["error"] == "line 1: the field 'self_drawn' is given twice" and results[1]["total"] == 12
    assert results[2]["error"] == "line 3: the field 'type' is given twice"


def test_score_jsonl_survives_deep_nesting_and_bom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = _hand_json()
    path = tmp_path / "hands.jsonl"
    text = json.dumps(hand) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n"
    path.write_text(text, encoding="utf-8-sig")
    assert main(["score", "--jsonl", str(path)]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert first["total"] == 12
    assert second["error"] == "line 2 is JSON nested too deeply to be a hand"


def test_score_table_shows_rule_set_details(capsys: pytest.CaptureFixture[str]) -> None:
    # Sichuan: seven pairs of one suit with a four-of-a-kind (清龙七对, 6 番); points = base x 2^(番-1).
    argv = ["score", "--hand", "11224444557799m", "--rules", "sichuan", "--base", "6"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Total: 6;" in out
    assert "  points: 192" in out.splitlines()


def test_score_jsonl_of_good_hands_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(_hand_json()) + "\n" + json.dumps(_hand_json()) + "\n")
    assert main(["score", "--jsonl", str(path)]) == 0
    captured = capsys.readouterr()
    assert [json.loads(x)["total"] for x in captured.out.splitlines()] == [12, 12]
    assert captured.err == ""


def test_score_jsonl_line_that_is_no_win_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    no_win = {**_hand_json(), "concealed": [*_hand_json()["concealed"][:-1], "4s"]}
    lines = [json.dumps(_hand_json()), json.dumps(no_win)]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["score", "--jsonl", "-"]) == 1
    results = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert results[0]["total"] == 12
    assert results[1]["total"] is None and results[1]["error"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param([], "give exactly one of", id="no-source"),
        pytest.param(["--hand", HAND, "--jsonl", "-"], "not allowed with", id="two-sources"),
        pytest.param(["--jsonl", "-", "--self-drawn"], "put them in each JSON line", id="jsonl-flags"),
        pytest.param(["--hand", HAND, "--annotate", "x.jpg"], "--annotate needs a PHOTO", id="annotate"),
        pytest.param(["--hand", HAND, "--seat", "X"], "invalid choice", id="bad-choice"),
        pytest.param(["--no-such-option"], "unrecognized arguments", id="unknown-option"),
    ],
)
def test_score_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from fanscan.cli import main as entry

    try:
        status = entry(["score", *argv])
    except SystemExit as exit_:  # argparse's own errors leave by SystemExit, as a script sees
        status = exit_.code
    assert status == 2
    assert message in capsys.readouterr().err


def test_score_help_documents_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["score", "--help"])
    assert exit_.value.code == 0
    help_text = capsys.readouterr().out
    assert "exit status:" in help_text
    for line in ("0  the hand", "1  bad input", "2  usage error"):
        assert line in help_text
    assert "exits 1" in main_help() and "2  usage error" in main_help()


def main_help() -> str:
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "fanscan", "--help"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[567m,2][999s,3]123p45sEE6s", id="comma"),
        pytest.param("[567m2][999s3]123p45sEE6s", id="plain"),
    ],
)
def test_score_hand_reads_both_forms_of_the_notation(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A chow claimed on its 2nd tile and a pung from the right: only 999s scores (1 point).
    assert main(["score", "--hand", text, "--json"]) == 0  # under the minimum, still scored
    result = json.loads(capsys.readouterr().out)
    assert [(f["name"], f["count"]) for f in result["fans"]] == [("Pung of Terminals or Honors", 1)]


def test_score_hand_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(HAND + "\n"))
    assert main(["score", "--hand", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 12


def test_score_hand_from_empty_standard_input_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["score", "--hand", "-"]) == 1
    assert capsys.readouterr().err == (
        "fanscan: error: standard input is empty (expected a hand in the notation)\n"
    )


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    from types import SimpleNamespace

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(data)))


def test_score_dash_reads_a_hand_in_the_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, (HAND + "\n").encode())
    assert main(["score", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 12


def test_score_dash_reads_one_hand_json_with_the_flags(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, json.dumps(_hand_json()).encode())
    assert main(["score", "-", "--self-drawn", "--json"]) == 0
    names = {f["name"] for f in json.loads(capsys.readouterr().out)["fans"]}
    assert "Fully Concealed Hand" in names  # self-drawn with nothing claimed


def test_score_dash_with_a_broken_hand_json_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b'{"concealed": [')
    assert main(["score", "-"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: standard input is not a hand JSON object")
    assert err.count("\n") == 1
