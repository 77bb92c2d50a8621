"""Training batches: real crops keep their share when extra crops come as a pool of their own."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from fanscan.datasets.formats.crops import CropRow, format_crops
from fanscan.models.data import ArraySet
from fanscan.models.train import TrainConfig, _batch, _by_class, _split_real
from fanscan.vision.preprocess import PreprocessSpec

SPEC = PreprocessSpec()


def _pool(labels: list[int]) -> ArraySet:
    images = np.full((len(labels), SPEC.height, SPEC.width, 3), 128, np.uint8)
    return ArraySet(images, np.array(labels, np.int64))


def _crop_folder(root: Path, codes: list[str]) -> Path:
    rows = []
    for i, code in enumerate(codes):
        (root / code).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / code / f"{i}.png"), np.full((40, 30, 3), 200, np.uint8))
        rows.append(CropRow(f"{code}/{i}.png", code))
    (root / "labels.csv").write_text(format_crops(rows), encoding="utf-8")
    return root


@pytest.mark.parametrize("extra_fraction", [0.0, 0.2, 0.3])
def test_train_batch_draws_each_pool_its_share(extra_fraction: float) -> None:
    # Labels tell the pools apart: synthetic 0, real 1 and 2, extra 3.
    synth, real, extra = _pool([0] * 50), _pool([1] * 5 + [2] * 5), _pool([3] * 400)
    config = TrainConfig(batch=50, real_fraction=0.6, extra_fraction=extra_fraction,
                         use_real=False, spec=SPEC)
    _, labels = _batch(real, _by_class(real.labels), synth, config, np.random.default_rng(0),
                       extra, _by_class(extra.labels))
    counts = np.bincount(labels.numpy(), minlength=4)
    assert counts[1] + counts[2] == 30
    assert counts[3] == round(50 * extra_fraction)
    assert counts[0] == 50 - 30 - counts[3]


def test_train_batch_extra_crops_pool_apart_only_with_a_fraction(tmp_path: Path) -> None:
    folder = _crop_folder(tmp_path / "scenes", ["1m", "P", "back"])
    pooled = _split_real(TrainConfig(use_real=False, extra_crops=(folder,)))
    apart = _split_real(TrainConfig(use_real=False, extra_crops=(folder,), extra_fraction=0.2))
    held = _split_real(TrainConfig(use_real=False, extra_crops=(folder,), extra_fraction=0.2,
                                   hold_out=("scenes",)))
    assert [len(part) for part in pooled] == [3, 0, 0]
    assert [len(part) for part in apart] == [0, 0, 3]
    assert [len(part) for part in held] == [0, 3, 0]
    assert {crop.code for crop in apart[2]} == {"1m", "P", "back"}


def _no_tile_folder(root: Path, n: int, label: str = "none") -> Path:
    (root / "none").mkdir(parents=True, exist_ok=True)
    rows = []
    for i in range(n):
        cv2.imwrite(str(root / "none" / f"{i}.png"), np.full((50, 40, 3), 90, np.uint8))
        rows.append(f"none/{i}.png,{label}")
    (root / "labels.csv").write_text("file,label\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return root


def test_train_batch_draws_its_share_of_no_tile_crops_from_every_source_alike(tmp_path: Path) -> None:
    from fanscan.models.data import no_tile_set
    from fanscan.scoring.tiles import CLASSIFIER_LABELS, NO_TILE

    big, small = _no_tile_folder(tmp_path / "big", 300), _no_tile_folder(tmp_path / "small", 3)
    none, sources = no_tile_set([big, small], SPEC)
    assert len(none) == 303 and [len(s) for s in sources] == [300, 3]
    assert set(none.labels.tolist()) == {CLASSIFIER_LABELS.index(NO_TILE)}
    synth, real = _pool([0] * 50), _pool([1] * 10)
    config = TrainConfig(batch=100, real_fraction=0.5, no_tile_crops=(big, small), no_tile_fraction=0.2,
                         use_real=False, spec=SPEC)
    assert config.labels == CLASSIFIER_LABELS
    _, labels = _batch(real, _by_class(real.labels), synth, config, np.random.default_rng(0),
                       none=none, none_sources=sources)
    counts = np.bincount(labels.numpy(), minlength=len(CLASSIFIER_LABELS))
    assert counts[CLASSIFIER_LABELS.index(NO_TILE)] == 20 and counts[1] == 50 and counts[0] == 30


def test_no_tile_set_refuses_a_folder_labelled_otherwise(tmp_path: Path) -> None:
    from fanscan.errors import FanscanError
    from fanscan.models.data import no_tile_set

    with pytest.raises(FanscanError, match="line 2"):
        no_tile_set([_no_tile_folder(tmp_path / "x", 2, label="5p")], SPEC)
    with pytest.raises(FanscanError, match="labels.csv"):
        no_tile_set([tmp_path / "missing"], SPEC)


def test_a_checkpoint_of_43_classes_grows_the_no_tile_class() -> None:
    from fanscan.models.net import TileNet
    from fanscan.models.train import _grown_head

    old = TileNet(43).state_dict()
    grown = _grown_head(old, 44)
    net = TileNet(44)
    net.load_state_dict(grown)
    assert torch.equal(net.head[3].weight[:43], old["head.3.weight"])
    assert torch.count_nonzero(net.head[3].weight[43]) == 0
    assert float(net.head[3].bias[43].detach()) == float(old["head.3.bias"].min())
    assert _grown_head(old, 43) is old


def test_train_batch_sees_the_real_crops_under_other_exposures_only_when_asked() -> None:
    synth, real = _pool([0] * 20), _pool([1] * 4 + [2] * 4)
    real.images[:, 40:80, 20:70] = 30  # a dark stroke on the mid-grey body
    def batch(exposure: float) -> np.ndarray:
        config = TrainConfig(batch=20, real_fraction=0.5, use_real=False, spec=SPEC, exposure_fraction=exposure)
        x, _ = _batch(real, _by_class(real.labels), synth, config, np.random.default_rng(3))
        return x.numpy()
    plain, again, exposed = batch(0.0), batch(0.0), batch(1.0)
    assert np.array_equal(plain, again)
    assert np.array_equal(plain[:10], exposed[:10])  # the synthetic half is drawn first, as before
    spread = lambda x: np.percentile(x, 95, axis=(1, 2, 3)) - np.percentile(x, 5, axis=(1, 2, 3))
    assert not np.allclose(spread(plain[10:]), spread(exposed[10:]))  # the real half seen otherwise
