"""An onnxruntime session made on first use and then shared by every thread.

onnxruntime documents ``InferenceSession.run`` as thread-safe, so one session per model serves
the whole process; it is created under a lock so that two threads never build it twice, and only
when first run, so that importing a module that holds one costs nothing.

Every session is opened the same way (``session_options``): a given number of intra-op threads
(by default the process's ``thread_budget``: the CPUs it may use, or its share of them when
photos are read in several worker processes), threads that sleep rather than spin between runs,
and no CPU memory arena, so that what a large photo's run allocated goes back to the allocator
when the run ends instead of staying reserved by the arena for the life of the process. A run's
batch is cut into chunks of at most ``max_batch`` along its first axis, so that a photo with many
boxes never feeds a model one huge batch.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from fanscan.errors import FanscanError

MAX_BATCH = 64
"""Default rows per onnxruntime call for models run on batches (crops, windows, squares)."""


THREADS_VARIABLE = "FANSCAN_THREADS"
"""An environment variable that, set to a positive whole number, fixes the thread budget."""

_budget: int | None = None


def available_cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def set_thread_budget(threads: int | None) -> None:
    """Give the sessions opened from now on ``threads`` intra-op threads each (None: back to
    the default). A pool of N worker processes gives each its share of the CPUs."""
    global _budget
    if threads is not None and threads < 1:
        raise ValueError(f"a thread budget must be positive, not {threads}")
    _budget = threads


def thread_budget() -> int:
    """The intra-op threads a session opened with ``threads=None`` gets: ``set_thread_budget``'s,
    else ``FANSCAN_THREADS`` (at most the CPUs the process may use: each thread holds a stack and
    buffers, and FANSCAN_THREADS=99999 took 4 GB to no end), else every CPU the process may use.
    One photo's finder, refiner and classifier batches run about 1.5-2 times as fast on two
    threads as on one (``docs/benchmarks.md``), and the models run one after another, so they
    never compete."""
    if _budget is not None:
        return _budget
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    if value.isascii() and value.isdigit() and int(value) > 0:  # "²" is a digit to isdigit, not to int
        return min(int(value), available_cpus())
    return available_cpus()


def session_options(threads: int | None) -> Any:
    """The ``onnxruntime.SessionOptions`` every session of the reader is opened with
    (``threads`` None: the ``thread_budget``)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    # Memory patterns are planned per input shape, and every photo brings new
    # shapes (image sizes, numbers of crops): planning cost more than it saved.
    options.enable_mem_pattern = False
    # The arena keeps its largest size reserved for good; without it each run's buffers are
    # freed when the run ends (docs/benchmarks.md, onnxruntime sessions: measured both ways).
    options.enable_cpu_mem_arena = False
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    options.intra_op_num_threads = threads if threads else thread_budget()
    options.inter_op_num_threads = 1
    return options


class LazySession:
    """A one-input model: ``run(array)`` returns its first output, computed ``max_batch`` rows
    at a time (``None``: the whole array in one call); ``threads`` None is the process's
    ``thread_budget`` when the session opens."""

    def __init__(self, model_path: Path, *, threads: int | None = None,
                 providers: Sequence[str] | None = None, max_batch: int | None = MAX_BATCH) -> None:
        if max_batch is not None and max_batch < 1:
            raise ValueError(f"max_batch must be positive, not {max_batch}")
        self.model_path = model_path
        self.threads = threads
        self.max_batch = max_batch
        self._providers = list(providers) if providers else ["CPUExecutionProvider"]
        self._session: Any = None
        self._input_name = ""
        self._lock = threading.Lock()

    def _open(self) -> Any:
        with self._lock:
            if self._session is None:
                import onnxruntime as ort

                try:
                    session = ort.InferenceSession(str(self.model_path), session_options(self.threads),
                                                   providers=self._providers)
                except Exception as error:  # onnxruntime's own kinds: a file that is no model it runs
                    first = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
                    raise FanscanError("bad_model", f"{self.model_path} is no model onnxruntime can load ({first})") from None
                self._input_name = session.get_inputs()[0].name
                self._session = session
        return self._session

    def input_shape(self) -> tuple[int | str | None, ...]:
        """The model's declared input shape (a name or None for a free dimension)."""
        session = self._session if self._session is not None else self._open()
        return tuple(session.get_inputs()[0].shape)

    def run(self, array: np.ndarray) -> np.ndarray:
        """The model's first output for ``array``; a model that takes no such input (another
        model named with this one's sidecar) is ``bad_model``."""
        session = self._session if self._session is not None else self._open()
        step = self.max_batch
        try:
            if step is None or len(array) <= step:
                return session.run(None, {self._input_name: array})[0]
            return np.concatenate([session.run(None, {self._input_name: array[start : start + step]})[0]
                                   for start in range(0, len(array), step)])
        except Exception as error:
            if type(error).__name__ != "InvalidArgument":  # onnxruntime's kind for an input of the wrong shape or type
                raise
            first = str(error).strip().splitlines()[0][:160] if str(error).strip() else "InvalidArgument"
            raise FanscanError("bad_model", f"{self.model_path} does not take the input its sidecar describes "
                                            f"({first})") from None


_shared: dict[tuple[Path, int | None, int | None], LazySession] = {}
_shared_lock = threading.Lock()


def shared_session(model_path: Path, threads: int | None = None,
                   max_batch: int | None = MAX_BATCH) -> LazySession:
    """The one session of the process on ``model_path`` (opened on its first run)."""
    with _shared_lock:
        key = (Path(model_path), threads, max_batch)
        if key not in _shared:
            _shared[key] = LazySession(Path(model_path), threads=threads, max_batch=max_batch)
        return _shared[key]
