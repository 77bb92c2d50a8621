"""Where the optional ../shared folder (real crops, photos, seeds, art) is, if anywhere.

The folder sits beside a developer's or CI's checkout and is absent on a user's machine: code that
uses it calls ``shared_dir()`` and copes with ``None`` (tests skip). ``FANSCAN_SHARED`` overrides.
"""

from __future__ import annotations

import os
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The shared folder, or None when this machine has none."""
    override = os.environ.get("FANSCAN_SHARED")
    candidates = [Path(override)] if override else [_REPO_ROOT.parent / "shared"]
    for candidate in candidates:
        if (candidate / "data").is_dir() or (candidate / "seeds").is_dir():
            return candidate
    return None


def shared_path(*parts: str) -> Path | None:
    """A path inside the shared folder, or None when the folder or that path is missing."""
    root = shared_dir()
    if root is None:
        return None
    path = root.joinpath(*parts)
    return path if path.exists() else None
