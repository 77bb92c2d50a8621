"""The 42 tile faces and their codes (../shared/docs/tiles-and-hands.md, "Tile codes").

``Tile`` is an IntEnum in the contract's class order: 1m..9m, 1p..9p, 1s..9s, E S W N, C F P,
1f..8f. The classifier's labels are ``CLASS_LABELS``: these 42 codes, then ``back``; a
classifier may also answer ``NO_TILE`` (``CLASSIFIER_LABELS``), for a crop that holds no tile.

>>> Tile.from_code("5p")
<Tile.P5: 13>
>>> Tile.E.code, Tile.M1.suit, Tile.S9.rank
('E', 'm', 9)
>>> Tile.from_code("0m")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: unknown tile code '0m' (expected 1m-9m, 1p-9p, 1s-9s, E S W N C F P, 1f-8f)
"""  # noqa: E501 (a doctest's expected output is one line)

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from fanscan.errors import FanscanError, quoted

_SUITS = ("m", "p", "s")
_HONOR_CODES = ("E", "S", "W", "N", "C", "F", "P")
FLOWER_CODES: tuple[str, ...] = tuple(f"{n}f" for n in range(1, 9))

TILE_CODES: tuple[str, ...] = (
    tuple(f"{rank}{suit}" for suit in _SUITS for rank in range(1, 10)) + _HONOR_CODES + FLOWER_CODES
)
BACK = "back"
CLASS_LABELS: tuple[str, ...] = (*TILE_CODES, BACK)
NO_TILE = "none"
"""The classifier's answer for a crop that holds no tile (a rack's rim, felt, a box across two
tiles): never a tile code, never in a hand or the read JSON's ``tiles``."""
CLASSIFIER_LABELS: tuple[str, ...] = (*CLASS_LABELS, NO_TILE)

CHINESE_NAMES: dict[str, str] = {
    **{f"{r}m": f"{'一二三四五六七八九'[r - 1]}萬" for r in range(1, 10)},
    **{f"{r}p": f"{'一二三四五六七八九'[r - 1]}筒" for r in range(1, 10)},
    **{f"{r}s": f"{'一二三四五六七八九'[r - 1]}条" for r in range(1, 10)},
    "E": "東", "S": "南", "W": "西", "N": "北", "C": "中", "F": "發", "P": "白",
    "1f": "梅", "2f": "蘭", "3f": "菊", "4f": "竹", "5f": "春", "6f": "夏", "7f": "秋", "8f": "冬",
}


class Tile(IntEnum):
    """One of the 42 faces; the value is the contract's class index."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    E = 27
    S = 28
    W = 29
    N = 30
    C = 31
    F = 32
    P = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    F5 = 38
    F6 = 39
    F7 = 40
    F8 = 41

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """The tile for a contract code such as ``5p``, ``E`` or ``3f``."""
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise FanscanError(
                "unknown_tile",
                f"unknown tile code {quoted(code)} "
                "(expected 1m-9m, 1p-9p, 1s-9s, E S W N C F P, 1f-8f)",
            ) from None

    @property
    def code(self) -> str:
        return TILE_CODES[self.value]

    @property
    def chinese(self) -> str:
        return CHINESE_NAMES[self.code]

    @property
    def is_suited(self) -> bool:
        return self.value < 27

    @property
    def is_honor(self) -> bool:
        return 27 <= self.value < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self.value < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self.value < 34

    @property
    def is_flower(self) -> bool:
        """A flower or season (1f-8f): bonus tiles, never part of a set."""
        return self.value >= 34

    @property
    def suit(self) -> str | None:
        """``m``, ``p`` or ``s`` for suited tiles, otherwise None."""
        return _SUITS[self.value // 9] if self.is_suited else None

    @property
    def rank(self) -> int | None:
        """1-9 for suited tiles, otherwise None."""
        return self.value % 9 + 1 if self.is_suited else None

    @property
    def is_terminal(self) -> bool:
        return self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    def __str__(self) -> str:
        return self.code


_BY_CODE: dict[str, Tile] = {code: Tile(i) for i, code in enumerate(TILE_CODES)}
#: Code -> Tile, for hot paths that test membership instead of catching an error.
TILE_BY_CODE: dict[str, Tile] = dict(_BY_CODE)

PLAYING_TILES: tuple[Tile, ...] = tuple(t for t in Tile if not t.is_flower)
FLOWERS: tuple[Tile, ...] = tuple(t for t in Tile if t.is_flower)
WINDS: tuple[Tile, ...] = (Tile.E, Tile.S, Tile.W, Tile.N)
DRAGONS: tuple[Tile, ...] = (Tile.C, Tile.F, Tile.P)


def suited(suit: str, rank: int) -> Tile:
    """The suited tile of ``suit`` (m/p/s) and ``rank`` (1-9)."""
    return Tile(_SUITS.index(suit) * 9 + rank - 1)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles in the given order in the notation's compact form: 1m 2m 3m 5p E -> ``123m5pE``."""
    out: list[str] = []
    pending = None
    for tile in tiles:
        suit = tile.suit
        if pending and pending != suit:
            out.append(pending)
            pending = None
        if suit is None:
            out.append(tile.code)
            continue
        out.append(str(tile.rank))
        pending = suit
    if pending:
        out.append(pending)
    return "".join(out)
