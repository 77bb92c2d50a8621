"""The reader on real close-up photos labelled by hand (skipped without ../shared).

The shipped classifier trained on crops of these photos, so these tests guard finding and
cutting real tiles (a close-up once gave 260 boxes for 36 tiles), not reading unseen designs;
``benchmarks/bench_real_photos.py --model FOLD...`` measures that with held-out fold models.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from fanscan.datasets.shared import shared_path
from fanscan.vision.reader import read_photo

LABELS = Path(__file__).resolve().parents[2] / "datasets" / "labels" / "untagged_photos_labels.csv"
PHOTOS = shared_path("data", "camerash", "untagged-photos")

with LABELS.open(newline="") as handle:
    ROWS = list(csv.DictReader(handle))


def test_real_photos_labels_are_whole_sets_of_tiles() -> None:
    for row in ROWS:
        counts = Counter(row["tiles"].split())
        assert sum(counts.values()) == 36
        assert all(n <= 4 for n in counts.values()), row["photo"]


@pytest.mark.skipif(PHOTOS is None, reason="../shared/data/camerash/untagged-photos is not here")
@pytest.mark.parametrize("row", ROWS, ids=[r["photo"] for r in ROWS])
def test_real_photos_close_up_tiles_found_and_read(row: dict) -> None:
    truth = Counter(row["tiles"].split())
    reading = read_photo(PHOTOS / row["photo"])
    assert abs(len(reading.tiles) - 36) <= 3
    right = sum((truth & Counter(t.code for t in reading.tiles)).values())
    assert right >= 0.75 * 36


@pytest.mark.skipif(PHOTOS is None, reason="../shared/data is not here")
def test_real_photos_rows_of_real_faces_are_each_found_and_read() -> None:
    # Real faces touching in a row, as a hand lies: every face found once, nearly all read right
    # (the shipped classifier trained on these crops; the benchmark measures unseen sets).
    import cv2
    import numpy as np

    from fanscan.datasets.real_rows import compose_row
    from fanscan.datasets.real_tiles import load_real_crops
    from fanscan.datasets.scene_crops import quad_iou

    pool = [c for c in load_real_crops() if c.group == "untagged-cream-classic"]
    rng = np.random.default_rng(5)
    chosen = [pool[i] for i in rng.choice(len(pool), 17, replace=False)]
    photo, quads = compose_row([c.load() for c in chosen], rng)
    assert len(quads) == 17
    reading = read_photo(cv2.imencode(".jpg", photo)[1].tobytes(), one_hand=False)
    assert len(reading.tiles) == 17
    boxes = [np.array(t.box, np.float32) for t in reading.tiles]
    matched = [max(range(len(boxes)), key=lambda i: quad_iou(q, boxes[i])) for q in quads]
    assert all(quad_iou(q, boxes[i]) > 0.5 for q, i in zip(quads, matched))
    right = sum(reading.tiles[i].code == c.code for c, i in zip(chosen, matched))
    assert right >= 16
