"""MCR's fast gate: the ``HandFacts`` of a hand JSON object, read and checked in one pass.

``Hand.from_json`` builds frozen ``Tile``, ``Meld`` and ``Hand`` objects and checks them after;
scoring needs only counts. ``facts_from_json`` reads the same object straight into counts and
accepts exactly what ``Hand.from_json(obj)`` followed by ``check(14)`` accepts, with MCR's
fields (no extras). It gives up (None) at the first thing unusual: the full checks then run and
name the culprit in their own words, so an error costs time but never changes.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any

from fanscan.scoring.decompose import Group, meld_group
from fanscan.scoring.hand import BASE_FIELDS, DEFAULT_WIN_CONDITIONS, Meld
from fanscan.scoring.mcr.context import Conditions, HandFacts
from fanscan.scoring.tiles import FLOWER_CODES, TILE_CODES

from fanscan.errors import FanscanError

_FIELDS = frozenset(BASE_FIELDS)
_MELD_FIELDS = frozenset(("type", "tiles", "concealed", "claimed_from"))
_PLAYING = {code: index for index, code in enumerate(TILE_CODES[:34])}
_FLOWERS = frozenset(FLOWER_CODES)
_WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}
_SIZE = 14
_ALL_FIELDS = itemgetter(*BASE_FIELDS)
#: Each field and its default when left out, in ``BASE_FIELDS`` order (None where there is no
#: default: the fast gate then gives up and the full checks name what is missing).
_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (name, DEFAULT_WIN_CONDITIONS.get(name, [] if name in ("melds", "flowers") else None))
    for name in BASE_FIELDS
)


@lru_cache(maxsize=4096)
def _meld(kind: Any, tiles: tuple[Any, ...], concealed: bool, claimed: int | None
          ) -> tuple[Group, tuple[int, ...], int] | None:
    """A meld object's Group, tile indices and their mask, or None when ``Meld.from_json``
    refuses it (memoised: the melds of real hands are a few hundred, a few thousand with their
    tiles in any order).
    """
    obj = {"type": kind, "tiles": list(tiles), "concealed": concealed, "claimed_from": claimed}
    try:
        meld = Meld.from_json(obj, 1)
    except FanscanError:
        return None
    indices = tuple(map(int, meld.tiles))
    return meld_group(meld), indices, sum({1 << tile for tile in indices})


def facts_from_json(obj: Any) -> HandFacts | None:
    """The facts of a complete MCR hand JSON object, or None unless it passes every check."""
    try:
        return _read(obj)
    except (KeyError, TypeError):  # a bad code or an unhashable value
        return None


def _read(obj: Any) -> HandFacts | None:
    if type(obj) is not dict or not _FIELDS.issuperset(obj):
        return None
    # A hand as Hand.to_json writes it has every field: one C call reads them all.
    fields = _ALL_FIELDS(obj) if len(obj) == len(BASE_FIELDS) else _fields(obj)
    raw, melds, win_code, flowers, self_drawn, seat, prevalent, fourth_tile, kong, last = fields
    if type(raw) is not list or type(melds) is not list or type(flowers) is not list:
        return None
    if len(raw) + 3 * len(melds) != _SIZE:
        return None
    if len(set(flowers)) < len(flowers) or not _FLOWERS.issuperset(flowers):
        return None
    standing = [0] * 34
    mask = 0
    for code in raw:
        tile = _PLAYING[code]
        standing[tile] += 1
        mask |= 1 << tile
    win = _PLAYING[win_code]
    counts = standing.copy()
    found = _melds(melds, counts)
    if found is None or not standing[win] or max(counts) > 4:
        return None
    groups, melded = found
    conditions = Conditions(
        win, self_drawn, kong, last, fourth_tile, _WINDS[seat], _WINDS[prevalent], len(flowers)
    )
    if not _possible(conditions, standing, counts, groups):
        return None
    return HandFacts(standing, counts, mask | melded, groups, conditions)


def _fields(obj: dict[str, Any]) -> tuple[Any, ...]:
    """The hand's fields in ``BASE_FIELDS`` order, defaults for those left out."""
    return tuple(obj.get(name, default) for name, default in _DEFAULTS)


def _melds(melds: list[Any], counts: list[int]) -> tuple[tuple[Group, ...], int] | None:
    """The Groups of a hand's meld objects and the mask of their tiles, which are added to
    ``counts``; None for a meld that ``Meld.from_json`` would refuse, or one that is unusual.
    """
    groups = []
    mask = 0
    for meld in melds:
        if type(meld) is not dict or not _MELD_FIELDS.issuperset(meld):
            return None
        concealed = meld.get("concealed", False)
        claimed = meld.get("claimed_from")
        tiles = meld.get("tiles")
        # Exact types first: 1 == True, so the memo would otherwise take one for the other.
        if type(concealed) is not bool or not (claimed is None or type(claimed) is int):
            return None
        if type(tiles) is not list:
            return None
        found = _meld(meld.get("type"), tuple(tiles), concealed, claimed)
        if found is None:
            return None
        group, indices, tiles_mask = found
        groups.append(group)
        mask |= tiles_mask
        for tile in indices:
            counts[tile] += 1
    return tuple(groups), mask


def _possible(conditions: Conditions, standing: list[int], counts: list[int],
              groups: tuple[Group, ...]) -> bool:
    """Whether the win conditions are true or false and agree with the tiles (``Hand.check``)."""
    for flag in conditions[1:5]:
        if flag is not True and flag is not False:
            return False
    win = conditions.win
    if conditions.kong:
        if conditions.self_drawn:
            if not any(group.kind == "kong" for group in groups):
                return False
        elif counts[win] > 1 or conditions.last_tile:  # robbed: no discard, so no last one
            return False
    return not (conditions.fourth_tile and standing[win] > 1)
