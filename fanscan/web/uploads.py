"""Checks on an uploaded photo before it reaches the reader: not empty, and a format it reads.

The check looks only at the first bytes (the format's signature), so junk is refused in
microseconds with a message that names the upload, instead of occupying a reader thread.
"""

from __future__ import annotations

from fanscan.errors import FanscanError, quoted

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"BM", "bmp"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"GIF87a", "gif"),  # its first frame, as `fanscan read` reads one
    (b"GIF89a", "gif"),
)
ACCEPTED = "JPEG, PNG, WebP, BMP, TIFF or GIF"


def photo_format(data: bytes, name: str) -> str:
    """The image format of an upload (``jpeg``, ``png``, ...), or FanscanError naming ``name``."""
    if not data:
        raise FanscanError("empty_upload", f"the uploaded photo {quoted(name)} is empty")
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"hevc"):
        raise FanscanError(
            "unsupported_image",
            f"{quoted(name)} is a HEIC photo, which is not supported; upload a JPEG "
            "(on an iPhone: Settings > Camera > Formats > Most Compatible)",
        )
    raise FanscanError("unsupported_image", f"{quoted(name)} is not a {ACCEPTED} image")
