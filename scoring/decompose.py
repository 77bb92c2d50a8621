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
from functools import cache
from itertools import product
from operator import itemgetter
from typing import NamedTuple

from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import Tile, format_tiles

FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
SIXTEEN_TILE_HAND = 17
"""The complete hand of the 16-tile games (five sets and a pair): the photo reader reads it and
``fanscan waits`` lists a waiting one's winning tiles, but no rule set here scores it."""

ORPHANS: tuple[Tile, ...] = tuple(
    Tile(i) for i in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
)
#: The six knitted straights (147 in one suit, 258 in another, 369 in the third), as tile tuples.
KNITTED_STRAIGHTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(
        sorted(
            Tile(9 * suit + start + step)
            for suit, start in zip(perm, (0, 1, 2), strict=True)
            for step in (0, 3, 6)
        )
    )
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
_TILES: tuple[Tile, ...] = tuple(Tile)  # by index: cheaper than calling Tile(i)
#: For each knitted straight, a function giving the counts of its nine tiles (in one C call).
_KNITTED_COUNTS = tuple(itemgetter(*straight) for straight in KNITTED_STRAIGHTS)
_ODD_COUNTS = frozenset(range(1, 15, 2))  # a tile's count among 14 concealed tiles is at most 14


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


@cache
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


@cache
def _split_honors(counts: tuple[int, ...]) -> tuple[_Split, ...]:
    # Five of an honor (a waiting hand trying a fifth copy) is a pung and the pair.
    pairs = [i for i, n in enumerate(counts) if n in (2, 5)]
    if any(n not in (0, 2, 3, 5) for n in counts) or len(pairs) > 1:
        return ()
    sets = tuple(("pung", i) for i, n in enumerate(counts) if n in (3, 5))
    return ((sets, pairs[0] if pairs else -1),)


@cache
def _shape(counts: tuple[int, ...], chows: bool, honors: bool) -> int:
    """Bit 1: the counts split into sets alone; bit 2: into sets and one pair (memoised).

    The tile count decides which of the two can be (3k or 3k + 2 tiles), so one search that
    stops at the first split found answers it.
    """
    pair = sum(counts) % 3
    if pair == 1:
        return 0
    if honors:
        return (2 if pair else 1) if _split_honors(counts) else 0
    return (2 if pair else 1) if _splits(list(counts), 0, chows, pair=pair == 2) else 0


def _splits(c: list[int], i: int, chows: bool, *, pair: bool) -> bool:
    """Whether ``c`` from offset ``i`` on splits into sets and, if ``pair``, one pair."""
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        return not pair
    found = False
    if c[i] >= 3:
        c[i] -= 3
        found = _splits(c, i, chows, pair=pair)
        c[i] += 3
    if not found and chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        found = _splits(c, i, chows, pair=pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if not found and pair and c[i] >= 2:
        c[i] -= 2
        found = _splits(c, i, chows, pair=False)
        c[i] += 2
    return found


def _complete_shapes(shapes: Sequence[int]) -> bool:
    """Whether per-part shapes allow sets everywhere and the one pair in exactly one part."""
    forced = flexible = 0
    for shape in shapes:
        if shape == 0:
            return False
        if shape == 2:
            forced += 1
        elif shape == 3:
            flexible += 1
    return forced == 1 or (forced == 0 and flexible > 0)


_BOUNDS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _part_shapes(counts: Sequence[int], chows: bool = True) -> list[int]:
    """The ``_shape`` of each suit and of the honors, in tile order."""
    return [_shape(tuple(counts[lo:hi]), chows, lo == 27) for lo, hi in _BOUNDS]


@cache
def _additions(counts: tuple[int, ...], chows: bool, honors: bool) -> tuple[tuple[int, int], ...]:
    """(offset, shape after adding that tile) for each tile next to a held one (memoised)."""
    found = []
    for offset in range(len(counts)):
        near = counts[offset] or (not honors and any(counts[max(0, offset - 2) : offset + 3]))
        if near:
            trial = list(counts)
            trial[offset] += 1
            found.append((offset, _shape(tuple(trial), chows, honors)))
    return tuple(found)


def completing_tiles(counts: Sequence[int], chows: bool = True) -> list[int]:
    """Tile indices that complete ``counts`` into sets and one pair (a fifth copy included).

    Only a tile next to a held tile (or a copy of one) can help; the shapes of each part with
    each such tile added are memoised, so this is a few look-ups per hand.
    """
    parts = [tuple(counts[lo:hi]) for lo, hi in _BOUNDS]
    shapes = [_shape(part, chows, index == 3) for index, part in enumerate(parts)]
    found = []
    for index, part in enumerate(parts):
        wanted = _completing_shapes((*shapes[:index], *shapes[index + 1 :]))
        if wanted:
            base = _BOUNDS[index][0]
            found += [
                base + offset
                for offset, shape in _additions(part, chows, index == 3)
                if shape in wanted
            ]
    return found


@cache
def _completing_shapes(others: tuple[int, ...]) -> frozenset[int]:
    """The shapes one part may take for the hand to complete, given the other parts' shapes."""
    return frozenset(shape for shape in (1, 2, 3) if _complete_shapes((*others, shape)))


class Split(NamedTuple):
    """One way to lay concealed tiles into sets and one pair, as tile indices.

    ``sets`` are (kind, lowest tile) in the order found, ``pair`` the pair's tile; ``chows`` and
    ``pungs`` the lowest tile of each chow and pung, sorted (the MCR detectors read those).
    """

    sets: tuple[tuple[str, int], ...]
    pair: int
    chows: tuple[int, ...]
    pungs: tuple[int, ...]

    def groups(self) -> tuple[Group, ...]:
        """The sets as Groups of standing tiles."""
        return tuple(_standing_group(kind, tile) for kind, tile in self.sets)


@cache
def _standing_group(kind: str, tile: int) -> Group:
    return Group(kind, _TILES[tile], False, True)


@cache
def _part_splits(counts: tuple[int, ...], base: int, chows: bool) -> tuple[Split, ...]:
    """The splits of one part (a suit, or the honors from ``base`` 27), ``pair`` -1 when the
    part holds none (memoised; a hand's splits concatenate its parts').
    """
    splits = _split_honors(counts) if base == 27 else _split_suit(counts, chows)
    return tuple(
        Split(
            sets if base == 0 else tuple([(kind, base + offset) for kind, offset in sets]),
            base + pair if pair >= 0 else -1,
            tuple([base + offset for kind, offset in sets if kind == "chow"]),
            tuple([base + offset for kind, offset in sets if kind == "pung"]),
        )
        for sets, pair in splits
    )


def concealed_splits(counts: Sequence[int], chows: bool = True) -> list[Split]:
    """All ways to split concealed ``counts`` (34) into sets and exactly one pair."""
    man = _part_splits(tuple(counts[:9]), 0, chows)
    pin = _part_splits(tuple(counts[9:18]), 9, chows)
    sou = _part_splits(tuple(counts[18:27]), 18, chows)
    honors = _part_splits(tuple(counts[27:]), 27, chows)
    if not (man and pin and sou and honors):
        return []
    if len(man) == len(pin) == len(sou) == len(honors) == 1:  # the usual case: one split a part
        return _joined(man[0], pin[0], sou[0], honors[0])
    found = []
    for parts in product(man, pin, sou, honors):
        found += _joined(*parts)
    return found


def _joined(m: Split, p: Split, s: Split, h: Split) -> list[Split]:
    """The hand's split made of its parts' splits (none unless exactly one has the pair)."""
    if (m.pair >= 0) + (p.pair >= 0) + (s.pair >= 0) + (h.pair >= 0) != 1:
        return []
    return [
        Split(
            m.sets + p.sets + s.sets + h.sets,
            max(m.pair, p.pair, s.pair, h.pair),
            m.chows + p.chows + s.chows,
            m.pungs + p.pungs + s.pungs + h.pungs,
        )
    ]


def standard_splits(
    counts: Sequence[int], chows: bool = True
) -> list[tuple[tuple[Group, ...], Tile]]:
    """All ways to split concealed ``counts`` (34) into sets and exactly one pair."""
    return [(split.groups(), _TILES[split.pair]) for split in concealed_splits(counts, chows)]


def is_standard_complete(counts: Sequence[int], chows: bool = True) -> bool:
    """Whether ``counts`` split into sets and exactly one pair (without listing the splits)."""
    return _complete_shapes(_part_shapes(counts, chows))


def meld_group(meld: Meld) -> Group:
    """The fixed set of a declared meld (one Group per distinct meld)."""
    return _declared_group(meld.kind, meld.tiles[0], meld.concealed)


@cache
def _declared_group(kind: str, tile: Tile, concealed: bool) -> Group:
    # Memoised: a hand's melds are few of a few hundred possible, so each Group is built once.
    return Group(kind, tile, True, concealed)


def readings(hand: Hand, forms: Sequence[str] = FORMS, *, chows: bool = True) -> list[Reading]:
    """Every reading of the complete ``hand`` in the given ``forms``."""
    counts = tile_counts(hand.concealed)
    fixed = tuple(map(meld_group, hand.melds))
    found: list[Reading] = []
    if "standard" in forms:
        found += [
            Reading("standard", fixed + groups, pair)
            for groups, pair in standard_splits(counts, chows)
        ]
    if not hand.melds:
        if "seven_pairs" in forms:
            found += seven_pairs_readings(counts)
        if "thirteen_orphans" in forms:
            found += thirteen_orphans_readings(counts)
        if "honors_knitted" in forms:
            found += honors_knitted_readings(counts)
    if "knitted_straight" in forms and len(hand.melds) <= 1:
        found += knitted_straight_readings(counts, fixed, chows)
    return found


def seven_pairs_readings(counts: Sequence[int]) -> list[Reading]:
    """The seven-pairs reading of 14 concealed tiles' ``counts``, if they are seven pairs."""
    if sum(counts) != 14 or _ODD_COUNTS.intersection(counts):
        return []
    pairs = tuple(_TILES[i] for i, n in enumerate(counts) for _ in range(n // 2))
    return [Reading("seven_pairs", pairs=pairs)]


def thirteen_orphans_readings(counts: Sequence[int]) -> list[Reading]:
    """The thirteen-orphans reading of concealed ``counts``, if they are one."""
    if not counts[0] or sum(counts) != 14 or any(counts[t] == 0 for t in ORPHANS):
        return []
    if sum(counts[t] for t in ORPHANS) != 14:
        return []
    pair = next(t for t in ORPHANS if counts[t] == 2)
    return [Reading("thirteen_orphans", pair=pair)]


def honors_knitted_readings(counts: Sequence[int]) -> list[Reading]:
    """The honors-and-knitted reading of concealed ``counts``, if they are one."""
    if max(counts) > 1 or sum(counts) != 14:
        return []
    tiles = [_TILES[i] for i, n in enumerate(counts) if n]
    suited = frozenset(t for t in tiles if t < 27)
    for straight in KNITTED_STRAIGHTS:
        if suited <= frozenset(straight):
            return [Reading("honors_knitted", knitted=tuple(tiles))]
    return []


def knitted_straight_readings(
    counts: Sequence[int], fixed: tuple[Group, ...], chows: bool
) -> list[Reading]:
    """The knitted-straight readings of concealed ``counts`` beside the melds' ``fixed`` sets."""
    found: list[Reading] = []
    if 27 - counts[:27].count(0) < 9:  # fewer than nine different suited tiles
        return found
    for straight, held in zip(KNITTED_STRAIGHTS, _KNITTED_COUNTS, strict=True):
        if 0 in held(counts):
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
        return (
            "knitted_straight" in forms
            and len(melds) == 1
            and bool(knitted_straight_readings(counts, (), chows))
        )
    if "seven_pairs" in forms and sum(counts) == 14 and all(n % 2 == 0 for n in counts):
        return True
    if "thirteen_orphans" in forms and thirteen_orphans_readings(counts):
        return True
    if "honors_knitted" in forms and honors_knitted_readings(counts):
        return True
    return "knitted_straight" in forms and bool(knitted_straight_readings(counts, (), chows))
