"""Throughput of `fanscan score --jsonl` as a whole process, on random complete hands (seeded).

    python benchmarks/bench_score.py [--hands 10000] [--seed 1] [--repeat 3]

Writes the hands to a temporary JSON-lines file, runs ``python -m fanscan score --jsonl FILE``
(start-up included), checks one result per hand, and prints hands per second of wall time and
of the child's CPU time (best of the repeats; the process is single-threaded, so CPU time is the
figure for one core even on a busy machine) with the machine and its load average.
docs/benchmarks.md records them.

The child compiles its modules once, in an untimed warm-up run, into a private bytecode cache
(``PYTHONPYCACHEPREFIX`` in the temporary folder), as an installed package has its ``.pyc`` files;
otherwise a machine with ``PYTHONDONTWRITEBYTECODE`` set would time compiling the sources too.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fanscan.scoring.generate import random_hand


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            for _ in range(args.hands):
                handle.write(json.dumps(random_hand(rng).to_json()) + "\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        if not _run_checked(path, args.hands, env):  # the warm-up run: compiles the bytecode
            return 1
        best = best_cpu = float("inf")
        for _ in range(args.repeat):
            before = _children_cpu()
            start = time.perf_counter()
            ok = _run_checked(path, args.hands, env)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, _children_cpu() - before)
            if not ok:
                return 1
    print(
        f"{args.hands} hands in {best:.2f} s wall: {args.hands / best:,.0f} hands/s; "
        f"{best_cpu:.2f} s CPU: {args.hands / best_cpu:,.0f} hands/s per core "
        f"(best of {args.repeat}; whole process, start-up included)"
    )
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    return 0


def _run_checked(path: Path, hands: int, env: dict[str, str]) -> bool:
    """Run ``fanscan score --jsonl path``; whether it printed one error-free result per hand."""
    out = subprocess.run(
        [sys.executable, "-m", "fanscan", "score", "--jsonl", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    lines = out.stdout.splitlines()
    if len(lines) != hands or any(json.loads(x)["error"] for x in lines):
        print("unexpected output from fanscan score --jsonl", file=sys.stderr)
        return False
    return True


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
