"""What the MCR detectors look at: facts about the whole hand and about one reading of it.

``HandFacts`` is computed once per hand (tile counts, win conditions, the wait); ``Context`` adds
one reading (its chows, pungs and pair as tile indices 0-33). Tiles are plain ints here because
the detectors run for every reading of every hand; ``Tile(i)`` gives the face back.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

from fanscan.scoring.decompose import Group, Reading, Split, completing_tiles, meld_group
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import Tile


class Conditions(NamedTuple):
    """What a hand's facts need beside its tiles: the win tile (index), how it was won, the
    seat and prevalent winds (indices) and the number of flowers.
    """

    win: int
    self_drawn: bool
    kong: bool
    last_tile: bool
    fourth_tile: bool
    seat: int
    prevalent: int
    flowers: int


class HandFacts:
    """Per-hand facts shared by all readings; ``cache`` keeps per-hand detector results.

    ``standing`` counts the concealed tiles (34 slots), ``counts`` all tiles held (kongs as four);
    ``mask`` has bit ``i`` set when tile ``i`` is in the hand, so that the whole-hand detectors
    test a property of every tile with one ``&`` against a mask of the tiles that have it.
    ``melds`` are the declared melds' Groups, ``melded_chows`` / ``melded_pungs`` their lowest
    tiles. Built from a ``Hand`` (``of_hand``) or straight from a hand JSON object (hand_json.py).
    """

    __slots__ = (
        "_unique_wait",
        "cache",
        "concealed_kongs",
        "counts",
        "exposed",
        "flowers",
        "fourth_tile",
        "kong_win",
        "kongs",
        "last_tile",
        "mask",
        "melded_chows",
        "melded_kongs",
        "melded_pungs",
        "melds",
        "prevalent",
        "seat",
        "self_drawn",
        "standing",
        "win",
    )

    def __init__(
        self, standing: list[int], counts: list[int], mask: int, melds: tuple[Group, ...],
        conditions: Conditions,
    ) -> None:
        self.standing = standing
        self.counts = counts
        self.mask = mask
        self.melds = melds
        (win, self.self_drawn, self.kong_win, self.last_tile, fourth_tile, self.seat,
         self.prevalent, self.flowers) = conditions
        self.win = win
        # The other three copies in the hand's own melds make the win tile the last one (和绝张).
        self.fourth_tile = fourth_tile or counts[win] - standing[win] == 3
        chows: list[int] = []
        pungs: list[int] = []
        exposed = melded_kongs = concealed_kongs = 0
        for kind, tile, _, concealed in melds:
            if kind == "chow":
                chows.append(tile)
            else:
                pungs.append(tile)
            if not concealed:
                exposed += 1
            if kind == "kong":
                if concealed:
                    concealed_kongs += 1
                else:
                    melded_kongs += 1
        self.melded_chows = tuple(chows)
        self.melded_pungs = tuple(pungs)
        self.exposed = exposed
        self.kongs = melded_kongs + concealed_kongs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.cache: dict[Any, Any] = {}
        self._unique_wait: bool | None = None

    @classmethod
    def of_hand(cls, hand: Hand) -> HandFacts:
        """The facts of a checked complete hand."""
        assert hand.win_tile is not None
        standing = [0] * 34
        mask = 0
        for tile in hand.concealed:
            standing[tile] += 1
            mask |= 1 << tile
        counts = standing.copy()
        for meld in hand.melds:
            for tile in meld.tiles:
                counts[tile] += 1
                mask |= 1 << tile
        return cls(
            standing,
            counts,
            mask,
            tuple(map(meld_group, hand.melds)),
            Conditions(
                int(hand.win_tile), hand.self_drawn, hand.kong, hand.last_tile, hand.fourth_tile,
                int(hand.seat_wind), int(hand.round_wind), len(hand.flowers),
            ),
        )

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
            self._unique_wait = waits_on_one(self.standing, self.win, seven_pairs=not self.melds)
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

    ``chows`` and ``pungs`` (kongs included) are sorted lowest tiles, ``pair`` the pair's tile or
    -1, ``concealed_chows`` the chows of standing tiles. ``pattern_chows`` are the chows that take
    part in the chow patterns (一般高, 喜相逢, 花龙, 三步高 ...): all of them, except in app-custom,
    where a chow holding a wild tile that could be more than one chow takes part in none
    (``without_chows``). A standard reading's ``Reading`` is built only when asked for.
    """

    __slots__ = (
        "_reading",
        "_split",
        "chows",
        "concealed_chows",
        "concealed_pungs",
        "form",
        "hand",
        "pair",
        "pattern_chows",
        "pungs",
    )

    def __init__(
        self,
        facts: HandFacts,
        form: str,
        split: Split | None = None,
        reading: Reading | None = None,
    ) -> None:
        """A context of ``split`` (a standard reading's concealed sets and pair, beside the
        hand's melds), of ``reading`` (any other form), or of neither (nine gates).
        """
        self.hand = facts
        self.form = form
        self._reading = reading
        self._split = split  # to build the Reading of a standard reading when asked for
        if split is None and reading is not None:
            split = _split_of(reading)
        if split is None:
            none: tuple[int, ...] = ()
            self.chows = self.pattern_chows = self.pungs = self.concealed_chows = none
            self.pair = -1
            self.concealed_pungs = 0
            return
        chows = split.chows
        if facts.melded_chows:
            chows = tuple(sorted(chows + facts.melded_chows))
        pungs = split.pungs
        if facts.melded_pungs:
            pungs = tuple(sorted(pungs + facts.melded_pungs))
        self.chows = self.pattern_chows = chows
        self.pungs = pungs
        self.concealed_chows = split.chows
        self.pair = split.pair
        standing, win = split.pungs, facts.win
        concealed_pungs = len(standing)
        if (
            not facts.self_drawn
            and win in standing
            and not any(c <= win <= c + 2 for c in split.chows)
        ):
            # Won on a discard that can only complete this pung: the pung is exposed.
            concealed_pungs -= 1
        self.concealed_pungs = concealed_pungs

    @property
    def reading(self) -> Reading | None:
        """The reading itself (None for nine gates)."""
        if self._reading is None and self._split is not None:
            groups = self.hand.melds + self._split.groups()
            self._reading = Reading("standard", groups, Tile(self.pair))
        return self._reading

    def without_chows(self, free: tuple[int, ...]) -> Context:
        """A copy whose ``pattern_chows`` leave out the chows ``free`` (lowest tiles)."""
        other = copy.copy(self)
        kept: list[int] = list(self.chows)
        for low in free:
            kept.remove(low)
        other.pattern_chows = tuple(kept)
        return other


def _split_of(reading: Reading) -> Split:
    """The standing sets and pair of a reading's groups (the melds' groups are left out)."""
    chows: list[int] = []
    pungs: list[int] = []
    for kind, tile, declared, _ in reading.groups:
        if not declared:
            (chows if kind == "chow" else pungs).append(int(tile))
    pair = -1 if reading.pair is None else int(reading.pair)
    return Split((), pair, tuple(sorted(chows)), tuple(sorted(pungs)))
