"""MCR's fast gate (hand_json.py) against the full checks: the same result for every hand JSON."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from fanscan.scoring.generate import random_hand
from fanscan.scoring.mcr import RULESET
from fanscan.scoring.mcr.hand_json import facts_from_json
from fanscan.scoring.ruleset import TableRuleSet

_ODD_VALUES = ("1m", "9s", "E", "P", "1f", "back", "0m", 1, 1.0, 0, True, False, None, [], {}, "x")


def _full(obj: Any) -> Any:
    """The result through ``Hand.from_json`` and the generic engine's gate."""
    return TableRuleSet.score_json(RULESET, obj)


def _mutated(rng: random.Random) -> Any:
    """A random hand with one field, meld field or tile replaced by an odd value (or dropped)."""
    obj = random_hand(rng).to_json()
    melds = obj["melds"]
    target: dict[str, Any] = rng.choice(melds) if melds and rng.random() < 0.4 else obj
    key = rng.choice(sorted(target))
    if rng.random() < 0.2:
        del target[key]
    elif isinstance(target[key], list) and target[key] and rng.random() < 0.6:
        target[key][rng.randrange(len(target[key]))] = rng.choice(_ODD_VALUES)
    else:
        target[key] = rng.choice(_ODD_VALUES)
    return obj


@pytest.mark.parametrize("seed", range(6))
def test_hand_json_fast_gate_gives_the_full_checks_result(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        obj = _mutated(rng) if rng.random() < 0.7 else random_hand(rng).to_json()
        before = copy.deepcopy(obj)
        assert RULESET.score_json(obj) == _full(obj), obj
        assert obj == before  # the gate reads, never changes


def test_hand_json_fast_gate_gives_up_on_lookalike_types() -> None:
    hand = random_hand(random.Random(1)).to_json()
    assert facts_from_json(hand) is not None
    for name, value in (("self_drawn", 1), ("concealed", tuple(hand["concealed"]))):
        assert facts_from_json({**hand, name: value}) is None
    meld = {"type": "pung", "tiles": ["E", "E", "E"], "concealed": False, "claimed_from": True}
    assert facts_from_json({**hand, "melds": [meld]}) is None
