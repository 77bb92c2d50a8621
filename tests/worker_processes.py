"""What the interrupt tests of a pool's commands (``read --workers``, ``label --prelabel
--workers``) ask of the processes: a command's workers, and which of them still run."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def workers_of(process: subprocess.Popen) -> list[str]:
    """The process ids of ``process``'s children."""
    return subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()


def still_running(pids: list[str]) -> list[str]:
    """Those of ``pids`` that run (neither gone nor a zombie)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


def interrupt_once_working(process: subprocess.Popen, after: float) -> tuple[list[str], str]:
    """Ctrl-C to ``process``'s whole group ``after`` seconds past its first worker's spawn (0:
    while that worker still starts its interpreter); the workers it had, and its standard error."""
    deadline = time.monotonic() + 30
    while not workers_of(process) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(after)
    workers = workers_of(process)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return workers, err.decode()


def none_left(workers: list[str], seconds: float = 10.0) -> bool:
    """Whether every one of ``workers`` has ended within ``seconds``."""
    deadline = time.monotonic() + seconds
    while still_running(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    return still_running(workers) == []
