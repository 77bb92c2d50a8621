"""`import fanscan.scoring` and `fanscan score --hand` stay light: no numpy, cv2 or onnxruntime."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("cv2", "onnxruntime", "torch", "numpy")


def _loaded(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_lazy_import_scoring_loads_no_heavy_module() -> None:
    loaded = _loaded(
        "import sys, fanscan.scoring as s\n"
        "s.score(s.parse_notation('123m456p789s123sEE'))\n"
        f"print(*[m for m in {HEAVY!r} if m in sys.modules])"
    )
    assert loaded == set()


def test_lazy_import_score_command_loads_no_vision_module() -> None:
    loaded = _loaded(
        "import sys, contextlib, io\n"
        "from fanscan.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['score', '--hand', '123m456p789s123sEE'])\n"
        f"print(*[m for m in {HEAVY[:3]!r} if m in sys.modules])"
    )
    assert loaded == set()
