"""The drawn tile images: one well-formed SVG per code, drawing what the face shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.web.tile_faces import tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def _groups(code: str, kind: str) -> int:
    root = ET.fromstring(tile_svg(code))
    return sum(1 for g in root.iter(f"{SVG}g") if g.get("class") == kind)


def _texts(code: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(tile_svg(code)).iter(f"{SVG}text")]


@pytest.mark.parametrize("code", CLASS_LABELS)
def test_tile_faces_every_code_is_a_labelled_svg(code: str) -> None:
    root = ET.fromstring(tile_svg(code))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.findtext(f"{SVG}title", "").split()[0] == code


def test_tile_faces_are_all_different() -> None:
    assert len({tile_svg(code) for code in CLASS_LABELS}) == len(CLASS_LABELS)


@pytest.mark.parametrize("rank", range(1, 10))
def test_tile_faces_dots_show_rank_circles(rank: int) -> None:
    assert _groups(f"{rank}p", "dot") == rank


@pytest.mark.parametrize("rank", range(2, 10))
def test_tile_faces_bamboo_show_rank_sticks(rank: int) -> None:
    assert _groups(f"{rank}s", "stick") == rank


def test_tile_faces_one_bamboo_is_a_bird() -> None:
    assert _groups("1s", "bird") == 1
    assert _groups("1s", "stick") == 0


@pytest.mark.parametrize(
    ("code", "texts"),
    [
        pytest.param("1m", ["一", "萬"], id="one-character"),
        pytest.param("9m", ["九", "萬"], id="nine-character"),
        pytest.param("S", ["南"], id="south"),
        pytest.param("C", ["中"], id="red-dragon"),
        pytest.param("F", ["發"], id="green-dragon"),
        pytest.param("3f", ["3", "菊"], id="chrysanthemum"),
        pytest.param("8f", ["4", "冬"], id="winter-printed-4"),
    ],
)
def test_tile_faces_text_faces_show_their_characters(code: str, texts: list[str]) -> None:
    assert _texts(code) == texts


def test_tile_faces_white_dragon_is_a_frame_without_text() -> None:
    assert _texts("P") == []
    assert len(ET.fromstring(tile_svg("P")).findall(f"{SVG}rect")) == 3


def test_tile_faces_unknown_code_is_refused() -> None:
    with pytest.raises(FanscanError, match="unknown tile code '10m'"):
        tile_svg("10m")
