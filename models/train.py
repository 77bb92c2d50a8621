"""Train the tile classifier from scratch: rendered crops plus real crops, then export to ONNX.

Each batch mixes augmented real crops (``real_fraction`` of it, when ../shared is present) with
pre-rendered synthetic crops (``data.synthetic_set``). Extra crop folders (``extra_crops``) join
the real crops, or, with ``extra_fraction`` set, fill that share of the batch from a pool of their
own (crops cut from generated scenes would otherwise crowd the few real crops out of theirs).
Folders of crops that hold no tile (``no_tile_crops``, from ``fanscan.datasets.no_tile_crops``)
teach a 44th class, ``NO_TILE``, as ``no_tile_fraction`` of each batch; the network then answers
over ``CLASSIFIER_LABELS`` (a 43-class export it starts from gets the new class added).
Whole tile sets named in ``hold_out`` are kept out of training and scored at the end, so the
figures are for designs the model never saw. Needs the ``train`` extra (torch, onnx, tqdm); CPU is enough.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from fanscan.atomic import atomic_path
from fanscan.datasets.real_tiles import RealCrop, groups, load_real_crops
from fanscan.datasets.tile_art import available_styles
from fanscan.errors import FanscanError
from fanscan.models.augment import augment_real
from fanscan.models.data import ArraySet, no_tile_set, real_set, synthetic_set
from fanscan.models.export import export
from fanscan.models.net import TileNet
from fanscan.models.onnx_init import freeze_norms, tile_net_from_onnx
from fanscan.scoring.tiles import CLASS_LABELS, CLASSIFIER_LABELS
from fanscan.vision.preprocess import PreprocessSpec, normalise

DEFAULT_MODEL = Path(__file__).resolve().parent / "tile_classifier.onnx"


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run depends on; recorded in the model's sidecar."""

    out: Path = DEFAULT_MODEL
    steps: int = 1000
    batch: int = 64
    synth_count: int = 12000
    seed: int = 0
    styles: tuple[str, ...] = ()  # empty: every style installed here
    hold_out: tuple[str, ...] = ()
    # Train on these faces only (e.g. the eight flowers, for a specialist); empty: all of them.
    classes: tuple[str, ...] = ()
    use_real: bool = True
    real_fraction: float = 0.7
    lr: float = 3e-3
    threads: int = 2
    work_dir: Path = Path("work_data")
    # Weights to start from (fine-tuning) instead of from scratch: a .pt checkpoint, or an exported
    # .onnx such as the shipped model (its batch norms, folded by the export, stay frozen).
    init: Path | None = None
    # Crop folders exported by `fanscan export --format crops` (a user's own reviewed tile sets).
    extra_crops: tuple[Path, ...] = ()
    # Share of each batch drawn from extra_crops alone; None: they are pooled with the real crops.
    extra_fraction: float | None = None
    # Crop folders of boxes that hold no tile, and their share of each batch (the NO_TILE class).
    no_tile_crops: tuple[Path, ...] = ()
    no_tile_fraction: float = 0.12
    # Share of the real, extra and no-tile crops' views made grey (``augment_real``).
    grey_fraction: float = 0.0
    # Share of the real, extra and no-tile crops' views seen under another exposure (``augment_real``).
    exposure_fraction: float = 0.0
    spec: PreprocessSpec = field(default_factory=PreprocessSpec)

    @property
    def labels(self) -> tuple[str, ...]:
        """The network's classes: ``CLASSIFIER_LABELS`` when it learns no tile, else ``CLASS_LABELS``
        (or the starting network's, when it answers no tile already)."""
        return CLASSIFIER_LABELS if self.no_tile_crops else CLASS_LABELS


@dataclass(frozen=True)
class TrainResult:
    """Held-out accuracy per tile set (empty without held-out sets) and the run's length."""

    held_out_accuracy: dict[str, float]
    seconds: float


def checkpoint_path(config: TrainConfig) -> Path:
    """Where the run's torch weights are kept (for fine-tuning): ``<work_dir>/checkpoints``."""
    return config.work_dir / "checkpoints" / f"{config.out.stem}.pt"


def _split_real(config: TrainConfig) -> tuple[list[RealCrop], list[RealCrop], list[RealCrop]]:
    """(real crops to train on, held-out crops, extra crops drawn as a pool of their own)."""
    crops = load_real_crops() if config.use_real else []
    extra: list[RealCrop] = []
    if config.extra_crops:
        from fanscan.datasets.formats.crops import training_crops

        extra = [crop for folder in config.extra_crops for crop in training_crops(folder)]
    unknown = set(config.hold_out) - set(groups(crops + extra))
    if unknown:
        raise FanscanError("unknown_group", f"no real tile set named {min(unknown)!r}")
    if config.classes:
        crops = [c for c in crops if c.code in config.classes]
        extra = [c for c in extra if c.code in config.classes]
    if config.extra_fraction is None:
        crops, extra = crops + extra, []
    held = [c for c in crops + extra if c.group in config.hold_out]
    return ([c for c in crops if c.group not in config.hold_out], held,
            [c for c in extra if c.group not in config.hold_out])


def _by_class(labels: np.ndarray) -> list[np.ndarray]:
    """Indices of each class present in ``labels`` (for class-balanced sampling)."""
    return [np.flatnonzero(labels == c) for c in np.unique(labels)]


def _draw(pool: ArraySet, classes: list[np.ndarray], n: int,
          rng: np.random.Generator, grey: float = 0.0, exposure: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` augmented crops of ``pool`` (``grey`` of them made grey, ``exposure`` of them seen
    under another exposure), classes drawn uniformly: a real set has one crop of each flower but
    four of each suit tile."""
    picks = rng.integers(0, len(classes), n)
    idx = np.array([classes[c][rng.integers(len(classes[c]))] for c in picks])
    return np.stack([augment_real(pool.images[i], rng, grey, exposure) for i in idx]), pool.labels[idx]


def _batch(real: ArraySet | None, real_classes: list[np.ndarray], synth: ArraySet,
           config: TrainConfig, rng: np.random.Generator, extra: ArraySet | None = None,
           extra_classes: Sequence[np.ndarray] = (), none: ArraySet | None = None,
           none_sources: Sequence[np.ndarray] = ()) -> tuple[torch.Tensor, torch.Tensor]:
    """One batch: ``real_fraction`` real crops, ``extra_fraction`` extra crops and
    ``no_tile_fraction`` crops of no tile (when each pool has any), the rest synthetic."""
    n_real = round(config.batch * config.real_fraction) if real is not None and len(real) else 0
    n_extra = round(config.batch * (config.extra_fraction or 0)) if extra is not None and len(extra) else 0
    n_extra = min(n_extra, config.batch - n_real)
    n_none = round(config.batch * config.no_tile_fraction) if none is not None and len(none) else 0
    n_none = min(n_none, config.batch - n_real - n_extra)
    synth_idx = np.sort(rng.integers(0, len(synth), config.batch - n_real - n_extra - n_none))
    images = [synth.images[synth_idx]]
    labels = [synth.labels[synth_idx]]
    for pool, classes, n in ((real, real_classes, n_real), (extra, list(extra_classes), n_extra),
                             (none, list(none_sources), n_none)):
        if n:
            drawn, drawn_labels = _draw(pool, classes, n, rng, config.grey_fraction, config.exposure_fraction)
            images.append(drawn)
            labels.append(drawn_labels)
    x = torch.from_numpy(normalise(np.concatenate(images), config.spec))
    return x.contiguous(memory_format=torch.channels_last), torch.from_numpy(np.concatenate(labels))


def predict(net: nn.Module, data: ArraySet, spec: PreprocessSpec, batch: int = 256) -> np.ndarray:
    """Class probabilities (n, the net's classes) of ``data`` under ``net`` in eval mode."""
    net.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(data), batch):
            x = torch.from_numpy(normalise(np.asarray(data.images[start : start + batch]), spec))
            out.append(torch.softmax(net(x.contiguous(memory_format=torch.channels_last)), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, len(CLASS_LABELS)), np.float32)


def _initial_net(init: Path | None, num_classes: int = len(CLASS_LABELS)) -> tuple[TileNet, bool]:
    """(the network to train, whether its batch norms stay frozen): fresh, from a ``.pt``
    checkpoint, or from an exported ``.onnx`` (``onnx_init``), with at least ``num_classes``
    outputs (a 43-class start grows the class ``NO_TILE``; one that answers it keeps it, so that
    fine-tuning the shipped model on a user's crops keeps its "no tile"); a file that holds no
    such weights is a ``FanscanError``."""
    if init is None:
        return TileNet(num_classes), False
    try:
        if init.suffix == ".onnx":
            net = tile_net_from_onnx(init)
            return (net if net.head[3].out_features >= num_classes else tile_net_from_onnx(init, num_classes)), True
        state = torch.load(init, map_location="cpu", weights_only=True)
        rows = max(num_classes, state["head.3.weight"].shape[0]) if "head.3.weight" in state else num_classes
        net = TileNet(rows)
        net.load_state_dict(_grown_head(state, rows))
        return net, False
    except Exception as error:  # noqa: BLE001 - torch.load of a file of any content fails any way
        told = isinstance(error, (ValueError, OSError)) and str(error)
        reason = str(error).splitlines()[0] if told else type(error).__name__
        raise FanscanError("bad_model", f"--init {init}: not the tile classifier's weights ({reason})") from None


def _grown_head(state: dict[str, torch.Tensor], num_classes: int) -> dict[str, torch.Tensor]:
    """A checkpoint's weights with its last layer grown to ``num_classes`` rows, each new class
    at zero weights and the lowest bias of the others (as ``onnx_init`` grows an export's)."""
    weight_key, bias_key = "head.3.weight", "head.3.bias"
    if weight_key not in state or state[weight_key].shape[0] >= num_classes:
        return state
    weight, bias = state[weight_key], state[bias_key]
    grown = dict(state)
    grown[weight_key] = torch.cat([weight, weight.new_zeros(num_classes - len(weight), weight.shape[1])])
    grown[bias_key] = torch.cat([bias, bias.new_full((num_classes - len(bias),), float(bias.min()))])
    return grown


def held_out_figures(net: nn.Module, held_crops: Sequence[RealCrop], spec: PreprocessSpec) -> dict[str, float]:
    """The share of each held-out group's crops the network names right."""
    accuracy: dict[str, float] = {}
    if held_crops:
        held = real_set(held_crops, spec)
        correct = predict(net, held, spec).argmax(1) == held.labels
        for group in groups(held_crops):
            mask = np.array([c.group == group for c in held_crops])
            accuracy[group] = float(correct[mask].mean())
    return accuracy


def held_out_of(model: Path, config: TrainConfig) -> dict[str, float]:
    """``held_out_figures`` of an exported classifier on ``config``'s held-out sets (the figure of
    a model no single run made: an average of runs)."""
    _, held_crops, _ = _split_real(config)
    return held_out_figures(tile_net_from_onnx(model).eval(), held_crops, config.spec)


def train(config: TrainConfig) -> TrainResult:
    """Train, evaluate on the held-out sets, export ``config.out`` and its sidecar."""
    started = time.monotonic()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    net, frozen_norms = _initial_net(config.init, len(config.labels))  # a bad --init fails first
    labels = CLASSIFIER_LABELS if net.head[3].out_features == len(CLASSIFIER_LABELS) else CLASS_LABELS
    styles = config.styles or tuple(available_styles())
    if not styles:
        raise FanscanError("no_tile_art", "no tile art is installed to render training crops from")
    train_crops, held_crops, extra_crops = _split_real(config)
    synth = synthetic_set(config.synth_count, config.seed, styles, config.spec, config.work_dir,
                          config.classes)
    real = real_set(train_crops, config.spec) if train_crops else None
    real_classes = _by_class(real.labels) if real is not None else []
    extra = real_set(extra_crops, config.spec) if extra_crops else None
    extra_classes = _by_class(extra.labels) if extra is not None else []
    none, none_sources = no_tile_set(config.no_tile_crops, config.spec) if config.no_tile_crops else (None, [])

    net = net.to(memory_format=torch.channels_last)
    optimiser = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=1e-4)
    warmup = max(1, config.steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser,
        lambda s: min(1.0, (s + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * min(1.0, s / config.steps))),
    )
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    net.train()
    if frozen_norms:
        freeze_norms(net)
    progress = tqdm(range(config.steps), desc="training", unit="step")
    running = None
    for _ in progress:
        x, y = _batch(real, real_classes, synth, config, rng, extra, extra_classes, none, none_sources)
        loss = loss_fn(net(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        running = loss.item() if running is None else 0.95 * running + 0.05 * loss.item()
        progress.set_postfix(loss=f"{running:.3f}")

    accuracy = held_out_figures(net, held_crops, config.spec)
    seconds = time.monotonic() - started
    net = net.to(memory_format=torch.contiguous_format)
    with atomic_path(checkpoint_path(config)) as temp:
        torch.save(net.state_dict(), temp)
    record: dict[str, Any] = {
        **{k: v for k, v in asdict(config).items()
           if k not in ("out", "work_dir", "spec", "init", "extra_crops", "no_tile_crops")},
        # The folder and its parent: scene crop folders are OUT/finder and OUT/true.
        "extra_crops": ["/".join(path.resolve().parts[-2:]) for path in config.extra_crops],
        "extra_pool_crops": len(extra_crops),
        "no_tile_crops": ["/".join(path.resolve().parts[-2:]) for path in config.no_tile_crops],
        "no_tile_pool_crops": len(none) if none is not None else 0,
        "fine_tuned_from": config.init.name if config.init else None,
        "styles": list(styles),
        "real_crops": len(train_crops),
        "real_groups": groups(train_crops),
        "held_out_accuracy": accuracy,
        "seconds": round(seconds),
        "trained": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    export(net, config.spec, config.out, record, labels)
    return TrainResult(accuracy, seconds)


def parse_groups(text: Sequence[str]) -> tuple[str, ...]:
    """Group names from repeated or comma-separated command-line values."""
    return tuple(g for item in text for g in item.split(",") if g)
