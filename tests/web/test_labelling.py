"""The labelling routes: review order, label files read and saved at once, only DIR served."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_labels, save_labels

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

BOX = ((4.0, 4.0), (24.0, 4.0), (24.0, 34.0), (4.0, 34.0))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """sure.png (0.95), unsure.png (0.3), done.png (reviewed, 0.1), sub/new.png (no labels yet)."""
    import cv2

    root = tmp_path / "photos"
    for name, confidence, status in (
        ("sure.png", 0.95, "unreviewed"),
        ("unsure.png", 0.3, "unreviewed"),
        ("done.png", 0.1, "reviewed"),
        ("sub/new.png", None, None),
    ):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((40, 60, 3), 120, np.uint8))
        if confidence is not None:
            tile = TileLabel("2s", BOX, confidence, "model")
            save_labels(label_path(path), PhotoLabels(path.name, 60, 40, (tile,), status=status))
    (tmp_path / "secret.png").write_bytes((root / "sure.png").read_bytes())
    return root


@pytest.fixture
def labelling(folder: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    with TestClient(create_app(labelling_dir=folder)) as test_client:
        yield test_client


def test_labelling_lists_unreviewed_least_sure_first(labelling: Any) -> None:
    listing = labelling.get("/api/label/photos").json()
    assert [(p["image"], p["status"], p["min_confidence"]) for p in listing["photos"]] == [
        ("sub/new.png", "unreviewed", 0.0),
        ("unsure.png", "unreviewed", 0.3),
        ("sure.png", "unreviewed", 0.95),
        ("done.png", "reviewed", 0.1),
    ]
    assert len(listing["codes"]) == 43


def test_labelling_gives_an_empty_label_file_for_a_new_photo(labelling: Any) -> None:
    labels = labelling.get("/api/label/labels", params={"image": "sub/new.png"}).json()
    assert (labels["image"], labels["width"], labels["height"], labels["tiles"]) == (
        "sub/new.png",
        60,
        40,
        [],
    )


def test_labelling_put_saves_the_file_at_once(labelling: Any, folder: Path) -> None:
    labels = labelling.get("/api/label/labels", params={"image": "unsure.png"}).json()
    labels["tiles"][0].update(code="5p", source="person", confidence=1.0)
    labels["status"] = "reviewed"
    saved = labelling.put("/api/label/labels", params={"image": "unsure.png"}, json=labels)
    assert saved.status_code == 200
    on_disk = load_labels(folder / "unsure.png.fanscan.json")
    assert (on_disk.image, on_disk.status, on_disk.tiles[0].code, on_disk.tiles[0].source) == (
        "unsure.png",
        "reviewed",
        "5p",
        "person",
    )
    listing = labelling.get("/api/label/photos").json()["photos"]
    assert [p["image"] for p in listing][-2:] == ["done.png", "unsure.png"]


def test_labelling_put_of_a_new_photo_creates_its_file(labelling: Any, folder: Path) -> None:
    labels = labelling.get("/api/label/labels", params={"image": "sub/new.png"}).json()
    labels["tiles"] = [
        {
            "code": "E",
            "corners": [[1, 1], [9, 1], [9, 9], [1, 9]],
            "confidence": 1.0,
            "source": "person",
            "group": None,
        }
    ]
    assert (
        labelling.put("/api/label/labels", params={"image": "sub/new.png"}, json=labels).status_code
        == 200
    )
    assert load_labels(folder / "sub" / "new.png.fanscan.json").tiles[0].code == "E"


def test_labelling_refuses_bad_labels_and_keeps_the_file(labelling: Any, folder: Path) -> None:
    before = (folder / "sure.png.fanscan.json").read_text()
    labels = labelling.get("/api/label/labels", params={"image": "sure.png"}).json()
    labels["tiles"][0]["code"] = "10m"
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, json=labels)
    assert response.status_code == 400
    assert response.json() == {
        "detail": "labels for sure.png: tile 1 has unknown code '10m'",
        "code": "bad_labels",
    }
    assert (folder / "sure.png.fanscan.json").read_text() == before


def test_labelling_refuses_a_save_naming_a_field_twice_and_keeps_the_file(labelling: Any, folder: Path) -> None:
    # Parsed as FastAPI parses, the last "status" would win: a save marked reviewed without a word.
    import json

    before = (folder / "sure.png.fanscan.json").read_text()
    labels = labelling.get("/api/label/labels", params={"image": "sure.png"}).json()
    body = json.dumps(labels)[:-1] + ', "status": "reviewed"}'
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, content=body,
                             headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert "the field 'status' is given twice" in response.json()["detail"]
    assert (folder / "sure.png.fanscan.json").read_text() == before


def test_labelling_refuses_labels_of_another_size_or_far_off_the_photo(labelling: Any, folder: Path) -> None:
    before = (folder / "sure.png.fanscan.json").read_text()
    labels = labelling.get("/api/label/labels", params={"image": "sure.png"}).json()
    resized = {**labels, "width": 99999, "height": 50}
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, json=resized)
    assert response.status_code == 400
    assert response.json()["detail"] == "labels for sure.png are for a 99999 x 50 photo, but the photo is 60 x 40"
    far = json.loads(json.dumps(labels))
    far["tiles"][0]["corners"][0] = [1e308, -1e308]
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, json=far)
    assert response.status_code == 400 and "tile 1 has a corner at" in response.json()["detail"]
    assert (folder / "sure.png.fanscan.json").read_text() == before


@pytest.mark.parametrize("corners", [[[10, 10]] * 4, [[0, 0], [5, 5], [10, 10], [20, 20]]], ids=["spot", "line"])
def test_labelling_refuses_a_box_enclosing_no_area_and_keeps_the_file(
        labelling: Any, folder: Path, corners: list) -> None:
    before = (folder / "sure.png.fanscan.json").read_text()
    labels = labelling.get("/api/label/labels", params={"image": "sure.png"}).json()
    labels["tiles"][0]["corners"] = corners
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, json=labels)
    assert response.status_code == 400
    assert response.json()["detail"] == "labels for sure.png: tile 1's box encloses no area"
    assert (folder / "sure.png.fanscan.json").read_text() == before


@pytest.mark.parametrize("where", ["corner", "confidence", "width"])
def test_labelling_refuses_an_integer_no_float_holds_and_keeps_the_file(
        labelling: Any, folder: Path, where: str) -> None:
    before = (folder / "sure.png.fanscan.json").read_text()
    labels = labelling.get("/api/label/labels", params={"image": "sure.png"}).json()
    huge = 10**400
    if where == "corner":
        labels["tiles"][0]["corners"][0][0] = huge
    elif where == "confidence":
        labels["tiles"][0]["confidence"] = huge
    else:
        labels["width"] = huge
    response = labelling.put("/api/label/labels", params={"image": "sure.png"}, json=labels)
    assert response.status_code == 400 and response.json()["code"] == "bad_labels"
    assert (folder / "sure.png.fanscan.json").read_text() == before


def test_labelling_lists_the_photos_when_a_label_file_holds_an_integer_no_float_holds(
        labelling: Any, folder: Path) -> None:
    path = folder / "sure.png.fanscan.json"
    broken = json.loads(path.read_text())
    broken["tiles"][0]["corners"][0][0] = 10**400
    path.write_text(json.dumps(broken))
    listed = labelling.get("/api/label/photos")
    assert listed.status_code == 200 and "sure.png" in listed.text
    assert labelling.get("/api/label/labels", params={"image": "sure.png"}).status_code < 500
    assert json.loads(path.read_text()) == broken  # left as it is for a person to fix


def test_labelling_saves_labels_of_a_turned_photo_in_either_frame(labelling: Any, folder: Path) -> None:
    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = 6  # stored 60 x 40, shown turned a quarter: 40 x 60
    Image.new("RGB", (60, 40), (120, 120, 120)).save(folder / "turned.jpg", exif=exif)
    labels = labelling.get("/api/label/labels", params={"image": "turned.jpg"}).json()
    assert (labels["width"], labels["height"]) == (40, 60)
    assert labelling.put("/api/label/labels", params={"image": "turned.jpg"}, json=labels).status_code == 200
    stored = {**labels, "width": 60, "height": 40}  # as a COCO or VOC import records it
    assert labelling.put("/api/label/labels", params={"image": "turned.jpg"}, json=stored).status_code == 200
    wrong = {**labels, "width": 50, "height": 60}
    assert labelling.put("/api/label/labels", params={"image": "turned.jpg"}, json=wrong).status_code == 400


def test_labelling_refuses_labels_for_a_file_that_is_no_image(labelling: Any, folder: Path) -> None:
    (folder / "fake.png").write_text("no picture")
    labels = {"format": "fanscan-labels/1", "image": "fake.png", "width": 60, "height": 40, "tiles": []}
    response = labelling.put("/api/label/labels", params={"image": "fake.png"}, json=labels)
    assert 400 <= response.status_code < 500
    assert str(folder) not in response.json()["detail"] and "fake.png" in response.json()["detail"]
    assert not label_path(folder / "fake.png").exists()
    response = labelling.get("/api/label/labels", params={"image": "fake.png"})
    assert 400 <= response.status_code < 500 and str(folder) not in response.json()["detail"]


@pytest.mark.parametrize(
    "image", ["../secret.png", "/etc/passwd", "sure.png.fanscan.json", "gone.png"]
)
def test_labelling_serves_only_photos_in_the_folder(labelling: Any, image: str) -> None:
    assert labelling.get("/api/label/photo", params={"image": image}).status_code == 404
    assert labelling.get("/api/label/labels", params={"image": image}).status_code == 404
    body = json.dumps({"format": "fanscan-labels/1", "image": "x", "width": 1, "height": 1})
    assert (
        labelling.put("/api/label/labels", params={"image": image}, content=body).status_code == 404
    )


def test_labelling_serves_the_photo_upright(labelling: Any, folder: Path) -> None:
    from PIL import Image

    sideways = Image.new("RGB", (60, 40), (10, 200, 10))
    exif = sideways.getexif()
    exif[0x0112] = 6  # stored landscape, shown portrait
    sideways.save(folder / "phone.jpg", exif=exif)
    response = labelling.get("/api/label/photo", params={"image": "phone.jpg"})
    assert response.status_code == 200
    import io

    assert Image.open(io.BytesIO(response.content)).size == (40, 60)
    assert (
        labelling.get("/api/label/photo", params={"image": "sure.png"}).content
        == (folder / "sure.png").read_bytes()
    )


def test_labelling_page_and_its_files_are_served(labelling: Any) -> None:
    page = labelling.get("/label")
    assert page.status_code == 200 and "/static/label/label.js" in page.text
    assert labelling.get("/static/label/label.js").status_code == 200
    assert labelling.get("/static/label/label.css").status_code == 200


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe{}", b'{"image": "sure.png", "width": 60}'],
                         ids=["not-json", "not-utf8", "no-tiles"])
def test_labelling_a_broken_label_file_is_named_by_its_photo_not_the_server_path(
    labelling: Any, folder: Path, content: bytes
) -> None:
    label_path(folder / "sure.png").write_bytes(content)
    response = labelling.get("/api/label/labels", params={"image": "sure.png"})
    assert response.status_code == 400 and response.json()["code"] == "bad_labels"
    detail = response.json()["detail"]
    assert detail.startswith("the labels of 'sure.png': ") and "\n" not in detail
    assert str(folder) not in detail
    assert label_path(folder / "sure.png").read_bytes() == content  # left for a person to mend
