"""Training of the tile finder's segmentation network on generated scenes (needs the ``train`` extra).

The network (``FinderNet``, a small U-Net, about 30k weights) maps a photo downscaled to
``finder.WORK_SIDE`` to three maps at half that resolution: table, face, back (face-down tile).
Each tile is drawn into its map shrunk to ``finder.SHRINK`` of its size around its centre, so that
touching tiles come out as separate blobs; the finder grows each blob back to the whole face.

    python -m fanscan.models.train_finder --scenes 800 --steps 1500 --out models/tile_finder.onnx

Scene seeds for training start at ``TRAIN_SEED_BASE``, far from the benchmark's seeds (0-9999).

``--real-folds 0,1,2,3`` adds the real table photos of those source folds (``datasets.real_tables``;
never the held-out fold), every version turned back upright (``real_tables.upright_version``), the
augmentation's fill ignored (``--unturned-only``: only the versions it did not turn, whose boxes
are exact; the shipped finder's choice, see docs/reader.md). Only their
labelled tiles are known: a face is drawn as in a scene, the ring around each labelled tile is
table, and everything else is ``IGNORE`` (walls, discards and other players' tiles are often left
unlabelled there, so an unlabelled pixel is no evidence of table).

On an accelerator: ``--device cuda --workers N`` (the windows cut in N processes) and, for a
wider net, ``--width W``; ``models.pack_for_accelerator`` packs the data and writes such runs.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from fanscan.atomic import atomic_path, write_text_atomic
from fanscan.datasets.photo_effects import random_camera_fault
from fanscan.vision.finder import SHRINK, WORK_SIDE

TRAIN_SEED_BASE = 1_000_000
IGNORE = 255  # mask value that adds nothing to the loss
# A real photo's labelled tile is known to be surrounded by table up to this share of its short
# side: the gap to a neighbour, where the finder must learn to separate touching tiles.
KNOWN_RING = 0.35


def target_mask(shape: tuple[int, int], quads: list[np.ndarray], backs: list[bool]) -> np.ndarray:
    """Class map (0 table, 1 face, 2 back) of ``shape`` with every quad shrunk around its centre."""
    mask = np.zeros(shape, np.uint8)
    for quad, back in zip(quads, backs):
        centre = quad.mean(axis=0)
        small = centre + (quad - centre) * SHRINK
        cv2.fillConvexPoly(mask, np.round(small).astype(np.int32), 2 if back else 1)
    return mask


NEEDS_TRAIN_EXTRA = "training needs the train extra (pip install 'fanscan[train]')"

MAX_LR = 3e-3
"""The one-cycle schedule's peak learning rate (``--max-lr``)."""


def make_example(seed: int, clutter_share: float = 0.0, standing_share: float = 0.0, busy_share: float = 0.0,
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(image at the finder's working size, class map at half of it) for one generated scene, laid
    on a table with walls and discards (``generate_scene(clutter=True)``) at ``clutter_share`` of
    the seeds, the hand standing mid-game (``standing=True``) at ``standing_share``, on a mat or a
    photographed top with things that are no tiles around it (``BUSY_TABLE_KINDS``, ``props``; with
    the other players' standing hands where the table is cluttered) at ``busy_share``; the table's
    tiles that show no whole face are ``IGNORE``."""
    from fanscan.datasets.scenes import generate_scene
    from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS

    rng = np.random.default_rng(seed)
    size = (WORK_SIDE, WORK_SIDE * 3 // 4) if rng.random() < 0.8 else (WORK_SIDE * 3 // 4, WORK_SIDE)
    clutter = bool(clutter_share) and rng.random() < clutter_share
    standing = bool(standing_share) and rng.random() < standing_share
    busy = bool(busy_share) and rng.random() < busy_share
    scene = generate_scene(seed, size=size, clutter=clutter, standing=standing,
                           tables=BUSY_TABLE_KINDS if busy else TABLE_KINDS, props=busy,
                           opponents=busy and clutter)
    half = (scene.image.shape[0] // 2, scene.image.shape[1] // 2)
    quads = [t.quad / 2 for t in scene.tiles]
    mask = target_mask(half, quads, [t.code == "back" for t in scene.tiles])
    for quad in scene.unseen:
        outside = np.zeros(half, np.uint8)
        cv2.fillConvexPoly(outside, np.round(quad / 2).astype(np.int32), 1)
        mask[(outside == 1) & (mask == 0)] = IGNORE
    return scene.image, mask


def real_example(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(image, class map at half its size) for a real photo whose labelled tiles are ``boxes``
    (x0 y0 x1 y1 pixels): faces as ``target_mask`` draws them, a ring of table around each, the
    rest ``IGNORE``."""
    half = (image.shape[0] // 2, image.shape[1] // 2)
    mask = np.full(half, IGNORE, np.uint8)
    small = boxes / 2
    for x0, y0, x1, y1 in small:
        ring = KNOWN_RING * min(x1 - x0, y1 - y0)
        cv2.rectangle(mask, (int(x0 - ring), int(y0 - ring)), (int(np.ceil(x1 + ring)), int(np.ceil(y1 + ring))), 0, -1)
    quads = [np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) for x0, y0, x1, y1 in small]
    faces = target_mask(half, quads, [False] * len(quads))
    mask[faces == 1] = 1
    return image, mask


def real_examples(folds: list[int], unturned_only: bool = False, one_per_source: bool = False,
                  ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``real_example`` of every labelled version of the real table photos in ``folds``, turned
    back upright (the fill it was turned into ``IGNORE``); with ``unturned_only`` only the versions
    the augmentation did not turn, whose boxes are the labeller's own; with ``one_per_source`` only
    each source's least turned version (``real_tables.least_turned``, as the benchmark reads them),
    so that a source counts once whether the augmentation left one version unturned or none."""
    from fanscan.datasets.real_tables import (
        HELD_OUT_FOLD, in_folds, least_turned, load_table_photos, upright_version)

    if HELD_OUT_FOLD in folds:
        raise ValueError(f"fold {HELD_OUT_FOLD} is held out for the benchmark")
    images, masks = [], []
    photos = in_folds(load_table_photos(), folds)
    for photo in least_turned(photos) if one_per_source else photos:
        version = upright_version(photo) if len(photo.codes) else None
        if version is None or (unturned_only and version.turn != 0.0):
            continue
        image, mask = real_example(version.image, version.boxes)
        content = cv2.resize(version.content, mask.shape[::-1], interpolation=cv2.INTER_NEAREST)
        mask[content == 0] = IGNORE
        images.append(image)
        masks.append(mask)
    return images, masks


def conv_block(cin: int, cout: int, stride: int = 1, dilation: int = 1):
    """3x3 convolution, batch norm, ReLU (a torch.nn.Sequential): the finder's and the box
    refiner's building block."""
    from torch import nn

    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


CALIBRATION_STEPS = 20
"""With a time budget, ``fit`` times this many steps (at the schedule's starting rate) before it
sizes the schedule to the steps the budget allows."""
_clock = time.monotonic  # the time budget's clock (a test's stand-in replaces it)


def fit(net, batches, steps: int, loss_of, log_every: int, describe, frozen_norms: bool = False,
        max_lr: float = MAX_LR, device: str = "cpu", seconds: float | None = None) -> int:
    """Train ``net`` (a torch module) for ``steps`` steps of ``next(batches)`` (numpy x, y) with
    AdamW and a one-cycle schedule peaking at ``max_lr``: the finder's and the box refiner's loop.
    ``loss_of(output, y)`` is the loss tensor; every ``log_every`` steps ``describe(loss)`` is
    printed to stderr. With ``frozen_norms`` the batch norms keep their statistics (see
    ``load_onnx_weights``). On ``device`` (a torch device name such as "cuda") the network and each
    batch are moved there; the network is left on the CPU afterwards, for export. With ``seconds``
    (a lent machine's limit), the first ``CALIBRATION_STEPS`` steps are timed and the whole
    schedule shrunk, if need be, to the steps that fit: a run cut short mid-schedule would end at
    a high rate. Returns the steps taken."""
    import torch

    net.to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    net.train()
    if frozen_norms:
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()

    def one_step(step: int, total: int) -> None:
        x, y = next(batches)
        x, y = torch.as_tensor(x).to(device, non_blocking=True), torch.as_tensor(y).to(device, non_blocking=True)
        loss = loss_of(net(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % log_every == 0:
            print(f"step {step}/{total} {describe(loss.item())}", file=sys.stderr, flush=True)

    done = 0
    if seconds is not None and steps > CALIBRATION_STEPS:
        started = _clock()
        for group in optimiser.param_groups:  # OneCycleLR's own starting rate
            group["lr"] = max_lr / 25
        for done in range(CALIBRATION_STEPS):
            if done == CALIBRATION_STEPS // 2:  # the first steps wait on the window workers' start
                warm = _clock()
            one_step(done, steps)
        done = CALIBRATION_STEPS
        per_step = (_clock() - warm) / (CALIBRATION_STEPS - CALIBRATION_STEPS // 2)
        affordable = int((seconds - (_clock() - started)) / per_step)
        if affordable < steps - done:
            fitting = done + max(affordable, 1)
            print(f"{per_step:.3f} s a step: {fitting} steps fit {seconds:.0f} s, not {steps}",
                  file=sys.stderr, flush=True)
            steps = fitting
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=max_lr, total_steps=steps - done)
    for step in range(done, steps):
        one_step(step, steps)
        schedule.step()
    net.to("cpu")
    return steps


def load_onnx_weights(net, path: Path) -> None:
    """Set ``net``'s weights from its ONNX export at ``path`` (a shipped model whose .pt is gone).

    The export folds each batch norm into the convolution before it, so each norm becomes the
    identity plus the folded bias; train such a net with ``fit(..., frozen_norms=True)``, as a
    norm that learns batch statistics again would start from other weights than the export's.
    """
    import onnx
    import torch
    from onnx import numpy_helper

    try:
        model = onnx.load(str(path))
    except OSError:
        raise
    except Exception as error:  # protobuf's DecodeError and kin: the file is no ONNX model
        raise ValueError(f"not an ONNX model ({type(error).__name__})") from error
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    onnx_convs = [node for node in model.graph.node if node.op_type == "Conv"]
    modules = list(net.modules())
    convs = [m for m in modules if isinstance(m, torch.nn.Conv2d)]
    if len(convs) != len(onnx_convs):
        raise ValueError(f"{path} has {len(onnx_convs)} convolutions, the network {len(convs)}")
    with torch.no_grad():
        for conv, node in zip(convs, onnx_convs):
            weight, bias = arrays[node.input[1]], arrays[node.input[2]]
            if tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {node.input[1]} is {weight.shape}, not {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(weight.copy()))
            if conv.bias is not None:
                conv.bias.copy_(torch.from_numpy(bias.copy()))
                continue
            norm = modules[modules.index(conv) + 1]
            if not isinstance(norm, torch.nn.BatchNorm2d):
                raise ValueError(f"{path}: a convolution without bias is not followed by a batch norm")
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias.copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)


def build_net(width: float = 1.0):
    """The finder network (torch.nn.Module), input (n, 3, h, w) float in [0, 1], h and w % 8 == 0;
    ``width`` scales every layer's channels (1: the shipped net's 8-32)."""
    import torch
    from torch import nn

    block = conv_block
    c8, c16, c24, c32 = (max(4, round(c * width)) for c in (8, 16, 24, 32))

    class FinderNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = block(3, c8, 2)  # 1/2
            self.down1 = nn.Sequential(block(c8, c24, 2), block(c24, c24))  # 1/4
            self.down2 = nn.Sequential(block(c24, c32, 2), block(c32, c32, dilation=2),
                                       block(c32, c32, dilation=4))  # 1/8
            self.up1 = nn.Sequential(nn.Conv2d(c32 + c24, c16, 1), block(c16, c16))
            self.up2 = nn.Sequential(nn.Conv2d(c16 + c8, c8, 1), block(c8, c8))
            self.head = nn.Conv2d(c8, 3, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            s = self.stem(x)
            d1 = self.down1(s)
            d2 = self.down2(d1)
            u1 = self.up1(torch.cat([nn.functional.interpolate(d2, scale_factor=2.0), d1], 1))
            u2 = self.up2(torch.cat([nn.functional.interpolate(u1, scale_factor=2.0), s], 1))
            return self.head(u2)

    return FinderNet()


def _window(image: np.ndarray, mask: np.ndarray, rng: np.random.Generator, crop: int,
            zoom: tuple[float, float] | None, stretch: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A random ``crop``-px window of ``image`` and its mask (half the size); with ``zoom``, half
    of the windows seen zoomed by a factor drawn log-uniformly from it (tiles larger or smaller
    than the scenes draw them: a close-up is searched on a copy where its tiles are large); with
    ``stretch``, half of them squeezed along one axis and stretched along the other, the ratio of
    the two drawn log-uniformly up to ``stretch``: a tile foreshortened as a steeper camera shows
    it (a standing row seen from above, its faces three times as wide as high)."""
    factor = 1.0 if zoom is None or rng.random() < 0.5 else float(np.exp(rng.uniform(*np.log(zoom))))
    aspect = 1.0
    if stretch is not None and rng.random() < 0.5:
        aspect = float(np.exp(rng.uniform(-np.log(stretch), np.log(stretch))))
    fx, fy = factor * np.sqrt(aspect), factor / np.sqrt(aspect)
    wide = min(round(crop / 2 / fx), mask.shape[1])  # mask pixels the window spans
    high = min(round(crop / 2 / fy), mask.shape[0])
    y0 = int(rng.integers(0, mask.shape[0] - high + 1))
    x0 = int(rng.integers(0, mask.shape[1] - wide + 1))
    m = mask[y0 : y0 + high, x0 : x0 + wide]
    im = image[2 * y0 : 2 * y0 + 2 * high, 2 * x0 : 2 * x0 + 2 * wide]
    if (wide, high) != (crop // 2, crop // 2):
        m = cv2.resize(m, (crop // 2, crop // 2), interpolation=cv2.INTER_NEAREST)
        shrinking = wide * high > (crop // 2) ** 2
        im = cv2.resize(im, (crop, crop), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    return im, m


def _turned(image: np.ndarray, mask: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """``image`` and its half-size ``mask`` turned by ``degrees`` about their centres, the corners
    turned in from outside black in the image and ``IGNORE`` in the mask. A tile's shrunk target
    turns with it, so a turned real photo keeps exact targets for tiles seen slanted (a rack at 45
    degrees), which its labels, upright boxes, could not give."""
    h, w = mask.shape
    small = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), degrees, 1.0)
    large = cv2.getRotationMatrix2D(((image.shape[1] - 1) / 2, (image.shape[0] - 1) / 2), degrees, 1.0)
    turned_mask = cv2.warpAffine(mask, small, (w, h), flags=cv2.INTER_NEAREST, borderValue=IGNORE)
    turned_image = cv2.warpAffine(image, large, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR)
    return turned_image, turned_mask


def _batches(images: list[np.ndarray], masks: list[np.ndarray], rng: np.random.Generator, size: int,
             zoom: tuple[float, float] | None = None, weights: np.ndarray | None = None,
             rotate: float = 0.0, stretch: float | None = None, faults: float = 0.0):
    """Endless random (crop, mask) batches with flips, 90-degree turns, light jitter and, with
    ``zoom``, windows seen larger or smaller (``_window``); each window's picture drawn with
    ``weights`` (probabilities; default: all alike); with ``rotate``, half of the pictures first
    turned by an angle drawn uniformly within that many degrees either way (``_turned``); with
    ``stretch``, windows foreshortened (``_window``); with ``faults``, that share of the windows
    seen as a poorer photo shows them (``photo_effects.random_camera_fault``: over-exposed, hazy,
    out of focus, shaken or dim), their targets unchanged."""
    crop = 256
    while True:
        xs, ys = [], []
        for _ in range(size):
            i = int(rng.choice(len(images), p=weights)) if weights is not None else int(rng.integers(len(images)))
            image, mask = images[i], masks[i]
            if rotate and rng.random() < 0.5:
                image, mask = _turned(image, mask, float(rng.uniform(-rotate, rotate)))
            im, m = _window(image, mask, rng, crop, zoom, stretch)
            k = int(rng.integers(4))
            im, m = np.rot90(im, k), np.rot90(m, k)
            if rng.random() < 0.5:
                im, m = im[:, ::-1], m[:, ::-1]
            im = im.astype(np.float32)
            if faults and rng.random() < faults:
                im = random_camera_fault(im, rng)
            im = im / 255 * rng.uniform(0.75, 1.25) + rng.uniform(-0.1, 0.1)
            xs.append(np.ascontiguousarray(im.transpose(2, 0, 1)))
            ys.append(np.ascontiguousarray(m))
        yield np.stack(xs), np.stack(ys).astype(np.int64)


def parallel_batches(images: list[np.ndarray], masks: list[np.ndarray], seed: int, workers: int, **options):
    """``_batches(images, masks, ...)`` drawn in ``workers`` processes (torch's loader), each with
    its own random stream from ``seed``: on an accelerator one process cannot cut windows as fast
    as the network learns from them."""
    import torch

    # OpenCV's thread pool does not survive a fork: a forked worker's first parallel call waits
    # forever on threads it does not have. One thread here, before the fork, leaves no pool behind.
    cv2.setNumThreads(1)

    class Windows(torch.utils.data.IterableDataset):
        def __iter__(self):
            worker = torch.utils.data.get_worker_info()
            return _batches(images, masks, np.random.default_rng([seed, worker.id if worker else 0]), **options)

    loader = torch.utils.data.DataLoader(Windows(), batch_size=None, num_workers=workers,
                                         pin_memory=torch.cuda.is_available(), prefetch_factor=4,
                                         persistent_workers=True)
    return iter(loader)


CACHE_JPEG_QUALITY = 90
"""The scene cache keeps its pictures as JPEG (about a fifteenth of the raw size: a cache of
600 scenes fits the 64 MB an accelerator's run carries) and its class maps as PNG (lossless)."""


def _stored(image: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(JPEG bytes, PNG bytes) of one scene, as the cache keeps it."""
    return (cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, CACHE_JPEG_QUALITY])[1],
            cv2.imencode(".png", mask)[1])


def _restored(stored: np.ndarray, flags: int) -> np.ndarray:
    """An array the cache kept: encoded bytes decoded, or (a cache from before it encoded) as is."""
    return cv2.imdecode(stored, flags) if stored.ndim == 1 else stored


def _examples(scenes: int, cache: Path | None, clutter_share: float = 0.0, standing_share: float = 0.0,
              busy_share: float = 0.0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The training scenes (``make_example``), from ``cache`` (an .npz) when it holds at least
    that many drawn with the same shares (a cache of no shares, or of fewer, drew none of the
    missing kinds)."""
    shares = np.array([clutter_share, standing_share, busy_share])
    if cache is not None and cache.is_file():
        with np.load(cache) as data:
            cached_shares = data["shares"] if "shares" in data.files else np.zeros(0)
            cached_shares = np.concatenate([cached_shares, np.zeros(len(shares) - len(cached_shares))])
            if sum(f.startswith("image") for f in data.files) >= scenes and np.array_equal(cached_shares, shares):
                return ([_restored(data[f"image{n}"], cv2.IMREAD_COLOR) for n in range(scenes)],
                        [_restored(data[f"mask{n}"], cv2.IMREAD_UNCHANGED) for n in range(scenes)])
    images, masks = [], []
    for n in range(scenes):
        image, mask = make_example(TRAIN_SEED_BASE + n, clutter_share, standing_share, busy_share)
        images.append(image)
        masks.append(mask)
        if n % 50 == 0:
            print(f"scene {n}/{scenes}", file=sys.stderr, flush=True)
    if cache is not None:
        arrays = {}
        for n, (image, mask) in enumerate(zip(images, masks)):
            arrays[f"image{n}"], arrays[f"mask{n}"] = _stored(image, mask)
        np.savez(cache, shares=shares, **arrays)
        # Train on what a rerun from the cache would see, so that both runs are one recipe.
        images = [_restored(arrays[f"image{n}"], cv2.IMREAD_COLOR) for n in range(scenes)]
    return images, masks


def initial_net(init: Path | None, width: float = 1.0):
    """(the finder network of ``width`` (``build_net``), whether its batch norms stay frozen):
    fresh, or from ``init``, a .pt of an earlier run or an exported .onnx (``load_onnx_weights``).
    Raises OSError or ValueError for a file that is missing or holds other weights."""
    import torch

    torch.manual_seed(0)
    net = build_net(width)
    if init is None:
        return net, False
    if init.suffix == ".onnx":
        load_onnx_weights(net, init)
        return net, True
    try:
        net.load_state_dict(torch.load(init))
    except (RuntimeError, pickle.UnpicklingError, EOFError) as error:  # no weights, or another network's
        raise ValueError(str(error).splitlines()[0] if str(error) else "not a weights file") from error
    return net, False


def unusable_device(name: str) -> str | None:
    """Why torch cannot train on the device ``name`` (None when it can)."""
    if name == "cpu":
        return None
    try:
        import torch
    except ImportError as error:
        return f"{NEEDS_TRAIN_EXTRA}: {error}"

    try:
        device = torch.device(name)
    except (RuntimeError, ValueError) as error:
        return str(error).splitlines()[0]
    if device.type == "cuda" and not torch.cuda.is_available():
        return "torch sees no CUDA device here"
    return None


def sidecar(training: dict) -> dict:
    """The JSON written beside an exported finder: what goes in and out, and how it was trained."""
    return {
        "format_version": 1,
        "input": {"name": "image", "layout": "NCHW", "channel_order": "RGB", "scale": "1/255",
                  "long_side": WORK_SIDE, "multiple_of": 8},
        "output": {"name": "logits", "classes": ["table", "face", "back"], "resolution": "1/2",
                   "shrink": SHRINK},
        "training": training,
    }


def train(start: tuple, scenes: int, steps: int, out: Path, cache: Path | None = None,
          zoom: tuple[float, float] | None = None, real_folds: list[int] | None = None,
          real_share: float = 0.5, init: Path | None = None, unturned_only: bool = False,
          rotate: float = 0.0, one_per_source: bool = False, batch: int = 6,
          stretch: float | None = None, clutter_share: float = 0.0, standing_share: float = 0.0,
          max_lr: float = MAX_LR, busy_share: float = 0.0, seed: int = 0, width: float = 1.0,
          device: str = "cpu", workers: int = 0, minutes: float | None = None, faults: float = 0.0) -> None:
    """From ``start`` (``initial_net``'s network of ``width`` and whether its norms stay frozen),
    generate ``scenes`` scenes, train for ``steps`` steps on ``device`` (windows zoomed by ``zoom``,
    see ``_window``; cut in ``workers`` processes, or in this one when 0; with ``minutes``, only as
    many as fit that time, see ``fit``), export ONNX to ``out``,
    its sidecar (.json, ``sidecar``) and the weights beside it (.pt)."""
    import torch

    net, frozen_norms = start
    images, masks = _examples(scenes, cache, clutter_share, standing_share, busy_share)
    draw = None
    if real_folds:
        real_images, real_masks = real_examples(real_folds, unturned_only, one_per_source)
        print(f"{len(real_images)} real photos", file=sys.stderr, flush=True)
        if images and real_images:  # ``real_share`` of the windows from real photos, whatever the counts
            draw = np.concatenate([np.full(len(images), (1 - real_share) / len(images)),
                                   np.full(len(real_images), real_share / len(real_images))])
        images, masks = images + real_images, masks + real_masks
    weights = torch.tensor([1.0, 2.0, 4.0], device=device)
    torch.manual_seed(seed)
    options = dict(size=batch, zoom=zoom, weights=draw, rotate=rotate, stretch=stretch, faults=faults)
    batches = (parallel_batches(images, masks, seed, workers, **options) if workers
               else _batches(images, masks, np.random.default_rng(seed), **options))
    steps = fit(net, batches, steps,
        lambda logits, y: torch.nn.functional.cross_entropy(logits, y, weight=weights,
                                                            ignore_index=IGNORE),
        25, lambda loss: f"loss {loss:.4f}", frozen_norms=frozen_norms, max_lr=max_lr, device=device,
        seconds=minutes * 60 if minutes else None)
    with atomic_path(out.with_suffix(".pt")) as temp:
        torch.save(net.state_dict(), temp)
    net.eval()
    dummy = torch.zeros(1, 3, 480, 640)
    with atomic_path(out) as temp:  # the default out is the shipped model: never leave it half written
        torch.onnx.export(
            net, dummy, str(temp), input_names=["image"], output_names=["logits"],
            dynamic_axes={"image": {2: "h", 3: "w"}, "logits": {2: "h2", 3: "w2"}}, opset_version=17,
            dynamo=False,
        )
    from fanscan.datasets.real_tables import HELD_OUT_FOLD

    record = {
        "fine_tuned_from": init.name if init else None,
        "steps": steps,
        "scenes": scenes,
        "scene_seeds": [TRAIN_SEED_BASE, TRAIN_SEED_BASE + scenes],
        "real_folds": real_folds or [],
        "real_photos": len(images) - scenes if real_folds else 0,
        "real_share": real_share if real_folds else 0.0,
        "real_unturned_only": unturned_only,
        "real_one_per_source": one_per_source,
        "batch": batch,
        "held_out_fold": HELD_OUT_FOLD if real_folds else None,
        "zoom": list(zoom) if zoom else None,
        "rotate": rotate,
        "stretch": stretch,
        "camera_faults": faults,
        "clutter_share": clutter_share,
        "standing_share": standing_share,
        "busy_share": busy_share,
        "max_lr": max_lr,
        "seed": seed,
        "width": width,
        "window_workers": workers,
        "minutes_allowed": minutes,
        "trained": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    write_text_atomic(out.with_suffix(".json"), json.dumps(sidecar(record), indent=2) + "\n")
    print(f"wrote {out}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=800)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("tile_finder.onnx"))
    parser.add_argument("--cache", type=Path, help="an .npz keeping the generated scenes for reruns")
    parser.add_argument("--init", type=Path, help="start from these weights: a .pt of an earlier run, or an .onnx such as the shipped model")
    parser.add_argument("--zoom", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        help="show half of the training windows zoomed by a factor between these (e.g. 0.7 2)")
    parser.add_argument("--real-folds", type=lambda t: [int(f) for f in t.split(",") if f],
                        help="also train on the real table photos of these source folds (e.g. 0,1,2,3)")
    parser.add_argument("--unturned-only", action="store_true",
                        help="with --real-folds: only the versions the augmentation did not turn")
    parser.add_argument("--real-share", type=float, default=0.5,
                        help="with --real-folds: share of the training windows cut from real photos "
                        "(default 0.5)")
    parser.add_argument("--one-per-source", action="store_true",
                        help="with --real-folds: each source's least turned version only, turned back")
    parser.add_argument("--batch", type=int, default=6, help="training windows a step (default 6)")
    parser.add_argument("--clutter-share", type=float, default=0.0, metavar="SHARE",
                        help="share of the generated scenes laid on a table with walls and discards "
                             "(0-1, default 0)")
    parser.add_argument("--standing-share", type=float, default=0.0, metavar="SHARE",
                        help="share of the generated scenes showing a hand standing mid-game "
                             "(0-1, default 0)")
    parser.add_argument("--busy-share", type=float, default=0.0, metavar="SHARE",
                        help="share of the generated scenes on a rubber or puzzle mat or a photographed "
                             "top, with a rack, dice, coins, a phone or fingers about (0-1, default 0)")
    parser.add_argument("--stretch", type=float, metavar="RATIO",
                        help="foreshorten half of the training windows: one axis scaled against the "
                        "other by up to this ratio (e.g. 2; at most 4)")
    parser.add_argument("--rotate", type=float, default=0.0, metavar="DEGREES",
                        help="turn half of the training pictures by up to this many degrees either "
                        "way (at most 45; default 0: quarter turns and flips only)")
    parser.add_argument("--camera-faults", type=float, default=0.0, metavar="SHARE",
                        help="share of the training windows seen over-exposed, hazy, out of focus, shaken "
                             "or dim (photo_effects.random_camera_fault; 0-1, default 0)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the training windows' draws (default 0): two seeds of one recipe "
                             "tell its effect from a run's luck")
    parser.add_argument("--max-lr", type=float, default=MAX_LR, metavar="RATE",
                        help=f"peak learning rate of the one-cycle schedule (default {MAX_LR:g}; lower "
                             "to fine-tune the shipped model gently)")
    parser.add_argument("--width", type=float, default=1.0,
                        help="scale every layer's channels (default 1: the shipped net; another width "
                             "starts fresh or from a .pt of that width)")
    parser.add_argument("--device", default="cpu",
                        help="torch device to train on (default cpu; e.g. cuda)")
    parser.add_argument("--workers", type=int, default=0,
                        help="processes cutting the training windows (default 0: this one; a GPU "
                             "needs several to be kept busy)")
    parser.add_argument("--minutes", type=float, metavar="MINUTES",
                        help="train at most this long: the schedule is shrunk to the steps that fit, "
                             "timed on the first few (a lent machine's limit; default: no limit)")
    args = parser.parse_args(argv)
    if args.minutes is not None and not args.minutes > 0:
        parser.error("--minutes must be above 0")
    if not 0 < args.width <= 4:
        parser.error("--width must lie between 0 and 4")
    if args.workers < 0:
        parser.error("--workers must be 0 or more")
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    if not args.max_lr > 0:
        parser.error("--max-lr must be above 0")
    if args.seed < 0:
        parser.error("--seed must be 0 or more")
    if args.unturned_only and args.one_per_source:
        parser.error("--unturned-only and --one-per-source choose the versions two ways: give one")
    if args.stretch is not None and not 1 <= args.stretch <= 4:
        parser.error("--stretch: RATIO must lie between 1 and 4")
    if not 0 <= args.rotate <= 45:
        parser.error("--rotate: DEGREES must lie between 0 and 45")
    if args.zoom is not None and not 0.55 <= args.zoom[0] <= args.zoom[1] <= 4:
        parser.error("--zoom: LOW and HIGH must satisfy 0.55 <= LOW <= HIGH <= 4")
    if not 0 < args.real_share < 1:
        parser.error("--real-share must lie between 0 and 1")
    for name in ("clutter_share", "standing_share", "busy_share", "camera_faults"):
        if not 0 <= getattr(args, name) <= 1:
            parser.error(f"--{name.replace('_', '-')} must lie between 0 and 1")
    if args.real_folds:
        from fanscan.datasets.real_tables import FOLDS, HELD_OUT_FOLD

        allowed = sorted(set(range(FOLDS)) - {HELD_OUT_FOLD})
        if not set(args.real_folds) <= set(allowed):
            parser.error(f"--real-folds: only folds {', '.join(map(str, allowed))} "
                         f"(fold {HELD_OUT_FOLD} is held out for the benchmark)")
    try:
        start = initial_net(args.init, args.width)  # a bad --init fails here, not after the scenes are rendered
    except (OSError, ValueError) as error:
        parser.error(f"--init {args.init}: {error}")
    except ImportError as error:
        parser.error(f"{NEEDS_TRAIN_EXTRA}: {error}")
    device_problem = unusable_device(args.device)
    if device_problem:
        parser.error(f"--device {args.device}: {device_problem}")
    train(start, args.scenes, args.steps, args.out, args.cache, tuple(args.zoom) if args.zoom else None,
          args.real_folds, args.real_share, args.init, args.unturned_only, args.rotate,
          args.one_per_source, args.batch, args.stretch, args.clutter_share, args.standing_share,
          args.max_lr, args.busy_share, args.seed, args.width, args.device, args.workers, args.minutes,
          args.camera_faults)
    return 0


if __name__ == "__main__":
    sys.exit(main())
