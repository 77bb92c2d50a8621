"""``fanscan classify``: JSON lines per the contract, a table, and one-line errors."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets import tile_art
from fanscan.vision.classifier import DEFAULT_MODEL

STYLE = next((s for s in ("xmahjongg-real", "gnome-smooth") if s in tile_art.available_styles()), None)


@pytest.fixture
def crops(tmp_path):
    if STYLE is None:
        pytest.skip("no tile art packages installed")
    faces = tile_art.load_faces(STYLE)
    paths = []
    for code in ("5p", "E", "8s"):
        path = tmp_path / f"{code}.png"
        cv2.imwrite(str(path), cv2.resize(faces[code][..., :3], (75, 100)))
        paths.append(str(path))
    return paths


def test_classify_json_prints_one_object_per_file(crops, capsys):
    assert main(["classify", *crops, "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    objects = [json.loads(line) for line in lines]
    assert [o["file"] for o in objects] == crops
    assert [o["code"] for o in objects] == ["5p", "E", "8s"]
    assert all(set(o) == {"file", "code", "confidence", "no_tile"} and 0 < o["confidence"] <= 1 for o in objects)
    assert all(o["no_tile"] < 0.5 for o in objects)  # each holds a tile


def test_classify_prints_a_table_without_json(crops, capsys):
    assert main(["classify", *crops]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["file", "code", "confidence", "no", "tile"]
    assert [line.split()[1] for line in lines[1:]] == ["5p", "E", "8s"]
    assert all(float(line.split()[3]) < 0.5 for line in lines[1:])


def test_classify_unreadable_file_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not an image", encoding="utf-8")
    assert main(["classify", str(bad), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "notes.jpg" in captured.err


def test_classify_one_unreadable_file_among_crops_spoils_only_its_own_line(crops, tmp_path, capsys):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not an image", encoding="utf-8")
    assert main(["classify", crops[0], str(bad), crops[1], "--json"]) == 1
    captured = capsys.readouterr()
    objects = [json.loads(line) for line in captured.out.splitlines()]
    assert [o["file"] for o in objects] == [crops[0], str(bad), crops[1]]
    assert [o.get("code") for o in objects] == ["5p", None, "E"]
    assert "notes.jpg" in objects[1]["error"]
    assert captured.err.count("\n") == 1 and "notes.jpg" in captured.err
    assert main(["classify", crops[0], str(bad)]) == 1  # the table too: the readable one listed
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()[1:]] == ["5p"]


def test_classify_missing_file_is_a_one_line_error(tmp_path, capsys):
    assert main(["classify", str(tmp_path / "gone.png")]) == 1
    assert "gone.png" in capsys.readouterr().err


def test_classify_reads_the_number_printed_on_flowers(tmp_path, capsys, monkeypatch):
    from fanscan.datasets import composed_faces
    from fanscan.vision import numerals

    if not composed_faces.available_fonts() or not numerals.DEFAULT_MODEL.is_file():
        pytest.skip("needs CJK fonts and the numeral model")
    monkeypatch.setattr(composed_faces, "LARGE_CHARACTER_SHARE", 0.0)  # a plant; the numeral names it
    paths, numbers = [], []
    for seed in range(8):
        face = composed_faces.compose_face(f"{seed + 1}f", np.random.default_rng(100 + seed))
        alpha = face[:, :, 3:4] / 255.0
        image = (face[:, :, :3] * alpha + np.array([215, 235, 245]) * (1 - alpha)).astype(np.uint8)
        path = tmp_path / f"flower{seed}.png"
        cv2.imwrite(str(path), cv2.resize(image, (75, 100)))
        paths.append(str(path))
        numbers.append(seed % 4 + 1)

    def numbers_read(*flags: str) -> int:
        assert main(["classify", *paths, "--json", *flags]) == 0
        codes = [json.loads(line)["code"] for line in capsys.readouterr().out.splitlines()]
        return sum(code.endswith("f") and (int(code[0]) - 1) % 4 + 1 == n for code, n in zip(codes, numbers))

    with_look, without = numbers_read(), numbers_read("--no-numerals")
    assert with_look >= 5 and with_look > without


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")


@pytest.fixture(scope="module")
def sample_crop(tmp_path_factory):
    """The winning 4s of the bundled sample photo (no tile art needed), cut upright where the
    reader found it (the reader reads the sample exactly: tests/vision/test_samples.py)."""
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.reader import read_photo
    from fanscan.vision.samples import SAMPLE_PATH

    reading = read_photo(SAMPLE_PATH)
    (tile,) = [t for t in reading.tiles if t.code == "4s"]
    crop = load_photo(SAMPLE_PATH).crop_quad(np.array(tile.box), 96, 128, 1)
    path = tmp_path_factory.mktemp("crops") / "4s.png"
    cv2.imwrite(str(path), crop)
    return path


@needs_model
def test_classify_reads_a_crop_from_standard_input(sample_crop, monkeypatch, capsys):
    from types import SimpleNamespace

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(sample_crop.read_bytes())))
    assert main(["classify", "-", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert (result["file"], result["code"]) == ("-", "4s")
    assert captured.err == ""  # a crop: no warning


@needs_model
def test_classify_warns_that_a_whole_photo_is_no_crop(sample_crop, capsys):
    from fanscan.vision.samples import SAMPLE_PATH

    assert main(["classify", str(SAMPLE_PATH), str(sample_crop), "--json"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2  # both still classified
    (warning,) = captured.err.splitlines()
    assert warning.startswith(f"fanscan: warning: {SAMPLE_PATH} looks like a whole photo")
    assert "expects one tile per image" in warning and "fanscan read" in warning


def test_classify_reads_standard_input_once_only(capsys):
    assert main(["classify", "-", "-"]) == 2
    assert "can be read only once" in capsys.readouterr().err


@needs_model
def test_classify_takes_a_large_crop_of_one_tile_for_a_crop(tmp_path, capsys):
    # The finder sees pieces of a face that fills a large image; shrunk to a tile's size it is one
    # tile, and the classifier is sure of it: no warning.
    if STYLE is None:
        pytest.skip("no tile art packages installed")
    from fanscan.cli.classify import one_tile_when_small
    from fanscan.vision.samples import SAMPLE_PATH

    face = cv2.resize(tile_art.load_faces(STYLE)["7m"][..., :3], (600, 800), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "big7m.png"
    cv2.imwrite(str(path), face)
    assert one_tile_when_small(face) and not one_tile_when_small(cv2.imread(str(SAMPLE_PATH)))
    assert main(["classify", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["code"] == "7m" and captured.err == ""


@needs_model
def test_classify_warns_of_an_image_that_seems_to_hold_no_tile(tmp_path, capsys):
    ramp = np.tile(np.linspace(0, 255, 96, dtype=np.uint8), (128, 1))
    path = tmp_path / "ramp.png"
    cv2.imwrite(str(path), cv2.merge([ramp, ramp, ramp]))
    assert main(["classify", str(path), "--json"]) == 0  # still named: the warning only advises
    captured = capsys.readouterr()
    line = json.loads(captured.out)
    assert line["no_tile"] > 0.8
    (warning,) = captured.err.splitlines()
    assert warning.startswith(f"fanscan: warning: {path} seems to hold no tile (no_tile ")


def test_a_model_file_that_is_no_model_or_disagrees_with_its_sidecar_is_a_one_line_error(
        crops, tmp_path, capsys):
    import shutil

    junk = tmp_path / "junk.onnx"
    junk.write_bytes(bytes(range(256)) * 20)
    shutil.copy(DEFAULT_MODEL.with_suffix(".json"), junk.with_suffix(".json"))
    short = tmp_path / "short.onnx"
    shutil.copy(DEFAULT_MODEL, short)
    sidecar = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    short.with_suffix(".json").write_text(json.dumps({**sidecar, "labels": sidecar["labels"][:3]}))
    for model, words in ((junk, "no model onnxruntime can load"), (short, "sidecar names 3 classes")):
        assert main(["classify", crops[0], "--model", str(model)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("fanscan: error: ") and words in err and err.count("\n") == 1



def test_classify_json_names_a_crop_as_its_file_is_named(crops, tmp_path, capsys):
    # Every line the same way: a name in another script as itself, as `read --json` writes it.
    named = tmp_path / "東風.png"
    named.write_bytes((tmp_path / "E.png").read_bytes())
    assert main(["classify", str(named), str(tmp_path / "missing.png"), "--json"]) == 1
    out = capsys.readouterr().out
    assert out.count("東風.png") == 1 and "\\u" not in out
    assert [json.loads(line)["file"] for line in out.splitlines()] == [str(named), str(tmp_path / "missing.png")]


def test_classify_names_crops_turned_a_quarter_or_cut_loose(crops, tmp_path, capsys):
    # A tile lying sideways gives a crop wider than tall, a loose crop shows the table around the
    # face: each named as its tight upright crop is (before, the quarter-turned crops were read as
    # the classifier never learnt faces: turned, and a loose one was the table's as much as the face's).
    cut = []
    for path in crops:
        face = cv2.imread(path)
        turned = tmp_path / f"turned-{len(cut)}.png"
        cv2.imwrite(str(turned), cv2.rotate(face, cv2.ROTATE_90_COUNTERCLOCKWISE))
        loose = tmp_path / f"loose-{len(cut)}.png"
        cv2.imwrite(str(loose), cv2.copyMakeBorder(face, 50, 50, 38, 38, cv2.BORDER_CONSTANT, value=(150, 180, 205)))
        cut += [str(turned), str(loose)]
    assert main(["classify", *cut, "--json"]) == 0
    codes = [json.loads(line)["code"] for line in capsys.readouterr().out.splitlines()]
    assert codes == ["5p", "5p", "E", "E", "8s", "8s"]
