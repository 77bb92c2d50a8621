"""The doctests of the scoring modules (the notation grammar lives in one)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "fanscan.scoring",
    "fanscan.scoring.tiles",
    "fanscan.scoring.hand",
    "fanscan.scoring.notation",
    "fanscan.scoring.decompose",
    "fanscan.scoring.ruleset",
    "fanscan.scoring.common",
    "fanscan.scoring.app_custom.wild_chows",
    "fanscan.scoring.waits",
    "fanscan.scoring.generate",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0
