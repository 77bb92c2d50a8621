"""The referee page in real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Skips cleanly when Chromium or the playwright package is missing. The reader is a fake (a fixed
reading of ``photo_png``); the scorer is a fake that records what the page sends, except in the
test that scores with the project's MCR rule set.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

from fanscan.web.app import create_app  # noqa: E402

expect = sync_api.expect


@contextmanager
def _uploaded(open_page: Any, fakes: Any, reader: Any, scorer: Any, photo_file: Path) -> Iterator[Any]:
    """The page on an app of ``reader`` and ``scorer``, ``photo_file`` uploaded; no script errors."""
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        yield page
    assert errors == []


def test_page_upload_correct_tile_and_win_condition_update_total(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))

        # the fake scorer's total is the number of concealed tiles (+10 self-drawn)
        expect(page.locator("#spot-total")).to_have_text("14")
        expect(page.locator("#status")).to_contain_text("14 tiles found, 1 doubtful")
        expect(page.locator("#annotated")).to_be_visible()
        expect(page.locator("#doubts li")).to_have_text(["tile 8 from the left may not be 7s"])
        doubtful = page.locator("#concealed .tile.doubt")
        expect(doubtful).to_have_count(1)
        expect(doubtful).to_have_attribute("data-code", "7s")
        expect(page.locator("#concealed .tile img").first).to_have_attribute("src", "/tiles/1m.svg")

        doubtful.click()
        expect(page.locator("#picker")).to_be_visible()
        page.locator('#picker-grid .tile[data-code="7p"]').click()
        expect(page.locator("#picker")).to_be_hidden()
        expect(page.locator("#concealed .tile").nth(7)).to_have_attribute("data-code", "7p")

        page.locator("#self_drawn").check()
        expect(page.locator("#spot-total")).to_have_text("24")
        expect(page.locator("#total")).to_have_text("24")
        expect(page.locator("#spot-minimum")).to_have_text("minimum 8: met ✓")

    hand, rules = scorer.hands[-1]
    assert rules == "mcr"
    assert hand == {
        "concealed": [
            "1m",
            "1m",
            "3m",
            "3m",
            "5p",
            "5p",
            "7p",
            "7p",
            "9s",
            "9s",
            "E",
            "E",
            "C",
            "C",
        ],
        "melds": [],
        "win_tile": "C",
        "flowers": [],
        "self_drawn": True,
        "seat_wind": "E",
        "round_wind": "E",
        "fourth_tile": False,
        "kong": False,
        "last_tile": False,
    }
    assert errors == []


def test_page_counts_and_flags_only_the_hands_doubtful_tiles(
    open_page: Any, fakes: Any, scorer: Any, reading: dict[str, Any], photo_file: Path
) -> None:
    # two more tiles off the hand, both read unsurely: not the referee's to check
    off = [{"code": "5s", "confidence": 0.3, "box": [[x, 220], [x + 40, 220], [x + 40, 280], [x, 280]],
            "orientation": 0, "in_hand": False} for x in (60, 120)]
    reader = fakes.Reader({**reading, "tiles": reading["tiles"] + off})
    with _uploaded(open_page, fakes, reader, scorer, photo_file) as page:
        expect(page.locator("#status")).to_contain_text("16 tiles found, 1 doubtful in the hand")
        # the minimum is met, but with a doubtful tile in the hand the verdict says so, not green
        expect(page.locator("#spot-minimum")).to_have_text("minimum 8: met ✓, 1 doubtful in the hand")
        expect(page.locator("#spot")).to_have_class("spot met unsure")
        # the referee looks at it and keeps the reading (the same face picked): no longer in doubt
        page.locator("#concealed .tile.doubt").click()
        page.locator('#picker-grid .tile[data-code="7s"]').click()
        expect(page.locator("#spot-minimum")).to_have_text("minimum 8: met ✓")
        expect(page.locator("#spot")).to_have_class("spot met")
        expect(page.locator("#concealed .tile.doubt")).to_have_count(0)


def test_page_melds_winning_tile_winds_and_rule_fields_reach_the_scorer(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        expect(page.locator("#spot-total")).to_have_text("14")

        # a third 9s, then the three 9s become a pung
        page.locator("#add-concealed").click()
        page.locator('#picker-grid .tile[data-code="9s"]').click()
        expect(page.locator("#spot-total")).to_have_text("15")
        page.locator("#picker button[value=close]").click()  # adding keeps the picker open
        page.locator('#concealed .tile[data-code="9s"]').first.click()
        page.locator('[data-make="pung"]').click()
        expect(page.locator("#melds .meld .tile")).to_have_count(3)
        expect(page.locator("#spot-total")).to_have_text("12")

        # two E make no pung: the picker says why and changes nothing
        page.locator('#concealed .tile[data-code="E"]').first.click()
        page.locator('[data-make="pung"]').click()
        expect(page.locator("#picker-note")).to_have_text(
            "the concealed tiles have no E for this pung"
        )
        page.locator("#picker button[value=close]").click()

        # a flower picked for a concealed tile goes to the flowers
        page.locator("#add-concealed").click()
        page.locator('#picker-grid .tile[data-code="6f"]').click()
        expect(page.locator("#flowers .tile")).to_have_count(1)
        page.locator("#picker button[value=close]").click()

        page.locator('#concealed .tile[data-code="5p"]').first.click()
        page.locator("#act-win").click()
        expect(page.locator("#win-tile")).to_contain_text("5p")
        page.select_option("#seat_wind", "S")
        page.select_option("#rules", "other")
        page.locator("#field-heavenly").check()
        # the 7s read unsurely is still in the hand, as read: met, and said to be doubtful
        expect(page.locator("#spot-minimum")).to_have_text("minimum 3: met ✓, 1 doubtful in the hand")

    hand, rules = scorer.hands[-1]
    assert rules == "other"
    assert hand["concealed"] == ["1m", "1m", "3m", "3m", "5p", "5p", "7p", "7s", "E", "E", "C", "C"]
    assert hand["melds"] == [{"type": "pung", "tiles": ["9s", "9s", "9s"], "concealed": False}]
    assert hand["flowers"] == ["6f"]
    assert hand["win_tile"] == "5p"
    assert hand["seat_wind"] == "S"
    assert hand["heavenly"] is True
    assert errors == []


def test_page_meld_editing_moves_tiles_between_groups(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        expect(page.locator("#spot-total")).to_have_text("14")

        # + meld starts a pung of the picked face; as a chow it runs up from that face
        page.locator("#add-meld").click()
        page.locator('#picker-grid .tile[data-code="5m"]').click()
        page.select_option("#melds select", "chow")
        expect(page.locator("#melds .tile")).to_have_count(3)

        # the misread 7s moves into that meld, then back to the concealed tiles
        page.locator("#concealed .tile.doubt").click()
        page.select_option("#move-to", "0")
        expect(page.locator("#melds .tile")).to_have_count(4)
        expect(page.locator("#spot-total")).to_have_text("13")
        page.locator("#melds .tile").nth(3).click()
        page.select_option("#move-to", "concealed")
        expect(page.locator("#spot-total")).to_have_text("14")

        page.locator("#melds .link").click()  # break up: its tiles join the concealed ones
        expect(page.locator("#spot-total")).to_have_text("17")
        expect(page.locator("#melds .tile")).to_have_count(0)

    hand = scorer.hands[-1][0]
    # the hand re-sorts: the broken-up chow's tiles join the concealed tiles in suit order
    assert hand["concealed"] == [
        "1m", "1m", "3m", "3m", "5m", "6m", "7m", "5p", "5p", "7p", "7s", "9s", "9s", "E", "E", "C", "C"
    ]
    assert hand["melds"] == []
    assert errors == []


def test_page_bad_upload_shows_the_servers_message(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, tmp_path: Path
) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a photo")
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(junk))
        expect(page.locator("#status")).to_have_text(
            "Cannot read this photo: 'notes.txt' is not a JPEG, PNG, WebP, BMP, TIFF or GIF image"
        )
    assert reader.calls == []
    # the browser logs the refused request itself; nothing else may fail
    assert [e for e in errors if "415" not in e] == []


def test_page_refuses_an_oversize_photo_before_uploading(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, photo: bytes, tmp_path: Path
) -> None:
    big = tmp_path / "big.png"
    big.write_bytes(photo + bytes(8192))  # over the 4 KB limit below
    errors: list[str] = []
    app = create_app(reader=reader, scorer=scorer, max_upload_bytes=4096)
    with fakes.live_server(app) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(big))
        expect(page.locator("#status")).to_have_text(
            "This photo is over the 4 KB upload limit: send a smaller one."
        )
    assert reader.calls == []
    assert errors == []


def test_page_offers_the_readers_alternative_layouts(
    open_page: Any, fakes: Any, scorer: Any, reading: dict[str, Any], photo_file: Path
) -> None:
    other = {
        **reading["hand"],
        "concealed": reading["hand"]["concealed"][:11],
        "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "concealed": False}],
    }
    reader = fakes.Reader(
        {
            **reading,
            "alternatives": [{"description": "the three C at the right as a pung", "hand": other}],
        }
    )
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        expect(page.locator("#spot-total")).to_have_text("14")
        page.get_by_role("button", name="Use instead: the three C at the right as a pung").click()
        expect(page.locator("#melds .meld .tile")).to_have_count(3)
        expect(page.locator("#spot-total")).to_have_text("11")
    assert scorer.hands[-1][0]["melds"] == other["melds"]
    assert errors == []


def test_page_rule_fields_are_a_list_of_words_and_a_number_box_under_short_names(
    open_page: Any, fakes: Any, reader: Any, scorer: Any, photo_file: Path
) -> None:
    with _uploaded(open_page, fakes, reader, scorer, photo_file) as page:
        page.select_option("#rules", "other")
        wild = page.locator("#field-wild")
        assert wild.evaluate("e => e.tagName") == "SELECT"
        assert wild.locator("option").all_inner_texts() == ["none", "same", "next"]
        label = page.locator("label", has=wild)
        expect(label).to_contain_text("wild")
        assert "a long explanation" in (label.get_attribute("title") or "")
        money = page.locator("#field-base_money")
        assert money.bounding_box()["width"] >= 100  # a box to type in, not a 22-pixel square
        wild.select_option("next")
        money.fill("5")
        money.dispatch_event("change")
        # the fake scorer's total does not show them: wait for the hand it was sent last
        for _ in range(100):
            if scorer.hands and scorer.hands[-1][0].get("base_money") == 5:
                break
            page.wait_for_timeout(50)
    page_hand = scorer.hands[-1][0]
    assert page_hand["wild"] == "next" and page_hand["base_money"] == 5


def test_page_crosses_out_a_box_the_reader_left_out(
    open_page: Any, fakes: Any, scorer: Any, reading: dict[str, Any], photo_file: Path
) -> None:
    box = [[60, 220], [108, 220], [108, 284], [60, 284]]  # on the table below the row
    reader = fakes.Reader({**reading, "left_out": [{"code": "9p", "confidence": 0.29, "box": box,
                                                    "orientation": 0, "group": -1}]})
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader, scorer=scorer)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        expect(page.locator("#annotated")).to_be_visible()
        # the canvas is drawn at the photo's own size (under 1600 px) once the photo has loaded,
        # which can come after the canvas shows: wait for the cross's middle to turn grey
        page.wait_for_function(
            "() => { const d = document.getElementById('annotated').getContext('2d')"
            ".getImageData(84, 252, 1, 1).data; return Math.abs(d[0] - 160) <= 30 && "
            "Math.abs(d[1] - 160) <= 30 && Math.abs(d[2] - 160) <= 30; }"
        )
        centre = page.evaluate(
            "() => Array.from(document.getElementById('annotated').getContext('2d')"
            ".getImageData(84, 252, 1, 1).data.slice(0, 3))"
        )
        table = page.evaluate(
            "() => Array.from(document.getElementById('annotated').getContext('2d')"
            ".getImageData(70, 240, 1, 1).data.slice(0, 3))"
        )
    assert all(abs(v - 160) <= 30 for v in centre)
    assert table == [31, 95, 70]  # inside the box, off the cross: the photo as it was
    assert errors == []


@pytest.mark.skipif(
    importlib.util.find_spec("fanscan.scoring.mcr") is None, reason="MCR rule set not installed"
)
def test_page_scores_seven_pairs_with_the_mcr_rules(
    open_page: Any, fakes: Any, reader: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    with fakes.live_server(create_app(reader=reader)) as url:
        page = open_page(url, errors)
        page.set_input_files("#upload", str(photo_file))
        # as read (one 7p misread as 7s) the tiles make no winning hand
        expect(page.locator("#spot-minimum")).to_have_text("cannot score")
        expect(page.locator("#score-error")).to_be_visible()
        expect(page.locator("#spot-fans")).to_have_text(page.locator("#score-error").inner_text())

        page.locator("#concealed .tile.doubt").click()
        page.locator('#picker-grid .tile[data-code="7p"]').click()
        # Seven Pairs 24 + All Types 6 (m, p, s, a wind and a dragon)
        expect(page.locator("#total")).to_have_text("30")
        expect(page.locator("#spot-minimum")).to_have_text("minimum 8: met ✓")
        expect(page.locator("#fans tbody tr")).to_have_count(2)
        expect(page.locator("#spot-fans")).to_have_text("Seven Pairs 24 · All Types 6")

        page.locator("#self_drawn").check()  # + Self-Drawn 1
        expect(page.locator("#total")).to_have_text("31")
    assert errors == []
