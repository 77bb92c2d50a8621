"""The second look at a photo turned a quarter: the boxes come back into the photo's frame, the
look is taken only when the first reading expects a fault, and the worthier reading is kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.scoring.notation import parse_notation
from fanscan.errors import FanscanError
from fanscan.vision import quarter_turn, reader
from fanscan.vision.detections import TileDetections
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.image_io import load_photo
from fanscan.vision.photo_reading import FoundTile, PhotoReading
from fanscan.vision.samples import sample_photo_path

WIN = HandRules((14,))


def _white_box(image: np.ndarray) -> np.ndarray:
    """The white pixels' bounding box as a quad, clockwise from the top left, pixel edges."""
    ys, xs = np.nonzero(image[:, :, 0] > 127)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    return np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])


def test_boxes_found_on_the_turned_photo_come_back_onto_the_same_pixels() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (40, 30), (100, 120), (255, 255, 255), -1)  # a tile standing upright
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    found = _white_box(turned)
    assert found[0, 1, 0] - found[0, 0, 0] > found[0, 2, 1] - found[0, 1, 1]  # lying down there
    back = quarter_turn.turned_back(found, photo_height=image.shape[0])
    np.testing.assert_allclose(back, _white_box(image))  # first corner the top left again


def test_the_turned_view_decodes_the_photo_turned_and_follows_its_balance() -> None:
    image = np.zeros((60, 90, 3), np.uint8)
    image[:10, :20] = (10, 200, 30)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    view = quarter_turn.QuarterTurned(photo)
    assert view.size == (60, 90) and (view.width, view.height) == (photo.height, photo.width)
    np.testing.assert_array_equal(view.decode(1), cv2.rotate(photo.decode(1), cv2.ROTATE_90_CLOCKWISE))
    table = np.clip(np.arange(256) * 2, 0, 255).astype(np.uint8).reshape(256, 1).repeat(3, axis=1).reshape(256, 1, 3)
    view.balance(table)
    assert photo.balanced and view.balanced
    np.testing.assert_array_equal(view.decode(1), cv2.rotate(photo.decode(1), cv2.ROTATE_90_CLOCKWISE))
    assert view.decode(1)[0, -1, 1] == 255  # the green top left corner, doubled, now at the top right


def _reading(*tiles: tuple[str, float, bool]) -> PhotoReading:
    found = [FoundTile(code, confidence, ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0, 0, in_hand)
             for code, confidence, in_hand in tiles]
    return PhotoReading(found, parse_notation("123456789m123p55s"), [], [], (100, 100))


def test_expected_faults_count_doubtful_faces_and_tiles_missing_from_the_smallest_hand() -> None:
    sure = _reading(*[("1m", 0.99, True)] * 14)
    assert quarter_turn.expected_faults(sure, WIN) == pytest.approx(0.14)
    assert not quarter_turn.worth_a_second_look(sure, WIN)
    doubtful = _reading(*[("1m", 0.9, True)] * 14)
    assert quarter_turn.expected_faults(doubtful, WIN) == pytest.approx(1.4)
    assert quarter_turn.worth_a_second_look(doubtful, WIN)
    short = _reading(*[("1m", 1.0, True)] * 12, ("2m", 0.2, False))  # the tile apart is not the hand's
    assert quarter_turn.expected_faults(short, WIN) == pytest.approx(2.0)
    assert quarter_turn.expected_faults(short, HandRules((14,), "waiting")) == pytest.approx(1.0)
    assert quarter_turn.expected_faults(short, HandRules((14,), "any")) == pytest.approx(0.0)
    # A face-down tile's confidence is the finder's, no face read: not a fault.
    backs = _reading(*[("1m", 1.0, True)] * 12, ("back", 0.6, True), ("back", 0.6, True))
    assert quarter_turn.expected_faults(backs, WIN) == pytest.approx(0.0)


def test_the_second_reading_is_kept_only_when_worth_more() -> None:
    first = _reading(*[("1m", 0.8, True)] * 14, ("2m", 0.99, False))
    assert quarter_turn.net_worth(first) == pytest.approx(14 * 0.6)
    more_tiles_surer = _reading(*[("1m", 0.95, True)] * 14)
    more_doubtful_tiles = _reading(*[("1m", 0.55, True)] * 20)  # 20 tiles worth 0.1 each
    assert quarter_turn.better(more_tiles_surer, first)
    assert not quarter_turn.better(more_doubtful_tiles, first)
    assert not quarter_turn.better(first, first)  # a tie keeps the first


def test_a_reading_the_reader_is_sure_of_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(photo):  # noqa: ANN001, ANN202
        raise AssertionError("the sure sample was read again turned")

    monkeypatch.setattr(quarter_turn, "located_turned", never)
    reading = reader.read_photo(sample_photo_path())
    assert quarter_turn.expected_faults(reading, reader.hand_rules()) < quarter_turn.FAULTS_WORTH_A_LOOK


def _box_centres(reading: PhotoReading) -> np.ndarray:
    return np.array([np.mean(t.box, axis=0) for t in reading.tiles if t.in_hand])


def test_the_turned_reading_reads_the_same_tiles_in_the_photo_s_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = reader.read_photo(sample_photo_path())
    monkeypatch.setattr(quarter_turn, "worth_a_second_look", lambda reading, rules: True)
    seconds: list[PhotoReading] = []
    monkeypatch.setattr(quarter_turn, "better", lambda second, first: seconds.append(second) or True)
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
    monkeypatch.setattr(quarter_turn, "worth_a_second_look", lambda reading, rules: True)
    monkeypatch.setattr(quarter_turn, "located_turned", lambda photo: (np.zeros((8, 8, 3), np.uint8), nothing))
    assert reader.read_photo(sample_photo_path()).hand.to_json() == plain.hand.to_json()


def _boxes(*corners: tuple[float, float, float, float]) -> TileDetections:
    quads = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in corners]).reshape(-1, 4, 2)
    return TileDetections(quads, np.ones(len(quads), np.float32), np.zeros(len(quads), bool))


def test_the_turned_reading_is_kept_only_when_worth_more(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = load_photo(sample_photo_path())
    other = _boxes((0, 0, 10, 14), (10, 0, 20, 14), (20, 0, 30, 14))
    monkeypatch.setattr(quarter_turn, "located_turned", lambda photo: (np.zeros((8, 8, 3), np.uint8), other))
    worthier = (_reading(*[("1m", 0.9, True)] * 3), "the hand read")
    small, boxes, second = quarter_turn.read_turned(photo, _reading(("1m", 0.5, True)), lambda found: worthier)
    assert boxes is other and second is worthier
    assert quarter_turn.read_turned(photo, worthier[0], lambda found: (_reading(("1m", 0.6, True)), "")) is None


def test_a_photo_whose_boxes_read_as_no_tiles_is_refused_without_a_second_look(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(photo):  # noqa: ANN001, ANN202
        raise AssertionError("a photo of no tiles was looked at again")

    monkeypatch.setattr(quarter_turn, "located_turned", never)
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(FanscanError) as refused:
        reader.read_photo(cv2.imencode(".png", noise)[1].tobytes())
    assert refused.value.code == "no_tiles"


def test_a_photo_read_for_labelling_gets_the_second_look_too(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[HandRules] = []

    def doubtful(reading: PhotoReading, rules: HandRules) -> bool:
        asked.append(rules)
        return True

    seconds: list[PhotoReading] = []
    monkeypatch.setattr(quarter_turn, "worth_a_second_look", doubtful)
    monkeypatch.setattr(quarter_turn, "better", lambda second, first: seconds.append(second) or True)
    every_tile = reader.read_photo(sample_photo_path(), one_hand=False)
    assert seconds == [every_tile] and all(t.in_hand for t in every_tile.tiles)
    assert [rules.kind for rules in asked] == ["any"]  # no hand the tiles could be short of


def test_a_second_look_past_the_read_s_budget_leaves_the_first_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = reader.read_photo(sample_photo_path())

    def too_large(photo):  # noqa: ANN001, ANN202
        raise FanscanError("image_too_large", "the turned look's decode would pass the budget")

    monkeypatch.setattr(quarter_turn, "worth_a_second_look", lambda reading, rules: True)
    monkeypatch.setattr(quarter_turn, "located_turned", too_large)
    assert reader.read_photo(sample_photo_path()).hand.to_json() == plain.hand.to_json()
