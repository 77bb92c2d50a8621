"""``fanscan score``: score a hand given as notation, as JSON lines, or as a photo.

    fanscan score --hand "[567m2][999s3]45m678pFF6m" --self-drawn --seat S
    fanscan score --jsonl hands.jsonl          (or - for stdin; one result per line, in order)
    fanscan score photo.jpg --annotate out.jpg
    fanscan score photo.jpg --melds "[567m2][999s3]"   (a standing hand whose declared sets the
                                                       photo does not show: they are added)
    fanscan score --sample                     (the bundled sample photo)

Every hand, whatever its source, becomes a hand JSON object and goes through
``fanscan.scoring.ruleset.score``.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from fanscan.cli._declared_sets import (
    MELDS_HELP, check_standing, holds_sets, read_standing, standing_count, with_sets)
from fanscan.cli._inputs import named
from fanscan.cli._win_conditions import add_condition_flags, add_win_flags, condition_overrides, with_conditions
from fanscan import strict_json
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
        type=named,
        help="photo of the hand to read; - reads standard input: a photo, a hand in the "
        "notation or one hand JSON",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--hand",
        metavar="NOTATION",
        help='hand notation, e.g. "123m456p789s123sEE" or "[567m,2]..." (- for stdin)',
    )
    source.add_argument("--jsonl", metavar="FILE", type=named, help="hand JSON per line (- for stdin)")
    source.add_argument("--sample", action="store_true", help="score the bundled sample photo")
    add_condition_flags(parser)
    add_win_flags(parser)
    parser.add_argument("--json", action="store_true", help="print the result JSON")
    parser.add_argument("--annotate", metavar="OUT", type=named, help="with a photo: save an annotated copy")
    parser.add_argument(
        "--win", type=_tile_code, metavar="CODE",
        help="with a photo: the winning tile, one of the standing tiles read (when the photo "
        "sets no tile apart, or the wrong one)",
    )
    parser.add_argument("--melds", metavar="SETS", help=MELDS_HELP.format(whole=14))
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
    if args.melds is not None and not (args.photo or args.sample):
        raise FanscanError("bad_arguments", "--melds goes with a PHOTO; a notation writes its declared "
                           "sets in brackets itself, a hand JSON in its melds")
    if args.annotate:
        from fanscan.cli._inputs import check_image_out

        check_image_out(args.annotate, "--annotate", [args.photo] if args.photo else [])
    from fanscan.scoring.ruleset import get_ruleset

    get_ruleset(args.rules)  # an unknown rule set is an error before any work
    if args.jsonl is not None:
        if condition_overrides(args):
            raise FanscanError(
                "bad_arguments",
                "win-condition flags apply to --hand and PHOTO; put them in each JSON line",
            )
        from fanscan.cli._score_lines import run_jsonl

        return run_jsonl(args.jsonl, args.rules)
    if args.hand is not None:
        text = args.hand
        if text == "-":
            from fanscan.cli._inputs import stdin_text

            text = stdin_text("a hand in the notation")
        return _run_notation(args, text)
    if args.photo == "-":
        return _run_stdin(args)
    return _run_photo(args)


def _run_stdin(args: argparse.Namespace) -> int:
    """``score -``: standard input holds a photo, a hand in the notation or one hand JSON."""
    from fanscan.cli._inputs import stdin_bytes, text_or_none

    data = stdin_bytes("a photo or a hand")
    text = text_or_none(data)
    if text is None:
        return _run_photo(args, data)
    if args.win:
        raise FanscanError("bad_arguments", "--win goes with a photo; a notation or a hand JSON names "
                           "its own winning tile")
    if args.melds is not None:
        raise FanscanError("bad_arguments", "--melds goes with a photo; a notation or a hand JSON holds "
                           "its own declared sets")
    if not text.startswith("{"):
        return _run_notation(args, text)
    try:
        obj = strict_json.loads(text)
    except strict_json.DuplicateField as error:
        raise FanscanError("invalid_hand", f"the hand on standard input: {error}") from None
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
        print(strict_json.dumps(result.to_json()))
    elif not result.error:
        print(format_table(result, title=title))
    return _exit_status(result)


def _exit_status(result: Any, hint: str = "") -> int:
    if result.error:
        print(f"fanscan: error: {result.error}{hint}", file=sys.stderr)
        return 1
    return 0


def _run_photo(args: argparse.Namespace, data: bytes | None = None) -> int:
    from fanscan.scoring.notation import parse_melds
    from fanscan.scoring.ruleset import get_ruleset, score
    from fanscan.vision.layout_words import LAST_TAKEN_AS_WIN
    from fanscan.vision.reader import read_photo

    from fanscan.cli.read import hand_line, hand_notation

    path = args.photo
    if args.sample:
        from fanscan.vision.samples import sample_photo_path

        path = str(sample_photo_path())
    shown = path if path != "-" else "the photo on standard input"
    given = parse_melds(args.melds) if args.melds is not None else ()
    whole = get_ruleset(args.rules).hand_size
    standing = standing_count(whole, given, "a winning hand") if given else None
    source = data if data is not None else path
    reading = (read_standing(source, args.rules, "win", standing) if given
               else read_photo(source, rules=args.rules))
    read_hand, others = reading.hand, list(reading.alternatives)
    if given:  # the sets typed take the place of those read; readings of other counts go
        check_standing(shown, reading.hand, standing, given, "a winning hand", whole)
        read_hand = with_sets(read_hand, given, shown, whole)
        others = [(d, h.replace(melds=given)) for d, h in others
                  if len(h.concealed) == standing and holds_sets(h, given, whole)]
    overrides = condition_overrides(args)
    read_win = read_hand.win_tile.code if read_hand.win_tile is not None else None
    scored_hand = read_hand.to_json()
    if args.win:
        _check_win_read(args.win, read_hand)
        scored_hand["win_tile"] = args.win
        if args.win != read_win:  # the reading as read is now another reading, the one scored none
            others = [(f"winning tile {read_win} (as read)", read_hand),
                      *[(d, h) for d, h in others if not _only_win_differs(read_hand, h, args.win)]]
    result = score({**scored_hand, **overrides}, args.rules)
    alternatives = [
        (description, score({**hand.to_json(), **overrides}, args.rules))
        for description, hand in others
    ]
    if args.annotate:
        reading.save_annotated(args.annotate, banner=total_banner(result))
    if args.json:
        obj = result.to_json()
        obj["reading"] = reading.to_json()
        if given:
            obj["hand"] = scored_hand  # as scored: --melds in
        obj["alternatives"] = [
            {"description": d, "total": r.total, "error": r.error} for d, r in alternatives
        ]
        print(strict_json.dumps(obj))
    else:
        print(shown)
        print(f"  hand: {hand_notation(read_hand)}")
        print(f"  {hand_line(read_hand)}")
        flowers = [f.code for f in read_hand.flowers]
        if "flowers" in overrides and sorted(overrides["flowers"]) != sorted(flowers):
            typed = " ".join(overrides["flowers"]) or "none"
            print(f"  flowers scored: {typed} (as given; the photo shows {' '.join(flowers) or 'none'})")
        if args.win and args.win != read_win:
            print(f"  winning tile scored: {args.win} (as given; read as {read_win or 'none'})")
        if not result.error:
            print(format_table(result))
        for (description, hand), (_, alt) in zip(others, alternatives):  # as `read`: readings, then doubts
            if alt.total is None:
                print(f"  other reading: {description}: not a win ({alt.error})")
            else:
                print(f"  other reading: {description}: {alt.total}{_win_hint(read_hand, hand, args.win or read_win)}")
        for doubt in reading.doubts:
            if not (args.win and doubt.startswith(LAST_TAKEN_AS_WIN)):  # --win answered it
                print(f"  doubt: {doubt}")
        if args.annotate:
            print(f"  annotated photo: {args.annotate}")
    waits = f"`fanscan waits {path if path != '-' else 'PHOTO'}`"
    one_short = read_hand.tile_count() == whole - 1
    hint = f" (a hand waiting to win? {waits} lists its winning tiles)" if one_short else ""
    return _exit_status(result, hint)


def _check_win_read(code: str, hand: Any) -> None:
    """Refuse ``--win CODE`` when the photo's standing tiles hold no ``code``: the photo and the
    flag disagree (bad input, exit 1; the command line itself is right)."""
    standing = [t.code for t in hand.concealed]
    if code not in standing:
        read = " ".join(standing) or "none"
        raise FanscanError("win_not_read", f"--win {code}: the standing tiles read hold no {code} ({read})")


def _only_win_differs(read: Any, other: Any, win: str | None = None) -> bool:
    """Whether ``other`` holds the tiles of the hand ``read`` with another winning tile (``win``,
    when given)."""
    same_tiles = (other.concealed, other.melds, other.flowers) == (read.concealed, read.melds, read.flowers)
    return same_tiles and other.win_tile is not None and (win is None or other.win_tile.code == win)


def _win_hint(read: Any, other: Any, win: str | None) -> str:
    """`` (to score it: --win CODE)`` for another reading that differs from the hand read only by
    its winning tile, unless that tile is ``win``, the one scored."""
    if not _only_win_differs(read, other) or other.win_tile.code == win:
        return ""
    return f" (to score it: --win {other.win_tile.code})"


def total_banner(result: Any) -> str:
    """The line drawn on an annotated photo: the total, or why there is none."""
    if result.error:
        return f"{result.rules}: not scored ({result.error_code or 'error'})"
    return f"{result.rules}: {result.total} fans"


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
