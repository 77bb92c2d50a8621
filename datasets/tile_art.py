"""Tile face images per art style, from whatever art this machine has.

Sources (each style is listed by ``available_styles()`` only when its files are present):

- ``xmahjongg-real``: Debian ``xmahjongg``, scanned photos of a real set (GPL-2+).
- ``kmahjongg-default``, ``kmahjongg-traditional``: Debian ``kdegames-mahjongg-data-kf5`` SVGs,
  rendered with ``rsvg-convert`` (Debian ``librsvg2-bin``) (GPL-2+).
- ``gnome-smooth``: Debian ``gnome-mahjongg`` shaded tiles (GPL-2+).
- ``font-symbola``, ``font-noto``, ``font-freeserif``: the Unicode mahjong glyphs U+1F000-1F02B
  (Debian ``fonts-symbola``, ``fonts-noto-core``, ``fonts-freefont-ttf``), black line art.
- ``cangjie6``: the oblique SVG tiles in ../shared/art/cangjie6 (CC BY-SA 4.0), when present.

Every face is a BGRA uint8 array of ``FACE_SIZE`` (96 wide, 128 high), upright, covering the tile
face including its own border where the art has one. Alpha 0 means "the tile body shows through":
scanned and shaded styles are opaque, line-art styles (fonts, kmahjongg) are glyphs on a
transparent ground, to be composited onto a body colour by the caller. Renders are cached as PNGs
under ``$XDG_CACHE_HOME/fanscan/tile_art`` (default ``~/.cache/fanscan/tile_art``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from fanscan.atomic import atomic_path
from fanscan.datasets.shared import shared_path
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import TILE_CODES

FACE_SIZE: tuple[int, int] = (96, 128)  # (width, height), the tile's 3:4 aspect
CACHE_VERSION = "v1"

XMAHJONGG_REAL = Path("/usr/share/games/xmahjongg/tiles/real.gif")
KMAHJONGG_DIR = Path("/usr/share/kmahjongglib/tilesets")
GNOME_SMOOTH = Path("/usr/share/gnome-mahjongg/themes/smooth.png")
FONT_FILES: dict[str, Path] = {
    "font-symbola": Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
    "font-noto": Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
    "font-freeserif": Path("/usr/share/fonts/truetype/freefont/FreeSerif.ttf"),
}

# Common colours of tile backs, BGR. No ivory or white: a blank white dragon looks just like one.
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "green": (60, 120, 20),
    "dark-green": (40, 70, 10),
    "blue": (150, 80, 20),
    "light-blue": (210, 160, 90),
    "yellow": (40, 190, 230),
    "orange": (30, 120, 230),
    "red": (40, 40, 180),
    "pink": (170, 130, 235),
    "purple": (120, 40, 100),
}

# Sheet layouts: one row of codes per grid row.
_XMAHJONGG_ROWS = (
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}m" for n in range(1, 10)],
    ["5f", "6f", "7f", "8f", "N", "S", "E", "W"],
    ["1f", "2f", "3f", "4f", "F", "P", "C"],
)
_KMAHJONGG_ROWS = (
    [f"{n}m" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}p" for n in range(1, 10)],
    ["5f", "6f", "7f", "8f", "N", "S", "E", "W"],
    ["P", "F", "C", "1f", "2f", "3f", "4f"],
)
# kmahjongg sheets: a 69 x 89 px grid whose top-left cell starts at (0, 116) on the 768 x 561 page.
_KMAHJONGG_GRID = (0, 116, 69, 89)
_KMAHJONGG_ZOOM = 3
_GNOME_ORDER = (
    [f"{n}p" for n in range(1, 10)]
    + ["N", "W", "S", "E", "C", "F"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + ["2f", "3f", "1f", "4f", "P", "5f", "6f", "7f", "8f"]
)
_GNOME_CELL = 96
_GNOME_FACE_BOX = (7, 3, 91, 113)  # x0, y0, x1, y1 of the face inside a cell (the rest is bevel)
_UNICODE_ORDER = (
    ["E", "S", "W", "N", "C", "F", "P"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + ["1f", "2f", "4f", "3f", "5f", "6f", "7f", "8f"]
)
_CANGJIE6_FACE_BOX = (34, 94, 328, 480)  # at a 420-px-wide render, per its CREDITS.md


def cache_dir() -> Path:
    """Where rendered faces are kept between runs."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fanscan" / "tile_art" / CACHE_VERSION


def _rsvg() -> str | None:
    return shutil.which("rsvg-convert")


def _cangjie6_dir() -> Path | None:
    return shared_path("art", "cangjie6")


def _sources() -> dict[str, tuple[Callable[[], bool], Callable[[], dict[str, np.ndarray]]]]:
    """Style name -> (is it available here, render all its faces)."""
    sources: dict[str, tuple[Callable[[], bool], Callable[[], dict[str, np.ndarray]]]] = {
        "xmahjongg-real": (XMAHJONGG_REAL.is_file, _render_xmahjongg),
    }
    for name in ("default", "traditional"):
        svgz = KMAHJONGG_DIR / f"{name}.svgz"
        sources[f"kmahjongg-{name}"] = (
            lambda svgz=svgz: svgz.is_file() and _rsvg() is not None,
            lambda svgz=svgz: _render_kmahjongg(svgz),
        )
    sources["gnome-smooth"] = (GNOME_SMOOTH.is_file, _render_gnome_smooth)
    for style, font in FONT_FILES.items():
        sources[style] = (font.is_file, lambda font=font: _render_font(font))
    sources["cangjie6"] = (
        lambda: _cangjie6_dir() is not None and _rsvg() is not None,
        _render_cangjie6,
    )
    return sources


def available_styles() -> list[str]:
    """The art styles this machine can render, in a fixed order."""
    return [name for name, (available, _) in _sources().items() if available()]


def load_faces(style: str) -> dict[str, np.ndarray]:
    """All 42 faces of ``style``: tile code -> BGRA uint8 array (128 x 96 x 4), from the cache."""
    sources = _sources()
    if style not in sources:
        raise FanscanError("unknown_style", f"unknown tile art style {style!r}")
    available, render = sources[style]
    if not available():
        raise FanscanError("style_unavailable", f"tile art style {style!r} is not installed here")
    folder = cache_dir() / style
    paths = {code: folder / f"{code}.png" for code in TILE_CODES}
    if not all(path.is_file() for path in paths.values()):
        for code, face in render().items():
            with atomic_path(paths[code]) as temp:
                cv2.imwrite(str(temp), face)
    return {code: cv2.imread(str(path), cv2.IMREAD_UNCHANGED) for code, path in paths.items()}


def render_back(colour: str | tuple[int, int, int]) -> np.ndarray:
    """A face-down tile (BGRA, ``FACE_SIZE``) in a named ``BACK_COLOURS`` entry or a BGR triple."""
    if isinstance(colour, str):
        if colour not in BACK_COLOURS:
            raise FanscanError("unknown_colour", f"unknown tile back colour {colour!r}")
        colour = BACK_COLOURS[colour]
    width, height = FACE_SIZE
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    # A gentle dome of light, as on a moulded plastic back.
    shade = 1.08 - 0.25 * (((xs - width / 2) / width) ** 2 + ((ys - height / 2) / height) ** 2)
    body = np.clip(np.array(colour, np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    return _opaque(body)


def _opaque(bgr: np.ndarray) -> np.ndarray:
    return np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)])


def _fit(face: np.ndarray) -> np.ndarray:
    """Resize a BGRA face to ``FACE_SIZE``."""
    return cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)


def _read_rgba(path: Path) -> np.ndarray:
    """Any image file as BGRA (PIL, because cv2 cannot read GIF)."""
    from PIL import Image

    with Image.open(path) as image:
        rgba = np.asarray(image.convert("RGBA"))
    return cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)


def _render_xmahjongg() -> dict[str, np.ndarray]:
    sheet = _read_rgba(XMAHJONGG_REAL)
    height, width = sheet.shape[:2]
    xs = np.linspace(0, width, 10).round().astype(int)
    ys = np.linspace(0, height, 6).round().astype(int)
    faces = {}
    for row, codes in enumerate(_XMAHJONGG_ROWS):
        for col, code in enumerate(codes):
            cell = sheet[ys[row] + 1 : ys[row + 1] - 1, xs[col] + 1 : xs[col + 1] - 1]
            faces[code] = _fit(cell)
    return faces


def _rsvg_render(svg: Path, out: Path, *args: str) -> np.ndarray:
    rsvg = _rsvg()
    if rsvg is None:
        raise FanscanError("missing_tool", "rsvg-convert is not installed (Debian librsvg2-bin)")
    subprocess.run([rsvg, *args, str(svg), "-o", str(out)], check=True, capture_output=True)
    return cv2.imread(str(out), cv2.IMREAD_UNCHANGED)


def _render_kmahjongg(svgz: Path) -> dict[str, np.ndarray]:
    # The sheet is rendered whole: rsvg-convert's --export-id misplaces these faces.
    with tempfile.TemporaryDirectory() as tmp:
        page = _rsvg_render(svgz, Path(tmp) / "page.png", "-z", str(_KMAHJONGG_ZOOM))
    x0, y0, cell_w, cell_h = (v * _KMAHJONGG_ZOOM for v in _KMAHJONGG_GRID)
    trim = 2 * _KMAHJONGG_ZOOM  # the faint grid lines between cells
    faces = {}
    for row, codes in enumerate(_KMAHJONGG_ROWS):
        for col, code in enumerate(codes):
            top, left = y0 + row * cell_h, x0 + col * cell_w
            cell = page[top + trim : top + cell_h - trim, left + trim : left + cell_w - trim]
            faces[code] = _fit(cell)
    return faces


def _render_gnome_smooth() -> dict[str, np.ndarray]:
    sheet = _read_rgba(GNOME_SMOOTH)
    x0, y0, x1, y1 = _GNOME_FACE_BOX
    return {
        code: _fit(sheet[y0:y1, i * _GNOME_CELL + x0 : i * _GNOME_CELL + x1])
        for i, code in enumerate(_GNOME_ORDER)
    }


@cache
def load_font(path: Path, size: int):  # noqa: ANN201 (PIL type, imported lazily)
    """The TrueType font at ``path`` in pixel ``size``, loaded once per path and size."""
    from PIL import ImageFont

    return ImageFont.truetype(str(path), size)


def _render_font(font_file: Path) -> dict[str, np.ndarray]:
    from PIL import Image, ImageDraw

    glyphs = load_font(font_file, 256)
    faces = {}
    for i, code in enumerate(_UNICODE_ORDER):
        glyph = chr(0x1F000 + i)
        canvas = Image.new("L", (400, 400), 0)
        ImageDraw.Draw(canvas).text((40, 40), glyph, font=glyphs, fill=255)
        ink = np.asarray(canvas)
        rows, cols = np.nonzero(ink)
        # The glyph's outline is the tile's border: crop to it.
        ink = ink[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
        face = np.zeros((*ink.shape, 4), np.uint8)
        face[..., 3] = ink
        faces[code] = _fit(face)
    return faces


def _render_cangjie6() -> dict[str, np.ndarray]:
    folder = _cangjie6_dir()
    if folder is None:
        raise FanscanError("style_unavailable", "the cangjie6 art (../shared/art) is not present")
    x0, y0, x1, y1 = _CANGJIE6_FACE_BOX
    faces = {}
    with tempfile.TemporaryDirectory() as tmp:
        for code in TILE_CODES:
            image = _rsvg_render(folder / f"{code}.svg", Path(tmp) / f"{code}.png", "-w", "420")
            faces[code] = _fit(image[y0:y1, x0:x1])
    return faces
