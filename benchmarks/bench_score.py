"""Throughput of `fanscan score --jsonl` as a whole process, on random complete hands (seeded).

    python benchmarks/bench_score.py [--hands 10000] [--seed 1] [--repeat 3] [--rules mcr]
                                     [--against REV] [--reference]

``--against REV`` times the code of git revision REV (``git archive``) on the same hands, beside
this tree: both laid out as the installed ``fanscan`` namespace (symlinks on ``PYTHONPATH``, so
neither pays an editable install's import hook) under the same interpreter, their runs alternated
in each repeat so that both see the same machine load, and prints the two side by side.

``--reference`` (MCR only) also times the C++ reference, the MIL fan calculator (``pymahjonggb``,
in the ``test`` extra), behind the same JSON-lines wrapper (``benchmarks/score_reference.py``:
``json.loads`` in, one result JSON out per line) on the same hands, alternated with the others,
and prints each fanscan run's CPU time over the reference's (the issue's bound: at most 1.2).

Writes the hands to a temporary JSON-lines file, runs ``python -m fanscan score --jsonl FILE``
(start-up included), checks one result per hand, and prints hands per second of wall time and
of the child's CPU time (best and median of the repeats; the process is single-threaded, so CPU
time is the figure for one core even on a busy machine) with the machine and its load average.
docs/benchmarks.md records them.

The child compiles its modules once, in an untimed warm-up run, into a private bytecode cache
(``PYTHONPYCACHEPREFIX`` in the temporary folder), as an installed package has its ``.pyc`` files;
otherwise a machine with ``PYTHONDONTWRITEBYTECODE`` set would time compiling the sources too.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from fanscan.scoring.generate import random_hand

ROOT = Path(__file__).resolve().parents[1]
#: The installed namespace: fanscan.<sub> lives in folder <sub> (setup.py's ROOTS).
FOLDERS = {"scoring": "scoring", "vision": "vision", "models": "models", "datasets": "datasets"}


REFERENCE = "C++ reference"
REFERENCE_SCRIPT = Path(__file__).resolve().parent / "score_reference.py"


@dataclass
class Timing:
    """The wall and CPU seconds of one code version (or the reference) in each repeat."""

    label: str
    pythonpath: str | None
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return min(self.walls)

    @property
    def cpu(self) -> float:
        return min(self.cpus)

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default="mcr")
    parser.add_argument("--against", metavar="REV", help="also time git revision REV")
    parser.add_argument("--reference", action="store_true",
                        help="also time the C++ reference (pymahjonggb) behind the same wrapper")
    args = parser.parse_args()
    if args.reference and args.rules != "mcr":
        parser.error("--reference scores MCR only")

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            for _ in range(args.hands):
                handle.write(json.dumps(random_hand(rng).to_json()) + "\n")
        timings = [Timing("this tree", None)]
        if args.against:
            here = _namespace(ROOT, Path(folder) / "here")
            timings = [Timing("this tree", str(here)),
                       Timing(args.against, str(_checkout(args.against, Path(folder))))]
        if args.reference:
            timings.append(Timing(REFERENCE, None))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for timing in timings:
            timing_env = _env_for(timing, env, Path(folder))
            # The warm-up run: compiles bytecode.
            if not _run_checked(path, args, timing_env, timing.label):
                return 1
        for _ in range(args.repeat):
            for timing in timings:
                before = _children_cpu()
                start = time.perf_counter()
                ok = _run_checked(path, args, _env_for(timing, env, Path(folder)), timing.label)
                timing.walls.append(time.perf_counter() - start)
                timing.cpus.append(_children_cpu() - before)
                if not ok:
                    return 1
    _report(timings, args)
    return 0


def _report(timings: list[Timing], args: argparse.Namespace) -> None:
    for timing in timings:
        print(
            f"{timing.label}: {args.hands} {args.rules} hands in {timing.wall:.2f} s wall: "
            f"{args.hands / timing.wall:,.0f} hands/s; {timing.cpu:.2f} s CPU: "
            f"{args.hands / timing.cpu:,.0f} hands/s per core "
            f"(best of {args.repeat}; median {timing.median_cpu:.2f} s CPU; whole process, "
            "start-up included)"
        )
    ours = [t for t in timings if t.label != REFERENCE]
    if len(ours) == 2:
        print(f"CPU time, this tree / {args.against}: {ours[0].cpu / ours[1].cpu:.3f}")
    reference = next((t for t in timings if t.label == REFERENCE), None)
    if reference is not None:
        for timing in ours:
            print(
                f"CPU time, {timing.label} / {REFERENCE}: best {timing.cpu / reference.cpu:.3f}, "
                f"median {timing.median_cpu / reference.median_cpu:.3f}, per repeat "
                + " ".join(f"{a / b:.2f}" for a, b in zip(timing.cpus, reference.cpus,
                                                          strict=True))
            )
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )


def _checkout(rev: str, folder: Path) -> Path:
    """The tree of ``rev`` laid out as the installed namespace; the folder to put on the path."""
    tree = folder / "rev"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return _namespace(tree, folder / "there")


def _namespace(tree: Path, folder: Path) -> Path:
    """A folder holding ``fanscan/`` as setup.py installs ``tree``: its fanscan/ files, and the
    other top-level folders as subpackages (symlinks); the folder to put on the path."""
    namespace = folder / "fanscan"
    namespace.mkdir(parents=True)
    for entry in (tree / "fanscan").iterdir():
        if entry.name != "__pycache__":
            (namespace / entry.name).symlink_to(entry)
    for sub, source in FOLDERS.items():
        (namespace / sub).symlink_to(tree / source)
    return folder


def _env_for(timing: Timing, env: dict[str, str], folder: Path) -> dict[str, str]:
    """The child's environment: its own bytecode cache, and its tree first on the path."""
    out = dict(env)
    name = "".join(c if c.isalnum() else "_" for c in timing.label)
    out["PYTHONPYCACHEPREFIX"] = str(folder / f"pycache-{name}")
    if timing.pythonpath is not None:
        out["PYTHONPATH"] = timing.pythonpath
    return out


def _command(path: Path, args: argparse.Namespace, label: str) -> list[str]:
    if label == REFERENCE:
        return [sys.executable, str(REFERENCE_SCRIPT), str(path)]
    return [sys.executable, "-m", "fanscan", "score", "--jsonl", str(path), "--rules", args.rules]


def _run_checked(path: Path, args: argparse.Namespace, env: dict[str, str], label: str) -> bool:
    """Run ``fanscan score --jsonl path`` (or the reference); whether it printed one error-free
    result per hand."""
    out = subprocess.run(
        _command(path, args, label),
        capture_output=True,
        text=True,
        check=True,
        env=env,
        # ``python -m`` puts its working folder first on the path: run in the temporary folder,
        # or from a checkout's root every version would import that checkout's fanscan.
        cwd=path.parent,
    )
    lines = out.stdout.splitlines()
    if len(lines) != args.hands or any(json.loads(x)["error"] for x in lines):
        print(f"unexpected output from {label}", file=sys.stderr)
        return False
    return True


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
