"""Photos that show no mahjong tile, for fitting and testing the reader's "are these tiles?" check.

The tile finder learnt tiles on tables; what it has never been shown is everything else a user may
photograph or upload: floor and wall tiles, a keyboard, a page of text, pixel art, a chessboard, an
empty table. ``no_tile_photo(seed)`` draws one such picture (``KINDS``), seen at a slant, under a
light's cast, a little blurred and JPEG-compressed like a phone photo; the seed fixes all of it.
``debian_pictures()`` lists the photographs and patterns of Debian packages (``gnome-backgrounds``,
``gimp-data``) where they are installed: pictures nobody drew for this check, kept for testing it.
``noise_photo(seed)`` is what a fuzzer or a careless upload sends: pixels of noise, blurred or not.
``wallpapers()`` lists the pictures of Debian's ``plasma-workspace-wallpapers`` (photographs and
paintings, one file each), split in two by name (``wallpaper_half``): one half to fit on, seen
whole and cropped (``picture_views``), the other kept for testing.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from fanscan.datasets.photo_effects import random_cast, random_motion_blur
from fanscan.datasets.textures import TABLE_KINDS, table_texture

KINDS: tuple[str, ...] = ("table", "floor_tiles", "bricks", "keyboard", "text", "mosaic", "checker",
                          "grid", "shapes", "dominoes")
DEBIAN_PICTURE_FOLDERS = (Path("/usr/share/backgrounds"), Path("/usr/share/gimp/2.0/scripts/images"),
                          Path("/usr/share/gimp/2.0/images"))
_PICTURE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp"}
WALLPAPER_FOLDER = Path("/usr/share/wallpapers")


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(0, 256, 3))


def _light(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(170, 256, 3))


def _table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    return table_texture(str(rng.choice(TABLE_KINDS)), rng, h, w)


def _cells(h: int, w: int, cell_w: int, cell_h: int, gap: int, stagger: bool, paint: Callable[[np.ndarray, int, int, int, int], None],
           background: tuple[int, int, int]) -> np.ndarray:
    """Rows of ``cell_w`` x ``cell_h`` cells ``gap`` apart (every other row shifted half a cell
    when ``stagger``), each drawn by ``paint(image, x0, y0, x1, y1)``."""
    image = np.full((h, w, 3), background, np.uint8)
    for row, y in enumerate(range(-cell_h, h + cell_h, cell_h + gap)):
        shift = (cell_w + gap) // 2 if stagger and row % 2 else 0
        for x in range(-cell_w - shift, w + cell_w, cell_w + gap):
            paint(image, x + shift, y, x + shift + cell_w, y + cell_h)
    return image


def _floor_tiles(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    side = int(rng.integers(40, 220))
    colour = np.array(_light(rng) if rng.random() < 0.7 else _colour(rng))

    def paint(image: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> None:
        shade = np.clip(colour + rng.integers(-12, 13, 3), 0, 255)
        cv2.rectangle(image, (x0, y0), (x1, y1), tuple(int(c) for c in shade), -1)

    tall = side if rng.random() < 0.6 else int(side * rng.uniform(0.4, 1.6))
    return _cells(h, w, side, tall, int(rng.integers(2, 10)), bool(rng.random() < 0.3), paint,
                  tuple(int(c) for c in rng.integers(60, 200, 3)))


def _bricks(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    width = int(rng.integers(60, 200))
    base = np.array([(60, 70, 150), (90, 110, 170), (150, 150, 150), (70, 90, 120)][rng.integers(4)])

    def paint(image: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> None:
        shade = np.clip(base + rng.integers(-25, 26, 3), 0, 255)
        cv2.rectangle(image, (x0, y0), (x1, y1), tuple(int(c) for c in shade), -1)

    return _cells(h, w, width, int(width * rng.uniform(0.3, 0.5)), int(rng.integers(4, 14)), True,
                  paint, (190, 195, 200))


def _glyph(rng: np.random.Generator) -> str:
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[int(rng.integers(36))]


def _keyboard(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    side = int(rng.integers(50, 160))
    key = _light(rng) if rng.random() < 0.6 else tuple(int(c) for c in rng.integers(20, 70, 3))
    ink = (30, 30, 30) if sum(key) > 300 else (230, 230, 230)

    def paint(image: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> None:
        cv2.rectangle(image, (x0, y0), (x1, y1), key, -1)
        cv2.rectangle(image, (x0, y0), (x1, y1), tuple(max(0, c - 40) for c in key), 2)
        scale = (x1 - x0) / 60
        cv2.putText(image, _glyph(rng), (x0 + (x1 - x0) // 4, y0 + 2 * (y1 - y0) // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(scale * 2)), cv2.LINE_AA)

    return _cells(h, w, side, int(side * rng.uniform(0.9, 1.1)), int(side * 0.15),
                  bool(rng.random() < 0.5), paint, tuple(int(c) for c in rng.integers(10, 80, 3)))


def _text(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    image = np.full((h, w, 3), _light(rng), np.uint8)
    size = float(rng.uniform(0.6, 2.5))
    step = int(40 * size)
    fonts = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX)
    font = fonts[int(rng.integers(len(fonts)))]
    for y in range(step, h, step):
        words = " ".join("".join(_glyph(rng).lower() for _ in range(int(rng.integers(2, 9))))
                         for _ in range(w // (20 * step // 10) + 1))
        cv2.putText(image, words, (int(rng.integers(0, step)), y), font, size, (20, 20, 20),
                    max(1, int(size * 2)), cv2.LINE_AA)
    return image


def _mosaic(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    cells = (int(rng.integers(6, 60)), int(rng.integers(6, 60)))
    small = rng.integers(0, 256, (cells[0], cells[1], 3), dtype=np.uint8)
    if rng.random() < 0.5:  # a few colours, as pixel art has
        palette = rng.integers(0, 256, (int(rng.integers(2, 6)), 3), dtype=np.uint8)
        small = palette[rng.integers(0, len(palette), cells)]
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)


def _checker(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    side = int(rng.integers(30, 250))
    ys, xs = np.mgrid[0:h, 0:w]
    light = ((ys // side + xs // side) % 2).astype(bool)
    image = np.empty((h, w, 3), np.uint8)
    image[light], image[~light] = _light(rng), tuple(int(c) for c in rng.integers(0, 120, 3))
    return image


def _grid(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    image = np.full((h, w, 3), _colour(rng), np.uint8)
    side = int(rng.integers(30, 200))
    line = _colour(rng)
    thickness = int(rng.integers(1, 12))
    for x in range(0, w, side):
        cv2.line(image, (x, 0), (x, h), line, thickness)
    for y in range(0, h, int(side * rng.uniform(0.6, 1.4))):
        cv2.line(image, (0, y), (w, y), line, thickness)
    return image


def _shapes(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    image = _table(rng, h, w)
    for _ in range(int(rng.integers(5, 60))):
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        size = int(rng.integers(20, max(21, min(h, w) // 4)))
        if rng.random() < 0.5:
            cv2.ellipse(image, centre, (size, int(size * rng.uniform(0.3, 1))), float(rng.uniform(0, 180)),
                        0, 360, _colour(rng), -1, cv2.LINE_AA)
        else:
            points = rng.normal(0, size, (int(rng.integers(3, 7)), 2)) + np.array(centre)
            cv2.fillPoly(image, [points.astype(np.int32)], _colour(rng), cv2.LINE_AA)
    return image


def _dominoes(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Dominoes and dice on a table: small white blocks with pips, the nearest a photo gets to
    tiles without being tiles."""
    image = _table(rng, h, w)
    side = min(int(rng.integers(40, 120)), max(4, min(h // 3, w) - 1))
    for _ in range(int(rng.integers(4, 30))):
        x, y = int(rng.integers(0, w - side)), int(rng.integers(0, h - 2 * side))
        tall = bool(rng.random() < 0.6)
        x1, y1 = (x + side, y + 2 * side) if tall else (x + side, y + side)
        cv2.rectangle(image, (x, y), (x1, y1), (235, 240, 240), -1)
        cv2.rectangle(image, (x, y), (x1, y1), (150, 150, 150), 2)
        for _ in range(int(rng.integers(1, 7))):
            pip = (int(rng.integers(x + 6, x1 - 6)), int(rng.integers(y + 6, y1 - 6)))
            cv2.circle(image, pip, max(2, side // 10), (20, 20, 20), -1, cv2.LINE_AA)
    return image


_MAKERS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "table": _table, "floor_tiles": _floor_tiles, "bricks": _bricks, "keyboard": _keyboard, "text": _text,
    "mosaic": _mosaic, "checker": _checker, "grid": _grid, "shapes": _shapes, "dominoes": _dominoes,
}


def _as_photographed(image: np.ndarray, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """``image`` seen at a slant (a random perspective), under a cast (two in five), blurred, JPEG-compressed, ``size`` (w, h)."""
    w, h = size
    src = np.float32([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]])
    squeeze = rng.uniform(0.0, 0.3)
    dst = np.float32([[w * squeeze * rng.random(), 0], [w - w * squeeze * rng.random(), 0], [w, h], [0, h]])
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h),
                                 borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.4:
        warped = np.clip(warped.astype(np.float32) * random_cast(rng)[None, None, :], 0, 255).astype(np.uint8)
    blurred = random_motion_blur(warped, rng, 4.0)
    ok, encoded = cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def kind_of(seed: int) -> str:
    """The kind ``no_tile_photo(seed)`` draws, without drawing the photo."""
    return str(np.random.default_rng([seed, 7]).choice(KINDS))


def no_tile_photo(seed: int, kind: str | None = None, size: tuple[int, int] | None = None,
                  ) -> tuple[np.ndarray, str]:
    """A BGR photo that shows no mahjong tile (``kind`` one of ``KINDS``, by default drawn by the
    seed), and its kind."""
    rng = np.random.default_rng([seed, 7])
    kind = kind or str(rng.choice(KINDS))
    if kind not in _MAKERS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    size = size or ((1600, 1200) if rng.random() < 0.8 else (1200, 1600))
    flat = _MAKERS[kind](rng, int(size[1] * 1.2), int(size[0] * 1.2))
    return _as_photographed(flat, rng, size), kind


def debian_pictures(folders: tuple[Path, ...] = DEBIAN_PICTURE_FOLDERS) -> list[Path]:
    """The pictures of Debian packages that show no tile (empty where none is installed)."""
    return sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*")
                  if p.suffix.lower() in _PICTURE_SUFFIXES and p.is_file())


def noise_photo(seed: int) -> np.ndarray:
    """A BGR picture of random pixels (grey or coloured, uniform or normal), blurred by up to 3 px
    half the time, of a random size: no photo at all, as a fuzzer or a test sends one."""
    rng = np.random.default_rng([seed, 11])
    h, w = int(rng.integers(240, 1600)), int(rng.integers(240, 1600))
    channels = 1 if rng.random() < 0.3 else 3
    if rng.random() < 0.5:
        pixels = rng.integers(0, 256, (h, w, channels))
    else:
        pixels = rng.normal(rng.uniform(60, 200), rng.uniform(20, 80), (h, w, channels))
    image = np.clip(pixels, 0, 255).astype(np.uint8)
    image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if channels == 1 else image
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 3.0))
    return image


def wallpapers(folder: Path = WALLPAPER_FOLDER) -> list[Path]:
    """One picture of each of Debian's Plasma wallpapers (a middle-sized file of its sizes), by
    name; empty where the package is not installed."""
    if not folder.is_dir():
        return []
    chosen = []
    for paper in sorted(p for p in folder.iterdir() if p.is_dir()):
        files = sorted((f for f in paper.rglob("*") if f.suffix.lower() in _PICTURE_SUFFIXES and f.is_file()),
                       key=lambda f: (f.stat().st_size, f.name))
        if files:
            chosen.append(files[len(files) // 2])
    return chosen


def wallpaper_half(path: Path, folder: Path = WALLPAPER_FOLDER) -> int:
    """0 (fitted on) or 1 (kept for testing): a stable split of the wallpapers by their name."""
    name = path.relative_to(folder).parts[0] if path.is_relative_to(folder) else path.name
    return zlib.crc32(name.encode("utf-8")) % 2


def picture_views(image: np.ndarray, seed: int, views: int) -> list[np.ndarray]:
    """``image`` whole, then ``views - 1`` crops of it (a third to four fifths of each side, at a
    random place), each shrunk to at most 1600 px: the same picture photographed closer."""
    rng = np.random.default_rng([seed, 13])
    h, w = image.shape[:2]
    out = [image]
    for _ in range(views - 1):
        ch, cw = int(h * rng.uniform(0.33, 0.8)), int(w * rng.uniform(0.33, 0.8))
        y, x = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
        out.append(image[y:y + ch, x:x + cw])
    return [_shrunk(view, 1600) for view in out]


def _shrunk(image: np.ndarray, longest: int) -> np.ndarray:
    scale = longest / max(image.shape[:2])
    if scale >= 1:
        return np.ascontiguousarray(image)
    return cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                      interpolation=cv2.INTER_AREA)

