"""Each box cut and classified at most once in each way up, shared by every frame it is tried in.

A cluster of tiles is read upright, then, while it reads poorly, a quarter turn off
(``tile_reading._read_group``); a sideways tile is tried turned both ways in each. A crop the
classifier doubts gets a second look turned 180 degrees (``classifier.needs_second_look``), and
that turned crop is the box's crop the other way up. So the looks are kept per (box, way up): a
sideways tile's second way reuses the first's second look, and a frame read whole after a trial
on its surest tiles reuses the trial's looks.

1. ``looks(pairs)``: the boxes not yet seen in the asked ways are cut (``Photo.crop_quad``), the
   first batch also fixing the group's colour balance (``balance``), and looked at once.
2. The doubtful among the asked looks get the other way up's look: reused when cut already,
   otherwise their own crop turned 180 degrees is looked at and kept as that way's look.
3. ``TileClassifier.combined`` makes the looks. A stand-in classifier (tests) without
   ``one_look`` is asked once a crop, for its ``looks`` or else its ``probabilities`` (then
   saying nothing of boxes of no tile).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from fanscan.vision import geometry, white_balance
from fanscan.vision.classifier import Looks, needs_second_look
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import logit

UPRIGHT_SLOPE = 2.25
"""How surely a wide tile lies upright, from the margin m by which its upright look beats
``geometry.UPRIGHT_THOUGH_WIDE``'s rule: 1 / (1 + exp(-UPRIGHT_SLOPE * m)) (``wide_tile_reading``
mixes its looks by it). Fitted on the rule's own looks (``models/fit_upright_prior.py``): the
slope under which the mixed looks give the tiles' true faces the highest likelihood."""

WayKey = tuple[int, float, float]
"""(box index, the face's up as x and y): one way a box is cut."""


@dataclass(frozen=True)
class WayLooksSeen:
    """What ``WayLooks.looks`` gives for the asked (box, way up) pairs: the classifier's looks,
    each box oriented that way (corners in face order) and its crop as cut, before the balance."""

    looks: Looks
    boxes: list[np.ndarray]
    crops: list[np.ndarray]


@dataclass(frozen=True)
class BestWays:
    """Of the tiles asked (``WayLooks.best_ways``), each one's surest way: its place among the
    tile's ways, the look's probabilities and probability of no tile, the box oriented that way
    and its crop as cut."""

    picks: list[int]
    probs: np.ndarray
    no_tile: np.ndarray
    boxes: list[np.ndarray]
    crops: list[np.ndarray]


class WayLooks:
    """The looks at the boxes ``quads`` of one frame group, kept per way up (module docstring).

    ``balance(crops)`` gives the colour lookup table for the group from the crops first cut (None:
    leave them as they are); ``face_down`` marks the boxes the finder saw face down, which the
    balance does not judge by unless no box is face up.
    """

    def __init__(self, photo: Photo, quads: np.ndarray, face_down: np.ndarray, classifier: Any,
                 scale: int, crop_size: tuple[int, int],
                 balance: Callable[[list[np.ndarray]], np.ndarray | None]) -> None:
        self._photo, self._quads, self._face_down = photo, quads, face_down
        self._classifier, self._scale, self._crop_size = classifier, scale, crop_size
        self._balance_of = balance
        self._table: np.ndarray | None = None
        self._balanced_yet = False
        self._two_looks = hasattr(classifier, "one_look")
        self._answers: dict[WayKey, np.ndarray] = {}
        self._boxes: dict[WayKey, np.ndarray] = {}
        self._crops: dict[WayKey, np.ndarray] = {}

    def looks(self, pairs: Sequence[tuple[int, np.ndarray]]) -> WayLooksSeen:
        """The looks at box ``t`` with its face's top towards ``w`` for each (t, w) in ``pairs``."""
        keys = [(int(t), float(w[0]), float(w[1])) for t, w in pairs]
        self._cut_and_look([k for k in dict.fromkeys(keys) if k not in self._answers])
        first = np.stack([self._answers[k] for k in keys]) if keys else np.zeros((0, 1), np.float32)
        if not self._two_looks:  # a stand-in's rows: its faces' probabilities, then of no tile
            looks = Looks(first[:, :-1].astype(np.float32), first[:, -1].astype(np.float32))
        else:
            doubtful = needs_second_look(first) if keys else np.zeros(0, bool)
            opposite = [_opposite(k) for k, d in zip(keys, doubtful) if d]
            self._look_turned([o for o in dict.fromkeys(opposite) if o not in self._answers])
            turned = first.copy()
            if opposite:
                turned[doubtful] = np.stack([self._answers[o] for o in opposite])
            looks = self._classifier.combined(first, turned)
        return WayLooksSeen(looks, [self._boxes[k] for k in keys], [self._crops[k] for k in keys])

    def best_ways(self, tiles: Sequence[int], ways: Sequence[Sequence[np.ndarray]]) -> BestWays:
        """Each of ``tiles`` looked at in each of its ``ways`` (``ways[k]`` for ``tiles[k]``), the
        way read most surely kept, each way's log-odds weighed with its prior
        (``geometry.way_priors``)."""
        seen = self.looks([(t, w) for t, tile_ways in zip(tiles, ways) for w in tile_ways])
        probs = np.asarray(seen.looks.probs, np.float32)
        no_tile = np.asarray(seen.looks.no_tile, np.float32)
        picks, chosen, kept_probs, kept_no_tile, start = [], [], [], [], 0
        for tile_ways, priors in zip(ways, geometry.way_priors(self._quads, tiles, ways)):
            end = start + len(tile_ways)
            pick, row, empty = kept_look(probs[start:end], no_tile[start:end], priors)
            picks.append(pick)
            chosen.append(start + pick)
            kept_probs.append(row)
            kept_no_tile.append(empty)
            start = end
        return BestWays(picks, np.array(kept_probs, np.float32).reshape(len(picks), probs.shape[1]),
                        np.array(kept_no_tile, np.float32), [seen.boxes[c] for c in chosen],
                        [seen.crops[c] for c in chosen])

    def _cut_and_look(self, keys: list[WayKey]) -> None:
        if not keys:
            return
        boxes = self._oriented(keys)
        crops = [self._photo.crop_quad(b, *self._crop_size, self._scale) for b in boxes]
        if not self._balanced_yet:
            faces = [c for c, k in zip(crops, keys) if not self._face_down[k[0]]]
            self._table, self._balanced_yet = self._balance_of(faces or crops), True
        self._remember(keys, list(boxes), crops)

    def _look_turned(self, keys: list[WayKey]) -> None:
        """Looks at boxes the other way up from a way already cut: that crop turned 180 degrees."""
        if not keys:
            return
        crops = [cv2.rotate(self._crops[_opposite(k)], cv2.ROTATE_180) for k in keys]
        self._remember(keys, list(self._oriented(keys)), crops)

    def _oriented(self, keys: list[WayKey]) -> np.ndarray:
        """The boxes of ``keys``, corners in the order of their faces turned each key's way."""
        return geometry.orient_boxes(self._quads[[k[0] for k in keys]], np.array([k[1:] for k in keys]))

    def _remember(self, keys: list[WayKey], boxes: list[np.ndarray], crops: list[np.ndarray]) -> None:
        seen = white_balance.balanced(crops, self._table)
        if self._two_looks:
            answers = self._classifier.one_look(seen)
        elif hasattr(self._classifier, "looks"):
            looked = self._classifier.looks(seen)
            answers = np.column_stack([looked.probs, looked.no_tile])
        else:
            probs = np.asarray(self._classifier.probabilities(seen), np.float32)
            answers = np.column_stack([probs, np.zeros(len(probs), np.float32)])
        for k, box, crop, answer in zip(keys, boxes, crops, answers):
            self._answers[k], self._boxes[k], self._crops[k] = answer, box, crop


def kept_look(looks: np.ndarray, no_tile: np.ndarray, priors: list[float]) -> tuple[int, np.ndarray, float]:
    """Which of a tile's looks (one row of probabilities per way) to keep, its probabilities and
    probability of no tile: the surest, or for a tile flagged sideways (``geometry.ways_up``:
    three ways) as ``wide_tile_reading`` says."""
    if len(looks) == 3:
        return wide_tile_reading(looks, no_tile, priors[2])
    pick = int(np.argmax(looks.max(axis=1)))
    return pick, looks[pick], float(no_tile[pick])


def wide_tile_way(surest: Sequence[float], upright_prior: float) -> int:
    """Of a wide tile's three looks (both ways across the row, then upright: each one's surest
    probability), the one to keep: the surer sideways look, unless the upright look's log-odds
    with its prior (``geometry.way_priors``) beat it. So also where the looks name one face: a
    flower laid flat beyond a standing hand, as wide as a sideways tile, reads 1f at 87 % upright
    and at 18 % cut on its side, and lies upright (on the fit's 1,613 looks, 18 more read the
    right way up than when a face read alike either way kept the box's sideways shape,
    ``models/fit_upright_prior.py``, docs/benchmarks.md session 68)."""
    sideways, margin = _upright_margin(surest, upright_prior)
    return 2 if margin > 0 else sideways


def _upright_margin(surest: Sequence[float], upright_prior: float) -> tuple[int, float]:
    """The surer of a wide tile's two sideways looks, and the log-odds (with the prior) by which
    its upright look beats that one."""
    sideways = int(np.argmax(surest[:2]))
    return sideways, float(logit(surest[2]) - logit(surest[sideways])) + upright_prior


def wide_tile_reading(looks: np.ndarray, no_tile: np.ndarray, upright_prior: float,
                      slope: float = UPRIGHT_SLOPE) -> tuple[int, np.ndarray, float]:
    """A wide tile's way kept (``wide_tile_way``), its probabilities and probability of no tile.

    Which way the face points is uncertain: the rule's log-odds margin (the upright look's
    log-odds over the surer sideways look's, with the prior) is read as the probability that the
    tile is upright, and the tile's probabilities are the two looks' mixed by it. So a claimed 5s
    whose quarter-turned upright cut reads 5p at 96 % keeps 5s as a likely alternative, which the
    reading search may take where it completes the hand, rather than the rule's choice alone. The
    way kept is the one whose face the mixture names (where both name one face, the rule's)."""
    surest = looks.max(axis=1)
    faces = looks.argmax(axis=1)
    pick = wide_tile_way(surest, upright_prior)
    sideways, margin = _upright_margin(surest, upright_prior)
    upright = 1.0 / (1.0 + np.exp(-slope * margin))
    mixed = (upright * looks[2] + (1 - upright) * looks[sideways]).astype(np.float32)
    named = int(np.argmax(mixed))
    if faces[2] != faces[sideways] and named in (faces[2], faces[sideways]):
        pick = 2 if named == faces[2] else sideways
    return pick, mixed, float(upright * no_tile[2] + (1 - upright) * no_tile[sideways])


def _opposite(key: WayKey) -> WayKey:
    """The same box the other way up."""
    return key[0], -key[1], -key[2]
