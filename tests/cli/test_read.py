"""``fanscan read``: bad input gives one line and exit 1; a real read prints the contract's object."""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from fanscan.vision.classifier import DEFAULT_MODEL
from PIL import Image

from fanscan.cli import main


def _plain_table(mode: str) -> Image.Image:
    """A photo of an empty green table (no tiles), in the given PIL mode."""
    rng = np.random.default_rng(0)
    array = np.clip(rng.normal((40, 120, 60), 6, (300, 400, 3)), 0, 255).astype(np.uint8)
    image = Image.fromarray(array)
    if mode == "RGBA":
        image.putalpha(200)
        return image
    return image.convert(mode)


def _save(image: Image.Image, path: Path) -> Path:
    image.save(path)
    return path


def _bomb(path: Path) -> Path:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b""))
    return path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _truncated(path: Path) -> Path:
    buffer = io.BytesIO()
    _plain_table("RGB").save(buffer, "JPEG")
    data = buffer.getvalue()
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        pytest.param(lambda d: d / "missing.jpg", "no such file", id="missing"),
        pytest.param(lambda d: d, "holds no photos", id="folder-without-photos"),
        pytest.param(lambda d: _write(d / "empty.jpg", b""), "is empty", id="empty"),
        pytest.param(lambda d: _write(d / "notes.jpg", b"shopping list"), "not an image", id="not-an-image"),
        pytest.param(lambda d: _truncated(d / "cut.jpg"), "could not be decoded", id="truncated"),
        pytest.param(lambda d: _bomb(d / "bomb.png"), "megapixel", id="decompression-bomb"),
        pytest.param(lambda d: _save(_plain_table("RGB"), d / "table.jpg"), "no mahjong tiles", id="no-tiles"),
        pytest.param(lambda d: _save(_plain_table("L"), d / "grey.png"), "no mahjong tiles", id="grayscale"),
        pytest.param(lambda d: _save(_plain_table("CMYK"), d / "cmyk.jpg"), "no mahjong tiles", id="cmyk"),
        pytest.param(lambda d: _save(_plain_table("RGBA"), d / "alpha.png"), "no mahjong tiles", id="alpha"),
    ],
)
def test_read_bad_input_is_one_line_and_exit_1(tmp_path: Path, capsys, make, words: str) -> None:
    path = make(tmp_path)
    assert main(["read", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("fanscan: error: ") and words in lines[0]
    assert "Traceback" not in captured.err


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")


@needs_model
def test_read_json_follows_the_contract(tmp_path: Path, capsys) -> None:
    from fanscan.datasets.scenes import generate_scene

    scene = generate_scene(5, size=(1200, 900))
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(scene.jpeg)
    out = tmp_path / "annotated.jpg"
    assert main(["read", str(photo), "--json", "--annotate", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"tiles", "hand", "doubts"} <= set(result)
    assert len(result["tiles"]) == len(scene.tiles)
    for tile in result["tiles"]:
        assert set(tile) >= {"code", "confidence", "box", "orientation"}
        assert len(tile["box"]) == 4 and all(len(corner) == 2 for corner in tile["box"])
    assert set(result["hand"]) >= {"concealed", "melds", "win_tile", "flowers"}
    assert Image.open(out).size == (1200, 900)


@needs_model
def test_read_summary_for_people(tmp_path: Path, capsys) -> None:
    from fanscan.datasets.scenes import generate_scene

    photo = tmp_path / "hand.jpg"
    photo.write_bytes(generate_scene(6, size=(1200, 900)).jpeg)
    assert main(["read", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "concealed:" in out and "winning tile:" in out
