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


def test_bench_scenes_far_lays_the_scene_small_in_a_twelve_megapixel_photo() -> None:
    import cv2
    import numpy as np
    from fanscan.datasets.scenes import generate_scene

    bench = load_benchmark("bench_scenes")
    scene = generate_scene(3)
    photo = cv2.imdecode(np.frombuffer(bench.far_photo(scene, 20.0, np.random.default_rng(0)), np.uint8),
                         cv2.IMREAD_COLOR)
    assert photo.shape[:2] == (3000, 4000)
    sides = [np.linalg.norm(np.roll(t.quad, -1, axis=0) - t.quad, axis=1) for t in scene.tiles]
    short = float(np.median([min((s[0] + s[2]) / 2, (s[1] + s[3]) / 2) for s in sides]))
    factor = 20.0 / short  # the scene shrunk so that its tiles' short sides span 20 px
    small = cv2.resize(scene.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    match = cv2.matchTemplate(cv2.resize(photo, (1000, 750), interpolation=cv2.INTER_AREA),
                              cv2.resize(small, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA),
                              cv2.TM_CCOEFF_NORMED)
    # The shrunk scene lies in the photo, pixel for pixel but for JPEG and the quarter-size match;
    # anywhere else the two agree little.
    assert match.max() > 0.85 and match.max() - float(np.median(match)) > 0.5
