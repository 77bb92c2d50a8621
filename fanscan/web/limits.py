"""Refuse request bodies over a size limit with 413, and bodies that stop arriving with 408.

A declared ``Content-Length`` over the limit is refused at once, without reading a byte of the body;
a body sent without one (chunked) is counted as it streams in and refused as soon as it passes the
limit, so no request ever holds more than the limit in memory or on disk. A body that sends nothing
for ``idle_seconds`` (a client gone quiet, or one holding connections open on purpose) is answered
408 and its connection closed, so it holds no worker and no connection for ever.
"""

from __future__ import annotations

import json

import anyio
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


class BodyStalled(HTTPException):
    """Raised from ``receive`` when a body still being sent goes quiet for too long."""

    def __init__(self, idle_seconds: float) -> None:
        super().__init__(status_code=408, detail=stalled_message(idle_seconds))


def stalled_message(idle_seconds: float) -> str:
    """The one-sentence refusal for a body that stopped arriving."""
    return f"the upload stopped: nothing arrived for {idle_seconds:g} s"


IDLE_SECONDS = 30.0
"""How long a request body may send nothing before it is given up (a phone on a poor connection
sends something every few seconds; a stalled upload sends nothing)."""


class BodySizeLimit:
    """ASGI middleware: at most ``max_bytes`` of request body per HTTP request, none of it more
    than ``idle_seconds`` after the last part."""

    def __init__(self, app: ASGIApp, max_bytes: int, idle_seconds: float = IDLE_SECONDS) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds

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
        body_done = False

        async def limited_receive() -> Message:
            nonlocal received, body_done
            if body_done:  # afterwards receive only waits for a disconnect, however long it takes
                return await receive()
            with anyio.move_on_after(self.idle_seconds) as waited:
                message = await receive()
            if waited.cancelled_caught:
                raise BodyStalled(self.idle_seconds)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
                body_done = not message.get("more_body", False)
            else:
                body_done = True
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not body_done:  # answered before its body came: the rest is not waited for
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if started:
                raise
            await _send_json(send, 413, too_large_message(self.max_bytes), "too_large")
        except BodyStalled:
            if started:
                raise
            await _send_json(send, 408, stalled_message(self.idle_seconds), "stalled_upload")


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
