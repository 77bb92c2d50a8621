"""``benchmarks/bench_model_rows.py``: the rows each model runs on while photos are read."""

from __future__ import annotations

import json

from benchmark_scripts import load_benchmark

from fanscan.vision import onnx_session
from fanscan.vision.samples import sample_photo_path


def test_model_rows_counts_each_models_work_on_the_sample_and_puts_the_run_back(capsys):
    bench = load_benchmark("bench_model_rows")
    plain_run = onnx_session.LazySession.run
    assert bench.main([str(sample_photo_path()), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    models = result["models"]
    assert result["photos"] == 1 and result["tiles"] >= 14  # the sample hand's 14 tiles at least
    # The finder looks at whole images, one a call; the classifier at every tile at least once.
    assert models["tile_finder.onnx"]["rows"] == models["tile_finder.onnx"]["calls"] >= 1
    assert models["tile_classifier.onnx"]["rows"] >= result["tiles"]
    # Each model's time is measured (seconds are rounded to the millisecond: a model run on one
    # small row can take less, so its time per row is the figure that cannot be zero).
    assert all(figures["ms_per_row"] > 0 and figures["seconds"] >= 0 for figures in models.values())
    assert onnx_session.LazySession.run is plain_run


def test_model_rows_says_so_when_there_are_no_photos(capsys, monkeypatch):
    bench = load_benchmark("bench_model_rows")
    monkeypatch.setattr(bench, "real_photos", lambda rf: [])
    assert bench.main([]) == 1
    assert "no photos" in capsys.readouterr().err
