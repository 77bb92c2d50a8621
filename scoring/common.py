"""What several rule sets share: the dealer and first-turn hand fields, the first-turn wins
(天和 / 地和 / 人和, or 天胡 / 地胡 / 人胡) and the refusals that go with them.

Every rule set with these fields names them ``dealer`` and ``first_turn`` and reads them the same
way; only which win a non-dealer's first-turn win is differs (``first_turn_win``).

>>> first_turn_win(dealer=True, self_drawn=True)
'heavenly_win'
>>> first_turn_win(dealer=False, self_drawn=False)
'human_win'
>>> print(first_turn_win(dealer=True, self_drawn=False))
None
"""

from __future__ import annotations

from dataclasses import dataclass

from fanscan.scoring.hand import Hand
from fanscan.scoring.ruleset import Refusal, option

#: Refusal codes shared by the rule sets with first-turn wins.
FIRST_TURN_CLAIMED = "first_turn_claimed"
DEALER_FIRST_TURN_ON_DISCARD = "dealer_first_turn_on_discard"

HEAVENLY = "heavenly_win"
EARTHLY = "earthly_win"
HUMAN = "human_win"


@dataclass(frozen=True)
class SeatOptions:
    """The shared hand fields: who won and whether it was in the first round."""

    dealer: bool = option(False, "the winner is the dealer (庄家)")
    first_turn: bool = option(
        False, "won in the first round before any claim: 天和 (dealer), 地和 (self-drawn), 人和"
    )


def first_turn_win(
    *,
    dealer: bool,
    self_drawn: bool,
    earthly_on_discard: bool = False,
    earthly_self_drawn: bool = True,
) -> str | None:
    """The first-turn win of a hand won in the first round, or None (a dealer on a discard).

    The dealer's self-drawn win is 天和. A non-dealer's is 地和 when self-drawn
    (``earthly_self_drawn``; 国标加强版 gives it only to the seat after the dealer) and 人和 on a
    discard, unless the rule set calls every non-dealer first-turn win 地和
    (``earthly_on_discard``: Sichuan, Changsha).
    """
    if dealer:
        return HEAVENLY if self_drawn else None
    if earthly_on_discard:
        return EARTHLY
    return EARTHLY if self_drawn and earthly_self_drawn else HUMAN


def claimed_on_first_turn(name: str = "first_turn") -> Refusal:
    """The refusal for a first-round field set on a hand with claimed sets."""
    return Refusal(
        FIRST_TURN_CLAIMED,
        f"{name} is set, but the hand has claimed sets; the first round has no claims",
    )


def has_claims(hand: Hand) -> bool:
    """Whether any declared set was claimed (not a concealed kong)."""
    return any(not m.concealed for m in hand.melds)


def dealer_first_turn_on_discard(heavenly: str) -> Refusal:
    """The refusal for a dealer's first-turn win on a discard where only ``heavenly`` exists."""
    return Refusal(
        DEALER_FIRST_TURN_ON_DISCARD,
        f"first_turn with dealer is {heavenly}, a win on the dealer's own tiles; set self_drawn",
    )
