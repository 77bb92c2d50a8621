"""An onnxruntime session made on first use and then shared by every thread.

onnxruntime documents ``InferenceSession.run`` as thread-safe, so one session per model serves
the whole process; it is created under a lock so that two threads never build it twice, and only
when first run, so that importing a module that holds one costs nothing.

Every session is opened the same way (``session_options``): a given number of intra-op threads
(the reader's small models take one: their batches are too small to share out), threads that
sleep rather than spin between runs, and no CPU memory arena, so that what a large photo's run
allocated goes back to the allocator when the run ends instead of staying reserved by the
arena for the life of the process. A run's batch is cut into chunks of at most ``max_batch``
along its first axis, so that a photo with many boxes never feeds a model one huge batch.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

MAX_BATCH = 64
"""Default rows per onnxruntime call for models run on batches (crops, windows, squares)."""


def session_options(threads: int | None) -> Any:
    """The ``onnxruntime.SessionOptions`` every session of the reader is opened with."""
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
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    return options


class LazySession:
    """A one-input model: ``run(array)`` returns its first output, computed ``max_batch`` rows
    at a time (``None``: the whole array in one call)."""

    def __init__(self, model_path: Path, *, threads: int | None = 1,
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

                session = ort.InferenceSession(str(self.model_path), session_options(self.threads),
                                               providers=self._providers)
                self._input_name = session.get_inputs()[0].name
                self._session = session
        return self._session

    def run(self, array: np.ndarray) -> np.ndarray:
        """The model's first output for ``array``."""
        session = self._session if self._session is not None else self._open()
        step = self.max_batch
        if step is None or len(array) <= step:
            return session.run(None, {self._input_name: array})[0]
        return np.concatenate([session.run(None, {self._input_name: array[start : start + step]})[0]
                               for start in range(0, len(array), step)])


_shared: dict[tuple[Path, int | None, int | None], LazySession] = {}
_shared_lock = threading.Lock()


def shared_session(model_path: Path, threads: int | None = 1,
                   max_batch: int | None = MAX_BATCH) -> LazySession:
    """The one session of the process on ``model_path`` (opened on its first run)."""
    with _shared_lock:
        key = (Path(model_path), threads, max_batch)
        if key not in _shared:
            _shared[key] = LazySession(Path(model_path), threads=threads, max_batch=max_batch)
        return _shared[key]
