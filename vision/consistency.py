"""Make the tiles read agree with what a mahjong hand can be, as a referee would.

The classifier names each tile on its own. A hand constrains them together: each flower exists
once, every other face four times, and a photo of a winning hand shows a complete hand. When the
tiles as read break those rules and a doubtful tile's second or third guess repairs them, the
likelier repair is taken and said (``Correction``), so the player checks that tile:

1. ``respect_counts``: a face read more often than it exists gives up its least confident
   readings to their next guess that still fits.
2. ``complete_hand``: when the hand read is not complete, the cheapest change of at most two
   doubtful tiles to near guesses (cost: the drop in log probability) that completes it is
   taken, else the cheapest single change to a far guess, else (``_set_guesses``) one doubtful
   tile in a group that must be a set (it holds a sideways or face-down tile), or any face of
   such a group that is no set, taken as any face that completes the hand. A near guess may be
   a back, kept only where it makes a concealed kong: a face-down tile under glare reads as a
   white dragon (back 4p 4p P, scene 8889). Hands that no such change completes are left as
   read; the layout's doubts then say so.
3. ``without_phantoms``: a hand one or two tiles too long that no change completes is tried
   without each doubtful box, or pair of them, in turn: the finder sometimes boxes bare table or a
   tile's side. A hand of 16 (a 16-tile hand waiting to win) is never cut to 14.
4. ``kong_flowers``: a doubtful flower lying in a row against a declared pung, which its pung's
   face would make a kong, is that kong's fourth tile (flowers are laid aside, not in a set).
5. ``stray_backs``: a box read face-down outside any concealed kong counts for nothing but can
   break the set it lies against (a tile's dark side beside a claimed chow); it is left out when
   the hand without it is complete with every claimed group a set.
6. ``phantom_flowers``: a flower counts for nothing in the hand's size, so a box of no tile read
   as a flower passes every check above; a doubtful flower whose box runs past the photo's edge,
   lies mostly on other boxes, or lies inside a row of the hand is taken for no tile.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np
from fanscan.scoring.decompose import readings as hand_readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import BACK, TILE_CODES
from fanscan.vision.detections import HandLayout, TileReading
from fanscan.vision.layout import forms_set
from fanscan.vision.numeric import median, quad_areas

from fanscan.errors import FanscanError

_FLOWERS = frozenset(TILE_CODES[34:])
EDITABLE_BELOW = 0.9
"""Only tiles read with less confidence than this are reconsidered."""
MAX_EDITABLE = 6
"""...at most this many of them, the least confident first."""
MIN_GUESS = 0.03
"""A next guess below this probability is never taken."""
MAX_CHANGES = 2
HAND_SIZES = (14, 17)
"""Complete hands have 13 + 1 tiles (MCR and most rule sets) or 16 + 1, kongs counted as three."""
MAX_PHANTOMS = 2
"""A hand too long is tried without at most this many doubtful boxes, unless it is one tile short
of a complete size (a hand waiting to win: a photo of a 16-tile hand is no 14 with two phantoms)."""
COUNT_DOUBT = 0.1
"""A tile read as a flower with a suit or honour guess this likely puts the hand's count in doubt,
and then no box is left out: in 16-tile hands of real faces waiting to win, birds (1s) read as
flowers (with 1s, F or 3p at 0.10-0.32) made them one tile "too long" for 14, and leaving a box
out then cut a real tile and changed another. A box of table read 7f beside real flowers had its
best suit guess at 0.06 (scene 329, where leaving out the phantom is right). Only a flower whose
nearest box is a suit or honour tile counts (``_beside_a_playing_tile``)."""
FLOWER_TAKE_MIN = 0.05
"""A tile read as a suit or honour tile is taken as a flower only at this probability or more.
Taking a tile for a flower drops it from the hand's count, so it completes any hand one tile too
long: of the seven such takes seen (scenes 0-499 and 1500-1999), the three under 0.05
(0.025-0.04) were boxes of bare table or a suit tile, the four over it (0.06-0.15) flowers."""
BLANK = "P"
BLANK_PHANTOM_BELOW = 0.99
"""A box read as the blank white dragon may be left out of a hand too long when read with less
confidence than this (others: ``EDITABLE_BELOW``): a patch of patterned table looks like a
blank face, and the classifier can be sure of it (scene 9237: P at 91 % beside the melds)."""
PHANTOM_FLOWER_BELOW = 0.4
"""A tile taken as a flower with less confidence than this is no tile when its box runs past the
photo's edge (within ``EDGE_MARGIN`` of it) or lies on other boxes for ``PHANTOM_FLOWER_COVER``
of its area or more. Scenes 8000-8999: five hands had a flower too many, three of them a box of a
tile cut by the photo's edge (read at 6-33 %) and one a second box across a 1p (2f at 8 %, 55 %
of it on other boxes); in scenes 1000-1999 no true flower under 0.45 touched the edge or other
boxes by more than 2 %. Inside a row (``_inside_a_row_of_the_hand``): scenes 11031, 11859 and
11975 (a box across a seam, or between a kong and the flowers laid against it, at 17-38 %)."""
EDGE_MARGIN = 0.05
"""...in tile sides (the square root of the median box's area)."""
PHANTOM_FLOWER_COVER = 0.4
UNLISTED_GUESS = 1e-4
"""The probability a face outside a reading's guesses is costed at (``_set_guesses``)."""
_SUITS_AND_HONOURS = tuple(TILE_CODES[:34])


@dataclass(frozen=True)
class Correction:
    """Tile ``index`` was read as ``read`` but is taken as ``taken``, because ``reason``."""

    index: int
    read: str
    read_confidence: float
    taken: str
    taken_confidence: float
    reason: str


def copies_allowed(code: str) -> int:
    """How many tiles of this face a set holds (face-down tiles: any number)."""
    if code == BACK:
        return 10**6
    return 1 if code in _FLOWERS else 4


def _take(reading: TileReading, code: str, confidence: float) -> TileReading:
    return replace(reading, code=code, confidence=confidence)


def _guesses(reading: TileReading) -> dict[str, float]:
    """Every face the classifier gave the reading a probability for, near guesses and far."""
    return dict(reading.candidates) | dict(reading.far_guesses)


def _next_guess(reading: TileReading, counts: Counter[str]) -> tuple[str, float] | None:
    """The reading's likeliest other guess that a set still has a copy of, if any is likely enough."""
    return next(
        ((c, p) for c, p in reading.candidates[1:]
         if p >= MIN_GUESS and c != BACK and counts[c] < copies_allowed(c)),
        None,
    )


def _may_take(reading: TileReading, code: str, p: float) -> bool:
    """Whether ``code`` at probability ``p`` is likely enough to take for this reading (see
    ``FLOWER_TAKE_MIN``)."""
    return code not in _FLOWERS or reading.code in _FLOWERS or p >= FLOWER_TAKE_MIN


def respect_counts(readings: list[TileReading]) -> tuple[list[TileReading], list[Correction]]:
    """Readings where no face appears more often than a set holds it, where next guesses allow."""
    out = list(readings)
    counts = Counter(r.code for r in out)
    corrections: list[Correction] = []
    for code in sorted(counts):
        holders = sorted((i for i, r in enumerate(out) if r.code == code), key=lambda i: out[i].confidence)
        for i in holders:  # the least confident give up the face first
            if counts[code] <= copies_allowed(code):
                break
            guess = _next_guess(out[i], counts)
            if guess is None:
                continue
            corrections.append(Correction(
                i, code, out[i].confidence, guess[0], guess[1], f"a set has only {copies_allowed(code)} {code}",
            ))
            out[i] = _take(out[i], *guess)
            counts[code] -= 1
            counts[guess[0]] += 1
    return out, corrections


def tile_count(hand: dict) -> int:
    """The hand JSON's playing tiles, kongs counted as three."""
    return len(hand.get("concealed", [])) + 3 * len(hand.get("melds", []))


def is_complete(hand: dict) -> bool:
    """Whether the hand JSON is a possible, complete hand (any tile count, kongs counted as 3)."""
    count = tile_count(hand)
    if count % 3 != 2 or hand.get("win_tile") is None:
        return False
    try:
        return bool(hand_readings(Hand.from_json(hand, size=count)))
    except FanscanError:
        return False


def _set_guesses(readings: list[TileReading], layout: HandLayout, doubtful: list[int],
                 tried: set[tuple[int, str]]) -> list[tuple[int, str, float, float]]:
    """Options (index, face, probability, cost) for the suspects (``_set_suspects``) in a group
    with a sideways or face-down tile: such a group is a claimed meld or a concealed kong, so its
    faces must make a set even when the classifier gave the right face almost nothing (a 6s read
    as F, 6s under 0.1 %). Only faces that make the group a set are offered (a handful, so the
    search stays short); those outside the reading's guesses are costed at ``UNLISTED_GUESS``,
    cheapest first."""
    if not layout.group_of:
        return []
    options = []
    for i in _set_suspects(readings, layout, doubtful):
        members = layout.groups[layout.group_of[i]].members
        known = _guesses(readings[i])
        for code in _SUITS_AND_HONOURS:
            if code == readings[i].code or (i, code) in tried:
                continue
            if not forms_set([code if m == i else readings[m].code for m in members]):
                continue
            p = max(known.get(code, 0.0), UNLISTED_GUESS)
            options.append((i, code, p, math.log(readings[i].confidence) - math.log(p)))
    return sorted(options, key=lambda option: option[3])


def _set_suspects(readings: list[TileReading], layout: HandLayout, doubtful: list[int]) -> list[int]:
    """The tiles ``_set_guesses`` may change: doubtful tiles in a group with a sideways or
    face-down tile, and any face of such a group that forms no set (back 4s 2s back: one of the two
    faces is wrong however sure its reading, seed 7702)."""
    suspects = []
    for i, reading in enumerate(readings):
        group = layout.group_of[i]
        if group < 0 or reading.code == BACK:
            continue
        members = layout.groups[group].members
        if not any(readings[m].sideways or readings[m].code == BACK for m in members):
            continue
        if i in doubtful or not forms_set([readings[m].code for m in members]):
            suspects.append(i)
    return suspects


def _sets_where_claimed(readings: list[TileReading], layout: HandLayout) -> bool:
    """Whether every group with a sideways (claimed) tile was read as a meld, and every group
    with a face-down tile as a concealed kong."""
    for group in layout.groups:
        if group.role == "flowers":
            continue
        if any(readings[m].sideways for m in group.members) and group.role != "meld":
            return False
        if any(readings[m].code == BACK for m in group.members) and group.role != "concealed_kong":
            return False
    return True


def reads_as_declared(readings: list[TileReading], layout: HandLayout) -> bool:
    """Whether the hand is complete and every group with a sideways or face-down tile a set."""
    return is_complete(layout.hand) and _sets_where_claimed(readings, layout)


def complete_hand(
    readings: list[TileReading], analyse: Callable[[list[TileReading]], HandLayout]
) -> tuple[list[TileReading], HandLayout, list[Correction]]:
    """The readings and their layout, with the cheapest change of at most ``MAX_CHANGES``
    doubtful tiles that makes the hand complete, every group with a sideways tile a meld and
    every group with a face-down tile a concealed kong, when the hand as read is not; failing
    that, the cheapest change that makes it complete."""
    layout = analyse(readings)
    complete = is_complete(layout.hand)
    if complete and _sets_where_claimed(readings, layout):
        return readings, layout, []
    fallback = (readings, layout, []) if complete else None
    counts = Counter(r.code for r in readings)
    doubtful = sorted(
        (i for i, r in enumerate(readings) if r.code != BACK and r.confidence < EDITABLE_BELOW),
        key=lambda i: readings[i].confidence,
    )[:MAX_EDITABLE]
    options = [
        (i, code, p, math.log(readings[i].confidence) - math.log(p))
        for i in doubtful
        for code, p in readings[i].candidates[1:]
        if p >= MIN_GUESS and _may_take(readings[i], code, p)
    ]
    changes = [
        combo
        for size in range(1, MAX_CHANGES + 1)
        for combo in itertools.combinations(options, size)
        if len({i for i, *_ in combo}) == size
    ]
    changes.sort(key=lambda combo: sum(cost for *_, cost in combo))
    # Then one doubtful tile taken as a less likely guess: a tile read wrong with its true face
    # outside the near guesses (a suit tile taken for a flower, often) when that alone completes it.
    far = sorted(
        ((i, code, p, math.log(readings[i].confidence) - math.log(p))
         for i in doubtful for code, p in readings[i].far_guesses
         if code != BACK and _may_take(readings[i], code, p)),
        key=lambda option: option[3],
    )
    tried = {(i, code) for i, code, *_ in [*options, *far]}
    for combo in [*changes, *((option,) for option in far),
                  *((option,) for option in _set_guesses(readings, layout, doubtful, tried))]:
        changed = Counter(counts)
        for i, code, _, _ in combo:
            changed[readings[i].code] -= 1
            changed[code] += 1
        if any(changed[code] > copies_allowed(code) for _, code, _, _ in combo):
            continue
        trial = list(readings)
        for i, code, p, _ in combo:
            trial[i] = _take(trial[i], code, p)
        trial_layout = analyse(trial)
        if not is_complete(trial_layout.hand):
            continue
        corrections = [
            Correction(i, readings[i].code, readings[i].confidence, code, p, "that completes the hand")
            for i, code, p, _ in combo
        ]
        if _sets_where_claimed(trial, trial_layout):
            return trial, trial_layout, corrections
        if all(code != BACK for _, code, _, _ in combo):  # a back not in a concealed kong is no tile
            fallback = fallback or (trial, trial_layout, corrections)
    return fallback or (readings, layout, [])


def _may_be_played(reading: TileReading) -> bool:
    """Whether a tile read as a flower may well be a suit or honour tile (``COUNT_DOUBT``)."""
    return reading.code in _FLOWERS and reading.confidence < EDITABLE_BELOW and any(
        code in _SUITS_AND_HONOURS and p >= COUNT_DOUBT for code, p in reading.candidates[1:])


def _beside_a_playing_tile(readings: list[TileReading], index: int) -> bool:
    """Whether the box nearest to tile ``index`` holds no flower. A doubtful flower laid aside
    with other flowers is a flower (scene 7453: a 6f at 31 % beside 1f and 3f kept a phantom P in
    the hand); one among suit tiles may be a suit tile (a bird read as a flower)."""
    centre = readings[index].box.mean(axis=0)
    others = [j for j in range(len(readings)) if j != index]
    if not others:
        return False
    nearest = min(others, key=lambda j: float(np.linalg.norm(readings[j].box.mean(axis=0) - centre)))
    return readings[nearest].code not in _FLOWERS


def without_phantoms(
    readings: list[TileReading],
    hand: dict,
    analyser_for: Callable[[list[TileReading]], Callable[[list[TileReading]], HandLayout]],
) -> tuple[list[TileReading], HandLayout, list[Correction], tuple[int, ...]] | None:
    """For a hand one or two tiles too long (``HAND_SIZES``, ``MAX_PHANTOMS``) that
    ``complete_hand`` cannot complete (``hand``: the hand JSON the readings make): the readings
    without the least confident doubtful boxes whose absence lets it be completed, with their
    repairs (indices into the shorter list), the layout and the indices of the boxes left out;
    else None. ``analyser_for(readings)`` gives the layout analysis for a list of readings. A box
    of bare table between the winning tile and the flowers, read 9p at 29 %, was one (scene 329).
    A hand one tile short of a complete size (13, 16: waiting to win) is left alone."""
    count = tile_count(hand)
    extra = next((k for k in range(1, MAX_PHANTOMS + 1) if count - k in HAND_SIZES), None)
    waiting = count + 1 in HAND_SIZES
    if extra is None or waiting or any(_may_be_played(r) and _beside_a_playing_tile(readings, i)
                                       for i, r in enumerate(readings)):
        return None
    doubtful = sorted(
        (i for i, r in enumerate(readings) if r.code != BACK and r.code not in _FLOWERS
         and r.confidence < (BLANK_PHANTOM_BELOW if r.code == BLANK else EDITABLE_BELOW)),
        key=lambda i: readings[i].confidence,
    )[:MAX_EDITABLE]
    # The least confident first; flowers are not tried, as a flower counts for nothing.
    tries = sorted(itertools.combinations(doubtful, extra),
                   key=lambda left: sum(readings[i].confidence for i in left))
    for left in tries:
        trial = [r for i, r in enumerate(readings) if i not in left]
        fixed, layout, corrections = complete_hand(trial, analyser_for(trial))
        if reads_as_declared(fixed, layout):
            return fixed, layout, corrections, tuple(sorted(left))
    return None


def kong_flowers(
    readings: list[TileReading], layout: HandLayout, analyse: Callable[[list[TileReading]], HandLayout]
) -> tuple[list[TileReading], HandLayout, list[Correction]]:
    """The readings and layout with each doubtful flower that lies against a declared pung taken
    as the pung's face, where the classifier gave that face ``MIN_GUESS`` or more and the pung
    then becomes a kong of a complete hand (scenes 9348, 10282, 10764: a kong's fourth tile
    read 7f at 48 %, 3f at 12 %, 6f at 16 %, the face next at 10-26 %), with the corrections."""
    corrections: list[Correction] = []
    # Never a white dragon: a box of no tile between a pung's tiles reads blank (scene 10981: a gap
    # in a claimed P pung read 1f at 20 %, P at 20 %).
    pung_faces = {meld["tiles"][0] for meld in layout.hand["melds"]
                  if meld["type"] == "pung" and not meld["concealed"] and meld["tiles"][0] != BLANK}
    for i, reading in enumerate(readings):
        if reading.code not in _FLOWERS or reading.confidence >= EDITABLE_BELOW:
            continue
        guesses = _guesses(reading)
        for face in sorted(pung_faces, key=lambda code: -guesses.get(code, 0.0)):
            p = guesses.get(face, 0.0)
            if p < MIN_GUESS:
                continue
            trial = list(readings)
            trial[i] = _take(reading, face, p)
            trial_layout = analyse(trial)
            group = trial_layout.groups[trial_layout.group_of[i]] if trial_layout.group_of[i] >= 0 else None
            if (group is not None and group.meld is not None and group.meld["type"] == "kong"
                    and reads_as_declared(trial, trial_layout)):
                corrections.append(Correction(i, reading.code, reading.confidence, face, p,
                                              "a flower does not lie in a declared set"))
                readings, layout = trial, trial_layout
                break
    return readings, layout, corrections


def stray_backs(readings: list[TileReading], layout: HandLayout) -> tuple[int, ...]:
    """The face-down boxes in no concealed kong, when the hand as read is not complete with every
    claimed group a set (else none: a stray back then harms nothing)."""
    if reads_as_declared(readings, layout):
        return ()
    return tuple(i for i, r in enumerate(readings) if r.code == BACK and (
        layout.group_of[i] < 0 or layout.groups[layout.group_of[i]].role != "concealed_kong"))


def _covered_share(readings: list[TileReading], index: int, area: float) -> float:
    """How much of tile ``index``'s box (of ``area``) lies on the other boxes, as a share of it."""
    if area <= 0:
        return 1.0
    box = np.asarray(readings[index].box, np.float32)
    overlap = sum(cv2.intersectConvexConvex(box, np.asarray(r.box, np.float32))[0]
                  for j, r in enumerate(readings) if j != index)
    return float(overlap) / area


def _inside_a_row_of_the_hand(readings: list[TileReading], rows: list[list[list[int]]]) -> set[int]:
    """The tiles that lie inside a group of a row, between two tiles at least one of which is no
    flower (a box across the seam of two concealed tiles, or between a meld and the flowers laid
    against it)."""
    inside = set()
    for group in (group for row in rows for group in row):
        for left, middle, right in zip(group, group[1:], group[2:]):
            if readings[left].code not in _FLOWERS or readings[right].code not in _FLOWERS:
                inside.add(middle)
    return inside


def phantom_flowers(readings: list[TileReading], image_size: tuple[int, int],
                    rows: list[list[list[int]]]) -> tuple[int, ...]:
    """The indices of doubtful flowers (``PHANTOM_FLOWER_BELOW``) whose box runs past the photo's
    edge, lies mostly on other boxes, or lies inside a row's group next to a tile that is no
    flower (``rows`` from ``layout.rows_and_groups``; flowers are laid aside, not inside the
    hand's rows): boxes of no tile, or of a tile the photo cuts off."""
    doubtful = [i for i, r in enumerate(readings) if r.code in _FLOWERS and r.confidence < PHANTOM_FLOWER_BELOW]
    if not doubtful:
        return ()
    between = _inside_a_row_of_the_hand(readings, rows)
    areas = quad_areas(np.stack([np.asarray(r.box, np.float64) for r in readings]))
    side = math.sqrt(median(areas))
    width, height = image_size
    phantoms = []
    for i in doubtful:
        box = np.asarray(readings[i].box, float)
        to_edge = min(box[:, 0].min(), box[:, 1].min(), width - box[:, 0].max(), height - box[:, 1].max())
        if (to_edge < EDGE_MARGIN * side or i in between
                or _covered_share(readings, i, float(areas[i])) >= PHANTOM_FLOWER_COVER):
            phantoms.append(i)
    return tuple(phantoms)
