"""Second looks at a photo: its tiles stood upright when they stand tilted, looked for finer when
the finder's first pass saw them too small, and a quarter turned, when the reading of them
expects tiles wrong or missing.

The finder learnt tiles standing in rows across the photo. Rows slanting across the photo it
misses more of the further they slant (``tilt``); a hand photographed from the side of the table
(its tiles a quarter turned, in a column) it marks in pieces or misses, and its maps are not the
same turned (``docs/benchmarks.md``, session 35: the better of the photo as it is and turned a
quarter would find 95.7 % of fold 4's tiles against 92.7 %). A hand spanning a small part of a
phone photo it sees at its working size as blobs of several tiles, whose size misleads every
later search (session 45). Nothing in the finder's boxes says which look is better; the reading
does, through the confidences it gives its tiles:

1. ``tilt.tilted_turn``: when most of the first look's boxes agree on a slant of more than
   ``tilt.UPRIGHT_WITHIN``, the photo is looked at again turned to stand them upright
   (``located_turned``: the finder's boxes on that part of the turned photo, ``turned_photo``,
   turned back into the photo's own frame and refined on the photo itself), and that look is read
   first (the turn a quarter off it too when it reads no tiles or a hand short of tiles or
   expecting a fault: blobs of several tiles mislead whether the boxes stand or lie,
   ``_read_upright``); the look as taken is read too only when this reading expects a fault
   (step 2), and kept only when worth more (step 5). The reading kept is the first reading of
   steps 2, 3 and 5 (a far hand's first pass sees blobs, whose slant can be any); not of step 4:
   its tiles were stood upright already.
2. ``worth_a_second_look``: the first reading's hand expects at least one tile wrong or missing
   (``expected_faults``: each face's chance of being wrong, 1 - its confidence, and the tiles it
   lacks for the smallest hand the rules allow). A hand the reader is sure of is not looked at again.
   A photo read for labelling (every tile its own reading, all "in the hand") is judged alike, with
   no hand size to be short of.
3. Tiles seen too small (``seen_too_small``: a hand short of the smallest the rules allow, or
   of a few tiles when they ask no size, ``short_of_tiles``; or tiles that would still be no
   larger than the finder's scale, ``locate.REFIND_SHORT``, seen twice as fine), in a photo with
   the pixels, when the reading expects a fault or is short of tiles: ``read_finer`` reads the
   photo with the finder's first pass at ``FINER_SIDE``, twice its working size (tilted tiles
   found there stood upright first, step 1). A photo whose first look read no tiles gets this
   look too, and is refused only when it reads none either.
4. Tiles upright or sideways (not tilted): ``located_turned`` on the whole photo turned a quarter
   clockwise, and for a far hand (``small_in_photo``) on the part of it around the first look's
   boxes too (``read_quarter_turned``); the reader reads the boxes as any boxes, and picks the
   hand in the photo's own frame (the rows nearest the camera). A photo whose first look the
   "shows tiles?" check refused, and the finer look read none either, gets the whole photo's
   look too, kept when the two looks judged together show tiles (``_read_turned_judged_with``).
5. ``better``: asked for a win, a reading whose hand the rules accept
   (``PhotoReading.hand_accepted``) is worth more than one whose hand they do not; otherwise, or
   between two alike, a reading is worth its hand's tiles' expected right less expected wrong
   (each tile ``2 * confidence - 1``). A second reading replaces the first only when it is worth
   more. Counting tiles alone, a look that took a wall's white sides into the hand as white
   dragons outweighed the look whose hand was complete.

``read_either_way`` runs them for the reader (``read_finer``: step 3; ``read_quarter_turned``: steps 4, 5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np
from fanscan.scoring.tiles import BACK
from fanscan.vision import finder, geometry
from fanscan.vision.detections import TileDetections
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import FEW_TILES, REFIND_SHORT, locate, short_sides
from fanscan.vision.refine import refined_and_split
from fanscan.vision.numeric import median
from fanscan.vision.photo_reading import PhotoReading
from fanscan.vision.tile_photo import TilesNotShown
from fanscan.vision.tilt import quarter_off, tilted_turn
from fanscan.vision.turned_photo import TurnedPhoto, window_around
from fanscan.errors import FanscanError

FAULTS_WORTH_A_LOOK = 1.0
"""A second look is taken when the first reading's hand expects at least one tile wrong or missing."""

Read = TypeVar("Read", bound=tuple)


def located_turned(photo: Photo, degrees: float = 90.0, window: tuple[int, int, int, int] | None = None,
                   ) -> tuple[np.ndarray, TileDetections]:
    """``locate``'s boxes found on the photo turned ``degrees`` clockwise (``window`` of it), in
    the photo's own frame and refined on it, and the image the finder saw (turned)."""
    view = TurnedPhoto(photo, degrees, window)
    small, found = locate(view, refine=False)  # type: ignore[arg-type]  # less specks already
    back = TileDetections(view.turned_back(found.quads), found.scores, found.backs)
    return small, refined_and_split(photo, back)


def expected_faults(reading: PhotoReading, rules: HandRules) -> float:
    """The faces of the reading's hand expected wrong (1 - confidence each) plus the tiles it lacks
    for the smallest hand ``rules`` allow (none when they ask no size; flowers counted as tiles: a
    hand that shows flowers lacks none for them). A face-down tile's confidence is the finder's
    that a tile lies there (``tile_reading``), no reading of a face, and is left out of the sum."""
    hand = [t for t in reading.tiles if t.in_hand]
    misread = sum(1.0 - t.confidence for t in hand if t.code != BACK)
    return float(misread) + max(0, smallest_hand(rules) - len(hand))


def smallest_hand(rules: HandRules) -> int:
    """The fewest tiles a hand ``rules`` allow shows (0 when they ask no size)."""
    return 0 if rules.kind == "any" else min(rules.sizes) - (rules.kind == "waiting")


def worth_a_second_look(reading: PhotoReading, rules: HandRules) -> bool:
    """Whether the reading leaves enough in doubt to read the photo another way too."""
    return expected_faults(reading, rules) >= FAULTS_WORTH_A_LOOK


def net_worth(reading: PhotoReading) -> float:
    """The hand's tiles expected right less those expected wrong."""
    return float(sum(2.0 * t.confidence - 1.0 for t in reading.tiles if t.in_hand))


def better(second: PhotoReading, first: PhotoReading, rules: HandRules | None = None) -> bool:
    """Whether the second reading is worth more than the first (step 5; a tie keeps the first).
    Whether the rules accept the hand counts where they ask for a complete hand (``rules`` None:
    a win, the reader's default); a hand waiting to win is found too easily among a photo's tiles
    (``hand_splits.worth_cutting``) to outweigh surer tiles."""
    if (rules is None or rules.kind == "win") and second.hand_accepted != first.hand_accepted:
        return second.hand_accepted
    return net_worth(second) > net_worth(first)


def read_turned(photo: Photo, first: PhotoReading | None, read_located: Callable[[TileDetections], Read],
                degrees: float = 90.0, window: tuple[int, int, int, int] | None = None,
                rules: HandRules | None = None) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The finder's image, boxes and reading (``read_located``'s answer, its ``PhotoReading``
    first) of the photo turned ``degrees`` (``window`` of it), when that reading is worth more
    than ``first`` (any reading, without a first); else None (also when its boxes read as no
    tiles, or its decodes would pass the read's budget)."""
    try:
        small, turned = located_turned(photo, degrees, window)
        second = read_located(turned)
    except FanscanError:  # no tiles that way, or the decodes it asked for would pass the read's budget
        return None
    return (small, turned, second) if first is None or better(second[0], first, rules) else None


def read_quarter_turned(photo: Photo, first: PhotoReading, boxes: TileDetections,
                        read_located: Callable[[TileDetections], Read], rules: HandRules | None = None,
                        ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """Step 4: the whole photo turned a quarter (``read_turned``); for a far hand
    (``small_in_photo``) also the part of it around the first look's ``boxes`` turned, which the
    finder's first pass sees at the tiles' own scale where the whole photo's shows specks (a far
    hand's quarter-turned look at the whole photo found its tiles only when that pass found almost
    nothing and ``locate`` looked finer). The worthiest reading that beats ``first``, or None."""
    turned = read_turned(photo, first, read_located, rules=rules)
    if not small_in_photo(photo, hand_quads(first)):
        return turned
    best = first if turned is None else turned[2][0]
    return read_turned(photo, best, read_located, window=window_around(photo, 90.0, boxes), rules=rules) or turned


def _read_far_turned(photo: Photo, boxes: TileDetections, read_located: Callable[[TileDetections], Read],
                     ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The look a quarter turned at the part of the photo around ``boxes`` when they are small in
    it and lie together, one cluster (``geometry.clusters``): a far hand whose first look read as
    no tiles, a column of sideways tiles seen as blobs. None otherwise, or when that look reads no
    tiles either. Boxes in several clusters, scattered over the photo as a picture of noise's
    are, made the part around them the whole photo: a look at the whole photo turned, the second
    chance the reader denies a refused photo (``read_either_way``), and the read's largest pass."""
    if not small_in_photo(photo, boxes.quads) or len(set(geometry.clusters(list(boxes.quads)))) > 1:
        return None
    return read_turned(photo, None, read_located, window=window_around(photo, 90.0, boxes))


def _read_turned_judged_with(photo: Photo, boxes: TileDetections, refused: FanscanError,
                             read_located: Callable[[TileDetections], Read],
                             ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The look at the whole photo turned a quarter, for a photo whose first look's ``boxes`` the
    "shows tiles?" check ``refused`` (``tile_photo.TilesNotShown``, at its probability): kept when
    the two looks, judged together, show tiles: the mean of the two probabilities at least a half,
    so the turned look must reach one less the first's. Judged alone, a second look is a second
    draw for noise (docs/benchmarks.md, sessions 36 and 80); a quarter-turned hand whose first
    look the check doubted reads surely turned (session 84). Only for a first look of a hand's
    boxes or more (``locate.FEW_TILES``): a look of a box or two found no hand turned the wrong
    way, and a one-box look is the check's least sure (a picture of noise, one box each way).
    None when it reads no tiles so judged."""
    if not isinstance(refused, TilesNotShown) or len(boxes) < FEW_TILES:  # no boxes at all, or no hand in doubt
        return None
    bar, photo.shows_tiles_from = photo.shows_tiles_from, 1.0 - refused.probability
    try:
        return read_turned(photo, None, read_located)
    finally:
        photo.shows_tiles_from = bar


def _read_upright(photo: Photo, boxes: TileDetections, read_located: Callable[[TileDetections], Read],
                  rules: HandRules) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The finder's image, boxes and reading of the part of the photo around ``boxes`` turned to
    stand its tilted tiles upright (``tilted_turn``); None when they are not tilted, or when that
    look finds or reads no tiles (or would pass the read's budget). The boxes' slant is sure, but
    which of the two turns a quarter apart stands the tiles upright comes from whether the boxes
    are taller than wide, and a blob of several tiles is wider than a tile: when the look at the
    first turn reads no tiles, or a hand short of tiles (``short_of_tiles``) or expecting a fault
    (``worth_a_second_look``), the other is read too and the worthier reading kept."""
    degrees = tilted_turn(boxes)
    if degrees is None:
        return None
    upright = _upright_look(photo, boxes, degrees, read_located)
    if upright is None or doubtful(upright[2][0], rules):
        other = _upright_look(photo, boxes, quarter_off(degrees), read_located)
        if other is not None and (upright is None or better(other[2][0], upright[2][0], rules)):
            return other
    return upright


def _upright_look(photo: Photo, boxes: TileDetections, degrees: float, read_located: Callable[[TileDetections], Read],
                  ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The finder's image, boxes and reading of the part of the photo around ``boxes`` turned
    ``degrees``; None when that look finds or reads no tiles (or would pass the read's budget)."""
    try:
        small, upright = located_turned(photo, degrees, window_around(photo, degrees, boxes))
        return small, upright, read_located(upright)
    except FanscanError:
        return None


FINER_SIDE = 2 * finder.WORK_SIDE
"""The finer look's first pass: the finder's working size twice over (tiles 11-15 px wide in the
first pass, 22-30 px in it; its later searches at the tiles' own scale are ``locate``'s)."""


def doubtful(reading: PhotoReading, rules: HandRules) -> bool:
    """Whether the reading expects a fault (``worth_a_second_look``) or is short of tiles
    (``short_of_tiles``): what asks for the finer look and for the other upright turn."""
    return worth_a_second_look(reading, rules) or short_of_tiles(reading, rules)


def short_of_tiles(reading: PhotoReading, rules: HandRules) -> bool:
    """Whether the reading's hand has fewer tiles than the smallest hand ``rules`` allow, or than
    ``locate.FEW_TILES`` (no hand at all) when they ask no size."""
    return sum(t.in_hand for t in reading.tiles) < max(FEW_TILES, smallest_hand(rules))


def seen_too_small(photo: Photo, reading: PhotoReading, rules: HandRules) -> bool:
    """Whether the finder's first pass may have seen the reading's hand too small to part its
    tiles: the hand is short of tiles (``short_of_tiles``: blobs of several tiles read as a few),
    or its tiles' median short side would span no more than the finder's scale
    (``locate.REFIND_SHORT``) in the finer first pass (larger, the finder marks pieces of faces)."""
    return short_of_tiles(reading, rules) or small_in_photo(photo, hand_quads(reading))


def hand_quads(reading: PhotoReading) -> np.ndarray:
    """The boxes (n, 4, 2) of the reading's hand."""
    return np.array([t.box for t in reading.tiles if t.in_hand], np.float32).reshape(-1, 4, 2)


def small_in_photo(photo: Photo, quads: np.ndarray) -> bool:
    """Whether boxes' median short side would span no more than the finder's scale
    (``locate.REFIND_SHORT``) in a first pass at ``FINER_SIDE``: tiles a small part of the photo
    (a far hand), which a first pass over the whole photo sees as specks."""
    return bool(len(quads)) and median(short_sides(quads)) * FINER_SIDE / max(photo.size) <= REFIND_SHORT


def read_finer(photo: Photo, first: PhotoReading | None, read_located: Callable[[TileDetections], Read],
               rules: HandRules, first_boxes: TileDetections | None = None,
               ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The finder's image, boxes and reading of the photo with the finder's first pass at
    ``FINER_SIDE`` (its tiles stood upright first when they stand tilted: step 1), when the photo
    has those pixels and that reading is worth more than ``first`` (any reading, when the first
    look read no tiles); else None (also when the finer look reads no tiles, or would pass the
    read's budget, or finds the first look's own boxes, ``first_boxes``: a far hand the first
    look searched finer already)."""
    if max(photo.size) < FINER_SIDE:
        return None
    try:
        small, found = locate(photo, first_side=FINER_SIDE, blobs_may_be_hands=True)
        if first_boxes is not None and np.array_equal(found.quads, first_boxes.quads):
            return None
        second = _read_tilted(photo, small, found, read_located, rules) or (small, found, read_located(found))
    except FanscanError:
        return None
    return second if first is None or better(second[2][0], first, rules) else None


def _read_tilted(photo: Photo, small: np.ndarray, boxes: TileDetections,
                 read_located: Callable[[TileDetections], Read], rules: HandRules,
                 ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """Step 1 on one look's boxes: None when its tiles are not tilted; else the upright look's
    image, boxes and reading, unless that reading expects a fault and the look as taken
    (``small``, ``boxes``) reads worth more."""
    upright = _read_upright(photo, boxes, read_located, rules)
    if upright is None:
        return None
    if worth_a_second_look(upright[2][0], rules):
        try:
            as_taken = read_located(boxes)
        except FanscanError:
            return upright
        if better(as_taken[0], upright[2][0], rules):
            return small, boxes, as_taken
    return upright


def read_either_way(photo: Photo, small: np.ndarray, boxes: TileDetections,
                    read_located: Callable[[TileDetections], Read], rules: HandRules,
                    ) -> tuple[np.ndarray, TileDetections, Read]:
    """Steps 1-5 for the reader: the finder's image, the boxes and ``read_located``'s reading of
    them. The first reading is the upright look's when the tiles are tilted (step 1: unless it
    expects a fault and the look as taken, ``small`` and ``boxes``, reads worth more), else the
    look as taken's. When it expects a fault, the finer look (when its tiles were seen too small)
    replaces it if it reads worth more; then, for tiles that were not tilted, the quarter-turned
    look. The finer look is a tilted reading's too: a far hand's first pass sees blobs, whose
    slant can be any (a far column of sideways tiles stood "upright" at 53 degrees read 9 of its
    14 tiles, the finer look all 14); the quarter-turned look is not (a hand stood upright is no
    hand a quarter turned, and on the real photos it changed as many tiles for the worse as for
    the better, docs/benchmarks.md, session 83).
    A look as taken whose boxes read as no tiles is refused (``no_tiles``) unless the finer look
    reads tiles, or, for boxes small in the photo and lying together, the look a quarter turned
    around them (``_read_far_turned``), or, for boxes the "shows tiles?" check doubted, the whole
    photo a quarter turned judged together with them (``_read_turned_judged_with``; that look is
    step 4's, not taken again): the check is fitted for a first look, and a quarter-turned second
    chance judged alone let more pictures of noise through (the upright look of tilted tiles, the
    finer look and the far look turned are first looks at another angle or scale of the part
    holding the boxes; docs/benchmarks.md, sessions 44, 45, 65, 82 and 84)."""
    looked_finer = turned_already = False
    tilted = _read_tilted(photo, small, boxes, read_located, rules)
    if tilted is not None:
        small, boxes, first = tilted
    else:
        try:
            first = read_located(boxes)
        except FanscanError as refused:
            again = read_finer(photo, None, read_located, rules, boxes) or _read_far_turned(photo, boxes, read_located)
            if again is None:  # step 4's look, then not taken again
                again, turned_already = _read_turned_judged_with(photo, boxes, refused, read_located), True
            if again is None:
                raise
            (small, boxes, first), looked_finer = again, True
    if (not looked_finer and doubtful(first[0], rules) and seen_too_small(photo, first[0], rules)
            and (finer := read_finer(photo, first[0], read_located, rules, boxes))):
        small, boxes, first = finer
    if tilted is None and not turned_already and worth_a_second_look(first[0], rules):
        turned = read_quarter_turned(photo, first[0], boxes, read_located, rules)
        if turned is not None:
            return turned
    return small, boxes, first
