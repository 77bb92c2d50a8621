"""What the reading search (``interpret``) chooses among: each box's options, priced.

A box may show each face the classifier thinks possible, or be no tile at all. An option's cost
is its negative log probability under the fitted evidence (``vision.evidence``: the box's
probability of being a tile, and the face's calibrated probability against the likeliest
face's, so that a tile whose face is in doubt is still surely a tile), counted from the box's
likeliest option; options dearer than the mending budget are none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import Evidence, box_features, face_probabilities

MIN_FACE_PROBABILITY = 1e-5
"""Faces less likely than this are no option (they would only ever be taken past the budget)."""


@dataclass(frozen=True)
class Option:
    """One way a box may be read: a face, or no tile (``code`` None), and what it costs."""

    code: str | None
    probability: float  # the classifier's (untempered) probability of the face; P(no tile) for None
    cost: float
    alone: float = 0.0  # for no tile: its cost were no other box on the tile (``options``)


def options(readings: list[TileReading], image_size: tuple[int, int], evidence: Evidence,
            budget: float, one_tile: list[tuple[int, int]] = ()) -> list[list[Option]]:
    """Each candidate's options, cheapest first, costs counted from the cheapest.

    A box that shares its tile with another (``one_tile``) is no tile of its own whenever the
    other is kept, so its evidence against being one is not what leaving it out costs: that is
    only how much likelier a tile it is than its likeliest twin (nothing when a twin is as
    likely). Leaving both out costs what leaving the likelier out costs alone (the search adds
    the difference, ``interpret._Search._both_left_out``)."""
    if not readings:
        return []
    every_probs = [face_probabilities(r) for r in readings]
    p_tile = np.clip(evidence.tiles.tile_probability(box_features(readings, image_size, np.stack(every_probs))),
                     1e-9, 1 - 1e-9)
    keep_costs = -np.log(p_tile)
    out = []
    for i, (p, probs) in enumerate(zip(p_tile, every_probs)):
        logs = evidence.tiles.face_log_probs(probs)
        logs = logs - logs.max()  # a face costs against the likeliest: its doubt is no doubt that a tile lies there
        p = float(p)
        keep, drop = float(keep_costs[i]), -math.log(1 - p)
        floor = min(keep, drop)  # the likeliest face costs ``keep``
        alone = drop - floor
        twins = [b if a == i else a for a, b in one_tile if i in (a, b)]
        if twins:
            drop = min(drop, keep + max(0.0, float(keep_costs[twins].min()) - keep))
        faces = np.nonzero((probs >= MIN_FACE_PROBABILITY) & (keep - logs - floor <= budget))[0]
        these = [Option(CLASS_LABELS[j], float(probs[j]), keep - float(logs[j]) - floor) for j in faces]
        if drop - floor <= budget:
            these.append(Option(None, 1 - p, drop - floor, alone))
        these.sort(key=lambda o: o.cost)
        out.append(these)
    return out
