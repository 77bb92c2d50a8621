"""The flower numeral reader: the number (1-4) a flower or season prints in a top corner.

The tile classifier tells a flower from other tiles well but reads the picture, which differs
between sets, so it confuses the numbers (13 of its 17 flower errors on unseen real sets had the
flower-or-season right and the number wrong). This second look asks a tiny net
(``models/flower_numerals.onnx``, trained on rendered 32 x 32 patches and on real flowers' printed
numbers by ``fanscan.models.train_numerals``) how likely each square window over the top band of an upright
crop (``BAND``; sides ``WINDOW_SIDES`` of the crop's width) holds a numeral 1-4 (Arabic or
一二三四); a number's evidence is its surest window. When some number is sure (``NUMBER_SURE``:
sets without printed numbers give no such window), ``with_numbers`` re-weighs the classifier's
eight flower probabilities by it (``NUMBER_WEIGHT``), keeping their total: the classifier still
decides flower or season, and whether the tile is a flower at all.

The net is shipped fully convolutional (its last layer a 1 x 1 convolution): the band, scaled so
that a window of each side spans 32 pixels, goes through it once and comes out as a map of every
window 8 pixels apart, so the overlapping windows share their convolutions (about a quarter of
the work of cutting them one by one: ``windows``, which training still uses).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

import fanscan.models
from fanscan.errors import FanscanError
from fanscan.vision.onnx_session import LazySession

DEFAULT_MODEL = Path(fanscan.models.__file__).resolve().parent / "flower_numerals.onnx"
CROP_SIZE = (96, 128)
"""Width and height crops are brought to before windows are laid on them (the photo reader's)."""
WINDOW_SIDES = (0.25, 0.33, 0.42)
"""Window sides as shares of the crop's width."""
BAND = 0.45
"""Windows lie in this top share of the crop's height, where sets print the number."""
NUMBER_SURE = 0.95
"""The numbers' evidence counts only when some window reads a number at least this surely."""
NUMBER_WEIGHT = 16.0
"""Exponent of the number evidence against the classifier's flower probabilities."""
MAX_CROPS = 32
"""Crops' bands per onnxruntime call (a photo can bring dozens of possible flowers)."""


def windows(crop: np.ndarray, patch: int) -> np.ndarray:
    """Grey ``patch`` x ``patch`` windows over the top band of a BGR crop, (k, patch, patch) uint8,
    cut one by one, a third of their side apart: what the net learns real flowers from
    (``datasets.real_numerals``)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    height, width = grey.shape
    out = []
    for share in WINDOW_SIDES:
        side = max(8, round(share * width))
        stride = max(2, side // 3)  # a third: half as many windows read 5 fewer of 103 real flowers
        for y in range(0, max(1, int(BAND * height) - side + 1), stride):
            for x in range(0, width - side + 1, stride):
                out.append(cv2.resize(grey[y : y + side, x : x + side], (patch, patch), interpolation=cv2.INTER_AREA))
    return np.stack(out)


def scaled_bands(crops: Sequence[np.ndarray], patch: int) -> list[np.ndarray]:
    """For each of ``WINDOW_SIDES``, the crops' grey top bands (n, h, w) uint8, each crop first
    brought to ``CROP_SIZE`` and its band scaled so that a window of that side spans ``patch``
    pixels."""
    grey = [cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) if c.ndim == 3 else c for c in crops]
    width, height = CROP_SIZE
    bands = [cv2.resize(g, CROP_SIZE, interpolation=cv2.INTER_AREA)[: int(BAND * height)] for g in grey]
    out = []
    for share in WINDOW_SIDES:
        factor = patch / max(8, round(share * width))
        size = (max(patch, round(width * factor)), max(patch, round(bands[0].shape[0] * factor)))
        out.append(np.stack([cv2.resize(b, size, interpolation=cv2.INTER_AREA) for b in bands]))
    return out


class NumeralReader:
    """Reads flower numbers with the ONNX net; the session is made on first use, with ``threads``
    intra-op threads (None: the process's ``onnx_session.thread_budget``), ``max_crops`` bands a
    call."""

    def __init__(self, model_path: str | Path | None = None, *, threads: int | None = None,
                 max_crops: int = MAX_CROPS) -> None:
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        try:
            meta: dict[str, Any] = json.loads(self.model_path.with_suffix(".json").read_text(encoding="utf-8"))
            self.classes: tuple[str, ...] = tuple(meta["classes"])
            self.patch = int(meta["input"]["size"])
            form = meta["input"]["name"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise FanscanError("bad_model", f"cannot read the numeral reader's sidecar ({error})") from None
        if form != "band":
            raise FanscanError("bad_model", f"{self.model_path.name} reads {form}s, not whole bands: "
                                            "export it again with fanscan.models.train_numerals")
        self._session = LazySession(self.model_path, threads=threads, max_batch=max_crops)

    def number_probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(n, 4): for each upright BGR crop, the surest window's probability of each number 1-4."""
        if not crops:
            return np.zeros((0, 4), np.float32)
        numbers = [self.classes.index(str(n)) for n in range(1, 5)]
        best = np.zeros((len(crops), 4), np.float32)
        for bands in scaled_bands(crops, self.patch):
            maps = self._session.run(bands.astype(np.float32)[:, None] / np.float32(255))  # (n, classes, rows, columns)
            best = np.maximum(best, maps[:, numbers].max(axis=(2, 3)))
        return best


def with_numbers(flower_probs: np.ndarray, numbers: np.ndarray) -> np.ndarray:
    """The eight flower probabilities (1f-8f) re-weighed by the evidence of each number (4),
    with the same total; unchanged when no number is sure."""
    if float(numbers.max()) < NUMBER_SURE:
        return flower_probs
    evidence = np.tile(np.maximum(numbers, 1e-6), 2).astype(np.float64) ** NUMBER_WEIGHT
    weighted = flower_probs.astype(np.float64) * evidence
    total = weighted.sum()
    if total <= 0:
        return flower_probs
    return (weighted / total * float(flower_probs.sum())).astype(flower_probs.dtype)


_default: NumeralReader | None = None
_default_lock = threading.Lock()


def default_numeral_reader() -> NumeralReader | None:
    """One shared reader on the shipped model, or None when the model is not installed."""
    global _default
    with _default_lock:
        if _default is None and DEFAULT_MODEL.is_file():
            _default = NumeralReader()
        return _default
