"""Wait analysis: which tiles complete a waiting hand, and what each win would score.

``waits`` scores each winning tile under a rule set (every rule set here plays 14-tile hands: a
waiting hand of 13): the tiles the hand's shapes wait on, and any other the rule set scores a
win on (a wild tile, which stands for any). ``unscored_waits`` lists the winning tiles of a
16-tile game's waiting hand (Taiwanese: five sets and a pair when won), which no rule set here
scores.

>>> from fanscan.scoring.notation import parse_notation
>>> options = waits(parse_notation("123m456p789s123sE", complete=False))
>>> [(o.tile.code, o.discard.total, o.self_drawn.total) for o in options]
[('E', 12, 14)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fanscan.scoring.decompose import FORMS, SIXTEEN_TILE_HAND, waiting_tiles
from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import ScoreResult, get_ruleset, score
from fanscan.scoring.tiles import PLAYING_TILES, Tile


@dataclass(frozen=True)
class WaitOption:
    """One winning tile: how many copies are still unseen by the hand, and both ways to win (None
    for a hand no rule set here scores: ``unscored_waits``).
    """

    tile: Tile
    remaining: int
    discard: ScoreResult | None
    self_drawn: ScoreResult | None

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile.code,
            "remaining": self.remaining,
            "discard": None if self.discard is None else self.discard.to_json(),
            "self_drawn": None if self.self_drawn is None else self.self_drawn.to_json(),
        }


def waits(hand: Hand, rules: str = "mcr") -> list[WaitOption]:
    """The winning tiles of the waiting ``hand`` (no win tile) under ``rules``, in tile order.

    A tile whose four copies are all in the hand is listed with ``remaining`` 0 and results that
    say it cannot be won on.
    """
    ruleset = get_ruleset(rules)
    hand.check(ruleset.hand_size - 1)
    forms = getattr(ruleset, "forms", FORMS)
    chows = getattr(ruleset, "chows", True)
    held = hand.all_tiles()

    def won_on(tile: Tile, self_drawn: bool) -> Hand:
        return hand.replace(concealed=(*hand.concealed, tile), win_tile=tile, self_drawn=self_drawn,
                            fourth_tile=False, kong=False, last_tile=False)

    shaped = set(waiting_tiles(hand, forms, chows=chows))
    # A rule set may complete hands beyond their shapes (a wild tile stands for any): a tile the
    # rule set scores a win on is a winning tile too, so that waits agrees with score.
    winning = sorted(shaped | {t for t in PLAYING_TILES if t not in shaped and held.count(t) < 4
                               and score(won_on(t, False), rules).error is None})
    options = []
    for tile in winning:
        remaining = 4 - held.count(tile)
        results = []
        for self_drawn in (False, True):
            complete = won_on(tile, self_drawn)
            if remaining <= 0:
                results.append(
                    ScoreResult.failed(
                        ruleset.name,
                        ruleset.minimum,
                        f"all four {tile.code} are already in the hand, so none is left to win on",
                    )
                )
                continue
            results.append(score(complete, rules))
        options.append(WaitOption(tile, remaining, results[0], results[1]))
    return options


def unscored_waits(hand: Hand) -> list[WaitOption]:
    """The winning tiles of the 16-tile waiting ``hand`` (no win tile), in tile order: the tiles
    that make it five sets and a pair (the 16-tile games have no seven pairs or thirteen orphans of
    14 tiles), each with the copies the hand leaves unseen and no scores.
    """
    hand.check(SIXTEEN_TILE_HAND - 1)
    held = hand.all_tiles()
    return [WaitOption(tile, 4 - held.count(tile), None, None)
            for tile in waiting_tiles(hand, ("standard",))]
