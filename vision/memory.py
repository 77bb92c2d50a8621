"""Memory a read leaves behind, handed back to the system when the process holds too much.

A read allocates and frees tens of megabytes at a time (a finder pass's activations, a batch of
crops). glibc's allocator keeps what is freed in its heap for reuse, and between the large
buffers lie small objects that live on (memo entries, a reading's records), so the heap's free
space fragments and the process's resident memory creeps up read after read: on the 52 photos
of ``benchmarks/bench_peer.py`` read twice in one process, from about 210 MB after the first
read to about 350 MB, with only about 20 MB of it in use (``docs/benchmarks.md``, session 28).
Handing the free pages back after every read (``malloc_trim``) keeps it near 150 MB between
reads but costs about a quarter of the reading time: the next read's buffers fault their pages
in again. So it is done only after a read that leaves the process above ``RESIDENT_BUDGET_MB``.
Elsewhere than Linux with glibc nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

RESIDENT_BUDGET_MB = 240
"""Resident memory a read may leave the process holding before the free heap is handed back:
with one read's own peak (at most about 60 MB more, the finder's pass on a working-size photo)
the process stays under issue 28's 300 MB."""


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def resident_mb() -> float | None:
    """The process's resident memory in MB (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * _page_size() / 2**20


@functools.cache
def _page_size() -> int:
    import resource

    return resource.getpagesize()


def hand_back_if_over(budget_mb: float = RESIDENT_BUDGET_MB) -> bool:
    """Hand the allocator's free pages back to the system when the process holds more than
    ``budget_mb``; whether it did."""
    trim = _malloc_trim()
    if trim is None:
        return False
    resident = resident_mb()
    if resident is None or resident <= budget_mb:
        return False
    trim(0)
    return True
