"""``fanscan export``: each format's files from a labelled folder, reviewed photos by default."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, save_labels

BOX = ((10.0, 8.0), (40.0, 8.0), (40.0, 50.0), (10.0, 50.0))


def _labelled_folder(root: Path) -> Path:
    """Two photos: ``a.png`` reviewed with two tiles, ``sub/b.jpg`` unreviewed with one."""
    import cv2

    shifted = tuple((x + 40, y) for x, y in BOX)
    for name, tiles, status in (
        (
            "a.png",
            (TileLabel("5p", BOX, 0.6, "model"), TileLabel("N", shifted, 1.0, "person")),
            "reviewed",
        ),
        ("sub/b.jpg", (TileLabel("3f", BOX, 0.9, "model"),), "unreviewed"),
    ):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((60, 100, 3), 200, np.uint8))
        save_labels(label_path(path), PhotoLabels(path.name, 100, 60, tiles, status=status))
    return root


def test_export_coco_writes_reviewed_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert main(["export", str(folder), "--format", "coco", "--out", str(tmp_path / "c.json")]) == 0
    document = json.loads((tmp_path / "c.json").read_text())
    assert [image["file_name"] for image in document["images"]] == ["a.png"]
    assert len(document["annotations"]) == 2 and len(document["categories"]) == 43
    assert "exported 1 photos, 2 tiles" in capsys.readouterr().out


def test_export_all_includes_unreviewed(tmp_path: Path) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert (
        main(["export", str(folder), "--format", "yolo", "--out", str(tmp_path / "y"), "--all"])
        == 0
    )
    assert (tmp_path / "y" / "labels" / "sub" / "b.txt").read_text().startswith("36 ")
    assert (tmp_path / "y" / "images" / "sub" / "b.jpg").is_file()
    assert (tmp_path / "y" / "data.yaml").is_file()


def test_export_crops_feed_a_labels_csv(tmp_path: Path) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert main(["export", str(folder), "--format", "crops", "--out", str(tmp_path / "crops")]) == 0
    lines = (tmp_path / "crops" / "labels.csv").read_text().splitlines()
    assert lines == ["file,label", "5p/a_001.png,5p", "N/a_002.png,N"]


@pytest.mark.parametrize("fmt", ["crops", "yolo"])
def test_export_skips_a_photo_that_is_no_image_and_exports_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    fake = folder / "fake.jpg"
    fake.write_text("no picture")
    save_labels(label_path(fake), PhotoLabels("fake.jpg", 100, 60, (TileLabel("E", BOX, 1.0, "person"),),
                                              status="reviewed"))
    out = tmp_path / "out"
    assert main(["export", str(folder), "--format", fmt, "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "fanscan: skipped fake.jpg: it is not an image file fanscan can read (JPEG, PNG, WebP, BMP, TIFF, GIF or HEIC)\n"
    assert captured.out == (f"exported 1 photos, 2 tiles, as {fmt} to {out} "
                            "(1 unreviewed left out; --all includes them; 1 skipped: no image fanscan reads)\n")
    assert not list(out.rglob("fake*"))


def test_export_crops_skips_a_photo_cut_short(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    folder = _labelled_folder(tmp_path / "photos")
    noise = np.random.default_rng(0).integers(0, 255, (60, 100, 3), dtype=np.uint8)
    encoded = cv2.imencode(".jpg", noise)[1].tobytes()
    (folder / "cut.jpg").write_bytes(encoded[: len(encoded) // 2])
    save_labels(label_path(folder / "cut.jpg"), PhotoLabels("cut.jpg", 100, 60, (TileLabel("E", BOX, 1.0, "person"),),
                                                           status="reviewed"))
    assert main(["export", str(folder), "--format", "crops", "--out", str(tmp_path / "out")]) == 0
    assert "skipped cut.jpg:" in capsys.readouterr().err


def test_export_with_nothing_reviewed_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    (folder / "a.png.fanscan.json").unlink()
    assert main(["export", str(folder), "--format", "voc", "--out", str(tmp_path / "v")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("fanscan: error: no labelled photos to export") and "--all" in error
    assert error.count("\n") == 1


def test_export_obb_only_for_yolo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert (
        main(
            ["export", str(folder), "--format", "coco", "--obb", "--out", str(tmp_path / "c.json")]
        )
        == 2
    )
    assert "--obb only applies to --format yolo" in capsys.readouterr().err


def test_export_refuses_a_file_for_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    (tmp_path / "taken").write_text("x")
    assert main(["export", str(folder), "--format", "voc", "--out", str(tmp_path / "taken")]) == 1
    assert "taken is a file: voc is written to a folder" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["yolo", "voc", "crops"])
def test_export_refuses_a_folder_that_holds_files_and_leaves_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    out = tmp_path / "mine"
    (out / "images").mkdir(parents=True)
    (out / "labels.csv").write_text("mine")
    (out / "data.yaml").write_text("mine")
    (out / "images" / "a.jpg").write_text("keep")
    assert main(["export", str(folder), "--format", fmt, "--out", str(out)]) == 1
    assert "mine holds files already" in capsys.readouterr().err
    assert [(out / name).read_text() for name in ("labels.csv", "data.yaml", "images/a.jpg")] == ["mine", "mine", "keep"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "data.yaml", "images", "images/a.jpg", "labels.csv"]
    (out / "empty").mkdir()
    assert main(["export", str(folder), "--format", fmt, "--out", str(out / "empty")]) == 0


def _reviewed_photos(root: Path, count: int) -> Path:
    import cv2

    for number in range(count):
        path = root / f"p{number}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((60, 100, 3), 200, np.uint8))
        tiles = (TileLabel("5p", BOX, 1.0, "person"),)
        save_labels(label_path(path), PhotoLabels(path.name, 100, 60, tiles, status="reviewed"))
    return root


def test_export_yolo_val_fraction_splits_whole_photos(tmp_path: Path) -> None:
    folder = _reviewed_photos(tmp_path / "photos", 10)
    out = tmp_path / "yolo"
    argv = ["export", str(folder), "--format", "yolo", "--val-fraction", "0.3", "--out", str(out)]
    assert main(argv) == 0
    train = sorted(p.name for p in (out / "images" / "train").iterdir())
    val = sorted(p.name for p in (out / "images" / "val").iterdir())
    assert len(val) == 3 and len(train) == 7
    assert sorted(train + val) == sorted(f"p{n}.png" for n in range(10))
    for split, names in (("train", train), ("val", val)):  # each photo's labels beside it
        assert sorted(p.name for p in (out / "labels" / split).iterdir()) == sorted(
            name.replace(".png", ".txt") for name in names
        )
    data = (out / "data.yaml").read_text()
    assert "train: images/train\n" in data and "val: images/val\n" in data
    # A second export of the same photos splits them the same way.
    again = tmp_path / "again"
    assert main([*argv[:-1], str(again)]) == 0
    assert sorted(p.name for p in (again / "images" / "val").iterdir()) == val


def test_export_yolo_split_imports_back(tmp_path: Path) -> None:
    folder = _reviewed_photos(tmp_path / "photos", 4)
    out = tmp_path / "yolo"
    argv = ["export", str(folder), "--format", "yolo", "--val-fraction", "0.5", "--out", str(out)]
    assert main(argv) == 0
    assert main(["import", str(out), "--format", "yolo"]) == 0
    from fanscan.datasets.labels import load_folder

    imported = load_folder(out / "images")
    assert sorted(p.image.split("/")[0] for p in imported) == ["train", "train", "val", "val"]
    assert all([t.code for t in p.tiles] == ["5p"] for p in imported)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(["--format", "coco", "--val-fraction", "0.2"], "only applies to --format yolo",
                     id="not-yolo"),
        pytest.param(["--format", "yolo", "--val-fraction", "1"], "at least 0 and below 1",
                     id="all-val"),
        pytest.param(["--format", "yolo", "--val-fraction", "-0.1"], "at least 0 and below 1",
                     id="negative"),
    ],
)
def test_export_val_fraction_misuse_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    folder = _reviewed_photos(tmp_path / "photos", 2)
    assert main(["export", str(folder), *extra, "--out", str(tmp_path / "out.json")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("form", "out"), [
    ("coco", "a.png"), ("coco", "a.png.fanscan.json"), ("coco", "sub/new.jpg"),
    ("yolo", "."), ("voc", "sub"), ("crops", "crops_here"),
])
def test_export_never_writes_over_or_into_the_folder_it_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str, out: str
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert main(["export", str(folder), "--format", form, "--out", str(folder / out), "--all"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and err.count("\n") == 1
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert main(["export", str(folder), "--format", "coco", "--out", str(folder / "export.json"), "--all"]) == 0


@pytest.mark.parametrize("form", ["voc", "yolo"])
def test_export_refuses_two_photos_the_format_would_write_under_one_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    # VOC flattens a/x.jpg to a__x and drops the suffix; YOLO names labels by the stem: dup.jpg and
    # dup.png would share one label file, one photo's labels written over the other's
    import cv2

    folder = tmp_path / "photos"
    for name in ("dup.jpg", "dup.png", "a/x.jpg", "a__x.jpg"):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((60, 100, 3), 200, np.uint8))
        save_labels(label_path(path), PhotoLabels(path.name, 100, 60, (TileLabel("5p", BOX, 0.6, "model"),),
                                                  status="reviewed"))
    out = tmp_path / "out"
    assert main(["export", str(folder), "--format", form, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "would both be written as" in err and err.count("\n") == 1
    assert not out.exists()
