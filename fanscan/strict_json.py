"""JSON text read with each object's field names given once.

``json.loads`` keeps the last of two equal names, so a hand JSON with ``"self_drawn": false`` and
then ``"self_drawn": true`` was scored self-drawn without a word; a name given twice is refused
instead, as an unknown one is. Used by ``fanscan score`` (standard input and JSON lines) and the
web app's ``POST /api/score``. And ``finite_number``: whether a decoded value is a number a float
holds (label files, the referee's saves, COCO imports).
"""

from __future__ import annotations

import json
import math
from typing import Any


class DuplicateField(Exception):
    """An object of the JSON text names one field twice (not a ValueError: the callers tell
    those, numbers too long to convert, apart)."""

    def __init__(self, name: str) -> None:
        shown = name if len(name) <= 40 else f"{name[:37]}..."
        super().__init__(f"the field {shown!r} is given twice")
        self.name = name


def _fields_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                raise DuplicateField(name)
            seen.add(name)
    return obj


_DECODER = json.JSONDecoder(object_pairs_hook=_fields_once)


def loads(text: str) -> Any:
    """``json.loads(text)``, but an object naming a field twice raises ``DuplicateField``."""
    return _DECODER.decode(text)


def finite_number(value: Any) -> bool:
    """Whether a decoded JSON value is a number (not true or false) that a float holds finitely:
    JSON integers have no bound, and one of 400 digits overflows ``float`` (``OverflowError``,
    not a ValueError) wherever it is used as a coordinate."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def dumps(obj: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False)``, always encodable as UTF-8: a string holding bytes
    that are no UTF-8 (a file name the file system allowed, decoded with ``surrogateescape``)
    keeps them as ``\\udcXX`` escapes, which a JSON reader gives back as that string."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
