"""The Sichuan 番 table (seed 004, section 五 "四川麻将规则的番种"), highest first.

The base patterns (基本番) never stack: a hand scores only its highest one, so each base pattern
excludes every other. The extra 番 (另加番: 根, 杠上花, 杠上炮, 抢杠) add to it. Points here are
番, not money: the money is ``base × 2^(番 − 1)`` (see scorer.py).
"""

from __future__ import annotations

from fanscan.scoring.ruleset import Fan

#: Base patterns in table order; at equal 番 the first-turn wins come first, so a first-turn
#: 清龙七对 scores 天胡 / 地胡 and keeps all its 根.
_BASE: tuple[tuple[str, str, str, int], ...] = (
    ("heavenly_win", "Heavenly Win", "天胡", 6),
    ("earthly_win", "Earthly Win", "地胡", 6),
    ("pure_dragon_seven_pairs", "Pure Dragon Seven Pairs", "清龙七对", 6),
    ("dragon_seven_pairs", "Dragon Seven Pairs", "龙七对", 5),
    ("pure_seven_pairs", "Pure Seven Pairs", "清七对", 5),
    ("pure_terminals", "Pure Outside Hand", "清幺九", 5),
    ("pure_pungs", "Pure All Pungs", "清对", 4),
    ("pungs_258", "All Pungs of 2-5-8", "将对", 4),
    ("full_flush", "Full Flush", "清一色", 3),
    ("outside_hand", "Outside Hand", "带幺九", 3),
    ("seven_pairs", "Seven Pairs", "七对", 3),
    ("all_pungs", "All Pungs", "对对胡", 2),
    ("plain_win", "Plain Win", "平胡", 1),
)
BASE_IDS: tuple[str, ...] = tuple(row[0] for row in _BASE)
#: The 龙七对 family: its four-alike is the pattern itself, so it scores one 根 less.
DRAGON_FAMILY = frozenset({"pure_dragon_seven_pairs", "dragon_seven_pairs"})

FANS: tuple[Fan, ...] = (
    *(Fan(fid, name, chinese, points, tuple(b for b in BASE_IDS if b != fid))
      for fid, name, chinese, points in _BASE),
    Fan("root", "Root (four alike)", "根", 1),
    Fan("kong_bloom", "Win on a Kong Replacement", "杠上花", 1),
    Fan("kong_discard", "Win on a Discard after a Kong", "杠上炮", 1),
    Fan("robbing_kong", "Robbing a Kong", "抢杠", 1),
)
