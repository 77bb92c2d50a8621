"""Speed and memory of reading and scoring one 12-megapixel photo, whole process, on one core.

    python benchmarks/bench_read.py [--runs 5] [--photo PHOTO.jpg] [--command read|score]

Without ``--photo`` the sample hand (``vision/samples.py``) is rendered at 4000x3000 once into a
temporary folder. Each
run starts ``fanscan <command> PHOTO --json`` as a fresh process pinned to one CPU core (Linux
``sched_setaffinity``), so start-up, imports, decoding, finding, classifying, the layout and
scoring are all counted. Prints the wall times and the peak resident memory as JSON, and beside
them the floor no reader in this stack gets under on the same machine: a fresh process that only
imports numpy, OpenCV, onnxruntime and Pillow (``libraries_only``), timed the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


_LIBRARIES_ONLY = "import numpy, cv2, onnxruntime, PIL.Image"
"""What a fresh process of this stack costs before any of fanscan's own work."""


def _peak_rss_mb(command: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one run in a child pinned to one core."""
    runner = (
        "import os, resource, subprocess, sys, time\n"
        "os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}) if hasattr(os, 'sched_setaffinity') else None\n"
        "t = time.perf_counter(); p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "w = time.perf_counter() - t\n"
        "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, p.returncode)\n"
        "sys.stderr.write(p.stdout[:4000] + p.stderr[-2000:])\n"
    )
    # An installed package has its bytecode compiled; an editable checkout under
    # PYTHONDONTWRITEBYTECODE would compile every module on every run (about 60 ms here).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", runner, *command], capture_output=True, text=True, check=True,
                          env=env)
    wall, rss, code = done.stdout.split()
    if code not in ("0", "1"):  # 1: the photo read, but its hand is no winning hand
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return float(wall), float(rss), done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--photo", type=Path)
    parser.add_argument("--command", choices=("read", "score"), default="score")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        photo = args.photo
        if photo is None:
            from fanscan.datasets.scenes import generate_scene
            from fanscan.vision import samples

            photo = Path(folder) / "hand-12mp.jpg"
            scene = generate_scene(samples.SAMPLE_SEED, size=(4000, 3000), style=samples.SAMPLE_STYLE,
                                   groups=samples.sample_groups())
            photo.write_bytes(scene.jpeg)
        fanscan = str(Path(sys.executable).with_name("fanscan"))
        command = [fanscan, args.command, str(photo), "--json"]
        _peak_rss_mb(command)  # warm the page cache and write the bytecode
        walls, peaks, floors = [], [], []
        output = ""
        for _ in range(args.runs):  # interleaved, so both see the same load on the machine
            wall, peak, output = _peak_rss_mb(command)
            walls.append(wall)
            peaks.append(peak)
            floors.append(_peak_rss_mb([sys.executable, "-c", _LIBRARIES_ONLY])[0])
        result = {
            "command": f"fanscan {args.command} PHOTO --json",
            "photo_megapixels": None,
            "runs": args.runs,
            "wall_seconds_median": round(statistics.median(walls), 3),
            "wall_seconds_min": round(min(walls), 3),
            "peak_rss_mb_max": round(max(peaks), 1),
            "libraries_only_seconds_median": round(statistics.median(floors), 3),
            "libraries_only_seconds_min": round(min(floors), 3),
            "cpu": os.cpu_count(),
            "output_head": output[:200],
        }
        from PIL import Image

        with Image.open(photo) as image:
            result["photo_megapixels"] = round(image.width * image.height / 1e6, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
