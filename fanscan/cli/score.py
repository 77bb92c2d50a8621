"""``fanscan score``: score a hand given as notation, as JSON lines, or as a photo.

    fanscan score --hand "[567m2][999s3]45m678pFF6m" --self-drawn --seat S
    fanscan score --jsonl hands.jsonl          (or - for stdin; one result per line, in order)
    fanscan score photo.jpg --annotate out.jpg
    fanscan score --sample                     (the bundled sample photo)

Every hand, whatever its source, becomes a hand JSON object and goes through
``fanscan.scoring.ruleset.score``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import unicodedata
from collections.abc import Iterable
from typing import Any, BinaryIO, TextIO

from fanscan.errors import FanscanError

ORDER = 20

EPILOG = """\
exit status:
  0  the hand (every hand, with --jsonl) was scored
  1  bad input: an unreadable notation, photo or file, or a hand that is not a winning hand;
     with --jsonl every line still gets its result line (with "error"), and the status is 1
     when any line failed
  2  usage error (unknown option, two sources at once)
"""

_WINDS = ("E", "S", "W", "N")
MAX_OPTION_CHARS = 200
"""An ``--option`` value longer than this is refused (no rule set's field needs more)."""


def add_condition_flags(parser: argparse.ArgumentParser) -> None:
    """The win conditions a photo cannot show, as flags (shared with ``fanscan waits``)."""
    parser.add_argument(
        "--rules", default="mcr", help="rule set (see `fanscan rules`); default mcr"
    )
    parser.add_argument("--seat", choices=_WINDS, help="seat wind (default E)")
    parser.add_argument("--round", choices=_WINDS, help="round (prevalent) wind (default E)")
    parser.add_argument("--flowers", metavar="CODES", help="flowers held, e.g. 1f6f")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule set's own hand field (see `fanscan rules NAME`), VALUE as JSON",
    )
    parser.add_argument(
        "--base", type=_whole_number, metavar="N",
        help="--rules sichuan: the money per 1 番 (the same as --option base=N)",
    )


def _whole_number(text: str) -> int:
    """An ``int`` flag of at most ``MAX_OPTION_CHARS`` characters (a longer one would make a
    result too large to print)."""
    if len(text) > MAX_OPTION_CHARS:
        raise argparse.ArgumentTypeError(f"at most {MAX_OPTION_CHARS} characters, not {len(text)}")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def add_win_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile (自摸)")
    parser.add_argument(
        "--fourth-tile",
        action="store_true",
        help="the winning tile was the last of its kind (和绝张)",
    )
    parser.add_argument(
        "--kong",
        action="store_true",
        help="with --self-drawn: kong replacement (杠上开花); else robbed a kong",
    )
    parser.add_argument(
        "--last-tile",
        action="store_true",
        help="with --self-drawn: last tile of the wall (妙手回春); else last discard",
    )


def condition_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The hand JSON fields the flags set (only those given)."""
    fields: dict[str, Any] = {}
    for flag in ("self_drawn", "fourth_tile", "kong", "last_tile"):
        if getattr(args, flag, False):
            fields[flag] = True
    if args.seat:
        fields["seat_wind"] = args.seat
    if args.round:
        fields["round_wind"] = args.round
    if args.flowers:
        fields["flowers"] = _flower_codes(args.flowers)
    if getattr(args, "base", None) is not None:
        fields["base"] = args.base
    for item in args.option:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise FanscanError("bad_option", f"--option {item!r} is not NAME=VALUE")
        name = name.replace("-", "_")
        if len(raw) > MAX_OPTION_CHARS:
            raise FanscanError(
                "bad_option",
                f"--option {name[:40]}: the value is {len(raw)} characters long, "
                f"more than the {MAX_OPTION_CHARS} allowed",
            )
        try:
            fields[name] = json.loads(raw)
        except json.JSONDecodeError:
            fields[name] = raw
        except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
            raise FanscanError("bad_option", f"--option {name[:40]}: the value is no option value") from None
    return fields


def with_conditions(hand: dict[str, Any], args: argparse.Namespace, where: str) -> dict[str, Any]:
    """``hand`` (a hand the user wrote: notation or JSON) with the flags' fields set over its own.
    Flowers the hand already names and ``--flowers`` names otherwise are an error, not a choice
    made silently between the two (a photo's read flowers are corrected by the flag instead)."""
    fields = condition_overrides(args)
    named = hand.get("flowers")
    if "flowers" in fields and named and sorted(named) != sorted(fields["flowers"]):
        raise FanscanError(
            "bad_flowers",
            f"{where[:60]} names its flowers ({' '.join(map(str, named))}) and --flowers names "
            f"{' '.join(fields['flowers']) or 'none'}: give them once",
        )
    return {**hand, **fields}


def _flower_codes(text: str) -> list[str]:
    from fanscan.scoring.notation import parse_flowers

    try:
        return [t.code for t in parse_flowers(text)]
    except FanscanError as error:
        raise FanscanError("bad_flowers", f"--flowers: {error.message}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a hand (notation, JSON lines or a photo)",
        description="Score a hand: --hand NOTATION, --jsonl FILE, a PHOTO or --sample. A photo's "
        "hand is shown (notation and summary) before its fans, to check against the table.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "photo",
        nargs="?",
        metavar="PHOTO",
        help="photo of the hand to read; - reads standard input: a photo, a hand in the "
        "notation or one hand JSON",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--hand",
        metavar="NOTATION",
        help='hand notation, e.g. "123m456p789s123sEE" or "[567m,2]..." (- for stdin)',
    )
    source.add_argument("--jsonl", metavar="FILE", help="hand JSON per line (- for stdin)")
    source.add_argument("--sample", action="store_true", help="score the bundled sample photo")
    add_condition_flags(parser)
    add_win_flags(parser)
    parser.add_argument("--json", action="store_true", help="print the result JSON")
    parser.add_argument("--annotate", metavar="OUT", help="with a photo: save an annotated copy")
    parser.add_argument(
        "--win", type=_tile_code, metavar="CODE",
        help="with a photo: the winning tile, one of the standing tiles read (when the photo "
        "sets no tile apart, or the wrong one)",
    )
    parser.set_defaults(handler=run)


def _tile_code(text: str) -> str:
    """A ``--win`` value: one playing tile's code."""
    from fanscan.scoring.tiles import FLOWER_CODES, TILE_BY_CODE

    code = text.strip()
    if code not in TILE_BY_CODE or code in FLOWER_CODES or code == "back":
        raise argparse.ArgumentTypeError(f"expected a playing tile's code such as 3m or E, not {text!r}")
    return code


def run(args: argparse.Namespace) -> int:
    sources = sum(x not in (None, False) for x in (args.photo, args.hand, args.jsonl, args.sample))
    if sources != 1:
        raise FanscanError(
            "bad_arguments", "give exactly one of PHOTO, --hand NOTATION, --jsonl FILE or --sample"
        )
    if args.annotate and not (args.photo or args.sample):
        raise FanscanError("bad_arguments", "--annotate needs a PHOTO (or --sample)")
    if args.win and not (args.photo or args.sample):
        raise FanscanError("bad_arguments", "--win goes with a PHOTO; a notation or a hand JSON "
                           "names its own winning tile")
    if args.annotate:
        from fanscan.cli._inputs import check_image_out

        check_image_out(args.annotate, "--annotate")
    from fanscan.scoring.ruleset import get_ruleset

    get_ruleset(args.rules)  # an unknown rule set is an error before any work
    if args.jsonl is not None:
        if condition_overrides(args):
            raise FanscanError(
                "bad_arguments",
                "win-condition flags apply to --hand and PHOTO; put them in each JSON line",
            )
        return _run_jsonl(args.jsonl, args.rules)
    if args.hand is not None:
        text = args.hand
        if text == "-":
            from fanscan.cli._inputs import stdin_text

            text = stdin_text("a hand in the notation")
        return _run_notation(args, text)
    if args.photo == "-":
        return _run_stdin(args)
    if args.photo == "":
        raise FanscanError("not_found", "the photo's path is empty")
    return _run_photo(args)


def _run_stdin(args: argparse.Namespace) -> int:
    """``score -``: standard input holds a photo, a hand in the notation or one hand JSON."""
    from fanscan.cli._inputs import stdin_bytes, text_or_none

    data = stdin_bytes("a photo or a hand")
    text = text_or_none(data)
    if text is None:
        return _run_photo(args, data)
    if not text.startswith("{"):
        return _run_notation(args, text)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as error:
        raise FanscanError(
            "invalid_hand", f"standard input is not a hand JSON object ({error.msg})"
        ) from None
    except RecursionError:
        raise FanscanError("invalid_hand", "standard input is JSON nested too deeply to be a hand") from None
    except ValueError:  # an integer of more digits than int() converts (sys.get_int_max_str_digits)
        raise FanscanError("invalid_hand", "standard input has a number too long to be part of a hand") from None
    if not isinstance(obj, dict):
        raise FanscanError("invalid_hand", "standard input is not a hand JSON object")
    return _score_and_print(args, with_conditions(obj, args, "the hand on standard input"),
                            "the hand on standard input")


def _run_notation(args: argparse.Namespace, text: str) -> int:
    from fanscan.scoring.notation import parse_notation
    from fanscan.scoring.ruleset import get_ruleset

    size = get_ruleset(args.rules).hand_size
    hand = parse_notation(text, size=size).to_json()
    return _score_and_print(args, with_conditions(hand, args, text), text)


def _score_and_print(args: argparse.Namespace, hand: dict[str, Any], title: str) -> int:
    from fanscan.scoring.ruleset import score

    result = score(hand, args.rules)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    elif not result.error:
        print(format_table(result, title=title))
    return _exit_status(result)


def _exit_status(result: Any, hint: str = "") -> int:
    if result.error:
        print(f"fanscan: error: {result.error}{hint}", file=sys.stderr)
        return 1
    return 0


def _run_photo(args: argparse.Namespace, data: bytes | None = None) -> int:
    from fanscan.scoring.ruleset import get_ruleset, score
    from fanscan.vision.reader import read_photo

    from fanscan.cli.read import hand_line, hand_notation

    path = args.photo
    if args.sample:
        from fanscan.vision.samples import sample_photo_path

        path = str(sample_photo_path())
    reading = read_photo(data if data is not None else path, rules=args.rules)
    overrides = condition_overrides(args)
    if args.win:
        _check_win_read(args.win, reading.hand)
        overrides["win_tile"] = args.win
    result = score({**reading.hand.to_json(), **overrides}, args.rules)
    alternatives = [
        (description, score({**hand.to_json(), **overrides}, args.rules))
        for description, hand in reading.alternatives
    ]
    if args.annotate:
        reading.save_annotated(args.annotate, banner=total_banner(result))
    if args.json:
        obj = result.to_json()
        obj["reading"] = reading.to_json()
        obj["alternatives"] = [
            {"description": d, "total": r.total, "error": r.error} for d, r in alternatives
        ]
        print(json.dumps(obj, ensure_ascii=False))
    else:
        print(path if path != "-" else "the photo on standard input")
        print(f"  hand: {hand_notation(reading.hand)}")
        print(f"  {hand_line(reading.hand)}")
        shown = [f.code for f in reading.hand.flowers]
        if "flowers" in overrides and sorted(overrides["flowers"]) != sorted(shown):
            given = " ".join(overrides["flowers"]) or "none"
            print(f"  flowers scored: {given} (as given; the photo shows {' '.join(shown) or 'none'})")
        read_win = reading.hand.win_tile.code if reading.hand.win_tile is not None else None
        if args.win and args.win != read_win:
            print(f"  winning tile scored: {args.win} (as given; read as {read_win or 'none'})")
        if not result.error:
            print(format_table(result))
        for doubt in reading.doubts:
            print(f"  doubt: {doubt}")
        for (description, hand), (_, alt) in zip(reading.alternatives, alternatives):
            if alt.total is None:
                print(f"  other reading: {description}: not a win ({alt.error})")
            else:
                print(f"  other reading: {description}: {alt.total}{_win_hint(reading.hand, hand, args.win)}")
        if args.annotate:
            print(f"  annotated photo: {args.annotate}")
    one_short = reading.hand.tile_count() == get_ruleset(args.rules).hand_size - 1
    shown = path if path != "-" else "PHOTO"
    hint = f" (a hand waiting to win? `fanscan waits {shown}` lists its winning tiles)" if one_short else ""
    return _exit_status(result, hint)


def _check_win_read(code: str, hand: Any) -> None:
    """Refuse ``--win CODE`` when the photo's standing tiles hold no ``code``."""
    standing = [t.code for t in hand.concealed]
    if code not in standing:
        read = " ".join(standing) or "none"
        raise FanscanError("bad_arguments", f"--win {code}: the standing tiles read hold no {code} ({read})")


def _win_hint(read: Any, other: Any, win: str | None) -> str:
    """`` (--win CODE)`` for another reading that differs from the hand read only by its winning
    tile: how to score it."""
    same_tiles = (other.concealed, other.melds, other.flowers) == (read.concealed, read.melds, read.flowers)
    if other.win_tile is None or not same_tiles:
        return ""
    return "" if other.win_tile.code == win else f" (to score it: --win {other.win_tile.code})"


def total_banner(result: Any) -> str:
    """The line drawn on an annotated photo: the total, or why there is none."""
    if result.error:
        return f"{result.rules}: not scored ({result.error_code or 'error'})"
    return f"{result.rules}: {result.total} fans"


def _run_jsonl(source: str, rules: str) -> int:
    from fanscan.scoring.ruleset import get_ruleset, score

    ruleset = get_ruleset(rules)
    if source == "-":
        failed, total = _stream(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout, rules, ruleset, score)
    else:
        try:
            handle = open(source, "rb")  # bytes: each line is decoded alone (_line_text)
        except OSError as error:
            raise FanscanError("not_found", f"cannot read {source}: {error.strerror}") from None
        with handle:
            failed, total = _stream(handle, sys.stdout, rules, ruleset, score)
    if failed:
        print(f"fanscan: error: {failed} of {total} lines failed (their results say why)",
              file=sys.stderr)
    return 1 if failed else 0


def _stream(
    lines: Iterable[str] | BinaryIO, out: TextIO, rules: str, ruleset: Any, score: Any
) -> tuple[int, int]:
    """Write one result line per line read; (results with an error, lines)."""
    write = out.write
    failed = number = 0
    # What exists before the loop outlives it: kept out of the collector's full passes, which
    # would otherwise walk it again and again as the scorers' memos grow.
    gc.freeze()
    try:
        for number, line in enumerate(lines, 1):
            text, ok = _score_line(number, line, rules, ruleset, score)
            failed += not ok
            write(text + "\n")
    finally:
        gc.unfreeze()
    out.flush()
    return failed, number


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
        obj = json.loads(line)
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


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def format_table(result: Any, title: str | None = None) -> str:
    """The readable table of a scored result: fan, Chinese name, points, count, total."""
    rows = [
        (f.name, f.chinese, str(f.points), str(f.count), str(f.points * f.count))
        for f in result.fans
    ]
    header = ("Fan", "中文", "Points", "Count", "Total")
    widths = [max(_width(r[i]) for r in (header, *rows)) for i in range(5)]
    lines = [title] if title else []
    for row in (header, *rows):
        cells = [_pad(row[0], widths[0]), _pad(row[1], widths[1])]
        cells += [row[i].rjust(widths[i]) for i in (2, 3, 4)]
        lines.append("  " + "  ".join(cells).rstrip())
    without = result.total - (result.flower_points or 0)
    met = "met" if result.meets_minimum else "NOT met"
    flowers = f" ({without} without flowers)" if result.flower_points else ""
    lines.append(f"  Total: {result.total}{flowers}; minimum {result.minimum}: {met}")
    lines += [f"  {key}: {_detail_text(value)}" for key, value in (result.details or {}).items()]
    return "\n".join(lines)


def _detail_text(value: Any) -> str:
    """A rule set's extra figure (points for a base, payments) as one readable line."""
    if isinstance(value, dict):
        return ", ".join(f"{key} {_detail_text(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_detail_text(item) for item in value)
    return str(value)
