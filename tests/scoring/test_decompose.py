"""Readings: every form, pungs-only reading, waits, and that random complete hands always read."""

from __future__ import annotations

import random

from fanscan.scoring.decompose import (
    is_standard_complete,
    readings,
    standard_splits,
    tile_counts,
    waiting_tiles,
)
from fanscan.scoring.generate import random_hand
from fanscan.scoring.notation import parse_notation
from fanscan.scoring.tiles import Tile
from hypothesis import given, settings
from hypothesis import strategies as st


def _forms(text: str) -> list[str]:
    return sorted(r.form for r in readings(parse_notation(text)))


def test_decompose_standard_reads_every_split() -> None:
    found = sorted(r.describe() for r in readings(parse_notation("111222333m456p55s")))
    assert found == ["standard: 111m 222m 333m 456p 55s", "standard: 123m 123m 123m 456p 55s"]


def test_decompose_keeps_melds_as_declared_sets() -> None:
    (reading,) = readings(parse_notation("[567m2][EEEE]123p456s99s"))
    assert reading.groups[:2] == (("chow", Tile.M5, True, False), ("kong", Tile.E, True, True))
    assert reading.pair is Tile.S9


def test_decompose_seven_pairs_counts_four_alike_as_two_pairs() -> None:
    (reading,) = [
        r for r in readings(parse_notation("1111m3355p77sEECC")) if r.form == "seven_pairs"
    ]
    assert reading.pairs.count(Tile.M1) == 2


def test_decompose_reads_seven_pairs_beside_sets() -> None:
    assert _forms("112233m445566p77s") == ["seven_pairs", "standard"]


def test_decompose_reads_thirteen_orphans() -> None:
    assert _forms("19m19p19sESWNCFPP") == ["thirteen_orphans"]


def test_decompose_reads_honors_and_knitted() -> None:
    (reading,) = readings(parse_notation("147m258p3sESWNCFP"))
    assert reading.form == "honors_knitted"
    assert len(reading.knitted) == 14


def test_decompose_rejects_honors_and_knitted_across_patterns() -> None:
    # 1m and 2m cannot both belong to one knitted pattern.
    assert readings(parse_notation("12m258p36sESWNCFP")) == []


def test_decompose_reads_knitted_straight_with_set_and_pair() -> None:
    (reading,) = readings(parse_notation("147m258p369s123m55s"))
    assert reading.form == "knitted_straight"
    assert [g.kind for g in reading.groups] == ["chow"]
    assert reading.pair is Tile.S5


def test_decompose_reads_knitted_straight_beside_a_meld() -> None:
    (reading,) = readings(parse_notation("[EEE1]147m258p369s55p"))
    assert reading.form == "knitted_straight"
    assert reading.groups[0].declared


def test_decompose_without_chows_reads_pungs_only() -> None:
    hand = parse_notation("111222333m444p55s")
    found = readings(hand, ("standard",), chows=False)
    assert [r.describe() for r in found] == ["standard: 111m 222m 333m 444p 55s"]
    assert readings(parse_notation("123m456p789s123sEE"), ("standard",), chows=False) == []


def test_decompose_not_a_win_has_no_reading() -> None:
    assert readings(parse_notation("123m456p789s124sEE")) == []


def test_decompose_waiting_tiles_include_tiles_held_four_times() -> None:
    hand = parse_notation("1111m234p567s789s", complete=False)
    assert waiting_tiles(hand) == [Tile.M1]
    hand = parse_notation("1112345678999m", complete=False)
    assert waiting_tiles(hand) == [Tile(i) for i in range(9)]


def test_decompose_is_standard_complete_matches_splits() -> None:
    rng = random.Random(3)
    for _ in range(300):
        counts = [0] * 34
        for _ in range(14):
            counts[rng.randrange(9)] += 1
        if max(counts) > 4:
            continue
        assert is_standard_complete(counts) == bool(standard_splits(counts))


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_decompose_random_complete_hands_always_read(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    found = readings(hand)
    assert found
    for reading in found:
        tiles = [t for g in reading.groups for t in g.tiles()]
        if reading.form in ("standard", "knitted_straight"):
            assert reading.pair is not None
            tiles += [reading.pair] * 2 + list(reading.knitted)
            assert tile_counts(tiles) == tile_counts(hand.all_tiles())


def test_decompose_waiting_tiles_on_a_fifth_honor() -> None:
    # EEEE + three chows waits only on a fifth E (pung and pair): formally a wait.
    hand = parse_notation("EEEE123456789m", complete=False)
    assert waiting_tiles(hand) == [Tile.E]


def _suit_vectors(most_tiles: int):
    """Every suit count vector (0-4 of each tile) of at most ``most_tiles`` tiles."""
    def grow(prefix: list[int], left: int):
        if len(prefix) == 9:
            yield tuple(prefix)
            return
        for n in range(min(4, left) + 1):
            yield from grow([*prefix, n], left - n)
    yield from grow([], most_tiles)


def test_decompose_suit_shape_agrees_with_every_split() -> None:
    # The shape (sets alone, or sets and a pair: the waits' question) stops at the first split
    # found; the readings' splits are enumerated in full. They must agree on every suit of up
    # to 8 tiles, on random fuller suits, and on suits holding a fifth copy (a waiting hand
    # trying the tile it already holds four of).
    from fanscan.scoring.decompose import _shape, _split_suit

    rng = random.Random(11)
    fuller = [tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9)) for _ in range(4000)]
    fifth = [tuple(5 if i == k else rng.randint(0, 3) for i in range(9)) for k in range(9) for _ in range(50)]
    checked = 0
    for counts in [*_suit_vectors(8), *fuller, *fifth]:
        if sum(counts) % 3 == 1:
            continue
        for chows in (True, False):
            splits = _split_suit(counts, chows)
            expected = (2 if sum(counts) % 3 else 1) if splits else 0
            assert _shape(counts, chows, False) == expected, (counts, chows)
        checked += 1
    assert checked > 10_000
