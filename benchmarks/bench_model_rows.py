"""How much network work a read takes: the rows each model runs on, in one warm process.

    python benchmarks/bench_model_rows.py [PHOTO ...] [--rf 40] [--json]

Reads the photos (default: the 52 real photos of ``bench_peer.py``: the untagged camerash photos
and ``--rf`` rf-chinese sources) with ``read_photo`` after one untimed read, counting for every
onnxruntime session the rows it was run on (crops, squares, windows, images), the calls and the
seconds inside them; prints one line per model and the totals. The rows are deterministic for a
given reader and photos, so two readers compare by their rows even on a noisy machine; the
seconds say what a row costs there. docs/benchmarks.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from bench_peer import real_photos


def count_rows(photos: list[Path]) -> dict:
    """Per model (file name): rows, calls and seconds of its runs while ``photos`` are read;
    with the tiles read and the whole time."""
    from fanscan.errors import FanscanError
    from fanscan.vision import onnx_session
    from fanscan.vision.reader import read_photo

    rows: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    plain_run = onnx_session.LazySession.run

    def counted_run(self, array):
        start = time.perf_counter()
        try:
            return plain_run(self, array)
        finally:
            name = Path(self.model_path).name
            rows[name] += len(array)
            calls[name] += 1
            seconds[name] += time.perf_counter() - start

    def read(path: Path) -> int:
        try:
            return len(read_photo(str(path)).tiles)
        except FanscanError:
            return 0

    read(photos[0])  # sessions opened, caches warm: not counted
    onnx_session.LazySession.run = counted_run
    try:
        start = time.perf_counter()
        tiles = sum(read(path) for path in photos)
        total = time.perf_counter() - start
    finally:
        onnx_session.LazySession.run = plain_run
    models = {name: {"rows": rows[name], "calls": calls[name], "seconds": round(seconds[name], 3),
                     "ms_per_row": round(1000 * seconds[name] / rows[name], 3)} for name in rows}
    return {"photos": len(photos), "tiles": tiles, "seconds": round(total, 3), "models": models}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("photos", nargs="*", type=Path, help="photos to read (default: bench_peer's)")
    parser.add_argument("--rf", type=int, default=40, help="rf-chinese sources among the default photos")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = parser.parse_args(argv)
    photos = args.photos or real_photos(args.rf)
    if not photos:
        print("no photos: give some, or set FANSCAN_SHARED to the shared folder", file=sys.stderr)
        return 1
    result = count_rows(photos)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['photos']} photos, {result['tiles']} tiles read in {result['seconds']:.2f} s")
    print(f"{'model':<24} {'rows':>8} {'calls':>6} {'seconds':>8} {'ms a row':>9}")
    for name, figures in sorted(result["models"].items(), key=lambda item: -item[1]["seconds"]):
        print(f"{name:<24} {figures['rows']:>8} {figures['calls']:>6} {figures['seconds']:>8.2f} "
              f"{figures['ms_per_row']:>9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
