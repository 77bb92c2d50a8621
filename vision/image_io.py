"""Loading photos: EXIF orientation, a pixel-count limit, reduced decodes and full-resolution crops.

A ``Photo`` opens the file lazily: only the header is read until a pixel is asked for, so a
decompression bomb is refused by its pixel count before any decoding. ``Photo.decode(scale)``
returns the oriented picture at a reduced scale (JPEG's DCT scaling, so a 12-megapixel photo is
decoded at 1/2, 1/4 or 1/8), and ``Photo.crop_quad`` cuts a perspective-corrected crop from the
smallest decode that still holds the requested detail. A complete colour JPEG is decoded by
OpenCV straight into its BGR array; anything else (other formats, grey or CMYK JPEGs, a file cut
short) by PIL, which also reads every header.

Coordinates: pixels of the photo as the user sees it (EXIF orientation applied), at full size.

Memory: every read has a ``ReadBudget`` (pixels decoded over the read, bytes held at once: the
file, the decodes kept and one decode's working buffers). Each decode's cost is worked out from
the header before any pixel is decoded, and a decode past the budget is refused in one line. A
format PIL cannot decode at reduced size (PNG, TIFF, ...) is decoded at full size in its own mode
(2 bytes a pixel for 16-bit grey), shrunk in that mode, and only then turned into 8-bit BGR, in
strips of rows, so no float or 8-bit copy of the whole photo is ever made.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

from fanscan.errors import FanscanError
from fanscan.vision import exif_orientation, heif, pixel_modes
from fanscan.vision.numeric import median
from fanscan.vision.source_bytes import MAX_FILE_BYTES, read_source

MAX_PIXELS = 120_000_000
"""Photos with more pixels than this are refused before decoding (a 50 MP photo is fine)."""

PHOTO_FORMATS = ("JPEG", "PNG", "WEBP", "BMP", "TIFF", "GIF")
"""PIL's openers of the formats read, and HEIF once pillow-heif is registered (the web app's
uploads and the labelling tool's photos are the same); other formats PIL knows (icons, TGA, PCX,
PPM, EPS, ...) are no photos and are refused."""
ACCEPTED = "JPEG, PNG, WebP, BMP, TIFF, GIF or HEIC"

_JPEG_FORMATS = frozenset({"JPEG", "MPO"})
"""MPO: a JPEG followed by more pictures (a phone's preview or depth map), opened by PIL's JPEG
opener; the first picture is the photo."""

MEGABYTE = 1024 * 1024
_DCT_SCALES = (8, 4, 2, 1)

# Bytes a pixel takes in PIL's memory for each mode (RGB is stored in 4 bytes); others take 4.
_PIL_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2}


def _openers() -> tuple[str, ...]:
    return PHOTO_FORMATS + (("HEIF",) if "HEIF" in Image.OPEN else ())


@dataclass(frozen=True)
class ReadBudget:
    """What reading one photo may cost; every decode is checked against it before it starts."""

    pixels: int = 4 * 120_000_000
    """Pixels decoded over the whole read, all decodes together (a shrink of a decode kept costs none)."""
    bytes: int = 1024 * MEGABYTE
    """Bytes held at once: the file's bytes, the decodes kept, and the next decode's buffers."""


DEFAULT_BUDGET = ReadBudget()

# PIL's own warnings (a corrupt EXIF block, "Truncated File Read", a large image) would reach the
# user's terminal as library noise; the checks here say in one line what matters. They are
# filtered once, here, because warnings.catch_warnings is not thread-safe and the web app reads
# photos in threads.
warnings.filterwarnings("ignore", module=r"PIL(\.|$)")
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)

# EXIF orientation -> the turn (of a decoded array) that shows the picture upright.
_ARRAY_ORIENTATION_OPS: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    2: lambda a: cv2.flip(a, 1),
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),
    5: cv2.transpose,
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}
_OPENCV_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                   8: cv2.IMREAD_REDUCED_COLOR_8}
_JPEG_END = b"\xff\xd9"

Image.MAX_IMAGE_PIXELS = MAX_PIXELS
ImageFile.LOAD_TRUNCATED_IMAGES = False


def unsharp(image: np.ndarray, sigma: float, amount: float) -> np.ndarray:
    """``image`` with ``amount`` times its difference from itself blurred by ``sigma`` px added."""
    return cv2.addWeighted(image, 1.0 + amount, cv2.GaussianBlur(image, (0, 0), sigma), -amount, 0.0)


@dataclass
class Photo:
    """A photo opened from a path or bytes; pixels are decoded on demand and cached per scale."""

    data: bytes
    name: str
    width: int
    height: int
    orientation: int
    format: str
    mode: str = ""
    """PIL's mode for the stored picture (``RGB`` for a colour JPEG)."""
    budget: ReadBudget = DEFAULT_BUDGET
    decoded_pixels: int = 0
    """Pixels decoded so far, counted against ``budget.pixels``."""
    _cache: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _balance: np.ndarray | None = field(default=None, repr=False)
    _grey: dict[int, np.ndarray] | None = field(default=None, repr=False)
    """The decodes made black and white, per scale, while read in grey (``read_in_grey``)."""
    beyond_reach: bool = False
    """Whether its ``balance`` left a cast the gains could not take out (``white_balance.beyond_reach``)."""
    camera_judged: bool = False
    """Whether its light, haze and focus were judged (``camera_mending.mended``: once a photo)."""
    sharpening: tuple[float, float] | None = None
    """(sigma in full-size pixels, amount) of the unsharp mask every decode comes through (``sharpen``)."""
    balanced_for: frozenset[str] = frozenset()
    """What its ``balance`` tables took out, in any order: ``"dim"``, ``"haze"`` (``camera_mending.mended``),
    ``"cast"`` (a light's colour, ``white_balance.balanced_for_cast``)."""
    finder_passes: dict = field(default_factory=dict, repr=False)
    """``locate.whole_photo_pass``'s boxes per (decode scale, side); emptied by ``balance``."""
    shows_tiles_from: float = 0.5
    """The probability of showing tiles a look's boxes must reach (``tile_photo.refuse_unless_tiles``)."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the upright photo at full resolution."""
        return self.width, self.height

    def size_at(self, scale: int) -> tuple[int, int]:
        """(width, height) of the upright photo decoded at 1/``scale``, rounded up as JPEG does."""
        return -(-self.width // scale), -(-self.height // scale)

    def _open(self) -> Image.Image:
        return Image.open(io.BytesIO(self.data), formats=_openers())

    def decode(self, scale: int = 1) -> np.ndarray:
        """The upright photo as BGR uint8 at 1/``scale`` (1, 2, 4 or 8) of full size: exactly
        ``ceil(size / scale)`` (JPEG's DCT scaling, else resized), so ``full = array * (full / array)``;
        a scale coarser than one decoded already is shrunk from that one, not decoded again."""
        if scale not in _DCT_SCALES:
            raise ValueError(f"scale must be one of {_DCT_SCALES}, got {scale}")
        if self._grey is None:
            return self._in_colour(scale)
        if scale not in self._grey:
            self._grey[scale] = cv2.cvtColor(cv2.cvtColor(self._in_colour(scale), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        return self._grey[scale]

    def _in_colour(self, scale: int) -> np.ndarray:
        if scale in self._cache:
            return self._cache[scale]
        finer = [s for s in self._cache if scale % s == 0]
        if finer:
            # Shrinking a finer decode already made costs a few ms; decoding again costs 20-60.
            self._cache[scale] = array = cv2.resize(self._cache[max(finer)], self.size_at(scale), interpolation=cv2.INTER_AREA)
            return array
        array = None
        if self._plain_jpeg():
            self._charge(scale, by_opencv=True)
            array = self._decode_with_opencv(scale)
        if array is None:  # not a plain JPEG, or OpenCV failed on it: PIL, at its own cost
            self._charge(scale, by_opencv=False)
            array = self._decode_with_pil(scale)
        if self._balance is not None:
            array = cv2.LUT(array, self._balance)
        self._cache[scale] = array = self._sharpened(array)
        return array

    def _sharpened(self, array: np.ndarray) -> np.ndarray:
        if self.sharpening is None:
            return array
        return unsharp(array, self.sharpening[0] * array.shape[1] / self.width, self.sharpening[1])

    @property
    def held_bytes(self) -> int:
        """Bytes this photo holds now: the file and the decodes kept."""
        kept = [*self._cache.values(), *(self._grey or {}).values()]
        return len(self.data) + sum(array.nbytes for array in kept)

    def decode_cost(self, scale: int, by_opencv: bool | None = None) -> tuple[int, int]:
        """(pixels decoded, peak bytes of working buffers) of decoding at 1/``scale``, worked out
        from the header alone, by OpenCV's reduced JPEG decode or (``by_opencv=False``) by PIL."""
        out_w, out_h = self.size_at(scale)
        out = out_w * out_h
        if by_opencv is None:
            by_opencv = self._plain_jpeg()
        sharpened = out * 6 if self.sharpening else 0  # the blurred copy and the result
        if by_opencv:
            return out, out * 6 + sharpened  # the reduced decode, plus one turned or resized copy
        reduce = scale if self.format in _JPEG_FORMATS else 1  # only JPEG decodes at reduced size
        decoded = -(-self.width // reduce) * -(-self.height // reduce)
        native = decoded * _PIL_PIXEL_BYTES.get(self.mode, 4)
        shrunk = 0
        if decoded != out:
            # Shrunk in PIL's mode; "1" and "P" are turned into BGR at full size first.
            shrunk = decoded * 3 if self.mode in ("1", "P", "PA") else out * _PIL_PIXEL_BYTES.get(self.mode, 4)
        strip = min(out_h, pixel_modes.STRIP_ROWS) * out_w * 8
        turned = out * 3 if self.orientation in _ARRAY_ORIENTATION_OPS else 0
        return decoded, native + shrunk + out * 3 + strip + turned + sharpened

    def _charge(self, scale: int, by_opencv: bool) -> None:
        """Count a decode against the budget, or refuse it before it starts."""
        pixels, working = self.decode_cost(scale, by_opencv)
        if self.decoded_pixels + pixels > self.budget.pixels:
            raise FanscanError(
                "image_too_large",
                f"{self.name}: reading it needs more than the {self.budget.pixels // 1_000_000} "
                "million decoded pixels a read may use",
            )
        needed = self.held_bytes + working
        if needed > self.budget.bytes:
            raise FanscanError(
                "image_too_large",
                f"{self.name} ({self.width}x{self.height}, {self.mode or self.format}) needs about "
                f"{-(-needed // MEGABYTE)} MB to decode at 1/{scale}, more than the "
                f"{self.budget.bytes // MEGABYTE} MB a read may hold",
            )
        self.decoded_pixels += pixels

    def decode_as_taken(self, scale: int = 1) -> np.ndarray:
        """``decode`` without ``balance``, grey or ``sharpen`` (afresh, not kept; the budget sees
        only it): to draw on."""
        if self._balance is None and self._grey is None and self.sharpening is None:
            return self.decode(scale)
        kept = self._balance, self._cache, self._grey, self.sharpening
        self._balance, self._cache, self._grey, self.sharpening = None, {}, None, None
        try:
            return self.decode(scale)
        finally:
            self._balance, self._cache, self._grey, self.sharpening = kept

    @property
    def balanced(self) -> bool:
        """Whether the photo's decodes come through a colour balance (``balance``)."""
        return self._balance is not None

    def balance(self, table: np.ndarray, *, beyond_reach: bool = False, takes_out: str = "cast") -> None:
        """From now on every decode, those already made included, comes through ``table`` (a
        ``cv2.LUT`` table per channel, from ``white_balance.lookup_table``), after any table before
        it; ``beyond_reach``: it leaves a cast it could not take out. ``takes_out``: what the table
        takes out (``balanced_for``), once per photo each."""
        if takes_out in self.balanced_for:
            raise ValueError(f"the photo is balanced for {takes_out} already")
        for scale, array in self._cache.items():
            self._cache[scale] = cv2.LUT(array, table)
        if self._balance is not None:  # the new table after the old: one table, one lookup a decode
            table = np.take_along_axis(table, self._balance.astype(np.intp), axis=0)
        self._balance, self.beyond_reach = table, self.beyond_reach or beyond_reach
        self.balanced_for = self.balanced_for | {takes_out}
        self.finder_passes.clear()

    def sharpen(self, sigma: float, amount: float) -> None:
        """From now on every decode, those made included, comes through an unsharp mask: ``amount`` times
        its difference from itself blurred by ``sigma`` full-size pixels (scaled to the decode) added."""
        if self.sharpening is not None:
            raise ValueError("the photo is sharpened already")
        self.sharpening = sigma, amount
        self._cache = {scale: self._sharpened(array) for scale, array in self._cache.items()}
        self._grey = None if self._grey is None else {}
        self.finder_passes.clear()

    def read_in_grey(self, grey: bool) -> None:
        """From now on its decodes (after any ``balance``) come black and white, or in colour again."""
        self._grey, self.finder_passes = ({} if grey else None), {}

    def _plain_jpeg(self) -> bool:
        """A colour JPEG that ends where a JPEG ends (one cut short is left to PIL, which says so)."""
        ends = self.data[-64:].rstrip(b"\0\r\n ").endswith(_JPEG_END)
        return self.format in _JPEG_FORMATS and self.mode == "RGB" and ends

    def _decode_with_opencv(self, scale: int) -> np.ndarray | None:
        """The upright BGR picture at 1/``scale`` by OpenCV's reduced JPEG decode, or None when it
        fails. The same DCT scaling as PIL's draft mode with neither PIL's 4-byte pixels nor the
        copy and colour conversion after it: a 12 MP photo at 1/2 in 35-45 ms instead of 100-110 ms
        in a fresh process."""
        with pixel_modes.c_stderr_captured() as complaints:
            array = cv2.imdecode(np.frombuffer(self.data, np.uint8),
                                 _OPENCV_REDUCED[scale] | cv2.IMREAD_IGNORE_ORIENTATION)
        if array is None or array.ndim != 3 or complaints:
            return None  # libjpeg warned ("Corrupt JPEG data"): PIL refuses such a file in one line
        turn = _ARRAY_ORIENTATION_OPS.get(self.orientation)
        if turn is not None:
            array = turn(array)
        target = self.size_at(scale)
        if (array.shape[1], array.shape[0]) != target:
            array = cv2.resize(array, target, interpolation=cv2.INTER_AREA if scale > 1 else cv2.INTER_LINEAR)
        return array

    def _decode_with_pil(self, scale: int) -> np.ndarray:
        """The upright BGR picture at 1/``scale`` decoded by PIL (any format it reads).

        Shrunk in the stored mode and orientation first, then turned into BGR strip by strip and
        turned upright, so the only full-size buffer is PIL's own decode."""
        out_w, out_h = self.size_at(scale)
        stored_target = (out_h, out_w) if self.orientation in (5, 6, 7, 8) else (out_w, out_h)
        try:
            image = self._open()
            stored_w, stored_h = image.size
            if scale > 1 and image.format in _JPEG_FORMATS:
                image.draft("RGB", (stored_w // scale, stored_h // scale))
            image.load()
            top = pixel_modes.top_level(image)
            if image.size == stored_target:
                array = pixel_modes.bgr_in_strips(image, top)
            elif image.mode in ("1", "P", "PA"):  # PIL would shrink these by nearest pixel
                array = cv2.resize(pixel_modes.bgr_in_strips(image, top), stored_target, interpolation=cv2.INTER_AREA)
            else:
                array = pixel_modes.bgr_in_strips(image.resize(stored_target, Image.Resampling.BOX), top)
            del image
        except FanscanError:
            raise
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
            raise FanscanError("unreadable_image",
                               f"{self.name} could not be decoded ({pixel_modes.reason(error)})") from None
        turn = _ARRAY_ORIENTATION_OPS.get(self.orientation)
        return turn(array) if turn is not None else array

    def scale_for(self, quads: np.ndarray, min_side: float) -> int:
        """The coarsest decode scale at which every quad's shorter side still spans ``min_side`` px."""
        if len(quads) == 0:
            return 8
        sides = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2)
        shortest = median(sides.min(axis=1))
        for scale in _DCT_SCALES:
            if shortest / scale >= min_side:
                return scale
        return 1

    def decode_window(self, scale: int, window: tuple[int, int, int, int]) -> np.ndarray:
        """Part (x0, y0, x1, y1, in the pixels of the decode at 1/``scale``) of that decode."""
        return self.decode(scale)[window[1]:window[3], window[0]:window[2]]

    def crop_quad(self, quad: np.ndarray, out_w: int, out_h: int, scale: int, *, mirrored: bool = False) -> np.ndarray:
        """Warp the quad (4 corners, full-resolution pixels, clockwise from top-left) to out_w x out_h;
        beyond the frame its last pixels repeated, or (``mirrored``) the picture mirrored about it."""
        image = self.decode(scale)
        fx, fy = image.shape[1] / self.width, image.shape[0] / self.height
        src = (np.asarray(quad, dtype=np.float32) * np.float32([fx, fy])).astype(np.float32)
        dst = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
        matrix = cv2.getPerspectiveTransform(src, dst)
        border = cv2.BORDER_REFLECT if mirrored else cv2.BORDER_REPLICATE
        return cv2.warpPerspective(image, matrix, (out_w, out_h), flags=cv2.INTER_AREA, borderMode=border)


def load_photo(source: str | os.PathLike[str] | bytes, budget: ReadBudget = DEFAULT_BUDGET,
               name: str | None = None) -> Photo:
    """Open a photo (path or bytes), check it is an image of acceptable size; nothing is decoded yet.

    ``name`` is what its messages call it (by default its path, or "the image data" for bytes):
    a server names a photo as its user knows it, not by the server's own path.

    HEIC / HEIF photos are read through pillow-heif when it is installed (the ``heif`` extra).
    Raises FanscanError ``not_found``, ``unreadable_image`` or ``image_too_large`` (also when even
    the smallest decode would not fit ``budget``).
    """
    data, source_name = read_source(source)
    name = name or source_name
    if not data:
        raise FanscanError("unreadable_image", f"{name} is empty")
    if heif.is_heif(data):
        heif.register_opener(name)
    try:
        image = Image.open(io.BytesIO(data), formats=_openers())
        width, height = image.size
    except Image.DecompressionBombError:
        raise FanscanError(
            "image_too_large", f"{name} has more than {MAX_PIXELS // 1_000_000} megapixels"
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise FanscanError("unreadable_image", f"{name} is not an image file fanscan can read ({ACCEPTED})") from None
    if width * height > MAX_PIXELS:
        raise FanscanError(
            "image_too_large",
            f"{name} is {width}x{height} ({width * height / 1e6:.0f} megapixels), "
            f"more than the {MAX_PIXELS // 1_000_000}-megapixel limit",
        )
    if width < 16 or height < 16:
        raise FanscanError("unreadable_image", f"{name} is only {width}x{height} pixels")
    orientation = exif_orientation.orientation(image, data)
    if orientation in (5, 6, 7, 8):
        width, height = height, width
    photo = Photo(data, name, width, height, orientation, image.format or "unknown", image.mode, budget)
    pixels, working = photo.decode_cost(8)
    if pixels > budget.pixels or photo.held_bytes + working > budget.bytes:
        photo._charge(8, photo._plain_jpeg())  # says which limit, in one line
    return photo
