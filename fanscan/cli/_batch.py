"""Reading many photos in one run: in this process, or in a pool of worker processes that each
open the ONNX sessions once and keep them for every photo they read.

Results come back in the order the photos were given, as ``Outcome`` records (the reading's JSON
and its summary for people, or the error), so that a bad photo never stops the run.
"""

from __future__ import annotations

import sys

if "__mp_main__" in sys.modules:  # imported in a spawned worker: quiet from its first import on
    from fanscan.worker_guard import guard_worker

    guard_worker()

from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

from fanscan.errors import FanscanError  # noqa: E402
from fanscan.worker_guard import end_workers, quiet_pool_threads, workers_start_deaf_to_interrupts  # noqa: E402
from fanscan.vision.onnx_session import available_cpus  # noqa: E402


@dataclass(frozen=True)
class Outcome:
    """One photo's result: ``reading`` (the contract's read object) and ``summary``, or ``error``
    (one sentence) with its ``code``."""

    name: str
    reading: dict[str, Any] | None = None
    summary: str = ""
    error: str | None = None
    code: str | None = None


@dataclass(frozen=True)
class ReadOptions:
    """How each photo is read (``read_photo``'s keywords): one hand or every tile, the rule set
    whose hand sizes apply, and what the hand is (win, waiting or any)."""

    one_hand: bool = True
    rules: str | None = None
    hand: str = "win"


# Per process: the classifier the photos of this run are read with (set once per worker).
_classifier: Any = None


def _set_classifier(model: str | None) -> None:
    """This process's classifier: the shared default, or one on ``model``; its session takes the
    process's thread budget when it opens (a worker's share, set first by ``_worker_start``)."""
    global _classifier
    from fanscan.vision.classifier import TileClassifier, default_classifier

    _classifier = default_classifier() if model is None else TileClassifier(model)


def _worker_start(model: str | None, threads: int) -> None:
    import cv2  # (the worker was guarded as it imported this module: see the top)

    from fanscan.vision.onnx_session import set_thread_budget

    cv2.setNumThreads(1)  # the pool is the parallelism
    set_thread_budget(threads)  # each worker its share of the CPUs, for every model it opens
    _set_classifier(model)


def read_one(name: str, data: bytes | None, options: ReadOptions = ReadOptions()) -> Outcome:
    """Read one photo (``data`` when it came from standard input) with this process's classifier."""
    from fanscan.cli.read import summary
    from fanscan.vision.reader import read_photo

    try:
        reading = read_photo(data if data is not None else name, classifier=_classifier,
                             one_hand=options.one_hand, rules=options.rules, hand=options.hand)  # type: ignore[arg-type]
        return Outcome(name, reading.to_json(), summary(reading, waiting=options.hand == "waiting"))
    except FanscanError as error:
        return Outcome(name, error=error.message, code=error.code)
    except MemoryError:
        return Outcome(name, error="out of memory", code="out_of_memory")


def read_all(
    photos: list[tuple[str, bytes | None]],
    *,
    model: str | None = None,
    workers: int = 1,
    progress: Callable[[], None] | None = None,
    options: ReadOptions = ReadOptions(),
) -> Iterator[Outcome]:
    """Read ``photos`` (name, bytes or None to read the file), yielding outcomes in order."""
    _set_classifier(model)  # a bad --model fails here, once, before any photo
    if min(workers, available_cpus()) <= 1 or len(photos) <= 1:
        for name, data in photos:
            yield read_one(name, data, options)
            if progress:
                progress()
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # More processes than CPUs only take turns (20 photos on 2 CPUs: 16 workers 4.9 s, 2 workers 2.2 s).
    workers = min(workers, len(photos), available_cpus())
    threads = max(1, available_cpus() // workers)
    # Spawned, not forked: a child forked after OpenCV has used its thread pool can deadlock.
    context = multiprocessing.get_context("spawn")
    with quiet_pool_threads(), ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_start, initargs=(model, threads)
    ) as pool:
        names = [name for name, _ in photos]
        with workers_start_deaf_to_interrupts():
            results = pool.map(read_one, names, [data for _, data in photos], [options] * len(photos))
        done = 0
        try:
            for outcome in results:
                done += 1
                yield outcome
                if progress:
                    progress()
        except BrokenProcessPool:
            for name in names[done:]:
                yield Outcome(name, error="the worker process reading it died", code="worker_died")
        except KeyboardInterrupt:
            end_workers(pool)
            raise
