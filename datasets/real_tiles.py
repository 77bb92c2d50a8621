"""The labelled real tile crops in ../shared/data/camerash, grouped by physical tile set.

Two sources, both optional (absent on a user's machine):

- ``camerash/tiles`` with its ``labels.csv`` (file -> code). IDs 1-146 mix several sets; from 147 on,
  crops come in contiguous runs, one set per run (../shared/data/README.md). Each run is a group.
- ``camerash/untagged-tiles``, labelled by this project in ``labels/untagged_tiles_labels.csv``
  (columns ``file,code,set``): ``set`` names the photo the crops were cut from, one tile set each.

Held-out evaluation must hold out whole groups, never single crops: the same design in training
and validation would flatter the figures.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.shared import shared_path
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS

UNTAGGED_LABELS = Path(__file__).resolve().parent / "labels" / "untagged_tiles_labels.csv"

# The one-set runs of camerash/tiles (README); other IDs (1-146 and the gaps) mix several sets.
_RUNS = ((147, 182), (183, 224), (225, 260), (261, 296), (297, 338), (353, 394), (432, 461), (546, 583))


@dataclass(frozen=True)
class RealCrop:
    """One labelled crop: its file, its class code and the tile set (group) it belongs to."""

    path: Path
    code: str
    group: str

    def load(self) -> np.ndarray:
        """The crop as a BGR uint8 array."""
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FanscanError("unreadable_image", f"cannot read tile crop {self.path}")
        return image


def tagged_group(crop_id: int) -> str:
    """The group of a camerash/tiles crop ID: its one-set run, or ``mixed`` (IDs 1-146 and gaps)."""
    for first, last in _RUNS:
        if first <= crop_id <= last:
            return f"camerash-{first}-{last}"
    return "camerash-mixed"


def read_labels(path: Path, *, with_set: bool) -> list[tuple[str, str, str]]:
    """Rows ``(file, code, set)`` of a labels CSV; ``set`` is empty when the file has none."""
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        code_column = "code" if "code" in (reader.fieldnames or ()) else "label"
        rows = []
        for line_no, row in enumerate(reader, start=2):
            code = row.get(code_column, "")
            if code not in CLASS_LABELS:
                raise FanscanError(
                    "bad_label", f"{path.name} line {line_no}: unknown tile code {code!r}"
                )
            group = row.get("set", "") if with_set else ""
            if with_set and not group:
                raise FanscanError("bad_label", f"{path.name} line {line_no}: no set given")
            rows.append((row["file"], code, group))
    return rows


def load_real_crops() -> list[RealCrop]:
    """Every labelled real crop available here (an empty list without ../shared)."""
    crops: list[RealCrop] = []
    tagged = shared_path("data", "camerash", "tiles")
    if tagged is not None and (tagged / "labels.csv").is_file():
        for file, code, _ in read_labels(tagged / "labels.csv", with_set=False):
            crop_id = int(Path(file).stem)
            crops.append(RealCrop(tagged / file, code, tagged_group(crop_id)))
    untagged = shared_path("data", "camerash", "untagged-tiles")
    if untagged is not None and UNTAGGED_LABELS.is_file():
        for file, code, group in read_labels(UNTAGGED_LABELS, with_set=True):
            crops.append(RealCrop(untagged / file, code, f"untagged-{group}"))
    return crops


def groups(crops: list[RealCrop]) -> list[str]:
    """The distinct groups of ``crops``, sorted."""
    return sorted({crop.group for crop in crops})
