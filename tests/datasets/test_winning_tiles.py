"""``scenes.random_winning_tiles``: complete hands drawn from the faces a tile set has."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from fanscan.datasets.scenes import random_winning_tiles
from fanscan.scoring.tiles import TILE_CODES
from fanscan.vision.hand_rules import is_complete


@pytest.mark.parametrize("n_sets", [4, 5])
def test_winning_tiles_are_a_complete_hand_of_the_given_faces(n_sets: int) -> None:
    rng = np.random.default_rng(n_sets)
    codes = set(TILE_CODES[:34]) - {"5m", "E", "1s"}
    for _ in range(30):
        tiles = random_winning_tiles(rng, codes, n_sets)
        assert tiles is not None
        assert len(tiles) == 3 * n_sets + 2
        assert set(tiles) <= codes
        assert max(Counter(tiles).values()) <= 4
        hand = {"concealed": tiles, "melds": [], "win_tile": tiles[-1], "flowers": []}
        assert is_complete(hand)


def test_winning_tiles_none_when_the_faces_allow_no_hand() -> None:
    assert random_winning_tiles(np.random.default_rng(0), {"1m"}) is None
    assert random_winning_tiles(np.random.default_rng(0), set()) is None
