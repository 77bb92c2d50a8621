from __future__ import annotations

import numpy as np
from fanscan.models.fit_upright_prior import (SLOPES, WideLook, fitted_margin, fitted_slope,
                                             mixture_log_likelihood, read_right, right_by_margin)
from fanscan.scoring.tiles import CLASS_LABELS


def _look(sideways: float, upright: float, true_way: int, faces=("5s", "5s", "5p"), true_face="5s",
          along: float = 1.0) -> WideLook:
    return WideLook((sideways, 0.01, upright), faces, true_face, true_way, along)


def test_an_upright_look_is_kept_only_when_surer_than_the_sideways_one_by_the_margin() -> None:
    claimed = _look(0.80, 0.90, true_way=0)  # a claimed 5s, its quarter-turned cut read 5p a little surer
    assert not read_right(claimed, 0.0, 0.0) and read_right(claimed, 1.0, 0.0)
    flat = _look(0.20, 0.95, true_way=2, faces=("8p", "8p", "6s"), true_face="6s")  # laid flat, read upright
    assert read_right(flat, 1.0, 0.0) and not read_right(flat, 5.0, 0.0)
    # Upright and sideways alike, the face must be right too.
    assert not read_right(_look(0.20, 0.95, true_way=2, faces=("8p", "8p", "9p"), true_face="6s"), 0.0, 0.0)


def test_a_tile_longer_along_the_row_needs_a_surer_upright_look() -> None:
    # The claimed tile's upright look beats its sideways one by 0.81 nats; it is 1.35 times as long
    # along the row as the median tile, so with 4 nats a unit of log length it needs 1.2.
    claimed = _look(0.80, 0.90, true_way=0, along=1.35)
    assert not read_right(claimed, 0.0, 0.0) and read_right(claimed, 0.0, 4.0)
    assert read_right(_look(0.40, 0.80, true_way=2, faces=("8p", "8p", "6s"), true_face="6s"), 0.0, 4.0)


def test_the_fitted_pair_reads_the_most_right_the_least_length_weight_among_ties() -> None:
    looks = {"claimed": [_look(0.80, 0.90, 0, along=1.35)] * 10,
             "flat": [_look(0.40, 0.80, 2, ("8p", "8p", "6s"), "6s", along=1.0)] * 10}
    table = right_by_margin(looks)
    assert table[(0.0, 0.0)] == {"claimed": 0, "flat": 10} and table[(4.0, 0.0)] == {"claimed": 10, "flat": 0}
    # One margin does it (0.81 < a < 1.79 nats); of the pairs that read all 20, none weighs the
    # length less, and of those the margin nearest none is 1.0.
    assert fitted_margin(table) == (1.0, 0.0)
    # Give the flat looks a sideways look as sure as the claimed one's upright: only the length tells them.
    looks["flat"] = [_look(0.80, 0.90, 2, ("8p", "8p", "6s"), "6s", along=1.0)] * 10
    a, b = fitted_margin(right_by_margin(looks))
    assert sum(right_by_margin(looks)[(a, b)].values()) == 20 and b > 0


def test_a_look_naming_the_same_face_either_way_is_judged_by_its_margin_too() -> None:
    # A claimed 9s whose quarter-turned upright cut reads 9s too, surer: read upright (wrong)
    # unless the margin asked outweighs the upright look's 3.2 nats.
    alike = _look(0.80, 0.99, true_way=0, faces=("9s", "9s", "9s"), true_face="9s", along=1.0)
    assert not read_right(alike, 0.0, 0.0) and read_right(alike, 4.0, 0.0)


def _probs(*faces_and_probabilities: tuple[str, float]) -> np.ndarray:
    rows = np.full((len(faces_and_probabilities), len(CLASS_LABELS)), 0.0, np.float32)
    for row, (face, p) in zip(rows, faces_and_probabilities):
        row[:] = (1 - p) / (len(CLASS_LABELS) - 1)
        row[CLASS_LABELS.index(face)] = p
    return rows


def _mixed_look(true_way: int, true_face: str) -> WideLook:
    # Sideways 5s at 0.80, upright 5p at 0.90: upright by 0.81 nats with no margin asked.
    probs = _probs(("5s", 0.80), ("5s", 0.80), ("5p", 0.90))
    return WideLook((0.80, 0.80, 0.90), ("5s", "5s", "5p"), true_face, true_way, 1.0, probs)


def test_the_slope_fitted_gives_the_true_faces_the_most_likelihood() -> None:
    # Three in four such looks are upright 5p, one a claimed 5s: the likeliest mixture gives the
    # upright look about 3/4, which a slope of about 1.36 does (1 / (1 + exp(-k 0.81)) = 0.75).
    looks = [_mixed_look(2, "5p")] * 3 + [_mixed_look(0, "5s")]
    slope, table = fitted_slope(looks, 0.0, 0.0)
    assert set(table) == set(SLOPES) and abs(slope - 1.36) <= 0.125
    assert table[slope] > table[SLOPES[0]] and table[slope] > table[SLOPES[-1]]
    # All upright: the steeper the surer, so the grid's steepest slope.
    assert fitted_slope([_mixed_look(2, "5p")] * 4, 0.0, 0.0)[0] == SLOPES[-1]


def test_looks_naming_one_face_add_their_mixture_and_unrecorded_ones_nothing() -> None:
    alike = WideLook((0.8, 0.8, 0.9), ("9s", "9s", "9s"), "9s", 0, 1.0, _probs(("9s", 0.8), ("9s", 0.8), ("9s", 0.9)))
    # upright by log(9) - log(4) = 0.81 nats; at slope 2 the tile lies upright with p = 0.835
    upright = 1 / (1 + np.exp(-2.0 * np.log(9 / 4)))
    expected = np.log(upright * 0.9 + (1 - upright) * 0.8)
    assert abs(mixture_log_likelihood([alike], 0.0, 0.0, 2.0) - expected) < 1e-5
    assert mixture_log_likelihood([_look(0.8, 0.9, 0)], 0.0, 0.0, 2.0) == 0.0
