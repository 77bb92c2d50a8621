"""The layout analyser's words: the sentences its doubts are made of, and the sizes they name."""

from __future__ import annotations

from fanscan.scoring.ruleset import HAND_SIZES

SMALLEST_HAND = min(HAND_SIZES.values())
"""The fewest playing tiles a complete hand of any rule set here holds (a kong counted as three)."""
LAST_TAKEN_AS_WIN = "No tile stands apart as the winning tile"
"""How the doubt begins that says the last concealed tile was taken as the winning tile (a caller
that was told the winning tile, as `fanscan score --win` is, leaves it out)."""


def count_doubt(count: int, smallest: int = SMALLEST_HAND) -> str:
    """The sentence for a hand of ``count`` playing tiles that no hand (of at least ``smallest``)
    can be: a tile or two astray, or only part of a hand in the photo."""
    tiles = f"{count} playing tile{'' if count == 1 else 's'}"
    if count < smallest - 1:
        return (f"The photo shows {tiles}, fewer than a hand of {smallest} tiles holds: photograph the "
                "whole hand, or look for tiles hidden, cut off by the photo's edge or left out as no tile.")
    return (f"The photo shows {tiles} (a kong counted as three), which cannot be a complete hand: look "
            "for a tile that is missing, hidden or read twice.")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


LONG_GROUP = 4
"""A group of more tiles than a kong is named by its sideways tiles, not as a whole: "check those
tiles" of a row of 14 points at none."""


def claimed_not_a_set_doubt(group: list[str], sideways: list[int]) -> str:
    """The sentence for a group with a sideways (claimed) tile that forms no set; ``sideways`` are
    the places in ``group`` of the tiles lying sideways."""
    if len(group) == 1:
        return (f"The tile {group[0]} lies sideways as a claimed tile does, but alone it is no chow, "
                "pung or kong: check whether it lies sideways; it was counted as a concealed tile.")
    if len(group) <= LONG_GROUP or not sideways:
        return (f"The group {describe(group)} has a sideways (claimed) tile but is not a chow, pung "
                "or kong: check those tiles; they were counted as concealed.")
    places = " and ".join(ordinal(k + 1) for k in sideways)
    named = " ".join(group[k] for k in sideways)
    one = len(sideways) == 1
    return (f"The {places} tile{'' if one else 's'} ({named}) of the row {describe(group)} "
            f"{'lies' if one else 'lie'} sideways as a claimed tile does, but the row is no chow, pung "
            f"or kong: check whether {'it lies' if one else 'they lie'} sideways; the row was counted "
            "as concealed tiles.")


def describe(codes: list[str]) -> str:
    """Tile codes as a player writes them in a sentence."""
    return " ".join(codes)


def other_row_doubt(member_codes: list[str]) -> str:
    """What to say of tiles in a row of the hand's other than the concealed row that form no set."""
    if len(member_codes) > 1:
        return (f"The row {describe(member_codes)} is not a chow, pung or kong; its tiles were counted "
                "as concealed tiles.")
    return f"The tile {describe(member_codes)} lies in a row of its own; it was counted as a concealed tile."


def apart_doubt(member_codes: list[str]) -> str:
    """What to say of tiles of the concealed row that stand apart and form no set."""
    if len(member_codes) > 1:
        return (f"The tiles {describe(member_codes)} stand apart but do not form a set; they were "
                "counted as concealed tiles.")
    return f"The tile {describe(member_codes)} stands apart but is no set; it was counted as a concealed tile."
