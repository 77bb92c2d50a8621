"""``fanscan waits``: the tiles a waiting hand wins on, and what each win scores.

fanscan waits "123m456p789s123sE"
fanscan waits "[567m2]4445m678pFF" --seat S --json
fanscan waits hand.jpg            (a photo of the waiting hand: read as one tile short of a win)
fanscan waits 123m456p789s123s234mE   (a 16-tile game's hand: its winning tiles, unscored)

Every rule set here plays 14-tile hands. A waiting hand of 16 tiles (the 16-tile games, five sets
and a pair when won) gets its winning tiles listed without scores. A photo is read as a hand of 13,
and, unless ``--rules`` names a rule set, as a 16-tile game's when it reads as no waiting hand of
13; ``--tiles 16`` reads it as a 16-tile game's at once.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fanscan.cli.score import add_condition_flags, condition_overrides, with_conditions
from fanscan.errors import FanscanError
from fanscan.scoring.decompose import SIXTEEN_TILE_HAND

if TYPE_CHECKING:
    from fanscan.scoring.ruleset import ScoreResult

ORDER = 21
DEFAULT_RULES = "mcr"
UNSCORED_NOTE = "a 16-tile game's hand: no rule set here scores those, so the winning tiles come without scores"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "waits",
        help="which tiles complete a waiting hand, and their scores",
        description="List the winning tiles of a 13-tile hand (melds count as three) and what "
        "each would score on a discard and self-drawn.",
    )
    parser.add_argument(
        "notation", metavar="NOTATION|PHOTO",
        help="the waiting hand, e.g. 123m456p789s123sE, or a photo of it (a path that is a file); "
        "a 16-tile game's hand of 16 gets its winning tiles without scores",
    )
    add_condition_flags(parser)
    # No --rules: a photo may show a 16-tile game's hand too (``_photographed``); scores are MCR's.
    parser.set_defaults(rules=None)
    parser.add_argument("--tiles", type=int, choices=(13, SIXTEEN_TILE_HAND - 1),
                        help="a photo shows a waiting hand of this many tiles (default: 13, or 16 "
                        "when it reads as no waiting hand of 13)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.scoring.hand import Hand
    from fanscan.scoring.ruleset import extra_field_defaults, get_ruleset
    from fanscan.scoring.waits import unscored_waits, waits
    from fanscan.vision.hand_rules import tile_count

    ruleset = get_ruleset(args.rules or DEFAULT_RULES)
    size = ruleset.hand_size - 1
    reading = None
    if Path(args.notation).is_file():
        reading, obj = _photographed(args.notation, args.rules, size, args.tiles)
    elif any(mark in args.notation for mark in "./\\"):  # no notation holds these: a path mistyped
        raise FanscanError("not_found", f"no such file: {args.notation}")
    else:
        obj = _parsed(args.notation, size).to_json()
    obj = with_conditions(obj, args, args.notation) if reading is None else {**obj, **condition_overrides(args)}
    if tile_count(obj) == SIXTEEN_TILE_HAND - 1:
        hand = Hand.from_json(obj, size=SIXTEEN_TILE_HAND - 1)
        options = unscored_waits(hand)
    else:
        hand = Hand.from_json(obj, extra_fields=extra_field_defaults(ruleset), size=size)
        options = waits(hand, ruleset.name)
    scored = all(o.discard is not None for o in options)
    if args.json:
        out = {"rules": ruleset.name if scored else None, "waits": [o.to_json() for o in options]}
        if not scored:
            out["note"] = UNSCORED_NOTE
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
    if not scored:
        print(f"  ({UNSCORED_NOTE})")
        rows = [("Tile", "Left")] + [(o.tile.code, str(o.remaining)) for o in options]
        widths = [max(len(r[i]) for r in rows) for i in range(2)]
        for tile, left in rows:
            print(f"  {tile.ljust(widths[0])}  {left.rjust(widths[1])}")
        return 0
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


def _parsed(text: str, size: int) -> Any:
    """The waiting hand the notation ``text`` writes: of ``size`` tiles, or of a 16-tile game's
    16 (an error names ``size``'s, and 16 where the count is what is wrong)."""
    from fanscan.scoring.notation import parse_notation

    try:
        return parse_notation(text, complete=False, size=size)
    except FanscanError as error:
        try:
            return parse_notation(text, complete=False, size=SIXTEEN_TILE_HAND - 1)
        except FanscanError:
            wrong_count = f"a waiting hand here has {size}"
            if error.message.endswith(wrong_count):
                raise FanscanError(error.code, f"{error.message} (or {SIXTEEN_TILE_HAND - 1} in the 16-tile games)") from None
            raise error from None


def _photographed(path: str, rules: str | None, size: int, tiles: int | None) -> tuple[Any, dict]:
    """The reading of a photo of a waiting hand, and its hand JSON with the tile the layout set
    apart counted among the concealed ones (a waiting hand has no winning tile). The photo is read
    as a hand of ``size`` (``tiles`` 13, or None), or of a 16-tile game's 16 (``tiles`` 16, or None
    without ``rules`` when it reads as no waiting hand of ``size``). Not both at once: read as
    either, photos of 13 took tiles of the table into a 16 (docs/benchmarks.md). A photo that
    reads as no waiting hand is a one-line error naming why."""
    from fanscan.scoring.hand import Hand
    from fanscan.vision.hand_rules import is_waiting, tile_count
    from fanscan.vision.reader import read_photo

    sixteen = SIXTEEN_TILE_HAND - 1
    if tiles != sixteen:
        reading = read_photo(path, rules=rules or DEFAULT_RULES, hand="waiting")
        obj = {**reading.hand.to_json(), "win_tile": None}
    if tiles == sixteen or (tiles is None and rules is None
                            and not (tile_count(obj) == size and is_waiting(obj))):
        again = read_photo(path, rules=None, hand="waiting")  # 13 or 16: the count decides below
        again_obj = {**again.hand.to_json(), "win_tile": None}
        if (tile_count(again_obj) == sixteen and is_waiting(again_obj)) or tiles == sixteen:
            reading, obj, size = again, again_obj, sixteen
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
