"""The MCR fan table: the 81 fans of the rules in order, the ruling row, sound exclusions."""

from __future__ import annotations

import re

import pytest
from fanscan.datasets.shared import shared_path
from fanscan.scoring.mcr.fans import FANS, RULING_FANS

POINTS = (
    [88] * 7
    + [64] * 6
    + [48] * 2
    + [32] * 3
    + [24] * 9
    + [16] * 6
    + [12] * 5
    + [8] * 9
    + [6] * 7
    + [4] * 4
    + [2] * 10
    + [1] * 13
)


def test_fans_table_has_81_fans_and_the_ruling_row() -> None:
    official = [f for f in FANS if f.id not in RULING_FANS]
    assert len(official) == 81
    assert len({f.id for f in FANS}) == len(FANS) == 82
    assert [f.points for f in official] == POINTS


def test_fans_table_runs_from_88_down_to_1() -> None:
    points = [f.points for f in FANS]
    assert points == sorted(points, reverse=True)


def test_fans_ruling_row_is_concealed_and_melded_kong_at_5() -> None:
    (row,) = [f for f in FANS if f.id in RULING_FANS]
    assert (row.chinese, row.points) == ("明暗杠", 5)


def test_fans_exclusions_have_no_cycle() -> None:
    excludes = {f.id: set(f.excludes) for f in FANS}

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for nxt in excludes[start]:
            if nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt})):
                return True
        return False

    assert [f.id for f in FANS if reaches(f.id, f.id, set())] == []


def test_fans_chinese_names_follow_the_seed() -> None:
    seed = shared_path("seeds", "002_7805da11f18d4eaf.txt")
    if seed is None:
        pytest.skip("../shared is not on this machine")
    text = seed.read_text(encoding="utf-8")
    # The seed holds the table twice, each copy with a different typo; a name must match one.
    copies = [_names(text, text.index("88番 1")), _names(text, text.rindex("88番 1"))]
    official = [f for f in FANS if f.id not in RULING_FANS]
    for number, fan in enumerate(official):
        assert fan.chinese in (copies[0][number], copies[1][number])


def _names(text: str, position: int) -> list[str]:
    names = []
    for number in range(1, 82):
        found = re.compile(rf"(?<!\d){number} ([\u4e00-\u9fff]+)").search(text, position)
        assert found is not None
        names.append(found.group(1))
        position = found.end()
    return names
