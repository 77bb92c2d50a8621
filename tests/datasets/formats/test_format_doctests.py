"""The doctests of the format modules (class maps, the YOLO split, VOC's whole pixels)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "fanscan.datasets.formats.class_map",
        "fanscan.datasets.formats.yolo",
        "fanscan.datasets.formats.voc",
    ],
)
def test_format_doctests_pass(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0
