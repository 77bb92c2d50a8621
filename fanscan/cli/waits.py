"""``fanscan waits``: the tiles a waiting hand wins on, and what each win scores.

fanscan waits "123m456p789s123sE"
fanscan waits "[567m2]4445m678pFF" --seat S --json
fanscan waits hand.jpg            (a photo of the waiting hand: read as one tile short of a win)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fanscan.cli.score import add_condition_flags, condition_overrides, with_conditions
from fanscan.errors import FanscanError

if TYPE_CHECKING:
    from fanscan.scoring.ruleset import ScoreResult

ORDER = 21


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "waits",
        help="which tiles complete a waiting hand, and their scores",
        description="List the winning tiles of a 13-tile hand (melds count as three) and what "
        "each would score on a discard and self-drawn.",
    )
    parser.add_argument(
        "notation", metavar="NOTATION|PHOTO",
        help="the waiting hand, e.g. 123m456p789s123sE, or a photo of it (a path that is a file)",
    )
    add_condition_flags(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.scoring.hand import Hand
    from fanscan.scoring.notation import parse_notation
    from fanscan.scoring.ruleset import extra_field_defaults, get_ruleset
    from fanscan.scoring.waits import waits

    ruleset = get_ruleset(args.rules)
    size = ruleset.hand_size - 1
    reading = None
    if Path(args.notation).is_file():
        reading, obj = _photographed(args.notation, ruleset.name, size)
    elif any(mark in args.notation for mark in "./\\"):  # no notation holds these: a path mistyped
        raise FanscanError("not_found", f"no such file: {args.notation}")
    else:
        obj = parse_notation(args.notation, complete=False, size=size).to_json()
    obj = with_conditions(obj, args, args.notation) if reading is None else {**obj, **condition_overrides(args)}
    hand = Hand.from_json(obj, extra_fields=extra_field_defaults(ruleset), size=size)
    options = waits(hand, args.rules)
    if args.json:
        out = {"rules": ruleset.name, "waits": [o.to_json() for o in options]}
        if reading is not None:
            out["reading"] = reading.to_json()
        print(json.dumps(out, ensure_ascii=False))
        return 0
    name = args.notation
    if reading is not None:
        from fanscan.cli.read import hand_notation

        name = f"{args.notation} (read as {hand_notation(hand)})"
        for doubt in reading.doubts:
            print(f"doubt: {doubt}")
    if not options:
        print(f"{name}: not waiting (no tile completes it)")
        return 0
    print(f"{name}: waits on {len(options)} tile{'s' if len(options) > 1 else ''}")
    rows = [("Tile", "Left", "Discard", "Self-drawn", "Fans (discard)")]
    for option in options:
        rows.append(
            (
                option.tile.code,
                str(option.remaining),
                _total(option.discard),
                _total(option.self_drawn),
                ", ".join(
                    f.name + (f" x{f.count}" if f.count > 1 else "") for f in option.discard.fans
                )
                or option.discard.error
                or "",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2, 3)]
        print("  " + "  ".join([*cells, row[4]]).rstrip())
    return 0


def _photographed(path: str, rules: str, size: int) -> tuple[Any, dict]:
    """The reading of a photo of a waiting hand under ``rules``, and its hand JSON with the tile
    the layout set apart counted among the concealed ones (a waiting hand has no winning tile).
    A photo that reads as no waiting hand of ``size`` tiles is a one-line error naming why."""
    from fanscan.scoring.hand import Hand
    from fanscan.vision.reader import read_photo

    reading = read_photo(path, rules=rules, hand="waiting")
    obj = {**reading.hand.to_json(), "win_tile": None}
    try:
        Hand.from_json(obj, size=size)
    except FanscanError as error:
        first = reading.doubts[0] if reading.doubts else error.message
        raise FanscanError("bad_hand", f"{path} does not read as a waiting hand: {first}") from None
    return reading, obj


def _total(result: ScoreResult) -> str:
    if result.total is None:
        return "-"
    return f"{result.total}{'' if result.meets_minimum else '*'}"
