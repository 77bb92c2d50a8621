"""The batch pre-labelling step, with a fake photo reader: parallel, resumable, person-safe."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from worker_processes import interrupt_once_working, none_left
from fanscan.datasets.labels import label_path, load_labels, save_labels
from fanscan.datasets.prelabel import labels_from_reading, prelabel
from fanscan.errors import FanscanError

# A reader that logs each photo it reads, sleeps if asked, and finds two tiles in a pung.
_FAKE_READER = textwrap.dedent(
    """
    import os, time
    from pathlib import Path
    from types import SimpleNamespace as NS
    from fanscan.errors import FanscanError

    def read(path):
        with open(os.environ["FAKE_READER_LOG"], "a") as log:
            log.write(Path(path).name + "\\n")
        time.sleep(float(os.environ.get("FAKE_READER_SLEEP", "0")))
        if Path(path).name.startswith("empty"):
            raise FanscanError("no_tiles", "no tiles found")
        if Path(path).name.startswith("crash"):
            raise RuntimeError("reader bug")
        if Path(path).name.startswith("die"):
            os._exit(9)  # as if killed for memory
        box = [[1, 2], [11, 2], [11, 16], [1, 16]]
        tiles = [NS(code="5p", confidence=0.75, box=box, orientation=0, group=0),
                 NS(code="back", confidence=0.5, box=box, orientation=90, group=None)]
        pung = {"role": "meld", "tiles": [0], "meld": {"type": "pung", "concealed": False}}
        return NS(tiles=tiles, groups=[pung])
    """
)
READER = "fake_reader_for_tests:read"


@pytest.fixture
def photos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of 6 small photos (one in a subfolder) and the fake reader on the import path."""
    import cv2

    modules = tmp_path / "modules"
    modules.mkdir()
    (modules / "fake_reader_for_tests.py").write_text(_FAKE_READER)
    monkeypatch.syspath_prepend(str(modules))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(modules), *sys.path]))
    monkeypatch.setenv("FAKE_READER_LOG", str(tmp_path / "reads.log"))
    folder = tmp_path / "photos"
    for name in ("a.png", "b.png", "c.jpg", "sub/d.png", "empty.png", "crash.png"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / name), np.full((48, 64, 3), 128, np.uint8))
    return folder


def _reads(folder: Path) -> list[str]:
    log = folder.parent / "reads.log"
    return sorted(log.read_text().split()) if log.exists() else []


def test_prelabel_writes_a_label_file_beside_each_photo(photos: Path) -> None:
    report = prelabel(photos, reader=READER, workers=2, progress=False)
    assert (report.labelled, report.skipped) == (5, 0)
    assert report.failed == (("crash.png", "RuntimeError: reader bug"),)
    labels = load_labels(photos / "sub" / "d.png.fanscan.json")
    assert (labels.image, labels.width, labels.height, labels.status) == (
        "d.png",
        64,
        48,
        "unreviewed",
    )
    assert [(t.code, t.confidence, t.source, t.group) for t in labels.tiles] == [
        ("5p", 0.75, "model", 0),
        ("back", 0.5, "model", None),
    ]
    assert labels.tiles[0].corners == ((1, 2), (11, 2), (11, 16), (1, 16))
    assert [(g.kind, g.concealed) for g in labels.groups] == [("pung", False)]
    assert load_labels(photos / "empty.png.fanscan.json").tiles == ()
    assert not label_path(photos / "crash.png").exists()


def test_prelabel_reads_a_linked_photo_once_and_labels_it_where_the_labelling_page_looks(photos: Path) -> None:
    # The page reads and saves a link's labels beside its target: a label file beside the link
    # would be one nobody reads, and the photo would be read once for each of its names.
    import cv2

    (photos / "link.png").symlink_to("a.png")
    (photos / "sub" / "up.png").symlink_to("../b.png")
    outside = photos.parent / "outside.png"
    cv2.imwrite(str(outside), np.full((48, 64, 3), 128, np.uint8))
    (photos / "away.png").symlink_to(outside)
    (photos / "gone.png").symlink_to("nothing.png")
    report = prelabel(photos, reader=READER, workers=1, progress=False)
    assert _reads(photos) == ["a.png", "b.png", "c.jpg", "crash.png", "d.png", "empty.png"]
    assert (report.labelled, report.skipped) == (5, 0)
    assert label_path(photos / "a.png").is_file() and label_path(photos / "b.png").is_file()
    for name in ("link.png", "sub/up.png", "away.png", "gone.png"):
        assert not label_path(photos / name).exists()
    assert not label_path(outside).exists()


def test_prelabel_rerun_reads_only_what_is_not_current(photos: Path) -> None:
    prelabel(photos, reader=READER, workers=1, progress=False)
    first = _reads(photos)
    report = prelabel(photos, reader=READER, workers=1, progress=False)
    assert (report.labelled, report.skipped) == (0, 5)
    assert _reads(photos) == sorted([*first, "crash.png"])  # only the failed one is retried


def test_prelabel_force_never_overwrites_a_persons_work(photos: Path) -> None:
    prelabel(photos, reader=READER, workers=1, progress=False)
    path = photos / "a.png.fanscan.json"
    save_labels(path, load_labels(path).reviewed())
    reviewed = path.read_text()
    (photos.parent / "reads.log").unlink()
    report = prelabel(photos, reader=READER, workers=1, progress=False, force=True)
    assert report.skipped == 1
    assert "a.png" not in _reads(photos) and "b.png" in _reads(photos)
    assert path.read_text() == reviewed


def test_prelabel_never_replaces_a_label_file_it_cannot_read(photos: Path) -> None:
    # A person's reviewed labels with one typo: the file is kept byte for byte, even with force,
    # and the photo is reported (not read again over it); the other photos go on.
    prelabel(photos, reader=READER, workers=1, progress=False)
    path = photos / "a.png.fanscan.json"
    save_labels(path, load_labels(path).reviewed())
    broken = path.read_text().replace(",", ",,", 1)
    path.write_text(broken)
    (photos.parent / "reads.log").unlink()
    for force in (False, True):
        report = prelabel(photos, reader=READER, workers=1, progress=False, force=force)
        assert path.read_text() == broken
        assert "a.png" not in _reads(photos)
        [(image, why)] = [f for f in report.failed if f[0] == "a.png"]
        assert "left as it is" in why and "\n" not in why
    assert "b.png" in _reads(photos)


@pytest.mark.slow
def test_prelabel_resumes_after_being_killed(photos: Path) -> None:
    for name in ("e", "f", "g", "h", "i", "j"):
        (photos / f"{name}.png").write_bytes((photos / "a.png").read_bytes())
    script = (
        "import sys; from fanscan.datasets.prelabel import prelabel; "
        "prelabel(sys.argv[1], reader=sys.argv[2], workers=1, progress=False)"
    )
    env = {**os.environ, "FAKE_READER_SLEEP": "0.3"}
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(photos), READER], env=env, start_new_session=True
    )
    deadline = time.monotonic() + 20
    while len(list(photos.glob("*.fanscan.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the batch finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGKILL)  # the batch and its worker processes
    process.wait()
    done = sorted(p.name for p in photos.rglob("*.fanscan.json"))
    assert 3 <= len(done) < 11
    for path in photos.rglob("*.fanscan.json"):
        load_labels(path)  # every file written is whole
    (photos.parent / "reads.log").unlink()
    report = prelabel(photos, reader=READER, workers=2, progress=False)
    assert report.skipped == len(done)
    assert report.labelled + len(report.failed) == 12 - len(done)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the worker processes")
@pytest.mark.parametrize("after", [0.0, 0.1, 0.2, 1.0])
def test_prelabel_with_workers_interrupted_says_one_line_and_leaves_no_worker(photos: Path, after: float) -> None:
    # Ctrl-C reaches the whole group: while the first worker is still starting its interpreter,
    # and once they read; the batch ends with its one line, no worker's traceback, no worker left.
    for number in range(12):
        (photos / f"more{number}.png").write_bytes((photos / "a.png").read_bytes())
    env = {**os.environ, "FAKE_READER_SLEEP": "0.2"}
    process = subprocess.Popen(
        [sys.executable, "-m", "fanscan", "label", str(photos), "--prelabel", "--reader", READER, "--workers", "2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    workers, err = interrupt_once_working(process, after)
    assert process.returncode in (0, 130)  # 0: it had labelled every photo first
    assert "Traceback" not in err and "Exception ignored" not in err
    assert none_left(workers)


@pytest.mark.slow
def test_prelabel_on_dask_by_scheduler_address_and_locally(photos: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        report = prelabel(
            photos, reader=READER, scheduler=cluster.scheduler_address, progress=False
        )
    assert (report.labelled, report.skipped, len(report.failed)) == (5, 0, 1)
    assert load_labels(photos / "b.png.fanscan.json").tiles[0].code == "5p"
    (photos / "late.png").write_bytes((photos / "a.png").read_bytes())
    report = prelabel(photos, reader=READER, dask_local=1, progress=False)
    assert (report.labelled, report.skipped, len(report.failed)) == (1, 5, 1)


@pytest.mark.slow
def test_prelabel_goes_on_when_a_worker_process_dies(photos: Path) -> None:
    (photos / "die.png").write_bytes((photos / "a.png").read_bytes())
    report = prelabel(photos, reader=READER, workers=2, progress=False)
    failed = dict(report.failed)
    assert failed["die.png"] == "the worker process reading it died"
    assert report.labelled + len(report.failed) == 7
    (photos / "die.png").unlink()
    prelabel(photos, reader=READER, workers=2, progress=False)  # reads what was in flight
    labelled = {p.name.removesuffix(".fanscan.json") for p in photos.rglob("*.fanscan.json")}
    assert labelled == {"a.png", "b.png", "c.jpg", "d.png", "empty.png"}


def test_prelabel_unknown_reader_is_one_error(photos: Path) -> None:
    with pytest.raises(FanscanError, match="cannot load the photo reader 'no_such_module:read'"):
        prelabel(photos, reader="no_such_module:read", progress=False)


def test_prelabel_maps_layout_roles_to_group_kinds() -> None:
    box = [[0, 0], [1, 0], [1, 1], [0, 1]]
    reading = SimpleNamespace(
        tiles=[SimpleNamespace(code="E", confidence=1.2, box=box, group=3)],
        groups=[
            {"role": "concealed", "tiles": []},
            {"role": "concealed_kong", "tiles": []},
            {"role": "meld", "tiles": [0], "meld": {"type": "chow", "concealed": False}},
            {"role": "flowers", "tiles": []},
            {"role": "something new", "tiles": []},
        ],
    )
    labels = labels_from_reading(reading, "x.jpg", (10, 10), "r", 5)
    assert [(g.kind, g.concealed) for g in labels.groups] == [
        ("concealed", False),
        ("kong", True),
        ("chow", False),
        ("flowers", False),
        ("unknown", False),
    ]
    assert (labels.tiles[0].group, labels.tiles[0].confidence) == (3, 1.0)


@pytest.mark.slow
def test_prelabel_with_fanscans_reader_on_the_sample_photo(tmp_path: Path) -> None:
    import shutil
    from collections import Counter

    from fanscan.vision.classifier import DEFAULT_MODEL
    from fanscan.vision.samples import SAMPLE_PATH

    if not DEFAULT_MODEL.is_file():
        pytest.skip("no shipped classifier model in this checkout")
    # The bundled sample (no tile art needed): 2m3m4m 2s3s 5p5p, 4s, the chow 3p2p4p, a concealed
    # kong laid back, C, C, back, and the flower 4f.
    shown = "2m 3m 4m 2s 3s 5p 5p 4s 3p 2p 4p back C C back 4f".split()
    shutil.copy(SAMPLE_PATH, tmp_path / "hand.jpg")
    report = prelabel(tmp_path, workers=1, progress=False)
    assert (report.labelled, report.failed) == (1, ())
    labels = load_labels(tmp_path / "hand.jpg.fanscan.json")
    assert labels.reader.startswith("fanscan ") and "model " in labels.reader
    assert (labels.width, labels.height, labels.status) == (1280, 960, "unreviewed")
    assert Counter(tile.code for tile in labels.tiles) == Counter(shown)
    assert all(tile.source == "model" for tile in labels.tiles)
    assert any(group.kind == "concealed" for group in labels.groups)
    for tile in labels.tiles:  # every box lies on the photo and has a tile's size there
        xs, ys = zip(*tile.corners)
        assert 0 <= min(xs) and max(xs) <= 1280 and 0 <= min(ys) and max(ys) <= 960
        assert 30 < max(xs) - min(xs) < 200 and 30 < max(ys) - min(ys) < 200


def test_prelabel_without_a_model_stops_before_reading(
    photos: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fanscan.vision.classifier

    monkeypatch.setattr(fanscan.vision.classifier, "DEFAULT_MODEL", tmp_path / "none.onnx")
    with pytest.raises(FanscanError, match="no classifier model at .*none.onnx"):
        prelabel(photos, progress=False)
    assert not list(photos.glob("*.fanscan.json"))
