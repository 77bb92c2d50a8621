"""The shipped finder, refiner and classifier never saw the real table photos their benchmark reads: the
held-out source fold of ``datasets.real_tables`` (``benchmarks/bench_real_tables.py``)."""

from __future__ import annotations

import json

from fanscan.datasets.real_tables import HELD_OUT_FOLD
from fanscan.vision import finder
from fanscan.vision.classifier import DEFAULT_MODEL


def test_shipped_finder_sidecar_says_what_it_is_and_holds_the_benchmark_fold_out():
    record = json.loads(finder.MODEL_PATH.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["output"]["classes"] == ["table", "face", "back"]
    assert record["input"]["long_side"] == finder.WORK_SIDE
    assert record["output"]["shrink"] == finder.SHRINK
    training = record["training"]
    assert training["held_out_fold"] == HELD_OUT_FOLD
    assert HELD_OUT_FOLD not in training["real_folds"] and training["real_folds"]


def test_shipped_classifier_holds_the_benchmark_fold_out():
    training = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text(encoding="utf-8"))["training"]
    assert f"rf-fold{HELD_OUT_FOLD}" in training["hold_out"]
    assert f"rf-fold{HELD_OUT_FOLD}" in training["held_out_accuracy"]


def test_shipped_refiner_holds_the_benchmark_fold_out():
    from fanscan.vision import refine

    training = json.loads(refine.MODEL_PATH.with_suffix(".json").read_text(encoding="utf-8"))["training"]
    assert training["held_out_fold"] == HELD_OUT_FOLD
    assert training["real_folds"] and HELD_OUT_FOLD not in training["real_folds"]
