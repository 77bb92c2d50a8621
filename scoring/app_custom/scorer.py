"""App-custom scoring (seed 003): MCR's scorer with the app's extras, wilds and dealer doubling.

Steps, for one hand:

1. Refuse what cannot be (``refusal``): a bad wild setting, a wild tile in a declared set (wilds
   are never discarded or claimed with), more than four wilds, claimed sets on a first-turn win.
2. Without wilds, score the hand as MCR does (fanscan.scoring.mcr.scorer), the app's extras added
   to each reading: 天和 / 地和 / 人和 (``first_turn``), 四方大发财, 混三步 / 混四步, 混三节 / 混四节,
   二五八将, 么九头.
3. With wilds, fill them in every way that completes the hand (wilds.py), score each filling as in
   step 2 and keep the LOWEST ("含有财神的牌，在有多种排列，组合不同的牌型时，将按分数低的牌型计算").
   Four wilds add 混杠 88.
4. Flowers: 1 point each, 花牌 (1f-4f) and 季花 (5f-8f), never toward the minimum; none when the
   flowers are the wilds ("花牌就只能当作财神而不能得分").
5. The minimum is 0 (自定义规则), 8 with ``eight_point_minimum``. ``details`` gives the 底分:
   0 with wilds, 2 without, 8 with the 8-point minimum.
6. Dealer doubling (``dealer``): "赢输时自己的番分数翻倍计算": a 庄家翻倍 row adds the total again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fanscan.scoring.app_custom.fans import FANS
from fanscan.scoring.app_custom.wilds import MAX_WILDS, WILD_MODES, fillings, wild_face
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context
from fanscan.scoring.mcr.scorer import MCRRuleSet
from fanscan.scoring.ruleset import FanCount, FanTable, HandField, ScoreResult

from fanscan.errors import FanscanError

HAND_FIELDS: tuple[HandField, ...] = (
    HandField("dealer", False, "the winner is the dealer (庄家): the fan total is doubled"),
    HandField("first_turn", False,
              "won in the first round before any claim: 天和 (dealer), 地和 (self-drawn), 人和"),
    HandField("wild", "none",
              "the wild tile (财神): none, flowers, same (翻混), previous (上滚混), next (下滚混)"),
    HandField("wild_indicator", "", "the turned tile that sets the wild face, e.g. 4m"),
    HandField("eight_point_minimum", False, "play with the 8-point minimum (8分起和)"),
)

_SUITED = 27


def _mixed_shifted(lows: list[int], three: str, four: str) -> dict[str, int]:
    """混三步 / 混四步 (chows) or 混三节 / 混四节 (pungs): shifted sets not of one suit, and (for
    three) not of three suits either, which MCR scores as 三色三步高 / 三色三节高."""
    ranks = sorted(lows)
    for size, fan in ((4, four), (3, three)):
        for start in range(9 - size + 1):
            picked = _pick_run(ranks, start, size)
            if picked is None:
                continue
            suits = {low // 9 for low in picked}
            if len(suits) > 1 and (size == 4 or len(suits) == 2):
                return {fan: 1}
    return {}


def _pick_run(lows: list[int], start: int, size: int) -> list[int] | None:
    """Sets with lowest ranks start, start+1, ... (one per rank), preferring mixed suits."""
    picked: list[int] = []
    for rank in range(start, start + size):
        options = [low for low in lows if low < _SUITED and low % 9 == rank]
        if not options:
            return None
        fresh = [o for o in options if o // 9 not in {p // 9 for p in picked}]
        picked.append((fresh or options)[0])
    return picked


def extra_fans(context: Context) -> dict[str, int]:
    """The app's extra fans on one reading (first-turn wins come from the hand fields)."""
    hand = context.hand.hand
    found: dict[str, int] = {}
    options: Mapping[str, Any] = hand.options
    if options["first_turn"]:
        if options["dealer"]:
            if hand.self_drawn:
                found["heavenly_win"] = 1
        else:
            found["earthly_win" if hand.self_drawn else "human_win"] = 1
    pungs, chows, pair = context.pungs, context.chows, context.pair
    if sorted(pungs) == [27, 28, 29, 30] and pair == 32:
        found["big_four_winds_and_green"] = 1
    found.update(_mixed_shifted(chows, "mixed_three_shifted_chows", "mixed_four_shifted_chows"))
    found.update(_mixed_shifted(pungs, "mixed_three_shifted_pungs", "mixed_four_shifted_pungs"))
    if context.form in ("standard", "knitted_straight") and pair >= 0:
        if pair < _SUITED and pair % 9 in (1, 4, 7):
            found["pair_258"] = 1
        if pair >= _SUITED or pair % 9 in (0, 8):
            found["terminal_pair"] = 1
    return found


class AppCustomRuleSet(MCRRuleSet):
    """The app's custom rules: MCR fans and values, its * fans, wilds, dealer doubling."""

    name = "app-custom"
    title = "App custom rules (竞技麻将 自定义, 财神)"
    minimum = 0
    hand_fields = HAND_FIELDS
    table = FanTable(FANS)

    def hand_size_for(self, obj: object) -> int:
        """14 tiles, flowers included when the flowers are the wilds."""
        if isinstance(obj, Mapping) and obj.get("wild") in ("flowers", "花牌"):
            flowers = obj.get("flowers")
            return 14 - len(flowers) if isinstance(flowers, list) else 14
        return 14

    def refusal(self, hand: Hand) -> str | None:
        """Why the hand cannot be scored as given, or None."""
        options = hand.options
        try:
            face = wild_face(options["wild"], options["wild_indicator"])
        except FanscanError as error:
            return error.message
        for meld in hand.melds:
            if face is not None and face in meld.tiles:
                return (f"the declared {meld.kind} holds {face.code}, the wild tile; wilds are"
                        " never claimed with or melded")
        if options["first_turn"] and any(not m.concealed for m in hand.melds):
            return "first_turn is set, but the hand has claimed sets; the first round has no claims"
        if self.wild_count(hand) > MAX_WILDS:
            return f"the hand holds {self.wild_count(hand)} wild tiles; at most {MAX_WILDS} are scored"
        return None

    def wild_count(self, hand: Hand) -> int:
        mode = WILD_MODES[hand.options["wild"]]
        if mode == "flowers":
            return len(hand.flowers)
        face = wild_face(hand.options["wild"], hand.options["wild_indicator"])
        return 0 if face is None else hand.concealed.count(face)

    def detect(self, context: Context) -> dict[str, int]:
        counts = super().detect(context)
        counts.update(extra_fans(context))
        return counts

    def lowest(self, hand: Hand) -> tuple[dict[str, int], int] | None:
        """The fans of the hand, its wilds filled in the way that scores least (or None)."""
        wilds = self.wild_count(hand)
        if wilds == 0:
            best = self.best(hand)
            return None if best is None else (best[0], best[1])
        face = wild_face(hand.options["wild"], hand.options["wild_indicator"])
        natural = tuple(t for t in hand.concealed if t != face)
        low: tuple[dict[str, int], int] | None = None
        for filled in fillings(hand, natural, wilds, hand.win_tile == face):
            best = self.best(filled)
            if best is not None and (low is None or best[1] < low[1]):
                low = (best[0], best[1])
        if low is not None and wilds == 4:
            low = ({**low[0], "wild_kong": 1}, low[1] + self.table.by_id["wild_kong"].points)
        return low

    def flower_fans(self, hand: Hand) -> tuple[FanCount, ...]:
        """花牌 (1f-4f) and 季花 (5f-8f), one point each, unless the flowers are the wilds."""
        if WILD_MODES[hand.options["wild"]] == "flowers":
            return ()
        by_id = self.table.by_id
        flowers = sum(1 for t in hand.flowers if t.code in ("1f", "2f", "3f", "4f"))
        seasons = len(hand.flowers) - flowers
        return tuple(FanCount(by_id[f].name, by_id[f].chinese, 1, n)
                     for f, n in (("flower_tiles", flowers), ("season_tiles", seasons)) if n)

    def score(self, hand: Hand) -> ScoreResult:
        refused = self.refusal(hand)
        options = hand.options
        minimum = 8 if options["eight_point_minimum"] else 0
        if refused is not None:
            return ScoreResult.failed(self.name, minimum, refused)
        found = self.lowest(hand)
        if found is None:
            return ScoreResult.failed(self.name, minimum, self.not_winning(hand))
        counts, points = found
        flowers = self.flower_fans(hand)
        fans = self.table.fan_counts(counts) + flowers
        flower_points = sum(f.count for f in flowers)
        total = points + flower_points
        if options["dealer"]:
            fans += (FanCount("Dealer Doubling", "庄家翻倍", total, 1),)
            total *= 2
        base = 8 if minimum else (0 if options["wild"] != "none" else 2)
        return ScoreResult(self.name, total, fans, flower_points, minimum, points >= minimum,
                           None, {"base": base})


RULESET = AppCustomRuleSet()
