"""Endless or huge inputs (``/dev/zero`` on standard input, a JSON-lines file with no newline, a
notation of thousands of tiles) end in one line and exit 1, having read a bounded amount."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from fanscan.cli import MESSAGE_CHARS, _inputs, _score_lines, main


class _Endless(io.RawIOBase):
    """Zero bytes forever, counting how many were read (``/dev/zero``)."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # noqa: ANN001
        buffer[:] = b"\0" * len(buffer)
        self.given += len(buffer)
        return len(buffer)


@pytest.fixture
def endless(monkeypatch: pytest.MonkeyPatch) -> _Endless:
    """Standard input as ``/dev/zero``, with the limits cut to 1 MB so that the test is quick."""
    source = _Endless()
    buffered = io.BufferedReader(source)
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=buffered, read=io.TextIOWrapper(buffered).read))
    monkeypatch.setattr(_inputs, "MAX_STDIN_BYTES", 1024 * 1024)
    return source


@pytest.mark.parametrize("argv", [["read", "-", "--json"], ["score", "-"], ["waits", "-"], ["classify", "-"]])
def test_an_endless_standard_input_is_refused_at_the_limit(
    endless: _Endless, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err == "fanscan: error: " + err.removeprefix("fanscan: error: ") and err.count("\n") == 1
    assert "more than the 1 MB limit" in err
    assert endless.given <= 2 * 1024 * 1024  # read to the limit, not to the end of memory


def test_an_endless_notation_on_standard_input_is_refused_at_the_limit(
    endless: _Endless, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--hand", "-"]) == 1
    err = capsys.readouterr().err
    assert "longer than 1 MB" in err and err.count("\n") == 1
    assert endless.given <= 2 * _inputs.MAX_TEXT + 64 * 1024


def test_json_lines_with_no_newline_stop_after_the_lines_before_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"concealed": ["E", "E", *"1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s".split()], "win_tile": "E"}
    source = _Endless()
    prefix = io.BytesIO((json.dumps(good) + "\n").encode())

    class _Joined(io.RawIOBase):  # one good line, then zeros forever
        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:  # noqa: ANN001
            got = prefix.readinto(buffer)
            return got if got else source.readinto(buffer)

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BufferedReader(_Joined())))
    assert main(["score", "--jsonl", "-"]) == 1
    captured = capsys.readouterr()
    assert [json.loads(line)["total"] for line in captured.out.splitlines()] == [12]
    assert "line 2 is longer than 1 MB" in captured.err and captured.err.count("\n") == 1
    assert source.given <= 2 * _score_lines.MAX_LINE


def test_a_notation_longer_than_a_file_name_is_read_as_a_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Over 255 characters the system refuses it as a path ("File name too long"): it is a notation.
    notation = "123m456p" * 40
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(notation.encode())))
    assert main(["waits", "-"]) == 1
    err = capsys.readouterr().err
    assert "1m appears 40 times" in err and "File name" not in err
    assert main(["waits", notation]) == 1
    assert "1m appears 40 times" in capsys.readouterr().err


def test_an_error_quoting_a_huge_input_stays_one_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", "1m" * 60_000 + "x"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) <= len("fanscan: error: ") + MESSAGE_CHARS + 1
