"""The numeral reader trains end to end on a few rendered patches and exports a model the
reader loads."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")
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
