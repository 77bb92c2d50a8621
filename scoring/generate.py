"""Random complete hands with consistent win conditions (seeded), for benchmarks and tests.

The mix leans toward what makes fans: one-suit and honor-heavy hands, pungs, kongs, melds and the
special forms appear far more often than in play, so that a few thousand hands touch every family.

>>> import random
>>> hand = random_hand(random.Random(7))
>>> hand.tile_count(), hand.win_tile in hand.concealed
(14, True)
"""

from __future__ import annotations

import random
from collections import Counter

from fanscan.scoring.decompose import KNITTED_STRAIGHTS, ORPHANS
from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import FLOWERS, WINDS, Tile

_HONORS = tuple(range(27, 34))


def _tile_pool(rng: random.Random) -> list[int]:
    """The faces this hand draws its sets from: all, one suit, one suit + honors, or two suits."""
    style = rng.random()
    if style < 0.45:
        return list(range(34))
    if style < 0.6:
        suit = rng.randrange(3)
        return list(range(9 * suit, 9 * suit + 9))
    if style < 0.8:
        suit = rng.randrange(3)
        return [*range(9 * suit, 9 * suit + 9), *_HONORS]
    suits = rng.sample(range(3), 2)
    return [t for s in suits for t in range(9 * s, 9 * s + 9)] + rng.sample(_HONORS, 2)


def _standard_sets(rng: random.Random) -> tuple[list[tuple[str, int]], int] | None:
    pool = _tile_pool(rng)
    chow_bias = rng.choice((0.0, 0.3, 0.6, 0.9, 1.0, 1.0))
    used: Counter[int] = Counter()
    sets: list[tuple[str, int]] = []
    for _ in range(40):
        if len(sets) == 4:
            break
        tile = rng.choice(pool)
        if tile < 27 and tile % 9 <= 6 and rng.random() < chow_bias and tile + 2 in pool:
            tiles = [tile, tile + 1, tile + 2]
            kind = "chow"
        else:
            tiles = [tile] * 3
            kind = "pung"
        if all(used[t] + tiles.count(t) <= 4 for t in set(tiles)):
            used.update(tiles)
            sets.append((kind, tile))
    candidates = [t for t in pool if used[t] <= 2]
    if len(sets) < 4 or not candidates:
        return None
    return sets, rng.choice(candidates)


def _special_concealed(rng: random.Random, form: str) -> list[int] | None:
    if form == "seven_pairs":
        pool = _tile_pool(rng)
        tiles = [t for t in rng.choices(pool, k=7)]
        if max(Counter(tiles).values()) > 2:
            return None
        return [t for t in tiles for _ in range(2)]
    if form == "thirteen_orphans":
        return [int(t) for t in ORPHANS] + [int(rng.choice(ORPHANS))]
    straight = [int(t) for t in rng.choice(KNITTED_STRAIGHTS)]
    if form == "honors_knitted":
        honors = rng.randint(5, 7)
        return rng.sample(straight, 14 - honors) + rng.sample(_HONORS, honors)
    sets = _standard_sets(rng)
    if sets is None:
        return None
    kind, tile = sets[0][0]
    pair = sets[1]
    extra = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
    return straight + extra + [pair, pair]


def random_hand(rng: random.Random) -> Hand:
    """A random complete, valid MCR hand (14 tiles, kongs as three) with win conditions."""
    while True:
        hand = _try_hand(rng)
        if hand is not None:
            return hand


def _try_hand(rng: random.Random) -> Hand | None:
    roll = rng.random()
    melds: list[Meld] = []
    if roll < 0.84:
        found = _standard_sets(rng)
        if found is None:
            return None
        sets, pair = found
        concealed = [pair, pair]
        declared = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
        for index, (kind, tile) in enumerate(sets):
            tiles = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
            if index < declared:
                melds.append(_declare(rng, kind, tiles))
            else:
                concealed += tiles
    else:
        form = rng.choice(
            ("seven_pairs", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
        )
        special = _special_concealed(rng, form)
        if special is None:
            return None
        concealed = special
    counts = Counter(concealed)
    for meld in melds:
        counts.update(int(t) for t in meld.tiles)
    if max(counts.values()) > 4:
        return None
    rng.shuffle(concealed)
    win = Tile(rng.choice(concealed))
    return _with_conditions(rng, [Tile(t) for t in concealed], melds, win, counts)


def _declare(rng: random.Random, kind: str, tiles: list[int]) -> Meld:
    faces = tuple(Tile(t) for t in tiles)
    if kind == "chow":
        return Meld("chow", faces, False, rng.randint(1, 3))
    if rng.random() < 0.3:
        concealed = rng.random() < 0.5
        claim = None if concealed else rng.choice((1, 2, 3, 5, 6, 7))
        return Meld("kong", faces + faces[:1], concealed, claim)
    return Meld("pung", faces, False, rng.randint(1, 3))


def _with_conditions(
    rng: random.Random, concealed: list[Tile], melds: list[Meld], win: Tile, counts: Counter[int]
) -> Hand:
    self_drawn = rng.random() < 0.4
    has_kong = any(m.kind == "kong" for m in melds)
    kong = False
    if self_drawn and has_kong:
        kong = rng.random() < 0.3
    elif not self_drawn and counts[int(win)] == 1:
        kong = rng.random() < 0.1
    fourth = concealed.count(win) == 1 and rng.random() < 0.1
    flowers = tuple(sorted(rng.sample(FLOWERS, rng.choice((0, 0, 0, 1, 2, 3)))))
    seat, prevalent = rng.choice(WINDS), rng.choice(WINDS)
    last = rng.random() < 0.05 and (self_drawn or not kong)  # a robbed kong is no last discard
    return Hand(tuple(concealed), tuple(melds), win, flowers, self_drawn, seat, prevalent,
                fourth, kong, last)
