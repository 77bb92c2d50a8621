"""How a photo's tiles stand, read from their boxes: the turn that stands tilted tiles upright, and
no turn for tiles upright, sideways or lying every way."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.vision.detections import TileDetections
from fanscan.vision.tilt import UPRIGHT_WITHIN, tiles_tilt, tilted_turn


def _tiles(*slants: float, lying: bool = False) -> TileDetections:
    """Boxes of tiles (20 x 30 px, or 30 x 20 lying) turned clockwise by ``slants`` degrees."""
    width, height = (30, 20) if lying else (20, 30)
    corners = np.array([[-width / 2, -height / 2], [width / 2, -height / 2], [width / 2, height / 2],
                        [-width / 2, height / 2]])
    quads = []
    for number, slant in enumerate(slants):
        radians = np.deg2rad(slant)
        turn = np.array([[np.cos(radians), -np.sin(radians)], [np.sin(radians), np.cos(radians)]])
        quads.append(corners @ turn.T + (100 + 40 * number, 100))
    return TileDetections(np.float32(quads), np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


@pytest.mark.parametrize("slant", [25.0, -30.0, 44.0, -44.0, 46.0])
def test_a_row_of_tilted_tiles_is_stood_upright(slant: float) -> None:
    slants = (slant - 2, slant, slant + 2, slant + 1)
    tilt = tiles_tilt(_tiles(*slants))
    assert tilt is not None and tilt.agreeing == 1.0
    turn = tilted_turn(_tiles(*slants))
    assert turn is not None and abs(turn) < 90
    assert (np.median(slants) + turn + 90.0) % 180.0 - 90.0 == pytest.approx(0.0, abs=0.01)  # upright again


def test_tiles_lying_sideways_in_a_tilted_column_are_stood_upright() -> None:
    turn = tilted_turn(_tiles(30.0, 31.0, 29.0, lying=True))
    assert turn == pytest.approx(60.0)  # their long sides along the photo's height afterwards


@pytest.mark.parametrize("slant,lying", [(0.0, False), (UPRIGHT_WITHIN - 3, False), (5.0, True), (-80.0, False)])
def test_tiles_standing_upright_or_lying_sideways_are_not_turned(slant: float, lying: bool) -> None:
    assert tilted_turn(_tiles(slant, slant + 1, slant - 1, lying=lying)) is None


def test_a_pile_lying_every_way_has_no_tilt_to_undo() -> None:
    pile = _tiles(*np.linspace(0.0, 87.0, 30))  # every slant alike
    tilt = tiles_tilt(pile)
    assert tilt is not None and tilt.agreeing < 0.5
    assert tilted_turn(pile) is None
    most = _tiles(30.0, 31.0, 29.0, 32.0, 30.5, 75.0, 5.0, 55.0)  # five of eight agree
    assert tilted_turn(most) == pytest.approx(-30.5, abs=0.5)
    assert tiles_tilt(TileDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                                     np.zeros(0, bool))) is None
