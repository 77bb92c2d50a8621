"""Label saves carry a version (ETag / If-Match): a save against an older version is refused with
409 and the file's labels, never written; names with a NUL byte or too long get a JSON 4xx."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_labels, save_labels

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

BOX = ((4.0, 4.0), (24.0, 4.0), (24.0, 34.0), (4.0, 34.0))
URL = "/api/label/labels"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    import cv2

    cv2.imwrite(str(tmp_path / "hand.png"), np.full((40, 60, 3), 120, np.uint8))
    cv2.imwrite(str(tmp_path / "new.png"), np.full((40, 60, 3), 120, np.uint8))
    tile = TileLabel("2s", BOX, 0.4, "model")
    save_labels(label_path(tmp_path / "hand.png"), PhotoLabels("hand.png", 60, 40, (tile,)))
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    with TestClient(create_app(labelling_dir=folder)) as test_client:
        yield test_client


def _get(client: Any, image: str = "hand.png") -> tuple[dict[str, Any], str]:
    response = client.get(URL, params={"image": image})
    assert response.status_code == 200
    return response.json(), response.headers["etag"]


def test_labelling_versions_a_save_returns_the_new_version(client: Any) -> None:
    labels, version = _get(client)
    labels["tiles"][0]["code"] = "3s"
    saved = client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": version})
    assert saved.status_code == 200
    assert saved.headers["etag"] != version
    assert saved.headers["etag"] == _get(client)[1]


def test_labelling_versions_a_stale_tab_cannot_unreview_a_reviewed_photo(client: Any, folder: Path) -> None:
    stale, old_version = _get(client)  # tab B loads the photo
    accepted, version = _get(client)  # tab A loads it too, fixes a tile and accepts it
    accepted["tiles"][0].update(code="5p", source="person", confidence=1.0)
    accepted["status"] = "reviewed"
    assert client.put(URL, params={"image": "hand.png"}, json=accepted, headers={"if-match": version}).status_code == 200
    before = label_path(folder / "hand.png").read_bytes()

    stale["tiles"][0]["code"] = "9m"  # tab B, still on the old version, changes a code
    refused = client.put(URL, params={"image": "hand.png"}, json=stale, headers={"if-match": old_version})
    assert refused.status_code == 409
    answer = refused.json()
    assert answer["code"] == "stale_labels"
    assert answer["labels"]["status"] == "reviewed" and answer["labels"]["tiles"][0]["code"] == "5p"
    assert answer["version"] == refused.headers["etag"] == _get(client)[1]
    assert label_path(folder / "hand.png").read_bytes() == before  # nothing written

    # Choosing to keep the page's version is a save against the version the 409 named.
    again = client.put(URL, params={"image": "hand.png"}, json=stale, headers={"if-match": answer["version"]})
    assert again.status_code == 200
    assert load_labels(label_path(folder / "hand.png")).tiles[0].code == "9m"


def test_labelling_versions_a_photo_without_labels_is_version_new(client: Any, folder: Path) -> None:
    first, version = _get(client, "new.png")
    assert version == '"new"'
    first["status"] = "reviewed"
    assert client.put(URL, params={"image": "new.png"}, json=first, headers={"if-match": version}).status_code == 200
    second = {**first, "status": "unreviewed"}
    assert client.put(URL, params={"image": "new.png"}, json=second, headers={"if-match": version}).status_code == 409
    assert load_labels(label_path(folder / "new.png")).status == "reviewed"


def test_labelling_versions_if_match_star_is_any_version_of_an_existing_file(client: Any, folder: Path) -> None:
    labels, _ = _get(client)
    labels["status"] = "reviewed"
    assert client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": "*"}).status_code == 200
    assert load_labels(label_path(folder / "hand.png")).status == "reviewed"
    # a photo without labels has no version for * to match (RFC 9110)
    first, _ = _get(client, "new.png")
    refused = client.put(URL, params={"image": "new.png"}, json=first, headers={"if-match": "*"})
    assert refused.status_code == 412 and refused.json()["code"] == "precondition_failed"
    assert not label_path(folder / "new.png").exists()


def test_labelling_versions_a_save_sent_again_after_its_answer_was_lost_is_no_conflict(client: Any) -> None:
    labels, old = _get(client)
    labels["tiles"][0]["code"] = "3s"
    first = client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": old})
    again = client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": old})
    assert again.status_code == 200 and again.headers["etag"] == first.headers["etag"]
    labels["tiles"][0]["code"] = "4s"  # a different change against the old version still conflicts
    assert client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": old}).status_code == 409


def test_labelling_versions_a_save_without_if_match_is_unconditional(client: Any, folder: Path) -> None:
    labels, _ = _get(client)
    labels["tiles"] = []
    assert client.put(URL, params={"image": "hand.png"}, json=labels).status_code == 200
    assert load_labels(label_path(folder / "hand.png")).tiles == ()


def test_labelling_versions_two_saves_of_one_version_at_once_one_wins(client: Any, folder: Path) -> None:
    labels, version = _get(client)
    answers: list[int] = []

    def put(code: str) -> None:
        body = {**labels, "tiles": [{**labels["tiles"][0], "code": code}]}
        answers.append(client.put(URL, params={"image": "hand.png"}, json=body, headers={"if-match": version}).status_code)

    threads = [threading.Thread(target=put, args=(code,)) for code in ("1m", "2m", "3m", "4m")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [200, 409, 409, 409]


@pytest.mark.parametrize("route", ["/api/label/labels", "/api/label/photo"])
def test_labelling_versions_a_nul_byte_in_a_name_is_a_json_400(client: Any, route: str) -> None:
    response = client.get(route, params={"image": "hand\x00.png"})
    assert response.status_code == 400
    assert response.json()["detail"] == "a photo name cannot hold a NUL byte"
    body = {"format": "fanscan-labels/1", "image": "x", "width": 60, "height": 40}
    put = client.put(URL, params={"image": "a\x00b.png"}, json=body)
    assert put.status_code == 400 and put.headers["content-type"] == "application/json"


@pytest.mark.parametrize("length", [300, 5000, 30_000])
def test_labelling_versions_a_very_long_name_is_a_json_404(client: Any, length: int) -> None:
    image = "x" * (length - 4) + ".png"
    for response in (
        client.get(URL, params={"image": image}),
        client.get("/api/label/photo", params={"image": image}),
        client.put(URL, params={"image": image}, json={"format": "fanscan-labels/1"}),
    ):
        assert response.status_code == 404
        assert len(response.json()["detail"]) < 200


def test_labelling_versions_a_long_photo_name_saves(client: Any, folder: Path) -> None:
    import cv2

    name = "p" * 238 + ".png"  # its label file's name is 255 bytes, the file system's limit
    cv2.imwrite(str(folder / name), np.full((40, 60, 3), 120, np.uint8))
    labels, version = _get(client, name)
    labels["status"] = "reviewed"
    assert client.put(URL, params={"image": name}, json=labels, headers={"if-match": version}).status_code == 200
    assert load_labels(label_path(folder / name)).status == "reviewed"


def test_labelling_versions_a_name_whose_label_file_cannot_exist_is_a_json_400(client: Any, folder: Path) -> None:
    import cv2

    name = "q" * 246 + ".png"  # 250 bytes: the photo fits, its label file (263) cannot
    cv2.imwrite(str(folder / name), np.full((40, 60, 3), 120, np.uint8))
    labels, version = _get(client, name)
    refused = client.put(URL, params={"image": name}, json=labels, headers={"if-match": version})
    assert refused.status_code == 400
    assert refused.json()["code"] == "name_too_long"
    listing = client.get("/api/label/photos")
    assert listing.status_code == 200 and name in [p["image"] for p in listing.json()["photos"]]


def test_a_photo_named_through_a_link_is_read_and_saved_in_one_label_file(client: Any, folder: Path) -> None:
    # link.png -> hand.png: its labels are hand.png's, and a save is written there, its version moving
    (folder / "link.png").symlink_to("hand.png")
    labels, version = _get(client, "link.png")
    assert [t["code"] for t in labels["tiles"]] == ["2s"]
    labels["tiles"] = []
    saved = client.put(URL, params={"image": "link.png"}, json=labels, headers={"if-match": version})
    assert saved.status_code == 200 and saved.headers["etag"] != version
    assert _get(client, "link.png")[0]["tiles"] == [] and _get(client, "hand.png")[0]["tiles"] == []
    assert not (folder / "link.png.fanscan.json").exists()
    assert load_labels(label_path(folder / "hand.png")).image == "hand.png"


def test_a_name_through_missing_folders_writes_no_folder_outside_or_inside(client: Any, folder: Path) -> None:
    outside = folder.parent / f"{folder.name}-evil"
    image = f"../{outside.name}/deeper/../../{folder.name}/hand.png"
    labels, version = _get(client, image)
    assert client.put(URL, params={"image": image}, json=labels, headers={"if-match": version}).status_code == 200
    image = "nothing/../hand.png"
    labels, version = _get(client, image)
    assert client.put(URL, params={"image": image}, json=labels, headers={"if-match": version}).status_code == 200
    assert not outside.exists() and not (folder / "nothing").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["hand.png", "hand.png.fanscan.json", "new.png"]


def test_a_box_deleted_in_the_page_is_a_persons_edit_that_prelabel_never_reads_over(
        client: Any, folder: Path) -> None:
    labels, version = _get(client)
    labels["tiles"] = []  # the model's one box deleted: no tile is left to say a person was here
    assert client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": version}).status_code == 200
    saved = load_labels(label_path(folder / "hand.png"))
    assert saved.edited and saved.tiles == ()
    from fanscan.datasets.prelabel import needs_reading

    assert not needs_reading(folder / "hand.png", "another reader", force=True)
    unchanged, version = _get(client, "new.png")  # a save of what the file holds already is no edit
    assert client.put(URL, params={"image": "new.png"}, json=unchanged,
                      headers={"if-match": version}).status_code == 200
    assert not load_labels(label_path(folder / "new.png")).edited


def test_a_label_file_the_server_cannot_write_is_a_json_error(client: Any, folder: Path) -> None:
    labels, version = _get(client, "new.png")
    label_path(folder / "new.png").mkdir()  # where the file would go, a folder
    saved = client.put(URL, params={"image": "new.png"}, json=labels, headers={"if-match": "*"})
    assert saved.status_code in (412, 500)
    saved = client.put(URL, params={"image": "new.png"}, json=labels)
    assert saved.status_code == 500 and saved.json()["code"] == "cannot_save"
    assert label_path(folder / "new.png").is_dir()


def test_a_label_file_broken_on_disk_is_replaced_by_a_save_from_the_page(client: Any, folder: Path) -> None:
    labels, version = _get(client)
    path = label_path(folder / "hand.png")
    path.write_text(path.read_text().replace(",", ",,", 1))  # edited by hand into no JSON
    broken_version = _version_of(client, folder)
    saved = client.put(URL, params={"image": "hand.png"}, json=labels, headers={"if-match": broken_version})
    assert saved.status_code == 200
    assert load_labels(path).edited and [t.code for t in load_labels(path).tiles] == ["2s"]


def _version_of(client: Any, folder: Path) -> str:
    from fanscan.web.labelling import LabelFolder

    return LabelFolder(folder).version("hand.png")
