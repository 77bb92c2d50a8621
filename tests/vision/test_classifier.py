"""The shipped tile classifier: its labels, its reading of clean rendered faces, its interface."""

from __future__ import annotations

import json
import threading

import cv2
import numpy as np
import pytest

from fanscan.datasets import tile_art
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS, CLASSIFIER_LABELS, TILE_CODES
from fanscan.vision.classifier import DEFAULT_MODEL, TileClassifier, default_classifier

# Debian-packaged art that a fresh machine can install; the model never trains on exactly these
# clean, upright renders (only on augmented crops of them).
PACKAGED_STYLES = [s for s in ("xmahjongg-real", "kmahjongg-traditional", "gnome-smooth")
                   if s in tile_art.available_styles()]


def on_body(face: np.ndarray) -> np.ndarray:
    """A BGRA face on an ivory tile body, as a 75 x 100 BGR crop."""
    alpha = face[..., 3:].astype(np.float32) / 255
    body = np.float32([215, 235, 245])
    bgr = (face[..., :3] * alpha + body * (1 - alpha)).astype(np.uint8)
    return cv2.resize(bgr, (75, 100), interpolation=cv2.INTER_AREA)


def test_classifier_shipped_labels_are_the_contract_classes():
    sidecar = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    assert tuple(sidecar["labels"]) == CLASSIFIER_LABELS  # the contract's classes, then "none"
    assert default_classifier().labels == CLASS_LABELS
    assert default_classifier().answers_no_tile


@pytest.mark.skipif(not PACKAGED_STYLES, reason="no tile art packages installed")
def test_classifier_tells_faces_from_a_box_across_two_of_them():
    faces = tile_art.load_faces(PACKAGED_STYLES[0])
    codes = ["3m", "7p", "5s", "E", "C", "9s"]
    crops = [on_body(faces[code]) for code in codes]
    across = [np.hstack([a[:, 38:], b[:, :37]]) for a, b in zip(crops, crops[1:])]
    looked = default_classifier().looks(crops + across)
    assert (looked.no_tile[: len(crops)] < 0.2).all()
    assert (looked.no_tile[len(crops):] > 0.5).mean() >= 0.8


def test_classifier_shipped_model_is_small():
    assert DEFAULT_MODEL.stat().st_size <= 5 * 1024 * 1024


FLOWERS = [c for c in TILE_CODES if c.endswith("f")]
SUITS_AND_HONOURS = [c for c in TILE_CODES if not c.endswith("f")]


@pytest.mark.parametrize("style", PACKAGED_STYLES or [pytest.param("none", marks=pytest.mark.skip("no tile art packages"))])
def test_classifier_reads_every_rendered_suit_and_honour_face(style):
    faces = tile_art.load_faces(style)
    crops = [on_body(faces[code]) for code in SUITS_AND_HONOURS]
    codes, confidences = default_classifier().classify(crops)
    wrong = [(want, got) for want, got in zip(SUITS_AND_HONOURS, codes, strict=True) if want != got]
    assert wrong == []
    assert float(np.median(confidences)) > 0.8


def test_classifier_reads_most_rendered_flowers():
    # The model's known weak spot (MODEL_CARD.md): flowers and seasons, here in three drawn styles
    # (gnome-smooth prints only a framed character, which few real sets do).
    if not PACKAGED_STYLES:
        pytest.skip("no tile art packages installed")
    crops = [on_body(tile_art.load_faces(style)[code]) for style in PACKAGED_STYLES for code in FLOWERS]
    codes, _ = default_classifier().classify(crops)
    right = sum(got == want for got, want in zip(codes, FLOWERS * len(PACKAGED_STYLES), strict=True))
    assert right / len(crops) >= 0.5


def test_classifier_reads_upside_down_faces():
    if not PACKAGED_STYLES:
        pytest.skip("no tile art packages installed")
    faces = tile_art.load_faces(PACKAGED_STYLES[0])
    crops = [cv2.rotate(on_body(faces[code]), cv2.ROTATE_180) for code in TILE_CODES]
    codes, _ = default_classifier().classify(crops)
    assert sum(a == b for a, b in zip(codes, TILE_CODES, strict=True)) >= len(TILE_CODES) - 1


@pytest.mark.parametrize("colour", ["green", "blue", "yellow", "orange"])
def test_classifier_reads_face_down_tiles_as_back(colour):
    back = cv2.resize(tile_art.render_back(colour)[..., :3], (75, 100))
    codes, _ = default_classifier().classify([back])
    assert codes == ["back"]


def test_classifier_probabilities_are_distributions_over_the_labels():
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in [(90, 70), (40, 30), (300, 200)]]
    probs = default_classifier().probabilities(crops)
    assert probs.shape == (3, len(CLASS_LABELS))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    codes, confidences = default_classifier().classify(crops)
    assert confidences == pytest.approx(probs.max(axis=1))
    assert codes == [CLASS_LABELS[i] for i in probs.argmax(axis=1)]


def test_classifier_batches_larger_than_one_run_agree_with_single_crops():
    rng = np.random.default_rng(1)
    crops = [rng.integers(0, 256, (80, 60, 3), dtype=np.uint8) for _ in range(70)]
    together = default_classifier().probabilities(crops)
    alone = np.concatenate([default_classifier().probabilities([c]) for c in crops[60:]])
    assert np.allclose(together[60:], alone, atol=1e-5)


def test_classifier_looks_again_turned_180_degrees_only_at_doubtful_crops(monkeypatch):
    # A stand-in network that sees only which half of the crop is bright: top bright -> 1m,
    # bottom bright -> 9m, surely (0.95) when the crop is mostly white, else doubtfully (0.6).
    classifier = TileClassifier()
    seen: list[int] = []

    def fake_run(tensor: np.ndarray) -> np.ndarray:
        seen.append(len(tensor))
        out = np.full((len(tensor), len(CLASS_LABELS)), 0.0, np.float32)
        half = tensor.shape[2] // 2
        for n, image in enumerate(tensor):
            top = image[:, :half].mean() > image[:, half:].mean()
            sure = 0.95 if image.mean() > 0.5 else 0.6
            out[n, CLASS_LABELS.index("1m" if top else "9m")] = sure
            out[n, CLASS_LABELS.index("E")] = 1 - sure
        return out

    monkeypatch.setattr(classifier, "_run", fake_run)
    doubtful = np.zeros((128, 96, 3), np.uint8)
    doubtful[:40] = 255  # top bright, mostly dark
    sure = np.full((128, 96, 3), 255, np.uint8)
    sure[100:] = 0  # top bright, mostly white
    probs = classifier.probabilities([doubtful, sure])
    assert seen == [2, 1]  # both once, then only the doubtful crop turned
    assert probs[0, CLASS_LABELS.index("1m")] == pytest.approx(0.3)
    assert probs[0, CLASS_LABELS.index("9m")] == pytest.approx(0.3)
    assert probs[1, CLASS_LABELS.index("1m")] == pytest.approx(0.95)


def test_classifier_empty_input_gives_empty_output():
    codes, confidences = default_classifier().classify([])
    assert codes == [] and confidences.shape == (0,)


def test_classifier_threads_share_one_session():
    classifier = TileClassifier()
    crop = np.full((80, 60, 3), 200, np.uint8)
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(classifier.classify([crop])[0][0]))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 4


def test_classifier_rejects_a_non_image():
    with pytest.raises(FanscanError, match="image 0"):
        default_classifier().classify([np.zeros((10, 10), np.float64)])


def test_classifier_missing_model_is_an_error_naming_it(tmp_path):
    with pytest.raises(FanscanError, match="nothing.onnx"):
        TileClassifier(tmp_path / "nothing.onnx")


def _model_with_sidecar(tmp_path, model, change=None):
    """A copy of ``model`` beside a copy of the shipped classifier's sidecar, ``change``d."""
    import shutil

    shutil.copy(model, tmp_path / "m.onnx")
    sidecar = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    if change:
        change(sidecar)
    (tmp_path / "m.json").write_text(json.dumps(sidecar))
    return tmp_path / "m.onnx"


@pytest.mark.parametrize(("labels", "message"), [
    (["zz"] * 44, "names 'zz', which is no tile code"),
    (["1m", "1m"], "names a class twice"),
    ([], "names no classes"),
])
def test_classifier_whose_sidecar_names_no_tile_codes_is_a_bad_model(tmp_path, labels, message):
    model = _model_with_sidecar(tmp_path, DEFAULT_MODEL, lambda s: s.update(labels=labels))
    with pytest.raises(FanscanError, match=message) as error:
        TileClassifier(model)
    assert error.value.code == "bad_model"


def test_a_model_that_takes_another_input_than_its_sidecar_says_is_a_bad_model(tmp_path):
    # The box refiner's network named with the classifier's sidecar: its input is 48 x 48 squares.
    refiner = DEFAULT_MODEL.parent / "box_refiner.onnx"
    classifier = TileClassifier(_model_with_sidecar(tmp_path, refiner))
    with pytest.raises(FanscanError, match="does not take the input its sidecar describes") as error:
        classifier.classify([np.full((128, 96, 3), 200, np.uint8)])
    assert error.value.code == "bad_model" and "m.onnx" in error.value.message


def test_the_photo_reader_refuses_a_classifier_of_some_faces_only(tmp_path):
    from fanscan.vision.reader import read_photo

    flowers = [f"{n}f" for n in range(1, 9)]
    model = _model_with_sidecar(tmp_path, DEFAULT_MODEL, lambda s: s.update(labels=flowers))
    with pytest.raises(FanscanError, match="needs a classifier of every face .* not one of 8") as error:
        read_photo(cv2.imencode(".png", np.full((60, 80, 3), 90, np.uint8))[1].tobytes(), classifier=TileClassifier(model))
    assert error.value.code == "bad_model"
