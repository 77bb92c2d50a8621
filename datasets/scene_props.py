"""Things on a table besides tiles: the player's rack, dice, coins, a phone, fingers.

Real photos of a hand show them, and a finder that has never seen a die's pips, a coin's rim or a
rack's edge takes them for tiles. ``lay_props`` places some on the table of a generated scene, in
the generator's table frame (millimetres; x right, y away from the player, z up), never on a
tile's footprint or another prop's; ``paint_props`` draws them into the photo through the scene's
camera before the tiles are painted, so that no prop ever hides a tile's face (a prop in front of
a standing tile is painted under it: a small lie that keeps every tile's truth whole).

1. The player's rack (sometimes): a long bar just in front of the hand's near edge.
2. Dice (0-3): small cubes, the top face's pips drawn (1 and 4 red, as Chinese dice have them).
3. Coins (0-5): thin discs of brass, copper or steel, each with a raised rim.
4. A phone (sometimes): face up, its screen dark or lit.
5. Fingers (sometimes, 1-4): reaching in from the player's side, past the photo's near edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

Project = Callable[[np.ndarray], np.ndarray]
"""The scene camera's projection: (n, 3) table points in millimetres -> (n, 2) photo pixels."""

_RACK_COLOURS = ((60, 110, 170), (40, 70, 120), (200, 200, 205), (40, 40, 40), (60, 140, 60), (150, 80, 40))
_COIN_COLOURS = ((70, 160, 200), (60, 110, 190), (190, 190, 195))  # brass, copper, steel (BGR)
_SKIN = ((90, 130, 200), (110, 160, 225), (60, 95, 150), (130, 175, 230))
_DIE_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


@dataclass(frozen=True)
class Prop:
    """One thing on the table: its footprint (n, 2, mm, convex), the height of its top, the top's
    and the sides' colours (BGR), its turn on the table (radians), the pips of a die's top face,
    and a phone screen's colour."""

    kind: str
    footprint: np.ndarray
    height: float
    top: tuple[float, float, float]
    side: tuple[float, float, float]
    angle: float = 0.0
    pips: int = 0
    screen: tuple[float, float, float] = (35.0, 30.0, 30.0)


def _rectangle(cx: float, cy: float, w: float, h: float, angle: float, round_by: float = 0.0) -> np.ndarray:
    """A w x h rectangle (corners rounded by ``round_by`` mm) centred on (cx, cy), turned by ``angle``."""
    if round_by <= 0:
        points = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    else:
        r = min(round_by, w / 2, h / 2)
        points = []
        for (sx, sy), start in (((1, -1), -90), ((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180)):
            centre = np.array([sx * (w / 2 - r), sy * (h / 2 - r)])
            for a in np.radians(np.linspace(start, start + 90, 5)):
                points.append(centre + r * np.array([np.cos(a), np.sin(a)]))
        points = np.array(points)
    c, s = np.cos(angle), np.sin(angle)
    return (points @ np.array([[c, s], [-s, c]]) + [cx, cy]).astype(np.float32)


def _disc(cx: float, cy: float, radius: float, sides: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    return np.column_stack([cx + radius * np.cos(a), cy + radius * np.sin(a)]).astype(np.float32)


def _capsule(cx: float, cy: float, length: float, width: float, angle: float) -> np.ndarray:
    """A finger's outline: a ``length`` x ``width`` bar with a round tip at +y (before the turn)."""
    r = width / 2
    tip = [np.array([r * np.cos(a), length / 2 - r + r * np.sin(a)]) for a in np.linspace(0, np.pi, 9)]
    points = np.array([[r, -length / 2], *tip, [-r, -length / 2]])
    c, s = np.cos(angle), np.sin(angle)
    return (points @ np.array([[c, s], [-s, c]]) + [cx, cy]).astype(np.float32)


class _TableSpace:
    """Footprints taken on the table: the tiles', then each prop's."""

    def __init__(self, tile_footprints: list[np.ndarray]) -> None:
        self.taken = [f.astype(np.float32) for f in tile_footprints]

    def take(self, footprint: np.ndarray, clearance: float = 2.0) -> bool:
        """Whether ``footprint`` (grown by ``clearance`` mm) meets nothing taken; if so it is taken."""
        centre = footprint.mean(axis=0)
        grown = (centre + (footprint - centre) * (1 + clearance / max(np.ptp(footprint, axis=0).min(), 1.0)))
        hull = cv2.convexHull(grown.astype(np.float32)).reshape(-1, 2)
        for other in self.taken:
            area, _ = cv2.intersectConvexConvex(hull, cv2.convexHull(other).reshape(-1, 2))
            if area > 1e-3:
                return False
        self.taken.append(footprint)
        return True


def lay_props(rng: np.random.Generator, tile_footprints: list[np.ndarray], hand: np.ndarray,
              in_view: Callable[[np.ndarray], bool]) -> list[Prop]:
    """Props for a table whose tiles cover ``tile_footprints`` (each (4, 2) mm) around a hand
    within ``hand`` (left, right, near, far in mm); ``in_view`` says whether a table point (x, y)
    shows in the photo. Each prop is tried at a few places and left out where none is free."""
    left, right, near, far = (float(v) for v in hand)
    span = max(right - left, far - near, 60.0)
    space = _TableSpace(tile_footprints)
    props: list[Prop] = []

    def place(make: Callable[[float, float], Prop], tries: int = 8) -> None:
        for _ in range(tries):
            x = rng.uniform(left - 0.6 * span, right + 0.6 * span)
            y = rng.uniform(near - 0.3 * span, far + 0.8 * span)
            prop = make(x, y)
            if in_view(prop.footprint.mean(axis=0)) and space.take(prop.footprint):
                props.append(prop)
                return

    if rng.random() < 0.35:  # 1. the rack, along the hand's near edge
        depth, gap = rng.uniform(22, 35), rng.uniform(2, 15)
        rack = Prop("rack", _rectangle((left + right) / 2, near - gap - depth / 2, right - left + rng.uniform(10, 60),
                                       depth, 0.0, 3.0),
                    float(rng.uniform(15, 30)), _RACK_COLOURS[int(rng.integers(len(_RACK_COLOURS)))], (0, 0, 0))
        if space.take(rack.footprint, clearance=0.0):
            props.append(_shaded(rack, rng))
    for _ in range(int(rng.choice([0, 0, 1, 2, 3]))):  # 2. dice
        side, turn = float(rng.uniform(12, 18)), float(rng.uniform(0, np.pi / 2))
        colour = (235, 238, 240) if rng.random() < 0.8 else (60, 60, 200)
        place(lambda x, y: Prop("die", _rectangle(x, y, side, side, turn, 1.5), side, colour,
                                tuple(0.7 * c for c in colour), turn, int(rng.integers(1, 7))))
    for _ in range(int(rng.choice([0, 0, 0, 1, 2, 5]))):  # 3. coins
        colour = _COIN_COLOURS[int(rng.integers(len(_COIN_COLOURS)))]
        place(lambda x, y: Prop("coin", _disc(x, y, rng.uniform(9, 14)), float(rng.uniform(1.5, 2.5)), colour,
                                tuple(0.6 * c for c in colour)))
    if rng.random() < 0.2:  # 4. a phone, its screen dark or lit
        screen = (35.0, 30.0, 30.0) if rng.random() < 0.5 else tuple(float(c) for c in rng.uniform(60, 255, 3))
        place(lambda x, y: Prop("phone", _rectangle(x, y, 72, 150, rng.uniform(0, np.pi), 9.0), 8.0,
                                (20, 20, 20), (45, 45, 50), screen=screen))
    if rng.random() < 0.25:  # 5. fingers, from the player's side of the hand
        skin = _SKIN[int(rng.integers(len(_SKIN)))]
        x0, turn = rng.uniform(left, right), rng.uniform(-0.5, 0.5)
        for k in range(int(rng.integers(1, 5))):
            length, width = rng.uniform(120, 200), rng.uniform(15, 20)
            cx = x0 + k * width * 1.1
            cy = near - rng.uniform(5, 40) - length / 2
            finger = Prop("finger", _capsule(cx, cy, length, width, turn), float(rng.uniform(12, 18)), skin,
                          tuple(0.75 * c for c in skin))
            if space.take(finger.footprint, clearance=0.0):
                props.append(finger)
    return props


def _shaded(prop: Prop, rng: np.random.Generator) -> Prop:
    """``prop`` with its sides darker than its top, by a random light."""
    return replace(prop, side=tuple(c * rng.uniform(0.5, 0.8) for c in prop.top))


def paint_props(canvas: np.ndarray, props: list[Prop], project: Project) -> None:
    """Draw ``props`` onto the float BGR ``canvas`` through ``project``: each prop's sides (the hull
    of its footprint and its top), then its top face and its details."""
    for prop in props:
        bottom = np.column_stack([prop.footprint, np.zeros(len(prop.footprint))])
        top = np.column_stack([prop.footprint, np.full(len(prop.footprint), prop.height)])
        below, above = project(bottom), project(top)
        if not (np.isfinite(below).all() and np.isfinite(above).all()):
            continue
        hull = cv2.convexHull(np.vstack([below, above]).astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(canvas, hull, prop.side, cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, above.astype(np.int32), prop.top, cv2.LINE_AA)
        _details(canvas, prop, project)


def _details(canvas: np.ndarray, prop: Prop, project: Project) -> None:
    centre = prop.footprint.mean(axis=0)
    z = prop.height + 0.01
    if prop.kind == "die":
        u = np.array([np.cos(prop.angle), np.sin(prop.angle)])  # the face's axes
        v = np.array([-u[1], u[0]])
        half = prop.height / 2  # a die is as high as it is wide
        colour = (40, 40, 200) if prop.pips in (1, 4) else (30, 30, 30)
        for a, b in _DIE_PIPS[prop.pips]:
            spot = centre + (a * u + b * v) * half * 0.5
            radius = half * (0.35 if prop.pips == 1 else 0.18)
            ring = project(np.column_stack([_disc(*spot, radius, 12), np.full(12, z)]))
            cv2.fillConvexPoly(canvas, ring.astype(np.int32), colour, cv2.LINE_AA)
    elif prop.kind == "coin":
        radius = np.linalg.norm(prop.footprint[0] - centre)
        ring = project(np.column_stack([_disc(*centre, radius * 0.8), np.full(24, z)]))
        cv2.polylines(canvas, [ring.astype(np.int32)], True, tuple(0.7 * c for c in prop.top), 1, cv2.LINE_AA)
    elif prop.kind == "phone":
        screen = centre + (prop.footprint - centre) * 0.9
        cv2.fillConvexPoly(canvas, project(np.column_stack([screen, np.full(len(screen), z)])).astype(np.int32),
                           prop.screen, cv2.LINE_AA)
    elif prop.kind == "finger":
        tip = prop.footprint[len(prop.footprint) // 2]  # the middle of the rounded tip
        nail_centre = centre + (tip - centre) * 0.85
        width = np.linalg.norm(prop.footprint[0] - prop.footprint[-1])
        nail = project(np.column_stack([_disc(*nail_centre, width * 0.3, 12), np.full(12, z)]))
        cv2.fillConvexPoly(canvas, nail.astype(np.int32), tuple(min(255.0, 1.15 * c + 20) for c in prop.top),
                           cv2.LINE_AA)
