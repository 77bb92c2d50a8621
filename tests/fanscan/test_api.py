"""The Python API: ``from fanscan import read_photo, score, parse_notation``, loaded lazily."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

import fanscan
from fanscan.vision.classifier import DEFAULT_MODEL

HEAVY = ("cv2", "onnxruntime", "numpy", "PIL")


def _loaded_after(code: str) -> list[str]:
    script = f"import sys\n{code}\nprint(*[m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_api_import_fanscan_loads_nothing_heavy() -> None:
    assert _loaded_after("import fanscan") == []
    assert _loaded_after("from fanscan import score, parse_notation, Hand") == []


def test_api_read_photo_loads_the_reader_on_first_use() -> None:
    assert "cv2" in _loaded_after("from fanscan import read_photo")


def test_api_names_are_documented_and_listed() -> None:
    for name in ("read_photo", "score", "parse_notation", "Hand", "PhotoReading"):
        assert name in fanscan.__all__ and name in dir(fanscan)
        assert name in (fanscan.__doc__ or "")
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        fanscan.nothing  # noqa: B018


def test_api_docstring_examples_pass() -> None:
    failures, tried = doctest.testmod(fanscan)
    assert tried > 0 and failures == 0


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")
def test_api_a_photo_reading_is_scored_as_it_is() -> None:
    from fanscan import Hand, parse_notation, read_photo, score
    from fanscan.vision.samples import SAMPLE_PATH

    reading = read_photo(SAMPLE_PATH)
    assert isinstance(reading.hand, Hand)
    # The sample's hand, written in the notation by hand: the chow 234p, the kong of C, 4s won.
    assert reading.hand == parse_notation("[234p][CCCC]234m23s55p4s+4f")
    result = score(reading.hand)
    # Mixed Triple Chow 8, Dragon Pung 2, Concealed Kong 2, and the flower.
    assert (result.total, result.flower_points) == (13, 1)
    assert score(reading.to_json()["hand"]).to_json() == result.to_json()  # the JSON dict too
    assert all(isinstance(hand, Hand) for _, hand in reading.alternatives)


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped classifier model")
def test_api_a_wrongly_read_hand_scores_to_an_error_not_an_exception() -> None:
    from fanscan import read_photo, score
    from fanscan.vision.samples import SAMPLE_PATH

    hand = read_photo(SAMPLE_PATH).hand
    short = hand.replace(concealed=hand.concealed[1:])  # as if a tile had been missed
    result = score(short)
    assert result.total is None and "13 tiles" in (result.error or "")
