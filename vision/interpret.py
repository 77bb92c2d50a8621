"""The reading search: the likeliest readings of the hand's boxes that a mahjong hand can be.

Every box found in the hand is a candidate with options: each face it may show, or no tile at
all. An option's cost is its negative log probability under the fitted evidence
(``vision.evidence``: the box's probability of being a tile, and the face's calibrated probability
against the likeliest face's, so that a tile whose face is in doubt is still surely a tile),
counted from the candidate's likeliest option, so the reading as the classifier read it costs
nothing. A reading (one option per candidate) also pays the layout's costs: a claimed group that is
no set, a group with a back that is no concealed kong, a back in no concealed kong, a flower
inside a group of suit tiles or at its end. The search:

1. ``box_options.options``: each candidate's options, cheapest first, none dearer than the
   mending budget (leaving out a box that shares its tile with another costs only its margin
   over that twin).
2. Readings are taken in order of their options' total cost (best-first: each reading has at
   most three successors, none cheaper, and is reached from one reading only, so the queue grows
   with the readings tried, not with the boxes).
3. A reading that costs, layout included, more than the mending budget (the evidence's
   ``max_cost``) beyond the reading as made is never taken.
   Each reading must respect the copies a set holds (hard: four of a face, one of each flower);
   those that do are laid out (``layout.analyse``, on the rows the boxes make) and must then be a
   hand of the rule set's sizes (``HandRules``): complete when the hand is declared a win,
   waiting (one tile short and some tile completes it) when declared waiting, anything when any.
4. The search stops once no untried reading can be cheaper than the ``n_best``-th found, or its
   budget of layouts is spent; it returns the readings found, best first. When none satisfies
   the hand's rules, the best reading that respects the copies is returned, marked not
   ``satisfied``, so the doubts say what is wrong; when none within the mending budget respects
   them either, the one that breaks them least (the cheapest of those).

What a reading changed (a face other than the classifier's first guess, a box left out) and the
margin to the next reading become the doubts the reader reports.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision import layout
from fanscan.vision.box_options import options
from fanscan.vision.detections import HandLayout, TileReading
from fanscan.vision.evidence import Evidence, load_evidence
from fanscan.vision.hand_rules import HandRules, copies_allowed, hand_rules, satisfies, unread_kongs
from fanscan.vision.hand_region import kept_twin, on_one_tile
from fanscan.vision.layout_events import EVENT_REASONS, layout_cost, layout_events, rows_without


_FLOWERS = frozenset(FLOWER_CODES)
MAX_LAYOUTS = 300
"""At most this many readings are laid out per photo (each costs a layout and a decomposition):
the bound on a read's time, not a tuning knob (the search is exact within it)."""
MAX_TRIED = 5_000
"""...and at most this many readings looked at (most break the copies a set holds and cost no layout);
``MAX_TRIED_NO_SIZE`` when no reading within the budget can have the rules' sizes (a photo of more
tiles than a hand: then only the copies a set holds are asked for)."""
MAX_TRIED_NO_SIZE = 500
ALTERNATIVES_WITHIN = math.log(10)
"""Once the best reading is found, others are looked for only while they can be at least a tenth
as likely (nats): what the reader offers as alternatives and weighs its doubts by."""


@dataclass(frozen=True)
class Change:
    """Candidate ``index`` (of the search's input) was read ``read`` but is taken as ``taken``
    (None: no tile), because ``reason``."""

    index: int
    read: str
    read_confidence: float
    taken: str | None
    taken_confidence: float
    reason: str


@dataclass(frozen=True)
class Interpretation:
    """One reading of the hand: the tiles kept (their chosen faces), their rows and layout."""

    readings: list[TileReading]
    kept: tuple[int, ...]
    """Which of the search's input each kept reading is."""
    rows: list[list[list[int]]]
    layout: HandLayout
    cost: float
    satisfied: bool
    """Whether the hand is what the rules ask (complete, waiting); False for a fallback."""
    events: Counter[str]
    """The layout events it shows (``layout_events``)."""
    ranks: tuple[int, ...] = ()
    changes: tuple[Change, ...] = ()


def _may_have_a_size(tally: _Tally, rules: HandRules) -> bool:
    """Whether tiles with these faces could lay out as a hand of the rules' sizes: ``n`` tiles that
    are no flower count ``n`` less one for each kong (at most four) and each back outside one."""
    if rules.kind == "any":
        return True
    most, least = tally.playing, tally.playing - tally.counts.get(BACK, 0) - 4
    return any(least <= size - (rules.kind == "waiting") <= most for size in rules.sizes)


@dataclass(frozen=True)
class _Tally:
    """A reading's faces counted: how many of each, how many copies beyond what a set holds, and
    how many tiles that are no flower."""

    counts: dict[str, int]  # a plain dict: the search copies one for every reading it tries
    excess: int
    playing: int

    @staticmethod
    def of(codes: list[str | None]) -> _Tally:
        counts = dict(Counter(c for c in codes if c is not None))
        return _Tally(counts, sum(max(0, k - copies_allowed(code)) for code, k in counts.items()),
                      sum(k for code, k in counts.items() if code not in _FLOWERS))

    def changed(self, faces: list[tuple[str | None, str | None]]) -> _Tally:
        """The tally with each (before, after) box's face ``before`` read as ``after`` (None: no
        tile)."""
        counts, excess, playing = self.counts.copy(), self.excess, self.playing
        for before, after in faces:
            for code, step in ((before, -1), (after, 1)):
                if code is None:
                    continue
                allowed = copies_allowed(code)
                held = counts.get(code, 0)
                excess += max(0, held + step - allowed) - max(0, held - allowed)
                counts[code] = held + step
                playing += step * (code not in _FLOWERS)
        return _Tally(counts, excess, playing)


class _Search:
    """One photo's search (see the module's overview)."""

    def __init__(self, readings: list[TileReading], right: np.ndarray, up: np.ndarray,
                 rows: list[list[list[int]]], image_size: tuple[int, int], rules: HandRules,
                 evidence: Evidence, most_layouts: int = MAX_LAYOUTS) -> None:
        self.readings, self.right, self.up, self.rows = readings, right, up, rows
        self.most_layouts = most_layouts
        self.rules, self.evidence = rules, evidence
        self._one_tile = on_one_tile(readings)  # of two boxes on one tile, one is kept at most
        self.options = options(readings, image_size, evidence, evidence.layout.max_cost, self._one_tile)
        self.layouts = 0
        self._changeable = [i for i, opts in enumerate(self.options) if len(opts) > 1]
        self._first_codes = [opts[0].code for opts in self.options]
        self._first_tally = _Tally.of(self._first_codes)
        self._seen: dict[tuple[str | None, ...], tuple[float, Interpretation | None]] = {}

    def _ranks(self, changed: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """Every box's option rank, from the changed boxes' places in the search's order and
        their ranks."""
        ranks = [0] * len(self.options)
        for place, rank in changed:
            ranks[self._order[place]] = rank
        return tuple(ranks)

    def _both_kept(self, changed: tuple[tuple[int, int], ...]) -> int:
        """How many pairs of boxes on one tile a reading keeps both of."""
        rank = {self._order[place]: rank for place, rank in changed}  # the others take their first option

        def kept(box: int) -> bool:
            return self.options[box][rank.get(box, 0)].code is not None

        return sum(kept(i) and kept(j) for i, j in self._one_tile)

    def _both_left_out(self, changed: tuple[tuple[int, int], ...]) -> float:
        """What a reading that leaves out both boxes of a tile owes beyond its options' costs:
        each was made cheap to leave out for its twin's sake (``options``), and together they
        must cost what leaving out the likelier tile alone does."""
        rank = {self._order[place]: rank for place, rank in changed}
        owed = 0.0
        for i, j in self._one_tile:
            a, b = self.options[i][rank.get(i, 0)], self.options[j][rank.get(j, 0)]
            if a.code is None and b.code is None:
                owed += max(0.0, max(a.alone, b.alone) - a.cost - b.cost)
        return owed

    def _interpretation(self, ranks: tuple[int, ...], cost: float) -> Interpretation:
        kept = tuple(i for i, opts in enumerate(self.options) if opts[ranks[i]].code is not None)
        dropped = set(range(len(self.readings))) - set(kept)
        chosen = [self.options[i][ranks[i]] for i in kept]
        trial = [replace(self.readings[i], code=o.code, confidence=o.probability)
                 if o.code != self.readings[i].code else self.readings[i] for i, o in zip(kept, chosen)]
        rows = rows_without(self.rows, dropped) if dropped else self.rows
        hand_layout = layout.analyse(trial, self.right, self.up, rows, complete=self.rules.kind == "win")
        events = layout_events(trial, hand_layout, rows)
        allowed = satisfies(hand_layout.hand, self.rules, unread_kongs(hand_layout.groups), events["stray_back"])
        return Interpretation(trial, kept, rows, hand_layout, cost + layout_cost(events, self.evidence),
                              allowed, events, ranks)

    def _with_changes(self, reading: Interpretation, as_read: Interpretation | None) -> Interpretation:
        """The reading with what it changed from the tiles as read, each with why."""
        read = Counter(r.code for r in self.readings)
        kept = set(reading.kept)
        out = []
        for i, (opts, k) in enumerate(zip(self.options, reading.ranks)):
            option, tile = opts[k], self.readings[i]
            if option.code == tile.code:
                continue
            fewer = [name for name, n in (as_read.events if as_read else Counter()).items() if reading.events[name] < n]
            twin = kept_twin(self._one_tile, i, kept)
            if option.code is None and k == 0:
                reason = f"it is more likely no tile ({option.probability:.0%}) than a tile"
            elif option.code is None and twin is not None:
                reason = f"another box on the same tile reads it as {self.options[twin][reading.ranks[twin]].code}"
            elif option.code is None and as_read is not None and as_read.satisfied:
                why = f"{EVENT_REASONS[fewer[0]]}, and " if fewer else ""
                reason = f"{why}it may be no tile ({option.probability:.0%})"
            elif option.code is None:
                reason = f"the hand is possible only without it (no tile at {option.probability:.0%})"
            elif read[tile.code] > copies_allowed(tile.code):
                limit = copies_allowed(tile.code)
                reason = f"a set has only {limit if limit > 1 else 'one'} {tile.code}"
            elif reading.satisfied and not (as_read and as_read.satisfied) and self.rules.kind != "any":
                reason = "that completes the hand" if self.rules.kind == "win" else "that makes a waiting hand"
            elif fewer:
                reason = EVENT_REASONS[fewer[0]]
            else:
                reason = "that makes the hand likelier"
            out.append(Change(i, tile.code, tile.confidence, option.code, option.probability, reason))
        return replace(reading, changes=tuple(out))

    def _sizes_reachable(self) -> bool:
        """Whether some reading within the budget may have a size the rules allow: the cheapest
        way to gain or lose enough playing tiles (a box taken as no tile or a flower, or the
        reverse) must fit the budget (counts as in ``_may_have_a_size``)."""
        if self.rules.kind == "any":
            return True
        budget = self.evidence.layout.max_cost

        def plays(code: str | None) -> bool:
            return code is not None and code not in _FLOWERS

        first = [opts[0].code for opts in self.options]
        n = sum(plays(c) for c in first)
        backs = sum(c == BACK for c in first)
        lose = sorted(min((o.cost for o in opts if not plays(o.code)), default=math.inf)
                      for opts, c in zip(self.options, first) if plays(c))
        gain = sorted(min((o.cost for o in opts if plays(o.code)), default=math.inf)
                      for opts, c in zip(self.options, first) if not plays(c))
        for size in self.rules.sizes:
            target = size - (self.rules.kind == "waiting")
            too_many = n - backs - 4 - target  # tiles to lose even with four kongs and every back apart
            too_few = target - n
            if too_many > 0 and (too_many > len(lose) or sum(lose[:too_many]) > budget):
                continue
            if too_few > 0 and (too_few > len(gain) or sum(gain[:too_few]) > budget):
                continue
            return True
        return False

    def _queue_successors(self, heap: list, cost: float, changed: tuple[tuple[int, int], ...], tally: _Tally,
                          budget: float) -> None:
        """Queue a reading's successors within the budget (see ``run``)."""
        order, first_step = self._order, self._first_step
        place, rank = changed[-1] if changed else (-1, 0)
        successors = []
        if changed and rank + 1 < len(self.options[order[place]]):
            box_options = self.options[order[place]]
            successors.append((cost + box_options[rank + 1].cost - box_options[rank].cost,
                               (*changed[:-1], (place, rank + 1)), ((order[place], rank, rank + 1),)))
        if place + 1 < len(order):
            after = place + 1
            successors.append((cost + first_step[after], (*changed, (after, 1)), ((order[after], 0, 1),)))
            if changed and rank == 1:
                successors.append((cost - first_step[place] + first_step[after], (*changed[:-1], (after, 1)),
                                   ((order[place], 1, 0), (order[after], 0, 1))))
        for child_cost, child, child_steps in successors:
            if child_cost <= budget:
                heapq.heappush(heap, (child_cost, child, tally, child_steps, 0.0))

    def run(self, n_best: int) -> list[Interpretation]:
        n = len(self.options)
        start = (0,) * n
        as_read = self._interpretation(start, 0.0)
        self.layouts += 1
        self._as_read_cost = as_read.cost  # the layout's own cost as the tiles were read
        budget = self.evidence.layout.max_cost
        found: list[Interpretation] = []
        fallback: Interpretation | None = None
        least_excess: tuple[int, tuple[int, ...], float] | None = None  # when no reading respects the copies
        tried = 0
        most_tried = MAX_TRIED
        if not self._sizes_reachable():
            # Only the copies a set holds can be asked for, and only a tile whose face is read
            # more often than a set holds it can mend that by changing.
            most_tried = MAX_TRIED_NO_SIZE
            over = {code for code, k in self._first_tally.counts.items() if k > copies_allowed(code)}
            on_one_tile = {i for pair in self._one_tile for i in pair}
            self._changeable = [j for j in self._changeable if self._first_codes[j] in over or j in on_one_tile]
        # The boxes that may change, cheapest first change first. A reading is the boxes changed
        # from their likeliest option, as (place in this order, rank) pairs in order; it has at
        # most three successors, none cheaper than itself: the last changed box's next option
        # (raise), the next box changed too (add), or the next box changed instead of the last,
        # when that took its second option (move). Every reading is reached once, so the queue
        # grows by at most three a reading tried; none dearer than the budget joins it.
        order = sorted(self._changeable, key=lambda j: (self.options[j][1].cost - self.options[j][0].cost, j))
        self._first_step = [self.options[j][1].cost - self.options[j][0].cost for j in order]
        self._order = order
        # Each entry: cost, the reading, its parent's tally, the (box, rank before, rank after)
        # steps that made it from the parent, and what the reading owes beyond its options'
        # cost (``_both_left_out``: its successors are queued from its options' cost when it is
        # first taken; it is then queued again with the debt added).
        heap: list[tuple[float, tuple[tuple[int, int], ...], _Tally | None, tuple[tuple[int, int, int], ...], float]] = [
            (0.0, (), None, (), 0.0)]
        while heap and self.layouts < self.most_layouts and tried < most_tried:
            cost, changed, parents, steps, owed = heapq.heappop(heap)
            tried += 1
            if found and (cost > found[0].cost + ALTERNATIVES_WITHIN
                          or (len(found) >= n_best and cost > found[n_best - 1].cost)):
                break
            tally = self._first_tally if parents is None else parents.changed(
                [(self.options[box][was].code, self.options[box][now].code) for box, was, now in steps])
            if not owed:
                self._queue_successors(heap, cost, changed, tally, budget)
                owed = self._both_left_out(changed) if self._one_tile and changed else 0.0
                if owed:
                    if cost + owed <= budget:
                        heapq.heappush(heap, (cost + owed, changed, parents, steps, owed))
                    continue
            broken = tally.excess + (self._both_kept(changed) if self._one_tile else 0)
            if broken:
                if least_excess is None or broken < least_excess[0]:
                    least_excess = (broken, self._ranks(changed), cost)
                continue
            if fallback is not None and not _may_have_a_size(tally, self.rules):
                continue  # no layout of these tiles can be a hand of the rules' sizes
            if not changed:
                reading = as_read  # laid out before the search began
            else:
                self.layouts += 1
                reading = self._interpretation(self._ranks(changed), cost)
            if fallback is None:
                fallback = reading
            if reading.satisfied and reading.cost <= self._as_read_cost + budget:
                found.append(reading)
                found.sort(key=lambda r: r.cost)
        if fallback is None and least_excess is not None:  # the copies broken as little as the budget allows
            fallback = self._interpretation(least_excess[1], least_excess[2])
        best = found[:n_best] or ([fallback] if fallback is not None else [])
        return [self._with_changes(r, as_read) for r in best]


def interpret(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
              rows: list[list[list[int]]], image_size: tuple[int, int],
              rules: HandRules | None = None, evidence: Evidence | None = None,
              n_best: int = 3, most_layouts: int = MAX_LAYOUTS) -> list[Interpretation]:
    """The ``n_best`` likeliest readings of the hand's ``readings`` that ``rules`` allow (every
    rule set's complete hands by default), best first; or the likeliest that respects the copies
    a set holds, not ``satisfied``, when none does within the search's budget (``most_layouts``
    readings laid out at most)."""
    if not readings:
        return []
    search = _Search(readings, right, up, rows, image_size, rules or hand_rules(), evidence or load_evidence(),
                     most_layouts)
    found = search.run(n_best)
    if not found:  # no reading respects the copies within the budget: the tiles as read
        plain = layout.analyse(readings, right, up, rows)
        found = [Interpretation(list(readings), tuple(range(len(readings))), rows, plain, 0.0, False,
                                layout_events(readings, plain, rows))]
    return found


@dataclass(frozen=True)
class HandRead:
    """The readings kept as a hand, their layout, the changes the search made (indices into the
    kept readings), the boxes left out as no tile, each with why, and the other readings found."""

    readings: list[TileReading]
    rows: list[list[list[int]]]
    """The readings' rows of groups as the boxes lie (``geometry.rows_and_groups``)."""
    layout: HandLayout
    corrections: list[Change]
    left_out: list[tuple[TileReading, str]]
    best: Interpretation | None = None
    runners_up: list[Interpretation] = field(default_factory=list)


def read_hand(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
               rows: list[list[list[int]]], image_size: tuple[int, int],
               rules: HandRules | None = None, most_layouts: int = MAX_LAYOUTS) -> HandRead:
    """The likeliest reading of the hand's boxes that the rules allow, as the reader reports it:
    the changes indexed by the kept tiles, the boxes left out with why, the runners-up."""
    found = interpret(readings, right, up, rows, image_size, rules, most_layouts=most_layouts)
    best = found[0]
    position = {i: k for k, i in enumerate(best.kept)}
    corrections = [replace(c, index=position[c.index]) for c in best.changes if c.taken is not None]
    left_out = [(readings[c.index], c.reason) for c in best.changes if c.taken is None]
    return HandRead(best.readings, best.rows, best.layout, corrections, left_out, best, found[1:])
