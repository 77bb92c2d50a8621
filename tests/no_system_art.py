"""Running as on a machine without Debian's tile-art and font packages (``--no-system-art``).

Every tile-art and font path under /usr/share is pointed at a folder that does not exist,
``rsvg-convert`` is taken as missing, and rendered faces are cached in a fresh folder. A module of
its own (not ``conftest``) so that tests can import it by a name no other file has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_SYSTEM = "/usr/share"
_NOWHERE = "/nonexistent-system-art"
_ART_MODULES = (
    "fanscan.datasets.tile_art",
    "fanscan.datasets.composed_faces",
    "fanscan.datasets.synth_tiles",
    "fanscan.datasets.numeral_patches",
)


def _hidden(value: Any) -> Any:
    """``value`` with every path under /usr/share moved to a folder that does not exist."""
    if isinstance(value, Path) and str(value).startswith(_SYSTEM):
        return Path(_NOWHERE + str(value)[len(_SYSTEM) :])
    if isinstance(value, tuple):
        return tuple(_hidden(item) for item in value)
    if isinstance(value, dict):
        return {key: _hidden(item) for key, item in value.items()}
    return value


def clear_art_caches() -> None:
    """Forget what the art modules' cached functions (the fonts found, ...) have answered."""
    import importlib

    for name in _ART_MODULES:
        for value in vars(importlib.import_module(name)).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def hide_system_art(monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> None:
    """Make this process see no Debian tile art or fonts (see the module docstring), rendered art
    cached in ``cache_dir`` (the caller's to remove); a test that calls it calls
    ``clear_art_caches`` when done, so that later tests see the art again."""
    import importlib

    clear_art_caches()
    for name in _ART_MODULES:
        module = importlib.import_module(name)
        for attribute, value in list(vars(module).items()):
            if attribute.isupper() and _hidden(value) != value:
                monkeypatch.setattr(module, attribute, _hidden(value))
    tile_art = importlib.import_module("fanscan.datasets.tile_art")
    monkeypatch.setattr(tile_art, "_rsvg", lambda: None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_dir))
