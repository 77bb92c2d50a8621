"""Run the property tests of ``fuzz_contract.py`` in a child process and bound its peak memory.

The child is measured alone (``os.wait4`` gives that one process's ``ru_maxrss``), so nothing
the test process itself has allocated counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")
pytest.importorskip("fastapi")

FUZZ_MEMORY_BOUND_MB = 1400
"""Peak resident memory of the whole fuzz run: the classifier models, the web app, and photos
that claim up to 60,000 x 60,000 pixels (a read's budget holds at most 1 GiB of them)."""

FUZZ_TIME_BOUND_S = 600


def run_measured(argv: list[str], timeout: float) -> tuple[int, str, float]:
    """(exit status, output, peak resident MB) of a child process, measured alone."""
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.2)
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        log.seek(0)
        return process.returncode, log.read(), usage.ru_maxrss / 1024


@pytest.mark.slow
def test_fuzz_contract_holds_in_bounded_memory() -> None:
    if not hasattr(os, "wait4"):
        pytest.skip("os.wait4 is needed to measure the child alone")
    here = Path(__file__).with_name("fuzz_contract.py")
    started = time.monotonic()
    code, output, peak_mb = run_measured(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(here)], FUZZ_TIME_BOUND_S
    )
    assert code == 0, output[-4000:]
    assert "4 passed" in output, output[-2000:]
    print(f"fuzz: {time.monotonic() - started:.0f} s, peak {peak_mb:.0f} MB")
    assert peak_mb < FUZZ_MEMORY_BOUND_MB
