"""The rest of the table around a generated hand: walls, discards and other players' melds.

A real photo of a won hand shows more than the hand: what is left of the walls (rows of face-down
tiles two high, the player's own just beyond the hand, the neighbours' at right angles to the
sides), the discards in loose rows of six in the middle (each player's turned towards them), and
the neighbours' exposed melds. ``lay_clutter`` places such tiles on the table around a hand, in
the generator's table frame (millimetres; x right, y away from the player, z up), never on the
hand's tiles or each other's, and never nearer the hand than a small clearance (a wall touching
the hand's end in a row is a hand of more tiles, for a reader and a person alike).

The tiles it draws are the faces the hand and the others have left: at most four of each code.

1. A wall beyond the hand (always), two high (``_two_high``: what the draws leave).
2. Sometimes a neighbour's wall at right angles, left or right of the hand.
3. Discards in loose rows beyond the wall, each row turned towards one of the four seats.
4. Sometimes a pile of discards thrown in anyhow, each tile turned its own way.
5. Sometimes a neighbour's exposed melds at right angles beyond a side wall.
6. Where asked (``lay_opponents``, from draws of its own, after the steps above), the other
   players' standing hands: rows of tiles on edge, their faces to their own seats, so that the
   camera sees their backs, tops and ends: across the table beyond everything else, and at right
   angles beyond the sides.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from fanscan.scoring.tiles import BACK, TILE_CODES


@dataclass(frozen=True)
class ClutterTile:
    """A tile of the table that is not the hand's: face-up code or ``back``; footprint centre
    (x, y), the height of its bottom (z: a wall's upper layer lies on the lower), and its turn on
    the table (radians, counter-clockwise; 0 is upright as the player sees it)."""

    code: str
    x: float
    y: float
    z: float
    angle: float
    standing: bool = False  # on edge (another player's hand): its footprint is the tile's thickness deep


@dataclass(frozen=True)
class HandExtent:
    """The hand's footprint on the table (millimetres) and the size of its tiles."""

    left: float
    right: float
    near: float
    far: float
    tile_w: float
    tile_h: float
    tile_t: float


def _footprint(tile: ClutterTile, extent: HandExtent, margin: float = 0.0) -> np.ndarray:
    depth = extent.tile_t if tile.standing else extent.tile_h
    w, h = extent.tile_w / 2 + margin, depth / 2 + margin
    c, s = np.cos(tile.angle), np.sin(tile.angle)
    corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) @ np.array([[c, s], [-s, c]])
    return (corners + [tile.x, tile.y]).astype(np.float32)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    area, _ = cv2.intersectConvexConvex(a, b)
    return area > 1e-3


class _Table:
    """The footprints taken so far: the hand's and each laid tile's."""

    def __init__(self, extent: HandExtent) -> None:
        self.extent = extent
        self.taken: list[np.ndarray] = []

    def _hand(self, clearance: float) -> np.ndarray:
        e = self.extent
        return np.array(
            [
                [e.left - clearance, e.near - clearance],
                [e.right + clearance, e.near - clearance],
                [e.right + clearance, e.far + clearance],
                [e.left - clearance, e.far + clearance],
            ],
            np.float32,
        )

    def lay(self, tiles: list[ClutterTile], clearance: float) -> list[ClutterTile]:
        """``tiles`` when all of them fit, at least ``clearance`` mm off the hand (they are then
        taken), else none."""
        shapes = [_footprint(t, self.extent, margin=-0.2) for t in tiles if t.z == 0]
        if any(_overlaps(a, b) for a in shapes for b in [self._hand(clearance), *self.taken]):
            return []
        if any(_overlaps(a, b) for k, a in enumerate(shapes) for b in shapes[k + 1:]):
            return []
        self.taken += [_footprint(t, self.extent) for t in tiles if t.z == 0]
        return tiles


def _turned(points: np.ndarray, angle: float, about: np.ndarray) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return (points - about) @ np.array([[c, s], [-s, c]]) + about


def _row(start: np.ndarray, angle: float, codes: list[str], extent: HandExtent, rng: np.random.Generator,
         gap: tuple[float, float], jitter: float, z: float = 0.0) -> list[ClutterTile]:
    """Tiles side by side from ``start`` along the direction ``angle`` (each upright in that
    frame), with free gaps drawn from ``gap`` (mm) and a turn jitter of ``jitter`` radians (a
    turned tile takes more of the row, so that neighbours never cut into each other)."""
    along = np.array([np.cos(angle), np.sin(angle)])
    out, at = [], 0.0
    for code in codes:
        turn = rng.normal(0, jitter)
        half = (extent.tile_w * abs(np.cos(turn)) + extent.tile_h * abs(np.sin(turn))) / 2
        centre = start + along * (at + half)
        out.append(ClutterTile(code, float(centre[0]), float(centre[1]), z, angle + turn))
        at += 2 * half + rng.uniform(*gap)
    return out


def _two_high(rng: np.random.Generator, stacks: int) -> np.ndarray:
    """Which stacks of a wall still hold their upper tile: all but, at an end where the tiles
    are drawn (the live end, or the kong end), sometimes one; now and then the wall's last
    stacks are one high for a stretch (the upper row drawn first)."""
    high = np.ones(stacks, bool)
    if rng.random() < 0.4:
        high[0 if rng.random() < 0.5 else -1] = False
    if rng.random() < 0.15:
        run = int(rng.integers(2, max(3, stacks // 2)))
        high[-run:] = False
    return high


def _wall(start: np.ndarray, angle: float, stacks: int, extent: HandExtent,
          rng: np.random.Generator) -> list[ClutterTile]:
    lower = _row(start, angle, [BACK] * stacks, extent, rng, (0.1, 0.6), np.radians(0.6))
    upper = [ClutterTile(BACK, t.x + rng.normal(0, 0.3), t.y + rng.normal(0, 0.3), extent.tile_t,
                         t.angle + rng.normal(0, np.radians(0.5)))
             for t, high in zip(lower, _two_high(rng, stacks)) if high]
    return lower + upper


def _faces(rng: np.random.Generator, left: Counter[str], n: int) -> list[str]:
    pool = [code for code in TILE_CODES[:34] for _ in range(left[code])]
    picked = [str(c) for c in rng.choice(pool, size=min(n, len(pool)), replace=False)] if pool else []
    left.subtract(picked)
    return picked


@dataclass
class _Laying:
    """What the steps of ``lay_clutter`` share: the draws, the hand, the table so far, the faces
    left, and how near the hand walls and faces may lie."""

    rng: np.random.Generator
    extent: HandExtent
    table: _Table
    left: Counter[str]
    near_wall: float
    near_faces: float

    def side_x(self, side: int, low: float, high: float) -> float:
        """An x this many tile heights beyond the hand's left (side -1) or right (+1) end."""
        e, off = self.extent, self.rng.uniform(low, high) * self.extent.tile_h
        return e.right + off if side > 0 else e.left - off


def _player_wall(lay: _Laying) -> list[ClutterTile]:
    e, rng, h = lay.extent, lay.rng, lay.extent.tile_h
    stacks = int(rng.integers(4, 19))
    angle = rng.normal(0, np.radians(3))
    gap = rng.uniform(0.45, 2.0) * h
    x0 = e.left + rng.uniform(-0.3, 0.9) * (e.right - e.left) - stacks * e.tile_w / 2
    return lay.table.lay(_wall(np.array([x0, e.far + gap + h / 2]), angle, stacks, e, rng), lay.near_wall)


def _side_wall(lay: _Laying) -> list[ClutterTile]:
    rng, h = lay.rng, lay.extent.tile_h
    side = rng.choice([-1, 1])
    stacks = int(rng.integers(4, 15))
    start = np.array([lay.side_x(side, 0.6, 2.5), lay.extent.near + rng.uniform(-0.5, 3.0) * h])
    wall = _wall(start, np.pi / 2 + rng.normal(0, np.radians(3)), stacks, lay.extent, rng)
    return lay.table.lay(wall, lay.near_wall)


def _discard_rows(lay: _Laying, far: float) -> list[ClutterTile]:
    e, rng, w, h = lay.extent, lay.rng, lay.extent.tile_w, lay.extent.tile_h
    out: list[ClutterTile] = []
    centre = np.array([(e.left + e.right) / 2 + rng.uniform(-0.3, 0.3) * (e.right - e.left),
                       far + rng.uniform(0.6, 2.0) * h])
    for _ in range(int(rng.integers(1, 5))):
        seat = float(rng.choice([0, np.pi / 2, np.pi, -np.pi / 2], p=[0.4, 0.2, 0.2, 0.2]))
        for _try in range(6):
            n = int(rng.integers(2, 7))
            offset = np.array([rng.uniform(-2.5, 2.5), rng.uniform(0, 3.0)]) * h
            start = _turned(centre + offset - [n * w / 2, 0], seat, centre + offset)
            codes = _faces(rng, lay.left, n)
            if not codes:
                break
            row = lay.table.lay(_row(start, seat, codes, e, rng, (0.3, 4.0), np.radians(rng.uniform(1, 9))),
                                lay.near_faces)
            if row:
                out += row
                break
            lay.left.update(codes)
    return out


def _pile(lay: _Laying) -> list[ClutterTile]:
    e, rng, h = lay.extent, lay.rng, lay.extent.tile_h
    out: list[ClutterTile] = []
    middle = np.array([(e.left + e.right) / 2 + rng.uniform(-0.4, 0.4) * (e.right - e.left),
                       e.far + rng.uniform(1.2, 3.0) * h])
    for _ in range(int(rng.integers(4, 13))):
        codes = _faces(rng, lay.left, 1)
        if not codes:
            break
        for _try in range(8):
            at = middle + rng.normal(0, 1.3, 2) * h
            laid = lay.table.lay([ClutterTile(codes[0], float(at[0]), float(at[1]), 0.0,
                                              float(rng.uniform(-np.pi, np.pi)))], lay.near_faces)
            if laid:
                out += laid
                break
        else:
            lay.left.update(codes)
    return out


def _side_melds(lay: _Laying) -> list[ClutterTile]:
    rng = lay.rng
    out: list[ClutterTile] = []
    side = rng.choice([-1, 1])
    start = np.array([lay.side_x(side, 3.0, 5.0), lay.extent.near + rng.uniform(0, 2) * lay.extent.tile_h])
    for _ in range(int(rng.integers(1, 3))):
        codes = _faces(rng, lay.left, 3)
        if len(codes) < 3:
            break
        meld = lay.table.lay(_row(start, np.pi / 2 * side, codes, lay.extent, rng, (0.1, 0.8), np.radians(0.8)),
                             lay.near_faces)
        out += meld
        if not meld:
            lay.left.update(codes)
        start = start + np.array([0.0, 3.6 * lay.extent.tile_w * side])
    return out


def lay_clutter(rng: np.random.Generator, extent: HandExtent, used: Counter[str]) -> list[ClutterTile]:
    """The table's other tiles around a hand with footprint ``extent`` whose faces ``used`` counts
    (the steps of the module's overview, in its order)."""
    h = extent.tile_h
    near_faces = rng.uniform(1.0, 1.6) * h  # discards and melds lie in the table's middle
    lay = _Laying(rng, extent, _Table(extent),
                  Counter({code: max(0, 4 - used[code]) for code in TILE_CODES[:34]}),
                  near_wall=0.4 * h,  # a wall may lie close: it is two high, all backs
                  near_faces=near_faces)
    out = _player_wall(lay)
    far = max([t.y for t in out], default=extent.far) + h / 2
    if rng.random() < 0.45:
        out += _side_wall(lay)
    out += _discard_rows(lay, far)
    if rng.random() < 0.4:
        out += _pile(lay)
    if rng.random() < 0.3:
        out += _side_melds(lay)
    return out


OPPONENT_TILES = (7, 14)
"""How many tiles another player's standing hand holds (fewest, most): 13 less those melded, or
a tile more just drawn."""


def _standing_row(middle: np.ndarray, facing: float, n: int, extent: HandExtent,
                  rng: np.random.Generator) -> list[ClutterTile]:
    """``n`` backs standing on edge side by side about ``middle``, each turned by ``facing`` (the
    face towards the seat it belongs to: 0 towards the player, pi across the table), a hair apart."""
    along = np.array([np.cos(facing), np.sin(facing)])
    gaps = rng.uniform(0.5, 1.0, n)
    length = n * extent.tile_w + gaps[:-1].sum()
    at, out = -length / 2, []
    for gap in gaps:
        centre = middle + along * (at + extent.tile_w / 2)
        out.append(ClutterTile(BACK, float(centre[0]), float(centre[1]), 0.0,
                               float(facing + rng.normal(0, np.radians(1.0))), standing=True))
        at += extent.tile_w + gap
    return out


def lay_opponents(rng: np.random.Generator, extent: HandExtent, laid: list[ClutterTile]) -> list[ClutterTile]:
    """The other players' standing hands (step 6) on a table where the hand and ``laid`` (the
    steps before) lie: across the table (nearly always) and, each half the time, at the left and
    the right, beyond the walls and melds there: each row is tried at a few distances from the
    hand and left out where it meets a laid tile at all of them."""
    table = _Table(extent)
    table.taken = [_footprint(t, extent) for t in laid if t.z == 0]
    e, h = extent, extent.tile_h
    out: list[ClutterTile] = []
    seats = [np.pi] if rng.random() < 0.9 else []
    seats += [side for side in (-np.pi / 2, np.pi / 2) if rng.random() < 0.5]
    for facing in seats:
        n = int(rng.integers(OPPONENT_TILES[0], OPPONENT_TILES[1] + 1))
        turn = facing + rng.normal(0, np.radians(4))
        for step in range(4):  # moved away from the hand a tile's height at a time until it fits
            if facing == np.pi:
                middle = np.array([(e.left + e.right) / 2 + rng.uniform(-0.4, 0.4) * (e.right - e.left),
                                   e.far + (rng.uniform(3.0, 5.0) + step) * h])
            else:  # the left seat's faces look to -x (facing -pi/2), the right seat's to +x
                middle = np.array([_beyond_hand_end(e, facing, (rng.uniform(2.0, 4.0) + step) * h),
                                   e.near + rng.uniform(1.5, 5.0) * h])
            row = table.lay(_standing_row(middle, turn, n, e, rng), 0.5 * h)
            if row:
                out += row
                break
    return out


def _beyond_hand_end(extent: HandExtent, facing: float, beyond: float) -> float:
    """The x ``beyond`` mm past the hand's right end (a seat facing +x) or left end (-x)."""
    return extent.right + beyond if facing > 0 else extent.left - beyond
