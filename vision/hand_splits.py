"""When the hand picked is no hand: the cluster cut along its weakest joins, likeliest cut first.

The hand is a cluster of tiles joined by the links the fitted model finds likelier than not
(``hand_links``). A pile of discards or a column of tiles laid behind the hand can be joined to it
by a few links of 0.55-0.9, and then the search (``interpret``) meets more tiles than any
complete hand holds and can only report the reading it could not complete. Cutting a link the
model believed with probability p costs log(p / (1 - p)) nats, the odds against it; the search
over cuts is:

1. ``splits``: the hand's links likelier than not make a maximum spanning forest; removing one of
   its edges parts its tree in two. Each such cut costs the log-odds of every link likelier than
   not between the two parts, and keeps the part the fitted choice (``hand_links.ChoiceModel``)
   scores first; tiles in no tree with the cut edge (a flower laid aside) stay with the hand. Cuts
   that would leave fewer playing tiles than the smallest complete hand, or cut off only
   flowers (which count in no hand's size), are no option.
2. ``worth_cutting``: only a hand read as none the rules accept, holding more tiles than the
   smallest hand they allow, is cut.
3. ``parts_that_may_be_hands``: the parts left by up to three cuts (each part cut again along
   its own weakest joins, the costs summed) that could be a hand of the rules' sizes
   (``may_be_a_hand``), in order of their cost (a uniform-cost search). Every cut is priced
   first; the fitted choice of the part it keeps, the dearest step (about 0.3 ms a cut), is asked
   only of the cuts that come first.
4. ``first_complete``: those parts read as hands, at most ``MOST_SPLITS_READ``, each keeping its
   tiles as the whole hand's read left them (no second reading of them) and searched less deeply
   (``SPLIT_LAYOUTS``); the first that the rules accept (``Interpretation.satisfied``) is the
   hand, the tiles cut off going to those apart; when none is, the first reading stands.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision import hand_links, row_kongs
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_rules import HandRules, layout_tile_count
from fanscan.vision.interpret import HandRead

MOST_SPLITS_READ = 3
"""At most this many parts are read as hands, cheapest first: a bound on a failing read's time.
On the 52 real photos of ``bench_peer.py`` (piles of tiles among them) 19 hands were cut; the
hands found past the third cut were piles read as hands; the cluttered scenes' hands came at
the first to third, a real waiting hand's (hand_021 of ``bench_real_waits.py``) at the third.
Six reads of 10 layouts each (session 61) mended two cluttered scenes in 300 more but read more
parts of real photos' piles and grids as hands (a face mended wrong in three of them)."""
SPLIT_LAYOUTS = 30
"""...and each searched in at most this many layouts (the whole hand in ``interpret.MAX_LAYOUTS``):
a part that is the hand reads as one within a few (1-4 on the cluttered scenes it mended), one
that is not spends the search's whole budget on the way (a real photo's part of 20 tiles 80 ms)."""
MOST_CUTS = 3
"""A part is left by at most this many cuts (a hand joined to a pile, a wall's end and a stray
tile; the cluttered scenes' hands came within three)."""
PARTS_CUT_AGAIN = 3
"""Of the parts left by as many cuts, the cheapest this many are cut again (each cut of a part
looks at its links: about 7 ms for 22 tiles)."""


@dataclass(frozen=True)
class HandSplit:
    """One cut of the hand: the readings kept (indices, in order) and its cost in nats."""

    kept: tuple[int, ...]
    cost: float


@dataclass(frozen=True)
class _Cut:
    """One edge of the hand's spanning forest removed: its price, and what is needed to choose
    the part kept (``kept``), which costs far more than the price and is asked only when needed."""

    cost: float
    side: frozenset[int]
    other: frozenset[int]
    readings: list[TileReading]
    found: hand_links.Links
    up: np.ndarray
    fewest: int

    def kept(self) -> tuple[int, ...] | None:
        """The readings kept (indices, in order), or None when the fitted choice keeps too few
        playing tiles for a hand or cuts off only flowers."""
        kept = _kept_part(self.readings, self.found, self.up, set(self.side), set(self.other))
        playing = [r.code not in FLOWER_CODES for r in self.readings]
        playing_kept = sum(playing[k] for k in kept)
        if playing_kept < self.fewest or playing_kept == sum(playing):
            return None  # too few tiles left for a hand, or only flowers cut off
        return tuple(sorted(kept))


def splits(readings: list[TileReading], up: np.ndarray, fewest: int) -> list[HandSplit]:
    """The single cuts of the hand ``readings`` that cut off a playing tile (not only flowers) and
    keep at least ``fewest`` of them, cheapest first, each part chosen: the search's first round
    (``parts_that_may_be_hands``) listed whole."""
    out: dict[tuple[int, ...], float] = {}
    for cut in _cuts(readings, up, fewest):
        if (kept := cut.kept()) is not None:
            out[kept] = min(cut.cost, out.get(kept, math.inf))
    return sorted((HandSplit(kept, cost) for kept, cost in out.items()), key=lambda s: s.cost)


def _cuts(readings: list[TileReading], up: np.ndarray, fewest: int) -> list[_Cut]:
    """Each edge of the hand's spanning forest removed, priced, the part kept not yet chosen; the
    cuts that leave too few playing tiles, or cut off only flowers, whichever part is kept, left out."""
    playing = [r.code not in FLOWER_CODES for r in readings]  # a flower counts in no hand's size
    total = sum(playing)
    if total <= fewest:
        return []
    found = hand_links.links(readings, up)
    joins = [(float(p), i, j) for (i, j), p in zip(found.pairs, found.probabilities) if p > 0.5]
    tree = _spanning_forest(len(readings), joins)
    out = []
    for edge in tree:
        rest = [(a, b) for q, a, b in tree if (q, a, b) != edge]
        side, other = (_side_of(end, rest, len(readings)) for end in edge[1:])
        if not any(0 < sum(playing[k] for k in dropped) <= total - fewest for dropped in (side, other)):
            continue
        # Every join lies within one tree of the forest: one crossing ``side``'s edge joins it to ``other``.
        cost = sum(math.log(q / (1 - q)) for q, a, b in joins if (a in side) != (b in side))
        out.append(_Cut(cost, frozenset(side), frozenset(other), readings, found, up, fewest))
    return out


def worth_cutting(read: HandRead, rules: HandRules) -> bool:
    """Whether the hand as read may hold tiles that are not the hand's: it reads as none the rules
    accept, with more tiles (kongs counted as three, face-down tiles in no kong counted) than the
    smallest hand of the rules.

    Declared a win, any such hand is cut, a possible size too (a 14-tile hand and three tiles of
    the table read 17, a 16-tile game's size): a cut is kept only when it reads as a complete hand,
    and a hand of a possible size misread by a tile reads as none after a cut as before, but where
    the misread tile lies in a meld apart (then the hand was wrong either way). Asked for a waiting
    hand, only a number none of the rules' hands holds is cut (15 or 16 where hands are 14 or
    17): a complete hand is what the photo shows, not one to cut a tile from, and a waiting hand
    is too easily found among 13 of 14 tiles."""
    if read.best is None or read.best.satisfied or rules.kind == "any":
        return False
    possible = set(rules.sizes) | ({size - 1 for size in rules.sizes} if rules.kind == "waiting" else set())
    # A kong read as shown face up in the row is but a guess in a hand that reads as none: its
    # fourth tile may as well be one too many; and a face-down tile in no concealed kong (a
    # wall's end joined to the hand) is a tile of the hand too, though the hand's JSON holds faces.
    count = (layout_tile_count(read.best.layout) + row_kongs.shown_in(read.best.layout.groups, read.best.readings)
             + read.best.events["stray_back"])
    return count > min(possible) and (rules.kind == "win" or count not in possible)


def first_complete(readings: list[TileReading], up: np.ndarray, rules: HandRules,
                   read_part: Callable[[list[TileReading], int], HandRead],
                   as_read: list[TileReading] | None = None) -> tuple[HandRead, list[TileReading]] | None:
    """The read of the cheapest part of the hand (``parts_that_may_be_hands``: cut as its tiles
    were linked) that the rules accept, and the tiles cut off; None when none of the
    ``MOST_SPLITS_READ`` read first is. ``as_read`` (one per reading, in order: the tiles as the
    whole hand's read left them) are the tiles the parts are read from, and whose faces size them:
    a tile first read as a flower and read again in the hand's frame as a playing tile counts in
    the hand's size as read there; the links are measured on the boxes as first read, as when
    the hand was picked. ``read_part(tiles, most_layouts)`` reads a part, searching at most so
    many layouts (``SPLIT_LAYOUTS``)."""
    tiles = readings if as_read is None else as_read
    # Linked as the hand was picked (each box in the frame it was first read in: a tile's links
    # are measured in its own frame), weighed by the faces as read.
    linked = [replace(r, code=t.code, confidence=t.confidence) for r, t in zip(readings, tiles)]
    for split in itertools.islice(parts_that_may_be_hands(linked, up, rules), MOST_SPLITS_READ):
        read = read_part([tiles[i] for i in split.kept], SPLIT_LAYOUTS)
        if read.best is not None and read.best.satisfied:
            return read, [r for i, r in enumerate(tiles) if i not in split.kept]
    return None


def parts_that_may_be_hands(readings: list[TileReading], up: np.ndarray,
                            rules: HandRules) -> Iterator[HandSplit]:
    """The parts of the hand left by up to ``MOST_CUTS`` cuts that ``may_be_a_hand``, cheapest
    first, each with its cost (its cuts' summed): a uniform-cost search, each part cut again
    along its own weakest joins only once every cheaper part was offered (a cut costs more than
    nothing, so no part it leaves is cheaper than the part it cut). Of the parts left by as many
    cuts, only the ``PARTS_CUT_AGAIN`` cheapest are cut again. The cost is the log-odds against
    the links cut, so the order is the link model's: a part left by two cuts of weak links (a
    stray tile and a pile) comes before one left by a cut of strong ones."""
    fewest = min(rules.sizes) - (1 if rules.kind == "waiting" else 0)
    # (cost, cuts, tie-break, the part kept or the cut that leaves it): a cut's part is chosen
    # (the fitted choice, the dearest step) only when it comes first, priced before.
    whole = tuple(range(len(readings)))
    queue: list[tuple[float, int, int, tuple[int, ...] | _KeptWithin]] = [(0.0, 0, 0, whole)]
    pushed = itertools.count(1)
    offered: set[tuple[int, ...]] = set()
    cut_again: Counter[int] = Counter()
    while queue:
        cost, cuts, _, part = heapq.heappop(queue)
        kept = part if isinstance(part, tuple) else part.kept()
        if kept is None or kept in offered:
            continue
        offered.add(kept)
        if cuts and may_be_a_hand([readings[i] for i in kept], rules):
            yield HandSplit(kept, cost)
        if cuts < MOST_CUTS and (cuts == 0 or cut_again[cuts] < PARTS_CUT_AGAIN):
            cut_again[cuts] += 1
            for cut in _cuts([readings[i] for i in kept], up, fewest):
                heapq.heappush(queue, (cost + cut.cost, cuts + 1, next(pushed), _KeptWithin(kept, cut)))


@dataclass(frozen=True)
class _KeptWithin:
    """A cut of a part of the hand, its kept part given in the whole hand's indices."""

    part: tuple[int, ...]
    cut: _Cut

    def kept(self) -> tuple[int, ...] | None:
        kept = self.cut.kept()
        return None if kept is None else tuple(self.part[k] for k in kept)


def may_be_a_hand(readings: list[TileReading], rules: HandRules) -> bool:
    """Whether the tiles as read could be a hand of the rules' sizes: their playing tiles less one
    for each kong they could hold (a face read four times, two backs), counted as the rules ask
    (a waiting hand one short). A cheap test before the reading search, which a cut of the wrong
    size would keep busy to its budget."""
    playing = [r.code for r in readings if r.code not in FLOWER_CODES]
    faces = Counter(code for code in playing if code != BACK)
    kongs = sum(count // 4 for count in faces.values()) + (len(playing) - sum(faces.values())) // 2
    short = 1 if rules.kind == "waiting" else 0
    return any(len(playing) - k + short in rules.sizes for k in range(kongs + 1))


def _spanning_forest(n: int, joins: list[tuple[float, int, int]]) -> list[tuple[float, int, int]]:
    """The maximum spanning forest of the joins (Kruskal, likeliest first)."""
    groups = hand_links.Groups([1] * n)
    tree = []
    for p, i, j in sorted(joins, key=lambda join: -join[0]):
        if groups.root(i) != groups.root(j):
            groups.join(i, j)
            tree.append((p, i, j))
    return tree


def _side_of(start: int, edges: list[tuple[int, int]], n: int) -> set[int]:
    """The tiles ``edges`` connect to ``start``."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    seen, stack = {start}, [start]
    while stack:
        for k in neighbours[stack.pop()]:
            if k not in seen:
                seen.add(k)
                stack.append(k)
    return seen


def _kept_part(readings: list[TileReading], found: hand_links.Links, up: np.ndarray,
               side: set[int], other: set[int]) -> list[int]:
    """The hand less whichever of the two parts the fitted choice scores lower."""
    cluster = np.full(len(readings), -1, int)
    first_side, first_other = min(side), min(other)
    cluster[list(side)], cluster[list(other)] = first_side, first_other
    features = hand_links.cluster_features(readings, cluster, found, up, [first_side, first_other])
    dropped = other if np.argmax(hand_links.default_choice().scores(features)) == 0 else side
    return [i for i in range(len(readings)) if i not in dropped]
