"""Pixels a decoder gives, made what the reader reads: 8-bit BGR, in strips, and C libraries'
warnings caught.

``bgr_in_strips`` converts any PIL mode (transparency over white, CMYK, 16-bit, 32-bit and float
grey scaled by the picture's own top level: ``top_level``) ``STRIP_ROWS`` rows at a time into
one BGR array, never holding a float or full-size 8-bit copy; ``c_stderr_captured`` catches what
libjpeg writes to the process's stderr while a decode runs; ``reason`` is an exception's first
line for a one-line message.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import cv2
import numpy as np
from PIL import Image

STRIP_ROWS = 512
"""Rows converted to BGR at a time (a 12,000-pixel-wide strip is 18 MB in 8-bit RGB)."""
HIGH_DEPTH_MODES = ("I;16", "I;16B", "I;16L", "I;16N", "I", "F")


_stderr_lock = threading.Lock()


@contextmanager
def c_stderr_captured() -> Iterator[list[bytes]]:
    """While inside, what C code writes to the process's stderr (file descriptor 2) goes to a
    temporary file instead; on leaving, the list holds it (empty when nothing was written).
    Anything another thread writes to stderr meanwhile (a few ms) is caught with it."""
    captured: list[bytes] = []
    with _stderr_lock, tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read()
            if text:
                captured.append(text)


def reason(error: BaseException) -> str:
    text = str(error).strip().rstrip(".")
    return text.split("\n")[0] if text else type(error).__name__


def top_level(image: Image.Image) -> float:
    """The brightest value of a 16-bit, 32-bit or float picture (white in its 8-bit copy); 255 else."""
    if image.mode not in HIGH_DEPTH_MODES:
        return 255.0
    low, high = image.getextrema()
    return max(float(high), 1.0)


def bgr_in_strips(image: Image.Image, top: float) -> np.ndarray:
    """The picture as BGR uint8, converted ``STRIP_ROWS`` rows at a time into one array."""
    width, height = image.size
    out = np.empty((height, width, 3), np.uint8)
    for y in range(0, height, STRIP_ROWS):
        strip = to_rgb(image.crop((0, y, width, min(height, y + STRIP_ROWS))), top)
        cv2.cvtColor(np.asarray(strip), cv2.COLOR_RGB2BGR, dst=out[y : y + strip.height])
    return out


def to_rgb(image: Image.Image, top: float = 255.0) -> Image.Image:
    """RGB from any mode: transparent parts over white, CMYK converted, 16-bit, 32-bit and float
    grey scaled so that ``top`` is white."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    if image.mode in HIGH_DEPTH_MODES:
        array = np.asarray(image, dtype=np.float32) * np.float32(255.0 / top)
        return Image.fromarray(np.clip(array, 0, 255).astype(np.uint8)).convert("RGB")
    if image.mode != "RGB":
        return image.convert("RGB")
    return image
