"""Label files: the record, its text form, errors naming the culprit, and crash-safe saving."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from fanscan.datasets.labels import (
    LabelGroup,
    PhotoLabels,
    TileLabel,
    find_photos,
    format_labels,
    label_path,
    load_folder,
    load_labels,
    parse_labels,
    save_in_folder,
    save_labels,
)
from fanscan.errors import FanscanError

SQUARE = ((10.0, 20.0), (40.0, 20.0), (40.0, 60.0), (10.0, 60.0))


def _sample() -> PhotoLabels:
    return PhotoLabels(
        image="hand.jpg",
        width=640,
        height=480,
        tiles=(
            TileLabel("5p", SQUARE, 0.42, "model", 0),
            TileLabel(
                "back", ((50.5, 20.0), (80.0, 22.0), (79.0, 61.0), (49.0, 60.0)), 1.0, "person", 1
            ),
            TileLabel("3f", SQUARE, 0.9, "model", None),
        ),
        groups=(LabelGroup("concealed"), LabelGroup("kong", concealed=True)),
        status="reviewed",
        reader="fanscan 0.1.0",
        image_bytes=1234,
    )


def test_labels_round_trip_through_text() -> None:
    labels = _sample()
    assert parse_labels(format_labels(labels)) == labels


def test_labels_text_is_the_documented_json() -> None:
    obj = json.loads(format_labels(_sample()))
    assert obj["format"] == "fanscan-labels/1"
    assert obj["tiles"][1] == {
        "code": "back",
        "corners": [[50.5, 20.0], [80.0, 22.0], [79.0, 61.0], [49.0, 60.0]],
        "confidence": 1.0,
        "source": "person",
        "group": 1,
    }
    assert obj["groups"] == [{"kind": "concealed"}, {"kind": "kong", "concealed": True}]


def test_labels_min_confidence_is_the_least_sure_tile() -> None:
    assert _sample().min_confidence == 0.42
    assert PhotoLabels("a.jpg", 10, 10).min_confidence == 1.0


def test_labels_bounds_enclose_the_corners() -> None:
    assert _sample().tiles[1].bounds == (49.0, 20.0, 80.0, 61.0)


def _mutated(path: str, value: object) -> str:
    obj = json.loads(format_labels(_sample()))
    target = obj
    *parents, last = path.split(".")
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    return json.dumps(obj)


@pytest.mark.parametrize(
    ("path", "value", "culprit"),
    [
        pytest.param("tiles.0.code", "5x", "tile 1 has unknown code '5x'", id="bad-code"),
        pytest.param("tiles.2.corners", [[1, 2]], "tile 3 needs 4 corners", id="three-corners"),
        pytest.param("tiles.0.confidence", 1.5, "tile 1 confidence 1.5 is outside 0-1", id="conf"),
        pytest.param("tiles.1.source", "robot", "tile 2 source must be", id="source"),
        pytest.param("tiles.0.group", 7, "tile 1 group 7 is not one of the 2 groups", id="group"),
        pytest.param("status", "done", "'status' must be", id="status"),
        pytest.param("width", 0, "'width' must be a whole number of pixels from 1", id="width"),
        pytest.param("width", 10**400, "'width' must be a whole number of pixels from 1", id="width-huge"),
        pytest.param("tiles.0.corners.1.0", 10**400, "must be a finite number, not 1000000000", id="corner-huge"),
        pytest.param("tiles.0.confidence", 10**400, "must be a finite number", id="confidence-huge"),
        pytest.param("format", "other/2", "'format' must be", id="format"),
        pytest.param("groups.0.kind", "pile", "group 1 needs a kind", id="group-kind"),
        pytest.param("colour", "red", "unknown field 'colour'", id="unknown-field"),
        pytest.param("image_bytes", -1, "'image_bytes' a whole number of bytes", id="bytes-negative"),
        pytest.param("image_bytes", 10**30, "'image_bytes' a whole number of bytes", id="bytes-huge"),
        pytest.param("image_bytes", True, "'image_bytes' a whole number of bytes", id="bytes-bool"),
        pytest.param("edited", "yes", "'edited' must be true or false", id="edited"),
    ],
)
def test_labels_bad_file_names_the_culprit(path: str, value: object, culprit: str) -> None:
    with pytest.raises(FanscanError, match="^x.json: ") as caught:
        parse_labels(_mutated(path, value), "x.json")
    assert culprit in caught.value.message
    assert caught.value.code == "bad_labels"


def test_labels_broken_json_is_a_fanscan_error() -> None:
    with pytest.raises(FanscanError, match="not valid JSON"):
        parse_labels('{"format": ', "x.json")


def test_labels_save_then_load(tmp_path: Path) -> None:
    path = label_path(tmp_path / "hand.jpg")
    assert path.name == "hand.jpg.fanscan.json"
    save_labels(path, _sample())
    assert load_labels(path) == _sample()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_labels_folder_names_photos_relative_to_it(tmp_path: Path) -> None:
    for name in ("b/two.png", "one.jpg", ".hidden/three.jpg", "notes.txt", "b/.tmp.jpg"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"x")
    assert [p.relative_to(tmp_path).as_posix() for p in find_photos(tmp_path)] == [
        "b/two.png",
        "one.jpg",
    ]
    save_in_folder(tmp_path, replace(_sample(), image="b/two.png"))
    assert load_labels(tmp_path / "b" / "two.png.fanscan.json").image == "two.png"
    assert [labels.image for labels in load_folder(tmp_path)] == ["b/two.png"]


_WRITER = textwrap.dedent(
    """
    import sys
    from dataclasses import replace
    from fanscan.datasets.labels import PhotoLabels, TileLabel, save_labels
    corners = ((1.0, 2.0), (3.0, 2.0), (3.0, 4.0), (1.0, 4.0))
    small = PhotoLabels("a.jpg", 100, 100, (TileLabel("1m", corners, 0.5, "model"),))
    big = replace(small, tiles=tuple(TileLabel("9s", corners, 1.0, "person") for _ in range(3000)))
    save_labels(sys.argv[1], small)
    print("ready", flush=True)
    while True:
        save_labels(sys.argv[1], big)
        save_labels(sys.argv[1], small)
    """
)


def test_labels_survive_sigkill_while_saving(tmp_path: Path) -> None:
    path = tmp_path / "a.jpg.fanscan.json"
    for attempt in range(6):
        process = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        time.sleep(0.05 + 0.04 * attempt)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        labels = load_labels(path)  # raises if the file were half written
        assert len(labels.tiles) in (1, 3000)


def test_labels_a_tile_the_edge_cuts_may_reach_past_it_but_not_far() -> None:
    from fanscan.datasets.labels import CORNER_REACH, check_corners_reach

    sample = _sample()
    reach = CORNER_REACH * sample.width
    cut = json.loads(format_labels(sample))
    cut["tiles"][0]["corners"][0] = [-0.9 * reach, 0.0]  # a tile the left edge cuts: kept
    check_corners_reach(parse_labels(json.dumps(cut), "x.json"), "x.json")
    cut["tiles"][0]["corners"][0] = [-1.1 * reach, 0.0]
    far = parse_labels(json.dumps(cut), "x.json")  # a file written so still loads, to be fixed
    assert far.tiles[0].corners[0] == (-1.1 * reach, 0.0)
    with pytest.raises(FanscanError, match="x.json: tile 1 has a corner at"):
        check_corners_reach(far, "x.json")
