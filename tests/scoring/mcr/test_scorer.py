"""The MCR scorer as a whole: best reading, tie-break, minimum, and properties on random hands."""

from __future__ import annotations

import random

from fanscan.scoring.generate import random_hand
from fanscan.scoring.mcr import RULESET
from fanscan.scoring.mcr.scorer import is_nine_gates
from fanscan.scoring.notation import parse_notation
from hypothesis import given, settings
from hypothesis import strategies as st
from mcr_helpers import fan_ids


def test_scorer_tie_prefers_sets_over_seven_pairs() -> None:
    # 七对 + 全中 (48) ties with the chows reading; the chows reading is kept.
    fans = fan_ids("445566m445566p55s")
    assert "seven_pairs" not in fans and "middle_tiles" in fans


def test_scorer_tie_prefers_pure_triple_chow() -> None:
    fans = fan_ids("[123m1]123123m456p77s")
    assert "pure_triple_chow" in fans


def test_scorer_nine_gates_needs_concealed_one_suit_shape() -> None:
    assert is_nine_gates(parse_notation("11123456789995m"))
    assert not is_nine_gates(parse_notation("11122345678999m"))
    assert not is_nine_gates(parse_notation("[111m1]2345678999m5m"))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_scorer_best_reading_never_below_any_single_reading(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    table = RULESET.table
    totals = [table.points(table.apply(RULESET.detect(c))) for c in RULESET.contexts(hand, RULESET.options_of(hand))]
    result = RULESET.score(hand)
    assert result.total is not None
    assert result.total - (result.flower_points or 0) >= max(totals)
    assert result.total == sum(f.points * f.count for f in result.fans)
    assert result.meets_minimum == (result.total - (result.flower_points or 0) >= 8)
