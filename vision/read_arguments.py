"""``read_photo``'s arguments refused before any reading, each in one line: the kinds a caller of
the Python API can get wrong (a classifier that is none, a debug folder that is a file, a hand
size given as text), which would otherwise fail deep inside a read, or after it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


def check_read_arguments(source: Any, classifier: Any, debug_dir: str | os.PathLike[str] | None,
                         hand_size: Any) -> None:
    if not isinstance(source, (str, os.PathLike, bytes, bytearray, memoryview)):
        raise FanscanError("bad_option", f"a photo is a path or its bytes, not {type(source).__name__}")
    if classifier is not None and not callable(getattr(classifier, "probabilities", None)):
        raise FanscanError("bad_option", f"classifier must be a TileClassifier (or have its probabilities() "
                                         f"and looks()), not {type(classifier).__name__}")
    labels = getattr(classifier, "labels", None)
    if classifier is not None and labels is not None and tuple(labels) != CLASS_LABELS:
        raise FanscanError("bad_model", f"the photo reader needs a classifier of every face ({len(CLASS_LABELS)} "
                                        f"classes, 1m to back), not one of {len(labels)}")
    if hand_size is not None and (not isinstance(hand_size, int) or isinstance(hand_size, bool)):
        raise FanscanError("bad_option", f"hand_size is a whole number of tiles, not {hand_size!r:.40}")
    if debug_dir is not None and Path(debug_dir).exists() and not Path(debug_dir).is_dir():
        raise FanscanError("bad_path", f"debug_dir {debug_dir} is a file, not a folder")
