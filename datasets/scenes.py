"""Synthetic photos of whole declared hands, with exact ground truth, for tests and benchmarks.

``generate_scene(seed)`` lays out a complete hand the way a player shows it after winning: the
concealed tiles in a row, the winning tile a little apart at its end, exposed melds as separate
groups (one tile turned sideways: the claimed one), concealed kongs (back, face, face, back),
flowers in a group of their own, apart or against an end of the row (``FLOWERS_AGAINST_THE_ROW``);
melds either beside the concealed row or in a row of their own. The tiles are 3-D boxes (an
ivory face layer over a coloured back layer) on a procedural table (``textures.py``), seen by a
pinhole camera tilted up to 45 degrees and rolled, under a soft light with cast shadows, an
uneven illumination, a shadow band and glare, then JPEG-compressed. With
``clutter`` the rest of a table lies around the hand (``scene_clutter``: walls, discards, other
players' melds; with ``opponents``, their standing hands too); with ``standing`` the hand is shown
mid-game instead, waiting, its concealed tiles standing on edge with their faces to the player,
seen from the seat.

The same seed always gives the same scene (``numpy.random.default_rng(seed)`` drives everything),
and the ground truth is exact: the hand JSON, every tile's code, face quad in image pixels (corners
in the face's own top-left, top-right, bottom-right, bottom-left order) and group.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import cv2
import numpy as np
from fanscan.datasets import tile_art
from fanscan.datasets.scene_clutter import ClutterTile, HandExtent, lay_clutter, lay_opponents
from fanscan.datasets.scene_props import Prop, lay_props, paint_props
from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS, table_texture
from fanscan.scoring.hand import DEFAULT_WIN_CONDITIONS
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import TILE_CODES

TILE_W, TILE_H, TILE_T = 26.0, 35.0, 18.0
"""Tile width, height and thickness in millimetres (a common MCR set)."""

SCENE_STYLES: tuple[str, ...] = (
    "xmahjongg-real",
    "kmahjongg-default",
    "kmahjongg-traditional",
    "gnome-smooth",
)
"""Art styles that look like a physical tile's face: the font styles draw an outline frame that real
tiles do not have, and cangjie6 is drawn oblique, so they are left out."""

NOT_THE_HANDS = -1
"""The group of a scene tile that is not the hand's: a wall, a discard, another player's meld."""

_SUITS = ("m", "p", "s")
_HONOURS = ("E", "S", "W", "N", "C", "F", "P")


@dataclass(frozen=True)
class SceneTile:
    """One tile of a scene: code (``back`` when face down), face quad (4x2, image px), group."""

    code: str
    quad: np.ndarray
    group: int
    sideways: bool
    standing: bool = False


@dataclass(frozen=True)
class SceneGroup:
    """A group of touching tiles as laid out: kind is concealed/win/chow/pung/kong/concealed_kong/flowers."""

    kind: str
    codes: tuple[str, ...]
    sideways: int | None = None


@dataclass(frozen=True)
class Scene:
    """A rendered photo (BGR uint8, or JPEG bytes) and its exact ground truth."""

    image: np.ndarray
    jpeg: bytes
    hand: dict
    tiles: tuple[SceneTile, ...]
    groups: tuple[SceneGroup, ...]
    style: str
    table: str
    unseen: tuple[np.ndarray, ...] = ()
    """The face quads of the table's tiles drawn but not in ``tiles``: cut by the photo's edge, or a
    wall's lower tiles under the upper ones (no face to find, but no table either)."""


# --- the hand -------------------------------------------------------------------------------


def _random_set(rng: np.random.Generator, counts: dict[str, int]) -> tuple[str, list[str]] | None:
    """A random chow or pung that the remaining tile counts allow, or None."""
    for _ in range(30):
        if rng.random() < 0.55:
            suit, start = _SUITS[rng.integers(3)], int(rng.integers(1, 8))
            tiles = [f"{start + i}{suit}" for i in range(3)]
            kind = "chow"
        else:
            code = TILE_CODES[int(rng.integers(34))]
            tiles, kind = [code] * 3, "pung"
        need: dict[str, int] = {}
        for tile in tiles:
            need[tile] = need.get(tile, 0) + 1
        if all(counts[t] >= n for t, n in need.items()):
            for t, n in need.items():
                counts[t] -= n
            return kind, tiles
    return None


def random_winning_tiles(rng: np.random.Generator, codes: set[str], n_sets: int = 4) -> list[str] | None:
    """The tiles of a random complete hand (``n_sets`` chows or pungs and a pair) drawn from
    ``codes`` only (four of each), or None when the codes allow none."""
    counts = {code: 4 if code in codes else 0 for code in TILE_CODES[:34]}
    sets = [s for s in (_random_set(rng, counts) for _ in range(n_sets)) if s is not None]
    pairs = [str(c) for c in rng.permutation(TILE_CODES[:34]) if counts[str(c)] >= 2]
    if len(sets) < n_sets or not pairs:
        return None
    return [tile for _, tiles in sets for tile in tiles] + [pairs[0]] * 2


def random_groups(rng: np.random.Generator) -> list[SceneGroup]:
    """A complete hand (4 or, sometimes, 5 sets and a pair) split into the groups a player lays out."""
    counts = {code: 4 for code in TILE_CODES[:34]}
    n_sets = 5 if rng.random() < 0.15 else 4
    sets = [s for s in (_random_set(rng, counts) for _ in range(n_sets)) if s is not None]
    pair_code = next(c for c in rng.permutation(TILE_CODES[:34]) if counts[str(c)] >= 2)
    counts[str(pair_code)] -= 2
    n_melds = int(rng.choice([0, 1, 1, 2, 2, 3]))
    groups: list[SceneGroup] = []
    concealed: list[str] = [str(pair_code)] * 2
    for index, (kind, tiles) in enumerate(sets):
        if index < n_melds:
            if kind == "pung" and counts[tiles[0]] >= 1 and rng.random() < 0.4:
                counts[tiles[0]] -= 1
                if rng.random() < 0.5:
                    groups.append(SceneGroup("concealed_kong", tuple(tiles + tiles[:1])))
                else:
                    groups.append(SceneGroup("kong", tuple(tiles + tiles[:1]), int(rng.choice([0, 1, 3]))))
            elif kind == "chow":
                claimed = int(rng.integers(3))
                order = [tiles[claimed]] + [t for i, t in enumerate(tiles) if i != claimed]
                groups.append(SceneGroup("chow", tuple(order), 0))
            else:
                groups.append(SceneGroup("pung", tuple(tiles), int(rng.integers(3))))
        else:
            concealed += tiles
    win_index = int(rng.integers(len(concealed)))
    win = concealed.pop(win_index)
    if rng.random() < 0.8:
        concealed.sort(key=TILE_CODES.index)
    else:
        concealed = [str(c) for c in rng.permutation(concealed)]
    n_flowers = int(rng.choice([0, 0, 1, 1, 2, 3]))
    flowers = [str(f) for f in rng.choice(TILE_CODES[34:], n_flowers, replace=False)]
    out = [SceneGroup("concealed", tuple(concealed)), SceneGroup("win", (win,))]
    out += groups
    if flowers:
        out.append(SceneGroup("flowers", tuple(flowers)))
    return out


def hand_of(groups: list[SceneGroup]) -> dict:
    """The hand JSON the groups show (win conditions at their defaults)."""
    concealed: list[str] = []
    melds: list[dict] = []
    flowers: list[str] = []
    win = None
    for group in groups:
        if group.kind == "concealed":
            concealed += group.codes
        elif group.kind == "win":
            win = group.codes[0]
            concealed.append(win)
        elif group.kind == "flowers":
            flowers += group.codes
        else:
            tiles = list(group.codes)
            if group.kind == "chow":
                tiles.sort(key=TILE_CODES.index)
            melds.append(
                {
                    "type": "kong" if group.kind == "concealed_kong" else group.kind,
                    "tiles": tiles,
                    "concealed": group.kind == "concealed_kong",
                }
            )
    return {
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "flowers": flowers,
        **DEFAULT_WIN_CONDITIONS,
    }


# --- layout on the table (millimetres; x right, y away from the player) -----------------------


@dataclass(frozen=True)
class _Placed:
    code: str  # "back" for a face-down tile
    x: float  # footprint centre
    y: float
    sideways: bool
    rotation: int  # +1: face top points left (+90 deg), -1: right
    group: int  # the hand's group, or NOT_THE_HANDS for the table's other tiles
    z: float = 0.0  # the bottom's height: a wall's upper layer lies on the lower
    angle: float = 0.0  # turn on the table (radians, counter-clockwise): the clutter's, a standing hand's
    standing: bool = False  # on edge, the face towards the player (a hand mid-game)


def _lay_row(
    rng: np.random.Generator, groups: list[tuple[int, SceneGroup]], y_front: float, x0: float
) -> tuple[list[_Placed], float]:
    """Place groups left to right on a row whose front edge is at ``y_front``; returns the end x."""
    placed: list[_Placed] = []
    x = x0
    for gi, group in groups:
        if group.kind == "win" or (placed and group.kind != "concealed"):
            apart = rng.uniform(0.35, 0.9) * TILE_W  # drawn either way: the seed's other draws stay
            # A winning tile shown the riichi way lies sideways against the row's end.
            x += 0.0 if group.kind == "win" and group.sideways is not None else apart
        turn = 1 if rng.random() < 0.7 else -1
        for ti, code in enumerate(group.codes):
            sideways = group.sideways == ti
            if group.kind == "concealed_kong" and ti in (0, 3):
                code = "back"
            w, h = (TILE_H, TILE_W) if sideways else (TILE_W, TILE_H)
            gap = rng.uniform(0.1, 0.8)
            placed.append(_Placed(code, x + w / 2, y_front + h / 2, sideways, turn, gi))
            x += w + gap
    return placed, x


def _layout(rng: np.random.Generator, groups: list[SceneGroup]) -> list[_Placed]:
    indexed = list(enumerate(groups))
    main = [g for g in indexed if g[1].kind in ("concealed", "win")]
    melds = [g for g in indexed if g[1].kind not in ("concealed", "win", "flowers")]
    flowers = [g for g in indexed if g[1].kind == "flowers"]
    placed: list[_Placed] = []
    style = rng.integers(3)
    if style == 0 or not melds:
        # One row: concealed, the winning tile apart, then the melds (flowers: ``_lay_flowers``).
        row, _ = _lay_row(rng, main + melds, 0.0, 0.0)
        placed += row
    elif style == 1:
        # Melds in a row of their own behind the concealed row.
        row, _ = _lay_row(rng, main, 0.0, 0.0)
        back, _ = _lay_row(rng, melds, TILE_H + rng.uniform(8, 25), rng.uniform(0, 3 * TILE_W))
        placed += row + back
    else:
        # Melds in front (nearer the player), as some players lay them.
        row, _ = _lay_row(rng, main, TILE_H + rng.uniform(8, 25), 0.0)
        front, _ = _lay_row(rng, melds, 0.0, rng.uniform(0, 3 * TILE_W))
        placed += row + front
    if flowers:
        placed += _lay_flowers(rng, flowers, placed, {gi for gi, _ in main})
    # A hand is rarely laid perfectly straight: jitter every tile a little.
    return [
        _Placed(p.code, p.x + rng.normal(0, 0.3), p.y + rng.normal(0, 0.4), p.sideways, p.rotation, p.group)
        for p in placed
    ]


FLOWERS_AGAINST_THE_ROW = 0.6
"""Share of hands whose flowers lie against an end of the concealed tiles' row, touching it, as on
real tables: on rf-chinese's photos the reading evidence is fitted on, 97 of 154 flowers touch
the row's tiles (60 at its left end, 31 at its right, 6 among them), 91 of them at a group's end
in 51 groups; the others lie apart, in a row above or beyond the row's right end."""
FLOWERS_AT_THE_LEFT = 0.6
"""Of flowers against the row, the share at its left end (on those photos 32 hands of 51)."""


def _half_width(p: _Placed) -> float:
    """Half the tile's footprint along the row."""
    return (TILE_H if p.sideways else TILE_W) / 2


def _front(p: _Placed) -> float:
    """The y of the tile's front edge (``_lay_row``'s ``y_front``)."""
    return p.y - (TILE_W if p.sideways else TILE_H) / 2


def _lay_flowers(rng: np.random.Generator, flowers: list[tuple[int, SceneGroup]], placed: list[_Placed],
                 main: set[int]) -> list[_Placed]:
    """The flowers: against one end of the concealed tiles' row (``FLOWERS_AGAINST_THE_ROW``), or
    apart, in a row above the hand or beyond its row's right end."""
    place = rng.random()
    if place < FLOWERS_AGAINST_THE_ROW:
        row_front = min(_front(p) for p in placed if p.group in main)
        row = [p for p in placed if abs(_front(p) - row_front) < 1.0]
        gap = rng.uniform(0.1, 0.8)
        if rng.random() < FLOWERS_AT_THE_LEFT:
            laid, _ = _lay_row(rng, flowers, row_front, 0.0)
            shift = min(p.x - _half_width(p) for p in row) - gap - max(p.x + _half_width(p) for p in laid)
            return [replace(p, x=p.x + shift) for p in laid]
        laid, _ = _lay_row(rng, flowers, row_front, max(p.x + _half_width(p) for p in row) + gap)
        return laid
    if place < FLOWERS_AGAINST_THE_ROW + (1 - FLOWERS_AGAINST_THE_ROW) / 2:
        top = max(2 * p.y - _front(p) for p in placed)  # the hand's back edge
        laid, _ = _lay_row(rng, flowers, top + rng.uniform(8, 25), rng.uniform(0, 4 * TILE_W))
        return laid
    right = max(p.x + _half_width(p) for p in placed)
    laid, _ = _lay_row(rng, flowers, 0.0, right + rng.uniform(12, 30))
    return laid


STANDING_TURN = 0.6
"""A standing hand's row is turned on the table by up to this much (radians) either way: seen from
a seat at the table's corner, one end of the row is nearer the camera than the other."""


def waiting_groups(groups: list[SceneGroup]) -> list[SceneGroup]:
    """The groups of a hand mid-game: all but the winning tile (a waiting hand)."""
    return [g for g in groups if g.kind != "win"]


def _standing_layout(rng: np.random.Generator, groups: list[SceneGroup]) -> list[_Placed]:
    """A hand mid-game as its player keeps it: the concealed tiles standing on edge in a row at the
    table's edge, faces to the player, and the melds, concealed kongs and flowers lying face up on
    the row's line, to its right or (a third of the time) its left. Laid a few centimetres beyond
    the row, as some players lay them, they would hide behind the standing tiles from the seat
    (35 mm of tile hide 30-95 mm of table behind them at the seat's 40-70 degrees)."""
    indexed = list(enumerate(groups))
    lying = [g for g in indexed if g[1].kind not in ("concealed", "win")]
    placed: list[_Placed] = []
    x = 0.0
    for gi, group in indexed:
        if group.kind != "concealed":
            continue
        for code in group.codes:
            placed.append(_Placed(code, x + TILE_W / 2, TILE_T / 2, False, 1, gi, standing=True))
            x += TILE_W + rng.uniform(0.0, 0.5)
    if lying:
        gap = rng.uniform(10, 30)
        row, end = _lay_row(rng, lying, 0.0, x + gap)
        if rng.random() < 1 / 3:  # the same row moved to the standing row's left
            shift = end + gap
            row = [replace(p, x=p.x - shift) for p in row]
        placed += row
    return [replace(p, x=p.x + rng.normal(0, 0.3), y=p.y + rng.normal(0, 0.3)) for p in placed]


def _turned(placed: list[_Placed], angle: float) -> list[_Placed]:
    """Every tile turned by ``angle`` (radians, counter-clockwise) about the hand's middle."""
    hand = [p for p in placed if p.group != NOT_THE_HANDS]
    cx, cy = np.mean([p.x for p in hand]), np.mean([p.y for p in hand])
    c, s = np.cos(angle), np.sin(angle)
    return [replace(p, x=cx + (p.x - cx) * c - (p.y - cy) * s, y=cy + (p.x - cx) * s + (p.y - cy) * c,
                    angle=p.angle + angle) for p in placed]


def _clutter_around(rng: np.random.Generator, placed: list[_Placed], groups: list[SceneGroup],
                    opponents_rng: np.random.Generator | None = None) -> list[_Placed]:
    """The table's other tiles (``scene_clutter.lay_clutter``) around the laid-out hand, and where
    ``opponents_rng`` is given the other players' standing hands (``lay_opponents``) from its draws."""
    sizes = [_footprint(p) for p in placed]
    extent = HandExtent(
        left=min(p.x - w / 2 for p, (w, _) in zip(placed, sizes)),
        right=max(p.x + w / 2 for p, (w, _) in zip(placed, sizes)),
        near=min(p.y - h / 2 for p, (_, h) in zip(placed, sizes)),
        far=max(p.y + h / 2 for p, (_, h) in zip(placed, sizes)),
        tile_w=TILE_W, tile_h=TILE_H, tile_t=TILE_T,
    )
    used = Counter(code for group in groups for code in group.codes)
    tiles: list[ClutterTile] = lay_clutter(rng, extent, used)
    if opponents_rng is not None:
        tiles += lay_opponents(opponents_rng, extent, tiles)
    return [_Placed(t.code, t.x, t.y, False, 1, NOT_THE_HANDS, t.z, t.angle, t.standing) for t in tiles]


def _shows(p: _Placed, quad: np.ndarray, placed: list[_Placed], size: tuple[int, int]) -> bool:
    """Whether a clutter tile's face is in the photo: wholly inside it, and not a wall's lower
    tile under an upper one."""
    inside = bool((quad >= 0).all() and (quad[:, 0] < size[0]).all() and (quad[:, 1] < size[1]).all())
    covered = p.z == 0 and any(
        q.z > 0 and np.hypot(q.x - p.x, q.y - p.y) < TILE_W / 2 for q in placed if q.group == NOT_THE_HANDS
    )
    return inside and not covered


# --- camera and rendering ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Camera:
    rotation: np.ndarray  # world -> camera
    position: np.ndarray
    focal: float
    roll: float
    scale: float
    offset: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (points - self.position) @ self.rotation.T
        uv = self.focal * cam[:, :2] / cam[:, 2:3]
        c, s = np.cos(self.roll), np.sin(self.roll)
        uv = uv @ np.array([[c, s], [-s, c]])
        return uv * self.scale + self.offset

    def depth(self, point: np.ndarray) -> float:
        return float(((point - self.position) @ self.rotation.T)[2])


STANDING_TILT = (40.0, 70.0)
"""A standing hand is seen from the player's seat: the camera tilted this far from straight down
(degrees; a laid-down hand's is 0-45)."""


def _make_camera(
    rng: np.random.Generator, placed: list[_Placed], size: tuple[int, int], hand_low: bool = False
) -> _Camera:
    """A camera framing the ``placed`` tiles; ``hand_low`` puts them in the lower part of the
    photo, as a player photographs their hand with the table beyond it. A standing hand is seen
    from the seat (``STANDING_TILT``)."""
    xs = np.array([p.x for p in placed])
    ys = np.array([p.y for p in placed])
    centre = np.array([(xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2, 0.0])
    tilt = np.radians(rng.uniform(0, 45))
    if any(p.standing for p in placed):  # the same draw, taken to the seat's view
        low, high = STANDING_TILT
        tilt = np.radians(low) + tilt * (high - low) / 45
    distance = rng.uniform(350, 700)
    position = centre + distance * np.array([0.0, -np.sin(tilt), np.cos(tilt)])
    z_axis = np.array([0.0, np.sin(tilt), -np.cos(tilt)])
    y_axis = np.array([0.0, -np.cos(tilt), -np.sin(tilt)])
    x_axis = np.cross(y_axis, z_axis)
    rotation = np.stack([x_axis, y_axis, z_axis])
    roll = np.radians(rng.uniform(-25, 25))
    camera = _Camera(rotation, position, 1000.0, roll, 1.0, np.zeros(2))
    corners = []
    for p in placed:
        for dx in (-TILE_H / 2, TILE_H / 2):
            for dy in (-TILE_H / 2, TILE_H / 2):
                corners.append((p.x + dx, p.y + dy, _height(p)))
                corners.append((p.x + dx, p.y + dy, 0.0))
    uv = camera.project(np.array(corners))
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    width, height = size
    fill = rng.uniform(0.55, 0.95)
    scale = fill * min(width / (hi - lo)[0], height / (hi - lo)[1])
    free = np.array([width, height]) - (hi - lo) * scale
    share = rng.uniform(0.2, 0.8, 2)
    if hand_low:  # the same draw, moved down: the hand nearest the camera, the table above it
        share[1] = 0.5 + (share[1] - 0.2) * 0.75
    offset = -lo * scale + free * share
    return _Camera(rotation, position, 1000.0, roll, scale, offset)


def _footprint(p: _Placed) -> tuple[float, float]:
    """The tile's width and depth on the table, before its turn: a standing tile's depth is its
    thickness."""
    if p.standing:
        return TILE_W, TILE_T
    return (TILE_H, TILE_W) if p.sideways else (TILE_W, TILE_H)


def _box_corners(p: _Placed) -> np.ndarray:
    """8 corners: footprint (z) then top (z + height), each counter-clockwise from the tile's
    own front-left."""
    w, h = _footprint(p)
    xy = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    if p.angle:
        c, s = np.cos(p.angle), np.sin(p.angle)
        xy = xy @ np.array([[c, s], [-s, c]])
    xy = xy + [p.x, p.y]
    bottom = np.column_stack([xy, np.full(4, p.z)])
    top = np.column_stack([xy, np.full(4, p.z + _height(p))])
    return np.vstack([bottom, top])


def _height(p: _Placed) -> float:
    return TILE_H if p.standing else TILE_T


def _face_corners(p: _Placed, top: np.ndarray) -> np.ndarray:
    """The top face's corners in the face art's TL, TR, BR, BL order (top 4 of _box_corners)."""
    front_left, front_right, back_right, back_left = top
    if not p.sideways:
        return np.array([back_left, back_right, front_right, front_left])
    if p.rotation > 0:  # face top points left (-x)
        return np.array([front_left, back_left, back_right, front_right])
    return np.array([back_right, front_right, front_left, back_left])


def _paste(canvas: np.ndarray, art: np.ndarray, quad: np.ndarray, shade: float) -> None:
    """Warp BGR ``art`` onto ``quad`` of the float canvas, multiplied by ``shade``."""
    h, w = art.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    roi = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(art.astype(np.float32), matrix, roi, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, roi, flags=cv2.INTER_LINEAR)
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - mask[..., None]) + warped * shade * mask[..., None]


def _face_art(face: np.ndarray, ivory: np.ndarray, margin_share: float) -> np.ndarray:
    """The face art composited on the ivory body with a rounded margin and bevel shading."""
    h, w = face.shape[:2]
    margin = round(w * margin_share)
    out = np.empty((h + 2 * margin, w + 2 * margin, 3), np.float32)
    out[:] = ivory
    alpha = face[:, :, 3:4].astype(np.float32) / 255
    inner = out[margin : margin + h, margin : margin + w]
    inner[:] = inner * (1 - alpha) + face[:, :, :3].astype(np.float32) * (ivory / 235.0) * alpha
    # Bevel: the rim of the face is a little darker, as the rounded edge catches less light.
    hh, ww = out.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    edge = np.minimum.reduce([xx, yy, ww - 1 - xx, hh - 1 - yy])
    out *= (0.72 + 0.28 * np.clip(edge / max(2.0, ww * 0.05), 0, 1))[..., None]
    return out


def _paint_standing(canvas: np.ndarray, camera: _Camera, corners: np.ndarray, ivory: np.ndarray,
                    back_colour: np.ndarray, layer: float, light: np.ndarray, art: np.ndarray,
                    face_shade: float, from_behind: bool = False) -> tuple[np.ndarray, bool]:
    """Paint a tile standing on edge (``_box_corners``: its front, the face, is corners 0-1 and
    4-5) and return the quad of its big side the camera is meant to see, and whether it sees it.
    Each side that faces the camera is painted: the top and the two ends split front to back into
    the ivory face layer and the coloured back layer, the back all back colour, the front the face
    art, lit by how squarely it faces the light. ``from_behind``: the tile is another player's,
    seen from behind: ``art`` is its back's, its quad is the back's (TL, TR, BR, BL as the
    camera sees them), and its face is never painted."""
    bottom, top = corners[:4], corners[4:]
    centre = corners.mean(axis=0)
    # Where the ivory face layer meets the back layer on each of the four edges running front
    # to back: bottom left, bottom right, top left, top right.
    bl, br, tl, tr = (front + (rear - front) * layer for front, rear in
                      ((bottom[0], bottom[3]), (bottom[1], bottom[2]), (top[0], top[3]), (top[1], top[2])))
    sides = [  # (front part, rear part) of the top, the right end, the left end, the back
        ([top[0], top[1], tr, tl], [tl, tr, top[2], top[3]]),
        ([bottom[1], br, tr, top[1]], [br, bottom[2], top[2], tr]),
        ([bottom[0], bl, tl, top[0]], [bl, bottom[3], top[3], tl]),
        (None, [bottom[2], bottom[3], top[3], top[2]]),
    ]
    unit_light = light / np.linalg.norm(light)
    for front, rear in sides:
        middle = np.mean(rear if front is None else front + rear, axis=0)
        normal = middle - centre
        if normal @ (camera.position - middle) <= 0:
            continue
        shade = 0.45 + 0.45 * abs(normal @ unit_light) / np.linalg.norm(normal)
        for part, colour in ((front, ivory), (rear, back_colour)):
            if part is not None:
                cv2.fillConvexPoly(canvas, camera.project(np.array(part)).astype(np.int32),
                                   (colour * shade).tolist(), cv2.LINE_AA)
    if from_behind:
        middle = (bottom[2] + top[3]) / 2
        normal = middle - centre
        seen = bool(normal @ (camera.position - middle) > 0)
        back = camera.project(np.array([top[2], top[3], bottom[3], bottom[2]]))
        if seen:
            lit = 0.55 + 0.35 * abs(float(normal @ unit_light)) / np.linalg.norm(normal)
            _paste(canvas, art, back, face_shade * lit)
        return back, seen
    face = camera.project(np.array([top[0], top[1], bottom[1], bottom[0]]))
    normal = (bottom[0] + top[1]) / 2 - centre
    lit = 0.7 + 0.3 * max(0.0, float(normal @ unit_light) / np.linalg.norm(normal))
    _paste(canvas, art, face, face_shade * lit)
    return face, True


def _painting_order(camera: _Camera, placed: list[_Placed]) -> list[int]:
    """Tile indices farthest from the camera first, so a nearer tile is painted over a farther one.

    Depth along the view is the same for a whole row; painting a row in that order lets a tile
    right of the camera draw its side wall across its left neighbour's face, which no real
    tile can do. Distance from the camera orders the tiles of a row as well.
    """
    centres = np.array([[p.x, p.y, p.z + _height(p) / 2] for p in placed])
    distance = np.linalg.norm(centres - camera.position, axis=1)
    return [int(i) for i in np.argsort(-distance, kind="stable")]


BACK_SHOWN_SHARE = 0.5
"""Another player's standing tile counts as shown where at least this share of its back is not
hidden behind nearer tiles (a wall, a discard)."""


def _hidden_backs(camera: _Camera, placed: list[_Placed], size: tuple[int, int]) -> set[int]:
    """The other players' standing tiles (standing backs) whose back nearer tiles hide: each
    tile's outline is filled with its index, farthest first, as the tiles are painted."""
    backs = [i for i, p in enumerate(placed) if p.standing and p.code == "back"]
    if not backs:
        return set()
    owner = np.full((size[1], size[0]), -1.0, np.float32)
    for index in _painting_order(camera, placed):
        hull = cv2.convexHull(camera.project(_box_corners(placed[index])).astype(np.float32))
        cv2.fillConvexPoly(owner, hull.astype(np.int32), float(index))
    hidden = set()
    for index in backs:
        corners = _box_corners(placed[index])
        back = camera.project(np.array([corners[6], corners[7], corners[3], corners[2]]))
        mask = np.zeros(owner.shape, np.uint8)
        cv2.fillConvexPoly(mask, back.astype(np.int32), 1)
        area = int(mask.sum())
        if area == 0 or (owner[mask > 0] == index).sum() < BACK_SHOWN_SHARE * area:
            hidden.add(index)
    return hidden


def _render(
    rng: np.random.Generator,
    placed: list[_Placed],
    faces: dict[str, np.ndarray],
    size: tuple[int, int],
    table_kind: str,
    clutter_rng: np.random.Generator | None = None,
    props_rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, list[np.ndarray], set[int]]:
    """The photo, each tile's face quad, and the other players' standing tiles the truth leaves
    out (their back turned from the camera, or less than ``BACK_SHOWN_SHARE`` of it in view
    behind nearer tiles). The camera frames the hand's tiles; the
    table's other tiles (group NOT_THE_HANDS) take their draws from ``clutter_rng``, and the things
    on the table that are no tiles (``scene_props``) from ``props_rng``, so that a seed shows the
    same hand, camera and light with or without them."""
    width, height = size
    hand = [p for p in placed if p.group != NOT_THE_HANDS]
    camera = _make_camera(rng, hand, size, hand_low=clutter_rng is not None)
    canvas = table_texture(table_kind, rng, height, width).astype(np.float32)
    if props_rng is not None:
        paint_props(canvas, _props_for(props_rng, placed, camera, size), camera.project)
    ivory = np.float32([rng.uniform(200, 235), rng.uniform(225, 245), rng.uniform(232, 250)])
    back_colour = np.float32(tile_art.BACK_COLOURS[str(rng.choice(list(tile_art.BACK_COLOURS)))])
    back_art = tile_art.render_back(tuple(int(c) for c in back_colour))[:, :, :3].astype(np.float32)
    layer = rng.uniform(0.45, 0.6)  # share of the thickness that is the ivory face layer

    # Cast shadows on the table, from a light above and to one side.
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0])
    shadow = np.zeros((height, width), np.float32)
    for p in placed:
        corners = _box_corners(p)
        drop = corners[4:].copy()
        drop[:, :2] -= light[:2] / light[2] * (p.z + _height(p))
        drop[:, 2] = 0
        hull = cv2.convexHull(camera.project(np.vstack([corners[:4], drop])).astype(np.float32))
        cv2.fillConvexPoly(shadow, hull.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    blur = max(1.0, rng.uniform(0.004, 0.012) * width)
    shadow = cv2.GaussianBlur(shadow, (0, 0), blur)
    canvas *= (1 - rng.uniform(0.25, 0.5) * shadow)[..., None]

    # Each tile's random draws (face margin, face shade) are taken in depth order along the view,
    # the order tiles were once painted in, so that every seed keeps the scene it always had.
    draw_order = sorted(range(len(placed)), key=lambda i: -camera.depth(np.array([placed[i].x, placed[i].y, 0])))
    draws: dict[int, tuple[float, float]] = {}
    for index in draw_order:
        r = clutter_rng if placed[index].group == NOT_THE_HANDS and clutter_rng is not None else rng
        margin_share = 0.0 if placed[index].code == "back" else r.uniform(0.02, 0.08)
        draws[index] = (margin_share, r.uniform(0.95, 1.05))

    quads: dict[int, np.ndarray] = {}
    unseen: set[int] = set()
    for index in _painting_order(camera, placed):
        p = placed[index]
        margin_share, face_shade = draws[index]
        corners = _box_corners(p)
        image_pts = camera.project(corners)
        centre = corners.mean(axis=0)
        if p.standing and p.code == "back":  # another player's hand, seen from behind
            quads[index], seen = _paint_standing(canvas, camera, corners, ivory, back_colour, layer, light,
                                                 back_art, face_shade, from_behind=True)
            if not seen:
                unseen.add(index)
            continue
        if p.standing:
            quads[index], _ = _paint_standing(canvas, camera, corners, ivory, back_colour, layer, light,
                                              _face_art(faces[p.code], ivory, margin_share), face_shade)
            continue
        # Visible side walls, each split into the coloured back layer and the ivory face layer.
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
            mid = (corners[a] + corners[b]) / 2
            normal = np.array([mid[0] - centre[0], mid[1] - centre[1], 0.0])
            if normal @ (camera.position - mid) <= 0:
                continue
            shade = 0.45 + 0.3 * abs(normal[0] * light[0] + normal[1] * light[1]) / np.linalg.norm(normal)
            cut_a = corners[a] + (corners[a + 4] - corners[a]) * (1 - layer)
            cut_b = corners[b] + (corners[b + 4] - corners[b]) * (1 - layer)
            lower = camera.project(np.array([corners[a], corners[b], cut_b, cut_a]))
            upper = camera.project(np.array([cut_a, cut_b, corners[b + 4], corners[a + 4]]))
            down_colour, up_colour = (
                (ivory, back_colour) if p.code == "back" else (back_colour, ivory)
            )
            cv2.fillConvexPoly(canvas, lower.astype(np.int32), (down_colour * shade).tolist(), cv2.LINE_AA)
            cv2.fillConvexPoly(canvas, upper.astype(np.int32), (up_colour * shade).tolist(), cv2.LINE_AA)
        face_quad = _face_corners(p, image_pts[4:])
        art = back_art if p.code == "back" else _face_art(faces[p.code], ivory, margin_share)
        _paste(canvas, art, face_quad, face_shade)
        quads[index] = face_quad

    unseen |= _hidden_backs(camera, placed, size)

    # Illumination: a gradient, sometimes a soft shadow band, sometimes glare, colour cast, noise.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xx + np.sin(angle) * yy) / max(width, height)
    canvas *= (1 + rng.uniform(-0.25, 0.25) * (ramp - ramp.mean()))[..., None]
    if rng.random() < 0.4:
        band = np.zeros((height, width), np.float32)
        pts = rng.uniform(0, 1, (4, 2)) * [width, height]
        pts[:2, 0] = -width
        cv2.fillConvexPoly(band, cv2.convexHull(pts.astype(np.int32)), 1.0)
        band = cv2.GaussianBlur(band, (0, 0), width * 0.03)
        canvas *= (1 - rng.uniform(0.15, 0.4) * band)[..., None]
    if rng.random() < 0.5:
        gx, gy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        sigma = rng.uniform(0.03, 0.1) * width
        glare = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2)))
        canvas += (rng.uniform(30, 90) * glare)[..., None]
    canvas *= np.float32(rng.uniform(0.93, 1.07, 3))[None, None, :] * rng.uniform(0.7, 1.15)
    canvas += rng.normal(0, rng.uniform(1, 5), canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.0))
    return image, [quads[i] for i in range(len(placed))], unseen


def _props_for(rng: np.random.Generator, placed: list[_Placed], camera: _Camera,
               size: tuple[int, int]) -> list[Prop]:
    """Things on the table (``scene_props.lay_props``) clear of every tile, where the camera sees them."""
    footprints = [_box_corners(p)[:4, :2] for p in placed]
    corners = np.vstack([f for f, p in zip(footprints, placed) if p.group != NOT_THE_HANDS])
    extent = np.array([corners[:, 0].min(), corners[:, 0].max(), corners[:, 1].min(), corners[:, 1].max()])

    def in_view(point: np.ndarray) -> bool:
        u, v = camera.project(np.array([[point[0], point[1], 0.0]]))[0]
        return bool(0 <= u < size[0] and 0 <= v < size[1])

    return lay_props(rng, footprints, extent, in_view)


def generate_scene(
    seed: int,
    *,
    size: tuple[int, int] | None = None,
    style: str | None = None,
    groups: list[SceneGroup] | None = None,
    clutter: bool = False,
    standing: bool = False,
    riichi_win: bool = False,
    faces: dict[str, np.ndarray] | None = None,
    tables: tuple[str, ...] = TABLE_KINDS,
    props: bool = False,
    opponents: bool = False,
) -> Scene:
    """The scene for ``seed``: a rendered hand (default 1600x1200 or 1200x1600) and its truth.

    ``groups`` lays out a given hand (in ``random_groups``' form) instead of a random one.
    ``clutter`` lays the rest of a table around it (``scene_clutter``: walls, discards, other
    players' melds) and frames the hand low in the photo: the same hand, camera and light as
    without, on a busier table. The truth's ``tiles`` then hold the clutter's tiles that show
    (group ``NOT_THE_HANDS``; not a wall's lower tiles, whose faces the upper ones cover, nor
    tiles the photo's edge cuts), and ``hand`` is still the hand alone.
    ``standing`` shows the hand mid-game instead (``_standing_layout``): waiting, without its
    winning tile, the concealed tiles standing on edge with their faces to the player, the rest
    lying face up, the row turned on the table by up to ``STANDING_TURN`` and seen from the seat;
    ``hand`` is then the waiting hand (``win_tile`` None).
    ``riichi_win`` shows the winning tile the riichi way: turned sideways against the right end
    of the concealed row, not set apart (the same hand and scene otherwise).
    ``faces`` (tile code -> BGRA face of ``tile_art.FACE_SIZE``, e.g. ``real_faces.draw_faces``:
    crops of real tiles) paints the tiles instead of an art style; the scene's ``style`` is then
    ``"given"``.
    ``tables`` are the table kinds the seed draws from (``textures``; the default, ``TABLE_KINDS``,
    keeps every seed's scene as it was; ``BUSY_TABLE_KINDS`` adds mats and photographed tops).
    ``props`` lays things that are no tiles on the table around them (``scene_props``: a rack,
    dice, coins, a phone, fingers), from draws of their own.
    ``opponents`` (with ``clutter``) also stands the other players' hands on the table, across it
    and at its sides (``scene_clutter.lay_opponents``, from draws of their own): the camera sees
    their backs, which the truth holds as ``back`` tiles (``standing``) where they show.
    """
    if opponents and not clutter:
        raise ValueError("the other players' hands stand among the table's clutter: pass clutter=True too")
    rng = np.random.default_rng(seed)
    styles = [s for s in SCENE_STYLES if s in tile_art.available_styles()]
    if faces is None and not style and not styles:
        raise FanscanError(
            "style_unavailable",
            "no tile art to render scenes with: install Debian's xmahjongg or gnome-mahjongg "
            "(see README, Optional Debian packages)",
        )
    # The style is drawn even when ``faces`` replace it, so a seed lays out the same scene.
    drawn = style or (str(rng.choice(styles)) if styles else None)
    style = drawn if faces is None else "given"
    faces = faces if faces is not None else tile_art.load_faces(style)
    random_hand = random_groups(rng)
    groups = groups if groups is not None else random_hand
    if riichi_win:
        groups = [replace(g, sideways=0) if g.kind == "win" else g for g in groups]
    if standing:
        groups = waiting_groups(groups)
        placed = _standing_layout(rng, groups)
    else:
        placed = _layout(rng, groups)
    if size is None:
        size = (1600, 1200) if rng.random() < 0.85 else (1200, 1600)
    unknown = set(tables) - set(BUSY_TABLE_KINDS)
    if not tables or unknown:
        raise ValueError(f"unknown table kinds {sorted(unknown)}; expected some of {', '.join(BUSY_TABLE_KINDS)}")
    table = str(rng.choice(tables))
    clutter_rng = np.random.default_rng([seed, 1]) if clutter else None
    props_rng = np.random.default_rng([seed, 4]) if props else None
    if clutter_rng is not None:
        opponents_rng = np.random.default_rng([seed, 5]) if opponents else None
        placed += _clutter_around(clutter_rng, placed, groups, opponents_rng)
    if standing:
        turn_rng = np.random.default_rng([seed, 2])
        placed = _turned(placed, turn_rng.uniform(-STANDING_TURN, STANDING_TURN))
    image, quads, backs_unseen = _render(rng, placed, faces, size, table, clutter_rng, props_rng)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    shown = [p.group != NOT_THE_HANDS or (i not in backs_unseen and _shows(p, q, placed, size))
             for i, (p, q) in enumerate(zip(placed, quads))]
    tiles = tuple(SceneTile(p.code, q.astype(np.float32), p.group, p.sideways, p.standing)
                  for p, q, show in zip(placed, quads, shown) if show)
    unseen = tuple(q.astype(np.float32) for q, show in zip(quads, shown) if not show)
    return Scene(decoded, encoded.tobytes(), hand_of(groups), tiles, tuple(groups), style, table, unseen)
