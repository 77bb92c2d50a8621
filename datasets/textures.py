"""Procedural table textures for synthetic scenes: felt, wood, white, cloth, dark and stone tops.

Each texture is a BGR uint8 image drawn from a ``numpy.random.Generator``, so a scene's seed fixes
its table. Textures are smooth noise plus structure (grain, weave), never photographs.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

TABLE_KINDS: tuple[str, ...] = ("felt", "wood", "white", "cloth", "dark", "stone")


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


_MAKERS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "felt": _felt,
    "wood": _wood,
    "white": _white,
    "cloth": _cloth,
    "dark": _dark,
    "stone": _stone,
}


def table_texture(kind: str, rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A ``height`` x ``width`` BGR uint8 table top of ``kind`` (one of TABLE_KINDS)."""
    if kind not in _MAKERS:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {', '.join(TABLE_KINDS)}")
    return np.clip(_MAKERS[kind](rng, height, width), 0, 255).astype(np.uint8)
