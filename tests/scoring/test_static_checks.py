"""`ruff check scoring` and `mypy --strict` over fanscan.scoring, with the settings in pyproject.toml.

Each skips when its tool is not installed (both are in the ``test`` extra, so CI runs them).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


def test_static_checks_ruff_passes_on_scoring() -> None:
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    out = _run([ruff, "check", "scoring"], ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_static_checks_mypy_strict_passes_on_scoring(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    # scoring/ is fanscan.scoring only as installed (setup.py maps the folder): lay the package
    # out as it installs, with fanscan.errors, its one import from outside scoring/.
    package = tmp_path / "fanscan"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "errors.py").symlink_to(ROOT / "fanscan" / "errors.py")
    (package / "scoring").symlink_to(ROOT / "scoring")
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(tmp_path / "cache"), "-p", "fanscan.scoring"]
    out = _run(command, tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
