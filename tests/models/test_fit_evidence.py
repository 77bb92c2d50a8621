"""Fitting the reading search's evidence: the tile model, the temperature, the layout's events."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fanscan.models.fit_evidence import fit_logistic, fit_temperature, layout_events
from fanscan.models.hand_cases import HandCase
from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import hand_frame, rows_and_groups


def test_fit_logistic_recovers_the_weights_it_was_drawn_from() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20000, 2)) * [1.0, 3.0] + [0.0, 2.0]
    logit = 2.0 * x[:, 0] - 0.5 * x[:, 1] + 1.0
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-logit))).astype(float)
    weights, bias, mean, scale = fit_logistic(x, y, l2=0.0)
    assert weights / scale == pytest.approx([2.0, -0.5], abs=0.1)
    assert bias - (weights / scale) @ mean == pytest.approx(1.0, abs=0.1)


def test_fit_temperature_recovers_how_overconfident_the_probabilities_are() -> None:
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(4000, 6)) * 2.0
    true_p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(6, p=p) for p in true_p])
    overconfident = np.exp(logits * 2) / np.exp(logits * 2).sum(axis=1, keepdims=True)
    assert fit_temperature(overconfident, truth) == pytest.approx(2.0, rel=0.1)
    assert fit_temperature(true_p, truth) == pytest.approx(1.0, rel=0.1)


def _case(spec: str) -> HandCase:
    tiles, x = [], 0.0
    for token in spec.split():
        if token == "|":
            x += 12
            continue
        sideways = token.endswith("*")
        code = token.rstrip("*")
        w, h = (40.0, 30.0) if sideways else (30.0, 40.0)
        box = np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])
        tiles.append(TileReading(code, 0.9, box, 0.0, sideways, x + w / 2))
        x += w + 1
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return HandCase("t", tiles, right, up, rows_and_groups(tiles, right, up), (800, 100),
                    [t.code for t in tiles], {})


def test_layout_events_count_what_true_layouts_show_with_one_imagined_case_each_way() -> None:
    cases = [_case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p* 6p | 1f"),
             _case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m 2f | back 4p 4p back")]
    events = layout_events(cases)
    assert events["claimed_not_set"] == pytest.approx(math.log(1 / 3))  # 0 of 1 claimed groups
    assert events["stray_back"] == pytest.approx(math.log(1 / 4))  # 0 of 2 backs
    assert events["flower_in_group"] == pytest.approx(math.log(2 / 4))  # 1 of 2 flowers
