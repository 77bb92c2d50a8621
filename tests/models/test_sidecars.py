"""Every shipped ONNX model lies in ``models/`` with a JSON sidecar beside it that says what goes
in and how it was trained; ``vision/`` holds only the runtime reader (no model files, no training
code)."""

from __future__ import annotations

import json
from pathlib import Path

import fanscan.models
import fanscan.vision
import onnxruntime as ort
import pytest
from fanscan.models import train_finder, train_refiner
from fanscan.vision import finder, refine

MODELS = Path(fanscan.models.__file__).resolve().parent
VISION = Path(fanscan.vision.__file__).resolve().parent
SHIPPED = sorted(MODELS.rglob("*.onnx"))
SHARED_KEYS = {"input", "training"}
"""The keys every sidecar holds (the classifiers' and the finder's also hold ``format_version``
and ``output``; the numeral reader's, the oldest, not)."""


def test_the_shipped_models_are_found() -> None:
    names = {path.name for path in SHIPPED}
    assert {"tile_classifier.onnx", "tile_finder.onnx", "box_refiner.onnx"} <= names
    for path in (finder.MODEL_PATH, refine.MODEL_PATH):
        assert path.parent == MODELS
        assert path.is_file()


@pytest.mark.parametrize("model", SHIPPED, ids=lambda path: path.name)
def test_every_shipped_model_has_a_sidecar_naming_its_input(model: Path) -> None:
    path = model.with_suffix(".json")
    assert path.is_file(), f"{model.name} has no sidecar {path.name}"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert set(record) >= SHARED_KEYS, f"{path.name} lacks {sorted(SHARED_KEYS - set(record))}"
    assert isinstance(record["training"], dict)
    assert record["training"]
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    assert record["input"]["name"] == session.get_inputs()[0].name
    if "output" in record:
        assert session.get_outputs()[0].name == record["output"]["name"]


def test_vision_holds_no_model_and_no_training_code() -> None:
    assert not sorted(VISION.rglob("*.onnx"))
    assert not sorted(VISION.rglob("train*.py"))


@pytest.mark.parametrize(("module", "model"), [(train_finder, finder.MODEL_PATH),
                                               (train_refiner, refine.MODEL_PATH)],
                         ids=["finder", "refiner"])
def test_the_training_scripts_write_the_shipped_sidecars_shape(module, model: Path) -> None:
    shipped = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    written = module.sidecar({})
    assert set(written) == set(shipped)
    assert written["input"] == shipped["input"]
    assert written["output"] == shipped["output"]


def test_the_training_scripts_write_the_shipped_models_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--out`` defaults to the model the reader loads (its sidecar is written beside it)."""
    seen = {}
    monkeypatch.setattr(train_refiner, "train", lambda *args, **_: seen.update(refiner=args[2]))
    train_refiner.main(["--scenes", "1"])
    monkeypatch.setattr(train_finder, "initial_net", lambda _init, _width=1.0: None)
    monkeypatch.setattr(train_finder, "train", lambda *args: seen.update(finder=args[3]))
    train_finder.main(["--scenes", "1"])
    assert {name: out.resolve() for name, out in seen.items()} == {"refiner": refine.MODEL_PATH,
                                                                    "finder": finder.MODEL_PATH}
