"""The numeral reader trains end to end on a few rendered patches and exports a model the
reader loads."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from fanscan.datasets import numeral_patches  # noqa: E402
from fanscan.datasets.composed_faces import available_fonts as cjk_fonts  # noqa: E402
from fanscan.models import train_numerals  # noqa: E402
from fanscan.vision.numerals import NumeralReader  # noqa: E402

needs_fonts = pytest.mark.skipif(not numeral_patches.latin_fonts() or not cjk_fonts(),
                                 reason="needs a Latin and a CJK font")


@needs_fonts
def test_train_numerals_end_to_end_writes_a_loadable_model(tmp_path) -> None:
    out = tmp_path / "numerals.onnx"
    assert train_numerals.main(["--patches", "120", "--steps", "4", "--threads", "1", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["classes"] == list(numeral_patches.CLASSES) and meta["training"]["steps"] == 4
    evidence = NumeralReader(out).number_probabilities([np.full((128, 96, 3), 230, np.uint8)])
    assert evidence.shape == (1, 4) and np.all((evidence >= 0) & (evidence <= 1))
    assert meta["input"]["name"] == "band" and meta["input"]["stride"] == train_numerals.WINDOW_STRIDE


def test_band_net_reads_a_patch_as_the_patch_net_and_a_band_as_a_map_of_windows() -> None:
    torch.manual_seed(0)
    net = train_numerals.numeral_net().eval()
    with torch.no_grad():
        for module in net.modules():  # batch norms with statistics of their own
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 2.0)
        band = train_numerals.band_net(net).eval()
        patches = torch.rand(3, 1, 32, 32)
        torch.testing.assert_close(band(patches)[:, :, 0, 0], net(patches), rtol=1e-4, atol=1e-5)
        wide = band(torch.rand(2, 1, 48, 72))
    stride = train_numerals.WINDOW_STRIDE
    assert wide.shape == (2, len(numeral_patches.CLASSES), (48 - 32) // stride + 1, (72 - 32) // stride + 1)


@needs_fonts
def test_numeral_patches_are_deterministic_and_cover_every_class() -> None:
    a, labels = numeral_patches.generate(40, seed=5)
    b, again = numeral_patches.generate(40, seed=5)
    assert np.array_equal(a, b) and np.array_equal(labels, again)
    assert a.shape == (40, numeral_patches.PATCH, numeral_patches.PATCH) and a.dtype == np.uint8
    assert set(labels.tolist()) == set(range(len(numeral_patches.CLASSES)))
    c, _ = numeral_patches.generate(40, seed=6)
    assert not np.array_equal(a, c)


def test_numeral_patches_none_windows_from_rendered_crops_are_reader_windows() -> None:
    from fanscan.datasets.tile_art import available_styles

    if not any(style in available_styles() for style in numeral_patches.UNNUMBERED_STYLES):
        pytest.skip("no Debian tile art installed")
    a = numeral_patches._crop_window(np.random.default_rng(4))
    b = numeral_patches._crop_window(np.random.default_rng(4))
    assert a.shape == (numeral_patches.PATCH, numeral_patches.PATCH) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert a.std() > 0  # a piece of a photographed tile, not a blank


def test_train_numerals_bad_requests_are_one_line_errors(tmp_path, monkeypatch, capsys) -> None:
    assert train_numerals.main(["--out", str(tmp_path / "absent" / "m.onnx")]) == 1
    assert capsys.readouterr().err.strip().count("\n") == 0
    with pytest.raises(SystemExit) as exit_info:
        train_numerals.main(["--patches", "0"])
    assert exit_info.value.code == 2
    capsys.readouterr()  # argparse's usage lines
    monkeypatch.setattr(train_numerals, "latin_fonts", lambda: ())
    assert train_numerals.main(["--out", str(tmp_path / "m.onnx")]) == 1
    err = capsys.readouterr().err
    assert "fonts-freefont-ttf" in err and err.strip().count("\n") == 0
    assert not (tmp_path / "m.onnx").exists()


def _bag(windows: int, reads: dict[int, np.ndarray]) -> "torch.Tensor":
    """Class probabilities (windows, 5) of one crop: every window reads none, but the windows
    in ``reads``, which read the given distributions."""
    import torch

    probs = np.tile(np.float32([1, 0, 0, 0, 0]), (windows, 1))
    for window, row in reads.items():
        probs[window] = row
    return torch.from_numpy(probs)


def test_bag_loss_rewards_one_window_reading_the_number_and_punishes_another_number() -> None:
    import torch

    sure_three = np.float32([0, 0, 0, 1, 0])
    sure_two = np.float32([0, 0, 1, 0, 0])
    numbers = torch.tensor([3])
    found = train_numerals.bag_loss(_bag(9, {4: sure_three})[None], numbers)
    nothing = train_numerals.bag_loss(_bag(9, {})[None], numbers)
    other = train_numerals.bag_loss(_bag(9, {4: sure_three, 7: 0.5 * sure_two + 0.5 * sure_three})[None], numbers)
    assert float(found) == pytest.approx(0.0, abs=1e-4)
    # A set that prints no numeral costs only the prior's -log, never forces a window.
    assert float(nothing) == pytest.approx(-np.log(train_numerals.PRINTED_NONE), rel=1e-4)
    assert float(other) > float(found) + 0.5  # a window half sure of a 2 on a 3
    # Each crop is judged by its own number.
    both = train_numerals.bag_loss(torch.stack([_bag(9, {1: sure_three}), _bag(9, {1: sure_two})]),
                                   torch.tensor([3, 2]))
    assert float(both) == pytest.approx(0.0, abs=1e-4)


@needs_fonts
def test_train_numerals_learns_real_flower_bags_and_says_so_in_the_sidecar(tmp_path, monkeypatch) -> None:
    from fanscan.datasets.real_numerals import bags_of

    rng = np.random.default_rng(2)
    crops = [rng.integers(150, 255, (120, 90, 3), dtype=np.uint8) for _ in range(10)]
    bags = bags_of(crops, ["1f", "6f"] * 5, [f"photo{i // 2}.jpg" for i in range(10)], numeral_patches.PATCH)
    monkeypatch.setattr(train_numerals, "real_flower_bags", lambda folds, patch, progress=None: bags)
    out = tmp_path / "numerals.onnx"
    assert train_numerals.main(["--patches", "120", "--steps", "3", "--threads", "1", "--real-folds", "0,1",
                                "--out", str(out)]) == 0
    real = json.loads(out.with_suffix(".json").read_text())["training"]["real_flowers"]
    assert real["folds"] == [0, 1] and real["crops"] == 10 and real["photos"] == 5


def test_train_numerals_without_real_flowers_is_a_one_line_error(tmp_path, monkeypatch, capsys) -> None:
    from fanscan.datasets.real_numerals import bags_of

    if not numeral_patches.latin_fonts() or not cjk_fonts():
        pytest.skip("needs a Latin and a CJK font")
    monkeypatch.setattr(train_numerals, "real_flower_bags",
                        lambda folds, patch, progress=None: bags_of([], [], [], patch))
    assert train_numerals.main(["--real-folds", "0", "--out", str(tmp_path / "m.onnx")]) == 1
    err = capsys.readouterr().err
    assert "no real flowers" in err and err.strip().count("\n") == 0
    with pytest.raises(SystemExit):
        train_numerals.main(["--real-folds", "a,b"])
    with pytest.raises(SystemExit) as exit_info:  # the benchmark's held-out fold is never learnt
        train_numerals.main(["--real-folds", "0,4"])
    assert exit_info.value.code == 2 and "held out" in capsys.readouterr().err
