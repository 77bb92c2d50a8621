"""The matching of ``benchmarks/bench_real_tables.py``: which reader box finds which labelled tile."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_real_tables")


def test_bench_real_tables_iou(bench):
    a = np.float32([[0, 0, 10, 10]])
    b = np.float32([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]])
    np.testing.assert_allclose(bench.box_iou(a, b), [[1.0, 1 / 3, 0.0]], atol=1e-6)


def test_bench_real_tables_match_is_one_to_one_and_best_first(bench):
    truth = np.float32([[0, 0, 10, 10], [10, 0, 20, 10]])
    found = np.float32([[1, 0, 11, 10], [0, 0, 10, 10], [30, 30, 40, 40]])
    # Found box 1 fits truth 0 exactly; found box 0 then goes to nothing (IoU with truth 1 < 0.5).
    assert bench.match(truth, found) == [(0, 1)]


def test_bench_real_tables_match_of_nothing(bench):
    assert bench.match(np.zeros((0, 4), np.float32), np.float32([[0, 0, 1, 1]])) == []


def test_bench_real_tables_hand_check(bench):
    truth = ("1m", "2m", "3m")
    pairs = [(0, 0), (1, 1), (2, 3)]  # reader box 2 lies on no labelled tile
    exact = bench.hand_check(pairs, [True, True, False, True], ["1m", "2m", "E", "3m"], truth)
    assert exact == bench.HandCheck(True, 0, 0, faces_exact=True)
    wall_in_hand = bench.hand_check(pairs, [True, True, True, True], ["1m", "2m", "back", "3m"], truth)
    assert wall_in_hand == bench.HandCheck(False, 1, 0, put_in_faces=("back",))
    apart = bench.hand_check(pairs, [True, True, False, False], ["1m", "2m", "E", "3m"], truth)
    assert apart == bench.HandCheck(False, 0, 1)
    misread = bench.hand_check(pairs, [True, True, False, True], ["1m", "2m", "E", "9m"], truth)
    assert misread == bench.HandCheck(False, 0, 0)


def test_bench_real_tables_hand_faces_exact_whatever_the_boxes(bench):
    truth = ("1m", "2m", "3m")
    # The 3m's box too loose to pair with its label: a miss and an extra tile by IoU, the faces right.
    loose_box = bench.hand_check([(0, 0), (1, 1)], [True, True, True], ["1m", "2m", "3m"], truth)
    assert loose_box == bench.HandCheck(False, 1, 0, faces_exact=True, put_in_faces=("3m",))
    one_short = bench.hand_check([(0, 0), (1, 1)], [True, True, False], ["1m", "2m", "3m"], truth)
    assert not one_short.faces_exact


def test_bench_real_tables_tally_adds_photos_and_refusals(bench):
    tally = bench.Tally()
    tally.add(3, 4, [("1m", "1m"), ("2m", "9m")], False, bench.HandCheck(False, 1, 0, faces_exact=True), 0.5)
    tally.add(2, 2, [("E", "E"), ("S", "S")], True, None, 0.25)
    tally.add_error(5, 0.25)
    summary = tally.summary()
    assert (summary["photos"], summary["labelled"], summary["read_errors"]) == (3, 10, 1)
    assert summary["found"] == 0.4 and summary["right_of_found"] == 0.75 and summary["exact_photos"] == 1
    assert summary["unlabelled_per_photo"] == round(2 / 3, 2)
    assert (summary["hand_photos"], summary["hand_exact"], summary["put_in_hand"]) == (1, 0, 1)
    assert summary["hand_faces_exact"] == 1
    assert summary["seconds_per_photo"] == round(1 / 3, 3)
    assert tally.pairs == [("1m", "1m"), ("2m", "9m"), ("E", "E"), ("S", "S")]


def test_bench_real_tables_refuses_a_file_that_is_no_evidence(bench, tmp_path, capsys):
    broken = tmp_path / "evidence.json"
    broken.write_text('{"tiles": {}}', encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--evidence", str(broken)])
    assert stop.value.code == 2
    assert "not a reading evidence file" in capsys.readouterr().err


def test_bench_real_tables_turns_a_photo_and_its_boxes_together(bench):
    image = np.zeros((40, 60, 3), np.uint8)
    image[5:15, 10:30] = 255  # a box x 10-30, y 5-15
    boxes = np.float32([[10, 5, 30, 15]])
    turned, moved = bench.turned_clockwise(image, boxes, 90)
    assert turned.shape[:2] == (60, 40)
    ys, xs = np.nonzero(turned[..., 0])
    assert moved.tolist() == [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]
    back, again = bench.turned_clockwise(*bench.turned_clockwise(turned, moved, 180), 90)
    assert np.array_equal(back, image) and np.array_equal(again, boxes)


def test_bench_real_tables_lays_a_photo_far_away_and_its_boxes_with_it(bench):
    image = np.full((400, 600, 3), 40, np.uint8)
    image[100:180, 200:260] = 250  # a tile 60 px wide, 80 high: x 200-260, y 100-180
    boxes = np.float32([[200, 100, 260, 180]])
    photo, moved = bench.far_away(image, boxes, 20.0, seed=3)
    assert photo.shape[:2] == (3000, 4000)
    x0, y0, x1, y1 = moved[0]
    assert min(x1 - x0, y1 - y0) == pytest.approx(20.0)  # its short side is now 20 px
    inside = photo[int(y0) + 2 : int(y1) - 2, int(x0) + 2 : int(x1) - 2]
    assert inside.mean() > 200  # the box lands on the tile
    ring = photo[int(y0) - 6 : int(y0) - 3, int(x0) : int(x1)]
    assert ring.mean() < 100  # and not a few pixels beside it


def test_bench_real_tables_counts_exact_hands_that_are_complete_apart(bench):
    tally = bench.Tally()
    tally.add(14, 14, [("1m", "1m")] * 14, True, bench.HandCheck(True, 0, 0, complete=True), 0.1)
    tally.add(15, 15, [("1m", "1m")] * 15, True, bench.HandCheck(True, 0, 0, complete=False), 0.1)
    tally.add(14, 14, [("1m", "1m")] * 14, False, bench.HandCheck(False, 1, 0, complete=True), 0.1)
    summary = tally.summary()
    assert (summary["hand_exact"], summary["hand_exact_complete"]) == (2, 1)


def test_bench_real_tables_tilts_a_photo_within_its_frame_and_maps_boxes_back(bench):
    image = np.zeros((100, 120, 3), np.uint8)
    image[40:60, 50:70] = 255  # a box x 50-70, y 40-60, at the middle
    labels = np.float32([[50, 40, 70, 60], [0, 0, 20, 20]])  # the second in a corner the tilt cuts off
    tilted, kept, back = bench.tilted(image, labels, 30.0)
    assert tilted.shape == image.shape and list(kept) == [0]
    ys, xs = np.nonzero(tilted[:, :, 0] > 127)
    points = np.stack([xs, ys], axis=1).astype(np.float64) + 0.5
    home = points @ back[:, :2].T + back[:, 2]
    assert home.min(axis=0) == pytest.approx([50, 40], abs=1.5) and home.max(axis=0) == pytest.approx([70, 60], abs=1.5)
    assert bench.tilt_for("hand_001", "random") == bench.tilt_for("hand_001", "random")
    assert -45 <= bench.tilt_for("hand_001", "random") <= 45 and bench.tilt_for("x", 12.5) == 12.5


def test_bench_real_tables_sees_a_photo_steeply_and_maps_the_reader_s_boxes_back(bench):
    image = np.full((100, 120, 3), 60, np.uint8)  # a grey table
    image[20:40, 50:70] = 255  # a tile near the top, at the middle
    labels = np.float32([[50, 20, 70, 40], [0, 80, 15, 100]])  # the second at a bottom corner drawn out of the frame
    warped, kept, back = bench.seen_steeply(image, labels, 0.4)
    assert warped.shape == image.shape and list(kept) == [0]
    assert (warped > 0).all()  # no black comes in
    ys, xs = np.nonzero(warped[:, :, 0] > 127)
    height = ys.max() - ys.min() + 1
    assert height < 20  # the far row foreshortened
    reading = SimpleNamespace(tiles=[SimpleNamespace(box=((xs.min(), ys.min()), (xs.max() + 1, ys.min()),
                                                          (xs.max() + 1, ys.max() + 1), (xs.min(), ys.max() + 1)),
                                                     code="5p")])
    boxes, codes = bench.reader_boxes(reading, back)
    assert codes == ["5p"] and boxes[0] == pytest.approx([50, 20, 70, 40], abs=1.5)
    same, all_kept, _ = bench.seen_steeply(image, labels, 0.0)
    assert np.array_equal(same, image) and list(all_kept) == [0, 1]


@pytest.mark.parametrize("flags, message", [(["--tilt", "sideways"], "degrees, or random"),
                                            (["--tilt", "400"], "within a whole turn"),
                                            (["--tilt", "30", "--far", "22"], "choose one"),
                                            (["--steep", "0.3", "--far", "22"], "choose one"),
                                            (["--steep", "1.5"], "from 0 up to 1")])
def test_bench_real_tables_refuses_a_tilt_it_cannot_take(bench, capsys, flags, message):
    with pytest.raises(SystemExit) as stop:
        bench.main(flags)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_bench_real_tables_sorts_the_labels_it_missed_by_why(bench):
    truth = np.float32([[10, 10, 30, 40], [40, 10, 60, 40], [0, 50, 20, 80], [70, 50, 90, 80], [100, 10, 120, 40]])
    codes = ("1m", "2m", "3m", "4m", "5m")
    found = np.float32([
        [10, 10, 30, 40],   # the 1m, found
        [40, 10, 55, 25],   # the 2m drawn too small: IoU 0.375, read 2m
        [2, 52, 12, 66],    # the 3m at the frame's left edge, too small and misread
        [70, 50, 90, 62],   # the 4m too small and read 9m
    ])
    read = ["1m", "2m", "9m", "9m"]
    pairs = bench.match(truth, found)
    assert pairs == [(0, 0)]
    kinds = bench.miss_kinds(truth, codes, found, read, pairs, (200, 100))
    assert kinds == {"loose": 1, "edge": 1, "other": 2}
    tally = bench.Tally()
    tally.missed += kinds
    assert {k: v for k, v in tally.summary().items() if k.startswith("missed_")} == {
        "missed_loose": 1, "missed_edge": 1, "missed_other": 2}


def test_bench_real_tables_leaves_a_tile_the_new_frame_cuts_unjudged(bench):
    image = np.full((100, 120, 3), 60, np.uint8)
    # Tile 0 near the top stays whole; tile 1 at the bottom left is half drawn out of the frame
    # by the keystone; tile 2 is drawn wholly out of it.
    labels = np.float32([[50, 20, 70, 40], [22, 70, 40, 100], [0, 95, 4, 100]])
    warped, kept, back = bench.seen_steeply(image, labels, 0.6)
    assert list(kept) == [0]
    cut = bench.cut_by_frame(labels, kept, back, warped.shape[1], warped.shape[0])
    assert cut.tolist() == [labels[1].tolist()]
    found = np.float32([[50, 20, 70, 40], [24, 80, 38, 100], [20, 60, 60, 100]])
    assert bench.over_cut(found, cut) == frozenset({1})  # box 2 lies mostly off the cut tile
    truth = ("5p",)
    judged = bench.hand_check([(0, 0)], [True, True, False], ["5p", "8p", "E"], truth)
    assert judged == bench.HandCheck(False, 1, 0, put_in_faces=("8p",))
    unjudged = bench.hand_check([(0, 0)], [True, True, False], ["5p", "8p", "E"], truth, frozenset({1}))
    assert unjudged == bench.HandCheck(True, 0, 0, faces_exact=True)
    phantom = bench.hand_check([(0, 0)], [True, True, True], ["5p", "8p", "E"], truth, frozenset({1}))
    assert not phantom.exact and phantom.put_in_faces == ("E",)


def test_bench_real_tables_shows_a_photo_as_a_poorer_camera_would(bench):
    image = np.full((60, 80, 3), 100, np.uint8)
    image[20:40, 30:50] = 200  # a light tile on a grey table
    sharp_step = np.abs(np.diff(image[30, :, 0].astype(int))).max()
    blurred = bench.camera_fault(image, "defocus", 3.0, seed=1)
    assert blurred.shape == image.shape and blurred.dtype == np.uint8
    assert np.abs(np.diff(blurred[30, :, 0].astype(int))).max() < sharp_step / 2  # the edge is soft
    bright = bench.camera_fault(image, "bright", 2.0, seed=1)
    assert bright[30, 40, 0] == 255 and bright[5, 5, 0] == 200  # the tile clips, the table doubles
    hazy = bench.camera_fault(image, "hazy", 0.5, seed=1)
    assert hazy[5, 5, 0] == 177  # half way to white
    dim = bench.camera_fault(image, "dim", 0.4, seed=1)
    assert 30 < dim[5:15, 5:25].mean() < 50 and dim[5:15, 5:25].std() > 3  # dark and noisy
    assert np.array_equal(dim, bench.camera_fault(image, "dim", 0.4, seed=1))  # the same each run


@pytest.mark.parametrize("text", ["blur:2", "defocus", "defocus:0", "bright:x"])
def test_bench_real_tables_refuses_a_camera_fault_it_does_not_know(bench, capsys, text):
    with pytest.raises(SystemExit):
        bench.main(["--camera-fault", text])
    assert "--camera-fault" in capsys.readouterr().err
