"""The mingxing fan table: the MCR table (fanscan.scoring.mcr.fans) plus the extras of seed 000.

Seed 000 lists its fans highest first; several extras lost their name-and-points header in the
scrape, so their points are those of the group the description sits in (docs/rules/mingxing.md):
天胡 64, 地胡 / 人胡 48 (one line, "any win by a non-dealer in the first round"), 天听 32,
地听 16. The named ones: 八仙过海 64, 梅兰竹菊 32, 春夏秋冬 32.

四连刻, 三连刻, 三色同刻, 清老头 and 混老头 are the seed's other names for 一色四节高, 一色三节高,
三同刻, 清幺九 and 混幺九 (same definitions); the table shows both names and scores them once.
"""

from __future__ import annotations

from dataclasses import replace

from fanscan.scoring.mcr.fans import FANS as MCR_FANS
from fanscan.scoring.ruleset import Fan

_WAITS = ("edge_wait", "closed_wait", "single_wait")
_FIRST_DRAW = ("self_drawn", "fully_concealed_hand", "concealed_hand", *_WAITS)

ALIASES: dict[str, str] = {
    "four_pure_shifted_pungs": "四连刻",
    "pure_shifted_pungs": "三连刻",
    "triple_pung": "三色同刻",
    "all_terminals": "清老头",
    "all_terminals_and_honors": "混老头",
}

EXTRAS: tuple[Fan, ...] = (
    Fan("eight_flowers", "Eight Immortals Cross the Sea", "八仙过海", 64,
        ("four_flowers", "four_seasons")),
    Fan("heavenly_win", "Heavenly Win", "天胡", 64,
        (*_FIRST_DRAW, "heavenly_ready", "earthly_ready")),
    Fan("earthly_win", "Earthly Win", "地胡", 48,
        (*_FIRST_DRAW, "heavenly_ready", "earthly_ready")),
    Fan("human_win", "Human Win", "人胡", 48,
        ("concealed_hand", "heavenly_ready", "earthly_ready")),
    Fan("heavenly_ready", "Heavenly Ready", "天听", 32, ("earthly_ready",)),
    Fan("four_flowers", "Plum, Orchid, Chrysanthemum, Bamboo", "梅兰竹菊", 32),
    Fan("four_seasons", "Spring, Summer, Autumn, Winter", "春夏秋冬", 32),
    Fan("earthly_ready", "Earthly Ready", "地听", 16),
)


def _with_alias(fan: Fan) -> Fan:
    alias = ALIASES.get(fan.id)
    return replace(fan, chinese=f"{fan.chinese} / {alias}") if alias else fan


#: MCR's rows (aliases named) and the extras, highest points first (stable: MCR rows first).
FANS: tuple[Fan, ...] = tuple(
    sorted((*map(_with_alias, MCR_FANS), *EXTRAS), key=lambda fan: -fan.points)
)
