"""The layout analyser on hand-made tile arrangements (no images): rows, groups, melds, doubts."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import face_up_of, hand_frame, orient_box, orient_boxes, orientation_degrees
from fanscan.vision.layout import analyse

W, H = 30.0, 40.0  # a tile's face in pixels


def _tile(code: str, x: float, y: float, sideways: bool = False, confidence: float = 0.99) -> TileReading:
    w, h = (H, W) if sideways else (W, H)
    box = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    return TileReading(code, confidence, box, 90.0 if sideways else 0.0, sideways, x + w / 2)


def _row(spec: str, y: float = 100.0, x: float = 0.0, gap: float = 12.0) -> list[TileReading]:
    """Tiles from a spec such as '1m 2m 3m | 4p' ('|' is a gap, '_' marks a sideways tile)."""
    tiles = []
    for token in spec.split():
        if token == "|":
            x += gap
            continue
        sideways = token.startswith("_")
        code = token.lstrip("_")
        tiles.append(_tile(code, x, y + (H - W if sideways else 0), sideways))
        x += (H if sideways else W) + 1
    return tiles


def _analyse(tiles: list[TileReading]):
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return analyse(tiles, right, up)


def test_layout_concealed_row_and_win_tile_apart() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m")
    layout = _analyse(tiles)
    assert layout.hand["concealed"] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m", "8m"]
    assert layout.hand["win_tile"] == "8m"
    assert layout.hand["melds"] == []
    assert layout.doubts == ()


def test_layout_sideways_tile_makes_an_exposed_meld() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | _5s 4s 6s | 9p _9p 9p")
    layout = _analyse(tiles)
    assert {"type": "chow", "tiles": ["4s", "5s", "6s"], "concealed": False} in layout.hand["melds"]
    assert {"type": "pung", "tiles": ["9p"] * 3, "concealed": False} in layout.hand["melds"]
    assert layout.hand["win_tile"] == "8m"
    assert len(layout.hand["concealed"]) == 11


def test_layout_concealed_kong_and_flowers_anywhere() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | back C C back | 3f", y=100)
    tiles += _row("6f", y=20, x=40)
    layout = _analyse(tiles)
    assert {"type": "kong", "tiles": ["C"] * 4, "concealed": True} in layout.hand["melds"]
    assert sorted(layout.hand["flowers"]) == ["3f", "6f"]
    assert "back" not in layout.hand["concealed"]


def test_layout_four_backs_is_a_doubt() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | back back back back")
    layout = _analyse(tiles)
    assert layout.hand["melds"] == []
    assert any("four backs" in d for d in layout.doubts)


def test_layout_melds_in_a_row_of_their_own() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m", y=100)
    tiles += _row("9s 9s 9s", y=30, x=60)
    layout = _analyse(tiles)
    assert layout.hand["melds"] == [{"type": "pung", "tiles": ["9s"] * 3, "concealed": False}]
    assert len(layout.alternatives) == 1
    description, other = layout.alternatives[0]
    assert "concealed" in description
    assert other["melds"] == [] and other["concealed"].count("9s") == 3
    assert other["concealed"][-1] == "8m"


def test_layout_no_tile_apart_gives_win_alternatives() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m")
    layout = _analyse(tiles)
    assert layout.hand["win_tile"] == "8m"
    assert any("winning tile" in d for d in layout.doubts)
    wins = {alt["win_tile"] for _, alt in layout.alternatives}
    assert wins == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "6m", "7m"}


def test_layout_offers_other_winning_tiles_only_to_a_hand_of_a_size_some_hand_has() -> None:
    eleven = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E"))  # 11 % 3 == 2, but no hand holds 11
    assert not any(why.startswith("winning tile") for why, _ in eleven.alternatives)
    assert not any("pick another reading" in d for d in eleven.doubts)


def test_layout_only_flowers_says_no_concealed_tiles_once() -> None:
    layout = _analyse(_row("1f 2f 3f 4f"))
    assert "No concealed tiles were found." in layout.doubts
    assert not any(d.startswith("The photo shows 0") for d in layout.doubts)


def test_layout_sixteen_tile_hand_is_not_forced_to_fourteen() -> None:
    tiles = _row("1m 2m 3m 4m 5m 6m 7p 8p 9p 1s 2s 3s 4s 5s 6s E | E")
    layout = _analyse(tiles)
    assert len(layout.hand["concealed"]) == 17
    assert layout.hand["win_tile"] == "E"
    assert not any("cannot be a complete hand" in d for d in layout.doubts)


def test_layout_impossible_count_is_a_doubt() -> None:
    layout = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m | 7m"))
    assert any("13 playing tiles" in d for d in layout.doubts)


def test_layout_sideways_group_that_is_no_set_is_a_doubt() -> None:
    layout = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E | 8m | _1s 5p 9m"))
    assert any("not a chow, pung or kong" in d for d in layout.doubts)
    assert layout.hand["melds"] == []


def test_layout_a_long_row_with_a_sideways_tile_names_that_tile() -> None:
    # "Check those tiles" of a row of 14 points at none: the doubt names the sideways tile.
    layout = _analyse(_row("1m 2m 3m 4p 5p _C 7s 8s 9s E E 6m 7m 8m"))
    said = [d for d in layout.doubts if "sideways" in d]
    assert said == ["The 6th tile (C) of the row 1m 2m 3m 4p 5p C 7s 8s 9s E E 6m 7m 8m lies sideways as a "
                    "claimed tile does, but the row is no chow, pung or kong: check whether it lies "
                    "sideways; the row was counted as concealed tiles."]
    short = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E | 8m | _1s 5p 9m"))
    assert any(d.startswith("The group 1s 5p 9m has a sideways (claimed) tile") for d in short.doubts)
    alone = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m | 8m | _S"))
    assert any(d.startswith("The tile S lies sideways as a claimed tile does, but alone") for d in alone.doubts)


@pytest.mark.parametrize(("up", "degrees"), [((0, -1), 0), ((-1, 0), 90), ((0, 1), 180), ((1, 0), 270)])
def test_layout_orientation_degrees(up: tuple[int, int], degrees: float) -> None:
    assert orientation_degrees(np.array(up, float)) == pytest.approx(degrees)
    assert face_up_of(degrees) == pytest.approx(up, abs=1e-9)  # and back
    slanted = np.array([0.6, -0.8])
    assert face_up_of(orientation_degrees(slanted)) == pytest.approx(slanted)


def test_layout_orient_box_puts_the_face_top_left_first() -> None:
    quad = np.float32([[0, 0], [30, 0], [30, 40], [0, 40]])
    assert orient_box(quad, np.array([0.0, -1.0])).tolist() == quad.tolist()
    # Face top pointing left: the face's top-left corner is the quad's bottom-left one.
    turned = orient_box(quad, np.array([-1.0, 0.0]))
    assert turned[0].tolist() == [0, 40] and turned[1].tolist() == [0, 0]


def test_layout_orient_boxes_orients_each_quad_as_alone() -> None:
    rng = np.random.default_rng(5)
    base = np.float32([[0, 0], [30, 0], [30, 40], [0, 40]]) - np.float32([15, 20])
    quads, ups = [], []
    for _ in range(40):
        angle = rng.uniform(0, 2 * np.pi)
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quads.append((base @ rotation.T + rng.uniform(0, 500, 2)).astype(np.float32)[rng.permutation(4)])
        up_angle = rng.uniform(0, 2 * np.pi)
        ups.append(np.array([np.cos(up_angle), np.sin(up_angle)]))
    many = orient_boxes(np.stack(quads), np.stack(ups))
    for quad, up, oriented in zip(quads, ups, many):
        assert np.array_equal(oriented, orient_box(quad, up))
        assert sorted(map(tuple, oriented.tolist())) == sorted(map(tuple, quad.tolist()))
    assert orient_boxes(np.zeros((0, 4, 2)), np.zeros((0, 2))).shape == (0, 4, 2)


def test_layout_hand_frame_follows_a_rotated_hand() -> None:
    angle = np.radians(20)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quads = np.stack([t.box @ rotation.T for t in _row("1m 2m 3m 4m _5m 6m")])
    right, up = hand_frame(quads)
    assert right @ rotation[:, 0] == pytest.approx(1, abs=0.02)
    assert up[1] < 0


def test_layout_hand_frame_ignores_strays_and_tiles_beside_the_row() -> None:
    # A row at 15 degrees; a flower laid just above its last tile, and a pair of stray boxes far
    # off whose nearest neighbours point elsewhere: the frame still follows the row.
    angle = np.radians(15)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    row = [t.box for t in _row("1m 2m 3m 4m 5m 6m 7m 8m")]
    flower = row[-1] + np.float32([0, -50])
    strays = [row[0] + np.float32([600, -900]), row[0] + np.float32([700, -760])]
    quads = np.stack([q @ rotation.T for q in [*row, flower, *strays]])
    right, _ = hand_frame(quads)
    assert right @ rotation[:, 0] == pytest.approx(1, abs=0.005)  # within about 6 degrees


def test_layout_sideways_flags_survive_a_tilted_camera() -> None:
    # Seen at 45 degrees an upright tile looks nearly square (30 x 28); the claimed tile lying
    # across the row is clearly wider and lower (40 x 21).
    from fanscan.vision.geometry import sideways_flags

    boxes = [np.float32([[x, 0], [x + 30, 0], [x + 30, 28], [x, 28]]) for x in (0, 31, 62)]
    boxes.append(np.float32([[93, 7], [133, 7], [133, 28], [93, 28]]))
    flags = sideways_flags(np.stack(boxes), np.array([1.0, 0.0]), np.array([0.0, -1.0]))
    assert flags == [False, False, False, True]


def test_layout_sideways_flags_measure_chords_not_slanted_extents() -> None:
    # A claimed tile's box slanted by perspective (its long sides climbing across the row) spans
    # 130 px across the row in all, but only 70 through its centre: it still lies across the row.
    from fanscan.vision.geometry import sideways_flags

    boxes = [np.float32([[x, 0], [x + 70, 0], [x + 70, 95], [x, 95]]) for x in (0, 71, 142)]
    boxes.append(np.float32([[213, 0], [333, -60], [333, 10], [213, 70]]))
    flags = sideways_flags(np.stack(boxes), np.array([1.0, 0.0]), np.array([0.0, 1.0]))
    assert flags == [False, False, False, True]


def test_layout_hand_frame_follows_the_row_when_tiles_look_wider_than_high() -> None:
    # A camera tilted about 50 degrees shrinks an upright tile's height below its width: the
    # tiles' long axes run along the row, but the row still runs where the neighbours are.
    quads = np.stack([np.float32([[x, 0], [x + 30, 0], [x + 30, 24], [x, 24]]) for x in range(0, 310, 31)])
    right, up = hand_frame(quads)
    assert abs(right[0]) == pytest.approx(1, abs=0.01)
    assert up[1] == pytest.approx(-1, abs=0.01)


def test_layout_groups_of_slanted_faces_split_at_their_gaps() -> None:
    # Perspective slants the faces' sides towards a vanishing point (the top edge of a face at
    # the row's ends is shifted 20 px or more against its bottom edge), so a face's whole extent
    # overlaps its neighbour's; measured through the centres, the row still shows its 12 px
    # gaps, and the pung laid apart is read as an exposed meld.
    def slanted(code: str, x: float) -> TileReading:
        shift = (x - 260) * 0.1
        box = np.float32([[x + shift, 0], [x + 30 + shift, 0], [x + 30, 40], [x, 40]])
        return TileReading(code, 0.99, box, 0.0, False, x + 15)

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m", "|", "8m", "|"]
    codes += ["9s"] * 3
    tiles, x = [], 0.0
    for code in codes:
        if code == "|":
            x += 12
            continue
        tiles.append(slanted(code, x))
        x += 31
    layout = _analyse(tiles)
    assert layout.hand["win_tile"] == "8m"
    assert layout.hand["melds"] == [{"type": "pung", "tiles": ["9s"] * 3, "concealed": False}]


def test_layout_sideways_flags_compare_aspect_not_size() -> None:
    # Tiles far from the camera look smaller: the far claimed tile is no wider than an upright
    # tile near the camera, yet its aspect (along the row over across it) is twice theirs.
    from fanscan.vision.geometry import sideways_flags

    boxes = [np.float32([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]]) for x in (0, 31, 62)]
    boxes.append(np.float32([[93, 10], [133, 10], [133, 40], [93, 40]]))  # claimed, near
    boxes.append(np.float32([[140, 18], [170, 18], [170, 40], [140, 40]]))  # claimed, far
    boxes.append(np.float32([[175, 12], [198, 12], [198, 40], [175, 40]]))  # upright, far
    flags = sideways_flags(np.stack(boxes), np.array([1.0, 0.0]), np.array([0.0, -1.0]))
    assert flags == [False, False, False, True, True, False]


def test_layout_gap_inside_a_claimed_meld_is_closed() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | _6p 7p | 8p")
    layout = _analyse(tiles)
    assert {"type": "chow", "tiles": ["6p", "7p", "8p"], "concealed": False} in layout.hand["melds"]
    assert not any("sideways" in d for d in layout.doubts)


def test_layout_claimed_meld_touching_another_group_is_split_off() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | _4s 4s 4s 9p 9p 9p")
    layout = _analyse(tiles)
    assert {"type": "pung", "tiles": ["4s"] * 3, "concealed": False} in layout.hand["melds"]
    assert {"type": "pung", "tiles": ["9p"] * 3, "concealed": False} in layout.hand["melds"]


def test_layout_a_tile_turned_sideways_at_the_rows_end_is_the_winning_tile_the_riichi_way() -> None:
    from fanscan.vision.layout_events import layout_events

    tiles = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m _8m")
    layout = _analyse(tiles)
    assert layout.hand["win_tile"] == "8m" and layout.hand["melds"] == []
    assert layout.hand["concealed"][-1] == "8m" and len(layout.hand["concealed"]) == 14
    assert [g.role for g in layout.groups] == ["concealed", "win"]
    assert not any("sideways" in d or "winning tile" in d for d in layout.doubts)
    assert layout_events(tiles, layout, [[list(range(13)), [13]]])["claimed_not_set"] == 0
    # The other reading, a chow claimed with its 8m touching the row, is offered as an alternative
    (why, claimed), = [(w, h) for w, h in layout.alternatives if "claimed" in w]
    assert {"type": "chow", "tiles": ["6m", "7m", "8m"], "concealed": False} in claimed["melds"]
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    assert analyse(tiles, right, up, riichi=False).hand == claimed


def test_layout_a_sideways_tile_apart_at_the_rows_end_is_the_winning_tile_without_a_doubt() -> None:
    layout = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | _8m"))
    assert layout.hand["win_tile"] == "8m" and layout.hand["melds"] == []
    assert not any("not a chow, pung or kong" in d for d in layout.doubts)


def test_layout_a_sideways_tile_inside_a_row_or_at_a_melds_end_is_no_winning_tile() -> None:
    # Sideways first in a row of six: a claimed pung touching another group, as before
    layout = _analyse(_row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | 4s 4s _4s"))
    assert {"type": "pung", "tiles": ["4s"] * 3, "concealed": False} in layout.hand["melds"]
    assert layout.hand["win_tile"] == "8m"
    # Two sideways tiles at a long row's end: no winning tile shown the riichi way
    layout = _analyse(_row("1m 2m 3m 4p 5p 6p E E 6m 7m 8m _9m _9m"))
    assert not any("claimed tile, not the winning tile" in why for why, _ in layout.alternatives)
    assert any("No tile stands apart" in d for d in layout.doubts)


def test_layout_gap_inside_a_concealed_kong_is_closed() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | back | C C back")
    layout = _analyse(tiles)
    assert {"type": "kong", "tiles": ["C"] * 4, "concealed": True} in layout.hand["melds"]
    assert not any("face-down" in d for d in layout.doubts)


def test_layout_touching_tiles_stay_one_group_when_boxes_run_small() -> None:
    # Every box 15 % narrower than its tile (the finder's boxes do this on some photos): the
    # seams between touching tiles look like gaps unless measured against the boxes' own scale.
    tiles = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m", gap=20.0)
    shrunk = []
    for t in tiles:
        centre = t.box.mean(axis=0)
        box = centre + (t.box - centre) * np.float32([0.85, 1.0])
        shrunk.append(TileReading(t.code, t.confidence, box.astype(np.float32), t.orientation, t.sideways, t.position))
    layout = _analyse(shrunk)
    assert layout.hand["win_tile"] == "8m" and len(layout.hand["concealed"]) == 14
    assert [g.role for g in layout.groups] == ["concealed", "win"]


def test_layout_one_box_cut_short_opens_no_gap_in_its_row() -> None:
    # The finder cut one face's box to 60 % of its width, centred on the tile: measured by the
    # box, the seams beside it look like gaps and 1m 2m 3m would be read as a declared chow.
    tiles = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m")
    short = tiles[3]
    centre = short.box.mean(axis=0)
    box = (centre + (short.box - centre) * np.float32([0.6, 1.0])).astype(np.float32)
    tiles[3] = TileReading(short.code, short.confidence, box, short.orientation, short.sideways, short.position)
    layout = _analyse(tiles)
    assert layout.hand["melds"] == [] and len(layout.hand["concealed"]) == 14
    assert [g.role for g in layout.groups] == ["concealed", "win"]
    # A real gap beside it still opens: the winning tile stands apart.
    assert layout.hand["win_tile"] == "8m"


@pytest.mark.parametrize(("codes", "is_set"), [
    ("3m 1m 2m", True), ("E E E", True), ("9s 9s 9s 9s", True), ("back 7p 7p back", True),
    ("6s 6s F", False), ("back back back back", False), ("back 7p 5m back", False), ("1f 1f 1f", False),
    ("7s 8s", False),
])
def test_layout_forms_set(codes: str, is_set: bool) -> None:
    from fanscan.vision.layout import forms_set

    assert forms_set(codes.split()) is is_set


def test_layout_concealed_kong_with_both_backs_apart_is_joined() -> None:
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | back | C C | back")
    layout = _analyse(tiles)
    assert {"type": "kong", "tiles": ["C"] * 4, "concealed": True} in layout.hand["melds"]
    assert "C" not in layout.hand["concealed"]
    assert not any("face-down" in d for d in layout.doubts)


def test_layout_groups_that_form_no_set_together_stay_apart() -> None:
    # A back beside two faces that differ is no concealed kong: nothing is joined to make one.
    tiles = _row("1m 2m 3m 4p 5p 6p E E 6m 7m | 8m | back | C F | back")
    layout = _analyse(tiles)
    assert not any(m["type"] == "kong" for m in layout.hand["melds"])
    assert any("face-down" in d for d in layout.doubts)


def test_layout_sets_apart_beside_a_row_of_backs_alone_are_offered_as_concealed_tiles() -> None:
    # The main row face down leaves no concealed tile: each set laid apart is still offered as
    # concealed tiles (a wall's piece taken for the row had made the offer fail).
    layout = _analyse(_row("back back back | 1m 1m 1m | 2p 2p 2p | 3s 3s 3s"))
    offers = {d: hand for d, hand in layout.alternatives if d.endswith("not a declared pung")}
    assert len(offers) == 3
    as_concealed = offers["1m 1m 1m as concealed tiles, not a declared pung"]
    assert sorted(as_concealed["concealed"]) == ["1m", "1m", "1m"]
    assert [m["tiles"] for m in as_concealed["melds"]] == [["2p", "2p", "2p"], ["3s", "3s", "3s"]]
    assert any("face-down" in d for d in layout.doubts)


def test_layout_offers_another_winning_tile_only_to_a_hand_of_a_possible_size() -> None:
    # No tile stands apart: the last is taken as the winning tile and the others offered, but
    # only where the count is a hand's (a pile of 21 had 18 offers, each failing).
    fourteen = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m"))
    assert [d for d, _ in fourteen.alternatives if d.startswith("winning tile")]
    assert any(d.endswith("or pick another reading.") for d in fourteen.doubts)
    pile = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 1s 2s 3s 4s 5s 6s 9s"))
    assert not [d for d, _ in pile.alternatives if d.startswith("winning tile")]
    assert any(d.startswith("No tile stands apart") and d.endswith("at the right end.") for d in pile.doubts)


def test_layout_doubts_speak_of_one_tile_as_one() -> None:
    lone = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E") + _row("6m", y=300.0) + _row("7m 8m", y=500.0))
    assert any(d.startswith("The tile 6m lies in a row of its own") for d in lone.doubts)
    back = _analyse(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E back 7m | 8m"))
    assert any(d.startswith("A face-down tile lies among the concealed tiles") for d in back.doubts)
