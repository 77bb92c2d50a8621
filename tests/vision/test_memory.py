"""The memory a read freed goes back to the system when the process holds more than its budget."""

from __future__ import annotations

import sys

import pytest

from fanscan.errors import FanscanError
from fanscan.vision import memory

linux_glibc = pytest.mark.skipif(not sys.platform.startswith("linux") or memory._malloc_trim() is None,
                                 reason="glibc's malloc_trim is Linux's")


@linux_glibc
def test_resident_memory_is_read() -> None:
    resident = memory.resident_mb()
    assert resident is not None and 5 < resident < 100_000


@linux_glibc
def test_freed_heap_goes_back_when_over_the_budget() -> None:
    # 160 MB of heap chunks (each under glibc's mmap threshold) with one chunk kept live above
    # them, so that freeing the rest leaves free pages the allocator keeps for itself.
    chunks = [bytearray(48 * 1024) for _ in range(160 * 1024 // 48)]
    keep = bytearray(48 * 1024)
    chunks.clear()
    held = memory.resident_mb()
    assert memory.hand_back_if_over(0)
    handed_back = memory.resident_mb()
    assert held - handed_back > 40, (held, handed_back)
    del keep


def test_nothing_is_done_under_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: trims.append)
    monkeypatch.setattr(memory, "resident_mb", lambda: 100.0)
    assert not memory.hand_back_if_over(240)
    assert memory.hand_back_if_over(99)
    assert trims == [0]


def test_nothing_is_done_without_malloc_trim_or_a_resident_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "_malloc_trim", lambda: None)
    monkeypatch.setattr(memory, "resident_mb", lambda: 500.0)
    assert not memory.hand_back_if_over(0)
    trims: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: trims.append)
    monkeypatch.setattr(memory, "resident_mb", lambda: None)
    assert not memory.hand_back_if_over(0)
    assert trims == []


def test_a_read_hands_memory_back_even_when_it_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision import reader

    calls: list[tuple] = []
    monkeypatch.setattr(reader.memory, "hand_back_if_over", lambda *args: calls.append(args))
    class _NeverAsked:  # the read fails at the photo, before any crop is classified
        def probabilities(self, crops):  # noqa: ANN001, ANN202
            raise AssertionError("the classifier was asked")

    with pytest.raises(FanscanError, match="not an image"):
        reader.read_photo(b"not an image at all", classifier=_NeverAsked(), flower_looks=False)
    assert calls == [()]
