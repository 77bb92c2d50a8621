"""The layout analyser: from classified tiles to rows, groups and the declared hand.

1. Rows and groups come from the boxes alone (``geometry.rows_and_groups``).
2. Roles: flower tiles go to ``flowers`` wherever they lie; a group with a sideways tile is an
   exposed chow, pung or kong; back, face, face, back (or four backs) is a concealed kong; the
   largest other group is the concealed hand; a single tile standing apart at the end of the
   concealed row is the winning tile, and so is a tile turned sideways at the row's right end
   (the riichi way of showing it: ``_riichi_split``, the claimed meld it could also end as an
   alternative); any other group that forms a set is read as an exposed meld laid without a
   sideways tile, with the concealed reading as an alternative; four alike side by side in the
   concealed row of a hand one or two tiles over a hand's size (its groups apart that form no set
   and the tile standing apart included: a gap may part a kong) are a kong shown face up
   (``row_kongs``).
3. Doubts: everything the analyser had to guess is said in a sentence a player can act on, and
   where two readings are plausible the other one is returned as an alternative hand.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from fanscan.scoring.decompose import SIXTEEN_TILE_HAND
from fanscan.scoring.hand import DEFAULT_WIN_CONDITIONS
from fanscan.scoring.tiles import BACK, TILE_CODES
from fanscan.vision import row_kongs
from fanscan.vision.layout_words import (LAST_TAKEN_AS_WIN, SMALLEST_HAND, apart_doubt, claimed_not_a_set_doubt,
                                         count_doubt, describe, other_row_doubt)
from fanscan.vision.detections import HandLayout, LayoutGroup, TileReading
from fanscan.vision.geometry import rows_and_groups

_FLOWERS = set(TILE_CODES[34:])
_ORDER = {code: i for i, code in enumerate(TILE_CODES)}


# --- sets -------------------------------------------------------------------------------------


def _as_set(codes: list[str]) -> tuple[str, list[str]] | None:
    """(type, tiles in order) when the codes form a chow, pung or kong, else None."""
    if any(c == BACK or c in _FLOWERS for c in codes):
        return None
    if len(codes) == 4 and len(set(codes)) == 1:
        return "kong", list(codes)
    if len(codes) != 3:
        return None
    if len(set(codes)) == 1:
        return "pung", list(codes)
    ordered = sorted(codes, key=_ORDER.__getitem__)
    suits = {c[1] for c in ordered if len(c) == 2 and c[1] in "mps"}
    if len(suits) == 1 and all(len(c) == 2 for c in ordered):
        ranks = [int(c[0]) for c in ordered]
        if ranks == list(range(ranks[0], ranks[0] + 3)):
            return "chow", ordered
    return None


def forms_set(codes: list[str]) -> bool:
    """Whether a group's codes form a chow, pung, kong or concealed kong with readable faces."""
    return _as_set(codes) is not None or bool(_concealed_kong(codes))


def _concealed_kong(codes: list[str]) -> str | None:
    """The face of a concealed kong (back, face, face, back), '' for four backs, None otherwise."""
    if len(codes) != 4:
        return None
    if all(c == BACK for c in codes):
        return ""
    faces = [c for c in codes if c != BACK]
    if len(faces) == 2 and faces[0] == faces[1] and faces[0] not in _FLOWERS:
        return faces[0]
    return None


def _repair_groups(
    plain_groups: list[tuple[int, list[int]]], codes: list[str], readings: list[TileReading]
) -> list[tuple[int, list[int]]]:
    """Groups that hold a sideways (claimed) tile or a back, made into the sets those mark where
    the box gaps misled: one that is no set takes in the neighbouring group or groups of its row
    when together they form one (gaps opened inside a meld or a concealed kong), or gives up tiles at
    its far end when fewer of them do (two groups touched). Other groups are left as they are."""
    out = [(row, list(members)) for row, members in plain_groups]

    def marked(members: list[int]) -> bool:
        return any(readings[i].sideways or codes[i] == BACK for i in members)

    def fits(members: list[int]) -> bool:
        member_codes = [codes[i] for i in members]
        return _as_set(member_codes) is not None or _concealed_kong(member_codes) is not None

    k = 0
    while k < len(out):
        row, members = out[k]
        if not marked(members) or fits(members):
            k += 1
            continue
        # Neighbouring groups of the row that together with this one form a set: one on either
        # side first, then two (a concealed kong whose both backs stand apart).
        windows = [(k, k + 1), (k - 1, k), (k - 1, k + 1), (k, k + 2), (k - 2, k)]
        window = next(((a, b) for a, b in windows
                       if a >= 0 and b < len(out) and all(out[j][0] == row for j in range(a, b + 1))
                       and fits([i for j in range(a, b + 1) for i in out[j][1]])), None)
        if window is not None:
            a, b = window
            out[a : b + 1] = [(row, [i for j in range(a, b + 1) for i in out[j][1]])]
            k = a
        else:
            for size in (4, 3):
                cuts = [(0, size), (len(members) - size, len(members))] if len(members) > size else []
                part = next(((a, b) for a, b in cuts if fits(members[a:b]) and marked(members[a:b])), None)
                if part is not None:
                    a, b = part
                    pieces = [members[:a], members[a:b], members[b:]]
                    out[k : k + 1] = [(row, piece) for piece in pieces if piece]
                    break
        k += 1
    return out


def _riichi_split(plain_groups: list[tuple[int, list[int]]], readings: list[TileReading],
                  ) -> tuple[list[tuple[int, list[int]]], bool]:
    """The groups with a tile turned sideways at the right end of a row of more tiles than any
    meld holds, and the only one turned there, set apart as a group of its own: the winning tile
    shown the riichi way. Whether any was."""
    out, split = [], False
    for row, members in plain_groups:
        turned = [i for i in members if readings[i].sideways]
        if len(members) > 4 and turned == [members[-1]]:
            out += [(row, members[:-1]), (row, members[-1:])]
            split = True
        else:
            out.append((row, members))
    return out, split


# --- the analysis -----------------------------------------------------------------------------


def _copy_hand(hand: dict) -> dict:
    """A copy of a hand JSON whose lists may be changed (cheaper than a deep copy)."""
    return {**hand, "concealed": list(hand["concealed"]), "flowers": list(hand["flowers"]),
            "melds": [{**m, "tiles": list(m["tiles"])} for m in hand["melds"]]}


def _empty_hand() -> dict:
    return {
        "concealed": [],
        "melds": [],
        "win_tile": None,
        "flowers": [],
        **DEFAULT_WIN_CONDITIONS,
    }


def analyse(
    readings: list[TileReading],
    right: np.ndarray,
    up: np.ndarray,
    rows: list[list[list[int]]] | None = None,
    complete: bool = True,
    riichi: bool = True,
) -> HandLayout:
    """Group the readings and work out the declared hand, with doubts and alternative readings.
    ``rows`` (from ``rows_and_groups``, which needs only the boxes) saves working them out again
    when the same tiles are analysed with other codes. ``complete=False``: the hand is not meant
    to be complete (one waiting to win), so neither its tile count nor a missing winning tile is
    a doubt. ``riichi=False``: a tile turned sideways at a row's end is read as a claimed tile
    only (the alternative to the winning tile shown so)."""
    if not readings:
        return HandLayout((), _empty_hand(), (), ("No tiles were found.",), ())
    if rows is None:
        rows = rows_and_groups(readings, right, up)
    doubts: list[str] = []
    alternatives: list[tuple[str, dict]] = []
    hand = _empty_hand()
    codes = [r.code for r in readings]

    flowers = [i for i, c in enumerate(codes) if c in _FLOWERS]
    hand["flowers"] = [codes[i] for i in flowers]
    plain_groups: list[tuple[int, list[int]]] = []  # (row, members) without flowers
    row_of: dict[int, int] = {}
    for row_index, row in enumerate(rows):
        for members in row:
            row_of.update((i, row_index) for i in members)
            rest = [i for i in members if codes[i] not in _FLOWERS]
            if rest:
                plain_groups.append((row_index, rest))

    riichi_win = False
    if riichi and complete:
        plain_groups, riichi_win = _riichi_split(plain_groups, readings)
    plain_groups = _repair_groups(plain_groups, codes, readings)
    groups: list[LayoutGroup] = []
    if flowers:
        groups.append(LayoutGroup(tuple(flowers), row_of[flowers[0]], "flowers"))
    melds: list[dict] = []
    free: list[tuple[int, list[int]]] = []
    not_a_set: list[tuple[list[int], list[int]]] = []  # groups with sideways tiles (and those) that form no set
    for row_index, members in plain_groups:
        member_codes = [codes[i] for i in members]
        sideways = [i for i in members if readings[i].sideways]
        kong_face = _concealed_kong(member_codes)
        if kong_face is not None:
            if kong_face:
                meld = {"type": "kong", "tiles": [kong_face] * 4, "concealed": True}
                melds.append(meld)
                groups.append(LayoutGroup(tuple(members), row_index, "concealed_kong", meld))
            else:
                doubts.append(
                    "A concealed kong shows four backs, so its tiles cannot be read: turn its two "
                    "middle tiles face up and take the photo again."
                )
                groups.append(LayoutGroup(tuple(members), row_index, "concealed_kong"))
            continue
        if sideways:
            found = _as_set(member_codes)
            if found is not None:
                kind, tiles = found
                meld = {"type": kind, "tiles": tiles, "concealed": False}
                melds.append(meld)
                groups.append(LayoutGroup(tuple(members), row_index, "meld", meld))
            else:
                not_a_set.append((members, sideways))  # said below, unless it is the winning tile
                free.append((row_index, members))
            continue
        free.append((row_index, members))

    def claimed_not_a_set(win: int | None) -> None:
        for members, sideways in not_a_set:
            if members != [win]:
                doubts.append(claimed_not_a_set_doubt([codes[i] for i in members],
                                                       [members.index(i) for i in sideways]))

    if not free:
        claimed_not_a_set(None)
        hand["melds"] = melds
        layout_groups = tuple(groups)
        doubts.append("No concealed tiles were found.")
        return HandLayout(layout_groups, hand, (), tuple(doubts), _group_of(layout_groups, len(readings)))

    # The concealed hand: the largest free group; the winning tile: a single tile beside its row's end.
    main_index = max(range(len(free)), key=lambda k: (len(free[k][1]), -k))
    main_row, main_members = free[main_index]
    win: int | None = None
    win_doubt: int | None = None  # the index of the doubt that says where the winning tile stands
    same_row = [k for k, (row, m) in enumerate(free) if row == main_row and k != main_index]
    singles = [k for k in same_row if len(free[k][1]) == 1 and codes[free[k][1][0]] != BACK]
    main_right = max(float(readings[i].position) for i in main_members)
    after = [k for k in singles if readings[free[k][1][0]].position > main_right]
    if after:
        win_k = min(after, key=lambda k: readings[free[k][1][0]].position)
        win = free[win_k][1][0]
    elif singles:
        win_k = singles[0]
        win = free[win_k][1][0]
        win_doubt = len(doubts)
        doubts.append(
            f"The tile standing apart ({codes[win]}) is left of the concealed tiles; it was taken "
            "as the winning tile."
        )
    claimed_not_a_set(win)
    concealed = list(main_members)
    groups.append(LayoutGroup(tuple(main_members), main_row, "concealed"))
    if win is not None:
        groups.append(LayoutGroup((win,), main_row, "win"))

    set_groups: list[tuple[int, list[int], str, list[str]]] = []
    apart_in_row: dict[tuple[int, ...], int] = {}  # the main row's groups of no set: their doubts' indices
    other_rows: dict[int, dict[tuple[int, ...], int]] = {}  # the same for the hand's other rows
    for k, (row_index, members) in enumerate(free):
        if k == main_index or (win is not None and members == [win]):
            continue
        member_codes = [codes[i] for i in members]
        found = _as_set(member_codes)
        if found is not None:
            set_groups.append((row_index, members, *found))
        else:
            concealed += members
            groups.append(LayoutGroup(tuple(members), row_index, "concealed"))
            if row_index == main_row:
                apart_in_row[tuple(members)] = len(doubts)
                doubts.append(apart_doubt(member_codes))
            else:
                other_rows.setdefault(row_index, {})[tuple(members)] = len(doubts)
                doubts.append(other_row_doubt(member_codes))
    for row_index, members, kind, tiles in set_groups:
        meld = {"type": kind, "tiles": tiles, "concealed": False}
        melds.append(meld)
        groups.append(LayoutGroup(tuple(members), row_index, "meld", meld))

    playing = sum(codes[i] != BACK for i in concealed) + (win is not None) + 3 * len(melds)
    # The whole concealed row, its groups apart of no set and its winning tile too: a gap may part
    # a kong, though a set laid between never does (a run is four tiles next to each other in the
    # row's own order, every tile of the row counted).
    # The hand's other rows (a long hand laid in two) are looked at after it, each on its own.
    row_tiles = [*main_members, *(i for members in apart_in_row for i in members),
                 *([win] if win is not None else [])]
    kong_rows = [(main_row, row_tiles), *((r, [i for m in apart for i in m]) for r, apart in other_rows.items())]
    shown = (row_kongs.shown_kongs([(tiles, [i for group in rows[r] for i in group]) for r, tiles in kong_rows],
                                   codes, readings, playing) if complete else row_kongs.ShownKongs())
    kong_took_win: str | None = None  # the face of the kong that took the tile standing apart
    if shown.runs:
        concealed = [i for i in concealed if i not in shown.members]
        withdrawn: set[int] = set()
        said_again = []
        for apart, say in ((apart_in_row, apart_doubt), *((a, other_row_doubt) for a in other_rows.values())):
            for members, said in apart.items():
                left = [codes[i] for i in members if i not in shown.members]
                if len(left) < len(members):
                    withdrawn.add(said)
                    if left and _as_set(left) is None:
                        said_again.append(say(left))
        if win in shown.members:
            kong_took_win = codes[win]
            if win_doubt is not None:
                withdrawn.add(win_doubt)
            win = None
        groups = [replace(g, members=tuple(i for i in g.members if i not in shown.members))
                  if g.role in ("concealed", "win") else g for g in groups]
        groups = [g for g in groups if g.members]
        groups += [LayoutGroup(tuple(run), kong_rows[k][0], "concealed_kong", meld)
                   for run, meld, k in zip(shown.runs, shown.melds, shown.rows)]
        melds = melds + shown.melds
        doubts = [d for k, d in enumerate(doubts) if k not in withdrawn] + said_again + shown.doubts
    hand["melds"] = melds
    hand["concealed"] = [codes[i] for i in concealed] + ([codes[win]] if win is not None else [])
    backs = [i for i in concealed if codes[i] == BACK]
    if backs:
        doubts.append(
            (f"{len(backs)} face-down tiles lie" if len(backs) > 1 else "A face-down tile lies")
            + " among the concealed tiles: turn them face up and take the photo again."
        )
        hand["concealed"] = [c for c in hand["concealed"] if c != BACK]
    count = len(hand["concealed"]) + 3 * len(hand["melds"])  # playing tiles, a kong as three
    if win is not None:
        hand["win_tile"] = codes[win]
    elif hand["concealed"] and not complete:
        hand["win_tile"] = hand["concealed"][-1]  # a waiting hand has none; the JSON wants a tile
    elif hand["concealed"]:
        last = hand["concealed"][-1]
        hand["win_tile"] = last
        # Another winning tile is worth offering only to a hand of a size some hand has.
        sized = count % 3 == 2 and SMALLEST_HAND <= count <= SIXTEEN_TILE_HAND
        taken = (f" once the kong of {kong_took_win} takes the tile that stood apart" if kong_took_win
                 else "")
        doubts.append(
            f"{LAST_TAKEN_AS_WIN}{taken}, so the last concealed tile ({last}) was "
            "taken; put the winning tile a little apart at the right end"
            + (", or pick another reading." if sized else ".")
        )
        for code in dict.fromkeys(hand["concealed"][:-1]) if sized else ():
            if code != last:
                other = _copy_hand(hand)
                other["win_tile"] = code
                alternatives.append((f"winning tile {code}", other))

    if shown.runs:
        alternatives.append(row_kongs.claimed_alternative(hand, shown))
    if riichi_win:
        claimed = analyse(readings, right, up, rows, complete, riichi=False).hand
        if claimed != hand:
            alternatives.append(("the sideways tile at the row's end as a claimed tile, not the winning tile", claimed))
    # Sets laid apart without a sideways tile may be concealed tiles merely spaced out.
    for _, members, kind, tiles in set_groups:
        other = _copy_hand(hand)
        other["melds"] = [m for m in other["melds"] if m["tiles"] != tiles or m["type"] != kind]
        # The winning tile stays last; a row of backs alone leaves no concealed tile to keep.
        win_code = other["concealed"][-1:]
        other["concealed"] = other["concealed"][:-1] + [codes[i] for i in members] + win_code
        alternatives.append((f"{describe(tiles)} as concealed tiles, not a declared {kind}", other))
        doubts.append(
            f"The {kind} {describe(tiles)} lies apart without a sideways tile: it was read as "
            "declared (exposed); if it is part of the concealed hand, use the alternative reading."
        )

    if complete and count % 3 != 2 and count:  # none at all: "No concealed tiles were found"
        doubts.append(count_doubt(count))
    layout_groups = tuple(groups)
    return HandLayout(
        layout_groups, hand, tuple(alternatives), tuple(doubts), _group_of(layout_groups, len(readings))
    )


def _group_of(groups: tuple[LayoutGroup, ...], n: int) -> tuple[int, ...]:
    out = [-1] * n
    for g, group in enumerate(groups):
        for i in group.members:
            out[i] = g
    return tuple(out)
