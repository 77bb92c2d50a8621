"""The sessions of the models a read needs after the finder's, opened in a thread meanwhile.

Opening an onnxruntime session takes a few to tens of milliseconds each; the first read of a
process opens the refiner's, the classifiers' and the numeral reader's while it decodes the
photo and runs the finder (``reader``, step 1).
"""

from __future__ import annotations

import atexit
import threading
from typing import Any

from fanscan.vision import refine
from fanscan.vision.flowers import FlowerLooks

_opening: threading.Thread | None = None


def open_meanwhile(classifier: Any, looks: FlowerLooks | None) -> None:
    """Once a process, open the sessions the read needs after the finder's (the refiner's, the
    classifiers', the numeral reader's) in a thread, while this one decodes the photo and runs
    the finder: each session opens under its own lock, so a read that gets there first waits. A
    model of the caller's without such a session is left to open when first run."""
    global _opening
    if _opening is not None:
        return
    models = (classifier, getattr(looks, "specialist", None), getattr(looks, "numerals", None))
    sessions = [s for s in (refine._get_session(), *(getattr(model, "_session", None) for model in models))
                if s is not None]

    def open_them() -> None:
        for session in sessions:
            try:
                session._open()
            except Exception:  # noqa: BLE001 - the read itself opens it again and says what is wrong
                pass

    _opening = threading.Thread(target=open_them, name="fanscan-open-sessions", daemon=True)
    _opening.start()
    # A process that ends while a session is still opening (a read refused at once) would be
    # torn down under onnxruntime's feet ("terminate called without an active exception").
    atexit.register(_opening.join)
