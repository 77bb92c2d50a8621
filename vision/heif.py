"""HEIC / HEIF photos (the iPhone's): recognised by their header and opened through pillow-heif
(the ``heif`` extra) when it is installed; without it, a one-line message that names the extra."""

from __future__ import annotations

from fanscan.errors import FanscanError

_HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs",
                          b"mif1", b"msf1"})
_heif_ready = False


def is_heif(data: bytes) -> bool:
    """Whether ``data`` is a HEIC / HEIF file (an ISO media file of a HEIF brand)."""
    return data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS


def register_opener(name: str) -> None:
    """Teach PIL to open HEIC / HEIF (the iPhone's photos) through pillow-heif, once."""
    global _heif_ready
    if _heif_ready:
        return
    try:
        import pillow_heif
    except ImportError:
        raise FanscanError(
            "unreadable_image",
            f"{name} is a HEIC/HEIF photo; reading it needs pillow-heif: "
            "pip install 'fanscan[heif]' (or save the photo as JPEG)",
        ) from None
    pillow_heif.register_heif_opener()
    _heif_ready = True
