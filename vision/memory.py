"""Large buffers given back to the system when freed (glibc's malloc, on Linux).

glibc serves a request of at least its mmap threshold by a mapping of its own, unmapped when
freed; smaller requests come from the heap, which keeps the pages it once held. Left to itself,
glibc raises that threshold (up to 32 MB) every time such a mapping is freed, so after the first
photo most decodes, crop batches and model buffers of the next came from the heap, which only
grew: a process that had read the 52 photos of ``benchmarks/bench_peer.py`` held 250-310 MB, its
peak drifting with the order of the photos. Fixing the threshold (``MMAP_THRESHOLD``) stops the
drift: every large buffer goes back when the read that made it is done (docs/benchmarks.md,
session 23). Elsewhere (not glibc) nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import threading

MMAP_THRESHOLD = 1 << 20
"""Bytes from which a buffer gets a mapping of its own (a 640 x 640 image's float planes, a batch
of crops; a single crop stays on the heap)."""
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
_done = False
_lock = threading.Lock()


def hand_back_large_buffers() -> bool:
    """Once a process: fix glibc's mmap threshold at ``MMAP_THRESHOLD``. Whether it is set (False
    where the C library is not glibc, or refused it)."""
    global _done
    with _lock:
        if _done:
            return True
        if not sys.platform.startswith("linux"):
            return False
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            mallopt = libc.mallopt
        except (OSError, AttributeError):  # musl and others have no mallopt
            return False
        mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
        _done = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
        return _done
