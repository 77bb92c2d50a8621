"""fanscan beside the peer detector on the same real photos, each side warm in its own process.

    python benchmarks/bench_peer.py [--rf 40] [--rounds 1] [--plot docs/bench_peer.png] [--json]
        [--sides fanscan,fanscan-old,fanscan-arena,fanscan-base,peer] [--baseline CHECKOUT]

The peer is ``mahjong-detector`` 0.0.6 from PyPI (a YOLO11n ONNX model that only detects tiles:
``pip install mahjong-detector==0.0.6``); without it the script says so in one line and exits 0.
Photos (from the shared folder, ``FANSCAN_SHARED`` where it is not beside the checkout): the
untagged real photos (``shared/data/camerash/untagged-photos``, JPEG and PNG) and a deterministic
sample of ``--rf`` sources of the rf-chinese table photos, the least turned version of each
(``datasets.real_tables``). Each side runs in a child process of its own, warmed on the first
photo before timing, so that their peak memory (``VmHWM``) does not mix; the photos are read
alternately, one by one, each photo by every side, the side that starts turning photo by photo
through the order of ``--sides`` (default fanscan, then the peer; also
``fanscan-old``: the sessions as before issue 28, ``fanscan-arena``: a shrinking CPU arena,
``fanscan-base``: fanscan imported from another checkout, ``--baseline``, to set an older reader
beside today's in the same run).
Printed: per photo each side's time and boxes found and its ratio to the last side; in total the
time ratios, photos/s and each side's peak RSS and RSS after the last photo. ``--plot``
draws time per photo against boxes found (OpenCV, no matplotlib).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

PEER_VERSION = "0.0.6"
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png"}


def real_photos(rf: int) -> list[Path]:
    """The untagged real photos, then ``rf`` rf-chinese sources (least turned version each)."""
    from fanscan.datasets.real_tables import least_turned, load_table_photos
    from fanscan.datasets.shared import shared_path

    photos: list[Path] = []
    untagged = shared_path("data", "camerash", "untagged-photos")
    if untagged is not None and untagged.is_dir():
        photos += sorted(p for p in untagged.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if rf > 0:
        versions = load_table_photos()
        sources = sorted({v.source for v in versions})
        step = max(1, len(sources) // rf)
        chosen = set(sources[::step][:rf])
        photos += [p.path for p in least_turned(v for v in versions if v.source in chosen)]
    return photos


def _peak_rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _as_before(arena_shrinkage: bool = False) -> None:
    """Open fanscan's sessions as before issue 28 (``--sides fanscan-old``): the CPU arena on,
    spinning threads, onnxruntime's choice of threads for the classifiers and the numeral reader,
    whole batches; or (``fanscan-arena``) today's settings but with the arena on, shrunk after
    every run."""
    import onnxruntime as ort

    import fanscan.vision.onnx_session as sessions

    new_options = sessions.session_options

    def options(threads: int | None) -> Any:
        if arena_shrinkage:
            opened = new_options(threads)
            opened.enable_cpu_mem_arena = True
            return opened
        opened = ort.SessionOptions()
        opened.enable_mem_pattern = False
        if threads:
            opened.intra_op_num_threads = threads
            opened.inter_op_num_threads = 1
        return opened

    sessions.session_options = options
    if arena_shrinkage:
        run_options = ort.RunOptions()
        run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

        def run(self: Any, array: Any) -> Any:
            session = self._session if self._session is not None else self._open()
            return session.run(None, {self._input_name: array}, run_options)[0]

        sessions.LazySession.run = run
        return
    init = sessions.LazySession.__init__

    def old_init(self: Any, model_path: Path, **kwargs: Any) -> None:
        init(self, model_path, **kwargs)
        self.max_batch = None
        if Path(model_path).parent.name == "models":  # the classifiers and the numeral reader
            self.threads = None

    sessions.LazySession.__init__ = old_init


def _import_fanscan_from(checkout: str) -> None:
    """Make ``import fanscan`` load the package at ``checkout`` (a source tree), ahead of the
    installed one: a folder holding a ``fanscan`` link to it goes first on ``sys.path``."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="bench_peer_base_"))
    (folder / "fanscan").symlink_to(Path(checkout).resolve(), target_is_directory=True)
    sys.path.insert(0, str(folder))


def _reader(side: str, baseline: str | None = None) -> Any:
    """A function photo path -> (boxes found, what was read: every tile's code and the hand), for
    ``side``."""
    if side == "peer":
        from mahjong_detector import detect_tiles

        return lambda path: (len(detect_tiles(path)), "")
    if side == "fanscan-base":
        assert baseline is not None
        _import_fanscan_from(baseline)
    if side in ("fanscan-old", "fanscan-arena"):
        _as_before(arena_shrinkage=side == "fanscan-arena")
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    def read(path: str) -> tuple[int, str]:
        try:
            reading = read_photo(path)
        except FanscanError as error:
            return 0, f"error {error.code}"
        codes = " ".join(tile.code for tile in reading.tiles)
        return len(reading.tiles), f"{codes} | {json.dumps(reading.hand.to_json(), sort_keys=True)}"

    return read


def _child(side: str, conn: Any, baseline: str | None = None) -> None:
    read = _reader(side, baseline)
    while True:
        path = conn.recv()
        if path is None:
            break
        start = time.perf_counter()
        boxes, what = read(path)
        conn.send((time.perf_counter() - start, boxes, what, _rss_mb(), _peak_rss_mb()))
    conn.close()


def peer_installed() -> bool:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return False
    try:
        return version("mahjong-detector") is not None
    except PackageNotFoundError:
        return False


SIDES = ("fanscan", "peer", "fanscan-old", "fanscan-arena", "fanscan-base")


def run(photos: list[Path], rounds: int = 1, sides: tuple[str, ...] = ("fanscan", "peer"),
        baseline: str | None = None) -> dict[str, Any]:
    """Per-photo times (s), boxes and memory of every side, alternated photo by photo; the ratios
    are each side's total time over the last side's; ``same_as_fanscan``: of each other fanscan
    side, the photos it read exactly as ``fanscan`` did (every tile's code and the hand)."""
    context = mp.get_context("spawn")
    pipes, children = {}, {}
    for side in sides:
        parent, child = context.Pipe()
        process = context.Process(target=_child, args=(side, child, baseline), daemon=True)
        process.start()
        pipes[side], children[side] = parent, process
    for side in sides:  # warm: imports, sessions, first run
        pipes[side].send(str(photos[0]))
    for side in sides:
        pipes[side].recv()
    rows: list[dict[str, Any]] = []
    for turn, photo in enumerate(photo for _ in range(rounds) for photo in photos):
        row: dict[str, Any] = {"photo": photo.name}
        # Each photo starts with the next side: on a 2-vCPU VM the side read first was the
        # slower one in most runs, whichever it was.
        first = turn % len(sides)
        for side in sides[first:] + sides[:first]:
            pipes[side].send(str(photo))
            seconds, boxes, what, rss, peak = pipes[side].recv()
            row[side] = {"seconds": seconds, "boxes": boxes, "read": what, "rss_mb": rss, "peak_mb": peak}
        rows.append(row)
    for side in sides:
        pipes[side].send(None)
        children[side].join(30)
    totals = {side: sum(r[side]["seconds"] for r in rows) for side in sides}
    return {
        "photos": len(rows),
        "sides": list(sides),
        "rows": rows,
        "seconds": totals,
        "ratio": {side: totals[side] / max(totals[sides[-1]], 1e-9) for side in sides},
        "photos_per_s": {side: len(rows) / max(totals[side], 1e-9) for side in sides},
        "peak_mb": {side: max(r[side]["peak_mb"] for r in rows) for side in sides},
        "rss_end_mb": {side: rows[-1][side]["rss_mb"] for side in sides},
        "same_as_fanscan": {side: sum(r[side]["read"] == r["fanscan"]["read"] for r in rows)
                            for side in sides if side.startswith("fanscan-") and "fanscan" in sides},
    }


def plot(rows: list[dict[str, Any]], path: Path, width: int = 720, height: int = 440) -> None:
    """Time per photo (ms) against boxes found, fanscan blue and the peer red, as a PNG."""
    import cv2
    import numpy as np

    left, right, top, bottom = 70, 20, 50, 50  # the legend sits above the plot
    image = np.full((height, width, 3), 255, np.uint8)
    points = [(side, r[side]["boxes"], r[side]["seconds"] * 1000) for r in rows for side in ("fanscan", "peer")]
    x_max = max(10, max(p[1] for p in points)) * 1.05
    y_max = max(10.0, max(p[2] for p in points)) * 1.05

    def at(x: float, y: float) -> tuple[int, int]:
        return (int(left + x / x_max * (width - left - right)),
                int(height - bottom - y / y_max * (height - top - bottom)))

    font = cv2.FONT_HERSHEY_SIMPLEX
    black, grey = (0, 0, 0), (210, 210, 210)
    for i in range(6):
        x, y = x_max * i / 5, y_max * i / 5
        cv2.line(image, at(x, 0), at(x, y_max), grey, 1)
        cv2.line(image, at(0, y), at(x_max, y), grey, 1)
        cv2.putText(image, f"{x:.0f}", (at(x, 0)[0] - 10, height - bottom + 18), font, 0.4, black, 1, cv2.LINE_AA)
        cv2.putText(image, f"{y:.0f}", (8, at(0, y)[1] + 4), font, 0.4, black, 1, cv2.LINE_AA)
    cv2.rectangle(image, at(0, y_max), at(x_max, 0), black, 1)
    colours = {"fanscan": (200, 90, 20), "peer": (40, 40, 220)}
    for side, x, y in points:
        cv2.circle(image, at(x, y), 4, colours[side], -1, cv2.LINE_AA)
    cv2.putText(image, "boxes found", (width // 2 - 40, height - 12), font, 0.5, black, 1, cv2.LINE_AA)
    cv2.putText(image, "ms a photo", (8, 40), font, 0.5, black, 1, cv2.LINE_AA)
    for k, side in enumerate(("fanscan", "peer")):
        cv2.circle(image, (width - 240, 14 + 18 * k), 5, colours[side], -1, cv2.LINE_AA)
        cv2.putText(image, side if side == "fanscan" else f"mahjong-detector {PEER_VERSION}",
                    (width - 230, 19 + 18 * k), font, 0.45, black, 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rf", type=int, default=40, help="rf-chinese sources to add (default 40)")
    parser.add_argument("--rounds", type=int, default=1, help="times every photo is read (default 1)")
    parser.add_argument("--plot", type=Path, help="write time against boxes found to this PNG")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument("--sides", default="fanscan,peer",
                        help="comma-separated, the last one the ratio's base: fanscan, peer, "
                             "fanscan-old (sessions as before issue 28), fanscan-arena "
                             "(with a shrinking CPU arena), fanscan-base (from --baseline); "
                             "default fanscan,peer")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="the fanscan-base side imports fanscan from this source tree "
                             "(a git worktree of an older commit)")
    args = parser.parse_args(argv)
    sides = tuple(args.sides.split(","))
    if not sides or any(side not in SIDES for side in sides) or len(set(sides)) != len(sides):
        parser.error(f"--sides: a list of distinct names among {', '.join(SIDES)}")
    if ("fanscan-base" in sides) != (args.baseline is not None):
        parser.error("--baseline CHECKOUT goes with the fanscan-base side, and that side needs it")
    if args.baseline is not None and not (args.baseline / "vision" / "reader.py").is_file():
        parser.error(f"--baseline: {args.baseline} is no fanscan source tree (no vision/reader.py)")
    if "peer" in sides and not peer_installed():
        print(f"bench_peer: skipped: mahjong-detector is not installed "
              f"(pip install mahjong-detector=={PEER_VERSION})")
        return 0
    photos = real_photos(args.rf)
    if not photos:
        print("bench_peer: skipped: no real photos here (shared/data/camerash, shared/data/rf-chinese)")
        return 0
    result = run(photos, args.rounds, sides, None if args.baseline is None else str(args.baseline))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        base = sides[-1]
        print(f"{'photo':40}" + "".join(f" {side + ' ms':>18} {'boxes':>5}" for side in sides)
              + "".join(f" {side + '/' + base:>14}" for side in sides[:-1]))
        for row in result["rows"]:
            cells = "".join(f" {row[s]['seconds'] * 1000:18.0f} {row[s]['boxes']:5d}" for s in sides)
            ratios = "".join(f" {row[s]['seconds'] / max(row[base]['seconds'], 1e-9):14.2f}" for s in sides[:-1])
            print(f"{row['photo'][:40]:40}{cells}{ratios}")
        print(f"{result['photos']} photos: " + ", ".join(
            f"{s} {result['seconds'][s]:.2f} s ({result['photos_per_s'][s]:.1f}/s, "
            f"ratio {result['ratio'][s]:.2f})" for s in sides))
        print("peak RSS: " + ", ".join(f"{s} {result['peak_mb'][s]:.0f} MB" for s in sides)
              + "; RSS at the end: " + ", ".join(f"{s} {result['rss_end_mb'][s]:.0f} MB" for s in sides))
        for side, same in result["same_as_fanscan"].items():
            print(f"{side}: {same} of {result['photos']} photos read exactly as fanscan read them")
    if args.plot and "fanscan" in sides and "peer" in sides:
        plot(result["rows"], args.plot)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
