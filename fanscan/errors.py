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
