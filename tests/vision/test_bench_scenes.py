"""bench_scenes.py: the figures it prints, on a couple of busy scenes."""

from __future__ import annotations

import json

import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scenes import SCENE_STYLES

from benchmark_scripts import load_benchmark

pytestmark = pytest.mark.skipif(not set(SCENE_STYLES) & set(tile_art.available_styles()),
                                reason="no tile art installed")


def test_bench_scenes_busy_counts_tiles_read_beyond_the_scenes(tmp_path, capsys) -> None:
    bench = load_benchmark("bench_scenes")
    assert bench.main(["--scenes", "2", "--first", "70000", "--busy", "--failures", str(tmp_path)]) in (0, None)
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["busy"] is True and result["scenes"] == 2
    assert isinstance(result["phantoms"], int) and result["phantoms"] >= 0
    assert 0 <= result["exact"] <= 2 and 0 < result["tile_recall"] <= 1


def test_bench_scenes_opponents_lay_a_cluttered_table(tmp_path, capsys) -> None:
    bench = load_benchmark("bench_scenes")
    recall = {}
    for flag in ("--clutter", "--opponents"):
        assert bench.main(["--scenes", "1", "--first", "3", flag, "--failures", str(tmp_path)]) in (0, None)
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert result["clutter"] is True and result["opponents"] is (flag == "--opponents")
        recall[flag] = result["tile_recall"]
    # the other players' backs are in the truth: the same table with them has more tiles to find
    assert recall["--opponents"] != recall["--clutter"]
