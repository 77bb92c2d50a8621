"""Changsha scoring (seed 004, the 长沙 part: 基本规则, A类 大胡, B类 小胡, the payments).

Steps, for one hand:

1. Refuse what Changsha does not play or what cannot be: honors or flowers (108 tiles), inconsistent
   first-turn or discard fields.
2. An opening hand (``opening``: the 14 or 13 tiles as dealt) wins by 四喜 (four alike), 板板胡 (no
   2, 5 or 8) and 缺一色 (a suit missing), each a 小胡 paid like a small self-draw.
3. Otherwise read the hand (sets and a pair, chows allowed; seven pairs) and count its big hands:
   天胡, 地胡, 碰碰胡, 将将胡 (every tile a 2, 5 or 8, whatever its shape), 清一色, 七巧对 with any pair;
   海底捞月, 杠上花, 抢杠胡 only with a pair of 2, 5 or 8. Without a big hand the hand is a 小胡, which
   needs that pair.
4. Each hand pays (the dealer always counts one more, "庄家比闲家多算一分"): 小胡 1 per payer, 大胡
   self-drawn 3 per payer, 大胡 on a discard 6 from the discarder; +1 when the dealer pays or wins.
   抢杠胡: the robbed player pays 12 if the dealer, 10 otherwise. Big hands stack: each pays.
5. ``total`` is what the winner collects; ``details.payers`` says who pays it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from fanscan.scoring.changsha.fans import FANS, NEEDS_258
from fanscan.scoring.decompose import readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import FanCount, FanTable, HandField, ScoreResult

HAND_FIELDS: tuple[HandField, ...] = (
    HandField("dealer", False, "the winner is the dealer (庄家)"),
    HandField("discarder_dealer", False, "the winning discard (or robbed kong) was the dealer's"),
    HandField("first_turn", False, "天胡 (dealer, own tiles) or 地胡 (on the dealer's first discard)"),
    HandField("opening", False,
              "the hand as dealt (14 tiles for the dealer, 13 otherwise): 四喜, 板板胡, 缺一色"),
)
_TABLE = FanTable(FANS)


def _is_258(tile: int) -> bool:
    return tile < 27 and tile % 9 in (1, 4, 7)


def opening_wins(hand: Hand) -> list[str]:
    """四喜, 板板胡 and 缺一色 on a dealt hand."""
    tiles = [int(t) for t in hand.all_tiles()]
    found = []
    if 4 in Counter(tiles).values():
        found.append("four_alike")
    if not any(_is_258(t) for t in tiles):
        found.append("no_258")
    if len({t // 9 for t in tiles}) < 3:
        found.append("voided_suit")
    return found


def big_hands(hand: Hand, pungs_only: bool, seven_pairs: bool, pair: int) -> list[str]:
    """The big hands of one reading (before the 需将 check)."""
    options: Mapping[str, Any] = hand.options
    tiles = [int(t) for t in hand.all_tiles()]
    found = []
    if options["first_turn"]:
        found.append("heavenly_win" if options["dealer"] else "earthly_win")
    if pungs_only:
        found.append("all_pungs")
    if all(_is_258(t) for t in tiles):
        found.append("all_258")
    if len({t // 9 for t in tiles}) == 1:
        found.append("full_flush")
    if hand.last_tile:
        found.append("last_tile")
    if hand.kong:
        found.append("kong_bloom" if hand.self_drawn else "robbing_kong")
    if seven_pairs:
        found.append("seven_pairs")
    if not _is_258(pair):
        found = [f for f in found if f not in NEEDS_258]
    return found


class ChangshaRuleSet:
    """Changsha: 108 tiles, chows allowed, 2-5-8 pair for small hands, 大胡 / 小胡 payments."""

    name = "changsha"
    title = "Changsha (长沙)"
    minimum = 0
    hand_size = 14
    hand_fields = HAND_FIELDS
    fans = FANS

    def hand_size_for(self, obj: object) -> int:
        """A non-dealer's opening hand has 13 tiles; every other hand 14."""
        if isinstance(obj, Mapping) and obj.get("opening") is True and not obj.get("dealer"):
            return 13
        return 14

    def refusal(self, hand: Hand) -> str | None:
        for tile in (*hand.all_tiles(), *hand.flowers):
            if not tile.is_suited:
                return f"{tile.code} is not a suit tile; Changsha plays only the 108 suited tiles"
        options = hand.options
        if options["first_turn"]:
            if options["dealer"] and not hand.self_drawn:
                return "first_turn with dealer is 天胡, a win on the dealer's own tiles; set self_drawn"
            if not options["dealer"] and (hand.self_drawn or not options["discarder_dealer"]):
                return ("first_turn for a non-dealer is 地胡, a win on the dealer's first discard;"
                        " set discarder_dealer and not self_drawn")
        if options["discarder_dealer"] and (options["dealer"] or hand.self_drawn):
            return "discarder_dealer needs a non-dealer winning on a discard"
        if options["opening"] and (hand.melds or options["first_turn"]):
            return "an opening hand has no declared sets and is not a first-turn win"
        return None

    def payers(self, hand: Hand, big: bool) -> dict[str, int]:
        """What each payer pays for one hand (小胡 or 大胡), by the seed's table."""
        dealer = hand.options["dealer"]
        if hand.self_drawn or hand.options["opening"]:
            unit = 3 if big else 1
            if dealer:
                return {"each non-dealer": unit + 1}
            return {"dealer": unit + 1, "each other non-dealer": unit}
        unit = 6 if big else 1
        paying_dealer = hand.options["discarder_dealer"]
        return {"discarder": unit + (1 if dealer or paying_dealer else 0)}

    @staticmethod
    def collected(pays: Mapping[str, int]) -> int:
        """The winner's takings from a payers table."""
        shares = {"each non-dealer": 3, "each other non-dealer": 2}
        return sum(v * shares.get(k, 1) for k, v in pays.items())

    def rows(self, hand: Hand, ids: list[str], big: bool) -> list[tuple[FanCount, dict[str, int]]]:
        """Each hand with what it pays, and who pays it."""
        by_id = _TABLE.by_id
        out = []
        for fid in ids:
            if fid == "robbing_kong":
                pays = {"discarder": 12 if hand.options["discarder_dealer"] else 10}
            else:
                pays = self.payers(hand, big)
            fan = by_id[fid]
            out.append((FanCount(fan.name, fan.chinese, self.collected(pays), 1), pays))
        return out

    def score(self, hand: Hand) -> ScoreResult:
        refused = self.refusal(hand)
        if refused is not None:
            return ScoreResult.failed(self.name, self.minimum, refused)
        if hand.options["opening"]:
            found = opening_wins(hand)
            if not found:
                return ScoreResult.failed(
                    self.name, self.minimum,
                    "the dealt hand has no opening win (四喜 four alike, 板板胡 no 2-5-8, 缺一色)")
            return self._result(hand, self.rows(hand, found, big=False), big=False)
        best: list[tuple[FanCount, dict[str, int]]] | None = None
        best_big = False
        for reading in readings(hand, ("standard", "seven_pairs")):
            pair = int(reading.pair) if reading.pair is not None else -1
            pungs_only = reading.form == "standard" and all(
                g.kind != "chow" for g in reading.groups)
            seven = reading.form == "seven_pairs"
            big = big_hands(hand, pungs_only, seven, pair)
            if big:
                rows = self.rows(hand, [f for f in FANS_ORDER if f in big], big=True)
            elif _is_258(pair):
                rows = self.rows(hand, ["small_win"], big=False)
            else:
                continue
            if best is None or sum(r.points for r, _ in rows) > sum(r.points for r, _ in best):
                best, best_big = rows, bool(big)
        if best is None and all(_is_258(int(t)) for t in hand.all_tiles()):
            best, best_big = self.rows(hand, ["all_258"], big=True), True
        if best is None:
            return ScoreResult.failed(
                self.name, self.minimum,
                "not a winning hand: a small hand needs sets and a pair of 2, 5 or 8 (小胡须258作将)")
        return self._result(hand, best, best_big)

    def _result(self, hand: Hand, rows: list[tuple[FanCount, dict[str, int]]],
                big: bool) -> ScoreResult:
        payers: Counter[str] = Counter()
        for _, pays in rows:
            payers.update(pays)
        fans = tuple(row for row, _ in rows)
        details = {"hand": "大胡" if big else "小胡", "payers": dict(payers)}
        return ScoreResult(self.name, sum(f.points for f in fans), fans, 0, self.minimum, True,
                           None, details)


FANS_ORDER = tuple(f.id for f in FANS)
RULESET = ChangshaRuleSet()
