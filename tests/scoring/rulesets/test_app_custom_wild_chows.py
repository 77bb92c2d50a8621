"""Which chows holding a wild take part in no chow pattern (seed 003: "含有財神的順子，在有多種組合
方式時將不參與牌型算分的計算"), placement by placement."""

from __future__ import annotations

import pytest

from fanscan.scoring.app_custom.wild_chows import free_chow_choices
from fanscan.scoring.decompose import readings
from fanscan.scoring.notation import parse_notation

# One reading: 123m 456p 789s 345s 99m (tile indices: m 0-8, p 9-17, s 18-26).
READING = readings(parse_notation("123m456p789s345s99m"), ("standard",))[0]


@pytest.mark.parametrize(
    ("wilds", "expected"),
    [
        pytest.param({20: 1}, {(20,)}, id="45s-plus-wild-is-345s-or-456s"),
        pytest.param({21: 1}, {()}, id="3s-5s-plus-wild-is-only-345s"),
        pytest.param({0: 1}, {(0,)}, id="23m-plus-wild-is-123m-or-234m"),
        pytest.param({2: 1}, {()}, id="12m-plus-wild-is-only-123m"),
        pytest.param({0: 1, 1: 1}, {(0,)}, id="3m-plus-two-wilds-fits-three-chows"),
        pytest.param({12: 1, 13: 1}, {(12,)}, id="6p-plus-two-wilds-fits-three-chows"),
        pytest.param({1: 1, 2: 1}, {()}, id="1m-plus-two-wilds-is-only-123m"),
        pytest.param({8: 1}, {()}, id="wild-in-the-pair"),
        pytest.param({0: 1, 20: 1}, {(0, 20)}, id="two-free-chows"),
    ],
)
def test_wild_chows_free_chows(wilds: dict[int, int], expected: set[tuple[int, ...]]) -> None:
    assert free_chow_choices(READING, wilds) == expected


def test_wild_chows_a_wild_face_in_two_sets_gives_each_placement() -> None:
    # 234m 345m ...: a wild 4m may be the 234m's (2m 3m left: 123m or 234m, free) or the
    # 345m's (3m 5m left: only 345m). A wild 3m: the 234m's (2m 4m: only 234m) or the 345m's
    # (4m 5m: 345m or 456m, free).
    reading = readings(parse_notation("234m345m789s123p55s"), ("standard",))[0]
    assert free_chow_choices(reading, {3: 1}) == {(1,), ()}
    assert free_chow_choices(reading, {2: 1}) == {(), (2,)}
