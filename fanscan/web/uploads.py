"""Checks on an uploaded photo before it reaches the reader: not empty, and a format it reads.

The check looks only at the first bytes (the format's signature), so junk is refused in
microseconds with a message that names the upload, instead of occupying a reader thread.
"""

from __future__ import annotations

from fanscan.errors import FanscanError, quoted
from fanscan.image_signatures import image_format

ACCEPTED = "JPEG, PNG, WebP, BMP, TIFF or GIF"


def photo_format(data: bytes, name: str) -> str:
    """The image format of an upload (``jpeg``, ``png``, ...), or FanscanError naming ``name``."""
    if not data:
        raise FanscanError("empty_upload", f"the uploaded photo {quoted(name)} is empty")
    kind = image_format(data)
    if kind == "heic":
        raise FanscanError(
            "unsupported_image",
            f"{quoted(name)} is a HEIC photo, which is not supported; upload a JPEG "
            "(on an iPhone: Settings > Camera > Formats > Most Compatible)",
        )
    if kind is not None:
        return kind
    raise FanscanError("unsupported_image", f"{quoted(name)} is not a {ACCEPTED} image")
