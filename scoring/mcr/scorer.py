"""MCR (Chinese Official, 国标) scoring on the generic table engine.

Steps, for one hand:

1. Check the hand (``Hand.check``: 14 tiles, at most four of a tile, win tile held, win conditions
   consistent). Derive 和绝张 when the hand's own melds hold the other three copies of the win tile.
2. Read it every way (``decompose.readings``). Nine Gates (九莲宝灯), Seven Shifted Pairs (连七对),
   Thirteen Orphans, Honors and Knitted Tiles and Knitted Straight + set + pair are each scored as
   that one reading only; Seven Pairs is scored beside the sets-and-pair readings of the same tiles.
3. For each reading, run the detectors of its form (detectors.py): chow fans, pung fans, single
   pungs (箭刻 幺九刻), winds, kongs and concealed pungs, 碰碰和, 平和, 全带幺/全带五/全双刻, suits,
   tile traits, number ranges, 四归一, concealment, win conditions, the wait (边张 坎张 单钓将).
4. Apply the exclusions from the fan table once (fans.py; ``FanTable.apply``).
5. 无番和 when nothing scores (``empty_fan``).
6. Keep the reading with the highest total. Tie-break between equal totals: a sets-and-pair
   reading beats Seven Pairs, then a reading with 一色三同顺, then one with 三同刻, then the
   first found (decompose order: the lowest tile in a pung, then in a chow, then as the pair).
7. Flowers: one point each, added to the total afterwards, never toward the 8-point minimum.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

from fanscan.scoring.decompose import readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context, HandFacts
from fanscan.scoring.mcr.detectors import DETECTORS
from fanscan.scoring.mcr.fans import FANS
from fanscan.scoring.ruleset import FanTable, NoOptions, TableRuleSet

O = TypeVar("O")  # noqa: E741 (the options record of a rule set in the MCR family)
_ONLY_READING = ("thirteen_orphans", "honors_knitted", "knitted_straight")


def is_nine_gates(hand: Hand) -> bool:
    """1112345678999 of one suit plus any tile of that suit, all concealed."""
    if hand.melds or hand.win_tile is None or hand.win_tile >= 27:
        return False
    suit = hand.win_tile // 9
    counts = [0] * 9
    for tile in hand.concealed:
        if tile // 9 != suit:  # honors and flowers have no suit 0-2
            return False
        counts[tile % 9] += 1
    counts[hand.win_tile % 9] -= 1
    return counts == [3, 1, 1, 1, 1, 1, 1, 1, 3]


class MCRFamily(TableRuleSet[Context, O]):
    """The engine of MCR and the rule sets built on its fans (app-custom, mingxing)."""

    minimum = 8
    hand_size = 14
    flower_fan = "flower_tiles"
    empty_fan = "chicken_hand"

    def contexts(
        self, hand: Hand, options: O | None = None, *, every: bool = False
    ) -> Iterator[Context]:
        """The readings MCR scores; ``every``: Nine Gates also as its sets-and-pair readings."""
        facts = HandFacts(hand)
        if is_nine_gates(hand):
            yield Context(facts, None, "nine_gates")
            if not every:
                return
        found = readings(hand, self.forms, chows=self.chows)
        special = [r for r in found if r.form in _ONLY_READING]
        if special:
            yield Context(facts, special[0], special[0].form)
            return
        for reading in found:
            yield Context(facts, reading, reading.form)

    def detect(self, context: Context) -> dict[str, int]:
        counts: dict[str, int] = {}
        for detector in DETECTORS[context.form]:
            found = detector(context)
            if found:
                counts.update(found)
        if context.form == "seven_pairs" and "seven_shifted_pairs" in counts:
            context.form = "seven_shifted_pairs"
        return counts

    def tie_break(self, counts: Mapping[str, int], context: Context) -> tuple[int, ...]:
        return (
            context.form == "standard",
            "pure_triple_chow" in counts,
            "triple_pung" in counts,
        )



class MCRRuleSet(MCRFamily[NoOptions]):
    """Chinese Official rules: the 81 fans, the MIL rulings, 8-point minimum, flowers 1 each."""

    name = "mcr"
    title = "Chinese Official (MCR, 国标)"
    table = FanTable(FANS)
    options_type = NoOptions


RULESET = MCRRuleSet()
