"""Table textures for synthetic scenes: felt, wood, white, cloth, dark and stone tops, mats, photos.

Each texture is a BGR uint8 image drawn from a ``numpy.random.Generator``, so a scene's seed fixes
its table. ``TABLE_KINDS`` are smooth noise plus structure (grain, weave); the scenes of every seed
drawn before are laid on them. ``MAT_KINDS`` are the mats players put on a bare table: a dark rubber
mat studded with small nubs in a grid (a pattern of dots a finder may take for tiles' pips) and
foam puzzle mats of coloured squares with toothed seams. ``AUTOMATIC_KIND`` is an automatic table's
top: a fine, bright felt cut by the seams of the platforms the walls rise on, with the raised
console in the middle (dice under a clear dome, the seats' lit displays). ``PHOTO_KIND`` is a
photographed surface (``photo_textures``: Debian's GIMP patterns and Plasma wallpapers, where
installed; a procedural kind where not). ``BUSY_TABLE_KINDS`` holds them all.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from fanscan.datasets.photo_textures import photo_surface

TABLE_KINDS: tuple[str, ...] = ("felt", "wood", "white", "cloth", "dark", "stone")
MAT_KINDS: tuple[str, ...] = ("rubber", "puzzle")
AUTOMATIC_KIND = "automatic"
PHOTO_KIND = "photo"
BUSY_TABLE_KINDS: tuple[str, ...] = TABLE_KINDS + MAT_KINDS + (AUTOMATIC_KIND, PHOTO_KIND)
"""Since session 31 with the automatic table: a busy seed may lie on another table than it did in
session 30 (the busy benchmarks, no-tile crops and finder caches of session 30 are of the nine
kinds before it)."""


def _noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about ``cell`` pixels across."""
    small = rng.uniform(-1.0, 1.0, (max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> np.ndarray:
    return np.clip(np.float32(base) + rng.integers(-spread, spread + 1, 3), 0, 255).astype(np.float32)


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, [(60, 120, 30), (110, 70, 20), (40, 40, 130), (90, 90, 40)][rng.integers(4)], 25)
    shade = 1.0 + 0.08 * _noise(rng, h, w, 60) + 0.06 * rng.standard_normal((h, w)).astype(np.float32)
    return base[None, None, :] * shade[:, :, None]


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    light = _colour(rng, (90, 150, 200), 30)
    dark = light * rng.uniform(0.72, 0.88)
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    along = xx * np.cos(angle) + yy * np.sin(angle)
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = 25.0 * _noise(rng, h, w, 150)
    grain = 0.5 + 0.5 * np.sin((across + warp) / rng.uniform(2.0, 6.0) + 0.002 * along)
    grain = grain ** rng.uniform(1.0, 3.0)
    mix = grain[:, :, None]
    out = light[None, None, :] * (1 - mix) + dark[None, None, :] * mix
    return out * (1.0 + 0.04 * rng.standard_normal((h, w, 1)).astype(np.float32))


def _white(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, (215, 218, 222), 20)
    shade = 1.0 + 0.03 * _noise(rng, h, w, 80) + 0.015 * rng.standard_normal((h, w)).astype(np.float32)
    return base[None, None, :] * shade[:, :, None]


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    a = _colour(rng, tuple(int(v) for v in rng.integers(40, 220, 3)), 0)
    b = a * rng.uniform(0.6, 0.9)
    period = int(rng.integers(6, 30))
    yy, xx = np.mgrid[0:h, 0:w]
    check = (((xx // period) + (yy // period)) % 2).astype(np.float32)
    weave = 0.5 + 0.5 * np.sin(xx * 2.1) * np.sin(yy * 2.1)
    mix = (0.7 * check + 0.3 * weave)[:, :, None]
    return a[None, None, :] * (1 - mix) + b[None, None, :] * mix


def _dark(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, (45, 40, 40), 20)
    shade = 1.0 + 0.1 * _noise(rng, h, w, 40) + 0.05 * rng.standard_normal((h, w)).astype(np.float32)
    return base[None, None, :] * shade[:, :, None]


def _stone(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, (150, 150, 150), 50)
    veins = np.abs(_noise(rng, h, w, 90) + 0.5 * _noise(rng, h, w, 30))
    mix = np.clip(1.0 - veins * 4.0, 0, 1)[:, :, None] * 0.35
    return base[None, None, :] * (1 - mix) + 0.5 * base[None, None, :] * mix


def _rubber(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A dark rubber mat: a grid of round nubs, each lit on one side and shaded on the other."""
    base = _colour(rng, [(35, 35, 35), (30, 60, 30), (60, 35, 25), (25, 25, 60)][rng.integers(4)], 12)
    pitch = float(rng.uniform(0.008, 0.03)) * max(h, w)
    radius = pitch * rng.uniform(0.2, 0.35)
    angle = rng.uniform(0, np.pi / 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xx * np.cos(angle) + yy * np.sin(angle)) / pitch
    v = (-xx * np.sin(angle) + yy * np.cos(angle)) / pitch
    if rng.random() < 0.5:  # rows offset by half a pitch
        u = u + 0.5 * (np.round(v) % 2)
    du, dv = (u - np.round(u)) * pitch, (v - np.round(v)) * pitch
    distance = np.sqrt(du**2 + dv**2)
    nub = np.clip(1.0 - distance / radius, 0, 1)
    light = rng.uniform(0, 2 * np.pi)
    slope = (du * np.cos(light) + dv * np.sin(light)) / radius
    lit = np.sqrt(nub) * np.clip(0.7 - 0.6 * slope, 0, None)  # the nub's side towards the light shines
    shade = 1.0 + rng.uniform(0.8, 2.5) * lit + 0.04 * _noise(rng, h, w, 50)
    return base[None, None, :] * shade[:, :, None] + rng.uniform(2, 6) * rng.standard_normal((h, w, 1)).astype(np.float32)


_FOAM_COLOURS = ((60, 60, 200), (60, 170, 60), (200, 120, 40), (40, 200, 230), (150, 150, 150), (40, 40, 40),
                 (180, 180, 190), (120, 60, 160))


def _puzzle(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Foam puzzle mats: squares of two to four colours meeting in toothed seams, a fine
    dimpled surface."""
    side = int(rng.uniform(0.15, 0.5) * max(h, w))
    count = int(rng.integers(2, 5))
    palette = [np.float32(_FOAM_COLOURS[i]) for i in rng.choice(len(_FOAM_COLOURS), count, replace=False)]
    tooth = max(4, int(side * rng.uniform(0.08, 0.16)))
    yy, xx = np.mgrid[0:h, 0:w]
    shift = rng.integers(0, side, 2)
    gx, gy = (xx + shift[0]) // side, (yy + shift[1]) // side
    fx, fy = (xx + shift[0]) % side, (yy + shift[1]) % side
    # A tooth of the neighbour reaches over each seam, every other tooth from either side.
    cx = np.where(((fy // tooth) % 2 == 0) & (fx < tooth), gx - 1, gx)
    cx = np.where(((fy // tooth) % 2 == 1) & (fx >= side - tooth), gx + 1, cx)
    cy = np.where(((fx // tooth) % 2 == 0) & (fy < tooth), gy - 1, gy)
    cy = np.where(((fx // tooth) % 2 == 1) & (fy >= side - tooth), gy + 1, cy)
    which = (cx + cy * 3) % count
    out = np.zeros((h, w, 3), np.float32)
    for i, colour in enumerate(palette):
        out[which == i] = colour
    seam = np.zeros((h, w), np.uint8)
    seam[1:, :] |= (which[1:, :] != which[:-1, :]).astype(np.uint8)
    seam[:, 1:] |= (which[:, 1:] != which[:, :-1]).astype(np.uint8)
    seam = cv2.GaussianBlur(seam.astype(np.float32), (0, 0), 1.0)
    dimples = 1.0 + 0.05 * rng.standard_normal((h, w)).astype(np.float32) + 0.05 * _noise(rng, h, w, 8)
    return out * (dimples * (1 - 0.5 * np.clip(seam * 2, 0, 1)))[:, :, None]


_AUTOMATIC_FELTS = ((40, 140, 40), (50, 120, 20), (160, 100, 20), (140, 110, 60), (110, 110, 110), (60, 60, 150))


def _console(rng: np.random.Generator, canvas: np.ndarray, centre: np.ndarray, side: float, angle: float) -> None:
    """The raised console in an automatic table's middle, drawn on ``canvas`` in place: a rounded
    square of dark or silver plastic, a clear dome over the dice, and a small lit display facing
    each seat."""
    c, s = np.cos(angle), np.sin(angle)
    turn = np.array([[c, s], [-s, c]])
    plastic = _colour(rng, [(30, 30, 30), (170, 170, 175), (40, 40, 50)][rng.integers(3)], 10)
    r = side * 0.15
    corners = []
    for sx, sy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        arc_centre = np.array([sx * (side / 2 - r), sy * (side / 2 - r)])
        for a in np.radians(np.linspace(start, start + 90, 6)):
            corners.append(arc_centre + r * np.array([np.cos(a), np.sin(a)]))
    outline = (np.array(corners) @ turn + centre).astype(np.int32)
    cv2.fillPoly(canvas, [outline], (plastic * 0.6).tolist(), cv2.LINE_AA)  # the rim's shadow
    cv2.fillPoly(canvas, [((np.array(corners) * 0.94) @ turn + centre).astype(np.int32)], plastic.tolist(), cv2.LINE_AA)
    dome = side * rng.uniform(0.16, 0.24)
    cv2.circle(canvas, tuple(int(v) for v in centre), int(dome), (plastic * 0.5 + 60).tolist(), -1, cv2.LINE_AA)
    for _ in range(2):  # the dice under the dome
        at = centre + rng.uniform(-0.4, 0.4, 2) * dome
        die = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * dome * 0.18 @ turn + at
        cv2.fillConvexPoly(canvas, die.astype(np.int32), (225, 225, 230), cv2.LINE_AA)
    glint = centre + np.array([-0.35, -0.35]) * dome
    cv2.circle(canvas, tuple(int(v) for v in glint), max(1, int(dome * 0.15)), (250, 250, 250), -1, cv2.LINE_AA)
    lit = np.float32([(30, 30, 230), (40, 200, 240), (60, 220, 60)][rng.integers(3)])
    for k in range(4):  # one display facing each seat
        a = angle + k * np.pi / 2
        at = centre + np.array([np.cos(a), np.sin(a)]) * side * 0.36
        half = np.array([[-0.09, -0.035], [0.09, -0.035], [0.09, 0.035], [-0.09, 0.035]]) * side
        ca, sa = np.cos(a + np.pi / 2), np.sin(a + np.pi / 2)
        cv2.fillConvexPoly(canvas, (half @ np.array([[ca, sa], [-sa, ca]]) + at).astype(np.int32),
                           lit.tolist(), cv2.LINE_AA)


def _automatic(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """An automatic table's top: fine bright felt with a sheen, the seams around the four wall
    platforms (a square frame of dark lines), and the console in the middle (``_console``)."""
    base = _colour(rng, _AUTOMATIC_FELTS[rng.integers(len(_AUTOMATIC_FELTS))], 15)
    sheen = 1.0 + 0.1 * _noise(rng, h, w, max(h, w) // 2) + 0.03 * rng.standard_normal((h, w)).astype(np.float32)
    out = np.ascontiguousarray(base[None, None, :] * sheen[:, :, None])
    scale = max(h, w)
    centre = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(-0.2, 0.5) * h])
    angle = rng.normal(0, np.radians(8))
    c, s = np.cos(angle), np.sin(angle)
    turn = np.array([[c, s], [-s, c]])
    inner = rng.uniform(0.35, 0.6) * scale  # the platforms lie between the console and the table's edge
    seam = (base * 0.45).tolist()
    width = max(1, int(scale * rng.uniform(0.002, 0.005)))
    for half in (inner / 2, inner / 2 + rng.uniform(0.12, 0.2) * scale):
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ turn + centre
        cv2.polylines(out, [square.astype(np.int32)], True, seam, width, cv2.LINE_AA)
    _console(rng, out, centre, inner * rng.uniform(0.45, 0.7), angle)
    return out


def _photo(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    surface = photo_surface(rng, h, w)
    if surface is None:  # no photographed surfaces installed: a procedural table instead
        return _MAKERS[TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]](rng, h, w)
    return surface


_MAKERS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "felt": _felt,
    "wood": _wood,
    "white": _white,
    "cloth": _cloth,
    "dark": _dark,
    "stone": _stone,
    "rubber": _rubber,
    "puzzle": _puzzle,
    AUTOMATIC_KIND: _automatic,
    PHOTO_KIND: _photo,
}


def table_texture(kind: str, rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A ``height`` x ``width`` BGR uint8 table top of ``kind`` (one of BUSY_TABLE_KINDS)."""
    if kind not in _MAKERS:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {', '.join(BUSY_TABLE_KINDS)}")
    return np.clip(_MAKERS[kind](rng, height, width), 0, 255).astype(np.uint8)
