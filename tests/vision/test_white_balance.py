"""Taking a colour cast out, judged on tile bodies: the gains, the photo's balance, the finder's use."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.photo_effects import CASTS
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import locate, white_balance
from fanscan.vision.image_io import load_photo
from fanscan.vision.white_balance import BODY_REFERENCE

TUNGSTEN = np.float32(CASTS[0])  # BGR gains of a warm indoor lamp
MAGENTA = np.float32([1.0, 0.12, 0.95])  # a mood lamp: next to no green left on the tiles


def _gains(bodies: list[np.ndarray]) -> np.ndarray | None:
    level = white_balance.body_level(bodies)
    return None if level is None else white_balance.cast_gains(level)


def _bodies(cast: np.ndarray, n: int = 7) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    bodies = []
    for _ in range(n):
        body = np.empty((30, 22, 3), np.float32)
        body[:] = BODY_REFERENCE * rng.uniform(0.8, 1.0)
        body[8:20, 6:16] = (40, 40, 170)  # ink, darker than the body: below the 90th percentile
        bodies.append(np.clip(body * cast, 0, 255).astype(np.uint8))
    return bodies


def test_body_gains_bring_the_bodies_to_the_reference_ivory() -> None:
    neutral = _gains(_bodies(np.ones(3, np.float32)))
    assert neutral is not None and white_balance.cast_strength(neutral) < 0.02
    gains = _gains(_bodies(TUNGSTEN))
    assert gains is not None and white_balance.cast_strength(gains) > 0.3
    balanced = [cv2.LUT(b, white_balance.lookup_table(gains)) for b in _bodies(TUNGSTEN)]
    level = np.median(np.concatenate([b[:5].reshape(-1, 3) for b in balanced]), axis=0)
    assert np.allclose(level / level.mean(), BODY_REFERENCE / BODY_REFERENCE.mean(), atol=0.03)


def test_body_gains_of_nothing_and_the_gain_limit() -> None:
    assert _gains([]) is None
    assert _gains([np.zeros((0, 3), np.uint8)]) is None
    blue = _bodies(np.float32([1.0, 0.2, 0.2]))  # no light is this blue: capped, not inverted
    gains = _gains(blue)
    assert gains is not None
    assert gains.max() <= white_balance.MAX_GAIN + 1e-6 and gains.min() >= 1 / white_balance.MAX_GAIN - 1e-6


def test_a_cast_beyond_the_gains_reach_is_told_from_one_within_it() -> None:
    assert white_balance.beyond_reach(white_balance.body_level(_bodies(MAGENTA)))
    assert not white_balance.beyond_reach(white_balance.body_level(_bodies(TUNGSTEN)))
    assert not white_balance.beyond_reach(white_balance.body_level(_bodies(np.ones(3, np.float32))))


def test_lookup_table_scales_each_channel_and_clips() -> None:
    table = white_balance.lookup_table(np.float32([0.5, 1.0, 2.0]))
    pixel = np.array([[[100, 100, 100], [250, 250, 250]]], np.uint8)
    out = cv2.LUT(pixel, table)
    assert out[0, 0].tolist() == [50, 100, 200] and out[0, 1].tolist() == [125, 250, 255]


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


def test_photo_balance_applies_to_decodes_made_and_to_come() -> None:
    image = np.full((400, 600, 3), (100, 150, 200), np.uint8)
    photo = load_photo(_jpeg(image))
    before = photo.decode(2).astype(int)
    assert not photo.balanced
    photo.balance(white_balance.lookup_table(np.float32([2.0, 1.0, 0.5])))
    after = photo.decode(2).astype(int)
    assert abs(after[..., 0] - 2 * before[..., 0]).max() <= 1 and abs(after[..., 2] - before[..., 2] // 2).max() <= 1
    full = photo.decode(1).astype(int)  # decoded after the balance: balanced too
    assert abs(np.median(full[..., 0]) - 200) <= 3 and abs(np.median(full[..., 2]) - 100) <= 3
    assert photo.balanced
    with pytest.raises(ValueError):
        photo.balance(white_balance.lookup_table(np.ones(3, np.float32)))


def _under(image: np.ndarray, gains: np.ndarray) -> bytes:
    return _jpeg(np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8))


def _hand_key(hand: dict) -> tuple:
    return sorted(hand["concealed"]), hand["melds"], hand["win_tile"], sorted(hand["flowers"])


@pytest.mark.skipif("xmahjongg-real" not in tile_art.available_styles(), reason="xmahjongg not installed")
def test_a_hand_under_a_tungsten_lamp_is_balanced_then_read_exactly() -> None:
    # Seed 16019 under this cast: before the photo was balanced, the finder found 8 of its 14
    # tiles and the hand was lost.
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.reader import read_photo

    scene = generate_scene(16019)
    assert scene.style == "xmahjongg-real"
    photo = load_photo(_under(scene.image, TUNGSTEN))
    _, found = locate.locate(photo)
    assert photo.balanced
    assert len(found) == len(scene.tiles)
    assert len(locate.locate(photo)[1]) == len(found)  # located again: balanced once, not twice
    assert _hand_key(read_photo(_under(scene.image, TUNGSTEN)).hand.to_json()) == _hand_key(scene.hand)


@pytest.mark.skipif("kmahjongg-default" not in tile_art.available_styles(), reason="kmahjongg not installed")
def test_a_hand_under_a_magenta_lamp_is_read_in_black_and_white() -> None:
    # Balanced within the gains' reach instead, its colours still magenta, the hand was misread.
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.reader import read_photo

    scene = generate_scene(16022)
    assert scene.style == "kmahjongg-default"
    photo = load_photo(_under(scene.image, MAGENTA))
    locate.locate(photo)
    assert photo.balanced and photo.beyond_reach
    assert _hand_key(read_photo(_under(scene.image, MAGENTA)).hand.to_json()) == _hand_key(scene.hand)


@pytest.mark.skipif("xmahjongg-real" not in tile_art.available_styles(), reason="xmahjongg not installed")
def test_a_photo_under_neutral_light_is_left_as_it_is() -> None:
    from fanscan.datasets.scenes import generate_scene

    photo = load_photo(generate_scene(16019).jpeg)
    locate.locate(photo)
    assert not photo.balanced



def _faces_beside_a_blue_wall() -> tuple:
    """A photo of four ivory faces under neutral light beside a wall of eight blue backs, the
    boxes, and which of them the finder marked face down."""
    image = np.full((260, 900, 3), 60, np.uint8)
    quads, backs = [], []
    for k in range(12):
        x0 = 20 + 72 * k
        image[90:170, x0 : x0 + 70] = BODY_REFERENCE if k < 4 else (200, 110, 40)
        quads.append(np.float32([[x0, 90], [x0 + 70, 90], [x0 + 70, 170], [x0, 170]]))
        backs.append(k >= 4)
    return image, np.stack(quads), np.array(backs)


def test_a_wall_of_coloured_backs_is_no_colour_cast() -> None:
    # Judged on every tile, the blue would pass for a strong cast and the photo be "balanced".
    from fanscan.vision.detections import TileDetections

    image, quads, backs = _faces_beside_a_blue_wall()
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    assert not white_balance.balanced_for_cast(photo, image, TileDetections(quads, np.full(12, 0.9, np.float32), backs))
    assert not photo.balanced
    as_faces = TileDetections(quads, np.full(12, 0.9, np.float32), np.zeros(12, bool))
    assert white_balance.balanced_for_cast(photo, image, as_faces)  # the same boxes, taken as faces


def test_a_photo_under_a_light_beyond_the_gains_reach_is_balanced_and_marked_so() -> None:
    from fanscan.vision.detections import TileDetections

    image, quads, _ = _faces_beside_a_blue_wall()
    faces = TileDetections(quads[:4], np.full(4, 0.9, np.float32), np.zeros(4, bool))
    for cast, beyond in ((MAGENTA, True), (TUNGSTEN, False)):
        under = np.clip(image.astype(np.float32) * cast, 0, 255).astype(np.uint8)
        photo = load_photo(cv2.imencode(".png", under)[1].tobytes())
        assert white_balance.balanced_for_cast(photo, photo.decode(1), faces)
        assert photo.balanced and photo.beyond_reach == beyond
        assert not _channels_alike(photo.decode(1))  # balanced in colour, as far as the gains go


def test_a_photo_read_in_grey_and_in_colour_again() -> None:
    image, _, _ = _faces_beside_a_blue_wall()
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    before = photo.decode(1).copy()
    photo.balance(white_balance.lookup_table(np.float32([1.0, 1.0, 1.2])))
    photo.read_in_grey(True)
    assert _channels_alike(photo.decode(1)) and _channels_alike(photo.decode(2))  # made before and to come
    assert photo.held_bytes > len(photo.data) + before.nbytes  # the grey copies held beside the colour ones
    assert (photo.decode_as_taken(1) == image).all()  # drawn on as taken
    photo.read_in_grey(False)
    again = photo.decode(1)
    assert not _channels_alike(again) and (again[..., 2] >= before[..., 2]).all()  # in colour, balanced


def test_the_grey_look_is_kept_only_when_its_boxes_read_better() -> None:
    from fanscan.vision.detections import TileDetections

    image, quads, _ = _faces_beside_a_blue_wall()
    colour = (image, TileDetections(quads, np.full(12, 0.9, np.float32), np.zeros(12, bool)))
    grey = (image, TileDetections(quads[:4], np.full(4, 0.9, np.float32), np.zeros(4, bool)))
    for grey_reads_better in (True, False):
        photo = load_photo(cv2.imencode(".png", image)[1].tobytes())

        def judge(found: TileDetections) -> float:  # reads the photo as it is when asked
            in_grey = _channels_alike(photo.decode(1))
            return 1.0 if in_grey == grey_reads_better else 0.5

        kept = white_balance.better_in_grey(photo, colour, lambda: grey, judge)
        assert kept is (grey if grey_reads_better else colour)
        assert _channels_alike(photo.decode(1)) == grey_reads_better  # left read the way kept


def test_a_grey_look_past_the_reads_budget_leaves_the_photo_read_in_colour() -> None:
    from fanscan.errors import FanscanError
    from fanscan.vision.detections import TileDetections

    image, quads, _ = _faces_beside_a_blue_wall()
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    colour = (image, TileDetections(quads, np.full(12, 0.9, np.float32), np.zeros(12, bool)))

    def too_large() -> tuple:
        raise FanscanError("image_too_large", "the grey copies need more than the read may hold")

    assert white_balance.better_in_grey(photo, colour, too_large, lambda found: 0.5) is colour
    assert not _channels_alike(photo.decode(1))


def _channels_alike(image: np.ndarray) -> bool:
    return bool((image[..., 0] == image[..., 1]).all() and (image[..., 1] == image[..., 2]).all())


class _Recording:
    """A classifier stand-in that reads the first four crops of a call as 3m, the rest as backs,
    and keeps the crops it was given."""

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.crops += crops
        probs = np.zeros((len(crops), len(CLASS_LABELS)), np.float32)
        probs[:4, CLASS_LABELS.index("3m")] = probs[4:, CLASS_LABELS.index("back")] = 1.0
        return probs


def test_the_crops_light_is_judged_on_the_faces_not_on_a_walls_coloured_backs() -> None:
    # Judged on every tile, the wall's blue would tint the faces' crops orange (and brighten them).
    from fanscan.vision import tile_reading
    from fanscan.vision.detections import TileDetections

    image, quads, backs = _faces_beside_a_blue_wall()
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    classifier = _Recording()
    readings, _, _ = tile_reading.read_tiles(photo, TileDetections(quads, np.full(12, 0.9, np.float32), backs),
                                             classifier)
    assert [r.code for r in readings] == ["3m"] * 4 + ["back"] * 8
    for crop in classifier.crops[:4]:
        middle = crop[40:90, 30:66].reshape(-1, 3).mean(axis=0)
        assert middle == pytest.approx(BODY_REFERENCE, abs=4)


def _png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def _lit(image: np.ndarray, light: np.ndarray | float) -> np.ndarray:
    return np.clip(image.astype(np.float32) * light, 0, 255).astype(np.uint8)


def test_a_photos_bright_level_is_its_brightest_channels() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    image[..., 2] = 200
    image[0, :1] = 255  # one pixel in 10,000, brighter than the rest: a highlight, no tile
    assert white_balance.bright_level(image) == 200
    image[..., 0] = 230  # a magenta lamp's photo: bright in blue and red, with next to no green
    assert white_balance.bright_level(image) == 230


def test_a_dim_photo_is_brightened_to_the_light_the_networks_learnt_and_a_lit_one_is_not() -> None:
    image, _, _ = _faces_beside_a_blue_wall()  # ivory faces: a bright level of 241
    for light, dim in ((0.35, True), (0.6, True), (1.0, False), (MAGENTA, False)):
        photo = load_photo(_png(_lit(image, light)))
        assert white_balance.brightened_when_dim(photo, photo.decode(1), 1) == dim
        assert ("dim" in photo.balanced_for) == dim == photo.balanced
        level = white_balance.bright_level(photo.decode(1))
        assert abs(level - white_balance.DIM_BELOW) <= 2 if dim else level >= white_balance.DIM_BELOW


def test_a_dim_photo_under_a_lamp_is_brightened_then_balanced_in_one_table() -> None:
    from fanscan.vision.detections import TileDetections

    image, quads, _ = _faces_beside_a_blue_wall()
    photo = load_photo(_png(_lit(image, TUNGSTEN * 0.4)))
    assert white_balance.brightened_when_dim(photo, photo.decode(1), 1)
    faces = TileDetections(quads[:4], np.full(4, 0.9, np.float32), np.zeros(4, bool))
    assert white_balance.balanced_for_cast(photo, photo.decode(1), faces)
    assert photo.balanced_for == {"dim", "cast"}
    body = np.median(photo.decode(1)[100:160, 30:80].reshape(-1, 3), axis=0)
    assert np.allclose(body / body.mean(), BODY_REFERENCE / BODY_REFERENCE.mean(), atol=0.05)  # the lamp's hue gone
    assert body.mean() > 0.7 * white_balance.DIM_BELOW  # and the light brought up
    assert not white_balance.balanced_for_cast(photo, photo.decode(1), faces)  # each once
    with pytest.raises(ValueError):
        photo.balance(white_balance.lookup_table(np.ones(3, np.float32)), takes_out="dim")


@pytest.mark.skipif("xmahjongg-real" not in tile_art.available_styles(), reason="xmahjongg not installed")
def test_a_hand_in_a_dim_room_is_brightened_then_read_exactly() -> None:
    # A quarter of the light and sensor noise: before dim photos were brightened, this photo was
    # refused as showing no tiles.
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.reader import read_photo

    scene = generate_scene(229303)
    assert scene.style == "xmahjongg-real"
    noise = np.random.default_rng(229303).normal(0, 7, scene.image.shape)
    dim = np.clip(scene.image.astype(np.float32) * 0.25 + noise, 0, 255).astype(np.uint8)
    data = cv2.imencode(".jpg", dim, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    photo = load_photo(data)
    locate.locate(photo)
    assert "dim" in photo.balanced_for
    assert _hand_key(read_photo(data).hand.to_json()) == _hand_key(scene.hand)


def test_a_far_hand_on_a_dark_table_is_no_dim_photo() -> None:
    # Its ivory, in strips 2 px wide in a 2,000 px decode, blends with the table in the finder's
    # 640 px copy (3.1 pixels of the decode to one of the copy): only the decode shows its light.
    from fanscan.vision import finder

    image = np.full((1500, 2000, 3), 40, np.uint8)
    for k in range(60):
        image[700:706, 600 + 4 * k : 602 + 4 * k] = BODY_REFERENCE
    photo = load_photo(_png(image))
    small, _ = finder.working_image(photo.decode(1), finder.WORK_SIDE)
    assert white_balance.bright_level(small) < white_balance.DIM_BELOW  # the copy alone looks dim
    assert not white_balance.brightened_when_dim(photo, small, 1) and not photo.balanced
