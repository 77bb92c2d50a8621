"""A photo seen turned by any angle: what ``locate`` asks of a photo, so that the finder can look
at it turned (``second_looks``), and the way back to the photo's own pixels.

``turn_matrix`` maps the photo's pixels onto a canvas that holds all of it turned; ``TurnedPhoto``
decodes the photo turned (at every scale ``locate`` asks for, only ``window`` of the canvas when
given) and takes the boxes found there back (``turned_back``); ``window_around`` is the part of
the turned canvas around some boxes. A turned decode is made when asked and not kept: the
finder's passes over it are kept (``finder_passes``) and a search again turns only its region
(``decode_window``), so a far hand's look at a 12 MP photo turned holds no turned copy of the
whole photo besides the photo's own (36 MB).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import REGION_ALONG, short_sides
from fanscan.vision.numeric import median


def turn_matrix(width: int, height: int, degrees: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map (2 x 3, pixel-edge coordinates) of a ``width`` x ``height`` picture turned
    ``degrees`` clockwise about its centre onto a canvas that holds all of it, and that canvas's
    (width, height). A quarter turn takes (x, y) to (height - y, x)."""
    radians = np.deg2rad(degrees)
    cos, sin = abs(float(np.cos(radians))), abs(float(np.sin(radians)))
    size = (round(height * sin + width * cos), round(height * cos + width * sin))
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)  # OpenCV's turns anticlockwise
    matrix[:, 2] += (size[0] - width) / 2, (size[1] - height) / 2
    return matrix, size


def pixel_centred(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` (pixel-edge coordinates) for ``cv2.warpAffine``, whose coordinates are pixel
    centres (x + 0.5 at the edges')."""
    shifted = matrix.copy()
    shifted[:, 2] += matrix[:, :2] @ np.array([0.5, 0.5]) - 0.5
    return shifted


@dataclass
class TurnedPhoto:
    """``photo`` as seen turned ``degrees`` clockwise, on a canvas that holds all of it (black
    beyond it) or only ``window`` of that canvas (x0, y0, x1, y1, full-size pixels): what
    ``locate`` asks of a photo, its decodes turned."""

    photo: Photo
    degrees: float = 90.0
    window: tuple[int, int, int, int] | None = None
    finder_passes: dict = field(default_factory=dict, repr=False)
    """As ``Photo.finder_passes``, for the photo seen turned."""

    def __post_init__(self) -> None:
        self.matrix, self.size = turn_matrix(self.photo.width, self.photo.height, self.degrees)
        if self.window is not None:
            x0, y0, x1, y1 = self.window
            self.matrix[:, 2] -= (x0, y0)
            self.size = (x1 - x0, y1 - y0)

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    @property
    def balanced(self) -> bool:
        return self.photo.balanced

    @property
    def balanced_for(self) -> frozenset[str]:
        return self.photo.balanced_for

    @property
    def camera_judged(self) -> bool:
        """Always: the photo's first look judged its light, haze and focus on the whole photo (a
        window of it turned may be darker, hazier or less sharp than the photo)."""
        return True

    def balance(self, table: np.ndarray, *, beyond_reach: bool = False, takes_out: str = "cast") -> None:
        self.photo.balance(table, beyond_reach=beyond_reach, takes_out=takes_out)
        self.finder_passes.clear()

    def size_at(self, scale: int) -> tuple[int, int]:
        """(width, height) of the turned photo decoded at 1/``scale``."""
        factor = self.photo.size_at(scale)[0] / self.photo.width
        return max(1, round(self.size[0] * factor)), max(1, round(self.size[1] * factor))

    def decode(self, scale: int = 1) -> np.ndarray:
        return self.decode_window(scale, (0, 0, *self.size_at(scale)))

    def decode_window(self, scale: int, window: tuple[int, int, int, int]) -> np.ndarray:
        """Part (x0, y0, x1, y1, cut to the decode's size) of the turned decode at 1/``scale``:
        the same pixels as that part of the whole, only that part turned."""
        image = self.photo.decode(scale)
        width, height = self.size_at(scale)
        x0, y0 = max(0, window[0]), max(0, window[1])
        x1, y1 = min(width, window[2]), min(height, window[3])
        matrix = self.matrix.copy()
        matrix[:, 2] *= image.shape[1] / self.photo.width
        matrix[:, 2] -= (x0, y0)
        return cv2.warpAffine(image, pixel_centred(matrix), (max(1, x1 - x0), max(1, y1 - y0)), flags=cv2.INTER_LINEAR)

    def turned_back(self, quads: np.ndarray) -> np.ndarray:
        """Quads (n, 4, 2) found on the turned photo, in the photo's own pixels, their corners
        again clockwise from the one nearest the top left (a tile turned less than an eighth
        keeps its first corner; a quarter clockwise, the turned box's first corner is the
        photo's bottom left one)."""
        inverse = cv2.invertAffineTransform(self.matrix)
        back = quads.astype(np.float64) @ inverse[:, :2].T + inverse[:, 2]
        return np.roll(back, -round(self.degrees / 90.0), axis=1).astype(quads.dtype)


def window_around(photo: Photo, degrees: float, detections: TileDetections) -> tuple[int, int, int, int] | None:
    """The part (x0, y0, x1, y1) of the photo turned ``degrees`` that holds ``detections`` and
    ``locate.REGION_ALONG`` of their median short side around them (as far as the region ``locate``
    searches again reaches along a hand's rows), within the turned photo; None without boxes. A
    canvas holding the whole turned photo shows its tiles smaller to the finder's first pass (a
    photo turned an eighth, 1.4 times smaller) and the finder misses more of them: on fold 4's
    photos padded to 1.4 times their size, 4 % of the labelled tiles more."""
    if not len(detections):
        return None
    matrix, size = turn_matrix(photo.width, photo.height, degrees)
    points = detections.quads.reshape(-1, 2).astype(np.float64) @ matrix[:, :2].T + matrix[:, 2]
    margin = REGION_ALONG * median(short_sides(detections.quads))
    x0, y0 = np.maximum(np.floor(points.min(axis=0) - margin), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0) + margin), size).astype(int)
    return (int(x0), int(y0), int(x1), int(y1)) if x1 - x0 >= 16 and y1 - y0 >= 16 else None
