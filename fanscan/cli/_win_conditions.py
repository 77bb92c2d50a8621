"""The win conditions a hand's tiles do not show, as command-line flags: the seat and round winds,
flowers, self-drawn and the other ways to win, a rule set's own fields (``--option``). Shared by
``fanscan score`` and ``fanscan waits``; each flag given becomes a hand JSON field."""

from __future__ import annotations

import argparse
import json
from typing import Any

from fanscan.errors import FanscanError

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
    given = {name: "--" + name.replace("_", "-") for name in fields}
    given.update(seat_wind="--seat", round_wind="--round")
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
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
            raise FanscanError("bad_option", f"--option {name[:40]}: the value is no option value") from None
        if name in fields and fields[name] != value:  # never the last of two silently
            raise FanscanError("bad_option", f"{name[:40]} is given twice ({given[name]} and --option "
                                             f"{name[:40]}={raw[:40]}): give it once")
        fields[name], given[name] = value, f"--option {name[:40]}={raw[:40]}"
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
