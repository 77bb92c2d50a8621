"""The hand shapes of seed 001 (第七条): every way to read a hand as a 刻牌, 顺牌, 混牌, 七对 or
不靠, plus the special forms that "不受牌型定义的限制" (附录1 注3): 七星伴月, 七星海棠,
藕断丝连 (不靠 combinations) and 万里江山 (a 顺牌 combination).

Tiles are face indices 0-33 here (m 0-8, p 9-17, s 18-26, E S W N 27-30, C F P 31-33).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from fanscan.scoring.decompose import readings, tile_counts
from fanscan.scoring.hand import Hand

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
RED, GREEN = 31, 32
HONORS = (*WINDS, *DRAGONS)


@dataclass(frozen=True)
class Shape:
    """One reading: its hand type (K Q B S H), sets, pair, seven pairs and special form."""

    kind: str
    counts: tuple[int, ...]
    pungs: tuple[int, ...] = ()
    chows: tuple[int, ...] = ()
    pair: int = -1
    pairs: tuple[int, ...] = ()
    special: str | None = None

    def units(self) -> list[tuple[int, ...]]:
        """The sets and the pair as tile tuples (for 带幺九 and 全带五)."""
        out: list[tuple[int, ...]] = [(t, t, t) for t in self.pungs]
        out += [(c, c + 1, c + 2) for c in self.chows]
        return [*out, (self.pair, self.pair)] if self.pair >= 0 else out


def _special(counts: list[int]) -> str | None:
    if sum(counts) != 14:
        return None
    if counts[9] == 4 and all(counts[t] == 1 for t in (*HONORS, 6, 15, 24)):
        return "stars_and_moon"
    distinct = [i for i, n in enumerate(counts) if n]
    if len(distinct) == 14 and all(i < 27 and i % 9 % 2 == 0 for i in distinct):
        return "odd_singles"  # ranks 1 3 5 7 9 are the even offsets 0 2 4 6 8
    if all(counts[i] == 1 for i in (*range(9), *WINDS, RED)):
        return "rivers_and_mountains"
    return None


def shapes(hand: Hand) -> Iterator[Shape]:
    """Every reading of ``hand`` as one of the seed's hand shapes."""
    counts = tile_counts(hand.all_tiles())
    frozen = tuple(counts)
    if not hand.melds:
        special = _special(counts)
        if special is not None:
            yield Shape("S" if special == "rivers_and_mountains" else "B", frozen, special=special)
    forms = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted")
    for reading in readings(hand, forms):
        if reading.form == "standard":
            pungs = tuple(int(g.tile) for g in reading.groups if g.kind != "chow")
            chows = tuple(int(g.tile) for g in reading.groups if g.kind == "chow")
            kind = "K" if not chows else "S" if not pungs else "H"
            pair = int(reading.pair) if reading.pair is not None else -1
            yield Shape(kind, frozen, tuple(sorted(pungs)), tuple(sorted(chows)), pair)
        elif reading.form == "seven_pairs":
            yield Shape("Q", frozen, pairs=tuple(int(t) for t in reading.pairs))
        elif reading.form == "thirteen_orphans":
            yield Shape("B", frozen, special="stars_and_begonia")
        else:
            yield Shape("B", frozen)
