"""The pool's own thread kept quiet around an interrupt (``worker_guard.quiet_pool_threads``)."""

from __future__ import annotations

import threading
from concurrent.futures import InvalidStateError

import pytest

from fanscan.worker_guard import quiet_pool_threads


def _raise_in_a_thread(error: Exception) -> None:
    def run() -> None:
        raise error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()


def test_the_pool_thread_s_race_stays_quiet_after_an_interrupt_left_the_pool(monkeypatch) -> None:
    # The executor's thread may meet the photos an interrupt cancelled only as the process ends,
    # after the pool was left: its InvalidStateError must reach no traceback printer then either.
    said: list[type] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: said.append(args.exc_type))
    with pytest.raises(KeyboardInterrupt), quiet_pool_threads():
        raise KeyboardInterrupt
    _raise_in_a_thread(InvalidStateError("CANCELLED: <Future state=cancelled>"))
    assert said == []
    _raise_in_a_thread(ValueError("a real fault"))  # any other error still says so
    assert said == [ValueError]


def test_a_pool_left_normally_gives_the_thread_hook_back(monkeypatch) -> None:
    said: list[type] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: said.append(args.exc_type))
    before = threading.excepthook
    with quiet_pool_threads():
        _raise_in_a_thread(InvalidStateError("CANCELLED"))
        assert said == [] and threading.excepthook is not before
    assert threading.excepthook is before
