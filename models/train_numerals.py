"""Train the flower numeral reader (``flower_numerals.onnx``) on rendered corner patches, and
on real flowers' windows.

    python -m fanscan.models.train_numerals [--patches 40000] [--steps 2500] [--real-folds 0,1,2,3]
                                            [--out models/flower_numerals.onnx]

A tiny CNN (three conv blocks, ~68 k parameters) learns ``datasets.numeral_patches``: a 32 x 32
grey window holding a numeral 1-4 (Arabic or 一二三四) or none. With ``--real-folds`` it also
learns from the labelled flowers of those rf-chinese source folds (``datasets.real_numerals``),
whose windows are not labelled one by one, only the crop's number: each step, beside the
rendered batch, a few real crops' windows go through the net, and the crop's likelihood is a
mixture: its set prints no numeral (``PRINTED_NONE``), or its surest window for its number reads
it; and no window reads another number. ``benchmarks/eval_classifier.py --numerals`` scores it
on the real flowers (the folds left out are unseen). Shows progress; needs the ``train`` extra
(torch, onnx, tqdm).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from fanscan.atomic import write_bytes_atomic, write_text_atomic
from fanscan.datasets.composed_faces import available_fonts as cjk_fonts
from fanscan.datasets.numeral_patches import CLASSES, PATCH, generate, latin_fonts
from fanscan.datasets.real_numerals import NumeralBags, real_flower_bags
from fanscan.vision.numerals import DEFAULT_MODEL


def numeral_net() -> nn.Module:
    """(n, 1, 32, 32) grey patches scaled to [0, 1] -> logits over ``CLASSES``."""

    def block(c_in: int, c_out: int) -> list[nn.Module]:
        return [nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
                nn.MaxPool2d(2)]

    return nn.Sequential(
        *block(1, 16), *block(16, 32), *block(32, 48),
        nn.Conv2d(48, 64, 4), nn.ReLU(inplace=True), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, len(CLASSES)),
    )


PRINTED_NONE = 0.2
"""Prior share of real flowers whose set prints no numeral: such a crop's number is explained
without any window reading it, so the bag term never forces a numeral where none is printed."""
REAL_CROPS = 8
"""Real crops (bags of windows) per step, beside the 128 rendered patches."""


def bag_loss(probs: torch.Tensor, numbers: torch.Tensor) -> torch.Tensor:
    """The real crops' loss from their windows' class probabilities (crops, windows, classes)
    and their numbers (crops,) 1-4: -log(PRINTED_NONE + (1 - PRINTED_NONE) * the surest window's
    probability of the number) - log(1 - the surest window's probability of any other number)."""
    rows = torch.arange(len(numbers))
    labelled = probs[rows, :, numbers].amax(dim=1)
    others = probs[:, :, 1:].clone()
    others[rows, :, numbers - 1] = 0.0
    wrong = others.amax(dim=(1, 2))
    found = -torch.log(PRINTED_NONE + (1 - PRINTED_NONE) * labelled)
    return (found - torch.log((1 - wrong).clamp_min(1e-6))).mean()


def _tensor(patches: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(patches.astype(np.float32)[:, None] / 255.0)


def _jittered(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Half the time, contrast and brightness changed on top of the patches' own light."""
    if rng.random() < 0.5:
        return (x - 0.5) * float(rng.uniform(0.7, 1.3)) + 0.5 + float(rng.uniform(-0.1, 0.1))
    return x


def train(patches: int, steps: int, seed: int, threads: int,
          real: NumeralBags | None = None) -> tuple[nn.Module, float]:
    """The trained net and its accuracy on 2,000 fresh patches of another seed; ``real``: bags
    of real flowers' windows learnt beside the rendered patches (``bag_loss``)."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    images, labels = generate(patches, seed, progress=True)
    check_images, check_labels = generate(2000, seed + 1, progress=True)
    net = numeral_net()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    rng = np.random.default_rng(seed)
    x_all, y_all = _tensor(images), torch.from_numpy(labels.astype(np.int64))
    progress = tqdm(range(steps), desc="training", unit="step")
    net.train()
    for _ in progress:
        pick = torch.from_numpy(rng.integers(0, len(labels), 128))
        x = _jittered(x_all[pick], rng)
        if real is None or not len(real):
            loss = nn.functional.cross_entropy(net(x), y_all[pick], label_smoothing=0.05)
        else:
            crops = rng.integers(0, len(real), REAL_CROPS)
            bags = _jittered(_tensor(real.windows[crops].reshape(-1, PATCH, PATCH)), rng)
            logits = net(torch.cat([x, bags]))  # one batch: the batch norms see both
            loss = nn.functional.cross_entropy(logits[: len(x)], y_all[pick], label_smoothing=0.05)
            windows_each = real.windows.shape[1]
            probs = logits[len(x):].softmax(dim=1).reshape(REAL_CROPS, windows_each, len(CLASSES))
            loss = loss + bag_loss(probs, torch.from_numpy(real.numbers[crops]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        progress.set_postfix(loss=f"{loss.item():.3f}")
    net.eval()
    with torch.no_grad():
        predicted = net(_tensor(check_images)).argmax(dim=1).numpy()
    return net, float((predicted == check_labels).mean())


def band_net(net: nn.Sequential) -> nn.Sequential:
    """The trained patch net as the fully convolutional net the reader runs on whole bands
    (``vision.numerals``): its flatten, dropout and linear head become a 1 x 1 convolution of the
    same weights, so a band one window in size gives the patch's logits and a larger band a map
    of its windows, ``WINDOW_STRIDE`` pixels apart."""
    *body, _flatten, _dropout, linear = net
    head = nn.Conv2d(linear.in_features, linear.out_features, 1)
    with torch.no_grad():
        head.weight.copy_(linear.weight[:, :, None, None])
        head.bias.copy_(linear.bias)
    return nn.Sequential(*body, head)


WINDOW_STRIDE = 8
"""Pixels between the band net's windows: the three 2 x 2 poolings'."""


def export(net: nn.Module, out: Path, training: dict) -> None:
    """Write the band net (``band_net``; input ``band`` (n, 1, h, w), h and w at least ``PATCH``;
    softmax output ``probabilities`` (n, classes, rows, columns)) and its JSON sidecar atomically."""
    wrapped = nn.Sequential(band_net(net.eval()), nn.Softmax(dim=1)).eval()
    buffer = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(wrapped, torch.zeros(1, 1, PATCH, PATCH), buffer, input_names=["band"],
                          output_names=["probabilities"],
                          dynamic_axes={"band": {0: "batch", 2: "height", 3: "width"},
                                        "probabilities": {0: "batch", 2: "rows", 3: "columns"}},
                          opset_version=17, dynamo=False)
    write_bytes_atomic(out, buffer.getvalue())
    sidecar = {"classes": list(CLASSES), "input": {"name": "band", "size": PATCH, "stride": WINDOW_STRIDE,
                                                  "channels": "grey", "scale": "1/255"}, "training": training}
    write_text_atomic(out.with_suffix(".json"), json.dumps(sidecar, indent=2) + "\n")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _folds(text: str) -> tuple[int, ...]:
    try:
        folds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"folds are comma-separated whole numbers, not {text!r}") from None
    if any(fold < 0 for fold in folds):
        raise argparse.ArgumentTypeError(f"folds are not negative: {text!r}")
    return folds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--patches", type=_positive, default=40000, help="rendered patches to train on")
    parser.add_argument("--steps", type=_positive, default=2500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=_positive, default=2)
    parser.add_argument("--real-folds", type=_folds, default=(),
                        help="comma-separated rf-chinese source folds whose flowers to learn from too")
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    args = parser.parse_args(argv)
    from fanscan.datasets.real_tables import FOLDS, HELD_OUT_FOLD

    allowed = [fold for fold in range(FOLDS) if fold != HELD_OUT_FOLD]
    if not set(args.real_folds) <= set(allowed):
        parser.error(f"--real-folds: only folds {', '.join(map(str, allowed))} (fold {HELD_OUT_FOLD} is held out)")
    if not latin_fonts() or not cjk_fonts():
        print("train_numerals: error: the numerals are drawn with Debian's fonts-freefont-ttf and a CJK font "
              "(fonts-noto-cjk, fonts-arphic-ukai, ...); install them first", file=sys.stderr)
        return 1
    if not args.out.parent.is_dir():
        print(f"train_numerals: error: no folder {args.out.parent} to write the model into", file=sys.stderr)
        return 1
    start = time.monotonic()
    real = None
    if args.real_folds:
        bars: list[tqdm] = []

        def progress(done: int, total: int) -> None:
            if not bars:
                bars.append(tqdm(total=total, desc="real flowers", unit="photo"))
            bars[0].update(1)

        real = real_flower_bags(args.real_folds, PATCH, progress=progress)
        for bar in bars:
            bar.close()
        if not len(real):
            print("train_numerals: error: no real flowers found (is ../shared/data/rf-chinese here?)",
                  file=sys.stderr)
            return 1
    net, accuracy = train(args.patches, args.steps, args.seed, args.threads, real)
    training = {"patches": args.patches, "steps": args.steps, "seed": args.seed,
                "rendered_check_accuracy": round(accuracy, 4)}
    if real is not None:
        training["real_flowers"] = {"source": "rf-chinese (CC BY 4.0)", "folds": list(args.real_folds),
                                    "crops": len(real), "photos": len(set(real.photos)),
                                    "printed_none_prior": PRINTED_NONE, "crops_per_step": REAL_CROPS}
    try:
        export(net, args.out, training)
    except OSError as error:
        print(f"train_numerals: error: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} in {(time.monotonic() - start) / 60:.1f} min; "
          f"{accuracy:.1%} of 2,000 fresh rendered patches right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
