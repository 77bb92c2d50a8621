"""An onnxruntime session made on first use and then shared by every thread.

onnxruntime documents ``InferenceSession.run`` as thread-safe, so one session per model serves
the whole process; it is created under a lock so that two threads never build it twice, and only
when first run, so that importing a module that holds one costs nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np


class LazySession:
    """A one-input model: ``run(array)`` returns its first output."""

    def __init__(self, model_path: Path, *, threads: int | None = None,
                 providers: Sequence[str] | None = None) -> None:
        self.model_path = model_path
        self._threads = threads
        self._providers = list(providers) if providers else ["CPUExecutionProvider"]
        self._session: Any = None
        self._input_name = ""
        self._lock = threading.Lock()

    def _open(self) -> Any:
        with self._lock:
            if self._session is None:
                import onnxruntime as ort

                options = ort.SessionOptions()
                # Memory patterns are planned per input shape, and every photo brings new
                # shapes (image sizes, numbers of crops): planning cost more than it saved.
                options.enable_mem_pattern = False
                if self._threads:
                    options.intra_op_num_threads = self._threads
                    options.inter_op_num_threads = 1
                session = ort.InferenceSession(str(self.model_path), options, providers=self._providers)
                self._input_name = session.get_inputs()[0].name
                self._session = session
        return self._session

    def run(self, array: np.ndarray) -> np.ndarray:
        """The model's first output for ``array``."""
        session = self._session if self._session is not None else self._open()
        return session.run(None, {self._input_name: array})[0]


_shared: dict[tuple[Path, int], LazySession] = {}
_shared_lock = threading.Lock()


def shared_session(model_path: Path, threads: int = 1) -> LazySession:
    """The one session of the process on ``model_path`` (opened on its first run)."""
    with _shared_lock:
        key = (Path(model_path), threads)
        if key not in _shared:
            _shared[key] = LazySession(Path(model_path), threads=threads)
        return _shared[key]
