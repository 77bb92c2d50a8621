"""Where the tiles are: how often and at what scale the hand is searched again."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.vision import finder, white_balance
from fanscan.vision import locate as locate_module
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import load_photo
from fanscan.vision.samples import sample_photo_path


def _tiles(short: float, count: int = 6, x0: float = 100.0) -> TileDetections:
    """``count`` upright boxes ``short`` wide and 1.35 times as high, side by side."""
    quads = [
        [[x0 + i * short, 100], [x0 + (i + 1) * short, 100], [x0 + (i + 1) * short, 100 + 1.35 * short],
         [x0 + i * short, 100 + 1.35 * short]]
        for i in range(count)
    ]
    return TileDetections(np.float32(quads), np.ones(count, np.float32), np.zeros(count, bool))


def test_refind_region_shows_a_tile_short_side_at_the_refind_size() -> None:
    photo = load_photo(sample_photo_path())
    lo, hi, factor = locate_module._refind_region(photo, _tiles(60.0))
    assert factor * 60.0 == pytest.approx(locate_module.REFIND_SHORT)
    assert (lo >= 0).all() and (hi <= np.array(photo.size)).all() and (hi > lo).all()


def _blank_photo(width: int, height: int):  # noqa: ANN202
    return load_photo(cv2.imencode(".jpg", np.zeros((height, width, 3), np.uint8))[1].tobytes())


def test_refind_region_caps_the_searched_image_size() -> None:
    photo = _blank_photo(3000, 2000)
    lo, hi, factor = locate_module._refind_region(photo, _tiles(8.0, count=250, x0=0.0))
    assert float(max(hi - lo)) * factor == pytest.approx(locate_module.REFIND_MAX_SIDE)
    assert factor * 8.0 < locate_module.REFIND_SHORT


def test_the_hand_is_never_searched_again_enlarged_past_the_photo_s_own_pixels() -> None:
    # Tiles 8 px wide in the photo itself: an enlarged copy would only blur them.
    photo = load_photo(sample_photo_path())
    _, _, factor = locate_module._refind_region(photo, _tiles(8.0, count=20, x0=100.0))
    assert factor == 1.0


def test_only_a_hand_found_on_a_finer_copy_is_searched_again_enlarged() -> None:
    # Tiles 22 px wide in the photo itself, under the finder's 36: a far hand (found only by the
    # finer search) is enlarged to the finder's scale, up to FAR_ENLARGE; 12 px ones to the cap.
    photo = load_photo(sample_photo_path())
    near = _tiles(22.0, count=20, x0=100.0)
    assert locate_module._refind_region(photo, near)[2] == 1.0
    far = locate_module._refind_region(photo, near, locate_module.FAR_ENLARGE)[2]
    assert far * 22.0 == pytest.approx(locate_module.REFIND_SHORT)
    tiny = locate_module._refind_region(photo, _tiles(12.0, count=20, x0=100.0), locate_module.FAR_ENLARGE)[2]
    assert tiny == locate_module.FAR_ENLARGE


def test_a_far_hand_is_searched_again_past_the_photo_s_own_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    enlarged: list[float] = []
    region = locate_module._refind_region

    def recorded(photo, detections, enlarge=1.0):  # noqa: ANN001, ANN202
        enlarged.append(enlarge)
        return region(photo, detections, enlarge)

    monkeypatch.setattr(locate_module, "_refind_region", recorded)
    locate_module.locate(load_photo(sample_photo_path()))
    assert enlarged and set(enlarged) == {1.0}  # a hand the first pass found
    enlarged.clear()
    locate_module.locate(load_photo(_far_sample(22.0)))
    assert enlarged and set(enlarged) == {locate_module.FAR_ENLARGE}


def test_the_scale_searched_again_is_the_hand_s_not_that_of_far_smaller_tiles() -> None:
    # The hand, 8 tiles 60 px wide at the bottom; far off, a dozen discards boxed 20 px wide: a
    # median over all boxes (20 of them) would ask for the hand at nearly twice the scale it wants.
    photo = _blank_photo(3000, 2000)
    hand = _tiles(60.0, count=8, x0=300.0)
    hand = TileDetections(hand.quads + np.float32([0, 1500]), hand.scores, hand.backs)
    far = _tiles(20.0, count=12, x0=1500.0)
    found = TileDetections(np.concatenate([hand.quads, far.quads]), np.ones(20, np.float32), np.zeros(20, bool))
    assert sorted(locate_module._nearest_cluster(found.quads).tolist()) == list(range(8))
    _, _, factor = locate_module._refind_region(photo, found)
    assert factor * 60.0 == pytest.approx(locate_module.REFIND_SHORT)


def test_a_hand_in_part_of_the_photo_is_searched_again_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sample's hand spans about two thirds of the photo's width. Its tiles found on the
    # hand's region are at the refind size already, so a second search would only cost time
    # (it used to run whenever the region was smaller than the photo).
    searched: list[TileDetections] = []
    find = finder.find_tiles

    def counted(image: np.ndarray) -> TileDetections:
        found = find(image)
        searched.append(found)
        return found

    regions: list[tuple[np.ndarray, np.ndarray]] = []
    refind = locate_module._refind

    def recorded(photo, lo, hi, factor):
        regions.append((lo, hi))
        return refind(photo, lo, hi, factor)

    monkeypatch.setattr(finder, "find_tiles", counted)
    monkeypatch.setattr(locate_module, "_refind", recorded)
    photo = load_photo(sample_photo_path())
    small, found = locate_module.locate(photo)
    assert len(searched) == 2
    seen = float(np.median(locate_module.short_sides(searched[-1].quads)))
    assert abs(np.log(seen / locate_module.REFIND_SHORT)) < locate_module.SAME_SCALE
    (lo, hi), = regions
    assert (hi - lo)[0] < 0.95 * photo.width  # the hand's region, not the whole photo
    assert len(found) >= 14


def test_one_speck_does_not_make_a_hand_of_whole_tiles_a_close_up() -> None:
    tiles = _tiles(30.0, count=16)
    speck = np.float32([[[200, 300], [211, 300], [211, 311], [200, 311]]])
    found = TileDetections(np.concatenate([tiles.quads, speck]), np.ones(17, np.float32), np.zeros(17, bool))
    assert locate_module._size_spread(found.quads) > locate_module.SPREAD_AGREES  # the speck alone
    assert locate_module.tile_size_spread(found) < locate_module.SPREAD_AGREES


def test_a_close_up_s_pieces_still_spread_wide() -> None:
    # A close-up's faces come out as pieces of every size, not as one stray speck.
    sides = np.geomspace(12.0, 60.0, 24)
    quads = np.float32([[[x, 0], [x + s, 0], [x + s, s], [x, s]] for x, s in zip(np.cumsum(sides), sides)])
    found = TileDetections(quads, np.ones(len(quads), np.float32), np.zeros(len(quads), bool))
    assert locate_module.tile_size_spread(found) > locate_module.SPREAD_AGREES


def test_refind_region_reaches_further_along_the_rows_than_across() -> None:
    photo = load_photo(sample_photo_path())
    short = 30.0
    row = _tiles(short, count=6, x0=500.0)
    lo, hi, _ = locate_module._refind_region(photo, row)
    along, across = locate_module.REGION_ALONG * short, locate_module.REGION_ACROSS * short
    assert lo == pytest.approx([500.0 - along, 100.0 - across], abs=1.0)
    assert hi == pytest.approx([500.0 + 6 * short + along, 100.0 + 1.35 * short + across], abs=1.0)
    column = TileDetections(row.quads[:, :, ::-1].copy()[:, [0, 3, 2, 1]], row.scores, row.backs)  # the row turned
    lo, hi, _ = locate_module._refind_region(photo, column)
    assert lo == pytest.approx([100.0 - across, 500.0 - along], abs=1.0)


def _grid_over(image: np.ndarray, short: float) -> TileDetections:
    """Upright boxes ``short`` wide and 1.35 times as high over the whole of ``image``."""
    height, width = image.shape[:2]
    tall = 1.35 * short
    quads = [[[x, y], [x + short, y], [x + short, y + tall], [x, y + tall]]
             for y in np.arange(0, height - tall + 1, tall) for x in np.arange(0, width - short + 1, short)]
    return TileDetections(np.float32(quads), np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


@pytest.mark.parametrize(("short", "searched_again"), [(locate_module.REFIND_SHORT, False),
                                                       (locate_module.REFIND_SHORT / 2, True),
                                                       (locate_module.REFIND_SHORT * 1.7, False)],
                         ids=["at-the-scale", "small", "large-but-whole"])
def test_a_photo_full_of_tiles_is_searched_again_only_at_another_scale(
        monkeypatch: pytest.MonkeyPatch, short: float, searched_again: bool) -> None:
    # The first pass searched the whole photo: a search of the whole photo at about its scale
    # would find the same tiles again.
    photo = load_photo(sample_photo_path())
    factors: list[float] = []

    def refind(photo_, lo, hi, factor):
        factors.append(factor)
        assert (lo <= 0).all() and (hi >= np.array(photo_.size)).all()
        image = np.zeros((round(photo_.height * factor), round(photo_.width * factor), 3), np.uint8)
        found = _grid_over(image, locate_module.REFIND_SHORT)
        return image, TileDetections(found.quads / np.float32(factor), found.scores, found.backs)

    monkeypatch.setattr(finder, "find_tiles", lambda image: _grid_over(image, short))
    monkeypatch.setattr(locate_module, "_refind", refind)
    locate_module.locate(photo, refine=False)
    first = finder.WORK_SIDE / max(photo.size)
    if searched_again:
        assert len(factors) == 1 and factors[0] == pytest.approx(2 * first, rel=0.05)
    else:
        assert factors == []


def test_a_far_hand_is_searched_again_until_its_tiles_give_the_scale_searched_at(monkeypatch: pytest.MonkeyPatch) -> None:
    # A far hand found as blobs of whole rows: each search sees its tiles nearer the finder's
    # scale, and the next is made at the scale they give, until two agree (``SAME_SCALE``) or the
    # searches run out (``FAR_REFIND_PASSES``).
    photo = load_photo(_far_sample(22.0))
    blobs = _tiles(90.0, count=6, x0=1200.0)  # in the photo's pixels, as _farther gives them
    shorts = iter([60.0, 36.0, 22.0, 22.0, 22.0])  # what each search finds, in the photo's pixels
    factors: list[float] = []

    def refind(photo_, lo, hi, factor):
        factors.append(factor)
        return np.zeros((8, 8, 3), np.uint8), _tiles(next(shorts), count=14, x0=1200.0)

    monkeypatch.setattr(locate_module, "_farther", lambda *args: (np.zeros((8, 8, 3), np.uint8), blobs, 0.32))
    monkeypatch.setattr(locate_module, "_refind", refind)
    locate_module.locate(photo, refine=False)
    want = [locate_module.REFIND_SHORT / s for s in (90.0, 60.0, 36.0, 22.0)]  # 22 px tiles: 1.6 times
    assert factors == pytest.approx(want)  # the fifth would be at the fourth's scale: no fifth
    assert locate_module.FAR_REFIND_PASSES >= len(want)
    # Past REFIND_PASSES, a step back (the tiles found asking for a smaller scale again) is the
    # size's noise: the search stops there.
    shorts = iter([60.0, 36.0, 48.0, 30.0])
    factors.clear()
    locate_module.locate(load_photo(_far_sample(22.0)), refine=False)
    assert factors == pytest.approx([locate_module.REFIND_SHORT / s for s in (90.0, 60.0, 36.0)])


def test_a_hand_seen_at_the_working_size_is_searched_again_at_most_refind_passes_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Its first boxes were whole tiles: one search corrects their size's error; searched on and
    # on, a hand on a busy table drifts with the cluster taken for it.
    photo = load_photo(sample_photo_path())
    shorts = iter([60.0, 40.0, 25.0, 15.0, 10.0])  # each search asks for another scale
    factors: list[float] = []

    def refind(photo_, lo, hi, factor):
        factors.append(factor)
        return np.zeros((8, 8, 3), np.uint8), _tiles(next(shorts), count=14)

    monkeypatch.setattr(finder, "find_tiles", lambda image: _tiles(8.0, count=14))
    monkeypatch.setattr(locate_module, "_refind", refind)
    locate_module.locate(photo, refine=False)
    assert len(factors) == locate_module.REFIND_PASSES < locate_module.FAR_REFIND_PASSES


def test_a_first_pass_that_saw_no_hand_judges_no_colour_cast(monkeypatch: pytest.MonkeyPatch) -> None:
    # A far hand's first pass boxes a few blobs of the table, a rack or the hand's blurred rows:
    # their colour is no tile's, and a cloth's blue taken for the light's cast had "balanced" the
    # photo a far hand was then read in.
    image = np.full((480, 640, 3), (200, 120, 60), np.uint8)  # a blue cloth
    few = _tiles(12.0, count=locate_module.FEW_TILES - 1)
    assert white_balance.balanced_for_cast(load_photo(cv2.imencode(".png", image)[1].tobytes()), image, few)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    monkeypatch.setattr(finder, "find_tiles", lambda small: few if small.shape[:2] == (480, 640) else TileDetections.empty())
    locate_module.locate(photo, refine=False)
    assert "cast" not in photo.balanced_for  # (a cloth this dark is brightened as dim: no cast)
    assert not locate_module._hand_seen(few, blobs_may_be_hands=False)
    assert locate_module._hand_seen(_tiles(12.0, count=locate_module.FEW_TILES), blobs_may_be_hands=False)
    large = _tiles(locate_module.REFIND_SHORT + 4, count=3)  # a close-up's few large tiles
    assert locate_module._hand_seen(large, blobs_may_be_hands=False)
    assert not locate_module._hand_seen(large, blobs_may_be_hands=True)


def test_specks_found_in_the_region_searched_again_are_not_taken_for_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # A patterned cloth in the searched region gave dozens of specks (scene 15244): as the
    # majority, they would have survived the speck filter and set the next search's scale.
    photo = load_photo(sample_photo_path())
    tiles = _tiles(60.0, count=8, x0=300.0)
    rng = np.random.default_rng(0)
    corners = rng.uniform(0, 1500, (40, 1, 2)).astype(np.float32)
    specks = corners + np.float32([[0, 0], [6, 0], [6, 6], [0, 6]])
    found = TileDetections(np.concatenate([tiles.quads, specks]), np.ones(48, np.float32), np.zeros(48, bool))
    searched: list[float] = []

    def refind(photo_, lo, hi, factor):
        searched.append(factor)
        return np.zeros((64, 64, 3), np.uint8), found

    monkeypatch.setattr(locate_module, "_refind", refind)
    _, kept = locate_module.locate(photo, refine=False)
    assert len(kept) == len(tiles)
    assert searched and all(f * 60.0 == pytest.approx(locate_module.REFIND_SHORT, rel=0.2) for f in searched[1:])


def _boxes_of_sizes(sides: np.ndarray) -> TileDetections:
    quads = np.float32([[[x, 0], [x + s, 0], [x + s, 1.35 * s], [x, 1.35 * s]]
                        for x, s in zip(np.cumsum(sides), sides)])
    return TileDetections(quads, np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


def test_boxes_that_disagree_in_size_at_the_finder_s_scale_are_no_close_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiles near and far and walls disagree in size too; only boxes larger than the scale the
    # finder learnt can be pieces of a close-up's faces, worth searching a smaller copy for.
    searched: list[tuple[int, int]] = []
    monkeypatch.setattr(finder, "find_tiles", lambda image: searched.append(image.shape[:2]) or _tiles(20.0))
    image = np.zeros((480, 640, 3), np.uint8)
    small_and_mixed = _boxes_of_sizes(np.geomspace(12.0, locate_module.REFIND_SHORT, 24))
    assert locate_module.tile_size_spread(small_and_mixed) > locate_module.SPREAD_AGREES
    assert locate_module._close_up(image, small_and_mixed) is None and searched == []
    large_and_mixed = _boxes_of_sizes(np.geomspace(30.0, 140.0, 24))
    assert locate_module.tile_size_spread(large_and_mixed) > locate_module.SPREAD_AGREES
    assert locate_module._close_up(image, large_and_mixed) is not None
    assert searched and max(searched[0]) == locate_module.CLOSE_UP_SIDES[0]


def _far_sample(short: float) -> bytes:
    """The bundled sample photo shrunk until its tiles' short sides span ``short`` pixels, on a
    plain table of its own colour filling a 4,000 x 3,000 photo (12 MP)."""
    image = cv2.imread(str(sample_photo_path()))
    small = cv2.resize(image, None, fx=short / 66.0, fy=short / 66.0, interpolation=cv2.INTER_AREA)
    table = np.median(image[:20].reshape(-1, 3), axis=0)
    noise = np.random.default_rng(0).normal(0, 5, (3000, 4000, 3))
    photo = np.clip(table + noise, 0, 255).astype(np.uint8)
    photo[1800 : 1800 + small.shape[0], 1200 : 1200 + small.shape[1]] = small
    return cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


@pytest.mark.slow
def test_a_hand_too_far_for_the_finder_s_working_size_is_found_finer() -> None:
    # Tiles 22 px wide in a 4,000-px photo are 3.5 px at the finder's 640: the first pass sees no
    # hand there (it found one box, a blob over several tiles), the whole photo searched finer does.
    from fanscan.vision.reader import read_photo

    reading = read_photo(_far_sample(22.0))
    sample = read_photo(sample_photo_path())
    assert reading.hand == sample.hand
    assert len(reading.tiles) == len(sample.tiles) == 16


WORKING = np.zeros((480, 640, 3), np.uint8)  # the first pass's image of a 4,000 x 3,000 photo


def _boxes_at(short: float, corners: list[tuple[float, float]]) -> TileDetections:
    """Upright boxes ``short`` wide, 1.35 times as high, with their top-left corners at ``corners``."""
    quads = [[[x, y], [x + short, y], [x + short, y + 1.35 * short], [x, y + 1.35 * short]] for x, y in corners]
    return TileDetections(np.float32(quads), np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


def test_a_few_tiles_the_first_pass_saw_large_are_not_searched_finer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Searched finer, a photo of four large tiles gives pieces of them: only a first pass whose
    # few boxes are not all as large as the finder's own scale (or that found none) looks finer.
    photo = load_photo(_far_sample(22.0))
    seen: list[int] = []
    monkeypatch.setattr(finder, "find_tiles", lambda image: seen.append(max(image.shape[:2])) or _tiles(30.0, 8))
    large = _tiles(locate_module.REFIND_SHORT + 10, count=locate_module.FEW_TILES - 1)
    assert locate_module._farther(photo, WORKING, large) is None and seen == []
    small = _tiles(locate_module.REFIND_SHORT / 3, count=locate_module.FEW_TILES - 1)
    fine, found, scale = locate_module._farther(photo, WORKING, small)
    assert seen == [locate_module.FINER_SIDES[0]] and max(fine.shape[:2]) == seen[0] and len(found) == 8
    assert scale == seen[0] / 4000  # the boxes in the photo's pixels, seen at this scale
    np.testing.assert_allclose(found.quads, _tiles(30.0, 8).quads / np.float32(scale), rtol=1e-5)


def test_a_stray_large_box_hides_no_far_hand_but_its_own_pieces_are_no_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(_far_sample(22.0))
    big = locate_module.REFIND_SHORT + 20  # 56 px at 640: 350 px of the 4,000-px photo
    first = TileDetections(np.concatenate([_boxes_at(big, [(100, 100)]).quads, _boxes_at(6, [(400, 300)]).quads]),
                           np.ones(2, np.float32), np.zeros(2, bool))
    # At 1,280 px (twice the first pass's scale) the large box spans x 200-312, y 200-351.
    pieces = _boxes_at(20, [(210 + 22 * (k % 4), 220 + 30 * (k // 4)) for k in range(8)])
    elsewhere = _boxes_at(12, [(700 + 13 * k, 600) for k in range(8)])


    def at_scale(found: TileDetections):  # the same places of the photo at whatever scale it is searched
        return lambda image: TileDetections(found.quads * np.float32(max(image.shape[:2]) / 1280),
                                            found.scores, found.backs)

    monkeypatch.setattr(finder, "find_tiles", at_scale(pieces))
    assert locate_module._farther(photo, WORKING, first) is None  # only pieces of what was seen whole
    monkeypatch.setattr(finder, "find_tiles", at_scale(elsewhere))
    fine, found, scale = locate_module._farther(load_photo(_far_sample(22.0)), WORKING, first)  # passes not yet made
    assert max(fine.shape[:2]) == 1280 and np.allclose(found.quads * scale, elsewhere.quads)  # a far hand beside it


def test_a_finer_search_goes_no_further_than_the_photo_s_own_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(sample_photo_path())  # 1,280 px long: twice the working size, not four times
    seen: list[int] = []
    monkeypatch.setattr(finder, "find_tiles", lambda image: seen.append(max(image.shape[:2])) or TileDetections.empty())
    assert locate_module._farther(photo, WORKING, TileDetections.empty()) is None
    assert seen == [2 * finder.WORK_SIDE]


def test_a_hand_the_finest_pass_saw_as_a_few_blobs_is_searched_around_them_at_the_photo_s_pixels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(_far_sample(12.0))
    blobs = _boxes_at(24, [(2000, 1500), (2060, 1500)])  # at 2,560 px: 64 and 96 px of the photo's 4,000
    row = _tiles(20.0, 14, x0=40.0)  # what the region's own pixels show
    seen: list[tuple[int, int]] = []

    def find(image: np.ndarray) -> TileDetections:
        seen.append(image.shape[:2])
        side = max(image.shape[:2])
        return row if side < 1280 else blobs if side == 2560 else TileDetections.empty()

    monkeypatch.setattr(finder, "find_tiles", find)
    image, found, scale = locate_module._farther(photo, WORKING, TileDetections.empty())
    assert [max(shape) for shape in seen[:2]] == [1280, 2560] and scale == 1.0
    lo, hi, _ = locate_module._refind_region(photo, blobs.scaled(4000 / 2560))
    assert image.shape[:2] == seen[2] == tuple(int(np.ceil(hi[k])) - int(lo[k]) for k in (1, 0))  # own pixels
    np.testing.assert_allclose(found.quads, row.quads + np.float32([int(lo[0]), int(lo[1])]), atol=1)
    monkeypatch.setattr(finder, "find_tiles", lambda image: blobs if max(image.shape[:2]) == 2560 else _tiles(20.0, 4))
    assert locate_module._farther(load_photo(_far_sample(12.0)), WORKING, TileDetections.empty()) is None  # no hand there


def test_the_finer_look_may_take_a_first_pass_s_large_box_for_a_far_hand_s_blob(monkeypatch: pytest.MonkeyPatch) -> None:
    """A far hand of 36 tiles in a grid is one box of the finder's own scale at 640 px: as a
    close-up's tile it is not searched finer, as a blob (the finer look's view) it is, and the
    tiles found inside it count."""
    blob = _boxes_at(locate_module.REFIND_SHORT + 4, [(300, 200)])
    inside = _boxes_at(12, [(610 + 13 * k, 420) for k in range(8)])  # at 1,280 px, inside the blob
    monkeypatch.setattr(finder, "find_tiles", lambda image: inside if max(image.shape[:2]) == 1280 else TileDetections.empty())
    assert locate_module._farther(load_photo(_far_sample(22.0)), WORKING, blob) is None
    fine, found, scale = locate_module._farther(load_photo(_far_sample(22.0)), WORKING, blob, blobs_may_be_hands=True)
    assert max(fine.shape[:2]) == 1280 and len(found) == 8 and scale == 1280 / 4000


@pytest.mark.slow
def test_a_hand_of_tiles_12_px_wide_in_a_12_mp_photo_is_read() -> None:
    """At 2,560 px its tiles are 8 px wide, and the network marks the hand as a few blobs; the
    region around them at the photo's own pixels shows the tiles."""
    from fanscan.vision.reader import read_photo

    reading = read_photo(_far_sample(12.0))
    assert reading.hand == read_photo(sample_photo_path()).hand


def _blobs() -> TileDetections:
    """Boxes of a first pass that merged small tiles: blobs of one, two and four tiles' size."""
    sizes = [20.0, 40.0, 80.0, 25.0, 60.0, 30.0]
    quads = [[[100 + 90 * i, 100], [100 + 90 * i + s, 100], [100 + 90 * i + s, 100 + 1.35 * s],
              [100 + 90 * i, 100 + 1.35 * s]] for i, s in enumerate(sizes)]
    return TileDetections(np.float32(quads), np.ones(len(sizes), np.float32), np.zeros(len(sizes), bool))


def test_a_first_pass_of_blobs_is_searched_again_finer_and_kept_when_its_boxes_agree(monkeypatch) -> None:
    photo = load_photo(sample_photo_path())
    region = (np.array([0.0, 0.0]), np.array([400.0, 300.0]), 0.3)
    searched: list[float] = []

    def refind(photo, lo, hi, scale, boxes=_tiles(24.0, count=12)):  # noqa: ANN001, ANN202
        searched.append(scale)
        return np.zeros((8, 8, 3), np.uint8), boxes

    monkeypatch.setattr(locate_module, "_refind", refind)
    blobs = _blobs()
    assert locate_module._size_spread(blobs.quads) > locate_module.SPREAD_AGREES
    image, finer, scale = locate_module._unresolved_finer(photo, blobs, region, 0.25)
    assert searched == [0.5] and scale == 0.5 and len(finer) == 12  # twice the first pass's scale
    # Whole tiles found first, or a photo without the pixels for a finer look: no search.
    assert locate_module._unresolved_finer(photo, _tiles(24.0), region, 0.25) is None
    assert locate_module._unresolved_finer(photo, blobs, region, 0.6) is None
    # A far hand (found on a finer copy) may be searched past the photo's own pixels, as far as
    # its search again may: twice 0.6.
    image, finer, scale = locate_module._unresolved_finer(photo, blobs, region, 0.6, locate_module.FAR_ENLARGE)
    assert searched == [0.5, 1.2] and scale == 1.2
    searched.remove(1.2)
    assert locate_module._unresolved_finer(photo, blobs, None, 0.25) is None
    assert searched == [0.5]
    # A finer look whose boxes disagree as much is not kept.
    monkeypatch.setattr(locate_module, "_refind", lambda photo, lo, hi, scale: refind(photo, lo, hi, scale, _blobs()))
    assert locate_module._unresolved_finer(photo, blobs, region, 0.25) is None


def test_a_real_row_too_small_for_the_first_pass_is_found_whole() -> None:
    """hand_102 of rf-chinese (fold 4, held out), laid in a photo twice its size: its 17 tiles,
    11-15 px wide in the first pass, came out as 9 blobs, and the read found 3 of them."""
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import least_turned, load_table_photos, upright_version
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.reader import read_photo

    photos = [p for p in least_turned(load_table_photos()) if p.source == "hand_102"]
    if not photos:
        pytest.skip("../shared/data/rf-chinese is not here")
    image, labels = photo_as_taken(photos[0], default_classifier(), upright_version(photos[0]))
    height, width = image.shape[:2]
    canvas = np.zeros((2 * height, 2 * width, 3), np.uint8)
    canvas[height // 2:height // 2 + height, width // 2:width // 2 + width] = image
    reading = read_photo(cv2.imencode(".png", canvas)[1].tobytes())
    boxes = np.array([[min(x for x, _ in t.box), min(y for _, y in t.box), max(x for x, _ in t.box),
                       max(y for _, y in t.box)] for t in reading.tiles]) - [width // 2, height // 2] * 2
    found = 0
    for x0, y0, x1, y1 in labels:
        inter = (np.clip(np.minimum(boxes[:, 2], x1) - np.maximum(boxes[:, 0], x0), 0, None)
                 * np.clip(np.minimum(boxes[:, 3], y1) - np.maximum(boxes[:, 1], y0), 0, None))
        union = (x1 - x0) * (y1 - y0) + (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) - inter
        found += bool((inter / union >= 0.5).any())
    assert len(labels) == 17 and found >= 16


def test_the_first_pass_may_look_finer_and_the_far_search_then_looks_finer_still(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(finder, "find_tiles", lambda image: seen.append(max(image.shape[:2])) or TileDetections.empty())
    photo = load_photo(_far_sample(22.0))  # 4,000 px: room for a first pass at 1,280 and a far search at 2,560
    locate_module.locate(photo, first_side=2 * finder.WORK_SIDE)
    assert seen[:2] == [2 * finder.WORK_SIDE, 4 * finder.WORK_SIDE]  # never the first pass's own side again
    seen.clear()
    locate_module.locate(load_photo(_far_sample(22.0)))
    assert seen[:3] == [finder.WORK_SIDE, *locate_module.FINER_SIDES]


def test_a_pass_on_the_whole_photo_is_made_once_until_a_colour_balance_changes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The finer look of a photo of no hand asks for the passes the first look made (a 12 MP
    picture of noise: 1,280 and 2,560 px): they are not made again."""
    seen: list[int] = []
    monkeypatch.setattr(finder, "find_tiles", lambda image: seen.append(max(image.shape[:2])) or _tiles(3.0, 2))
    photo = load_photo(_far_sample(22.0))
    locate_module.locate(photo)
    assert seen[:3] == [finder.WORK_SIDE, *locate_module.FINER_SIDES]
    seen.clear()
    small, found = locate_module.whole_photo_pass(photo, 2, 2 * finder.WORK_SIDE)
    assert seen == [] and len(found) == 2 and max(small.shape[:2]) == 2 * finder.WORK_SIDE
    with pytest.raises(ValueError):
        found.quads[0, 0, 0] = 1.0  # shared by every look that asks: nobody may change it
    locate_module.locate(photo, first_side=2 * finder.WORK_SIDE)
    assert max(seen, default=0) < finder.WORK_SIDE  # its first pass and its far search were the first look's
    seen.clear()
    photo.balance(white_balance.lookup_table(np.ones(3, np.float32)))
    locate_module.whole_photo_pass(photo, 2, 2 * finder.WORK_SIDE)
    assert seen == [2 * finder.WORK_SIDE]


def test_a_close_up_s_copy_is_kept_only_when_the_judge_prefers_its_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first pass of large boxes that disagree in size may be a close-up's pieces of faces, or
    # a hand of whole tiles beside walls and backs (rf-chinese photos read on 4 boxes of 23):
    # the smaller copy's boxes stand against the plain search's, and the reader's judge decides.
    def found_on(image: np.ndarray) -> TileDetections:
        if max(image.shape[:2]) == finder.WORK_SIDE:
            return _boxes_of_sizes(np.geomspace(40.0, 140.0, 24))
        return _tiles(20.0, count=3)

    monkeypatch.setattr(finder, "find_tiles", found_on)
    monkeypatch.setattr(white_balance, "balanced_for_cast", lambda *args: False)
    photo = _blank_photo(640, 480)
    _, unjudged = locate_module.locate(photo, refine=False)
    _, fewest = locate_module.locate(_blank_photo(640, 480), refine=False, judge=lambda found: -float(len(found)))
    _, most = locate_module.locate(_blank_photo(640, 480), refine=False, judge=lambda found: float(len(found)))
    assert len(unjudged) == len(fewest) == 3  # the close-up's copy, as without a judge
    assert len(most) > 3  # the search at the first pass's own scale
