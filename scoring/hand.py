"""Hands and declared sets, and the hand JSON of the contract (../shared/docs/tiles-and-hands.md).

``Hand.from_json`` is the one gate every hand passes: it checks the structure, the codes, the sets,
the tile count, the win tile and the win conditions, and raises ``FanscanError`` with one sentence
naming the culprit. ``Hand.to_json`` writes the same object back.

>>> hand = Hand.from_json({"concealed": ["1m", "2m", "3m", "5p", "5p"],
...     "melds": [{"type": "pung", "tiles": ["9s", "9s", "9s"], "concealed": False},
...               {"type": "chow", "tiles": ["4s", "5s", "6s"], "concealed": False},
...               {"type": "kong", "tiles": ["E", "E", "E", "E"], "concealed": True}],
...     "win_tile": "5p"})
>>> hand.melds[2].kind, hand.melds[2].concealed, hand.tile_count()
('kong', True, 14)
>>> Hand.from_json({"concealed": ["1m"], "win_tile": "1m", "colour": "red"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fanscan.errors.FanscanError: unknown field 'colour' in the hand (expected concealed, melds, ...)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from fanscan.scoring.tiles import BACK, TILE_BY_CODE, TILE_CODES, WINDS, Tile, format_tiles

from fanscan.errors import FanscanError

_FIRST_FLOWER = Tile.F1
_PLAYING_TILES = 34

MELD_KINDS = ("chow", "pung", "kong")
_CLAIMS = {"chow": (1, 2, 3), "pung": (1, 2, 3), "kong": (1, 2, 3, 5, 6, 7)}

#: The contract's hand fields, in the order ``to_json`` writes them.
BASE_FIELDS = (
    "concealed",
    "melds",
    "win_tile",
    "flowers",
    "self_drawn",
    "seat_wind",
    "round_wind",
    "fourth_tile",
    "kong",
    "last_tile",
)
#: The win conditions of a hand JSON when nothing says otherwise (a photo cannot show them).
DEFAULT_WIN_CONDITIONS: dict[str, bool | str] = {
    "self_drawn": False,
    "seat_wind": "E",
    "round_wind": "E",
    "fourth_tile": False,
    "kong": False,
    "last_tile": False,
}
_MELD_FIELDS = ("type", "tiles", "concealed", "claimed_from")
_BASE_FIELD_SET = frozenset(BASE_FIELDS)
_MELD_FIELD_SET = frozenset(_MELD_FIELDS)


_KIND_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}
"""How a rule set's own field's kind is named in an error."""


def _bad(message: str) -> FanscanError:
    return FanscanError("invalid_hand", message)


@dataclass(frozen=True)
class Meld:
    """A declared set: a chow, a pung or a kong (``concealed`` only for a concealed kong).

    ``claimed_from`` is the notation's number: for a chow which of its tiles was claimed (1-3), for
    a pung or exposed kong the player it came from (1 left, 2 across, 3 right), 5-7 for a kong
    added to a pung claimed from 1-3; None when unknown or concealed.
    """

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool = False
    claimed_from: int | None = None

    def __post_init__(self) -> None:
        _check_meld(self)

    @property
    def tile(self) -> Tile:
        """The lowest tile (a chow) or the repeated tile (a pung or kong)."""
        return self.tiles[0]

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "type": self.kind,
            "tiles": [t.code for t in self.tiles],
            "concealed": self.concealed,
        }
        if self.claimed_from is not None:
            obj["claimed_from"] = self.claimed_from
        return obj

    @classmethod
    def from_json(cls, obj: Any, position: int) -> Meld:
        """Read one meld object; ``position`` (1-based) names it in error messages."""
        where = f"meld {position}"
        if type(obj) is not dict and not isinstance(obj, Mapping):  # dict first: no ABC check
            raise _bad(f"{where} must be an object with type, tiles and concealed")
        if not _MELD_FIELD_SET.issuperset(obj):
            unknown = next(k for k in obj if k not in _MELD_FIELD_SET)
            raise _bad(f"unknown field {unknown!r} in {where} (expected type, tiles, concealed)")
        kind = obj.get("type")
        if kind not in MELD_KINDS:
            raise _bad(f"{where} has type {kind!r}; expected chow, pung or kong")
        raw = obj.get("tiles")
        if not isinstance(raw, list):
            raise _bad(f"{where} needs a list of tiles")
        concealed = obj.get("concealed", False)
        if not isinstance(concealed, bool):
            raise _bad(f"{where}: concealed must be true or false")
        claimed = obj.get("claimed_from")
        if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, int)):
            raise _bad(f"{where}: claimed_from must be a whole number")
        if BACK in raw:
            faces = [code for code in raw if code != BACK]
            if kind == "kong" and len(raw) == 4 and faces:
                # A concealed kong is often laid with its two outer tiles face down.
                raw = [faces[0]] * 4
            else:
                raise _bad(f"{where} has a face-down tile; give the faces of its tiles")
        tiles = _tiles(raw, where)
        if kind == "chow":
            tiles = tuple(sorted(tiles))
        return _built_meld(kind, tiles, concealed, claimed)


@cache
def _built_meld(kind: str, tiles: tuple[Tile, ...], concealed: bool, claimed: int | None) -> Meld:
    # Memoised: melds are immutable and fewer than 500 valid ones exist (a bad one raises and
    # is not kept), so each is built and checked once.
    return Meld(kind, tiles, concealed, claimed)


def _check_meld(meld: Meld) -> None:
    kind, tiles = meld.kind, meld.tiles
    size = 4 if kind == "kong" else 3
    first = tiles[0] if tiles else None
    if kind == "chow":
        ok = (
            len(tiles) == 3
            and first is not None
            and first < 27
            and first % 9 <= 6
            and tiles[1] == first + 1
            and tiles[2] == first + 2
        )
    else:
        ok = (
            kind in MELD_KINDS
            and len(tiles) == size
            and first is not None
            and first < 34
            and tiles.count(first) == size
        )
    claim = meld.claimed_from
    allowed = _CLAIMS.get(kind, ())
    if (
        ok
        and (not meld.concealed or kind == "kong")
        and (claim is None or (not meld.concealed and claim in allowed))
    ):
        return
    shown = format_tiles(tiles)
    if kind not in MELD_KINDS:
        raise _bad(f"meld {shown} has kind {kind!r}; expected chow, pung or kong")
    if len(tiles) != size:
        count = f"{len(tiles)} tile" + ("" if len(tiles) == 1 else "s")
        raise _bad(f"the {kind} {shown} has {count}; a {kind} has {size}")
    if any(t.is_flower for t in tiles):
        raise _bad(f"the {kind} {shown} holds a flower; flowers are never part of a set")
    if not ok and kind == "chow":
        raise _bad(f"the chow {shown} is not three consecutive tiles of one suit")
    if not ok:
        raise _bad(f"the {kind} {shown} is not {size} identical tiles")
    if meld.concealed and kind != "kong":
        raise _bad(f"the {kind} {shown} is marked concealed; only a kong can be concealed")
    if claim is not None and (meld.concealed or claim not in allowed):
        raise _bad(f"the {kind} {shown} cannot be claimed from {claim}")


def _tiles(codes: list[Any], where: str) -> tuple[Tile, ...]:
    """The tiles of a list of codes; the first bad code is named in the error."""
    try:
        tiles = tuple(map(TILE_BY_CODE.__getitem__, codes))
    except (KeyError, TypeError):
        return tuple(_tile(code, where) for code in codes)
    return tiles


def _tile(code: Any, where: str) -> Tile:
    tile = TILE_BY_CODE.get(code) if isinstance(code, str) else None
    if code == BACK:
        raise _bad(f"{where}: a face-down tile ('back') cannot be scored; give its face")
    if tile is None:
        try:
            Tile.from_code(code)
        except FanscanError as error:
            raise _bad(f"{where}: {error.message}") from None
    return tile  # type: ignore[return-value]


def _wind(value: Any, where: str) -> Tile:
    """The wind tile ``value`` names (E S W N); any other value is an error naming the field."""
    tile = TILE_BY_CODE.get(value) if isinstance(value, str) else None
    if tile is None or tile not in WINDS:
        if isinstance(value, str):
            shown = value[:20]
        elif isinstance(value, (int, float, bool, type(None))):
            shown = json.dumps(value)[:20]
        else:
            shown = type(value).__name__
        raise _bad(f"{where} is {shown}; expected one of E S W N")
    return tile


@dataclass(frozen=True)
class Hand:
    """A hand with its win conditions; ``options`` holds a rule set's own extra fields.

    ``win_tile`` is None only for a waiting (incomplete) hand, as ``fanscan waits`` reads it.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: Tile | None = None
    flowers: tuple[Tile, ...] = ()
    self_drawn: bool = False
    seat_wind: Tile = Tile.E
    round_wind: Tile = Tile.E
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def tile_count(self) -> int:
        """Tiles in play, a kong counting as three (14 for a complete MCR hand)."""
        return len(self.concealed) + 3 * len(self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every tile held: standing tiles and all four tiles of each kong; no flowers."""
        tiles = list(self.concealed)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def replace(self, **changes: Any) -> Hand:
        """A copy with some fields changed (validated again by ``check``)."""
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values.update(changes)
        return Hand(**values)

    def check(self, size: int = 14, *, win_tile: bool = True) -> Hand:
        """Raise FanscanError unless this is a possible hand of ``size`` tiles; return self.

        ``size`` 13 (or any size that is not 2 mod 3) means a waiting hand without a win tile.
        ``win_tile=False``: a complete hand that was not completed by a tile (Changsha's dealt
        opening hand) may have none; one given must still be held.
        """
        concealed, flowers = self.concealed, self.flowers
        if concealed and max(concealed) >= _FIRST_FLOWER:
            tile = next(t for t in concealed if t >= _FIRST_FLOWER)
            raise _bad(f"{tile.code} is a flower; list flowers under 'flowers', not 'concealed'")
        if flowers and min(flowers) < _FIRST_FLOWER:
            tile = next(t for t in flowers if t < _FIRST_FLOWER)
            raise _bad(f"{tile.code} is listed as a flower; flowers are 1f-8f")
        if len(set(flowers)) < len(flowers):
            tile, n = Counter(flowers).most_common(1)[0]
            raise _bad(f"the flower {tile.code} appears {n} times; each flower exists once")
        counts = self._playing_counts()
        if max(counts) > 4:
            index = next(i for i, n in enumerate(counts) if n > 4)
            raise _bad(
                f"{TILE_CODES[index]} appears {counts[index]} times; there are only four of each"
                " tile"
            )
        count = self.tile_count()
        if count != size:
            parts = f"{len(self.concealed)} concealed"
            if self.melds:
                parts += f" + {len(self.melds)} meld{'s' if len(self.melds) > 1 else ''} x 3"
            kind = "a complete" if size % 3 == 2 else "a waiting"
            tiles = "tile" if count == 1 else "tiles"
            raise _bad(f"the hand has {count} {tiles} ({parts}); {kind} hand here has {size}")
        for name in ("seat_wind", "round_wind"):
            if getattr(self, name) not in WINDS:
                raise _bad(f"{name} is {getattr(self, name).code}; expected one of E S W N")
        if size % 3 != 2 or (self.win_tile is None and not win_tile):
            return self
        if self.win_tile is None:
            raise _bad("the hand has no win tile")
        win = self.win_tile
        if win not in self.concealed:
            raise _bad(f"the win tile {win.code} is not among the concealed tiles")
        self._check_win_conditions(win, counts)
        return self

    def _playing_counts(self) -> list[int]:
        """Counts per playing tile (0-33) of ``all_tiles``; flowers were rejected before."""
        counts = [0] * _PLAYING_TILES
        for tile in self.concealed:
            counts[tile] += 1
        for meld in self.melds:
            for tile in meld.tiles:
                counts[tile] += 1
        return counts

    def _check_win_conditions(self, win: Tile, counts: list[int]) -> None:
        if self.kong and self.self_drawn and not any(m.kind == "kong" for m in self.melds):
            raise _bad(
                "won on a kong replacement tile (kong + self_drawn), but the hand has no kong"
            )
        if self.kong and not self.self_drawn and counts[win] > 1:
            raise _bad(
                f"robbing a kong of {win.code} (kong without self_drawn), but the hand holds"
                f" another {win.code}"
            )
        if self.kong and self.last_tile and not self.self_drawn:
            raise _bad(
                "robbing a kong (kong without self_drawn) on the last discard (last_tile without"
                " self_drawn): a robbed kong's tile is no discard, and no kong is made after the"
                " wall's last tile"
            )
        if self.fourth_tile and self.concealed.count(win) > 1:
            raise _bad(
                f"fourth_tile says {win.code} was the last of its kind, but the concealed tiles"
                f" hold another {win.code}"
            )

    def to_json(self) -> dict[str, Any]:
        """The contract's hand object (rule-set options after the base fields)."""
        obj: dict[str, Any] = {
            "concealed": [t.code for t in self.concealed],
            "melds": [m.to_json() for m in self.melds],
            "win_tile": self.win_tile.code if self.win_tile is not None else None,
            "flowers": [t.code for t in self.flowers],
            "self_drawn": self.self_drawn,
            "seat_wind": self.seat_wind.code,
            "round_wind": self.round_wind.code,
            "fourth_tile": self.fourth_tile,
            "kong": self.kong,
            "last_tile": self.last_tile,
        }
        obj.update(self.options)
        return obj

    @classmethod
    def from_json(
        cls,
        obj: Any,
        *,
        extra_fields: Mapping[str, Any] | None = None,
        size: int = 14,
        win_tile: bool = True,
    ) -> Hand:
        """Read and check a hand object; ``extra_fields`` maps a rule set's own fields to defaults.

        An extra field must have the type of its default. ``size`` is the tile count the rule set
        wants and ``win_tile`` whether a complete hand needs one (see ``check``).
        """
        extras = extra_fields or {}
        if type(obj) is not dict and not isinstance(obj, Mapping):  # dict first: no ABC check
            raise _bad("a hand must be a JSON object")
        if not _BASE_FIELD_SET.issuperset(obj):
            for key in obj:
                if key not in _BASE_FIELD_SET and key not in extras:
                    expected = ", ".join((*BASE_FIELDS, *extras))
                    raise _bad(f"unknown field {key!r} in the hand (expected {expected})")
        raw = obj.get("concealed")
        if not isinstance(raw, list):
            raise _bad("the hand needs 'concealed', a list of tile codes")
        concealed = _tiles(raw, "concealed")
        melds_raw = obj.get("melds", [])
        if not isinstance(melds_raw, list):
            raise _bad("'melds' must be a list")
        melds = tuple(Meld.from_json(m, i) for i, m in enumerate(melds_raw, 1))
        win_raw = obj.get("win_tile")
        if win_raw is None and size % 3 == 2 and win_tile:
            raise _bad("the hand needs 'win_tile', the tile it was completed with")
        win = None if win_raw is None else _tile(win_raw, "win_tile")
        flowers_raw = obj.get("flowers", [])
        if not isinstance(flowers_raw, list):
            raise _bad("'flowers' must be a list of codes 1f-8f")
        flowers = _tiles(flowers_raw, "flowers")
        self_drawn = _flag(obj, "self_drawn")
        fourth_tile = _flag(obj, "fourth_tile")
        kong = _flag(obj, "kong")
        last_tile = _flag(obj, "last_tile")
        seat_wind = _wind(obj.get("seat_wind", "E"), "seat_wind")
        round_wind = _wind(obj.get("round_wind", "E"), "round_wind")
        options = {}
        for name, default in extras.items():
            value = obj.get(name, default)
            if type(value) is not type(default):
                shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
                kind = _KIND_NAMES.get(type(default), type(default).__name__)
                raise _bad(f"{name} must be {kind}, not {shown}")
            options[name] = value
        hand = cls(
            concealed,
            melds,
            win,
            flowers,
            self_drawn,
            seat_wind,
            round_wind,
            fourth_tile,
            kong,
            last_tile,
            MappingProxyType(options),
        )
        return hand.check(size, win_tile=win_tile)


def _flag(obj: Mapping[str, Any], name: str) -> bool:
    value = obj.get(name, False)
    if value is not True and value is not False:
        raise _bad(f"{name} must be true or false, not {value!r}")
    return value
