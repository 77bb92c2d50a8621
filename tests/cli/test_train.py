"""``fanscan train``: a tiny end-to-end run, and the message when the train extra is missing."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.tile_art import available_styles
from fanscan.scoring.tiles import CLASS_LABELS


@pytest.fixture
def font_style() -> str:
    """A Unicode-font art style to train on in seconds (skips without torch, onnx or the font)."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    style = next((s for s in available_styles() if s.startswith("font-")), None)
    if style is None:
        pytest.skip("no Unicode mahjong font installed")
    return style


@pytest.mark.slow
def test_train_tiny_run_writes_a_usable_model(tmp_path, capsys, font_style):
    style = font_style
    out = tmp_path / "tiny.onnx"
    argv = ["train", "--out", str(out), "--steps", "2", "--batch", "8", "--synth", "24",
            "--styles", style, "--no-real", "--threads", "1", "--work-dir", str(tmp_path)]
    assert main(argv) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    sidecar = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert tuple(sidecar["labels"]) == CLASS_LABELS
    assert sidecar["training"]["styles"] == [style] and sidecar["training"]["steps"] == 2

    from fanscan.vision.classifier import TileClassifier

    probs = TileClassifier(out).probabilities([np.zeros((50, 40, 3), np.uint8)])
    assert probs.shape == (1, len(CLASS_LABELS))


def test_train_classes_trains_a_specialist_on_those_faces_only(tmp_path, capsys, font_style):
    out = tmp_path / "flowers.onnx"
    argv = ["train", "--out", str(out), "--steps", "1", "--batch", "4", "--synth", "12",
            "--styles", font_style, "--no-real", "--threads", "1", "--work-dir", str(tmp_path),
            "--classes", "1f,2f", "--classes", "3f"]
    assert main(argv) == 0
    sidecar = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert sidecar["training"]["classes"] == ["1f", "2f", "3f"]
    labels = np.concatenate([np.load(path) for path in (tmp_path / "synth").glob("*.labels.npy")])
    assert {CLASS_LABELS[i] for i in labels} <= {"1f", "2f", "3f"} and len(labels) == 12


def test_train_unknown_class_is_an_error(capsys):
    assert main(["train", "--classes", "1f,9f"]) == 2
    err = capsys.readouterr().err
    assert "'9f'" in err and err.count("\n") == 1


def test_train_without_torch_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "fanscan.models.train", raising=False)
    assert main(["train", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert "fanscan[train]" in err and err.count("\n") == 1


def test_train_unknown_style_is_an_error(capsys):
    assert main(["train", "--styles", "pastel"]) == 1
    assert "'pastel'" in capsys.readouterr().err


def test_train_fine_tunes_from_a_checkpoint(tmp_path, capsys, font_style):
    style = font_style
    common = ["--steps", "1", "--batch", "4", "--synth", "8", "--styles", style, "--no-real",
              "--threads", "1", "--work-dir", str(tmp_path)]
    assert main(["train", "--out", str(tmp_path / "first.onnx"), *common]) == 0
    checkpoint = tmp_path / "checkpoints" / "first.pt"
    assert checkpoint.is_file()
    second = tmp_path / "second.onnx"
    assert main(["train", "--out", str(second), "--init", str(checkpoint), *common]) == 0
    sidecar = json.loads(second.with_suffix(".json").read_text(encoding="utf-8"))
    assert sidecar["training"]["fine_tuned_from"] == "first.pt"


def test_train_missing_checkpoint_is_an_error(tmp_path, capsys):
    assert main(["train", "--init", str(tmp_path / "none.pt")]) == 1
    assert "none.pt" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["broken.onnx", "broken.pt"])
def test_train_init_of_no_weights_is_one_line_before_any_rendering(name, tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models import train as train_module

    (tmp_path / name).write_bytes(b"not weights at all")
    rendered = []
    monkeypatch.setattr(train_module, "synthetic_set", lambda *a, **k: rendered.append(a))
    assert main(["train", "--init", str(tmp_path / name), "--out", str(tmp_path / "x.onnx")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"fanscan: error: --init {tmp_path / name}: not the tile classifier")
    assert err.count("\n") == 1 and rendered == []


def _write_crop_folder(folder, faces: dict) -> None:
    """A crop folder as `fanscan export --format crops` writes it: images plus labels.csv."""
    import cv2

    folder.mkdir()
    rows = ["file,label"]
    for n, (code, face) in enumerate(sorted(faces.items())[:6]):
        cv2.imwrite(str(folder / f"{n}.png"), face[:, :, :3])
        rows.append(f"{n}.png,{code}")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_train_takes_exported_crops_as_a_tile_set(tmp_path, capsys, font_style):
    from fanscan.datasets.tile_art import load_faces

    style = font_style
    _write_crop_folder(tmp_path / "my_set", load_faces(style))
    argv = ["train", "--out", str(tmp_path / "mine.onnx"), "--steps", "1", "--batch", "4",
            "--synth", "8", "--styles", style, "--no-real", "--threads", "1",
            "--work-dir", str(tmp_path), "--extra-crops", str(tmp_path / "my_set"),
            "--hold-out", "my_set"]
    assert main(argv) == 0
    assert "held-out my_set:" in capsys.readouterr().out


def test_train_crop_folder_without_labels_is_an_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["train", "--extra-crops", str(tmp_path / "empty")]) == 1
    err = capsys.readouterr().err
    assert "labels.csv" in err and err.count("\n") == 1


@pytest.mark.slow
def test_train_recipe_runs_every_stage_each_from_the_last(tmp_path, capsys, font_style):
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, load_table_photos
    from fanscan.datasets.scenes import SCENE_STYLES
    from fanscan.models import recipe

    if not set(SCENE_STYLES) & set(available_styles()):
        pytest.skip("no Debian tile art installed to generate scenes")
    out = tmp_path / "recipe.onnx"
    argv = ["train", "--recipe", "--recipe-scale", "0.002", "--out", str(out), "--batch", "8", "--synth", "8000",
            "--styles", font_style, "--no-real", "--threads", "1", "--work-dir", str(tmp_path)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    tables = bool(load_table_photos())
    ran = re.findall(r"^stage \d+ of \d+ ", printed, re.MULTILINE)
    assert len(ran) == len(recipe.STAGES) - (not tables) and f"wrote {out}" in printed
    # Two scene batches cut once, each with its finder and true-corner crops.
    cut = sorted((tmp_path / "recipe_scene_crops").iterdir())
    assert len(cut) == 2 and all((folder / "true" / "labels.csv").is_file() for folder in cut)
    sidecar = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    trained = sidecar["training"]
    last = recipe.STAGES[-1]  # the answer "none" is learnt with or without the real photos
    assert trained["steps"] == max(1, round(last.steps * 0.002)) and trained["synth_count"] == 16
    assert sidecar["labels"][-1] == "none" and trained["no_tile_fraction"] == last.no_tile_share
    assert {Path(folder).name for folder in trained["no_tile_crops"]} >= {"tables", "straddles", "no_tiles"}
    # The last stage: the one before and its runs from it, averaged; each run its own seed.
    runs = trained["averaged_from"]
    assert [run["model"] for run in runs] == [f"recipe-stage{recipe.STAGES[-2].name}.onnx"] + [
        f"recipe-stage{last.name}-run{k}.onnx" for k in range(1, last.runs + 1)]
    assert [run["seed"] for run in runs] == [0, *range(1, last.runs + 1)]
    assert {run["fine_tuned_from"] for run in runs[1:]} == {f"recipe-stage{recipe.STAGES[-2].name}.pt"}
    if tables:  # the last three stages train on real table crops, their held-out fold kept out
        assert runs[0]["fine_tuned_from"] == f"recipe-stage{recipe.STAGES[-3].name}.pt"
        assert trained["extra_fraction"] == last.real_tables_share and len(trained["extra_crops"]) == 5
        assert trained["hold_out"] == [f"rf-fold{HELD_OUT_FOLD}"]
        assert f"rf-fold{HELD_OUT_FOLD}" in trained["held_out_accuracy"]  # the mean's own figure
        assert "real" in {Path(folder).name for folder in trained["no_tile_crops"]}
    else:  # the real tables' stage is skipped, and the last ones learn "none" from generated crops alone
        assert "skipped, no real table photos" in printed and "without real table crops" in printed
        assert runs[0]["fine_tuned_from"] == f"recipe-stage{recipe.STAGES[-4].name}.pt"
        assert trained["extra_crops"] == []
    first = json.loads((tmp_path / "recipe" / f"recipe-stage{recipe.STAGES[0].name}.json").read_text())
    assert first["training"]["fine_tuned_from"] is None and first["training"]["extra_crops"] == []


def test_train_recipe_refuses_options_it_sets_itself(capsys):
    assert main(["train", "--recipe", "--steps", "5"]) == 2
    err = capsys.readouterr().err
    assert "--steps" in err and err.count("\n") == 1
    assert main(["train", "--recipe", "--recipe-scale", "0"]) == 2
    assert "--recipe-scale" in capsys.readouterr().err
    assert main(["train", "--recipe", "--classes", "1f,2f"]) == 2  # the recipe trains all 43 faces
    err = capsys.readouterr().err
    assert "--classes" in err and err.count("\n") == 1


def test_train_recipe_unknown_held_out_set_fails_before_any_long_work(tmp_path, capsys, font_style):
    argv = ["train", "--recipe", "--recipe-scale", "0.002", "--hold-out", "no-such-set", "--no-real",
            "--styles", font_style, "--work-dir", str(tmp_path), "--out", str(tmp_path / "r.onnx")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "'no-such-set'" in err and err.count("\n") == 1
    assert not (tmp_path / "recipe_scene_crops").exists()


def test_train_default_out_is_a_new_file_beside_the_work_folder(tmp_path):
    from fanscan.cli.train import default_out

    work = tmp_path / "work_data"
    first = default_out(work)
    assert first.parent == tmp_path and first.name.startswith("tile_classifier-")
    assert first.suffix == ".onnx" and not first.exists()
    first.write_bytes(b"model")
    second = default_out(work)
    assert second != first and second.parent == tmp_path and not second.exists()
    import fanscan.models

    shipped = Path(fanscan.models.__file__).resolve().parent
    assert shipped not in (first.parent, second.parent)


def test_train_from_the_shipped_model_keeps_its_no_tile_answer(tmp_path, capsys, font_style):
    # A user fine-tuning the shipped classifier on their own crops, with no crops of no tile.
    from fanscan.scoring.tiles import CLASSIFIER_LABELS
    from fanscan.vision.classifier import DEFAULT_MODEL, TileClassifier

    pytest.importorskip("onnx")
    out = tmp_path / "mine.onnx"
    assert main(["train", "--init", str(DEFAULT_MODEL), "--out", str(out), "--steps", "1", "--batch", "4",
                 "--synth", "8", "--styles", font_style, "--no-real", "--threads", "1",
                 "--work-dir", str(tmp_path)]) == 0
    assert tuple(json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["labels"]) == CLASSIFIER_LABELS
    assert TileClassifier(out).answers_no_tile
    # ...and its checkpoint starts the next run with the same 44 answers.
    again = tmp_path / "again.onnx"
    assert main(["train", "--init", str(tmp_path / "checkpoints" / "mine.pt"), "--out", str(again), "--steps", "1",
                 "--batch", "4", "--synth", "8", "--styles", font_style, "--no-real", "--threads", "1",
                 "--work-dir", str(tmp_path)]) == 0
    assert TileClassifier(again).answers_no_tile


def test_train_refuses_a_grey_share_outside_0_to_1(capsys):
    assert main(["train", "--grey-fraction", "1.5"]) == 2
    err = capsys.readouterr().err
    assert "--grey-fraction" in err and err.count("\n") == 1


def test_train_refuses_an_exposure_share_outside_0_to_1(capsys):
    assert main(["train", "--exposure-fraction", "-0.1"]) == 2
    err = capsys.readouterr().err
    assert "--exposure-fraction" in err and err.count("\n") == 1
