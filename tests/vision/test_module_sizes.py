"""The reader's code stays in small modules of one job each (issue 22: none over 400 lines, the
reader's overview module under 200), so the next engineer can see each step whole."""

from __future__ import annotations

from pathlib import Path

import fanscan.vision

VISION = Path(fanscan.vision.__file__).parent


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_vision_module_runs_over_400_lines() -> None:
    sizes = {path.name: _lines(path) for path in VISION.glob("*.py")}
    assert len(sizes) > 10  # the modules were found
    assert {name: n for name, n in sizes.items() if n > 400} == {}


def test_the_reader_overview_stays_under_200_lines() -> None:
    assert _lines(VISION / "reader.py") < 200
