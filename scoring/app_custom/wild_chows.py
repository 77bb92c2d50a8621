"""Which chows of a reading hold a wild tile that could make more than one chow (seed 003:
"含有財神的順子，在有多種組合方式時將不參與牌型算分的計算").

A reading of a filled hand (wilds replaced by faces) does not say which of its tiles are the
wilds: a wild 3m beside a natural 3m may sit in either's set. Every way of placing the wild
faces into the reading's sets is one more way of reading the hand, so ``free_chow_choices``
gives, for each placement, the chows left free: those whose natural tiles fit more than one
chow (4m 5m + a wild is 345m or 456m; 4m 6m + a wild is only 456m; 1m + two wilds only 123m).

>>> from fanscan.scoring.decompose import readings
>>> from fanscan.scoring.notation import parse_notation
>>> reading = readings(parse_notation("123m456p789s345s99m"), ("standard",))[0]
>>> sorted(free_chow_choices(reading, {20: 1}))  # the wild is the 3s: 45s fits 345s or 456s
[(20,)]
>>> sorted(free_chow_choices(reading, {21: 1}))  # the 4s: 3_5s is only 345s
[()]
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product

from fanscan.scoring.decompose import Reading

_SUITED = 27


def _fits_one_chow(natural: list[int]) -> bool:
    """Whether the natural tiles of a chow (fewer than three) fit exactly one chow."""
    if not natural:
        return False
    suit = natural[0] // 9
    starts = [
        s
        for s in range(suit * 9, suit * 9 + 7)
        if all(s <= t <= s + 2 for t in natural)
    ]
    return len(starts) == 1


def _slots(reading: Reading) -> list[tuple[str, int, list[int]]]:
    """The reading's standing sets and pair as (kind, lowest tile, faces)."""
    out = [
        (g.kind, int(g.tile), [int(t) for t in g.tiles()]) for g in reading.groups if not g.declared
    ]
    if reading.pair is not None:
        out.append(("pair", int(reading.pair), [int(reading.pair)] * 2))
    return out


def free_chow_choices(reading: Reading, wilds: Mapping[int, int]) -> set[tuple[int, ...]]:
    """For each way of placing the wild faces (face -> copies) into the reading's sets, the
    lowest tiles of its free chows (sorted); {()} when no chow can hold a wild.
    """
    slots = _slots(reading)
    chow_slots = [i for i, (kind, low, _) in enumerate(slots) if kind == "chow"
                  and any(low <= face <= low + 2 for face in wilds)]
    if not chow_slots:
        return {()}
    # Each split of a face's copies among the sets that hold that face (at most as many as each
    # holds; the rest among a knitted straight's tiles) is one placement.
    per_face: list[list[tuple[int, dict[int, int]]]] = []
    for face, copies in wilds.items():
        holders = [i for i, (_, _, faces) in enumerate(slots) if face in faces]
        room = [slots[i][2].count(face) for i in holders]
        least = copies - reading.knitted.count(face)
        splits = [
            (face, {holders[k]: n for k, n in enumerate(split) if n})
            for split in product(*(range(r + 1) for r in room))
            if least <= sum(split) <= copies
        ]
        per_face.append(splits)
    found: set[tuple[int, ...]] = set()
    for placement in product(*per_face):
        wild_in: dict[int, list[int]] = {}
        for face, split in placement:
            for slot, n in split.items():
                wild_in.setdefault(slot, []).extend([face] * n)
        free = []
        for i in chow_slots:
            natural = list(slots[i][2])
            for face in wild_in.get(i, ()):
                natural.remove(face)
            if len(natural) < 3 and not _fits_one_chow(natural):
                free.append(slots[i][1])
        found.add(tuple(sorted(free)))
    return found
