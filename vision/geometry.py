"""The hand's geometry: which way its rows run, which tiles lie sideways, rows and groups.

1. The hand's frame (``hand_frame``): ``right`` runs the way each tile's nearest neighbour lies
   (tiles touch along their rows), ``up`` is perpendicular to it. A tile whose extent along the
   row is far above the typical tile's lies sideways (``sideways_flags``): the claimed tile of an
   exposed meld.
2. Orientation: a box's corners put in its face's order for a given "up" (``orient_box``,
   ``orient_boxes`` for many at once), and
   that up as degrees (``orientation_degrees``).
3. Rows (``rows_and_groups``): tiles within half a tile height of each other along ``up`` and
   within a cluster's reach along the row (``CLUSTER_REACH``) lie in one row, and so do those
   linked through them. Groups: along a row, measured through the tiles' centres, a gap of
   more than ``GAP_ABOVE`` of the narrower neighbour separates groups.
4. Clusters (``clusters``): boxes linked by nearness; a hand, a pile of discards or a wall apart
   from it each makes its own.
5. A cluster's own frame (``in_their_frame``): the one most of its tiles were read in.
Nothing here looks at a tile's face: the boxes alone decide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from fanscan.vision.detections import TileReading
from fanscan.vision.numeric import median

GAP_ABOVE = 0.2
"""Neighbours in a row further apart than touching tiles by this share of the narrower one's
width are in different groups."""
UNDERSIZED_BELOW = 0.9
"""A box narrower along the row than this share of its row neighbours' median width (itself and
two each side) is taken as that wide when gaps are measured: the finder sometimes cuts a face
short, and a short box opened a gap inside a concealed row (a set read as declared)."""


def _axes(quad: np.ndarray) -> tuple[np.ndarray, float, float]:
    """(unit long axis, long side, short side) of a quad."""
    a = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
    b = ((quad[2] - quad[1]) + (quad[3] - quad[0])) / 2
    la, lb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if la >= lb:
        return a / max(la, 1e-6), la, lb
    return b / max(lb, 1e-6), lb, la


TOUCHING_REACH = 1.25
"""A tile touching another on any side, along a row, across two rows or corner to corner, has the
other's centre within about this many of its own lengths (a row's neighbour lies a tile's width
off, about 0.75 lengths; the next row's a length; a diagonal one 1.25)."""


def lone_tiles(quads: np.ndarray) -> np.ndarray:
    """Which tiles touch no other: no other tile's centre within ``TOUCHING_REACH`` of their own
    long side (a discard lying on its own, a tile photographed alone)."""
    quads = np.asarray(quads, np.float64)
    if len(quads) < 2:
        return np.ones(len(quads), bool)
    centres = quads.mean(axis=1)
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    return distances.min(axis=1) > TOUCHING_REACH * _long_sides(quads)


def _long_sides(quads: np.ndarray) -> np.ndarray:
    """Each quad's longer side (of its first two edges)."""
    return np.maximum(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1),
                      np.linalg.norm(quads[:, 2] - quads[:, 1], axis=1))


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
    camera tilted 45 degrees makes an upright tile look wider than high. Two boxes each holding
    the other's centre are one tile boxed twice (a face, and the face with its side), not neighbours. A lone tile (or one tile's
    boxes alone) falls back to its long axis.
    """
    steps = np.empty((0, 2))
    if len(quads) >= 2:
        centres = quads.mean(axis=1)
        offsets = centres[None, :, :] - centres[:, None, :]
        distances = np.linalg.norm(offsets, axis=2)
        distances[_overlapping(quads, centres)] = np.inf  # a second box of one tile is no neighbour
        nearest = np.argmin(distances, axis=1)
        near = distances[np.arange(len(quads)), nearest]
        has = np.isfinite(near)
        if has.any():
            steps = offsets[np.arange(len(quads)), nearest][has & (near <= NEIGHBOUR_NEAR * median(near[has]))]
    if len(steps):
        angles = 2 * np.arctan2(steps[:, 1], steps[:, 0])  # doubled: a direction and its opposite agree
        first = np.arctan2(np.sin(angles).sum(), np.cos(angles).sum())
        agree = np.abs(np.angle(np.exp(1j * (angles - first)))) <= 2 * FRAME_AGREES
        if agree.any():
            angles = angles[agree]
        angle = np.arctan2(np.sin(angles).sum(), np.cos(angles).sum()) / 2 + np.pi / 2
    else:
        axis = _axes(quads[0])[0]
        angle = np.arctan2(axis[1], axis[0])
    up = up_the_photo(np.array([np.cos(angle), np.sin(angle)]))
    right = np.array([-up[1], up[0]])
    return right, up


def _overlapping(quads: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Pairs (i, j) of boxes each holding the other's centre (a box with itself included)."""
    edges = np.roll(quads, -1, axis=1) - quads  # (n, 4, 2)
    to_centres = centres[None, :, None, :] - quads[:, None, :, :]  # (n, m, 4, 2)
    cross = edges[:, None, :, 0] * to_centres[..., 1] - edges[:, None, :, 1] * to_centres[..., 0]
    holds = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    return holds & holds.T


def up_the_photo(direction: np.ndarray) -> np.ndarray:
    """``direction`` or its opposite, whichever points up the photo (image y falls); of two that
    run straight across it, the one pointing left. The classifier reads a face either way up
    alike (it learnt crops turned 180 degrees), so which of two opposite frames a cluster is read
    in is the camera's to say: a player photographs the tiles facing them."""
    if direction[1] > 0 or (abs(direction[1]) < 1e-6 and direction[0] > 0):
        return -direction
    return direction


def sideways_flags(quads: np.ndarray, right: np.ndarray, up: np.ndarray) -> list[bool]:
    """Which tiles lie across their row: wider along the row, for their height, than the typical tile.

    A tile's aspect ratio (its chord through the centre along the row over the one across it) is
    compared with the median tile's rather than with a fixed bound, because a camera tilted 45
    degrees makes an upright tile look nearly square; the ratio of the two does not depend on the
    tile's distance. A claimed tile's ratio is about 1.8 times an upright one's at any tilt.
    Chords, not the quads' whole extents, because perspective slants a claimed tile's sides: on
    100 generated scenes the extents misjudged 2 tiles' boxes, the chords none.
    """
    along, across = chords(quads, right), chords(quads, up)
    aspect = (along[:, 1] - along[:, 0]) / np.maximum(across[:, 1] - across[:, 0], 1e-6)
    typical = median(aspect)
    return [bool(a > 1.4 * typical) for a in aspect]


def ways_up(up: np.ndarray, right: np.ndarray, sideways: list[bool], scattered: bool = False,
            ) -> list[list[np.ndarray]]:
    """The ways up each tile of a frame (``up``, ``right``) is read in: an upright tile the
    frame's up, a sideways one both ways across it and, third, upright (a tile laid flat beyond a
    standing hand is as wide for its height as a claimed tile; ``way_priors``). Tiles
    ``scattered`` (none touching another, ``lone_tiles``) have no row to set their frame, each
    lying at its own angle: each is read
    both quarter turns, each way's up pointing up the photo (the classifier learnt faces either
    way up, never a quarter turned, so the wrong quarter turn reads less surely)."""
    if scattered:
        return [[up, up_the_photo(right)] for _ in sideways]
    return [[-right, right, up] if side else [up] for side in sideways]


UPRIGHT_THOUGH_WIDE = (0.0, 4.0)
"""(a, b): a tile wider than its row's (``sideways_flags``) is read upright after all only when
its upright look's log-odds beat its surest sideways look's by more than a + b log(L), L its
length along the row over the frame's median tile's. In a laid-down hand such a tile is mostly a
claimed tile lying sideways, as long along the row as the others are high (L about 1.35; its
face a quarter turned, a bamboo's upright cut may read as dots); a tile laid flat beyond a hand
standing on edge, seen from the seat, is as wide for its height but no longer along the row (L
about 1), its face upright. Fitted (``models/fit_upright_prior.py``) on the looks at tiles so
flagged in generated scenes (standing, cluttered and riichi-win hands, seeds 300000-300399):
the pair that reads the most of them the right way up with the right face (session 62: 1,449 of
1,607; refitted in session 68 on that day's reader, the rule then also weighing a face read
alike either way: 1,485 of 1,613, never upright 1,397; ``docs/benchmarks.md``)."""


def way_priors(quads: np.ndarray, tiles: Sequence[int], ways: Sequence[Sequence[np.ndarray]]) -> list[list[float]]:
    """Each way's prior log-odds for the ``tiles`` (indices into ``quads``, a frame's boxes) in
    ``ways_up``'s ``ways``: minus ``UPRIGHT_THOUGH_WIDE``'s margin for the upright third way of a
    tile flagged sideways, none for any other."""
    a, b = UPRIGHT_THOUGH_WIDE
    lengths: dict[tuple[float, float], np.ndarray] = {}  # along each row direction asked
    out = []
    for t, tile_ways in zip(tiles, ways):
        if len(tile_ways) != 3:
            out.append([0.0] * len(tile_ways))
            continue
        along = tuple(map(float, tile_ways[1]))
        if along not in lengths:
            spans = chords(quads, np.asarray(along)) @ np.array([-1.0, 1.0])
            lengths[along] = spans / max(median(spans), 1e-6)
        out.append([0.0, 0.0, -(a + b * float(np.log(max(lengths[along][t], 1e-3))))])
    return out


def read_sideways(sideways: list[bool], picks: list[int]) -> list[bool]:
    """Which tiles of a frame (not scattered) were read lying sideways: flagged so, and read best
    in one of ``ways_up``'s two ways across the row, not in its third, upright."""
    return [side and pick < 2 for side, pick in zip(sideways, picks)]


def orient_box(quad: np.ndarray, face_up: np.ndarray) -> np.ndarray:
    """The quad's corners in the face's TL, TR, BR, BL order, for a face whose top points ``face_up``."""
    return orient_boxes(quad[None], np.asarray(face_up)[None])[0]


_FACE_CORNER_ANGLES = (-135.0, -45.0, 45.0, 135.0)  # TL, TR, BR, BL with t growing downwards


def orient_boxes(quads: np.ndarray, face_ups: np.ndarray) -> np.ndarray:
    """``orient_box`` for many quads (n, 4, 2) at once, each with its own up (n, 2): each face
    corner in turn takes the nearest remaining corner by angle about the quad's centre."""
    quads = np.asarray(quads)
    face_ups = np.asarray(face_ups)
    if len(quads) == 0:
        return np.zeros((0, 4, 2), np.float32)
    face_rights = np.stack([-face_ups[:, 1], face_ups[:, 0]], axis=1)
    rel = quads - quads.mean(axis=1, keepdims=True)
    s = np.einsum("nkd,nd->nk", rel, face_rights)
    t = -np.einsum("nkd,nd->nk", rel, face_ups)
    angles = np.degrees(np.arctan2(t, s))
    rows = np.arange(len(quads))
    taken = np.zeros(angles.shape, bool)
    order = np.empty((len(quads), 4), int)
    for corner, target in enumerate(_FACE_CORNER_ANGLES):
        diff = np.abs((angles - target + 180) % 360 - 180)
        diff[taken] = np.inf
        order[:, corner] = np.argmin(diff, axis=1)
        taken[rows, order[:, corner]] = True
    return quads[rows[:, None], order].astype(np.float32)


def orientation_degrees(face_up: np.ndarray) -> float:
    """Counter-clockwise rotation of a face whose top points ``face_up`` (image coords, y down)."""
    return float(np.degrees(np.arctan2(-face_up[0], -face_up[1])) % 360)


def face_up_of(orientation: float) -> np.ndarray:
    """The face's up (image coords) of a face turned ``orientation`` degrees (``orientation_degrees`` undone)."""
    angle = np.radians(orientation)
    return np.array([-np.sin(angle), -np.cos(angle)])


# --- rows and groups --------------------------------------------------------------------------


def chords(quads: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Where the line through each quad's centre along ``direction`` enters and leaves it, as
    positions along ``direction``: (n, 2) of (first, last) for quads (n, 4, 2). Unlike a quad's
    whole extent this ignores the slant that perspective gives a face's sides, which would make
    neighbouring tiles seem to overlap. A quad the line crosses fewer than twice (a degenerate
    one) gives its whole extent instead."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if not len(quads):
        return np.zeros((0, 2))
    x, y = quads[..., 0], quads[..., 1]
    # Summed corner by corner, as plain floats would be: the same numbers as one tile at a time.
    cx = (((x[:, 0] + x[:, 1]) + x[:, 2]) + x[:, 3]) / 4
    cy = (((y[:, 0] + y[:, 1]) + y[:, 2]) + y[:, 3]) / 4
    dx, dy = float(direction[0]), float(direction[1])
    ex, ey = np.roll(x, -1, axis=1) - x, np.roll(y, -1, axis=1) - y  # each side, corner i to i + 1
    det = ex * dy - dx * ey
    rx, ry = x - cx[:, None], y - cy[:, None]
    crossing = np.abs(det) >= 1e-9
    safe = np.where(crossing, det, 1.0)
    u = (dx * ry - dy * rx) / safe
    hit = crossing & (u >= -1e-6) & (u <= 1 + 1e-6)
    t = (ex * ry - ey * rx) / safe
    base = cx * dx + cy * dy
    along = x * dx + y * dy
    enough = hit.sum(axis=1) >= 2
    first = np.where(enough, base + np.where(hit, t, np.inf).min(axis=1), along.min(axis=1))
    last = np.where(enough, base + np.where(hit, t, -np.inf).max(axis=1), along.max(axis=1))
    return np.stack([first, last], axis=1)


def rows_and_groups(readings: list[TileReading], right: np.ndarray, up: np.ndarray) -> list[list[list[int]]]:
    """Rows (top of the hand first) of groups (left to right) of reading indices.

    Thresholds are relative to the tiles' extents in the hand's frame (a tile's height in the
    photo shrinks with the camera's tilt, its width along the row does not), and a gap is
    compared with the narrower of the two tiles beside it (tiles far from the camera look smaller).
    Each tile's span along the row is measured through its centre (``chords``).
    """
    boxes = [r.box for r in readings]
    centres = np.array([b.mean(axis=0) for b in boxes])
    across = np.array([np.ptp(b @ up) for b in boxes])
    reach = CLUSTER_REACH * median(_long_sides(np.stack(boxes)).tolist())
    rows = _rows(centres @ up, centres @ right, 0.5 * median(across), reach)
    spans = chords(np.stack(boxes), right).tolist()
    spans_by_row = [sorted((*spans[index], index) for index in row) for row in rows]
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


CLUSTER_REACH = 3.5
"""Tiles whose centres lie within this many tile lengths belong to one cluster (``clusters``)."""


def _rows(heights: np.ndarray, along: np.ndarray, step: float, reach: float) -> list[list[int]]:
    """Rows of tile indices, the highest (by mean height) first: two tiles lie in one row when
    their heights differ by at most ``step`` and their centres lie within ``reach`` along the
    rows, and so do the tiles linked through such pairs. A jump in height along the row starts a
    new row; tiles far along it link through their neighbours only, so that tiles lying apart (a
    hand's flowers, at a height between two rows of a hand slanting in the photo) do not bridge
    two rows."""
    near = (np.abs(heights[:, None] - heights[None]) <= step) & (np.abs(along[:, None] - along[None]) <= reach)
    row = _linked(near)
    members: dict[int, list[int]] = {}
    for i in np.argsort(-heights, kind="stable"):
        members.setdefault(row[i], []).append(int(i))
    return sorted(members.values(), key=lambda m: -float(np.mean(heights[m])))


def _linked(near: np.ndarray) -> list[int]:
    """Each item's component (the index of its first item) under the symmetric links ``near``
    (n x n booleans): items linked directly or through others are one component."""
    component = -np.ones(len(near), int)
    for start in range(len(near)):
        if component[start] >= 0:
            continue
        component[start], todo = start, [start]
        while todo:
            i = todo.pop()
            for j in np.nonzero(near[i] & (component < 0))[0]:
                component[j] = start
                todo.append(int(j))
    return component.tolist()


def clusters(boxes: list[np.ndarray]) -> list[int]:
    """Each box's cluster (the index of its cluster's first box): boxes whose centres lie within
    ``CLUSTER_REACH`` tile lengths (the median box's long side) are linked, and linked boxes are
    one cluster. A hand's rows and groups lie closer than that; another player's tiles, a wall or
    the discards lie further off."""
    quads = np.asarray(boxes)
    centres = quads.mean(axis=1)
    reach = CLUSTER_REACH * median(_long_sides(quads))
    return _linked(np.linalg.norm(centres[:, None] - centres[None], axis=2) <= reach)


def large_clusters(boxes: list[np.ndarray], at_least: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Each box's cluster (``clusters``), each box's cluster's size, and the clusters of at least
    ``at_least`` boxes (their first boxes' indices, in order)."""
    cluster = np.array(clusters(boxes))
    sizes = np.bincount(cluster, minlength=len(boxes))
    # sorted(set()), not np.unique: numpy 2 imports numpy.ma on np.unique's first call (40 ms)
    return cluster, sizes[cluster], [c for c in sorted(set(cluster.tolist())) if sizes[c] >= at_least]


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


def in_their_frame(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
                   ) -> tuple[list[TileReading], np.ndarray, np.ndarray]:
    """The hand's readings with their positions along its rows, and its frame: the one most of its
    tiles were read in (``TileReading.frame_up``; ``up`` when none says), not the photo's."""
    ups = Counter(r.frame_up for r in readings if r.frame_up is not None)
    if not ups:
        return readings, right, up
    up = np.array(ups.most_common(1)[0][0])
    right = np.array([-up[1], up[0]])
    return [r.placed_along(right) for r in readings], right, up
