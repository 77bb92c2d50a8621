"""The reading search's evidence, fitted on data (``models/fit_evidence.py``), not set by hand.

Three kinds, all in ``models/reading_evidence.json`` (its sidecar says what they were fitted on):

1. ``TileEvidence.tile_probability``: how likely a box holds a tile, a logistic model of features
   of the box among the hand's boxes (``box_features``: the finder's score, size and shape against
   the median box, how near the photo's edge, how much it lies on other boxes, its nearest
   neighbour, and what the classifier made of it).
2. ``TileEvidence.face_log_probs``: each face's log probability, the classifier's probabilities
   sharpened or softened by a fitted temperature (calibrated on tiles of photos it never saw).
3. ``LayoutEvidence``: the log probability that a true hand's layout shows each thing a misread
   one often does (a claimed group that is no set, a group with a back that is no concealed kong,
   a back in no concealed kong, a flower inside a group of suit tiles, a flower at the end of
   one), from how often the true layouts of the fitting photos show it; and the
   largest total cost (nats) the search may spend mending a reading, fitted for exact hands.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from fanscan.scoring.tiles import BACK, CLASS_LABELS
from fanscan.vision.detections import TileReading
from fanscan.vision.numeric import held_logistic, logit, median, quad_areas

import fanscan.models

EVIDENCE_PATH = Path(fanscan.models.__file__).resolve().parent / "reading_evidence.json"
FEATURES = ("finder_logit", "log_area", "aspect_off", "edge", "covered", "nearest",
            "top_logit", "blank", "flower_mass", "back")
_FLOWERS = slice(CLASS_LABELS.index("1f"), CLASS_LABELS.index("8f") + 1)
_BACK_INDEX = CLASS_LABELS.index(BACK)
_BLANK_INDEX = CLASS_LABELS.index("P")
_EPS = 1e-6


def face_probabilities(reading: TileReading) -> np.ndarray:
    """The reading's probability of each class (``CLASS_LABELS`` order). A reading without the
    classifier's vector (one made by hand) gets its guesses, the rest spread evenly; the reader's
    own choice is never less likely than any other class (its flower rule and the finder's back
    mark may overrule the classifier's first guess)."""
    if reading.probs is not None:
        probs = np.asarray(reading.probs, np.float64).copy()
    else:
        probs = np.zeros(len(CLASS_LABELS))
        for code, p in (*reading.candidates, *reading.far_guesses, (reading.code, reading.confidence)):
            if code in CLASS_LABELS:
                probs[CLASS_LABELS.index(code)] = max(probs[CLASS_LABELS.index(code)], p)
        rest = max(0.0, 1.0 - probs.sum())
        empty = probs == 0
        probs[empty] = rest / max(1, int(empty.sum()))
    own = CLASS_LABELS.index(reading.code) if reading.code in CLASS_LABELS else None
    if own is not None:
        probs[own] = max(probs[own], reading.confidence, probs.max() * (1 + 1e-6))
    return probs / probs.sum()


def _covered_shares(boxes: np.ndarray, areas: np.ndarray, centres: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """Each box's share lying on the other boxes."""
    out = np.zeros(len(boxes))
    for i in range(len(boxes)):
        near = np.nonzero(np.linalg.norm(centres - centres[i], axis=1) < reach[i] + reach)[0]
        overlap = sum(cv2.intersectConvexConvex(boxes[i], boxes[j])[0] for j in near if j != i)
        out[i] = overlap / areas[i] if areas[i] > 0 else 1.0
    return out


def box_features(readings: list[TileReading], image_size: tuple[int, int],
                 probs: np.ndarray | None = None) -> np.ndarray:
    """The features (``FEATURES``) of each reading's box among the others: (n, len(FEATURES));
    ``probs``: the readings' ``face_probabilities`` when the caller has them already."""
    n = len(readings)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    boxes = np.stack([np.asarray(r.box, np.float32) for r in readings])
    areas = quad_areas(boxes.astype(np.float64))
    typical = max(median(areas), 1.0)
    side = math.sqrt(typical)
    sides_a = np.linalg.norm(boxes[:, 1] - boxes[:, 0], axis=1)
    sides_b = np.linalg.norm(boxes[:, 2] - boxes[:, 1], axis=1)
    aspect = np.maximum(sides_a, sides_b) / np.maximum(np.minimum(sides_a, sides_b), 1e-3)
    centres = boxes.mean(axis=1)
    reach = np.linalg.norm(boxes[:, 0] - boxes[:, 2], axis=1) / 2
    width, height = image_size
    to_edge = np.minimum.reduce([boxes[:, :, 0].min(1), boxes[:, :, 1].min(1),
                                 width - boxes[:, :, 0].max(1), height - boxes[:, :, 1].max(1)])
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(n) * 1e9
    nearest = apart.min(axis=1) / side if n > 1 else np.full(n, 10.0)
    if probs is None:
        probs = np.stack([face_probabilities(r) for r in readings])
    return np.column_stack([
        logit(np.array([r.finder_score for r in readings])),
        np.log(np.maximum(areas, 1.0) / typical),
        np.abs(np.log(aspect / median(aspect))),
        np.clip(to_edge / side, 0.0, 2.0),
        _covered_shares(boxes, areas, centres, reach),
        np.log(np.clip(nearest, 0.05, 20.0)),
        logit(np.array([r.confidence for r in readings])),
        probs[:, _BLANK_INDEX],
        probs[:, _FLOWERS].sum(axis=1),
        np.array([r.code == BACK for r in readings], float),
    ])


@dataclass(frozen=True)
class TileEvidence:
    """A box's probability of holding a tile, and the faces' calibrated log probabilities."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    temperature: float

    def tile_probability(self, features: np.ndarray) -> np.ndarray:
        return held_logistic(features, self.weights, self.bias, self.mean, self.scale)

    def face_log_probs(self, probs: np.ndarray) -> np.ndarray:
        """Log probabilities of each class (rows of ``probs``), tempered and normalised."""
        logs = np.log(np.maximum(probs, _EPS)) / self.temperature
        return logs - np.logaddexp.reduce(logs, axis=-1, keepdims=True)


@dataclass(frozen=True)
class LayoutEvidence:
    """Log probabilities (<= 0) of layout events in true hands, and the mending budget."""

    claimed_not_set: float
    back_group_not_kong: float
    stray_back: float
    flower_in_group: float
    flower_ends_group: float
    max_cost: float


@dataclass(frozen=True)
class Evidence:
    tiles: TileEvidence
    layout: LayoutEvidence

    def to_json(self) -> dict:
        return {"tiles": self.tiles.__dict__ | {"features": list(FEATURES)}, "layout": self.layout.__dict__}

    @classmethod
    def from_json(cls, obj: dict) -> Evidence:
        tiles = dict(obj["tiles"])
        if tuple(tiles.pop("features")) != FEATURES:
            raise ValueError("the evidence file was fitted on other features")
        layout = dict(obj["layout"])
        # A file fitted before flowers at a group's end were told from flowers inside it priced both alike.
        layout.setdefault("flower_ends_group", layout.get("flower_in_group"))
        return cls(TileEvidence(**{k: tuple(v) if isinstance(v, list) else v for k, v in tiles.items()}),
                   LayoutEvidence(**layout))


def load_evidence(path: Path | None = None) -> Evidence:
    """The fitted evidence of ``path`` (by default ``EVIDENCE_PATH``: the shipped file, unless a
    benchmark chose another with ``use_evidence_file``)."""
    return _evidence_of(Path(path) if path is not None else EVIDENCE_PATH)


@lru_cache(maxsize=4)
def _evidence_of(path: Path) -> Evidence:
    return Evidence.from_json(json.loads(path.read_text(encoding="utf-8")))


def use_evidence_file(path: Path) -> None:
    """Read the evidence from ``path`` from now on, wherever none is passed (benchmarks comparing fits)."""
    global EVIDENCE_PATH
    EVIDENCE_PATH = Path(path)
