"""The photo's flowers as one set's: no two boxes read as the same flower.

A set holds one tile of each of the eight flowers and seasons, and their pictures differ between
sets, so the classifier and the flower looks (``flowers``) often read a flower as its neighbour in
number (seasons' 一二三四 written by hand). The search over the hand's readings (``interpret``)
already takes one of each flower within the hand; the flowers laid apart from it (a player's
flowers beside the hand, a photo of the flowers alone) are not in that search. So before the hand
is looked for, the boxes of the whole photo read as flowers are given distinct flowers all at
once: the assignment that is likeliest under each box's own flower probabilities (the sum of
their logarithms, the eight shares of each box taken as a distribution), found exactly by dynamic
programming over the flowers taken so far. Whether a box is a flower at all stays as read.

The hand's own re-reads come after this (a doubtful face read again, a gap probed), so once the
hand is read, the tiles apart from it are given distinct flowers again, among those the hand does
not hold (``taken``).

More boxes read as flowers than a set has free flowers are not one set's (two sets, clutter): then
nothing changes; so too when every box already reads a free flower of its own.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from fanscan.scoring.tiles import CLASS_LABELS, FLOWER_CODES
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import face_probabilities

_FLOWER_COLUMNS = [CLASS_LABELS.index(code) for code in FLOWER_CODES]
_SHARE_FLOOR = 1e-9  # a flower the looks rule out still costs finitely, so an assignment always exists


def flower_shares(reading: TileReading) -> np.ndarray:
    """The reading's eight flower probabilities (1f-8f) as a distribution."""
    shares = face_probabilities(reading)[_FLOWER_COLUMNS]
    total = float(shares.sum())
    return shares / total if total > 0 else np.full(len(FLOWER_CODES), 1 / len(FLOWER_CODES))


def likeliest_distinct(shares: np.ndarray, free: list[int] | None = None) -> list[int]:
    """For (k, 8) rows of flower shares, the distinct flower of each row (its column, one of
    ``free``: all eight by default; k at most as many) that maximises the product of the rows'
    shares: exact, over the sets of flowers taken so far."""
    free = list(range(shares.shape[1])) if free is None else free
    costs = -np.log(np.maximum(shares, _SHARE_FLOOR))
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for row in costs:
        step: dict[int, tuple[float, tuple[int, ...]]] = {}
        for taken, (cost, chosen) in best.items():
            for flower in free:
                if taken >> flower & 1:
                    continue
                key, total = taken | 1 << flower, cost + float(row[flower])
                if key not in step or total < step[key][0]:
                    step[key] = (total, (*chosen, flower))
        best = step
    return list(min(best.values())[1])


def one_of_each_flower(readings: list[TileReading], taken: frozenset[str] = frozenset()) -> list[TileReading]:
    """``readings`` with the boxes read as flowers given distinct flowers, none of ``taken``
    (module docstring)."""
    rows = [i for i, r in enumerate(readings) if r.code in FLOWER_CODES]
    free = [j for j, code in enumerate(FLOWER_CODES) if code not in taken]
    codes = {readings[i].code for i in rows}
    if not rows or len(rows) > len(free) or (len(codes) == len(rows) and not codes & taken):
        return readings
    shares = np.stack([flower_shares(readings[i]) for i in rows])
    out = list(readings)
    for i, flower, share in zip(rows, likeliest_distinct(shares, free), shares):
        code = FLOWER_CODES[flower]
        if code != readings[i].code:
            out[i] = _taken_as(readings[i], code, float(share[flower]))
    return out


def _taken_as(reading: TileReading, code: str, share: float) -> TileReading:
    """The reading with ``code`` as its face: its probability that of all flowers times ``share``."""
    probs = face_probabilities(reading)
    confidence = float(probs[_FLOWER_COLUMNS].sum()) * share
    candidates = ((code, confidence), *((c, p) for c, p in reading.candidates if c != code))
    far = tuple((c, p) for c, p in reading.far_guesses if c != code)
    return replace(reading, code=code, confidence=confidence, candidates=candidates, far_guesses=far)

