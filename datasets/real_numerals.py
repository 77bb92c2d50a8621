"""Real flowers' numeral windows: the numeral reader's windows over real flower crops, with the
number each flower shows (1-4: 梅 蘭 菊 竹 and 春 夏 秋 冬 in order).

Which window holds the printed numeral is not labelled, and some sets print none; the crop's
number is all that is known. ``models/train_numerals.py`` learns from them as bags of windows
(``--real-folds``): the surest window of the labelled number should read it, no window another
number. The crops are the labelled flowers of the rf-chinese table photos
(``datasets.real_table_crops``: cut from their boxes, turned upright and unmirrored), of the
source folds asked for, so that a fold held out stays unseen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from fanscan.datasets.real_table_crops import upright_crops
from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
from fanscan.scoring.tiles import FLOWER_CODES
from fanscan.vision.numerals import CROP_SIZE, windows


def flower_number(code: str) -> int:
    """The number (1-4) a flower or season prints: 1f-4f and 5f-8f each count 1 to 4."""
    return FLOWER_CODES.index(code) % 4 + 1


@dataclass(frozen=True)
class NumeralBags:
    """Each real flower's windows (n, k, patch, patch) uint8 grey, its number (n,) 1-4 and the
    photo it came from (n,)."""

    windows: np.ndarray
    numbers: np.ndarray
    photos: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.numbers)


def bags_of(crops: Iterable[np.ndarray], codes: Iterable[str], photos: Iterable[str], patch: int,
            ) -> NumeralBags:
    """The windows the reader would read on each upright flower crop (``vision.numerals``)."""
    bags, numbers, names = [], [], []
    for crop, code, photo in zip(crops, codes, photos):
        upright = cv2.resize(crop, CROP_SIZE, interpolation=cv2.INTER_AREA)
        bags.append(windows(upright, patch))
        numbers.append(flower_number(code))
        names.append(photo)
    if not bags:
        return NumeralBags(np.zeros((0, 0, patch, patch), np.uint8), np.zeros(0, np.int64), ())
    return NumeralBags(np.stack(bags), np.array(numbers, np.int64), tuple(names))


def real_flower_bags(folds: Iterable[int], patch: int, classifier=None, progress=None) -> NumeralBags:
    """The labelled flowers of the rf-chinese sources in ``folds`` as bags of windows (empty
    when ../shared/data is absent). ``classifier`` turns the crops upright (default: the
    shipped one); ``progress(done, total)`` is told after each photo."""
    if classifier is None:
        from fanscan.vision.classifier import default_classifier

        classifier = default_classifier()
    photos = [p for p in in_folds(least_turned(load_table_photos()), list(folds))
              if any(code in FLOWER_CODES for code in p.codes)]
    crops, codes, names = [], [], []
    for done, photo in enumerate(photos, 1):
        upright = upright_crops(photo, classifier)
        for crop, code in zip(upright.crops, upright.codes):
            if code in FLOWER_CODES:
                crops.append(crop)
                codes.append(code)
                names.append(photo.path.name)
        if progress is not None:
            progress(done, len(photos))
    return bags_of(crops, codes, names, patch)
