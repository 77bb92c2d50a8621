"""Memory a read leaves behind, handed back to the system when the process holds too much.

A read allocates and frees tens of megabytes at a time (a finder pass's activations, a batch of
crops). glibc's allocator keeps what is freed in its heap for reuse, and between the large
buffers lie small objects that live on (memo entries, a reading's records), so the heap's free
space fragments and the process's resident memory creeps up read after read: on the 52 photos
of ``benchmarks/bench_peer.py`` read twice in one process, from about 210 MB after the first
read to about 350 MB, with only about 20 MB of it in use (``docs/benchmarks.md``, session 28).
Handing the free pages back after every read (``malloc_trim``) keeps it near 150 MB between
reads but costs about a quarter of the reading time: the next read's buffers fault their pages
in again. So it is done only when the process holds more than ``RESIDENT_BUDGET_MB``: after a read,
and before the finder's pass over a far photo's finest copy (``finder.HAND_BACK_PIXELS``), which needs
about 100 MB at once. Elsewhere than Linux with glibc nothing is done.
"""

from __future__ import annotations

import functools
import os
import sys

RESIDENT_BUDGET_MB = 240
"""Resident memory a read may leave the process holding before the free heap is handed back: a
read's own peak adds up to about 60 MB (a finder pass on a working-size photo), so a process
reading photo after photo peaks at about issue 28's 300 MB or under (266-300 MB measured on the
peer photos, against 302-374 MB without)."""


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: a read that never needs it (most one-photo commands) does not pay its import

    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim  # glibc's; musl has no such function
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
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def hand_back_if_over(budget_mb: float = RESIDENT_BUDGET_MB) -> bool:
    """Hand the allocator's free pages back to the system when the process holds more than
    ``budget_mb``; whether it did."""
    resident = resident_mb()
    if resident is None or resident <= budget_mb:
        return False
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
