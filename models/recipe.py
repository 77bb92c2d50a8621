"""The shipped classifier's whole recipe, from scratch, as one run (``fanscan train --recipe``).

The shipped model grew in stages, each a fine-tuning of the one before (``MODEL_CARD.md``). This
replays them in order with the generators as they are now: a run from scratch on real and
rendered crops, a fine-tuning on them, then crops of generated scenes cut as the photo reader
cuts them (``fanscan.datasets.scene_crops``) join the batches as their own share for four more
fine-tunings; a last one takes crops of the real table photos (``fanscan.datasets.real_table_crops``,
cut and turned upright as the stage before reads them) as that share, their held-out source fold
kept out. The next stage adds the answer "no tile" (``NO_TILE``) from crops of boxes that hold
none (``fanscan.datasets.no_tile_crops``: generated tables and photos of no tiles, and the reviewed
real boxes where ../shared has the photos), and the last runs that mixture twice more from it, the
three models' weights averaged. Each stage's checkpoint starts the next; the last is exported to
``out``. The stages are data (``STAGES``); ``scale`` shrinks every count for a quick trial run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from fanscan.datasets.real_tables import HELD_OUT_FOLD, load_table_photos
from fanscan.models.train import DEFAULT_MODEL, TrainConfig, TrainResult, checkpoint_path, train

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
    # Train on the real table photos' crops instead (skipped where ../shared has none), this share.
    real_tables_share: float = 0.0
    real_fraction: float | None = None  # share of the labelled real crops; None: the base's
    no_tile_share: float = 0.0  # share of each batch drawn from crops of no tile (0: not learnt)
    # Runs from the stage before, each its own seed (the base's plus 1, 2, ...); more than one: the
    # stage before's model and theirs are averaged (``models.average``: less of each run's luck).
    runs: int = 1


STAGES: tuple[Stage, ...] = (
    Stage("1-scratch", 1000, 3e-3, 0),
    Stage("2-real", 300, 1e-3, 0),
    Stage("3-scenes", 300, 1e-3, 1),
    Stage("4-more-scenes", 300, 1e-3, 2),
    Stage("5-fine", 400, 1e-3, 2),
    Stage("6-fine", 400, 1e-3, 2),
    Stage("7-real-tables", 800, 1e-3, 0, real_tables_share=0.4, real_fraction=0.45),
    Stage("8-no-tile", 1200, 1e-3, 0, real_tables_share=0.36, real_fraction=0.42, no_tile_share=0.12),
    Stage("9-averaged", 1200, 1e-3, 0, real_tables_share=0.36, real_fraction=0.42, no_tile_share=0.12, runs=2),
)
NO_TILE_SEEDS = (range(5_000_000, 5_000_600), range(600_000, 600_200))
"""Seeds of the generated tables and of the photos of no tiles the no-tile crops are cut from."""


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


def real_table_folders(work_dir: Path, judge: Path, scale: float = 1.0) -> list[Path]:
    """The crop folders of the real table photos, one per source fold, cut on first use into
    ``work_dir/recipe_real_tables`` with ``judge`` (the stage before) deciding mirrors and turns;
    empty where ../shared has no such photos. ``scale`` keeps that share of each fold's sources
    (at least one, so that every fold, the held-out one too, has crops)."""
    from fanscan.datasets.real_table_crops import write_folds
    from fanscan.datasets.real_tables import FOLDS, least_turned, load_table_photos
    from fanscan.vision.classifier import TileClassifier

    out = work_dir / "recipe_real_tables"
    folders = [out / f"rf-fold{fold}" for fold in range(FOLDS)]
    if all((folder / "labels.csv").is_file() for folder in folders):
        return folders
    photos = load_table_photos()
    if not photos:
        return []
    kept: set[str] = set()
    for fold in range(FOLDS):
        sources = sorted({p.source for p in photos if p.fold == fold})
        kept |= set(sources[: _scaled(len(sources), scale)])
    write_folds(least_turned([p for p in photos if p.source in kept]), out, TileClassifier(judge))
    return folders


def no_tile_folders(work_dir: Path, scale: float) -> list[Path]:
    """The crop folders of boxes of no tile (``no_tile_crops``), cut on first use into
    ``work_dir/recipe_no_tile``: generated tables, straddles and photos of no tiles, and the
    reviewed real boxes of the folds trained on where ../shared has their photos."""
    from fanscan.datasets import no_tile_crops as made
    from fanscan.datasets.real_tables import FOLDS, HELD_OUT_FOLD

    out = work_dir / "recipe_no_tile"
    names = ("tables", "straddles", "no_tiles", "real")
    if not all((out / name / "labels.csv").is_file() for name in names):
        tables, seeds = NO_TILE_SEEDS
        arguments = ["--out", str(out), "--scenes", f"{tables.start}:{tables.start + _scaled(len(tables), scale)}",
                     "--no-tile-seeds", f"{seeds.start}:{seeds.start + _scaled(len(seeds), scale)}"]
        if load_table_photos():
            arguments += ["--real-folds", ",".join(str(f) for f in range(FOLDS) if f != HELD_OUT_FOLD)]
        if made.main(arguments) != 0:
            raise RuntimeError("cutting the crops of no tile failed (see above)")
    return [out / name for name in names if (out / name / "labels.csv").is_file()]


def run_recipe(base: TrainConfig, *, scale: float = 1.0,
               report: Callable[[str], None] = print) -> TrainResult:
    """Train every stage of ``STAGES`` from scratch, writing ``base.out`` at the end. ``base`` gives
    what the stages share (real crops and held-out sets, styles, synthetic count, threads, work
    folder, seed); ``scale`` multiplies the step, scene and synthetic counts. Intermediate models go
    to ``base.work_dir/recipe``."""
    folders: list[Path] = []  # cut when a stage first needs them, after stage 1 checked the options
    base = replace(base, synth_count=_scaled(base.synth_count, scale))
    previous: Path | None = None
    previous_onnx: Path | None = None
    result = TrainResult({}, 0.0)
    have_tables = bool(load_table_photos())
    for stage in STAGES:
        if stage.real_tables_share and not have_tables:
            report(f"stage {stage.name}: " + ("without real table crops" if stage.no_tile_share else "skipped")
                   + ", no real table photos here (../shared/data/rf-chinese)")
    stages = [stage for stage in STAGES if have_tables or not stage.real_tables_share or stage.no_tile_share]
    for number, stage in enumerate(stages, start=1):
        last = number == len(stages)
        staged = base.work_dir / "recipe" / f"{base.out.stem}-stage{stage.name}.onnx"
        out = base.out if last else staged
        for folder in {out.parent, staged.parent}:
            folder.mkdir(parents=True, exist_ok=True)
        if stage.scene_batches and not folders:
            folders = scene_crop_folders(base.work_dir, scale)
        extra = tuple(folders[: 2 * stage.scene_batches])
        share, hold_out, what = stage.scene_share, base.hold_out, "scene crops"
        if stage.real_tables_share and have_tables:
            judge = previous_onnx if previous_onnx is not None else DEFAULT_MODEL
            extra = tuple(real_table_folders(base.work_dir, judge, scale))
            share, what = stage.real_tables_share, "real table crops"
            hold_out = (*base.hold_out, f"rf-fold{HELD_OUT_FOLD}")
        none = tuple(no_tile_folders(base.work_dir, scale)) if stage.no_tile_share else ()
        config = replace(
            base,
            out=out,
            steps=_scaled(stage.steps, scale),
            lr=stage.lr,
            init=previous,
            extra_crops=extra,
            extra_fraction=share if extra else None,
            hold_out=hold_out,
            real_fraction=stage.real_fraction if stage.real_fraction is not None else base.real_fraction,
            no_tile_crops=none,
            no_tile_fraction=stage.no_tile_share or base.no_tile_fraction,
        )
        report(f"stage {number} of {len(stages)} ({stage.name}): {config.steps} steps at lr {stage.lr:g}"
               + (f", {what} {share:.0%} of each batch" if extra else "")
               + (f", crops of no tile {stage.no_tile_share:.0%}" if none else "")
               + (f"; {stage.runs} runs, averaged with the stage before" if stage.runs > 1 else ""))
        if stage.runs > 1 and previous_onnx is not None:
            stage_result = _averaged_runs(config, stage.runs, previous_onnx, staged)
            previous = previous_onnx = out  # an export starts a later stage too
        else:
            stage_result = train(config)
            previous, previous_onnx = checkpoint_path(config), out
        result = TrainResult(stage_result.held_out_accuracy, result.seconds + stage_result.seconds)
    return result


def _averaged_runs(config: TrainConfig, runs: int, before: Path, staged: Path) -> TrainResult:
    """``runs`` runs of ``config``, each with its own seed and written beside the stage's own
    file (``STAGED-runK.onnx``), and the mean of their models and the stage before's (``before``)
    written to ``config.out``, its sidecar holding the mean's held-out figures."""
    from fanscan.models.average import average, record_held_out
    from fanscan.models.train import held_out_of

    outs, seconds = [], 0.0
    for run in range(1, runs + 1):
        run_out = staged.with_name(f"{staged.stem}-run{run}.onnx")
        seconds += train(replace(config, out=run_out, seed=config.seed + run)).seconds
        outs.append(run_out)
    average([before, *outs], config.out)
    figures = held_out_of(config.out, config)
    record_held_out(config.out, figures)
    return TrainResult(figures, seconds)
