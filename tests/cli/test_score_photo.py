"""`fanscan score PHOTO` and `--sample`, with a fake photo reader in place of the vision one."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from fanscan.cli import main
from fanscan.scoring.hand import Hand

HAND = {
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "2s", "3s", "E", "E"],
    "win_tile": "E",
}


class FakeReading:
    def __init__(self) -> None:
        self.hand = Hand.from_json(HAND)
        self.alternatives = [("the last tile is 3s", Hand.from_json({**HAND, "win_tile": "3s"}))]
        self.doubts = ["tile 5 could be 5p or 6p"]
        self.saved: list[str] = []
        self.banners: list[str | None] = []
        self.options: dict[str, object] = {}

    def to_json(self) -> dict[str, Any]:
        return {"tiles": [], "hand": self.hand.to_json(), "doubts": self.doubts}

    def save_annotated(self, path: str, banner: str | None = None) -> None:
        self.saved.append(path)
        self.banners.append(banner)


@pytest.fixture
def reading(monkeypatch: pytest.MonkeyPatch) -> FakeReading:
    fake = FakeReading()
    reader = types.ModuleType("fanscan.vision.reader")
    def read_photo(path: object, **options: object) -> FakeReading:
        fake.options = options
        return fake

    reader.read_photo = read_photo  # type: ignore[attr-defined]
    samples = types.ModuleType("fanscan.vision.samples")
    samples.sample_photo_path = lambda: Path("sample.jpg")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fanscan.vision.reader", reader)
    monkeypatch.setitem(sys.modules, "fanscan.vision.samples", samples)
    return fake


def test_score_photo_prints_table_doubts_and_alternatives(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg", "--annotate", "out.jpg"]) == 0
    assert reading.options == {"rules": "mcr"}  # the rule set's hand size guides the reading
    out = capsys.readouterr().out
    assert "Total: 12; minimum 8: met" in out
    assert "doubt: tile 5 could be 5p or 6p" in out
    assert "other reading: the last tile is 3s: 12 (to score it: --win 3s)" in out
    assert out.index("other reading:") < out.index("doubt:")  # as `fanscan read` orders them
    assert reading.saved == ["out.jpg"]


def test_score_photo_merges_flags_into_the_hand(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg", "--self-drawn", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 14
    assert result["reading"]["doubts"] == reading.doubts
    assert result["alternatives"] == [
        {"description": "the last tile is 3s", "total": 14, "error": None}
    ]


def test_score_sample_reads_the_bundled_photo(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--sample"]) == 0
    assert capsys.readouterr().out.startswith("sample.jpg")


def test_score_photo_incomplete_hand_exits_1_with_doubts(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    reading.hand = reading.hand.replace(concealed=reading.hand.concealed[:-1])
    assert main(["score", "hand.jpg"]) == 1
    captured = capsys.readouterr()
    assert "doubt:" in captured.out
    assert "  hand: 123m456p789123sE\n" in captured.out  # what was read, though no win
    assert "the hand has 13 tiles" in captured.err
    assert "`fanscan waits hand.jpg` lists its winning tiles" in captured.err and captured.err.count("\n") == 1


def test_score_photo_says_which_flowers_it_scored_when_the_flag_gives_others(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg", "--flowers", "1f2f"]) == 0
    out = capsys.readouterr().out
    assert "  flowers scored: 1f 2f (as given; the photo shows none)\n" in out
    assert "Flower Tiles" in out
    reading.hand = Hand.from_json({**HAND, "flowers": ["1f", "2f"]})
    assert main(["score", "hand.jpg", "--flowers", "2f1f"]) == 0  # the same flowers: nothing to say
    assert "flowers scored" not in capsys.readouterr().out


def test_score_photo_win_scores_the_named_winning_tile(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg"]) == 0
    out = capsys.readouterr().out
    assert "Single Wait" in out and "Edge Wait" not in out  # EE completed on E
    assert main(["score", "hand.jpg", "--win", "3s"]) == 0
    out = capsys.readouterr().out
    assert "  winning tile scored: 3s (as given; read as E)\n" in out
    assert "Edge Wait" in out and "Single Wait" not in out  # 12s completed on 3s
    assert "(to score it: --win 3s)" not in out  # the reading scored is not offered again
    assert main(["score", "hand.jpg", "--win", "3s", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reading"]["hand"]["win_tile"] == "E"  # as read


def test_score_photo_win_leaves_out_the_doubt_it_answers(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = ("No tile stands apart as the winning tile, so the last concealed tile (E) was taken; "
             "put the winning tile a little apart at the right end, or pick another reading.")
    reading.doubts = [taken, "tile 5 could be 5p or 6p"]
    assert main(["score", "hand.jpg"]) == 0
    assert f"doubt: {taken}" in capsys.readouterr().out
    assert main(["score", "hand.jpg", "--win", "3s"]) == 0
    out = capsys.readouterr().out
    assert "No tile stands apart" not in out  # the flag named the winning tile
    assert "doubt: tile 5 could be 5p or 6p" in out  # every other doubt stays


@pytest.mark.parametrize(
    ("args", "message", "status"),
    [
        (["hand.jpg", "--win", "5m"], "--win 5m: the standing tiles read hold no 5m (1m 2m 3m", 1),  # the photo's
        (["--hand", "123m456p789s123sEE", "--win", "E"], "--win goes with a PHOTO", 2),  # the command line's
    ],
)
def test_score_photo_win_refuses_a_tile_it_cannot_score(
    reading: FakeReading, capsys: pytest.CaptureFixture[str], args: list[str], message: str, status: int
) -> None:
    assert main(["score", *args]) == status
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_score_photo_win_takes_only_a_playing_tile(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["score", "hand.jpg", "--win", "1f"])
    assert stopped.value.code == 2
    assert "argument --win: expected a playing tile's code" in capsys.readouterr().err


def test_score_photo_offers_no_win_flag_for_a_reading_that_is_no_win(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    reading.alternatives = [("the last tile is 5m", Hand.from_json({**HAND, "win_tile": "5m",
        "concealed": HAND["concealed"][:-1] + ["5m"]}))]
    assert main(["score", "hand.jpg"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if "other reading" in l)
    assert "not a win" in line and "--win" not in line


def test_score_photo_shows_the_hand_read_before_the_fans(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "hand.jpg",
        "  hand: 123m456p789123sEE",  # one suit's digits run together
        "  14 tiles, 14 standing; winning tile E",
    ]
    assert lines[3].split()[:2] == ["Fan", "中文"]


def test_score_photo_from_standard_input(
    reading: FakeReading, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    read: list[object] = []
    sys.modules["fanscan.vision.reader"].read_photo = lambda source, **_: read.append(source) or reading
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"\xff\xd8photo")))
    assert main(["score", "-"]) == 0
    assert read == [b"\xff\xd8photo"]
    assert capsys.readouterr().out.startswith("the photo on standard input\n  hand: ")


def test_score_win_with_a_notation_on_standard_input_is_refused(
    reading: FakeReading, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"123m456p789s123sEE")))
    assert main(["score", "-", "--win", "3m"]) == 2
    assert "--win goes with a photo" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"\xff\xd8photo")))
    assert main(["score", "-", "--win", "3s"]) == 0  # a photo on standard input takes it
    assert "winning tile scored: 3s" in capsys.readouterr().out


def test_score_photo_win_scores_the_other_readings_as_they_are(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    # The flag sets the scored hand's winning tile, not the other readings': the hand as read
    # becomes one of them, and the reading the flag picked is not offered again.
    assert main(["score", "hand.jpg", "--win", "3s", "--json"]) == 0
    alternatives = json.loads(capsys.readouterr().out)["alternatives"]
    assert [a["description"] for a in alternatives] == ["winning tile E (as read)"]
    assert main(["score", "hand.jpg", "--json"]) == 0
    as_read = json.loads(capsys.readouterr().out)["total"]
    assert alternatives[0]["total"] == as_read


def test_score_annotate_draws_the_total_on_the_picture(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "hand.jpg", "--annotate", "out.jpg"]) == 0
    total = int(capsys.readouterr().out.split("Total: ")[1].split()[0].rstrip(";"))
    assert reading.banners == [f"mcr: {total} fans"]
    broken = {**HAND, "concealed": HAND["concealed"][:-1] + ["N"], "win_tile": "N"}  # no win: no total
    reading.hand = Hand.from_json(broken)
    main(["score", "hand.jpg", "--annotate", "out.jpg"])
    assert reading.banners[-1].startswith("mcr: not scored (")


def test_score_annotate_into_a_missing_folder_says_so(
    reading: FakeReading, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no such folder" / "out.jpg"
    assert main(["score", "hand.jpg", "--annotate", str(target)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        f"fanscan: error: --annotate {target}: the folder {target.parent} does not exist\n"
    )
    assert captured.out == "" and reading.saved == []


def test_score_annotate_needs_a_photo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hand", "123m456p789s123sEE", "--annotate", "x.jpg"]) == 2
    assert "--annotate needs a PHOTO" in capsys.readouterr().err


STANDING = {"concealed": ["2m", "3m", "4m", "2s", "3s", "4s", "5p", "5p"], "win_tile": "4s"}
"""A standing hand's eight tiles: with [234p1] and [CCCC] a mixed triple chow won on 4s."""


def test_score_photo_melds_add_the_declared_sets_to_the_standing_tiles(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    reading.hand = Hand.from_json(STANDING, size=8)
    reading.alternatives = [
        ("tile 8 as 6p", Hand.from_json({**STANDING, "concealed": STANDING["concealed"][:-1] + ["6p"]}, size=8)),
        ("one tile more", Hand.from_json({**HAND}))]  # another count: no hand with the sets
    assert main(["score", "hand.jpg", "--melds", "[234p1] [CCCC]", "--json"]) == 0
    assert reading.options == {"rules": "mcr", "hand": "win"}  # read as it shows: eight standing
    obj = json.loads(capsys.readouterr().out)
    assert {f["name"] for f in obj["fans"]} >= {"Mixed Triple Chow", "Dragon Pung", "Concealed Kong"}
    assert [(m["type"], m["concealed"]) for m in obj["hand"]["melds"]] == [("chow", False), ("kong", True)]
    assert obj["reading"]["hand"]["melds"] == []  # the photo's own reading, as read
    assert [a["description"] for a in obj["alternatives"]] == ["tile 8 as 6p"]
    assert obj["alternatives"][0]["error"]  # 234m234s56p with the sets: no winning hand
    notation = main(["score", "--hand", "[234p1][CCCC]234m23s55p4s", "--json"])
    assert notation == 0 and json.loads(capsys.readouterr().out)["total"] == obj["total"]
    assert main(["score", "hand.jpg", "--melds", "[234p1][CCCC]"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  hand: [234p1][CCCC]234m23s55p4s"  # the winning tile last


@pytest.mark.parametrize(("melds", "code", "message"), [
    ("[234p1]", 1, "hand.jpg shows 8 standing tiles (234m23s55p4s); with the 1 set of --melds a "
                   "winning hand of 14 stands 11"),
    ("[CCCC][CCC]", 1, "hand.jpg with the sets of --melds is no possible hand: C appears 7 times"),
    ("[111m][222m][333m][444m][555m]", 2, "--melds: 5 sets leave no standing tile in a winning hand of 14"),
    ("[234p1]5p", 1, "only sets in brackets go here: '5' at column 8"),
])
def test_score_photo_melds_refused_in_one_line(
    reading: FakeReading, capsys: pytest.CaptureFixture[str], melds: str, code: int, message: str
) -> None:
    reading.hand = Hand.from_json(STANDING, size=8)
    assert main(["score", "hand.jpg", "--melds", melds]) == code
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and message in err and err.count("\n") == 1


def test_score_melds_need_a_photo(
    reading: FakeReading, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--hand", "123m456p789s123sEE", "--melds", "[CCCC]"]) == 2
    assert "--melds goes with a PHOTO" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"123m456p789s123sEE")))
    assert main(["score", "-", "--melds", "[CCCC]"]) == 2
    assert "--melds goes with a photo" in capsys.readouterr().err


def test_score_photo_melds_read_again_held_to_the_standing_count(
    reading: FakeReading, capsys: pytest.CaptureFixture[str]
) -> None:
    """A photo whose first reading stands another count (a set's tiles taken in) is read again,
    held to a complete hand of the standing tiles."""
    calls: list[dict[str, object]] = []
    standing = Hand.from_json(STANDING, size=8)

    def read_photo(path: object, **options: object) -> FakeReading:
        calls.append(options)
        reading.hand = standing if "hand_size" in options else Hand.from_json(HAND)
        return reading

    sys.modules["fanscan.vision.reader"].read_photo = read_photo  # type: ignore[attr-defined]
    assert main(["score", "hand.jpg", "--melds", "[234p1][CCCC]"]) == 0
    assert calls == [{"rules": "mcr", "hand": "win"}, {"rules": "mcr", "hand": "win", "hand_size": 8}]
    assert "  hand: [234p1][CCCC]234m23s55p4s" in capsys.readouterr().out
