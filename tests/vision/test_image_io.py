"""Loading photos: orientation, reduced decodes, crops and every kind of bad input."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from fanscan.vision.image_io import MAX_PIXELS, load_photo
from PIL import Image

from fanscan.errors import FanscanError


def _jpeg(image: Image.Image, **kwargs: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=95, **kwargs)
    return buffer.getvalue()


def _marked(width: int = 400, height: int = 200) -> Image.Image:
    """A picture whose top-left quarter is red and the rest blue, to see how it was turned."""
    array = np.zeros((height, width, 3), np.uint8)
    array[:, :] = (0, 0, 255)
    array[: height // 2, : width // 2] = (255, 0, 0)
    return Image.fromarray(array)


def test_image_io_exif_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: rotate 90 degrees clockwise to show
    photo = load_photo(_jpeg(_marked(), exif=exif.tobytes()))
    assert photo.size == (200, 400)
    image = photo.decode(1)
    assert image.shape == (400, 200, 3)
    # After a clockwise turn the red quarter sits top-right (BGR: red is channel 2).
    assert image[50, 150, 2] > 200 and image[50, 150, 0] < 60
    assert image[50, 50, 0] > 200


def test_image_io_reduced_decode_has_the_scaled_size() -> None:
    photo = load_photo(_jpeg(_marked(1600, 1200)))
    assert photo.decode(4).shape == (300, 400, 3)
    assert photo.decode(8).shape == (150, 200, 3)


def test_image_io_coarser_decode_is_shrunk_from_a_finer_one() -> None:
    data = _jpeg(_marked(1600, 1200))
    photo = load_photo(data)
    fine = photo.decode(2)
    shrunk = photo.decode(4)
    assert shrunk.shape == (300, 400, 3)
    assert photo.decode(4) is shrunk  # cached
    direct = load_photo(data).decode(4)
    assert fine.shape == (600, 800, 3)
    assert np.abs(shrunk.astype(int) - direct.astype(int)).mean() < 3


def test_image_io_crop_quad_is_upright_and_sized() -> None:
    photo = load_photo(_jpeg(_marked(800, 400)))
    quad = np.float32([[0, 0], [400, 0], [400, 200], [0, 200]])  # the red quarter
    crop = photo.crop_quad(quad, 48, 64, 2)
    assert crop.shape == (64, 48, 3)
    assert crop[:, :, 2].mean() > 200 and crop[:, :, 0].mean() < 60


def test_image_io_a_crop_past_the_frame_repeats_its_last_pixels_or_mirrors_the_picture() -> None:
    # Columns 150-174 black, 175-199 white (the last); the crop, x 150-250, reaches 50 px past the edge.
    array = np.zeros((100, 200, 3), np.uint8)
    array[:, 175:] = 255
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, "PNG")
    photo = load_photo(buffer.getvalue())
    quad = np.float32([[150, 0], [250, 0], [250, 100], [150, 100]])
    repeated, mirrored = photo.crop_quad(quad, 40, 20, 1), photo.crop_quad(quad, 40, 20, 1, mirrored=True)
    for crop in (repeated, mirrored):
        assert crop[:, :8].max() < 30 and crop[:, 12:28].min() > 225  # the part inside, then white
    assert repeated[:, 32:].min() > 225  # the white last column repeated
    assert mirrored[:, 32:].max() < 30  # the black before it, mirrored


@pytest.mark.parametrize("mode", ["L", "CMYK", "RGBA", "P", "I;16"])
def test_image_io_decodes_any_mode_to_bgr(mode: str) -> None:
    image = _marked().convert("RGBA") if mode == "RGBA" else _marked()
    if mode == "RGBA":
        alpha = np.full((200, 400), 255, np.uint8)
        alpha[:, 200:] = 0  # transparent right half shows as white
        image.putalpha(Image.fromarray(alpha))
    elif mode == "I;16":
        image = Image.fromarray(np.asarray(image.convert("L")).astype(np.uint16) * 256)
    else:
        image = image.convert(mode)
    buffer = io.BytesIO()
    image.save(buffer, "TIFF" if mode in ("CMYK", "I;16") else "PNG")
    decoded = load_photo(buffer.getvalue()).decode(1)
    assert decoded.shape == (200, 400, 3) and decoded.dtype == np.uint8
    if mode == "RGBA":
        assert decoded[100, 300].min() == 255


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height (the pixel data is never read)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


def _truncated_jpeg() -> bytes:
    data = _jpeg(_marked(800, 600))
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        pytest.param(b"", "unreadable_image", "empty", id="empty"),
        pytest.param(b"hello, this is not a picture", "unreadable_image", "not an image", id="text"),
        pytest.param(_png_header_only(20000, 20000), "image_too_large", "megapixel", id="bomb"),
        pytest.param(_png_header_only(12000, 12000), "image_too_large", "megapixel", id="over-limit"),
    ],
)
def test_image_io_rejects_bad_bytes(data: bytes, code: str, words: str) -> None:
    with pytest.raises(FanscanError) as caught:
        load_photo(data).decode(1)
    assert caught.value.code == code
    assert words in caught.value.message
    assert "\n" not in caught.value.message


def test_image_io_limit_is_checked_before_decoding() -> None:
    assert 12000 * 12000 > MAX_PIXELS
    with pytest.raises(FanscanError):
        load_photo(_png_header_only(12000, 12000))  # fails on open, with no decode asked for


def test_image_io_truncated_file_fails_on_decode() -> None:
    photo = load_photo(_truncated_jpeg())
    with pytest.raises(FanscanError) as caught:
        photo.decode(1)
    assert caught.value.code == "unreadable_image"


def test_image_io_missing_file_and_directory(tmp_path) -> None:
    with pytest.raises(FanscanError) as missing:
        load_photo(tmp_path / "nope.jpg")
    assert missing.value.code == "not_found" and "nope.jpg" in missing.value.message
    with pytest.raises(FanscanError) as folder:
        load_photo(tmp_path)
    assert folder.value.code == "unreadable_image" and "directory" in folder.value.message


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("scale", [1, 2, 4])
def test_image_io_opencv_and_pil_decodes_agree(orientation: int, scale: int) -> None:
    # A colour JPEG is decoded by OpenCV, anything else by PIL: both must give the same upright
    # picture at the same size, whatever the EXIF orientation.
    rng = np.random.default_rng(orientation)
    picture = np.repeat(np.repeat(rng.integers(0, 255, (30, 44, 3), np.uint8), 16, 0), 16, 1)
    picture[:100, :150] = (255, 0, 0)  # a red corner to see the turn by
    exif = Image.Exif()
    exif[0x0112] = orientation
    photo = load_photo(_jpeg(Image.fromarray(picture[:477, :701]), exif=exif.tobytes()))
    assert photo._plain_jpeg()
    by_opencv = photo._decode_with_opencv(scale)
    by_pil = photo._decode_with_pil(scale)
    assert by_opencv is not None
    assert by_opencv.shape == by_pil.shape == (-(-photo.height // scale), -(-photo.width // scale), 3)
    assert np.abs(by_opencv.astype(int) - by_pil.astype(int)).mean() < 1.0


def test_image_io_a_cut_jpeg_and_a_grey_one_go_to_pil() -> None:
    assert not load_photo(_truncated_jpeg())._plain_jpeg()
    grey = load_photo(_jpeg(_marked().convert("L")))
    assert not grey._plain_jpeg()
    assert grey.decode(2).shape == (100, 200, 3)
    assert load_photo(_jpeg(_marked()))._plain_jpeg()


def test_image_io_a_corrupt_jpeg_fails_in_one_line_without_libjpeg_noise(capfd: pytest.CaptureFixture[str]) -> None:
    # The middle of a complete JPEG overwritten: OpenCV's libjpeg would decode it with a
    # "Corrupt JPEG data" warning on stderr; the photo goes to PIL instead, which refuses it.
    rng = np.random.default_rng(0)
    data = bytearray(_jpeg(Image.fromarray(rng.integers(0, 255, (400, 600, 3), np.uint8))))
    middle = len(data) // 2
    data[middle : middle + 2000] = b"\xff" * 2000
    photo = load_photo(bytes(data))
    assert photo._plain_jpeg()
    assert photo._decode_with_opencv(2) is None
    with pytest.raises(FanscanError) as caught:
        photo.decode(2)
    assert caught.value.code == "unreadable_image" and "\n" not in caught.value.message
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("kind", ["TGA", "ICO", "PCX", "PPM", "SGI"])
def test_image_io_formats_that_are_no_photos_are_refused_as_the_web_app_refuses_them(kind: str) -> None:
    buffer = io.BytesIO()
    _marked(64, 48).save(buffer, kind)
    Image.open(io.BytesIO(buffer.getvalue())).load()  # PIL itself reads it
    with pytest.raises(FanscanError) as caught:
        load_photo(buffer.getvalue(), name="icon")
    assert caught.value.code == "unreadable_image"
    assert caught.value.message == "icon is not an image file fanscan can read (JPEG, PNG, WebP, BMP, TIFF, GIF or HEIC)"


def test_image_io_a_phones_multi_picture_jpeg_is_decoded_as_a_jpeg_at_reduced_size() -> None:
    """An MPO (a JPEG with a preview or depth map after it, as some phones save) is decoded by
    OpenCV's reduced JPEG decode like any JPEG, its first picture only."""
    picture = _marked(800, 600)
    buffer = io.BytesIO()
    picture.save(buffer, "MPO", save_all=True, append_images=[Image.new("RGB", (80, 60), "green")], quality=95)
    photo = load_photo(buffer.getvalue())
    assert photo.format == "MPO" and photo.size == (800, 600)
    assert photo._plain_jpeg()
    assert photo.decode_cost(4) == (200 * 150, 200 * 150 * 6)
    quarter = photo.decode(4)
    assert quarter.shape == (150, 200, 3)
    assert tuple(quarter[20, 20]) == pytest.approx((0, 0, 255), abs=12)  # red (BGR) top left: the first picture
    assert tuple(quarter[120, 180]) == pytest.approx((255, 0, 0), abs=12)
