"""When the hand picked is short of a hand: clusters of tiles lying apart joined to it, likeliest first.

The hand is the cluster of tiles the fitted links join (``hand_links``). A hand standing on edge,
seen from the seat, has its declared sets and flowers lying flat beyond its row: foreshortened,
of another size and turn than the standing tiles, their links to the row are believed less than
even, and the hand as picked is its standing row alone, fewer tiles than any hand holds.
Joining a cluster whose likeliest link to the hand the model believed with probability p costs
log((1 - p) / p) nats, the odds against that link (below nothing for a link likelier than not
that did not join: a flower's, or one past the most tiles a hand shows, or measured on faces the
hand's second reading changed): the price a cut pays for a link it breaks
(``hand_splits``), the other way round. The search over joins is the cuts' mirror:

1. ``worth_joining``: only a hand read as none the rules accept, holding fewer playing tiles than
   the smallest hand they allow, is joined to.
2. ``parts_that_may_be_hands``: the hand with the clusters apart (the tiles apart linked among
   themselves as the hand's were, slivers left out) joined one by one, each within reach of the
   part it joins (a link candidate of ``hand_links.neighbour_pairs``), in order of their summed
   cost (a uniform-cost search, at most ``hand_splits.MOST_CUTS`` joins, of the parts made by as
   many joins only the ``hand_splits.PARTS_CUT_AGAIN`` cheapest joined to again: a bound on a
   photo of many tiles apart); those that could be a hand of the rules' sizes
   (``hand_splits.may_be_a_hand``) are offered.
3. ``first_complete``: those parts read as hands, at most ``hand_splits.MOST_SPLITS_READ``, each
   searched as deeply as a cut's part (``hand_splits.SPLIT_LAYOUTS``); the first the rules
   accept is the hand, the tiles not joined staying apart; when none is, the first reading stands.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
from fanscan.scoring.tiles import FLOWER_CODES
from fanscan.vision import hand_links, hand_region
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_rules import HandRules, layout_tile_count
from fanscan.vision.hand_splits import (MOST_CUTS, MOST_SPLITS_READ, PARTS_CUT_AGAIN, SPLIT_LAYOUTS, HandSplit,
                                       may_be_a_hand)
from fanscan.vision.interpret import HandRead

_SUREST = 1e-6
"""Link probabilities are kept this far from 0 and 1, so that every join has a finite price."""


def worth_joining(read: HandRead, rules: HandRules) -> bool:
    """Whether the hand as read may lack tiles the photo shows apart from it: it reads as none the
    rules accept, with fewer tiles (kongs counted as three) than the smallest hand they allow."""
    if rules.kind == "any" or (read.best is not None and read.best.satisfied):
        return False
    fewest = min(rules.sizes) - (1 if rules.kind == "waiting" else 0)
    if read.best is None:
        return sum(r.code not in FLOWER_CODES for r in read.readings) < fewest
    return layout_tile_count(read.best.layout) < fewest


def parts_that_may_be_hands(hand: list[TileReading], apart: list[TileReading], up: np.ndarray,
                            rules: HandRules) -> Iterator[HandSplit]:
    """The hand (indices 0 .. len(hand) - 1 of ``hand + apart``) with up to ``MOST_CUTS`` clusters
    of ``apart`` joined, cheapest first, those that ``may_be_a_hand``, each with its cost."""
    if not apart:
        return
    tiles = hand + apart
    found = hand_links.links(tiles, up)
    p = np.clip(found.probabilities, _SUREST, 1 - _SUREST)
    cluster = _clusters_apart(apart, up, len(hand))
    # The price of joining each cluster apart to a tile it may link to: its likeliest link's odds against.
    price: dict[tuple[int, int], float] = {}  # (tile, cluster) -> nats
    for (i, j), q in zip(found.pairs, p):
        for a, b in ((i, j), (j, i)):
            if b in cluster and cluster.get(a) != cluster[b]:
                key = (a, cluster[b])
                price[key] = min(price.get(key, math.inf), math.log((1 - q) / q))
    members: dict[int, list[int]] = {}
    for k, c in cluster.items():
        members.setdefault(c, []).append(k)
    start = tuple(range(len(hand)))
    queue: list[tuple[float, int, int, tuple[int, ...]]] = [(0.0, 0, 0, start)]
    pushed = itertools.count(1)
    offered: set[tuple[int, ...]] = set()
    joined_again: Counter[int] = Counter()
    while queue:
        cost, joins, _, part = heapq.heappop(queue)
        if part in offered:
            continue
        offered.add(part)
        if joins and may_be_a_hand([tiles[k] for k in part], rules):
            yield HandSplit(part, cost)
        if joins == MOST_CUTS or (joins and joined_again[joins] == PARTS_CUT_AGAIN):
            continue
        joined_again[joins] += 1
        inside = set(part)
        reachable: dict[int, float] = {}
        for (a, c), nats in price.items():
            if a in inside and members[c][0] not in inside:
                reachable[c] = min(reachable.get(c, math.inf), nats)
        for c, nats in reachable.items():
            heapq.heappush(queue, (cost + nats, joins + 1, next(pushed), tuple(sorted(inside | set(members[c])))))


def _clusters_apart(apart: list[TileReading], up: np.ndarray, offset: int) -> dict[int, int]:
    """Each tile apart (its index in ``hand + apart``) and its cluster: the tiles apart linked
    among themselves likelier than not (``hand_links.linked_clusters``)."""
    if len(apart) == 1:
        return {offset: offset}
    roots = hand_links.linked_clusters(apart, hand_links.links(apart, up))
    return {offset + k: offset + int(root) for k, root in enumerate(roots)}


def first_complete(hand: list[TileReading], apart: list[TileReading], up: np.ndarray, rules: HandRules,
                   read_part: Callable[[list[TileReading], int], HandRead],
                   image_size: tuple[int, int] | None = None) -> tuple[HandRead, list[TileReading]] | None:
    """The read of the cheapest join of clusters of the tiles ``apart`` (``joinable`` ones, in a
    photo of ``image_size``) to the ``hand`` (``parts_that_may_be_hands``) that the rules accept,
    and the tiles left apart; None when none of the ``MOST_SPLITS_READ`` read first is.
    ``read_part(tiles, most_layouts)`` reads a part (``SPLIT_LAYOUTS`` layouts)."""
    apart, slivers = joinable(hand, apart, image_size)
    tiles = hand + apart
    for join in itertools.islice(parts_that_may_be_hands(hand, apart, up, rules), MOST_SPLITS_READ):
        read = read_part([tiles[k] for k in join.kept], SPLIT_LAYOUTS)
        if read.best is not None and read.best.satisfied:
            kept = set(join.kept)
            return read, [r for k, r in enumerate(tiles) if k not in kept] + slivers
    return None


def joinable(hand: list[TileReading], apart: list[TileReading], image_size: tuple[int, int] | None = None,
             ) -> tuple[list[TileReading], list[TileReading]]:
    """The tiles ``apart`` that may join the hand, and the slivers among them, which may not
    (``hand_region.slivers``, as the hand was picked, in a photo of ``image_size``: small and
    doubtful boxes of no tile)."""
    sliver = hand_region.slivers(hand + apart, image_size)
    return ([r for k, r in enumerate(apart) if len(hand) + k not in sliver],
            [r for k, r in enumerate(apart) if len(hand) + k in sliver])
