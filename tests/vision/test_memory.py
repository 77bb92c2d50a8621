"""Large buffers go back to the system when freed (glibc), whatever photos came before."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fanscan.vision import memory


def test_handing_back_is_set_once_and_says_so():
    first = memory.hand_back_large_buffers()
    assert memory.hand_back_large_buffers() == first  # a second call changes nothing
    if sys.platform.startswith("linux"):
        import platform

        assert first == (platform.libc_ver()[0] == "glibc")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmRSS is Linux's")
def test_a_freed_large_buffer_leaves_the_process_after_a_larger_one_was_freed():
    # Without a fixed threshold glibc raises it after the first large free, so the next large
    # buffers come from the heap; with small blocks still held between them (as a read leaves
    # its records), the heap cannot shrink and the process keeps their pages.
    script = (
        "import sys, numpy as np\n"
        "from fanscan.vision import memory\n"
        "if sys.argv[1] == 'fixed': memory.hand_back_large_buffers()\n"
        "def rss():\n"
        "    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmRSS')) // 1024\n"
        "a = np.ones(16 << 20, np.uint8); del a\n"
        "before = rss()\n"
        "parts, held = [], []\n"
        "for _ in range(20):\n"
        "    parts.append(np.ones(4 << 20, np.uint8)); held.append(bytearray(1 << 16))\n"
        "del parts\n"
        "print(rss() - before)\n"
    )
    kept = {how: int(subprocess.run([sys.executable, "-c", script, how], capture_output=True, text=True,
                                    check=True).stdout) for how in ("default", "fixed")}
    if not memory.hand_back_large_buffers():
        pytest.skip("not glibc")
    assert kept["fixed"] < 10 and kept["default"] >= 40  # MB: 80 held at first
