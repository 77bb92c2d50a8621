"""Many real photos in one run: ``fanscan read FOLDER --json --workers N`` against the peer detector
reading the same photos in one process, each a whole fresh process, start-up included.

    python benchmarks/bench_batch.py [--rf 40] [--workers 1,2] [--rounds 2] [--json]

The photos are ``bench_peer.real_photos`` less the untagged ones (by default 40 rf-chinese sources,
the least turned version of each), linked into a temporary folder. Each round runs every fanscan
side (one per ``--workers`` count) and then the peer (``mahjong-detector`` 0.0.6, its
``detect_tiles`` on each photo in turn: import, model load and every photo), one after the other,
so that all see the same load on the machine. Printed: each side's best and median wall time over
the rounds, its photos per second, and fanscan's over the peer's. Without the peer installed it
says so and times fanscan alone; without real photos it says so in one line and exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_peer import PEER_VERSION, peer_installed, real_photos  # noqa: E402

_PEER = ("import sys\n"
         "from mahjong_detector import detect_tiles\n"
         "for path in sys.argv[1:]:\n"
         "    detect_tiles(path)\n")


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: some photo had no hand to read (its line says so)
        raise SystemExit(f"{' '.join(command[:4])} ... failed ({done.returncode}): {done.stderr[-500:]}")
    return seconds


def run(photos: list[Path], workers: list[int], rounds: int, with_peer: bool) -> dict[str, Any]:
    """Wall seconds of every side and round, and photos/s of the best round."""
    fanscan = str(Path(sys.executable).with_name("fanscan"))
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        links = []
        for k, photo in enumerate(photos):  # numbered: the same order for every side
            link = Path(folder) / f"{k:03d}{photo.suffix.lower()}"
            link.symlink_to(photo.resolve())
            links.append(str(link))
        sides = {f"fanscan --workers {n}": [fanscan, "read", folder, "--json", "--quiet", "--workers", str(n)]
                 for n in workers}
        if with_peer:
            sides[f"mahjong-detector {PEER_VERSION}"] = [sys.executable, "-c", _PEER, *links]
        for command in sides.values():  # warm the page cache and the bytecode
            _wall(command)
        for _ in range(rounds):
            for side, command in sides.items():
                times.setdefault(side, []).append(_wall(command))
    best = {side: min(t) for side, t in times.items()}
    return {
        "photos": len(photos),
        "rounds": rounds,
        "seconds": times,
        "best_seconds": best,
        "median_seconds": {side: statistics.median(t) for side, t in times.items()},
        "photos_per_s": {side: len(photos) / max(s, 1e-9) for side, s in best.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rf", type=int, default=40, help="rf-chinese sources (default 40)")
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=2, help="timed runs of each side (default 2)")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    args = parser.parse_args(argv)
    try:
        workers = [int(n) for n in args.workers.split(",")]
    except ValueError:
        parser.error("--workers: comma-separated whole numbers")
    if not workers or min(workers) < 1 or args.rounds < 1 or args.rf < 1:
        parser.error("--workers, --rounds and --rf must be positive")
    untagged = {p for p in real_photos(0)}
    photos = [p for p in real_photos(args.rf) if p not in untagged]
    if not photos:
        print("bench_batch: skipped: no real photos here (shared/data/rf-chinese)")
        return 0
    with_peer = peer_installed()
    if not with_peer:
        print(f"bench_batch: the peer is not installed (pip install mahjong-detector=={PEER_VERSION}): "
              "fanscan alone")
    result = run(photos, workers, args.rounds, with_peer)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    peer = next((side for side in result["best_seconds"] if side.startswith("mahjong")), None)
    for side, best in result["best_seconds"].items():
        ratio = f", {best / result['best_seconds'][peer]:.2f} times the peer's time" if peer and side != peer else ""
        print(f"{side:28} best {best:6.2f} s, median {result['median_seconds'][side]:6.2f} s, "
              f"{result['photos_per_s'][side]:5.1f} photos/s{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
