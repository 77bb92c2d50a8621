"""`fanscan score --jsonl`: one bad line gives that line an error result and the rest go on;
`--option` values too large for any rule set are a one-line error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fanscan.cli import main

GOOD = {"concealed": ["E", "E", *"1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s".split()], "win_tile": "E"}
SICHUAN = {"concealed": "1m 1m 1m 2m 2m 2m 3m 3m 3m 4m 4m 4m 5m 5m".split(), "win_tile": "5m"}


def _results(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _file(tmp_path: Path, *lines: bytes) -> str:
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


def test_score_bad_lines_a_5000_digit_number_spoils_only_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps(GOOD).encode()
    path = _file(tmp_path, good, b'{"concealed": ' + b"9" * 5000 + b"}", good)
    assert main(["score", "--jsonl", path]) == 1  # each line answered; one failed
    results = _results(capsys)
    assert [r["total"] for r in results] == [12, None, 12]
    assert results[1]["error"] == "line 2 has a number too long to be part of a hand"


def test_score_bad_lines_a_non_utf8_byte_in_a_file_spoils_only_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps(GOOD).encode()
    path = _file(tmp_path, b"\xef\xbb\xbf" + good, b'{"concealed": ["\xff"]}', good)
    assert main(["score", "--jsonl", path]) == 1  # each line answered; one failed
    results = _results(capsys)
    assert [r["total"] for r in results] == [12, None, 12]
    assert results[1]["error"] == "line 2 is not UTF-8 text (byte 0xff at column 17)"


def test_score_bad_lines_a_non_utf8_byte_on_stdin_spoils_only_its_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps(GOOD).encode()
    data = good + b"\n\xc3\x28\n" + good + b"\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["score", "--jsonl", "-"]) == 1  # each line answered; one failed
    assert [r["total"] for r in _results(capsys)] == [12, None, 12]


def test_score_bad_lines_a_result_too_large_to_print_spoils_only_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # base may have 4,300 digits (Python's limit for int <-> text); points = base x 8 has 4,301.
    good = json.dumps(SICHUAN).encode()
    huge = json.dumps(SICHUAN)[:-1].encode() + b', "base": ' + b"9" * 4300 + b"}"
    assert main(["score", "--rules", "sichuan", "--jsonl", _file(tmp_path, good, huge, good)]) == 1
    results = _results(capsys)
    assert [r["total"] for r in results] == [4, None, 4]
    assert results[1]["error"] == "line 2: the result is too large to print"


def test_score_bad_lines_a_scorer_failure_spoils_only_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import fanscan.scoring.ruleset as ruleset

    real_score = ruleset.score

    def flaky(hand: object, rules: str = "mcr") -> object:
        if isinstance(hand, dict) and hand.get("seat_wind") == "N":
            raise KeyError("boom")
        return real_score(hand, rules)

    monkeypatch.setattr(ruleset, "score", flaky)
    good = json.dumps(GOOD).encode()
    path = _file(tmp_path, good, json.dumps({**GOOD, "seat_wind": "N"}).encode(), good)
    assert main(["score", "--jsonl", path]) == 1  # each line answered; one failed
    results = _results(capsys)
    assert [r["total"] for r in results] == [12, None, 12]
    assert results[1]["error"] == "line 2 could not be scored (KeyError)"


@pytest.mark.parametrize(
    "value",
    [pytest.param("9" * 5000, id="5000-digits"), pytest.param("9" * 4300, id="4300-digits"),
     pytest.param('"' + "x" * 10_000 + '"', id="long-text")],
)
def test_score_bad_lines_a_huge_option_value_is_a_one_line_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", "--hand", "111m222m333m444m55m", "--rules", "sichuan", "--option", f"base={value}"]
    assert main(argv) == 2  # a usage error: the option's value
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("fanscan: error: --option base: the value is ")
    assert "more than the 200 allowed" in err


def test_score_bad_lines_a_huge_base_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--hand", "111m222m333m444m55m", "--rules", "sichuan", "--base", "9" * 4300]
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "--base: at most 200 characters, not 4300" in err and "internal error" not in err


def test_score_bad_lines_every_error_result_carries_a_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, b"not json", b"", b"\xff", b"[" * 50_000 + b"]" * 50_000, json.dumps(GOOD).encode())
    assert main(["score", "--jsonl", path]) == 1
    results = _results(capsys)
    assert [r["error_code"] for r in results[:4]] == ["invalid_hand"] * 4
    assert results[3]["error"] == "line 4 is JSON nested too deeply to be a hand"
    assert results[4]["total"] == 12 and "error_code" not in results[4]


def test_score_stdin_json_nested_too_deeply_is_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(deep)))
    assert main(["score", "-"]) == 1  # bad input, not a usage error nor an internal one
    error = capsys.readouterr().err
    assert "nested too deeply" in error and "internal error" not in error


def test_score_flowers_named_twice_differently_are_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", "123m456p789s123sEE +1f6f", "--flowers", "2f"]) == 1
    assert "names its flowers (1f 6f) and --flowers names 2f" in capsys.readouterr().err
    assert main(["score", "--hand", "123m456p789s123sEE +1f6f", "--flowers", "6f1f", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flower_points"] == 2  # the same flowers: agreed
    assert main(["score", "--hand", "123m456p789s123sEE", "--flowers", "2f", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flower_points"] == 1


def test_score_an_empty_hand_or_path_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", ""]) == 1
    assert "the hand notation is empty" in capsys.readouterr().err
    for empty in (["score", ""], ["score", "--jsonl", ""]):  # a name, never the current folder
        with pytest.raises(SystemExit) as stopped:
            main(empty)
        assert stopped.value.code == 2
        assert "an empty name is no file or folder" in capsys.readouterr().err


def test_score_a_long_bad_notation_is_quoted_short(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", "x" + "1m" * 5000]) == 1
    error = capsys.readouterr().err
    assert "unexpected 'x' at column 1" in error and len(error) < 300


def test_score_output_that_cannot_be_written_is_bad_input_not_a_bug(tmp_path: Path) -> None:
    import subprocess
    import sys

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "fanscan", "score", "--hand", "123m456p789s123sEE", "--json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 1
    assert "No space left on device" in done.stderr and "internal error" not in done.stderr


def test_score_annotation_into_a_folder_that_is_a_file_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fanscan.atomic import write_bytes_atomic

    blocker = tmp_path / "plain.txt"
    blocker.write_text("not a folder")
    with pytest.raises(OSError) as caught:
        write_bytes_atomic(blocker / "out.jpg", b"x")
    assert str(blocker) in str(caught.value) and ".tmp" not in str(caught.value)
