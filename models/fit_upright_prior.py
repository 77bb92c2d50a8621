"""Fit ``geometry.UPRIGHT_THOUGH_WIDE``: how much surer than its sideways looks the upright look of a
tile wider than its row's must be to be kept, by its length along the row; and
``way_looks.UPRIGHT_SLOPE``: how surely, by that margin, the tile lies upright.

    python -m fanscan.models.fit_upright_prior [--standing 300000-300099] [--clutter 300100-300249]
                                                [--riichi 300300-300399]

A tile wider for its height than its row's tiles (``geometry.sideways_flags``) is cut both ways
across the row and upright (``geometry.ways_up``). In a laid-down hand it is mostly a claimed
tile lying sideways; beyond a hand standing on edge, seen from the seat, a tile laid flat is as
wide, its face upright. Which way up it is read is the choice of the most likely look, weighed
with this prior.

1. ``looks_of_scenes``: generated scenes of each kind are read, every look at such a tile recorded
   (``_recording``: each way's surest face and its probability), and matched to the scene's tile
   (IoU >= 0.5): its true face and which of the three ways its face points.
2. ``right_by_margin``: for each (a, b) of a grid, how many looks would be read the right way
   up with the right face when the upright look is kept only if its log-odds beat the surest
   sideways look's by more than a + b log(L), L the tile's length along the row over the frame's
   median tile's (a claimed tile is about 1.35 times as long, a tile laid flat about as long);
   the looks of every kind summed.
3. The fitted (a, b) reads the most right (``fitted_margin``). It prints them and their counts;
   the constant is set from them, and ``docs/benchmarks.md`` records the fit.
4. ``fitted_slope``: with (a, b) fitted, the slope k of ``way_looks.UPRIGHT_SLOPE`` (how surely
   the tile lies upright: 1 / (1 + exp(-k m)), m the upright look's margin over the rule's) under
   which the looks mixed by it (``way_looks.wide_tile_reading``) give the true faces the highest
   likelihood, over every look (where both name one face, the mixture still sets how sure it is).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import geometry, way_looks
from fanscan.vision.numeric import quad_iou
from fanscan.vision.way_looks import wide_tile_way

MARGINS = tuple(float(m) for m in np.round(np.arange(-2.0, 4.01, 0.25), 2))
"""The grid of a: nats of log-odds, the margin for a tile as long along the row as the median."""
LENGTH_WEIGHTS = tuple(float(w) for w in range(0, 41, 2))
"""The grid of b: nats per unit of log(length along the row over the median's)."""
SLOPES = tuple(float(k) for k in np.round(np.arange(0.25, 6.01, 0.25), 2))
"""The grid of the slope k of ``way_looks.UPRIGHT_SLOPE``."""
MATCH_IOU = 0.5


@dataclass(frozen=True)
class WideLook:
    """The three looks at one tile flagged sideways: each way's surest probability and face (both
    ways across the row, then upright), the true face and the way (0-2) its face points."""

    surest: tuple[float, float, float]
    faces: tuple[str, str, str]
    true_face: str
    true_way: int
    along: float = 1.0
    probs: np.ndarray | None = field(default=None, compare=False)
    """Each way's probabilities (3 x classes), for fitting the slope; None where not recorded."""


@contextmanager
def _recording() -> Iterator[list[tuple[np.ndarray, list[np.ndarray], np.ndarray, list[str], float, np.ndarray]]]:
    """Within it, every tile looked at three ways is recorded: (quad, ways, surest probability of
    each way, its face, its length along the row over the median's, each way's probabilities)."""
    seen: list[tuple[np.ndarray, list[np.ndarray], np.ndarray, list[str], float, np.ndarray]] = []
    original = way_looks.WayLooks.best_ways

    def best_ways(self: way_looks.WayLooks, tiles, ways):  # noqa: ANN001, ANN202
        got = original(self, tiles, ways)
        looks = np.asarray(self.looks([(t, w) for t, tile_ways in zip(tiles, ways) for w in tile_ways]).looks.probs)
        start = 0
        for t, tile_ways in zip(tiles, ways):
            if len(tile_ways) == 3:
                rows = looks[start : start + 3]
                along = geometry.chords(self._quads, tile_ways[1]) @ np.array([-1.0, 1.0])
                seen.append((self._quads[t], list(tile_ways), rows.max(axis=1),
                             [CLASS_LABELS[i] for i in rows.argmax(axis=1)], float(along[t] / np.median(along)),
                             rows.copy()))
            start += len(tile_ways)
        return got

    way_looks.WayLooks.best_ways = best_ways
    try:
        yield seen
    finally:
        way_looks.WayLooks.best_ways = original


def looks_of_scenes(kind: str, seeds: range) -> list[WideLook]:
    """Every look at a tile flagged sideways while the reader reads the scenes of ``kind``
    (``standing``, ``clutter`` or ``riichi``), with its truth."""
    from fanscan.datasets.scene_crops import face_up
    from fanscan.datasets.scenes import generate_scene
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    out = []
    for n, seed in enumerate(seeds):
        scene = generate_scene(seed, clutter=kind == "clutter", standing=kind == "standing",
                               riichi_win=kind == "riichi")
        with _recording() as seen:
            try:
                read_photo(scene.jpeg, hand="waiting" if kind == "standing" else "win")
            except FanscanError:
                pass
        truth = [np.asarray(t.quad, np.float64) for t in scene.tiles]
        for quad, ways, surest, faces, along, probs in seen:
            overlaps = [quad_iou(np.asarray(quad, np.float64), t) for t in truth]
            j = int(np.argmax(overlaps))
            if overlaps[j] >= MATCH_IOU:
                way = int(np.argmax([float(np.dot(w, face_up(truth[j]))) for w in ways]))
                out.append(WideLook(tuple(map(float, surest)), tuple(faces), scene.tiles[j].code, way, along, probs))
        if (n + 1) % 25 == 0:
            print(f"{kind}: {n + 1}/{len(seeds)} scenes, {len(out)} looks", file=sys.stderr, flush=True)
    return out


def read_right(look: WideLook, a: float, b: float) -> bool:
    """Whether the look is read the right way up with the right face when its upright look is
    kept only if its log-odds beat the surest sideways look's by more than a + b log(along)."""
    way = wide_tile_way(look.surest, -(a + b * float(np.log(max(look.along, 1e-3)))))
    return (way == 2) == (look.true_way == 2) and look.faces[way] == look.true_face


def right_by_margin(kinds: dict[str, list[WideLook]]) -> dict[tuple[float, float], dict[str, int]]:
    """For each (a, b) of ``MARGINS`` x ``LENGTH_WEIGHTS``, each kind's looks read right."""
    return {(float(a), float(b)): {kind: sum(read_right(look, a, b) for look in looks) for kind, looks in kinds.items()}
            for a in MARGINS for b in LENGTH_WEIGHTS}


def fitted_margin(table: dict[tuple[float, float], dict[str, int]]) -> tuple[float, float]:
    """The (a, b) that reads the most looks right; of those tied, the least weight on the length,
    then the margin nearest none."""
    return max(table, key=lambda ab: (sum(table[ab].values()), -ab[1], -abs(ab[0])))


def mixture_log_likelihood(looks: list[WideLook], a: float, b: float, slope: float) -> float:
    """The log-likelihood of the looks' true faces under ``wide_tile_reading``'s mixture with the
    margin (a, b) and ``slope``, summed over the looks."""
    total = 0.0
    for look in looks:
        if look.probs is None:
            continue
        prior = -(a + b * float(np.log(max(look.along, 1e-3))))
        _, probs, _ = way_looks.wide_tile_reading(look.probs, np.zeros(3, np.float32), prior, slope)
        total += float(np.log(max(float(probs[CLASS_LABELS.index(look.true_face)]), 1e-6)))
    return total


def fitted_slope(looks: list[WideLook], a: float, b: float) -> tuple[float, dict[float, float]]:
    """The slope of ``SLOPES`` of the highest ``mixture_log_likelihood``, and each one's."""
    table = {k: mixture_log_likelihood(looks, a, b, k) for k in SLOPES}
    return max(table, key=table.__getitem__), table


def _seeds(text: str) -> range:
    start, _, end = text.partition("-")
    if not (start.isdigit() and end.isdigit() and int(start) <= int(end)):
        raise argparse.ArgumentTypeError(f"seeds are A-B (e.g. 300000-300099), not {text!r}")
    return range(int(start), int(end) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--standing", type=_seeds, default=_seeds("300000-300099"))
    parser.add_argument("--clutter", type=_seeds, default=_seeds("300100-300249"))
    parser.add_argument("--riichi", type=_seeds, default=_seeds("300300-300399"))
    args = parser.parse_args(argv)
    kinds = {kind: looks_of_scenes(kind, seeds)
             for kind, seeds in (("standing", args.standing), ("clutter", args.clutter), ("riichi", args.riichi))}
    table = right_by_margin(kinds)
    never = {kind: sum(look.true_way < 2 and look.faces[int(np.argmax(look.surest[:2]))] == look.true_face
                       for look in looks) for kind, looks in kinds.items()}
    a, b = fitted_margin(table)
    one_margin = max((ab for ab in table if ab[1] == 0.0), key=lambda ab: sum(table[ab].values()))
    slope, likelihoods = fitted_slope([look for looks in kinds.values() for look in looks], a, b)
    shipped = geometry.UPRIGHT_THOUGH_WIDE
    print(json.dumps({"looks": {k: len(v) for k, v in kinds.items()}, "never_upright": never,
                      "fitted": {"a": a, "b": b, "right": table[(a, b)], "slope": slope},
                      "shipped": {"a": shipped[0], "b": shipped[1], "right": table.get(shipped),
                                  "slope": way_looks.UPRIGHT_SLOPE},
                      "best_one_margin": {"a": one_margin[0], "right": table[one_margin]},
                      "log_likelihood_by_slope": {str(k): round(v, 1) for k, v in likelihoods.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
