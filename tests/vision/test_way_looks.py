from __future__ import annotations

import cv2
import numpy as np
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import geometry
from fanscan.vision.classifier import Looks
from fanscan.vision.image_io import load_photo
from fanscan.vision.way_looks import UPRIGHT_SLOPE, WayLooks, kept_look, wide_tile_reading, wide_tile_way
from glyph_classifier import Glyph, draw_glyph


def _looks(*faces_and_probabilities: tuple[str, float]) -> np.ndarray:
    """One row per way: its surest face at the given probability, the rest spread evenly."""
    rows = []
    for face, p in faces_and_probabilities:
        row = np.full(len(CLASS_LABELS), (1 - p) / (len(CLASS_LABELS) - 1))
        row[CLASS_LABELS.index(face)] = p
        rows.append(row)
    return np.array(rows, np.float32)


def _surest_way(looks: np.ndarray, priors: list[float]) -> int:
    return kept_look(looks, np.zeros(len(looks), np.float32), priors)[0]


def test_the_surest_way_is_kept_where_no_way_has_a_prior() -> None:
    assert _surest_way(_looks(("2m", 0.6), ("1m", 0.9)), [0.0, 0.0]) == 1
    assert _surest_way(_looks(("1m", 0.9), ("2m", 0.6), ("3m", 0.95)), [0.0, 0.0, 0.0]) == 2


def test_an_upright_look_must_beat_the_sideways_ones_by_its_prior() -> None:
    # Sideways 5s at 0.80; upright 5p at 0.90 beats it by 0.81 nats, under a prior of -1.2.
    claimed = _looks(("5s", 0.80), ("5s", 0.30), ("5p", 0.90))
    assert _surest_way(claimed, [0.0, 0.0, -1.2]) == 0
    assert _surest_way(claimed, [0.0, 0.0, -0.5]) == 2


def test_a_face_read_alike_either_way_lies_the_way_its_surer_look_says() -> None:
    # A claimed 9s read 9s sideways at 0.80 and upright at 0.99: 3.2 nats surer upright, which
    # a prior of -1.2 does not outweigh, but one of -4 does; the face being the same either way
    # changes nothing (the fit: 18 more looks right the way up than keeping such a tile sideways).
    alike = _looks(("9s", 0.80), ("9s", 0.60), ("9s", 0.99))
    assert _surest_way(alike, [0.0, 0.0, -1.2]) == 2
    assert _surest_way(alike, [0.0, 0.0, -4.0]) == 0
    assert _surest_way(_looks(("5s", 0.80), ("5s", 0.60), ("5p", 0.99)), [0.0, 0.0, -0.0]) == 2


def _named(probs: np.ndarray) -> list[str]:
    return [CLASS_LABELS[i] for i in np.argsort(-probs)[:2]]


def test_a_wide_tile_read_upright_keeps_its_sideways_face_as_the_runner_up() -> None:
    # A claimed 5s: sideways 0.86, its quarter-turned upright cut 5p at 0.96, 1.33 nats surer,
    # against a prior of -1.19: kept upright by the rule, by a margin of 0.14 nats.
    looks = _looks(("5s", 0.86), ("5s", 0.86), ("5p", 0.96))
    pick, probs, no_tile = wide_tile_reading(looks, np.array([0.1, 0.1, 0.3], np.float32), -1.19)
    assert pick == 2 and _named(probs) == ["5p", "5s"]
    upright = 1 / (1 + np.exp(-UPRIGHT_SLOPE * (np.log(0.96 / 0.04) - np.log(0.86 / 0.14) - 1.19)))
    assert abs(float(probs[CLASS_LABELS.index("5s")]) - (1 - upright) * 0.86 - upright * 0.04 / 42) < 1e-4
    assert 0.3 < float(probs[CLASS_LABELS.index("5s")]) < 0.5 < upright
    assert abs(no_tile - (upright * 0.3 + (1 - upright) * 0.1)) < 1e-6
    assert abs(float(probs.sum()) - 1.0) < 1e-4


def test_a_wide_tile_whose_looks_name_one_face_is_as_sure_as_the_mixture() -> None:
    # A claimed 9s, read 9s at 0.80 sideways and at 0.99 upright, a prior of -4: it stays
    # sideways, its 9s as sure as the two looks mixed by how surely it lies upright.
    looks = _looks(("9s", 0.80), ("9s", 0.60), ("9s", 0.99))
    pick, probs, no_tile = wide_tile_reading(looks, np.array([0.2, 0.1, 0.0], np.float32), -4.0)
    upright = 1 / (1 + np.exp(-UPRIGHT_SLOPE * (np.log(0.99 / 0.01) - np.log(0.80 / 0.20) - 4.0)))
    assert pick == 0 and upright < 0.5
    assert abs(float(probs[CLASS_LABELS.index("9s")]) - (upright * 0.99 + (1 - upright) * 0.80)) < 1e-5
    assert abs(no_tile - (1 - upright) * 0.2) < 1e-6


def test_a_flower_laid_flat_is_read_upright_as_sure_as_its_upright_look() -> None:
    # Beyond a standing hand, a flat 1f is as wide as a sideways tile: read 1f at 0.18 cut a
    # quarter turned and at 0.87 upright, it was kept on its side, a 1f at 0.18.
    looks = _looks(("1f", 0.18), ("1f", 0.18), ("1f", 0.87))
    pick, probs, _ = wide_tile_reading(looks, np.zeros(3, np.float32), -0.53)
    assert pick == 2 and _named(probs)[0] == "1f" and float(probs.max()) > 0.85


def test_a_wide_tile_is_kept_the_way_whose_face_the_mixture_names() -> None:
    # The rule keeps the upright 5p (0.55 likely upright), but the sideways look is so much surer
    # (0.99 against 0.60) that the mixture names 5s: the tile is kept sideways.
    looks = _looks(("7s", 0.30), ("5s", 0.99), ("5p", 0.60))
    prior = float(np.log(0.55 / 0.45) / UPRIGHT_SLOPE - np.log(0.6 / 0.4) + np.log(0.99 / 0.01))
    assert wide_tile_way(looks.max(axis=1), prior) == 2
    pick, probs, _ = wide_tile_reading(looks, np.zeros(3, np.float32), prior)
    assert pick == 1 and _named(probs)[0] == "5s"


def test_the_prior_of_a_wide_tile_grows_with_its_length_along_the_row() -> None:
    right, up = np.array([1.0, 0.0]), np.array([0.0, -1.0])

    def box(x: float, w: float, h: float) -> np.ndarray:
        return np.array([[x, 0], [x + w, 0], [x + w, h], [x, h]], np.float64)

    # Three standing tiles 40 long along the row, one laid flat (40 long, 20 high), one claimed
    # lying sideways (54 long, 40 high): both flagged sideways, the claimed one 1.35 times as long.
    quads = np.stack([box(0, 40, 54), box(42, 40, 54), box(84, 40, 54), box(126, 40, 20), box(168, 54, 40)])
    flags = geometry.sideways_flags(quads, right, up)
    assert flags == [False, False, False, True, True]
    ways = geometry.ways_up(up, right, flags)
    priors = geometry.way_priors(quads, list(range(5)), ways)
    a, b = geometry.UPRIGHT_THOUGH_WIDE
    assert priors[0] == [0.0] and priors[3][:2] == [0.0, 0.0]
    assert priors[3][2] == -a  # as long as the median tile
    assert abs(priors[4][2] - (-(a + b * np.log(54 / 40)))) < 1e-9


class _FlatFlower:
    """Reads ``1f`` at 0.87 in a crop whose glyph (``draw_glyph``) stands upright, at 0.18 in any
    other: a flower's picture cut on its side is still most like that flower, only unsurely."""

    def looks(self, crops: list[np.ndarray]) -> Looks:
        upright = Glyph().probabilities(crops).argmax(axis=1) == CLASS_LABELS.index("1m")
        rows = np.array([_looks(("1f", 0.87 if up else 0.18))[0] for up in upright], np.float32)
        return Looks(rows, np.zeros(len(crops), np.float32))


def test_a_flower_laid_flat_is_kept_upright_with_its_upright_crop() -> None:
    # A flower laid flat, 60 wide and 40 high, its glyph upright: its ways are both ways across
    # the row and upright. Its face reads 1f every way, surest upright: it lies upright, and the
    # crop the flowers' second looks are given is the upright one.
    face = draw_glyph(np.full((40, 60, 3), 90, np.uint8))
    image = np.full((120, 160, 3), 60, np.uint8)
    image[40:80, 50:110] = face
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    quads = np.float32([[[50, 40], [110, 40], [110, 80], [50, 80]]])
    looker = WayLooks(photo, quads, np.zeros(1, bool), _FlatFlower(), 1, (40, 60), lambda crops: None)
    right, up = np.array([1.0, 0.0]), np.array([0.0, -1.0])
    got = looker.best_ways([0], [[-right, right, up]])
    assert got.picks[0] == 2
    assert _named(got.probs[0])[0] == "1f" and float(got.probs[0].max()) > 0.85
    assert Glyph().probabilities([got.crops[0]]).argmax() == CLASS_LABELS.index("1m")  # its glyph upright
