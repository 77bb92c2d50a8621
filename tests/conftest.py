"""Suite-wide options.

``--no-system-art`` runs the suite as on a fresh machine without Debian's tile-art and font
packages (the README's fresh-clone check; ``no_system_art.py``): tests that need the art skip,
saying so, and the rest must pass.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from no_system_art import hide_system_art


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-system-art",
        action="store_true",
        help="run as on a machine without Debian's tile art and fonts (tests/no_system_art.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--no-system-art"):
        patcher = pytest.MonkeyPatch()
        cache = tempfile.TemporaryDirectory(prefix="fanscan-no-art-cache-")
        hide_system_art(patcher, Path(cache.name))
        config.add_cleanup(cache.cleanup)
        config.add_cleanup(patcher.undo)
