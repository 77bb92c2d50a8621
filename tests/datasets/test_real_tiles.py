"""Real crops: groups by tile set, the project's labels for the untagged crops, bad label files."""

from __future__ import annotations

import pytest

from fanscan.datasets import real_tiles
from fanscan.datasets.real_tiles import UNTAGGED_LABELS, read_labels, tagged_group
from fanscan.datasets.shared import shared_path
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


@pytest.mark.parametrize(
    ("crop_id", "group"),
    [
        pytest.param(1, "camerash-mixed", id="mixed-start"),
        pytest.param(146, "camerash-mixed", id="mixed-end"),
        pytest.param(147, "camerash-147-182", id="run-first"),
        pytest.param(182, "camerash-147-182", id="run-last"),
        pytest.param(340, "camerash-mixed", id="gap"),
        pytest.param(583, "camerash-546-583", id="last-run"),
    ],
)
def test_real_tiles_tagged_group_follows_the_runs(crop_id, group):
    assert tagged_group(crop_id) == group


def test_real_tiles_read_labels_rejects_unknown_code(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("file,code,set\n1.jpg,5p,a\n2.jpg,10p,a\n", encoding="utf-8")
    with pytest.raises(FanscanError, match=r"line 3: unknown tile code '10p'"):
        read_labels(path, with_set=True)


def test_real_tiles_read_labels_requires_a_set_for_untagged_crops(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("file,code,set\n1.jpg,5p,\n", encoding="utf-8")
    with pytest.raises(FanscanError, match="line 2: no set given"):
        read_labels(path, with_set=True)


def test_real_tiles_untagged_labels_cover_every_crop_once_in_whole_sets():
    rows = read_labels(UNTAGGED_LABELS, with_set=True)
    assert sorted(int(file.split(".")[0]) for file, _, _ in rows) == list(range(1, 1051))
    assert {code for _, code, _ in rows} == set(CLASS_LABELS) - {"back"}
    sizes: dict[str, int] = {}
    for _, _, group in rows:
        sizes[group] = sizes.get(group, 0) + 1
    assert len(sizes) >= 5 and min(sizes.values()) >= 28


def test_real_tiles_load_real_crops_finds_files_and_groups():
    if shared_path("data", "camerash", "tiles") is None:
        pytest.skip("../shared/data is not present")
    crops = real_tiles.load_real_crops()
    assert len(crops) >= 502
    assert all(crop.path.is_file() for crop in crops)
    assert "camerash-147-182" in real_tiles.groups(crops)
    image = crops[0].load()
    assert image.ndim == 3 and image.shape[2] == 3
