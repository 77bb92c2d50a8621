"""What one photo read may cost: memory bounded by a budget checked before decoding, a bounded read
of pipes and devices, and no library warning on stderr. Peak memory is measured in a child process
by the child itself (``VmHWM``, the peak of its own address space), never in the test process:
Linux folds the parent's peak into a spawned child's ``ru_maxrss`` at exec."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanscan.errors import FanscanError
from fanscan.vision.image_io import MAX_FILE_BYTES, Photo, ReadBudget, load_photo

# Runs ``fanscan ARGS`` and prints its own peak resident memory as the last line of stderr.
_PEAK_SCRIPT = """
import sys
from fanscan.cli import main
try:
    code = main(sys.argv[1:])
finally:
    hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
    print(f"peak_kb={hwm[0].split()[1]}", file=sys.stderr)
sys.exit(code)
"""

BIG_GREY_BOUND_MB = 600
"""A 10,950 x 10,950 16-bit grey PNG (255 KB) took a read to 2.3 GB; it must stay under this."""


def run_measured(*args: str, timeout: float = 120) -> tuple[int, list[str], float]:
    """(exit status, stderr lines without the measurement, peak resident MB) of ``fanscan ARGS``."""
    if not Path("/proc/self/status").exists():
        pytest.skip("peak memory is read from /proc (Linux)")
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_SCRIPT, *args], capture_output=True, text=True, timeout=timeout
    )
    lines = done.stderr.splitlines()
    assert lines and lines[-1].startswith("peak_kb="), done.stderr
    return done.returncode, lines[:-1], int(lines[-1].removeprefix("peak_kb=")) / 1024


@pytest.fixture(scope="module")
def big_grey_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "grey16.png"
    image = Image.new("I;16", (10950, 10950), 1000)
    image.save(path)
    return path


@pytest.mark.slow
def test_read_limits_a_huge_16_bit_grey_png_reads_in_bounded_memory(big_grey_png: Path) -> None:
    assert big_grey_png.stat().st_size < 1_000_000
    code, stderr, peak_mb = run_measured("read", str(big_grey_png))
    assert code == 1
    assert stderr == [f"fanscan: error: no mahjong tiles were found in {big_grey_png}"]
    assert peak_mb < BIG_GREY_BOUND_MB


def test_read_limits_a_16_bit_png_is_scaled_to_8_bits_at_reduced_size() -> None:
    grey = np.full((400, 600), 1000, np.uint16)
    grey[:, 300:] = 4000  # the brightest value becomes white, a quarter of it a quarter grey
    buffer = io.BytesIO()
    Image.fromarray(grey).save(buffer, "PNG")
    photo = load_photo(buffer.getvalue())
    assert photo.mode.startswith("I;16")
    small = photo.decode(4)
    assert small.dtype == np.uint8 and small.shape == (100, 150, 3)
    assert abs(int(small[50, 20, 0]) - 64) <= 1 and small[50, 120, 0] == 255


def test_read_limits_png_orientation_is_applied_after_shrinking() -> None:
    array = np.zeros((200, 400, 3), np.uint8)
    array[:, :] = (0, 0, 255)
    array[:100, :200] = (255, 0, 0)  # the top-left quarter red
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, "PNG", exif=exif.tobytes())
    image = load_photo(buffer.getvalue()).decode(2)
    assert image.shape == (200, 100, 3)
    assert image[20, 80, 2] == 255 and image[20, 20, 0] == 255  # red now top-right (BGR)


def _png(width: int, height: int, mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, "PNG")
    return buffer.getvalue()


def test_read_limits_a_decode_past_the_byte_budget_is_refused_before_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    photo = load_photo(_png(4000, 3000), budget=ReadBudget(bytes=64 * 1024 * 1024))

    def no_decoding(self: Photo, scale: int) -> None:
        raise AssertionError("decoded before the budget was checked")

    monkeypatch.setattr(Photo, "_decode_with_pil", no_decoding)
    with pytest.raises(FanscanError) as refused:
        photo.decode(1)
    assert refused.value.code == "image_too_large"
    assert "\n" not in refused.value.message
    assert "more than the 64 MB a read may hold" in refused.value.message
    assert photo.decoded_pixels == 0


def test_read_limits_the_pixel_budget_counts_every_decode_of_the_read() -> None:
    photo = load_photo(_png(1000, 1000), budget=ReadBudget(pixels=1_500_000))
    photo.decode(4)  # a PNG is decoded whole: 1 million pixels
    assert photo.decoded_pixels == 1_000_000
    photo.decode(8)  # shrunk from the decode kept: free
    with pytest.raises(FanscanError, match="million decoded pixels"):
        photo.decode(1)


def test_read_limits_a_photo_that_cannot_fit_the_budget_is_refused_when_opened() -> None:
    with pytest.raises(FanscanError) as refused:
        load_photo(_png(3000, 3000, "L"), budget=ReadBudget(bytes=4 * 1024 * 1024))
    assert refused.value.code == "image_too_large"


def test_read_limits_the_default_budget_takes_a_50_megapixel_jpeg_at_full_size() -> None:
    photo = load_photo(_jpeg_header_only(8660, 5774))
    pixels, working = photo.decode_cost(1)
    assert photo.held_bytes + working < photo.budget.bytes and pixels < photo.budget.pixels


def _jpeg_header_only(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (90, 120, 90)).save(buffer, "JPEG", quality=50)
    return buffer.getvalue()


def test_read_limits_dev_zero_is_read_no_further_than_the_limit() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    code, stderr, peak_mb = run_measured("read", "/dev/zero", timeout=60)
    assert code == 1
    assert stderr == [f"fanscan: error: /dev/zero is more than the {MAX_FILE_BYTES // 2**20} MB limit"]
    assert peak_mb < MAX_FILE_BYTES / 2**20 + 150


def test_read_limits_a_photo_from_a_pipe_still_reads(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "photo.png"
    os.mkfifo(fifo)
    data = _png(64, 48)
    writer = threading.Thread(target=fifo.write_bytes, args=(data,))
    writer.start()
    try:
        photo = load_photo(fifo)
    finally:
        writer.join(10)
    assert photo.size == (64, 48)


def _corrupt_exif_jpeg() -> bytes:
    """A JPEG whose EXIF block says it holds more entries than it does (PIL: 'Corrupt EXIF data')."""
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010E] = "a description"
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (128, 128, 128)).save(buffer, "JPEG", exif=exif.tobytes())
    data = bytearray(buffer.getvalue())
    tiff = data.find(b"Exif\0\0") + 6
    data[tiff + 8 : tiff + 10] = b"\x00\xff" if data[tiff : tiff + 2] == b"MM" else b"\xff\x00"
    return bytes(data)


def test_read_limits_a_corrupt_exif_block_reads_without_a_library_warning(tmp_path: Path) -> None:
    path = tmp_path / "corrupt_exif.jpg"
    path.write_bytes(_corrupt_exif_jpeg())
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from fanscan.cli import main; sys.exit(main(sys.argv[1:]))",
         "read", str(path)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"fanscan: error: no mahjong tiles were found in {path}"]


def test_a_named_pipe_nobody_writes_into_is_waited_on_a_while_not_for_ever(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    import time

    from fanscan.vision import source_bytes

    monkeypatch.setattr(source_bytes, "PIPE_WAIT_SECONDS", 1)
    pipe = tmp_path / "pipe.jpg"
    os.mkfifo(pipe)
    started = time.monotonic()
    with pytest.raises(FanscanError, match="a pipe nothing was written into within 1 s"):
        load_photo(pipe)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("name", ["x" * 5000, "a\0b.jpg", "a\nb.jpg"])
def test_a_name_the_system_cannot_look_up_is_no_such_file_in_one_line(name: str) -> None:
    with pytest.raises(FanscanError) as caught:
        load_photo(name)
    assert caught.value.code == "not_found" and caught.value.message.isprintable()
    assert len(caught.value.message) < 260
