"""The 得分项 beside the super combinations (seed 001 附录1 三 to 七): 稀有族群, 满贯奖励,
特殊胡牌方式, 特种牌奖励 and the 听牌难度系数. Each returns the ids that count for one shape of
one hand.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from fanscan.scoring.common import first_turn_win
from fanscan.scoring.guobiao_plus.points import FULL_SETS, RARE, WIN_PAIRS, WINS
from fanscan.scoring.guobiao_plus.shapes import DRAGONS, GREEN, HONORS, RED, WINDS, Shape
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import Tile

_REVERSIBLE = frozenset((9, 10, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))  # 124589饼 245689条 白
_GREEN = frozenset((19, 20, 21, 23, 25, GREEN))  # 发 and bamboo 2 3 4 6 8


def _tiles(shape: Shape) -> list[int]:
    return [i for i, n in enumerate(shape.counts) if n]


def _ranks(tiles: list[int]) -> set[int] | None:
    """The ranks (1-9) of an honor-free hand, None if it holds honors."""
    if any(t >= 27 for t in tiles):
        return None
    return {t % 9 + 1 for t in tiles}


def _within(allowed: set[int]) -> Callable[[Shape], bool]:
    def check(shape: Shape) -> bool:
        ranks = _ranks(_tiles(shape))
        return ranks is not None and ranks <= allowed
    return check


def _units_hold(ranks: set[int]) -> Callable[[Shape], bool]:
    def check(shape: Shape) -> bool:
        return all(any(t < 27 and t % 9 + 1 in ranks for t in unit) for unit in shape.units())
    return check


def _all_types(shape: Shape) -> bool:
    tiles = _tiles(shape)
    return (any(t in WINDS for t in tiles) and any(t in DRAGONS for t in tiles)
            and {t // 9 for t in tiles if t < 27} == {0, 1, 2})


def _half_flush(shape: Shape) -> bool:
    tiles = _tiles(shape)
    return len({t // 9 for t in tiles if t < 27}) == 1 and any(t >= 27 for t in tiles)


def _full_flush(shape: Shape) -> bool:
    tiles = _tiles(shape)
    return _ranks(tiles) is not None and len({t // 9 for t in tiles}) == 1


def _terminals_and_honors(shape: Shape) -> bool:
    # Honors, ones and nines all present (see docs/rules/guobiao-plus.md, 附录2 例4).
    tiles = _tiles(shape)
    suited = [t % 9 + 1 for t in tiles if t < 27]
    return (set(suited) == {1, 9} and any(t >= 27 for t in tiles))


RARE_CHECKS: dict[str, Callable[[Shape], bool]] = {
    "all_types": _all_types,
    "half_flush": _half_flush,
    "all_odd": _within({1, 3, 5, 7, 9}),
    "outside_hand": _units_hold({1, 9}),
    "reversible": lambda s: set(_tiles(s)) <= _REVERSIBLE,
    "terminals_and_honors": _terminals_and_honors,
    "all_even": _within({2, 4, 6, 8}),
    "upper_four": _within({6, 7, 8, 9}),
    "lower_four": _within({1, 2, 3, 4}),
    "all_fives": _units_hold({5}),
    "middle_tiles": _within({4, 5, 6}),
    "upper_tiles": _within({7, 8, 9}),
    "lower_tiles": _within({1, 2, 3}),
    "full_flush": _full_flush,
    "green_and_red": lambda s: RED in _tiles(s) and set(_tiles(s)) <= _GREEN | {RED},
    "winds_and_dragons": lambda s: (set(_tiles(s)) <= set(HONORS)
                                    and bool(set(_tiles(s)) & set(WINDS))
                                    and bool(set(_tiles(s)) & set(DRAGONS))),
    "middle_fives": lambda s: _units_hold({5})(s) and _within({4, 5, 6})(s),
    "ones_and_nines": _within({1, 9}),
    "jade": lambda s: set(_tiles(s)) <= _GREEN,
    "five_peaks_only": lambda s: RED in _tiles(s) and set(_tiles(s)) <= {*WINDS, RED},
    "winds_only": lambda s: set(_tiles(s)) <= set(WINDS),
}


def rare_group(shape: Shape) -> str | None:
    """The highest 稀有族群 that applies to the shape's hand type (就高不就低), or None."""
    key = shape.special or shape.kind
    best: str | None = None
    for fid, (_, _, points, types) in RARE.items():
        if key in types and RARE_CHECKS[fid](shape) and (best is None or points > RARE[best][2]):
            best = fid
    return best


def full_sets(hand: Hand) -> tuple[str, ...]:
    """满贯奖励 from the kongs and the 四归一 (four alike held but not a kong).

    The seed lists nine (kongs, 四归一) combinations; any other adds the kongs' entry and the
    四归一 entry (docs/rules/guobiao-plus.md).
    """
    kongs = sum(1 for m in hand.melds if m.kind == "kong")
    kong_tiles = {m.tile for m in hand.melds if m.kind == "kong"}
    all_tiles = hand.all_tiles()
    hogs = sum(1 for t in set(all_tiles) if all_tiles.count(t) == 4 and t not in kong_tiles)
    if (kongs, hogs) == (0, 0):
        return ()
    if (kongs, hogs) in FULL_SETS:
        return (FULL_SETS[(kongs, hogs)][0],)
    return tuple(FULL_SETS[key][0] for key in ((kongs, 0), (0, hogs)) if key in FULL_SETS)


def special_wins(hand: Hand, *, dealer: bool, first_turn: bool) -> tuple[str, ...]:
    """特殊胡牌方式: the best set of them that the seed lets add up (the rest: highest only).

    A first-turn win is 天胡 for the dealer, 地胡 for the dealer's 下家 (seat S) self-drawn and
    人胡 otherwise.
    """
    present = []
    if first_turn:
        win = first_turn_win(
            dealer=dealer, self_drawn=hand.self_drawn, earthly_self_drawn=hand.seat_wind == Tile.S
        )
        if win is not None:
            present.append(win)
    if hand.last_tile:
        present.append("last_tile")
    if hand.kong and hand.self_drawn:
        present.append("after_kong")
    if hand.fourth_tile and not hand.self_drawn:
        present.append("last_of_kind")
    best: tuple[str, ...] = ()
    for size in range(1, len(present) + 1):
        for chosen in combinations(present, size):
            if all(frozenset(p) in WIN_PAIRS for p in combinations(chosen, 2)) and (
                sum(WINS[c][2] for c in chosen) > sum(WINS[c][2] for c in best)
            ):
                best = chosen
    return best


#: The flower-season pairs 春兰 夏竹 秋菊 冬梅 as codes (5f 春 + 2f 兰, ...).
FLOWER_PAIRS = (("5f", "2f"), ("6f", "4f"), ("7f", "3f"), ("8f", "1f"))


def special_tiles(hand: Hand) -> str | None:
    """特种牌奖励 (only the highest): 八仙过海, 四美人 / 四君子, 三花三季配, 双花双季配."""
    held = {t.code for t in hand.flowers}
    if len(held) == 8:
        return "eight_flowers"
    if {"5f", "6f", "7f", "8f"} <= held:
        return "four_seasons"
    if {"1f", "2f", "3f", "4f"} <= held:
        return "four_flowers"
    pairs = sum(1 for a, b in FLOWER_PAIRS if a in held and b in held)
    return {3: "three_flower_pairs", 2: "two_flower_pairs"}.get(pairs)


def factor(shape: Shape, hand: Hand) -> str:
    """听牌难度: 六暗对 for seven pairs, 门清 for 不靠, 四暗刻 / 门清 / 单调将 / 普听 otherwise."""
    if shape.kind == "Q":
        return "six_concealed_pairs"
    if shape.kind == "B" or shape.special is not None:
        return "concealed_ready"
    claims = sum(1 for m in hand.melds if not m.concealed)
    if shape.kind == "K":
        if claims == 0 and shape.pair == hand.win_tile:
            return "four_concealed_pungs"
        return "ordinary_ready"
    if len(hand.melds) == 4:
        return "single_ready"
    return "concealed_ready" if claims == 0 else "ordinary_ready"
