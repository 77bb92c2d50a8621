"""The photo reader: a phone photo of a declared hand in, the hand JSON (as far as it shows) out.

1. ``image_io`` opens the photo (EXIF orientation, pixel limit) and decodes it at a reduced scale;
   meanwhile, once a process, the sessions of the models after the finder open in a thread
   (``session_opening``; once the file is known to be a photo; the process waits for them before
   it ends).
2. ``locate`` runs the ``finder`` on that small copy for every tile's top face, then again on the
   hand's region at the scale the finder knows best (a close-up's smaller copy instead, when its
   boxes read as tiles better: ``tile_reading.read_quality``); ``refine`` moves each box onto its
   face's corners. Under a colour cast beyond the balance's reach the photo is located again in
   black and white, and kept so when those boxes read better (``white_balance.better_in_grey``).
3. ``tile_reading``: ``geometry.hand_frame`` works out which way the rows run and which tiles lie
   sideways; each face is cut from the smallest decode that still shows it in detail
   (``Photo.crop_quad``, perspective corrected, upright), white-balanced on the tile bodies and
   classified (a doubtful crop also turned 180 degrees, inside the classifier); possible flowers
   get a second look (``flowers``); sideways tiles are tried turned both ways, and when the tiles
   read poorly the whole hand is tried a quarter turn off (never upside down: which way up is the
   camera's to say, ``geometry.up_the_photo``); each cluster of tiles (a hand, a pile of
   discards) is read in its own frame (``frame_groups``). A box the classifier reads as more
   likely no tile than a tile is dropped (``tiles_only``);
   ``tile_photo`` refuses a photo of a hand whose boxes read like no tiles (a floor, a grid); the
   boxes read as flowers are given distinct flowers, one set's (``flower_set``).
4. ``hand_region``: the player's hand is told from the other tiles the photo shows (``in_hand``:
   the rows of touching tiles nearest the camera); the others are kept, marked not in the hand.
   The hand (or, read for labelling, every tile) is laid out in its tiles' frame, or read again in
   its own rows' frame where those run another way (``own_frame``), its sideways tiles judged
   again there (``read_sideways_again``), its doubtful faces read again cut as its typical tile
   (``typical_cut``); read as no hand the rules allow (step 6),
   ``hand_splits`` cuts it along its weakest joins, up to three times, or, short of any hand,
   ``hand_joins`` joins up to three clusters apart likeliest linked to it (flat melds beyond a row).
5. Probes: a gap in the hand's rows (read for labelling, any rows') with room for one tile is
   classified (``row_gaps``), beside two equal faces apart the slots of a concealed kong's backs
   (``hand_region.probe_backs``), and, for a hand still short, beyond its rows' ends (``row_ends``).
6. ``interpret``: the search over readings of the hand's boxes (which are tiles, each one's face)
   under the fitted ``evidence`` and the rule set's hand sizes; ``layout.analyse`` makes its
   groups, melds, winning tile and doubts.
7. The ``PhotoReading`` (``photo_reading``): every tile found (those apart given flowers the hand
   does not hold: ``flower_set``), the hand, other readings, the ``doubts``; ``annotate`` draws it.
8. ``second_looks``: when most boxes of step 2 agree on a slant (``tilt``), steps 2-7 are first
   run on the finder's boxes of the photo turned to stand them upright; a reading that expects a
   tile or more of its hand (or of every tile, read for labelling) wrong or missing is read again
   the other way (the photo as taken; for a hand the finder's first pass saw too small, with that
   pass twice as fine; for upright tiles turned a quarter); the worthier is kept.
9. ``memory``: when the read leaves the process holding more than its budget, the memory it freed
   goes back to the system.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fanscan.vision import (debug_images, doubts, flower_set, flowers, geometry, hand_joins, hand_region, hand_splits, layout,
                            memory, own_frame, row_ends, row_gaps, session_opening, tile_photo, second_looks, white_balance)
from fanscan.vision.detections import TileDetections, TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo, load_photo
from fanscan.vision.hand_rules import HandKind, HandRules, hand_rules
from fanscan.vision.interpret import MAX_LAYOUTS, HandRead, read_hand
from fanscan.vision.locate import locate
from fanscan.vision.read_arguments import check_read_arguments
from fanscan.vision.photo_reading import FoundTile, PhotoReading, hand_of_layout
from fanscan.vision.tile_reading import read_quality, read_sideways_again, read_tiles, tiles_only
from fanscan.vision.typical_cut import read_doubtful_again
from fanscan.errors import FanscanError

__all__ = ["FoundTile", "PhotoReading", "hand_of_layout", "read_photo"]

interpret_hand = read_hand
"""The step that makes the hand's readings a hand (a module attribute, so a recorder can stand in)."""


def _found(reading: TileReading, group: int, in_hand: bool = True) -> FoundTile:
    return FoundTile(reading.code, reading.confidence, tuple((float(x), float(y)) for x, y in reading.box),
                     reading.orientation, group, in_hand)


def _photo_reading(photo: Photo, read: HandRead, apart: list[TileReading],
                   rules: HandRules) -> PhotoReading:
    """The answer: the hand's tiles (with their groups) then those apart, the hand, the other
    readings and the doubts."""
    hand_layout = read.layout
    tiles = [_found(r, hand_layout.group_of[i]) for i, r in enumerate(read.readings)]
    tiles += [_found(r, -1, in_hand=False) for r in apart]
    groups = [{"role": g.role, "tiles": list(g.members), **({"meld": g.meld} if g.meld else {})}
              for g in hand_layout.groups]
    return PhotoReading(
        tiles=tiles,
        hand=hand_of_layout(hand_layout.hand),
        alternatives=[(d, hand_of_layout(h)) for d, h in
                      [*doubts.runner_up_alternatives(read), *hand_layout.alternatives]],
        doubts=doubts.ranked(read, rules, apart),
        image_size=photo.size,
        groups=groups,
        left_out=[_found(r, -1, in_hand=False) for r, _ in read.left_out],
        hand_accepted=read.best is not None and read.best.satisfied,
        _photo=photo,
    )


def read_photo(
    source: str | os.PathLike[str] | bytes,
    *,
    classifier: Any = None,
    debug_dir: str | os.PathLike[str] | None = None,
    one_hand: bool = True,
    flower_looks: bool | FlowerLooks = True,
    rules: str | None = None,
    hand: HandKind = "win",
    hand_size: int | None = None,
) -> PhotoReading:
    """Read a photo of a declared hand. Raises FanscanError ``not_found``, ``unreadable_image``,
    ``image_too_large`` or ``no_tiles``. The hand is the rows of touching tiles nearest the camera
    (``in_hand``, slivers set aside first: ``slivers``); every other tile found stays in
    ``tiles`` with ``in_hand`` False (after the hand's, group -1), read as its own face.
    ``one_hand=False`` (a photo of any tiles: grids, piles, several hands, e.g. for labelling)
    reads every tile as one layout (read again as a hand's are: step 4), each keeping its own
    reading: no copy limits, no completing the hand, nothing left out, every tile ``in_hand``.
    ``rules`` (a rule set's name) gives the hand's size (by default any rule set's, or a
    16-tile game's); ``hand`` says what the photo shows: a ``win`` (a complete hand), a hand
    ``waiting`` to win (one tile short), or ``any`` (no size asked); ``hand_size`` asks for a
    complete hand of that many tiles whatever the rule set (17: a 16-tile game's).
    ``flower_looks=False`` skips the second looks at possible flowers (``vision.flowers``); a
    ``FlowerLooks`` gives them with other models (the shipped ones by default). Afterwards the
    memory the read freed goes back to the system if the process holds too much (``memory``)."""
    check_read_arguments(source, classifier, debug_dir, hand_size)
    try:
        return _read(source, classifier, debug_dir, one_hand, flower_looks, hand_rules(rules, hand, hand_size))
    finally:
        memory.hand_back_if_over()


def _read(source: str | os.PathLike[str] | bytes, classifier: Any, debug_dir: str | os.PathLike[str] | None,
          one_hand: bool, flower_looks: bool | FlowerLooks, wanted: HandRules) -> PhotoReading:
    """Steps 1-8 of the overview above."""
    if classifier is None:
        from fanscan.vision.classifier import default_classifier

        classifier = default_classifier()
    looks: FlowerLooks | None = (flower_looks if isinstance(flower_looks, FlowerLooks)
                                 else flowers.default_flower_looks() if flower_looks else None)
    photo = load_photo(source)  # refuses a file that is no photo before any session opens
    session_opening.open_meanwhile(classifier, looks)
    judge = read_quality(photo, classifier, looks)
    small, detections = locate(photo, judge=judge)
    if photo.beyond_reach:  # a cast the balance could not take out: the photo read in grey too
        small, detections = white_balance.better_in_grey(photo, (small, detections),
                                                         lambda: locate(photo, judge=judge), judge)

    def read_found(found: TileDetections) -> tuple[PhotoReading, HandRead]:
        return _read_located(photo, found, classifier, looks, one_hand, wanted)

    looked_for = wanted if one_hand else HandRules(wanted.sizes, "any")  # every tile: no hand to be short of
    small, detections, (reading, read) = second_looks.read_either_way(photo, small, detections, read_found, looked_for)
    if debug_dir is not None:
        debug_images.write(Path(debug_dir), photo, small, detections, reading, read.readings)
    return reading


def _read_located(photo: Photo, detections: TileDetections, classifier: Any, looks: FlowerLooks | None,
                  one_hand: bool, wanted: HandRules) -> tuple[PhotoReading, HandRead]:
    """Steps 3-7 on the boxes ``locate`` found."""
    readings, right, up = read_tiles(photo, detections, classifier, looks) if len(detections) else ([], None, None)
    if not (readings := tiles_only(readings)):
        raise FanscanError("no_tiles", f"no mahjong tiles were found in {photo.name}")
    if one_hand:  # a photo to label keeps every box
        tile_photo.refuse_unless_tiles(readings, photo.name, photo.shows_tiles_from)
    readings = hand_region.without_duplicates(readings)
    readings, apart = hand_region.hand_and_apart(readings, up, photo.size) if one_hand else (readings, [])  # to label: all
    readings = row_gaps.probe_gaps(photo, readings, right, up, classifier, looks)

    def read_part(part: list[TileReading], most_layouts: int = MAX_LAYOUTS,
                  read_again: bool = True) -> tuple[HandRead, list[TileReading]]:  # the tiles searched: in order
        part, part_right, part_up = geometry.in_their_frame(part, right, up)
        if read_again:  # a cut of a hand read whole keeps its tiles as read there
            part, part_right, part_up = own_frame.read_in_own_frame(photo, part, part_right, part_up, classifier, looks)
            part = read_sideways_again(photo, part, part_right, part_up, classifier, looks)
            part = read_doubtful_again(photo, part, part_right, part_up, classifier, looks)
        rows = geometry.rows_and_groups(part, part_right, part_up)
        probed = hand_region.probe_backs(photo, part, rows, part_right, classifier)
        if len(probed) > len(part):
            part, rows = probed, geometry.rows_and_groups(probed, part_right, part_up)
        if one_hand:
            return interpret_hand(part, part_right, part_up, rows, photo.size, wanted, most_layouts), part
        return HandRead(part, rows, layout.analyse(part, part_right, part_up, rows), [], []), part

    read, searched = read_part(readings)
    cut = one_hand and hand_splits.worth_cutting(read, wanted) and hand_splits.first_complete(
        readings, up, wanted, lambda p, n: read_part(p, n, False)[0], searched[: len(readings)])
    if cut:
        read, apart = cut[0], cut[1] + apart
    elif one_hand and hand_joins.worth_joining(read, wanted):  # short: the clusters apart, else beyond its ends
        joined = hand_joins.first_complete(searched[: len(readings)], apart, up, wanted,
                                           lambda p, n: read_part(p, n)[0], photo.size)
        read, apart = joined or (row_ends.read_with_ends(read, photo, apart, right, up, classifier, looks, read_part), apart)
    apart = flower_set.one_of_each_flower(apart, frozenset(r.code for r in read.readings)) if one_hand else apart
    return _photo_reading(photo, read, apart, wanted), read
