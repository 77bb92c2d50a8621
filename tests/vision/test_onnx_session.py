"""Shared onnxruntime sessions: one per model file for the whole process, made lazily."""

from __future__ import annotations

import threading
from pathlib import Path

from fanscan.vision.onnx_session import shared_session


def test_shared_session_is_one_per_model_even_across_threads(tmp_path: Path) -> None:
    model = tmp_path / "never_opened.onnx"  # nothing is read until the session first runs
    got = []
    threads = [threading.Thread(target=lambda: got.append(shared_session(model))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(session) for session in got}) == 1
    assert shared_session(Path(str(model))) is got[0]
    assert shared_session(model, threads=2) is not got[0]
    assert shared_session(tmp_path / "other.onnx") is not got[0]
