"""The referee page's editing in real headless Chromium: tap a tile on the photo, undo and redo,
the hand kept over a reload, several tiles added at once, doubts folded, the labels beside the
tiles, the total on the picture, the language, and "Save as labelled data".

The reader is the fake of conftest (14 tiles in a row on ``photo_png``, the 8th a doubtful 7s);
the scorer is the fake whose total is the number of concealed tiles (+10 when self-drawn).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

from fanscan.datasets.labels import label_path, load_labels  # noqa: E402
from fanscan.web.app import create_app  # noqa: E402

expect = sync_api.expect
TILE_FACE = [245, 240, 225]  # the colour of the drawn tiles in photo_png


@pytest.fixture
def serve(fakes: Any, reader: Any, scorer: Any) -> Iterator[Any]:
    """Start the app (the fakes unless told otherwise); yields a function returning its URL."""
    stack: list[Any] = []

    def start(**kwargs: Any) -> str:
        app = create_app(reader=kwargs.pop("reader", reader), scorer=scorer, **kwargs)
        server = fakes.live_server(app)
        stack.append(server)
        return server.__enter__()

    yield start
    for server in reversed(stack):
        server.__exit__(None, None, None)


def _upload(page: Any, photo_file: Path) -> None:
    page.set_input_files("#upload", str(photo_file))
    expect(page.locator("#spot-total")).to_have_text("14")
    page.wait_for_function("() => window.fanscanPhotoLabels && window.fanscanPhotoLabels.faces.length === 14")


def _tap_photo(page: Any, x: float, y: float) -> None:
    """Tap the photo at (x, y) in photo pixels (the canvas is the photo at its own size here)."""
    box = page.locator("#annotated").bounding_box()
    width = page.evaluate("() => document.getElementById('annotated').width")
    scale = box["width"] / width
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def _pixel(page: Any, x: int, y: int) -> list[int]:
    return page.evaluate(
        f"() => Array.from(document.getElementById('annotated').getContext('2d')"
        f".getImageData({x}, {y}, 1, 1).data.slice(0, 3))"
    )


def _codes(page: Any) -> list[str]:
    return page.locator("#concealed .tile").evaluate_all("els => els.map(e => e.dataset.code)")


def _until(condition: Any, seconds: float = 10.0) -> None:
    """Wait until ``condition()`` holds (the page talks to the server on its own time)."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the page never got there"
        time.sleep(0.05)


def test_tap_a_tile_on_the_photo_to_correct_it(
    serve: Any, open_page: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    _upload(page, photo_file)

    # the 8th box (the doubtful 7s) spans x 404-452, y 120-184 of the photo
    _tap_photo(page, 428, 150)
    expect(page.locator("#picker")).to_be_visible()
    expect(page.locator("#picker-title")).to_have_text("Tile 7s: pick the right face")
    selected = page.locator("#concealed .tile.focus")
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-box", "7")  # the same tile, selected in the hand
    page.locator('#picker-grid .tile[data-code="7p"]').click()
    expect(page.locator("#picker")).to_be_hidden()

    # marked as corrected in the hand and on the photo, and the hand is in order again
    fixed = page.locator("#concealed .tile.fixed")
    expect(fixed).to_have_count(1)
    expect(fixed).to_have_attribute("data-code", "7p")
    assert _codes(page) == ["1m", "1m", "3m", "3m", "5p", "5p", "7p", "7p", "9s", "9s", "E", "E", "C", "C"]
    page.wait_for_function("() => window.fanscanPhotoLabels.texts[7] === '7s→7p'")
    # the focused box is outlined in white on the photo
    assert _pixel(page, 404, 150) == [255, 255, 255]

    # the reverse: a tile tapped in the hand is the one outlined on the photo
    page.locator('#concealed .tile[data-box="0"]').click()
    page.locator("#picker button[value=close]").click()
    page.wait_for_function(
        "() => { const d = document.getElementById('annotated').getContext('2d')"
        ".getImageData(40, 150, 1, 1).data; return d[0] === 255 && d[1] === 255 && d[2] === 255; }"
    )
    assert _pixel(page, 404, 150) != [255, 255, 255]
    _until(lambda: scorer.hands[-1][0]["concealed"].count("7p") == 2)  # the page's score request may still be on its way
    assert errors == []


def test_a_box_left_out_of_the_hand_is_put_back_by_tapping_it(
    serve: Any, open_page: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    _upload(page, photo_file)
    page.locator('#concealed .tile[data-box="13"]').click()
    page.locator("#act-remove").click()
    expect(page.locator("#spot-total")).to_have_text("13")
    page.wait_for_function("() => window.fanscanPhotoLabels.texts[13] === 'C ✗'")

    _tap_photo(page, 40 + 13 * 52 + 24, 150)
    expect(page.locator("#picker-title")).to_contain_text("put it back")
    page.locator('#picker-grid .tile[data-code="C"]').click()
    expect(page.locator("#spot-total")).to_have_text("14")
    expect(page.locator('#concealed .tile[data-box="13"]')).to_have_count(1)
    assert errors == []


def test_labels_beside_the_tiles_and_the_total_on_the_picture(
    serve: Any, open_page: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    _upload(page, photo_file)
    page.wait_for_function("() => window.fanscanPhotoLabels && window.fanscanPhotoLabels.badge")
    placed = page.evaluate("() => window.fanscanPhotoLabels")
    faces, labels = placed["faces"], placed["labels"]
    for label in labels:
        for face in [*faces, placed["badge"]]:  # nor under the total in the corner
            apart = (label["right"] <= face["left"] or face["right"] <= label["left"]
                     or label["bottom"] <= face["top"] or face["bottom"] <= label["top"])
            assert apart, (label, face)
    # nothing is drawn over a face: the middle of every tile is the photo's own colour
    for face in faces:
        x = round((face["left"] + face["right"]) / 2)
        for y in (round(face["top"] + 8), round((face["top"] + face["bottom"]) / 2)):
            assert _pixel(page, x, y) == TILE_FACE
    # the total (14, the minimum of 8 met) in the top-left corner: amber while a tile of the
    # hand is doubtful, green once it is set right
    page.wait_for_function(
        "() => { const d = document.getElementById('annotated').getContext('2d')"
        ".getImageData(3, 3, 1, 1).data; return d[0] > 180 && d[1] > 60 && d[1] < 140 && d[2] < 60; }"
    )
    page.locator("#concealed .tile.doubt").click()
    page.locator('#picker-grid .tile[data-code="7p"]').click()
    page.wait_for_function(
        "() => { const d = document.getElementById('annotated').getContext('2d')"
        ".getImageData(3, 3, 1, 1).data; return d[1] > 120 && d[0] < 60 && d[2] < 100; }"
    )
    page.locator("#self_drawn").check()
    expect(page.locator("#spot-total")).to_have_text("24")
    with page.expect_download() as download:  # the picture as shown, total included
        page.locator("#save-picture").click()
    picture = download.value.path()
    from PIL import Image

    with Image.open(picture) as image:
        assert image.size == (820, 300) and image.format == "PNG"
        assert list(image.convert("RGB").getpixel((3, 3)))[1] > 120
    assert errors == []


def test_no_label_goes_under_the_total_in_the_corner(
    serve: Any, open_page: Any, fakes: Any, reading: dict[str, Any], photo_file: Path
) -> None:
    # the row just below the total's band: a label above its first tiles would sit under the total
    raised = {**reading, "tiles": [{**tile, "box": [[x, y - 70] for x, y in tile["box"]]}
                                   for tile in reading["tiles"]]}
    errors: list[str] = []
    page = open_page(serve(reader=fakes.Reader(raised)), errors)
    _upload(page, photo_file)
    page.wait_for_function("() => window.fanscanPhotoLabels && window.fanscanPhotoLabels.badge")
    placed = page.evaluate("() => window.fanscanPhotoLabels")
    badge = placed["badge"]
    assert badge["bottom"] > 50 - 35  # the total's band reaches down to where labels above the row go
    for label in placed["labels"]:
        assert (label["right"] <= badge["left"] or badge["right"] <= label["left"]
                or label["bottom"] <= badge["top"] or badge["bottom"] <= label["top"]), (label, badge)
    assert errors == []


def test_undo_and_redo_every_change(serve: Any, open_page: Any, scorer: Any, photo_file: Path) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    expect(page.locator("#undo")).to_be_disabled()
    _upload(page, photo_file)
    page.locator("#concealed .tile.doubt").click()
    page.locator('#picker-grid .tile[data-code="7p"]').click()
    expect(page.locator("#concealed .tile.fixed")).to_have_count(1)
    page.locator("#self_drawn").check()
    expect(page.locator("#spot-total")).to_have_text("24")
    page.select_option("#seat_wind", "W")

    page.keyboard.press("Control+z")  # the seat wind
    expect(page.locator("#seat_wind")).to_have_value("E")
    page.keyboard.press("Control+z")  # self-drawn
    expect(page.locator("#spot-total")).to_have_text("14")
    expect(page.locator("#self_drawn")).not_to_be_checked()
    page.locator("#undo").click()  # the correction
    expect(page.locator("#concealed .tile.fixed")).to_have_count(0)
    expect(page.locator("#concealed .tile.doubt")).to_have_attribute("data-code", "7s")
    page.keyboard.press("Control+z")  # the photo itself
    expect(page.locator("#figure")).to_be_hidden()
    expect(page.locator("#concealed .tile")).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()

    page.keyboard.press("Control+Shift+z")  # the photo and its hand are back
    expect(page.locator("#figure")).to_be_visible()
    expect(page.locator("#concealed .tile")).to_have_count(14)
    page.locator("#redo").click()
    expect(page.locator("#concealed .tile.fixed")).to_have_attribute("data-code", "7p")
    page.keyboard.press("Control+Shift+z")
    expect(page.locator("#self_drawn")).to_be_checked()
    expect(page.locator("#spot-total")).to_have_text("24")
    page.locator("#concealed .tile").first.click()  # a new change ends the redo history
    page.locator("#act-remove").click()
    expect(page.locator("#redo")).to_be_disabled()
    expect(page.locator("#spot-total")).to_have_text("23")
    assert scorer.hands[-1][0]["self_drawn"] is True
    assert errors == []


def test_a_reload_keeps_the_photo_the_hand_and_the_win_conditions(
    serve: Any, open_page: Any, reader: Any, scorer: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    _upload(page, photo_file)
    page.locator("#concealed .tile.doubt").click()
    page.locator('#picker-grid .tile[data-code="7p"]').click()
    page.locator("#self_drawn").check()
    page.select_option("#round_wind", "S")
    expect(page.locator("#spot-total")).to_have_text("24")
    page.wait_for_function("() => !!document.body.dataset.photoStored")

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#spot-total")).to_have_text("24")
    expect(page.locator("#self_drawn")).to_be_checked()
    expect(page.locator("#round_wind")).to_have_value("S")
    expect(page.locator("#concealed .tile.fixed")).to_have_attribute("data-code", "7p")
    expect(page.locator("#figure")).to_be_visible()  # the photo, from IndexedDB
    page.wait_for_function("() => window.fanscanPhotoLabels && window.fanscanPhotoLabels.texts[7] === '7s→7p'")
    assert len(reader.calls) == 1  # not read again
    page.locator("#undo").click()  # the history came through the reload too
    expect(page.locator("#round_wind")).to_have_value("E")
    assert errors == []


def test_the_picker_stays_open_to_enter_a_whole_hand(serve: Any, open_page: Any, scorer: Any) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    page.locator("#add-concealed").click()
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m", "8m"]
    for code in hand:
        page.locator(f'#picker-grid .tile[data-code="{code}"]').click()
    expect(page.locator("#picker")).to_be_visible()
    expect(page.locator("#picker-note")).to_have_text(f"Added 14: {' '.join(hand)}")
    expect(page.locator("#concealed .tile")).to_have_count(14)
    page.locator("#picker button[value=close]").click()
    expect(page.locator("#picker")).to_be_hidden()
    expect(page.locator("#spot-total")).to_have_text("14")
    assert scorer.hands[-1][0]["concealed"] == [
        "1m", "2m", "3m", "6m", "7m", "8m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"
    ]
    page.keyboard.press("Control+z")  # each added tile is its own undo step
    expect(page.locator("#concealed .tile")).to_have_count(13)
    assert errors == []


def test_doubts_at_most_five_most_important_first(
    serve: Any, open_page: Any, fakes: Any, reading: dict[str, Any], photo_file: Path
) -> None:
    doubts = [
        "The tiles 3m 3m stand apart but do not form a set; they were counted as concealed tiles.",
        "The 2nd tile of the concealed tiles was read as 1m with only 71% confidence: check that tile.",
        "The 8th tile of the concealed tiles was read as 7s with only 55% confidence: check that tile.",
        "No tile stands apart as the winning tile, so the last concealed tile (C) was taken.",
        "The 5th tile of the concealed tiles was read as 5p with only 62% confidence: check that tile.",
        "The photo shows 13 playing tiles (a kong counted as three), which cannot be a complete hand.",
        "The 9th tile of the concealed tiles was read as 9s with only 78% confidence: check that tile.",
        "5f is read 2 times (83%, 99%), but a set has one, and no likely change of a tile mends it: check those tiles.",
        "The photo shows 4 playing tiles, fewer than a hand of 14 tiles holds: "
        "photograph the whole hand, or look for tiles hidden, cut off by the photo's edge or left out as no tile.",
    ]
    errors: list[str] = []
    page = open_page(serve(reader=fakes.Reader({**reading, "doubts": doubts})), errors)
    _upload(page, photo_file)
    expect(page.locator("#doubts li")).to_have_text(  # what stops the hand first, however sure its tiles
        [doubts[5], doubts[7], doubts[8], doubts[2], doubts[4]]
    )
    folded = page.locator("#more-doubts-list li")
    expect(page.locator("#more-doubts summary")).to_have_text("4 more doubts")
    expect(folded.first).to_be_hidden()
    page.locator("#more-doubts summary").click()
    expect(folded).to_have_text([doubts[1], doubts[6], doubts[0], doubts[3]])
    expect(folded.first).to_be_visible()
    assert errors == []


def test_the_language_follows_the_browser_and_can_be_switched(
    serve: Any, open_page: Any, photo_file: Path
) -> None:
    errors: list[str] = []
    url = serve()
    page = open_page(url, errors, locale="zh-TW")
    expect(page.locator("#undo")).to_have_text("↶ 撤銷")
    expect(page.locator("#lang")).to_have_value("zh-Hant")
    _upload(page, photo_file)
    # fan names in both scripts of the page: the fake scorer's 张数 in 繁體 first, then English
    expect(page.locator("#fans tbody tr td").nth(0)).to_have_text("張數")
    expect(page.locator("#fans tbody tr td").nth(1)).to_have_text("Tile count")
    expect(page.locator("#spot-minimum")).to_have_text("起和 8 番：已達到 ✓，手牌中 1 張存疑")

    page.select_option("#lang", "en")
    expect(page.locator("#undo")).to_have_text("↶ Undo")
    expect(page.locator("#fans tbody tr td").nth(0)).to_have_text("Tile count")
    expect(page.locator("#fans tbody tr td").nth(1)).to_have_text("张数")
    page.select_option("#lang", "zh-Hans")
    expect(page.locator("#spot-minimum")).to_have_text("起和 8 番：已达到 ✓，手牌中 1 张存疑")
    expect(page.locator("#hand-card h2 [data-i18n=hand]")).to_have_text("手牌")
    page.reload()  # the choice is remembered
    expect(page.locator("#lang")).to_have_value("zh-Hans")

    mainland = open_page(url, errors, locale="zh-CN")
    expect(mainland.locator("#undo")).to_have_text("↶ 撤销")
    english = open_page(url, errors, locale="en-GB")
    expect(english.locator("#undo")).to_have_text("↶ Undo")
    assert errors == []


def test_save_as_labelled_data_is_off_unless_turned_on(
    serve: Any, open_page: Any, photo_file: Path, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = open_page(serve(), errors)
    _upload(page, photo_file)
    expect(page.locator("#save-labelled")).to_be_hidden()

    folder = tmp_path / "labelled"
    page = open_page(serve(save_labelled_dir=folder), errors)
    _upload(page, photo_file)
    page.locator("#concealed .tile.doubt").click()
    page.locator('#picker-grid .tile[data-code="7p"]').click()
    page.locator('#concealed .tile[data-box="13"]').click()
    page.locator("#act-remove").click()  # a box taken out of the hand is no tile of it
    page.locator("#save-labelled").click()
    expect(page.locator("#status")).to_contain_text("Saved as labelled data: referee-")
    [photo] = [p for p in folder.iterdir() if p.suffix == ".png"]
    assert photo.read_bytes() == photo_file.read_bytes()
    labels = load_labels(label_path(photo))
    assert labels.status == "reviewed" and (labels.width, labels.height) == (820, 300)
    assert [t.code for t in labels.tiles] == [
        "1m", "1m", "3m", "3m", "5p", "5p", "7p", "7p", "9s", "9s", "E", "E", "C"
    ]
    assert [(t.source, t.confidence) for t in labels.tiles][6:8] == [("model", 0.97), ("person", 1.0)]
    assert labels.tiles[7].corners == ((404, 120), (452, 120), (452, 184), (404, 184))

    page.locator("#save-labelled").click()  # saved before: refused, nothing replaced
    expect(page.locator("#status")).to_contain_text("already saved")
    assert load_labels(label_path(photo)) == labels
    assert [e for e in errors if "409" not in e] == []
