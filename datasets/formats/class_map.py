"""Class maps: another tool's class names -> fanscan tile codes, for importing its datasets.

A map is a YAML (or JSON) mapping ``class name: tile code``; a class mapped to nothing (``null``,
``~`` or ``""``) is left out on import, with its boxes. A class name that already is a tile code
needs no entry; any other class missing from the map is an error that names it. Ready maps for
common public sets ship in ``maps/`` and are named without their suffix (``bundled_maps()``).

>>> rf = load_class_map("rf-chinese")
>>> rf.code("sc1", "here"), rf.code("hdr", "here"), rf.code("bs1", "here")
('1m', 'C', '5f')
>>> custom = parse_class_map("joker: null\\nred-five: 5p\\n", "mine.yaml")
>>> custom.code("joker", "line 3"), custom.code("red-five", "line 4"), custom.left_out
(None, '5p', {'joker'})
>>> custom.code("dragon", "line 5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fanscan.errors.FanscanError: line 5: class 'dragon' is not in the class map mine.yaml (map it ...
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS

MAPS_DIR = Path(__file__).with_name("maps")

#: (class name, where it was read) -> tile code, or None for a class to leave out.
ClassCoder = Callable[[str, str], "str | None"]


@dataclass
class ClassMap:
    """One map, with the classes it has been asked for and left out so far (``left_out``)."""

    name: str
    codes: Mapping[str, str | None]
    left_out: set[str] = field(default_factory=set)

    def code(self, class_name: str, where: str) -> str | None:
        """The tile code of ``class_name``; None for a class mapped to nothing."""
        if class_name in self.codes:
            code = self.codes[class_name]
            if code is None:
                self.left_out.add(class_name)
            return code
        if class_name in CLASS_LABELS:
            return class_name
        raise FanscanError(
            "bad_dataset",
            f"{where}: class {class_name!r} is not in the class map {self.name} (map it to a "
            "tile code, or to nothing to leave it out)",
        )


def bundled_maps() -> list[str]:
    """The names of the ready maps (``rf-chinese``, ...)."""
    return sorted(path.stem for path in MAPS_DIR.glob("*.yaml"))


def parse_class_map(text: str, name: str) -> ClassMap:
    """The map in a YAML or JSON text; every value must be a tile code or nothing."""
    import yaml

    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise FanscanError("bad_map", f"{name}: not valid YAML or JSON ({error})") from None
    if not isinstance(document, dict) or not document:
        raise FanscanError("bad_map", f"{name}: a class map maps class names to tile codes")
    codes: dict[str, str | None] = {}
    for key, value in document.items():
        if value in (None, ""):
            codes[str(key)] = None
        elif str(value) in CLASS_LABELS:
            codes[str(key)] = str(value)
        else:
            raise FanscanError(
                "bad_map",
                f"{name}: class {key!r} maps to {value!r}, which is not a tile code (1m-9m, "
                "1p-9p, 1s-9s, E S W N C F P, 1f-8f, back) nor nothing",
            )
    return ClassMap(name, codes)


def load_class_map(spec: str | os.PathLike[str]) -> ClassMap:
    """A ready map by name (see ``bundled_maps``) or a map file."""
    text_spec = str(spec)
    if text_spec in bundled_maps():
        path = MAPS_DIR / f"{text_spec}.yaml"
        return parse_class_map(path.read_text(encoding="utf-8"), text_spec)
    path = Path(spec)
    if not path.is_file():
        ready = ", ".join(bundled_maps())
        raise FanscanError(
            "not_found", f"no class map {text_spec!r}: not a file, nor a ready map ({ready})"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FanscanError("bad_map", f"cannot read the class map {path}: {error}") from None
    return parse_class_map(text, str(path))
