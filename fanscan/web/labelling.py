"""The labelling mode of the web app: go through a folder's photos and correct their labels.

``build_router(DIR)`` gives the routes ``create_app(labelling_dir=DIR)`` includes:

- ``GET /label``: the page (``static/label/index.html``; its script and style under
  ``/static/label/``).
- ``GET /api/label/photos``: every photo under DIR with its status, tile count and lowest
  confidence, unreviewed first, then the least sure first (a photo without labels counts as 0).
- ``GET /api/label/labels?image=REL``: the photo's label file as JSON (``image`` is the path
  relative to DIR); a photo not labelled yet gets an empty, unreviewed one. The ``ETag`` header
  is the file's version (a digest of its bytes; ``"new"`` while there is no file).
- ``PUT /api/label/labels?image=REL``: replace the label file (body: the same JSON); it is checked
  and saved atomically at once, and the saved labels are returned with their new ``ETag``. With
  ``If-Match`` (the page always sends it) a save against an older version than the file's is
  refused with 409, ``{"detail", "code": "stale_labels", "labels": <the file's>, "version"}``,
  and nothing is written.
- ``GET /api/label/photo?image=REL``: the photo, upright (EXIF orientation applied).

Only photos inside DIR are served; anything else is a 404 (a name with a NUL byte is a 400).
"""

from __future__ import annotations

import errno
import hashlib
import threading
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, HTTPException, Query
from fastapi.responses import FileResponse, JSONResponse, Response

from fanscan.datasets.labels import (
    PhotoLabels,
    check_corners_reach,
    check_tiles_enclose_area,
    find_photos,
    is_photo,
    label_path,
    labels_from_json,
    labels_to_json,
    load_labels,
    save_in_folder,
)
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.web.fields_once import json_fields_once

PAGE = Path(__file__).resolve().parent / "static" / "label" / "index.html"
_NO_CACHE = {"cache-control": "no-store"}
ImageQuery = Annotated[str, Query(description="the photo's path relative to the labelling folder")]


NEW_VERSION = '"new"'
"""The version (ETag) of a photo's labels while it has no label file."""


class StaleLabels(Exception):
    """A save against an older version of the labels than the file's."""

    def __init__(self, current: PhotoLabels, version: str) -> None:
        super().__init__(version)
        self.current = current
        self.version = version


def _existing_label_file(photo: Path) -> Path | None:
    """The photo's label file if it exists (None too when its name is too long to exist)."""
    path = label_path(photo)
    try:
        return path if path.is_file() else None
    except OSError:  # ENAMETOOLONG: a photo name near the limit leaves no room for the suffix
        return None


def _matches(if_match: str, version: str) -> bool:
    """Whether an ``If-Match`` header names ``version``: one of its ETags, or ``*`` when a label
    file exists (RFC 9110: ``*`` matches any current version, and a photo without labels has none)."""
    tags = [tag.strip() for tag in if_match.split(",")]
    return version in tags or ("*" in tags and version != NEW_VERSION)


def _same_labels(a: PhotoLabels, b: PhotoLabels) -> bool:
    """Whether two label files say the same of the photo, whether or not one is marked edited."""
    return replace(a, edited=False) == replace(b, edited=False)


def _named(image: str) -> str:
    """A photo's name as a message gives it: at most 80 characters."""
    return image if len(image) <= 80 else image[:77] + "..."


def _shown(image: str) -> str:
    return repr(_named(image))


class LabelFolder:
    """The photos of one folder and their label files, addressed by path relative to the folder."""

    def __init__(self, directory: Path) -> None:
        self.root = directory.resolve()
        if not self.root.is_dir():
            raise FanscanError("not_found", f"{directory} is not a folder")
        self._saving = threading.Lock()  # a version check and its save happen as one step

    def photo(self, image: str) -> Path:
        """The photo ``image`` names; anything outside the folder or not a photo is a 404."""
        if "\0" in image:
            raise HTTPException(400, "a photo name cannot hold a NUL byte")
        try:
            path = (self.root / image).resolve()
            found = path.is_relative_to(self.root) and is_photo(path) and path.is_file()
        except (OSError, ValueError):  # a name too long for the file system, say
            found = False
        if not found:
            raise HTTPException(404, f"no photo {_shown(image)} in the labelling folder")
        return path

    def version(self, image: str) -> str:
        """The ETag of the photo's label file as it is on disk now."""
        path = _existing_label_file(self.photo(image))
        if path is None:
            return NEW_VERSION
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return NEW_VERSION
        except OSError as error:
            raise FanscanError("bad_labels", f"the labels of {_shown(image)} cannot be read ({error.strerror})") from None
        return f'"{hashlib.sha256(data).hexdigest()[:20]}"'

    def size(self, image: str) -> tuple[int, int]:
        """The photo's width and height as shown (EXIF orientation applied), its header parsed; a
        file that is no image fanscan reads is refused, named as the folder names it."""
        return self.sizes(image)[0]

    def sizes(self, image: str) -> tuple[tuple[int, int], tuple[int, int]]:
        """The photo's size as shown and as stored (before its EXIF turn: label files imported
        from COCO or VOC may give that; they are saved as they came), from one header read."""
        from fanscan.vision.image_io import load_photo

        photo = load_photo(self.photo(image), name=_shown(image))
        width, height = photo.size
        return (width, height), ((height, width) if photo.orientation in (5, 6, 7, 8) else (width, height))

    def labels(self, image: str) -> PhotoLabels:
        """The photo's labels (``image`` relative), empty and unreviewed when it has none yet."""
        photo = self.photo(image)
        path = _existing_label_file(photo)
        if path is not None:
            return replace(load_labels(path, name=f"the labels of {_shown(image)}"), image=image)
        width, height = self.size(image)
        return PhotoLabels(image, width, height)

    def current(self, image: str) -> tuple[PhotoLabels, str]:
        """The photo's labels and their version, read together (no save in between)."""
        with self._saving:
            return self.labels(image), self.version(image)

    def save(self, image: str, obj: Any, if_match: str | None = None) -> tuple[PhotoLabels, str]:
        """Check ``obj`` as a label file for ``image`` and save it atomically; the labels saved
        and their version. ``if_match``: the version the change was made to; when the file has
        moved on since, nothing is written and ``StaleLabels`` says what the file holds. The file
        written is the one read: beside the photo the name leads to (a link's target, a name
        with ``..`` in it resolved), never beside a path outside the folder. Labels that differ
        from the file's are marked ``edited``: a person's work, which ``label --prelabel`` never
        reads over (a deleted box marks no tile as the person's)."""
        stored_as = self.photo(image).relative_to(self.root).as_posix()
        if isinstance(obj, dict):
            obj = {**obj, "image": image}
        labels = labels_from_json(obj, f"labels for {_named(image)}")
        check_corners_reach(labels, f"labels for {_named(image)}")
        check_tiles_enclose_area(labels, f"labels for {_named(image)}")
        shown, stored = self.sizes(image)
        width, height = shown
        if (labels.width, labels.height) not in (shown, stored):
            raise FanscanError(
                "bad_labels",
                f"labels for {_named(image)} are for a {labels.width} x {labels.height} photo, "
                f"but the photo is {width} x {height}",
            )
        with self._saving:
            current = self.version(image)
            if if_match is not None and not _matches(if_match, current):
                on_disk = self.labels(image)
                if current != NEW_VERSION and _same_labels(on_disk, labels):
                    # the file holds these very labels: a save sent again after its answer was
                    # lost (the page retries) is done, not a conflict
                    return on_disk, current
                if if_match.strip() == "*":  # RFC 9110: * asks for a version; a photo without labels has none
                    raise FanscanError("precondition_failed",
                                       f"{_shown(image)} has no label file yet for If-Match: * to match")
                raise StaleLabels(on_disk, current)
            try:
                before: PhotoLabels | None = self.labels(image)
            except FanscanError:  # a broken file: the page shows it unlabelled, and saving replaces it
                before = None
            edited = before is None or before.edited or not _same_labels(before, labels)
            labels = replace(labels, edited=edited)
            try:
                save_in_folder(self.root, replace(labels, image=stored_as))
            except OSError as error:
                if error.errno == errno.ENAMETOOLONG:
                    raise FanscanError(
                        "name_too_long",
                        f"the label file of {_shown(image)} would have a name too long for the "
                        "file system; rename the photo",
                    ) from None
                raise FanscanError("cannot_save", f"the labels of {_shown(image)} could not be saved "
                                                  f"({error.strerror or type(error).__name__})") from None
            return labels, self.version(image)

    def overview(self) -> list[dict[str, Any]]:
        """One entry per photo, in review order: unreviewed first, then the least sure first."""
        entries = []
        for photo in find_photos(self.root):
            image = photo.relative_to(self.root).as_posix()
            try:  # a link's labels are its target's, as the page reads and saves them
                target = photo.resolve()
            except (OSError, RuntimeError):
                continue
            if not target.is_relative_to(self.root):
                continue  # a link out of the folder: no photo of it (the page would get a 404)
            path = _existing_label_file(target)
            try:
                labels = load_labels(path) if path is not None else None
            except FanscanError:
                labels = None  # a broken file is shown as unlabelled; saving replaces it
            entries.append(
                {
                    "image": image,
                    "status": labels.status if labels else "unreviewed",
                    "tiles": len(labels.tiles) if labels else 0,
                    "min_confidence": labels.min_confidence if labels else 0.0,
                    "labelled": labels is not None,
                }
            )
        entries.sort(key=lambda e: (e["status"] == "reviewed", e["min_confidence"], e["image"]))
        return entries


def upright_photo(path: Path) -> Response:
    """The photo as the browser should show it: the file itself unless EXIF rotates it."""
    from fanscan.vision.image_io import load_photo

    photo = load_photo(path)
    if photo.orientation == 1:
        return FileResponse(path, headers=_NO_CACHE)
    import cv2

    encoded, data = cv2.imencode(".jpg", photo.decode(1), [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not encoded:
        raise FanscanError("unreadable_image", f"{path.name} could not be re-encoded upright")
    return Response(data.tobytes(), media_type="image/jpeg", headers=_NO_CACHE)


def build_router(directory: Path) -> APIRouter:
    """The labelling routes for the photos under ``directory``."""
    folder = LabelFolder(directory)
    router = APIRouter()

    @router.get("/label", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(PAGE, headers={"cache-control": "no-cache"})

    @router.get("/api/label/photos", summary="The photos to label, in review order")
    def photos() -> dict[str, Any]:
        return {
            "folder": folder.root.name,
            "codes": list(CLASS_LABELS),
            "photos": folder.overview(),
        }

    @router.get("/api/label/labels", summary="One photo's label file (its version in ETag)")
    def get_labels(image: ImageQuery) -> JSONResponse:
        labels, version = folder.current(image)
        return JSONResponse(labels_to_json(labels), headers={**_NO_CACHE, "etag": version})

    @router.put(
        "/api/label/labels",
        summary="Replace one photo's label file (saved at once)",
        responses={409: {"description": "If-Match names an older version than the file's."}},
        dependencies=[Depends(json_fields_once)],
    )
    def put_labels(
        image: ImageQuery,
        body: Annotated[Any, Body()],
        if_match: Annotated[str | None, Header(description="the ETag the change was made to")] = None,
    ) -> JSONResponse:
        try:
            labels, version = folder.save(image, body, if_match)
        except StaleLabels as stale:
            return JSONResponse(
                {
                    "detail": f"the labels of {_shown(image)} were changed elsewhere since this "
                    "page loaded them; nothing was saved",
                    "code": "stale_labels",
                    "labels": labels_to_json(stale.current),
                    "version": stale.version,
                },
                status_code=409,
                headers={"etag": stale.version},
            )
        return JSONResponse(labels_to_json(labels), headers={"etag": version})

    @router.get("/api/label/photo", summary="One photo, upright")
    def get_photo(image: ImageQuery) -> Response:
        return upright_photo(folder.photo(image))

    return router
