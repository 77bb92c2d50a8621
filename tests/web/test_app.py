"""The web app's JSON API, page and files, through FastAPI's test client (no network)."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

from fastapi.testclient import TestClient

from fanscan.web.app import MAX_UPLOAD_BYTES, create_app

FakeReader = Any
FakeScorer = Any

SEVEN_PAIRS = ["1m", "1m", "3m", "3m", "5p", "5p", "7p", "7p", "9s", "9s", "E", "E", "C", "C"]


def seven_pairs(**changes: Any) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "concealed": list(SEVEN_PAIRS),
        "melds": [],
        "win_tile": "C",
        "flowers": [],
        "self_drawn": False,
        "seat_wind": "E",
        "round_wind": "E",
    }
    hand.update(changes)
    return hand


def test_app_read_returns_the_readers_json(
    client: TestClient, reader: FakeReader, photo: bytes, reading: dict[str, Any]
) -> None:
    response = client.post("/api/read", files={"photo": ("hand.png", photo, "image/png")})
    assert response.status_code == 200
    body = response.json()
    assert body["hand"]["concealed"] == reading["hand"]["concealed"]
    assert body["tiles"][7]["confidence"] == 0.55
    assert reader.calls == [photo]


def test_app_read_passes_the_rule_set_to_the_reader_and_refuses_an_unknown_one(
    client: TestClient, reader: FakeReader, photo: bytes
) -> None:
    files = {"photo": ("hand.png", photo, "image/png")}
    assert client.post("/api/read", files=files, data={"rules": "other"}).status_code == 200
    assert client.post("/api/read", files=files).status_code == 200
    assert reader.rules == ["other", None]
    refused = client.post("/api/read", files=files, data={"rules": "riichi"})
    assert refused.status_code == 400
    assert refused.json() == {"detail": "unknown rule set 'riichi' (available: mcr, other)", "code": "unknown_rules"}
    assert len(reader.calls) == 2  # refused before reading


def test_app_read_accepts_jpeg(client: TestClient, reader: FakeReader) -> None:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 10, 10)).save(buffer, format="JPEG")
    response = client.post("/api/read", files={"photo": ("p.jpg", buffer.getvalue(), "image/jpeg")})
    assert response.status_code == 200
    assert len(reader.calls) == 1


def test_app_read_without_photo_field_is_422(
    client: TestClient, reader: FakeReader, photo: bytes
) -> None:
    response = client.post("/api/read", files={"picture": ("hand.png", photo, "image/png")})
    assert response.status_code == 422
    assert "'photo'" in response.json()["detail"]
    assert reader.calls == []


def test_app_read_empty_upload_is_400(client: TestClient, reader: FakeReader) -> None:
    response = client.post("/api/read", files={"photo": ("hand.jpg", b"", "image/jpeg")})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "the uploaded photo 'hand.jpg' is empty",
        "code": "empty_upload",
    }
    assert reader.calls == []


def test_app_read_non_image_is_415(client: TestClient, reader: FakeReader) -> None:
    response = client.post(
        "/api/read", files={"photo": ("notes.txt", b"hello, referee", "text/plain")}
    )
    assert response.status_code == 415
    assert "'notes.txt' is not a JPEG" in response.json()["detail"]
    assert reader.calls == []


def test_app_read_reader_error_is_a_4xx_with_its_message(scorer: FakeScorer, photo: bytes) -> None:
    from fanscan.errors import FanscanError

    def failing(_data: bytes) -> dict[str, Any]:
        raise FanscanError("no_tiles", "no tiles found in the photo")

    with TestClient(create_app(reader=failing, scorer=scorer)) as client:
        response = client.post("/api/read", files={"photo": ("a.png", photo, "image/png")})
    assert response.status_code == 422
    assert response.json() == {"detail": "no tiles found in the photo", "code": "no_tiles"}


def test_app_read_errors_name_the_upload_not_the_image_data(scorer: FakeScorer, photo: bytes) -> None:
    from fanscan.errors import FanscanError

    def failing(_data: bytes) -> dict[str, Any]:
        raise FanscanError("no_tiles", "no mahjong tiles were found in the image data")

    with TestClient(create_app(reader=failing, scorer=scorer)) as client:
        response = client.post("/api/read", files={"photo": ("hand 3.png", photo, "image/png")})
    assert response.json()["detail"] == "no mahjong tiles were found in 'hand 3.png'"


def test_app_read_declared_over_limit_is_413_before_reading(
    reader: FakeReader, scorer: FakeScorer
) -> None:
    app = create_app(reader=reader, scorer=scorer)
    with TestClient(app) as client:
        response = client.post(
            "/api/read",
            content=b"x" * 10,
            headers={
                "content-type": "multipart/form-data; boundary=b",
                "content-length": str(MAX_UPLOAD_BYTES + 1),
            },
        )
    assert response.status_code == 413
    assert response.json()["detail"] == "the upload is larger than the 25 MB limit"
    assert reader.calls == []


def test_app_read_streamed_over_limit_is_413(
    reader: FakeReader, scorer: FakeScorer, photo: bytes
) -> None:
    limit = 64 * 1024
    big = photo + b"\0" * limit  # a PNG signature, then too many bytes

    def chunks() -> Any:
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192]

    boundary = "fanscanboundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.png"\r\n'
        "Content-Type: image/png\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body() -> Any:
        yield head
        yield from chunks()
        yield tail

    with TestClient(create_app(reader=reader, scorer=scorer, max_upload_bytes=limit)) as client:
        response = client.post(
            "/api/read",
            content=body(),
            headers={"content-type": f"multipart/form-data; boundary={boundary}"},
        )
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert reader.calls == []


def test_app_read_just_under_limit_is_read(
    reader: FakeReader, scorer: FakeScorer, photo: bytes
) -> None:
    limit = len(photo) + 400  # room for the multipart framing
    with TestClient(create_app(reader=reader, scorer=scorer, max_upload_bytes=limit)) as client:
        response = client.post("/api/read", files={"photo": ("a.png", photo, "image/png")})
    assert response.status_code == 200
    assert reader.calls == [photo]


def test_app_score_passes_hand_and_rules_to_the_scorer(
    client: TestClient, scorer: FakeScorer
) -> None:
    hand = seven_pairs(self_drawn=True)
    response = client.post("/api/score", json={**hand, "rules": "other"})
    assert response.status_code == 200
    assert response.json()["total"] == 24
    assert scorer.hands == [(hand, "other")]


def test_app_score_defaults_to_mcr(client: TestClient, scorer: FakeScorer) -> None:
    response = client.post("/api/score", json=seven_pairs())
    assert response.status_code == 200
    assert scorer.hands[0][1] == "mcr"


def test_app_score_unknown_rules_is_400(client: TestClient, scorer: FakeScorer) -> None:
    response = client.post("/api/score", json={**seven_pairs(), "rules": "riichi"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "unknown rule set 'riichi' (available: mcr, other)",
        "code": "unknown_rules",
    }
    assert scorer.hands == []


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        pytest.param(b"[1, 2]", "must be a JSON object", id="array"),
        pytest.param(b'{"concealed": [', "not valid JSON", id="truncated"),
        pytest.param(b"", "body is empty", id="empty"),
    ],
)
def test_app_score_bad_body_is_422(client: TestClient, content: bytes, fragment: str) -> None:
    response = client.post(
        "/api/score", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert fragment in response.json()["detail"]


def test_app_score_a_hand_sent_as_text_is_told_to_send_json(client: TestClient) -> None:
    response = client.post("/api/score", content=json.dumps(seven_pairs()), headers={"content-type": "text/plain"})
    assert response.status_code == 422
    assert response.json()["detail"] == "send the body as JSON (Content-Type: application/json)"


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        pytest.param("x" * 100_000, "unknown rule set 'xxxxxxxxxx", id="long"),
        pytest.param(["mcr"], "unknown rule set a list (available", id="list"),
        pytest.param(None, "unknown rule set null (available", id="null"),
    ],
)
def test_app_score_bad_rules_are_named_shortly(client: TestClient, rules: Any, said: str) -> None:
    response = client.post("/api/score", json={**seven_pairs(), "rules": rules})
    assert response.status_code == 400
    assert said in response.json()["detail"] and len(response.text) < 300


@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000, b'{"concealed": ["1m\xff"], "win_tile": "1m"}'],
                         ids=["too-deep", "not-utf8"])
def test_app_a_body_that_cannot_be_parsed_is_a_400_in_our_words(client: TestClient, body: bytes) -> None:
    response = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {"detail": "the request body could not be parsed (text that is not UTF-8, JSON "
                                         "nested too deeply, or a number thousands of digits long)",
                               "code": "bad_request"}


_HAND_TEXT = '{"concealed": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","1s","2s","3s","E","E"], "win_tile": "E"}'


@pytest.mark.parametrize("body", [
    _HAND_TEXT.encode("utf-16"),  # with its byte-order mark: FastAPI alone would read it
    _HAND_TEXT.encode("utf-16-le"),
    _HAND_TEXT.encode("utf-32"),
], ids=["utf16-bom", "utf16-le", "utf32"])
def test_app_score_a_body_that_is_no_utf8_is_a_400(client: TestClient, body: bytes) -> None:
    response = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {"detail": "the request body is not UTF-8 text: send the JSON as UTF-8",
                               "code": "bad_request"}


def test_app_score_a_utf8_body_with_a_byte_order_mark_is_read(client: TestClient) -> None:
    response = client.post("/api/score", content=b"\xef\xbb\xbf" + _HAND_TEXT.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 200


@pytest.mark.parametrize("body", [
    b'{"concealed": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","1s","2s","3s","E","E"], "win_tile": "E",'
    b' "self_drawn": false, "self_drawn": true}',
    b'{"concealed": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","1s","2s","3s","E","E"], "win_tile": "E",'
    b' "win_tile": "1m"}',
], ids=["flag", "win-tile"])
def test_app_score_a_field_given_twice_is_a_400_not_the_last_one_silently(client: TestClient, body: bytes) -> None:
    response = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert "is given twice" in response.json()["detail"]


@pytest.mark.parametrize("parts", [
    [("photo", ("a.png", "PHOTO", "image/png")), ("rules", (None, "mcr")), ("rules", (None, "other"))],
    [("photo", ("a.png", "PHOTO", "image/png")), ("photo", ("b.png", "PHOTO", "image/png"))],
], ids=["two-rule-sets", "two-photos"])
def test_app_read_a_field_given_twice_is_a_400_not_the_last_one_silently(
    client: TestClient, reader: FakeReader, photo: bytes, parts: list
) -> None:
    files = [(name, (value[0], photo, value[2]) if value[1] == "PHOTO" else value) for name, value in parts]
    response = client.post("/api/read", files=files)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert f"the field {parts[-1][0]!r} is given twice" in response.json()["detail"]
    assert reader.calls == []


def test_app_a_text_field_for_the_photo_is_told_to_upload_a_file(client: TestClient) -> None:
    response = client.post("/api/read", data={"photo": "hello"})
    assert response.status_code == 422
    assert response.json()["detail"] == "the 'photo' field must be a file upload"


def test_app_the_page_answers_head_too(client: TestClient) -> None:
    assert client.head("/").status_code == 200


def test_app_rules_lists_the_scorers_rule_sets(client: TestClient) -> None:
    response = client.get("/api/rules")
    assert response.status_code == 200
    assert [r["name"] for r in response.json()] == ["mcr", "other"]


def test_app_tiles_lists_42_faces_in_contract_order(client: TestClient) -> None:
    tiles = client.get("/api/tiles").json()["tiles"]
    assert len(tiles) == 42
    assert [t["code"] for t in tiles[:3]] == ["1m", "2m", "3m"]
    assert tiles[27] == {"code": "E", "chinese": "東"}
    assert tiles[-1]["code"] == "8f"


def test_app_tile_image_is_svg(client: TestClient) -> None:
    response = client.get("/tiles/5p.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(response.text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("name", ["0p.svg", "5p.png", "5p", "..%2Fapp.py"])
def test_app_tile_image_unknown_is_404(client: TestClient, name: str) -> None:
    assert client.get(f"/tiles/{name}").status_code == 404


def test_app_index_serves_the_page(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "text/html" in response.headers["content-type"]
    assert '<script src="/static/app.js"' in response.text
    assert "default-src 'self'" in response.headers["content-security-policy"]


def test_app_page_loads_nothing_from_other_hosts(client: TestClient) -> None:
    for path in ("/", "/static/app.js", "/static/style.css"):
        text = client.get(path).text
        assert not re.search(r"https?://", text), path


@pytest.mark.parametrize("path", ["/static/app.js", "/static/style.css"])
def test_app_static_files_are_served(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 200


def test_app_openapi_documents_the_api(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert {"/api/read", "/api/score", "/api/rules", "/api/tiles"} <= set(spec["paths"])
    read = spec["paths"]["/api/read"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in read


def test_app_labelling_hook_includes_the_labelling_router(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, reader: FakeReader, scorer: FakeScorer
) -> None:
    import types

    from fastapi import APIRouter

    seen: list[Any] = []

    def build_router(folder: Any) -> APIRouter:
        seen.append(folder)
        router = APIRouter()
        router.add_api_route("/api/label/where", lambda: {"folder": str(folder)})
        return router

    module = types.ModuleType("fanscan.web.labelling")
    module.build_router = build_router  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fanscan.web.labelling", module)
    with TestClient(create_app(reader=reader, scorer=scorer, labelling_dir=tmp_path)) as client:
        assert client.get("/api/label/where").json() == {"folder": str(tmp_path)}
    assert seen == [tmp_path]
    with TestClient(create_app(reader=reader, scorer=scorer)) as client:
        assert client.get("/api/label/where").status_code == 404


@pytest.mark.slow
def test_app_read_with_the_project_reader(scorer: FakeScorer) -> None:
    from fanscan.datasets.shared import shared_path

    reader = pytest.importorskip("fanscan.vision.reader")
    classifier = pytest.importorskip("fanscan.vision.classifier")
    if not classifier.DEFAULT_MODEL.is_file():
        pytest.skip("no classifier model shipped yet")
    photo = shared_path("data", "camerash", "untagged-photos", "dots2.jpg")
    if photo is None:
        pytest.skip("no shared photos on this machine")
    data = photo.read_bytes()
    with TestClient(create_app(scorer=scorer)) as client:
        response = client.post("/api/read", files={"photo": ("dots2.jpg", data, "image/jpeg")})
    assert response.status_code == 200
    body = response.json()
    assert body == reader.read_photo(data).to_json()
    assert body["tiles"]
    assert set(body["hand"]) >= {"concealed", "melds", "win_tile", "flowers"}


def test_app_config_reports_the_upload_limit(reader: FakeReader, scorer: FakeScorer) -> None:
    with TestClient(create_app(reader=reader, scorer=scorer, max_upload_bytes=12345)) as client:
        assert client.get("/api/config").json()["max_upload_bytes"] == 12345
