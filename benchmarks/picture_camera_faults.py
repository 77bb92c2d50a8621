"""The bundled sample photo as poorer cameras take it, each read by the shipped reader: a picture.

    python benchmarks/picture_camera_faults.py docs/camera_faults.jpg

The faults are ``bench_real_tables.camera_fault``'s, their amounts scaled from its 640-px photos to
the sample's width (dim at a fifth of the light); each panel is the reading as ``fanscan read
--annotate`` draws it, titled with the tiles in the hand and whether the hand is the one read from
the photo as taken.
"""

from __future__ import annotations

import os
import sys
import tempfile

import cv2
import numpy as np

PANEL = (640, 480)
TITLE_HEIGHT = 36


def camera_views(image: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """(title, the photo as that camera takes it) for the photo as taken and each fault."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_real_tables import camera_fault  # a script beside this one

    scale = image.shape[1] / 640  # the benchmark's blur lengths are for 640-px photos
    faults = [("out of focus (defocus:1.5)", "defocus", 1.5 * scale), ("shaken (motion:5)", "motion", 5 * scale),
              ("one stop over (bright:2)", "bright", 2.0), ("hazy (hazy:0.6)", "hazy", 0.6),
              ("dim (dim:0.2)", "dim", 0.2)]
    return [("as taken", image)] + [(title, camera_fault(image, kind, amount, 1)) for title, kind, amount in faults]


def panel(title: str, seen: np.ndarray, expected: dict | None) -> tuple[np.ndarray, str, dict | None]:
    """The reading of ``seen`` drawn and titled, its title, and its hand (None: refused). With no
    ``expected`` hand (the photo as taken), the reading's own hand is the one expected."""
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    try:
        reading = read_photo(cv2.imencode(".jpg", seen)[1].tobytes())
    except FanscanError:
        shown, words, hand = seen, f"{title}: refused as no tiles", None
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "annotated.jpg")
            reading.save_annotated(path)
            shown = cv2.imread(path)
        hand = reading.hand.to_json()
        exact = "read exactly" if expected is None or hand == expected else "not exact"
        words = f"{title}: {sum(t.in_hand for t in reading.tiles)} tiles in the hand, {exact}"
    band = np.full((TITLE_HEIGHT, PANEL[0], 3), 255, np.uint8)
    cv2.putText(band, words, (8, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    return np.vstack([band, cv2.resize(shown, PANEL, interpolation=cv2.INTER_AREA)]), words, hand


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: picture_camera_faults.py OUT.jpg", file=sys.stderr)
        return 2
    from fanscan.vision.samples import sample_photo_path

    image = cv2.imread(str(sample_photo_path()))
    panels, expected = [], None
    for title, seen in camera_views(image):  # the photo as taken first: its hand is the one expected
        shown, words, hand = panel(title, seen, expected)
        expected = hand if expected is None else expected
        panels.append(shown)
        print(words)
    grid = np.vstack([np.hstack(panels[row : row + 3]) for row in (0, 3)])
    if not cv2.imwrite(args[0], grid, [cv2.IMWRITE_JPEG_QUALITY, 80]):
        print(f"picture_camera_faults.py: cannot write {args[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
