"""``fanscan train``: retrain the tile classifier from scratch (needs the ``train`` extra); one run,
or with ``--recipe`` every stage of the shipped model's recipe (``fanscan.models.recipe``)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fanscan.errors import FanscanError

ORDER = 80
INSTALL_HINT = "pip install 'fanscan[train]'"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {value}")
    return value


def default_out(work_dir: Path) -> Path:
    """A model file that does not exist yet, beside the work folder: a run never replaces the
    shipped model (nor an earlier run's) unless ``--out`` names it."""
    base = work_dir.resolve().parent / f"tile_classifier-{time.strftime('%Y%m%d-%H%M%S')}"
    out, n = base.with_suffix(".onnx"), 2
    while out.exists() or out.with_suffix(".json").exists():
        out, n = base.with_name(f"{base.name}-{n}.onnx"), n + 1
    return out


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "train",
        help="retrain the tile classifier from scratch",
        description="Render synthetic tiles from the tile art installed here, add the real crops "
        "in ../shared/data when present, train the tile classifier on the CPU and export it to "
        "ONNX with its JSON sidecar. Needs the train extra: " + INSTALL_HINT,
    )
    parser.add_argument("--out", type=Path,
                        help="model file to write (default: a new tile_classifier-DATE-TIME.onnx "
                        "beside the --work-dir folder; never the model shipped in the package)")
    parser.add_argument("--recipe", action="store_true",
                        help="run the shipped model's whole recipe from scratch: nine stages (steps, "
                        "learning rates, crops of generated scenes and of the real table photos "
                        "as in models/MODEL_CARD.md, the last three runs averaged; about 65 min on "
                        "two cores)")
    parser.add_argument("--recipe-scale", type=float, default=1.0, metavar="SCALE",
                        help="with --recipe: multiply every step, scene and synthetic count by this "
                        "(0-1, for a quick trial)")
    parser.add_argument("--steps", type=_positive, help="training steps (default 1000)")
    parser.add_argument("--batch", type=_positive, default=64, help="crops per step (default 64)")
    parser.add_argument("--synth", type=_positive, default=12000,
                        help="synthetic crops to render (default 12000, cached in --work-dir)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--styles", action="append", default=[], metavar="STYLE",
                        help="tile art style to render (repeatable; default: all installed)")
    parser.add_argument("--hold-out", action="append", default=[], metavar="SET",
                        help="real tile set to keep out of training and score at the end "
                        "(repeatable or comma-separated)")
    parser.add_argument("--classes", action="append", default=[], metavar="CODES",
                        help="train on these faces only, e.g. 1f,2f,3f,4f,5f,6f,7f,8f for a flower "
                        "specialist (repeatable or comma-separated; default: all 43)")
    parser.add_argument("--real-fraction", type=float, default=0.7,
                        help="share of each batch taken from real crops (default 0.7)")
    parser.add_argument("--no-real", action="store_true", help="train on rendered tiles only")
    parser.add_argument("--lr", type=float, help="peak learning rate (default 3e-3; lower it when fine-tuning)")
    parser.add_argument("--threads", type=_positive, default=2, help="CPU threads (default 2)")
    parser.add_argument("--init", type=Path, metavar="CHECKPOINT",
                        help="start from these weights instead of from scratch: a previous run's "
                        "<work-dir>/checkpoints/NAME.pt, or an exported .onnx classifier such as "
                        "the shipped one (its batch norms stay frozen)")
    parser.add_argument("--extra-crops", action="append", default=[], type=Path, metavar="DIR",
                        help="a crop folder from `fanscan export --format crops` to train on as "
                        "one more real tile set (repeatable)")
    parser.add_argument("--extra-fraction", type=float, metavar="SHARE",
                        help="draw this share of each batch from the --extra-crops folders alone "
                        "instead of pooling them with the real crops (e.g. 0.2 for crops cut "
                        "from generated scenes, so the real crops keep their share)")
    parser.add_argument("--no-tile-crops", action="append", default=[], type=Path, metavar="DIR",
                        help="a folder of crops that hold no tile (python -m "
                        "fanscan.datasets.no_tile_crops): the classifier also learns to answer "
                        "'none' (repeatable)")
    parser.add_argument("--no-tile-fraction", type=float, default=0.12, metavar="SHARE",
                        help="share of each batch drawn from --no-tile-crops (default 0.12)")
    parser.add_argument("--grey-fraction", type=float, default=0.0, metavar="SHARE",
                        help="share of the real, extra and no-tile crops' views made grey, as a "
                        "table photographed in black and white (default 0)")
    parser.add_argument("--exposure-fraction", type=float, default=0.0, metavar="SHARE",
                        help="share of the real, extra and no-tile crops' views seen hazier, "
                        "over-exposed or through another tone curve (default 0)")
    parser.add_argument("--work-dir", type=Path, default=Path("work_data"),
                        help="cache folder for rendered tiles (default ./work_data)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.datasets.tile_art import available_styles

    unknown = sorted(set(args.styles) - set(available_styles()))
    if unknown:
        raise FanscanError("unknown_style", f"tile art style {unknown[0]!r} is not installed here")
    from fanscan.scoring.tiles import CLASS_LABELS

    classes = tuple(c for item in args.classes for c in item.split(",") if c)
    if set(classes) - set(CLASS_LABELS):
        raise FanscanError("bad_option", f"--classes: no face {min(set(classes) - set(CLASS_LABELS))!r}")
    if not 0 <= args.real_fraction <= 1:
        raise FanscanError("bad_option", f"--real-fraction must be 0-1, not {args.real_fraction}")
    if args.recipe:
        given = [flag for flag, value in (("--steps", args.steps), ("--lr", args.lr), ("--init", args.init),
                                          ("--extra-crops", args.extra_crops), ("--classes", args.classes),
                                          ("--extra-fraction", args.extra_fraction),
                                          ("--no-tile-crops", args.no_tile_crops)) if value not in (None, [])]
        if given:
            raise FanscanError("bad_option", f"--recipe sets {given[0]} itself; leave it out")
        if not 0 < args.recipe_scale <= 1:
            raise FanscanError("bad_option", f"--recipe-scale must be above 0 and at most 1, not {args.recipe_scale}")
    if args.extra_fraction is not None and not (
        0 <= args.extra_fraction <= 1 - args.real_fraction and args.extra_crops
    ):
        raise FanscanError("bad_option", f"--extra-fraction {args.extra_fraction} needs --extra-crops "
                           "and must be 0 to 1 minus --real-fraction")
    if args.init is not None and not args.init.is_file():
        raise FanscanError("not_found", f"no checkpoint at {args.init}")
    for folder in (*args.extra_crops, *args.no_tile_crops):
        if not (folder / "labels.csv").is_file():
            raise FanscanError("not_found", f"no labels.csv in crop folder {folder}")
    for name, share in (("grey", args.grey_fraction), ("exposure", args.exposure_fraction)):
        if not 0 <= share <= 1:
            raise FanscanError("bad_option", f"--{name}-fraction must be 0-1, not {share}")
    if args.no_tile_crops and not 0 < args.no_tile_fraction < 1:
        raise FanscanError("bad_option", f"--no-tile-fraction must be between 0 and 1, not {args.no_tile_fraction}")
    try:
        from fanscan.models.train import TrainConfig, parse_groups, train
    except ModuleNotFoundError as error:
        raise FanscanError(
            "missing_extra", f"training needs {error.name}, from the train extra: {INSTALL_HINT}"
        ) from None
    config = TrainConfig(
        out=args.out or default_out(args.work_dir),
        steps=args.steps if args.steps is not None else 1000,
        batch=args.batch,
        synth_count=args.synth,
        seed=args.seed,
        styles=tuple(args.styles),
        hold_out=parse_groups(args.hold_out),
        classes=classes,
        use_real=not args.no_real,
        real_fraction=args.real_fraction,
        lr=args.lr if args.lr is not None else 3e-3,
        threads=args.threads,
        work_dir=args.work_dir,
        init=args.init,
        extra_crops=tuple(args.extra_crops),
        no_tile_crops=tuple(args.no_tile_crops),
        no_tile_fraction=args.no_tile_fraction,
        extra_fraction=args.extra_fraction,
        grey_fraction=args.grey_fraction,
        exposure_fraction=args.exposure_fraction,
    )
    if args.recipe:
        from fanscan.models.recipe import run_recipe

        result = run_recipe(config, scale=args.recipe_scale)
    else:
        result = train(config)
    for group, accuracy in result.held_out_accuracy.items():
        print(f"held-out {group}: {accuracy:.1%}")
    print(f"wrote {config.out} in {result.seconds / 60:.1f} min "
          f"(try it: fanscan read PHOTO --model {config.out})")
    return 0
