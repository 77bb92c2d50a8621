"""Averaging fine-tuned classifiers: the mean of the weights, refused across starts or faces."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from fanscan.errors import FanscanError
from fanscan.models.average import averaged_record

RECORD = {"fine_tuned_from": "tile_classifier.onnx", "classes": ["1f", "2f"], "seed": 0,
          "held_out_accuracy": {"rf-fold4": 0.8}, "steps": 800}


def _sidecar(**training: object) -> dict:
    return {"labels": ["1f", "2f", "back"], "training": {**RECORD, **training}}


def test_average_record_keeps_what_the_runs_share_and_each_runs_own() -> None:
    record = averaged_record([_sidecar(extra_crops=["rf"]),
                              _sidecar(seed=1, extra_crops=["rf", "scenes"])],
                             [Path("a.onnx"), Path("b.onnx")])
    assert record["steps"] == 800 and record["classes"] == ["1f", "2f"]
    assert not {"seed", "held_out_accuracy", "extra_crops"} & set(record)
    assert record["averaged_from"] == [
        {"model": "a.onnx", "seed": 0, "held_out_accuracy": {"rf-fold4": 0.8}, "extra_crops": ["rf"]},
        {"model": "b.onnx", "seed": 1, "held_out_accuracy": {"rf-fold4": 0.8}, "extra_crops": ["rf", "scenes"]},
    ]


@pytest.mark.parametrize(("other", "message"), [
    ({"labels": ["1f", "2f", "3f"], "training": RECORD}, "answers other faces"),
    (_sidecar(classes=[]), "taught the faces"),
])
def test_average_refuses_runs_whose_weights_do_not_line_up(other: dict, message: str) -> None:
    with pytest.raises(FanscanError, match=message):
        averaged_record([_sidecar(), other], [Path("a.onnx"), Path("b.onnx")])


@pytest.mark.train
def test_average_of_a_model_with_itself_answers_as_it_does(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models.average import main
    from fanscan.vision.classifier import DEFAULT_MODEL, TileClassifier

    copies = []
    for name in ("a", "b"):
        shutil.copy(DEFAULT_MODEL, tmp_path / f"{name}.onnx")
        shutil.copy(DEFAULT_MODEL.with_suffix(".json"), tmp_path / f"{name}.json")
        copies.append(str(tmp_path / f"{name}.onnx"))
    assert main([*copies, "--out", str(tmp_path / "mean.onnx")]) == 0
    crops = [np.random.default_rng(k).integers(0, 255, (120, 90, 3), np.uint8) for k in range(4)]
    np.testing.assert_allclose(TileClassifier(tmp_path / "mean.onnx").one_look(crops),
                               TileClassifier(DEFAULT_MODEL).one_look(crops), atol=1e-5)
    written = json.loads((tmp_path / "mean.json").read_text(encoding="utf-8"))
    assert [run["model"] for run in written["training"]["averaged_from"]] == ["a.onnx", "b.onnx"]


def test_average_asks_for_two_models(capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models.average import main

    with pytest.raises(SystemExit) as exit_info:
        main(["a.onnx", "--out", "c.onnx"])
    assert exit_info.value.code == 2 and "at least two" in capsys.readouterr().err


@pytest.mark.train
def test_average_says_in_one_line_that_a_file_is_no_model(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models.average import main
    from fanscan.vision.classifier import DEFAULT_MODEL

    for name in ("a", "b"):
        (tmp_path / f"{name}.onnx").write_bytes(b"not a model")
        shutil.copy(DEFAULT_MODEL.with_suffix(".json"), tmp_path / f"{name}.json")
    assert main([str(tmp_path / "a.onnx"), str(tmp_path / "b.onnx"), "--out", str(tmp_path / "c.onnx")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error:") and err.count("\n") == 1
    assert not (tmp_path / "c.onnx").exists()


@pytest.mark.train
def test_average_refuses_networks_started_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models.average import main
    from fanscan.models.export import export
    from fanscan.models.net import TileNet
    from fanscan.vision.classifier import DEFAULT_MODEL
    from fanscan.vision.preprocess import PreprocessSpec

    sidecar = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    torch.manual_seed(7)
    fresh = TileNet(len(sidecar["labels"])).eval()
    for norm in (m for m in fresh.modules() if isinstance(m, torch.nn.BatchNorm2d)):
        # Statistics of their own: a fresh net's equal folded biases come out shared in the graph.
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.bias.data.uniform_(-0.1, 0.1)
    export(fresh, PreprocessSpec.from_json(sidecar["input"]), tmp_path / "fresh.onnx", sidecar["training"],
           sidecar["labels"])
    assert main([str(DEFAULT_MODEL), str(tmp_path / "fresh.onnx"), "--out", str(tmp_path / "c.onnx")]) == 1
    err = capsys.readouterr().err
    assert "do not line up" in err and err.count("\n") == 1 and not (tmp_path / "c.onnx").exists()
