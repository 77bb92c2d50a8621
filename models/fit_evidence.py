"""Fit the reading search's evidence (``vision.evidence``) on hand cases (``models.hand_cases``).

    python -m fanscan.models.hand_cases --scenes 20000-20599 --out work_data/cases/fit_scenes.pkl
    python -m fanscan.models.hand_cases --folds 0,1,2,3 --out work_data/cases/fit_real.pkl
    python -m fanscan.models.fit_evidence work_data/cases/fit_scenes.pkl work_data/cases/fit_real.pkl

1. The tile model: a logistic regression (L2, Newton's method) of "this box lies on a true tile"
   on ``evidence.box_features``, every case's boxes whose truth is known (on a real photo a box on
   no labelled tile outside the labelled region is not: ``hand_cases.UNKNOWN``).
2. The faces' temperature: the one that makes the classifier's probabilities of the true faces
   likeliest (a one-dimensional search over log T).
3. The layout's events: how often the true layouts (the boxes on true tiles, with their true
   faces) of the generated scenes and the real photos show each (a claimed group that is no set,
   a group with a back that is no concealed kong, a back in no concealed kong, a flower inside a
   group of suit tiles, a flower at the end of one), with one imagined case each way (Laplace),
   as log probabilities. (From the scenes alone until session 38, when the generator laid flowers
   apart while on the real fitting photos most flowers touch the row's suit tiles, and real
   flowers so laid were left out; since session 41 the generator lays them against the row as
   often, and a flower at a group's end is priced apart from one inside it.)
4. The tile prior: the box model is fitted per box, but leaving out a true tile loses the hand
   while a box of no tile kept can still be left out by the search when the hand needs it. So
   the model's bias is raised by the smallest offset (of a grid) at which the search, on the
   real fitting photos, keeps as many true tiles with their right face as it keeps when it may
   leave out no box at all, to within ``KEEP_WITHIN``.
5. The mending budget: of a grid of budgets, the one that reads most generated hands exactly
   (the smallest of those that tie: the least mending that reads as many hands; a larger budget
   lets the search leave out a sure tile to make a hand of the rules' size).
It writes ``models/reading_evidence.json`` (or ``--out``) and, beside it, a sidecar
(``reading_evidence.about.json``) that says what it was fitted on, when, and the fit's figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
from fanscan.models.hand_cases import BUSY_PREFIX, UNKNOWN, HandCase, hand_key, kept_right, load
from fanscan.scoring.tiles import BACK, CLASS_LABELS, TILE_CODES
from fanscan.vision import interpret, layout
from fanscan.vision.layout_events import flowers_in_groups, rows_without
from fanscan.vision.evidence import (
    EVIDENCE_PATH, FEATURES, Evidence, LayoutEvidence, TileEvidence, box_features, face_probabilities)

L2 = 1.0
"""The logistic regression's ridge (on standardised features): a prior, not a tuned knob."""
OFFSETS = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 12.0)
"""Nats added to the tile model's bias (``fit``, step 4); 12 is "never leave a box out"."""
KEEP_WITHIN = 0.001
"""The share of the true tiles kept right that the tile prior may give up for leaving out boxes
of no tile: the trade-off between the two kinds of error, stated, not fitted."""
PRIOR_BUDGET = 4.0
"""The mending budget while the tile prior is fitted (the budget is fitted after it)."""
BUDGETS = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
"""Nats; 10 lets a tile take a face the classifier gave a ten-thousandth of its first guess's."""
_FLOWERS = frozenset(TILE_CODES[34:])


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Weights, bias and the standardisation (mean, scale) of an L2 logistic regression."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])
    w = np.zeros(z.shape[1])
    ridge = np.eye(z.shape[1]) * l2
    ridge[-1, -1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(z @ w, -30, 30)))
        gradient = z.T @ (p - y) + ridge @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1]), mean, scale


def fit_temperature(probs: np.ndarray, truth: np.ndarray) -> float:
    """The temperature that maximises the likelihood of the true classes."""
    logs = np.log(np.maximum(probs, 1e-6))

    def nll(t: float) -> float:
        tempered = logs / t
        tempered -= np.logaddexp.reduce(tempered, axis=1, keepdims=True)
        return float(-tempered[np.arange(len(truth)), truth].mean())

    grid = np.exp(np.linspace(np.log(0.25), np.log(4.0), 81))
    return float(min(grid, key=nll))


def _true_reading(case: HandCase) -> tuple[list, list[list[list[int]]]]:
    """The case's boxes on true tiles, each with its true face, and their rows."""
    kept = [i for i, t in enumerate(case.truth) if t not in (None, UNKNOWN)]
    readings = [replace(case.readings[i], code=case.truth[i], confidence=1.0) for i in kept]
    rows = rows_without(case.rows, set(range(len(case.readings))) - set(kept))
    return readings, rows


def layout_events(cases: list[HandCase]) -> dict[str, float]:
    """Log probability of each layout event in true layouts (Laplace: one imagined case each way)."""
    seen, chances = Counter(), Counter()
    for case in cases:
        readings, rows = _true_reading(case)
        if not readings:
            continue
        hand_layout = layout.analyse(readings, case.right, case.up, rows)
        for group in hand_layout.groups:
            if group.role != "flowers" and any(readings[m].sideways for m in group.members):
                chances["claimed_not_set"] += 1
                seen["claimed_not_set"] += group.role != "meld"
            if any(readings[m].code == BACK for m in group.members):
                chances["back_group_not_kong"] += 1
                seen["back_group_not_kong"] += group.role != "concealed_kong"
        for i, r in enumerate(readings):
            if r.code == BACK:
                chances["stray_back"] += 1
                g = hand_layout.group_of[i]
                seen["stray_back"] += g < 0 or hand_layout.groups[g].role != "concealed_kong"
        groups = [[readings[m].code in _FLOWERS for m in group] for row in rows for group in row]
        inside, at_ends = flowers_in_groups(groups)
        flowers = sum(map(sum, groups))
        chances["flower_in_group"] += flowers
        chances["flower_ends_group"] += flowers
        seen["flower_in_group"] += inside
        seen["flower_ends_group"] += at_ends
    return {k: float(np.log((seen[k] + 1) / (chances[k] + 2)))
            for k in ("claimed_not_set", "back_group_not_kong", "stray_back", "flower_in_group", "flower_ends_group")}


def exact_hands(cases: list[HandCase], evidence: Evidence) -> int:
    """How many of the generated cases the search reads exactly with ``evidence``."""
    exact = 0
    for case in cases:
        found = interpret.interpret(case.readings, case.right, case.up, case.rows, case.image_size,
                                    evidence=evidence, n_best=1)
        exact += bool(found) and hand_key(found[0].layout.hand) == hand_key(case.hand)
    return exact


def right_kept(cases: list[HandCase], evidence: Evidence) -> tuple[int, int]:
    """(true tiles the search keeps with their right face, boxes of no tile it keeps)."""
    right = kept = 0
    for case in cases:
        found = interpret.interpret(case.readings, case.right, case.up, case.rows, case.image_size,
                                    evidence=evidence, n_best=1)
        case_right, case_kept = kept_right(case, found[0].readings if found else [])
        right += case_right
        kept += case_kept
    return right, kept


def fit_prior_offset(cases: list[HandCase], tiles: TileEvidence, events: dict[str, float]) -> tuple[float, dict]:
    """The smallest offset (``OFFSETS``) at which the search keeps as many true tiles right as at
    the best offset, to within ``KEEP_WITHIN``, and each offset's (right, no-tile boxes kept)."""
    by_offset = {}
    for offset in OFFSETS:
        shifted = replace(tiles, bias=tiles.bias + offset)
        by_offset[offset] = right_kept(cases, Evidence(shifted, LayoutEvidence(**events, max_cost=PRIOR_BUDGET)))
        print(f"tile prior +{offset}: {by_offset[offset]} (true tiles right, no-tile boxes kept)",
              file=sys.stderr, flush=True)
    most = max(right for right, _ in by_offset.values())
    return min(o for o in OFFSETS if by_offset[o][0] >= most * (1 - KEEP_WITHIN)), by_offset


def fit(cases: list[HandCase]) -> tuple[Evidence, dict]:
    started = time.monotonic()
    known = [np.array([t != UNKNOWN for t in c.truth], bool) for c in cases]
    features = np.concatenate([box_features(c.readings, c.image_size)[k] for c, k in zip(cases, known)])
    is_tile = np.concatenate([[t is not None for t in c.truth if t != UNKNOWN] for c in cases]).astype(float)
    weights, bias, mean, scale = fit_logistic(features, is_tile)
    faced = [(r, t) for c in cases for r, t in zip(c.readings, c.truth) if t in CLASS_LABELS]
    probs = np.stack([face_probabilities(r) for r, _ in faced])
    truth = np.array([CLASS_LABELS.index(t) for _, t in faced])
    temperature = fit_temperature(probs, truth)
    scenes = [c for c in cases if c.hand is not None]
    events = layout_events(cases)
    tiles = TileEvidence(tuple(map(float, weights)), bias, tuple(map(float, mean)), tuple(map(float, scale)),
                         temperature)
    real = [c for c in cases if c.hand is None]
    offset, by_offset = fit_prior_offset(real or scenes, tiles, events)
    tiles = replace(tiles, bias=bias + offset)
    by_budget = {}
    for budget in BUDGETS:
        evidence = Evidence(tiles, LayoutEvidence(**events, max_cost=budget))
        by_budget[budget] = exact_hands(scenes, evidence)
        print(f"budget {budget}: {by_budget[budget]}/{len(scenes)} exact", file=sys.stderr, flush=True)
    best = max(BUDGETS, key=lambda b: (by_budget[b], -b))
    evidence = Evidence(tiles, LayoutEvidence(**events, max_cost=best))
    p = replace(tiles, bias=bias).tile_probability(features)
    report = {
        "tile_prior_offset": offset,
        "right_and_no_tile_kept_by_offset": {str(o): list(v) for o, v in by_offset.items()},
        "boxes": int(len(is_tile)), "boxes_of_no_tile": int((is_tile == 0).sum()),
        "tile_model_log_loss": float(-np.mean(is_tile * np.log(p + 1e-12) + (1 - is_tile) * np.log(1 - p + 1e-12))),
        "faces": int(len(truth)), "temperature": temperature,
        "exact_by_budget": {str(b): n for b, n in by_budget.items()}, "scenes": len(scenes),
        "seconds": round(time.monotonic() - started, 1),
    }
    return evidence, report


def describe(cases: list[HandCase]) -> dict:
    """What cases are: the generated scenes' seed range, the real photos' source folds."""
    from fanscan.datasets.real_tables import source_fold

    real = [c.name for c in cases if c.hand is None]
    out: dict = {"cases": len(cases)}
    for key, prefix in (("generated_scenes", "scene"), ("busy_scenes", BUSY_PREFIX)):
        seeds = [int(c.name[len(prefix):]) for c in cases if c.hand is not None and c.name.startswith(prefix)]
        if seeds:
            out[key] = {"count": len(seeds), "seeds": f"{min(seeds)}-{max(seeds)}"}
    if real:
        out["real_photos"] = {"count": len(real), "set": "rf-chinese (CC BY 4.0)",
                              "source_folds": sorted({source_fold(name) for name in real})}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", type=Path, nargs="+", help="hand case pickles (models.hand_cases)")
    parser.add_argument("--out", type=Path, default=EVIDENCE_PATH)
    parser.add_argument("--events-only", action="store_true",
                        help="refit the layout events alone (step 3), keeping the tile model, temperature and "
                             "budget of the evidence file at --out; its sidecar records both fits")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.cases if not path.is_file()]
    if missing:
        parser.error(f"no case file {missing[0]} (python -m fanscan.models.hand_cases makes them)")
    cases = [c for path in args.cases for c in load(path)]
    command = "python -m fanscan.models.fit_evidence " + " ".join(str(p) for p in args.cases)
    fitted_on = [{"file": path.name, **describe(load(path))} for path in args.cases]
    if args.events_only:
        try:
            kept = Evidence.from_json(json.loads(args.out.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--events-only refits the events of an evidence file, and {args.out} is none ({error})")
        return _refit_events(cases, kept, args.out, command + " --events-only", fitted_on)
    evidence, report = fit(cases)
    args.out.write_text(json.dumps(evidence.to_json(), indent=1) + "\n", encoding="utf-8")
    about = {
        "what": "the reading search's evidence (fanscan.vision.evidence): tile model, face temperature, "
                "layout event log probabilities, mending budget",
        "features": list(FEATURES),
        "fitted_on": fitted_on,
        "sources": "generated scenes (fanscan.datasets.scenes, seeds as named in the case files); "
                   "real photos of ../shared/data/rf-chinese (CC BY 4.0), source folds named in the case files, "
                   "never the held-out fold",
        "fitted": time.strftime("%Y-%m-%d %H:%M"),
        "command": command,
        **report,
    }
    args.out.with_name(args.out.stem + ".about.json").write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report))
    return 0


def _refit_events(cases: list[HandCase], kept: Evidence, out: Path, command: str, fitted_on: list[dict]) -> int:
    """``--events-only``: the layout events of ``kept`` (read from ``out``) refitted on ``cases``,
    the rest kept, written to ``out``; the sidecar keeps what the rest was fitted on and adds
    ``layout_events`` (what they were fitted on)."""
    events = layout_events(cases)
    evidence = replace(kept, layout=replace(kept.layout, **events))
    out.write_text(json.dumps(evidence.to_json(), indent=1) + "\n", encoding="utf-8")
    sidecar = out.with_name(out.stem + ".about.json")
    about = json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.is_file() else {}
    about["layout_events"] = {"events": events, "fitted_on": fitted_on, "fitted": time.strftime("%Y-%m-%d %H:%M"),
                              "command": command, "before": kept.layout.__dict__}
    sidecar.write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"layout_events": events}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
