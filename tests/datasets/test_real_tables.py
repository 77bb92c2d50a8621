"""The real table photos (rf-chinese): class names, label lines, splits by source, turned versions."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from fanscan.datasets import real_tables
from fanscan.datasets.real_tables import (
    RF_CODES,
    TablePhoto,
    fill_fraction,
    least_turned,
    parse_yolo_lines,
    rf_class_code,
    source_fold,
    source_of,
)
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


@pytest.mark.parametrize(
    ("name", "code"),
    [
        pytest.param("sc1", "1m", id="characters"),
        pytest.param("sd9", "9p", id="dots"),
        pytest.param("sb5", "5s", id="bamboo"),
        pytest.param("hwn", "N", id="north"),
        pytest.param("hdr", "C", id="red-dragon"),
        pytest.param("hdg", "F", id="green-dragon"),
        pytest.param("hdw", "P", id="white-dragon"),
        pytest.param("bf3", "3f", id="chrysanthemum"),
        pytest.param("bs1", "5f", id="spring"),
        pytest.param("bs4", "8f", id="winter"),
    ],
)
def test_real_tables_class_names_map_to_codes(name, code):
    assert rf_class_code(name) == code


def test_real_tables_every_face_has_one_class():
    assert sorted(RF_CODES) == sorted(c for c in CLASS_LABELS if c != "back")


@pytest.mark.parametrize("name", ["sc0", "bf5", "hwx", "sc10", ""])
def test_real_tables_unknown_class_name_is_refused(name):
    with pytest.raises(FanscanError, match="unknown rf-chinese class"):
        rf_class_code(name)


def test_real_tables_box_and_polygon_lines():
    text = "1 0.5 0.5 0.2 0.4\n\n20 0.1 0.1 0.3 0.1 0.3 0.2 0.1 0.2 0.1 0.1\n"
    boxes, codes = parse_yolo_lines(text, 200, 100)
    assert codes == ("1m", "1f")
    np.testing.assert_allclose(boxes, [[80, 30, 120, 70], [20, 10, 60, 20]], atol=1e-4)


def test_real_tables_boxes_are_clipped_to_the_photo():
    boxes, _ = parse_yolo_lines("1 0.05 0.5 0.2 0.2\n", 100, 100)
    assert boxes[0, 0] == 0


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("1 0.5 0.5 0.2", id="short"),
        pytest.param("99 0.5 0.5 0.2 0.2", id="class-out-of-range"),
        pytest.param("a 0.5 0.5 0.2 0.2", id="not-a-number"),
        pytest.param("1 0.1 0.1 0.2 0.2 0.3", id="odd-polygon"),
    ],
)
def test_real_tables_bad_lines_name_the_line(line):
    with pytest.raises(FanscanError, match="line 2"):
        parse_yolo_lines("1 0.5 0.5 0.2 0.2\n" + line, 10, 10)


def test_real_tables_versions_of_one_photo_share_a_source_and_a_fold():
    a = "387518066_1056581472251297_n_jpg.rf.28434bdc56de3a0e773bb4f9cf88dd18.jpg"
    b = "387518066_1056581472251297_n_jpg.rf.3a82ad70dc2ff0c0ddd4a7649854579e.jpg"
    assert source_of(a) == source_of(b) == "387518066_1056581472251297_n"
    assert source_fold(source_of(a)) == source_fold(source_of(b))


def test_real_tables_folds_spread_the_sources():
    folds = [source_fold(f"photo{n}") for n in range(500)]
    counts = np.bincount(folds, minlength=real_tables.FOLDS)
    assert counts.min() > 500 / real_tables.FOLDS * 0.7


def _photo_with_a_table(turn_degrees: float, fill: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    table = rng.integers(40, 200, (200, 200, 3), dtype=np.uint8)  # textured like a photo
    turn = cv2.getRotationMatrix2D((100, 100), turn_degrees, 1.0)
    return cv2.warpAffine(table, turn, (200, 200), borderValue=(fill, fill, fill))


@pytest.mark.parametrize("fill", [0, 23, 255], ids=["black", "grey", "white"])
def test_real_tables_fill_of_a_turned_photo_is_measured(fill):
    share = fill_fraction(_photo_with_a_table(30, fill))
    # A square turned 30 degrees inside its own frame leaves four corners of fill, about a fifth.
    assert 0.1 < share < 0.35


def test_real_tables_a_photo_not_turned_has_no_fill():
    assert fill_fraction(_photo_with_a_table(0, 0)) < 0.01


def test_real_tables_least_turned_keeps_the_unturned_version(tmp_path):
    photos = []
    for name, turn in (("a_jpg.rf.1", 30), ("a_jpg.rf.2", 0), ("a_jpg.rf.3", 10), ("b_jpg.rf.1", 20)):
        path = tmp_path / f"{name}.jpg"
        cv2.imwrite(str(path), _photo_with_a_table(turn, 0), [cv2.IMWRITE_JPEG_QUALITY, 98])
        photos.append(TablePhoto(path, source_of(path.name), np.zeros((1, 4), np.float32), ("1m",)))
    chosen = least_turned(photos)
    assert [p.path.name for p in chosen] == ["a_jpg.rf.2.jpg", "b_jpg.rf.1.jpg"]


def test_real_tables_photo_checks_its_arrays():
    with pytest.raises(ValueError, match="expected"):
        TablePhoto(None, "s", np.zeros((2, 4)), ("1m",))


def test_real_tables_absent_set_gives_no_photos(tmp_path):
    assert real_tables.load_table_photos(tmp_path) == []


def test_real_tables_loads_a_folder(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "x_jpg.rf.1.jpg"), np.zeros((64, 32, 3), np.uint8))
    (tmp_path / "labels" / "x_jpg.rf.1.txt").write_text("4 0.5 0.5 0.5 0.25\n")
    (photo,) = real_tables.load_table_photos(tmp_path)
    assert photo.source == "x" and photo.codes == ("E",)
    np.testing.assert_allclose(photo.boxes, [[8, 24, 24, 40]])


@pytest.mark.parametrize("degrees", [-30.0, -12.5, 8.0, 25.0])
def test_real_tables_turn_of_finds_the_augmentations_turn(degrees):
    assert real_tables.turn_of(_photo_with_a_table(degrees, 23)) == pytest.approx(degrees, abs=1.0)


def test_real_tables_turned_back_recovers_the_upright_box():
    # An upright tile at (60..90, 40..85) in a photo then turned 20 degrees: its label is the
    # box around the turned tile.
    degrees = 20.0
    turn = cv2.getRotationMatrix2D((100, 100), degrees, 1.0)
    corners = np.float32([[60, 40, 1], [90, 40, 1], [90, 85, 1], [60, 85, 1]]) @ turn.T
    label = np.float32([[*corners.min(axis=0), *corners.max(axis=0)]])
    _, boxes, valid = real_tables.turned_back(np.zeros((200, 200, 3), np.uint8), label, degrees)
    assert valid.all()
    np.testing.assert_allclose(boxes[0], [60, 40, 90, 85], atol=0.5)


def test_real_tables_near_45_degrees_no_box_is_recovered():
    _, _, valid = real_tables.turned_back(np.zeros((50, 50, 3), np.uint8), np.float32([[5, 5, 20, 20]]), 44.0)
    assert not valid.any()


def _version(name: str, codes: tuple[str, ...]) -> TablePhoto:
    boxes = np.tile(np.float32([[0, 0, 10, 10]]), (len(codes), 1))
    return TablePhoto(Path(f"/nowhere/{name}"), source_of(name), boxes, codes)


def test_real_tables_a_label_fix_reaches_every_version_labelled_alike():
    reviewed = _version("hand_7_jpg.rf.aa.jpg", ("1m", "9p", "E"))
    mirrored = _version("hand_7_jpg.rf.bb.jpg", ("1m", "9p", "E"))
    lost_one = _version("hand_7_jpg.rf.cc.jpg", ("1m", "9p"))  # a turn cut a label off: left alone
    other = _version("hand_8_jpg.rf.aa.jpg", ("1m", "9p", "E"))
    fixed = real_tables.with_fixes([reviewed, mirrored, lost_one, other],
                                   [real_tables.LabelFix("hand_7_jpg.rf.aa.jpg", 1, "9p", "9m")])
    assert [p.codes for p in fixed] == [("1m", "9m", "E"), ("1m", "9m", "E"), ("1m", "9p"), ("1m", "9p", "E")]
    assert fixed[0].path == reviewed.path and np.array_equal(fixed[0].boxes, reviewed.boxes)


@pytest.mark.parametrize("fix", [
    pytest.param(real_tables.LabelFix("hand_7_jpg.rf.aa.jpg", 1, "9s", "9m"), id="line-says-another-face"),
    pytest.param(real_tables.LabelFix("hand_7_jpg.rf.aa.jpg", 5, "9p", "9m"), id="no-such-line"),
    pytest.param(real_tables.LabelFix("hand_9_jpg.rf.aa.jpg", 1, "9p", "9m"), id="no-such-photo"),
])
def test_real_tables_a_label_fix_that_does_not_fit_changes_nothing(fix):
    photos = [_version("hand_7_jpg.rf.aa.jpg", ("1m", "9p", "E"))]
    assert real_tables.with_fixes(photos, [fix])[0].codes == ("1m", "9p", "E")


def test_real_tables_label_fixes_file_is_read_and_checked(tmp_path):
    good = tmp_path / "fixes.csv"
    good.write_text("photo,index,labelled,truth,note\nhand_7_jpg.rf.aa.jpg,1,9p,9m,\"九萬\"\n", encoding="utf-8")
    assert real_tables.label_fixes(good) == [real_tables.LabelFix("hand_7_jpg.rf.aa.jpg", 1, "9p", "9m")]
    assert real_tables.label_fixes(tmp_path / "absent.csv") == []
    for row in ("hand_7_jpg.rf.aa.jpg,one,9p,9m,", "hand_7_jpg.rf.aa.jpg,1,9p,back,", "hand_7_jpg.rf.aa.jpg,-1,9p,9m,"):
        bad = tmp_path / "bad.csv"
        bad.write_text("photo,index,labelled,truth,note\n" + row + "\n", encoding="utf-8")
        with pytest.raises(FanscanError, match="bad.csv line 2"):
            real_tables.label_fixes(bad)


def test_real_tables_shipped_label_fixes_are_well_formed():
    fixes = real_tables.label_fixes()
    assert fixes and all(f.labelled != f.truth for f in fixes)
    assert len({(f.photo, f.index) for f in fixes}) == len(fixes)  # one fix a label
