"""The referee web app: a FastAPI application with the JSON API, the page and the tile images.

Routes:
- ``GET /``: the page (``static/index.html``); ``/static/...``: its files, and nothing else.
- ``GET /tiles/<code>.svg``: a drawn tile face (``tile_faces``), for the 42 codes and ``back``.
- ``GET /api/tiles``, ``GET /api/rules``: the tile codes and the rule sets, for the page's pickers;
  ``GET /api/config``: the upload limit.
- ``POST /api/read`` (multipart field ``photo``): what ``fanscan read --json`` prints.
- ``POST /api/score`` (a hand JSON, optional ``rules``): the contract's result object.
- ``POST /api/labelled`` (only with ``save_labelled_dir``): keep a corrected reading and its photo
  as a labelled photo (``fanscan.web.labelled``).
- ``GET /api/openapi.json``: the API description (no docs UI: it would load scripts from a CDN).

Errors are JSON ``{"detail": "<one sentence>", "code": "<snake_case>"}`` with a 4xx status.

Labelling hook: ``create_app(labelling_dir=DIR)`` includes the router returned by
``fanscan.web.labelling.build_router(DIR)`` (an ``APIRouter``, owned by the labelling tool); its
page files live in ``static/label/`` and are served under ``/static/label/``. Without
``labelling_dir`` that module is never imported.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import Body, Depends, FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanscan import __version__
from fanscan.errors import FanscanError, quoted
from fanscan.scoring.tiles import BACK, CHINESE_NAMES, CLASS_LABELS, TILE_CODES
from fanscan.web.fields_once import form_fields_once, json_fields_once
from fanscan.web.limits import IDLE_SECONDS, MEGABYTE, BodySizeLimit
from fanscan.web.services import ProjectScorer, Reader, Scorer, read_photo_json
from fanscan.web.tile_faces import tile_svg
from fanscan.web.uploads import photo_format

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_UPLOAD_BYTES = 25 * MEGABYTE
DEFAULT_RULES = "mcr"

# FanscanError codes that are not a plain 400.
_STATUS_BY_CODE = {
    "image_too_large": 413,
    "unsupported_image": 415,
    "unreadable_image": 422,
    "no_tiles": 422,
    "reader_unavailable": 503,
    "already_saved": 409,
    "cannot_save": 500,
    "precondition_failed": 412,
}

_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
        b"script-src 'self'; object-src 'none'; frame-ancestors 'none'",
    ),
]

_SCORE_EXAMPLE = {
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "6m", "7m", "8m"],
    "melds": [],
    "win_tile": "8m",
    "flowers": ["1f"],
    "self_drawn": True,
    "seat_wind": "E",
    "round_wind": "E",
    "rules": "mcr",
}


class _SecurityHeaders:
    """Adds headers that keep the page from being framed or having its files sniffed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


_FRAMEWORK_400 = {
    "There was an error parsing the body": "the request body could not be parsed (text that is not "
    "UTF-8, JSON nested too deeply, or a number thousands of digits long)",
    "Invalid multipart data.": "the upload is not valid multipart form data (a part's header too long?)",
}
"""FastAPI's and Starlette's own words for a body they could not parse, and ours."""


def _error(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"detail": message, "code": code}, status_code=status)


def _validation_message(error: RequestValidationError, content_type: str) -> str:
    """One sentence for FastAPI's list of validation errors (the first one says enough)."""
    first = error.errors()[0]
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    if first.get("type") == "missing":
        if not location:
            return "the request body is empty (expected a JSON object)"
        return f"the request has no {location[-1]!r} field"
    if first.get("type") in ("dict_type", "model_attributes_type"):
        if "json" not in content_type:
            return "send the body as JSON (Content-Type: application/json)"
        return "the request body must be a JSON object"
    if "UploadFile" in str(first.get("msg", "")) and location:
        return f"the {location[-1]!r} field must be a file upload"
    if first.get("type") == "json_invalid":
        return "the request body is not valid JSON"
    where = f" at {'.'.join(location)}" if location else ""
    return f"bad request{where}: {first.get('msg', 'invalid value')}"


def create_app(
    reader: Reader | None = None,
    scorer: Scorer | None = None,
    *,
    max_upload_bytes: int = MAX_UPLOAD_BYTES,
    upload_idle_seconds: float = IDLE_SECONDS,
    max_concurrent_reads: int | None = None,
    labelling_dir: str | os.PathLike[str] | None = None,
    save_labelled_dir: str | os.PathLike[str] | None = None,
) -> FastAPI:
    """The web app; ``reader`` and ``scorer`` default to the project's own.

    ``save_labelled_dir`` turns on the page's "Save as labelled data" (``fanscan.web.labelled``);
    without it the page does not offer it and ``POST /api/labelled`` does not exist.

    A request body that sends nothing for ``upload_idle_seconds`` is answered 408.

    Photo reads run in worker threads, at most ``max_concurrent_reads`` at once (default: the CPU
    count, up to 4); further reads wait their turn.
    """
    read = reader or read_photo_json
    scoring: Scorer = scorer or ProjectScorer()
    read_slots = max_concurrent_reads or max(1, min(4, os.cpu_count() or 1))
    limiter: list[anyio.CapacityLimiter] = []  # created on first use, inside the event loop

    app = FastAPI(
        title="fanscan referee",
        version=__version__,
        description="Read a photographed mahjong hand and score it. Errors are JSON "
        '`{"detail": "<one sentence>", "code": "<snake_case>"}`.',
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.add_middleware(BodySizeLimit, max_bytes=max_upload_bytes, idle_seconds=upload_idle_seconds)
    app.add_middleware(_SecurityHeaders)

    @app.exception_handler(FanscanError)
    async def fanscan_error(_request: Request, error: FanscanError) -> JSONResponse:
        return _error(_STATUS_BY_CODE.get(error.code, 400), error.message, error.code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(error, request.headers.get("content-type", "")), "bad_request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 400 and str(error.detail) in _FRAMEWORK_400:
            return _error(400, _FRAMEWORK_400[str(error.detail)], "bad_request")
        code = {413: "too_large", 408: "stalled_upload"}.get(error.status_code, f"http_{error.status_code}")
        return _error(error.status_code, str(error.detail), code)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"cache-control": "no-cache"})

    @app.get("/tiles/{name}", include_in_schema=False)
    def tile_image(name: str) -> Response:
        code = name.removesuffix(".svg")
        if not name.endswith(".svg") or code not in CLASS_LABELS:
            return _error(404, f"no tile image {name!r}", "not_found")
        return Response(
            tile_svg(code),
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=86400"},
        )

    @app.get("/api/tiles", summary="The 42 tile codes, in contract order")
    def tiles() -> dict[str, Any]:
        return {
            "tiles": [{"code": code, "chinese": CHINESE_NAMES[code]} for code in TILE_CODES],
            "back": BACK,
        }

    @app.get("/api/config", summary="Limits the page checks before uploading")
    def config() -> dict[str, Any]:
        return {
            "max_upload_bytes": max_upload_bytes,
            "version": __version__,
            "save_labelled": save_labelled_dir is not None,
        }

    @app.get("/api/rules", summary="The rule sets /api/score accepts, the default first")
    def rules() -> list[dict[str, Any]]:
        return scoring.rule_sets()

    @app.post(
        "/api/read",
        summary="Read a photo of a hand",
        description="Multipart upload, field `photo` (JPEG, PNG, WebP, BMP, TIFF or GIF, at most "
        f"{max_upload_bytes // MEGABYTE} MB). Returns what `fanscan read PHOTO --json` prints: "
        "`tiles` (code, confidence, box, orientation), `hand` and `doubts`.",
        responses={
            413: {"description": "The upload is over the size limit."},
            415: {"description": "The upload is not an image format the reader takes."},
            422: {"description": "No photo field, or the photo cannot be read."},
        },
        dependencies=[Depends(form_fields_once)],
    )
    async def read_endpoint(
        photo: Annotated[UploadFile, File(description="the photo of the hand")],
        rules: Annotated[str | None, Form(description="rule set whose hand size the reading must have "
                                          "(default: any rule set's)")] = None,
    ) -> dict[str, Any]:
        data = await photo.read()
        photo_format(data, photo.filename or "photo")
        known = [rule_set["name"] for rule_set in scoring.rule_sets()]
        if rules is not None and rules not in known:
            raise FanscanError("unknown_rules", f"unknown rule set {quoted(rules)} (available: {', '.join(known)})")
        if not limiter:
            limiter.append(anyio.CapacityLimiter(read_slots))
        job = read if rules is None else functools.partial(read, rules=rules)
        try:
            return await anyio.to_thread.run_sync(job, data, limiter=limiter[0])
        except FanscanError as error:  # the reader names bytes "the image data": name the upload
            raise FanscanError(error.code, error.message.replace(
                "the image data", quoted(photo.filename) if photo.filename else "the photo")) from None

    @app.post(
        "/api/score",
        summary="Score a hand",
        description="Body: a hand JSON as in the contract, plus an optional `rules` "
        f"(default `{DEFAULT_RULES}`, see `/api/rules`). Returns the result JSON; a hand that is "
        "not a winning hand gives `total: null` and `error`, with status 200.",
        dependencies=[Depends(json_fields_once)],
    )
    def score_endpoint(
        hand: Annotated[dict[str, Any], Body(openapi_examples={"hand": {"value": _SCORE_EXAMPLE}})],
    ) -> dict[str, Any]:
        body = dict(hand)
        rules_name = body.pop("rules", DEFAULT_RULES)
        known = [rule_set["name"] for rule_set in scoring.rule_sets()]
        if rules_name not in known:
            raise FanscanError(
                "unknown_rules", f"unknown rule set {quoted(rules_name)} (available: {', '.join(known)})"
            )
        return scoring.score(body, rules_name)

    if labelling_dir is not None:
        from fanscan.web.labelling import build_router

        app.include_router(build_router(Path(labelling_dir)))
    if save_labelled_dir is not None:
        from fanscan.web import labelled

        app.include_router(labelled.build_router(Path(save_labelled_dir)))

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
