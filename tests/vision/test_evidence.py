"""The reading search's evidence: box features, the tile model, calibrated faces, the fitted file."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import (
    EVIDENCE_PATH, FEATURES, Evidence, LayoutEvidence, TileEvidence, box_features, face_probabilities,
    load_evidence)

SIDE = 40.0


def _tile(x: float, y: float, code: str = "5m", confidence: float = 0.99, w: float = 30.0,
          h: float = SIDE, score: float = 0.99) -> TileReading:
    box = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    return TileReading(code, confidence, box, 0.0, False, x, ((code, confidence),), finder_score=score)


def _row(n: int = 8) -> list[TileReading]:
    return [_tile(100 + 31 * k, 300) for k in range(n)]


def _feature(features: np.ndarray, name: str) -> np.ndarray:
    return features[:, FEATURES.index(name)]


def test_box_features_have_one_row_per_box_and_one_column_per_feature() -> None:
    features = box_features(_row(), (1000, 800))
    assert features.shape == (8, len(FEATURES)) and np.isfinite(features).all()
    assert box_features([], (10, 10)).shape == (0, len(FEATURES))


def test_a_small_box_has_a_small_log_area_and_an_odd_box_an_odd_shape() -> None:
    tiles = _row() + [_tile(400, 300, w=12.0, h=SIDE)]
    features = box_features(tiles, (1000, 800))
    assert _feature(features, "log_area")[-1] == pytest.approx(math.log(12 / 30), abs=0.01)
    assert _feature(features, "aspect_off")[-1] > 0.8 > _feature(features, "aspect_off")[0]


def test_edge_distance_is_in_tile_sides_and_capped() -> None:
    tiles = _row() + [_tile(990 - 30, 300)]
    edge = _feature(box_features(tiles, (1000, 800)), "edge")
    assert edge[-1] == pytest.approx(10 / math.sqrt(30 * SIDE), abs=0.01)
    assert edge[0] == 2.0  # far from every edge


def test_covered_share_counts_the_box_lying_on_others() -> None:
    tiles = _row() + [_tile(100 + 15, 300)]  # half on the first, half on the second tile
    covered = _feature(box_features(tiles, (1000, 800)), "covered")
    assert covered[-1] == pytest.approx(1.0, abs=0.05) and covered[4] == pytest.approx(0.0)


def test_face_probabilities_of_a_hand_made_reading_sum_to_one_and_keep_its_choice_first() -> None:
    reading = TileReading("3f", 0.4, np.zeros((4, 2), np.float32), 0.0, False, 0.0,
                          (("3f", 0.4), ("2s", 0.45)))
    probs = face_probabilities(reading)
    assert probs.sum() == pytest.approx(1.0)
    assert CLASS_LABELS[int(np.argmax(probs))] == "3f"  # the reader's flower rule stands
    assert probs[CLASS_LABELS.index("2s")] > probs[CLASS_LABELS.index("9m")] > 0


def test_tile_probability_is_logistic_in_the_weighted_features() -> None:
    tiles = TileEvidence((2.0,) + (0.0,) * (len(FEATURES) - 1), -1.0, (0.5,) * len(FEATURES),
                         (0.5,) * len(FEATURES), 1.0)
    features = np.zeros((2, len(FEATURES)))
    features[1, 0] = 1.5
    p = tiles.tile_probability(features)
    assert p[0] == pytest.approx(1 / (1 + math.exp(3.0))) and p[1] == pytest.approx(1 / (1 + math.exp(-3.0)))


def test_a_temperature_above_one_softens_the_faces() -> None:
    probs = np.full(len(CLASS_LABELS), 0.1 / (len(CLASS_LABELS) - 1))
    probs[0] = 0.9
    sharp = TileEvidence((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), 1.0)
    soft = TileEvidence((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), 2.0)
    assert np.exp(sharp.face_log_probs(probs)).sum() == pytest.approx(1.0)
    assert np.exp(sharp.face_log_probs(probs))[0] == pytest.approx(0.9)
    assert 1 / len(CLASS_LABELS) < np.exp(soft.face_log_probs(probs))[0] < 0.9


def test_evidence_survives_its_json_and_refuses_other_features() -> None:
    evidence = Evidence(TileEvidence((0.5,) * len(FEATURES), 1.0, (0.0,) * len(FEATURES),
                                     (1.0,) * len(FEATURES), 1.3), LayoutEvidence(-3.0, -3.5, -4.0, -5.0, -0.5, 7.0))
    assert Evidence.from_json(json.loads(json.dumps(evidence.to_json()))) == evidence
    broken = evidence.to_json()
    broken["tiles"]["features"] = ["finder_logit"]
    with pytest.raises(ValueError, match="other features"):
        Evidence.from_json(broken)


def test_an_evidence_file_fitted_before_the_flower_events_were_split_prices_both_alike() -> None:
    obj = json.loads(EVIDENCE_PATH.read_text(encoding="utf-8"))
    obj["layout"].pop("flower_ends_group", None)
    obj["layout"]["flower_in_group"] = -2.5
    layout = Evidence.from_json(obj).layout
    assert layout.flower_ends_group == layout.flower_in_group == -2.5


def test_the_shipped_evidence_and_its_sidecar_say_what_they_were_fitted_on() -> None:
    evidence = load_evidence()
    about = json.loads(EVIDENCE_PATH.with_name("reading_evidence.about.json").read_text(encoding="utf-8"))
    assert about["features"] == list(FEATURES) and about["fitted_on"] and about["fitted"]
    assert 0.25 <= evidence.tiles.temperature <= 4.0 and evidence.layout.max_cost > 0
    assert all(v < 0 for v in (evidence.layout.claimed_not_set, evidence.layout.back_group_not_kong,
                               evidence.layout.stray_back,
                               evidence.layout.flower_in_group, evidence.layout.flower_ends_group))


def test_the_shipped_tile_model_believes_a_row_of_tiles_and_doubts_a_sliver_of_table() -> None:
    tiles = _row(10) + [_tile(100 + 31 * 10, 300, code="P", confidence=0.45, w=9.0, score=0.6)]
    p = load_evidence().tiles.tile_probability(box_features(tiles, (1400, 800)))
    assert p[:10].min() > 0.9 and p[-1] < p[:10].min()  # the sliver is the likelier to be no tile


def test_use_evidence_file_switches_what_the_search_reads_by_default(tmp_path, monkeypatch) -> None:
    from fanscan.vision import evidence as evidence_module

    shipped = load_evidence()
    other = Evidence(replace(shipped.tiles, temperature=shipped.tiles.temperature * 2), shipped.layout)
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other.to_json()), encoding="utf-8")
    monkeypatch.setattr(evidence_module, "EVIDENCE_PATH", EVIDENCE_PATH)  # undone after the test
    evidence_module.use_evidence_file(path)
    assert load_evidence() == other and load_evidence(EVIDENCE_PATH) == shipped
