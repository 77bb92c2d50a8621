"""Fitting the "does this photo show tiles?" model: it separates what it is shown, turns away no
more photos of tiles than it is allowed to, and writes the model and its sidecar."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from fanscan.models import fit_tile_photo
from fanscan.vision.detections import TileReading
from fanscan.vision.tile_photo import FEATURES, load_model


def _cases(rng: np.random.Generator, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """Photos of tiles with sure faces and photos of none with unsure ones, overlapping a little."""
    y = (np.arange(n) % 2).astype(float)
    x = rng.normal(0, 1, (n, len(FEATURES)))
    x[:, FEATURES.index("face_logit")] += np.where(y == 1, 2.5, -1.0)
    return x, y


def test_the_fit_separates_photos_of_tiles_from_photos_of_none() -> None:
    x, y = _cases(np.random.default_rng(0))
    model, figures = fit_tile_photo.fit(x, y)
    judged = np.array([model.probability(f) >= 0.5 for f in x])
    assert (judged == (y == 1)).mean() > 0.8
    assert model.weights[FEATURES.index("face_logit")] > 0
    assert figures["photos_of_tiles"] == 200 and figures["photos_of_none"] == 200
    assert figures["tiles_judged_none"] == int((~judged & (y == 1)).sum())


def test_the_prior_turns_away_at_most_the_stated_share_of_photos_of_tiles() -> None:
    x, y = _cases(np.random.default_rng(1))
    model, figures = fit_tile_photo.fit(x, y)
    lost = sum(model.probability(f) < 0.5 for f in x[y == 1])
    assert lost <= fit_tile_photo.LOSE_AT_MOST * 200
    # The offset is the least that does it: without it more photos of tiles were turned away.
    assert figures["bias_offset"] > 0
    assert figures["without_offset"]["tiles_judged_none"] > figures["tiles_judged_none"]


def _reading(code: str, confidence: float, x: float) -> TileReading:
    quad = np.float32([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]])
    return TileReading(code, confidence, quad, 0.0, False, x, finder_score=0.9)


def test_main_fits_from_a_cache_and_writes_the_model_and_its_sidecar(tmp_path, capsys) -> None:
    rng = np.random.default_rng(2)
    faces = ["1m", "5p", "9s", "E", "C", "3m", "7s"]
    cases = [fit_tile_photo.PhotoCase(f"p{i}", i % 2 == 1, [
        _reading(str(rng.choice(faces)) if i % 2 else "P", float(rng.uniform(0.9, 1.0) if i % 2 else rng.uniform(0.3, 0.7)), 31 * k)
        for k in range(int(rng.integers(3, 15)))]) for i in range(100)]
    cache = tmp_path / "cases.pkl"
    cache.write_bytes(pickle.dumps([(c.name, c.shows_tiles, c.readings) for c in cases]))
    out = tmp_path / "tile_photo.json"
    only_cached = ["--folds", "", "--scenes", "", "--no-tiles", ""]  # nothing else to read
    assert fit_tile_photo.main(["--cache", str(cache), "--out", str(out), *only_cached]) == 0
    assert load_model(out) is not None
    about = json.loads(out.with_suffix(".about.json").read_text())
    assert about["features"] == list(FEATURES) and about["fit"]["photos_of_tiles"] == 50
    assert json.loads(capsys.readouterr().out)["photos_of_none"] == 50


def test_main_asks_where_to_write() -> None:
    with pytest.raises(SystemExit):
        fit_tile_photo.main(["--cache", "x.pkl"])


def test_a_cache_that_is_no_cache_is_refused_in_one_line(tmp_path, capsys) -> None:
    cache = tmp_path / "cases.pkl"
    cache.write_bytes(b"not a pickle")
    with pytest.raises(SystemExit) as refused:
        fit_tile_photo.main(["--cache", str(cache), "--out", str(tmp_path / "m.json")])
    assert refused.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--cache" in message and "Traceback" not in message
    assert not (tmp_path / "m.json").exists()


def test_a_cache_keeps_what_it_read_and_reads_only_what_it_lacks(tmp_path, monkeypatch) -> None:
    read: list[str] = []

    def boxes(source: object) -> list:
        read.append(str(source))
        return [] if source == "empty" else [_reading("1m", 0.95, 31 * k) for k in range(4)]

    monkeypatch.setattr(fit_tile_photo, "read_boxes", boxes)
    monkeypatch.setattr(fit_tile_photo, "tile_photos",
                        lambda folds, scenes: iter([("t1", lambda: "t1"), ("t2", lambda: "t2")]))
    monkeypatch.setattr(fit_tile_photo, "no_tile_photos",
                        lambda seeds, noise=range(0), views=0: iter([("n1", lambda: "empty")]))
    monkeypatch.setattr(fit_tile_photo, "fit", lambda x, y, groups=None: (
        fit_tile_photo.TilePhotoModel((0.0,) * len(FEATURES), 0.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES)), {}))
    cache = tmp_path / "cases.pkl"
    out = tmp_path / "m.json"
    assert fit_tile_photo.main(["--cache", str(cache), "--out", str(out)]) == 0
    assert read == ["t1", "t2", "empty"]
    kept = {name for name, _, _ in pickle.loads(cache.read_bytes())}
    assert kept == {"t1", "t2", "n1"}  # the photo with no boxes too, so that it is not read again
    read.clear()
    assert fit_tile_photo.main(["--cache", str(cache), "--out", str(out)]) == 0
    assert read == []


def test_the_offset_holds_for_photos_the_fit_never_saw() -> None:
    """Chosen on each photo as judged by a fit without its group, the offset is at least the one
    the fit's own judgement asks for, and no photo of tiles so judged is turned away."""
    x, y = _cases(np.random.default_rng(3))
    groups = np.arange(len(y)) % fit_tile_photo.FOLDS
    _, own = fit_tile_photo.fit(x, y)
    model, held = fit_tile_photo.fit(x, y, groups)
    assert held["bias_offset"] >= own["bias_offset"]
    assert held["held_out"]["tiles_judged_none"] <= fit_tile_photo.LOSE_AT_MOST * 200


def test_reading_quality_counts_the_labelled_tiles_found_and_named_right() -> None:
    readings = [_reading("1m", 0.9, 0), _reading("5p", 0.9, 31), _reading("9s", 0.9, 200)]
    boxes = np.float64([[0, 0, 30, 40], [31, 0, 61, 40], [100, 0, 130, 40], [200, 0, 230, 40]])
    quality = fit_tile_photo.reading_quality(readings, boxes, ("1m", "6p", "E", "9s"))
    assert quality == 0.5  # 1m and 9s right, 5p named wrong, E not found
    assert fit_tile_photo.reading_quality(readings, boxes[:0], ()) is None
    assert fit_tile_photo.reading_quality([], boxes, ("1m", "6p", "E", "9s")) == 0.0
