"""Kongs shown face up among the concealed tiles: four alike side by side in one of the hand's rows.

Players often show a whole hand in one row at the end (a long one in two), a kong's four tiles
face up among the rest (not back, face, face, back, nor laid apart as a claimed set). Such a hand
holds one tile more than a hand for each kong (a kong counts as three tiles), so it reads as no
hand and a tile of it was cut off. ``shown_kongs``: when the hand's playing tiles are one or two
over a hand's size (14, or a 16-tile game's 17) and as many runs of four alike stand side by side
among the concealed tiles of a row (the concealed row first, then the hand's other rows, each
on its own; next to each other in the row's own order: a player's gap or the winning tile set
apart may part a kong's four, a set laid between them may not), those runs are concealed kongs;
the same kongs claimed (exposed) are the alternative reading
(``claimed_alternative``). ``shown_in`` counts such kongs in a layout (``hand_splits`` counts
their fourth tiles as tiles too many when the hand still reads as none).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from fanscan.scoring.decompose import SIXTEEN_TILE_HAND
from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision.detections import LayoutGroup, TileReading
from fanscan.vision.layout_words import SMALLEST_HAND


@dataclass(frozen=True)
class ShownKongs:
    """The runs read as kongs (reading indices, left to right), their melds and their doubts."""

    runs: list[list[int]] = field(default_factory=list)
    melds: list[dict] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    """Each run's row: its index in the rows ``shown_kongs`` was given."""

    @property
    def members(self) -> set[int]:
        return {i for run in self.runs for i in run}


def runs_of_four(members: list[int], codes: list[str], readings: list[TileReading],
                 row: list[int] | None = None) -> list[list[int]]:
    """Each run of four tiles of one face (no back, no flower) among ``members``, side by side
    in ``row`` (every tile of the row, in any order; by default the members alone), left to right
    along the row, none sharing a tile: a tile of the row that is no member parts a run."""
    ordered = sorted(members if row is None else row, key=lambda i: readings[i].position)
    allowed = set(members)
    runs, k = [], 0
    while k + 4 <= len(ordered):
        run = ordered[k : k + 4]
        face = codes[run[0]]
        if (allowed.issuperset(run) and face != BACK and face not in FLOWER_CODES
                and all(codes[i] == face for i in run)):
            runs.append(run)
            k += 4
        else:
            k += 1
    return runs


def shown_kongs(rows: Sequence[tuple[list[int], list[int] | None]], codes: list[str],
                readings: list[TileReading], playing: int) -> ShownKongs:
    """The runs of four among the concealed tiles of the hand's ``rows`` (each: its concealed
    tiles, and its every tile as ``runs_of_four`` takes them; the concealed row first) read as
    concealed kongs, the first rows' first, when the hand's ``playing`` tiles (kongs already read
    counted as three) are over a possible hand's size by as many runs."""
    over = (playing - 2) % 3  # 0 for 14 and 17 tiles
    found = [(k, run) for k, (concealed, row) in enumerate(rows)
             for run in runs_of_four(concealed, codes, readings, row)] if over else []
    if len(found) < over or not SMALLEST_HAND <= playing - over <= SIXTEEN_TILE_HAND:
        return ShownKongs()
    runs = [run for _, run in found[:over]]
    return ShownKongs(
        runs,
        [{"type": "kong", "tiles": [codes[run[0]]] * 4, "concealed": True} for run in runs],
        [f"Four {codes[run[0]]} stand side by side among the concealed tiles, one tile more than a hand "
         "holds: they were read as a concealed kong; if it was claimed (exposed), use the alternative "
         "reading." for run in runs],
        [k for k, _ in found[:over]],
    )


def claimed_alternative(hand: dict, shown: ShownKongs) -> tuple[str, dict]:
    """The hand with the shown kongs claimed (exposed) instead, and its description."""
    exposed = [dict(m, tiles=list(m["tiles"]), concealed=False if m in shown.melds else m["concealed"])
               for m in hand["melds"]]
    faces = " and ".join(m["tiles"][0] for m in shown.melds)
    return (f"the kong of {faces} claimed (exposed), not concealed" if len(shown.melds) == 1 else
            f"the kongs of {faces} claimed (exposed), not concealed",
            {**hand, "concealed": list(hand["concealed"]), "flowers": list(hand["flowers"]), "melds": exposed})


def shown_in(groups: Iterable[LayoutGroup], readings: list[TileReading]) -> int:
    """How many of a layout's concealed kongs are four faces (kongs shown face up in the row, read
    so by ``shown_kongs``; a concealed kong laid as the rules show it has backs)."""
    return sum(1 for g in groups if g.role == "concealed_kong" and g.meld is not None
               and all(readings[i].code != BACK for i in g.members))
