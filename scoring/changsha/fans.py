"""The Changsha hands (seed 004, A类 大胡 and B类 小胡). Points count hands: each big hand is one
大胡 and each small or opening win one 小胡; what they pay depends on who won and who paid
(scorer.py), so a result row holds the points the winner collects for it.
"""

from __future__ import annotations

from fanscan.scoring.ruleset import Fan

BIG: tuple[Fan, ...] = (
    Fan("heavenly_win", "Heavenly Win", "天胡", 1),
    Fan("earthly_win", "Earthly Win", "地胡", 1),
    Fan("all_pungs", "All Pungs", "碰碰胡", 1),
    Fan("all_258", "All 2-5-8", "将将胡", 1),
    Fan("full_flush", "Full Flush", "清一色", 1),
    Fan("last_tile", "Last Tile", "海底捞月", 1),
    Fan("kong_bloom", "Win on a Kong Replacement", "杠上花", 1),
    Fan("robbing_kong", "Robbing a Kong", "抢杠胡", 1),
    Fan("seven_pairs", "Seven Pairs", "七巧对", 1),
)
SMALL: tuple[Fan, ...] = (
    Fan("small_win", "Small Win (2-5-8 pair)", "小胡", 1),
    Fan("four_alike", "Opening: Four Alike", "四喜", 1),
    Fan("no_258", "Opening: No 2, 5 or 8", "板板胡", 1),
    Fan("voided_suit", "Opening: One Suit Missing", "缺一色", 1),
)
#: Big hands that still need a pair of 2, 5 or 8 (需将); the others may have any pair (乱将).
NEEDS_258 = frozenset({"last_tile", "kong_bloom", "robbing_kong"})
FANS: tuple[Fan, ...] = (*BIG, *SMALL)
