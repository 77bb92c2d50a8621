"""The doubts a reading reports: most important first, at most five, each naming its tile."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
from fanscan.vision import doubts, interpret
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import hand_frame, rows_and_groups
from fanscan.vision.layout import analyse

RULES = HandRules((14,), "win")


def _row(codes: str, confidence: float = 0.99) -> list[TileReading]:
    """Touching tiles in a row, the last one apart (the winning tile)."""
    out = []
    tokens = codes.split()
    for k, code in enumerate(tokens):
        x = 31 * k + (12 if k == len(tokens) - 1 else 0)
        box = np.float32([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]])
        out.append(TileReading(code, confidence, box, 0.0, False, x + 15, ((code, confidence),)))
    return out


def _read(readings: list[TileReading], satisfied: bool = True,
          corrections: list[interpret.Change] | None = None) -> interpret.HandRead:
    right, up = hand_frame(np.stack([r.box for r in readings]))
    rows = rows_and_groups(readings, right, up)
    hand_layout = analyse(readings, right, up, rows)
    best = interpret.Interpretation(readings, tuple(range(len(readings))), rows, hand_layout, 0.0,
                                    satisfied, Counter())
    return interpret.HandRead(readings, rows, hand_layout, corrections or [], [], best)


def test_at_most_five_doubts_the_least_sure_tiles_first() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m")
    for k, i in enumerate((2, 4, 6, 8, 10, 12, 13)):
        readings[i] = replace(readings[i], confidence=0.3 + 0.03 * k)
    said = doubts.ranked(_read(readings), RULES, [])
    assert len(said) == doubts.MAX_DOUBTS
    assert "with only 30% confidence" in said[0] and "with only 42% confidence" in said[4]


def test_a_hand_of_more_tiles_than_any_hand_suggests_reading_every_tile() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 1s 2s 3s 4s 5s 6s 9s")
    said = doubts.ranked(_read(readings, satisfied=False), RULES, [])
    assert said[0].startswith("The hand as read holds 21 playing tiles, more than a hand of 14 tiles")
    assert "fanscan read --all-tiles" in said[0]
    fifteen = doubts.ranked(_read(readings[:15], satisfied=False), RULES, [])
    assert fifteen[0].startswith("The hand as read holds 15")
    fourteen = doubts.ranked(_read(readings[:14], satisfied=False), RULES, [])
    assert fourteen[0].startswith("The tiles as read make no complete hand of 14 tiles")
    waiting = doubts.ranked(_read(readings[:14], satisfied=False), HandRules((14,), "waiting"), [])
    assert waiting[0].startswith("The hand as read holds 14 playing tiles, as a complete hand does")
    assert "score it (fanscan score)" in waiting[0]


def test_a_reading_that_breaks_the_copies_a_set_holds_names_the_face() -> None:
    # The search returns a reading with a flower twice only when no affordable change mends it:
    # the doubt names that flower, not the least sure tiles of a hand that is otherwise complete.
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 5f 5f")
    readings[-1] = replace(readings[-1], confidence=0.83)
    said = doubts.ranked(_read(readings, satisfied=False), RULES, [])
    assert said[0] == ("5f is read 2 times (83%, 99%), but a set has one, and no likely change of a tile "
                       "mends it: check those tiles.")
    assert doubts.copies_broken(_row("1m 1m 1m 1m 1m 1m 5f 5f")) == ("1m", 6)  # the most over first
    assert doubts.copies_broken(_row("1m 1m 1m 1m back back back back back 5f")) is None


def test_a_hand_no_likely_reading_makes_is_said_first_then_what_the_search_changed() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 1s")
    readings[0] = replace(readings[0], confidence=0.2)
    change = interpret.Change(5, "8p", 0.5, "6p", 0.3, "that completes the hand")
    said = doubts.ranked(_read(readings, satisfied=False, corrections=[change]), RULES, [])
    assert said[0].startswith("The tiles as read make no complete hand of 14 tiles")
    assert "(1m (20%)" in said[0]  # the least sure tiles are named
    assert said[1] == ("The 6th tile of the concealed tiles looks most like 8p (50%) but was taken as 6p "
                       "(30%) because that completes the hand: check that tile.")
    assert any("with only 20% confidence" in d for d in said[2:])


def test_a_pile_is_said_to_be_more_tiles_than_a_hand_before_its_copies() -> None:
    readings = _row("1m 1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m 1s 2s 3s")
    said = doubts.ranked(_read(readings, satisfied=False), RULES, [])
    assert said[0].startswith("The hand as read holds 21 playing tiles, more than a hand")


def test_a_sixteen_tile_games_complete_hand_read_as_waiting_is_not_sent_to_scoring() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E 6m 7m 8m 2s 2s")
    said = doubts.ranked(_read(readings, satisfied=False), HandRules((14, 17), "waiting"), [])
    assert "a 16-tile game's complete hand, which no rule set here scores" in said[0]
    assert "fanscan score" not in said[0]


def test_far_too_few_tiles_for_a_hand_say_so_not_the_least_sure_tiles() -> None:
    # Four sure 1m apart are no misreading: the photo shows part of a hand.
    readings = _row("1m 1m 1m 1m")
    for i, x in enumerate((0, 200, 400, 600)):
        readings[i] = replace(readings[i], box=readings[i].box + np.float32([x, 90 * (i % 2)]), position=x)
    said = doubts.ranked(_read(readings, satisfied=False), RULES, [])
    assert said[0].startswith("The photo shows 4 playing tiles, fewer than a hand of 14 tiles holds")
    assert not any("least sure tiles" in d for d in said)
    waiting = doubts.ranked(_read(readings, satisfied=False), HandRules((14,), "waiting"), [])
    assert "fewer than a hand of 13 tiles holds" in waiting[0]
    # a tile short is still worth a look at the least sure tiles
    short = doubts.ranked(_read(_row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m"), satisfied=False), RULES, [])
    assert short[0].startswith("The tiles as read make no complete hand of 14 tiles")


def test_the_same_sentence_is_said_once() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 6m 7m 8m")
    read = _read(readings)
    read = replace(read, layout=replace(read.layout, doubts=("The tile 1m lies apart.",) * 3))
    assert doubts.ranked(read, RULES, []).count("The tile 1m lies apart.") == 1


def _with_flower_probs(reading: TileReading, faces: dict[str, float]) -> TileReading:
    from fanscan.scoring.tiles import CLASS_LABELS

    probs = np.full(len(CLASS_LABELS), 1e-4)
    for code, p in faces.items():
        probs[CLASS_LABELS.index(code)] = p
    return replace(reading, probs=probs)


def test_a_flower_taken_as_another_for_the_set_names_the_flower_it_looks_like() -> None:
    readings = _row("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E 6m 8f 7m")
    readings[13] = _with_flower_probs(replace(readings[13], confidence=0.30), {"7f": 0.65, "8f": 0.30})
    apart = [_with_flower_probs(_row("7f", 0.9)[0], {"7f": 0.9})]  # the photo's surer 7f, apart from the hand
    said = doubts.ranked(_read(readings), RULES, apart)
    flower = [s for s in said if "looks most like 7f (65%) but was taken as 8f (30%)" in s]
    assert len(flower) == 1 and "a set has only one 7f" in flower[0]
    assert not any("read as 8f with only" in s for s in said)  # said once, not again as merely unsure
    # no other 7f in the photo: only an unsure tile, not one taken for the set
    said = doubts.ranked(_read(readings), RULES, [])
    assert not any("looks most like 7f" in s for s in said) and any("read as 8f with only 30%" in s for s in said)
