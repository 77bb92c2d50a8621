"""The wild tile (财神, 混) of seed 003: which tiles are wild, and every hand the wilds can make.

A hand's wild tiles are either its flowers (``wild = "flowers"``: the flowers held are part of the
hand) or every copy of one face chosen from a turned tile (``wild_indicator``): the tile itself
(翻混, ``same``), the one before it in its suit (上滚混, ``previous``) or the one after it (下滚混,
``next``), 1 and 9 wrapping round. Honors wrap within their group: winds E S W N, dragons C F P.

``fillings`` replaces the wilds by real faces in every way that completes the hand (at most four
copies of a face in all): as sets and a pair (a set or the pair takes wilds for missing tiles, or
is made of wilds alone, of any face), as seven pairs, as thirteen orphans, as honors and knitted
tiles, and as a knitted straight (wilds for its missing tiles) with a set and a pair.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from fanscan.scoring.decompose import KNITTED_STRAIGHTS, ORPHANS, tile_counts
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import Tile

from fanscan.errors import FanscanError

#: Refusal codes of a bad wild setting.
UNKNOWN_WILD = "unknown_wild"
WILD_INDICATOR_MISSING = "wild_indicator_missing"
WILD_INDICATOR_UNUSED = "wild_indicator_unused"
WILD_INDICATOR_FLOWER = "wild_indicator_flower"
WILD_INDICATOR_UNKNOWN = "wild_indicator_unknown"

WILD_MODES: dict[str, str] = {
    "none": "none", "flowers": "flowers", "same": "same", "previous": "previous", "next": "next",
    "翻混": "same", "上滚混": "previous", "下滚混": "next", "花牌": "flowers",
}
#: More wilds than this would take too long to read every way (and cannot come from one face).
MAX_WILDS = 4


def _shift(tile: Tile, step: int) -> Tile:
    if tile.is_suited:
        suit = tile // 9
        return Tile(suit * 9 + (tile % 9 + step) % 9)
    if tile.is_wind:
        return Tile(27 + (tile - 27 + step) % 4)
    return Tile(31 + (tile - 31 + step) % 3)


def wild_face(mode: str, indicator: str) -> Tile | None:
    """The wild face for a turned-tile mode, None for ``none`` and ``flowers``."""
    if mode not in WILD_MODES:
        raise FanscanError(UNKNOWN_WILD, f"wild is {mode!r}; expected one of "
                           + ", ".join(WILD_MODES))
    mode = WILD_MODES[mode]
    if mode in ("none", "flowers"):
        if indicator:
            raise FanscanError(WILD_INDICATOR_UNUSED,
                               f"wild_indicator {indicator!r} needs wild same, previous or next")
        return None
    if not indicator:
        raise FanscanError(WILD_INDICATOR_MISSING,
                           f"wild {mode} needs the turned tile in wild_indicator")
    try:
        tile = Tile.from_code(indicator)
    except FanscanError as error:
        raise FanscanError(WILD_INDICATOR_UNKNOWN, f"wild_indicator: {error.message}") from None
    if tile.is_flower:
        raise FanscanError(
            WILD_INDICATOR_FLOWER,
            f"wild_indicator {indicator} is a flower; the turned tile is a suit or honor",
        )
    return _shift(tile, {"same": 0, "previous": -1, "next": 1}[mode])


Faces = tuple[int, ...]
_HONORS = tuple(range(27, 34))


def _pure_wild_groups(sets: int, pair: bool) -> list[Faces]:
    """The faces of ``sets`` sets and maybe a pair made of wilds alone."""
    choices = [(f, f, f) for f in range(34)] + [(s, s + 1, s + 2) for s in range(27) if s % 9 <= 6]
    groups: list[Faces] = [()]
    for _ in range(sets):
        groups = [g + c for g in groups for c in choices]
    if pair:
        groups = [(*g, f, f) for g in groups for f in range(34)]
    return groups


def _groups_with(first: int, counts: tuple[int, ...], sets: bool, pair: bool
                 ) -> list[tuple[Faces, Faces, bool]]:
    """(natural faces, wild faces, is_pair) of each set or pair holding a natural ``first``."""
    out: list[tuple[Faces, Faces, bool]] = []
    if sets:
        out += [((first,) * a, (first,) * (3 - a), False)
                for a in range(1, min(3, counts[first]) + 1)]
        if first < 27:
            for start in (first - 2, first - 1, first):
                if start < 0 or start // 9 != first // 9 or start % 9 > 6:
                    continue
                below = tuple(f for f in range(start, first))
                above = [f for f in range(first + 1, start + 3)]
                # each member above ``first``: the natural tile if there is one, or a wild
                for mask in range(1 << len(above)):
                    natural = [first] + [f for i, f in enumerate(above) if mask >> i & 1]
                    if any(counts[f] == 0 for f in natural[1:]):
                        continue
                    wild = below + tuple(f for f in above if f not in natural)
                    out.append((tuple(natural), wild, False))
    if pair:
        out += [((first,) * a, (first,) * (2 - a), True)
                for a in range(1, min(2, counts[first]) + 1)]
    return out


@lru_cache(maxsize=8192)
def _standard(counts: tuple[int, ...], wilds: int, sets: int, pair: bool) -> frozenset[Faces]:
    """The faces ``wilds`` take so that ``counts`` form ``sets`` sets and (if ``pair``) a pair."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        if wilds != 3 * sets + 2 * pair:
            return frozenset()
        return frozenset(tuple(sorted(g)) for g in _pure_wild_groups(sets, pair))
    found: set[Faces] = set()
    for natural, wild, is_pair in _groups_with(first, counts, sets > 0, pair):
        if len(wild) > wilds:
            continue
        rest = list(counts)
        for face in natural:
            rest[face] -= 1
        for sub in _standard(tuple(rest), wilds - len(wild), sets - (not is_pair),
                             pair and not is_pair):
            found.add(tuple(sorted(sub + wild)))
    return frozenset(found)


def _seven_pairs(counts: list[int], wilds: int) -> set[Faces]:
    odd = tuple(i for i, n in enumerate(counts) if n % 2)
    spare = wilds - len(odd)
    if spare < 0 or spare % 2:
        return set()
    return {tuple(sorted(odd + pairs + pairs))
            for pairs in combinations_with_replacement(range(34), spare // 2)}


def _thirteen_orphans(counts: list[int], wilds: int) -> set[Faces]:
    if any(n for i, n in enumerate(counts) if i not in ORPHANS) or max(counts) > 2:
        return set()
    missing = tuple(int(t) for t in ORPHANS if counts[t] == 0)
    spare = wilds - len(missing)
    doubled = sum(1 for n in counts if n == 2)
    if spare < 0 or doubled + spare != 1:
        return set()
    extra = [(int(t),) for t in ORPHANS] if spare else [()]
    return {tuple(sorted(missing + e)) for e in extra}


def _honors_knitted(counts: list[int], wilds: int) -> set[Faces]:
    if max(counts) > 1:
        return set()
    held = {i for i, n in enumerate(counts) if n}
    found: set[Faces] = set()
    for straight in KNITTED_STRAIGHTS:
        faces = {int(t) for t in straight} | set(_HONORS)
        if held <= faces:
            found.update(combinations(sorted(faces - held), wilds))
    return found


def _knitted_straight(counts: list[int], wilds: int, melds: int) -> set[Faces]:
    if melds > 1:
        return set()
    found: set[Faces] = set()
    for straight in KNITTED_STRAIGHTS:
        rest = list(counts)
        missing: list[int] = []
        for tile in straight:
            if rest[tile]:
                rest[tile] -= 1
            else:
                missing.append(int(tile))
        if len(missing) > wilds:
            continue
        for sub in _standard(tuple(rest), wilds - len(missing), 1 - melds, True):
            found.add(tuple(sorted(sub + tuple(missing))))
    return found


def fillings(hand: Hand, natural: tuple[Tile, ...], wilds: int,
             wild_win: bool) -> Iterator[Hand]:
    """Every complete hand the ``wilds`` can make beside the ``natural`` standing tiles.

    ``wild_win``: the winning tile was a wild, so each face a wild takes is tried as the win tile.
    """
    counts = tile_counts(natural)
    faces = set(_standard(tuple(counts), wilds, 4 - len(hand.melds), True))
    faces |= _knitted_straight(counts, wilds, len(hand.melds))
    if not hand.melds:
        faces |= _seven_pairs(counts, wilds)
        faces |= _thirteen_orphans(counts, wilds)
        faces |= _honors_knitted(counts, wilds)
    held = list(counts)
    for meld in hand.melds:
        for tile in meld.tiles:
            held[tile] += 1
    for filling in sorted(faces):
        total = list(held)
        for face in filling:
            total[face] += 1
        if max(total) > 4:
            continue
        concealed = tuple(sorted((*natural, *map(Tile, filling))))
        wins = sorted(set(map(Tile, filling))) if wild_win else [hand.win_tile]
        for win in wins:
            yield hand.replace(concealed=concealed, win_tile=win, flowers=())
