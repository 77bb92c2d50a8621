"""``fanscan rules``: the rule sets, and one rule set's fan table.

fanscan rules            the registered rule sets
fanscan rules mcr        the MCR fan table (points, names, what each fan excludes)
fanscan rules mcr --json
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from typing import Any

ORDER = 22


def _ruling_fans(ruleset: Any) -> frozenset[str]:
    """The rows a rule set takes from rulings rather than its rules' own list of fans (MCR's
    明暗杠, from the MIL rulings: the 1998 rules have 81 fans, and the table 82 rows)."""
    if ruleset.name != "mcr":
        return frozenset()
    from fanscan.scoring.mcr.fans import RULING_FANS

    return frozenset(RULING_FANS)


def _fan_count(ruleset: Any) -> str:
    """``81 fans + 1 from the MIL rulings`` or ``17 fans``."""
    rulings = sum(f.id in _ruling_fans(ruleset) for f in ruleset.fans)
    text = f"{len(ruleset.fans) - rulings} fans"
    return text + (f" + {rulings} from the MIL rulings" if rulings else "")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="list rule sets, or one rule set's fan table",
        description="Without NAME, list the rule sets; with NAME, print its fan table.",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="a rule set, e.g. mcr")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.scoring.ruleset import available, get_ruleset

    if args.name is None:
        sets = [get_ruleset(name) for name in available()]
        if args.json:
            print(json.dumps([_summary(r) for r in sets], ensure_ascii=False))
        else:
            width = max(len(r.name) for r in sets)
            for ruleset in sets:
                print(
                    f"{ruleset.name:{width}} {ruleset.title}: {_fan_count(ruleset)}, "
                    f"minimum {ruleset.minimum}"
                )
        return 0
    ruleset = get_ruleset(args.name)
    rulings = _ruling_fans(ruleset)
    if args.json:
        obj = _summary(ruleset)
        obj["fans"] = [
            {
                "id": f.id,
                "name": f.name,
                "chinese": f.chinese,
                "points": f.points,
                "excludes": list(f.excludes),
                **({"ruling": True} if f.id in rulings else {}),
            }
            for f in ruleset.fans
        ]
        print(json.dumps(obj, ensure_ascii=False))
        return 0
    marked = " (marked *)" if rulings else ""
    print(
        f"{ruleset.title}: {_fan_count(ruleset)}{marked}; minimum {ruleset.minimum} point{'' if ruleset.minimum == 1 else 's'} "
        "(flowers excluded)"
    )
    names = {f.id: f.name for f in ruleset.fans}
    width = max(_width(f.chinese) for f in ruleset.fans)
    name_width = max(len(f.name) for f in ruleset.fans)
    number = 0
    for fan in ruleset.fans:
        excludes = ", ".join(names[i] for i in fan.excludes)
        if fan.id in rulings:
            shown = "  *"
        else:
            number += 1
            shown = f"{number:3}"
        line = (
            f"{shown}  {fan.points:3}  {fan.name:{name_width}}  "
            f"{fan.chinese}{' ' * (width - _width(fan.chinese))}"
        )
        print(f"{line}  {'excludes ' + excludes if excludes else ''}".rstrip())
    for field in ruleset.hand_fields:
        print(
            f"hand field {field.name} (default {json.dumps(field.default)}): {field.help}; "
            f"on the command line: --option {field.name}=VALUE"
        )
    return 0


def _summary(ruleset: Any) -> dict[str, Any]:
    return {
        "name": ruleset.name,
        "title": ruleset.title,
        "minimum": ruleset.minimum,
        "hand_size": ruleset.hand_size,
        "hand_fields": [
            {"name": f.name, "default": f.default, "help": f.help, **({"choices": list(f.choices)} if f.choices else {})}
            for f in ruleset.hand_fields
        ],
    }


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
