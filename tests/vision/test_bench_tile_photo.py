"""benchmarks/bench_tile_photo.py: each model judges the same boxes, beside no check, per source."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from fanscan.datasets.no_tile_photos import no_tile_photo

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_tile_photo.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_tile_photo", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_counts_per_source_what_each_model_lets_through(bench, monkeypatch, capsys) -> None:
    from fanscan.vision.samples import sample_photo_path

    bricks = cv2.imencode(".jpg", no_tile_photo(1, "bricks", size=(800, 600))[0])[1].tobytes()
    blank = cv2.imencode(".png", np.full((600, 800, 3), (40, 110, 50), np.uint8))[1].tobytes()
    photos = [("the sample", "sample", 1, sample_photo_path()),
              ("no tiles, bricks", "1", 0, lambda: bricks),
              ("no tiles, felt", "2", 0, lambda: blank)]
    monkeypatch.setattr(bench, "_photos", lambda scenes, no_tiles, noise: photos)
    assert bench.main(["--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    no_check, shipped = result["counts"]["no check"], next(v for k, v in result["counts"].items() if k != "no check")
    assert no_check["the sample"] == {"photos": 1, "judged_tiles": 1}
    assert no_check["no tiles, bricks"] == {"photos": 1, "judged_tiles": 1}  # the finder boxes the bricks
    assert no_check["no tiles, felt"]["judged_tiles"] == 0  # nothing boxed at all
    assert shipped["the sample"]["judged_tiles"] == 1 and shipped["no tiles, bricks"]["judged_tiles"] == 0
    assert not any(result["turned_away"].values())


def test_a_model_file_that_is_no_model_is_refused_in_one_line(bench, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit, match="not a tile photo model"):
        bench.main(["--model", str(bad)])
