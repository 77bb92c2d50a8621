"""Every reading of a hand: the ways its tiles form a winning shape, shared by all rule sets.

Forms (``FORMS``):

- ``standard``: sets (chows, pungs, kongs) and one pair; the declared melds are fixed sets.
- ``seven_pairs``: seven pairs of concealed tiles (four alike count as two pairs).
- ``thirteen_orphans``: one of each terminal and honor, one of them twice.
- ``honors_knitted``: 14 different tiles from one knitted pattern (147/258/369, one per suit) and
  the honors (全不靠; 七星不靠 when all seven honors are there).
- ``knitted_straight``: the nine tiles of a knitted straight plus one set and a pair (组合龙).

The standard split works suit by suit: each suit's 9 counts (and the honors' 7) are split once and
the splits are memoised, so a hand costs a few dictionary look-ups once its suits have been seen.
``chows=False`` reads pungs only (rule sets without chows).

>>> from fanscan.scoring.notation import parse_notation
>>> hand = parse_notation("111222333m456p55s")
>>> sorted(r.describe() for r in readings(hand))
['standard: 111m 222m 333m 456p 55s', 'standard: 123m 123m 123m 456p 55s']
>>> [r.describe() for r in readings(parse_notation("19m19p19sESWNCFPP"))]
['thirteen_orphans: 19m19p19sESWNCFPP']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import Tile, format_tiles

FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")

ORPHANS: tuple[Tile, ...] = tuple(
    Tile(i) for i in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
)
#: The six knitted straights (147 in one suit, 258 in another, 369 in the third), as tile tuples.
KNITTED_STRAIGHTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted(Tile(9 * suit + start + step) for suit, start in zip(perm, (0, 1, 2))
                 for step in (0, 3, 6)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
_HONOR_SET = frozenset(range(27, 34))


class Group(NamedTuple):
    """One set of a reading: ``kind`` chow/pung/kong, ``tile`` its lowest (chow) or only tile.

    ``declared``: it is one of the hand's melds. ``concealed``: nobody else's tile is in it as a
    meld (standing tiles or a concealed kong); whether a pung completed by a discard still counts as
    concealed is the rule set's business.
    """

    kind: str
    tile: Tile
    declared: bool
    concealed: bool

    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == "chow":
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * (4 if self.kind == "kong" else 3)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand.

    ``groups`` are the sets (standard form; the one set beside a knitted straight), ``pair`` the
    pair tile (standard, knitted straight, thirteen orphans), ``pairs`` the seven pairs, ``knitted``
    the knitted tiles (nine for a knitted straight, all fourteen for honors-and-knitted).
    """

    form: str
    groups: tuple[Group, ...] = ()
    pair: Tile | None = None
    pairs: tuple[Tile, ...] = ()
    knitted: tuple[Tile, ...] = ()

    def describe(self) -> str:
        """A short text such as ``standard: 123m 456p 55s`` (for logs and tests)."""
        if self.form == "standard":
            parts = [_group_text(g) for g in self.groups]
            if self.pair is not None:
                parts.append(_group_text(Group("pair", self.pair, False, True)))
            return "standard: " + " ".join(parts)
        if self.form == "seven_pairs":
            return "seven_pairs: " + " ".join(
                _group_text(Group("pair", t, False, True)) for t in self.pairs
            )
        tiles = list(self.knitted)
        if self.form == "thirteen_orphans":
            tiles = sorted([*ORPHANS, self.pair]) if self.pair is not None else list(ORPHANS)
        text = f"{self.form}: {format_tiles(tiles)}"
        extra = [_group_text(g) for g in self.groups]
        if self.form == "knitted_straight" and self.pair is not None:
            extra.append(_group_text(Group("pair", self.pair, False, True)))
        return " ".join([text, *extra])


def _group_text(group: Group) -> str:
    size = {"chow": 3, "pung": 3, "kong": 4, "pair": 2}[group.kind]
    if group.kind == "chow":
        ranks = "".join(str((group.tile % 9) + 1 + i) for i in range(3))
    elif group.tile.is_suited:
        ranks = str(group.tile.rank) * size
    else:
        return group.tile.code * size
    return ranks + (group.tile.suit or "")


def tile_counts(tiles: Iterable[Tile]) -> list[int]:
    """Counts per face index (34 playing tiles)."""
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


# A split of one suit: ((kind, offset), ...) sets and the pair offset or -1.
_Split = tuple[tuple[tuple[str, int], ...], int]


@lru_cache(maxsize=None)
def _split_suit(counts: tuple[int, ...], chows: bool) -> tuple[_Split, ...]:
    """All splits of one suit's counts into sets and at most one pair (memoised)."""
    out: list[_Split] = []

    def walk(c: list[int], start: int, sets: list[tuple[str, int]], pair: int) -> None:
        i = start
        while i < len(c) and c[i] == 0:
            i += 1
        if i == len(c):
            out.append((tuple(sets), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets.append(("pung", i))
            walk(c, i, sets, pair)
            sets.pop()
            c[i] += 3
        if chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append(("chow", i))
            walk(c, i, sets, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            walk(c, i, sets, i)
            c[i] += 2

    walk(list(counts), 0, [], -1)
    return tuple(out)


@lru_cache(maxsize=None)
def _split_honors(counts: tuple[int, ...]) -> tuple[_Split, ...]:
    pairs = [i for i, n in enumerate(counts) if n == 2]
    if any(n not in (0, 2, 3) for n in counts) or len(pairs) > 1:
        return ()
    sets = tuple(("pung", i) for i, n in enumerate(counts) if n == 3)
    return ((sets, pairs[0] if pairs else -1),)


def _parts(counts: Sequence[int], chows: bool) -> list[tuple[_Split, ...]]:
    return [
        _split_suit(tuple(counts[0:9]), chows),
        _split_suit(tuple(counts[9:18]), chows),
        _split_suit(tuple(counts[18:27]), chows),
        _split_honors(tuple(counts[27:34])),
    ]


def standard_splits(counts: Sequence[int], chows: bool = True) -> list[tuple[tuple[Group, ...], Tile]]:
    """All ways to split concealed ``counts`` (34) into sets and exactly one pair."""
    parts = _parts(counts, chows)
    if not all(parts):
        return []
    found = []
    for combo in product(*parts):
        pair = -1
        groups: list[Group] = []
        for base, (sets, pair_offset) in zip((0, 9, 18, 27), combo):
            if pair_offset >= 0:
                if pair >= 0:
                    break
                pair = base + pair_offset
            groups.extend(Group(kind, Tile(base + off), False, True) for kind, off in sets)
        else:
            if pair >= 0:
                found.append((tuple(groups), Tile(pair)))
    return found


def is_standard_complete(counts: Sequence[int], chows: bool = True) -> bool:
    """Whether ``counts`` split into sets and exactly one pair (without listing the splits)."""
    forced = flexible = 0
    for part in _parts(counts, chows):
        with_pair = any(split[1] >= 0 for split in part)
        without = any(split[1] < 0 for split in part)
        if not without:
            if not with_pair:
                return False
            forced += 1
        elif with_pair:
            flexible += 1
    return forced == 1 or (forced == 0 and flexible > 0)


def _meld_group(meld: Meld) -> Group:
    return Group(meld.kind, meld.tile, True, meld.concealed)


def readings(
    hand: Hand, forms: Sequence[str] = FORMS, *, chows: bool = True
) -> list[Reading]:
    """Every reading of the complete ``hand`` in the given ``forms``."""
    counts = tile_counts(hand.concealed)
    fixed = tuple(_meld_group(m) for m in hand.melds)
    found: list[Reading] = []
    if "standard" in forms:
        found += [
            Reading("standard", fixed + groups, pair)
            for groups, pair in standard_splits(counts, chows)
        ]
    if not hand.melds:
        if "seven_pairs" in forms and len(hand.concealed) == 14 and all(n % 2 == 0 for n in counts):
            pairs = tuple(Tile(i) for i, n in enumerate(counts) for _ in range(n // 2))
            found.append(Reading("seven_pairs", pairs=pairs))
        if "thirteen_orphans" in forms:
            found += _thirteen_orphans(counts)
        if "honors_knitted" in forms:
            found += _honors_knitted(counts)
    if "knitted_straight" in forms and len(hand.melds) <= 1:
        found += _knitted_straight(counts, fixed, chows)
    return found


def _thirteen_orphans(counts: Sequence[int]) -> list[Reading]:
    if sum(counts) != 14 or any(counts[t] == 0 for t in ORPHANS):
        return []
    if sum(counts[t] for t in ORPHANS) != 14:
        return []
    pair = next(t for t in ORPHANS if counts[t] == 2)
    return [Reading("thirteen_orphans", pair=pair)]


def _honors_knitted(counts: Sequence[int]) -> list[Reading]:
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return []
    tiles = [Tile(i) for i, n in enumerate(counts) if n]
    suited = frozenset(t for t in tiles if t < 27)
    for straight in KNITTED_STRAIGHTS:
        if suited <= frozenset(straight):
            return [Reading("honors_knitted", knitted=tuple(tiles))]
    return []


def _knitted_straight(
    counts: Sequence[int], fixed: tuple[Group, ...], chows: bool
) -> list[Reading]:
    found = []
    for straight in KNITTED_STRAIGHTS:
        if any(counts[t] == 0 for t in straight):
            continue
        rest = list(counts)
        for t in straight:
            rest[t] -= 1
        for groups, pair in standard_splits(rest, chows):
            found.append(Reading("knitted_straight", fixed + groups, pair, knitted=straight))
    return found


def waiting_tiles(hand: Hand, forms: Sequence[str] = FORMS, *, chows: bool = True) -> list[Tile]:
    """The tiles that would complete the waiting ``hand`` (13 tiles with melds as three).

    A tile counts even when all four copies are already in the hand: the shape waits on it.
    """
    base = tile_counts(hand.concealed)
    found = []
    for index in range(34):
        base[index] += 1
        if _complete(base, hand.melds, forms, chows):
            found.append(Tile(index))
        base[index] -= 1
    return found


def _complete(counts: list[int], melds: Sequence[Meld], forms: Sequence[str], chows: bool) -> bool:
    if "standard" in forms and is_standard_complete(counts, chows):
        return True
    if melds:
        return "knitted_straight" in forms and len(melds) == 1 and bool(
            _knitted_straight(counts, (), chows)
        )
    if "seven_pairs" in forms and sum(counts) == 14 and all(n % 2 == 0 for n in counts):
        return True
    if "thirteen_orphans" in forms and _thirteen_orphans(counts):
        return True
    if "honors_knitted" in forms and _honors_knitted(counts):
        return True
    return "knitted_straight" in forms and bool(_knitted_straight(counts, (), chows))
