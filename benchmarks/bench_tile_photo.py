"""The reader's "does this photo show tiles?" check on photos it was never fitted on.

    python benchmarks/bench_tile_photo.py [--model models/tile_photo.json ...] [--scenes 150]
        [--no-tiles 300] [--json]

Photos of tiles: the held-out rf-chinese sources (fold ``HELD_OUT_FOLD``, least turned version;
``FANSCAN_SHARED`` where the shared folder is not beside the checkout), the untagged real photos
(close-ups and grids of faces) and fresh generated scenes (seeds from 51,000: plain, cluttered,
standing in turn). Photos of none: the pictures of Debian packages (``gnome-backgrounds``,
``gimp-data``: ``no_tile_photos.debian_pictures``; none of them fitted on), the half of the
Plasma wallpapers never fitted on (whole and cropped), pictures of noise (``--noise``, seeds from
100,000) and fresh ``no_tile_photos`` seeds (from 100,000), each kind counted apart. Each photo is read once up to
the reader's third step; every ``--model`` given (default: the shipped one) judges the same
boxes, beside "no check" (every photo in which the finder boxes something is read as tiles, as
before the check). Printed per source: photos, photos judged to show tiles, and the photos of
tiles turned away by name.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path


WALLPAPER_VIEWS = 4
"""Each held-out wallpaper is read whole and in three crops (``no_tile_photos.picture_views``)."""


def _photos(scenes: int, no_tiles: int, noise: int = 100) -> list[tuple[str, str, int, object]]:
    """(source, name, shows tiles, loader) of every photo tried."""
    from fanscan.datasets.no_tile_photos import (
        debian_pictures, kind_of, no_tile_photo, noise_photo, wallpaper_half, wallpapers)
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, least_turned, load_table_photos
    from fanscan.datasets.scenes import generate_scene
    from fanscan.datasets.shared import shared_path
    from fanscan.models.fit_tile_photo import encoded, picture_view

    held_out = least_turned(in_folds(load_table_photos(), [HELD_OUT_FOLD]))  # none without ../shared
    photos: list[tuple[str, str, int, object]] = [("rf-chinese fold 4", p.source, 1, p.path) for p in held_out]
    untagged = shared_path("data", "camerash", "untagged-photos")
    if untagged is not None and untagged.is_dir():
        photos += [("untagged real photos", p.name, 1, p) for p in sorted(untagged.iterdir())
                   if p.suffix.lower() in {".jpg", ".jpeg", ".png"}]
    kinds = ("plain", "cluttered", "standing")
    for seed in range(51000, 51000 + scenes):
        kind = kinds[seed % 3]
        photos.append((f"scenes, {kind}", str(seed), 1,
                       lambda s=seed, k=kind: generate_scene(s, clutter=k == "cluttered", standing=k == "standing").jpeg))
    photos += [("Debian pictures", p.name, 0, p) for p in debian_pictures()]
    for number, path in enumerate(p for p in wallpapers() if wallpaper_half(p) == 1):  # the half never fitted on
        for view in range(WALLPAPER_VIEWS):
            photos.append(("Plasma wallpapers (held out)", f"{path.parent.parent.parent.name}:{view}", 0,
                           lambda p=path, v=view, n=number: picture_view(p, n + 1000, v)))
    for seed in range(100000, 100000 + noise):
        photos.append(("noise", str(seed), 0, lambda s=seed: encoded(noise_photo(s), ".png")))
    for seed in range(100000, 100000 + no_tiles):  # each drawn only when it is read
        photos.append((f"no tiles, {kind_of(seed)}", str(seed), 0, lambda s=seed: encoded(no_tile_photo(s)[0])))
    return photos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, action="append", default=[])
    parser.add_argument("--scenes", type=int, default=150)
    parser.add_argument("--no-tiles", type=int, default=300)
    parser.add_argument("--noise", type=int, default=100, help="pictures of noise (seeds from 100,000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from fanscan.errors import FanscanError
    from fanscan.models.fit_tile_photo import read_boxes
    from fanscan.vision.tile_photo import MODEL_PATH, load_model

    models = {"no check": None}
    for path in args.model or [MODEL_PATH]:
        try:
            model = load_model(path)
        except (OSError, ValueError, KeyError, TypeError) as error:  # JSON errors are ValueErrors
            raise SystemExit(f"{path}: not a tile photo model ({error})") from None
        if model is None:
            raise SystemExit(f"no model at {path}")
        models[str(path)] = model
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    turned_away: dict[str, list[str]] = defaultdict(list)
    let_through: dict[str, list[str]] = defaultdict(list)
    for source, name, truth, load in _photos(args.scenes, args.no_tiles, args.noise):
        try:
            readings = read_boxes(load() if callable(load) else load)
        except FanscanError:
            readings = []
        for label, model in models.items():
            shows = bool(readings) and (model is None or model.shows_tiles(readings))
            cell = counts[label][source]
            cell[0] += 1
            cell[1] += shows
            if truth and not shows and readings:
                turned_away[label].append(f"{source}: {name}")
            if not truth and shows and label != "no check":
                let_through[label].append(f"{source}: {name}")
    result = {label: {source: {"photos": n, "judged_tiles": k} for source, (n, k) in sorted(by.items())}
              for label, by in counts.items()}
    if args.json:
        print(json.dumps({"counts": result, "turned_away": turned_away, "let_through": let_through}))
        return 0
    sources = sorted({s for by in counts.values() for s in by})
    print(f"{'source':28} {'photos':>6}  " + "  ".join(f"{Path(label).name:>16}" for label in counts))
    for source in sources:
        n = counts["no check"][source][0]
        print(f"{source:28} {n:>6}  " + "  ".join(f"{counts[label][source][1]:>16}" for label in counts))
    print("(each model's column: photos judged to show tiles)")
    for label, names in turned_away.items():
        print(f"{Path(label).name}: photos of tiles turned away: {', '.join(names) or 'none'}")
    for label, names in let_through.items():
        print(f"{Path(label).name}: photos of no tiles let through: {len(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
