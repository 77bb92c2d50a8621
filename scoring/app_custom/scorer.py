"""App-custom scoring (seed 003): MCR's scorer with the app's extras, wilds and dealer doubling.

Steps, for one hand:

1. Refuse what cannot be (``refusal``, each with its code): a bad wild setting, a wild tile in a
   declared set (wilds are never discarded or claimed with), more than four wilds, claimed sets
   on a first-turn win.
2. Without wilds, score the hand as MCR does (fanscan.scoring.mcr.scorer), the app's extras added
   to each reading: 天和 / 地和 / 人和 (``extras``, from fanscan.scoring.common), 四方大发财,
   混三步 / 混四步, 混三节 / 混四节, 二五八将, 么九头; the highest reading counts.
3. With wilds, every way of reading the hand is scored and the LOWEST counts ("含有財神的牌，在有
   多種排列，組合不同的牌型時，將按分數低的牌型計算"): what the wilds stand for (wilds.py), how the
   filled hand is then laid into sets (every reading, Nine Gates also as sets), and which of its
   sets hold the wilds; a chow holding a wild that could be more than one chow takes part in no
   chow pattern ("含有財神的順子，在有多種組合方式時將不參與牌型算分的計算"; wild_chows.py).
   Four wilds add 混杠 88.
4. Flowers: 1 point each, 花牌 (1f-4f) and 季花 (5f-8f), never toward the minimum; none when the
   flowers are the wilds ("花牌就只能當作財神而不能得分").
5. The minimum is 0 (自定义规则), 8 with ``eight_point_minimum``. ``details`` gives the 底分:
   0 with wilds, 2 without, 8 with the 8-point minimum.
6. Dealer doubling (``dealer``): "贏輸時自己的番分數翻倍計算": a 庄家翻倍 row adds the total again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from fanscan.scoring import common
from fanscan.scoring.app_custom.fans import FANS
from fanscan.scoring.app_custom.options import AppCustomOptions
from fanscan.scoring.app_custom.wild_chows import free_chow_choices
from fanscan.scoring.app_custom.wilds import MAX_WILDS, WILD_MODES, fillings, wild_face
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.context import Context
from fanscan.scoring.mcr.scorer import MCRFamily
from fanscan.scoring.ruleset import FanCount, FanTable, HandForm, Refusal, Scored
from fanscan.scoring.tiles import Tile

from fanscan.errors import FanscanError

#: Refusal codes (with those of wilds.py and fanscan.scoring.common).
WILD_IN_MELD = "wild_in_meld"
TOO_MANY_WILDS = "too_many_wilds"

_SUITED = 27


def _mixed_shifted(lows: Sequence[int], three: str, four: str) -> dict[str, int]:
    """混三步 / 混四步 (chows) or 混三节 / 混四节 (pungs): shifted sets not of one suit, and (for
    three) not of three suits either, which MCR scores as 三色三步高 / 三色三节高.
    """
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


def _pick_run(lows: Sequence[int], start: int, size: int) -> list[int] | None:
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
    """The app's extra fans on one reading (first-turn wins come from ``extras``)."""
    found: dict[str, int] = {}
    pungs, pair = context.pungs, context.pair
    if sorted(pungs) == [27, 28, 29, 30] and pair == 32:
        found["big_four_winds_and_green"] = 1
    found.update(_mixed_shifted(context.pattern_chows, "mixed_three_shifted_chows",
                                "mixed_four_shifted_chows"))
    found.update(_mixed_shifted(pungs, "mixed_three_shifted_pungs", "mixed_four_shifted_pungs"))
    if context.form in ("standard", "knitted_straight") and pair >= 0:
        if pair < _SUITED and pair % 9 in (1, 4, 7):
            found["pair_258"] = 1
        if pair >= _SUITED or pair % 9 in (0, 8):
            found["terminal_pair"] = 1
    return found


class AppCustomRuleSet(MCRFamily[AppCustomOptions]):
    """The app's custom rules: MCR fans and values, its * fans, wilds, dealer doubling."""

    name = "app-custom"
    title = "App custom rules (竞技麻将 自定义, 财神)"
    minimum = 0
    table = FanTable(FANS)
    options_type = AppCustomOptions

    def hand_form(self, obj: Mapping[str, Any]) -> HandForm:
        """14 tiles, flowers included when the flowers are the wilds."""
        is_mapping = type(obj) is dict or isinstance(obj, Mapping)  # dict first: no ABC check
        if is_mapping and obj.get("wild") in ("flowers", "花牌"):
            flowers = obj.get("flowers")
            if isinstance(flowers, list):
                return HandForm(14 - len(flowers), True)
        return self._form

    def refusal(self, hand: Hand, options: AppCustomOptions) -> Refusal | None:
        try:
            face = wild_face(options.wild, options.wild_indicator)
        except FanscanError as error:
            return Refusal(error.code, error.message)
        for meld in hand.melds:
            if face is not None and face in meld.tiles:
                return Refusal(WILD_IN_MELD, f"the declared {meld.kind} holds {face.code}, the"
                               " wild tile; wilds are never claimed with or melded")
        if options.first_turn and common.has_claims(hand):
            return common.claimed_on_first_turn()
        wilds = self.wild_count(hand, options)
        if wilds > MAX_WILDS:
            return Refusal(TOO_MANY_WILDS,
                           f"the hand holds {wilds} wild tiles; at most {MAX_WILDS} are scored")
        return None

    def wild_count(self, hand: Hand, options: AppCustomOptions) -> int:
        if WILD_MODES[options.wild] == "flowers":
            return len(hand.flowers)
        face = wild_face(options.wild, options.wild_indicator)
        return 0 if face is None else hand.concealed.count(face)

    def detect(self, context: Context) -> dict[str, int]:
        counts = super().detect(context)
        counts.update(extra_fans(context))
        return counts

    def extras(self, hand: Hand, options: AppCustomOptions) -> dict[str, int]:
        found: dict[str, int] = {}
        if options.first_turn:
            win = common.first_turn_win(dealer=options.dealer, self_drawn=hand.self_drawn)
            if win is not None:
                found[win] = 1
        if self.wild_count(hand, options) == 4:
            found["wild_kong"] = 1
        return found

    def choose(self, hand: Hand, options: AppCustomOptions) -> Scored[Context] | None:
        if self.wild_count(hand, options) == 0:
            return super().choose(hand, options)
        return self.lowest(self.wild_contexts(hand, options), self.extras(hand, options))

    def wild_contexts(self, hand: Hand, options: AppCustomOptions) -> Iterator[Context]:
        """Every way of reading a hand with wilds (step 3 of the module docstring)."""
        wilds = self.wild_count(hand, options)
        face = wild_face(options.wild, options.wild_indicator)
        natural = tuple(t for t in hand.concealed if t != face)
        held = Counter(natural)
        for filled in fillings(hand, natural, wilds, hand.win_tile == face):
            faces = Counter(filled.concealed)
            faces.subtract(held)
            stood_for = {int(t): n for t, n in faces.items() if n > 0}
            for context in self.contexts(filled, options, every=True):
                if context.reading is None or not context.chows:
                    yield context
                    continue
                for free in free_chow_choices(context.reading, stood_for):
                    yield context.without_chows(free) if free else context

    def flower_fans(self, hand: Hand, options: AppCustomOptions) -> tuple[FanCount, ...]:
        """花牌 (1f-4f) and 季花 (5f-8f), one point each, unless the flowers are the wilds."""
        if WILD_MODES[options.wild] == "flowers":
            return ()
        flowers = sum(1 for t in hand.flowers if t <= Tile.F4)
        counts = {"flower_tiles": flowers, "season_tiles": len(hand.flowers) - flowers}
        return self.table.fan_counts({f: n for f, n in counts.items() if n})

    def final_rows(self, total: int, hand: Hand, options: AppCustomOptions
                   ) -> tuple[FanCount, ...]:
        if options.dealer:
            return (FanCount("Dealer Doubling", "庄家翻倍", total, 1),)
        return ()

    def minimum_for(self, options: AppCustomOptions) -> int:
        return 8 if options.eight_point_minimum else 0

    def details(self, scored: Scored[Context], total: int, hand: Hand,
                options: AppCustomOptions) -> dict[str, Any]:
        base = 8 if options.eight_point_minimum else (0 if options.wild != "none" else 2)
        return {"base": base}


RULESET = AppCustomRuleSet()
