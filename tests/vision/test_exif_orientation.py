"""A photo's EXIF orientation read without decoding it: a PNG's eXIf chunk wherever it lies."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from fanscan.vision import exif_orientation
from fanscan.vision.image_io import load_photo
from PIL import Image, PngImagePlugin


def _marked(width: int = 400, height: int = 200) -> Image.Image:
    """A picture whose top-left quarter is red and the rest blue, to see how it was turned."""
    array = np.zeros((height, width, 3), np.uint8)
    array[:, :] = (0, 0, 255)
    array[: height // 2, : width // 2] = (255, 0, 0)
    return Image.fromarray(array)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _orientation_exif(value: int) -> bytes:
    exif = Image.Exif()
    exif[exif_orientation.ORIENTATION_TAG] = value
    return exif.tobytes()[6:]  # the chunk holds the TIFF data, without PIL's "Exif\0\0"


def _png_with_exif_after_data(value: int) -> bytes:
    """A PNG whose eXIf chunk lies between its image data and its end, where PIL reads it only
    after decoding the picture."""
    buffer = io.BytesIO()
    _marked().save(buffer, "PNG")
    data = buffer.getvalue()
    end = data.rindex(b"IEND") - 4
    return data[:end] + _chunk(b"eXIf", _orientation_exif(value)) + data[end:]


def test_an_exif_chunk_after_a_pngs_data_turns_it() -> None:
    photo = load_photo(_png_with_exif_after_data(6))
    assert photo.size == (200, 400)
    image = photo.decode(1)
    # After a clockwise turn the red quarter sits top-right (BGR: red is channel 2).
    assert image[50, 150, 2] > 200 and image[50, 150, 0] < 60
    assert image[50, 50, 0] > 200


def test_an_exif_chunk_before_a_pngs_data_turns_it() -> None:
    exif = Image.Exif()
    exif[exif_orientation.ORIENTATION_TAG] = 8
    buffer = io.BytesIO()
    _marked().save(buffer, "PNG", exif=exif.tobytes())
    assert buffer.getvalue().index(b"eXIf") < buffer.getvalue().index(b"IDAT")
    assert load_photo(buffer.getvalue()).size == (200, 400)


def test_opening_a_png_decodes_none_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded = []
    real_load = PngImagePlugin.PngImageFile.load
    monkeypatch.setattr(PngImagePlugin.PngImageFile, "load", lambda self: decoded.append(1) or real_load(self))
    for data in (_png_with_exif_after_data(3), _png_without_exif()):
        load_photo(data)
    assert decoded == []


def _png_without_exif() -> bytes:
    buffer = io.BytesIO()
    _marked().save(buffer, "PNG")
    return buffer.getvalue()


def test_a_png_without_exif_stands_as_stored() -> None:
    assert load_photo(_png_without_exif()).size == (400, 200)
    assert exif_orientation.png_exif(_png_without_exif()) is None


def test_a_broken_exif_chunk_loses_only_the_orientation() -> None:
    data = _png_without_exif()
    end = data.rindex(b"IEND") - 4
    broken = data[:end] + _chunk(b"eXIf", b"MM\x00*\xff\xff") + data[end:]
    photo = load_photo(broken)
    assert photo.size == (400, 200)
    assert photo.decode(1).shape == (200, 400, 3)


@pytest.mark.parametrize("data", [b"", b"\x89PNG\r\n\x1a\n", b"\x89PNG\r\n\x1a\n\x00\x00\x00\x10eXIf", b"GIF89a..."])
def test_png_exif_of_no_png_or_a_cut_one_is_none(data: bytes) -> None:
    assert exif_orientation.png_exif(data) is None
