"""fanscan: photograph a physical mahjong hand, get the fans.

The public names, loaded on first use so that ``import fanscan`` loads nothing heavy (no numpy,
cv2 or onnxruntime until a photo is read):

- ``read_photo(source) -> PhotoReading``: read a photo (a path or its bytes); ``.hand`` is a
  ``Hand``, ``.tiles``, ``.doubts`` and ``.to_json()`` the contract's read object.
- ``score(hand, rules="mcr") -> ScoreResult``: score a ``Hand`` or a hand JSON dict.
- ``parse_notation(text) -> Hand`` and ``format_notation(hand) -> str``: the text notation.
- ``Hand``, ``Meld``, ``Tile``, ``ScoreResult``, ``PhotoReading``, ``FanscanError``.

>>> from fanscan import parse_notation, score
>>> score(parse_notation("[567m,2][999s,3]123p45sEE6s")).total
1

Subpackages: ``fanscan.scoring`` (tiles, hands, rule sets; pure Python), ``fanscan.vision``
(the OpenCV/ONNX photo reader), ``fanscan.models`` (the shipped classifier and its training),
``fanscan.datasets`` (synthetic data, real-data loaders, label formats), ``fanscan.cli``.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "read_photo": "fanscan.vision.reader",
    "PhotoReading": "fanscan.vision.reader",
    "score": "fanscan.scoring.ruleset",
    "ScoreResult": "fanscan.scoring.ruleset",
    "parse_notation": "fanscan.scoring.notation",
    "format_notation": "fanscan.scoring.notation",
    "Hand": "fanscan.scoring.hand",
    "Meld": "fanscan.scoring.hand",
    "Tile": "fanscan.scoring.tiles",
    "FanscanError": "fanscan.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fanscan' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
