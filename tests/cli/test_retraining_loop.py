"""The whole retraining loop on a few photos: pre-label, correct (in the labelling tool's API and
with the referee page's "Save as labelled data"), export crops, ``fanscan train --extra-crops``
for a few steps with that set held out, and the new model loaded by ``fanscan classify``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from fanscan.cli import main
from fanscan.datasets.labels import label_path, load_labels
from fanscan.datasets.tile_art import available_styles

pytestmark = [pytest.mark.train, pytest.mark.slow]

SAMPLE = Path(__file__).resolve().parents[2] / "vision" / "samples" / "sample_hand.jpg"


@pytest.fixture
def font_style() -> str:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("fastapi")
    pytest.importorskip("python_multipart")
    style = next((s for s in available_styles() if s.startswith("font-")), None)
    if style is None:
        pytest.skip("no Unicode mahjong font installed")
    return style


def _client(folder: Path, saved: Path) -> Any:
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    return TestClient(create_app(labelling_dir=folder, save_labelled_dir=saved))


def test_prelabel_correct_export_train_classify(
    tmp_path: Path, font_style: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from fanscan.datasets.scenes import generate_scene

    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copy(SAMPLE, photos / "sample.jpg")
    (photos / "scene.jpg").write_bytes(generate_scene(3, size=(800, 600)).jpeg)

    # 1. pre-label
    assert main(["label", str(photos), "--prelabel", "--workers", "1"]) == 0
    sample = load_labels(label_path(photos / "sample.jpg"))
    assert len(sample.tiles) >= 10 and {t.source for t in sample.tiles} == {"model"}

    # 2. correct: a person fixes a tile in the labelling tool and accepts both photos; the
    # referee page keeps its own corrected reading of the sample in the same folder
    with _client(photos, photos) as client:
        for image in ("sample.jpg", "scene.jpg"):
            labels = client.get("/api/label/labels", params={"image": image}).json()
            if image == "sample.jpg":
                labels["tiles"][0].update(code="C", source="person", confidence=1.0)
            labels["status"] = "reviewed"
            assert client.put("/api/label/labels", params={"image": image}, json=labels).status_code == 200
        reading = json.loads(_read_json(SAMPLE))
        tiles = [{"code": t["code"], "box": t["box"], "confidence": t["confidence"],
                  "corrected": False} for t in reading["tiles"]]
        tiles[1].update(code="7p", corrected=True)  # the referee's (deliberately odd) correction
        response = client.post("/api/labelled", data={"tiles": json.dumps(tiles)},
                               files={"photo": ("IMG_1.jpg", SAMPLE.read_bytes(), "image/jpeg")})
        assert response.status_code == 201, response.text
    referee = response.json()["image"]
    assert referee == f"referee-{hashlib.sha256(SAMPLE.read_bytes()).hexdigest()[:16]}.jpg"

    # 3. export crops: the referee's save is a reviewed photo like the others
    crops = tmp_path / "my_tiles"
    assert main(["export", str(photos), "--format", "crops", "--out", str(crops)]) == 0
    rows = (crops / "labels.csv").read_text(encoding="utf-8").splitlines()[1:]
    stem = Path(referee).stem
    from_referee = [row for row in rows if Path(row.split(",")[0]).name.startswith(stem)]
    assert len(from_referee) == len(tiles)
    assert any(row.endswith(",7p") for row in from_referee)
    assert len(rows) > len(tiles) + 10  # and the two photos corrected in the labelling tool

    # 4. train a few steps on them, the set held out whole for the report; --out left out
    shipped = Path(__import__("fanscan.models", fromlist=["x"]).__file__).parent / "tile_classifier.onnx"
    shipped_digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    work = tmp_path / "work"
    capsys.readouterr()
    argv = ["train", "--extra-crops", str(crops), "--hold-out", "my_tiles", "--steps", "2",
            "--batch", "8", "--synth", "24", "--styles", font_style, "--no-real", "--threads", "1",
            "--work-dir", str(work)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "held-out my_tiles:" in printed
    [model] = tmp_path.glob("tile_classifier-*.onnx")  # beside the work folder
    assert f"wrote {model}" in printed
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == shipped_digest
    sidecar = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    assert sidecar["training"]["held_out_accuracy"].keys() == {"my_tiles"}
    assert sidecar["training"]["real_crops"] == 0  # held out whole: none of it trained on

    # 5. the new model reads crops
    crop = crops / from_referee[0].split(",")[0]
    assert main(["classify", str(crop), "--model", str(model), "--json", "--no-numerals"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    answer = json.loads(line)
    assert answer["file"] == str(crop) and 0 <= answer["confidence"] <= 1
    assert answer["code"] in sidecar["labels"]

    # a second run never replaces the first
    assert main(argv) == 0
    assert len(list(tmp_path.glob("tile_classifier-*.onnx"))) == 2


def _read_json(photo: Path) -> str:
    """What ``fanscan read PHOTO --json`` prints, as the referee page gets it from /api/read."""
    from fanscan.web.services import read_photo_json

    return json.dumps(read_photo_json(photo.read_bytes()))
