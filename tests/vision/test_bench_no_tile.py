"""``benchmarks/bench_no_tile.py``: which reader box lies on what, and a run on held-out photos."""

from __future__ import annotations

import json

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from fanscan.datasets.no_tile_crops import ReviewedBox
from fanscan.datasets.real_tables import load_table_photos


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_no_tile")


def _quad(x: float, w: float = 10.0) -> np.ndarray:
    return np.float32([[x, 0], [x + w, 0], [x + w, 14], [x, 14]])


def test_a_box_is_on_a_label_first_then_on_the_box_a_person_judged(bench):
    truth = [_quad(0)]
    judged = [ReviewedBox("s", _quad(30), "none"), ReviewedBox("s", _quad(60), "tile"),
              ReviewedBox("s", _quad(90), "unsure")]
    assert bench.kind_of(_quad(0.5), truth, judged) == "labelled tile"
    assert bench.kind_of(_quad(30.2), truth, judged) == "reviewed none"
    assert bench.kind_of(_quad(60), truth, judged) == "reviewed tile"
    assert bench.kind_of(_quad(90), truth, judged) is None  # unsure: not counted
    assert bench.kind_of(_quad(33), truth, judged) is None  # beside the judged box, not on it


@pytest.mark.slow
def test_bench_no_tile_counts_every_kind_for_each_model(bench, capsys):
    if not load_table_photos():
        pytest.skip("../shared/data/rf-chinese is not here")
    assert bench.main(["--limit", "3"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["model"] == "shipped"
    assert set(line) == {"model"} | {f"{k}: {f}" for k in bench.KINDS for f in ("kept", "dropped")}
    assert line["labelled tile: kept"] > 10 and line["labelled tile: dropped"] <= 1
