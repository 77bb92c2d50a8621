"""Fit the hand's link model (``vision.hand_links``) on real table photos and generated hands.

    python -m fanscan.models.fit_hand_links [--folds 0,1,2,3] [--scenes 0-399]
        [--scene-share 0.5] [--steps 3000] [--out models/hand_links.json] [--choice-only]

1. ``captured``: the reader runs on each photo with ``hand_region.in_hand`` recorded: the tiles
   it picks the hand from (duplicates and slivers gone) and the hand's frame.
2. Each tile's truth: on a real photo of ``../shared/data/rf-chinese`` whose labels are the
   player's hand (the sources named ``hand_*``: discards, walls and the other players' tiles go
   unlabelled there), a box on a labelled tile (IoU >= 0.5) is the hand's, a box overlapping no
   labelled tile is not, any other box is left out; on a generated hand on a table
   (``scenes.generate_scene(clutter=True)``: walls, discards, other players' melds) a box on a
   tile of the hand is the hand's, on a tile of the table's not.
3. Each pair within reach (``neighbour_pairs``, not only the nearest) of two hand tiles is a
   link, of a hand tile and another is none (two tiles both off the hand say nothing of it).
4. A one-hidden-layer network (torch, the train extra) is fitted on the pairs, each real photo
   weighed alike and the generated ones together as much as the real ones together
   (``--scene-share``).
5. With its links, each photo's clusters that can hold a set are scored by a linear choice
   (``hand_links.cluster_features``), fitted as a conditional logit on the real photos with two
   or more such clusters; both are written, with what they were fitted on. ``--choice-only``
   keeps the links of the file and fits the choice again (a feature added to the choice, or the
   reader changed before the clusters are made).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from fanscan.atomic import write_text_atomic
from fanscan.vision import hand_links, hand_region
from fanscan.vision.detections import TileReading

HIDDEN = 16
CLEAN_NEGATIVE_IOU = 0.1
"""A box of a real photo is off the hand only when it overlaps every labelled tile less than this."""
HAND_SOURCE_PREFIX = "hand_"


@dataclass
class LinkCase:
    """One photo's tiles as the hand is picked from them, each one's truth (True: the hand's,
    False: not, None: unknown)."""

    name: str
    readings: list[TileReading]
    up: np.ndarray
    in_hand: list[bool | None]


@contextmanager
def _recording() -> Iterator[list[tuple[list[TileReading], np.ndarray]]]:
    calls: list[tuple[list[TileReading], np.ndarray]] = []
    original = hand_region.in_hand

    def record(readings: list[TileReading], up: np.ndarray, image_size: tuple[int, int] | None = None) -> list[bool]:
        # Every tile taken for the hand: what follows is not recorded, and the fit must not
        # lean on the links it replaces.
        calls.append((list(readings), np.asarray(up)))
        return [True] * len(readings)

    hand_region.in_hand = record
    try:
        yield calls
    finally:
        hand_region.in_hand = original


def captured(source: bytes, classifier: Any) -> tuple[list[TileReading], np.ndarray] | None:
    """The tiles and frame the reader picks the hand from, reading ``source`` (None: no tiles)."""
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    with _recording() as calls:
        try:
            read_photo(source, classifier=classifier)
        except FanscanError:
            return None
    return calls[0] if calls else None


def _upright(quad: np.ndarray) -> np.ndarray:
    return np.array([*quad.min(axis=0), *quad.max(axis=0)])


def table_link_cases(folds: list[int], classifier: Any) -> Iterator[LinkCase]:
    """The cases of the rf-chinese hand photos of ``folds`` (upright, unmirrored)."""
    import cv2
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
    from fanscan.models.hand_cases import box_iou

    chosen = [p for p in least_turned(in_folds(load_table_photos(), folds))
              if len(p.codes) and p.source.startswith(HAND_SOURCE_PREFIX)]
    for n, photo in enumerate(chosen, start=1):
        image, boxes = photo_as_taken(photo, classifier)
        got = captured(cv2.imencode(".png", image)[1].tobytes(), classifier)
        if got is not None:
            readings, up = got
            truth: list[bool | None] = []
            for r in readings:
                best = max((box_iou(_upright(r.box), b) for b in boxes), default=0.0)
                truth.append(True if best >= 0.5 else False if best < CLEAN_NEGATIVE_IOU else None)
            yield LinkCase(photo.source, readings, up, truth)
        if n % 20 == 0:
            print(f"{n}/{len(chosen)} real photos", file=sys.stderr, flush=True)


def scene_link_cases(seeds: range, classifier: Any, standing: bool = False, busy: bool = False,
                     ) -> Iterator[LinkCase]:
    """The cases of generated hands on a table (``generate_scene(clutter=True)``: walls, discards,
    other melds; with ``standing``, hands standing mid-game; with ``busy``, on mats and
    photographed tops with the other players' standing hands and things that are no tiles about):
    a box on a tile of the hand is the hand's, on a tile of the table's not, any other box unknown."""
    from fanscan.datasets.scenes import NOT_THE_HANDS, generate_scene
    from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS
    from fanscan.models.hand_cases import _truth_by_quads

    kind = "standing" if standing else "busy" if busy else "scene"
    for n, seed in enumerate(seeds, start=1):
        scene = generate_scene(seed, clutter=True, standing=standing, tables=BUSY_TABLE_KINDS if busy else TABLE_KINDS,
                               props=busy, opponents=busy)
        got = captured(scene.jpeg, classifier)
        if got is not None:
            readings, up = got
            quads = [np.asarray(t.quad, np.float32) for t in scene.tiles]
            owners = ["table" if t.group == NOT_THE_HANDS else "hand" for t in scene.tiles]
            truth = _truth_by_quads(readings, quads, owners)
            yield LinkCase(f"{kind}{seed}", readings, up,
                           [None if t is None else t == "hand" for t in truth])
        if n % 50 == 0:
            print(f"{n}/{len(seeds)} scenes", file=sys.stderr, flush=True)


def weighed_examples(real: list[LinkCase], scenes: list[LinkCase], scene_share: float,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``link_examples`` of both, the generated photos' weights scaled to ``scene_share`` of the
    whole (cross-validated on folds 0-3, an even share read most held-out real hands right:
    docs/benchmarks.md, session 20)."""
    x_real, y_real, w_real = link_examples(real)
    x_scenes, y_scenes, w_scenes = link_examples(scenes)
    if len(y_scenes) and len(y_real):
        w_scenes = w_scenes * (scene_share / (1 - scene_share)) * w_real.sum() / w_scenes.sum()
    return (np.concatenate([x_real, x_scenes]), np.concatenate([y_real, y_scenes]),
            np.concatenate([w_real, w_scenes]))


def link_examples(cases: list[LinkCase], neighbours: int | None = None,
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, targets (1: a link) and weights (each photo weighs one) of the cases' pairs: by
    default every pair within ``hand_links.REACH``, more than the reader's candidates, so that the
    fit sees the hand's tiles against every tile off it that lies within reach."""
    features, targets, weights = [], [], []
    for case in cases:
        pairs, links = [], []
        for i, j in hand_links.neighbour_pairs(case.readings, neighbours) if len(case.readings) > 1 else []:
            a, b = case.in_hand[i], case.in_hand[j]
            if a is not None and b is not None and (a or b):
                pairs.append((i, j))
                links.append(float(a and b))
        if pairs:
            features.append(hand_links.features_of_pairs(case.readings, pairs, case.up))
            targets += links
            weights += [1.0 / len(pairs)] * len(pairs)
    return (np.concatenate(features) if features else np.zeros((0, len(hand_links.FEATURES))),
            np.array(targets), np.array(weights))


def fit(features: np.ndarray, targets: np.ndarray, weights: np.ndarray, steps: int,
        seed: int = 0) -> hand_links.LinkModel:
    """The network fitted by Adam on the weighted cross-entropy (a little weight decay)."""
    import torch

    torch.manual_seed(seed)
    mean, scale = features.mean(axis=0), features.std(axis=0) + 1e-6
    x = torch.tensor((features - mean) / scale, dtype=torch.float32)
    y = torch.tensor(targets, dtype=torch.float32)
    w = torch.tensor(weights / weights.sum(), dtype=torch.float32)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1))
    optimiser = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-4)
    for step in range(steps):
        optimiser.zero_grad()
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(net(x).squeeze(1), y, reduction="none") * w).sum()
        loss.backward()
        optimiser.step()
        if (step + 1) % 500 == 0:
            print(f"step {step + 1}: loss {loss.item():.4f}", file=sys.stderr, flush=True)
    first, last = net[0], net[2]
    return hand_links.LinkModel(mean, scale, first.weight.detach().numpy().T.astype(np.float64),
                                first.bias.detach().numpy().astype(np.float64),
                                last.weight.detach().numpy()[0].astype(np.float64), float(last.bias.item()))


def choice_examples(cases: list[LinkCase], model: hand_links.LinkModel) -> list[tuple[np.ndarray, int]]:
    """Per photo with two or more clusters that can hold a set: their ``CLUSTER_FEATURES`` and
    which of them is the hand (the one holding most of the hand's tiles, if at least half)."""
    examples = []
    for case in cases:
        if len(case.readings) < 5:
            continue
        made = hand_links.clusters(case.readings, case.up, hand_region.STRAY_CLUSTER, model)
        hand_tiles = np.array([t is True for t in case.in_hand])
        if len(made.candidates) < 2 or not hand_tiles.any():
            continue
        held = [int((hand_tiles & (made.cluster == c)).sum()) for c in made.candidates]
        best = int(np.argmax(held))
        if held[best] * 2 >= hand_tiles.sum():
            examples.append((hand_links.cluster_features(case.readings, made.cluster, made.links, case.up,
                                                         made.candidates), best))
    return examples


NEVER_FOR_THE_HAND = ("lowness", "beyond_copies")
"""Choice features whose weight is kept below zero: the hand is the rows nearest the camera, and
one hand holds no face more often than a set has copies, so of two clusters alike in all else
the lower one, the one of no face read too often, is the hand, however little the photos fitted
on tell them apart so."""


def fit_choice(examples: list[tuple[np.ndarray, int]], steps: int) -> hand_links.ChoiceModel:
    """The conditional logit: softmax over each photo's clusters, a little L2 on the weights,
    the weights of ``NEVER_FOR_THE_HAND`` kept below zero (minus a softplus)."""
    import torch

    raw = torch.zeros(len(hand_links.CLUSTER_FEATURES), requires_grad=True)
    sign = torch.ones(len(raw))
    for name in NEVER_FOR_THE_HAND:
        sign[hand_links.CLUSTER_FEATURES.index(name)] = 0.0

    def weights() -> torch.Tensor:
        return raw * sign - torch.nn.functional.softplus(raw) * (1 - sign)

    optimiser = torch.optim.Adam([raw], lr=0.05)
    data = [(torch.tensor(x, dtype=torch.float32), best) for x, best in examples]
    for _ in range(steps):
        optimiser.zero_grad()
        w = weights()
        loss = sum(-torch.log_softmax(x @ w, 0)[best] for x, best in data) / len(data)
        loss = loss + 1e-3 * (w ** 2).sum()
        loss.backward()
        optimiser.step()
    return hand_links.ChoiceModel(weights().detach().numpy().astype(np.float64))


@contextmanager
def _neutral_choice(path: Path) -> Iterator[None]:
    """The reader reads with the links of the file at ``path`` and a choice of no weights (of
    this module's features, which an older file's choice may lack): what a case records is
    taken before any choice is made."""
    import tempfile

    data = json.loads(path.read_text())
    data["choice"] = hand_links.ChoiceModel(np.zeros(len(hand_links.CLUSTER_FEATURES))).to_json()
    shipped = hand_links.MODEL_PATH
    with tempfile.TemporaryDirectory() as folder:
        neutral = Path(folder) / "links.json"
        neutral.write_text(json.dumps(data))
        hand_links.use_model_file(neutral)
        try:
            yield
        finally:
            hand_links.use_model_file(shipped)


def refit_choice(path: Path, cases: list[LinkCase], folds: list[int], steps: int) -> int:
    """Fit the choice again on ``cases`` with the links of the model file at ``path``, and write
    the file back with the links unchanged (their sidecar too) and the new choice described."""
    from datetime import datetime, timezone

    data = json.loads(path.read_text())
    model = hand_links.LinkModel.from_json(data["model"])
    choices = choice_examples(cases, model)
    choice = fit_choice(choices, steps // 3)
    chosen_right = sum(int(np.argmax(choice.scores(x))) == best for x, best in choices)
    data["about"]["choice"] = {
        "fitted_on": {"rf_chinese_hand_photos": len(cases), "rf_chinese_folds": folds},
        "features": list(hand_links.CLUSTER_FEATURES), "steps": steps // 3,
        "choice_photos": len(choices), "choice_right_on_fit": chosen_right,
        "fitted": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": f"python -m fanscan.models.fit_hand_links --choice-only --folds {','.join(map(str, folds))}",
    }
    for replaced in ("choice_photos", "choice_right_on_fit"):  # the figures of the choice fitted before
        data["about"].pop(replaced, None)
    data["choice"] = choice.to_json()
    write_text_atomic(path, json.dumps(data, indent=1) + "\n")
    print(json.dumps(data["about"]["choice"]))
    return 0


def _seeds(text: str) -> range:
    start, _, end = text.partition("-")
    if not (start.isdigit() and (end or start).isdigit()):
        raise argparse.ArgumentTypeError(f"seeds are A-B (e.g. 0-199), not {text!r}")
    return range(int(start), int(end or start) + 1)


def _share(text: str) -> float:
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0 <= share < 1:
        raise argparse.ArgumentTypeError(f"the share is a number from 0 up to 1 (e.g. 0.5), not {text!r}")
    return share


def _folds(text: str) -> list[int]:
    folds = [f for f in text.split(",") if f]
    if not folds or not all(f.isdigit() for f in folds):
        raise argparse.ArgumentTypeError(f"folds are numbers with commas (e.g. 0,1,2,3), not {text!r}")
    return [int(f) for f in folds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=_folds, default="0,1,2,3", help="rf-chinese source folds to fit on")
    parser.add_argument("--scenes", type=_seeds, default="0-399", help="generated scene seeds to fit on (A-B)")
    parser.add_argument("--standing-scenes", type=_seeds,
                        help="seeds of generated hands standing mid-game on a table to fit on too (A-B)")
    parser.add_argument("--busy-scenes", type=_seeds,
                        help="seeds of generated hands on busy tables (mats, photographed tops, the other "
                             "players' hands, props) to fit on too (A-B)")
    parser.add_argument("--scene-share", type=_share, default=0.5,
                        help="the generated photos' share of the links' fit, against the real ones (0-1)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--out", type=Path, default=hand_links.MODEL_PATH)
    parser.add_argument("--choice-only", action="store_true",
                        help="keep the links of the --out file as they are and fit the choice again "
                             "(on the real photos of --folds, as the reader now reads them)")
    args = parser.parse_args(argv)
    if args.choice_only:
        try:  # the links kept must be there before the photos are read
            hand_links.LinkModel.from_json(json.loads(args.out.read_text())["model"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--choice-only: {args.out} holds no hand link model to keep ({error})")

    from fanscan.vision.classifier import default_classifier

    classifier = default_classifier()
    folds = args.folds
    with _neutral_choice(args.out) if args.choice_only else nullcontext():
        cases = list(table_link_cases(folds, classifier))
    real = len(cases)
    if not real:
        print("no rf-chinese hand photos here (../shared/data/rf-chinese)", file=sys.stderr)
        return 1
    if args.choice_only:
        return refit_choice(args.out, cases, folds, args.steps)
    laid = list(scene_link_cases(args.scenes, classifier))
    standing = list(scene_link_cases(args.standing_scenes, classifier, standing=True)) if args.standing_scenes else []
    busy = list(scene_link_cases(args.busy_scenes, classifier, busy=True)) if args.busy_scenes else []
    features, targets, weights = weighed_examples(cases, laid + standing + busy, args.scene_share)
    model = fit(features, targets, weights, args.steps)
    predicted = model.probabilities(features) > 0.5
    # The choice on the real photos alone: fitted on the generated tables too, it chose the
    # hand worse on held-out real ones (docs/benchmarks.md, session 20).
    choices = choice_examples(cases, model)
    choice = fit_choice(choices, args.steps // 3)
    chosen_right = sum(int(np.argmax(choice.scores(x))) == best for x, best in choices)
    about = {
        "fitted_on": {"rf_chinese_hand_photos": real, "rf_chinese_folds": folds,
                      "generated_scenes": f"{args.scenes.start}-{args.scenes.stop - 1} "
                                          f"({len(laid)} read, on tables with walls and discards)",
                      "standing_scenes": (f"{args.standing_scenes.start}-{args.standing_scenes.stop - 1} "
                                          f"({len(standing)} read, hands standing mid-game on tables)"
                                          if args.standing_scenes else None),
                      "busy_scenes": (f"{args.busy_scenes.start}-{args.busy_scenes.stop - 1} "
                                      f"({len(busy)} read, on busy tables with the other players' hands)"
                                      if args.busy_scenes else None),
                      "links": int(targets.sum()), "not_links": int((1 - targets).sum())},
        "pairs_right_on_fit": round(float((predicted == (targets > 0.5)).mean()), 4),
        "scene_share": args.scene_share, "hidden": HIDDEN, "steps": args.steps,
        "choice_photos": len(choices), "choice_right_on_fit": chosen_right,
    }
    # The default out is the shipped model: never leave it half written.
    write_text_atomic(args.out, json.dumps({"about": about, "model": model.to_json(), "choice": choice.to_json()},
                                           indent=1) + "\n")
    print(json.dumps(about))
    return 0


if __name__ == "__main__":
    sys.exit(main())
