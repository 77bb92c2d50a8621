"""Whether a photo shows mahjong tiles at all: a photo-level probability fitted on data.

The finder, trained on tiles on tables, also boxes the squares of a floor, a grid, a keyboard or
pixel art, and the classifier names each box's likeliest face; without this check such a photo
came back as a hand (a GNOME wallpaper's grid as 470 tiles, 275 of them white dragons). The
reader asks it once the boxes are read (``reader.read_photo``, step 3) and says "no mahjong tiles
were recognised" when it is likelier than not that the photo shows none.

1. ``photo_features``: what the boxes as read say about the whole photo: how many, how sure the
   finder and the classifier are, how many read as backs, blanks (``P``: a plain square) and
   flowers, how many faces differ, the boxes' shape, and of the faces with a picture (not
   blanks) how sure the surest are, how many are sure and how many of those differ; how many
   faces are read more often than one set holds them (a fifth 9p, a second 1f: a set is
   never photographed with more), how likely the classifier finds it that a box holds no
   tile at all, and how many boxes touch a box of their size as tiles in a row do (noise and
   photographs of anything else box blobs that lie apart).
2. ``TilePhotoModel`` (``models/tile_photo.json``, fitted by ``models.fit_tile_photo`` on real
   and generated photos of tiles and on photos of none, ``datasets.no_tile_photos``): a logistic
   model of "the photo shows tiles" on those features.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_rules import excess_copies
from fanscan.vision.numeric import held_logistic, logit, median, quantile

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "tile_photo.json"
FEATURES: tuple[str, ...] = ("log_boxes", "finder_logit", "face_logit", "backs", "blanks", "flowers",
                             "distinct_faces", "log_aspect", "named_high", "sure_named", "distinct_sure",
                             "excess_copies", "no_tile_logit", "touching")
SURE = 0.9
"""A face read at least this surely counts as sure (``sure_named``, ``distinct_sure``): a
feature's definition, whose weight the fit sets."""
NEIGHBOUR_STEP = (0.8, 1.25)
"""Two boxes touch as neighbouring tiles when their centres lie this many short sides apart..."""
NEIGHBOUR_SIZE = 0.75
"""...and their short sides differ by less than this ratio (``touching``: a feature's definition)."""


def photo_features(readings: list[TileReading]) -> np.ndarray:
    """The ``FEATURES`` of a photo's read boxes (all of them, before the hand is picked)."""
    if not readings:
        raise ValueError("a photo with no boxes has no features: it shows no tiles")
    faces = [r for r in readings if r.code != BACK]
    face_logits = logit(np.array([r.confidence for r in faces])) if faces else np.zeros(1)
    codes = [r.code for r in faces]
    named = [r for r in faces if r.code != "P"]
    named_logits = logit(np.array([r.confidence for r in named])) if named else logit(np.zeros(1))
    sure = [r.code for r in named if r.confidence >= SURE]
    boxes = np.stack([np.asarray(r.box, np.float64) for r in readings])
    sides_a = np.linalg.norm(boxes[:, 1] - boxes[:, 0], axis=1)
    sides_b = np.linalg.norm(boxes[:, 2] - boxes[:, 1], axis=1)
    aspect = np.maximum(sides_a, sides_b) / np.maximum(np.minimum(sides_a, sides_b), 1e-3)
    return np.array([
        np.log(len(readings)),
        float(np.mean(logit(np.array([r.finder_score for r in readings])))),
        median(face_logits),
        (len(readings) - len(faces)) / len(readings),
        codes.count("P") / len(faces) if faces else 0.0,
        sum(c in FLOWER_CODES for c in codes) / len(faces) if faces else 0.0,
        len(set(codes)) / len(faces) if faces else 0.0,
        float(np.log(median(aspect))),
        quantile(named_logits, 0.9),
        float(np.log1p(len(sure))),
        float(np.log1p(len(set(sure)))),
        excess_copies(codes),
        median(logit(np.array([r.no_tile for r in readings]))),
        _touching(boxes),
    ])


_ROWS_AT_ONCE = 256
"""``_touching`` compares this many boxes with all the others at a time (memory linear in boxes)."""


def _touching(boxes: np.ndarray) -> float:
    """The share of the quads ``boxes`` with a neighbour of about their size about one short
    side away (``NEIGHBOUR_STEP``, ``NEIGHBOUR_SIZE``)."""
    if len(boxes) < 2:
        return 0.0
    centres = boxes.mean(axis=1)
    sides = np.linalg.norm(np.roll(boxes, -1, axis=1) - boxes, axis=2)
    short = np.maximum(np.minimum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2, 1e-6)
    touching = np.zeros(len(boxes), bool)
    for start in range(0, len(boxes), _ROWS_AT_ONCE):
        rows = slice(start, start + _ROWS_AT_ONCE)
        apart = np.linalg.norm(centres[rows, None] - centres[None], axis=2) / short[rows, None]
        ratio = short[rows, None] / short[None]
        near = (apart >= NEIGHBOUR_STEP[0]) & (apart <= NEIGHBOUR_STEP[1])
        alike = (ratio > NEIGHBOUR_SIZE) & (ratio < 1 / NEIGHBOUR_SIZE)
        touching[rows] = (near & alike).any(axis=1)  # a box is never NEIGHBOUR_STEP from itself
    return float(touching.mean())


@dataclass(frozen=True)
class TilePhotoModel:
    """A logistic model of "this photo shows mahjong tiles" on ``photo_features``: on those of
    ``FEATURES`` it names (all by default; an earlier fit names fewer, and still loads)."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    features: tuple[str, ...] = FEATURES

    def probability(self, features: np.ndarray) -> float:
        """``features``: all of ``FEATURES``, as ``photo_features`` gives them."""
        taken = np.asarray(features)[[FEATURES.index(name) for name in self.features]]
        return float(held_logistic(taken, self.weights, self.bias, self.mean, self.scale))

    def shows_tiles(self, readings: list[TileReading]) -> bool:
        return bool(readings) and bool(self.probability(photo_features(readings)) >= 0.5)

    def to_json(self) -> dict:
        return {"features": list(self.features), "weights": list(self.weights), "bias": self.bias,
                "mean": list(self.mean), "scale": list(self.scale)}

    @classmethod
    def from_json(cls, obj: dict) -> TilePhotoModel:
        named = tuple(obj.get("features", ()))
        if not named or not set(named) <= set(FEATURES) or len(set(named)) != len(named):
            raise ValueError("the tile photo model was fitted on other features")
        sizes = {len(obj[k]) for k in ("weights", "mean", "scale")}
        if sizes != {len(named)}:
            raise ValueError("the tile photo model's weights do not match its features")
        return cls(tuple(map(float, obj["weights"])), float(obj["bias"]),
                   tuple(map(float, obj["mean"])), tuple(map(float, obj["scale"])), named)


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> TilePhotoModel | None:
    """The fitted model (the shipped file by default); None where it is not installed."""
    if not Path(path).is_file():
        return None
    return TilePhotoModel.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


class TilesNotShown(FanscanError):
    """``no_tiles``: a look's boxes judged to show no tiles, at ``probability`` that they do."""

    def __init__(self, message: str, probability: float) -> None:
        super().__init__("no_tiles", message)
        self.probability = probability

    def __reduce__(self) -> tuple:  # sent back from a worker process whole
        return type(self), (self.message, self.probability)


def refuse_unless_tiles(readings: list[TileReading], photo_name: str, at_least: float = 0.5) -> None:
    """Raise ``TilesNotShown`` when the shipped model (if installed) gives the boxes a probability
    of showing tiles under ``at_least``."""
    model = load_model()
    if model is None:
        return
    probability = model.probability(photo_features(readings)) if readings else 0.0
    if probability >= at_least:
        return
    found = (f"the {len(readings)} boxes found there do not read like tile faces" if len(readings) > 1
             else "the box found there does not read like a tile's face")
    raise TilesNotShown(f"no mahjong tiles were recognised in {photo_name}: {found} (if it shows tiles, "
                        "photograph them closer, from above, in even light)", probability)
