"""Tile faces written with Chinese fonts: characters, winds, dragons, flowers and seasons.

Real sets differ most in their writing: the numerals above 萬, the winds, 中 and 發, and the small
numeral and character that tell one flower or season from another. A face is composed per crop
with a randomly chosen installed CJK font (kai brush, ming, hei, serif, sans), ink colours, sizes
and placement, so the classifier learns the writing rather than one set's drawing. A flower or
season gets a meaningless drawn plant as its picture, so that only its numeral and character say
which it is, as on a set the classifier has never seen; or the character alone, written large.

Fonts come from Debian packages (``fonts-arphic-ukai``, ``fonts-arphic-uming``,
``fonts-wqy-zenhei``, ``fonts-noto-cjk``, ``fonts-droid-fallback``); with none installed,
``compose_face`` returns None and the other art styles are used alone.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from fanscan.datasets.tile_art import FACE_SIZE, load_font

CJK_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/arphic/ukai.ttc"),
    Path("/usr/share/fonts/truetype/arphic/uming.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)
NUMERAL_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
    Path("/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
)

# The numerals written above 萬; a five is often written 伍.
_NUMERALS = dict(zip(range(1, 10), ["一", "二", "三", "四", "五伍", "六", "七", "八", "九"], strict=True))
_WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
_FLOWER_CHARS = dict(zip([f"{n}f" for n in range(1, 9)], "梅蘭菊竹春夏秋冬", strict=True))
COMPOSABLE = frozenset([f"{n}m" for n in range(1, 10)] + list(_WINDS) + ["C", "F", "P"] + list(_FLOWER_CHARS))
"""The codes ``compose_face`` can write."""

# Ink colours, RGB: black, navy, dark green, red, dark blue-green.
_BLACK, _NAVY, _GREEN, _RED, _TEAL = (25, 25, 25), (30, 40, 120), (20, 110, 40), (190, 30, 30), (20, 80, 90)
_GOLD = (185, 140, 30)
LARGE_CHARACTER_SHARE = 0.3
"""Share of written flowers that are the flower's character alone, large in the middle (as sets
whose flowers are calligraphy print them), sometimes framed and numbered."""


@cache
def available_fonts() -> tuple[Path, ...]:
    """The CJK fonts installed here."""
    return tuple(path for path in CJK_FONTS if path.is_file())


@cache
def _numeral_fonts() -> tuple[Path, ...]:
    return tuple(path for path in NUMERAL_FONTS if path.is_file())


def flower_number(code: str) -> str:
    """The number a flower or season prints: 1-4 (plum and spring are both 1)."""
    return str((int(code[0]) - 1) % 4 + 1)


def _jitter(colour: tuple[int, int, int], rng: np.random.Generator) -> tuple[int, int, int]:
    r, g, b = (int(np.clip(c + rng.normal(0, 15), 0, 255)) for c in colour)
    return r, g, b


def _write(draw, text: str, font_path: Path, size: int, centre: tuple[float, float],  # noqa: ANN001
           colour: tuple[int, int, int]) -> None:
    """Draw ``text`` centred on ``centre``."""
    font = load_font(font_path, size)
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    draw.text((centre[0] - (x0 + x1) / 2, centre[1] - (y0 + y1) / 2), text, font=font, fill=colour)


def _plant(draw, rng: np.random.Generator, width: int, height: int) -> None:  # noqa: ANN001
    """A stem or two with leaves and blossoms: a flower tile's picture that names no flower."""
    for _ in range(int(rng.integers(1, 3))):
        points = [(width * rng.uniform(0.3, 0.7), height * rng.uniform(0.75, 0.9))]
        for _ in range(int(rng.integers(3, 6))):
            x, y = points[-1]
            points.append((float(np.clip(x + rng.normal(0, width * 0.12), 8, width - 8)),
                           float(np.clip(y - height * rng.uniform(0.08, 0.18), height * 0.3, height - 8))))
        draw.line(points, fill=_jitter(_GREEN, rng), width=int(rng.integers(2, 5)))
        for x, y in points[1:]:
            if rng.random() < 0.6:
                r = width * rng.uniform(0.05, 0.11)
                petal = _jitter([_RED, (220, 120, 160), (230, 180, 40), (60, 90, 200)][rng.integers(4)], rng)
                draw.ellipse((x - r, y - r, x + r, y + r), fill=petal)


def compose_face(code: str, rng: np.random.Generator) -> np.ndarray | None:
    """A BGRA face (``FACE_SIZE``, transparent background) of ``code``, or None when the code is
    not in ``COMPOSABLE`` or no CJK font is installed."""
    fonts = available_fonts()
    if code not in COMPOSABLE or not fonts:
        return None
    from PIL import Image, ImageDraw

    width, height = FACE_SIZE
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    font = fonts[int(rng.integers(len(fonts)))]
    cx = width / 2 + rng.normal(0, 2)
    if code.endswith("m"):
        numerals = _NUMERALS[int(code[0])]
        numeral = numerals[int(rng.integers(len(numerals)))]
        size = int(rng.integers(40, 56))
        ink = _jitter([_BLACK, _NAVY, _TEAL][rng.integers(3)], rng)
        _write(draw, numeral, font, size, (cx, height * rng.uniform(0.24, 0.32)), ink)
        _write(draw, "萬", font, int(rng.integers(44, 60)), (cx, height * rng.uniform(0.66, 0.74)),
               _jitter(_RED, rng))
    elif code in _WINDS:
        ink = _jitter([_BLACK, _NAVY, _TEAL][rng.integers(3)], rng)
        _write(draw, _WINDS[code], font, int(rng.integers(62, 86)), (cx, height / 2 + rng.normal(0, 3)), ink)
    elif code == "C":
        _write(draw, "中", font, int(rng.integers(66, 90)), (cx, height / 2 + rng.normal(0, 3)), _jitter(_RED, rng))
    elif code == "F":
        text = "發" if rng.random() < 0.85 else "发"
        _write(draw, text, font, int(rng.integers(62, 86)), (cx, height / 2 + rng.normal(0, 3)), _jitter(_GREEN, rng))
    elif code == "P":
        ink = _jitter([_NAVY, _BLACK, _TEAL][rng.integers(3)], rng)
        margin_x, margin_y = int(rng.integers(14, 26)), int(rng.integers(16, 30))
        line = int(rng.integers(3, 7))
        draw.rectangle((margin_x, margin_y, width - margin_x, height - margin_y), outline=ink, width=line)
        if rng.random() < 0.5:
            inset = line + int(rng.integers(3, 7))
            draw.rectangle((margin_x + inset, margin_y + inset, width - margin_x - inset, height - margin_y - inset),
                           outline=ink, width=max(1, line // 2))
    else:
        _flower(draw, code, font, rng, width, height)
    rgba = np.asarray(image)
    return np.ascontiguousarray(rgba[:, :, [2, 1, 0, 3]])


def _large_character(draw, code: str, font: Path, rng: np.random.Generator, width: int,  # noqa: ANN001
                     height: int) -> None:
    """The flower's character alone, large in the middle, maybe in a frame, maybe numbered."""
    ink = _jitter([_GOLD, _BLACK, _RED, _NAVY, _GREEN][rng.integers(5)], rng)
    if rng.random() < 0.4:
        margin_x, margin_y = int(rng.integers(6, 14)), int(rng.integers(6, 16))
        draw.rectangle((margin_x, margin_y, width - margin_x, height - margin_y),
                       outline=_jitter(_BLACK, rng), width=int(rng.integers(1, 4)))
    _write(draw, _FLOWER_CHARS[code], font, int(rng.integers(52, 76)),
           (width / 2 + rng.normal(0, 2), height / 2 + rng.normal(0, 4)), ink)
    numeral_fonts = _numeral_fonts()
    if numeral_fonts and rng.random() < 0.3:
        size = int(rng.integers(16, 24))
        x = size * 0.5 + rng.uniform(3, 8) if rng.random() < 0.5 else width - size * 0.5 - rng.uniform(3, 8)
        _write(draw, flower_number(code), numeral_fonts[int(rng.integers(len(numeral_fonts)))],
               size, (x, size * 0.6 + rng.uniform(2, 6)), ink)


def _flower(draw, code: str, font: Path, rng: np.random.Generator, width: int, height: int) -> None:  # noqa: ANN001
    """A plant, and the numeral (1-4) and character that name the flower or season in corners; or
    the character alone, large (``LARGE_CHARACTER_SHARE``)."""
    if rng.random() < LARGE_CHARACTER_SHARE:
        _large_character(draw, code, font, rng, width, height)
        return
    _plant(draw, rng, width, height)
    ink = _jitter([_RED, _NAVY, _BLACK, _GREEN][rng.integers(4)], rng)
    left = bool(rng.integers(2))
    number = flower_number(code)
    numeral_fonts = _numeral_fonts()
    write_number = rng.random() < 0.9 and numeral_fonts
    if write_number:
        size = int(rng.integers(20, 32))
        x = size * 0.5 + rng.uniform(3, 8) if left else width - size * 0.5 - rng.uniform(3, 8)
        _write(draw, number, numeral_fonts[int(rng.integers(len(numeral_fonts)))], size,
               (x, size * 0.6 + rng.uniform(2, 8)), ink)
    if not write_number or rng.random() < 0.85:
        size = int(rng.integers(22, 34))
        x = width - size * 0.5 - rng.uniform(3, 8) if left else size * 0.5 + rng.uniform(3, 8)
        _write(draw, _FLOWER_CHARS[code], font, size, (x, size * 0.6 + rng.uniform(2, 8)), ink)
