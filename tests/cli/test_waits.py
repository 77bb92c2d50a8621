"""`fanscan waits`: the table and the JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fanscan.cli import main


def test_waits_table_lists_each_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p78s234sEE"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "123m456p78s234sEE: waits on 2 tiles"
    assert [line.split()[0] for line in lines[2:]] == ["6s", "9s"]
    assert "Mixed Straight" in lines[3]


def test_waits_json_has_both_ways_to_win(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s123sE", "--seat", "S", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    (wait,) = obj["waits"]
    assert wait["tile"] == "E" and wait["remaining"] == 3
    assert (wait["discard"]["total"], wait["self_drawn"]["total"]) == (12, 14)


def test_waits_not_waiting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "1357m2468p13579s"]) == 0
    assert "not waiting" in capsys.readouterr().out


def test_waits_rejects_complete_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s123sEE"]) == 1
    err = capsys.readouterr().err
    assert "a waiting hand here has 13 (or 16 in the 16-tile games)" in err and err.count("\n") == 1


def test_waits_lists_a_sixteen_tile_hands_tiles_without_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s123s45m77p"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "123m456p789s123s45m77p: waits on 2 tiles"
    assert "no rule set here scores those" in lines[1]
    assert [line.split() for line in lines[2:]] == [["Tile", "Left"], ["3m", "3"], ["6m", "4"]]
    assert main(["waits", "123m456p789s123s45m77p", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["rules"] is None and "16-tile" in obj["note"]
    assert obj["waits"] == [{"tile": "3m", "remaining": 3, "discard": None, "self_drawn": None},
                            {"tile": "6m", "remaining": 4, "discard": None, "self_drawn": None}]
    # The rule set's own fields are still taken (and have nothing to score).
    assert main(["waits", "123m456p789s123s45m77p", "--rules", "sichuan", "--base", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "123m456p789s123s45m77p: waits on 2 tiles"


def test_waits_a_sixteen_tile_hand_not_waiting_claims_no_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "1133m5577p1199s22sEE", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["rules"] is None and obj["waits"] == [] and "16-tile" in obj["note"]
    assert main(["waits", "1133m5577p1199s22sEE"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1133m5577p1199s22sEE: not waiting (no tile completes it as five sets and a pair)"
    assert "no rule set here scores those" in out[1]


def test_waits_a_sixteen_tile_wait_with_no_copy_left_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "1111m234p567s789s123s"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["1m", "0", "all", "four", "in", "the", "hand"]


@pytest.mark.parametrize(("notation", "tiles", "said"), [
    ("123m456p789s123s45m77p", "13", "a waiting hand here has 13"),
    ("123m456p789s123sE", "16", "a waiting hand here has 16"),
])
def test_waits_tiles_given_must_be_the_notations(capsys: pytest.CaptureFixture[str], notation: str,
                                                 tiles: str, said: str) -> None:
    assert main(["waits", notation, "--tiles", tiles]) == 1
    err = capsys.readouterr().err
    assert said in err and "16-tile games" not in err and err.count("\n") == 1


def _photo_of_the_waiting_sample(path, standing: bool = False, sixteen: bool = False, sets: bool = True) -> None:
    """The sample's hand less its winning tile: 234m 23s 55p, a chow of 234p, a concealed red
    dragon kong and a flower, waiting on 1s or 4s (4s makes the mixed triple chow); laid down,
    or with ``standing`` as a player keeps it mid-game (the concealed tiles on edge); with
    ``sixteen`` a 16-tile game's, 678m more; without ``sets`` the two sets are not in the photo."""
    from fanscan.datasets import tile_art
    from fanscan.datasets.scenes import SceneGroup, generate_scene

    if "xmahjongg-real" not in tile_art.available_styles():
        pytest.skip("xmahjongg not installed")
    more = ("6m", "7m", "8m") if sixteen else ()
    groups = [SceneGroup("concealed", ("2m", "3m", "4m", *more, "2s", "3s", "5p", "5p")),
              SceneGroup("chow", ("3p", "2p", "4p"), 0), SceneGroup("concealed_kong", ("C",) * 4),
              SceneGroup("flowers", ("4f",))]
    if not sets:
        groups = [groups[0], groups[-1]]
    path.write_bytes(generate_scene(2032, size=(1280, 960), style="xmahjongg-real", groups=groups,
                                    standing=standing).jpeg)


def test_waits_reads_a_photo_of_a_waiting_hand(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "waiting.jpg"
    _photo_of_the_waiting_sample(photo)
    assert main(["waits", str(photo), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [w["tile"] for w in obj["waits"]] == ["1s", "4s"]
    assert obj["waits"][1]["discard"]["total"] > obj["waits"][0]["discard"]["total"]
    assert obj["reading"]["doubts"] == [] and len(obj["reading"]["tiles"]) == 15
    assert main(["waits", str(photo)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"{photo} (read as [234p][CCCC]234m23s55p+4f): waits on 2 tiles")


def test_waits_reads_a_hand_standing_mid_game_seen_from_the_seat(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "standing.jpg"
    _photo_of_the_waiting_sample(photo, standing=True)
    assert main(["waits", str(photo), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [w["tile"] for w in obj["waits"]] == ["1s", "4s"]
    assert len(obj["reading"]["tiles"]) == 15


@pytest.mark.parametrize("standing", [False, True])
def test_waits_reads_a_photo_of_a_sixteen_tile_hand(tmp_path, capsys: pytest.CaptureFixture[str],
                                                    standing: bool) -> None:
    photo = tmp_path / "sixteen.jpg"
    _photo_of_the_waiting_sample(photo, standing=standing, sixteen=True)
    assert main(["waits", str(photo), "--tiles", "16", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [(w["tile"], w["discard"]) for w in obj["waits"]] == [("1s", None), ("4s", None)]
    hand = obj["reading"]["hand"]
    assert sorted(hand["concealed"]) == sorted(
        ["2m", "3m", "4m", "6m", "7m", "8m", "2s", "3s", "5p", "5p"])
    assert sorted(m["type"] for m in hand["melds"]) == ["chow", "kong"]


def test_waits_a_photo_of_thirteen_asked_as_sixteen_is_one_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "waiting.jpg"
    _photo_of_the_waiting_sample(photo)
    assert main(["waits", str(photo), "--tiles", "16"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"fanscan: error: {photo} does not read as a waiting hand") and err.count("\n") == 1
    assert "of 16 tiles" in err


def test_waits_a_photo_is_read_as_thirteen_unless_told(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    # A 16-tile game's hand with its concealed kong laid apart is also a waiting hand of 13 (the
    # kong set apart): without --tiles 16 the photo is read as the 13 it may be, and says so.
    photo = tmp_path / "sixteen.jpg"
    _photo_of_the_waiting_sample(photo, sixteen=True)
    assert main(["waits", str(photo), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["rules"] == "mcr" and all(w["discard"] is not None for w in obj["waits"])
    assert len(obj["reading"]["hand"]["concealed"]) + 3 * len(obj["reading"]["hand"]["melds"]) == 13
    assert any("lie apart from the hand" in d for d in obj["reading"]["doubts"])
    assert main(["waits", str(photo)]) == 0
    assert "tiles lie apart from the hand: if it is a 16-tile game's hand, add --tiles 16)" in capsys.readouterr().out


def test_waits_photo_of_a_complete_hand_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.vision.samples import SAMPLE_PATH

    assert main(["waits", str(SAMPLE_PATH)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"fanscan: error: {SAMPLE_PATH} does not read as a waiting hand: ")
    assert "holds 14 playing tiles, as a complete hand does" in err and err.count("\n") == 1


def test_waits_of_nothing_is_an_empty_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", " "]) == 1
    assert capsys.readouterr().err == "fanscan: error: the hand notation is empty\n"


def test_waits_of_a_folder_is_one_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"fanscan: error: {tmp_path} is a folder: fanscan waits reads one photo or a notation\n")


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs a POSIX null device")
def test_waits_of_a_device_reads_it_as_a_photo(capsys: pytest.CaptureFixture[str]) -> None:
    # A path that is there but no regular file (a device, a pipe) is a photo to load, as `read` and
    # `score` take it, not a notation or a missing file.
    assert main(["waits", "/dev/null"]) == 1
    assert capsys.readouterr().err == "fanscan: error: /dev/null is empty\n"


def test_a_waiting_hands_photo_read_and_scored_says_it_waits(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "waiting.jpg"
    _photo_of_the_waiting_sample(photo)
    assert main(["read", str(photo), "--hand", "waiting"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "13 tiles, 7 standing, exposed chow, concealed kong; waiting to win; flower 4f"
    assert not any(line.startswith("winning tile:") for line in lines)
    assert main(["score", str(photo)]) == 1
    assert f"`fanscan waits {photo}` lists its winning tiles" in capsys.readouterr().err


def test_waits_a_mistyped_photo_path_is_no_such_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "photos/hand.jpg"]) == 1
    assert "no such file: photos/hand.jpg" in capsys.readouterr().err

def test_waits_a_link_to_nothing_or_round_in_a_circle_is_named_not_read_as_notation(
        tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loopA").symlink_to("loopB")
    (tmp_path / "loopB").symlink_to("loopA")
    (tmp_path / "gone").symlink_to("nothing")
    assert main(["waits", "loopA"]) == 1
    assert "no such file: loopA (links that lead round in a circle)" in capsys.readouterr().err
    assert main(["waits", "gone"]) == 1
    assert "no such file: gone (a link to a file that is not there)" in capsys.readouterr().err


def test_waits_a_link_gone_or_in_a_circle_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "moved.jpg").symlink_to(tmp_path / "elsewhere.jpg")
    (tmp_path / "a.jpg").symlink_to(tmp_path / "b.jpg")
    (tmp_path / "b.jpg").symlink_to(tmp_path / "a.jpg")
    for command in ("waits", "read"):
        assert main([command, str(tmp_path / "moved.jpg")]) == 1
        assert capsys.readouterr().err.endswith("moved.jpg (a link to a file that is not there)\n")
        assert main([command, str(tmp_path / "a.jpg")]) == 1
        assert capsys.readouterr().err.endswith("a.jpg (links that lead round in a circle)\n")


def test_waits_flowers_named_twice_differently_are_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s12sEE +1f", "--flowers", "3f"]) == 1
    assert "names its flowers (1f) and --flowers names 3f" in capsys.readouterr().err


def test_waits_reads_a_notation_or_a_photo_on_standard_input(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    import io
    from types import SimpleNamespace

    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(b"123m456p789s123sE\n")))
    assert main(["waits", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "123m456p789s123sE: waits on 1 tile"
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(b"  \n")))
    assert main(["waits", "-"]) == 1
    assert capsys.readouterr().err == (
        "fanscan: error: standard input is empty (expected a photo or a hand in the notation)\n")
    # A photo cut short after its signature is refused as a photo, not parsed as a hand.
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(b"GIF89a\x01")))
    assert main(["waits", "-"]) == 1
    err = capsys.readouterr().err
    assert "unexpected" not in err and err.count("\n") == 1


def test_waits_photo_lists_the_other_readings_as_notations_to_retype(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys
    import types

    from fanscan.scoring.hand import Hand

    read = {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "2s", "3s", "E"],
            "win_tile": "E"}
    other = {**read, "concealed": read["concealed"][:-1] + ["S"], "win_tile": "S"}
    reading = types.SimpleNamespace(
        hand=Hand.from_json(read, size=13), tiles=[], doubts=["the last tile may be S"],
        alternatives=[("the 13th tile as S", Hand.from_json(other, size=13))])
    reader = types.ModuleType("fanscan.vision.reader")
    reader.read_photo = lambda source, **options: reading  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fanscan.vision.reader", reader)
    photo = tmp_path / "waiting.jpg"
    photo.write_bytes(b"not read: the reader is a stand-in")
    assert main(["waits", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "  doubt: the last tile may be S\n" in out
    assert "  other reading: the 13th tile as S: 123m456p789123sS\n" in out
    assert main(["waits", "123m456p789123sS"]) == 0  # the notation shown is one waits takes
    assert "waits on 1 tile" in capsys.readouterr().out


def test_waits_adds_the_declared_sets_the_photo_does_not_show(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "standing.jpg"
    _photo_of_the_waiting_sample(photo, standing=True, sets=False)  # 234m 23s 55p standing, a flower
    assert main(["waits", str(photo)]) == 1  # seven tiles are no waiting hand of 13
    assert "fewer than a hand of 13" in capsys.readouterr().err
    assert main(["waits", str(photo), "--melds", "[234p1] [CCCC]", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [w["tile"] for w in obj["waits"]] == ["1s", "4s"]
    assert obj["waits"][1]["discard"]["total"] > obj["waits"][0]["discard"]["total"]  # 4s: mixed triple chow
    assert [(m["type"], m["concealed"]) for m in obj["hand"]["melds"]] == [("chow", False), ("kong", True)]
    assert obj["reading"]["hand"]["melds"] == []  # the photo's own reading, as read
    assert main(["waits", str(photo), "--melds", "[234p1][CCCC]"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"{photo} (read as [234p1][CCCC]234m23s55p")
    assert out.splitlines()[0].endswith("): waits on 2 tiles")
    assert "--tiles 16" not in out  # the sets given are the hand's, not tiles of a longer hand


def test_waits_melds_that_leave_another_count_say_how_many_should_stand(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "standing.jpg"
    _photo_of_the_waiting_sample(photo, standing=True, sets=False)
    assert main(["waits", str(photo), "--melds", "[234p1]"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"fanscan: error: {photo} shows 7 standing tiles (234m23s55p")
    assert err.endswith("); with the 1 set of --melds a waiting hand of 13 stands 10\n")


@pytest.mark.parametrize(("args", "code", "message"), [
    (["123m456p789s123sE", "--melds", "[WWW1]"], 2, "--melds goes with a PHOTO"),
    (["PHOTO", "--melds", "[234p1]5p"], 1, "only sets in brackets go here: '5' at column 8"),
    (["PHOTO", "--melds", "[235p1]"], 1, "the meld [235p1] at column 1 is not a chow, pung or kong"),
    (["PHOTO", "--melds", "[111m][222m][333m][444m][555m]"], 2, "--melds: 5 sets leave no standing tile"),
])
def test_waits_melds_refused_in_one_line(tmp_path, capsys: pytest.CaptureFixture[str], args: list[str],
                                         code: int, message: str) -> None:
    photo = tmp_path / "hand.png"
    photo.write_bytes(b"not read: refused before")
    assert main(["waits", *[str(photo) if a == "PHOTO" else a for a in args]]) == code
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and message in err and err.count("\n") == 1
