"""Make the tiles read agree with what a mahjong hand can be, as a referee would.

The classifier names each tile on its own. A hand constrains them together: each flower exists
once, every other face four times, and a photo of a winning hand shows a complete hand. When the
tiles as read break those rules and a doubtful tile's second or third guess repairs them, the
likelier repair is taken and said (``Correction``), so the player checks that tile:

1. ``respect_counts``: a face read more often than it exists gives up its least confident
   readings to their next guess that still fits.
2. ``complete_hand``: when the hand read is not complete, the cheapest change of at most two
   doubtful tiles to near guesses (cost: the drop in log probability) that completes it is
   taken, else the cheapest single change to a far guess. Hands that no such change completes
   are left as read; the layout's doubts then say so.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from fanscan.scoring.decompose import readings as hand_readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import BACK, TILE_CODES
from fanscan.vision.detections import HandLayout, TileReading

from fanscan.errors import FanscanError

_FLOWERS = frozenset(TILE_CODES[34:])
EDITABLE_BELOW = 0.9
"""Only tiles read with less confidence than this are reconsidered."""
MAX_EDITABLE = 6
"""...at most this many of them, the least confident first."""
MIN_GUESS = 0.03
"""A next guess below this probability is never taken."""
MAX_CHANGES = 2


@dataclass(frozen=True)
class Correction:
    """Tile ``index`` was read as ``read`` but is taken as ``taken``, because ``reason``."""

    index: int
    read: str
    read_confidence: float
    taken: str
    taken_confidence: float
    reason: str


def copies_allowed(code: str) -> int:
    """How many tiles of this face a set holds (face-down tiles: any number)."""
    if code == BACK:
        return 10**6
    return 1 if code in _FLOWERS else 4


def _take(reading: TileReading, code: str, confidence: float) -> TileReading:
    return replace(reading, code=code, confidence=confidence)


def _next_guess(reading: TileReading, counts: Counter[str]) -> tuple[str, float] | None:
    """The reading's likeliest other guess that a set still has a copy of, if any is likely enough."""
    return next(
        ((c, p) for c, p in reading.candidates[1:]
         if p >= MIN_GUESS and c != BACK and counts[c] < copies_allowed(c)),
        None,
    )


def respect_counts(readings: list[TileReading]) -> tuple[list[TileReading], list[Correction]]:
    """Readings where no face appears more often than a set holds it, where next guesses allow."""
    out = list(readings)
    counts = Counter(r.code for r in out)
    corrections: list[Correction] = []
    for code in sorted(counts):
        holders = sorted((i for i, r in enumerate(out) if r.code == code), key=lambda i: out[i].confidence)
        for i in holders:  # the least confident give up the face first
            if counts[code] <= copies_allowed(code):
                break
            guess = _next_guess(out[i], counts)
            if guess is None:
                continue
            corrections.append(Correction(
                i, code, out[i].confidence, guess[0], guess[1], f"a set has only {copies_allowed(code)} {code}",
            ))
            out[i] = _take(out[i], *guess)
            counts[code] -= 1
            counts[guess[0]] += 1
    return out, corrections


def is_complete(hand: dict) -> bool:
    """Whether the hand JSON is a possible, complete hand (any tile count, kongs counted as 3)."""
    count = len(hand.get("concealed", [])) + 3 * len(hand.get("melds", []))
    if count % 3 != 2 or hand.get("win_tile") is None:
        return False
    try:
        return bool(hand_readings(Hand.from_json(hand, size=count)))
    except FanscanError:
        return False


def complete_hand(
    readings: list[TileReading], analyse: Callable[[list[TileReading]], HandLayout]
) -> tuple[list[TileReading], HandLayout, list[Correction]]:
    """The readings and their layout, with the cheapest change of at most ``MAX_CHANGES``
    doubtful tiles that makes the hand complete, when the hand as read is not."""
    layout = analyse(readings)
    if is_complete(layout.hand):
        return readings, layout, []
    counts = Counter(r.code for r in readings)
    doubtful = sorted(
        (i for i, r in enumerate(readings) if r.code != BACK and r.confidence < EDITABLE_BELOW),
        key=lambda i: readings[i].confidence,
    )[:MAX_EDITABLE]
    options = [
        (i, code, p, math.log(readings[i].confidence) - math.log(p))
        for i in doubtful
        for code, p in readings[i].candidates[1:]
        if p >= MIN_GUESS and code != BACK
    ]
    changes = [
        combo
        for size in range(1, MAX_CHANGES + 1)
        for combo in itertools.combinations(options, size)
        if len({i for i, *_ in combo}) == size
    ]
    changes.sort(key=lambda combo: sum(cost for *_, cost in combo))
    # Last, one doubtful tile taken as a less likely guess: a tile read wrong with its true face
    # outside the near guesses (a suit tile taken for a flower, often) when that alone completes it.
    far = sorted(
        ((i, code, p, math.log(readings[i].confidence) - math.log(p))
         for i in doubtful for code, p in readings[i].far_guesses if code != BACK),
        key=lambda option: option[3],
    )
    for combo in [*changes, *((option,) for option in far)]:
        changed = Counter(counts)
        for i, code, _, _ in combo:
            changed[readings[i].code] -= 1
            changed[code] += 1
        if any(changed[code] > copies_allowed(code) for _, code, _, _ in combo):
            continue
        trial = list(readings)
        for i, code, p, _ in combo:
            trial[i] = _take(trial[i], code, p)
        trial_layout = analyse(trial)
        if is_complete(trial_layout.hand):
            corrections = [
                Correction(i, readings[i].code, readings[i].confidence, code, p, "that completes the hand")
                for i, code, p, _ in combo
            ]
            return trial, trial_layout, corrections
    return readings, layout, []
