"""The bundled sample photo: present, small, an interesting hand, and read exactly by the model."""

from __future__ import annotations

import pytest
from fanscan.vision.classifier import DEFAULT_MODEL
from fanscan.vision.samples import sample_groups, sample_photo_path


def test_samples_photo_is_bundled_and_small() -> None:
    path = sample_photo_path()
    assert path.is_file()
    assert path.stat().st_size < 150 * 1024
    assert path.read_bytes()[:2] == b"\xff\xd8"  # a JPEG


def test_samples_hand_is_worth_at_least_eight_points() -> None:
    from fanscan.datasets.scenes import hand_of
    from fanscan.scoring import score

    groups = sample_groups()
    kinds = {g.kind for g in groups}
    assert {"chow", "concealed_kong", "flowers", "win"} <= kinds
    result = score(hand_of(groups)).to_json()
    assert result["error"] is None and result["total"] - result["flower_points"] >= 8


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")
def test_samples_photo_reads_exactly() -> None:
    from fanscan.datasets.scenes import hand_of
    from fanscan.vision.reader import read_photo

    assert read_photo(sample_photo_path()).hand.to_json() == hand_of(sample_groups())
