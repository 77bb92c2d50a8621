"""What every worker process of a pool does first: end quietly when interrupted, and end when its
parent is gone.

Ctrl-C reaches every process of the terminal's group: a worker interrupted while it starts (its
imports, its models opening) printed a traceback of 30-70 lines under the one line the parent
says; it now ends at once, with no word (the parent says it). A parent killed outright (``kill
-9``, the out-of-memory killer) left its workers running for ever, each holding its models
(about 140 MB); each now watches its parent and ends when the parent is no longer there.
"""

from __future__ import annotations

import os
import signal
import threading
import time

PARENT_CHECK_SECONDS = 1.0
"""How often a worker looks whether its parent is still there."""


def _end_quietly(_signum: int, _frame: object) -> None:
    os._exit(130)  # noqa: SLF001 - no cleanup to run: the parent owns every file written


def guard_worker() -> None:
    """Install both in this (worker) process; an interrupt held back while it started (the mask
    its parent spawned it with) arrives now, and ends it quietly."""
    signal.signal(signal.SIGINT, _end_quietly)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(1)  # noqa: SLF001

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
