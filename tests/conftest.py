"""Suite-wide options.

``--no-system-art`` runs the suite as on a fresh machine without Debian's tile-art and font
packages (the README's fresh-clone check): every tile-art and font path under /usr/share is
pointed at a folder that does not exist, ``rsvg-convert`` is taken as missing, and rendered faces
are cached in a fresh folder, so tests that need the art skip (saying so) and the rest must pass.
"""

from __future__ import annotations

import tempfile
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-system-art",
        action="store_true",
        help="run as on a machine without Debian's tile art and fonts (see tests/conftest.py)",
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


def hide_system_art(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this process see no Debian tile art or fonts (see the module docstring)."""
    import importlib

    for name in _ART_MODULES:
        module = importlib.import_module(name)
        for attribute, value in list(vars(module).items()):
            if attribute.isupper() and _hidden(value) != value:
                monkeypatch.setattr(module, attribute, _hidden(value))
    tile_art = importlib.import_module("fanscan.datasets.tile_art")
    monkeypatch.setattr(tile_art, "_rsvg", lambda: None)
    monkeypatch.setenv("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="fanscan-no-art-cache-"))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--no-system-art"):
        patcher = pytest.MonkeyPatch()
        hide_system_art(patcher)
        config.add_cleanup(patcher.undo)
