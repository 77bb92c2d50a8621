"""Time the shipped tile classifier: 20 crops per call on one CPU core (intra-op threads 1).

    python benchmarks/bench_classify.py [--model PATH] [--crops 20] [--runs 200]

Crops are rendered tiles at a typical real crop size (76 x 102 px); the time includes
preprocessing, as the photo reader pays it. Prints the median and 90th percentile per call.
"""

from __future__ import annotations

import argparse
import os
import time

import cv2
import numpy as np

from fanscan.vision.classifier import DEFAULT_MODEL, TileClassifier


def sample_crops(count: int) -> list[np.ndarray]:
    """``count`` crops of rendered tiles, or of noise when no tile art is installed."""
    from fanscan.datasets.synth_tiles import generate
    from fanscan.datasets.tile_art import available_styles

    if available_styles():
        return [cv2.resize(c.image, (76, 102)) for c in generate(count, seed=0)]
    rng = np.random.default_rng(0)
    return [rng.integers(0, 256, (102, 76, 3), dtype=np.uint8) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=str(DEFAULT_MODEL))
    parser.add_argument("--crops", type=int, default=20)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    classifier = TileClassifier(args.model, threads=1)
    crops = sample_crops(args.crops)
    for _ in range(10):
        classifier.classify(crops)
    times = []
    cpu_start = time.process_time()
    for _ in range(args.runs):
        start = time.perf_counter()
        classifier.classify(crops)
        times.append((time.perf_counter() - start) * 1000)
    cpu_ms = (time.process_time() - cpu_start) * 1000 / args.runs
    size_mb = os.path.getsize(args.model) / 1e6
    print(f"model {args.model}: {size_mb:.2f} MB")
    print(f"{args.crops} crops per call, 1 thread: median {np.median(times):.1f} ms, "
          f"p90 {np.percentile(times, 90):.1f} ms, CPU {cpu_ms:.1f} ms, over {args.runs} calls")


if __name__ == "__main__":
    main()
