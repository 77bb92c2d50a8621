"""``fanscan score --jsonl``: one hand JSON a line in, one result line out, in order.

Whatever is wrong with a line (not UTF-8, not JSON, no hand, a failure inside the scorer, a result
too large to print) gives that line an error result and never stops the lines after it. A line
longer than ``MAX_LINE`` is no hand's (a stream with no newline, ``/dev/zero``, a photo): the run
stops there with a one-line error, the lines before it answered, in bounded memory.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterable
from typing import Any, BinaryIO, TextIO

from fanscan import strict_json
from fanscan.errors import FanscanError

MAX_LINE = 1024 * 1024
"""The longest line read as a hand JSON, in bytes (characters from a text stream): a hand's JSON
holds a few hundred."""


def run_jsonl(source: str, rules: str) -> int:
    from fanscan.scoring.ruleset import get_ruleset, score

    ruleset = get_ruleset(rules)
    if source == "-":
        failed, total = stream(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout, rules, ruleset, score)
    else:
        try:
            handle = open(source, "rb")  # bytes: each line is decoded alone (_line_text)
        except OSError as error:
            raise FanscanError("not_found", f"cannot read {source}: {error.strerror}") from None
        with handle:
            failed, total = stream(handle, sys.stdout, rules, ruleset, score)
    if failed:
        print(f"fanscan: error: {failed} of {total} lines failed (their results say why)",
              file=sys.stderr)
    return 1 if failed else 0


def stream(
    lines: Iterable[str] | BinaryIO, out: TextIO, rules: str, ruleset: Any, score: Any
) -> tuple[int, int]:
    """Write one result line per line read; (results with an error, lines)."""
    write = out.write
    failed = number = 0
    # What exists before the loop outlives it: kept out of the collector's full passes, which
    # would otherwise walk it again and again as the scorers' memos grow.
    gc.freeze()
    try:
        for number, line in enumerate(_bounded(lines) if hasattr(lines, "readline") else lines, 1):
            text, ok = _score_line(number, line, rules, ruleset, score)
            failed += not ok
            write(text + "\n")
    finally:
        gc.unfreeze()
    out.flush()
    return failed, number


def _bounded(handle: Any) -> Iterable[str | bytes]:
    """The handle's lines, none read past ``MAX_LINE``: a longer one stops the run."""
    number = 0
    while line := handle.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            raise FanscanError("bad_input", f"line {number} is longer than {MAX_LINE // 1024 // 1024} MB, which no "
                                            "hand JSON is (is this JSON lines?); the lines before it were answered")
        yield line


def _line_text(number: int, line: str | bytes) -> str:
    """One line as text: bytes are decoded alone, so a bad byte spoils only its own line."""
    if isinstance(line, str):
        return line.removeprefix("\ufeff") if number == 1 else line
    if number == 1:
        line = line.removeprefix(b"\xef\xbb\xbf")
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _LineError(
            f"line {number} is not UTF-8 text (byte 0x{line[error.start]:02x} at column {error.start + 1})"
        ) from None


class _LineError(Exception):
    """A line that gets an error result instead of a score, with its error code: ``invalid_hand``
    for a line that holds no hand JSON (as ``score`` says of a JSON that is no hand)."""

    def __init__(self, message: str, code: str = "invalid_hand") -> None:
        super().__init__(message)
        self.code = code


def _score_line(number: int, line: str | bytes, rules: str, ruleset: Any, score: Any) -> tuple[str, bool]:
    """The result of one JSON line as one line of JSON text, and whether it has no error; whatever
    is wrong with the line gives that line an error result, never stops the lines after it."""
    try:
        return _scored_text(number, _line_text(number, line), rules, score)
    except _LineError as error:
        return _failed(rules, ruleset, str(error), error.code), False


def _scored_text(number: int, line: str, rules: str, score: Any) -> tuple[str, bool]:
    try:
        obj = strict_json.loads(line)
    except strict_json.DuplicateField as error:
        raise _LineError(f"line {number}: {error}") from None
    except json.JSONDecodeError as error:
        message = (
            f"line {number} is not JSON ({error.msg})"
            if line.strip()
            else (f"line {number} is empty")
        )
        raise _LineError(message) from None
    except RecursionError:
        raise _LineError(f"line {number} is JSON nested too deeply to be a hand") from None
    except ValueError:  # an integer of more digits than int() converts (sys.get_int_max_str_digits)
        raise _LineError(f"line {number} has a number too long to be part of a hand") from None
    try:
        result = score(obj, rules)
    except Exception as error:  # noqa: BLE001 - one line's failure must not stop the others
        raise _LineError(f"line {number} could not be scored ({type(error).__name__})", "internal_error") from None
    try:
        return str(result.json_text()), result.error is None
    except (ValueError, OverflowError, RecursionError):
        raise _LineError(f"line {number}: the result is too large to print", "result_too_large") from None


def _failed(rules: str, ruleset: Any, message: str, code: str) -> str:
    from fanscan.scoring.ruleset import ScoreResult

    return ScoreResult.failed(rules, ruleset.minimum, message, code).json_text()
