"""fanscan.scoring: tiles, hands, the text notation, readings and rule sets (pure Python).

The public names are loaded on first use, so ``import fanscan.scoring`` costs almost nothing and
never pulls in numpy, cv2 or onnxruntime.

>>> from fanscan.scoring import score, parse_notation
>>> score(parse_notation("123m456p789s123sEE")).total
12
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Tile": "fanscan.scoring.tiles",
    "Hand": "fanscan.scoring.hand",
    "Meld": "fanscan.scoring.hand",
    "parse_notation": "fanscan.scoring.notation",
    "format_notation": "fanscan.scoring.notation",
    "readings": "fanscan.scoring.decompose",
    "Reading": "fanscan.scoring.decompose",
    "score": "fanscan.scoring.ruleset",
    "ScoreResult": "fanscan.scoring.ruleset",
    "FanCount": "fanscan.scoring.ruleset",
    "Fan": "fanscan.scoring.ruleset",
    "RuleSet": "fanscan.scoring.ruleset",
    "get_ruleset": "fanscan.scoring.ruleset",
    "available": "fanscan.scoring.ruleset",
    "waits": "fanscan.scoring.waits",
}

__all__ = sorted(_EXPORTS)  # noqa: PLE0605 (a list, built from the lazy-export table)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fanscan.scoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
