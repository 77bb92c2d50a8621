"""Sichuan scoring (seed 004) on the generic table engine.

Steps, for one hand:

1. Refuse what Sichuan does not play (``refusal``, each with its code): honors or flowers
   (108 tiles only), declared chows (不能吃), a ``base`` below 1, a discard after a kong that
   was also self-drawn, and a hand holding all three suits (花猪: a hand must lack one suit to
   win, 缺一门).
2. Read it as sets and a pair (concealed runs are fine: only claiming a chow is barred) or as
   seven pairs (``decompose.readings``).
3. For each reading take the highest base pattern (基本番 do not stack; fans.py), then add
   1 番 per 根 (each face held four times, a kong or not), less one for the 龙七对 family, and
   1 番 each for 杠上花 (kong + self-drawn), 杠上炮 (``kong_discard``), 抢杠 (kong on a discard).
4. Keep the reading with the most 番. ``total`` is that 番 count; ``details`` gives the money:
   ``base × 2^(番 − 1)``.

First-turn wins come from hand fields (fanscan.scoring.common): ``first_turn`` with ``dealer``
and self-drawn is 天胡, a non-dealer's ``first_turn`` win is 地胡 (see docs/rules/sichuan.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from fanscan.scoring import common
from fanscan.scoring.decompose import Reading, readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import FanTable, Refusal, Scored, TableRuleSet, option
from fanscan.scoring.sichuan.fans import BASE_IDS, DRAGON_FAMILY, FANS

#: Refusal codes.
HONOR_TILE = "honor_tile"
FLOWER_TILE = "flower_tile"
DECLARED_CHOW = "declared_chow"
BAD_BASE = "bad_base"
KONG_DISCARD_CONFLICT = "kong_discard_conflict"
THREE_SUITS = "three_suits"


@dataclass(frozen=True)
class SichuanOptions(common.SeatOptions):
    """The Sichuan hand fields."""

    first_turn: bool = option(
        False, "won in the first turn before any claim: 天胡 (dealer, self-drawn) or 地胡"
    )
    kong_discard: bool = option(
        False, "won on the discard a player made right after a kong (杠上炮)"
    )
    base: int = option(1, "money per 1 番 (基本分): points = base × 2^(番 − 1)")


class SichuanContext(NamedTuple):
    """One reading of a hand with the per-hand facts the patterns need."""

    hand: Hand
    options: SichuanOptions
    reading: Reading
    suits: frozenset[str]
    roots: int


def _is_terminal_set(kind: str, rank: int) -> bool:
    return rank in (1, 9) if kind != "chow" else rank in (1, 7)


def base_patterns(context: SichuanContext) -> list[str]:
    """Every base pattern this reading shows (before keeping the highest)."""
    reading, hand = context.reading, context.hand
    pure = len(context.suits) == 1
    found = ["plain_win"]
    options = context.options
    if options.first_turn:
        win = common.first_turn_win(
            dealer=options.dealer, self_drawn=hand.self_drawn, earthly_on_discard=True
        )
        if win is not None:
            found.append(win)
    if reading.form == "seven_pairs":
        dragon = context.roots > 0
        found.append("seven_pairs")
        if dragon:
            found.append("pure_dragon_seven_pairs" if pure else "dragon_seven_pairs")
        if pure:
            found.append("pure_seven_pairs")
    else:
        groups = reading.groups
        pair_rank = reading.pair.rank if reading.pair is not None else None
        all_pungs = all(g.kind != "chow" for g in groups)
        outside = pair_rank in (1, 9) and all(
            _is_terminal_set(g.kind, g.tile.rank or 0) for g in groups
        )
        if all_pungs:
            found.append("pure_pungs" if pure else "all_pungs")
            if all(t.rank in (2, 5, 8) for t in hand.all_tiles()):
                found.append("pungs_258")
        if outside:
            found.append("pure_terminals" if pure else "outside_hand")
    if pure:
        found.append("full_flush")
    return found


class SichuanRuleSet(TableRuleSet[SichuanContext, SichuanOptions]):
    """Sichuan (Chengdu) rules: 108 tiles, no chows, 缺一门, 番 doubling money."""

    name = "sichuan"
    title = "Sichuan (四川 / 成都)"
    minimum = 1
    hand_size = 14
    table = FanTable(FANS)
    options_type = SichuanOptions

    def refusal(self, hand: Hand, options: SichuanOptions) -> Refusal | None:
        for tile in hand.all_tiles():
            if tile.is_honor:
                return Refusal(HONOR_TILE, f"{tile.code} is an honor; Sichuan plays only the"
                               " 108 suited tiles")
        if hand.flowers:
            return Refusal(FLOWER_TILE, f"{hand.flowers[0].code} is a flower; Sichuan plays"
                           " without flowers")
        for meld in hand.melds:
            if meld.kind == "chow":
                shown = "".join(t.code for t in meld.tiles)
                return Refusal(DECLARED_CHOW, f"the declared chow {shown} is not allowed;"
                               " Sichuan has no chows (不能吃)")
        if options.base < 1:
            return Refusal(BAD_BASE, f"base is {options.base}; it must be at least 1")
        if options.kong_discard and (hand.self_drawn or hand.kong):
            return Refusal(KONG_DISCARD_CONFLICT, "kong_discard (杠上炮) is a win on a discard;"
                           " it cannot be self_drawn or kong")
        if len({t.suit for t in hand.all_tiles()}) == 3:
            return Refusal(THREE_SUITS, "the hand holds all three suits (花猪); a Sichuan hand"
                           " must lack one suit")
        return None

    def contexts(self, hand: Hand, options: SichuanOptions) -> Iterator[SichuanContext]:
        suits = frozenset(t.suit for t in hand.all_tiles() if t.suit)
        roots = sum(1 for n in Counter(hand.all_tiles()).values() if n == 4)
        for reading in readings(hand, ("standard", "seven_pairs")):
            yield SichuanContext(hand, options, reading, suits, roots)

    def detect(self, context: SichuanContext) -> dict[str, int]:
        found = base_patterns(context)
        top = min(found, key=BASE_IDS.index)
        hand = context.hand
        roots = context.roots - (1 if top in DRAGON_FAMILY else 0)
        return {
            top: 1,
            "root": roots,
            "kong_bloom": int(hand.kong and hand.self_drawn),
            "kong_discard": int(context.options.kong_discard),
            "robbing_kong": int(hand.kong and not hand.self_drawn),
        }

    def flower_fans(self, hand: Hand, options: SichuanOptions) -> tuple[()]:
        return ()

    def details(self, scored: Scored[SichuanContext], total: int, hand: Hand,
                options: SichuanOptions) -> dict[str, Any]:
        return {"fan": total, "base": options.base, "points": options.base * 2 ** (total - 1)}


RULESET = SichuanRuleSet()
