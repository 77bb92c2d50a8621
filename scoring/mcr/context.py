"""What the MCR detectors look at: facts about the whole hand and about one reading of it.

``HandFacts`` is computed once per hand (tile counts, win conditions, the wait); ``Context`` adds
one reading (its chows, pungs and pair as tile indices 0-33). Tiles are plain ints here because
the detectors run for every reading of every hand; ``Tile(i)`` gives the face back.
"""

from __future__ import annotations

import copy
from typing import Any

from fanscan.scoring.decompose import Reading, completing_tiles
from fanscan.scoring.hand import Hand


class HandFacts:
    """Per-hand facts shared by all readings; ``cache`` keeps per-hand detector results.

    ``mask`` has bit ``i`` set when tile ``i`` is in the hand, so that the whole-hand detectors
    test a property of every tile with one ``&`` against a mask of the tiles that have it.
    """

    __slots__ = (
        "_unique_wait",
        "cache",
        "concealed_kongs",
        "counts",
        "exposed",
        "fourth_tile",
        "hand",
        "kong_win",
        "kongs",
        "last_tile",
        "mask",
        "melded_kongs",
        "prevalent",
        "seat",
        "self_drawn",
        "standing",
        "win",
    )

    def __init__(self, hand: Hand) -> None:
        assert hand.win_tile is not None
        win = int(hand.win_tile)
        self.hand = hand
        standing = [0] * 34
        mask = 0
        for tile in hand.concealed:
            standing[tile] += 1
            mask |= 1 << tile
        self.standing = standing
        counts = standing.copy()
        melded_wins = exposed = melded_kongs = concealed_kongs = 0
        for meld in hand.melds:
            for tile in meld.tiles:
                counts[tile] += 1
                mask |= 1 << tile
            melded_wins += meld.tiles.count(win)
            if not meld.concealed:
                exposed += 1
            if meld.kind == "kong":
                if meld.concealed:
                    concealed_kongs += 1
                else:
                    melded_kongs += 1
        self.counts = counts
        self.mask = mask
        self.win = win
        self.self_drawn = hand.self_drawn
        self.kong_win = hand.kong
        self.last_tile = hand.last_tile
        # The other three copies in the hand's own melds make the win tile the last one (和绝张).
        self.fourth_tile = hand.fourth_tile or melded_wins == 3
        self.seat = int(hand.seat_wind)
        self.prevalent = int(hand.round_wind)
        self.exposed = exposed
        self.kongs = melded_kongs + concealed_kongs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.cache: dict[Any, Any] = {}
        self._unique_wait: bool | None = None

    @property
    def present(self) -> list[int]:
        """The tile indices in the hand, in tile order."""
        return [i for i, count in enumerate(self.counts) if count]

    @property
    def unique_wait(self) -> bool:
        """Whether the hand before the win tile waited on exactly one tile (sets + pair or seven
        pairs); a tile whose four copies are all in the hand still counts as a wait.
        """
        if self._unique_wait is None:
            self._unique_wait = waits_on_one(
                self.standing, self.win, seven_pairs=not self.hand.melds
            )
        return self._unique_wait


def waits_on_one(counts_with_win: list[int], win: int, *, seven_pairs: bool) -> bool:
    """Whether ``counts_with_win`` less the win tile waits on exactly one tile."""
    counts = list(counts_with_win)
    counts[win] -= 1
    waits = set(completing_tiles(counts))
    if len(waits) > 1:
        return False  # a seven-pairs wait could only add one more
    if seven_pairs and sum(counts) == 13:
        odd = [i for i, n in enumerate(counts) if n % 2]
        if len(odd) == 1:
            waits.add(odd[0])
    return len(waits) == 1


class Context:
    """One reading of a hand, as the detectors see it.

    ``pattern_chows`` are the chows that take part in the chow patterns (一般高, 喜相逢, 花龙,
    三步高 ...): all of them, except in app-custom, where a chow holding a wild tile that could
    be more than one chow takes part in none (``without_chows``).
    """

    __slots__ = (
        "chows",
        "concealed_chows",
        "concealed_pungs",
        "form",
        "hand",
        "pair",
        "pattern_chows",
        "pungs",
        "reading",
    )

    def __init__(self, facts: HandFacts, reading: Reading | None, form: str) -> None:
        self.hand = facts
        self.reading = reading
        self.form = form
        chows: list[int] = []
        pungs: list[int] = []
        concealed_chows: list[int] = []
        standing_pungs: list[int] = []
        pair = -1
        if reading is not None:
            for kind, tile, declared, _ in reading.groups:
                if kind == "chow":
                    chows.append(int(tile))
                    if not declared:
                        concealed_chows.append(int(tile))
                else:
                    pungs.append(int(tile))
                    if kind == "pung" and not declared:
                        standing_pungs.append(int(tile))
            if reading.pair is not None:
                pair = int(reading.pair)
        chows.sort()
        pungs.sort()
        self.chows = chows
        self.pattern_chows = chows
        self.pungs = pungs
        self.concealed_chows = concealed_chows
        self.pair = pair
        win = facts.win
        if (
            not facts.self_drawn
            and win in standing_pungs
            and not any(c <= win <= c + 2 for c in concealed_chows)
        ):
            # Won on a discard that can only complete this pung: the pung is exposed.
            standing_pungs.remove(win)
        self.concealed_pungs = len(standing_pungs)

    def without_chows(self, free: tuple[int, ...]) -> Context:
        """A copy whose ``pattern_chows`` leave out the chows ``free`` (lowest tiles)."""
        other = copy.copy(self)
        kept = list(self.chows)
        for low in free:
            kept.remove(low)
        other.pattern_chows = kept
        return other
