"""Differential test against the MIL calculator (pymahjonggb, the Python binding of
ChineseOfficialMahjongHelper): fans, counts and totals must agree on random hands.

Skips when pymahjonggb is not installed (it is in the ``test`` extra). The few deliberate
differences are listed in docs/rules/mcr.md; the generator never produces them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fan_cases import FAN_CASES
from fanscan.scoring.generate import random_hand
from fanscan.scoring.hand import Hand
from fanscan.scoring.mcr.fans import FANS
from fanscan.scoring.notation import format_notation, parse_notation
from fanscan.scoring.ruleset import score
from fanscan.scoring.waits import waits

oracle = pytest.importorskip("MahjongGB")

_SUIT = {"m": "W", "p": "B", "s": "T"}
_HONOR = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
_BY_NAME = {f.name: f.id for f in FANS}
_ORACLE_NAMES = {"All Five": "all_fives", "Two Dragons Pungs": "two_dragon_pungs"}


def _code(tile: Any) -> str:
    code = tile.code
    return _SUIT[code[1]] + code[0] if tile.is_suited else _HONOR[code]


def _oracle_fans(hand: Hand) -> dict[str, int]:
    packs = []
    for meld in hand.melds:
        if meld.kind == "chow":
            packs.append(("CHI", _code(meld.tiles[1]), meld.claimed_from or 1))
        elif meld.kind == "pung":
            packs.append(("PENG", _code(meld.tile), meld.claimed_from or 1))
        else:
            offer = 0 if meld.concealed else ((meld.claimed_from or 1) % 4 or 1)
            packs.append(("GANG", _code(meld.tile), offer))
    standing = list(hand.concealed)
    assert hand.win_tile is not None
    standing.remove(hand.win_tile)
    fans = oracle.MahjongFanCalculator(
        pack=tuple(packs),
        hand=tuple(_code(t) for t in standing),
        winTile=_code(hand.win_tile),
        flowerCount=len(hand.flowers),
        isSelfDrawn=hand.self_drawn,
        is4thTile=hand.fourth_tile,
        isAboutKong=hand.kong,
        isWallLast=hand.last_tile,
        seatWind=int(hand.seat_wind) - 27,
        prevalentWind=int(hand.round_wind) - 27,
        verbose=True,
    )
    found = {}
    for _points, count, _chinese, english in fans:
        fan = _ORACLE_NAMES.get(english) or english.lower().replace(" ", "_").replace("-", "_")
        found[fan] = count
    return found


def _ours(hand: Hand) -> dict[str, int]:
    result = score(hand)
    assert result.error is None, f"{format_notation(hand)}: {result.error}"
    return {_BY_NAME[f.name]: f.count for f in result.fans}


def test_oracle_agrees_on_random_hands() -> None:
    rng = random.Random(20240601)
    disagreements = []
    for _ in range(3000):
        hand = random_hand(rng)
        theirs, ours = _oracle_fans(hand), _ours(hand)
        if theirs != ours:
            disagreements.append((format_notation(hand), theirs, ours))
    assert disagreements == []


@pytest.mark.parametrize(("fan", "index"), [(f, i) for f in FAN_CASES for i in (0, 1)])
def test_oracle_agrees_on_fan_cases(fan: str, index: int) -> None:
    notation, conditions = FAN_CASES[fan][index]
    hand_obj = parse_notation(notation).to_json()
    hand_obj.update(conditions)
    hand = Hand.from_json(hand_obj)
    assert _oracle_fans(hand) == _ours(hand)


def test_oracle_agrees_on_every_win_of_waiting_hands() -> None:
    # Many of these wait on several tiles: the test that 边张/坎张/单钓将 need a single wait.
    rng = random.Random(99)
    disagreements = []
    for _ in range(200):
        hand = random_hand(rng)
        standing = list(hand.concealed)
        assert hand.win_tile is not None
        standing.remove(hand.win_tile)
        waiting = hand.replace(
            concealed=tuple(standing), win_tile=None, kong=False, fourth_tile=False, last_tile=False
        )
        for option in waits(waiting):
            for self_drawn in (False, True):
                if option.remaining == 0:
                    continue
                complete = waiting.replace(
                    concealed=(*standing, option.tile), win_tile=option.tile, self_drawn=self_drawn
                )
                theirs, ours = _oracle_fans(complete), _ours(complete)
                if theirs != ours:
                    disagreements.append((format_notation(complete), theirs, ours))
    assert disagreements == []
