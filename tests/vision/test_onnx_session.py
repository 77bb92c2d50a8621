"""Shared onnxruntime sessions: one per model file for the whole process, made lazily, opened with
the reader's options, running batches in bounded chunks."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from fanscan.vision import finder, refine
from fanscan.vision.classifier import TileClassifier, default_classifier
from fanscan.vision.flowers import default_flower_looks
from fanscan.vision.image_io import load_photo
from fanscan.vision.numerals import WINDOW_SIDES, NumeralReader, default_numeral_reader
from fanscan.vision.onnx_session import (
    THREADS_VARIABLE,
    LazySession,
    available_cpus,
    set_thread_budget,
    shared_session,
    thread_budget,
)


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


def _opened_options(session: LazySession):
    return session._open().get_session_options()


@pytest.mark.parametrize("model", ["classifier", "specialist", "numerals", "refiner", "finder"])
def test_every_shipped_model_opens_on_its_threads_without_spinning_or_arena(model: str) -> None:
    sessions = {
        "classifier": lambda: default_classifier()._session,
        "specialist": lambda: default_flower_looks().specialist._session,
        "numerals": lambda: default_numeral_reader()._session,
        "refiner": refine._get_session,
        "finder": finder._get_session,
    }
    session = sessions[model]()
    if session is None:
        pytest.skip(f"the {model} model is not installed")
    options = _opened_options(session)
    assert options.intra_op_num_threads == thread_budget()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert not options.enable_cpu_mem_arena


def test_threads_can_still_be_chosen() -> None:
    assert _opened_options(TileClassifier(threads=2)._session).intra_op_num_threads == 2
    assert _opened_options(TileClassifier(threads=1)._session).intra_op_num_threads == 1


def test_the_thread_budget_is_the_cpus_unless_set_or_fixed_by_the_environment(monkeypatch) -> None:
    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    assert thread_budget() == available_cpus() >= 1
    monkeypatch.setenv(THREADS_VARIABLE, "1")
    assert thread_budget() == 1
    assert _opened_options(TileClassifier()._session).intra_op_num_threads == 1
    monkeypatch.setenv(THREADS_VARIABLE, "99999")  # threads beyond the CPUs only cost memory
    assert thread_budget() == available_cpus()
    for ignored in ("0", "-2", "many", "", "²", "３"):  # digits to str.isdigit that are no ASCII number
        monkeypatch.setenv(THREADS_VARIABLE, ignored)
        assert thread_budget() == available_cpus()
    try:
        set_thread_budget(2)
        monkeypatch.setenv(THREADS_VARIABLE, "5")
        assert thread_budget() == 2  # a pool's share wins over the environment
        assert _opened_options(TileClassifier()._session).intra_op_num_threads == 2
    finally:
        set_thread_budget(None)
    with pytest.raises(ValueError):
        set_thread_budget(0)


class _Spy:
    """Wraps an opened session's ``run`` and records the batch each call got."""

    def __init__(self, session: LazySession, monkeypatch: pytest.MonkeyPatch) -> None:
        self.batches: list[int] = []
        opened = session._open()
        run = opened.run

        def spied(outputs, feeds, *rest):
            self.batches.append(len(next(iter(feeds.values()))))
            return run(outputs, feeds, *rest)

        monkeypatch.setattr(opened, "run", spied)


def test_a_run_is_cut_into_bounded_chunks_with_the_same_outputs(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = LazySession(refine.MODEL_PATH, max_batch=None)
    chunked = LazySession(refine.MODEL_PATH, max_batch=3)
    spy = _Spy(chunked, monkeypatch)
    squares = np.random.default_rng(0).random((7, 3, refine.SIDE, refine.SIDE), dtype=np.float32)
    got = chunked.run(squares)
    assert spy.batches == [3, 3, 1]
    np.testing.assert_allclose(got, whole.run(squares), rtol=1e-4, atol=1e-4)


def test_max_batch_must_be_positive() -> None:
    with pytest.raises(ValueError):
        LazySession(refine.MODEL_PATH, max_batch=0)


def test_the_numeral_reader_feeds_its_bands_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    crops = [np.random.default_rng(seed).integers(0, 255, (128, 96, 3), dtype=np.uint8) for seed in range(5)]
    bounded = NumeralReader(max_crops=2)
    spy = _Spy(bounded._session, monkeypatch)
    got = bounded.number_probabilities(crops)
    # Each window side's bands go in chunks of two crops: 2 + 2 + 1, three sides.
    assert sorted(spy.batches) == sorted([2, 2, 1] * len(WINDOW_SIDES))
    np.testing.assert_allclose(got, NumeralReader(max_crops=100).number_probabilities(crops),
                               rtol=1e-4, atol=1e-5)


def test_the_classifier_feeds_many_crops_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    classifier = TileClassifier()
    spy = _Spy(classifier._session, monkeypatch)
    crops = [np.random.default_rng(seed).integers(0, 255, (102, 76, 3), dtype=np.uint8) for seed in range(150)]
    assert classifier.probabilities(crops).shape == (150, len(classifier.labels))
    assert sum(spy.batches) >= 150 and max(spy.batches) <= 64


def test_the_refiner_feeds_many_boxes_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    session = refine._get_session()
    if session is None:
        pytest.skip("the refiner model is not installed")
    spy = _Spy(session, monkeypatch)
    image = np.random.default_rng(0).integers(0, 255, (600, 800, 3), dtype=np.uint8)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    corners = np.float32([[0, 0], [40, 0], [40, 56], [0, 56]])
    quads = np.stack([corners + np.float32([60 + 45 * (i % 15), 60 + 70 * (i // 15)]) for i in range(90)])
    assert refine.refine_quads(photo, quads).shape == quads.shape
    assert spy.batches[0] < len(quads) and sum(spy.batches) >= len(quads)


def test_the_reader_opens_its_later_sessions_once_in_a_thread_of_their_own(monkeypatch) -> None:
    import fanscan.vision.reader as reader

    opened: list[str] = []

    class _Session:
        def __init__(self, name: str, fails: bool = False) -> None:
            self.name, self.fails = name, fails

        def _open(self) -> None:
            opened.append(self.name)
            if self.fails:
                raise RuntimeError("a broken model: the read itself will say so")

    class _Classifier:
        _session = _Session("classifier", fails=True)

    monkeypatch.setattr(reader.session_opening, "_opening", None)
    monkeypatch.setattr(reader.session_opening.refine, "_get_session", lambda: _Session("refiner"))
    reader.session_opening.open_meanwhile(_Classifier(), None)
    first = reader.session_opening._opening
    assert first is not None and first.daemon
    first.join(10)
    assert sorted(opened) == ["classifier", "refiner"]  # a failure stops nothing after it
    reader.session_opening.open_meanwhile(_Classifier(), None)
    assert reader.session_opening._opening is first  # once a process
    first.join(10)
    assert len(opened) == 2


def test_a_callers_classifier_without_a_session_is_left_alone(monkeypatch) -> None:
    import fanscan.vision.reader as reader

    monkeypatch.setattr(reader.session_opening, "_opening", None)
    monkeypatch.setattr(reader.session_opening.refine, "_get_session", lambda: None)
    reader.session_opening.open_meanwhile(object(), None)  # a stand-in classifier: no _session
    reader.session_opening._opening.join(10)
    assert not reader.session_opening._opening.is_alive()
