"""Run the property tests of ``fuzz_contract.py`` in a child process and bound its peak memory.

The child reports its own peak (``VmHWM``: its address space's high-water mark), so nothing the
test process has allocated counts (Linux folds the parent's peak into a spawned child's
``ru_maxrss``, which would).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")
pytest.importorskip("fastapi")

FUZZ_MEMORY_BOUND_MB = 1400
"""Peak resident memory of the whole fuzz run: the classifier models, the web app, and photos
that claim up to 60,000 x 60,000 pixels (a read's budget holds at most 1 GiB of them)."""

FUZZ_TIME_BOUND_S = 600


# pytest on the fuzz file, then the child's own peak memory as the last line.
_CHILD = """
import sys
import pytest
code = pytest.main(["-p", "no:cacheprovider", sys.argv[1]])
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print(f"peak_kb={hwm[0].split()[1]}")
sys.exit(int(code))
"""


@pytest.mark.slow
def test_fuzz_contract_holds_in_bounded_memory() -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("peak memory is read from /proc (Linux)")
    here = Path(__file__).with_name("fuzz_contract.py")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(here)],
        capture_output=True, text=True, timeout=FUZZ_TIME_BOUND_S,
    )
    output = done.stdout + done.stderr
    code = done.returncode
    lines = done.stdout.splitlines()
    assert lines and lines[-1].startswith("peak_kb="), output[-4000:]
    peak_mb = int(lines[-1].removeprefix("peak_kb=")) / 1024
    assert code == 0, output[-4000:]
    assert "4 passed" in output, output[-2000:]
    print(f"fuzz: {time.monotonic() - started:.0f} s, peak {peak_mb:.0f} MB")
    assert peak_mb < FUZZ_MEMORY_BOUND_MB
