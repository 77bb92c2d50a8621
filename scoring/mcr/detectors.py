"""The MCR detectors: small functions ``(Context) -> {fan id: count}``, one per fan or family.

Each detector counts fans on one reading before exclusions; the exclusions come from the table
(fans.py) and are applied once by the engine. A detector's result may be shared (memoised), so
callers copy it (``dict.update``) and never change it. ``DETECTORS`` lists, for each reading
form, the detectors that apply to it, each with the chows and pungs it needs to find anything
(it is not run on a reading with fewer). Detectors that depend only on the hand (suits, tile
traits, win conditions) take its ``HandFacts``; ``HAND_DETECTORS`` lists them per form, and
``hand_fans`` runs them once per hand and form for all its readings.

Where a family must decide which sets combine (the counting principles 不拆移, 不得相同, 套算一次),
the choice follows the widely used calculators (docs/rules/mcr.md): a fan of three or four sets is
looked for first; with one, the remaining set combines at most once; without one, at most three
(four chows) or two (three chows) chow-pair fans count, duplicates dropped first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from itertools import combinations, pairwise

from fanscan.scoring.mcr.context import Context, HandFacts, waits_on_one

Detector = Callable[[Context], dict[str, int]]
HandDetector = Callable[[HandFacts], dict[str, int]]

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))
GREEN = frozenset((19, 20, 21, 23, 25, 32))
TERMINALS_HONORS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))


def _mask(tiles: Iterable[int]) -> int:
    """The bit mask of a set of tile indices (see HandFacts.mask)."""
    mask = 0
    for tile in tiles:
        mask |= 1 << tile
    return mask


def _ranks_mask(ranks: Iterable[int]) -> int:
    """The suited tiles of the given ranks (1-9) in all three suits."""
    return _mask(9 * suit + rank - 1 for suit in range(3) for rank in ranks)


_SUIT_MASKS = tuple(_mask(range(9 * suit, 9 * suit + 9)) for suit in range(3))
_HONORS_MASK = _mask(range(27, 34))
_WINDS_MASK = _mask(WINDS)
_DRAGONS_MASK = _mask(DRAGONS)
_REVERSIBLE_MASK = _mask(REVERSIBLE)
_GREEN_MASK = _mask(GREEN)
_TERMINALS_HONORS_MASK = _mask(TERMINALS_HONORS)
_TERMINALS_MASK = _ranks_mask((1, 9))
_LOWER_FOUR_MASK = _ranks_mask((1, 2, 3, 4))
_LOWER_MASK = _ranks_mask((1, 2, 3))
_UPPER_FOUR_MASK = _ranks_mask((6, 7, 8, 9))
_UPPER_MASK = _ranks_mask((7, 8, 9))
_MIDDLE_MASK = _ranks_mask((4, 5, 6))


def _same_suit(*tiles: int) -> bool:
    suit = tiles[0] // 9
    return suit < 3 and all(t // 9 == suit for t in tiles)


# ---------------------------------------------------------------- chows (lowest tile of each)


def _two_chows(a: int, b: int) -> str | None:
    if a // 9 != b // 9:
        return "mixed_double_chow" if a % 9 == b % 9 else None
    if a - b in (3, -3):
        return "short_straight"
    if {a % 9, b % 9} == {0, 6}:
        return "two_terminal_chows"
    return "pure_double_chow" if a == b else None


def _three_chows(a: int, b: int, c: int) -> str | None:
    suits = {a // 9, b // 9, c // 9}
    ranks = sorted((a % 9, b % 9, c % 9))
    if len(suits) == 3:
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return "mixed_shifted_chows"
        if ranks[0] == ranks[2]:
            return "mixed_triple_chow"
        return "mixed_straight" if ranks == [0, 3, 6] else None
    if len(suits) != 1:
        return None
    if ranks == [0, 3, 6]:
        return "pure_straight"
    if (b - a, c - b) in ((2, 2), (1, 1)):
        return "pure_shifted_chows"
    return "pure_triple_chow" if a == c else None


def _four_chows(a: int, b: int, c: int, d: int) -> str | None:
    if not _same_suit(a, b, c, d):
        return None
    if (b - a, c - b, d - c) in ((2, 2, 2), (1, 1, 1)):
        return "four_pure_shifted_chows"
    return "quadruple_chow" if a == d else None


_EXTRA_PRIORITY = ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")


def _limit_pairs(found: list[str | None], limit: int) -> dict[str, int]:
    """Keep at most ``limit`` chow-pair fans (套算一次), dropping repeats of a kind first,
    the cheapest-looking kinds (老少副, 连六, 喜相逢, 一般高) before the others.
    """
    counts = {kind: 0 for kind in _EXTRA_PRIORITY}
    for fan in found:
        if fan is not None:
            counts[fan] += 1
    total = sum(counts.values())
    for keep in (1, 0):
        for kind in reversed(_EXTRA_PRIORITY):
            while counts[kind] > keep and total > limit:
                counts[kind] -= 1
                total -= 1
    return {k: n for k, n in counts.items() if n}


def _terminal_chows(chows: tuple[int, ...], pair: int) -> str | None:
    if pair < 0 or pair >= 27 or pair % 9 != 4 or any(c % 9 not in (0, 6) for c in chows):
        return None
    pair_suit = pair // 9
    suits = [c // 9 for c in chows]
    if all(s == pair_suit for s in suits):
        return "pure_terminal_chows" if sorted(c % 9 for c in chows) == [0, 0, 6, 6] else None
    if pair_suit in suits:
        return None
    shapes = {(c // 9, c % 9) for c in chows}
    others = [s for s in range(3) if s != pair_suit]
    if all((s, r) in shapes for s in others for r in (0, 6)):
        return "three_suited_terminal_chows"
    return None


def chow_family(ctx: Context) -> dict[str, int]:
    """一色双龙会 三色双龙会 一色四同顺 一色四步高 清龙 一色三步高 一色三同顺 三色三同顺 花龙
    三色三步高 一般高 喜相逢 连六 老少副.
    """
    chows = ctx.pattern_chows
    if len(chows) == 4:
        terminal = _terminal_chows(chows, ctx.pair)
        if terminal:
            return {terminal: 1}
    return _chow_fans(tuple(chows))


@cache
def _chow_fans(chows: tuple[int, ...]) -> dict[str, int]:
    """The chow fans of sorted chows but the two terminal-chow hands (they need the pair).

    Memoised: the result depends on the chows alone, and the same chows recur across hands
    (at most a few thousand sets of chows exist).
    """
    n = len(chows)
    if n < 2:
        return {}
    if n == 2:
        fan = _two_chows(chows[0], chows[1])
        return {fan: 1} if fan else {}
    if n == 3:
        fan = _three_chows(*chows)
        if fan:
            return {fan: 1}
        return _limit_pairs([_two_chows(a, b) for a, b in combinations(chows, 2)], 2)
    fan = _four_chows(*chows)
    if fan:
        return {fan: 1}
    for free in (3, 2, 1, 0):
        three = [c for i, c in enumerate(chows) if i != free]
        fan = _three_chows(*three)
        if fan:
            extras = {_two_chows(c, chows[free]) for c in three}
            extra = next((k for k in _EXTRA_PRIORITY if k in extras), None)
            return {fan: 1, extra: 1} if extra else {fan: 1}
    pairs = {(i, j): _two_chows(chows[i], chows[j]) for i, j in combinations(range(4), 2)}
    alone = sum(1 for i in range(4) if not any(fan for key, fan in pairs.items() if i in key))
    return _limit_pairs(list(pairs.values()), 3 - alone)


# ---------------------------------------------------------------- pungs and kongs


def _two_pungs(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "double_pung" if a % 9 == b % 9 else None
    return "two_dragon_pungs" if a in DRAGONS and b in DRAGONS else None


def _three_pungs(a: int, b: int, c: int) -> str | None:
    if a < 27 and b < 27 and c < 27:
        suits = {a // 9, b // 9, c // 9}
        ranks = sorted((a % 9, b % 9, c % 9))
        if len(suits) == 3:
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return "mixed_shifted_pungs"
            return "triple_pung" if ranks[0] == ranks[2] else None
        return "pure_shifted_pungs" if len(suits) == 1 and b == a + 1 and c == b + 1 else None
    if all(t in WINDS for t in (a, b, c)):
        return "big_three_winds"
    return "big_three_dragons" if (a, b, c) == DRAGONS else None


def _four_pungs(a: int, b: int, c: int, d: int) -> str | None:
    if _same_suit(a, b, c, d) and (b - a, c - b, d - c) == (1, 1, 1):
        return "four_pure_shifted_pungs"
    return "big_four_winds" if (a, b, c, d) == WINDS else None


def pung_family(ctx: Context) -> dict[str, int]:
    """一色四节高 大四喜 一色三节高 三色三节高 三同刻 三风刻 大三元 双同刻 双箭刻, then 小三元 and
    小四喜 from 双箭刻 / 三风刻 and the pair.
    """
    found = _pung_fans(tuple(ctx.pungs))
    pair = ctx.pair
    if "two_dragon_pungs" in found and pair in DRAGONS:
        found = {k: n for k, n in found.items() if k != "two_dragon_pungs"}
        found["little_three_dragons"] = 1
    elif "big_three_winds" in found and pair in WINDS:
        found = {k: n for k, n in found.items() if k != "big_three_winds"}
        found["little_four_winds"] = 1
    return found


@cache
def _pung_fans(pungs: tuple[int, ...]) -> dict[str, int]:
    """The fans of sorted pungs (and kongs) without the pair (memoised, as ``_chow_fans``)."""
    n = len(pungs)
    found: dict[str, int] = {}
    if n == 4:
        fan = _four_pungs(*pungs)
        if fan:
            return {fan: 1}
        for free in (3, 2, 1, 0):
            three = [p for i, p in enumerate(pungs) if i != free]
            fan = _three_pungs(*three)
            if fan:
                found[fan] = 1
                extra = next((f for f in (_two_pungs(p, pungs[free]) for p in three) if f), None)
                if extra:
                    found[extra] = 1
                break
        else:
            _add_pung_pairs(pungs, found)
    elif n == 3:
        fan = _three_pungs(*pungs)
        if fan:
            found[fan] = 1
        else:
            _add_pung_pairs(pungs, found)
    elif n == 2:
        fan = _two_pungs(*pungs)
        if fan:
            found[fan] = 1
    return found


def _add_pung_pairs(pungs: tuple[int, ...], found: dict[str, int]) -> None:
    for a, b in combinations(pungs, 2):
        fan = _two_pungs(a, b)
        if fan:
            found[fan] = found.get(fan, 0) + 1


def single_pungs(ctx: Context) -> dict[str, int]:
    """箭刻 per dragon pung; 幺九刻 per terminal pung and per wind pung that is neither the seat
    nor the prevalent wind (none when three or four wind pungs make a wind fan).
    """
    facts = ctx.hand
    own_winds = (facts.seat, facts.prevalent)
    dragons = terminals = winds = other_winds = 0
    for tile in ctx.pungs:
        if tile in DRAGONS:
            dragons += 1
        elif tile in WINDS:
            winds += 1
            if tile not in own_winds:
                other_winds += 1
        elif tile % 9 in (0, 8):
            terminals += 1
    if winds < 3:
        terminals += other_winds
    found = {}
    if dragons:
        found["dragon_pung"] = dragons
    if terminals:
        found["pung_of_terminals_or_honors"] = terminals
    return found


def wind_pungs(ctx: Context) -> dict[str, int]:
    """圈风刻 and 门风刻."""
    found = {}
    if ctx.hand.prevalent in ctx.pungs:
        found["prevalent_wind"] = 1
    if ctx.hand.seat in ctx.pungs:
        found["seat_wind"] = 1
    return found


_KONG_FANS = {
    (1, 0): "melded_kong",
    (0, 1): "concealed_kong",
    (2, 0): "two_melded_kongs",
    (1, 1): "concealed_kong_and_melded_kong",
    (0, 2): "two_concealed_kongs",
}
_CONCEALED_PUNG_FANS = {
    2: "two_concealed_pungs",
    3: "three_concealed_pungs",
    4: "four_concealed_pungs",
}


def kongs_and_concealed_pungs(ctx: Context) -> dict[str, int]:
    """One kong fan (明杠 暗杠 双明杠 明暗杠 双暗杠 三杠 四杠) and one concealed-pung fan
    (双暗刻 三暗刻 四暗刻); a concealed kong counts as a concealed pung.
    """
    facts = ctx.hand
    found = {}
    kongs = facts.kongs
    if kongs >= 3:
        found["three_kongs" if kongs == 3 else "four_kongs"] = 1
    elif kongs:
        found[_KONG_FANS[(facts.melded_kongs, facts.concealed_kongs)]] = 1
    fan = _CONCEALED_PUNG_FANS.get(ctx.concealed_pungs + facts.concealed_kongs)
    if fan:
        found[fan] = 1
    return found


def all_pungs(ctx: Context) -> dict[str, int]:
    """碰碰和: four pungs or kongs."""
    return {"all_pungs": 1} if len(ctx.pungs) == 4 else {}


def all_chows(ctx: Context) -> dict[str, int]:
    """平和: only chows (four, or one beside a knitted straight) and a suited pair."""
    needed = 1 if ctx.form == "knitted_straight" else 4
    return {"all_chows": 1} if len(ctx.chows) == needed and 0 <= ctx.pair < 27 else {}


def group_traits(ctx: Context) -> dict[str, int]:
    """全带幺, 全带五, 全双刻: a property of every set and the pair."""
    outside = fives = even = True
    for tile in ctx.chows:
        rank = tile % 9
        outside = outside and rank in (0, 6)
        fives = fives and 2 <= rank <= 4
        even = False
    for tile in (*ctx.pungs, ctx.pair):
        if tile >= 27:
            fives = even = False
            continue
        rank = tile % 9
        outside = outside and rank in (0, 8)
        fives = fives and rank == 4
        even = even and rank % 2 == 1
    if outside:
        return {"outside_hand": 1}
    if fives:
        return {"all_fives": 1}
    return {"all_even_pungs": 1} if even else {}


# ---------------------------------------------------------------- whole-hand properties


# A hand's tiles lie within a set of tiles when ``not mask & ~allowed``: no tile outside it.


def suits(facts: HandFacts) -> dict[str, int]:
    """无字, 缺一门, 混一色, 清一色, 五门齐."""
    mask = facts.mask
    man, pin, sou = _SUIT_MASKS
    missing = (not mask & man) + (not mask & pin) + (not mask & sou)
    honors = mask & _HONORS_MASK
    found = {}
    if not honors:
        found["no_honors"] = 1
    if missing == 1:
        found["one_voided_suit"] = 1
    elif missing == 2:
        found["half_flush" if honors else "full_flush"] = 1
    elif missing == 0 and mask & _WINDS_MASK and mask & _DRAGONS_MASK:
        found["all_types"] = 1
    return found


def tile_traits(facts: HandFacts) -> dict[str, int]:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九."""
    mask = facts.mask
    found = {}
    if not mask & _TERMINALS_HONORS_MASK:
        found["all_simples"] = 1
    if not mask & ~_REVERSIBLE_MASK:
        found["reversible_tiles"] = 1
    if not mask & ~_GREEN_MASK:
        found["all_green"] = 1
    if "all_simples" in found:
        return found
    if not mask & ~_HONORS_MASK:
        found["all_honors"] = 1
    elif not mask & ~_TERMINALS_MASK:
        found["all_terminals"] = 1
    elif not mask & ~_TERMINALS_HONORS_MASK:
        found["all_terminals_and_honors"] = 1
    return found


def rank_range(facts: HandFacts) -> dict[str, int]:
    """全小, 小于五, 全大, 大于五, 全中 (suited tiles only)."""
    mask = facts.mask
    if mask & _HONORS_MASK:
        return {}
    if not mask & ~_LOWER_FOUR_MASK:
        return {"lower_tiles" if not mask & ~_LOWER_MASK else "lower_four": 1}
    if not mask & ~_UPPER_FOUR_MASK:
        return {"upper_tiles" if not mask & ~_UPPER_MASK else "upper_four": 1}
    return {"middle_tiles": 1} if not mask & ~_MIDDLE_MASK else {}


def tile_hog(facts: HandFacts) -> dict[str, int]:
    """四归一: four of a tile in the hand without a kong of it."""
    hogs = facts.counts.count(4) - facts.kongs
    return {"tile_hog": hogs} if hogs > 0 else {}


def concealment(facts: HandFacts) -> dict[str, int]:
    """门前清 and 不求人 (no exposed meld), 全求人 (four exposed melds, won on a discard)."""
    if facts.exposed == 0:
        return {"fully_concealed_hand" if facts.self_drawn else "concealed_hand": 1}
    if facts.exposed == 4 and not facts.self_drawn:
        return {"melded_hand": 1}
    return {}


def win_conditions(facts: HandFacts) -> dict[str, int]:
    """自摸, 妙手回春, 海底捞月, 杠上开花, 抢杠和, 和绝张."""
    found = {}
    if facts.self_drawn:
        found["self_drawn"] = 1
        if facts.last_tile:
            found["last_tile_draw"] = 1
        if facts.kong_win:
            found["out_with_replacement_tile"] = 1
    else:
        if facts.last_tile:
            found["last_tile_claim"] = 1
        if facts.kong_win:
            found["robbing_the_kong"] = 1
    if facts.fourth_tile:
        found["last_tile"] = 1
    return found


def wait(ctx: Context) -> dict[str, int]:
    """边张, 坎张, 单钓将: only when the hand waited on one tile; at most one of them."""
    facts = ctx.hand
    win = facts.win
    edge = closed = False
    for low in ctx.concealed_chows:
        if win == low + 1:
            closed = True
        elif win == low or win == low + 2:
            if (win == low and low % 9 < 6) or (win == low + 2 and low % 9 > 0):
                # 4 in 456 could as well have been 7 (567): the hand waited on two tiles.
                facts.cache["several_waits"] = True
            edge = True
    if not (edge or closed or ctx.pair == win) or facts.cache.get("several_waits"):
        return {}
    if ctx.form == "knitted_straight":
        if not _knitted_unique_wait(ctx):
            return {}
    elif not facts.unique_wait:
        return {}
    if edge:
        return {"edge_wait": 1}
    if closed:
        return {"closed_wait": 1}
    return {"single_wait": 1}


def _knitted_unique_wait(ctx: Context) -> bool:
    """Beside a knitted straight the wait is judged on the set and pair alone."""
    reading = ctx.reading
    assert reading is not None
    rest = list(ctx.hand.standing)
    for tile in reading.knitted:
        rest[tile] -= 1
    if rest[ctx.hand.win] == 0:
        return False
    return waits_on_one(rest, ctx.hand.win, seven_pairs=False)


# ---------------------------------------------------------------- special forms


def seven_pairs(ctx: Context) -> dict[str, int]:
    """七对, or 连七对 (seven consecutive pairs of one suit)."""
    reading = ctx.reading
    assert reading is not None
    pairs = [int(t) for t in reading.pairs]
    shifted = _same_suit(*pairs) and all(b == a + 1 for a, b in pairwise(pairs))
    return {"seven_shifted_pairs" if shifted else "seven_pairs": 1}


def thirteen_orphans(ctx: Context) -> dict[str, int]:
    """十三幺."""
    return {"thirteen_orphans": 1}


def honors_and_knitted(ctx: Context) -> dict[str, int]:
    """全不靠, or 七星不靠 with all seven honors; 组合龙 too when all nine knitted tiles are in."""
    reading = ctx.reading
    assert reading is not None
    honors = sum(1 for t in reading.knitted if t >= 27)
    if honors == 7:
        return {"greater_honors_and_knitted_tiles": 1}
    found = {"lesser_honors_and_knitted_tiles": 1}
    if honors == 5:
        found["knitted_straight"] = 1
    return found


def knitted_straight(ctx: Context) -> dict[str, int]:
    """组合龙."""
    return {"knitted_straight": 1}


#: What a Nine Gates hand adds, by the rank of the win tile: the sets its shape always holds.
_NINE_GATES_EXTRAS = {
    1: {"pure_straight": 1, "tile_hog": 1},
    9: {"pure_straight": 1, "tile_hog": 1},
    2: {"two_concealed_pungs": 1, "short_straight": 1, "pung_of_terminals_or_honors": 1},
    8: {"two_concealed_pungs": 1, "short_straight": 1, "pung_of_terminals_or_honors": 1},
    5: {"two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1},
    3: {"short_straight": 1},
    4: {"short_straight": 1},
    6: {"short_straight": 1},
    7: {"short_straight": 1},
}


def nine_gates(ctx: Context) -> dict[str, int]:
    """九莲宝灯, with the fans its fixed shape adds for the win tile's rank."""
    return {"nine_gates": 1, **_NINE_GATES_EXTRAS[ctx.hand.win % 9 + 1]}


_HAND_LEVEL = (concealment, win_conditions)
_TILE_FANS = (suits, tile_traits, rank_range, tile_hog, *_HAND_LEVEL)

#: The detectors of one reading, for each reading form, each with the chows and pungs (kongs
#: included) a reading needs at least for it to find anything: it runs only on those.
DETECTORS: dict[str, tuple[tuple[Detector, int, int], ...]] = {
    "standard": (
        (chow_family, 2, 0),
        (pung_family, 0, 2),
        (single_pungs, 0, 1),
        (wind_pungs, 0, 1),
        (kongs_and_concealed_pungs, 0, 0),
        (all_pungs, 0, 4),
        (all_chows, 4, 0),
        (group_traits, 0, 0),
        (wait, 0, 0),
    ),
    "seven_pairs": ((seven_pairs, 0, 0),),
    "thirteen_orphans": ((thirteen_orphans, 0, 0),),
    "honors_knitted": ((honors_and_knitted, 0, 0),),
    "nine_gates": ((nine_gates, 0, 0),),
    "knitted_straight": (
        (knitted_straight, 0, 0),
        (single_pungs, 0, 1),
        (wind_pungs, 0, 1),
        (kongs_and_concealed_pungs, 0, 0),
        (all_chows, 1, 0),
        (wait, 0, 0),
    ),
}
#: The detectors of the whole hand (the same for all its readings of a form), for each form.
HAND_DETECTORS: dict[str, tuple[HandDetector, ...]] = {
    "standard": _TILE_FANS,
    "seven_pairs": _TILE_FANS,
    "thirteen_orphans": _HAND_LEVEL,
    "honors_knitted": _HAND_LEVEL,
    "nine_gates": _HAND_LEVEL,
    "knitted_straight": (suits, tile_hog, *_HAND_LEVEL),
}


def hand_fans(facts: HandFacts, form: str) -> dict[str, int]:
    """A fresh copy of the whole-hand fans of a reading form (computed once per hand and form)."""
    found: dict[str, int] | None = facts.cache.get(form)
    if found is None:
        found = facts.cache[form] = {}
        for detector in HAND_DETECTORS[form]:
            found.update(detector(facts))
    return found.copy()
