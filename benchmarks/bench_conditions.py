"""Photo reader under camera conditions the scene generator does not draw: hands read exactly per condition.

    python benchmarks/bench_conditions.py --scenes 100 --first 16000 [--conditions tungsten,motion] [--jobs 2]

Each scene (``generate_scene(seed)``) is changed once per condition, JPEG-encoded at quality 92
(``jpeg40``: 40) and read; a hand counts when it equals the scene's truth as in
``bench_scenes.py``. The conditions are fixed, strong versions of what phone photos show: lamp
light far from daylight (the light casts of ``datasets/photo_effects.CASTS``), a shaken hand, a
missed focus, a dim room, a photo one stop over-exposed, a hazy lens, a small photo and heavy
compression. Blur lengths are given for a
1,600-pixel-wide scene and scaled with its width. Prints progress, then one JSON line with the
count per condition and the seeds each one lost.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scenes import _key  # noqa: E402


def _cast(light: int) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
    """The picture under ``photo_effects.CASTS[light]``, without the jitter training draws."""
    from fanscan.datasets.photo_effects import CASTS

    gains = np.float32(CASTS[light])

    def cast(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return cast


def _motion(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    from fanscan.datasets.photo_effects import motion_blur

    return motion_blur(image, 6 * image.shape[1] / 1600, rng.uniform(0, 180))


def _defocus(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), 2.0 * image.shape[1] / 1600)


def _dim(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    dark = image.astype(np.float32) * 0.4 + rng.normal(0, 7, image.shape)
    return np.clip(dark, 0, 255).astype(np.uint8)


def _bright(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    from fanscan.datasets.photo_effects import over_exposed

    return over_exposed(image.astype(np.float32), 2.0).astype(np.uint8)


def _hazy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    from fanscan.datasets.photo_effects import hazier

    return hazier(image.astype(np.float32), 0.6).astype(np.uint8)


def _small(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (w * 5 // 8, h * 5 // 8), interpolation=cv2.INTER_AREA)


CONDITIONS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "plain": lambda image, rng: image,
    "tungsten": _cast(0),
    "warm": _cast(1),
    "cool": _cast(2),  # shade
    "green": _cast(3),  # fluorescent
    "motion": _motion,  # 6 px at 1,600 wide
    "defocus": _defocus,  # Gaussian, sigma 2 px at 1,600 wide
    "dim": _dim,  # 0.4 of the light, sensor noise sigma 7
    "bright": _bright,  # one stop over: twice the light, what passes white clipped
    "hazy": _hazy,  # every level lifted to within 0.6 of white (flare, glare on the lens)
    "small": _small,  # 1,000 x 750
    "jpeg40": lambda image, rng: image,
}


def _read_one(job: tuple[int, tuple[str, ...]]) -> tuple[int, dict[str, bool]]:
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.reader import read_photo

    from fanscan.errors import FanscanError

    seed, conditions = job
    scene = generate_scene(seed)
    want = _key(scene.hand)
    exact = {}
    for name in conditions:
        image = CONDITIONS[name](scene.image, np.random.default_rng(seed))
        quality = 40 if name == "jpeg40" else 92
        data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
        try:
            exact[name] = _key(read_photo(data).hand.to_json()) == want
        except FanscanError:
            exact[name] = False
    return seed, exact


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--first", type=int, default=16000, help="first seed")
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help=f"comma-separated, of: {', '.join(CONDITIONS)}")
    parser.add_argument("--jobs", type=int, default=2, help="processes reading side by side")
    args = parser.parse_args(argv)
    conditions = tuple(c.strip() for c in args.conditions.split(",") if c.strip())
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown or not conditions:
        parser.error(f"unknown condition(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(CONDITIONS)}")
    jobs = [(seed, conditions) for seed in range(args.first, args.first + args.scenes)]
    lost: dict[str, list[int]] = {name: [] for name in conditions}
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for done, (seed, exact) in enumerate(pool.imap_unordered(_read_one, jobs), 1):
            for name, right in exact.items():
                if not right:
                    lost[name].append(seed)
            if done % 10 == 0 or done == len(jobs):
                print(f"{done}/{len(jobs)} scenes", file=sys.stderr, flush=True)
    result = {
        "scenes": args.scenes,
        "first": args.first,
        "exact": {name: args.scenes - len(seeds) for name, seeds in lost.items()},
        "lost": {name: sorted(seeds) for name, seeds in lost.items()},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
