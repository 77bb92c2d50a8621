"""The batch step of labelling: read every photo of a folder and save its labels beside it.

Each photo goes through the photo reader (fanscan's own, with one classifier thread per worker,
unless another ``module:function`` is named) in a pool of worker processes; the parent writes
each label file atomically as its result arrives, so an interrupted run loses only the photos in
flight and a rerun picks up where it stopped: a photo is skipped when its label file is
*current*, that is when a person has touched it (reviewed, edited in the labelling tool, or any
tile set by a person: never overwritten, not even with ``force``), or when it was written by the
same reader version for a photo of the same size.

With Dask (the ``cluster`` extra) the same work runs on a cluster: ``scheduler="tcp://host:8786"``
connects to a running scheduler, ``dask_local=N`` starts N local worker processes. Workers read
the photos by path, so on a cluster the folder must be on a file system every worker mounts at
the same path; label files are still written by this process only.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from fanscan import __version__
from fanscan.datasets.labels import (
    LabelGroup,
    PhotoLabels,
    TileLabel,
    find_photos,
    format_labels,
    label_path,
    load_labels,
    parse_labels,
)
from fanscan.atomic import write_text_atomic
from fanscan.errors import FanscanError
from fanscan.vision.onnx_session import available_cpus
from fanscan.worker_guard import end_workers, quiet_pool_threads, workers_start_deaf_to_interrupts

DEFAULT_READER = "fanscan.datasets.prelabel:read_photo_one_thread"


@dataclass(frozen=True)
class PhotoResult:
    """What a worker sends back for one photo: the label file's text, or why there is none."""

    image: str
    text: str | None
    error: str | None = None


@dataclass(frozen=True)
class PrelabelReport:
    """How a run went: photos labelled, skipped as current, and failed (photo, reason)."""

    labelled: int
    skipped: int
    failed: tuple[tuple[str, str], ...]


@functools.cache
def load_reader(spec: str) -> Callable[[Path], Any]:
    """The reader function named ``module:function`` (imported once per process)."""
    module_name, _, function_name = spec.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), function_name or "read_photo")
    except (ImportError, AttributeError) as error:
        raise FanscanError(
            "bad_reader", f"cannot load the photo reader {spec!r} (MODULE:FUNCTION): {error}"
        ) from None
    if not callable(function):
        raise FanscanError("bad_reader", f"the photo reader {spec!r} is not a function")
    return function  # type: ignore[no-any-return]


def read_photo_one_thread(path: Path) -> Any:
    """fanscan's photo reader with a one-thread classifier (and, in a worker, every model on one
    thread: ``_quiet_worker``): the worker processes are the
    parallelism, and N workers each running N onnxruntime threads would only fight. A photo to
    label may hold any tiles (several sets, no hand), so no hand rules are applied: every tile is
    read, as ``fanscan read --all-tiles`` reads them (``one_hand=False``)."""
    from fanscan.vision.reader import read_photo

    return read_photo(path, classifier=_one_thread_classifier(), one_hand=False)


@functools.cache
def _one_thread_classifier() -> Any:
    from fanscan.vision.classifier import TileClassifier

    return TileClassifier(threads=1)


def reader_version(spec: str) -> str:
    """What the label files record as their reader: the function, fanscan's version and, for
    fanscan's own reader, a digest of the classifier model (a retrained model reads anew)."""
    if spec != DEFAULT_READER:
        return f"{spec} (fanscan {__version__})"
    from fanscan.vision.classifier import DEFAULT_MODEL

    try:
        digest = hashlib.sha256(DEFAULT_MODEL.read_bytes()).hexdigest()[:12]
    except OSError:
        digest = "missing"
    return f"fanscan {__version__} reader, model {digest}"


def _group(layout_group: dict[str, Any]) -> LabelGroup:
    """A label-file group from one of the reader's layout groups (``role``, ``meld``)."""
    role = layout_group.get("role", "unknown")
    meld = layout_group.get("meld") or {}
    if role == "meld" and meld.get("type") in ("chow", "pung", "kong"):
        return LabelGroup(meld["type"], bool(meld.get("concealed", False)))
    if role == "concealed_kong":
        return LabelGroup("kong", concealed=True)
    if role in ("concealed", "win", "flowers"):
        return LabelGroup(role)
    return LabelGroup("unknown")


def labels_from_reading(
    reading: Any, image: str, size: tuple[int, int], reader: str, image_bytes: int
) -> PhotoLabels:
    """The unreviewed label file of a ``PhotoReading`` (tiles and layout groups)."""
    groups = tuple(_group(group) for group in getattr(reading, "groups", ()))
    tiles = []
    for tile in reading.tiles:
        corners = tuple((round(float(x), 2), round(float(y), 2)) for x, y in tile.box)
        group = (
            tile.group if isinstance(tile.group, int) and 0 <= tile.group < len(groups) else None
        )
        confidence = min(1.0, max(0.0, round(float(tile.confidence), 4)))
        tiles.append(TileLabel(tile.code, corners, confidence, "model", group))  # type: ignore[arg-type]
    width, height = size
    return PhotoLabels(
        image, width, height, tuple(tiles), groups, "unreviewed", reader, image_bytes
    )


def label_photo(root: str, image: str, spec: str) -> PhotoResult:
    """Read one photo (``image`` relative to ``root``) and return its label file text.

    Runs in a worker; any failure is sent back as text, so one bad photo never stops the run.
    """
    from fanscan.vision.image_io import load_photo

    path = Path(root) / image
    try:
        size = load_photo(path).size
        try:
            reading = load_reader(spec)(path)
        except FanscanError as error:
            if error.code != "no_tiles":
                raise
            reading = _NoTiles()
        labels = labels_from_reading(
            reading, path.name, size, reader_version(spec), path.stat().st_size
        )
        text = format_labels(labels)
        parse_labels(text, image)  # a reader's bad code or corner fails here, named, not on reload
        return PhotoResult(image, text)
    except FanscanError as error:
        return PhotoResult(image, None, error.message)
    except Exception as error:  # noqa: BLE001 - a reader bug on one photo must not stop the batch
        return PhotoResult(image, None, f"{type(error).__name__}: {error}")


class _NoTiles:
    """A reading of a photo on which the reader found no tile."""

    tiles: tuple[Any, ...] = ()
    groups: tuple[dict[str, Any], ...] = ()


def _person_touched(labels: PhotoLabels) -> bool:
    return labels.status == "reviewed" or labels.edited or any(tile.source == "person" for tile in labels.tiles)


def _existing(photo: Path) -> PhotoLabels | None:
    """The photo's label file, or None when it has none; an unreadable one raises
    ``FanscanError`` (it is the user's: never replaced unasked)."""
    path = label_path(photo)
    if not path.is_file():
        return None
    return load_labels(path)


def needs_reading(photo: Path, reader: str, force: bool = False) -> bool:
    """Whether ``photo`` is to be (re-)read: never when a person touched its labels; otherwise
    when ``force``d, or when its label file is missing, or from another reader or photo. A label
    file that cannot be read raises ``FanscanError``: it is left as it is, and reported."""
    labels = _existing(photo)
    if labels is None:
        return True
    if _person_touched(labels):
        return False
    return force or labels.reader != reader or labels.image_bytes != photo.stat().st_size


def _kept_as_it_is(why: str) -> str:
    """What is reported of a label file that cannot be read, which a batch never replaces."""
    return f"{why}; left as it is: fix or delete it, then run again"


def _write(directory: Path, image: str, text: str) -> str | None:
    """Save a worker's result, unless a person touched that photo while the batch ran, or its
    label file became unreadable meanwhile (then why, which is reported)."""
    photo = directory / image
    try:
        labels = _existing(photo)
    except FanscanError as error:
        return _kept_as_it_is(error.message)
    if labels is None or not _person_touched(labels):
        write_text_atomic(label_path(photo), text)
    return None


def _pool_results(
    directory: Path, todo: list[str], spec: str, workers: int
) -> Iterator[PhotoResult]:
    """Read ``todo`` in ``workers`` processes, results in the order they finish.

    A worker that dies (killed for memory on a huge photo, a crash in native code) fails only the
    photos in flight at that moment (a rerun reads them again); a fresh pool goes on with the rest.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # Spawned, not forked: a child forked after OpenCV has used its thread pool can deadlock.
    context = multiprocessing.get_context("spawn")
    pending = list(reversed(todo))
    while pending:
        with quiet_pool_threads(), ProcessPoolExecutor(workers, mp_context=context, initializer=_quiet_worker) as pool:
            running: dict[Future[PhotoResult], str] = {}
            broken = False
            try:
                while (pending and not broken) or running:
                    while pending and not broken and len(running) < 2 * workers:
                        try:
                            with workers_start_deaf_to_interrupts():  # a submit may spawn a worker
                                future = pool.submit(label_photo, str(directory), pending[-1], spec)
                        except BrokenProcessPool:
                            broken = True
                            break
                        running[future] = pending.pop()
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        image = running.pop(future)
                        try:
                            yield future.result()
                        except BrokenProcessPool:
                            broken = True
                            yield PhotoResult(image, None, "the worker process reading it died")
            except KeyboardInterrupt:
                end_workers(pool)
                raise


def _quiet_worker() -> None:
    """One thread per worker process: the pool is the parallelism; interrupted, or its parent
    gone, the worker ends quietly (``worker_guard``)."""
    from fanscan.worker_guard import guard_worker

    guard_worker()
    import cv2

    from fanscan.vision.onnx_session import set_thread_budget

    cv2.setNumThreads(1)
    set_thread_budget(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def _dask_results(
    directory: Path, todo: list[str], spec: str, scheduler: str | None, dask_local: int | None
) -> Iterator[PhotoResult]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ModuleNotFoundError:
        raise FanscanError(
            "missing_extra",
            "running on Dask needs the cluster extra: pip install 'fanscan[cluster]'",
        ) from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as error:
            raise FanscanError(
                "no_scheduler", f"cannot reach the Dask scheduler {scheduler}: {error}"
            ) from None
        cluster = None
    else:
        cluster = LocalCluster(
            n_workers=dask_local, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        futures = client.map(label_photo, [str(directory)] * len(todo), todo, spec=spec, pure=False)
        for future in as_completed(futures):
            yield future.result()
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def distinct_photos(root: Path, photos: list[Path]) -> list[Path]:
    """Each photo under ``root`` once, as the file it is: a link's labels are its target's (the
    labelling page reads and saves them there), so a photo reached through links is read once and
    its label file written beside it; a link out of the folder leads to no photo of it (the page
    serves none), and neither does a broken link or a loop of links. Sorted by path."""
    targets = set()
    for photo in photos:
        try:
            target = photo.resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if target.is_relative_to(root):
            targets.add(target)
    return sorted(targets)


def prelabel(
    directory: str | os.PathLike[str],
    *,
    reader: str = DEFAULT_READER,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    force: bool = False,
    progress: bool = True,
) -> PrelabelReport:
    """Pre-label every photo under ``directory`` that has no current label file.

    ``workers`` processes on this machine (default: the CPU count), or Dask with ``scheduler`` /
    ``dask_local``. ``force`` re-reads photos whose labels no person has touched.
    """
    root = Path(directory).resolve()
    load_reader(reader)  # a wrong reader name fails here, once, not in every worker
    if reader == DEFAULT_READER:
        from fanscan.vision.classifier import DEFAULT_MODEL

        if not DEFAULT_MODEL.is_file():
            raise FanscanError(
                "not_found", f"no classifier model at {DEFAULT_MODEL} (fanscan train makes one)"
            )
    version = reader_version(reader)
    photos = distinct_photos(root, find_photos(root))
    todo: list[str] = []
    kept_as_they_are: list[tuple[str, str]] = []  # label files that cannot be read: reported, never replaced
    for photo in photos:
        image = photo.relative_to(root).as_posix()
        try:
            if needs_reading(photo, version, force):
                todo.append(image)
        except FanscanError as error:
            kept_as_they_are.append((image, _kept_as_it_is(error.message)))
    skipped = len(photos) - len(todo) - len(kept_as_they_are)
    if not todo:
        return PrelabelReport(0, skipped, tuple(sorted(kept_as_they_are)))
    if scheduler is not None or dask_local is not None:
        results: Iterable[PhotoResult] = _dask_results(root, todo, reader, scheduler, dask_local)
    else:
        count = max(1, min(workers or available_cpus(), len(todo)))
        if count == 1:  # no pool to start for one worker: read here
            results = (label_photo(str(root), image, reader) for image in todo)
        else:
            results = _pool_results(root, todo, reader, count)
    labelled, failed = 0, list(kept_as_they_are)
    with tqdm(
        total=len(todo), unit="photo", desc="pre-labelling", disable=not progress, file=sys.stderr
    ) as bar:
        for result in results:
            if result.text is None:
                failed.append((result.image, result.error or "unknown error"))
            elif (why := _write(root, result.image, result.text)) is not None:
                failed.append((result.image, why))
            else:
                labelled += 1
            bar.update()
    return PrelabelReport(labelled, skipped, tuple(sorted(failed)))
