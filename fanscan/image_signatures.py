"""Which image format some bytes are, from their first bytes alone (a format's signature).

Shared by the web app's upload check (``web.uploads``) and the commands that take standard input
as either a photo or text (``fanscan score -``, ``fanscan waits -``): a photo cut short after its
signature is still a photo, and is refused as one, not parsed as a hand.
"""

from __future__ import annotations

SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"BM", "bmp"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"GIF87a", "gif"),  # its first frame, as `fanscan read` reads one
    (b"GIF89a", "gif"),
)
HEIF_BRANDS = (b"heic", b"heix", b"mif1", b"msf1", b"hevc")


def image_format(data: bytes) -> str | None:
    """``jpeg``, ``png``, ``bmp``, ``tiff``, ``gif``, ``webp`` or ``heic`` by the signature that
    ``data`` starts with; None when it starts with none of them."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    for signature, kind in SIGNATURES:
        if data.startswith(signature):
            return kind
    if data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:
        return "heic"
    return None
