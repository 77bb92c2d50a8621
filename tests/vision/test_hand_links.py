"""The fitted links between a hand's tiles, and the fitted choice of the hand among clusters."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fanscan.vision import hand_links
from fanscan.vision.detections import TileReading
from fanscan.vision.hand_region import in_hand

UP = np.array([0.0, -1.0])


def tile(code: str, x: float, y: float, turn: float = 0.0, w: float = 30.0, h: float = 40.0) -> TileReading:
    """A tile whose face's top-left corner is near (x, y), turned ``turn`` degrees."""
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - [w / 2, h / 2]
    a = np.radians(turn)
    turned = corners @ np.float32([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return TileReading(code, 0.95, (turned + [x + w / 2, y + h / 2]).astype(np.float32), turn, False,
                       x + w / 2, ((code, 0.95),))


def test_touching_tiles_in_a_row_have_no_gap_and_the_features_are_the_same_either_way() -> None:
    a, b = tile("1m", 0, 0), tile("2m", 31, 0)
    ab, ba = hand_links.pair_features(a, b, UP), hand_links.pair_features(b, a, UP)
    assert np.allclose(ab, ba)
    named = dict(zip(hand_links.FEATURES, ab))
    assert abs(named["gap_along"]) < 0.05 and named["offset_across"] < 0.01
    assert named["turn"] < 1e-6 and named["size_ratio"] < 1e-6
    # A tile a quarter turn round (a claimed tile lying sideways) is no turn; one at 45 degrees is.
    assert dict(zip(hand_links.FEATURES, hand_links.pair_features(a, tile("3m", 31, 0, 90), UP)))["turn"] < 1e-6
    assert dict(zip(hand_links.FEATURES, hand_links.pair_features(a, tile("3m", 40, 0, 45), UP)))["turn"] > 0.99


def test_neighbour_pairs_reach_no_further_than_the_reach() -> None:
    row = [tile("1m", 31 * i, 0) for i in range(3)] + [tile("E", 31 * 2 + 40 * 5, 0)]
    pairs = hand_links.neighbour_pairs(row)
    assert (0, 1) in pairs and (1, 2) in pairs
    assert not any(3 in pair for pair in pairs)  # 5 tile lengths off: no candidate at all


def test_the_shipped_model_links_a_row_and_its_melds_but_not_loose_discards_beside_it() -> None:
    rng = np.random.default_rng(3)
    hand = [tile(c, 31 * i, 600) for i, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E".split())]
    meld = [tile("5s", 31 * 11 + 40 + 31 * i, 600) for i in range(3)]  # set apart in the same line
    # Loose discards a tile's length beyond the hand, each turned its own way (within the old
    # fixed reach of 3.5 tile lengths, which made them one cluster with the hand).
    discards = [tile(c, 20 + 45 * i + rng.uniform(-6, 6), 520 - 48 * (i % 2) + rng.uniform(-5, 5),
                     turn=float(rng.uniform(15, 75)))
                for i, c in enumerate("9m 1p E 3s 7p 2m W 8s".split())]
    readings = hand + meld + discards
    kept = in_hand(readings, UP)
    assert [r for r, k in zip(readings, kept) if k] == hand + meld


def test_no_cluster_grows_past_the_most_tiles_a_hand_shows_the_weakest_links_left_out() -> None:
    # A row of 30 tiles linked surely but for one weaker seam (a wall butting a hand's end):
    # one cluster would hold more tiles than any hand, so the weakest link is the one left out.
    row = [tile("back" if i >= 14 else "1m", 31 * i, 0) for i in range(30)]
    pairs = [(i, i + 1) for i in range(29)]
    probabilities = np.array([0.7 if i == 13 else 0.95 for i in range(29)])
    found = hand_links.Links(pairs, np.zeros((29, len(hand_links.FEATURES))), probabilities,
                             hand_links._frames(row))
    cluster = hand_links.linked_clusters(row, found)
    assert cluster.tolist() == [0] * 14 + [14] * 16
    # Under the bound nothing is cut; flowers are not counted towards it.
    short = row[:22] + [tile("1f", 31 * i, 0) for i in range(22, 30)]
    assert set(hand_links.linked_clusters(short, found).tolist()) == {0}


def test_a_flower_joins_the_cluster_of_its_likeliest_link_and_bridges_two_only_along_a_line() -> None:
    # A row of five, a flower laid above it and a row of three discards above the flower: the
    # flower is linked to both rows, and before it bridged them into one cluster.
    tiles = ([tile("1m", 31 * i, 200) for i in range(5)] + [tile("2f", 60, 140)]
             + [tile("9p", 31 * i, 80) for i in range(3)])
    rows = [(0, 1), (1, 2), (2, 3), (3, 4), (6, 7), (7, 8)]
    across = hand_links.FEATURES.index("offset_across")

    def clusters(to_hand: float, to_discards: float, flower_across: float = 1.5) -> list[int]:
        pairs = [*rows, (2, 5), (5, 7)]
        features = np.zeros((len(pairs), len(hand_links.FEATURES)))
        features[-2:, across] = flower_across
        probabilities = np.array([0.95] * len(rows) + [to_hand, to_discards])
        found = hand_links.Links(pairs, features, probabilities, hand_links._frames(tiles))
        return hand_links.linked_clusters(tiles, found).tolist()

    assert clusters(0.8, 0.7) == [0] * 6 + [6] * 3
    assert clusters(0.7, 0.8) == [0] * 5 + [5] * 4  # laid nearer the discards, it is theirs
    assert clusters(0.8, 0.4) == [0] * 6 + [6] * 3
    # In line with both (a flower at the end of a row of melds, beside the concealed row), it
    # bridges them: the melds and the row are one hand.
    assert clusters(0.8, 0.7, flower_across=0.2) == [0] * 9


def test_the_fitted_choice_prefers_rows_of_touching_tiles_to_a_lower_loose_pile() -> None:
    # The discards lie lower in the photo than the hand (a photo taken across the table's
    # corner): the old rule, the lowest cluster, took the pile.
    rng = np.random.default_rng(5)
    hand = [tile(c, 31 * i, 200) for i, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 5s 5s 5s".split())]
    pile = [tile(c, 60 * (i % 4) + rng.uniform(-8, 8), 420 + 70 * (i // 4) + rng.uniform(-8, 8),
                 turn=float(rng.uniform(10, 80))) for i, c in enumerate("9m 1p E 3s 7p 2m W 8s".split())]
    readings = hand + pile
    kept = in_hand(readings, UP)
    assert [r for r, k in zip(readings, kept) if k] == hand


def test_a_cluster_reading_a_face_more_often_than_a_set_holds_it_is_scored_so() -> None:
    # A wall's sides read as white dragons: 20 of one face, 16 beyond the four a set holds.
    hand = [tile(c, 31 * i, 600) for i, c in enumerate("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s E E".split())]
    wall = [tile("P", 31 * i, 300) for i in range(20)]
    readings = hand + wall
    made = hand_links.clusters(readings, UP, 4)
    assert len(made.candidates) == 2
    features = hand_links.cluster_features(readings, made.cluster, made.links, UP, made.candidates)
    beyond = dict(zip(made.candidates, features[:, hand_links.CLUSTER_FEATURES.index("beyond_copies")]))
    assert beyond[made.cluster[0]] == 0.0  # four 1m are a kong's, no more than a set holds
    assert beyond[made.cluster[len(hand)]] == pytest.approx(16 / 20)
    assert hand_links.default_choice().weights[hand_links.CLUSTER_FEATURES.index("beyond_copies")] < 0
    # Counted as a set holds them: one of each flower, face-down tiles in any number.
    from fanscan.vision.hand_rules import excess_copies

    assert excess_copies(["1f", "1f", "E", "E"]) == pytest.approx(1 / 4)
    assert excess_copies(["back"] * 6) == 0.0 and excess_copies([]) == 0.0


def test_the_model_file_names_its_features_and_what_it_was_fitted_on() -> None:
    data = json.loads(hand_links.MODEL_PATH.read_text())
    assert tuple(data["model"]["features"]) == hand_links.FEATURES
    assert tuple(data["choice"]["features"]) == hand_links.CLUSTER_FEATURES
    fitted = data["about"]["fitted_on"]
    assert fitted["rf_chinese_hand_photos"] > 0 and fitted["rf_chinese_folds"] == [0, 1, 2, 3]
    bad = dict(data["model"], features=["distance"])
    with pytest.raises(ValueError, match="features"):
        hand_links.LinkModel.from_json(bad)


def test_fitting_learns_links_from_cases() -> None:
    pytest.importorskip("torch")
    from fanscan.models.fit_hand_links import LinkCase, choice_examples, fit, fit_choice, link_examples

    rng = np.random.default_rng(0)
    cases = []
    for n in range(12):
        hand = [tile("1m", 31 * i, 300) for i in range(14)]
        pile = [tile("2p", 40 * (i % 3) + rng.uniform(-5, 5), 220 - 60 * (i // 3), turn=float(rng.uniform(20, 70)))
                for i in range(6)]
        other = [tile("3s", 600 + 31 * i, 0) for i in range(5)]  # another player's row, far off
        cases.append(LinkCase(f"case{n}", hand + pile + other, UP, [True] * 14 + [False] * 11))
    features, targets, weights = link_examples(cases)
    assert 0 < targets.sum() < len(targets) and np.isclose(weights.sum(), len(cases))
    model = fit(features, targets, weights, steps=300)
    assert ((model.probabilities(features) > 0.5) == (targets > 0.5)).mean() > 0.95
    choices = choice_examples(cases, model)
    assert len(choices) == len(cases)  # the other row is a cluster the choice must pass over
    choice = fit_choice(choices, steps=100)
    assert all(int(np.argmax(choice.scores(x))) == best for x, best in choices)
    # Whatever the cases, a cluster is never the likelier hand for lying higher or for reading a
    # face more often than a set holds it.
    from fanscan.models.fit_hand_links import NEVER_FOR_THE_HAND

    for name in NEVER_FOR_THE_HAND:
        assert choice.weights[hand_links.CLUSTER_FEATURES.index(name)] <= 0


def test_the_choice_fitted_again_keeps_the_files_links(tmp_path) -> None:
    pytest.importorskip("torch")
    from fanscan.models.fit_hand_links import LinkCase, refit_choice

    shipped = json.loads(hand_links.MODEL_PATH.read_text())
    path = tmp_path / "links.json"
    path.write_text(json.dumps(dict(shipped, choice=dict(shipped["choice"], weights=[0.0] * len(hand_links.CLUSTER_FEATURES)))))
    hand = [tile(c, 31 * i, 600) for i, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 5s 5s 5s".split())]
    other = [tile("3s", 600 + 31 * i, 0) for i in range(5)]
    cases = [LinkCase(f"case{n}", hand + other, UP, [True] * 14 + [False] * 5) for n in range(3)]
    assert refit_choice(path, cases, [0], steps=90) == 0
    refitted = json.loads(path.read_text())
    assert refitted["model"] == shipped["model"] and refitted["about"]["fitted_on"] == shipped["about"]["fitted_on"]
    assert any(refitted["choice"]["weights"]) and refitted["about"]["choice"]["choice_photos"] == 3
    assert refitted["about"]["choice"]["choice_right_on_fit"] == 3


def test_the_generated_photos_weigh_their_share_of_the_fit() -> None:
    from fanscan.models.fit_hand_links import LinkCase, weighed_examples

    def case(n: int) -> LinkCase:
        hand = [tile("1m", 31 * i, 300) for i in range(6)]
        other = [tile("2p", 31 * i, 200, turn=40.0) for i in range(3)]
        return LinkCase(f"case{n}", hand + other, UP, [True] * 6 + [False] * 3)

    real, scenes = [case(n) for n in range(3)], [case(n) for n in range(12)]
    for share in (0.5, 0.25):
        _, targets, weights = weighed_examples(real, scenes, share)
        per_photo = len(targets) // 15
        real_weight, scene_weight = weights[: 3 * per_photo].sum(), weights[3 * per_photo:].sum()
        assert np.isclose(real_weight, 3) and np.isclose(scene_weight / (real_weight + scene_weight), share)


@pytest.mark.parametrize("argv, said", [(["--scenes", "abc"], "seeds are A-B"), (["--folds", "x,1"], "folds are numbers"),
                                        (["--scene-share", "1.5"], "the share is a number"),
                                        (["--standing-scenes", "x-3"], "seeds are A-B"),
                                        (["--busy-scenes", "1-x"], "seeds are A-B"),
                                        (["--choice-only"], "holds no hand link model to keep")])
def test_the_fit_refuses_bad_seeds_and_folds_in_one_line(argv, said, capsys, tmp_path) -> None:
    from fanscan.models.fit_hand_links import main

    with pytest.raises(SystemExit) as stopped:  # --out: were a bad value taken, no shipped file is refitted
        main([*argv, "--out", str(tmp_path / "links.json")])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert said in error and "Traceback" not in error


def test_another_model_file_is_read_from_then_on(tmp_path) -> None:
    shipped = hand_links.MODEL_PATH
    data = json.loads(shipped.read_text())
    data["choice"]["weights"] = [0.0] * len(hand_links.CLUSTER_FEATURES)
    other = tmp_path / "links.json"
    other.write_text(json.dumps(data))
    try:
        assert hand_links.default_choice().weights.any()
        hand_links.use_model_file(other)
        assert not hand_links.default_choice().weights.any()
    finally:
        hand_links.use_model_file(shipped)
    assert hand_links.default_choice().weights.any()


def test_a_model_file_that_is_missing_or_of_other_features_is_refused_in_one_line(tmp_path) -> None:
    assert hand_links.check_model_file(hand_links.MODEL_PATH) == hand_links.MODEL_PATH
    data = json.loads(hand_links.MODEL_PATH.read_text())
    data["choice"]["features"] = data["choice"]["features"][:-1]
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data))
    for bad in (tmp_path / "missing.json", older):
        with pytest.raises(ValueError) as refused:
            hand_links.check_model_file(bad)
        assert str(bad) in str(refused.value) and "\n" not in str(refused.value)


def test_busy_tables_give_cases_of_the_hand_and_of_the_rest_of_the_table() -> None:
    from fanscan.datasets import tile_art
    from fanscan.models.fit_hand_links import scene_link_cases
    from fanscan.vision.classifier import default_classifier

    if not tile_art.available_styles():
        pytest.skip("no tile art to render scenes with")
    (case,) = scene_link_cases(range(3, 4), default_classifier(), busy=True)
    assert case.name == "busy3"
    # seed 3 stands the other players' hands on a busy table: the hand's tiles and the table's
    assert sum(t is True for t in case.in_hand) >= 10 and sum(t is False for t in case.in_hand) >= 3
