"""The C++ reference scorer behind the same JSON-lines wrapper as ``fanscan score --jsonl``.

    python benchmarks/score_reference.py FILE      (or - for stdin)

Scores one hand JSON per line (the contract's hand object, ../shared/docs/tiles-and-hands.md)
with the MIL fan calculator (``pymahjonggb``, the Python binding of the C++
ChineseOfficialMahjongHelper; in the ``test`` extra) and writes one result JSON per line. The
wrapper is fanscan's own: the same line loop as ``fanscan score --jsonl`` (``stream``: each line
decoded, ``json.loads``, an error result for a bad line, ``ScoreResult.json_text`` out, result
rows built once per distinct row), so that only the scorer differs. It checks nothing itself:
what the calculator refuses gets an ``error``. ``bench_score.py --reference`` times it beside
fanscan; tests/scoring/mcr/test_oracle.py maps hands to the calculator the same way.
"""

from __future__ import annotations

import sys
from typing import Any

import MahjongGB  # the binding's own name

from fanscan.cli._score_lines import stream
from fanscan.scoring.ruleset import FanCount, ScoreResult

_SUIT = {"m": "W", "p": "B", "s": "T"}
_HONOR = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
#: Contract code -> the calculator's code (W1 characters, B1 dots, T1 bamboo, F1-F4, J1-J3).
CODES = {**{f"{r}{s}": f"{c}{r}" for s, c in _SUIT.items() for r in range(1, 10)}, **_HONOR}
WIND = {"E": 0, "S": 1, "W": 2, "N": 3}
MINIMUM = 8


def calculator_args(hand: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``MahjongGB.MahjongFanCalculator`` for a hand JSON object."""
    packs = []
    for meld in hand.get("melds", []):
        tiles, claim = meld["tiles"], meld.get("claimed_from") or 1
        if meld["type"] == "chow":
            packs.append(("CHI", CODES[tiles[1]], claim))
        elif meld["type"] == "pung":
            packs.append(("PENG", CODES[tiles[0]], claim))
        else:
            offer = 0 if meld.get("concealed") else (claim % 4 or 1)
            packs.append(("GANG", CODES[tiles[0]], offer))
    standing = list(hand["concealed"])
    standing.remove(hand["win_tile"])
    return {
        "pack": tuple(packs),
        "hand": tuple(CODES[code] for code in standing),
        "winTile": CODES[hand["win_tile"]],
        "flowerCount": len(hand.get("flowers", [])),
        "isSelfDrawn": hand.get("self_drawn", False),
        "is4thTile": hand.get("fourth_tile", False),
        "isAboutKong": hand.get("kong", False),
        "isWallLast": hand.get("last_tile", False),
        "seatWind": WIND[hand.get("seat_wind", "E")],
        "prevalentWind": WIND[hand.get("round_wind", "E")],
        "verbose": True,
    }


_ROWS: dict[tuple[int, int, str, str], FanCount] = {}


def _row(fan: tuple[int, int, str, str]) -> FanCount:
    row = _ROWS.get(fan)
    if row is None:
        points, count, chinese, english = fan
        row = _ROWS[fan] = FanCount(english, chinese, points, count)
    return row


def reference_score(hand: Any, rules: str = "mcr") -> ScoreResult:
    """The contract's result for one hand JSON object, as the calculator scores it."""
    try:
        fans = MahjongGB.MahjongFanCalculator(**calculator_args(hand))
    except Exception as error:  # the calculator's refusal is the line's error
        return ScoreResult.failed(rules, MINIMUM, str(error))
    rows = tuple(map(_row, fans))
    total = sum(row.points * row.count for row in rows)
    flowers = len(hand.get("flowers", []))
    return ScoreResult(rules, total, rows, flowers, MINIMUM, total - flowers >= MINIMUM)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    if sys.argv[1] == "-":
        stream(sys.stdin.buffer, sys.stdout, "mcr", None, reference_score)
    else:
        with open(sys.argv[1], "rb") as handle:
            stream(handle, sys.stdout, "mcr", None, reference_score)
    return 0


if __name__ == "__main__":
    sys.exit(main())
