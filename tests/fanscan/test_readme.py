"""The README's Python example runs as written (on the bundled sample photo)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from fanscan.vision.classifier import DEFAULT_MODEL
from fanscan.vision.samples import SAMPLE_PATH

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")
def test_readme_python_example_reads_and_scores_a_photo() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert "read_photo(" in code and "score(reading.hand" in code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code.replace('"hand.jpg"', repr(str(SAMPLE_PATH))), {})  # noqa: S102
    lines = out.getvalue().splitlines()
    # [WWWW1][444s]45m678pFF6m: All Types 6, Pung of Terminals or Honors 1, Melded Kong 1.
    assert lines[0] == "8 ['All Types', 'Pung of Terminals or Honors', 'Melded Kong']"
    # The sample self-drawn: Mixed Triple Chow 8, Dragon Pung 2, Concealed Kong 2, Self-Drawn 1
    # and its flower (it shows a claimed chow, so no Fully Concealed Hand).
    assert lines[-1] == "14"
