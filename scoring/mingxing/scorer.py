"""明星三缺一 scoring (seed 000): MCR's scorer plus the game's extras.

Steps, for one hand:

1. Refuse inconsistent win conditions (``refusal``): a first-turn win or a first-turn ready hand
   with claimed sets, a first-turn win that is also first-turn ready.
2. Score it as MCR does (fanscan.scoring.mcr.scorer: every reading, the exclusions, the best).
3. Add the win-condition extras to each reading's fans: 天胡 (``first_turn`` + ``dealer`` +
   self-drawn), 地胡 (``first_turn``, non-dealer, self-drawn), 人胡 (``first_turn``, non-dealer, on
   a discard), 天听 / 地听 (``first_turn_ready``, dealer / non-dealer), 八仙过海 (all eight
   flowers).
   These count toward the 8-point minimum.
4. Flowers, told apart one by one: 1 point each (花牌), plus 32 for 梅兰竹菊 (1f-4f) and 32 for
   春夏秋冬 (5f-8f); with all eight, 八仙过海 takes the place of both sets. Flower points do not
   count toward the minimum.
5. 八仙过海 is a win by itself ("可立即喊胡"): eight flowers with tiles that form no winning hand
   score 八仙过海 alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from fanscan.scoring import common
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context, HandFacts
from fanscan.scoring.mcr.scorer import MCRFamily
from fanscan.scoring.mingxing.fans import FANS
from fanscan.scoring.ruleset import FanCount, FanTable, Refusal, Scored, option
from fanscan.scoring.tiles import Tile

FLOWER_SET = frozenset((Tile.F1, Tile.F2, Tile.F3, Tile.F4))
SEASON_SET = frozenset((Tile.F5, Tile.F6, Tile.F7, Tile.F8))

#: Refusal code (with those of fanscan.scoring.common).
FIRST_TURN_AND_READY = "first_turn_and_ready"


@dataclass(frozen=True)
class MingxingOptions(common.SeatOptions):
    """The hand fields of 明星三缺一: the shared ones and the first-turn ready hand."""

    first_turn: bool = option(
        False, "won in the first round before any claim: 天胡 (dealer), 地胡 (self-drawn), 人胡"
    )
    first_turn_ready: bool = option(
        False, "ready from the first discard, no claims: 天听 (dealer) or 地听"
    )


class MingxingRuleSet(MCRFamily[MingxingOptions]):
    """明星三缺一: the MCR fans, first-turn wins and ready hands, flower sets, 8-point minimum."""

    name = "mingxing"
    title = "明星三缺一 (MCR with extras)"
    table = FanTable(FANS)
    options_type = MingxingOptions

    def refusal(self, hand: Hand, options: MingxingOptions) -> Refusal | None:
        claimed = common.has_claims(hand)
        for name in ("first_turn", "first_turn_ready"):
            if getattr(options, name) and claimed:
                return common.claimed_on_first_turn(name)
        if options.first_turn and options.first_turn_ready:
            return Refusal(FIRST_TURN_AND_READY, "first_turn and first_turn_ready are both set;"
                           " a first-turn win was never ready")
        return None

    def extras(self, hand: Hand, options: MingxingOptions) -> dict[str, int]:
        """天胡 地胡 人胡 天听 地听 八仙过海 from the hand fields and the flowers."""
        found: dict[str, int] = {}
        if options.first_turn:
            win = common.first_turn_win(dealer=options.dealer, self_drawn=hand.self_drawn)
            if win is not None:
                found[win] = 1
        if options.first_turn_ready:
            found["heavenly_ready" if options.dealer else "earthly_ready"] = 1
        if len(set(hand.flowers)) == 8:
            found["eight_flowers"] = 1
        return found

    def choose(self, hand: Hand, options: MingxingOptions) -> Scored[Context] | None:
        best = super().choose(hand, options)
        if best is None and len(set(hand.flowers)) == 8:
            # 八仙过海 wins by itself ("可立即喊胡"), whatever the tiles.
            counts = {"eight_flowers": 1}
            return Scored(counts, self.table.points(counts), Context(HandFacts.of_hand(hand), ""))
        return best

    def flower_fans(self, hand: Hand, options: MingxingOptions) -> tuple[FanCount, ...]:
        """花牌 one each, and the complete sets unless 八仙过海 (a fan) takes their place."""
        held = set(hand.flowers)
        counts = {"flower_tiles": len(held)} if held else {}
        if len(held) < 8:
            for fid, group in (("four_flowers", FLOWER_SET), ("four_seasons", SEASON_SET)):
                if group <= held:
                    counts[fid] = 1
        return self.table.fan_counts(counts)


RULESET = MingxingRuleSet()
