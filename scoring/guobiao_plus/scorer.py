"""国标加强版 scoring (seed 001): P = (牌型基值 + 超级组合 + 稀有族群 + 满贯奖励 + 特殊胡牌方式 +
特种牌奖励) × 听牌难度系数.

Steps, for one hand:

1. Refuse inconsistent settings (``refusal``, each with its code): a ``level`` other than 8, 16
   or 24, a dealer's first-turn win that is not self-drawn, a first-turn win with claimed sets.
2. Read the hand every way (shapes.py): 刻牌, 顺牌, 混牌 (sets and a pair), 七对, 不靠 and the
   special forms.
3. For each reading (``detect``): the base value of its type, the super combinations (combos.py:
   the highest of each category, categories add), the highest rare group; with the whole hand's
   (``extras``): 满贯奖励, the special ways of winning, the flower bonus; all summed and
   multiplied by the 听牌难度 factor of the reading (``value``; groups.py).
4. Keep the reading with the highest P (就高不就低). ``total`` is P; it must reach the 起胡分
   ``level`` (8, 16 or 24); flowers count toward it (the seed's 例1 says so), so
   ``flower_points`` is 0 and the flower bonus is a row of its own.
5. ``details`` gives the payments (正分 T): on a discard the discarder pays P and the two others
   P/4 each, rounded up (例4: 126/4 → 32); self-drawn, each of the three pays P.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import ceil
from typing import Any, NamedTuple

from fanscan.scoring import common
from fanscan.scoring.guobiao_plus import combos, groups
from fanscan.scoring.guobiao_plus.points import BASE, FACTORS, table
from fanscan.scoring.guobiao_plus.shapes import Shape, shapes
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import FanCount, FanTable, Refusal, Scored, TableRuleSet, option

#: Refusal code (with those of fanscan.scoring.common).
BAD_LEVEL = "bad_level"
LEVELS = (8, 16, 24)


@dataclass(frozen=True)
class GuobiaoPlusOptions(common.SeatOptions):
    """The 国标加强版 hand fields."""

    first_turn: bool = option(
        False,
        "won in the first round: 天胡 (dealer), 地胡 (the dealer's 下家, seat S, self-drawn)"
        " or 人胡",
    )
    level: int = option(8, "the 起胡分 level: 8 (初级), 16 (中级) or 24 (高级)")


class GuobiaoContext(NamedTuple):
    """One reading (a shape) of a hand."""

    hand: Hand
    shape: Shape


class GuobiaoPlusRuleSet(TableRuleSet[GuobiaoContext, GuobiaoPlusOptions]):
    """国标加强版: the formula of seed 001, 起胡分 8/16/24, its payments."""

    name = "guobiao-plus"
    title = "国标加强版 (《麻将竞赛规则》国标加强版)"
    minimum = 8
    hand_size = 14
    table = FanTable(table())
    options_type = GuobiaoPlusOptions
    not_winning_message = "the tiles form no winning hand (sets and a pair, seven pairs or 不靠)"

    def refusal(self, hand: Hand, options: GuobiaoPlusOptions) -> Refusal | None:
        if options.level not in LEVELS:
            return Refusal(BAD_LEVEL, f"level is {options.level}; the 起胡分 level is 8, 16 or 24")
        if options.first_turn and options.dealer and not hand.self_drawn:
            return common.dealer_first_turn_on_discard("天胡")
        if options.first_turn and common.has_claims(hand):
            return common.claimed_on_first_turn()
        return None

    def contexts(self, hand: Hand, options: GuobiaoPlusOptions) -> Iterator[GuobiaoContext]:
        for shape in shapes(hand):
            yield GuobiaoContext(hand, shape)

    def detect(self, context: GuobiaoContext) -> dict[str, int]:
        """The base value of the shape's type, its super combinations and its rare group."""
        shape = context.shape
        found = {BASE[shape.kind][0]: 1}
        for combo in combos.best(shape):
            found[combo.id] = 1
        rare = groups.rare_group(shape)
        if rare is not None:
            found[rare] = 1
        return found

    def extras(self, hand: Hand, options: GuobiaoPlusOptions) -> dict[str, int]:
        """满贯奖励, 特殊胡牌方式 and 特种牌奖励: they depend on the hand, not on the reading."""
        found = dict.fromkeys(groups.full_sets(hand), 1)
        wins = groups.special_wins(hand, dealer=options.dealer, first_turn=options.first_turn)
        found.update(dict.fromkeys(wins, 1))
        flowers = groups.special_tiles(hand)
        if flowers is not None:
            found[flowers] = 1
        return found

    def value(self, counts: dict[str, int], context: GuobiaoContext) -> int:
        """P: the sum times the reading's 听牌难度 factor."""
        return self.table.points(counts) * FACTORS[groups.factor(context.shape, context.hand)][2]

    def rows(self, scored: Scored[GuobiaoContext], hand: Hand, options: GuobiaoPlusOptions
             ) -> tuple[FanCount, ...]:
        """The summed rows, then the factor as a row of what it adds."""
        rows = self.table.fan_counts(scored.counts)
        name, chinese, multiplier = FACTORS[groups.factor(scored.context.shape, hand)]
        if multiplier > 1:
            subtotal = scored.points // multiplier
            rows += (FanCount(f"{name} ×{multiplier}", f"{chinese} ×{multiplier}",
                              subtotal * (multiplier - 1), 1),)
        return rows

    def flower_fans(self, hand: Hand, options: GuobiaoPlusOptions) -> tuple[()]:
        return ()  # flowers are the 特种牌奖励 row, and count toward the level (例1)

    def minimum_for(self, options: GuobiaoPlusOptions) -> int:
        return options.level if options.level in LEVELS else 8

    def details(self, scored: Scored[GuobiaoContext], total: int, hand: Hand,
                options: GuobiaoPlusOptions) -> dict[str, Any]:
        return self.payments(scored.points, hand)

    @staticmethod
    def payments(points: int, hand: Hand) -> dict[str, Any]:
        """正分 T: who pays what for a base score P (第八条 2)."""
        if hand.self_drawn:
            return {"P": points, "each_pays": points, "T": 3 * points}
        others = ceil(points / 4)
        return {"P": points, "discarder_pays": points, "others_pay": others,
                "T": points + 2 * others}


RULESET = GuobiaoPlusRuleSet()
