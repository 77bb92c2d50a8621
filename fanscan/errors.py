"""The one error type the project raises for bad input.

Every failure a user can cause (a bad notation, an impossible hand, an unreadable photo) is a
``FanscanError`` with a stable snake_case ``code`` and a one-sentence ``message`` naming the
culprit. The CLI prints ``fanscan: error: <message>`` and exits 1; results carry the message in
their ``error`` field.
"""

from __future__ import annotations


class FanscanError(Exception):
    """Bad input, with a stable machine-readable ``code`` and a one-line human ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


QUOTED_CHARS = 60
"""A message quotes at most this much of what it was given: a line, not a pasted file."""


def quoted(value: object, limit: int = QUOTED_CHARS) -> str:
    """``value`` as a message quotes it: text in quotes, cut short (with an ellipsis) past
    ``limit`` characters; anything else by its kind ("a list", "null"), never its whole repr."""
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."
    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + "..."
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"
