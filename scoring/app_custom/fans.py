"""The app-custom fan table: the app's values of the MCR fans plus its extra fans (marked * in
seed 003), highest first.

Every MCR fan the app lists has the MCR value (tests/scoring/rulesets/test_app_custom.py checks
the seed's list against the MCR table), so the MCR rows are reused as they are. The app's 一條龍 8
is MCR's 花龙 and its 青龍 16 is 清龙; its 老少配 is 老少副, 六連張 连六, 兩同刻 双同刻, 鑲邊 边张,
嵌單 坎张. 花牌 (1f-4f) and 季花 (5f-8f) are one point per tile.
"""

from __future__ import annotations

from fanscan.scoring.mcr.fans import FANS as MCR_FANS
from fanscan.scoring.ruleset import Fan

_FIRST_DRAW = ("self_drawn", "fully_concealed_hand", "concealed_hand", "edge_wait",
               "closed_wait", "single_wait")

_MCR_BY_ID = {fan.id: fan for fan in MCR_FANS}


def _with_implied(held: tuple[str, ...]) -> tuple[str, ...]:
    """``held`` and, transitively, every fan that one of them excludes in the MCR table."""
    out: list[str] = []
    todo = list(held)
    while todo:
        fid = todo.pop(0)
        if fid not in out:
            out.append(fid)
            todo.extend(_MCR_BY_ID[fid].excludes if fid in _MCR_BY_ID else ())
    return tuple(out)


#: What 四方大发财 holds by itself: the seed's 不重复计算 list (碰碰和, 门风刻, 圈风刻, 三风刻,
#: 字一色), 大四喜 (its four wind pungs) and 么九头 (its 發 pair). It excludes these and what
#: they exclude (字一色 excludes 全带幺, 混幺九 and 幺九刻; 大四喜 excludes 小四喜), as MCR does.
_GREEN_WINDS_HOLDS = ("big_four_winds", "all_pungs", "seat_wind", "prevalent_wind",
                      "big_three_winds", "all_honors", "terminal_pair")

EXTRAS: tuple[Fan, ...] = (
    Fan("heavenly_win", "Heavenly Win", "天和", 168, _FIRST_DRAW),
    Fan("big_four_winds_and_green", "Big Four Winds with a Green Pair", "四方大发财", 168,
        _with_implied(_GREEN_WINDS_HOLDS)),
    Fan("earthly_win", "Earthly Win", "地和", 158, _FIRST_DRAW),
    Fan("human_win", "Human Win", "人和", 108, ("concealed_hand",)),
    Fan("wild_kong", "Four Wild Tiles", "混杠", 88),
    Fan("mixed_four_shifted_pungs", "Mixed Four Shifted Pungs", "混四节", 6,
        ("mixed_three_shifted_pungs",)),
    Fan("mixed_four_shifted_chows", "Mixed Four Shifted Chows", "混四步", 4,
        ("mixed_three_shifted_chows",)),
    Fan("mixed_three_shifted_pungs", "Mixed Three Shifted Pungs", "混三节", 4),
    Fan("mixed_three_shifted_chows", "Mixed Three Shifted Chows", "混三步", 2),
    Fan("pair_258", "2-5-8 Pair", "二五八将", 1),
    Fan("terminal_pair", "Terminal or Honor Pair", "么九头", 1),
    Fan("season_tiles", "Season Tiles", "季花", 1),
)

#: MCR's rows and the extras, highest points first (stable: MCR rows first at equal points).
FANS: tuple[Fan, ...] = tuple(sorted((*MCR_FANS, *EXTRAS), key=lambda fan: -fan.points))
