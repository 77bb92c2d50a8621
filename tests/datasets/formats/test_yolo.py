"""YOLO export and import: round trips of boxes and oriented boxes, and the published layout."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fanscan.datasets.formats.yolo import (
    format_yolo,
    format_yolo_data,
    load_yolo,
    parse_yolo,
    parse_yolo_data,
    save_yolo,
)
from fanscan.datasets.labels import PhotoLabels, TileLabel
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


def _as_person(photo: PhotoLabels) -> PhotoLabels:
    """What YOLO keeps of a photo: codes and corners, set by a person, reviewed, no groups."""
    tiles = tuple(TileLabel(tile.code, tile.corners, 1.0, "person") for tile in photo.tiles)
    return PhotoLabels(photo.image, photo.width, photo.height, tiles, status="reviewed")


def _flat(tiles: tuple[TileLabel, ...]) -> list[float]:
    return [value for tile in tiles for corner in tile.corners for value in corner]


def _close(a: PhotoLabels, b: PhotoLabels) -> bool:
    """Equal labels, corners equal to within a thousandth of a pixel (YOLO stores 6 decimals)."""

    def rest(photo: PhotoLabels) -> list[tuple[object, ...]]:
        return [(t.code, t.confidence, t.source, t.group) for t in photo.tiles]

    return (
        replace(a, tiles=()) == replace(b, tiles=())
        and rest(a) == rest(b)
        and _flat(a.tiles) == pytest.approx(_flat(b.tiles), abs=1e-3)
    )


def test_yolo_oriented_round_trip_keeps_corners(scene: PhotoLabels) -> None:
    text = format_yolo(scene, obb=True)
    tiles = parse_yolo(text, scene.width, scene.height)
    assert _close(replace(_as_person(scene), tiles=tiles), _as_person(scene))


def test_yolo_box_round_trip_keeps_upright_tiles(scene: PhotoLabels) -> None:
    upright = replace(scene, tiles=scene.tiles[:2])
    tiles = parse_yolo(format_yolo(upright), scene.width, scene.height)
    assert [tile.code for tile in tiles] == ["5p", "E"]
    assert _flat(tiles) == pytest.approx(_flat(upright.tiles))


def test_yolo_box_line_is_class_and_normalised_centre_size(scene: PhotoLabels) -> None:
    first_line = format_yolo(scene).splitlines()[0]
    assert first_line == f"{CLASS_LABELS.index('5p')} 0.125 0.2875 0.125 0.275"
    tilted_line = format_yolo(scene).splitlines()[2].split()
    assert tilted_line[0] == "42" and [float(v) for v in tilted_line[1:]] == [0.625, 0.5, 0.25, 0.4]


def test_yolo_boxes_and_corners_past_the_photos_edge_are_clipped_to_it(scene: PhotoLabels) -> None:
    tile = scene.tiles[0]
    past = replace(tile, corners=((-10.0, -5.0), (30.0, -5.0), (30.0, 20.0), (-10.0, 20.0)))
    cut = replace(scene, tiles=(past,))
    x, y, w, h = (float(v) for v in format_yolo(cut).split()[1:])
    assert (x - w / 2, y - h / 2) == pytest.approx((0.0, 0.0)) and (x + w / 2) * scene.width == pytest.approx(30)
    corners = [float(v) for v in format_yolo(cut, obb=True).split()[1:]]
    assert min(corners) == 0.0 and max(corners) <= 1.0


def test_yolo_a_tile_wholly_off_the_photo_gets_no_box(scene: PhotoLabels) -> None:
    off = replace(scene.tiles[0], corners=((-40.0, 5.0), (-10.0, 5.0), (-10.0, 40.0), (-40.0, 40.0)))
    assert format_yolo(replace(scene, tiles=(off, scene.tiles[1]))).count("\n") == 1


def test_yolo_data_yaml_names_the_43_classes_in_order() -> None:
    yaml = pytest.importorskip("yaml")
    document = yaml.safe_load(format_yolo_data())
    assert document["nc"] == 43
    assert [document["names"][i] for i in range(43)] == list(CLASS_LABELS)
    assert parse_yolo_data(format_yolo_data()) == list(CLASS_LABELS)
    assert parse_yolo_data("names: ['5p', N, back]\n") == ["5p", "N", "back"]


def test_yolo_dataset_round_trip_through_folders(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    out = tmp_path / "yolo"
    save_yolo(out, [scene], scene_root, obb=True)
    assert (out / "images" / "table" / "hand.png").is_file()
    assert (out / "labels" / "table" / "hand.txt").is_file()
    (photo,) = load_yolo(out)
    assert _close(photo, _as_person(scene))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("3 0.5 0.5 0.1", "expected 5 \\(box\\) or 9", id="short"),
        pytest.param("3 0.5 x 0.1 0.2", "'3 0.5 x 0.1 0.2' is not finite numbers", id="text"),
        pytest.param("3 0.5 inf 0.1 0.2", "'3 0.5 inf 0.1 0.2' is not finite numbers", id="infinite"),
        pytest.param("3 0.5 0.5 nan 0.2", "'3 0.5 0.5 nan 0.2' is not finite numbers", id="nan"),
        pytest.param("43 0.5 0.5 0.1 0.2", "class 43 is not one of 43", id="class"),
    ],
)
def test_yolo_bad_line_is_named(line: str, message: str) -> None:
    with pytest.raises(FanscanError, match=f"a.txt line 2: {message}"):
        parse_yolo("0 0.5 0.5 0.1 0.1\n" + line, 100, 100, name="a.txt")


def test_yolo_dataset_without_data_yaml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FanscanError, match="has no data.yaml"):
        load_yolo(tmp_path)
