"""MCR (Chinese Official, 国标) scoring on the generic table engine.

Steps, for one hand:

1. Check the hand (``Hand.check``: 14 tiles, at most four of a tile, win tile held, win conditions
   consistent) and count its tiles (``HandFacts``); a hand JSON object is read and checked in one
   pass (hand_json.py). Derive 和绝张 when the hand's own melds hold the other three copies of the
   win tile.
2. Read it every way (the splits of ``decompose.concealed_splits`` and the special forms, as
   tile counts). Nine Gates (九莲宝灯), Seven Shifted Pairs (连七对), Thirteen Orphans, Honors and
   Knitted Tiles and Knitted Straight + set + pair are each scored as that one reading only; Seven
   Pairs is scored beside the sets-and-pair readings of the same tiles.
3. For each reading, run the detectors of its form (detectors.py): chow fans, pung fans, single
   pungs (箭刻 幺九刻), winds, kongs and concealed pungs, 碰碰和, 平和, 全带幺/全带五/全双刻,
   the wait (边张 坎张 单钓将); and once per hand suits, tile traits, number ranges, 四归一,
   concealment and win conditions.
4. Apply the exclusions from the fan table once (fans.py; ``FanTable.apply``).
5. 无番和 when nothing scores (``empty_fan``).
6. Keep the reading with the highest total. Tie-break between equal totals: a sets-and-pair
   reading beats Seven Pairs, then a reading with 一色三同顺, then one with 三同刻, then the
   first found (decompose order: the lowest tile in a pung, then in a chow, then as the pair).
7. Flowers: one point each, added to the total afterwards, never toward the 8-point minimum.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from fanscan.scoring.decompose import (
    Reading,
    concealed_splits,
    honors_knitted_readings,
    knitted_straight_readings,
    seven_pairs_readings,
    thirteen_orphans_readings,
)
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context, HandFacts
from fanscan.scoring.mcr.detectors import DETECTORS, hand_fans
from fanscan.scoring.mcr.fans import FANS
from fanscan.scoring.mcr.hand_json import facts_from_json
from fanscan.scoring.ruleset import (
    NOT_WINNING,
    FanTable,
    NoOptions,
    ScoreResult,
    TableRuleSet,
)

O = TypeVar("O")  # noqa: E741 (the options record of a rule set in the MCR family)
_SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * suit) for suit in range(3))
_SUITED_MASK = (1 << 27) - 1
_ORPHANS_MASK = sum(1 << t for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


def is_nine_gates(hand: Hand) -> bool:
    """1112345678999 of one suit plus any tile of that suit, all concealed."""
    return hand.win_tile is not None and _nine_gates(HandFacts.of_hand(hand))


def _nine_gates(facts: HandFacts) -> bool:
    win = facts.win
    if facts.melds or win >= 27 or facts.mask & ~_SUIT_MASKS[win // 9]:
        return False
    low = win - win % 9
    counts = facts.standing[low : low + 9]
    counts[win - low] -= 1
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
        return self.fact_contexts(HandFacts.of_hand(hand), every=every)

    def fact_contexts(self, facts: HandFacts, *, every: bool = False) -> Iterator[Context]:
        """``contexts`` from the hand's facts. Nine Gates, Thirteen Orphans, Honors and Knitted
        and Knitted Straight are each scored as that one reading only (the first of them found);
        each is looked for only when the hand's tile mask allows it.
        """
        if _nine_gates(facts):
            yield Context(facts, "nine_gates")
            if not every:
                return
        special = self._special_reading(facts) if len(facts.melds) <= 1 else None
        if special is not None:
            yield Context(facts, special.form, reading=special)
            return
        if "standard" in self.forms:
            for split in concealed_splits(facts.standing, self.chows):
                yield Context(facts, "standard", split)
        if not facts.melds and "seven_pairs" in self.forms:
            for reading in seven_pairs_readings(facts.standing):
                yield Context(facts, reading.form, reading=reading)

    def _special_reading(self, facts: HandFacts) -> Reading | None:
        """The first Thirteen Orphans, Honors and Knitted or Knitted Straight reading (none has
        more than one meld).
        """
        forms, standing, mask = self.forms, facts.standing, facts.mask
        found: list[Reading] = []
        if not facts.melds:
            if not mask & ~_ORPHANS_MASK and "thirteen_orphans" in forms:
                found = thirteen_orphans_readings(standing)
            # Fourteen different tiles.
            elif mask.bit_count() == 14 and "honors_knitted" in forms:
                found = honors_knitted_readings(standing)
        if (
            not found
            and (mask & _SUITED_MASK).bit_count() >= 9
            and "knitted_straight" in forms
        ):
            found = knitted_straight_readings(standing, facts.melds, self.chows)
        return found[0] if found else None

    def detect(self, context: Context) -> dict[str, int]:
        counts = hand_fans(context.hand, context.form)
        chows, pungs = len(context.chows), len(context.pungs)
        for detector, chows_needed, pungs_needed in DETECTORS[context.form]:
            if chows >= chows_needed and pungs >= pungs_needed:
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

    def score_json(self, obj: Any) -> ScoreResult:
        facts = facts_from_json(obj)
        if facts is None:  # something is wrong or unusual: the full checks say what
            return super().score_json(obj)
        return self.score_facts(facts)

    def score(self, hand: Hand) -> ScoreResult:
        return self.score_facts(HandFacts.of_hand(hand))

    def score_facts(self, facts: HandFacts) -> ScoreResult:
        """The engine's steps with MCR's defaults (no options, refusals or extras), on facts."""
        scored = self.highest(self.fact_contexts(facts), {})
        if scored is None:
            return ScoreResult.failed(self.name, self.minimum, self.not_winning_message,
                                      NOT_WINNING)
        fans = self.table.fan_counts(scored.counts)
        flower_points = 0
        if facts.flowers:
            rows = self.table.fan_counts({self.flower_fan: facts.flowers})
            flower_points = rows[0].points * facts.flowers
            fans += rows
        return ScoreResult(self.name, scored.points + flower_points, fans, flower_points,
                           self.minimum, scored.points >= self.minimum)


RULESET = MCRRuleSet()
