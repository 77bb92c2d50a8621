"""The upload check: empty files and non-images are refused by their first bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from fanscan.errors import FanscanError
from fanscan.web.uploads import photo_format


def _encoded(kind: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 6), (10, 120, 40)).save(buffer, format=kind)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("JPEG", "jpeg"), ("PNG", "png"), ("WEBP", "webp"), ("BMP", "bmp"), ("TIFF", "tiff"), ("GIF", "gif")],
)
def test_uploads_recognises_image_formats(kind: str, expected: str) -> None:
    assert photo_format(_encoded(kind), "x") == expected


def test_uploads_empty_is_refused() -> None:
    with pytest.raises(FanscanError, match=r"'a\.jpg' is empty") as error:
        photo_format(b"", "a.jpg")
    assert error.value.code == "empty_upload"


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.7\n", b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"\xff\xd8"],
    ids=["pdf", "svg", "truncated-jpeg"],
)
def test_uploads_non_images_are_refused(data: bytes) -> None:
    with pytest.raises(FanscanError, match="'f' is not a JPEG, PNG, WebP, BMP, TIFF or GIF image"):
        photo_format(data, "f")


def test_uploads_heic_gets_its_own_advice() -> None:
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"
    with pytest.raises(FanscanError, match=r"HEIC photo.*Most Compatible"):
        photo_format(heic, "IMG_1.HEIC")


def test_image_signatures_name_each_format_and_nothing_else() -> None:
    from fanscan.image_signatures import image_format

    assert image_format(b"\xff\xd8\xff\xe0") == "jpeg" and image_format(b"GIF89a\x01") == "gif"
    assert image_format(b"RIFF\0\0\0\0WEBPVP8 ") == "webp" and image_format(b"\0\0\0\x18ftypheic") == "heic"
    assert image_format(b"123m456p") is None and image_format(b"") is None
