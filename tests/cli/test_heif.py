"""HEIC / HEIF photos (the iPhone's default) through pillow-heif, and a clear message without it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fanscan.cli import main
from fanscan.vision import heif
from fanscan.vision.classifier import DEFAULT_MODEL
from fanscan.vision.samples import SAMPLE_PATH

# The start of a HEIC file: an ISO media 'ftyp' box of brand 'heic'.
HEIC_HEADER = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"


@pytest.fixture
def heic_sample(tmp_path: Path) -> Path:
    """The bundled sample photo saved as HEIC by pillow-heif."""
    pillow_heif = pytest.importorskip("pillow_heif", reason="pillow-heif (the heif extra) is not installed")
    from PIL import Image

    path = tmp_path / "hand.heic"
    heif_image = pillow_heif.from_pillow(Image.open(SAMPLE_PATH))
    heif_image.save(str(path), quality=92)
    assert path.read_bytes()[4:12] == b"ftypheic"
    return path


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")
def test_heif_photo_reads_as_its_jpeg_does(heic_sample: Path, capsys) -> None:
    from fanscan.datasets.scenes import hand_of
    from fanscan.vision.samples import sample_groups

    assert main(["read", str(heic_sample.parent), "--json"]) == 0  # a folder finds .heic too
    result = json.loads(capsys.readouterr().out)
    assert result["file"] == str(heic_sample)
    assert result["image_size"] == [1280, 960]
    assert result["hand"] == hand_of(sample_groups())


def test_heif_without_pillow_heif_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as if not installed
    monkeypatch.setattr(heif, "_heif_ready", False)
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(HEIC_HEADER + bytes(64))
    assert main(["read", str(photo)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"fanscan: error: {photo} is a HEIC/HEIF photo; reading it needs pillow-heif: "
        "pip install 'fanscan[heif]' (or save the photo as JPEG)\n"
    )
