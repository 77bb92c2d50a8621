"""Requests that give one field twice are refused (400), never settled by taking the last.

FastAPI's parse of a JSON body keeps the last of two equal names, and of a multipart form the
last part of a name: a hand JSON with ``"self_drawn"`` twice, a save of labels with ``"status"``
twice, an upload with two ``rules`` fields or two photos would be answered for one of them
without a word. These dependencies look at the request as sent first.
"""

from __future__ import annotations

from fastapi import Request

from fanscan import strict_json
from fanscan.errors import FanscanError


async def json_fields_once(request: Request) -> None:
    """Refuse a JSON body naming a field twice, or one that is no UTF-8 (JSON sent between
    systems is UTF-8, RFC 8259; FastAPI would guess UTF-16 or UTF-32 from its first bytes); a body
    that does not parse is left to FastAPI's own errors."""
    body = await request.body()
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\0" in body:  # UTF-16 or UTF-32 (no JSON holds a NUL)
        raise FanscanError("bad_request", "the request body is not UTF-8 text: send the JSON as UTF-8")
    try:
        strict_json.loads(body.decode("utf-8"))
    except strict_json.DuplicateField as error:
        raise FanscanError("bad_request", f"the request body: {error}") from None
    except (ValueError, RecursionError):
        return


async def form_fields_once(request: Request) -> None:
    """Refuse a multipart form with two parts of one name; a form that does not parse is left to
    FastAPI's own errors (Starlette keeps the parse, so the endpoint reads the same form)."""
    try:
        form = await request.form()
    except Exception:  # noqa: BLE001 - not multipart, or broken: the endpoint's own parse says so
        return
    for name in dict.fromkeys(form.keys()):
        if len(form.getlist(name)) > 1:
            raise FanscanError("bad_request", f"the field {name[:40]!r} is given twice: send it once")
