"""The doubts a reading reports: sentences a player can act on, most useful first.

Each names a tile by where it lies ("the 3rd tile of the concealed tiles") and what to check:
a tile the search took as another face (``changed_doubts``), a flower taken as another because
the photo holds a surer one of it (``set_flower_doubts``), a tile read unsurely
(``unsure_doubts``), a box left out as no tile
(``left_out_doubts``), a hand no likely reading completes (``unsatisfied_doubts``), a runner-up
reading nearly as likely as the best (``margin_doubts``: the search's margin), tiles lying apart
from the hand (``apart_doubts``).
"""

from __future__ import annotations

import math
from collections import Counter

from fanscan.scoring.tiles import CLASS_LABELS, FLOWER_CODES
from fanscan.vision import annotate, interpret, layout_words
from fanscan.vision.detections import HandLayout, TileReading
from fanscan.vision.hand_region import STRAY_CLUSTER
from fanscan.vision.hand_rules import SIXTEEN_TILE_HAND, HandRules, copies_allowed, layout_tile_count
from fanscan.vision.interpret import HandRead


def apart_doubts(apart: list[TileReading]) -> list[str]:
    """A sentence when more tiles lie apart from the hand than ``STRAY_CLUSTER`` (as many as a set
    holds): the choice of the rows nearest the camera as the hand may then be wrong. A stray box
    or two is said nothing of."""
    if len(apart) <= STRAY_CLUSTER:
        return []
    return [f"{len(apart)} tiles lie apart from the hand (the rows of touching tiles nearest the "
            "camera were taken as the hand): they are listed as not in the hand and drawn in grey "
            "on the annotated photo; if the hand is elsewhere, photograph it alone."]


def _tile_places(hand_layout: HandLayout) -> dict[int, str]:
    """Where each tile lies, in words a player finds it by ("the 3rd tile of the concealed tiles")."""
    place: dict[int, str] = {}
    plural = {"concealed": "concealed tiles", "meld": "declared set", "concealed_kong": "concealed kong",
              "flowers": "flowers"}
    single = {"concealed": "concealed tile", "win": "winning tile", "meld": "declared tile",
              "flowers": "flower"}
    for group in hand_layout.groups:
        for k, i in enumerate(group.members):
            if len(group.members) == 1:
                place[i] = single.get(group.role, "tile")
            else:
                place[i] = f"{layout_words.ordinal(k + 1)} tile of the {plural.get(group.role, 'group')}"
    return place


def changed_doubts(readings: list[TileReading], hand_layout: HandLayout,
                   corrections: list[interpret.Change]) -> list[str]:
    """A sentence for each tile the search took as another face than the classifier's first."""
    place = _tile_places(hand_layout)
    return [f"The {place.get(c.index, 'tile')} looks most like {c.read} ({c.read_confidence:.0%}) but was "
            f"taken as {c.taken} ({c.taken_confidence:.0%}) because {c.reason}: check that tile."
            for c in sorted(corrections, key=lambda c: c.index)]


def taken_for_the_set(readings: list[TileReading], corrections: list[interpret.Change],
                      apart: list[TileReading]) -> dict[int, str]:
    """The hand's flowers taken as another flower than they look most like, that flower held by
    another tile of the photo (``flower_set``: a set has one of each): index -> the flower it
    looks most like. Tiles the search changed are its to explain."""
    changed = {c.index for c in corrections}
    held = {r.code for r in readings} | {r.code for r in apart}
    out = {}
    for i, reading in enumerate(readings):
        if i in changed or reading.code not in FLOWER_CODES or reading.probs is None:
            continue
        likeliest = max(FLOWER_CODES, key=lambda code: float(reading.probs[CLASS_LABELS.index(code)]))
        if likeliest != reading.code and likeliest in held:  # held by another tile, not this one
            out[i] = likeliest
    return out


def set_flower_doubts(readings: list[TileReading], hand_layout: HandLayout, taken: dict[int, str]) -> list[str]:
    """A sentence for each flower of ``taken_for_the_set``."""
    place = _tile_places(hand_layout)
    return [f"The {place.get(i, 'tile')} looks most like {flower} "
            f"({float(readings[i].probs[CLASS_LABELS.index(flower)]):.0%}) but was taken as {readings[i].code} "
            f"({readings[i].confidence:.0%}) because a set has only one {flower} and another tile of the photo "
            "is surer of it: check that tile." for i, flower in sorted(taken.items())]


def unsure_doubts(readings: list[TileReading], hand_layout: HandLayout,
                  corrections: list[interpret.Change], said: frozenset[int] = frozenset()) -> list[str]:
    """A sentence for each other tile read with little confidence (``annotate.DOUBT_BELOW``),
    the least sure first."""
    place = _tile_places(hand_layout)
    changed = {c.index for c in corrections} | said
    unsure = sorted((i for i, r in enumerate(readings) if i not in changed and r.confidence < annotate.DOUBT_BELOW),
                    key=lambda i: readings[i].confidence)
    return [f"The {place.get(i, 'tile')} was read as {readings[i].code} with only {readings[i].confidence:.0%} "
            "confidence: check that tile (a sharper, less glary photo helps)." for i in unsure]


def _differences(best: interpret.Interpretation, other: interpret.Interpretation) -> list[str]:
    """How ``other`` reads the boxes ``best`` reads otherwise, in words ("5m as 3m", "2f as no tile")."""
    faces = [dict(zip(r.kept, (t.code for t in r.readings))) for r in (best, other)]
    boxes = sorted(set(faces[0]) | set(faces[1]))
    return [f"{faces[0].get(i, 'no tile')} as {faces[1].get(i, 'no tile')}" for i in boxes
            if faces[0].get(i) != faces[1].get(i)]


def _runner_ups(read: HandRead) -> list[tuple[interpret.Interpretation, float]]:
    """The search's next readings whose hand differs from the best's, each with how likely it
    is against the best."""
    if read.best is None:
        return []
    seen = [read.layout.hand]
    out = []
    for other in read.runners_up:
        odds = math.exp(read.best.cost - other.cost)
        if other.layout.hand not in seen and odds >= math.exp(-interpret.ALTERNATIVES_WITHIN):
            seen.append(other.layout.hand)
            out.append((other, odds))
    return out


def runner_up_alternatives(read: HandRead) -> list[tuple[str, dict]]:
    return [(f"{', '.join(_differences(read.best, other))} ({odds:.0%} as likely)", other.layout.hand)
            for other, odds in _runner_ups(read) if read.best is not None]


def unsatisfied_doubts(read: HandRead, rules: HandRules, readings: list[TileReading]) -> list[str]:
    """A sentence when no reading the search could afford is the hand the rules ask for, naming
    the least sure tiles (where a misreading most likely hides)."""
    if read.best is None or read.best.satisfied or rules.kind == "any" or not readings:
        return []
    kind = "complete hand" if rules.kind == "win" else "hand waiting to win"
    sizes = " or ".join(str(s - (rules.kind == "waiting")) for s in rules.sizes)
    doubtful = sorted(range(len(readings)), key=lambda i: readings[i].confidence)[:3]
    named = ", ".join(f"{readings[i].code} ({readings[i].confidence:.0%})" for i in doubtful)
    count = layout_tile_count(read.best.layout)
    if count > max(rules.sizes):  # more than any hand: loose tiles, no one hand
        return [f"The hand as read holds {count} playing tiles, more than a hand of {sizes} tiles, and no "
                "likely change of a tile makes one: if the photo shows loose tiles rather than one "
                "hand, read every tile as it lies, not as a hand (fanscan read --all-tiles); "
                f"otherwise check the least sure tiles ({named})."]
    smallest = min(rules.sizes) - (rules.kind == "waiting")
    if count < smallest - 1:  # far too few: no tile's reading is to blame
        return [layout_words.count_doubt(count, smallest)] if count else []  # none: the layout says so
    over = copies_broken(readings)
    if over:
        code, times = over
        shown = ", ".join(f"{r.confidence:.0%}" for r in sorted(readings, key=lambda r: r.confidence) if r.code == code)
        limit = copies_allowed(code)
        return [f"{code} is read {times} times ({shown}), but a set has {limit if limit > 1 else 'one'}, "
                "and no likely change of a tile mends it: check those tiles."]
    if rules.kind == "waiting" and count in rules.sizes:
        what = ("a 16-tile game's complete hand, which no rule set here scores" if count == SIXTEEN_TILE_HAND
                else "a complete hand: if it is a win, score it (fanscan score)")
        return [f"The hand as read holds {count} playing tiles, as a complete hand does, not one waiting "
                f"to win, and no likely change of a tile makes one: {what}; otherwise check the least "
                f"sure tiles ({named}), or a tile read twice."]
    return [f"The tiles as read make no {kind} of {sizes} tiles, and no likely change of a tile "
            f"makes one: check the least sure tiles ({named}), or a tile missing or read twice."]


def copies_broken(readings: list[TileReading]) -> tuple[str, int] | None:
    """The face read more often than a set holds it (the most over), and how often; None when
    none is (the search returns such a reading only when no affordable change mends it)."""
    counts = Counter(r.code for r in readings)
    over = [(n - copies_allowed(code), code, n) for code, n in counts.items() if n > copies_allowed(code)]
    return None if not over else max(over)[1:]


def margin_doubts(read: HandRead) -> list[str]:
    """A sentence when the best reading is not clearly likelier than the next ones: its share of
    their probability under ``annotate.DOUBT_BELOW``, the bar a single tile's reading must pass."""
    runners = _runner_ups(read)
    if not runners or read.best is None:
        return []
    share = 1 / (1 + sum(odds for _, odds in runners))
    if share >= annotate.DOUBT_BELOW:
        return []
    other, odds = runners[0]
    return [f"Another reading of the hand is almost as likely ({odds:.0%} as likely): "
            f"{', '.join(_differences(read.best, other))}; check those tiles (it is listed as an alternative)."]


def left_out_doubts(left_out: list[tuple[TileReading, str]]) -> list[str]:
    return [
        f"A box read as {r.code} ({r.confidence:.0%}) was left out as no tile: {why}; check the photo "
        "there (crossed in grey on the annotated photo)." for r, why in left_out
    ]


MAX_DOUBTS = 5
"""A reading says at most this many doubts: a player acts on a few, most important first."""


def ranked(read: HandRead, rules: HandRules, apart: list[TileReading]) -> list[str]:
    """The reading's doubts, most important first, each once, at most ``MAX_DOUBTS`` of them: a hand no
    likely reading makes, the tiles the search took as another face, the flowers taken as another
    for the set (``taken_for_the_set``), a runner-up reading nearly
    as likely, the boxes left out, the layout's guesses, the tiles read unsurely (the least sure
    first), the tiles lying apart."""
    taken = taken_for_the_set(read.readings, read.corrections, apart)
    said = (unsatisfied_doubts(read, rules, read.readings)
            + changed_doubts(read.readings, read.layout, read.corrections)
            + set_flower_doubts(read.readings, read.layout, taken) + margin_doubts(read)
            + left_out_doubts(read.left_out) + list(read.layout.doubts)
            + unsure_doubts(read.readings, read.layout, read.corrections, frozenset(taken)) + apart_doubts(apart))
    return list(dict.fromkeys(said))[:MAX_DOUBTS]  # a sentence once, however many tiles it fits
