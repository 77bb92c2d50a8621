"""Rule sets: the protocol, the one engine every rule set runs on, the results and the registry.

A rule set is data plus small predicates: a fan table (``Fan`` rows: id, English and Chinese
names, points, the fans each one excludes), a frozen options record (its own hand JSON fields,
typed, with defaults and help: ``option``), and a subclass of ``TableRuleSet`` that reads a hand
into contexts and counts the fans of each. The engine (``TableRuleSet.score``) runs these steps:

0. (``score()``) ``hand_form``: the tile count the hand JSON must have and whether it names a
   win tile; ``Hand.from_json`` checks it with the rule set's ``field_defaults``.
1. ``options_of``: the hand's rule-set fields as the options record.
2. ``refusal``: a ``Refusal(code, message)`` when the rules do not score the hand at all; the
   result carries both (``error``, ``error_code``). Codes are stable snake_case constants.
3. ``choose``: every reading (``contexts``) is counted (``detect``, plus the whole-hand
   ``extras`` such as first-turn wins), the exclusions are applied once from the table
   (``FanTable.apply``), ``empty_fan`` stands in when nothing is left (without one, a reading
   with no fan does not win), and the reading of highest ``value`` is kept (``tie_break``
   between equals); app-custom keeps the lowest with wilds. No reading: ``not_winning``.
4. ``rows`` (the chosen reading's result rows), then ``flower_fans`` (added to the total, never
   toward the minimum), then ``final_rows`` (rows acting on the whole total).
5. ``minimum_for`` and ``details`` (payments, base points) complete the ``ScoreResult``.

Exclusions (``FanTable.apply``): fans are visited in table order (highest points first); a fan
still present removes every fan it excludes. A fan that was removed excludes nothing, so
"A excludes B, B excludes C" leaves C unless A lists it too (write implied exclusions out).

How to add a rule set (for example Sichuan):

1. Create a package ``scoring/sichuan/`` with ``fans.py`` (a tuple of ``Fan`` rows in table
   order), its options record (a frozen dataclass of its hand fields, each an
   ``option(default, help)``, subclassing ``fanscan.scoring.common.SeatOptions`` for the shared
   ``dealer`` and ``first_turn``) and a module defining a subclass of ``TableRuleSet`` (set
   ``name``, ``title``, ``minimum``, ``hand_size``, ``table``, ``options_type``, ``forms``,
   ``chows``; implement ``contexts`` and ``detect`` and the hooks it needs, each refusal a
   ``Refusal`` with a code constant and a test), and an instance of it (say ``RULESET``).
   ``fanscan.scoring.decompose.readings`` gives the readings.
2. Register it in ONE place: add ``"sichuan": "fanscan.scoring.sichuan:RULESET"`` to
   ``RULESETS`` below. ``fanscan rules``, ``fanscan score --rules sichuan`` (its hand fields as
   ``--option NAME=VALUE``), ``fanscan waits`` and the ``score()`` API pick it up from there.

>>> get_ruleset("mcr").title
'Chinese Official (MCR, 国标)'
>>> get_ruleset("riichi")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fanscan.errors.FanscanError: unknown rule set 'riichi' (available: mcr, ...)
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from fanscan.scoring.decompose import FORMS
from fanscan.scoring.hand import Hand

from fanscan.errors import FanscanError, quoted

#: Rule-set name -> "module:attribute" of its RuleSet instance, imported on first use.
RULESETS: dict[str, str] = {
    "mcr": "fanscan.scoring.mcr:RULESET",
    "sichuan": "fanscan.scoring.sichuan:RULESET",
    "mingxing": "fanscan.scoring.mingxing:RULESET",
    "app-custom": "fanscan.scoring.app_custom:RULESET",
    "guobiao-plus": "fanscan.scoring.guobiao_plus:RULESET",
    "changsha": "fanscan.scoring.changsha:RULESET",
}

#: Rule-set name -> its complete hand's size (kongs counted as three), known without importing the
#: rule set (the photo reader asks every rule set's when none is named); tests hold it to each
#: rule set's own ``hand_size``.
HAND_SIZES: dict[str, int] = {name: 14 for name in RULESETS}


@dataclass(frozen=True)
class Fan:
    """One row of a fan table."""

    id: str
    name: str
    chinese: str
    points: int
    excludes: tuple[str, ...] = ()


@dataclass(frozen=True)
class FanCount:
    """A fan scored by a hand: ``count`` times ``points``."""

    name: str
    chinese: str
    points: int
    count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "chinese": self.chinese,
            "points": self.points,
            "count": self.count,
        }

    @cached_property
    def json_text(self) -> str:
        """``to_json()`` as JSON text, built once per row (a FanTable shares its rows)."""
        return _encode(self.to_json())


@dataclass(frozen=True)
class HandField:
    """An optional hand JSON field of one rule set, with its default and its CLI flag help."""

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    """The values it takes, where they are a few words (the web page offers them as a list)."""


def option(default: Any, help: str, choices: tuple[str, ...] = ()) -> Any:
    """One field of a rule set's options record.

    Its default, its help (``fanscan rules``) and, for a word from a short list, the words.
    """
    return field(default=default, metadata={"help": help, "choices": choices})


def hand_fields(options_type: type) -> tuple[HandField, ...]:
    """The hand JSON fields of an options record (a frozen dataclass made with ``option``)."""
    if options_type is NoOptions:
        return ()
    return tuple(
        HandField(f.name, f.default, f.metadata["help"], tuple(f.metadata.get("choices", ())))
        for f in dataclasses.fields(options_type)
    )


@dataclass(frozen=True)
class ScoreResult:
    """The contract's result object; ``total`` is None exactly when ``error`` says why."""

    rules: str
    total: int | None
    fans: tuple[FanCount, ...] = ()
    flower_points: int | None = 0
    minimum: int = 0
    meets_minimum: bool = False
    error: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    error_code: str | None = None  # the refusal's stable snake_case code, beside ``error``

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "rules": self.rules,
            "total": self.total,
            "fans": [f.to_json() for f in self.fans],
            "flower_points": self.flower_points,
            "minimum": self.minimum,
            "meets_minimum": self.meets_minimum,
            "error": self.error,
        }
        if self.error_code is not None:
            obj["error_code"] = self.error_code
        if self.details:
            obj["details"] = dict(self.details)
        return obj

    def json_text(self) -> str:
        """``to_json()`` as JSON text, exactly as ``json.dumps(..., ensure_ascii=False)`` writes
        it, but several times faster: the fans' texts are cached and the scalars written directly.
        """
        if self.details:
            return _encode(self.to_json())
        fans = ", ".join([fan.json_text for fan in self.fans])
        if self.error is None and self.error_code is None:  # scored: the scalars written inline
            total, flowers, minimum = self.total, self.flower_points, self.minimum
            if type(total) is int and type(flowers) is int and type(minimum) is int:
                meets = "true" if self.meets_minimum is True else _scalar(self.meets_minimum)
                return (
                    f'{{"rules": {_scalar(self.rules)}, "total": {total}, "fans": [{fans}], '
                    f'"flower_points": {flowers}, "minimum": {minimum}, '
                    f'"meets_minimum": {meets}, "error": null}}'
                )
        code = "" if self.error_code is None else f', "error_code": {_code_text(self.error_code)}'
        return (
            f'{{"rules": {_scalar(self.rules)}, "total": {_scalar(self.total)}, '
            f'"fans": [{fans}], "flower_points": {_scalar(self.flower_points)}, '
            f'"minimum": {_scalar(self.minimum)}, '
            f'"meets_minimum": {_scalar(self.meets_minimum)}, "error": {_scalar(self.error)}'
            f"{code}}}"
        )

    @classmethod
    def failed(
        cls, rules: str, minimum: int, message: str, code: str | None = None
    ) -> ScoreResult:
        """The result for a hand that cannot be scored: nothing about it is guessed."""
        return cls(rules, None, (), None, minimum, False, message, {}, code)


#: The code of a result whose tiles form no winning hand under the rule set.
NOT_WINNING = "not_winning"


class Refusal(NamedTuple):
    """Why a rule set does not score a hand: a stable snake_case ``code`` and one sentence."""

    code: str
    message: str


_encode = json.JSONEncoder(ensure_ascii=False).encode


_CODE_TEXTS: dict[str, str] = {}


def _code_text(code: str) -> str:
    """An error code as JSON text (codes are few: each is encoded once)."""
    text = _CODE_TEXTS.get(code)
    if text is None:
        text = _CODE_TEXTS[code] = _encode(code)
    return text


def _scalar(value: Any) -> str:
    """One JSON value as ``_encode`` writes it; the common ones without the encoder's set-up."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    return _encode(value)


class HandForm(NamedTuple):
    """What a rule set wants of a hand JSON: its tile count, and whether it names a win tile."""

    size: int
    win_tile: bool


class RuleSet(Protocol):
    """What the CLI, the API and the web app need from a rule set."""

    name: str
    title: str
    minimum: int
    hand_size: int
    hand_fields: tuple[HandField, ...]
    field_defaults: Mapping[str, Any]  # hand field name -> default, for Hand.from_json
    fans: tuple[Fan, ...]

    def score(self, hand: Hand) -> ScoreResult: ...

    def score_json(self, obj: Any) -> ScoreResult: ...

    def hand_form(self, obj: Mapping[str, Any]) -> HandForm: ...


class FanTable:
    """A rule set's fans in table order, with the exclusions applied from the table."""

    def __init__(self, fans: Sequence[Fan]) -> None:
        self.fans = tuple(fans)
        self.by_id = {f.id: f for f in self.fans}
        if len(self.by_id) != len(self.fans):
            raise ValueError("duplicate fan ids in the table")
        for fan in self.fans:
            for other in fan.excludes:
                if other not in self.by_id:
                    raise ValueError(f"{fan.id} excludes unknown fan {other}")
        # Fan i is bit i (table order); _keeps[i] clears fan i and the fans it excludes.
        self._bits = {f.id: 1 << i for i, f in enumerate(self.fans)}
        self._ids = tuple(f.id for f in self.fans)
        self._keeps = tuple(
            ~(1 << i | sum(self._bits[other] for other in f.excludes))
            for i, f in enumerate(self.fans)
        )
        self._points = {f.id: f.points for f in self.fans}
        # FanCount rows are immutable and a table has few (fan, count) pairs: build each once.
        self._fan_counts: dict[tuple[str, int], FanCount] = {}

    def apply(self, counts: Mapping[str, int]) -> dict[str, int]:
        """The counts left after exclusions (see the module docstring), in table order."""
        bits = self._bits
        present = 0
        for fid, count in counts.items():
            bit = bits[fid]
            if count > 0:
                present |= bit
        ids, keeps = self._ids, self._keeps
        kept: dict[str, int] = {}
        while present:  # the first fan left in table order, then what it excludes is dropped
            index = (present & -present).bit_length() - 1
            fid = ids[index]
            kept[fid] = counts[fid]
            present &= keeps[index]
        return kept

    def points(self, counts: Mapping[str, int]) -> int:
        points = self._points
        total = 0
        for fid, count in counts.items():
            total += points[fid] * count
        return total

    def fan_counts(self, counts: Mapping[str, int]) -> tuple[FanCount, ...]:
        built = self._fan_counts
        rows = []
        for key in counts.items():
            row = built.get(key)
            if row is None:
                fan = self.by_id[key[0]]
                row = built[key] = FanCount(fan.name, fan.chinese, fan.points, key[1])
            rows.append(row)
        return tuple(rows)


C = TypeVar("C")  # a rule set's reading context
O = TypeVar("O")  # noqa: E741 (a rule set's options record)


class NoOptions:
    """The options record of a rule set that has no hand fields of its own (MCR): it holds
    nothing and takes no attribute (a plain class: a dataclass costs ~1 ms of start-up).
    """

    __slots__ = ()


_NO_OPTIONS = NoOptions()
_OPTIONS_KEPT = 256  # options records kept per rule set for reuse


class Scored(Generic[C]):
    """The chosen reading of a hand: its fan counts after exclusions, their value, its context.

    A plain slotted class, not a dataclass: one is built per hand scored (and per import, a
    dataclass costs more to create than this whole module's other classes).
    """

    __slots__ = ("context", "counts", "points")

    def __init__(self, counts: dict[str, int], points: int, context: C) -> None:
        self.counts = counts
        self.points = points
        self.context = context


class TableRuleSet(Generic[C, O]):
    """The engine every rule set runs on (see the module docstring for the steps).

    Subclasses give the data (``table``, ``options_type``, the class attributes) and the
    predicates ``contexts`` and ``detect``; the hooks below have defaults that fit MCR.
    """

    name: str = ""
    title: str = ""
    minimum: int = 0
    hand_size: int = 14
    table: FanTable
    options_type: type[O] = NoOptions  # type: ignore[assignment]
    flower_fan: str | None = None  # the fan id that shows flower points, if the table has one
    empty_fan: str | None = None  # the fan a reading scores when nothing else does (无番和)
    forms: tuple[str, ...] = FORMS  # the reading forms (decompose.FORMS) this rule set accepts
    chows: bool = True  # whether chows are sets
    not_winning_message: str = (
        "the tiles form no winning hand (no reading into sets and a pair or a special hand)"
    )

    def __init__(self) -> None:
        self.hand_fields: tuple[HandField, ...] = hand_fields(self.options_type)
        self._form = HandForm(self.hand_size, True)
        # A plain dict (read, never written): Hand.from_json looks names up in it for every hand.
        self.field_defaults: Mapping[str, Any] = {f.name: f.default for f in self.hand_fields}
        self._option_names = frozenset(f.name for f in self.hand_fields)
        self._options_seen: dict[tuple[tuple[str, Any], ...], O] = {}
        self._no_options: O = _NO_OPTIONS  # type: ignore[assignment]  # only when O has no fields
        # Hooks left at their defaults are not called (scoring is hot: a call costs ~1 % of MCR's).
        kind = type(self)
        self._refuses = kind.refusal is not TableRuleSet.refusal
        self._has_extras = kind.extras is not TableRuleSet.extras
        self._values = kind.value is not TableRuleSet.value
        self._finals = kind.final_rows is not TableRuleSet.final_rows
        self._details = kind.details is not TableRuleSet.details
        self._minimums = kind.minimum_for is not TableRuleSet.minimum_for

    @property
    def fans(self) -> tuple[Fan, ...]:
        return self.table.fans

    # ---------------------------------------------------------------- what a hand must be

    def hand_form(self, obj: Mapping[str, Any]) -> HandForm:
        """The tile count the hand JSON ``obj`` must have and whether it must name its win tile
        (``hand_size`` and yes, unless a rule set's field changes them).
        """
        return self._form

    def options_of(self, hand: Hand) -> O:
        """The hand's rule-set fields as this rule set's options record (defaults filled in)."""
        if not self._option_names:
            return self._no_options
        given = hand.options
        key = tuple(given.items())
        options = self._options_seen.get(key)
        if options is None:
            # Records are frozen, so hands with the same fields share one (a few kinds recur).
            if len(self._options_seen) >= _OPTIONS_KEPT:
                self._options_seen.clear()
            names = self._option_names
            options = self.options_type(**{k: v for k, v in key if k in names})
            self._options_seen[key] = options
        return options

    # ---------------------------------------------------------------- hooks

    def refusal(self, hand: Hand, options: O) -> Refusal | None:
        """Why the hand cannot be scored under these rules at all, or None."""
        return None

    def contexts(self, hand: Hand, options: O) -> Iterable[C]:
        """One context per reading of ``hand`` (see fanscan.scoring.decompose.readings)."""
        raise NotImplementedError

    def detect(self, context: C) -> dict[str, int]:
        """The raw fan counts of one reading, before exclusions."""
        raise NotImplementedError

    def extras(self, hand: Hand, options: O) -> dict[str, int]:
        """Fans of the whole hand (first-turn wins, ...), added to every reading's raw counts."""
        return {}

    def value(self, counts: dict[str, int], context: C) -> int:
        """What a reading's counts (after exclusions) are worth: their table points by default."""
        return self.table.points(counts)

    def tie_break(self, counts: Mapping[str, int], context: C) -> tuple[int, ...]:
        """Among readings with the same value, the larger key wins (default: the first found)."""
        return ()

    def choose(self, hand: Hand, options: O) -> Scored[C] | None:
        """The reading that counts: the highest (就高不就低), or None when there is none."""
        extra = self.extras(hand, options) if self._has_extras else {}
        return self.highest(self.contexts(hand, options), extra)

    def rows(self, scored: Scored[C], hand: Hand, options: O) -> tuple[FanCount, ...]:
        """The result rows of the chosen reading."""
        return self.table.fan_counts(scored.counts)

    def flower_fans(self, hand: Hand, options: O) -> tuple[FanCount, ...]:
        """Rows for flowers, added after the reading is chosen, never toward the minimum
        (1 point each as ``flower_fan`` by default).
        """
        if not hand.flowers or self.flower_fan is None:
            return ()
        return self.table.fan_counts({self.flower_fan: len(hand.flowers)})

    def final_rows(self, total: int, hand: Hand, options: O) -> tuple[FanCount, ...]:
        """Rows that act on the whole total (app-custom's dealer doubling); none by default."""
        return ()

    def not_winning(self, hand: Hand, options: O) -> Refusal:
        """The refusal when no reading wins (``not_winning_message``)."""
        return Refusal(NOT_WINNING, self.not_winning_message)

    def minimum_for(self, options: O) -> int:
        """The minimum (flowers excluded) these options play to."""
        return self.minimum

    def details(self, scored: Scored[C], total: int, hand: Hand, options: O) -> dict[str, Any]:
        """The result's ``details`` (payments, base points); none by default."""
        return {}

    # ---------------------------------------------------------------- the engine

    def counted(self, context: C, extra: dict[str, int]) -> dict[str, int]:
        """One reading's fan counts after exclusions ({} when it does not win)."""
        raw = self.detect(context)
        if extra:
            raw = {**raw, **extra}
        counts = self.table.apply(raw)
        if not counts and self.empty_fan is not None:
            return {self.empty_fan: 1}
        return counts

    def highest(self, contexts: Iterable[C], extra: dict[str, int]) -> Scored[C] | None:
        """The reading of highest value, ties broken by ``tie_break``."""
        best: tuple[dict[str, int], int, C] | None = None
        # ``counted`` and ``value`` written out: this loop runs for every reading of every hand;
        # ``tie_break`` is asked only between equal values.
        detect, apply, points_of = self.detect, self.table.apply, self.table.points
        empty = self.empty_fan
        value = self.value if self._values else None
        tie_break = self.tie_break
        for context in contexts:
            raw = detect(context)
            if extra:
                raw = {**raw, **extra}
            counts = apply(raw)
            if not counts:
                if empty is None:
                    continue  # no fan and no empty_fan: this reading does not win
                counts = {empty: 1}
            points = points_of(counts) if value is None else value(counts, context)
            if (
                best is None
                or points > best[1]
                or (
                    points == best[1]
                    and tie_break(counts, context) > tie_break(best[0], best[2])
                )
            ):
                best = (counts, points, context)
        return None if best is None else Scored(*best)

    def lowest(self, contexts: Iterable[C], extra: dict[str, int]) -> Scored[C] | None:
        """The reading of lowest value (the first found among equals)."""
        low: tuple[dict[str, int], int, C] | None = None
        for context in contexts:
            counts = self.counted(context, extra)
            if not counts:
                continue
            points = self.value(counts, context)
            if low is None or points < low[1]:
                low = (counts, points, context)
        return None if low is None else Scored(*low)

    def score_json(self, obj: Any) -> ScoreResult:
        """Check a hand JSON object (``Hand.from_json``, with ``hand_form``) and score it; a bad
        hand object gives a result with ``error``.
        """
        try:
            form = self.hand_form(obj)
            hand = Hand.from_json(
                obj, extra_fields=self.field_defaults, size=form.size, win_tile=form.win_tile
            )
        except FanscanError as error:
            return ScoreResult.failed(self.name, self.minimum, error.message, error.code)
        return self.score(hand)

    def score(self, hand: Hand) -> ScoreResult:
        options = self.options_of(hand) if self._option_names else self._no_options
        minimum = self.minimum_for(options) if self._minimums else self.minimum
        refused = self.refusal(hand, options) if self._refuses else None
        if refused is not None:
            return ScoreResult.failed(self.name, minimum, refused.message, refused.code)
        scored = self.choose(hand, options)
        if scored is None:
            refused = self.not_winning(hand, options)
            return ScoreResult.failed(self.name, minimum, refused.message, refused.code)
        fans = self.rows(scored, hand, options)
        flowers = self.flower_fans(hand, options)
        flower_points = 0
        for row in flowers:
            flower_points += row.points * row.count
        total = scored.points + flower_points
        if flowers:
            fans += flowers
        if self._finals:
            final = self.final_rows(total, hand, options)
            for row in final:
                total += row.points * row.count
            fans += final
        return ScoreResult(
            self.name,
            total,
            fans,
            flower_points,
            minimum,
            scored.points >= minimum,
            None,
            self.details(scored, total, hand, options) if self._details else {},
        )


_LOADED: dict[str, RuleSet] = {}


def available() -> list[str]:
    """The registered rule-set names."""
    return list(RULESETS)


def get_ruleset(name: str) -> RuleSet:
    """The rule set registered as ``name``; FanscanError if there is none."""
    if name in _LOADED:
        return _LOADED[name]
    target = RULESETS.get(name)
    if target is None:
        raise FanscanError(
            "unknown_rules", f"unknown rule set {quoted(name)} (available: {', '.join(RULESETS)})"
        )
    module_name, attribute = target.split(":")
    ruleset: RuleSet = getattr(importlib.import_module(module_name), attribute)
    _LOADED[name] = ruleset
    return ruleset


def extra_field_defaults(ruleset: RuleSet) -> Mapping[str, Any]:
    """The rule set's own hand fields and their defaults, for ``Hand.from_json``."""
    return ruleset.field_defaults


def score(hand: Hand | Mapping[str, Any], rules: str = "mcr") -> ScoreResult:
    """Score a Hand or a hand JSON object; a bad hand object gives a result with ``error``."""
    ruleset = get_ruleset(rules)
    if not isinstance(hand, Hand):  # Hand.from_json refuses what is not a JSON object
        return ruleset.score_json(hand)
    try:
        form = ruleset.hand_form(hand.to_json())
        hand.check(form.size, win_tile=form.win_tile)
    except FanscanError as error:
        return ScoreResult.failed(ruleset.name, ruleset.minimum, error.message, error.code)
    return ruleset.score(hand)
