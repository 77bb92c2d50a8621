"""明星三缺一 scoring (seed 000): MCR's scorer plus the game's extras.

Steps, for one hand:

1. Refuse inconsistent win conditions (``refusal``): a first-turn win or a first-turn ready hand
   with claimed sets, a first-turn win that is also first-turn ready.
2. Score it as MCR does (fanscan.scoring.mcr.scorer: every reading, the exclusions, the best).
3. Add the win-condition extras to each reading's fans: 天胡 (``first_turn`` + ``dealer`` +
   self-drawn), 地胡 (``first_turn``, non-dealer, self-drawn), 人胡 (``first_turn``, non-dealer, on
   a discard), 天听 / 地听 (``first_turn_ready``, dealer / non-dealer), 八仙过海 (all eight flowers).
   These count toward the 8-point minimum.
4. Flowers, told apart one by one: 1 point each (花牌), plus 32 for 梅兰竹菊 (1f-4f) and 32 for
   春夏秋冬 (5f-8f); with all eight, 八仙过海 takes the place of both sets. Flower points do not
   count toward the minimum.
5. 八仙过海 is a win by itself ("可立即喊胡"): eight flowers with tiles that form no winning hand
   score 八仙过海 alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context
from fanscan.scoring.mcr.scorer import MCRRuleSet
from fanscan.scoring.mingxing.fans import FANS
from fanscan.scoring.ruleset import FanCount, FanTable, HandField, ScoreResult
from fanscan.scoring.tiles import Tile

FLOWER_SET = frozenset((Tile.F1, Tile.F2, Tile.F3, Tile.F4))
SEASON_SET = frozenset((Tile.F5, Tile.F6, Tile.F7, Tile.F8))

HAND_FIELDS: tuple[HandField, ...] = (
    HandField("dealer", False, "the winner is the dealer (庄家)"),
    HandField("first_turn", False,
              "won in the first round before any claim: 天胡 (dealer), 地胡 (self-drawn), 人胡"),
    HandField("first_turn_ready", False,
              "ready from the first discard, no claims: 天听 (dealer) or 地听"),
)


def first_turn_fans(hand: Hand) -> dict[str, int]:
    """天胡 地胡 人胡 天听 地听 八仙过海 from the hand fields and the flowers."""
    options: Mapping[str, object] = hand.options
    dealer = bool(options["dealer"])
    found: dict[str, int] = {}
    if options["first_turn"]:
        if dealer:
            if hand.self_drawn:
                found["heavenly_win"] = 1
        else:
            found["earthly_win" if hand.self_drawn else "human_win"] = 1
    if options["first_turn_ready"]:
        found["heavenly_ready" if dealer else "earthly_ready"] = 1
    if len(set(hand.flowers)) == 8:
        found["eight_flowers"] = 1
    return found


class MingxingRuleSet(MCRRuleSet):
    """明星三缺一: the MCR fans, first-turn wins and ready hands, flower sets, 8-point minimum."""

    name = "mingxing"
    title = "明星三缺一 (MCR with extras)"
    hand_fields = HAND_FIELDS
    table = FanTable(FANS)

    def refusal(self, hand: Hand) -> str | None:
        """Why the hand's win conditions cannot all be true, or None."""
        claimed = any(not m.concealed for m in hand.melds)
        for name in ("first_turn", "first_turn_ready"):
            if hand.options[name] and claimed:
                return f"{name} is set, but the hand has claimed sets; the first round has no claims"
        if hand.options["first_turn"] and hand.options["first_turn_ready"]:
            return "first_turn and first_turn_ready are both set; a first-turn win was never ready"
        return None

    def detect(self, context: Context) -> dict[str, int]:
        counts = super().detect(context)
        counts.update(first_turn_fans(context.hand.hand))
        return counts

    def flower_fans(self, hand: Hand) -> tuple[FanCount, ...]:
        """花牌 one each, and the complete sets unless 八仙过海 (a fan) takes their place."""
        by_id = self.table.by_id
        held = set(hand.flowers)
        ids = ["flower_tiles"] * len(held)
        if len(held) < 8:
            ids += [fid for fid, group in (("four_flowers", FLOWER_SET),
                                           ("four_seasons", SEASON_SET)) if group <= held]
        counted = {fid: ids.count(fid) for fid in dict.fromkeys(ids)}
        return tuple(FanCount(by_id[f].name, by_id[f].chinese, by_id[f].points, n)
                     for f, n in counted.items())

    def score(self, hand: Hand) -> ScoreResult:
        refused = self.refusal(hand)
        if refused is not None:
            return ScoreResult.failed(self.name, self.minimum, refused)
        best = self.best(hand)
        if best is None:
            extras = first_turn_fans(hand)
            if "eight_flowers" not in extras:
                return ScoreResult.failed(self.name, self.minimum, self.not_winning(hand))
            counts = {"eight_flowers": 1}
        else:
            counts = best[0]
        points = self.table.points(counts)
        flowers = self.flower_fans(hand)
        flower_points = sum(f.points * f.count for f in flowers)
        return ScoreResult(self.name, points + flower_points,
                           self.table.fan_counts(counts) + flowers, flower_points,
                           self.minimum, points >= self.minimum)


RULESET = MingxingRuleSet()
