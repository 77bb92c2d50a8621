"""The shipped classifier's whole recipe, from scratch, as one run (``fanscan train --recipe``).

The shipped model grew in stages, each a fine-tuning of the one before (``MODEL_CARD.md``). This
replays them in order with the generators as they are now: a run from scratch on real and
rendered crops, a fine-tuning on them, then crops of generated scenes cut as the photo reader
cuts them (``fanscan.datasets.scene_crops``) join the batches as their own share for four more
fine-tunings. Each stage's checkpoint starts the next; the last is exported to ``out``. The
stages are data (``STAGES``); ``scale`` shrinks every count for a quick trial run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from fanscan.models.train import TrainConfig, TrainResult, checkpoint_path, train

SCENE_SEEDS = (range(3_000_000, 3_000_400), range(3_000_400, 3_000_900))
"""Scene seeds whose crops the later stages train on: a first batch, then more (other seed ranges
are the reader's benchmarks and the finder's training scenes)."""


@dataclass(frozen=True)
class Stage:
    """One training run of the recipe."""

    name: str
    steps: int
    lr: float
    scene_batches: int  # how many of SCENE_SEEDS' crop folders it trains on (0: none)
    scene_share: float = 0.2  # share of each batch drawn from those crops


STAGES: tuple[Stage, ...] = (
    Stage("1-scratch", 1000, 3e-3, 0),
    Stage("2-real", 300, 1e-3, 0),
    Stage("3-scenes", 300, 1e-3, 1),
    Stage("4-more-scenes", 300, 1e-3, 2),
    Stage("5-fine", 400, 1e-3, 2),
    Stage("6-fine", 400, 1e-3, 2),
)


def _scaled(count: int, scale: float) -> int:
    return max(1, round(count * scale))


def scene_crop_folders(work_dir: Path, scale: float) -> list[Path]:
    """The crop folders of ``SCENE_SEEDS`` (``finder`` and ``true`` of each batch), cut on first
    use into ``work_dir/recipe_scene_crops`` and reused after (a folder with its labels.csv).
    They are cut along the finder's unrefined boxes, as the shipped classifier saw them (it was
    trained before the box refiner existed)."""
    from fanscan.datasets.scene_crops import write_scene_crops

    folders = []
    for n, seeds in enumerate(SCENE_SEEDS):
        seeds = range(seeds.start, seeds.start + _scaled(len(seeds), scale))
        out = work_dir / "recipe_scene_crops" / f"{n + 1}-{seeds.start}-{seeds.stop}"
        if not all((out / kind / "labels.csv").is_file() for kind in ("finder", "true")):
            write_scene_crops(seeds, out, refine=False)
        folders += [out / "finder", out / "true"]
    return folders


def run_recipe(base: TrainConfig, *, scale: float = 1.0,
               report: Callable[[str], None] = print) -> TrainResult:
    """Train every stage of ``STAGES`` from scratch, writing ``base.out`` at the end. ``base`` gives
    what the stages share (real crops and held-out sets, styles, synthetic count, threads, work
    folder, seed); ``scale`` multiplies the step, scene and synthetic counts. Intermediate models go
    to ``base.work_dir/recipe``."""
    folders: list[Path] = []  # cut when a stage first needs them, after stage 1 checked the options
    base = replace(base, synth_count=_scaled(base.synth_count, scale))
    previous: Path | None = None
    result = TrainResult({}, 0.0)
    for number, stage in enumerate(STAGES, start=1):
        last = number == len(STAGES)
        out = base.out if last else base.work_dir / "recipe" / f"{base.out.stem}-stage{stage.name}.onnx"
        out.parent.mkdir(parents=True, exist_ok=True)
        if stage.scene_batches and not folders:
            folders = scene_crop_folders(base.work_dir, scale)
        extra = tuple(folders[: 2 * stage.scene_batches])
        config = replace(
            base,
            out=out,
            steps=_scaled(stage.steps, scale),
            lr=stage.lr,
            init=previous,
            extra_crops=extra,
            extra_fraction=stage.scene_share if extra else None,
        )
        report(f"stage {number} of {len(STAGES)} ({stage.name}): {config.steps} steps at lr {stage.lr:g}"
               + (f", scene crops {stage.scene_share:.0%} of each batch" if extra else ""))
        stage_result = train(config)
        previous = checkpoint_path(config)
        result = TrainResult(stage_result.held_out_accuracy, result.seconds + stage_result.seconds)
    return result
