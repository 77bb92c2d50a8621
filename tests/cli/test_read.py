"""``fanscan read``: bad input gives one line and exit 1; a real read prints the contract's object."""

from __future__ import annotations

import io
import json
import shutil
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from worker_processes import interrupt_once_working, none_left, workers_of
from fanscan.vision.classifier import DEFAULT_MODEL
from fanscan.vision.samples import SAMPLE_PATH
from PIL import Image

from fanscan.cli import main


def _plain_table(mode: str) -> Image.Image:
    """A photo of an empty green table (no tiles), in the given PIL mode."""
    rng = np.random.default_rng(0)
    array = np.clip(rng.normal((40, 120, 60), 6, (300, 400, 3)), 0, 255).astype(np.uint8)
    image = Image.fromarray(array)
    if mode == "RGBA":
        image.putalpha(200)
        return image
    return image.convert(mode)


def _save(image: Image.Image, path: Path) -> Path:
    image.save(path)
    return path


def _bomb(path: Path) -> Path:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b""))
    return path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _truncated(path: Path) -> Path:
    buffer = io.BytesIO()
    _plain_table("RGB").save(buffer, "JPEG")
    data = buffer.getvalue()
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        pytest.param(lambda d: d / "missing.jpg", "no such file", id="missing"),
        pytest.param(lambda d: d, "holds no photos", id="folder-without-photos"),
        pytest.param(lambda d: _write(d / "empty.jpg", b""), "is empty", id="empty"),
        pytest.param(lambda d: _write(d / "notes.jpg", b"shopping list"), "not an image", id="not-an-image"),
        pytest.param(lambda d: _truncated(d / "cut.jpg"), "could not be decoded", id="truncated"),
        pytest.param(lambda d: _bomb(d / "bomb.png"), "megapixel", id="decompression-bomb"),
        pytest.param(lambda d: _save(_plain_table("RGB"), d / "table.jpg"), "no mahjong tiles", id="no-tiles"),
        pytest.param(lambda d: _save(_plain_table("L"), d / "grey.png"), "no mahjong tiles", id="grayscale"),
        pytest.param(lambda d: _save(_plain_table("CMYK"), d / "cmyk.jpg"), "no mahjong tiles", id="cmyk"),
        pytest.param(lambda d: _save(_plain_table("RGBA"), d / "alpha.png"), "no mahjong tiles", id="alpha"),
    ],
)
def test_read_bad_input_is_one_line_and_exit_1(tmp_path: Path, capsys, make, words: str) -> None:
    path = make(tmp_path)
    assert main(["read", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("fanscan: error: ") and words in lines[0]
    assert "Traceback" not in captured.err


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")

# The bundled sample photo and the hand it shows (sample_groups), so that these tests need no
# tile art: 2m3m4m 2s3s 5p5p standing, 4s apart, an exposed chow 234p, a concealed kong of C, 4f.
SAMPLE_TILES = 16


def _sample_hand() -> dict:
    from fanscan.datasets.scenes import hand_of
    from fanscan.vision.samples import sample_groups

    return hand_of(sample_groups())


@needs_model
def test_read_json_follows_the_contract(tmp_path: Path, capsys) -> None:
    out = tmp_path / "annotated.jpg"
    assert main(["read", str(SAMPLE_PATH), "--json", "--annotate", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"tiles", "hand", "doubts"} <= set(result)
    assert result["file"] == str(SAMPLE_PATH)
    assert len(result["tiles"]) == SAMPLE_TILES
    for tile in result["tiles"]:
        assert set(tile) >= {"code", "confidence", "box", "orientation"}
        assert len(tile["box"]) == 4 and all(len(corner) == 2 for corner in tile["box"])
    assert result["hand"] == _sample_hand()
    assert Image.open(out).size == (1280, 960)


@needs_model
def test_read_summary_for_people(capsys) -> None:
    assert main(["read", str(SAMPLE_PATH)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "16 tiles found in a 1280x960 photo"
    # The notation of the sample's hand, written by hand from the grammar: the chow, the kong,
    # the standing tiles with the winning 4s last, the flower after a '+'.
    assert lines[1] == "hand: [234p][CCCC]234m23s55p4s+4f"
    assert lines[2] == "14 tiles, 8 standing, exposed chow, concealed kong; winning tile 4s; flower 4f"
    assert "winning tile: 4s" in lines


@needs_model
def test_read_photo_from_standard_input(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from types import SimpleNamespace

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(SAMPLE_PATH.read_bytes())))
    assert main(["read", "-", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["file"] == "-" and result["hand"] == _sample_hand()


def test_read_closed_standard_input_says_so(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", None)  # as Python starts with its standard input closed
    assert main(["read", "-"]) == 1
    assert capsys.readouterr().err == "fanscan: error: standard input is closed (expected a photo)\n"


def test_read_counts_tiles_in_words() -> None:
    from fanscan.cli.read import tiles_counted

    assert [tiles_counted(n) for n in (0, 1, 2, 14)] == ["0 tiles", "1 tile", "2 tiles", "14 tiles"]


def test_read_empty_standard_input_says_so(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from types import SimpleNamespace

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(b"")))
    assert main(["read", "-"]) == 1
    assert capsys.readouterr().err == (
        "fanscan: error: standard input is empty (expected a photo)\n"
    )


@needs_model
def test_read_several_photos_prints_one_json_line_each_in_order(tmp_path: Path, capsys) -> None:
    first, second = tmp_path / "b.jpg", tmp_path / "a.jpg"
    for path in (first, second):
        shutil.copy(SAMPLE_PATH, path)
    assert main(["read", str(first), str(second), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(first), str(second)]
    assert all(line["hand"] == _sample_hand() for line in lines)


def test_read_several_arguments_report_a_folder_without_photos_in_its_turn(tmp_path: Path, capsys) -> None:
    photo, empty = tmp_path / "a.jpg", tmp_path / "empty"
    shutil.copy(SAMPLE_PATH, photo)
    empty.mkdir()
    assert main(["read", str(empty), str(photo), "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(empty), str(photo)]
    assert "error" in lines[0] and lines[1]["hand"] == _sample_hand()


@needs_model
def test_read_folder_goes_on_past_a_bad_photo_and_exits_1(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(SAMPLE_PATH, folder / "sub" / "hand.jpg")
    (folder / "a-notes.jpg").write_text("shopping list")
    (folder / "readme.txt").write_text("not a photo by its name: left alone")
    assert main(["read", str(folder), "--json"]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["file"] for line in lines] == [str(folder / "a-notes.jpg"), str(folder / "sub" / "hand.jpg")]
    assert lines[0]["code"] == "unreadable_image" and "not an image" in lines[0]["error"]
    assert "tiles" not in lines[0] and lines[1]["hand"] == _sample_hand()
    assert captured.err.count("fanscan: error: ") == 1 and "Traceback" not in captured.err


@needs_model
def test_read_folder_reports_a_link_to_a_photo_that_is_gone(tmp_path: Path, capsys) -> None:
    # A link left behind when its photo moved is a photo the user asked for: reported and
    # counted as failed, never skipped without a word.
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLE_PATH, folder / "hand.jpg")
    (folder / "moved.jpg").symlink_to(tmp_path / "elsewhere" / "moved.jpg")
    assert main(["read", str(folder), "--json"]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["file"] for line in lines] == [str(folder / "hand.jpg"), str(folder / "moved.jpg")]
    assert lines[1]["code"] == "not_found" and "a link to a file that is not there" in lines[1]["error"]
    assert lines[0]["hand"] == _sample_hand() and "Traceback" not in captured.err


@needs_model
@pytest.mark.slow
def test_read_with_workers_gives_what_one_process_gives(tmp_path: Path, capsys) -> None:
    for name in ("1.jpg", "2.jpg", "3.jpg"):
        shutil.copy(SAMPLE_PATH, tmp_path / name)
    (tmp_path / "4.jpg").write_bytes(b"no photo")
    assert main(["read", str(tmp_path), "--json"]) == 1
    alone = capsys.readouterr().out
    assert main(["read", str(tmp_path), "--json", "--workers", "2"]) == 1
    assert capsys.readouterr().out == alone
    assert len(alone.splitlines()) == 4


@needs_model
def test_read_shows_progress_on_long_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from fanscan.cli import read

    monkeypatch.setattr(read, "PROGRESS_FROM", 2)
    for name in ("1.jpg", "2.jpg"):
        shutil.copy(SAMPLE_PATH, tmp_path / name)
    assert main(["read", str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    assert "reading" in captured.err and "2/2" in captured.err
    assert len(captured.out.splitlines()) == 2  # stdout holds only the JSON lines
    assert main(["read", str(tmp_path), "--json", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--annotate", "{tmp}/missing/out.jpg"], "the folder {tmp}/missing does not exist",
                     id="annotate-missing-folder"),
        pytest.param(["--annotate", "{tmp}/out.gif"], "should end in .jpg or .png", id="annotate-suffix"),
        pytest.param(["--annotate", "{tmp}/folder.jpg"], "{tmp}/folder.jpg is a folder", id="annotate-a-folder"),
        pytest.param(["--annotate", "{tmp}/" + "a" * 300 + ".jpg"], "longer than the folder allows",
                     id="annotate-name-too-long"),
        pytest.param(["--debug", "{tmp}/file.txt"], "--debug {tmp}/file.txt is a file, not a folder", id="debug-a-file"),
    ],
)
def test_read_annotate_path_is_checked_before_reading(tmp_path: Path, capsys, argv, message) -> None:
    (tmp_path / "folder.jpg").mkdir()
    (tmp_path / "file.txt").write_text("x")
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert main(["read", str(SAMPLE_PATH), *argv]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"fanscan: error: {argv[0]} ")
    assert message.format(tmp=tmp_path) in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize("command", ["read", "score"])
def test_annotate_onto_the_photo_read_is_refused_and_the_photo_kept(tmp_path: Path, capsys, command) -> None:
    photo = tmp_path / "mine.jpg"
    shutil.copy(SAMPLE_PATH, photo)
    (tmp_path / "sub").mkdir()
    kept = photo.read_bytes()
    for out in (photo, tmp_path / "sub" / ".." / "mine.jpg"):
        assert main([command, str(photo), "--annotate", str(out)]) == 1
        err = capsys.readouterr().err
        assert "is the photo read" in err and err.count("\n") == 1
    assert photo.read_bytes() == kept


def test_read_annotate_with_several_photos_is_a_usage_error(tmp_path: Path, capsys) -> None:
    argv = ["read", str(SAMPLE_PATH), str(SAMPLE_PATH), "--annotate", str(tmp_path / "a.jpg")]
    assert main(argv) == 2
    assert "take one photo" in capsys.readouterr().err


def test_read_help_documents_exit_status_folders_and_stdin(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["read", "--help"])
    text = capsys.readouterr().out
    assert "exit status:" in text and "2  usage error" in text and "1  bad input" in text
    assert "folder" in text and "standard input" in text and "--workers" in text


def _sample_twice(path: Path) -> Path:
    """The sample photo with a copy of itself above: a second hand far from the one nearest the
    camera (the bottom one)."""
    photo = np.asarray(Image.open(SAMPLE_PATH).convert("RGB"))
    Image.fromarray(np.vstack([photo, photo])).save(path, quality=95)
    return path


@needs_model
def test_read_json_marks_the_tiles_of_a_second_group_far_from_the_hand_not_in_hand(
    tmp_path: Path, capsys
) -> None:
    photo = _sample_twice(tmp_path / "two-hands.jpg")
    out = tmp_path / "annotated.jpg"
    assert main(["read", str(photo), "--json", "--annotate", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["tiles"]) == 2 * SAMPLE_TILES  # every tile found is listed
    half = Image.open(SAMPLE_PATH).size[1]
    for tile in result["tiles"]:
        below = min(y for _, y in tile["box"]) > half
        assert tile["in_hand"] is below  # the lower copy is nearer the camera
        if not tile["in_hand"]:
            assert tile["group"] == -1
    hand_tiles = {i for group in result["groups"] for i in group["tiles"]}
    assert all(result["tiles"][i]["in_hand"] for i in hand_tiles)
    assert result["hand"] == _sample_hand()  # one hand, not two: no copy counted twice
    image = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert image.shape[:2] == (2 * half, Image.open(SAMPLE_PATH).size[0])
    grey = (np.abs(image - 160).max(axis=2) <= 12)
    assert grey[:half].sum() > 5 * grey[half:].sum()  # the tiles apart boxed and framed in grey


@needs_model
def test_read_summary_counts_the_tiles_outside_the_hand_and_all_tiles_reads_them_all(
    tmp_path: Path, capsys
) -> None:
    photo = _sample_twice(tmp_path / "two-hands.jpg")
    assert main(["read", str(photo)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (f"{2 * SAMPLE_TILES} tiles found in a 1280x1920 photo, {SAMPLE_TILES} of them "
                     "outside the hand (not read as part of it)")
    assert main(["read", str(photo), "--json", "--all-tiles"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["tiles"]) == 2 * SAMPLE_TILES
    assert all(tile["in_hand"] for tile in result["tiles"])
    assert len(result["hand"]["flowers"]) == 2  # both copies' 4f, read as one layout
    assert main(["read", str(photo), str(SAMPLE_PATH), "--json", "--all-tiles"]) == 0  # batch path too
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [all(t["in_hand"] for t in line["tiles"]) for line in lines] == [True, True]
    assert len(lines[0]["tiles"]) == 2 * SAMPLE_TILES


@needs_model
def test_read_the_rule_sets_hand_size_and_the_hand_kind(capsys) -> None:
    assert main(["read", str(SAMPLE_PATH), "--json", "--rules", "sichuan", "--hand", "any"]) == 0
    assert json.loads(capsys.readouterr().out)["hand"] == _sample_hand()
    # Read as a hand waiting to win (13 tiles), the sample's 14 fit no such hand: the reading says
    # so (a complete hand's count) rather than leaving a sure tile out.
    assert main(["read", str(SAMPLE_PATH), "--json", "--hand", "waiting"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["tiles"]) == SAMPLE_TILES
    assert any("holds 14 playing tiles, as a complete hand does" in d for d in result["doubts"])
    assert main(["read", str(SAMPLE_PATH), "--hand", "waiting"]) == 0
    assert "; read as waiting, but not a waiting hand's count" in capsys.readouterr().out.splitlines()[2]


def test_read_unknown_rule_set_or_hand_kind_is_one_line_before_reading(capsys) -> None:
    assert main(["read", "no-such-photo.jpg", "--rules", "riichi"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: unknown rule set 'riichi'") and err.count("\n") == 1
    with pytest.raises(SystemExit) as stop:
        main(["read", str(SAMPLE_PATH), "--hand", "standing"])
    assert stop.value.code == 2


@pytest.mark.parametrize("extra", [["--rules", "mcr"], ["--hand", "waiting"], ["--hand", "win"]])
def test_read_all_tiles_takes_no_hand_options(capsys, extra: list[str]) -> None:
    assert main(["read", str(SAMPLE_PATH), "--all-tiles", *extra]) == 2
    assert capsys.readouterr().err == (
        "fanscan: error: --all-tiles reads no hand: --rules and --hand do not go with it\n")


def _workers_run(tmp_path: Path):  # noqa: ANN202 - a subprocess.Popen
    import subprocess
    import sys

    folder = tmp_path / "photos"
    folder.mkdir()
    for i in range(24):
        shutil.copy(SAMPLE_PATH, folder / f"p{i:02d}.jpg")
    return subprocess.Popen([sys.executable, "-m", "fanscan", "read", str(folder), "--json", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the worker processes")
@pytest.mark.parametrize("after", [0.0, 2.0])
def test_read_with_workers_interrupted_says_one_line_and_leaves_no_worker(tmp_path: Path, after: float) -> None:
    # Ctrl-C reaches the whole group: as soon as the first worker is spawned (it is still
    # starting its interpreter), and once they read
    process = _workers_run(tmp_path)
    workers, err = interrupt_once_working(process, after)
    assert process.returncode in (0, 130)  # 0: it had read every photo first
    assert "Traceback" not in err and "Error" not in err
    assert none_left(workers)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the worker processes")
def test_read_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    import os
    import signal
    import time

    process = _workers_run(tmp_path)
    time.sleep(2.5)
    workers = workers_of(process)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    assert none_left(workers, seconds=15)


def test_read_json_of_a_photo_whose_name_is_no_utf8_is_still_utf8(tmp_path: Path, capsys) -> None:
    # A file system may allow any bytes in a name; Python hands them over as lone surrogates, which
    # written out raw would make the line no UTF-8 (and so no JSON a reader accepts).
    import os

    name = tmp_path / os.fsdecode(b"bad\xff\xfename.jpg")
    try:
        shutil.copy(SAMPLE_PATH, name)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes UTF-8 names only")
    assert main(["read", str(name), "--json"]) == 0
    out = capsys.readouterr().out
    line = out.encode("utf-8").decode("utf-8")  # no lone surrogate left in it
    assert json.loads(line)["file"] == str(name)
    assert "\\udcff\\udcfe" in line
