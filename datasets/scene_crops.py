"""Training crops cut from generated scenes exactly the way the photo reader cuts them.

For each scene seed the scene's JPEG goes through the reader's own finding (``locate.locate``) and
cropping path (hand frame, sideways flags, ``geometry.orient_box``, ``Photo.crop_quad`` at the
reader's crop size and decode scale). Each detection that overlaps a true tile's face (IoU > 0.5)
is saved under that tile's code (``back`` for a face-down tile), turned the way the scene says
the face points up (the reader's candidate turn closest to it, never a quarter-turn off). Every
true tile is also cut at its true corners. Two crop folders in the ``fanscan export --format
crops`` layout come out, so ``fanscan train --extra-crops`` takes either:

    OUT/finder/labels.csv   crops along the finder's boxes
    OUT/true/labels.csv     crops along the true face corners

    python -m fanscan.datasets.scene_crops --seeds 3000000:3000400 --out work_data/scene_crops/train

``--unrefined`` cuts along the finder's boxes as found, before the box refiner (``vision.refine``),
as every crop the shipped classifier trained on was cut. ``--standing`` cuts them from hands seen
mid-game from the seat (``generate_scene(standing=True)``): tiles on edge, and the sets lying flat
beside them foreshortened at a grazing view.

Seed ranges already used elsewhere: 0-499 the reader benchmark, 1000-1999 the reader's tuning set,
1,000,000 on the finder's training; training crops come from 3,000,000 on (standing hands' from
3,100,000 on).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from fanscan.atomic import atomic_path, write_text_atomic
from fanscan.datasets.formats.crops import CropRow, format_crops
from fanscan.datasets.scenes import Scene, generate_scene
from fanscan.errors import FanscanError
from fanscan.vision import geometry
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import load_photo
from fanscan.vision.locate import CROP_MIN_SIDE, locate
from fanscan.vision.numeric import quad_iou
from fanscan.vision.tile_reading import CROP_H, CROP_W

MATCH_IOU = 0.5
KINDS = ("finder", "true")


@dataclass(frozen=True)
class SceneCrop:
    """One crop of a scene tile: how it was cut (``finder`` or ``true``), its code and pixels."""

    kind: str
    code: str
    tile: int
    image: np.ndarray


@dataclass(frozen=True)
class SceneCropCounts:
    """What scenes gave: true tiles, detections, detections matched to a tile, matched tiles whose
    sideways flag the reader got wrong (cut the right way up all the same), and scenes on which
    the reader's finding failed with an error (their true-corner crops are kept)."""

    tiles: int
    detections: int
    matched: int
    sideways_misjudged: int
    find_failed: int = 0


def face_up(quad: np.ndarray) -> np.ndarray:
    """Unit vector from the bottom edge's middle to the top edge's (a TL, TR, BR, BL quad)."""
    vector = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    return vector / max(float(np.linalg.norm(vector)), 1e-6)


def match_detections(detected: np.ndarray, truth: Sequence[np.ndarray]) -> list[int | None]:
    """For each detected quad, the true tile it overlaps best when IoU > MATCH_IOU; each true tile
    is taken by one detection at most (the one overlapping it best)."""
    ious = np.array([[quad_iou(d, t) for t in truth] for d in detected]).reshape(len(detected), len(truth))
    matches: list[int | None] = [None] * len(detected)
    taken: set[int] = set()
    for flat in np.argsort(-ious, axis=None):
        i, j = divmod(int(flat), len(truth))
        if ious[i, j] <= MATCH_IOU:
            break
        if matches[i] is None and j not in taken:
            matches[i] = j
            taken.add(j)
    return matches


def crops_of_scene(scene: Scene, refine: bool = True) -> tuple[list[SceneCrop], SceneCropCounts]:
    """Every tile of ``scene`` cut at its true corners, and every matched detection cut the way the
    reader cuts it (``refine=False``: along the finder's boxes before the box refiner), turned
    upright by the scene's truth."""
    photo = load_photo(scene.jpeg)
    failed = 0
    try:
        _, detections = locate(photo, refine=refine)
    except Exception as error:  # noqa: BLE001 - a reader bug on one scene must not end a long run
        print(f"the reader's finding failed on a scene ({type(error).__name__}: {error})", file=sys.stderr)
        detections, failed = TileDetections.empty(), 1
    truth = [tile.quad for tile in scene.tiles]
    all_quads = np.concatenate([detections.quads, np.stack(truth)]) if len(detections) else np.stack(truth)
    scale = photo.scale_for(detections.quads if len(detections) else all_quads, CROP_MIN_SIDE)
    crops = [
        SceneCrop("true", tile.code, j, photo.crop_quad(tile.quad, CROP_W, CROP_H, scale))
        for j, tile in enumerate(scene.tiles)
    ]
    matched = misjudged = 0
    if len(detections):
        right, up = geometry.hand_frame(detections.quads)
        sideways = geometry.sideways_flags(detections.quads, right, up)
        for i, j in enumerate(match_detections(detections.quads, truth)):
            if j is None:
                continue
            # The reader tries up (or, for the whole hand, down) for an upright tile and left or
            # right for a sideways one: of those four the one nearest the true top is the cut
            # the classifier must learn; the other reading of the pair is the same face turned.
            candidates = (up, -up, right, -right)
            true_up = face_up(truth[j])
            best = int(np.argmax([float(c @ true_up) for c in candidates]))
            misjudged += (best >= 2) != sideways[i]
            box = geometry.orient_box(detections.quads[i], candidates[best])
            crops.append(SceneCrop("finder", scene.tiles[j].code, j,
                                   photo.crop_quad(box, CROP_W, CROP_H, scale)))
            matched += 1
    return crops, SceneCropCounts(len(scene.tiles), len(detections), matched, misjudged, failed)


def parse_seeds(text: str) -> range:
    """``START:END`` (END excluded) as a range of seeds."""
    try:
        start_text, end_text = text.split(":")
        start, end = int(start_text), int(end_text)
    except ValueError:
        raise FanscanError("bad_option", f"--seeds must be START:END, not {text!r}") from None
    if not 0 <= start < end:
        raise FanscanError("bad_option", f"--seeds {text!r} holds no seeds (START < END, both >= 0)")
    return range(start, end)


def write_scene_crops(seeds: Iterable[int], out: Path, *, progress: bool = True,
                      refine: bool = True, standing: bool = False) -> SceneCropCounts:
    """Cut the crops of every scene in ``seeds`` into ``out/finder`` and ``out/true`` (each with its
    ``labels.csv``, written last and atomically); the totals over all scenes. ``refine``: see
    ``crops_of_scene``; ``standing``: the scenes show a standing hand (``generate_scene``)."""
    seeds = list(seeds)
    rows: dict[str, list[CropRow]] = {kind: [] for kind in KINDS}
    totals = np.zeros(5, int)
    for seed in tqdm(seeds, desc="scene crops", unit="scene", disable=not progress):
        crops, counts = crops_of_scene(generate_scene(seed, standing=standing), refine)
        totals += (counts.tiles, counts.detections, counts.matched, counts.sideways_misjudged,
                   counts.find_failed)
        for crop in crops:
            file = f"{crop.code}/s{seed}_{crop.tile:02d}.png"
            with atomic_path(out / crop.kind / file) as temp:
                if not cv2.imwrite(str(temp), crop.image):
                    raise FanscanError("write_failed", f"could not write the crop {out / crop.kind / file}")
            rows[crop.kind].append(CropRow(file, crop.code))
    for kind in KINDS:
        write_text_atomic(out / kind / "labels.csv", format_crops(rows[kind]))
    return SceneCropCounts(*(int(n) for n in totals))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", required=True, help="scene seeds START:END (END excluded)")
    parser.add_argument("--out", required=True, type=Path, help="folder to write finder/ and true/ into")
    parser.add_argument("--unrefined", action="store_true",
                        help="cut along the finder's boxes as found, before the box refiner")
    parser.add_argument("--standing", action="store_true",
                        help="scenes of a hand standing on edge, seen from the seat, its sets lying beside it")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
        counts = write_scene_crops(seeds, args.out, refine=not args.unrefined, standing=args.standing)
    except FanscanError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    print(f"{len(seeds)} scenes, {counts.tiles} tiles, {counts.detections} detections, "
          f"{counts.matched} matched to a tile ({counts.sideways_misjudged} with the sideways flag "
          f"misjudged, {counts.find_failed} scenes where finding failed); "
          f"wrote {args.out}/finder and {args.out}/true")
    return 0


if __name__ == "__main__":
    sys.exit(main())
