"""The referee page's "Save as labelled data": a corrected reading kept as a labelled photo.

``build_router(DIR)`` gives ``POST /api/labelled`` (multipart: ``photo``, the photo file, and
``tiles``, a JSON list of ``{"code", "box", "confidence", "corrected"}``). The photo is written to
DIR as ``referee-<first 16 hex digits of its SHA-256>.<ext>`` with its label file beside it
(``fanscan label DIR`` opens it, ``fanscan export DIR --format crops`` exports it): status
``reviewed`` (the referee checked the whole hand), tiles the referee corrected set by a person at
confidence 1, the others kept as the reader's (``model``, its confidence). A photo saved before
is refused (409 ``already_saved``), so a later save never replaces labels someone may have
corrected since in the labelling tool.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, UploadFile
from fastapi.responses import JSONResponse

from fanscan import __version__, strict_json
from fanscan.atomic import atomic_path, create_atomic
from fanscan.datasets.labels import (PhotoLabels, TileLabel, check_corners_reach, format_labels, label_path,
                                     quad_area)
from fanscan.errors import FanscanError, quoted
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.strict_json import finite_number
from fanscan.web.fields_once import form_fields_once
from fanscan.web.uploads import photo_format

READER = f"fanscan {__version__} referee page"
_EXTENSIONS = {"jpeg": ".jpg", "png": ".png", "webp": ".webp", "bmp": ".bmp", "tiff": ".tif", "gif": ".gif"}


def _tile(obj: Any, index: int) -> TileLabel:
    """One tile of the request, checked; a bad one is a 400 naming it."""
    where = f"tiles[{index}]"
    if not isinstance(obj, dict):
        raise FanscanError("bad_request", f"{where} must be an object")
    code = obj.get("code")
    if code not in CLASS_LABELS:
        raise FanscanError("bad_request", f"{where}: {code!r} is not a tile code")
    box = obj.get("box")
    if not (isinstance(box, list) and len(box) == 4 and all(
        isinstance(p, list) and len(p) == 2 and all(
            finite_number(v) for v in p
        ) for p in box
    )):
        raise FanscanError("bad_request", f"{where}: box must be four [x, y] points")
    corners = tuple((round(float(x), 2), round(float(y), 2)) for x, y in box)
    if quad_area(corners) < 1.0:  # under a pixel: four points on a line or one spot hold no tile
        raise FanscanError("bad_request", f"{where}: box encloses no area")
    corrected = obj.get("corrected", False)
    if not isinstance(corrected, bool):
        raise FanscanError("bad_request", f"{where}: corrected must be true or false")
    confidence = obj.get("confidence")
    is_share = isinstance(confidence, (int, float)) and not isinstance(confidence, bool) and 0 <= confidence <= 1
    if not is_share and not (corrected and confidence is None):  # a corrected tile's sent one is checked too
        raise FanscanError("bad_request", f"{where}: confidence must be a number 0-1")
    if corrected:
        return TileLabel(code, corners, 1.0, "person")  # type: ignore[arg-type]
    return TileLabel(code, corners, round(float(confidence), 4), "model")  # type: ignore[arg-type]


def _tiles(text: str) -> tuple[TileLabel, ...]:
    try:
        items = strict_json.loads(text)
    except json.JSONDecodeError:
        raise FanscanError("bad_request", "the tiles field is not valid JSON") from None
    except strict_json.DuplicateField as error:
        raise FanscanError("bad_request", f"the tiles field: {error}") from None
    except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
        raise FanscanError("bad_request", "the tiles field is JSON nested too deeply or holds a number too long") from None
    if not isinstance(items, list):
        raise FanscanError("bad_request", "the tiles field must be a JSON list")
    return tuple(_tile(obj, i) for i, obj in enumerate(items))


def _already_saved(name: str) -> FanscanError:
    return FanscanError("already_saved", f"this photo is already saved as {name}: correct it with fanscan label")


def save_labelled(directory: Path, data: bytes, filename: str, tiles_json: str) -> dict[str, Any]:
    """Write the photo and its label file into ``directory``; what was written."""
    kind = photo_format(data, filename)
    tiles = _tiles(tiles_json)
    from fanscan.vision.image_io import load_photo

    picture = load_photo(data, name=quoted(filename))  # named as its user knows it, as /api/read names it
    width, height = picture.size
    picture.decode(8)  # a file cut short has a header but no picture: refused, as the reader does
    # a tile the photo's edge cuts may reach past it, as in the labelling tool's files
    try:
        check_corners_reach(PhotoLabels("photo", width, height, tiles), "the tiles")
    except FanscanError as error:
        raise FanscanError("bad_request", f"{error.message.removeprefix('the tiles: ')} (box lies outside the photo)") from None
    name = f"referee-{hashlib.sha256(data).hexdigest()[:16]}{_EXTENSIONS.get(kind, '.jpg')}"
    photo = directory / name
    labels_file = label_path(photo)
    if labels_file.exists():
        raise _already_saved(name)
    labels = PhotoLabels(name, width, height, tiles, (), "reviewed", READER, len(data))
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not photo.exists():
            with atomic_path(photo) as temp:
                temp.write_bytes(data)
        try:
            create_atomic(labels_file, format_labels(labels).encode("utf-8"))  # two saves at once: one wins
        except FileExistsError:
            raise _already_saved(name) from None
    except OSError as error:  # the server's folder gone, read-only or full: no fault of the request
        raise FanscanError("cannot_save", f"the server could not save the photo in its folder "
                                          f"({error.strerror or type(error).__name__})") from None
    return {
        "image": name,
        "tiles": len(tiles),
        "corrected": sum(t.source == "person" for t in tiles),
    }


def build_router(directory: Path) -> APIRouter:
    """``POST /api/labelled`` saving into ``directory``."""
    router = APIRouter()

    @router.post(
        "/api/labelled",
        summary="Keep a corrected reading and its photo as labelled data",
        responses={409: {"description": "This photo was saved before."}},
        dependencies=[Depends(form_fields_once)],
    )
    async def labelled(
        photo: Annotated[UploadFile, File(description="the photo that was read")],
        tiles: Annotated[str, Form(description="JSON list of {code, box, confidence, corrected}")],
    ) -> JSONResponse:
        data = await photo.read()
        import anyio

        saved = await anyio.to_thread.run_sync(
            save_labelled, directory, data, photo.filename or "photo.jpg", tiles
        )
        return JSONResponse(saved, status_code=201)

    return router
