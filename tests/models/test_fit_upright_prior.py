from __future__ import annotations

from fanscan.models.fit_upright_prior import WideLook, fitted_margin, read_right, right_by_margin


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


def test_a_look_naming_the_same_face_either_way_is_read_sideways() -> None:
    # A claimed 9s whose quarter-turned upright cut reads 9s too, surer: kept sideways, right.
    alike = _look(0.80, 0.99, true_way=0, faces=("9s", "9s", "9s"), true_face="9s", along=1.0)
    assert read_right(alike, 0.0, 0.0)
