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
    assert fit_tile_photo.main(["--cache", str(cache), "--out", str(out)]) == 0
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
