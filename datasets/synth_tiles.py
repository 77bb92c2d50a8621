"""Rendered, augmented single-tile crops for training the classifier; seedable and deterministic.

A crop is made in three steps:

1. Compose: a face from ``tile_art`` on a tile body (ivory, white, cream, green-tinted), flowers
   and seasons sometimes given an extra corner numeral and character (as most real sets print),
   written faces sometimes composed in a random CJK font instead (``composed_faces``),
   line art sometimes inked in a colour; between two neighbouring tiles on a table texture.
2. Look: one perspective warp maps a jittered quad around the face onto the crop, which gives
   perspective, rotation (upright, or upside down half the time), scale, and crops that are loose
   (the neighbour's edge shows) or tight (cut into the face).
3. Photograph: lighting gradient, colour cast, shadow, glare, blur, noise, JPEG, and a random
   resolution (real crops run from about 40 to 300 px high).

``generate(n, seed)`` yields the same crops for the same seed, in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.composed_faces import compose_face, flower_number
from fanscan.datasets.photo_effects import random_cast, random_motion_blur
from fanscan.datasets.textures import TABLE_KINDS, table_texture
from fanscan.datasets.tile_art import BACK_COLOURS, FACE_SIZE, available_styles, load_faces, load_font, render_back
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import BACK, CLASS_LABELS

# Tile body colours (BGR) that line-art faces are composited onto.
BODY_COLOURS: dict[str, tuple[int, int, int]] = {
    "ivory": (215, 235, 245),
    "white": (245, 245, 245),
    "cream": (190, 225, 240),
    "green": (205, 235, 215),
}
INK_COLOURS: tuple[tuple[int, int, int], ...] = ((20, 20, 20), (30, 90, 20), (30, 30, 170), (120, 50, 20))
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
NUMERAL_FONT = Path("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf")
COMPOSED_SHARE = 0.3
"""Share of the crops of a written face (characters, winds, dragons, flowers) drawn by
``composed_faces`` in a random CJK font instead of in the crop's art style."""
FLOWER_CHARS = dict(zip([f"{n}f" for n in range(1, 9)], "梅蘭菊竹春夏秋冬", strict=True))


@dataclass(frozen=True)
class SynthCrop:
    """One rendered crop (BGR uint8), its class code and the art style it came from."""

    image: np.ndarray
    code: str
    style: str


@cache
def _faces(style: str) -> dict[str, np.ndarray]:
    return load_faces(style)


def _draw_text(face: np.ndarray, text: str, font_path: Path, size: int, xy: tuple[int, int],
               colour: tuple[int, int, int]) -> None:
    """Draw ``text`` onto the BGRA ``face`` in place (opaque ink)."""
    from PIL import Image, ImageDraw

    mask = Image.new("L", (face.shape[1], face.shape[0]), 0)
    ImageDraw.Draw(mask).text(xy, text, font=load_font(font_path, size), fill=255)
    alpha = np.asarray(mask, np.float32)[..., None] / 255
    face[..., :3] = (face[..., :3] * (1 - alpha) + np.float32(colour) * alpha).astype(np.uint8)
    face[..., 3] = np.maximum(face[..., 3], (alpha[..., 0] * 255).astype(np.uint8))


def _mark_flower(face: np.ndarray, code: str, rng: np.random.Generator) -> None:
    """Add a corner numeral and/or the character, as printed on most real flower tiles."""
    number = flower_number(code)
    colour = INK_COLOURS[rng.integers(len(INK_COLOURS))]
    left = bool(rng.integers(2))
    if NUMERAL_FONT.is_file() and rng.random() < 0.7:
        size = int(rng.integers(16, 30))
        x = int(rng.integers(3, 10)) if left else FACE_SIZE[0] - size // 2 - int(rng.integers(6, 14))
        _draw_text(face, number, NUMERAL_FONT, size, (x, int(rng.integers(0, 8))), colour)
    if CJK_FONT.is_file() and rng.random() < 0.5:
        size = int(rng.integers(18, 30))
        x = FACE_SIZE[0] - size - int(rng.integers(2, 8)) if left else int(rng.integers(2, 8))
        _draw_text(face, FLOWER_CHARS[code], CJK_FONT, size, (x, int(rng.integers(0, 8))), colour)


def _face_on_body(style: str, code: str, rng: np.random.Generator, *, plain: bool = False) -> np.ndarray:
    """The tile's face as an opaque BGR image of ``FACE_SIZE``; ``plain``: the style's own art,
    never a written face or an added corner numeral."""
    if code == BACK:
        names = list(BACK_COLOURS)
        base = np.float32(BACK_COLOURS[names[rng.integers(len(names))]])
        colour = tuple(int(c) for c in np.clip(base + rng.normal(0, 18, 3), 0, 255))
        return render_back(colour)[..., :3]
    composed = compose_face(code, rng) if not plain and rng.random() < COMPOSED_SHARE else None
    if composed is not None:
        face = composed
    else:
        face = _faces(style)[code].copy()
        if code.endswith("f") and not plain and rng.random() < 0.5:
            _mark_flower(face, code, rng)
    alpha = face[..., 3:].astype(np.float32) / 255
    ink = face[..., :3].astype(np.float32)
    if style.startswith("font-") and rng.random() < 0.6:
        ink[:] = np.float32(INK_COLOURS[rng.integers(len(INK_COLOURS))])
    names = list(BODY_COLOURS)
    body = np.float32(BODY_COLOURS[names[rng.integers(len(names))]]) + rng.normal(0, 8, 3)
    return np.clip(ink * alpha + body * (1 - alpha), 0, 255).astype(np.uint8)


def _tile_rect(canvas: np.ndarray, x: int, y: int, face: np.ndarray, rim: int,
               rim_colour: np.ndarray) -> None:
    """Draw a tile (its rim, then its face) with the face's top-left corner at (x, y)."""
    height, width = face.shape[:2]
    canvas[y - rim : y + height + rim, x - rim : x + width + rim] = rim_colour
    canvas[y : y + height, x : x + width] = face


def _compose(style: str, code: str, rng: np.random.Generator, *, plain: bool = False,
             ) -> tuple[np.ndarray, np.ndarray]:
    """The tile between its neighbours on a table; returns (canvas, the face's 4 corners).
    ``plain``: every face is the style's own art (``_face_on_body``) and no neighbour is a character."""
    width, height = FACE_SIZE
    pad, gap_max = 48, 8
    canvas_w, canvas_h = 3 * width + 2 * pad + 2 * gap_max + 24, height + 2 * pad
    canvas = table_texture(TABLE_KINDS[rng.integers(len(TABLE_KINDS))], rng, canvas_h, canvas_w)
    rim = int(rng.integers(1, 7))
    face = _face_on_body(style, code, rng, plain=plain)
    rim_colour = np.clip(face[2:6, 2:6].reshape(-1, 3).mean(0) * rng.uniform(0.55, 0.95), 0, 255)
    x0, y0 = pad + width + gap_max + 12, pad
    neighbours = [c for c in CLASS_LABELS if c != BACK and not (plain and c.endswith("m"))]
    for side in (-1, 1):
        if rng.random() < 0.8:
            other = _face_on_body(style, neighbours[rng.integers(len(neighbours))], rng, plain=plain)
            gap = int(rng.integers(0, gap_max)) + 2 * rim
            _tile_rect(canvas, x0 + side * (width + gap), y0, other, rim, rim_colour)
    _tile_rect(canvas, x0, y0, face, rim, rim_colour)
    corners = np.float32([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]])
    return canvas, corners


def _look(canvas: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warp a jittered quad around the face onto an upright crop of random resolution."""
    width, height = FACE_SIZE
    centre = corners.mean(0)
    # Loose (positive) or tight (negative) margins, per side.
    left, right = rng.uniform(-0.06, 0.14, 2) * width
    top, bottom = rng.uniform(-0.06, 0.14, 2) * height
    quad = corners + np.float32([[-left, -top], [right, -top], [right, bottom], [-left, bottom]])
    quad += rng.normal(0, 0.035, (4, 2)).astype(np.float32) * np.float32([width, height])
    angle = np.deg2rad(rng.normal(0, 4))
    rotation = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = (quad - centre) @ rotation.T + centre
    out_h = int(np.exp(rng.uniform(np.log(36), np.log(200))))
    out_w = max(8, int(round(out_h * 0.75 * rng.uniform(0.88, 1.12))))
    target = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(canvas, matrix, (out_w, out_h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REFLECT)


def _photograph(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lighting, colour cast (a strong one 1 time in 10), shadow, glare, blur (focus or motion), noise
    and JPEG."""
    height, width = crop.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xs, ys = xs / width - 0.5, ys / height - 0.5
    image = crop.astype(np.float32)
    gain = rng.uniform(0.65, 1.15) + rng.uniform(-0.3, 0.3) * xs + rng.uniform(-0.3, 0.3) * ys
    image *= gain[..., None] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    if rng.random() < 0.1:
        image *= random_cast(rng)
    if rng.random() < 0.3:
        direction = rng.uniform(0, 2 * np.pi)
        edge = np.cos(direction) * xs + np.sin(direction) * ys - rng.uniform(-0.4, 0.4)
        shade = 1 - rng.uniform(0.2, 0.5) * np.clip(edge / 0.08 + 0.5, 0, 1)
        image *= shade[..., None]
    if rng.random() < 0.25:
        cx, cy = rng.uniform(-0.5, 0.5, 2)
        sigma = rng.uniform(0.08, 0.3)
        blob = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
        image += rng.uniform(60, 200) * blob[..., None]
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.2) * max(1.0, height / 100))
    elif rng.random() < 0.2:
        image = random_motion_blur(image, rng, 0.1 * width)
    image += rng.normal(0, rng.uniform(0, 8), image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        quality = int(rng.integers(30, 96))
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return image


def render_crop(style: str, code: str, rng: np.random.Generator) -> np.ndarray:
    """One augmented crop (BGR uint8) of ``code`` in art ``style``; upside down half the time."""
    canvas, corners = _compose(style, code, rng)
    crop = _photograph(_look(canvas, corners, rng), rng)
    return cv2.rotate(crop, cv2.ROTATE_180) if rng.random() < 0.5 else crop


def render_plain_upright_crop(style: str, code: str, rng: np.random.Generator) -> np.ndarray:
    """An augmented upright crop of ``code`` in ``style``'s own art, with neighbours that print no
    characters: what the photo reader cuts from a set that prints no numerals."""
    canvas, corners = _compose(style, code, rng, plain=True)
    return _photograph(_look(canvas, corners, rng), rng)


def generate(n: int, seed: int, styles: Sequence[str] | None = None,
             codes: Sequence[str] | None = None) -> Iterator[SynthCrop]:
    """``n`` crops, classes drawn uniformly over ``codes`` (default ``CLASS_LABELS``), styles
    uniformly over ``styles``.

    The same ``seed`` (and the same styles) gives the same crops in the same order.
    """
    styles = list(styles) if styles is not None else available_styles()
    if not styles:
        raise FanscanError("no_tile_art", "no tile art is installed (see datasets/tile_art.py)")
    codes = list(codes) if codes else list(CLASS_LABELS)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        style = styles[rng.integers(len(styles))]
        code = codes[rng.integers(len(codes))]
        yield SynthCrop(render_crop(style, code, rng), code, style)
