"""What every worker process of a pool does first: end quietly when interrupted, and end when its
parent is gone.

Ctrl-C reaches every process of the terminal's group: a worker interrupted while it starts (its
imports, its models opening) printed a traceback of 30-70 lines under the one line the parent
says; it now ends at once, with no word (the parent says it). A parent killed outright (``kill
-9``, the out-of-memory killer) left its workers running for ever, each holding its models
(about 140 MB); each now watches its parent and ends when the parent is no longer there.

And what the parent does around its pool (``fanscan read --workers``, ``fanscan label
--prelabel --workers``): ``workers_start_deaf_to_interrupts`` while it spawns workers (Ctrl-C held
back until each can end quietly), ``end_workers`` when interrupted, ``quiet_pool_threads`` while
the pool runs.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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


@contextmanager
def quiet_pool_threads() -> Iterator[None]:
    """While the pool runs: the executor's own thread, meeting workers ended by an interrupt
    with photos still queued, raises ``InvalidStateError`` (a race inside ``concurrent.futures``)
    and would print its traceback under the one line the command says. Left by an exception (an
    interrupt), the filter stays for the rest of the process: that thread may meet the cancelled
    photos only as the process ends (1 interrupt in 40 printed its traceback after the pool was
    left)."""
    from concurrent.futures import InvalidStateError

    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not issubclass(args.exc_type, InvalidStateError):
            previous(args)

    threading.excepthook = hook
    yield  # an exception raised here leaves the hook in place
    threading.excepthook = previous


@contextmanager
def workers_start_deaf_to_interrupts() -> Iterator[None]:
    """While the pool spawns its workers: Ctrl-C held back, not lost, and raised once they are
    spawned. Blocked in this thread, a mask each new worker inherits, so that one interrupted in
    its interpreter's own start-up prints no traceback (it lets the interrupt in once it can end
    quietly, ``guard_worker``); and noted, not raised, by this process's handler meanwhile, since
    another of its threads (a progress bar's) may take the signal for it: raised in the middle of a
    spawn, the worker was left without its start-up data and printed "Ran out of input"."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: interrupted.append(signum))
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one held back is noted now
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


def end_workers(pool: Any) -> None:
    """Interrupted: the queued photos dropped and every worker ended now, before this process
    ends (a worker still starting would otherwise outlive it, and print why it cannot start)."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(5)
