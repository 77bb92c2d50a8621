"""Training of the box refiner (``refine.py``) on generated scenes (needs the ``train`` extra).

Each example is a box around one tile of a generated scene, cut as the reader cuts it
(``refine.square_warps``) and labelled with where the tile face's true corners lie in the square.
The boxes are the finder's own (``locate`` without refinement, matched to the true tiles by
overlap), so the network learns the finder's real errors, plus the true corners jittered
(``JITTER``), so it also learns to correct errors the finder made rarely on these scenes.

    python -m fanscan.models.train_refiner --scenes 1200 --steps 3000 --cache work_data/refiner.npz

``--real-folds 0,1,2,3`` adds the real table photos of those source folds (``datasets.real_tables``;
never the held-out fold), the versions the augmentation did not turn: each finder box over a
labelled tile, and its target jittered, the target the label's corners where the box lies square
to the photo and the box's own shape fitted into the label elsewhere (``real_photo_examples``).
``--init models/box_refiner.onnx`` fine-tunes the shipped refiner. ``--real-turned 45`` also
turns each real photo by up to 45 degrees, its labels with it (``turned_photo_examples``): faces
at a slant with exact corners. ``--side 48`` trains a refiner of smaller squares (default
``refine.SIDE``); the reader cuts its squares at the side the model's input declares.
``--standing-scenes N`` adds N scenes of a hand standing mid-game seen from the seat
(``generate_scene(standing=True)``): faces on edge, whose boxes take in the tiles' tops, and sets
lying flat beside them at a grazing view; they join the generated pool.

Scene seeds for training start at ``TRAIN_SEED_BASE`` (standing hands' at ``STANDING_SEED_BASE``),
apart from the benchmark's (0-9999), the finder's (1,000,000 on) and the classifier's scene crops
(3,000,000 on).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from fanscan.atomic import write_text_atomic
from fanscan.models.train_finder import conv_block, fit
from fanscan.vision.finder import order_clockwise
from fanscan.vision.numeric import quad_iou
from fanscan.vision.refine import GROW, MIN_SHORT, SIDE, as_input, cut_squares, grown, square_warps

TRAIN_SEED_BASE = 4_000_000
STANDING_SEED_BASE = 4_100_000
BATCH = 96
JITTER = 0.08
"""Standard deviation of the jitter of the true corners, as a share of the tile's short side
(each corner on its own, and the whole box shifted by as much again)."""
TURNED_SEED_OFFSET = 100_000
"""A turned copy's jitter is drawn from its photo's seed plus this."""
REAL_MATCH_IOU = 0.25
"""A finder box on a real photo is a labelled tile's when the label holds the box's centre and their
upright rectangles overlap at least this much: a box that straddles the seam of two touching
tiles is the tile's that holds most of it, and learns to move onto it."""
SQUARE_DEGREES = 6.0
"""A real label is an upright rectangle, so its corners are the face's only where the face lies
square to the photo: its finder box's sides within this many degrees of the photo's axes (a
standing hand facing the camera, a row laid straight across the photo). Any other box's target is
its own shape fitted into the label (``fitted_into``)."""


def _nominal(side: int) -> np.ndarray:
    """The square's own corners, clockwise from the top left."""
    return np.float32([[0, 0], [side, 0], [side, side], [0, side]])


def matched_corners(box: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The true quad's corners reordered so that corner i is the one nearest the box's corner i
    (both clockwise)."""
    ordered = order_clockwise(truth)
    best = min(range(4), key=lambda r: float(np.abs(np.roll(ordered, -r, axis=0) - box).sum()))
    return np.roll(ordered, -best, axis=0)


def _jittered(truth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    short = float(np.linalg.norm(np.roll(truth, -1, axis=0) - truth, axis=1).min())
    noise = rng.normal(0, JITTER * short, (4, 2)) + rng.normal(0, JITTER * short, (1, 2))
    centre = truth.mean(axis=0)
    scaled = centre + (truth - centre) * np.exp(rng.normal(0, 0.06))
    return order_clockwise((scaled + noise).astype(np.float32))


def scene_examples(seed: int, side: int = SIDE, standing: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(squares (k, side, side, 3) uint8, true corners in the squares (k, 4, 2) float32) for one
    generated scene (``standing``: a hand standing mid-game): every finder box matched to a tile,
    and every tile's jittered true box."""
    from fanscan.datasets.scene_crops import match_detections
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.locate import locate

    rng = np.random.default_rng(seed)
    scene = generate_scene(seed, standing=standing)
    photo = load_photo(scene.jpeg)
    truth = [tile.quad.astype(np.float32) for tile in scene.tiles]
    _, detections = locate(photo, refine=False)
    boxes, targets = [], []
    for i, j in enumerate(match_detections(detections.quads, truth) if len(detections) else []):
        if j is not None:
            boxes.append(detections.quads[i])
            targets.append(matched_corners(detections.quads[i], truth[j]))
    for quad in truth:
        box = _jittered(quad, rng)
        boxes.append(box)
        targets.append(matched_corners(box, quad))
    return _squares_of(photo, np.stack(boxes).astype(np.float32), targets, side)


def _no_examples(side: int = SIDE) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((0, side, side, 3), np.uint8), np.zeros((0, 4, 2), np.float32)


def _square_to_the_photo(quad: np.ndarray) -> bool:
    sides = np.roll(quad, -1, axis=0) - quad
    angles = np.degrees(np.arctan2(sides[:, 1], sides[:, 0])) % 90
    return bool(np.all(np.minimum(angles, 90 - angles) <= SQUARE_DEGREES))


def _rectangle(box: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = (float(v) for v in box)
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def fitted_into(quad: np.ndarray, box: np.ndarray) -> np.ndarray:
    """``quad`` moved and stretched along the photo's axes so that its upright rectangle is ``box``
    (x0 y0 x1 y1): for a face at a slant, whose label only bounds it, a target with the finder's
    shape (the perspective's slant) and the label's extent."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    box = np.asarray(box, np.float32)
    scale = (box[2:] - box[:2]) / np.maximum(hi - lo, 1e-6)
    return ((quad - lo) * scale + box[:2]).astype(np.float32)


def label_target(quad: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The corners a finder box ``quad`` on the tile labelled ``box`` should move to: the label's
    own where the box lies square to the photo (``SQUARE_DEGREES``), else ``fitted_into`` it."""
    return _rectangle(box) if _square_to_the_photo(quad) else fitted_into(quad, box)


def _squares_of(photo, quads: np.ndarray, targets: list[np.ndarray],
                side: int = SIDE) -> tuple[np.ndarray, np.ndarray]:
    """The refiner's ``side``-pixel squares for ``quads`` (as the reader cuts them) and the
    targets' corners in them."""
    image = photo.decode(photo.scale_for(quads, MIN_SHORT))
    to_image = image.shape[1] / photo.width
    warps = square_warps(quads, to_image, side)
    squares = cut_squares(image, warps, side)
    inside = np.stack([cv2.perspectiveTransform((t * to_image).reshape(1, 4, 2).astype(np.float64), m).reshape(4, 2)
                       for t, m in zip(targets, warps)])
    return squares, inside.astype(np.float32)


def _finder_boxes(image: np.ndarray) -> tuple[Any, Any]:
    """(the photo of ``image``, the reader's boxes on it before the refiner)."""
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.locate import locate

    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    return photo, locate(photo, refine=False)[1]


def real_photo_examples(image: np.ndarray, boxes: np.ndarray, seed: int, found: tuple | None = None,
                        side: int = SIDE) -> tuple[np.ndarray, np.ndarray]:
    """(squares, corners) for one real photo whose labelled tiles are ``boxes`` (x0 y0 x1 y1): each
    finder box on a labelled tile (``REAL_MATCH_IOU``) with its ``label_target`` as the target, and
    that target jittered; empty when no box is on a label. ``found``: ``_finder_boxes(image)``
    when the caller has it."""
    from fanscan.models.hand_cases import box_iou

    rng = np.random.default_rng(seed)
    photo, detections = found or _finder_boxes(image)
    if not len(detections) or not len(boxes):
        return _no_examples(side)
    found = np.stack([detections.quads.min(axis=1), detections.quads.max(axis=1)], axis=1).reshape(-1, 4)
    iou = np.array([[box_iou(box, label) for label in boxes] for box in found])
    centres = detections.quads.mean(axis=1)
    quads, targets = [], []
    for i, (x, y) in enumerate(centres):
        holds = (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])
        overlap = np.where(holds, iou[i], -1.0)
        j = int(np.argmax(overlap))
        if overlap[j] < REAL_MATCH_IOU:
            continue
        target = label_target(detections.quads[i], boxes[j])
        for box in (detections.quads[i], _jittered(target, rng)):
            quads.append(box)
            targets.append(matched_corners(box, target))
    if not quads:
        return _no_examples(side)
    return _squares_of(photo, np.stack(quads).astype(np.float32), targets, side)


def turned_photo_examples(image: np.ndarray, boxes: np.ndarray, degrees: float, seed: int,
                          square: np.ndarray | None = None, side: int = SIDE) -> tuple[np.ndarray, np.ndarray]:
    """(squares, corners) for a real photo turned by ``degrees`` (counter-clockwise, its corners
    filled black): each finder box on a turned labelled tile, its target the label's rectangle
    turned with the photo, exact where a finder box on the unturned photo lies square to it
    (``_square_labels``; the other labels only bound a slanted face and are left out). So the
    refiner learns tiles lying at any angle, which upright labels cannot show it. ``square``: the
    ``_square_labels`` of the unturned photo when the caller has them."""
    rng = np.random.default_rng(seed)
    if square is None:
        square = _square_labels(_finder_boxes(image)[1], boxes)
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    turned_image = cv2.warpAffine(image, turn, (width, height), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    labels = [cv2.transform(_rectangle(box)[None], turn)[0] for box in boxes]
    photo, detections = _finder_boxes(turned_image)
    if not len(detections) or not square.any():
        return _no_examples(side)
    quads, targets = [], []
    for quad in detections.quads:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        holding = [j for j, label in enumerate(labels) if square[j] and cv2.pointPolygonTest(label, centre, False) >= 0]
        if not holding:
            continue
        target = labels[max(holding, key=lambda j: quad_iou(quad, labels[j]))]
        if quad_iou(quad, target) < REAL_MATCH_IOU:
            continue
        for box in (quad, _jittered(target, rng)):
            quads.append(box)
            targets.append(matched_corners(box, target))
    if not quads:
        return _no_examples(side)
    return _squares_of(photo, np.stack(quads).astype(np.float32), targets, side)


def _square_labels(detections: Any, boxes: np.ndarray) -> np.ndarray:
    """Which labels bound a face lying square to the photo: those a finder box (of ``detections``)
    square to it (``SQUARE_DEGREES``) holds, its centre in the label, overlapping it
    ``REAL_MATCH_IOU``."""
    square = np.zeros(len(boxes), bool)
    labels = [_rectangle(box) for box in boxes]
    for quad in detections.quads:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        for j, label in enumerate(labels):
            if (cv2.pointPolygonTest(label, centre, False) >= 0 and _square_to_the_photo(quad)
                    and quad_iou(quad, label) >= REAL_MATCH_IOU):
                square[j] = True
    return square


def _real_photo_job(job: tuple[int, np.ndarray, np.ndarray, float, int]) -> tuple[np.ndarray, np.ndarray]:
    """One photo's examples (squares of side ``side``), and with ``degrees`` its turned copy's
    too: the finder searches the unturned photo once for both."""
    seed, image, boxes, degrees, side = job
    found = _finder_boxes(image)
    plain = real_photo_examples(image, boxes, seed, found, side)
    if not degrees:
        return plain
    turned = turned_photo_examples(image, boxes, degrees, seed + TURNED_SEED_OFFSET,
                                   _square_labels(found[1], boxes), side)
    return np.concatenate([plain[0], turned[0]]), np.concatenate([plain[1], turned[1]])


def real_examples(folds: list[int], workers: int = 2, turned: float = 0.0,
                  side: int = SIDE) -> tuple[np.ndarray, np.ndarray, int]:
    """Examples of the real table photos in ``folds`` (their unturned versions, upright), and
    how many photos gave some; with ``turned``, each photo also turned by an angle drawn within
    that many degrees either way (``turned_photo_examples``)."""
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, load_table_photos, upright_version

    if HELD_OUT_FOLD in folds:
        raise ValueError(f"fold {HELD_OUT_FOLD} is held out for the benchmark")
    jobs = []
    for k, photo in enumerate(in_folds(load_table_photos(), folds)):
        version = upright_version(photo) if len(photo.codes) else None
        if version is not None and version.turn == 0.0:
            degrees = float(np.random.default_rng(k).uniform(-turned, turned)) if turned else 0.0
            jobs.append((k, version.image, version.boxes.astype(np.float32), degrees, side))
    squares, corners, photos = [], [], 0
    with ProcessPoolExecutor(workers) as pool:
        for n, (s, c) in enumerate(pool.map(_real_photo_job, jobs, chunksize=4)):
            if len(s):
                squares.append(s)
                corners.append(c)
                photos += 1
            if n % 50 == 0:
                print(f"real photo {n}/{len(jobs)}", file=sys.stderr, flush=True)
    if not squares:
        return (*_no_examples(side), 0)
    return np.concatenate(squares), np.concatenate(corners), photos


def build_examples(scenes: int, cache: Path | None, workers: int = 2, side: int = SIDE,
                   standing: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Examples of ``scenes`` training scenes (squares of side ``side``; ``standing``: scenes of
    standing hands, from ``STANDING_SEED_BASE``), from ``cache`` (an .npz) when it holds them at
    that side and of that kind."""
    if cache is not None and cache.is_file():
        with np.load(cache) as data:
            if (int(data["scenes"]) >= scenes and data["squares"].shape[1:3] == (side, side)
                    and bool(data.get("standing", False)) == standing):
                return data["squares"], data["corners"]
    squares, corners = [], []
    base = STANDING_SEED_BASE if standing else TRAIN_SEED_BASE
    examples = functools.partial(scene_examples, side=side, standing=standing)
    with ProcessPoolExecutor(workers) as pool:
        for n, (s, c) in enumerate(pool.map(examples, range(base, base + scenes), chunksize=4)):
            squares.append(s)
            corners.append(c)
            if n % 50 == 0:
                print(f"{'standing ' * standing}scene {n}/{scenes}", file=sys.stderr, flush=True)
    result = np.concatenate(squares), np.concatenate(corners)
    if cache is not None:
        np.savez(cache, squares=result[0], corners=result[1], scenes=scenes, standing=standing)
    return result


def turned(square: np.ndarray, corners: np.ndarray, quarter_turns: int, flip: bool) -> tuple[np.ndarray, np.ndarray]:
    """A square and its corners turned counter-clockwise by quarter turns and maybe mirrored, the
    corners renumbered so that corner i is still the one nearest the square's corner i."""
    side = square.shape[0]
    corners_of_square = _nominal(side)
    points, nominal = corners.copy(), corners_of_square.copy()
    for _ in range(quarter_turns):
        square = np.rot90(square)
        points = np.stack([points[:, 1], side - points[:, 0]], axis=1)
        nominal = np.stack([nominal[:, 1], side - nominal[:, 0]], axis=1)
    if flip:
        square = square[:, ::-1]
        points[:, 0] = side - points[:, 0]
        nominal[:, 0] = side - nominal[:, 0]
    order = [int(np.argmin(np.abs(nominal - corner).sum(axis=1))) for corner in corners_of_square]
    return np.ascontiguousarray(square), points[order]


def build_net(width: float = 1.0, side: int = SIDE):
    """The refiner (torch.nn.Module): (n, 3, side, side) in [0, 1] -> (n, 4, 2) corners in the
    square's pixels, by a soft arg-max over four heat maps at half resolution; ``width`` scales
    every layer's channels (1: the shipped net's 16-48)."""
    import torch
    from torch import nn

    block = conv_block
    c16, c24, c32, c48 = (max(4, round(c * width)) for c in (16, 24, 32, 48))

    class RefinerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = block(3, c16)  # 1/1
            self.down1 = block(c16, c24, 2)  # 1/2
            self.down2 = nn.Sequential(block(c24, c32, 2), block(c32, c32))  # 1/4
            self.down3 = nn.Sequential(block(c32, c48, 2), block(c48, c48, dilation=2))  # 1/8
            self.up2 = block(c48 + c32, c32)
            self.up1 = block(c32 + c24, c24)
            self.head = nn.Conv2d(c24, 4, 1)
            half = side // 2
            centres = (torch.arange(half, dtype=torch.float32) + 0.5) * 2
            self.register_buffer("grid_x", centres.repeat(half))
            self.register_buffer("grid_y", centres.repeat_interleave(half))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            d1 = self.down1(self.stem(x))
            d2 = self.down2(d1)
            d3 = self.down3(d2)
            u2 = self.up2(torch.cat([nn.functional.interpolate(d3, scale_factor=2.0), d2], 1))
            u1 = self.up1(torch.cat([nn.functional.interpolate(u2, scale_factor=2.0), d1], 1))
            heat = self.head(u1).flatten(2).softmax(dim=2)  # (n, 4, half * half)
            return torch.stack([heat @ self.grid_x, heat @ self.grid_y], dim=2)

    return RefinerNet()


def _batches(squares: np.ndarray, corners: np.ndarray, rng: np.random.Generator, size: int,
             draw: np.ndarray | None = None):
    """Endless random batches with quarter turns, mirroring and light changes; ``draw``: each
    example's probability of being drawn (default: all alike)."""
    while True:
        xs, ys = [], []
        for i in rng.choice(len(squares), size=size, p=draw):
            square, points = turned(squares[i], corners[i], int(rng.integers(4)), bool(rng.random() < 0.5))
            xs.append(square)
            ys.append(points)
        x = as_input(np.stack(xs)) * np.float32(rng.uniform(0.75, 1.25)) + np.float32(rng.uniform(-0.08, 0.08))
        yield x.astype(np.float32), np.stack(ys).astype(np.float32)


def sidecar(training: dict, side: int = SIDE) -> dict:
    """The JSON written beside an exported refiner: what goes in and out, and how it was trained."""
    return {
        "format_version": 1,
        "input": {"name": "squares", "layout": "NCHW", "channel_order": "RGB", "scale": "1/255",
                  "side": side, "grow": GROW,
                  "warp": "each box grown by grow about its centre, its corner i (clockwise from "
                          "the top left) onto the square's corner i"},
        "output": {"name": "corners", "shape": ["n", 4, 2], "units": "pixels of the input square",
                   "corner_order": "corner i is the face's corner nearest the box's corner i"},
        "training": training,
    }


def _corner_errors(net, squares: np.ndarray, corners: np.ndarray) -> tuple[float, float]:
    """Mean corner error (px of the square) of the boxes as found and as refined by ``net``."""
    import torch

    if not len(squares):
        return float("nan"), float("nan")
    with torch.no_grad():
        predicted = net(torch.from_numpy(as_input(squares))).numpy()
    side = squares.shape[1]
    return float(np.abs(corners - _grown_nominal(side)).mean()), float(np.abs(predicted - corners).mean())


def _split_each(kinds: list[tuple[np.ndarray, np.ndarray]], held_out: float
                ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The examples of every kind (squares, corners) joined, less each kind's last ``held_out``
    share, and those shares joined."""
    cuts = [int(len(squares) * (1 - held_out)) for squares, _ in kinds]
    kept = tuple(np.concatenate([kind[i][:cut] for kind, cut in zip(kinds, cuts)]) for i in (0, 1))
    apart = tuple(np.concatenate([kind[i][cut:] for kind, cut in zip(kinds, cuts)]) for i in (0, 1))
    return (kept[0], kept[1]), (apart[0], apart[1])


def train(scenes: int, steps: int, out: Path, cache: Path | None = None, held_out: float = 0.05,
          real_folds: list[int] | None = None, real_share: float = 0.5, init: Path | None = None,
          real_turned: float = 0.0, width: float = 1.0, side: int = SIDE, standing_scenes: int = 0,
          standing_cache: Path | None = None) -> None:
    """Build examples from ``scenes`` scenes and ``standing_scenes`` of standing hands (their
    examples pooled; ``standing_cache`` keeps theirs), and the real photos of ``real_folds``, drawn
    for ``real_share`` of each batch), train for ``steps`` steps (from the ONNX ``init``, its batch
    norms frozen, when given), report the corner error on the last ``held_out`` share of each
    kind's examples, export ONNX to ``out`` (weights beside it as .pt, its sidecar as .json,
    ``sidecar``)."""
    import torch

    from fanscan.models.train_finder import load_onnx_weights

    torch.manual_seed(0)
    net = build_net(width, side)
    if init is not None:
        load_onnx_weights(net, init)  # before the examples: a bad --init fails at once
    kinds = [build_examples(scenes, cache, side=side)]
    if standing_scenes:
        kinds.append(build_examples(standing_scenes, standing_cache, side=side, standing=True))
    scene_train, scene_test = _split_each(kinds, held_out)
    pools = [scene_train]
    real_photos = 0
    real_test = _no_examples(side)
    if real_folds:
        real_squares, real_corners, real_photos = real_examples(real_folds, turned=real_turned, side=side)
        cut = int(len(real_squares) * (1 - held_out))
        pools.append((real_squares[:cut], real_corners[:cut]))
        real_test = (real_squares[cut:], real_corners[cut:])
        print(f"{len(real_squares)} real examples from {real_photos} photos", file=sys.stderr, flush=True)
    train_squares = np.concatenate([p[0] for p in pools])
    train_corners = np.concatenate([p[1] for p in pools])
    draw = None
    if len(pools) == 2 and len(pools[1][0]) and len(pools[0][0]):
        draw = np.concatenate([np.full(len(pools[0][0]), (1 - real_share) / len(pools[0][0])),
                               np.full(len(pools[1][0]), real_share / len(pools[1][0]))])
    fit(net, _batches(train_squares, train_corners, np.random.default_rng(0), BATCH, draw), steps,
        lambda predicted, y: (predicted - y).abs().mean(),
        50, lambda loss: f"corner error {loss:.2f} px of {side}", frozen_norms=init is not None)
    net.eval()
    before, after = _corner_errors(net, *scene_test)
    real_before, real_after = _corner_errors(net, *real_test)
    print(f"held-out examples {len(scene_test[0])}: mean corner error {before:.2f} px as found, "
          f"{after:.2f} px refined (of {side}); real {len(real_test[0])}: {real_before:.2f} -> "
          f"{real_after:.2f} px", file=sys.stderr)
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    torch.onnx.export(net, torch.zeros(1, 3, side, side), str(out), input_names=["squares"],
                      output_names=["corners"], dynamic_axes={"squares": {0: "n"}, "corners": {0: "n"}},
                      opset_version=17, dynamo=False)
    from fanscan.datasets.real_tables import HELD_OUT_FOLD

    record = {
        "steps": steps,
        "batch": BATCH,
        "scenes": scenes,
        "scene_seeds": [TRAIN_SEED_BASE, TRAIN_SEED_BASE + scenes],
        "standing_scenes": standing_scenes,
        "standing_scene_seeds": [STANDING_SEED_BASE, STANDING_SEED_BASE + standing_scenes] if standing_scenes else None,
        "examples": len(train_squares) + len(scene_test[0]) + len(real_test[0]),
        "jitter": JITTER,
        "held_out_share": held_out,
        "held_out_corner_error_px": {"as_found": round(before, 2), "refined": round(after, 2)},
        "real_photos": real_photos,
        "real_folds": real_folds or [],
        "real_share": real_share if real_folds else 0.0,
        "real_turned_degrees": real_turned,
        "held_out_fold": HELD_OUT_FOLD if real_folds else None,
        "real_held_out_corner_error_px": ({"as_found": round(real_before, 2), "refined": round(real_after, 2)}
                                          if real_folds else None),
        "fine_tuned_from": init.name if init else None,
        "width": width,
        "trained": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    write_text_atomic(out.with_suffix(".json"), json.dumps(sidecar(record, side), indent=2) + "\n")
    print(f"wrote {out}", file=sys.stderr)


def _grown_nominal(side: int) -> np.ndarray:
    """Where the box's own corners lie in its square (the grown box fills the square)."""
    return grown(_nominal(side)[None], 1 / GROW)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=1200)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("box_refiner.onnx"))
    parser.add_argument("--cache", type=Path, help="an .npz keeping the examples for reruns")
    parser.add_argument("--standing-scenes", type=int, default=0, metavar="N",
                        help="also N scenes of a hand standing mid-game, seen from the seat (default 0)")
    parser.add_argument("--standing-cache", type=Path, help="an .npz keeping the standing scenes' examples")
    parser.add_argument("--real-folds", type=lambda t: [int(f) for f in t.split(",") if f],
                        help="also train on the real table photos of these source folds (e.g. 0,1,2,3)")
    parser.add_argument("--real-share", type=float, default=0.5,
                        help="with --real-folds: share of each batch drawn from real photos (default 0.5)")
    parser.add_argument("--init", type=Path, help="fine-tune these weights (an .onnx such as the shipped refiner)")
    parser.add_argument("--width", type=float, default=1.0,
                        help="scale of every layer's channels (1: the shipped net; --init must match)")
    parser.add_argument("--side", type=int, default=SIDE,
                        help=f"side of the squares the refiner sees, in pixels (default {SIDE}; --init must match)")
    parser.add_argument("--real-turned", type=float, default=0.0, metavar="DEGREES",
                        help="with --real-folds: also each real photo turned by up to this many degrees "
                        "either way, its labels turned with it (at most 45)")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.steps < 1:
        parser.error("--scenes and --steps must be positive")
    if args.standing_scenes < 0:
        parser.error("--standing-scenes must not be negative")
    if not 0 < args.real_share < 1:
        parser.error("--real-share must lie between 0 and 1")
    if args.real_folds:
        from fanscan.datasets.real_tables import FOLDS, HELD_OUT_FOLD

        allowed = [f for f in range(FOLDS) if f != HELD_OUT_FOLD]
        if not set(args.real_folds) <= set(allowed):
            parser.error(f"--real-folds: only folds {', '.join(map(str, allowed))} (fold {HELD_OUT_FOLD} is held out)")
    if not 0 < args.width <= 4:
        parser.error("--width must lie between 0 and 4")
    if not 16 <= args.side <= 256 or args.side % 8:
        parser.error("--side must be a multiple of 8 from 16 to 256 (the net halves it three times)")
    if args.init is not None:
        from fanscan.models.train_finder import load_onnx_weights

        try:
            load_onnx_weights(build_net(args.width, args.side), args.init)  # a bad --init fails here, before any scene
        except (OSError, ValueError) as error:
            parser.error(f"--init {args.init}: {error}")
        except ImportError as error:
            parser.error(f"--init needs the train extra (pip install 'fanscan[train]'): {error}")
    if not 0 <= args.real_turned <= 45:
        parser.error("--real-turned: DEGREES must lie between 0 and 45")
    train(args.scenes, args.steps, args.out, args.cache, real_folds=args.real_folds,
          real_share=args.real_share, init=args.init, real_turned=args.real_turned, width=args.width,
          side=args.side, standing_scenes=args.standing_scenes, standing_cache=args.standing_cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
