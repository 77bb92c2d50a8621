"""Which of the eight flowers a tile is: the second looks a tile that may be a flower gets.

The tile classifier tells a flower from every other face well, and the eight flowers from each
other less well: their pictures and characters are small and differ between sets (one rendered
style's gold 梅蘭菊 were read at 30-50 %). A tile whose eight flower probabilities together
outweigh every other face (``may_be_flowers``) gets two more looks, in this order:

1. the flower specialist (``models/flower_classifier.onnx``): the tile classifier fine-tuned on the
   eight flowers alone (``fanscan train --classes 1f,...,8f``), looking at the tile's crop; its
   eight probabilities take the place of the classifier's, given the classifier's total, so which
   flower it is becomes the specialist's call and whether the tile is a flower at all stays the
   classifier's;
2. the numeral reader (``numerals``): a printed number it is sure of re-weighs the eight, unless
   the looks before it are already sure of one flower (``NUMBERS_BELOW``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import fanscan.models
from fanscan.scoring.tiles import FLOWER_CODES
from fanscan.vision.classifier import TileClassifier
from fanscan.vision.numerals import CROP_SIZE, NumeralReader, default_numeral_reader, with_numbers

SPECIALIST_MODEL = Path(fanscan.models.__file__).resolve().parent / "flower_classifier.onnx"

NUMBERS_BELOW = 0.8
"""The numeral reader re-weighs a tile's eight flowers only when no flower has this share of them
after the classifier's and the specialist's looks. On sets that print no numbers it can be sure of
a "1" in a character's strokes: on 1,000 generated scenes five flowers read at 0.90-0.99
(kmahjongg traditional's pictures, gnome's 秋) were turned into 1f or 5f. True flowers read right
of 2,321 on 2,000 generated scenes (with the specialist also looking at tighter cuts of each box,
since removed): 2,298 -> 2,304, none lost; unseen real crops the same (``models/MODEL_CARD.md``).
On the real table photos of folds 0-3, read with 0.6, 0.8 and 0.95, not one tile changed
(``docs/benchmarks.md``, session 43)."""


def may_be_flowers(probs: np.ndarray, labels: Sequence[str]) -> list[int]:
    """Rows of ``probs`` whose eight flower probabilities together outweigh every other face."""
    flowers = [labels.index(code) for code in FLOWER_CODES]
    others = [j for j in range(len(labels)) if j not in flowers]
    return [i for i, p in enumerate(probs) if p[flowers].sum() > p[others].max()]


@dataclass(frozen=True)
class FlowerLooks:
    """The looks a possible flower gets after the classifier's; either may be absent."""

    specialist: TileClassifier | None = None
    numerals: NumeralReader | None = None

    def reweigh(self, probs: np.ndarray, labels: Sequence[str],
                crop_of: Callable[[int], np.ndarray]) -> np.ndarray:
        """Class probabilities (n, len(labels)) with the eight flowers of each possible flower
        re-read; ``crop_of(i)`` is tile i's upright crop, asked for only for those tiles."""
        if self.specialist is None and self.numerals is None:
            return probs
        rows = may_be_flowers(probs, labels)
        if not rows:
            return probs
        flowers = [labels.index(code) for code in FLOWER_CODES]
        crops = [crop_of(i) for i in rows]
        out = probs.copy()
        if self.specialist is not None:
            looks = self.specialist.probabilities(crops)
            looks = looks[:, [self.specialist.labels.index(code) for code in FLOWER_CODES]]
            for i, share in zip(rows, looks):
                out[i, flowers] = share / max(float(share.sum()), 1e-12) * out[i, flowers].sum()
        if self.numerals is not None:
            unsure = [k for k, i in enumerate(rows)
                      if out[i, flowers].max() < NUMBERS_BELOW * out[i, flowers].sum()]
            upright = [cv2.resize(crops[k], CROP_SIZE, interpolation=cv2.INTER_AREA) for k in unsure]
            for k, evidence in zip(unsure, self.numerals.number_probabilities(upright) if unsure else []):
                out[rows[k], flowers] = with_numbers(out[rows[k], flowers], evidence)
        return out


_default: FlowerLooks | None = None
_default_lock = threading.Lock()


def default_flower_looks() -> FlowerLooks:
    """The shipped specialist and numeral reader, each where its model is installed (shared)."""
    global _default
    with _default_lock:
        if _default is None:
            specialist = TileClassifier(SPECIALIST_MODEL) if SPECIALIST_MODEL.is_file() else None
            _default = FlowerLooks(specialist, default_numeral_reader())
        return _default
