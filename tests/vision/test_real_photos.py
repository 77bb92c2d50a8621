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
