"""Photo reader accuracy on generated scenes: how many hands are read exactly.

    python benchmarks/bench_scenes.py --scenes 500 --failures /tmp/reader-failures

A hand is read exactly when the concealed tiles (as a multiset), every meld (type, tiles,
concealed or not), the winning tile and the flowers all equal the scene's ground truth. Each
failure is written to the failures folder as an annotated picture with the truth in its name.
Scene seeds are 0..N-1 (the finder was trained on seeds from 1,000,000 on). ``--clutter`` lays
the rest of a table around each hand (walls, discards, other players' melds: ``scene_clutter``);
the hand must still be read alone. ``--standing`` shows each hand mid-game instead: waiting (no
winning tile), its concealed tiles standing on edge, seen from the seat; it is read as a waiting
hand (``read_photo(hand="waiting")``, as ``fanscan waits PHOTO`` reads one). ``--riichi-win`` shows
each winning tile the riichi way: turned sideways against the concealed row's right end.
``--busy`` lays each scene on a mat or a photographed table top with things that are no tiles
about (``textures.BUSY_TABLE_KINDS``, ``scene_props``: a rack, dice, coins, a phone, fingers);
``phantoms`` counts the tiles read beyond the scene's, face by face. ``--opponents`` (with
``--clutter``, which it implies) stands the other players' hands on the table too, their backs to
the camera (``scene_clutter.lay_opponents``). ``--real-faces`` paints each scene's tiles with crops of real tiles from rf-chinese's held-out
sources (``datasets.real_faces``: one crop per face, drawn per scene; needs ../shared/data): the
same layouts, declared sets and winning tiles, with real faces of sets no model trained on.
``--far SHORT`` photographs each scene from far: shrunk until its tiles' short sides span SHORT
pixels (a median over its tiles) and laid at a random place in a 4,000 x 3,000 photo (12 MP) whose
table is the scene's own, blurred and stretched to fill it, the scene's edges faded into it
(issue 23 item 5: tiles 20 px wide in a 12 MP photo).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np


def _key(hand: dict) -> tuple:
    from fanscan.models.hand_cases import hand_key  # one definition of "read exactly"

    return hand_key(hand)


def _what_differs(got: dict, want: dict) -> str:
    names = ("concealed", "melds", "win_tile", "flowers")
    parts = [name for name, a, b in zip(names, _key(got), _key(want)) if a != b]
    return "-".join(parts) or "none"


FAR_SIZE = (4000, 3000)


def far_photo(scene, short: float, rng: np.random.Generator) -> bytes:
    """The scene as a JPEG of ``FAR_SIZE``, shrunk so its tiles' median short side is ``short``
    pixels (``far_canvas``)."""
    import cv2

    sides = [np.linalg.norm(np.roll(t.quad, -1, axis=0) - t.quad, axis=1) for t in scene.tiles]
    factor = short / float(np.median([min((s[0] + s[2]) / 2, (s[1] + s[3]) / 2) for s in sides]))
    photo, _ = far_canvas(scene.image, factor, rng)
    return cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


FAR_BLEND = 0.03
"""The band, as a share of the shrunk picture's shorter side, over which its edges fade into the
table around it: a sharp rectangle is a large box to the finder, which no real photo shows."""


def far_canvas(image: np.ndarray, factor: float, rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int]]:
    """``image`` shrunk by ``factor``, laid at a random place of a ``FAR_SIZE`` photo whose table is
    the image itself blurred and stretched to fill it, its edges faded in (``FAR_BLEND``); and the
    place (x, y) of its top-left corner."""
    import cv2

    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    width, height = FAR_SIZE
    table = cv2.GaussianBlur(cv2.resize(image, (64, 48), interpolation=cv2.INTER_AREA), (0, 0), 4)
    photo = cv2.resize(table, FAR_SIZE, interpolation=cv2.INTER_CUBIC).astype(np.float32)
    photo += rng.normal(0, 4, photo.shape).astype(np.float32)
    h, w = small.shape[:2]
    y, x = int(rng.integers(0, height - h)), int(rng.integers(0, width - w))
    band = max(1.0, FAR_BLEND * min(h, w))
    ramp_y = np.minimum(np.arange(h), np.arange(h)[::-1])[:, None] / band
    ramp_x = np.minimum(np.arange(w), np.arange(w)[::-1])[None, :] / band
    alpha = np.clip(np.minimum(ramp_y, ramp_x), 0.0, 1.0)[..., None]
    region = photo[y : y + h, x : x + w]
    photo[y : y + h, x : x + w] = alpha * small + (1 - alpha) * region
    return np.clip(photo, 0, 255).astype(np.uint8), (x, y)


def _evidence_file(text: str) -> Path:
    from fanscan.vision.evidence import load_evidence

    try:
        load_evidence(Path(text))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise argparse.ArgumentTypeError(f"{text}: not a reading evidence file ({error})") from None
    return Path(text)


def _links_file(text: str) -> Path:
    from fanscan.vision.hand_links import check_model_file

    try:
        return check_model_file(Path(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=500)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--failures", type=Path, default=Path("/tmp/fanscan-reader-failures"))
    parser.add_argument("--model", help="classifier ONNX (default: the shipped one)")
    parser.add_argument("--finder", type=Path, help="tile finder ONNX (default: the shipped one)")
    parser.add_argument("--refiner", type=Path, help="box refiner ONNX (default: the shipped one)")
    parser.add_argument("--hand-links", type=_links_file, help="hand link model (default: the shipped one)")
    parser.add_argument("--evidence", type=_evidence_file, help="reading search evidence (default: the shipped one)")
    parser.add_argument("--clutter", action="store_true",
                        help="the rest of a table around each hand: walls, discards, other melds")
    parser.add_argument("--riichi-win", action="store_true",
                        help="the winning tile turned sideways against the concealed row's end")
    parser.add_argument("--standing", action="store_true",
                        help="each hand standing mid-game, waiting, seen from the seat")
    parser.add_argument("--busy", action="store_true",
                        help="mats, photographed table tops, and a rack, dice, coins, a phone or fingers")
    parser.add_argument("--opponents", action="store_true",
                        help="the other players' standing hands on the table too (implies --clutter)")
    parser.add_argument("--real-faces", action="store_true",
                        help="paint the tiles with crops of real held-out tiles (needs ../shared/data)")
    parser.add_argument("--far", type=float, metavar="SHORT",
                        help="each scene shrunk to tiles of this short side (px) in a 12 MP photo")
    args = parser.parse_args(argv)
    args.clutter = args.clutter or args.opponents

    from fanscan.datasets.scenes import generate_scene
    from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision import evidence, finder, hand_links, refine
    from fanscan.vision.reader import read_photo

    from fanscan.errors import FanscanError

    if args.finder:
        finder.MODEL_PATH = args.finder
    if args.refiner:
        refine.MODEL_PATH = args.refiner
    if args.hand_links:
        hand_links.use_model_file(args.hand_links)
    if args.evidence:
        evidence.use_evidence_file(args.evidence)

    classifier = TileClassifier(args.model) if args.model else default_classifier()
    pool = None
    if args.real_faces:
        from fanscan.datasets.real_faces import draw_faces, held_out_pool

        pool = held_out_pool(default_classifier())
        missing = pool.missing()
        if missing:
            found = "no held-out real crops here (is ../shared/data/rf-chinese absent?)" if not pool.crops \
                else f"no held-out real crop of {' '.join(missing)}"
            print(found, file=sys.stderr)
            return 1
    args.failures.mkdir(parents=True, exist_ok=True)
    exact = 0
    tiles_total = tiles_right = phantoms = 0
    reasons: Counter[str] = Counter()
    parts_right: Counter[str] = Counter()
    seconds = 0.0
    for n, seed in enumerate(range(args.first, args.first + args.scenes)):
        faces = None if pool is None else draw_faces(pool, np.random.default_rng([seed, 3]))
        scene = generate_scene(seed, clutter=args.clutter, standing=args.standing, riichi_win=args.riichi_win,
                               faces=faces, tables=BUSY_TABLE_KINDS if args.busy else TABLE_KINDS,
                               props=args.busy, opponents=args.opponents)
        photo = scene.jpeg if args.far is None else far_photo(scene, args.far, np.random.default_rng([seed, 5]))
        start = time.perf_counter()
        try:
            reading = read_photo(photo, classifier=classifier, hand="waiting" if args.standing else "win")
            got = reading.hand.to_json()
            if args.standing:
                got["win_tile"] = None  # a waiting hand has none (the JSON names its last tile)
        except FanscanError as error:
            reading, got = None, None
            reasons[error.code] += 1
        seconds += time.perf_counter() - start
        truth = Counter(t.code for t in scene.tiles)
        if reading is not None:
            found = Counter(t.code for t in reading.tiles)
            tiles_right += sum((truth & found).values())
            phantoms += sum((found - truth).values())
        tiles_total += sum(truth.values())
        if got is not None:
            for name, a, b in zip(("concealed", "melds", "win_tile", "flowers"), _key(got), _key(scene.hand)):
                parts_right[name] += a == b
        if got is not None and _key(got) == _key(scene.hand):
            exact += 1
        else:
            reason = _what_differs(got, scene.hand) if got is not None else "error"
            reasons[reason] += 1
            if reading is not None:
                name = f"seed{seed}-{reason}.jpg"
                reading.save_annotated(args.failures / name)
                (args.failures / f"seed{seed}.json").write_text(
                    json.dumps({"truth": scene.hand, "read": got, "doubts": reading.doubts}, indent=1)
                )
        if (n + 1) % 25 == 0:
            print(f"{n + 1}/{args.scenes}: {exact} exact", file=sys.stderr, flush=True)
    result = {
        "scenes": args.scenes,
        "clutter": args.clutter,
        "standing": args.standing,
        "riichi_win": args.riichi_win,
        "real_faces": args.real_faces,
        "busy": args.busy,
        "opponents": args.opponents,
        "far": args.far,
        "exact": exact,
        "exact_rate": round(exact / args.scenes, 4),
        "tile_recall": round(tiles_right / max(tiles_total, 1), 4),
        "phantoms": phantoms,
        "part_right_rate": {k: round(v / args.scenes, 4) for k, v in parts_right.items()},
        "mean_read_seconds": round(seconds / args.scenes, 3),
        "failures": dict(reasons),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
