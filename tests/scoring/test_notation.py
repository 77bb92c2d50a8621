"""The text notation: every construct, every error (with its column), and round trips."""

from __future__ import annotations

import random

import pytest
from fanscan.scoring.generate import random_hand
from fanscan.scoring.hand import Meld
from fanscan.scoring.notation import format_notation, parse_flowers, parse_notation
from fanscan.scoring.tiles import Tile
from hypothesis import given, settings
from hypothesis import strategies as st

from fanscan.errors import FanscanError


def test_notation_reads_standing_tiles_and_win_tile() -> None:
    hand = parse_notation("123m456p789s123sEE")
    assert hand.concealed[:3] == (Tile.M1, Tile.M2, Tile.M3)
    assert hand.concealed[-2:] == (Tile.E, Tile.E)
    assert hand.win_tile is Tile.E
    assert hand.melds == ()


@pytest.mark.parametrize(
    ("text", "meld"),
    [
        pytest.param("[567m2]", Meld("chow", (Tile.M5, Tile.M6, Tile.M7), False, 2), id="chow"),
        pytest.param(
            "[765m]", Meld("chow", (Tile.M5, Tile.M6, Tile.M7), False, None), id="chow-unordered"
        ),
        pytest.param("[999s3]", Meld("pung", (Tile.S9,) * 3, False, 3), id="pung"),
        pytest.param("[SSSS]", Meld("kong", (Tile.S,) * 4, True, None), id="concealed-kong"),
        pytest.param("[8888p1]", Meld("kong", (Tile.P8,) * 4, False, 1), id="exposed-kong"),
        pytest.param("[1111s6]", Meld("kong", (Tile.S1,) * 4, False, 6), id="added-kong"),
        pytest.param("[567m,2]", Meld("chow", (Tile.M5, Tile.M6, Tile.M7), False, 2), id="comma-chow"),
        pytest.param("[999s,3]", Meld("pung", (Tile.S9,) * 3, False, 3), id="comma-pung"),
        pytest.param("[8888p,1]", Meld("kong", (Tile.P8,) * 4, False, 1), id="comma-kong"),
        pytest.param("[1111s,6]", Meld("kong", (Tile.S1,) * 4, False, 6), id="comma-added-kong"),
    ],
)
def test_notation_reads_each_meld(text: str, meld: Meld) -> None:
    hand = parse_notation(f"{text}123m456p789sEE")
    assert hand.melds == (meld,)


@pytest.mark.parametrize("separator", [" +", "+", " ", "  "])
def test_notation_reads_flowers_after_space_or_plus(separator: str) -> None:
    hand = parse_notation(f"123m456p789s123sEE{separator}1f6f")
    assert hand.flowers == (Tile.F1, Tile.F6)
    assert hand.win_tile is Tile.E


def test_notation_parse_flowers_accepts_grouped_digits() -> None:
    assert parse_flowers("158f") == (Tile.F1, Tile.F5, Tile.F8)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("123m4x5p", "unexpected 'x' at column 6 in '123m4x5p'", id="bad-char"),
        pytest.param("123m45", "digits '45' at column 5 have no suit letter", id="no-suit"),
        pytest.param("103m", "unexpected '0' at column 2", id="zero"),
        pytest.param("[123m", "the meld opened at column 1 is not closed", id="unclosed"),
        pytest.param(
            "[124m]55p", "the meld [124m] at column 1 is not a chow, pung or kong", id="not-a-set"
        ),
        pytest.param("[567m4]11p", "has claim 4; a chow takes 1-3", id="bad-claim"),
        pytest.param("[1111m4]11p", "has claim 4; a kong takes 1-3 or 5-7", id="bad-kong-claim"),
        pytest.param("[567m,]11p", "the comma at column 6 needs a claim digit", id="comma-no-claim"),
        pytest.param("[567m,23]11p", "the comma at column 6 needs a claim digit", id="comma-two"),
        pytest.param("[567m,4]11p", "has claim 4; a chow takes 1-3", id="comma-bad-claim"),
        pytest.param("[,2]11p", "unexpected ',' at column 2", id="comma-no-tiles"),
        pytest.param("123m+1f9f", "'9f' at column 8 is not a flower", id="bad-flower"),
        pytest.param("123m+1fE", "unexpected 'E' at column 8", id="tile-after-flowers"),
        pytest.param("12f3m", "flowers at column 1 must come last", id="flowers-first"),
        pytest.param("[111m]", "has no standing tiles", id="no-standing"),
        pytest.param("", "the hand notation is empty", id="empty"),
        pytest.param("123m456p789s123s", "the hand has 12 tiles", id="too-few"),
        pytest.param("11111m456p789s123s", "1m appears 5 times", id="five-copies"),
    ],
)
def test_notation_rejects_bad_text(text: str, message: str) -> None:
    with pytest.raises(FanscanError) as caught:
        parse_notation(text)
    assert message in caught.value.message


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789123sEE",
        "[567m2][999s3]45m678pFF6m",
        "[8888p1][1111s6]123789m55s+1f6f",
        "[SSSS][EEE1][123p3]45663s",
    ],
)
def test_notation_format_round_trips_text(text: str) -> None:
    assert format_notation(parse_notation(text)) == text


def test_notation_format_merges_runs_of_one_suit() -> None:
    assert format_notation(parse_notation("123m456p789s123sEE")) == "123m456p789123sEE"


def test_notation_format_puts_win_tile_last() -> None:
    hand = parse_notation("123m456p789s123sEE").replace(
        concealed=(Tile.E, *parse_notation("123m456p789s123sE", complete=False).concealed)
    )
    assert format_notation(hand).endswith("E")


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_notation_format_then_parse_gives_the_hand_back(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    again = parse_notation(format_notation(hand))
    assert sorted(again.concealed) == sorted(hand.concealed)
    assert again.win_tile == hand.win_tile
    assert [(m.kind, m.tiles, m.concealed) for m in again.melds] == [
        (m.kind, m.tiles, m.concealed) for m in hand.melds
    ]
    assert again.flowers == hand.flowers


@pytest.mark.parametrize(("text", "column", "char", "plain"), [
    ("¹23m456p789s123sEE", 1, "¹", "1"),          # a superscript: a digit to str.isdigit, not to int
    ("①②③m456p789s123sEE", 1, "①", "1"),
    ("１２３m456p789s123sEE", 1, "１", "1"),        # full width, as a CJK keyboard types it
    ("123ｍ456p789s123sEE", 4, "ｍ", "m"),
    ("[567m²]123p45sEE6s999s", 6, "²", "2"),       # a claim digit
    ("[¹¹¹¹s6]456p789s123sEE", 2, "¹", "1"),
    ("٣٣٣m456p789s123sEE", 1, "٣", "3"),           # Arabic-Indic
])
def test_digits_other_than_ascii_are_refused_with_the_ascii_to_type(text: str, column: int, char: str, plain: str) -> None:
    with pytest.raises(FanscanError) as caught:
        parse_notation(text)
    assert caught.value.code == "bad_notation"
    assert str(caught.value).startswith(f"unexpected {char!r} at column {column} ")
    assert str(caught.value).endswith(f": write it as {plain!r}")


def test_an_unexpected_ascii_character_gets_no_hint() -> None:
    with pytest.raises(FanscanError) as caught:
        parse_notation("123m456p789s123s#E")
    assert str(caught.value) == "unexpected '#' at column 17 in '123m456p789s123s#E'"
