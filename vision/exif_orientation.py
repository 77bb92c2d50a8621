"""A photo's EXIF orientation, read without decoding its pixels.

PIL reads a PNG's ``eXIf`` chunk when the file is opened only when the chunk lies before the
image data; otherwise ``getexif`` decodes the whole picture to reach the chunks after it. Every
PNG without the chunk before its data was so decoded once more, at full size, when it was
opened, before the read's memory budget (``image_io.ReadBudget``) was asked (a 40 MP PNG: its
full-size decode at opening, docs/benchmarks.md, session 84). Here a PNG's chunks are walked
instead, its image data skipped unread, and the ``eXIf`` chunk found anywhere is handed to PIL
(the other chunks it reads the orientation from, XMP and ImageMagick's raw EXIF text, it reads
as found before the image data).
"""

from __future__ import annotations

import struct

from PIL import Image

ORIENTATION_TAG = 0x0112
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def orientation(image: Image.Image, data: bytes) -> int:
    """The EXIF orientation of ``image`` (opened by PIL from ``data``, nothing decoded): 1 when it
    has none or its EXIF block is broken."""
    try:
        if image.format == "PNG" and "exif" not in image.info:
            if (found := png_exif(data)) is not None:
                image.info["exif"] = b"Exif\x00\x00" + found
            exif = Image.Image.getexif(image)  # ``PngImageFile.getexif`` would decode the picture first
        else:
            exif = image.getexif()
        return int(exif.get(ORIENTATION_TAG, 1))
    except Exception:  # noqa: BLE001 - a broken EXIF block only loses the orientation
        return 1


def png_exif(data: bytes) -> bytes | None:
    """The data of a PNG's ``eXIf`` chunk, wherever it lies (None when it has none or the file
    is no PNG, or is cut short before the chunk ends): each chunk's length and type read, its
    data skipped."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if at + 12 + length > len(data):  # a file cut short
            return None
        if kind == b"eXIf":
            return data[at + 8:at + 8 + length]
        if kind == b"IEND":
            return None
        at += 12 + length  # length, type, data, CRC
    return None
