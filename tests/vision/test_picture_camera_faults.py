"""``benchmarks/picture_camera_faults.py``: the sample photo under each camera fault, read and drawn."""

from __future__ import annotations

import cv2
from benchmark_scripts import load_benchmark


def test_the_picture_shows_six_panels_and_the_sample_read_exactly_as_taken(tmp_path, capsys) -> None:
    picture = load_benchmark("picture_camera_faults")
    out = tmp_path / "faults.jpg"
    assert picture.main([str(out)]) == 0
    grid = cv2.imread(str(out))
    width, height = picture.PANEL
    assert grid.shape[:2] == (2 * (height + picture.TITLE_HEIGHT), 3 * width)
    titles = capsys.readouterr().out.splitlines()
    assert len(titles) == 6 and titles[0] == "as taken: 16 tiles in the hand, read exactly"


def test_the_picture_asks_where_to_go(capsys) -> None:
    assert load_benchmark("picture_camera_faults").main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_the_picture_says_so_when_it_cannot_be_written(tmp_path, capsys) -> None:
    out = tmp_path / "no such folder" / "faults.jpg"
    assert load_benchmark("picture_camera_faults").main([str(out)]) == 1
    assert capsys.readouterr().err.strip().endswith(f"cannot write {out}")
