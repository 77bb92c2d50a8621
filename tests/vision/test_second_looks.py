"""Second looks at a photo: tilted tiles are read stood upright, a hand seen too small is read
again with the finder's first pass twice as fine, a look turned a quarter is taken only when the
first reading expects a fault, and the worthier reading is kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.scoring.notation import parse_notation
from fanscan.errors import FanscanError
from fanscan.vision import finder, reader, second_looks
from fanscan.vision.detections import TileDetections
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.image_io import load_photo
from fanscan.vision.photo_reading import FoundTile, PhotoReading
from fanscan.vision.samples import sample_photo_path
from fanscan.vision.locate import REFIND_SHORT, locate
from fanscan.vision.tilt import UPRIGHT_WITHIN, tiles_tilt
from fanscan.vision.turned_photo import pixel_centred, turn_matrix, window_around

WIN = HandRules((14,))


def _reading(*tiles: tuple[str, float, bool], accepted: bool = False) -> PhotoReading:
    found = [FoundTile(code, confidence, ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0, 0, in_hand)
             for code, confidence, in_hand in tiles]
    return PhotoReading(found, parse_notation("123456789m123p55s"), [], [], (100, 100), hand_accepted=accepted)


def test_expected_faults_count_doubtful_faces_and_tiles_missing_from_the_smallest_hand() -> None:
    sure = _reading(*[("1m", 0.99, True)] * 14)
    assert second_looks.expected_faults(sure, WIN) == pytest.approx(0.14)
    assert not second_looks.worth_a_second_look(sure, WIN)
    doubtful = _reading(*[("1m", 0.9, True)] * 14)
    assert second_looks.expected_faults(doubtful, WIN) == pytest.approx(1.4)
    assert second_looks.worth_a_second_look(doubtful, WIN)
    short = _reading(*[("1m", 1.0, True)] * 12, ("2m", 0.2, False))  # the tile apart is not the hand's
    assert second_looks.expected_faults(short, WIN) == pytest.approx(2.0)
    assert second_looks.expected_faults(short, HandRules((14,), "waiting")) == pytest.approx(1.0)
    assert second_looks.expected_faults(short, HandRules((14,), "any")) == pytest.approx(0.0)
    # A face-down tile's confidence is the finder's, no face read: not a fault.
    backs = _reading(*[("1m", 1.0, True)] * 12, ("back", 0.6, True), ("back", 0.6, True))
    assert second_looks.expected_faults(backs, WIN) == pytest.approx(0.0)


def test_the_second_reading_is_kept_only_when_worth_more() -> None:
    first = _reading(*[("1m", 0.8, True)] * 14, ("2m", 0.99, False))
    assert second_looks.net_worth(first) == pytest.approx(14 * 0.6)
    more_tiles_surer = _reading(*[("1m", 0.95, True)] * 14)
    more_doubtful_tiles = _reading(*[("1m", 0.55, True)] * 20)  # 20 tiles worth 0.1 each
    assert second_looks.better(more_tiles_surer, first)
    assert not second_looks.better(more_doubtful_tiles, first)
    assert not second_looks.better(first, first)  # a tie keeps the first


def test_a_reading_whose_hand_the_rules_accept_is_worth_more_than_one_whose_hand_they_do_not() -> None:
    """Counting tiles alone, a look that takes a wall's white sides into the hand as white dragons
    outweighs the look whose hand is complete."""
    complete = _reading(*[("1m", 0.9, True)] * 14, accepted=True)
    with_a_wall = _reading(*[("1m", 0.9, True)] * 14, *[("P", 0.9, True)] * 5)
    assert second_looks.net_worth(with_a_wall) > second_looks.net_worth(complete)
    assert second_looks.better(complete, with_a_wall)
    assert not second_looks.better(with_a_wall, complete)
    surer = _reading(*[("1m", 0.95, True)] * 14, accepted=True)  # both accepted: the worthier
    assert second_looks.better(surer, complete) and not second_looks.better(complete, surer)
    # Asked for a waiting hand (found too easily among a photo's tiles) or any, the tiles decide.
    for rules in (HandRules((14,), "waiting"), HandRules((14,), "any")):
        assert second_looks.better(with_a_wall, complete, rules)
        assert not second_looks.better(complete, with_a_wall, rules)
    assert second_looks.better(complete, with_a_wall, WIN)


def test_a_reading_the_reader_is_sure_of_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(photo, *turn):  # noqa: ANN001, ANN002, ANN202
        raise AssertionError("the sure sample was read again turned")

    monkeypatch.setattr(second_looks, "located_turned", never)
    reading = reader.read_photo(sample_photo_path())
    assert second_looks.expected_faults(reading, reader.hand_rules()) < second_looks.FAULTS_WORTH_A_LOOK


def _box_centres(reading: PhotoReading) -> np.ndarray:
    return np.array([np.mean(t.box, axis=0) for t in reading.tiles if t.in_hand])


def test_the_turned_reading_reads_the_same_tiles_in_the_photo_s_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = reader.read_photo(sample_photo_path())
    monkeypatch.setattr(second_looks, "worth_a_second_look", lambda reading, rules: True)
    seconds: list[PhotoReading] = []
    monkeypatch.setattr(second_looks, "better", lambda second, first, rules=None: seconds.append(second) or True)
    turned = reader.read_photo(sample_photo_path())
    assert seconds == [turned]  # the turned boxes were read, and their reading kept
    assert turned.hand.to_json() == plain.hand.to_json()
    centres, plain_centres = _box_centres(turned), _box_centres(plain)
    assert len(centres) == len(plain_centres)
    tile_width = min(np.linalg.norm(np.subtract(t.box[1], t.box[0])) for t in plain.tiles)
    nearest = np.linalg.norm(centres[:, None] - plain_centres[None], axis=2).min(axis=1)
    assert nearest.max() < 0.2 * tile_width


def test_turned_boxes_that_read_as_no_tiles_leave_the_first_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = reader.read_photo(sample_photo_path())
    nothing = TileDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, bool))
    monkeypatch.setattr(second_looks, "worth_a_second_look", lambda reading, rules: True)
    monkeypatch.setattr(second_looks, "located_turned", lambda photo, *turn: (np.zeros((8, 8, 3), np.uint8), nothing))
    assert reader.read_photo(sample_photo_path()).hand.to_json() == plain.hand.to_json()


def _boxes(*corners: tuple[float, float, float, float]) -> TileDetections:
    quads = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in corners]).reshape(-1, 4, 2)
    return TileDetections(quads, np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


def test_the_turned_reading_is_kept_only_when_worth_more(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(sample_photo_path())
    other = _boxes((0, 0, 10, 14), (10, 0, 20, 14), (20, 0, 30, 14))
    monkeypatch.setattr(second_looks, "located_turned", lambda photo, *turn: (np.zeros((8, 8, 3), np.uint8), other))
    worthier = (_reading(*[("1m", 0.9, True)] * 3), "the hand read")
    small, boxes, second = second_looks.read_turned(photo, _reading(("1m", 0.5, True)), lambda found: worthier)
    assert boxes is other and second is worthier
    assert second_looks.read_turned(photo, worthier[0], lambda found: (_reading(("1m", 0.6, True)), "")) is None


def test_a_photo_whose_boxes_read_as_no_tiles_is_refused_though_looked_at_turned(monkeypatch: pytest.MonkeyPatch) -> None:
    turns: list = []
    located_turned = second_looks.located_turned
    monkeypatch.setattr(second_looks, "located_turned",
                        lambda photo, *turn: turns.append(turn) or located_turned(photo, *turn))
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(FanscanError) as refused:
        reader.read_photo(cv2.imencode(".png", noise)[1].tobytes())
    assert refused.value.code == "no_tiles"
    assert turns in ([], [(90.0, None)])  # at most the one look at it a quarter turned, judged with the first


def test_a_photo_read_for_labelling_gets_the_second_look_too(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[HandRules] = []

    def doubtful(reading: PhotoReading, rules: HandRules) -> bool:
        asked.append(rules)
        return True

    seconds: list[PhotoReading] = []
    monkeypatch.setattr(second_looks, "worth_a_second_look", doubtful)
    monkeypatch.setattr(second_looks, "better", lambda second, first, rules=None: seconds.append(second) or True)
    every_tile = reader.read_photo(sample_photo_path(), one_hand=False)
    assert seconds == [every_tile] and all(t.in_hand for t in every_tile.tiles)
    assert asked and {rules.kind for rules in asked} == {"any"}  # no hand the tiles could be short of


def test_a_second_look_past_the_read_s_budget_leaves_the_first_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = reader.read_photo(sample_photo_path())

    def too_large(photo, *turn):  # noqa: ANN001, ANN002, ANN202
        raise FanscanError("image_too_large", "the turned look's decode would pass the budget")

    monkeypatch.setattr(second_looks, "worth_a_second_look", lambda reading, rules: True)
    monkeypatch.setattr(second_looks, "located_turned", too_large)
    assert reader.read_photo(sample_photo_path()).hand.to_json() == plain.hand.to_json()


def _tilted_sample(degrees: float) -> bytes:
    """The bundled sample photographed with the camera turned ``degrees`` (the whole photo kept,
    the table's green beyond it)."""
    image = cv2.imread(str(sample_photo_path()))
    matrix, size = turn_matrix(image.shape[1], image.shape[0], degrees)
    turned = cv2.warpAffine(image, pixel_centred(matrix), size, borderValue=(60, 110, 50))
    return cv2.imencode(".jpg", turned)[1].tobytes()


@pytest.mark.parametrize("degrees", [30.0, -40.0])
def test_a_tilted_hand_is_read_stood_upright(monkeypatch: pytest.MonkeyPatch, degrees: float) -> None:
    plain = reader.read_photo(sample_photo_path())
    turns: list[float] = []
    located = second_looks.located_turned

    def recorded(photo, turn=90.0, window=None):  # noqa: ANN001, ANN202
        turns.append(turn)
        return located(photo, turn, window)

    monkeypatch.setattr(second_looks, "located_turned", recorded)
    tilted = reader.read_photo(_tilted_sample(degrees))
    own = tiles_tilt(locate(load_photo(sample_photo_path()))[1])  # the sample's rows slant a little already
    assert own is not None and abs(own.turn) < UPRIGHT_WITHIN
    assert turns and turns[0] == pytest.approx(own.turn - degrees, abs=3.0)  # the tilt undone first
    assert tilted.hand.to_json() == plain.hand.to_json()


def test_the_upright_reading_is_kept_unless_the_look_as_taken_is_worth_more(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(sample_photo_path())
    slanted = TileDetections(np.float32([[[10, 0], [20, 17], [3, 27], [-7, 10]]] * 5), np.ones(5, np.float32),
                             np.zeros(5, bool))
    upright_boxes = _boxes((0, 0, 10, 14))
    monkeypatch.setattr(second_looks, "located_turned",
                        lambda photo, *turn: (np.zeros((8, 8, 3), np.uint8), upright_boxes))
    monkeypatch.setattr(second_looks, "read_finer", lambda *args, **kwargs: None)  # step 3 on the reading kept: other tests'
    small = np.zeros((4, 4, 3), np.uint8)
    readings = {id(upright_boxes): (_reading(*[("1m", 0.8, True)] * 14), "upright"),
                id(slanted): (_reading(*[("1m", 0.9, True)] * 14), "as taken")}
    read = second_looks.read_either_way(photo, small, slanted, lambda found: readings[id(found)], WIN)
    assert read[1] is slanted and read[2][1] == "as taken"  # upright expected 2.8 faults; worth less
    readings[id(slanted)] = (_reading(*[("1m", 0.7, True)] * 14), "as taken")
    read = second_looks.read_either_way(photo, small, slanted, lambda found: readings[id(found)], WIN)
    assert read[1] is upright_boxes and read[2][1] == "upright"
    readings[id(upright_boxes)] = (_reading(*[("1m", 0.99, True)] * 14), "upright")
    asked: list[TileDetections] = []
    read = second_looks.read_either_way(photo, small, slanted,
                                        lambda found: asked.append(found) or readings[id(found)], WIN)
    assert asked == [upright_boxes] and read[2][1] == "upright"  # sure of it: the look as taken never read


def test_tilted_tiles_are_also_stood_upright_a_quarter_turn_off_when_that_turn_reads_no_sure_hand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Blobs of several standing tiles are wider than tall: taken for tiles lying sideways, they
    # ask for a turn a quarter off the one that stands the tiles upright.
    photo = _blank(2000, 1500)
    slanted = TileDetections(np.float32([[[10, 0], [20, 17], [3, 27], [-7, 10]]] * 5), np.ones(5, np.float32),
                             np.zeros(5, bool))
    first_turn = second_looks.tilted_turn(slanted)
    assert first_turn is not None
    other_turn = first_turn - 90.0 if first_turn > 0 else first_turn + 90.0
    looks = {first_turn: _boxes((0, 0, 10, 14)), other_turn: _boxes((0, 0, 12, 16))}
    turns: list[float] = []

    def located(photo, degrees, window):  # noqa: ANN001, ANN202
        turns.append(degrees)
        return np.zeros((4, 4, 3), np.uint8), looks[degrees]

    monkeypatch.setattr(second_looks, "located_turned", located)
    readings = {id(looks[first_turn]): (_reading(*[("1m", 0.99, True)] * 14), "first turn"),
                id(looks[other_turn]): (_reading(*[("1m", 0.99, True)] * 14, accepted=True), "other turn")}
    read = second_looks._read_upright(photo, slanted, lambda found: readings[id(found)], WIN)
    assert turns == [first_turn] and read[2][1] == "first turn"  # a sure whole hand: the other turn is not read
    readings[id(looks[first_turn])] = (_reading(*[("1m", 0.9, True)] * 14), "first turn")  # 1.4 faults expected
    read = second_looks._read_upright(photo, slanted, lambda found: readings[id(found)], WIN)
    assert turns[1:] == [first_turn, other_turn] and read[2][1] == "other turn"
    del turns[1:]
    readings[id(looks[first_turn])] = (_reading(*[("1m", 0.99, True)] * 3), "first turn")
    read = second_looks._read_upright(photo, slanted, lambda found: readings[id(found)], WIN)
    assert turns[1:] == [first_turn, other_turn] and read[1] is looks[other_turn] and read[2][1] == "other turn"

    def no_tiles_at_the_first_turn(found: TileDetections) -> tuple:
        if found is looks[first_turn]:
            raise FanscanError("no_tiles", "no tiles that way")
        return readings[id(found)]

    read = second_looks._read_upright(photo, slanted, no_tiles_at_the_first_turn, WIN)
    assert read[1] is looks[other_turn]
    readings[id(looks[other_turn])] = (_reading(*[("1m", 0.5, True)] * 2), "other turn")  # worth less: kept short
    read = second_looks._read_upright(photo, slanted, lambda found: readings[id(found)], WIN)
    assert read[2][1] == "first turn"


def test_a_tilted_look_short_of_tiles_is_looked_at_finer_but_not_a_quarter_turned(monkeypatch: pytest.MonkeyPatch) -> None:
    # A far hand's first pass sees blobs; their slant stood a column "upright" at a wrong angle.
    def never(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a hand stood upright was looked at a quarter turned")

    monkeypatch.setattr(second_looks, "read_quarter_turned", never)
    photo = _blank(4000, 3000)
    slanted = TileDetections(np.float32([[[10, 0], [20, 17], [3, 27], [-7, 10]]] * 5), np.ones(5, np.float32),
                             np.zeros(5, bool))
    upright_boxes, finer_boxes = _boxes((0, 0, 10, 14)), _boxes((0, 0, 12, 16))
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "located_turned", lambda photo, *turn: (small, upright_boxes))
    monkeypatch.setattr(second_looks, "locate", lambda photo, first_side, blobs_may_be_hands: (small, finer_boxes))
    readings = {id(slanted): (_reading(*[("1m", 0.9, True)] * 3), "as taken"),
                id(upright_boxes): (_reading(*[("1m", 0.99, True)] * 9), "upright"),
                id(finer_boxes): (_reading(*[("1m", 0.99, True)] * 14), "finer")}
    read = second_looks.read_either_way(photo, small, slanted, lambda found: readings[id(found)], WIN)
    assert read[1] is finer_boxes and read[2][1] == "finer"
    readings[id(finer_boxes)] = (_reading(*[("1m", 0.99, True)] * 5), "finer")  # worth less: the upright look stays
    read = second_looks.read_either_way(photo, small, slanted, lambda found: readings[id(found)], WIN)
    assert read[1] is upright_boxes and read[2][1] == "upright"


def _blank(width: int, height: int):  # noqa: ANN202
    """A photo of ``width`` x ``height`` pixels showing nothing."""
    return load_photo(cv2.imencode(".png", np.full((height, width, 3), 90, np.uint8))[1].tobytes())


def _hand(count: int, short: float) -> PhotoReading:
    """A hand of ``count`` tiles read in boxes ``short`` px wide."""
    box = ((0.0, 0.0), (short, 0.0), (short, 1.35 * short), (0.0, 1.35 * short))
    found = [FoundTile("1m", 0.9, box, 0.0, 0, True) for _ in range(count)]
    return PhotoReading(found, parse_notation("123456789m123p55s"), [], [], (4000, 3000))


def test_a_hand_is_seen_too_small_when_short_of_tiles_or_no_larger_than_the_finder_s_scale_seen_finer() -> None:
    photo = _blank(4000, 3000)  # the first pass sees it at 640 px, the finer one at 1,280
    largest = REFIND_SHORT * 4000 / second_looks.FINER_SIDE  # 112.5 px: the finder's 36 px in the finer pass
    assert second_looks.seen_too_small(photo, _hand(14, largest), WIN)
    assert not second_looks.seen_too_small(photo, _hand(14, largest * 1.1), WIN)  # larger would come out in pieces
    assert second_looks.seen_too_small(photo, _hand(5, 400.0), WIN)  # blobs of several tiles, read as a few
    assert not second_looks.seen_too_small(photo, _hand(13, 400.0), HandRules((14,), "waiting"))
    assert not second_looks.seen_too_small(photo, _hand(5, 400.0), HandRules((14,), "any"))  # no size asked
    assert second_looks.seen_too_small(photo, _hand(4, 400.0), HandRules((14,), "any"))  # ...but no hand either


def test_a_hand_is_small_in_the_photo_by_its_tiles_size_alone() -> None:
    photo = _blank(4000, 3000)
    largest = REFIND_SHORT * 4000 / second_looks.FINER_SIDE
    assert second_looks.small_in_photo(photo, second_looks.hand_quads(_hand(14, largest)))
    assert second_looks.small_in_photo(photo, second_looks.hand_quads(_hand(3, largest)))  # however few
    assert not second_looks.small_in_photo(photo, second_looks.hand_quads(_hand(3, largest * 1.1)))
    assert not second_looks.small_in_photo(photo, second_looks.hand_quads(_hand(0, 1.0)))  # no hand: nothing to size


def _quarter_turned_looks(monkeypatch: pytest.MonkeyPatch, first: PhotoReading,
                          worth: dict) -> tuple[list, tuple | None]:
    """The windows ``read_quarter_turned`` looked at (None: the whole photo) on a blank 4000 x 3000
    photo whose first look boxed one tile at (1000, 1000), and what it kept; ``worth`` gives each
    look's reading (by window, None for the whole photo)."""
    looked: list = []

    def located_turned(photo, degrees=90.0, window=None):  # noqa: ANN001, ANN202
        looked.append(window)
        return np.zeros((8, 8, 3), np.uint8), window

    monkeypatch.setattr(second_looks, "located_turned", located_turned)
    boxes = _boxes((1000, 1000, 1030, 1040))
    read = lambda window: (worth[window is not None], window)  # noqa: E731
    return looked, second_looks.read_quarter_turned(_blank(4000, 3000), first, boxes, read)


def test_a_far_hand_is_also_looked_at_turned_around_its_tiles_and_the_worthiest_look_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    far = _hand(14, 30.0)
    sure, surer = _reading(*[("1m", 0.9, True)] * 14), _reading(*[("1m", 0.99, True)] * 14)
    looked, kept = _quarter_turned_looks(monkeypatch, far, {False: sure, True: surer})
    assert looked[0] is None and len(looked) == 2
    x0, y0, x1, y1 = looked[1]  # the first look's box turned a quarter: (3000 - y, x), with a margin
    assert x0 < 3000 - 1040 and x1 > 3000 - 1000 and y0 < 1000 and y1 > 1030 and x1 - x0 < 1000
    assert kept[2] == (surer, looked[1])
    looked, kept = _quarter_turned_looks(monkeypatch, far, {False: surer, True: sure})
    assert kept[2] == (surer, None)  # the whole photo's look read worthier
    looked, kept = _quarter_turned_looks(monkeypatch, far, {False: far, True: far})
    assert kept is None  # neither beats the first


def test_a_near_hand_is_looked_at_turned_only_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    near = _hand(14, 200.0)
    sure = _reading(*[("1m", 0.99, True)] * 14)
    looked, kept = _quarter_turned_looks(monkeypatch, near, {False: sure, True: sure})
    assert looked == [None] and kept[2] == (sure, None)


def test_the_finer_look_needs_the_photo_s_pixels_and_is_kept_only_when_worth_more(monkeypatch: pytest.MonkeyPatch) -> None:
    sides: list[int] = []
    finer_boxes = _boxes((0, 0, 10, 14))

    def located(photo, refine=True, first_side=finder.WORK_SIDE, blobs_may_be_hands=False):  # noqa: ANN001, ANN202
        sides.append((first_side, blobs_may_be_hands))
        return np.zeros((8, 8, 3), np.uint8), finer_boxes

    monkeypatch.setattr(second_looks, "locate", located)
    worthier = (_reading(*[("1m", 0.9, True)] * 3), "finer")
    assert second_looks.read_finer(_blank(1000, 750), None, lambda found: worthier, WIN) is None
    assert sides == []  # under twice the working size: nothing finer to see
    photo = _blank(second_looks.FINER_SIDE, 960)
    small, boxes, second = second_looks.read_finer(photo, _reading(("1m", 0.5, True)), lambda found: worthier, WIN)
    # The finer look takes a first pass's large boxes for blobs of a far hand as readily as for a close-up's tiles
    assert sides == [(second_looks.FINER_SIDE, True)] and boxes is finer_boxes and second is worthier
    assert second_looks.read_finer(photo, worthier[0], lambda found: (_reading(("1m", 0.6, True)), ""), WIN) is None
    assert second_looks.read_finer(photo, None, lambda found: (_reading(("1m", 0.6, True)), ""), WIN) is not None

    def refused(found: TileDetections) -> tuple:
        raise FanscanError("no_tiles", "no tiles that way either")

    assert second_looks.read_finer(photo, None, refused, WIN) is None

    def never(found: TileDetections) -> tuple:
        raise AssertionError("the first look's own boxes were read again")

    same_boxes = TileDetections(finer_boxes.quads.copy(), finer_boxes.scores, finer_boxes.backs)
    assert second_looks.read_finer(photo, None, never, WIN, first_boxes=same_boxes) is None  # searched finer already


def test_a_first_look_of_no_tiles_is_refused_only_when_the_finer_look_reads_none_either(
        monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _blank(2000, 1500)
    first_boxes, finer_boxes = _boxes((0, 0, 100, 140)), _boxes((0, 0, 5, 7))  # not small in the photo
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "locate", lambda photo, first_side, blobs_may_be_hands: (small, finer_boxes))
    finer = (_reading(*[("1m", 0.95, True)] * 14), "finer")

    def read(found: TileDetections) -> tuple:
        if found is first_boxes:
            raise FanscanError("no_tiles", "the first look's boxes read as no tiles")
        return finer

    assert second_looks.read_either_way(photo, small, first_boxes, read, WIN)[1:] == (finer_boxes, finer)

    def never(found: TileDetections) -> tuple:
        raise FanscanError("no_tiles", "the first look's boxes read as no tiles")

    with pytest.raises(FanscanError, match="first look"):
        second_looks.read_either_way(photo, small, first_boxes, never, WIN)


def test_a_far_first_look_of_no_tiles_is_also_looked_at_a_quarter_turned_around_its_boxes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _blank(4000, 3000)
    far_boxes, turned_boxes = _boxes((1000, 1000, 1020, 1028)), _boxes((1000, 1000, 1028, 1020))
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "read_finer", lambda *args: None)  # the finer look reads none
    windows: list = []

    def located_turned(photo, degrees, window):  # noqa: ANN001, ANN202
        windows.append((degrees, window))
        return small, turned_boxes

    monkeypatch.setattr(second_looks, "located_turned", located_turned)
    turned = (_reading(*[("1m", 0.99, True)] * 14), "turned")

    def read(found: TileDetections) -> tuple:
        if found is far_boxes:
            raise FanscanError("no_tiles", "the first look's boxes read as no tiles")
        return turned

    assert second_looks.read_either_way(photo, small, far_boxes, read, WIN)[1:] == (turned_boxes, turned)
    assert windows == [(90.0, window_around(photo, 90.0, far_boxes))]

    def never(found: TileDetections) -> tuple:
        raise FanscanError("no_tiles", "the first look's boxes read as no tiles")

    with pytest.raises(FanscanError, match="first look"):  # that look reads none either: refused
        second_looks.read_either_way(photo, small, far_boxes, never, WIN)


def test_a_far_first_look_of_no_tiles_is_looked_at_turned_only_when_its_boxes_lie_together(
        monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _blank(4000, 3000)
    # four small boxes side by side low in the photo (a far hand's blobs), three strays far apart
    hand = [(1000 + 22 * k, 2500, 1020 + 22 * k, 2528) for k in range(4)]
    strays = [(100, 100, 120, 128), (3800, 200, 3820, 228), (2000, 1200, 2020, 1228)]
    monkeypatch.setattr(second_looks, "read_finer", lambda *args: None)
    windows: list = []

    def located_turned(photo, degrees, window):  # noqa: ANN001, ANN202
        windows.append(window)
        raise FanscanError("no_tiles", "that look reads none either")

    def read(found: TileDetections) -> tuple:
        raise FanscanError("no_tiles", "the first look's boxes read as no tiles")

    monkeypatch.setattr(second_looks, "located_turned", located_turned)
    small = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(FanscanError, match="first look"):
        second_looks.read_either_way(photo, small, _boxes(*hand), read, WIN)
    assert windows == [window_around(photo, 90.0, _boxes(*hand))]
    for scattered in (_boxes(*strays[:2], *hand, strays[2]), _boxes(*strays)):
        windows.clear()  # around them all would be nearly the whole photo turned: no such look
        with pytest.raises(FanscanError, match="first look"):
            second_looks.read_either_way(photo, small, scattered, read, WIN)
        assert windows == []


def test_a_hand_seen_whole_and_sure_gets_no_finer_look(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args):  # noqa: ANN002, ANN202
        raise AssertionError("a finer look was taken")

    monkeypatch.setattr(second_looks, "read_finer", never)
    monkeypatch.setattr(second_looks, "worth_a_second_look", lambda reading, rules: True)  # doubt asks for looks
    reading = reader.read_photo(sample_photo_path())  # 1,280 px: its tiles 32 px wide in the first pass
    assert len(reading.tiles) == 16


@pytest.mark.slow
def test_a_real_hand_far_in_a_phone_photo_is_read_on_the_finer_look() -> None:
    """IMG_20231030_230410 of rf-chinese (fold 4, held out), its tiles 80 px wide in a 4,000 x
    3,000 photo of a plain table: the first pass (13 px a tile) boxed blobs of several tiles,
    whose reading was refused as no tiles."""
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import least_turned, load_table_photos, upright_version
    from fanscan.vision.classifier import default_classifier

    photos = [p for p in least_turned(load_table_photos()) if p.source == "IMG_20231030_230410"]
    if not photos:
        pytest.skip("../shared/data/rf-chinese is not here")
    image, labels = photo_as_taken(photos[0], default_classifier(), upright_version(photos[0]))
    factor = 80.0 / float(np.median(np.minimum(labels[:, 2] - labels[:, 0], labels[:, 3] - labels[:, 1])))
    shrunk = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    canvas = np.empty((3000, 4000, 3), np.uint8)
    canvas[:] = np.median(image.reshape(-1, 3), axis=0)
    canvas[900:900 + shrunk.shape[0], 1500:1500 + shrunk.shape[1]] = shrunk
    reading = reader.read_photo(cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes())
    assert sorted(t.code for t in reading.tiles if t.in_hand) == sorted(photos[0].codes)


def test_a_few_sure_tiles_read_for_labelling_are_looked_at_finer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Blobs of several tiles can read as a few sure "tiles": no doubt to ask for a look, but no hand either.
    photo = _blank(2000, 1500)
    first_boxes, finer_boxes = _boxes((0, 0, 100, 140)), _boxes((0, 0, 5, 7))  # not small in the photo
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "locate", lambda photo, first_side, blobs_may_be_hands: (small, finer_boxes))
    monkeypatch.setattr(second_looks, "read_turned", lambda *args, **kwargs: None)
    readings = {id(first_boxes): (_hand(1, 400.0), "blob"), id(finer_boxes): (_hand(14, 60.0), "finer")}
    labelling = HandRules((14,), "any")
    assert not second_looks.worth_a_second_look(readings[id(first_boxes)][0], labelling)
    read = second_looks.read_either_way(photo, small, first_boxes, lambda found: readings[id(found)], labelling)
    assert read[1] is finer_boxes and read[2][1] == "finer"
    readings[id(first_boxes)] = (_hand(5, 400.0), "five whole tiles")  # a few large tiles: nothing to look at
    read = second_looks.read_either_way(photo, small, first_boxes, lambda found: readings[id(found)], labelling)
    assert read[1] is first_boxes


def test_the_finer_look_stands_tilted_tiles_upright_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # A far grid of tiles lying at 45 degrees: first seen as one blob, then finer, slanted.
    photo = _blank(2000, 1500)
    slanted = TileDetections(np.float32([[[10, 0], [20, 17], [3, 27], [-7, 10]]] * 5), np.ones(5, np.float32),
                             np.zeros(5, bool))
    upright_boxes = _boxes((0, 0, 10, 14))
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "locate", lambda photo, first_side, blobs_may_be_hands: (small, slanted))
    monkeypatch.setattr(second_looks, "located_turned", lambda photo, *turn: (small, upright_boxes))
    readings = {id(upright_boxes): (_reading(*[("1m", 0.99, True)] * 14), "upright"),
                id(slanted): (_reading(*[("1m", 0.6, True)] * 14), "slanted")}
    finer = second_looks.read_finer(photo, None, lambda found: readings[id(found)], WIN)
    assert finer[1] is upright_boxes and finer[2][1] == "upright"


def test_a_first_look_the_check_doubted_is_kept_turned_only_when_both_looks_together_show_tiles(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The look a quarter turned must reach one less the first look's probability of showing
    tiles (the two looks' mean at least a half), and is then taken once, not again as step 4."""
    from fanscan.vision.tile_photo import TilesNotShown

    photo = _blank(640, 480)
    first_boxes = _boxes(*[(100 * k, 0, 100 * k + 100, 140) for k in range(5)])  # a hand's boxes, not small
    turned_boxes = _boxes((0, 0, 140, 100))
    small = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setattr(second_looks, "read_finer", lambda *args: None)
    looks: list[float] = []

    def located_turned(photo, degrees=90.0, window=None):  # noqa: ANN001, ANN202
        assert window is None  # the whole photo
        return small, turned_boxes

    monkeypatch.setattr(second_looks, "located_turned", located_turned)
    turned = (_reading(*[("1m", 0.7, True)] * 14), "turned")  # doubtful: step 4 would look again

    def read(first_probability: float):  # noqa: ANN202
        def read_located(found: TileDetections) -> tuple:
            if found is first_boxes:
                raise TilesNotShown("the first look's boxes read as no tiles", first_probability)
            looks.append(photo.shows_tiles_from)
            if 0.8 < photo.shows_tiles_from:  # the turned look shows tiles at 0.8
                raise TilesNotShown("the turned look's boxes read as no tiles", 0.8)
            return turned
        return read_located

    assert second_looks.read_either_way(photo, small, first_boxes, read(0.3), WIN)[1:] == (turned_boxes, turned)
    assert looks == [pytest.approx(0.7)] and photo.shows_tiles_from == 0.5
    looks.clear()
    with pytest.raises(FanscanError, match="first look"):  # 0.1 and 0.8 together: under a half
        second_looks.read_either_way(photo, small, first_boxes, read(0.1), WIN)
    assert looks == [pytest.approx(0.9)] and photo.shows_tiles_from == 0.5
    looks.clear()
    few = _boxes(*[(100 * k, 0, 100 * k + 100, 140) for k in range(4)])  # fewer than a hand's: no turned look
    with pytest.raises(FanscanError, match="first look"):
        second_looks.read_either_way(photo, small, few, lambda found: read(0.45)(first_boxes), WIN)
    assert looks == []
