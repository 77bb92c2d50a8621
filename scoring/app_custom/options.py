"""The app-custom play settings (seed 003's 自定义规则): the hand fields of ``app-custom``."""

from __future__ import annotations

from dataclasses import dataclass

from fanscan.scoring.common import SeatOptions
from fanscan.scoring.ruleset import option

#: How fanscan chooses the wild when the hand gives none (the seed: "自定義規則下，默認有財神").
DEFAULT_WILD_NOTE = (
    "the app's custom game has a wild by default (默認有財神), but which tile is wild comes from"
    " the tile turned at the table, which fanscan cannot know: with no wild given, the hand is"
    " scored without one (wild none, 底分 2); give wild and wild_indicator for a game with one"
)


@dataclass(frozen=True)
class AppCustomOptions(SeatOptions):
    """The app's settings; every default is the seed's custom game except ``wild`` (see
    ``DEFAULT_WILD_NOTE``).
    """

    dealer: bool = option(False, "the winner is the dealer (庄家): the fan total is doubled")
    wild: str = option(
        "none",
        "the wild tile (财神): none, flowers, same (翻混), previous (上滚混), next (下滚混); "
        + DEFAULT_WILD_NOTE,
        choices=("none", "flowers", "same", "previous", "next"),
    )
    wild_indicator: str = option("", "the turned tile that sets the wild face, e.g. 4m")
    eight_point_minimum: bool = option(False, "play with the 8-point minimum (8分起和)")
