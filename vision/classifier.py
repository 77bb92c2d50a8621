"""Tile face classification with the shipped ONNX model (onnxruntime), batched.

``TileClassifier(model_path=None)`` reads the model's JSON sidecar (labels, input size, channel
order, mean/std; see ``fanscan.models.export``); its onnxruntime session is a shared
``LazySession``, made on first use. Crops are BGR uint8
arrays of any size, preprocessed exactly as in training (``vision.preprocess``).

A model whose labels end in ``NO_TILE`` (``CLASSIFIER_LABELS``) also says how likely a crop holds
no tile at all (``looks``); its 43 tile probabilities are then given as they stand for a tile
(divided by the probability that the crop holds one), so every caller reads faces as before.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

import fanscan.models
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS, NO_TILE
from fanscan.vision.onnx_session import LazySession
from fanscan.vision.preprocess import PreprocessSpec, preprocess

if TYPE_CHECKING:
    from fanscan.vision.flowers import FlowerLooks

DEFAULT_MODEL = Path(fanscan.models.__file__).resolve().parent / "tile_classifier.onnx"
BATCH = 64  # crops per onnxruntime call
# Crops read with less confidence than this get a second look, turned 180 degrees (the classifier
# learnt faces both ways up), and the two looks are averaged. Held-out real crops (3 folds, 1,352,
# with the numeral reader): stage 5 97.7 -> 98.0 %, stage 6 98.0 -> 98.4 %; a second look at every
# crop gives the same answers at several times the cost (16-19 % of real crops fall below 0.9).
SECOND_LOOK_BELOW = 0.9


def needs_second_look(first: np.ndarray) -> np.ndarray:
    """Which raw answers (rows of ``TileClassifier.one_look``) are doubtful enough for a second
    look turned 180 degrees: judged on every answer, no tile among them."""
    return first.max(axis=1, initial=0.0) < SECOND_LOOK_BELOW


@dataclass(frozen=True)
class Looks:
    """What the classifier made of some crops: ``probs`` (n, len(labels)), each row the faces'
    probabilities given that the crop holds a tile; ``no_tile`` (n,) the probability that it
    holds none (zeros for a model that never answers so)."""

    probs: np.ndarray
    no_tile: np.ndarray


def _labels_wrong(labels: tuple[str, ...]) -> str | None:
    """What is wrong with a sidecar's classes (no tile code, none, one twice), or None."""
    strange = [label for label in labels if label not in CLASS_LABELS]
    if strange:
        return f"{strange[0][:40]!r}, which is no tile code"
    if not labels:
        return "no classes"
    return "a class twice" if len(set(labels)) < len(labels) else None


class TileClassifier:
    """Classify tile crops into the 42 faces plus ``back``.

    ``threads``: onnxruntime's intra-op threads (default None: the process's
    ``onnx_session.thread_budget``).
    """

    def __init__(self, model_path: str | Path | None = None,
                 providers: Sequence[str] | None = None, *, threads: int | None = None) -> None:
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        sidecar = self.model_path.with_suffix(".json")
        if not self.model_path.is_file():
            raise FanscanError("not_found", f"no classifier model at {self.model_path}")
        try:
            meta: dict[str, Any] = json.loads(sidecar.read_text(encoding="utf-8"))
            self.spec = PreprocessSpec.from_json(meta["input"])
            outputs: tuple[str, ...] = tuple(meta["labels"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise FanscanError(
                "bad_model", f"cannot read the classifier's sidecar {sidecar} ({error})"
            ) from None
        self.answers_no_tile = bool(outputs) and outputs[-1] == NO_TILE
        """Whether the model's last output is ``NO_TILE`` (kept out of ``labels``)."""
        self.labels: tuple[str, ...] = outputs[:-1] if self.answers_no_tile else outputs
        if (wrong := _labels_wrong(self.labels)) is not None:
            raise FanscanError("bad_model", f"the classifier's sidecar {sidecar} names {wrong}")
        self.meta = meta
        self._session = LazySession(self.model_path, threads=threads, providers=providers, max_batch=BATCH)

    def _run(self, tensor: np.ndarray) -> np.ndarray:
        answers = self._session.run(tensor)
        outputs = len(self.labels) + self.answers_no_tile
        if answers.ndim != 2 or answers.shape[1] != outputs:
            raise FanscanError("bad_model", f"{self.model_path} answers {answers.shape[1:]} values a crop, but its "
                                            f"sidecar names {outputs} classes")
        return answers

    def one_look(self, images: Sequence[np.ndarray]) -> np.ndarray:
        """The model's raw answers (n, outputs) for the crops as they are: the faces'
        probabilities, then (a model that answers so) the probability of no tile."""
        out = [
            self._run(preprocess(images[start : start + BATCH], self.spec))
            for start in range(0, len(images), BATCH)
        ]
        outputs = len(self.labels) + self.answers_no_tile
        return np.concatenate(out) if out else np.zeros((0, outputs), np.float32)

    def looks(self, images: Sequence[np.ndarray]) -> Looks:
        """The faces' probabilities and the probability of no tile for BGR uint8 crops of any
        size; a doubtful crop's are the mean of its two looks, as is and turned 180 degrees
        (``needs_second_look``)."""
        first = self.one_look(images)
        doubtful = np.flatnonzero(needs_second_look(first))
        turned = first.copy()
        if doubtful.size:
            turned[doubtful] = self.one_look([cv2.rotate(images[i], cv2.ROTATE_180) for i in doubtful])
        return self.combined(first, turned)

    def combined(self, first: np.ndarray, turned: np.ndarray) -> Looks:
        """``Looks`` from each crop's raw answer (``one_look``) and, for the doubtful ones, the
        answer for the crop turned 180 degrees (rows of ``turned`` elsewhere are not read)."""
        doubtful = needs_second_look(first)
        probs = np.where(doubtful[:, None], (first + turned) / 2, first).astype(np.float32)
        if not self.answers_no_tile:
            return Looks(probs, np.zeros(len(probs), np.float32))
        no_tile = probs[:, -1].copy()
        faces = probs[:, :-1] / np.maximum(1.0 - no_tile, 1e-6)[:, None]
        return Looks(faces / faces.sum(axis=1, keepdims=True).clip(1e-12), no_tile)

    def probabilities(self, images: Sequence[np.ndarray]) -> np.ndarray:
        """The faces' probabilities (n, len(labels)) of ``looks``."""
        return self.looks(images).probs

    def classify(self, images: Sequence[np.ndarray], flower_looks: FlowerLooks | None = None,
                 ) -> tuple[list[str], np.ndarray]:
        """The most likely code of each crop, and its probability (the confidence); with
        ``flower_looks``, a crop that may be a flower gets their second looks (``vision.flowers``)."""
        codes, confidences, _ = self.named(images, flower_looks)
        return codes, confidences

    def named(self, images: Sequence[np.ndarray], flower_looks: FlowerLooks | None = None,
              ) -> tuple[list[str], np.ndarray, np.ndarray]:
        """``classify``'s codes and confidences (each face's as it stands for a tile), and each
        crop's probability of holding no tile (``Looks.no_tile``)."""
        looked = self.looks(images)
        probs = looked.probs
        if flower_looks is not None:
            probs = flower_looks.reweigh(probs, self.labels, lambda i: images[i])
        best = probs.argmax(axis=1)
        return [self.labels[i] for i in best], probs[np.arange(len(best)), best], looked.no_tile


_default: TileClassifier | None = None
_default_lock = threading.Lock()


def default_classifier() -> TileClassifier:
    """One shared classifier on the shipped model."""
    global _default
    with _default_lock:
        if _default is None:
            _default = TileClassifier()
        return _default
