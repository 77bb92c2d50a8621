"""The project's reader and scorer as the web app calls them."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from fanscan.errors import FanscanError
from fanscan.web.services import ProjectScorer, read_photo_json

needs_mcr = pytest.mark.skipif(
    importlib.util.find_spec("fanscan.scoring.mcr") is None, reason="MCR rule set not installed"
)
SEVEN_PAIRS = ["1m", "1m", "3m", "3m", "5p", "5p", "7p", "7p", "9s", "9s", "E", "E", "C", "C"]


def _hand(**changes: Any) -> dict[str, Any]:
    return {"concealed": SEVEN_PAIRS, "melds": [], "win_tile": "C", "flowers": [], **changes}


@needs_mcr
def test_services_rule_sets_start_with_mcr_minimum_8() -> None:
    first = ProjectScorer().rule_sets()[0]
    assert (first["name"], first["minimum"], first["hand_size"]) == ("mcr", 8, 14)
    assert isinstance(first["fields"], list)


@needs_mcr
def test_services_scores_seven_pairs() -> None:
    # Seven Pairs 24 + All Types 6; Concealed Hand and Single Wait are excluded by Seven Pairs
    result = ProjectScorer().score(_hand(), "mcr")
    assert result["total"] == 30
    assert result["meets_minimum"] is True


@needs_mcr
def test_services_bad_hand_gives_error_not_exception() -> None:
    result = ProjectScorer().score(_hand(concealed=SEVEN_PAIRS[:-1]), "mcr")
    assert result["total"] is None
    assert result["error"]


def test_services_missing_model_is_reader_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    reader = pytest.importorskip("fanscan.vision.reader")

    def no_model(_source: bytes, **_options: Any) -> Any:
        raise FanscanError("not_found", "no classifier model at /nowhere/tile_classifier.onnx")

    monkeypatch.setattr(reader, "read_photo", no_model)
    with pytest.raises(FanscanError) as error:
        read_photo_json(b"\xff\xd8\xff")
    assert (error.value.code, error.value.message) == (
        "reader_unavailable",
        "no classifier model at /nowhere/tile_classifier.onnx",
    )


def test_services_other_reader_errors_pass_through(monkeypatch: pytest.MonkeyPatch) -> None:
    reader = pytest.importorskip("fanscan.vision.reader")

    def no_tiles(_source: bytes, **_options: Any) -> Any:
        raise FanscanError("no_tiles", "no mahjong tiles were found in the image data")

    monkeypatch.setattr(reader, "read_photo", no_tiles)
    with pytest.raises(FanscanError, match="no mahjong tiles") as error:
        read_photo_json(b"\xff\xd8\xff")
    assert error.value.code == "no_tiles"
