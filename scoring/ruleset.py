"""Rule sets: the protocol, the generic table-driven engine, the results and the registry.

A rule set is a fan table (``Fan`` rows: id, English and Chinese names, points, the fans each one
excludes) plus small predicates that count fans on one reading of a hand. The engine
(``TableRuleSet.score``) reads the hand every way its ``forms`` allow, counts the fans of each
reading, applies the exclusions once from the table, keeps the best reading and adds flowers.

Exclusions (``FanTable.apply``): fans are visited in table order (highest points first); a fan
still present removes every fan it excludes. A fan that was removed excludes nothing, so
"A excludes B, B excludes C" leaves C unless A lists it too (write implied exclusions out).

How to add a rule set (for example Sichuan):

1. Create a package ``scoring/sichuan/`` with ``fans.py`` (a tuple of ``Fan`` rows in table
   order) and a module defining a subclass of ``TableRuleSet`` (set ``name``, ``title``,
   ``minimum``, ``hand_size``, ``forms``, ``chows``, ``hand_fields`` for the extra hand JSON fields
   with their defaults and help, and implement ``contexts`` and ``detect``), and an instance of it
   (say ``RULESET``). ``fanscan.scoring.decompose.readings`` gives the readings.
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

import importlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

from fanscan.scoring.decompose import FORMS
from fanscan.scoring.hand import Hand

from fanscan.errors import FanscanError

#: Rule-set name -> "module:attribute" of its RuleSet instance, imported on first use.
RULESETS: dict[str, str] = {
    "mcr": "fanscan.scoring.mcr:RULESET",
    "sichuan": "fanscan.scoring.sichuan:RULESET",
    "mingxing": "fanscan.scoring.mingxing:RULESET",
    "app-custom": "fanscan.scoring.app_custom:RULESET",
    "guobiao-plus": "fanscan.scoring.guobiao_plus:RULESET",
    "changsha": "fanscan.scoring.changsha:RULESET",
}


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
        return (
            f'{{"rules": {_scalar(self.rules)}, "total": {_scalar(self.total)}, '
            f'"fans": [{fans}], "flower_points": {_scalar(self.flower_points)}, '
            f'"minimum": {_scalar(self.minimum)}, '
            f'"meets_minimum": {_scalar(self.meets_minimum)}, "error": {_scalar(self.error)}}}'
        )

    @classmethod
    def failed(cls, rules: str, minimum: int, message: str) -> ScoreResult:
        """The result for a hand that cannot be scored: nothing about it is guessed."""
        return cls(rules, None, (), None, minimum, False, message)


_encode = json.JSONEncoder(ensure_ascii=False).encode


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


class RuleSet(Protocol):
    """What the CLI, the API and the web app need from a rule set."""

    name: str
    title: str
    minimum: int
    hand_size: int
    hand_fields: tuple[HandField, ...]
    fans: tuple[Fan, ...]

    def score(self, hand: Hand) -> ScoreResult: ...


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
        self._order = {f.id: i for i, f in enumerate(self.fans)}
        self._excludes = {f.id: f.excludes for f in self.fans}
        self._points = {f.id: f.points for f in self.fans}
        # FanCount rows are immutable and a table has few (fan, count) pairs: build each once.
        self._fan_counts: dict[tuple[str, int], FanCount] = {}

    def apply(self, counts: Mapping[str, int]) -> dict[str, int]:
        """The counts left after exclusions (see the module docstring), in table order."""
        excludes = self._excludes
        removed: set[str] = set()
        kept: dict[str, int] = {}
        for fid in sorted(counts, key=self._order.__getitem__):
            count = counts[fid]
            if count > 0 and fid not in removed:
                kept[fid] = count
                removed.update(excludes[fid])
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


C = TypeVar("C")


class TableRuleSet(Generic[C]):
    """The generic engine: subclasses give the table, the readings' contexts and the predicates."""

    name: str = ""
    title: str = ""
    minimum: int = 0
    hand_size: int = 14
    hand_fields: tuple[HandField, ...] = ()
    table: FanTable
    flower_fan: str | None = None  # the fan id that shows flower points, if the table has one
    forms: tuple[str, ...] = FORMS  # the reading forms (decompose.FORMS) this rule set accepts
    chows: bool = True  # whether chows are sets

    @property
    def fans(self) -> tuple[Fan, ...]:
        return self.table.fans

    def contexts(self, hand: Hand) -> Iterable[C]:
        """One context per reading of ``hand`` (see fanscan.scoring.decompose.readings)."""
        raise NotImplementedError

    def detect(self, context: C) -> dict[str, int]:
        """The raw fan counts of one reading, before exclusions."""
        raise NotImplementedError

    def tie_break(self, counts: Mapping[str, int], context: C) -> tuple[int, ...]:
        """Among readings with the same total, the larger key wins (default: the first found)."""
        return ()

    def flower_points(self, hand: Hand) -> int:
        """Points for flowers, added after the best reading is chosen (1 each by default)."""
        return len(hand.flowers)

    def not_winning(self, hand: Hand) -> str:
        return "the tiles form no winning hand (no reading into sets and a pair or a special hand)"

    def best(self, hand: Hand) -> tuple[dict[str, int], int, C] | None:
        """The best reading's counts after exclusions, its points and its context (or None)."""
        best: tuple[dict[str, int], int, C] | None = None
        best_key: tuple[int, ...] = ()
        table = self.table
        for context in self.contexts(hand):
            counts = table.apply(self.detect(context))
            points = table.points(counts)
            key = (points, *self.tie_break(counts, context))
            if best is None or key > best_key:
                best, best_key = (counts, points, context), key
        return best

    def score(self, hand: Hand) -> ScoreResult:
        best = self.best(hand)
        if best is None:
            return ScoreResult.failed(self.name, self.minimum, self.not_winning(hand))
        counts, points, _ = best
        flowers = self.flower_points(hand)
        fans = self.table.fan_counts(counts)
        if flowers and self.flower_fan:
            per_flower = self.table.by_id[self.flower_fan].points
            fans += self.table.fan_counts({self.flower_fan: flowers // per_flower})
        return ScoreResult(
            self.name, points + flowers, fans, flowers, self.minimum, points >= self.minimum
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
            "unknown_rules", f"unknown rule set {name!r} (available: {', '.join(RULESETS)})"
        )
    module_name, attribute = target.split(":")
    ruleset: RuleSet = getattr(importlib.import_module(module_name), attribute)
    _LOADED[name] = ruleset
    return ruleset


_DEFAULTS: dict[str, dict[str, Any]] = {}


def extra_field_defaults(ruleset: RuleSet) -> dict[str, Any]:
    """The rule set's own hand fields and their defaults, for ``Hand.from_json``."""
    defaults = _DEFAULTS.get(ruleset.name)
    if defaults is None:
        defaults = _DEFAULTS[ruleset.name] = {f.name: f.default for f in ruleset.hand_fields}
    return defaults


_SIZERS: dict[type, Any] = {}


def hand_size_of(ruleset: RuleSet, obj: Mapping[str, Any]) -> int:
    """The tile count the hand JSON ``obj`` must have: the rule set's ``hand_size``, unless it
    defines ``hand_size_for(obj)`` (app-custom: flowers used as wild tiles are part of the hand)."""
    kind = type(ruleset)
    if kind not in _SIZERS:  # looked up once per class: a missing attribute costs an exception
        _SIZERS[kind] = getattr(kind, "hand_size_for", None)
    sized = _SIZERS[kind]
    return ruleset.hand_size if sized is None else int(sized(ruleset, obj))


def score(hand: Hand | Mapping[str, Any], rules: str = "mcr") -> ScoreResult:
    """Score a Hand or a hand JSON object; a bad hand object gives a result with ``error``."""
    ruleset = get_ruleset(rules)
    if not isinstance(hand, Hand):
        try:
            hand = Hand.from_json(
                hand, extra_fields=extra_field_defaults(ruleset), size=hand_size_of(ruleset, hand)
            )
        except FanscanError as error:
            return ScoreResult.failed(ruleset.name, ruleset.minimum, error.message)
    else:
        try:
            hand.check(hand_size_of(ruleset, hand.to_json()))
        except FanscanError as error:
            return ScoreResult.failed(ruleset.name, ruleset.minimum, error.message)
    return ruleset.score(hand)
