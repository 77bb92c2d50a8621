"""``POST /api/labelled``: the referee page's corrected reading kept as a labelled photo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

from fastapi.testclient import TestClient  # noqa: E402

from fanscan.datasets.labels import label_path, load_labels  # noqa: E402
from fanscan.web.app import create_app  # noqa: E402

BOX = [[40, 120], [88, 120], [88, 184], [40, 184]]


def _client(reader: Any, scorer: Any, folder: Path | None) -> TestClient:
    return TestClient(create_app(reader=reader, scorer=scorer, save_labelled_dir=folder))


def _post(client: TestClient, photo: bytes, tiles: Any) -> Any:
    text = tiles if isinstance(tiles, str) else json.dumps(tiles)
    return client.post("/api/labelled", files={"photo": ("hand.png", photo, "image/png")},
                       data={"tiles": text})


def test_saves_the_photo_and_a_reviewed_label_file(
    reader: Any, scorer: Any, photo: bytes, tmp_path: Path
) -> None:
    folder = tmp_path / "kept"
    with _client(reader, scorer, folder) as client:
        assert client.get("/api/config").json()["save_labelled"] is True
        tiles = [
            {"code": "1m", "box": BOX, "confidence": 0.97, "corrected": False},
            {"code": "7p", "box": BOX, "confidence": 0.55, "corrected": True},
        ]
        response = _post(client, photo, tiles)
        assert response.status_code == 201, response.text
        name = response.json()["image"]
        assert response.json() == {"image": name, "tiles": 2, "corrected": 1}
        labels = load_labels(label_path(folder / name))
        assert (folder / name).read_bytes() == photo
        assert labels.status == "reviewed" and labels.image == name
        assert [(t.code, t.confidence, t.source) for t in labels.tiles] == [
            ("1m", 0.97, "model"), ("7p", 1.0, "person")
        ]
        before = label_path(folder / name).read_bytes()
        again = _post(client, photo, tiles[:1])
        assert again.status_code == 409 and again.json()["code"] == "already_saved"
        assert label_path(folder / name).read_bytes() == before  # nothing replaced


def test_two_saves_of_one_photo_at_once_keep_the_first_and_refuse_the_second(
    reader: Any, scorer: Any, photo: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both requests pass the early "saved before?" look before either writes (a double tap).
    from fanscan.web import labelled

    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda path: False if path.name.endswith(".fanscan.json") else real_exists(path))
    first = labelled.save_labelled(tmp_path, photo, "hand.png", json.dumps([{"code": "1m", "box": BOX, "confidence": 1}]))
    with pytest.raises(labelled.FanscanError) as refused:
        labelled.save_labelled(tmp_path, photo, "hand.png", json.dumps([{"code": "9p", "box": BOX, "confidence": 1}]))
    assert refused.value.code == "already_saved"
    assert [t.code for t in load_labels(label_path(tmp_path / first["image"])).tiles] == ["1m"]


@pytest.mark.parametrize(
    ("tiles", "words"),
    [
        ("not json", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ({"code": "1m"}, "must be a JSON list"),
        ([{"code": "1x", "box": BOX, "confidence": 1}], "is not a tile code"),
        ([{"code": "1m", "box": [[1, 2]], "confidence": 1}], "four [x, y] points"),
        ([{"code": "1m", "box": BOX, "confidence": 2}], "confidence must be"),
        ([{"code": "1m", "box": BOX, "confidence": "x", "corrected": True}], "confidence must be"),
        ([{"code": "1m", "box": BOX, "confidence": 0.5, "corrected": "yes"}], "corrected must be true or false"),
        ([{"code": "1m", "box": [[10, 10]] * 4, "confidence": 1}], "encloses no area"),
        (f'[{{"code": "1m", "box": [[{10**400}, 10], [60, 10], [60, 90], [10, 90]], "confidence": 1}}]',
         "four [x, y] points"),  # an integer no float holds
        ([{"code": "1m", "box": [[0, 0], [5, 5], [10, 10], [20, 20]], "confidence": 1}], "encloses no area"),
        ([{"code": "1m", "box": [[5000, 1], [5001, 1], [5001, 9], [5000, 9]], "confidence": 1}],
         "outside the photo"),
        ('[{"code": "1m", "box": [[10, 10], [60, 10], [60, 90], [10, 90]], "confidence": 1, "code": "9p"}]',
         "the field 'code' is given twice"),
    ],
)
def test_bad_tiles_are_a_400(
    reader: Any, scorer: Any, photo: bytes, tmp_path: Path, tiles: Any, words: str
) -> None:
    with _client(reader, scorer, tmp_path) as client:
        response = _post(client, photo, tiles)
    assert response.status_code == 400 and words in response.json()["detail"]
    assert list(tmp_path.iterdir()) == []


def test_a_tile_the_photos_edge_cuts_may_reach_past_it(reader: Any, scorer: Any, photo: bytes, tmp_path: Path) -> None:
    from PIL import Image
    import io

    width = Image.open(io.BytesIO(photo)).size[0]
    cut = [[width - 20, 1], [width + 5, 1], [width + 5, 9], [width - 20, 9]]  # 5 px past the right edge
    with _client(reader, scorer, tmp_path) as client:
        response = _post(client, photo, [{"code": "1m", "box": cut, "confidence": 0.9}])
    assert response.status_code == 201, response.text


def test_a_field_sent_twice_is_a_400_and_nothing_saved(reader: Any, scorer: Any, photo: bytes, tmp_path: Path) -> None:
    with _client(reader, scorer, tmp_path) as client:
        tiles = '[{"code": "1m", "box": [[10, 10], [60, 10], [60, 90], [10, 90]], "confidence": 1}]'
        response = client.post("/api/labelled", files=[("photo", ("a.png", photo, "image/png")),
                                                        ("tiles", (None, tiles)), ("tiles", (None, "[]"))])
    assert response.status_code == 400 and "the field 'tiles' is given twice" in response.json()["detail"]
    assert list(tmp_path.iterdir()) == []


def test_junk_photo_and_missing_field(reader: Any, scorer: Any, photo: bytes, tmp_path: Path) -> None:
    with _client(reader, scorer, tmp_path) as client:
        junk = _post(client, b"not a photo", [])
        missing = client.post("/api/labelled", files={"photo": ("hand.png", photo, "image/png")})
    assert junk.status_code == 415 and junk.json()["code"] == "unsupported_image"
    assert missing.status_code == 422 and missing.json()["code"] == "bad_request"
    assert list(tmp_path.iterdir()) == []


def test_a_photo_cut_short_is_refused_and_nothing_saved(reader: Any, scorer: Any, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    noise = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    encoded = cv2.imencode(".jpg", noise)[1].tobytes()
    cut = encoded[: len(encoded) // 2]  # the whole header, half the picture
    with _client(reader, scorer, tmp_path) as client:
        response = client.post("/api/labelled", files={"photo": ("hand.jpg", cut, "image/jpeg")},
                               data={"tiles": "[]"})
    assert 400 <= response.status_code < 500
    assert "'hand.jpg'" in response.json()["detail"] and "image data" not in response.json()["detail"]
    assert list(tmp_path.iterdir()) == []


def test_off_unless_turned_on(client: Any, photo: bytes) -> None:
    assert client.get("/api/config").json()["save_labelled"] is False
    response = _post(client, photo, [])
    assert response.status_code in (404, 405) and response.headers["content-type"].startswith(
        "application/json"
    )


def test_a_save_the_server_cannot_write_is_a_json_error_not_a_crash(
    reader: Any, scorer: Any, photo: bytes, tmp_path: Path
) -> None:
    # The folder replaced by a file after the server started: a JSON answer with its code.
    folder = tmp_path / "kept"
    with _client(reader, scorer, folder) as client:
        folder.write_text("not a folder any more")
        tiles = [{"code": "1m", "box": BOX, "confidence": 0.97, "corrected": False}]
        response = _post(client, photo, tiles)
        assert response.status_code == 500 and response.json()["code"] == "cannot_save"
        assert "could not save" in response.json()["detail"]
    assert folder.read_text() == "not a folder any more"
