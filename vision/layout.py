"""The layout analyser: from classified tiles to rows, groups and the declared hand.

1. The hand's frame: ``right`` runs the way each tile's nearest neighbour lies (tiles touch along
   their rows), ``up`` is perpendicular to it. A tile whose aspect ratio along the row is far
   above the typical tile's lies sideways: the claimed tile of an exposed meld.
2. Rows: tiles are sorted along ``up``; a jump of more than half a tile height starts a new row.
3. Groups: along a row, measured through the tiles' centres, a gap of more than a fifth of the
   narrower neighbour separates groups.
4. Roles: flower tiles go to ``flowers`` wherever they lie; a group with a sideways tile is an
   exposed chow, pung or kong; back, face, face, back (or four backs) is a concealed kong; the
   largest other group is the concealed hand; a single tile standing apart at the end of the
   concealed row is the winning tile; any other group that forms a set is read as an exposed meld
   laid without a sideways tile, with the concealed reading as an alternative.
5. Doubts: everything the analyser had to guess is said in a sentence a player can act on, and
   where two readings are plausible the other one is returned as an alternative hand.
"""

from __future__ import annotations

import copy

import numpy as np
from fanscan.scoring.hand import DEFAULT_WIN_CONDITIONS
from fanscan.scoring.tiles import BACK, TILE_CODES
from fanscan.vision.numeric import median
from fanscan.vision.detections import HandLayout, LayoutGroup, TileReading

_FLOWERS = set(TILE_CODES[34:])
GAP_ABOVE = 0.2
"""Neighbours in a row further apart than touching tiles by this share of the narrower one's
width are in different groups."""
UNDERSIZED_BELOW = 0.9
"""A box narrower along the row than this share of its row neighbours' median width (itself and
two each side) is taken as that wide when gaps are measured: the finder sometimes cuts a face
short, and a short box opened a gap inside a concealed row (a set read as declared)."""
_ORDER = {code: i for i, code in enumerate(TILE_CODES)}


# --- geometry ---------------------------------------------------------------------------------


def _axes(quad: np.ndarray) -> tuple[np.ndarray, float, float]:
    """(unit long axis, long side, short side) of a quad."""
    a = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
    b = ((quad[2] - quad[1]) + (quad[3] - quad[0])) / 2
    la, lb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if la >= lb:
        return a / max(la, 1e-6), la, lb
    return b / max(lb, 1e-6), lb, la


NEIGHBOUR_NEAR = 1.5
"""A tile's nearest neighbour counts for the hand's frame only within this many times the median
nearest-neighbour distance (strays far from the hand lie far from everything)..."""
FRAME_AGREES = np.radians(25)
"""...and, in a second estimate, only when its direction lies within this of the first one's (a
flower laid above the row's end, or a row's end beside the next row, point across the row)."""


def hand_frame(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(right, up) unit vectors of the hand in image coordinates (y down); up points up the image.

    Tiles touch their neighbours along the row, so the row runs the way each tile's nearest
    neighbour lies (``NEIGHBOUR_NEAR``, ``FRAME_AGREES``). A tile's own long axis is no guide: a
    camera tilted 45 degrees makes an upright tile look wider than high. A lone tile falls back
    to its long axis.
    """
    if len(quads) >= 2:
        centres = quads.mean(axis=1)
        offsets = centres[None, :, :] - centres[:, None, :]
        distances = np.linalg.norm(offsets, axis=2)
        np.fill_diagonal(distances, np.inf)
        nearest = np.argmin(distances, axis=1)
        near = distances[np.arange(len(quads)), nearest]
        steps = offsets[np.arange(len(quads)), nearest][near <= NEIGHBOUR_NEAR * median(near)]
        angles = 2 * np.arctan2(steps[:, 1], steps[:, 0])  # doubled: a direction and its opposite agree
        first = np.arctan2(np.sin(angles).sum(), np.cos(angles).sum())
        agree = np.abs(np.angle(np.exp(1j * (angles - first)))) <= 2 * FRAME_AGREES
        if agree.any():
            angles = angles[agree]
        angle = np.arctan2(np.sin(angles).sum(), np.cos(angles).sum()) / 2 + np.pi / 2
    else:
        axis = _axes(quads[0])[0]
        angle = np.arctan2(axis[1], axis[0])
    up = np.array([np.cos(angle), np.sin(angle)])
    if up[1] > 0 or (abs(up[1]) < 1e-6 and up[0] > 0):
        up = -up
    right = np.array([-up[1], up[0]])
    return right, up


def sideways_flags(quads: np.ndarray, right: np.ndarray, up: np.ndarray) -> list[bool]:
    """Which tiles lie across their row: wider along the row, for their height, than the typical tile.

    A tile's aspect ratio (its chord through the centre along the row over the one across it) is
    compared with the median tile's rather than with a fixed bound, because a camera tilted 45
    degrees makes an upright tile look nearly square; the ratio of the two does not depend on the
    tile's distance. A claimed tile's ratio is about 1.8 times an upright one's at any tilt.
    Chords, not the quads' whole extents, because perspective slants a claimed tile's sides: on
    scenes 100-199 the extents misjudged 2 tiles' boxes, the chords none.
    """
    aspect = []
    for quad in quads:
        lo, hi = chord(quad, right)
        bottom, top = chord(quad, up)
        aspect.append((hi - lo) / max(top - bottom, 1e-6))
    typical = median(aspect)
    return [bool(a > 1.4 * typical) for a in aspect]


def orient_box(quad: np.ndarray, face_up: np.ndarray) -> np.ndarray:
    """The quad's corners in the face's TL, TR, BR, BL order, for a face whose top points ``face_up``."""
    face_right = np.array([-face_up[1], face_up[0]])
    rel = quad - quad.mean(axis=0)
    s, t = rel @ face_right, -(rel @ face_up)  # t grows downwards on the face
    angles = np.degrees(np.arctan2(t, s))  # TL -135, TR -45, BR 45, BL 135
    targets = (-135.0, -45.0, 45.0, 135.0)
    order = []
    for target in targets:
        diff = np.abs((angles - target + 180) % 360 - 180)
        diff[order] = np.inf
        order.append(int(np.argmin(diff)))
    return quad[order].astype(np.float32)


def orientation_degrees(face_up: np.ndarray) -> float:
    """Counter-clockwise rotation of a face whose top points ``face_up`` (image coords, y down)."""
    return float(np.degrees(np.arctan2(-face_up[0], -face_up[1])) % 360)


# --- rows and groups --------------------------------------------------------------------------


def chord(quad: np.ndarray, direction: np.ndarray) -> tuple[float, float]:
    """Where the line through the quad's centre along ``direction`` enters and leaves it, as
    positions along ``direction``. Unlike the quad's whole extent this ignores the slant that
    perspective gives a face's sides, which would make neighbouring tiles seem to overlap."""
    points = [(float(x), float(y)) for x, y in quad]
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    dx, dy = float(direction[0]), float(direction[1])
    hits = []
    # Plain floats: this runs for every tile in every grouping, and numpy's per-call cost on
    # 2 x 2 systems was most of the layout's time.
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        ex, ey = x1 - x0, y1 - y0
        det = ex * dy - dx * ey
        if abs(det) < 1e-9:
            continue
        rx, ry = x0 - cx, y0 - cy
        u = (dx * ry - dy * rx) / det
        if -1e-6 <= u <= 1 + 1e-6:
            hits.append((ex * ry - ey * rx) / det)
    base = cx * dx + cy * dy
    if len(hits) < 2:
        along = [x * dx + y * dy for x, y in points]
        return min(along), max(along)
    return base + min(hits), base + max(hits)


def rows_and_groups(readings: list[TileReading], right: np.ndarray, up: np.ndarray) -> list[list[list[int]]]:
    """Rows (top of the hand first) of groups (left to right) of reading indices.

    Thresholds are relative to the tiles' extents in the hand's frame (a tile's height in the
    photo shrinks with the camera's tilt, its width along the row does not), and a gap is
    compared with the narrower of the two tiles beside it (tiles far from the camera look smaller).
    Each tile's span along the row is measured through its centre (``chord``).
    """
    boxes = [r.box for r in readings]
    centres = np.array([b.mean(axis=0) for b in boxes])
    across = np.array([np.ptp(b @ up) for b in boxes])
    row_height = median(across)
    heights = centres @ up
    order = np.argsort(-heights)
    rows: list[list[int]] = [[int(order[0])]]
    for index in order[1:]:
        if heights[rows[-1][-1]] - heights[index] > 0.5 * row_height:
            rows.append([])
        rows[-1].append(int(index))
    spans_by_row = [sorted((*chord(boxes[index], right), index) for index in row) for row in rows]
    scale = _box_scale(spans_by_row)
    result = []
    for spans in spans_by_row:
        widths = _widths_for_gaps([stop - start for start, stop, _ in spans])
        groups = [[spans[0][2]]]
        for k, ((start0, stop0, _), (start, stop, index)) in enumerate(zip(spans, spans[1:])):
            distance = (start + stop - start0 - stop0) / 2
            touching = scale * (widths[k] + widths[k + 1]) / 2
            if distance - touching > GAP_ABOVE * scale * min(widths[k], widths[k + 1]):
                groups.append([])
            groups[-1].append(index)
        result.append(groups)
    return result


def _widths_for_gaps(widths: list[float]) -> list[float]:
    """Each box's width along its row, raised to ``UNDERSIZED_BELOW`` of its neighbourhood's
    median (itself and two each side: tiles further from the camera look narrower, so the whole
    row's median would not do)."""
    out = []
    for k, width in enumerate(widths):
        near = widths[max(0, k - 2) : k + 3]
        out.append(max(width, UNDERSIZED_BELOW * median(near)) if len(near) >= 3 else width)
    return out


def _box_scale(spans_by_row: list[list[tuple[float, float, int]]]) -> float:
    """How much wider the tiles lie than their boxes: the median, over neighbours in a row, of
    the distance between their centres over their mean width. Most neighbours touch, so this is
    the boxes' own size error (the finder's boxes run 5-20 % small on some photos, and a fixed
    share of the box width would then open gaps between touching tiles)."""
    ratios = [
        (start + stop - start0 - stop0) / (stop0 - start0 + stop - start)
        for spans in spans_by_row
        for (start0, stop0, _), (start, stop, _) in zip(spans, spans[1:])
        if stop0 > start0 and stop > start
    ]
    if len(ratios) < 3:
        return 1.0
    return float(np.clip(median(ratios), 0.8, 1.4))


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
        # side first, then two (a concealed kong whose both backs stand apart: seed 7183).
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


def _describe(codes: list[str]) -> str:
    return " ".join(codes)


# --- the analysis -----------------------------------------------------------------------------


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
) -> HandLayout:
    """Group the readings and work out the declared hand, with doubts and alternative readings.
    ``rows`` (from ``rows_and_groups``, which needs only the boxes) saves working them out again
    when the same tiles are analysed with other codes."""
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

    plain_groups = _repair_groups(plain_groups, codes, readings)
    groups: list[LayoutGroup] = []
    if flowers:
        groups.append(LayoutGroup(tuple(flowers), row_of[flowers[0]], "flowers"))
    melds: list[dict] = []
    free: list[tuple[int, list[int]]] = []
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
                doubts.append(
                    f"The group {_describe(member_codes)} has a sideways (claimed) tile but is not "
                    "a chow, pung or kong: check those tiles; they were counted as concealed."
                )
                free.append((row_index, members))
            continue
        free.append((row_index, members))

    if not free:
        hand["melds"] = melds
        layout_groups = tuple(groups)
        doubts.append("No concealed tiles were found.")
        return HandLayout(layout_groups, hand, (), tuple(doubts), _group_of(layout_groups, len(readings)))

    # The concealed hand: the largest free group; the winning tile: a single tile beside its row's end.
    main_index = max(range(len(free)), key=lambda k: (len(free[k][1]), -k))
    main_row, main_members = free[main_index]
    win: int | None = None
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
        doubts.append(
            f"The tile standing apart ({codes[win]}) is left of the concealed tiles; it was taken "
            "as the winning tile."
        )
    concealed = list(main_members)
    groups.append(LayoutGroup(tuple(main_members), main_row, "concealed"))
    if win is not None:
        groups.append(LayoutGroup((win,), main_row, "win"))

    set_groups: list[tuple[int, list[int], str, list[str]]] = []
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
                doubts.append(
                    f"The tiles {_describe(member_codes)} stand apart but do not form a set; they "
                    "were counted as concealed tiles."
                )
            else:
                doubts.append(
                    f"The row {_describe(member_codes)} is not a chow, pung or kong; its tiles "
                    "were counted as concealed tiles."
                )
    for row_index, members, kind, tiles in set_groups:
        meld = {"type": kind, "tiles": tiles, "concealed": False}
        melds.append(meld)
        groups.append(LayoutGroup(tuple(members), row_index, "meld", meld))

    hand["melds"] = melds
    hand["concealed"] = [codes[i] for i in concealed] + ([codes[win]] if win is not None else [])
    backs = [i for i in concealed if codes[i] == BACK]
    if backs:
        doubts.append(
            f"{len(backs)} face-down tile(s) lie among the concealed tiles: turn them face up and "
            "take the photo again."
        )
        hand["concealed"] = [c for c in hand["concealed"] if c != BACK]
    if win is not None:
        hand["win_tile"] = codes[win]
    elif hand["concealed"]:
        last = hand["concealed"][-1]
        hand["win_tile"] = last
        doubts.append(
            f"No tile stands apart as the winning tile, so the last concealed tile ({last}) was "
            "taken; put the winning tile a little apart at the right end, or pick another reading."
        )
        for code in dict.fromkeys(hand["concealed"][:-1]):
            if code != last:
                other = copy.deepcopy(hand)
                other["win_tile"] = code
                alternatives.append((f"winning tile {code}", other))

    # Sets laid apart without a sideways tile may be concealed tiles merely spaced out.
    for _, members, kind, tiles in set_groups:
        other = copy.deepcopy(hand)
        other["melds"] = [m for m in other["melds"] if m["tiles"] != tiles or m["type"] != kind]
        win_code = other["concealed"].pop()
        other["concealed"] += [codes[i] for i in members] + [win_code]
        alternatives.append((f"{_describe(tiles)} as concealed tiles, not a declared {kind}", other))
        doubts.append(
            f"The {kind} {_describe(tiles)} lies apart without a sideways tile: it was read as "
            "declared (exposed); if it is part of the concealed hand, use the alternative reading."
        )

    count = len(hand["concealed"]) + 3 * len(hand["melds"])
    if count % 3 != 2:
        doubts.append(
            f"The photo shows {count} playing tiles (a kong counted as three), which cannot be a "
            "complete hand: look for a tile that is missing, hidden or read twice."
        )
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
