"""``fanscan waits``: the tiles a waiting hand wins on, and what each win scores.

fanscan waits "123m456p789s123sE"
fanscan waits "[567m2]44456m678pFF" --seat S --json
fanscan waits hand.jpg            (a photo of the waiting hand: read as one tile short of a win)
fanscan waits 123m456p789s123s234mE   (a 16-tile game's hand: its winning tiles, unscored)
fanscan waits hand.jpg --tiles 16     (a photo of a 16-tile game's waiting hand)
fanscan waits hand.jpg --melds "[567m2][999s3]"   (a standing hand whose declared sets the
                                                   photo does not show: they are added)

Every rule set here plays 14-tile hands. A waiting hand of 16 tiles (the 16-tile games, five sets
and a pair when won) gets its winning tiles listed without scores. A photo is read as a hand of
13 unless ``--tiles 16`` says it shows 16: the photo cannot say which game is played, and a 16-tile
hand with a set laid apart is also a waiting hand of 13 (docs/reader.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fanscan import strict_json
from fanscan.cli._declared_sets import MELDS_HELP, check_standing, read_standing, standing_count
from fanscan.cli._inputs import STDIN, is_folder, is_there, stdin_bytes, text_or_none
from fanscan.cli._win_conditions import add_condition_flags, condition_overrides, with_conditions
from fanscan.errors import FanscanError
from fanscan.scoring.decompose import SIXTEEN_TILE_HAND

if TYPE_CHECKING:
    from fanscan.scoring.ruleset import ScoreResult

ORDER = 21
UNSCORED_NOTE = ("a 16-tile game's hand: no rule set here scores those, so its winning tiles (five "
                 "sets and a pair; no special hands) come without scores")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "waits",
        help="which tiles complete a waiting hand, and their scores",
        description="List the winning tiles of a 13-tile hand (melds count as three) and what "
        "each would score on a discard and self-drawn; of a 16-tile game's hand of 16, the "
        "winning tiles without scores.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "notation", metavar="NOTATION|PHOTO",
        help="the waiting hand, e.g. 123m456p789s123sE, or a photo of it (a path that is a file; "
        "- for either on standard input); "
        "a 16-tile game's hand of 16 gets its winning tiles without scores",
    )
    add_condition_flags(parser)
    parser.add_argument("--tiles", type=int, choices=(13, SIXTEEN_TILE_HAND - 1),
                        help="the waiting hand's tiles, melds as three: 13, or 16 for a 16-tile game's "
                        "(listed without scores). A photo is read as 13 unless told; a notation is "
                        "taken by its own count unless told. The seat, round and flower options do "
                        "not apply to an unscored hand")
    parser.add_argument("--melds", metavar="SETS", help=MELDS_HELP.format(whole=13))
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


EPILOG = """\
exit status:
  0  the winning tiles were listed (or the hand was found to be waiting on none)
  1  bad input: an unreadable notation or photo, or a photo that reads as no waiting hand
  2  usage error"""


def run(args: argparse.Namespace) -> int:
    from fanscan.scoring.hand import Hand
    from fanscan.scoring.notation import parse_melds
    from fanscan.scoring.ruleset import extra_field_defaults, get_ruleset
    from fanscan.scoring.waits import unscored_waits, waits
    from fanscan.vision.hand_rules import tile_count

    ruleset = get_ruleset(args.rules)
    size = ruleset.hand_size - 1
    reading, source = None, args.notation
    if not args.notation.strip():
        raise FanscanError("bad_notation", "the hand notation is empty")
    if args.notation == STDIN:  # a photo's bytes or a notation's text
        data = stdin_bytes("a photo or a hand in the notation")
        text = text_or_none(data)
        if text == "":
            raise FanscanError("bad_notation", "standard input is empty (expected a photo or a hand in the notation)")
        source = text if text is not None else data
    shown = "the photo on standard input" if isinstance(source, bytes) else source
    # Any path that is there and no folder is a photo (a device or a pipe too: load_photo judges it).
    photo = isinstance(source, bytes) or (is_there(source) and not is_folder(source))
    if args.melds is not None and not photo:
        raise FanscanError("bad_arguments", "--melds goes with a PHOTO; a notation writes its declared "
                                            "sets in brackets itself")
    given: tuple[Any, ...] = ()
    if photo:
        given = parse_melds(args.melds) if args.melds is not None else ()
        reading, obj = _photographed(source, shown, ruleset.name, args.tiles or size, given)
    elif is_folder(source):
        raise FanscanError("bad_path", f"{args.notation} is a folder: fanscan waits reads one photo or a notation")
    elif source is args.notation and (any(mark in source for mark in "./\\") or _is_link(source)):
        # no notation holds these marks: a path mistyped; or a link whose target is gone or a loop
        from fanscan.vision.source_bytes import why_missing

        raise FanscanError("not_found", f"no such file: {args.notation}{why_missing(Path(args.notation))}")
    else:
        obj = _parsed(source, size, args.tiles).to_json()
    obj = with_conditions(obj, args, shown) if reading is None else {**obj, **condition_overrides(args)}
    scored = tile_count(obj) == size
    hand = Hand.from_json(obj, extra_fields=extra_field_defaults(ruleset), size=tile_count(obj))
    options = waits(hand, ruleset.name) if scored else unscored_waits(hand)
    if args.json:
        out = {"rules": ruleset.name if scored else None, "waits": [o.to_json() for o in options]}
        if not scored:
            out["note"] = UNSCORED_NOTE
        if reading is not None:
            out["reading"] = reading.to_json()
            out["hand"] = hand.to_json()  # as waited on: the winning tile left open, --melds in
        print(strict_json.dumps(out))
        return 0
    from fanscan.cli.read import hand_notation

    name = shown
    if reading is not None:
        name = f"{shown} (read as {hand_notation(hand)})"
    _print_waits(name, options, scored)
    for doubt in reading.doubts if reading is not None else ():
        print(f"  doubt: {doubt}")
    for description, other in reading.alternatives if reading is not None else ():
        # A notation the user can pass to `fanscan waits` when that reading is the right one.
        print(f"  other reading: {description}: {hand_notation(other.replace(melds=given) if given else other)}")
    apart = 0 if reading is None else sum(not t.in_hand and not t.code.endswith("f") for t in reading.tiles)
    if scored and args.tiles is None and not given and apart >= SIXTEEN_TILE_HAND - 1 - size:
        print(f"  ({apart} tiles lie apart from the hand: if it is a 16-tile game's hand, add --tiles 16)")
    return 0


def _print_waits(name: str, options: list[Any], scored: bool) -> None:
    """The winning tiles as a table for people: with each win's total and fans when ``scored``."""
    if not options:
        shape = "" if scored else " as five sets and a pair"
        print(f"{name}: not waiting (no tile completes it{shape})")
        if not scored:
            print(f"  ({UNSCORED_NOTE})")
        return
    print(f"{name}: waits on {len(options)} tile{'s' if len(options) > 1 else ''}")
    if not scored:
        print(f"  ({UNSCORED_NOTE})")
        rows = [("Tile", "Left", "")] + [(o.tile.code, str(o.remaining), "" if o.remaining else "all four in the hand")
                                         for o in options]
        widths = [max(len(r[i]) for r in rows) for i in range(2)]
        for tile, left, remark in rows:
            print(f"  {tile.ljust(widths[0])}  {left.rjust(widths[1])}  {remark}".rstrip())
        return
    rows = [("Tile", "Left", "Discard", "Self-drawn", "Fans (discard)")]
    for option in options:
        fans = ", ".join(f.name + (f" x{f.count}" if f.count > 1 else "") for f in option.discard.fans)
        rows.append((option.tile.code, str(option.remaining), _total(option.discard),
                     _total(option.self_drawn), fans or option.discard.error or ""))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2, 3)]
        print("  " + "  ".join([*cells, row[4]]).rstrip())


def _is_link(name: str) -> bool:
    """Whether ``name`` is a link (one to nothing, or in a circle, is no file to read: named so);
    a name too long for a file is a notation, no link."""
    try:
        return Path(name).is_symlink()
    except (OSError, ValueError):
        return False


def _parsed(text: str, size: int, tiles: int | None) -> Any:
    """The waiting hand the notation ``text`` writes: of ``tiles``, or when None of ``size`` or a
    16-tile game's 16 (a wrong count's error names both)."""
    from fanscan.scoring.notation import parse_notation

    if tiles is not None:
        return parse_notation(text, complete=False, size=tiles)
    try:
        return parse_notation(text, complete=False, size=size)
    except FanscanError as error:
        try:
            return parse_notation(text, complete=False, size=SIXTEEN_TILE_HAND - 1)
        except FanscanError:
            wrong_count = f"a waiting hand here has {size}"
            if error.message.endswith(wrong_count):
                also = f" (or {SIXTEEN_TILE_HAND - 1} in the 16-tile games)"
                raise FanscanError(error.code, error.message + also) from None
            raise error from None


def _photographed(path: str | bytes, shown: str, rules: str, tiles: int, given: tuple[Any, ...] = (),
                  ) -> tuple[Any, dict]:
    """The reading of a photo of a waiting hand of ``tiles`` (the rule set's 13, or a 16-tile
    game's 16), and its hand JSON with the tile the layout set apart counted among the concealed
    ones (a waiting hand has no winning tile). With declared sets ``given`` (``--melds``) the
    photo must show the rest of the hand standing, three tiles fewer a set (``read_standing``),
    and the sets read from it give way to them. A photo that reads as no such hand is a one-line
    error naming why."""
    from fanscan.scoring.hand import Hand
    from fanscan.vision.reader import read_photo

    standing = standing_count(tiles, given, "a waiting hand")
    if given:
        reading = read_standing(path, rules, "waiting", standing)
    else:
        asked = SIXTEEN_TILE_HAND if tiles == SIXTEEN_TILE_HAND - 1 else None
        reading = read_photo(path, rules=rules, hand="waiting", hand_size=asked)
    obj = {**reading.hand.to_json(), "win_tile": None}
    if given:
        check_standing(shown, reading.hand, standing, given, "a waiting hand", tiles)
        obj["melds"] = [meld.to_json() for meld in given]
    try:
        Hand.from_json(obj, size=tiles)
    except FanscanError as error:
        first = error.message if given or not reading.doubts else reading.doubts[0]
        raise FanscanError("bad_hand", f"{shown} does not read as a waiting hand: {first}") from None
    return reading, obj


def _total(result: ScoreResult) -> str:
    if result.total is None:
        return "-"
    return f"{result.total}{'' if result.meets_minimum else '*'}"
