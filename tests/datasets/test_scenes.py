"""The scene generator: deterministic, and its ground truth agrees with itself and the picture."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scenes import NOT_THE_HANDS, SCENE_STYLES, generate_scene, hand_of, random_groups
from fanscan.scoring.tiles import TILE_CODES

pytestmark = pytest.mark.skipif(
    not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art installed"
)


def test_scenes_same_seed_same_scene() -> None:
    a = generate_scene(7, size=(480, 360))
    b = generate_scene(7, size=(480, 360))
    assert np.array_equal(a.image, b.image)
    assert a.hand == b.hand
    assert all(np.array_equal(x.quad, y.quad) for x, y in zip(a.tiles, b.tiles))
    assert not np.array_equal(a.image, generate_scene(8, size=(480, 360)).image)


@pytest.mark.parametrize("seed", range(40))
def test_scenes_hands_are_complete_and_possible(seed: int) -> None:
    groups = random_groups(np.random.default_rng(seed))
    hand = hand_of(groups)
    counts = Counter(hand["concealed"]) + Counter(t for m in hand["melds"] for t in m["tiles"])
    assert max(counts.values()) <= 4
    sets = len(hand["melds"]) + (len(hand["concealed"]) - 2) / 3
    assert sets in (4, 5)
    assert hand["win_tile"] in hand["concealed"]
    for meld in hand["melds"]:
        if meld["type"] == "chow":
            ranks = [int(t[0]) for t in meld["tiles"]]
            assert ranks == list(range(ranks[0], ranks[0] + 3))
        else:
            assert len(set(meld["tiles"])) == 1


def test_scenes_ground_truth_matches_the_picture() -> None:
    scene = generate_scene(3, size=(800, 600))
    h, w = scene.image.shape[:2]
    assert (w, h) == (800, 600)
    faces = [t for t in scene.tiles if t.code != "back"]
    table = np.median(scene.image.reshape(-1, 3), axis=0)
    for tile in scene.tiles:
        assert tile.quad.shape == (4, 2)
        assert (tile.quad >= 0).all() and (tile.quad[:, 0] < w).all() and (tile.quad[:, 1] < h).all()
    # Inside every face quad the picture is the tile, not the table: far from the table colour.
    for tile in faces:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, tile.quad.astype(np.int32), 1)
        inside = scene.image[mask > 0].astype(float)
        assert np.abs(np.median(inside, axis=0) - table).max() > 10
    # Every tile of the hand is drawn: the scene's tiles are the hand's tiles.
    drawn = Counter(t.code for t in faces)
    hand = scene.hand
    shown = Counter(hand["concealed"]) + Counter(hand["flowers"])
    for meld in hand["melds"]:
        shown += Counter(meld["tiles"][1:3] if meld["concealed"] else meld["tiles"])
    assert drawn == shown
    decoded = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, scene.image)


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_scenes_no_tile_paints_over_a_nearer_tiles_face(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # With plain white faces, the middle of every face must be evenly bright: a neighbour's
    # side wall painted across it (a farther tile painted after a nearer one) shows as a dark wedge.
    white = np.full((128, 96, 4), 255, np.uint8)
    monkeypatch.setattr(tile_art, "load_faces", lambda style: {code: white for code in tile_art.TILE_CODES})
    scene = generate_scene(seed, size=(1200, 900))
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(float)
    for tile in scene.tiles:
        if tile.code == "back":
            continue
        centre = tile.quad.mean(axis=0)
        middle = centre + 0.7 * (tile.quad - centre)
        mask = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(mask, middle.astype(np.int32), 1)
        inside = grey[mask > 0]
        assert np.percentile(inside, 2) > 0.75 * np.median(inside), (seed, tile.code, tile.quad.tolist())


@pytest.mark.parametrize("seed", [1, 6, 8])
def test_scenes_clutter_is_the_same_hand_on_a_busier_table(seed: int) -> None:
    plain = generate_scene(seed, size=(960, 720))
    busy = generate_scene(seed, size=(960, 720), clutter=True)
    assert busy.hand == plain.hand and busy.groups == plain.groups
    hand = [t for t in busy.tiles if t.group != NOT_THE_HANDS]
    assert [t.code for t in hand] == [t.code for t in plain.tiles]
    # The same camera, only framed lower: every hand tile moves by one and the same shift, down.
    shifts = np.array([b.quad - a.quad for a, b in zip(plain.tiles, hand)]).reshape(-1, 2)
    assert np.ptp(shifts, axis=0).max() < 1e-3
    assert shifts[0, 1] >= 0
    table = [t for t in busy.tiles if t.group == NOT_THE_HANDS]
    assert table, "no wall, discard or meld drawn"
    h, w = busy.image.shape[:2]
    for tile in table:
        assert (tile.quad >= 0).all() and (tile.quad[:, 0] < w).all() and (tile.quad[:, 1] < h).all()
        for mine in hand:  # never on a hand tile
            area, _ = cv2.intersectConvexConvex(tile.quad.astype(np.float32), mine.quad.astype(np.float32))
            assert area < 1.0


@pytest.mark.parametrize("seed", [2, 5])
def test_scenes_a_riichi_win_lies_sideways_against_the_concealed_rows_end(seed: int) -> None:
    plain = generate_scene(seed, size=(960, 720))
    riichi = generate_scene(seed, size=(960, 720), riichi_win=True)
    assert riichi.hand == plain.hand  # the same hand and table, only its winning tile shown so
    kinds = [g.kind for g in riichi.groups]
    win = next(t for t in riichi.tiles if kinds[t.group] == "win")
    row = [t for t in riichi.tiles if kinds[t.group] == "concealed"]
    assert win.sideways and not any(t.sideways for t in row)
    assert not next(t for t in plain.tiles if kinds[t.group] == "win").sideways
    # touching the last concealed tile (a hair's gap), where the plain scene sets it apart
    def gap(scene) -> float:
        w = next(t for t in scene.tiles if kinds[t.group] == "win").quad[:, 0].min()
        return float(w - max(t.quad[:, 0].max() for t in scene.tiles if kinds[t.group] == "concealed"))
    assert gap(riichi) < 0.3 * gap(plain)


def test_scenes_clutter_draws_walls_and_discards_of_the_tiles_left() -> None:
    backs = faces = 0
    for seed in range(12):
        scene = generate_scene(seed, size=(640, 480), clutter=True)
        table = [t for t in scene.tiles if t.group == NOT_THE_HANDS]
        backs += sum(t.code == "back" for t in table)
        faces += sum(t.code != "back" for t in table)
        hand = scene.hand
        used = Counter(hand["concealed"]) + Counter(t for m in hand["melds"] for t in m["tiles"])
        shown = used + Counter(t.code for t in table if t.code != "back")
        assert max(shown.values()) <= 4, seed  # no fifth tile of a face on the table
        assert not any(t.code in TILE_CODES[34:] for t in table)  # flowers are never discarded
    assert backs > 20 and faces > 20


def test_scenes_clutter_lays_nothing_on_the_hand_or_on_itself() -> None:
    from fanscan.datasets.scene_clutter import HandExtent, lay_clutter

    extent = HandExtent(left=0.0, right=14 * 26.0, near=0.0, far=35.0, tile_w=26.0, tile_h=35.0, tile_t=18.0)
    for seed in range(30):
        tiles = lay_clutter(np.random.default_rng(seed), extent, Counter())
        ground = [t for t in tiles if t.z == 0]
        footprints = []
        for t in ground:  # every corner clear of the hand by a third of a tile's height at least
            c, s = np.cos(t.angle), np.sin(t.angle)
            corners = np.array([[-13, -17.5], [13, -17.5], [13, 17.5], [-13, 17.5]]) @ [[c, s], [-s, c]] + [t.x, t.y]
            gaps = np.maximum(np.maximum(extent.left - corners, corners - extent.right)[:, 0],
                              np.maximum(extent.near - corners, corners - extent.far)[:, 1])
            assert gaps.min() > 35.0 * 0.34, seed
            footprints.append(corners.astype(np.float32))
        for i, a in enumerate(footprints):  # no two tiles on the table cut into each other
            for b in footprints[i + 1:]:
                assert cv2.intersectConvexConvex(a, b)[0] < 1.0, seed
        for t in tiles:  # an upper tile lies on a lower one
            if t.z > 0:
                assert any(np.hypot(t.x - b.x, t.y - b.y) < 3 for b in ground)


@pytest.mark.parametrize("seed", [2, 4, 9, 13])
def test_scenes_standing_hand_waits_with_its_concealed_tiles_on_edge(seed: int) -> None:
    scene = generate_scene(seed, size=(1200, 900), standing=True)
    hand = scene.hand
    assert hand["win_tile"] is None
    assert len(hand["concealed"]) + 3 * len(hand["melds"]) in (13, 16)  # waiting: a tile short
    standing = [t for t in scene.tiles if t.standing]
    assert Counter(t.code for t in standing) == Counter(hand["concealed"])
    assert all(t.group >= 0 for t in standing)
    h, w = scene.image.shape[:2]
    table = np.median(scene.image.reshape(-1, 3), axis=0)
    for tile in standing:
        assert (tile.quad >= 0).all() and (tile.quad[:, 0] < w).all() and (tile.quad[:, 1] < h).all()
        top, bottom = tile.quad[:2].mean(axis=0), tile.quad[2:].mean(axis=0)
        # Seen from the seat, a face stands upright: its top edge well above its bottom edge.
        assert bottom[1] - top[1] > 0.5 * np.linalg.norm(tile.quad[1] - tile.quad[0])
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, tile.quad.astype(np.int32), 1)
        assert np.abs(np.median(scene.image[mask > 0].astype(float), axis=0) - table).max() > 10


@pytest.mark.parametrize("seed", [2, 7])
def test_scenes_standing_faces_are_not_painted_over(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # As for a laid-down hand: a plain white face shows no neighbour's side or top across it.
    white = np.full((128, 96, 4), 255, np.uint8)
    monkeypatch.setattr(tile_art, "load_faces", lambda style: {code: white for code in tile_art.TILE_CODES})
    scene = generate_scene(seed, size=(1600, 1200), standing=True)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(float)
    for tile in scene.tiles:
        if not tile.standing:
            continue
        centre = tile.quad.mean(axis=0)
        mask = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(mask, (centre + 0.7 * (tile.quad - centre)).astype(np.int32), 1)
        inside = grey[mask > 0]
        assert np.percentile(inside, 2) > 0.75 * np.median(inside), (seed, tile.code)


def test_scenes_opponents_stand_their_hands_beside_and_across_the_table() -> None:
    from fanscan.datasets.scene_clutter import OPPONENT_TILES, HandExtent, lay_clutter, lay_opponents

    extent = HandExtent(left=0.0, right=14 * 26.0, near=0.0, far=35.0, tile_w=26.0, tile_h=35.0, tile_t=18.0)
    seats: Counter[str] = Counter()
    for seed in range(30):
        laid = lay_clutter(np.random.default_rng(seed), extent, Counter())
        rows = lay_opponents(np.random.default_rng([seed, 5]), extent, laid)
        assert all(t.code == "back" and t.standing and t.z == 0 for t in rows)
        footprints = []
        for t in rows:  # a standing tile's footprint: its width by its thickness
            c, s = np.cos(t.angle), np.sin(t.angle)
            corners = np.array([[-13, -9], [13, -9], [13, 9], [-13, 9]]) @ [[c, s], [-s, c]] + [t.x, t.y]
            footprints.append(corners.astype(np.float32))
            assert not (extent.left - 17 < t.x < extent.right + 17 and t.y < extent.far + 17), seed
            # faces to a seat: across (pi) or the sides (+-pi/2), never to the player (0)
            seat = min((np.pi, np.pi / 2, -np.pi / 2), key=lambda a: abs(np.angle(np.exp(1j * (t.angle - a)))))
            assert abs(np.angle(np.exp(1j * (t.angle - seat)))) < np.radians(20), seed
            seats[{np.pi: "across", np.pi / 2: "right", -np.pi / 2: "left"}[seat]] += 1
            if seat != np.pi:  # the side seats sit beyond the hand's ends
                assert (t.x > extent.right) == (seat > 0), seed
        others = [f for f in footprints]
        for t in laid:
            if t.z == 0:
                c, s = np.cos(t.angle), np.sin(t.angle)
                others.append((np.array([[-13, -17.5], [13, -17.5], [13, 17.5], [-13, 17.5]]) @ [[c, s], [-s, c]]
                               + [t.x, t.y]).astype(np.float32))
        for i, a in enumerate(footprints):  # on no laid tile and on no other standing tile
            for b in others[i + 1:]:
                assert cv2.intersectConvexConvex(a, b)[0] < 1.0, seed
        by_seat = Counter(round(t.angle * 2 / np.pi) for t in rows)
        assert all(OPPONENT_TILES[0] <= n <= OPPONENT_TILES[1] for n in by_seat.values()), seed
    assert seats["across"] > 0 and seats["left"] > 0 and seats["right"] > 0


def test_scenes_opponents_backs_are_in_the_truth_where_they_show() -> None:
    with pytest.raises(ValueError, match="clutter"):
        generate_scene(1, size=(640, 480), opponents=True)
    shown = 0
    for seed in range(12):
        plain = generate_scene(seed, size=(800, 600), clutter=True)
        busy = generate_scene(seed, size=(800, 600), clutter=True, opponents=True)
        assert busy.hand == plain.hand
        mine = [t for t in busy.tiles if t.group != NOT_THE_HANDS]
        assert all(np.array_equal(a.quad, b.quad) for a, b in zip(mine, [t for t in plain.tiles if t.group != NOT_THE_HANDS]))
        theirs = [t for t in busy.tiles if t.group == NOT_THE_HANDS and t.standing]
        shown += len(theirs)
        h, w = busy.image.shape[:2]
        table = np.median(busy.image.reshape(-1, 3), axis=0)
        for tile in theirs:
            assert tile.code == "back"
            assert (tile.quad >= 0).all() and (tile.quad[:, 0] < w).all() and (tile.quad[:, 1] < h).all()
            assert cv2.contourArea(tile.quad.astype(np.float32)) > 20  # a side seen, not an edge
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, tile.quad.astype(np.int32), 1)
            assert np.abs(np.median(busy.image[mask > 0].astype(float), axis=0) - table).max() > 10
    assert shown > 20


def test_scenes_hidden_backs_are_not_in_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    import fanscan.datasets.scenes as scenes

    def shown(share: float) -> int:
        monkeypatch.setattr(scenes, "BACK_SHOWN_SHARE", share)
        return sum(t.standing and t.group == NOT_THE_HANDS for seed in (0, 5, 7)
                   for t in generate_scene(seed, size=(800, 600), clutter=True, opponents=True).tiles)

    # Seeds 0, 5 and 7 stand rows partly behind walls and discards: asking for more of a back
    # to show leaves more of them out.
    assert shown(0.0) > shown(0.95) > 0


def test_scenes_lay_flowers_against_the_rows_end_as_often_as_real_tables_do() -> None:
    from fanscan.datasets.scenes import FLOWERS_AGAINST_THE_ROW, TILE_H, TILE_W, SceneGroup, _layout

    groups = [SceneGroup("concealed", ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m")),
              SceneGroup("win", ("8m",)), SceneGroup("flowers", ("2f", "5f"))]
    against = left = 0
    for seed in range(200):
        placed = _layout(np.random.default_rng(seed), groups)
        row = [p for p in placed if p.group in (0, 1)]
        flowers = [p for p in placed if p.group == 2]
        if abs(np.mean([p.y for p in flowers]) - np.mean([p.y for p in row])) > TILE_H / 4:
            continue  # a row of their own above the hand
        edges = sorted((p.x - TILE_W / 2, p.x + TILE_W / 2) for p in row)
        gap_left = edges[0][0] - max(p.x + TILE_W / 2 for p in flowers)
        gap_right = min(p.x - TILE_W / 2 for p in flowers) - edges[-1][1]
        assert max(gap_left, gap_right) > -3.0  # beside the row, never over it
        touching = min(g for g in (gap_left, gap_right) if g > -3.0) < 3.0  # the jitter's millimetres
        against += touching
        left += touching and gap_left > -3.0 and gap_left < 3.0
    assert abs(against / 200 - FLOWERS_AGAINST_THE_ROW) < 0.1
    assert 0 < left < against


def test_scenes_flowers_against_the_row_touch_it_at_either_end_as_tiles_touch() -> None:
    # A pung with its claimed tile sideways may end the row: the flowers touch whichever tile ends it.
    from fanscan.datasets.scenes import TILE_H, TILE_W, SceneGroup, _half_width, _layout

    groups = [SceneGroup("concealed", ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E")),
              SceneGroup("win", ("E",)), SceneGroup("pung", ("7m", "7m", "7m"), sideways=2),
              SceneGroup("flowers", ("2f", "5f"))]
    gaps = {"left": [], "right": []}
    for seed in range(200):
        placed = _layout(np.random.default_rng(seed), groups)
        flowers = [p for p in placed if p.group == 3]
        level = [p for p in placed if p.group != 3 and abs(p.y - flowers[0].y) < TILE_W / 2
                 and abs(p.y - np.mean([p.y for p in placed if p.group == 0])) < TILE_H / 4]
        if not level or abs(flowers[0].y - np.mean([p.y for p in placed if p.group == 0])) > TILE_H / 4:
            continue
        left = min(p.x - _half_width(p) for p in level) - max(p.x + _half_width(p) for p in flowers)
        right = min(p.x - _half_width(p) for p in flowers) - max(p.x + _half_width(p) for p in level)
        for side, gap in (("left", left), ("right", right)):
            if -3.0 < gap < 3.0:
                gaps[side].append(gap)
    assert gaps["left"] and gaps["right"]
    for side in gaps:  # the gaps between touching tiles (0.1-0.8 mm) and the jitter's, nothing more
        assert max(gaps[side]) < 2.5 and np.mean(gaps[side]) < 0.7
