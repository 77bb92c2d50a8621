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


def panel(title: str, seen: np.ndarray, expected: dict) -> tuple[np.ndarray, str]:
    """The reading of ``seen`` drawn and titled, and its title."""
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    try:
        reading = read_photo(cv2.imencode(".jpg", seen)[1].tobytes())
    except FanscanError:
        shown, words = seen, f"{title}: refused as no tiles"
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "annotated.jpg")
            reading.save_annotated(path)
            shown = cv2.imread(path)
        exact = "read exactly" if reading.hand.to_json() == expected else "not exact"
        words = f"{title}: {sum(t.in_hand for t in reading.tiles)} tiles in the hand, {exact}"
    band = np.full((TITLE_HEIGHT, PANEL[0], 3), 255, np.uint8)
    cv2.putText(band, words, (8, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    return np.vstack([band, cv2.resize(shown, PANEL, interpolation=cv2.INTER_AREA)]), words


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: picture_camera_faults.py OUT.jpg", file=sys.stderr)
        return 2
    from fanscan.vision.reader import read_photo
    from fanscan.vision.samples import sample_photo_path

    image = cv2.imread(str(sample_photo_path()))
    expected = read_photo(sample_photo_path()).hand.to_json()
    panels = []
    for title, seen in camera_views(image):
        shown, words = panel(title, seen, expected)
        panels.append(shown)
        print(words)
    grid = np.vstack([np.hstack(panels[row : row + 3]) for row in (0, 3)])
    cv2.imwrite(args[0], grid, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return 0


if __name__ == "__main__":
    sys.exit(main())
