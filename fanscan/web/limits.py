"""Refuse request bodies over a size limit with 413, before (or while) reading them.

A declared ``Content-Length`` over the limit is refused at once, without reading a byte of the body;
a body sent without one (chunked) is counted as it streams in and refused as soon as it passes the
limit, so no request ever holds more than the limit in memory or on disk.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MEGABYTE = 1024 * 1024


def too_large_message(limit: int) -> str:
    """The one-sentence refusal for a body over ``limit`` bytes."""
    size = f"{limit / MEGABYTE:g} MB" if limit >= MEGABYTE else f"{limit} bytes"
    return f"the upload is larger than the {size} limit"


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit (FastAPI re-raises these)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=too_large_message(limit))


class BodySizeLimit:
    """ASGI middleware: at most ``max_bytes`` of request body per HTTP request."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _send_json(send, 413, too_large_message(self.max_bytes), "too_large")
            return

        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if started:
                raise
            await _send_json(send, 413, too_large_message(self.max_bytes), "too_large")


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server rejects a malformed length itself
    return None


async def _send_json(send: Send, status: int, message: str, code: str) -> None:
    body = json.dumps({"detail": message, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
