"""The bundled sample photo: a hand the project rendered itself with ``datasets/scenes.py``.

It shows an exposed chow with its claimed tile turned sideways, a concealed kong (back, face,
face, back), a flower and the winning tile standing apart; ``SAMPLE_GROUPS``, ``SAMPLE_SEED``
and ``SAMPLE_SIZE`` remake it (``python -m fanscan.vision.samples``). The README's quick start
scores it with ``fanscan score --sample``.
"""

from __future__ import annotations

import sys
from pathlib import Path

SAMPLE_PATH = Path(__file__).with_name("samples") / "sample_hand.jpg"
SAMPLE_SEED = 2138
SAMPLE_SIZE = (1280, 960)
SAMPLE_STYLE = "gnome-smooth"


def sample_photo_path() -> Path:
    """Path of the bundled sample photo (a JPEG)."""
    return SAMPLE_PATH


def sample_groups() -> list:
    """The sample's hand: 234m 234p 234s (mixed triple chow), a red dragon kong, pair of 5p, flower 4f."""
    from fanscan.datasets.scenes import SceneGroup

    return [
        SceneGroup("concealed", ("2m", "3m", "4m", "2s", "3s", "5p", "5p")),
        SceneGroup("win", ("4s",)),
        SceneGroup("chow", ("3p", "2p", "4p"), 0),
        SceneGroup("concealed_kong", ("C", "C", "C", "C")),
        SceneGroup("flowers", ("4f",)),
    ]


def make_sample(path: Path = SAMPLE_PATH) -> None:
    """Render the sample photo to ``path`` (atomically)."""
    from fanscan.datasets.scenes import generate_scene

    from fanscan.atomic import write_bytes_atomic

    scene = generate_scene(SAMPLE_SEED, size=SAMPLE_SIZE, style=SAMPLE_STYLE, groups=sample_groups())
    write_bytes_atomic(path, scene.jpeg)


if __name__ == "__main__":
    make_sample(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE_PATH)
