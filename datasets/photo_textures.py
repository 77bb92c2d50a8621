"""Photographed surfaces for generated tables, from Debian packages where they are installed.

A procedural felt or wood grain is regular in ways a real table is not; the finder trained only on
them takes a real mat's pattern or a cloth's print for tiles. Two Debian packages hold pictures
nobody drew for this project:

- ``gimp-data``: GIMP's patterns (``/usr/share/gimp/2.0/patterns/*/*.pat``: wood, stone,
  marble, burlap, leather, paper, prints of squares and cubes), small seamless tiles that are
  repeated over the table at a random scale and turn;
- ``plasma-workspace-wallpapers``: KDE Plasma's wallpapers (``/usr/share/wallpapers``), large
  pictures of which a random part is taken, as a printed tablecloth or a photo's background.

``photo_surface(rng, h, w)`` draws one, or None when neither package is installed (the caller
falls back to a procedural table). The pictures are read from disk, never kept in the project.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

import cv2
import numpy as np

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")
PLASMA_WALLPAPERS = Path("/usr/share/wallpapers")
WALLPAPER_SHARE = 0.3
"""Of the photographed surfaces, this share are wallpapers when both packages are installed (the
patterns look more like tables)."""
_PAT_MAGIC = b"GPAT"


def read_gimp_pattern(path: str | Path) -> np.ndarray:
    """A GIMP pattern file (.pat: a big-endian header of its size, version, width, height and
    bytes per pixel, ``GPAT``, a name, then the pixels) as a BGR uint8 image. ValueError for a
    file that is no such pattern."""
    data = Path(path).read_bytes()
    if len(data) < 24 or data[20:24] != _PAT_MAGIC:
        raise ValueError(f"{path}: not a GIMP pattern")
    header, version, width, height, depth = struct.unpack(">5I", data[:20])
    if version != 1 or depth not in (1, 2, 3, 4) or not (0 < width <= 4096 and 0 < height <= 4096):
        raise ValueError(f"{path}: unsupported GIMP pattern (version {version}, {depth} bytes a pixel)")
    pixels = data[header : header + width * height * depth]
    if len(pixels) != width * height * depth:
        raise ValueError(f"{path}: truncated GIMP pattern")
    image = np.frombuffer(pixels, np.uint8).reshape(height, width, depth)
    if depth <= 2:  # grey, perhaps with alpha
        return cv2.cvtColor(np.ascontiguousarray(image[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(image[:, :, :3]), cv2.COLOR_RGB2BGR)


@functools.cache
def gimp_patterns(folder: Path = GIMP_PATTERNS) -> tuple[Path, ...]:
    """The GIMP pattern files installed, sorted (empty without ``gimp-data``)."""
    return tuple(sorted(folder.glob("*/*.pat"))) if folder.is_dir() else ()


@functools.cache
def plasma_wallpapers(folder: Path = PLASMA_WALLPAPERS) -> tuple[Path, ...]:
    """One picture of each Plasma wallpaper installed (its largest), sorted (empty without
    ``plasma-workspace-wallpapers``)."""
    if not folder.is_dir():
        return ()
    chosen = []
    for theme in sorted(p for p in folder.iterdir() if p.is_dir()):
        pictures = sorted((theme / "contents" / "images").glob("*.[jp][pn]g"))
        if pictures:
            chosen.append(max(pictures, key=lambda p: p.stat().st_size))
    return tuple(chosen)


@functools.lru_cache(maxsize=8)
def _wallpaper(path: Path, long_side: int = 1600) -> np.ndarray | None:
    """A wallpaper shrunk to at most ``long_side`` (they are up to 5120 px), or None if unreadable."""
    image = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_2)
    if image is None:
        return None
    scale = long_side / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image


def tiled(pattern: np.ndarray, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """``pattern`` repeated over an ``h`` x ``w`` picture, enlarged 1-6 times (relative to a
    1600-px photo) and turned at random; float32 BGR."""
    scale = float(np.exp(rng.uniform(0.0, np.log(6.0)))) * max(h, w) / 1600
    tile = cv2.resize(pattern, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    diagonal = int(np.ceil(np.hypot(h, w))) + 2
    reps = (diagonal // tile.shape[0] + 2, diagonal // tile.shape[1] + 2, 1)
    sheet = np.tile(tile, reps)
    turn = cv2.getRotationMatrix2D((sheet.shape[1] / 2, sheet.shape[0] / 2), float(rng.uniform(0, 360)), 1.0)
    turn[:, 2] -= [(sheet.shape[1] - w) / 2, (sheet.shape[0] - h) / 2]
    return cv2.warpAffine(sheet, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT).astype(np.float32)


def cropped(picture: np.ndarray, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A random part of ``picture`` (at least a third of its shorter side) scaled to ``h`` x ``w``;
    float32 BGR."""
    ph, pw = picture.shape[:2]
    aspect = w / h
    high = int(rng.uniform(0.33, 1.0) * min(ph, pw / aspect))
    wide = max(1, min(pw, int(high * aspect)))
    y0 = int(rng.integers(0, ph - high + 1))
    x0 = int(rng.integers(0, pw - wide + 1))
    part = picture[y0 : y0 + high, x0 : x0 + wide]
    return cv2.resize(part, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def photo_surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray | None:
    """A photographed table top of ``h`` x ``w`` (float32 BGR, colours and brightness varied), or
    None when no photographed surface is installed."""
    patterns, wallpapers = gimp_patterns(), plasma_wallpapers()
    if not patterns and not wallpapers:
        return None
    use_wallpaper = bool(wallpapers) and (not patterns or rng.random() < WALLPAPER_SHARE)
    if use_wallpaper:
        picture = _wallpaper(wallpapers[int(rng.integers(len(wallpapers)))])
        if picture is None:
            return None
        out = cropped(picture, rng, h, w)
    else:
        out = tiled(read_gimp_pattern(patterns[int(rng.integers(len(patterns)))]), rng, h, w)
    # Shown under another light, and sometimes dimmed or washed out, as a table would be.
    return out * np.float32(rng.uniform(0.85, 1.15, 3)) * np.float32(rng.uniform(0.6, 1.1))
