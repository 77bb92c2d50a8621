"""The MCR fan table: the 81 fans of the 1998 rules in official order (88 points down to 1).

Each row is ``Fan(id, English name, Chinese name, points, excludes)``. ``excludes`` lists the fans
a fan does not also score (不计): the 不计 notes of the rules (seed 002), the MIL rulings every
widely used calculator follows (docs/rules/mcr.md), and what a fan implies by itself, written out
in full because a fan that is itself excluded excludes nothing (see fanscan.scoring.ruleset).
The table has no cycles: the rules' symmetric note "一色三节高 不计一色三同顺" is kept on one side
only (一色三同顺 excludes 一色三节高); the two cannot both hold in one reading anyway.

One row is not among the 81: 明暗杠 (one exposed and one concealed kong, 5 points), which the
MIL rulings add between 双暗杠 (6) and 双明杠 (4); ``RULING_FANS`` names it.
"""

from __future__ import annotations

from fanscan.scoring.ruleset import Fan

_CONCEALED_FORM = ("concealed_hand", "fully_concealed_hand", "single_wait")

FANS: tuple[Fan, ...] = (
    # 88
    Fan(
        "big_four_winds",
        "Big Four Winds",
        "大四喜",
        88,
        (
            "big_three_winds",
            "all_pungs",
            "prevalent_wind",
            "seat_wind",
            "little_four_winds",
            "pung_of_terminals_or_honors",
        ),
    ),
    Fan(
        "big_three_dragons",
        "Big Three Dragons",
        "大三元",
        88,
        ("dragon_pung", "two_dragon_pungs", "little_three_dragons"),
    ),
    Fan("all_green", "All Green", "绿一色", 88, ("half_flush", "one_voided_suit")),
    Fan(
        "nine_gates",
        "Nine Gates",
        "九莲宝灯",
        88,
        ("full_flush", "concealed_hand", "fully_concealed_hand", "no_honors"),
    ),
    Fan("four_kongs", "Four Kongs", "四杠", 88, ("single_wait", "all_pungs")),
    Fan(
        "seven_shifted_pairs",
        "Seven Shifted Pairs",
        "连七对",
        88,
        ("seven_pairs", "full_flush", "no_honors", *_CONCEALED_FORM),
    ),
    Fan(
        "thirteen_orphans",
        "Thirteen Orphans",
        "十三幺",
        88,
        ("all_types", "all_terminals_and_honors", *_CONCEALED_FORM),
    ),
    # 64
    Fan(
        "all_terminals",
        "All Terminals",
        "清幺九",
        64,
        (
            "all_terminals_and_honors",
            "all_pungs",
            "outside_hand",
            "pung_of_terminals_or_honors",
            "no_honors",
            "double_pung",
        ),
    ),
    Fan(
        "little_four_winds",
        "Little Four Winds",
        "小四喜",
        64,
        ("big_three_winds", "pung_of_terminals_or_honors"),
    ),
    Fan(
        "little_three_dragons",
        "Little Three Dragons",
        "小三元",
        64,
        ("dragon_pung", "two_dragon_pungs"),
    ),
    Fan(
        "all_honors",
        "All Honors",
        "字一色",
        64,
        (
            "all_terminals_and_honors",
            "all_pungs",
            "outside_hand",
            "pung_of_terminals_or_honors",
            "one_voided_suit",
        ),
    ),
    Fan(
        "four_concealed_pungs",
        "Four Concealed Pungs",
        "四暗刻",
        64,
        (
            "all_pungs",
            "concealed_hand",
            "fully_concealed_hand",
            "three_concealed_pungs",
            "two_concealed_pungs",
        ),
    ),
    Fan(
        "pure_terminal_chows",
        "Pure Terminal Chows",
        "一色双龙会",
        64,
        (
            "seven_pairs",
            "full_flush",
            "all_chows",
            "pure_double_chow",
            "two_terminal_chows",
            "one_voided_suit",
            "no_honors",
        ),
    ),
    # 48
    Fan(
        "quadruple_chow",
        "Quadruple Chow",
        "一色四同顺",
        48,
        ("pure_shifted_pungs", "pure_triple_chow", "pure_double_chow", "tile_hog"),
    ),
    Fan(
        "four_pure_shifted_pungs",
        "Four Pure Shifted Pungs",
        "一色四节高",
        48,
        ("pure_triple_chow", "pure_shifted_pungs", "all_pungs"),
    ),
    # 32
    Fan(
        "four_pure_shifted_chows",
        "Four Pure Shifted Chows",
        "一色四步高",
        32,
        ("pure_shifted_chows", "short_straight", "two_terminal_chows"),
    ),
    Fan(
        "three_kongs",
        "Three Kongs",
        "三杠",
        32,
        (
            "two_melded_kongs",
            "two_concealed_kongs",
            "concealed_kong_and_melded_kong",
            "melded_kong",
            "concealed_kong",
        ),
    ),
    Fan(
        "all_terminals_and_honors",
        "All Terminals and Honors",
        "混幺九",
        32,
        ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"),
    ),
    # 24
    Fan("seven_pairs", "Seven Pairs", "七对", 24, _CONCEALED_FORM),
    Fan(
        "greater_honors_and_knitted_tiles",
        "Greater Honors and Knitted Tiles",
        "七星不靠",
        24,
        ("all_types", "lesser_honors_and_knitted_tiles", *_CONCEALED_FORM),
    ),
    Fan(
        "all_even_pungs", "All Even Pungs", "全双刻", 24, ("all_pungs", "all_simples", "no_honors")
    ),
    Fan("full_flush", "Full Flush", "清一色", 24, ("no_honors", "one_voided_suit")),
    Fan(
        "pure_triple_chow",
        "Pure Triple Chow",
        "一色三同顺",
        24,
        ("pure_shifted_pungs", "pure_double_chow"),
    ),
    Fan("pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24),
    Fan("upper_tiles", "Upper Tiles", "全大", 24, ("upper_four", "no_honors")),
    Fan("middle_tiles", "Middle Tiles", "全中", 24, ("all_simples", "no_honors")),
    Fan("lower_tiles", "Lower Tiles", "全小", 24, ("lower_four", "no_honors")),
    # 16
    Fan("pure_straight", "Pure Straight", "清龙", 16),
    Fan(
        "three_suited_terminal_chows",
        "Three-Suited Terminal Chows",
        "三色双龙会",
        16,
        ("mixed_double_chow", "two_terminal_chows", "no_honors", "all_chows"),
    ),
    Fan("pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16),
    Fan("all_fives", "All Fives", "全带五", 16, ("all_simples", "no_honors")),
    Fan("triple_pung", "Triple Pung", "三同刻", 16, ("double_pung",)),
    Fan("three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16, ("two_concealed_pungs",)),
    # 12
    Fan(
        "lesser_honors_and_knitted_tiles",
        "Lesser Honors and Knitted Tiles",
        "全不靠",
        12,
        ("all_types", *_CONCEALED_FORM),
    ),
    Fan("knitted_straight", "Knitted Straight", "组合龙", 12),
    Fan("upper_four", "Upper Four", "大于五", 12, ("no_honors",)),
    Fan("lower_four", "Lower Four", "小于五", 12, ("no_honors",)),
    Fan("big_three_winds", "Big Three Winds", "三风刻", 12),
    # 8
    Fan("mixed_straight", "Mixed Straight", "花龙", 8),
    Fan("reversible_tiles", "Reversible Tiles", "推不倒", 8, ("one_voided_suit",)),
    Fan("mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8, ("mixed_double_chow",)),
    Fan("mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8),
    Fan("chicken_hand", "Chicken Hand", "无番和", 8),
    Fan("last_tile_draw", "Last Tile Draw", "妙手回春", 8, ("self_drawn",)),
    Fan("last_tile_claim", "Last Tile Claim", "海底捞月", 8),
    Fan("out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8, ("self_drawn",)),
    Fan("robbing_the_kong", "Robbing the Kong", "抢杠和", 8, ("last_tile",)),
    # 6
    Fan("all_pungs", "All Pungs", "碰碰和", 6),
    Fan("half_flush", "Half Flush", "混一色", 6, ("one_voided_suit",)),
    Fan("mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6),
    Fan("all_types", "All Types", "五门齐", 6),
    Fan("melded_hand", "Melded Hand", "全求人", 6, ("single_wait",)),
    Fan(
        "two_concealed_kongs",
        "Two Concealed Kongs",
        "双暗杠",
        6,
        ("concealed_kong", "two_concealed_pungs"),
    ),
    Fan("two_dragon_pungs", "Two Dragon Pungs", "双箭刻", 6, ("dragon_pung",)),
    # 5 (MIL ruling, not among the 81)
    Fan(
        "concealed_kong_and_melded_kong",
        "Concealed Kong and Melded Kong",
        "明暗杠",
        5,
        ("concealed_kong", "melded_kong"),
    ),
    # 4
    Fan("outside_hand", "Outside Hand", "全带幺", 4),
    Fan(
        "fully_concealed_hand",
        "Fully Concealed Hand",
        "不求人",
        4,
        ("self_drawn", "concealed_hand"),
    ),
    Fan("two_melded_kongs", "Two Melded Kongs", "双明杠", 4, ("melded_kong",)),
    Fan("last_tile", "Last Tile", "和绝张", 4),
    # 2
    Fan("dragon_pung", "Dragon Pung", "箭刻", 2),
    Fan("prevalent_wind", "Prevalent Wind", "圈风刻", 2),
    Fan("seat_wind", "Seat Wind", "门风刻", 2),
    Fan("concealed_hand", "Concealed Hand", "门前清", 2),
    Fan("all_chows", "All Chows", "平和", 2, ("no_honors",)),
    Fan("tile_hog", "Tile Hog", "四归一", 2),
    Fan("double_pung", "Double Pung", "双同刻", 2),
    Fan("two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2),
    Fan("concealed_kong", "Concealed Kong", "暗杠", 2),
    Fan("all_simples", "All Simples", "断幺", 2, ("no_honors",)),
    # 1
    Fan("pure_double_chow", "Pure Double Chow", "一般高", 1),
    Fan("mixed_double_chow", "Mixed Double Chow", "喜相逢", 1),
    Fan("short_straight", "Short Straight", "连六", 1),
    Fan("two_terminal_chows", "Two Terminal Chows", "老少副", 1),
    Fan("pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1),
    Fan("melded_kong", "Melded Kong", "明杠", 1),
    Fan("one_voided_suit", "One Voided Suit", "缺一门", 1),
    Fan("no_honors", "No Honors", "无字", 1),
    Fan("edge_wait", "Edge Wait", "边张", 1),
    Fan("closed_wait", "Closed Wait", "坎张", 1),
    Fan("single_wait", "Single Wait", "单钓将", 1),
    Fan("self_drawn", "Self-Drawn", "自摸", 1),
    Fan("flower_tiles", "Flower Tiles", "花牌", 1),
)

#: Rows that come from the MIL rulings rather than the 81 fans of the 1998 rules.
RULING_FANS: tuple[str, ...] = ("concealed_kong_and_melded_kong",)
