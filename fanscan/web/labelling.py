"""The labelling mode of the web app: go through a folder's photos and correct their labels.

``build_router(DIR)`` gives the routes ``create_app(labelling_dir=DIR)`` includes:

- ``GET /label``: the page (``static/label/index.html``; its script and style under
  ``/static/label/``).
- ``GET /api/label/photos``: every photo under DIR with its status, tile count and lowest
  confidence, unreviewed first, then the least sure first (a photo without labels counts as 0).
- ``GET /api/label/labels?image=REL``: the photo's label file as JSON (``image`` is the path
  relative to DIR); a photo not labelled yet gets an empty, unreviewed one.
- ``PUT /api/label/labels?image=REL``: replace the label file (body: the same JSON); it is checked
  and saved atomically at once, and the saved labels are returned.
- ``GET /api/label/photo?image=REL``: the photo, upright (EXIF orientation applied).

Only photos inside DIR are served; anything else is a 404.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Query
from fastapi.responses import FileResponse, Response

from fanscan.datasets.labels import (
    PhotoLabels,
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

PAGE = Path(__file__).resolve().parent / "static" / "label" / "index.html"
_NO_CACHE = {"cache-control": "no-store"}
ImageQuery = Annotated[str, Query(description="the photo's path relative to the labelling folder")]


class LabelFolder:
    """The photos of one folder and their label files, addressed by path relative to the folder."""

    def __init__(self, directory: Path) -> None:
        self.root = directory.resolve()
        if not self.root.is_dir():
            raise FanscanError("not_found", f"{directory} is not a folder")

    def photo(self, image: str) -> Path:
        """The photo ``image`` names; anything outside the folder or not a photo is a 404."""
        path = (self.root / image).resolve()
        if not path.is_relative_to(self.root) or not is_photo(path) or not path.is_file():
            raise HTTPException(404, f"no photo {image!r} in the labelling folder")
        return path

    def labels(self, image: str) -> PhotoLabels:
        """The photo's labels (``image`` relative), empty and unreviewed when it has none yet."""
        photo = self.photo(image)
        path = label_path(photo)
        if path.is_file():
            return replace(load_labels(path), image=image)
        from fanscan.vision.image_io import load_photo

        width, height = load_photo(photo).size
        return PhotoLabels(image, width, height)

    def save(self, image: str, obj: Any) -> PhotoLabels:
        """Check ``obj`` as a label file for ``image`` and save it atomically."""
        self.photo(image)
        if isinstance(obj, dict):
            obj = {**obj, "image": image}
        labels = labels_from_json(obj, f"labels for {image}")
        save_in_folder(self.root, labels)
        return labels

    def overview(self) -> list[dict[str, Any]]:
        """One entry per photo, in review order: unreviewed first, then the least sure first."""
        entries = []
        for photo in find_photos(self.root):
            image = photo.relative_to(self.root).as_posix()
            path = label_path(photo)
            try:
                labels = load_labels(path) if path.is_file() else None
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

    @router.get("/api/label/labels", summary="One photo's label file")
    def get_labels(image: ImageQuery) -> dict[str, Any]:
        return labels_to_json(folder.labels(image))

    @router.put("/api/label/labels", summary="Replace one photo's label file (saved at once)")
    def put_labels(image: ImageQuery, body: Annotated[Any, Body()]) -> dict[str, Any]:
        return labels_to_json(folder.save(image, body))

    @router.get("/api/label/photo", summary="One photo, upright")
    def get_photo(image: ImageQuery) -> Response:
        return upright_photo(folder.photo(image))

    return router
