"""Where the tiles are: the finder run on the right copies of a photo, boxes in full-size pixels.

A first pass on the photo shrunk to the finder's working size says where the hand lies and how
large its tiles are; the hand's region is searched again at the scale the finder separates
touching tiles best (``REFIND_SHORT``; the size of the tiles of the cluster nearest the camera,
never enlarged past the photo's own pixels nor below the first pass's scale), again while the
tiles found there give another scale than the one searched at (``REFIND_PASSES``, a far hand
``FAR_REFIND_PASSES``). A hand too far to see at the working size (a first pass of a few small
boxes) is first looked for on finer copies of the whole photo (``_farther``); a hand whose tiles
the first pass saw too small to part (blobs of several tiles, which disagree in size) is
searched again twice as fine (``_unresolved_finer``). A close-up, whose large faces the network
marks in pieces (the boxes disagree in size), is read on a smaller copy where they agree, when
the reader's judge finds those boxes read as tiles better than the plain search's. Boxes
far smaller than the typical tile are dropped, and the rest moved onto their faces' corners by
the box refiner (``refine``); a box that holds two tiles side by side is cut in two
(``split_pairs``) and the halves refined. The photo is decoded once, at the scale its crops
will likely need, and the finder's copy shrunk from that.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from fanscan.vision import camera_mending, finder, geometry, white_balance
from fanscan.vision.box_shapes import without_specks
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import inside_any, median, quad_areas
from fanscan.vision.refine import refined_and_split

CROP_MIN_SIDE = 72
"""Crops come from the coarsest decode in which a tile's short side still spans this many pixels."""
TILES_ACROSS = 20
"""A photo's long side spans about this many tiles' short sides when the hand fills it."""
REFIND_SHORT = 36
"""The hand is searched again at a scale where a tile's short side spans this many pixels."""
REFIND_MAX_SIDE = 1280
"""...but on an image of at most this long side (a close-up of a few large tiles)."""
REFIND_PASSES = 2
"""The hand's region is searched again while the tiles found there ask for a scale more than
``SAME_SCALE`` from the one searched at, at most this many times: the first pass's boxes were
whole tiles, and one search corrects their size's error..."""
FAR_REFIND_PASSES = 4
"""...but a far hand's (``_farther``) were blobs of whole rows, whose size asks for a smaller
scale than its tiles': each search sees them nearer the finder's scale, and tiles 22 px wide
take four (0.45, 0.66, 1.2, then 1.6 times the photo's pixels). Past ``REFIND_PASSES`` only while
its scale keeps moving one way: a step back is the noise of a size read from whole tiles, around
which a hand searched on drifts with the cluster taken for it (searched four times, busy tables'
hands seen at the working size did: folds 0-3 laid at 70 px a tile, 6 exact photos fewer)."""
REGION_ALONG = 4.0
REGION_ACROSS = 1.5
"""The region searched again reaches this many tile short sides beyond the found tiles along the
hand's rows, and across them: the tiles a first pass misses lie mostly at the rows' ends (seen
at the near end of far, slanted hands)."""
TILE_SIZED = 0.1
"""A box found in the region searched again counts only when its area is at least this share of
the median tile's found before: a patterned cloth taken in by the wider region can give dozens of
specks of texture, whose size would set the next search's scale; a share of 0.3 dropped half the
tiles of a far hand whose first-pass boxes were large."""
SAME_SCALE = 0.15
"""The hand is searched again only at a scale whose log differs by more than this from the last
search's (the first pass's, then the first search again's: the tiles it found give their size
better than the first pass's did), and never at a scale smaller than the first pass's, which found
the tiles whole (on the real close-ups a search at half the first pass's scale lost 1-4 of a grid's
36 tiles, and the enlarged one is capped at the photo's own pixels: ``_refind_region``)."""
HAND_CLUSTER = 3
"""A cluster of at least this many boxes (a set) may be the hand whose tiles set the scale of the
search again (``_nearest_cluster``)."""
FEW_TILES = 5
"""A first pass that finds fewer boxes than this has found no hand (a hand shows 13 tiles or more):
the photo is searched again finer (``_farther``), for a hand too far to see at the finder's working
size (its tiles a few pixels wide there: a hand 20 px a tile in a 12 MP photo is 3 px)..."""
FINER_SIDES = (2 * finder.WORK_SIDE, 4 * finder.WORK_SIDE)
"""...at these long sides (the finder's working size twice and four times over: a tile's short
side of 20-40 px in a 4,000 px photo then spans 13-26 px)."""
FAR_ENLARGE = 2.0
"""A hand found only on a finer copy (``_farther``: its tiles under the finder's scale even at the
photo's own pixels) is searched again at the finder's scale past the photo's own pixels, enlarged
up to this factor (the finer copies' own step); a hand found at the working size never is (on the
photos read at their own size, enlarged searches lost tiles: ``_refind_region``)."""
CLOSE_UP_SIDES = (400, 256, 160)
"""Long sides of the smaller copies searched when the boxes found at the finder's working size
disagree in size (a close-up whose tiles are too large for the network)."""
SPREAD_AGREES = 0.3
"""Boxes found at the finder's working size whose log areas spread less than this are taken to be
whole tiles..."""
CLOSE_UP_MIN_SHORT = 18
"""A smaller copy counts only while a tile's short side still spans this many of its pixels."""
CLOSE_UP_AGREES = 0.5
"""...and a smaller copy replaces it only when its boxes spread less than this, and clearly less."""

BoxJudge = Callable[[TileDetections], float]
"""How well a set of boxes (the photo's pixels) reads as tiles: higher is better."""


def find_scale(photo: Photo, side: int = finder.WORK_SIDE) -> int:
    """The coarsest decode scale whose picture still has ``side`` pixels along its long side."""
    return next((scale for scale in (8, 4, 2) if max(photo.size) / scale >= side), 1)


def likely_crop_scale(photo: Photo) -> int:
    """The decode scale the crops will probably be cut from, for a hand that spans most of the
    photo (a tile's short side about 1/``TILES_ACROSS`` of the long side)."""
    short = max(photo.size) / TILES_ACROSS
    for scale in (8, 4, 2):
        if short / scale >= CROP_MIN_SIDE:
            return scale
    return 1


def short_sides(quads: np.ndarray) -> np.ndarray:
    """Each quad's shortest side (n, 4, 2 -> n)."""
    sides = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2)
    return sides.min(axis=1)


def tile_size_spread(detections: TileDetections) -> float:
    """``_size_spread`` of the boxes less specks (``without_specks``): one speck of shadow between
    two groups, found as an 11-px face-down blob among 30-px tiles, spread the bundled sample's
    boxes to 0.49 and sent a hand of whole tiles down the close-up path (searched three times)."""
    return _size_spread(without_specks(detections).quads)


def _size_spread(quads: np.ndarray) -> float:
    """Standard deviation of the log areas of the quads: low when every box is one whole tile."""
    if len(quads) < 3:
        return float("inf")
    return float(np.std(np.log(np.maximum(quad_areas(quads), 1e-6))))


def locate(photo: Photo, refine: bool = True, first_side: int = finder.WORK_SIDE, blobs_may_be_hands: bool = False,
           judge: BoxJudge | None = None) -> tuple[np.ndarray, TileDetections]:
    """Tiles in full-resolution pixels, and the working image they were found on.

    A first pass on the whole photo says where the hand lies and how large its tiles are; the
    hand's region is then searched again at the scale the finder separates touching tiles best
    (``_refind``), once more when the tiles found there still are not at that scale (a first pass
    that merged or split tiles misjudges their size). ``refine=False`` returns the finder's boxes
    as found, before the box refiner. On 40 generated scenes the tiles found (a box
    with IoU > 0.5 to the truth) rose from 560 to 611 of 639. A first pass that found no hand,
    only a few small boxes, gives way to a finer one (``_farther``); a close-up (``_close_up``) is
    read on the smaller copy where its boxes agree. ``first_side``: the first pass's long side
    (the finder's working size; ``second_looks.read_finer`` asks for twice it).
    ``blobs_may_be_hands``: a first pass's few large boxes may be blobs of a far hand's tiles
    rather than a close-up's tiles (``_farther``; the finer look asks it, its reading weighed
    against the first look's).
    ``judge``: how well a set of boxes reads as tiles (``tile_reading.read_quality``); given, a
    close-up's boxes are kept only when it prefers them to those of the search at the first pass's
    own scale (a hand of whole tiles beside walls and backs also finds boxes that disagree in size).
    """
    scale = find_scale(photo, first_side)
    # Decoding first at the crops' likely scale makes one decode serve both (the finder's copy is
    # shrunk from it): 12 MP, 35 + 55 ms -> 60 ms.
    photo.decode(decode_scale := min(scale, likely_crop_scale(photo)))
    small, detections = whole_photo_pass(photo, scale, first_side)
    seen = without_specks(detections)
    if camera_mending.mended(photo, small, decode_scale, seen if _hand_seen(seen, blobs_may_be_hands) else None):
        small, detections = whole_photo_pass(photo, scale, first_side)
        seen = without_specks(detections)
    # A pass that saw no hand judges no light: a rack's, a table edge's or far rows' colour is no tile's.
    if _hand_seen(seen, blobs_may_be_hands) and white_balance.balanced_for_cast(photo, small, seen):
        small, detections = whole_photo_pass(photo, scale, first_side)
    decoded_width = photo.size_at(scale)[0]
    to_photo, back_factor = photo.width / decoded_width, decoded_width / small.shape[1]
    close: tuple[np.ndarray, TileDetections] | None = None
    if (far := _farther(photo, small, detections, blobs_may_be_hands)) is not None:
        # A far hand's blobs can disagree in size as a close-up's pieces do: no close-up path.
        small, detections, first_scale = far
    else:
        if (copy := _close_up(photo.decode(scale), detections)) is not None:
            close = copy[0], _kept(photo, copy[1].scaled(copy[2] * to_photo), refine)
            if judge is None:
                return close
        detections = detections.scaled(back_factor * to_photo)
        first_scale = small.shape[1] / photo.width
    # The first pass searched the photo at its own scale: any region of it searched at about
    # that scale would give the same tiles, and at a smaller one fewer (it found them whole there;
    # a close-up whose faces it split is ``_close_up``'s).
    searched_at = first_scale
    enlarge = FAR_ENLARGE if far is not None else 1.0
    step = 0.0  # the last search's change of scale (log)
    for done in range(FAR_REFIND_PASSES if far is not None else REFIND_PASSES):
        if len(detections) < 3:
            break
        region = _refind_region(photo, detections, enlarge)
        if region is None or region[2] < first_scale or abs(np.log(region[2] / searched_at)) < SAME_SCALE:
            if searched_at == first_scale and (finer := _unresolved_finer(photo, detections, region, first_scale, enlarge)):
                small, detections, searched_at = finer  # its boxes, whole tiles, set the next search's scale
                continue
            break
        move = float(np.log(region[2] / searched_at))
        if done >= REFIND_PASSES and move * step < 0:  # a step back: the size's noise, not blobs resolving
            break
        again_image, again = _refind(photo, *region)
        again = again.subset(quad_areas(again.quads) >= TILE_SIZED * median(quad_areas(detections.quads)))
        if len(again) < 3:
            break
        small, detections, searched_at, step = again_image, again, region[2], move
    plain = small, _kept(photo, detections, refine)
    return close if close is not None and judge is not None and judge(close[1]) > judge(plain[1]) else plain


def whole_photo_pass(photo: Photo, scale: int, side: int) -> tuple[np.ndarray, TileDetections]:
    """The photo's copy of long side ``side`` shrunk from its decode at 1/``scale``, and the
    finder's boxes on that copy (in its pixels). A pass made on this photo before is not made
    again (``Photo.finder_passes``): a photo of no hand takes the finer look, whose first pass and
    finer passes are those the first look made (a 12 MP picture of noise: a 2,560 px pass). The
    decode is let go before the finder runs (a photo turned keeps no turned decode)."""
    small, _ = finder.working_image(photo.decode(scale), side)
    key = (scale, side)
    if key not in photo.finder_passes:
        found = finder.find_tiles(small)
        for array in (found.quads, found.scores, found.backs):
            array.flags.writeable = False  # shared by every look that asks for this pass
        photo.finder_passes[key] = found
    return small, photo.finder_passes[key]


def _unresolved_finer(photo: Photo, detections: TileDetections,
                      region: tuple[np.ndarray, np.ndarray, float] | None, first_scale: float,
                      enlarge: float = 1.0) -> tuple[np.ndarray, TileDetections, float] | None:
    """The hand's region searched at twice the first pass's scale (``first_scale``), when the
    first pass's boxes disagree in size (``SPREAD_AGREES``: not whole tiles) and the tile size
    read from them sent no search again (``region``: ``_refind_region``'s). Tiles 11-15 px wide in
    the first pass came out as blobs of several tiles, larger than a tile every way, whose size
    said the first pass's scale was right (a phone photo whose hand spans a small part of it;
    docs/benchmarks.md, session 44). The photo must have the pixels (twice as fine is never past
    ``enlarge`` times its own pixels: once for a hand seen at the working size, ``FAR_ENLARGE``
    for a far one, as ``_refind_region``), and the finer look is kept only when its boxes agree
    in size better.
    Returns the image searched, its boxes (those of at least ``TILE_SIZED`` of their own median
    area: the blobs are no measure of a tile) and the scale searched at; else None."""
    if region is None or 2 * first_scale > enlarge or _size_spread(detections.quads) <= SPREAD_AGREES:
        return None
    lo, hi, _ = region
    scale = min(2 * first_scale, REFIND_MAX_SIDE / float(max(hi - lo)))
    if scale <= first_scale:
        return None
    image, finer = _refind(photo, lo, hi, scale)
    finer = finer.subset(quad_areas(finer.quads) >= TILE_SIZED * median(quad_areas(finer.quads)))
    if len(finer) < 3 or _size_spread(finer.quads) >= _size_spread(detections.quads):
        return None
    return image, finer, scale


def _farther(photo: Photo, small: np.ndarray, detections: TileDetections, blobs_may_be_hands: bool = False,
             ) -> tuple[np.ndarray, TileDetections, float] | None:
    """A hand too far for the finder's working size: when the first pass (``detections``, on
    ``small``) found fewer than ``FEW_TILES`` boxes, not all of them as large as the scale the
    finder separates tiles at (``REFIND_SHORT``: a close-up's few large tiles need no finer
    look; as in ``_refind_region``, never finer than that), the whole photo is searched at
    ``FINER_SIDES`` (never past its own pixels), and the first pass kept that finds
    ``FEW_TILES`` boxes outside the large boxes found first (searched finer, a large tile comes
    out in pieces; a stray large box elsewhere must not hide a far hand). When none does and the
    first pass saw no tile whole, the finest pass's few boxes are searched around
    (``_around_blobs``). Returns the image the finder saw, its boxes in the photo's pixels and
    the scale it saw the photo at, or None.
    ``blobs_may_be_hands``: no box is taken for a close-up's large tile (the hand of 36 tiles
    22 px wide in a 4,000 px photo is one box of 36 px at 640 px)."""
    found = without_specks(detections)
    if _hand_seen(found, blobs_may_be_hands):
        return None
    large = np.zeros(len(found), bool) if blobs_may_be_hands else short_sides(found.quads) >= REFIND_SHORT
    seen_whole = found.quads[large] * np.float32(photo.width / small.shape[1])
    blobs = None
    for side in FINER_SIDES:
        if side > max(photo.size):
            break
        if side <= max(small.shape[:2]):  # the first pass looked this fine already
            continue
        scale = next((c for c in (8, 4, 2) if max(photo.size) / c >= side), 1)
        fine, found = whole_photo_pass(photo, scale, side)
        to_photo = photo.width / fine.shape[1]
        blobs = without_specks(found).scaled(to_photo)
        blobs = blobs.subset(~inside_any(blobs.quads.mean(axis=1), seen_whole))
        if len(blobs) >= FEW_TILES:
            return fine, found.scaled(to_photo), 1 / to_photo
    if blobs is None or not len(blobs) or len(seen_whole):  # blobs beside tiles seen whole: no far hand
        return None
    return _around_blobs(photo, blobs)


def _hand_seen(found: TileDetections, blobs_may_be_hands: bool) -> bool:
    """Whether a first pass's boxes (less specks) show a hand: ``FEW_TILES`` or more, or a few
    all as large as the scale the finder separates tiles at (a close-up's few large tiles; none
    is so taken when ``blobs_may_be_hands``)."""
    if len(found) >= FEW_TILES:
        return True
    if not len(found) or blobs_may_be_hands:
        return False
    return bool((short_sides(found.quads) >= REFIND_SHORT).all())


def _around_blobs(photo: Photo, blobs: TileDetections) -> tuple[np.ndarray, TileDetections, float] | None:
    """A hand so far that the finest pass on the whole photo saw it as a few blobs (``blobs``, in
    the photo's pixels; tiles 22 px wide in a 4,000 px photo are 14 px in its 2,560 px pass,
    where the network marks a row of 17 as three blobs) searched again at the photo's own pixels
    (less when the region is larger than ``REFIND_MAX_SIDE``): the region ``_refind_region``
    gives around the blobs, whose size is no measure of a tile's. Returns the image searched, its
    boxes (the photo's pixels) and the scale, when they are ``FEW_TILES`` or more; else None."""
    region = _refind_region(photo, blobs)
    if region is None:
        return None
    lo, hi, _ = region
    scale = min(1.0, REFIND_MAX_SIDE / float(max(hi - lo)))
    image, found = _refind(photo, lo, hi, scale)
    return (image, found, scale) if len(without_specks(found)) >= FEW_TILES else None


def _kept(photo: Photo, detections: TileDetections, refine: bool) -> TileDetections:
    """The detections less specks and streaks, refined unless ``refine`` is false (``refined_and_split``)."""
    detections = without_specks(detections)
    return refined_and_split(photo, detections) if refine else detections


def _close_up(image: np.ndarray, detections: TileDetections) -> tuple[np.ndarray, TileDetections, float] | None:
    """The tiles of a close-up, found on a smaller copy of ``image``, or None for a photo whose
    tiles are not too large for the finder (``detections``: the first pass's, on ``image`` at the
    finder's working size).

    Where a tile's short side spans much more than the ~36 px the network learnt, it marks pieces
    of each face, and the boxes disagree in size (``tile_size_spread``). A smaller copy whose
    boxes agree (and still show the tiles large enough to judge) is read instead, without a
    second search: zooming back in would split the faces again. On the four real close-ups of
    camerash/untagged-photos (36 tiles each) this gave 36 boxes each instead of 76-260 (with the
    finder of session 12). Only a photo whose boxes are larger than that scale (their median
    short side above ``REFIND_SHORT``) is taken for a close-up: boxes that disagree in size at
    the finder's own scale are tiles near and far, backs and walls (of the 22 rf-chinese sources
    the spread alone sent down this path, the 11 with boxes no larger lost 66 tiles found to it,
    on 8 photos; the 11 with larger boxes read 9 tiles more right than without the path).
    """
    whole = without_specks(detections).quads
    spread = _size_spread(whole)  # tile_size_spread's, on the boxes already less specks
    if spread <= SPREAD_AGREES or median(short_sides(whole)) <= REFIND_SHORT:
        return None
    best = None
    for side in CLOSE_UP_SIDES:
        small, back_factor = finder.working_image(image, side)
        found = finder.find_tiles(small)
        if len(found) < 3 or median(short_sides(found.quads)) < CLOSE_UP_MIN_SHORT:
            break
        found_spread = _size_spread(found.quads)
        if found_spread <= min(CLOSE_UP_AGREES, spread - 0.15) and (best is None or found_spread < best[0]):
            best = (found_spread, small, found, back_factor)
    return None if best is None else best[1:]


def _refind_region(photo: Photo, detections: TileDetections, enlarge: float = 1.0,
                   ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The hand's region (top-left and bottom-right corners in full-size pixels) and the factor
    that shows a tile's short side there at ``REFIND_SHORT`` pixels (capped by
    ``REFIND_MAX_SIDE``, and at ``enlarge``, by default 1: the photo's own pixels, since an
    enlarged copy shows nothing the first pass did not see, only tiles blurred as the network
    never learnt them; on the held-out real photos, 640 px each, the enlarged searches lost 21 of
    the 1,528 labelled tiles found with the finder trained in session 18; a far hand's tiles, under
    the finder's scale at any of the photo's sizes, are worth it: ``FAR_ENLARGE``); None when the
    boxes give no tile size."""
    short = median(short_sides(detections.quads[_nearest_cluster(detections.quads)]))
    if short < 1:
        return None
    points = detections.quads.reshape(-1, 2)
    right, up = geometry.hand_frame(detections.quads)
    margin = short * (REGION_ALONG * np.abs(right) + REGION_ACROSS * np.abs(up))
    lo = np.maximum(points.min(axis=0) - margin, 0)
    hi = np.minimum(points.max(axis=0) + margin, np.array(photo.size, np.float64))
    return lo, hi, min(REFIND_SHORT / short, REFIND_MAX_SIDE / float(max(hi - lo)), enlarge)


def _nearest_cluster(quads: np.ndarray) -> np.ndarray:
    """Indices of the boxes of the cluster (``geometry.clusters``) of at least ``HAND_CLUSTER``
    boxes that reaches lowest in the photo: the hand, nearest the camera, whose tiles' size sets
    the scale of the search again; all boxes when no cluster is that large. Far discards or a
    wall, boxed smaller, had pulled the median of all boxes down and the hand was searched so
    large that its faces came out in halves."""
    if len(quads) < HAND_CLUSTER:
        return np.arange(len(quads))
    cluster, _, big = geometry.large_clusters(list(quads), HAND_CLUSTER)
    if not big:
        return np.arange(len(quads))
    lowest = quads.mean(axis=1)[:, 1]
    nearest = max(big, key=lambda c: (float(lowest[cluster == c].max()), -int(c)))
    return np.flatnonzero(cluster == nearest)


def _refind(photo: Photo, lo: np.ndarray, hi: np.ndarray, factor: float) -> tuple[np.ndarray, TileDetections]:
    """Search the region from ``lo`` to ``hi`` (full-size pixels) again, scaled by ``factor``;
    returns the searched image and the tiles found."""
    scale = next((c for c in (8, 4, 2) if factor * c <= 1.0), 1)
    fx = photo.size_at(scale)[0] / photo.width
    x0, y0 = (lo * fx).astype(int)
    x1, y1 = np.ceil(hi * fx).astype(int)
    region = photo.decode_window(scale, (x0, y0, x1, y1))
    size = (max(16, round(region.shape[1] * factor / fx)), max(16, round(region.shape[0] * factor / fx)))
    interpolation = cv2.INTER_AREA if factor / fx < 1 else cv2.INTER_LINEAR
    image = cv2.resize(region, size, interpolation=interpolation)
    found = finder.find_tiles(image)
    quads = found.quads * np.float32(region.shape[1] / size[0]) + np.float32([x0, y0])
    return image, TileDetections(quads / np.float32(fx), found.scores, found.backs)
