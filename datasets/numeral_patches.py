"""Rendered corner patches for the flower numeral reader: a numeral 1-4 (Arabic or 一二三四), or none.

Most sets print a flower's or season's number in a top corner, in a plain font and often in
colour, while the picture above it differs from set to set; the tile classifier reads the
picture and confuses the numbers (13 of its 17 flower errors on unseen real sets). A patch is a
square window on the tile's top band, as ``vision.numerals`` cuts them: it holds one numeral
(class 1-4, any size from a third to nearly all of the window, off-centre, slightly turned, in
a random font and ink), or none (class 0: a Chinese character, a piece of plant, a blossom, the
tile's edge, a numeral cut off at the window's edge, plain body, or a window of a tile face
drawn without numerals, bare or on a rendered tile between its neighbours), on an ivory to white body with blur, noise, JPEG and light. ``generate(n, seed)`` is deterministic for a seed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.composed_faces import available_fonts as cjk_fonts
from fanscan.datasets.tile_art import available_styles, load_faces, load_font

PATCH = 32
"""Side of a patch in pixels (grey levels)."""
CLASSES = ("none", "1", "2", "3", "4")
LATIN_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/freefont/FreeSans.ttf"),
    Path("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
    Path("/usr/share/fonts/truetype/freefont/FreeSerif.ttf"),
    Path("/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"),
)
_CHINESE_NUMERALS = "一二三四"
_OTHER_CHARACTERS = "梅蘭菊竹春夏秋冬萬東南西北中發花"
UNNUMBERED_STYLES = ("xmahjongg-real", "kmahjongg-traditional", "gnome-smooth")
"""Art styles whose flowers print no numeral: any window of their faces is a ``none``."""
ART_NONE_SHARE = 0.4
"""Share of the ``none`` patches cut from tile art (as the reader cuts windows) when installed."""
CROP_NONE_SHARE = 0.5
"""Of those, the share cut from a whole rendered crop of the tile (``synth_tiles``) rather than from
the bare face: the tile's rim, bevel and frame lines, the table and the neighbour's edge, which
a bare face lacks and which the reader's windows read as 一 or 二 when never shown them (a
generated hand's 竹 read as 2f)."""
_INKS = ((200, 30, 30), (30, 50, 160), (25, 25, 25), (30, 120, 50), (160, 40, 120))  # RGB


@cache
def latin_fonts() -> tuple[Path, ...]:
    """The Latin fonts installed here (numerals)."""
    return tuple(path for path in LATIN_FONTS if path.is_file())


def _glyph(text: str, font: Path, size: int, rng: np.random.Generator) -> np.ndarray:
    """The text as a float mask (ink = 1), tightly cropped, turned a few degrees."""
    from PIL import Image, ImageDraw

    canvas = Image.new("L", (size * 3, size * 3), 0)
    draw = ImageDraw.Draw(canvas)
    draw.text((size, size // 2), text, font=load_font(font, size), fill=255)
    mask = np.asarray(canvas, np.float32) / 255
    angle = rng.normal(0, 5)
    turn = cv2.getRotationMatrix2D((mask.shape[1] / 2, mask.shape[0] / 2), angle, 1.0)
    mask = cv2.warpAffine(mask, turn, mask.shape[::-1])
    ys, xs = np.nonzero(mask > 0.2)
    if len(xs) == 0:
        return np.zeros((1, 1), np.float32)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _stamp(body: np.ndarray, mask: np.ndarray, ink: tuple[int, int, int], x: int, y: int) -> None:
    """Ink ``mask`` onto the RGB float ``body`` with its top-left at (x, y), clipped to the body."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, body.shape[1]), min(y + h, body.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    part = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    body[y0:y1, x0:x1] = body[y0:y1, x0:x1] * (1 - part) + np.float32(ink) * part


def _clutter(body: np.ndarray, rng: np.random.Generator, size: int) -> None:
    """Pieces of a flower picture: stems, leaves and blossoms."""
    for _ in range(int(rng.integers(0, 4))):
        colour = tuple(int(c) for c in _INKS[rng.integers(len(_INKS))])
        if rng.random() < 0.5:
            points = rng.uniform(-0.2, 1.2, (int(rng.integers(2, 5)), 2)) * size
            cv2.polylines(body, [points.astype(np.int32)], False, colour, int(rng.integers(1, 4)), cv2.LINE_AA)
        else:
            centre = tuple(int(v) for v in rng.uniform(-0.1, 1.1, 2) * size)
            axes = tuple(int(v) for v in rng.uniform(0.05, 0.3, 2) * size)
            cv2.ellipse(body, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)


def render_patch(label: int, rng: np.random.Generator) -> np.ndarray:
    """One grey ``PATCH`` x ``PATCH`` patch of class ``CLASSES[label]``."""
    size = 96  # drawn large, then shrunk to PATCH like a crop of a photo
    body = np.empty((size, size, 3), np.float32)
    body[:] = np.float32([rng.uniform(215, 250), rng.uniform(215, 245), rng.uniform(195, 240)])
    body += rng.normal(0, 3, body.shape).astype(np.float32)
    if rng.random() < 0.7:
        _clutter(body, rng, size)
    ink = tuple(int(np.clip(c + rng.normal(0, 20), 0, 255)) for c in _INKS[rng.integers(len(_INKS))])
    latin, chinese = latin_fonts(), cjk_fonts()
    if label > 0:
        use_chinese = bool(chinese) and (rng.random() < 0.25 or not latin)
        text = _CHINESE_NUMERALS[label - 1] if use_chinese else str(label)
        fonts = chinese if use_chinese else latin
        height = rng.uniform(0.35, 0.85) * size
        mask = _glyph(text, fonts[int(rng.integers(len(fonts)))], int(height * (1.6 if use_chinese else 1.3)), rng)
        scale = height / max(mask.shape[0], 1)
        if text == "一":  # a single stroke: its height says nothing of its size
            scale = height * 0.8 / max(mask.shape[1], 1)
        mask = cv2.resize(mask, (max(1, round(mask.shape[1] * scale)), max(1, round(mask.shape[0] * scale))))
        x = int((size - mask.shape[1]) / 2 + rng.normal(0, size * 0.08))
        y = int((size - mask.shape[0]) / 2 + rng.normal(0, size * 0.08))
        _stamp(body, mask, ink, x, y)
    elif rng.random() < ART_NONE_SHARE and _art_faces():
        if rng.random() < CROP_NONE_SHARE:
            return _crop_window(rng)
        return _photograph(_art_window(rng, size), rng)
    else:
        _draw_none(body, ink, rng, size, latin, chinese)
    if rng.random() < 0.3:  # the tile's rim or the neighbour's edge at one side
        side = int(rng.integers(4))
        width = int(rng.integers(3, 14))
        shade = float(rng.uniform(0.3, 0.8))
        edge = [(slice(None), slice(0, width)), (slice(None), slice(size - width, size)),
                (slice(0, width), slice(None)), (slice(size - width, size), slice(None))][side]
        body[edge] *= shade
    return _photograph(body, rng)


@cache
def _art_faces() -> tuple[np.ndarray, ...]:
    """Faces (RGB float on an ivory body) that hold no numeral 1-4: every face of the unnumbered
    styles but the characters suit (一二三四 there are numerals too)."""
    faces = []
    for style in UNNUMBERED_STYLES:
        if style not in available_styles():
            continue
        for code, face in load_faces(style).items():
            if not code.endswith("m"):
                alpha = face[:, :, 3:4].astype(np.float32) / 255
                rgb = face[:, :, 2::-1].astype(np.float32)
                faces.append(rgb * alpha + np.float32([235, 232, 220]) * (1 - alpha))
    return tuple(faces)


def _art_window(rng: np.random.Generator, size: int) -> np.ndarray:
    """A window from the top band of a face without numerals, as ``vision.numerals`` cuts them."""
    faces = _art_faces()
    face = faces[int(rng.integers(len(faces)))]
    height, width = face.shape[:2]
    side = max(8, round(rng.uniform(0.22, 0.45) * width))
    x = int(rng.integers(0, width - side + 1))
    y = int(rng.integers(0, max(1, int(0.45 * height) - side + 1)))
    return cv2.resize(face[y : y + side, x : x + side], (size, size), interpolation=cv2.INTER_AREA)


def _crop_window(rng: np.random.Generator) -> np.ndarray:
    """One of the reader's windows (``vision.numerals.windows``) on a rendered upright crop of a
    tile from a style without numerals (flowers half the time), between its neighbours."""
    from fanscan.datasets.synth_tiles import render_plain_upright_crop
    from fanscan.vision.numerals import CROP_SIZE, windows

    styles = [style for style in UNNUMBERED_STYLES if style in available_styles()]
    style = styles[int(rng.integers(len(styles)))]
    codes = [c for c in load_faces(style) if not c.endswith("m")]
    flowers = [c for c in codes if c.endswith("f")]
    code = str(rng.choice(flowers if rng.random() < 0.5 else codes))
    crop = cv2.resize(render_plain_upright_crop(style, code, rng), CROP_SIZE, interpolation=cv2.INTER_AREA)
    every = windows(crop, PATCH)
    return every[int(rng.integers(len(every)))]


def _draw_none(body: np.ndarray, ink: tuple[int, int, int], rng: np.random.Generator, size: int,
               latin: tuple[Path, ...], chinese: tuple[Path, ...]) -> None:
    """Something that is not a whole numeral: a character, a numeral mostly outside, or nothing."""
    kind = rng.random()
    if kind < 0.45 and chinese:
        text = _OTHER_CHARACTERS[rng.integers(len(_OTHER_CHARACTERS))]
        height = rng.uniform(0.4, 0.9) * size
        mask = _glyph(text, chinese[int(rng.integers(len(chinese)))], int(height * 1.2), rng)
        mask = cv2.resize(mask, (max(1, round(mask.shape[1] * height / mask.shape[0])), max(1, round(height))))
        _stamp(body, mask, ink, int(rng.uniform(-0.2, 0.5) * size), int(rng.uniform(-0.2, 0.5) * size))
    elif kind < 0.7 and latin:
        text = str(int(rng.integers(1, 5)))
        height = rng.uniform(0.4, 0.8) * size
        mask = _glyph(text, latin[int(rng.integers(len(latin)))], int(height * 1.3), rng)
        mask = cv2.resize(mask, (max(1, round(mask.shape[1] * height / mask.shape[0])), max(1, round(height))))
        # Mostly outside the window: the window next to the numeral sees only a piece of it.
        x = int(rng.choice([-0.75, 0.8]) * mask.shape[1]) if rng.random() < 0.5 else int(size - 0.25 * mask.shape[1])
        _stamp(body, mask, ink, x, int(rng.uniform(0, 0.5) * size))
    elif kind < 0.85:
        _clutter(body, rng, size)
        _clutter(body, rng, size)


def _photograph(body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, blur, resolution, noise and JPEG, then the grey ``PATCH`` x ``PATCH`` patch."""
    body *= np.float32(rng.uniform(0.6, 1.15))
    grey = cv2.cvtColor(np.clip(body, 0, 255).astype(np.uint8), cv2.COLOR_RGB2GRAY)
    if rng.random() < 0.6:
        grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(0.5, 2.0))
    low = int(rng.integers(12, 48))
    grey = cv2.resize(cv2.resize(grey, (low, low), interpolation=cv2.INTER_AREA), (PATCH, PATCH),
                      interpolation=cv2.INTER_LINEAR)
    grey = np.clip(grey + rng.normal(0, rng.uniform(0, 6), grey.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, data = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        grey = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    return grey


def generate(n: int, seed: int, *, progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``n`` patches (n, PATCH, PATCH) uint8 and their labels (n,), classes in equal shares;
    ``progress`` shows a progress bar."""
    from tqdm import tqdm

    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(CLASSES), n)
    drawn = tqdm(labels, desc="rendering patches", unit="patch", disable=not progress)
    return np.stack([render_patch(int(label), rng) for label in drawn]), labels
