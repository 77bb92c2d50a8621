"""The records passed between the reader's stages.

``TileDetections`` (finder -> rectify/classifier) holds parallel arrays, shape-checked on creation.
``TileReading`` is one classified tile in the hand's own frame; ``HandLayout`` (layout -> reader)
is what the layout analyser made of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


@dataclass(frozen=True)
class TileDetections:
    """Tiles found in a photo: ``quads`` (n, 4, 2) float32, corners clockwise in image space;
    ``scores`` (n,) float32 in [0, 1]; ``backs`` (n,) bool, True for a face-down tile."""

    quads: np.ndarray
    scores: np.ndarray
    backs: np.ndarray

    def __post_init__(self) -> None:
        quads = np.asarray(self.quads, dtype=np.float32)
        scores = np.asarray(self.scores, dtype=np.float32)
        backs = np.asarray(self.backs, dtype=bool)
        if quads.ndim != 3 or quads.shape[1:] != (4, 2):
            raise ValueError(f"quads must have shape (n, 4, 2), got {quads.shape}")
        n = quads.shape[0]
        for name, array in (("scores", scores), ("backs", backs)):
            if array.shape != (n,):
                raise ValueError(f"{name} must have shape ({n},), got {array.shape}")
        object.__setattr__(self, "quads", quads)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "backs", backs)

    def __len__(self) -> int:
        return int(self.quads.shape[0])

    @classmethod
    def empty(cls) -> TileDetections:
        return cls(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, bool))

    def subset(self, keep: np.ndarray) -> TileDetections:
        """The detections where ``keep`` (a boolean mask or index array) selects."""
        return TileDetections(self.quads[keep], self.scores[keep], self.backs[keep])

    def scaled(self, factor: float) -> TileDetections:
        """The same detections with coordinates multiplied by ``factor``."""
        return TileDetections(self.quads * np.float32(factor), self.scores, self.backs)


@dataclass(frozen=True)
class TileReading:
    """One classified tile: ``box`` is the face quad in the face's TL, TR, BR, BL order (full-res
    pixels), ``orientation`` the face's counter-clockwise rotation in the image in degrees,
    ``sideways`` whether it lies across its row, ``position`` its centre along the hand's rows;
    ``candidates`` the classifier's best guesses, (code, probability), likeliest first (the
    reading's own code first); ``far_guesses`` the less likely ones that are still possible,
    likeliest first, for completing a hand no near guess completes; ``probs`` every class's
    probability (``CLASS_LABELS`` order, the back last; None for a reading made by hand, then
    ``face_probabilities`` builds it from the guesses); ``finder_score`` the finder's (or a
    probe's) confidence that the box holds a tile; ``frame_up`` the up of the frame its cluster
    was read in (``tile_reading.frame_groups``; None for a reading made by hand or by a probe)."""

    code: str
    confidence: float
    box: np.ndarray
    orientation: float
    sideways: bool
    position: float
    candidates: tuple[tuple[str, float], ...] = ()
    far_guesses: tuple[tuple[str, float], ...] = ()
    probs: np.ndarray | None = field(default=None, compare=False, repr=False)
    finder_score: float = 1.0
    frame_up: tuple[float, float] | None = None
    no_tile: float = 0.0

    def placed_along(self, right: np.ndarray) -> TileReading:
        """This reading, its position its box's centre along ``right`` (a frame's rows)."""
        return replace(self, position=float(self.box.mean(axis=0) @ right))


@dataclass(frozen=True)
class LayoutGroup:
    """Touching tiles in one row: ``members`` index into the readings, left to right; ``role`` is
    concealed, win, meld, concealed_kong, flowers or unknown."""

    members: tuple[int, ...]
    row: int
    role: str
    meld: dict | None = None


@dataclass(frozen=True)
class HandLayout:
    """The layout analyser's reading: groups, the hand JSON, other readings and doubts."""

    groups: tuple[LayoutGroup, ...]
    hand: dict
    alternatives: tuple[tuple[str, dict], ...] = ()
    doubts: tuple[str, ...] = ()
    group_of: tuple[int, ...] = field(default=())
