"""Hand-level consistency: copies a set holds, and repairs that complete the hand read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from fanscan.vision.consistency import (
    BLANK_PHANTOM_BELOW,
    COUNT_DOUBT,
    EDGE_MARGIN,
    EDITABLE_BELOW,
    FLOWER_TAKE_MIN,
    MIN_GUESS,
    PHANTOM_FLOWER_BELOW,
    PHANTOM_FLOWER_COVER,
    complete_hand,
    copies_allowed,
    is_complete,
    kong_flowers,
    phantom_flowers,
    reads_as_declared,
    respect_counts,
    stray_backs,
    tile_count,
    without_phantoms,
)
from fanscan.vision.detections import TileReading
from fanscan.vision.layout import analyse, hand_frame, rows_and_groups

W, H = 30.0, 40.0


def _hand(spec: str) -> list[TileReading]:
    """Tiles in a row, every one read at 99 %: groups apart at each '|' (the winning tile after the
    last), a code ending in '*' lying sideways (a claimed tile)."""
    tiles, x = [], 0.0
    for token in spec.split():
        if token == "|":
            x += 12
            continue
        sideways = token.endswith("*")
        code = token.rstrip("*")
        w, h = (H, W) if sideways else (W, H)
        box = np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])
        tiles.append(TileReading(code, 0.99, box, 0.0, sideways, x + w / 2, ((code, 0.99),)))
        x += w + 1
    return tiles


def _doubt(tile: TileReading, confidence: float, *guesses: tuple[str, float]) -> TileReading:
    return replace(tile, confidence=confidence, candidates=((tile.code, confidence), *guesses))


def _analyser(tiles: list[TileReading]):
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return lambda trial: analyse(trial, right, up)


COMPLETE = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 8m"


def test_consistency_copies_allowed() -> None:
    assert copies_allowed("5f") == 1
    assert copies_allowed("5m") == 4
    assert copies_allowed("P") == 4
    assert copies_allowed("back") > 4


def test_consistency_is_complete_on_complete_and_broken_hands() -> None:
    tiles = _hand(COMPLETE)
    assert is_complete(_analyser(tiles)(tiles).hand)
    broken = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E S 6m 7m | 8m")
    assert not is_complete(_analyser(broken)(broken).hand)


def test_consistency_is_complete_counts_any_tile_total() -> None:
    """A 17-tile hand (five sets and a pair) is complete too: the reader never assumes 14."""
    hand = {"concealed": "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 2s 3s 4s".split(), "melds": [],
            "win_tile": "4s", "flowers": []}
    assert is_complete(hand)
    assert not is_complete({**hand, "win_tile": None})
    assert not is_complete({**hand, "concealed": hand["concealed"][:-1], "win_tile": "3s"})


def test_consistency_respect_counts_moves_least_confident_flower() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 4f 4f")
    tiles[-2] = _doubt(tiles[-2], 0.9, ("3f", 0.05))
    tiles[-1] = _doubt(tiles[-1], 0.5, ("2f", 0.3), ("1f", 0.1))
    fixed, corrections = respect_counts(tiles)
    assert [t.code for t in fixed[-2:]] == ["4f", "2f"]
    assert fixed[-1].confidence == 0.3
    assert [(c.index, c.read, c.taken) for c in corrections] == [(len(tiles) - 1, "4f", "2f")]


def test_consistency_respect_counts_skips_guesses_that_also_overflow() -> None:
    tiles = _hand("5m 5m 5m 5m 5m 6m")
    tiles[0] = _doubt(tiles[0], 0.4, ("6m", 0.35), ("3m", 0.2))  # 6m would be fine too
    tiles[5] = replace(tiles[5], code="6m")
    tiles[1] = _doubt(tiles[1], 0.3, ("5f", 0.01), ("9m", 0.2))  # 5f below the floor
    fixed, corrections = respect_counts(tiles)
    assert sorted(t.code for t in fixed).count("5m") == 4
    assert [(c.read, c.taken) for c in corrections] == [("5m", "9m")]


def test_consistency_respect_counts_leaves_overflow_without_guesses() -> None:
    tiles = _hand("1f 1f")
    fixed, corrections = respect_counts(tiles)
    assert [t.code for t in fixed] == ["1f", "1f"] and corrections == []


def test_consistency_complete_hand_takes_the_cheapest_completing_guess() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E S 6m 7m | 8m")
    tiles[10] = _doubt(tiles[10], 0.55, ("E", 0.40), ("W", 0.04))
    tiles[2] = _doubt(tiles[2], 0.6, ("4m", 0.3))  # changing this one completes nothing
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert fixed[10].code == "E" and fixed[2].code == "3m"
    assert is_complete(layout.hand)
    assert [(c.index, c.read, c.taken, c.reason) for c in corrections] == [
        (10, "S", "E", "that completes the hand")
    ]


def test_consistency_complete_hand_changes_two_tiles_when_one_is_not_enough() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E S 6m 9m | 8m")
    tiles[10] = _doubt(tiles[10], 0.55, ("E", 0.40))
    tiles[12] = _doubt(tiles[12], 0.5, ("7m", 0.45))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert {(c.read, c.taken) for c in corrections} == {("S", "E"), ("9m", "7m")}
    assert is_complete(layout.hand)


def test_consistency_complete_hand_leaves_confident_and_hopeless_hands_alone() -> None:
    confident = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E S 6m 7m | 8m")
    confident[10] = _doubt(confident[10], 0.95, ("E", 0.04))  # too sure to overrule
    fixed, layout, corrections = complete_hand(confident, _analyser(confident))
    assert corrections == [] and fixed == confident and not is_complete(layout.hand)
    tiles = _hand(COMPLETE)
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert corrections == [] and fixed is tiles and is_complete(layout.hand)


def test_consistency_complete_hand_never_exceeds_four_copies() -> None:
    tiles = _hand("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s E | S")
    tiles[13] = _doubt(tiles[13], 0.5, ("1m", 0.45), ("E", 0.04))
    fixed, _, corrections = complete_hand(tiles, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("S", "E")]
    assert [t.code for t in fixed].count("1m") == 4


def test_consistency_complete_hand_takes_a_far_guess_when_no_near_one_completes() -> None:
    # A suit tile taken for a flower: 7s read 3f, its near guesses other flowers, 7s a far guess.
    tiles = _hand("1m 2m 3m 4p 5p 6p 3f 8s 9s E E 6m 7m | 8m")
    tiles[6] = replace(_doubt(tiles[6], 0.3, ("7f", 0.2), ("4s", 0.1)),
                       far_guesses=(("2s", 0.05), ("7s", 0.02)))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert fixed[6].code == "7s" and is_complete(layout.hand)
    assert [(c.read, c.taken) for c in corrections] == [("3f", "7s")]
    # Near guesses are tried first: 5m completes (567m) as well as the likelier far 8m (678m).
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m | 1f")
    tiles[13] = replace(_doubt(tiles[13], 0.3, ("5m", 0.04)), far_guesses=(("8m", 0.2),))
    fixed, _, corrections = complete_hand(tiles, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("1f", "5m")]


def test_consistency_complete_hand_makes_a_claimed_group_a_set_with_any_face() -> None:
    # 6s 6s F with a sideways tile is a claimed pung read wrong: the F's guesses hold no 6s at
    # all, yet 6s is the only face that makes the group a set and the hand complete.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | 6s* 6s F")
    tiles[-1] = replace(_doubt(tiles[-1], 0.54, ("8f", 0.15), ("9p", 0.09)), far_guesses=(("N", 0.04),))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert fixed[-1].code == "6s" and is_complete(layout.hand)
    assert layout.hand["melds"] == [{"type": "pung", "tiles": ["6s", "6s", "6s"], "concealed": False}]
    assert [(c.read, c.taken) for c in corrections] == [("F", "6s")]


def test_consistency_complete_hand_prefers_a_set_where_claimed_over_a_likelier_guess() -> None:
    # Taking the far guess 9m (9m 9m 9m, 6s 6s the pair) completes the hand too, but leaves the
    # sideways group no set, counted as concealed; 6s makes it the claimed pung.
    tiles = _hand("1m 2m 3m 4p 5p 6p 9m 9m E E | E | 6s* 6s F")
    tiles[-1] = replace(_doubt(tiles[-1], 0.54, ("8f", 0.15)), far_guesses=(("9m", 0.05),))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("F", "6s")]
    assert layout.hand["melds"][0]["type"] == "pung"


def test_consistency_complete_hand_makes_back_face_face_back_a_concealed_kong() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | back 7p 5m back")
    tiles[-2] = _doubt(tiles[-2], 0.28, ("2f", 0.08))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert fixed[-2].code == "7p"
    assert {"type": "kong", "tiles": ["7p"] * 4, "concealed": True} in layout.hand["melds"]
    assert is_complete(layout.hand)


def test_consistency_complete_hand_takes_a_face_down_tile_read_as_a_white_dragon_for_a_back() -> None:
    # A light blue back under glare read P at 48 %, back at 44 % (scene 8889): back 4p 4p P.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | back 7p 7p P")
    tiles[-1] = _doubt(tiles[-1], 0.48, ("back", 0.44))
    _, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("P", "back")]
    assert {"type": "kong", "tiles": ["7p"] * 4, "concealed": True} in layout.hand["melds"]
    # A back outside a concealed kong is no tile in the count: taking a box of table for one
    # would "complete" any hand a tile too long (scene 329's 9p at 29 %, back at 20 %).
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m")
    tiles[13] = _doubt(tiles[13], 0.29, ("back", 0.2))
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert corrections == [] and fixed[13].code == "9p" and not is_complete(layout.hand)


def test_consistency_complete_hand_mends_a_concealed_kong_whose_faces_differ_however_sure() -> None:
    # back 4s 2s back: one of the two faces is wrong though both were read at 97 %; the one whose
    # reading gave the other face more is changed (2s had 4s as its second guess).
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | back 4s 2s back")
    tiles[-3] = _doubt(tiles[-3], 0.97, ("1s", 0.01))
    tiles[-2] = _doubt(tiles[-2], 0.97, ("4s", 0.02))
    _, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("2s", "4s")]
    assert {"type": "kong", "tiles": ["4s"] * 4, "concealed": True} in layout.hand["melds"]
    assert is_complete(layout.hand)


def test_consistency_complete_hand_keeps_a_complete_hand_when_no_change_mends_a_claimed_group() -> None:
    # The claimed group 9m S S S is no set, but counted as concealed it completes the hand (7m 8m
    # 9m, S S S); no tile is doubtful, so the hand stays as read.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7m 8m E | E | 9m* S S S")
    fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
    assert corrections == [] and fixed is tiles


def test_consistency_takes_a_suit_tile_for_a_flower_only_when_the_flower_is_likely_enough() -> None:
    # One tile too many: only taking the doubtful 9p for a flower (which counts for nothing) or
    # leaving it out completes the hand.
    for flower_p, taken in ((FLOWER_TAKE_MIN - 0.01, False), (FLOWER_TAKE_MIN + 0.01, True)):
        tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m")
        tiles[13] = replace(_doubt(tiles[13], 0.29, ("2f", flower_p)), far_guesses=(("5f", flower_p / 2),))
        fixed, layout, corrections = complete_hand(tiles, _analyser(tiles))
        assert is_complete(layout.hand) is taken
        assert [(c.read, c.taken) for c in corrections] == ([("9p", "2f")] if taken else [])


def test_consistency_without_phantoms_leaves_out_the_box_that_makes_the_hand_one_too_long() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m")
    tiles[13] = _doubt(tiles[13], 0.29, ("2f", 0.03))  # a box of bare table, read 9p
    tiles[4] = _doubt(tiles[4], 0.6, ("3p", 0.3))  # doubtful too, but leaving it out completes nothing
    assert not is_complete(complete_hand(tiles, _analyser(tiles))[1].hand)
    fixed, layout, corrections, dropped = without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser)
    assert dropped == (13,) and fixed == tiles[:13] + tiles[14:] and corrections == []
    assert is_complete(layout.hand) and layout.hand["win_tile"] == "8m"


def test_consistency_without_phantoms_also_repairs_what_is_left() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E S 6m 7m 9p | 8m")
    tiles[13] = _doubt(tiles[13], 0.29)
    tiles[10] = _doubt(tiles[10], 0.55, ("E", 0.40))
    fixed, layout, corrections, dropped = without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser)
    assert dropped == (13,) and fixed[10].code == "E" and is_complete(layout.hand)
    assert [(c.index, c.read, c.taken) for c in corrections] == [(10, "S", "E")]


def test_consistency_without_phantoms_leaves_out_two_boxes_of_a_hand_two_tiles_too_long() -> None:
    tiles = _hand("1m 2m 3m 4p P 5p 6p 7s 8s 9s E E E 6m 7m 8m P C | C")  # 17 tiles and two boxes
    tiles[4] = _doubt(tiles[4], 0.57)  # two blotches of table read as white dragons
    tiles[16] = _doubt(tiles[16], 0.65)
    tiles[13] = _doubt(tiles[13], 0.5, ("5m", 0.3))  # the least confident, but a real tile
    assert not is_complete(complete_hand(tiles, _analyser(tiles))[1].hand)
    fixed, layout, corrections, dropped = without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser)
    assert dropped == (4, 16) and [t.code for t in fixed] == [t.code for i, t in enumerate(tiles) if i not in (4, 16)]
    assert is_complete(layout.hand) and corrections == []
    three = _hand("1m 2m 3m 4p P 5p 6p 7s 8s 9s E E E 6m 7m 8m P C W | C")
    for i in (4, 16, 18):
        three[i] = _doubt(three[i], 0.5)
    assert without_phantoms(three, _analyser(three)(three).hand, _analyser) is None  # three too many


def test_consistency_without_phantoms_never_cuts_a_sixteen_tile_hand_to_fourteen() -> None:
    # A 16-tile hand waiting to win, two of its tiles doubtful: without them it would be a
    # complete 14-tile hand, but it is read as the 16 it shows.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 1s 2s | 8m")
    tiles[13] = _doubt(tiles[13], 0.57)
    tiles[14] = _doubt(tiles[14], 0.65)
    assert tile_count(_analyser(tiles)(tiles).hand) == 16
    assert without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser) is None


def test_consistency_without_phantoms_leaves_the_count_alone_when_a_flower_may_be_a_suit_tile() -> None:
    # One too long for 14 with a doubtful 9p that leaving out would complete it; but the 5f may
    # well be a 1s (a bird), and then the hand is a 16-tile one, not a 14 with a phantom.
    for suit_guess, cut in ((COUNT_DOUBT + 0.05, False), (COUNT_DOUBT - 0.05, True)):
        tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m 5f")
        tiles[13] = _doubt(tiles[13], 0.29)
        tiles[15] = _doubt(tiles[15], 0.45, ("1s", suit_guess))
        assert (without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser) is not None) is cut


def test_consistency_without_phantoms_trusts_a_doubtful_flower_laid_with_other_flowers() -> None:
    # The same doubtful 5f, but laid aside between two other flowers: it is a flower, so the
    # count stands and the doubtful 9p is left out as a phantom (scene 7453).
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m | 1f 5f 2f")
    tiles[13] = _doubt(tiles[13], 0.29)
    tiles[16] = _doubt(tiles[16], 0.45, ("1s", COUNT_DOUBT + 0.05))
    cut = without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser)
    assert cut is not None and cut[3] == (13,)
    assert is_complete(cut[1].hand) and cut[1].hand["flowers"] == ["1f", "5f", "2f"]


def test_consistency_without_phantoms_may_leave_out_a_blank_white_dragon_read_surely() -> None:
    # A patch of patterned table looks like the blank white dragon (scene 9237: P at 91 %).
    for code, sure, cut in (("P", BLANK_PHANTOM_BELOW - 0.03, True), ("P", BLANK_PHANTOM_BELOW + 0.005, False),
                            ("9p", EDITABLE_BELOW + 0.05, False)):
        tiles = _hand(f"1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m {code} | 8m")
        tiles[13] = _doubt(tiles[13], sure)
        left = without_phantoms(tiles, _analyser(tiles)(tiles).hand, _analyser)
        assert (left is not None and left[3] == (13,)) is cut


def test_consistency_without_phantoms_never_drops_sure_tiles_nor_makes_a_short_hand() -> None:
    sure = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m")  # every tile read at 99 %
    assert without_phantoms(sure, _analyser(sure)(sure).hand, _analyser) is None
    short = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m | 7m")  # 13 tiles: leaving one out gives 12
    short[11] = _doubt(short[11], 0.3)
    assert without_phantoms(short, _analyser(short)(short).hand, _analyser) is None
    flower = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 9p | 8m 3f")
    flower[15] = _doubt(flower[15], 0.2)  # a doubtful flower: leaving it out completes nothing
    assert without_phantoms(flower, _analyser(flower)(flower).hand, _analyser) is None


def _phantoms(tiles: list[TileReading], size: tuple[int, int]) -> tuple[int, ...]:
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return phantom_flowers(tiles, size, rows_and_groups(tiles, right, up))


def _moved(tile: TileReading, dx: float, dy: float = 0.0) -> TileReading:
    return replace(tile, box=tile.box + np.float32([dx, dy]))


def test_consistency_phantom_flowers_are_doubtful_flowers_past_the_edge_or_on_other_boxes() -> None:
    tiles = _hand(COMPLETE + " | 2f 3f")
    width = float(max(t.box[:, 0].max() for t in tiles))
    size = (int(width) + 200, 200)
    tiles = [_moved(t, 100, 80) for t in tiles]
    assert _phantoms(tiles, size) == ()  # sure flowers inside the photo
    doubtful = [*tiles[:-1], _doubt(tiles[-1], PHANTOM_FLOWER_BELOW - 0.05)]
    assert _phantoms(doubtful, size) == ()  # doubtful but whole and on its own
    # The same doubtful 3f cut by the photo's right edge (its box runs past it) is no tile...
    cut = _moved(doubtful[-1], size[0] - float(doubtful[-1].box[:, 0].max()) + 5)
    assert _phantoms([*tiles[:-1], cut], size) == (len(tiles) - 1,)
    # ...and so is one lying mostly on the 2f's box (a second box across a tile)...
    on_2f = replace(doubtful[-1], box=tiles[-2].box + np.float32([W * (1 - PHANTOM_FLOWER_COVER - 0.1), 0]))
    assert _phantoms([*tiles[:-1], on_2f], size) == (len(tiles) - 1,)
    beside = replace(on_2f, box=tiles[-2].box + np.float32([W * (1 - PHANTOM_FLOWER_COVER + 0.1), 0]))
    assert _phantoms([*tiles[:-1], beside], size) == ()
    # ...but not when read at PHANTOM_FLOWER_BELOW or more, nor a suit tile at the edge.
    sure_cut = _doubt(cut, PHANTOM_FLOWER_BELOW + 0.01)
    assert _phantoms([*tiles[:-1], sure_cut], size) == ()
    suit_cut = replace(cut, code="9p", candidates=(("9p", 0.2),), confidence=0.2)
    assert _phantoms([*tiles[:-1], suit_cut], size) == ()


def test_consistency_phantom_flowers_edge_margin_is_in_tile_sides() -> None:
    tiles = [_moved(t, 100, 80) for t in _hand(COMPLETE + " | 2f")]
    flower = _doubt(tiles[-1], 0.2)
    side = float(np.sqrt(W * H))
    right = float(flower.box[:, 0].max())
    for gap, phantom in ((EDGE_MARGIN * side * 0.5, True), (EDGE_MARGIN * side * 2, False)):
        size = (round(right + gap), 200)
        assert (_phantoms([*tiles[:-1], flower], size) != ()) is phantom


def test_consistency_phantom_flowers_are_doubtful_flowers_inside_a_row_of_the_hand() -> None:
    # A box across the seam of two concealed tiles read 7f (scene 11770), or between a kong and
    # the flowers laid against it (11031, 11975).
    size = (2000, 400)
    for spec, index in (("1m 2m 3m 4p 5p 6p 7s 8s 9s 7f E E 6m 7m | 8m", 9),
                        ("1m 2m 3m 4p 5p 6p 7s 8s 9s E E | E | 9m* 9m 9m 7f 6f", 15)):
        tiles = [_moved(t, 100, 80) for t in _hand(spec)]
        tiles[index] = _doubt(tiles[index], PHANTOM_FLOWER_BELOW - 0.1)
        assert _phantoms(tiles, size) == (index,)
        tiles[index] = _doubt(tiles[index], PHANTOM_FLOWER_BELOW + 0.05)
        assert _phantoms(tiles, size) == ()
    # Flowers laid in a group of their own, or at the end of one, are flowers however doubtful.
    tiles = [_moved(t, 100, 80) for t in _hand(COMPLETE + " | 2f 3f 5f")]
    tiles[-2] = _doubt(tiles[-2], 0.2)
    assert _phantoms(tiles, size) == ()
    tiles = [_moved(t, 100, 80) for t in _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E | E | 9m* 9m 9m 6f")]
    tiles[-1] = _doubt(tiles[-1], 0.2)
    assert _phantoms(tiles, size) == ()


def test_consistency_kong_flowers_a_doubtful_flower_against_a_declared_pung_is_its_fourth_tile() -> None:
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 5m | 5m | E* E E 7f")
    tiles[-1] = _doubt(tiles[-1], 0.48, ("E", 0.1))
    layout = _analyser(tiles)(tiles)
    assert is_complete(layout.hand) and layout.hand["flowers"] == ["7f"]  # a pung and a flower
    fixed, fixed_layout, corrections = kong_flowers(tiles, layout, _analyser(tiles))
    assert [(c.read, c.taken) for c in corrections] == [("7f", "E")] and fixed[-1].code == "E"
    assert {"type": "kong", "tiles": ["E"] * 4, "concealed": False} in fixed_layout.hand["melds"]
    assert fixed_layout.hand["flowers"] == [] and is_complete(fixed_layout.hand)
    # Not when the classifier gave the pung's face under MIN_GUESS, nor a sure flower...
    for confidence, guess in ((0.48, MIN_GUESS - 0.01), (EDITABLE_BELOW + 0.05, 0.04)):
        tiles[-1] = _doubt(tiles[-1], confidence, ("E", guess))
        assert kong_flowers(tiles, layout, _analyser(tiles))[2] == []
    # ...nor as a fourth white dragon (a box of no tile in a pung's gap reads blank)...
    blank = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 5m | 5m | P* P P 7f")
    blank[-1] = _doubt(blank[-1], 0.2, ("P", 0.2))
    assert kong_flowers(blank, _analyser(blank)(blank), _analyser(blank))[2] == []
    # ...nor one laid apart from the pung.
    apart = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 5m | 5m | E* E E | 7f")
    apart[-1] = _doubt(apart[-1], 0.48, ("E", 0.1))
    assert kong_flowers(apart, _analyser(apart)(apart), _analyser(apart))[2] == []


def test_consistency_stray_backs_are_face_down_boxes_in_no_concealed_kong_of_a_hand_not_as_declared() -> None:
    # A tile's dark side read as a back against a claimed chow: the group is no set.
    tiles = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | 8m* 6m 7m back")
    layout = _analyser(tiles)(tiles)
    assert not reads_as_declared(tiles, layout)
    assert stray_backs(tiles, layout) == (len(tiles) - 1,)
    without = tiles[:-1]
    assert reads_as_declared(without, _analyser(without)(without))
    # A concealed kong's backs are no strays, and a hand read as declared has none.
    kong = _hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E | E | back 7p 7p back")
    assert reads_as_declared(kong, _analyser(kong)(kong)) and stray_backs(kong, _analyser(kong)(kong)) == ()
