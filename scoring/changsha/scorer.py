"""Changsha scoring (seed 004, the 长沙 part: 基本规则, A类 大胡, B类 小胡, the payments).

Steps, for one hand:

1. Refuse what Changsha does not play or what cannot be (``refusal``, each with its code):
   honors or flowers (108 tiles), inconsistent first-turn or discard fields.
2. An opening hand (``opening``: the 14 or 13 tiles as dealt; the dealer's 14 need no winning
   tile, nothing completed them) wins by 四喜 (four alike), 板板胡 (no 2, 5 or 8) and 缺一色 (a
   suit missing), each a 小胡 paid like a small self-draw.
3. Otherwise read the hand (sets and a pair, chows allowed; seven pairs) and count its big
   hands: 天胡, 地胡, 碰碰胡, 将将胡 (every tile a 2, 5 or 8, whatever its shape), 清一色, 七巧对
   with any pair; 海底捞月, 杠上花, 抢杠胡 only with a pair of 2, 5 or 8. Without a big hand the
   hand is a 小胡, which needs that pair.
4. Each hand pays (the dealer always counts one more, "庄家比闲家多算一分"): 小胡 1 per payer, 大胡
   self-drawn 3 per payer, 大胡 on a discard 6 from the discarder; +1 when the dealer pays or wins.
   抢杠胡: the robbed player pays 12 if the dealer, 10 otherwise. Big hands stack: each pays.
   The reading that collects most counts.
5. ``total`` is what the winner collects; ``details.payers`` says who pays it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from fanscan.scoring import common
from fanscan.scoring.changsha.fans import FANS, NEEDS_258, SMALL
from fanscan.scoring.decompose import Reading, readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import (
    NOT_WINNING,
    FanCount,
    FanTable,
    HandForm,
    Refusal,
    Scored,
    TableRuleSet,
    option,
)

#: Refusal codes (with those of fanscan.scoring.common).
NOT_SUITED = "not_suited"
EARTHLY_WIN_NOT_ON_DEALER_DISCARD = "earthly_win_not_on_dealer_discard"
DISCARDER_DEALER_CONFLICT = "discarder_dealer_conflict"
OPENING_CONFLICT = "opening_conflict"
NO_OPENING_WIN = "no_opening_win"


@dataclass(frozen=True)
class ChangshaOptions(common.SeatOptions):
    """The Changsha hand fields."""

    first_turn: bool = option(
        False, "天胡 (dealer, own tiles) or 地胡 (on the dealer's first discard)"
    )
    discarder_dealer: bool = option(
        False, "the winning discard (or robbed kong) was the dealer's"
    )
    opening: bool = option(
        False,
        "the hand as dealt (14 tiles for the dealer, no winning tile needed; 13 otherwise):"
        " 四喜, 板板胡, 缺一色",
    )


class ChangshaContext(NamedTuple):
    """One way the hand wins: as dealt (``reading`` None, ``opening``) or one reading."""

    hand: Hand
    options: ChangshaOptions
    reading: Reading | None
    opening: bool = False


_PLAYED, _DEALT_13, _DEALT_14 = HandForm(14, True), HandForm(13, False), HandForm(14, False)


def _is_mapping(obj: object) -> bool:
    return type(obj) is dict or isinstance(obj, Mapping)  # dict first: no ABC check


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


def big_hands(context: ChangshaContext) -> list[str]:
    """The big hands of one reading (the 需将 check applied); all_258 alone without a reading."""
    hand, options, reading = context.hand, context.options, context.reading
    tiles = [int(t) for t in hand.all_tiles()]
    if reading is None:
        return ["all_258"] if all(_is_258(t) for t in tiles) else []
    pair = int(reading.pair) if reading.pair is not None else -1
    found = []
    if options.first_turn:
        found.append(
            common.first_turn_win(dealer=options.dealer, self_drawn=True, earthly_on_discard=True)
        )
    if reading.form == "standard" and all(g.kind != "chow" for g in reading.groups):
        found.append("all_pungs")
    if all(_is_258(t) for t in tiles):
        found.append("all_258")
    if len({t // 9 for t in tiles}) == 1:
        found.append("full_flush")
    if hand.last_tile:
        found.append("last_tile")
    if hand.kong:
        found.append("kong_bloom" if hand.self_drawn else "robbing_kong")
    if reading.form == "seven_pairs":
        found.append("seven_pairs")
    if not _is_258(pair):
        found = [f for f in found if f not in NEEDS_258]
    return [f for f in found if f is not None]


class ChangshaRuleSet(TableRuleSet[ChangshaContext, ChangshaOptions]):
    """Changsha: 108 tiles, chows allowed, 2-5-8 pair for small hands, 大胡 / 小胡 payments."""

    name = "changsha"
    title = "Changsha (长沙)"
    minimum = 0
    hand_size = 14
    table = FanTable(FANS)
    options_type = ChangshaOptions

    def hand_form(self, obj: Mapping[str, Any]) -> HandForm:
        """A non-dealer's opening hand has 13 tiles, every other hand 14; the dealer's dealt 14
        were completed by no tile, so an opening hand needs no win tile.
        """
        if _is_mapping(obj) and obj.get("opening") is True:
            return _DEALT_13 if not obj.get("dealer") else _DEALT_14
        return _PLAYED

    def refusal(self, hand: Hand, options: ChangshaOptions) -> Refusal | None:
        for tile in (*hand.all_tiles(), *hand.flowers):
            if not tile.is_suited:
                return Refusal(NOT_SUITED, f"{tile.code} is not a suit tile; Changsha plays"
                               " only the 108 suited tiles")
        if options.first_turn:
            if options.dealer and not hand.self_drawn:
                return common.dealer_first_turn_on_discard("天胡")
            if not options.dealer and (hand.self_drawn or not options.discarder_dealer):
                return Refusal(EARTHLY_WIN_NOT_ON_DEALER_DISCARD,
                               "first_turn for a non-dealer is 地胡, a win on the dealer's first"
                               " discard; set discarder_dealer and not self_drawn")
        if options.discarder_dealer and (options.dealer or hand.self_drawn):
            return Refusal(DISCARDER_DEALER_CONFLICT,
                           "discarder_dealer needs a non-dealer winning on a discard")
        if options.opening and (hand.melds or options.first_turn):
            return Refusal(OPENING_CONFLICT, "an opening hand has no declared sets and is not a"
                           " first-turn win")
        return None

    def contexts(self, hand: Hand, options: ChangshaOptions) -> Iterator[ChangshaContext]:
        if options.opening:
            yield ChangshaContext(hand, options, None, opening=True)
            return
        found = readings(hand, ("standard", "seven_pairs"))
        for reading in found:
            yield ChangshaContext(hand, options, reading)
        if not found:  # 将将胡 in any arrangement (with a reading, that reading scores it)
            yield ChangshaContext(hand, options, None)

    def detect(self, context: ChangshaContext) -> dict[str, int]:
        if context.opening:
            return dict.fromkeys(opening_wins(context.hand), 1)
        big = big_hands(context)
        if big:
            return dict.fromkeys(big, 1)
        pair = context.reading.pair if context.reading is not None else None
        return {"small_win": 1} if pair is not None and _is_258(pair) else {}

    def priced(self, counts: Mapping[str, int], context: ChangshaContext
               ) -> list[tuple[str, dict[str, int]]]:
        """Each hand (its fan id) with who pays what for it."""
        big = _is_big(counts)
        out = []
        for fid in counts:
            if fid == "robbing_kong":
                pays = {"discarder": 12 if context.options.discarder_dealer else 10}
            else:
                pays = payers(context.hand, context.options, big)
            out.append((fid, pays))
        return out

    def value(self, counts: dict[str, int], context: ChangshaContext) -> int:
        """What the winner collects for the reading's hands."""
        total = 0
        for _, pays in self.priced(counts, context):
            total += collected(pays)
        return total

    def rows(self, scored: Scored[ChangshaContext], hand: Hand, options: ChangshaOptions
             ) -> tuple[FanCount, ...]:
        by_id = self.table.by_id
        return tuple(FanCount(by_id[fid].name, by_id[fid].chinese, collected(pays), 1)
                     for fid, pays in self.priced(scored.counts, scored.context))

    def not_winning(self, hand: Hand, options: ChangshaOptions) -> Refusal:
        if options.opening:
            return Refusal(NO_OPENING_WIN, "the dealt hand has no opening win (四喜 four alike,"
                           " 板板胡 no 2-5-8, 缺一色)")
        return Refusal(NOT_WINNING, "not a winning hand: a small hand needs sets and a pair of 2,"
                       " 5 or 8 (小胡须258作将)")

    def details(self, scored: Scored[ChangshaContext], total: int, hand: Hand,
                options: ChangshaOptions) -> dict[str, Any]:
        payers_of: Counter[str] = Counter()
        for _, pays in self.priced(scored.counts, scored.context):
            payers_of.update(pays)
        return {"hand": "大胡" if _is_big(scored.counts) else "小胡", "payers": dict(payers_of)}


_SMALL = frozenset(fan.id for fan in SMALL)


def _is_big(counts: Mapping[str, int]) -> bool:
    return not _SMALL.issuperset(counts)


def payers(hand: Hand, options: ChangshaOptions, big: bool) -> dict[str, int]:
    """What each payer pays for one hand (小胡 or 大胡), by the seed's table."""
    if hand.self_drawn or options.opening:
        unit = 3 if big else 1
        if options.dealer:
            return {"each non-dealer": unit + 1}
        return {"dealer": unit + 1, "each other non-dealer": unit}
    unit = 6 if big else 1
    return {"discarder": unit + (1 if options.dealer or options.discarder_dealer else 0)}


_SHARES = {"each non-dealer": 3, "each other non-dealer": 2}  # payers behind a shared entry


def collected(pays: Mapping[str, int]) -> int:
    """The winner's takings from a payers table."""
    total = 0
    for payer, amount in pays.items():
        total += amount * _SHARES.get(payer, 1)
    return total


RULESET = ChangshaRuleSet()
