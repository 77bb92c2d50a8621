"""国标加强版 scoring (seed 001): P = (牌型基值 + 超级组合 + 稀有族群 + 满贯奖励 + 特殊胡牌方式 +
特种牌奖励) × 听牌难度系数.

Steps, for one hand:

1. Refuse inconsistent settings (``refusal``): a ``level`` other than 8, 16 or 24, a dealer's
   first-turn win that is not self-drawn, a first-turn win with claimed sets.
2. Read the hand every way (shapes.py): 刻牌, 顺牌, 混牌 (sets and a pair), 七对, 不靠 and the
   special forms.
3. For each reading: the base value of its type, the super combinations (combos.py: the highest
   of each category, categories add), the highest rare group, 满贯奖励, the special ways of winning,
   the flower bonus, all summed and multiplied by the 听牌难度 factor (groups.py).
4. Keep the reading with the highest P (就高不就低). ``total`` is P; it must reach the 起胡分
   ``level`` (8, 16 or 24); flowers count toward it (the seed's 例1 says so), so
   ``flower_points`` is 0 and the flower bonus is a row of its own.
5. ``details`` gives the payments (正分 T): on a discard the discarder pays P and the two others
   P/4 each, rounded up (例4: 126/4 → 32); self-drawn, each of the three pays P.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from fanscan.scoring.guobiao_plus import combos, groups
from fanscan.scoring.guobiao_plus.points import BASE, FACTORS, FLOWERS, RARE, WINS, table
from fanscan.scoring.guobiao_plus.shapes import Shape, shapes
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import Fan, FanCount, HandField, ScoreResult

HAND_FIELDS: tuple[HandField, ...] = (
    HandField("dealer", False, "the winner is the dealer (庄家)"),
    HandField("first_turn", False,
              "won in the first round: 天胡 (dealer), 地胡 (the dealer's 下家, seat S, self-drawn)"
              " or 人胡"),
    HandField("level", 8, "the 起胡分 level: 8 (初级), 16 (中级) or 24 (高级)"),
)


@dataclass(frozen=True)
class Scored:
    """One reading's points: the rows before the factor, the factor id and P."""

    rows: tuple[FanCount, ...]
    factor: str
    points: int


class GuobiaoPlusRuleSet:
    """国标加强版: the formula of seed 001, 起胡分 8/16/24, its payments."""

    name = "guobiao-plus"
    title = "国标加强版 (《麻将竞赛规则》国标加强版)"
    minimum = 8
    hand_size = 14
    hand_fields = HAND_FIELDS
    fans: tuple[Fan, ...] = table()

    def refusal(self, hand: Hand) -> str | None:
        options = hand.options
        if options["level"] not in (8, 16, 24):
            return f"level is {options['level']}; the 起胡分 level is 8, 16 or 24"
        if options["first_turn"] and options["dealer"] and not hand.self_drawn:
            return "first_turn with dealer is 天胡, a win on the dealer's own tiles; set self_drawn"
        if options["first_turn"] and any(not m.concealed for m in hand.melds):
            return "first_turn is set, but the hand has claimed sets; the first round has no claims"
        return None

    def score_shape(self, shape: Shape, hand: Hand) -> Scored:
        """P for one reading, with the rows that make it up (before the factor)."""
        _, base_name, base_chinese, base_points = BASE[shape.kind]
        rows = [FanCount(base_name, base_chinese, base_points, 1)]
        rows += [FanCount(f"{c.name} [{c.code}]", c.chinese, c.points, 1)
                 for c in combos.best(shape)]
        rare = groups.rare_group(shape)
        if rare is not None:
            name, chinese, points, _ = RARE[rare]
            rows.append(FanCount(name, chinese, points, 1))
        full = groups.full_sets(hand)
        by_id = {f.id: f for f in self.fans}
        rows += [FanCount(by_id[f].name, by_id[f].chinese, by_id[f].points, 1) for f in full]
        for win in groups.special_wins(hand):
            name, chinese, points = WINS[win]
            rows.append(FanCount(name, chinese, points, 1))
        flowers = groups.special_tiles(hand)
        if flowers is not None:
            name, chinese, points = FLOWERS[flowers]
            rows.append(FanCount(name, chinese, points, 1))
        factor = groups.factor(shape, hand)
        total = sum(r.points for r in rows) * FACTORS[factor][2]
        return Scored(tuple(rows), factor, total)

    def score(self, hand: Hand) -> ScoreResult:
        level = hand.options["level"]
        refused = self.refusal(hand)
        if refused is not None:
            return ScoreResult.failed(self.name, level if level in (8, 16, 24) else 8, refused)
        best: Scored | None = None
        for shape in shapes(hand):
            scored = self.score_shape(shape, hand)
            if best is None or scored.points > best.points:
                best = scored
        if best is None:
            return ScoreResult.failed(
                self.name, level,
                "the tiles form no winning hand (sets and a pair, seven pairs or 不靠)")
        name, chinese, multiplier = FACTORS[best.factor]
        subtotal = best.points // multiplier
        rows = best.rows
        if multiplier > 1:
            rows += (FanCount(f"{name} ×{multiplier}", f"{chinese} ×{multiplier}",
                              subtotal * (multiplier - 1), 1),)
        return ScoreResult(self.name, best.points, rows, 0, level, best.points >= level, None,
                           self.payments(best.points, hand))

    @staticmethod
    def payments(points: int, hand: Hand) -> dict[str, Any]:
        """正分 T: who pays what for a base score P (第八条 2)."""
        if hand.self_drawn:
            return {"P": points, "each_pays": points, "T": 3 * points}
        others = ceil(points / 4)
        return {"P": points, "discarder_pays": points, "others_pay": others,
                "T": points + 2 * others}


RULESET = GuobiaoPlusRuleSet()
