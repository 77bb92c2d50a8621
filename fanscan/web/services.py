"""What the web app asks of the rest of fanscan: a photo reader and a scorer.

``create_app`` takes either from its caller (tests inject fakes); by default they are the project's
own, imported on first use so that the server starts without loading OpenCV or onnxruntime.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from fanscan.errors import FanscanError

Reader = Callable[[bytes], dict[str, Any]]
"""Photo bytes -> the contract's ``read`` object (what ``fanscan read --json`` prints)."""


class Scorer(Protocol):
    """Scores hand JSON under a named rule set and lists the rule sets it knows."""

    def rule_sets(self) -> list[dict[str, Any]]:
        """The rule sets, the default first.

        Each is ``{"name", "title", "minimum", "hand_size", "fields"}``; ``fields`` lists the rule
        set's own optional hand fields as ``{"name", "default", "help"}``, with ``"choices"``
        (the words it takes) where they are few.
        """
        ...

    def score(self, hand: dict[str, Any], rules: str) -> dict[str, Any]:
        """The contract's result object for ``hand`` (bad hands give ``error``, never raise)."""
        ...


def read_photo_json(data: bytes, rules: str | None = None) -> dict[str, Any]:
    """The project's photo reader (``rules``: the rule set whose hand size the reading must have)."""
    try:
        from fanscan.vision.reader import read_photo
    except ModuleNotFoundError as error:
        raise FanscanError(
            "reader_unavailable", f"the photo reader cannot start: module {error.name} is missing"
        ) from None

    try:
        reading: dict[str, Any] = read_photo(data, rules=rules).to_json()
    except FanscanError as error:
        if error.code == "not_found":  # bytes cannot be missing: the model file is
            raise FanscanError("reader_unavailable", error.message) from None
        raise
    return reading


class ProjectScorer:
    """The project's scorer (``fanscan.scoring``)."""

    def rule_sets(self) -> list[dict[str, Any]]:
        from fanscan.scoring import available, get_ruleset

        described = []
        for name in available():
            ruleset = get_ruleset(name)
            described.append(
                {
                    "name": name,
                    "title": ruleset.title,
                    "minimum": ruleset.minimum,
                    "hand_size": ruleset.hand_size,
                    "fields": [
                        {"name": f.name, "default": f.default, "help": f.help,
                         **({"choices": list(f.choices)} if f.choices else {})}
                        for f in ruleset.hand_fields
                    ],
                }
            )
        return described

    def score(self, hand: dict[str, Any], rules: str) -> dict[str, Any]:
        from fanscan.scoring import score

        result: dict[str, Any] = score(hand, rules=rules).to_json()
        return result
