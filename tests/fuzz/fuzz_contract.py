"""Property tests of the contract on hostile input, run by ``test_fuzz.py`` in a child process
whose peak memory it measures (this file is not collected on its own: its name has no test_).

Each input gives a result or a one-line error (``FanscanError``, a result's ``error``, a JSON
4xx), never an exception, a traceback, a 500 or a hang: every example has a deadline.
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image

from fanscan.errors import FanscanError

BOUNDED = settings(
    max_examples=60,
    deadline=timedelta(seconds=20),
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _one_line(text: Any) -> None:
    assert isinstance(text, str) and text and "\n" not in text and "Traceback" not in text, text


# ---- image bytes -------------------------------------------------------------------------------
def _encoded(fmt: str, mode: str, size: tuple[int, int]) -> bytes:
    rng = np.random.default_rng(len(fmt) * 7 + len(mode))
    image = Image.fromarray(rng.integers(0, 255, (size[1], size[0], 3), np.uint8)).convert(mode)
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


def _png_header(width: int, height: int, depth: int, colour: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` but holds almost no data (a would-be bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    body = zlib.compress(b"\0" * 4096)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def _big_grey_png(side: int = 10950) -> bytes:
    """A complete, valid 16-bit grey PNG of ``side`` x ``side`` pixels in a few hundred KB (the
    photo that once took a read to 2.3 GB), compressed row by row."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\0" + b"\x03\xe8" * side
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 16, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


BIG_GREY = _big_grey_png()

SEEDS = [
    BIG_GREY,
    _encoded("JPEG", "RGB", (96, 64)),
    _encoded("JPEG", "L", (64, 64)),
    _encoded("PNG", "RGBA", (64, 48)),
    _encoded("PNG", "P", (40, 40)),
    _encoded("PNG", "I;16", (48, 48)),
    _encoded("BMP", "RGB", (32, 32)),
    _encoded("TIFF", "CMYK", (32, 32)),
    _encoded("GIF", "P", (32, 32)),
    _encoded("WEBP", "RGB", (32, 32)),
    _png_header(10950, 10950, 16, 0),
    _png_header(10000, 11000, 8, 6),
    _png_header(60000, 60000, 8, 2),
]


@st.composite
def image_bytes(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 6))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data + draw(st.binary(max_size=64)))


@BOUNDED
@given(data=image_bytes())
@example(data=BIG_GREY)
def test_fuzz_image_bytes_read_or_fail_in_one_line(data: bytes) -> None:
    from fanscan.vision.reader import read_photo

    try:
        reading = read_photo(data)
    except FanscanError as error:
        _one_line(error.message)
        return
    json.dumps(reading.to_json())


# ---- notation ----------------------------------------------------------------------------------
NOTATION_CHARS = "0123456789mpsfESWNCFP[]+ \t"


@settings(BOUNDED, max_examples=300)
@given(text=st.text(st.sampled_from(NOTATION_CHARS), max_size=40) | st.text(max_size=40))
def test_fuzz_notation_scores_or_fails_in_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.cli import main

    code = main(["score", f"--hand={text}", "--json"])  # "=": a text like "--rules" stays the value
    out, err = capsys.readouterr()
    if code == 0:
        assert json.loads(out)["total"] is not None and err == ""
    else:
        assert code in (1, 2)
        if code == 1:
            _one_line(err.rstrip("\n"))
            assert err.startswith("fanscan: error: ")


# ---- hand JSON ---------------------------------------------------------------------------------
CODES = [*(f"{n}{s}" for s in "mps" for n in range(1, 10)), *"ESWNCFP", *(f"{n}f" for n in range(1, 9))]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
tile_lists = st.lists(st.sampled_from(CODES) | json_values, max_size=16)
melds = st.fixed_dictionaries(
    {"type": st.sampled_from(["chow", "pung", "kong", "pair", 3]), "tiles": tile_lists},
    optional={"concealed": json_values, "claimed_from": json_values},
)
hands = st.fixed_dictionaries(
    {"concealed": tile_lists},
    optional={
        "melds": st.lists(melds, max_size=4) | json_values,
        "win_tile": st.sampled_from(CODES) | json_values,
        "flowers": tile_lists,
        "self_drawn": json_values,
        "seat_wind": st.sampled_from(list("ESWN")) | json_values,
        "base": st.integers() | json_values,
        "extra": json_values,
    },
)


@settings(BOUNDED, max_examples=300)
@given(hand=hands | json_values, rules=st.sampled_from(["mcr", "sichuan", "changsha", "guobiao-plus", "app-custom", "mingxing"]))
def test_fuzz_hand_json_gives_a_result_or_its_error(hand: Any, rules: str) -> None:
    from fanscan.cli._score_lines import _score_line
    from fanscan.scoring.ruleset import get_ruleset, score

    result = score(hand, rules)
    assert (result.total is None) == (result.error is not None)
    if result.error is not None:
        _one_line(result.error)
    line, _ = _score_line(1, json.dumps(hand), rules, get_ruleset(rules), score)
    obj = json.loads(line)
    assert obj["rules"] == rules and "\n" not in line


# ---- label API ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def label_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    import cv2
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    root: Path = tmp_path_factory.mktemp("labels")
    cv2.imwrite(str(root / "a.png"), np.full((40, 60, 3), 90, np.uint8))
    with TestClient(create_app(labelling_dir=root)) as client:
        yield client


corners = st.lists(st.lists(st.integers(-5, 100) | st.floats() | json_values, max_size=3), max_size=5)
label_tiles = st.lists(
    st.fixed_dictionaries(
        {"code": st.sampled_from([*CODES, "back"]) | json_values, "corners": corners,
         "confidence": st.floats() | json_values, "source": st.sampled_from(["model", "person"]) | json_values},
        optional={"group": json_values},
    ),
    max_size=4,
)
label_bodies = st.fixed_dictionaries(
    {"format": st.just("fanscan-labels/1") | json_values, "width": st.integers(-1, 100) | json_values,
     "height": st.integers(-1, 100) | json_values},
    optional={"tiles": label_tiles, "status": st.sampled_from(["reviewed", "unreviewed"]) | json_values,
              "groups": json_values, "image": json_values},
)
names = st.sampled_from(["a.png", "../a.png", "a.png\x00", "/etc/passwd", "x" * 300 + ".png", "", "a.png.fanscan.json"]) | st.text(max_size=20)


@BOUNDED
@given(image=names, body=label_bodies | json_values, if_match=st.none() | st.sampled_from(['"new"', "*", "junk"]))
def test_fuzz_label_api_answers_json_and_never_500(label_client: Any, image: str, body: Any, if_match: str | None) -> None:
    headers = {"content-type": "application/json", **({"if-match": if_match} if if_match else {})}
    content = json.dumps(body)  # NaN and Infinity as Python writes them: the server must cope
    for response in (
        label_client.put("/api/label/labels", params={"image": image}, content=content, headers=headers),
        label_client.get("/api/label/labels", params={"image": image}),
    ):
        assert response.status_code in (200, 400, 404, 409, 422), response.text
        answer = response.json()
        if response.status_code != 200:
            _one_line(answer["detail"])
