"""Every scoring point (得分点) of seed 001's appendix 1, as table rows, grouped by 得分项.

The formula is P = (牌型基值 + 超级组合 + 稀有族群 + 满贯奖励 + 特殊胡牌方式 + 特种牌奖励)
× 听牌难度系数.
Each ``Fan`` row is one 得分点; the 听牌难度 rows hold the multiplier in ``points``.

Super combinations (超级组合) carry their seed code: the letters name the hand types they apply to
(K 刻牌, Q 七对, B 不靠, S 顺牌, H 混牌) and the first digit is the category. In one hand only the
highest of a category counts, different categories add up (附录1 二 注2, 第八条 3(1)).
"""

from __future__ import annotations

from dataclasses import dataclass

from fanscan.scoring.ruleset import Fan

#: 牌型基值: hand type letter -> (id, English, Chinese, points).
BASE: dict[str, tuple[str, str, str, int]] = {
    "K": ("pung_hand", "Pung Hand", "刻牌", 12),
    "Q": ("seven_pairs", "Seven Pairs", "七对", 8),
    "B": ("knitted_singles", "Knitted Singles", "不靠", 6),
    "S": ("chow_hand", "Chow Hand", "顺牌", 4),
    "H": ("mixed_hand", "Mixed Hand", "混牌", 2),
}


@dataclass(frozen=True)
class Combo:
    """A super combination: its seed code (e.g. ``KH 3-1``), id, names and points."""

    code: str
    id: str
    name: str
    chinese: str
    points: int

    @property
    def types(self) -> str:
        """The hand types it applies to, e.g. ``KH``."""
        return self.code.split()[0]

    @property
    def category(self) -> str:
        """The category digit (the number before the dash)."""
        return self.code.split()[1].split("-")[0]


COMBOS: tuple[Combo, ...] = (
    Combo("K 1-1", "invincible", "Invincible: Four Wind Pungs and a Red Pair", "天下无敌", 168),
    Combo("K 1-2", "four_heavenly_kings", "Four Wind Pungs", "四大天王", 96),
    Combo("KH 1-1", "little_four_kings", "Three Wind Pungs and a Wind Pair", "四小天王", 64),
    Combo("KH 1-2", "three_wind_pungs", "Three Wind Pungs", "三风刻", 16),
    Combo("KH 1-3", "near_three_wind_pungs", "Two Wind Pungs and a Wind Pair", "准三风刻", 4),
    Combo("K 2-1", "phoenix_clouds", "Dragon Pungs and a Pung of 1 Bamboo", "彩凤祥云", 96),
    Combo("KH 2-1", "big_three_joys", "Three Dragon Pungs", "大三喜", 64),
    Combo("KH 2-2", "little_three_joys", "Two Dragon Pungs and a Dragon Pair", "小三喜", 32),
    Combo("KH 2-3", "double_joy", "Two Dragon Pungs", "双喜", 8),
    Combo("K 3-1", "god_of_wealth", "Pungs of 8 in Each Suit and Green", "财神", 96),
    Combo("K 3-2", "two_suit_linked_pungs", "Two Suits with the Same Linked Pungs", "双门同环刻",
          12),
    Combo("K 3-3", "two_suit_double_pungs", "Two Suits with the Same Two Pungs", "双门双同刻", 6),
    Combo("KH 3-1", "triple_pung", "Triple Pung", "三同刻", 16),
    Combo("KH 3-2", "near_triple_pung", "Two Same Pungs and a Same Pair", "准三同刻", 4),
    Combo("K 4-1", "seamless", "Four Pure Shifted Pungs and a Pair in Line", "天衣无缝", 64),
    Combo("K 4-2", "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一门四连刻", 48),
    Combo("K 4-3", "four_mixed_shifted_pungs", "Four Mixed Shifted Pungs", "混四连刻", 16),
    Combo("K 4-4", "pure_two_linked_pungs", "Two Linked Pung Pairs in One Suit", "一门双环刻", 8),
    Combo("K 4-5", "mixed_two_linked_pungs", "Linked Pung Pairs in Two Suits", "双门双环刻", 4),
    Combo("KH 4-1", "pure_shifted_pungs", "Pure Shifted Pungs", "一门三连刻", 24),
    Combo("KH 4-2", "mixed_shifted_pungs", "Mixed Shifted Pungs", "三门三连刻", 8),
    Combo("Q 1-1", "all_honor_pairs", "Pairs of All Seven Honors", "战国无双", 128),
    Combo("Q 1-2", "wind_pairs", "Seven Wind Pairs", "霸王别姬", 96),
    Combo("Q 1-3", "three_kingdoms", "Four of Each Dragon", "三国演义", 96),
    Combo("Q 1-4", "six_honor_pairs", "Six Different Honor Pairs", "流星蝴蝶", 48),
    Combo("Q 1-5", "five_honor_pairs", "Pairs of the Winds and Red", "十面埋伏", 32),
    Combo("Q 1-6", "four_wind_pairs", "Pairs of the Four Winds", "风调雨顺", 16),
    Combo("Q 1-7", "dragon_pairs", "Pairs of the Three Dragons", "福禄寿", 8),
    Combo("Q 1-8", "three_wind_pairs", "Three Different Wind Pairs", "三风对", 4),
    Combo("Q 2-1", "qilin", "Seven Pure Shifted Pairs", "麒麟", 96),
    Combo("Q 2-2", "six_shifted_pairs", "Six Pure Shifted Pairs", "六连对", 48),
    Combo("Q 2-3", "seven_mixed_shifted_pairs", "Seven Mixed Shifted Pairs", "混七连对", 32),
    Combo("Q 2-4", "five_shifted_pairs", "Five Pure Shifted Pairs", "五连对", 16),
    Combo("Q 2-5", "four_shifted_pairs", "Four Pure Shifted Pairs", "四连对", 4),
    Combo("Q 3-1", "seven_joys", "Four of Each 7 and a Pair of 1 Bamboo", "七喜", 128),
    Combo("Q 3-2", "six_wings", "Pairs of Every Terminal", "六翼齐飞", 64),
    Combo("Q 3-3", "twelve_beauties", "Six Pairs of One Number", "金陵十二钗", 48),
    Combo("Q 3-4", "tycoon", "Pairs of 8 in Each Suit and Green", "大富翁", 16),
    Combo("Q 3-5", "triple_pair", "Same Pair in Three Suits", "三同对", 4),
    Combo("B 1-1", "stars_and_moon", "Seven Honors, the Sevens and Four 1 Dots", "七星伴月", 64),
    Combo("B 1-2", "stars_and_begonia", "Thirteen Orphans", "七星海棠", 48),
    Combo("B 1-3", "stars_and_run", "Seven Honors and a Knitted Run of Seven", "七星七连", 8),
    Combo("B 1-4", "seven_stars", "Greater Honors and Knitted Tiles", "七星不靠", 6),
    Combo("B 2-1", "five_peaks", "Winds, Red and a Knitted Straight", "五岳不靠", 4),
    Combo("B 3-1", "odd_singles", "Fourteen Different Odd Tiles", "藕断丝连", 48),
    Combo("S 1-1", "family_reunion", "Pure Terminal Chows", "全家团圆", 64),
    Combo("S 1-2", "neighbours", "Three-Suited Terminal Chows", "天涯共比邻", 32),
    Combo("S 1-3", "pure_two_double_chows", "Two Pure Double Chows", "一门双顺同", 16),
    Combo("S 1-4", "mixed_two_double_chows", "Same Two Chows in Two Suits", "双门双顺同", 8),
    Combo("S 2-1", "quadruple_chow", "Quadruple Chow", "一门四同顺", 48),
    Combo("SH 2-1", "pure_triple_chow", "Pure Triple Chow", "一门三同顺", 24),
    Combo("SH 2-2", "mixed_triple_chow", "Mixed Triple Chow", "三门三同顺", 8),
    Combo("S 3-1", "stacked_dragon", "Chows 123 345 567 789 of One Suit", "叠龙", 48),
    Combo("S 3-2", "four_pure_shifted_chows", "Four Pure Shifted Chows", "一门四步高", 32),
    Combo("SH 3-1", "pure_shifted_chows", "Pure Shifted Chows", "一门三步高", 16),
    Combo("SH 3-2", "mixed_shifted_chows", "Mixed Shifted Chows", "三门三步高", 6),
    Combo("S 4-1", "phoenix_pair", "Two Same Six-Runs of One Suit", "凤求凰", 48),
    Combo("S 4-2", "swallows", "Same Six-Run in Two Suits", "燕双飞", 16),
    Combo("S 4-3", "two_six_runs", "Two Different Six-Runs", "双六连", 4),
    Combo("SH 5-1", "pure_straight", "Pure Straight", "清龙", 16),
    Combo("SH 5-2", "mixed_straight", "Mixed Straight", "花龙", 8),
    Combo("S 6-1", "rivers_and_mountains", "Characters Straight, Winds and Red", "万里江山", 64),
    Combo("H 1-1", "nine_lanterns", "Nine Gates of Dots", "九宝莲灯", 96),
    Combo("H 1-2", "dragon_and_phoenix", "Pure Straight and a Pung of 1 Bamboo", "龙凤呈祥", 32),
    Combo("H 1-3", "near_dragon_phoenix", "Mixed Straight and a Pung of 1 Bamboo", "准龙凤", 24),
)
COMBO_BY_ID: dict[str, Combo] = {c.id: c for c in COMBOS}

#: 稀有族群 (only the highest counts): id -> (English, Chinese, points, hand types it applies to).
#: The special 不靠 forms 七星海棠 and 藕断丝连 are named by their combo id.
RARE: dict[str, tuple[str, str, int, frozenset[str]]] = {
    "all_types": ("All Types", "五门齐", 6, frozenset("HK")),
    "half_flush": ("Half Flush", "混一色", 6, frozenset("KQSH")),
    "all_odd": ("All Odd", "全单", 8, frozenset({"K", "Q", "odd_singles"})),
    "outside_hand": ("Outside Hand", "带幺九", 12, frozenset("SH")),
    "reversible": ("Reversible Tiles", "不倒翁", 12, frozenset("KSHQ")),
    "terminals_and_honors": ("All Terminals and Honors", "混幺九", 12,
                             frozenset({"Q", "K", "stars_and_begonia"})),
    "all_even": ("All Even", "全双", 12, frozenset("QK")),
    "upper_four": ("Upper Four", "大于五", 12, frozenset("KQSH")),
    "lower_four": ("Lower Four", "小于五", 12, frozenset("KQSH")),
    "all_fives": ("All Fives", "全带五", 16, frozenset("SH")),
    "middle_tiles": ("Middle Tiles", "全中", 24, frozenset("KSHQ")),
    "upper_tiles": ("Upper Tiles", "全大", 24, frozenset("KSHQ")),
    "lower_tiles": ("Lower Tiles", "全小", 24, frozenset("KSHQ")),
    "full_flush": ("Full Flush", "清一色", 24, frozenset("KSHQ")),
    "green_and_red": ("Green with Red", "绿点红", 32, frozenset("QKHS")),
    "winds_and_dragons": ("Winds and Dragons", "风云会", 32, frozenset("QK")),
    "middle_fives": ("Middle Tiles, All Fives", "全中全带五", 32, frozenset("SH")),
    "ones_and_nines": ("All Ones and Nines", "九九归一", 48, frozenset("QK")),
    "jade": ("All Green", "翡翠", 48, frozenset("KSHQ")),
    "five_peaks_only": ("Winds and Red Only", "五岳独尊", 64, frozenset("QK")),
    "winds_only": ("All Winds", "风神四绝", 96, frozenset("Q")),
}

#: 满贯奖励 by (kongs, 四归一): the seed's nine entries.
FULL_SETS: dict[tuple[int, int], tuple[str, str, str]] = {
    (1, 0): ("one_kong", "One Kong", "单杠"),
    (2, 0): ("two_kongs", "Two Kongs", "双杠"),
    (3, 0): ("three_kongs", "Three Kongs", "三杠"),
    (4, 0): ("four_kongs", "Four Kongs", "十八罗汉"),
    (0, 1): ("tile_hog", "Tile Hog", "四归一"),
    (0, 2): ("two_tile_hogs", "Two Tile Hogs", "四归一×2"),
    (0, 3): ("three_tile_hogs", "Three Tile Hogs", "四归一×3"),
    (1, 1): ("kong_and_hog", "Kong and Tile Hog", "单杠四归一"),
    (2, 1): ("two_kongs_and_hog", "Two Kongs and Tile Hog", "双杠四归一"),
}
FULL_SET_POINTS: dict[str, int] = {
    "one_kong": 2, "two_kongs": 8, "three_kongs": 32, "four_kongs": 64, "tile_hog": 2,
    "two_tile_hogs": 6, "three_tile_hogs": 24, "kong_and_hog": 4, "two_kongs_and_hog": 12,
}

#: 特殊胡牌方式: id -> (English, Chinese, points); ``WIN_PAIRS`` are the ones that add up.
WINS: dict[str, tuple[str, str, int]] = {
    "heavenly_win": ("Heavenly Win", "天胡", 128),
    "earthly_win": ("Earthly Win", "地胡", 64),
    "human_win": ("Human Win", "人胡", 32),
    "last_tile": ("Last Tile", "海底捞月", 12),
    "after_kong": ("Win after a Kong", "锦上添花", 8),
    "last_of_kind": ("Last of its Kind on a Discard", "绝处逢生", 4),
}
WIN_PAIRS = frozenset({
    frozenset({"heavenly_win", "after_kong"}), frozenset({"earthly_win", "after_kong"}),
    frozenset({"human_win", "after_kong"}), frozenset({"last_tile", "after_kong"}),
    frozenset({"last_tile", "last_of_kind"}), frozenset({"after_kong", "last_of_kind"}),
})

#: 特种牌奖励 (only the highest counts): id -> (English, Chinese, points).
FLOWERS: dict[str, tuple[str, str, int]] = {
    "two_flower_pairs": ("Two Flower-Season Pairs", "双花双季配", 2),
    "three_flower_pairs": ("Three Flower-Season Pairs", "三花三季配", 4),
    "four_seasons": ("Four Seasons", "四美人", 8),
    "four_flowers": ("Four Flowers", "四君子", 8),
    "eight_flowers": ("Eight Immortals", "八仙过海", 64),
}

#: 听牌难度系数: id -> (English, Chinese, multiplier).
FACTORS: dict[str, tuple[str, str, int]] = {
    "ordinary_ready": ("Ordinary Ready Hand", "普听", 1),
    "concealed_ready": ("Concealed Ready Hand", "门清", 2),
    "single_ready": ("Single Tile Left", "单调将", 3),
    "six_concealed_pairs": ("Six Concealed Pairs", "六暗对", 3),
    "four_concealed_pungs": ("Four Concealed Pungs", "四暗刻", 4),
}


def table() -> tuple[Fan, ...]:
    """All the points as table rows, in the formula's order (for ``fanscan rules``)."""
    rows = [Fan(i, n, c, p) for i, n, c, p in BASE.values()]
    rows += [Fan(c.id, f"{c.name} [{c.code}]", c.chinese, c.points) for c in COMBOS]
    rows += [Fan(i, n, c, p) for i, (n, c, p, _) in RARE.items()]
    rows += [Fan(i, n, c, FULL_SET_POINTS[i]) for i, n, c in FULL_SETS.values()]
    rows += [Fan(i, n, c, p) for i, (n, c, p) in WINS.items()]
    rows += [Fan(i, n, c, p) for i, (n, c, p) in FLOWERS.items()]
    rows += [Fan(i, f"{n} (×{m})", c, m) for i, (n, c, m) in FACTORS.items()]
    return tuple(rows)
