"""Pack what the finder's training reads into the checkout, so that it travels to an accelerator.

An accelerator's run carries the working tree and a few ignored folders, 64 MB in all, and sees
no ``../shared``. This writes, inside the checkout (both git-ignored, never committed):

1. ``shared/data/rf-chinese/``: of each source of the training folds, the one version the
   finder trains on (``real_tables.least_turned``) with its label file and the set's README
   (about 19 MB for folds 0-3): ``FANSCAN_SHARED=shared`` then finds them as it finds the set;
2. ``work_data/accelerator/scenes.npz``: the generated scenes, as ``train_finder --cache``
   keeps them (JPEG pictures, PNG class maps; about 34 MB for 600);
3. ``work_data/accelerator/train.sh``: the runs, each ``train_finder --device cuda`` with
   ``--workers``, side by side, their models and logs tarred into ``$OUT``.

    FANSCAN_SHARED=../shared python -m fanscan.models.pack_for_accelerator --scenes 600
    # then, on the accelerator: bash work_data/accelerator/train.sh (carry work_data/accelerator)
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

RUNS = (
    ("w2", "--width 2"),
    ("w2s1", "--width 2 --seed 1"),
    ("w2r7", "--width 2 --real-share 0.7"),
    ("w1", "--init $ROOT/models/tile_finder.onnx --max-lr 1e-3"),
)
"""The trainings run side by side (name, flags beyond the shared recipe): the wider net with two
seeds and a larger real share, and the shipped net fine-tuned gently. Session 43 ran these on an
H200: none read the held-out fold better than the shipped finder (``models/MODEL_CARD.md``), so
a later run wants other recipes here."""

SCENE_SHARES = {"clutter": 0.3, "standing": 0.15, "busy": 0.2}
"""The packed scenes' kinds (``train_finder``'s ``--*-share``): the cache holds them drawn so, and
the runs must ask for the same shares to read it."""
RECIPE = ("--one-per-source --rotate 45 --stretch 2.5 --device cuda --batch 64 "
          + " ".join(f"--{kind}-share {share}" for kind, share in SCENE_SHARES.items()))

SCRIPT = """#!/bin/bash
# Written by fanscan.models.pack_for_accelerator: finder trainings side by side on one GPU.
ROOT=$PWD
mkdir -p /tmp/fp/fanscan /tmp/runs
for f in fanscan/*; do ln -sf "$ROOT/$f" /tmp/fp/fanscan/; done
for d in scoring vision models datasets; do ln -sfn "$ROOT/$d" /tmp/fp/fanscan/$d; done
export PYTHONPATH=/tmp/fp FANSCAN_SHARED=$ROOT/shared PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
cd /tmp  # python -m puts the current folder first: the checkout's own fanscan/ holds no subpackages
COMMON="--scenes {scenes} --cache $ROOT/work_data/accelerator/scenes.npz --real-folds {folds} {recipe} --workers {workers} --steps {steps} --minutes {minutes}"
run() {{ name=$1; shift; python3 -m fanscan.models.train_finder $COMMON "$@" --out /tmp/runs/$name.onnx > /tmp/runs/$name.log 2>&1; echo "$name rc=$? $(date +%T)"; }}
{runs}
wait
cd /tmp/runs && tail -n 2 *.log && tar cf "${{OUT:-/tmp}}/finders.tar" *.onnx *.json *.log
"""


def pack(out_root: Path, folds: list[int], scenes: int, steps: int, workers: int,
         minutes: float) -> Path:
    """Steps 1-3 into the checkout at ``out_root``; the script's path."""
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
    from fanscan.models.train_finder import _examples

    photos = least_turned(in_folds(load_table_photos(), folds))
    if not photos:
        raise SystemExit("pack_for_accelerator: no real table photos found (set FANSCAN_SHARED)")
    source = photos[0].path.parent.parent
    target = out_root / "shared" / "data" / "rf-chinese"
    (target / "images").mkdir(parents=True, exist_ok=True)
    (target / "labels").mkdir(exist_ok=True)
    for name in ("README.md", "data.yaml"):
        if (source / name).is_file():
            shutil.copy(source / name, target / name)
    for photo in photos:
        shutil.copy(photo.path, target / "images" / photo.path.name)
        shutil.copy(source / "labels" / f"{photo.path.stem}.txt", target / "labels" / f"{photo.path.stem}.txt")
    print(f"{len(photos)} real photos in {target}", file=sys.stderr)
    work = out_root / "work_data" / "accelerator"
    work.mkdir(parents=True, exist_ok=True)
    _examples(scenes, work / "scenes.npz", *SCENE_SHARES.values())
    runs = "\n".join(f"run {name} {flags} &" for name, flags in RUNS)
    script = work / "train.sh"
    script.write_text(SCRIPT.format(scenes=scenes, folds=",".join(map(str, folds)), recipe=RECIPE,
                                    workers=workers, steps=steps, minutes=minutes,
                                    runs=runs), encoding="utf-8")
    return script


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=600, help="generated scenes to pack (default 600)")
    parser.add_argument("--steps", type=int, default=5000, help="training steps of each run (default 5000)")
    parser.add_argument("--workers", type=int, default=3,
                        help="window-cutting processes of each run (default 3: four runs on 16 cores)")
    parser.add_argument("--minutes", type=float, default=6.0,
                        help="each run's training time at most (default 6: a lent machine's 10-minute "
                             "command, less loading the data and starting four runs)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the checkout (default: here)")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.steps < 1 or args.workers < 0 or not args.minutes > 0:
        parser.error("--scenes and --steps must be at least 1, --workers 0 or more, --minutes above 0")
    if not (args.root / "pyproject.toml").is_file():
        parser.error(f"--root {args.root}: not fanscan's checkout (no pyproject.toml)")
    from fanscan.datasets.real_tables import FOLDS, HELD_OUT_FOLD

    folds = [f for f in range(FOLDS) if f != HELD_OUT_FOLD]
    try:
        script = pack(args.root, folds, args.scenes, args.steps, args.workers, args.minutes)
    except OSError as error:
        parser.error(f"cannot write the pack into {args.root}: {error}")
    print(f"wrote {script}; on the accelerator: bash {script.relative_to(args.root)} "
          f"(carry {script.parent.relative_to(args.root)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
