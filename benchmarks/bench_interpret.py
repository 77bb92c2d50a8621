"""The reading search on captured hand cases, side by side with a baseline, in one run.

    python -m fanscan.models.hand_cases --scenes 21000-21999 --out work_data/cases/bench_scenes.pkl
    python benchmarks/bench_interpret.py work_data/cases/bench_scenes.pkl [--baseline old_repairs.py]

A case is what the reader hands its search (``models.hand_cases``): every reader stage before the
search is the same for both, so the figures compare the searches alone, on the very same boxes
and classifier outputs. Generated cases count hands read exactly (concealed tiles, melds, winning
tile, flowers); every case counts its boxes on true tiles kept with their true face, and the
boxes of no tile kept. ``--baseline`` names a Python file whose ``as_a_hand(readings, right, up,
rows, image_size)`` returns an object with ``readings`` and ``layout`` (the reader's hand step of
an earlier version, say); the cases where the two differ are listed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable



def _load_baseline(path: Path) -> Callable:
    spec = importlib.util.spec_from_file_location("baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline"] = module  # its dataclasses look their module up
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module.as_a_hand


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", type=Path, nargs="+")
    parser.add_argument("--baseline", type=Path, help="a file with as_a_hand(...) to compare against")
    parser.add_argument("--evidence", type=Path, help="evidence JSON (default: the shipped one)")
    args = parser.parse_args(argv)
    missing = [str(path) for path in [*args.cases, *filter(None, [args.baseline, args.evidence])] if not path.is_file()]
    if missing:
        parser.error(f"no file {missing[0]}")

    from fanscan.models.hand_cases import UNKNOWN, hand_key, kept_right, load
    from fanscan.vision import interpret
    from fanscan.vision.evidence import load_evidence

    evidence = load_evidence(args.evidence) if args.evidence else load_evidence()

    def search(case: Any) -> Any:
        return interpret.interpret(case.readings, case.right, case.up, case.rows, case.image_size,
                                   evidence=evidence, n_best=3)[0]

    readers: dict[str, Callable] = {"search": search}
    if args.baseline:
        baseline = _load_baseline(args.baseline)
        readers = {"baseline": lambda c: baseline(c.readings, c.right, c.up, c.rows, c.image_size), **readers}
    cases = [c for path in args.cases for c in load(path)]
    tally = {name: {"exact": 0, "hands": 0, "right": 0, "tiles": 0, "phantoms_kept": 0, "phantoms": 0,
                    "seconds": 0.0} for name in readers}
    differ = []
    for case in cases:
        keys = {}
        for name, read in readers.items():
            started = time.perf_counter()
            got = read(case)
            t = tally[name]
            t["seconds"] += time.perf_counter() - started
            right, kept = kept_right(case, got.readings)
            t["right"] += right
            t["tiles"] += sum(x is not None and x != UNKNOWN for x in case.truth)
            t["phantoms_kept"] += kept
            t["phantoms"] += sum(x is None for x in case.truth)
            if case.hand is not None:
                t["hands"] += 1
                keys[name] = hand_key(got.layout.hand)
                t["exact"] += keys[name] == hand_key(case.hand)
        if len(set(keys.values())) > 1:
            differ.append({"case": case.name, **{n: k == hand_key(case.hand) for n, k in keys.items()}})
    for name, t in tally.items():
        n = max(1, len(cases))
        print(json.dumps({"reader": name, "cases": len(cases), "exact": t["exact"], "hands": t["hands"],
                          "faces_right": round(t["right"] / max(1, t["tiles"]), 4),
                          "no_tile_boxes_kept": f"{t['phantoms_kept']}/{t['phantoms']}",
                          "ms_per_case": round(1000 * t["seconds"] / n, 1)}))
    for line in differ:
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
