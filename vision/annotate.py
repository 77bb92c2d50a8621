"""Annotated pictures: each tile's box, code and confidence, the meld groups, doubtful tiles marked,
tiles not in the hand in grey."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

DOUBT_BELOW = 0.6
"""Tiles read with less confidence than this are marked as doubtful."""

_ROLE_COLOURS: dict[str, tuple[int, int, int]] = {
    "concealed": (255, 160, 0),
    "win": (0, 200, 255),
    "meld": (0, 200, 0),
    "concealed_kong": (200, 0, 200),
    "flowers": (255, 0, 255),
}
_DOUBT = (0, 0, 255)
_LEFT_OUT = (160, 160, 160)
NOT_IN_HAND = "not_in_hand"
"""The role of a group of tiles the photo shows that is no part of the hand: drawn in grey,
framed and labelled "not in hand", its tiles' boxes and labels grey too."""
_ROLE_COLOURS[NOT_IN_HAND] = _LEFT_OUT
_APART_INK = (110, 110, 110)  # their labels: a grey still legible on the labels' white


Rect = tuple[float, float, float, float]  # left, top, right, bottom


def _overlap(a: Rect, b: Rect) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _core(face: Rect) -> Rect:
    """The part of a (possibly tilted) tile's bounding box its face surely covers."""
    dx, dy = (face[2] - face[0]) * 0.12, (face[3] - face[1]) * 0.12
    return face[0] + dx, face[1] + dy, face[2] - dx, face[3] - dy


def label_place(face: Rect, width: float, height: float, cores: Sequence[Rect],
                taken: Sequence[Rect], size: tuple[int, int]) -> Rect:
    """Where a tile's label goes: beside its box (above, below, left or right, further out when
    nearer places are taken), on no tile's face and clear of the labels already placed where
    possible. ``size`` is the picture's (width, height). The referee page places its labels alike."""
    gap = 2.0
    cx = (face[0] + face[2]) / 2 - width / 2
    cy = (face[1] + face[3]) / 2 - height / 2
    candidates = []
    for ring in range(4):
        d = gap + ring * height
        for shift in (0.0, -width / 2, width / 2):
            candidates += [(cx + shift, face[1] - height - d, ring), (cx + shift, face[3] + d, ring)]
        candidates += [(face[0] - width - gap - ring * width / 2, cy, ring),
                       (face[2] + gap + ring * width / 2, cy, ring)]
    best: tuple[float, Rect] | None = None
    for x, y, ring in candidates:
        left = max(0.0, min(size[0] - width, x))
        top = max(0.0, min(size[1] - height, y))
        place = (left, top, left + width, top + height)
        cost = (10 * sum(_overlap(place, c) for c in cores) + 3 * sum(_overlap(place, t) for t in taken)
                + ring * height * 2 + abs(x - cx) * 0.1)
        if best is None or cost < best[0]:
            best = (cost, place)
    assert best is not None
    return best[1]


def draw(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    labels: Sequence[str],
    confidences: Sequence[float],
    groups: Sequence[tuple[str, Sequence[int]]],
    scale: float,
    left_out: Sequence[np.ndarray] = (),
    banner: str | None = None,
) -> np.ndarray:
    """A copy of ``image`` with the tiles (boxes in full-res pixels, times ``scale``), groups, and
    boxes the reader left out as no tile (crossed, in grey). The tiles of a ``NOT_IN_HAND`` group
    are drawn in grey. Each tile's code and confidence go
    in a label beside it, never over a face; ``banner`` (say, the total) in the top-left corner."""
    out = image.copy()
    taken: list[Rect] = []  # labels drawn so far, which the next ones keep clear of
    thick = max(1, round(max(out.shape[:2]) / 700))
    font = max(0.35, max(out.shape[:2]) / 2200)
    for role, members in groups:
        colour = _ROLE_COLOURS.get(role, (128, 128, 128))
        points = np.vstack([boxes[i] for i in members]) * scale
        x, y, w, h = cv2.boundingRect(points.astype(np.float32))
        pad = 3 * thick
        cv2.rectangle(out, (x - pad, y - pad), (x + w + pad, y + h + pad), colour, thick)
        name = role.replace("_", " ")
        cv2.putText(out, name, (x - pad, y - 2 * pad), cv2.FONT_HERSHEY_SIMPLEX,
                    font, colour, thick, cv2.LINE_AA)
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        taken.append((x - pad, y - 2 * pad - th, x - pad + tw, y - 2 * pad))
    for box in left_out:
        quad = (np.asarray(box) * scale).astype(np.int32)
        cv2.polylines(out, [quad], True, _LEFT_OUT, thick)
        cv2.line(out, tuple(int(v) for v in quad[0]), tuple(int(v) for v in quad[2]), _LEFT_OUT, thick)
        cv2.line(out, tuple(int(v) for v in quad[1]), tuple(int(v) for v in quad[3]), _LEFT_OUT, thick)
        cv2.putText(out, "no tile?", tuple(int(v) for v in quad[3] + [0, 14 * font * 2]),
                    cv2.FONT_HERSHEY_SIMPLEX, font, _LEFT_OUT, thick, cv2.LINE_AA)
    quads = [(np.asarray(box) * scale).astype(np.int32) for box in boxes]
    faces: list[Rect] = [(float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()),
                          float(q[:, 1].max())) for q in quads]
    apart = {i for role, members in groups if role == NOT_IN_HAND for i in members}
    for k, (quad, confidence) in enumerate(zip(quads, confidences)):
        if k in apart:
            cv2.polylines(out, [quad], True, _LEFT_OUT, thick)
            continue
        doubtful = confidence < DOUBT_BELOW
        cv2.polylines(out, [quad], True, _DOUBT if doubtful else (0, 255, 0), 2 * thick if doubtful else thick)
        cv2.circle(out, tuple(int(v) for v in quad[0]), 2 * thick, (255, 255, 255), -1)
    cores = [_core(face) for face in faces]
    size = (out.shape[1], out.shape[0])
    for k, (face, label, confidence) in enumerate(zip(faces, labels, confidences)):
        doubtful = confidence < DOUBT_BELOW and k not in apart
        text = f"{label} {confidence:.0%}" + (" ?" if doubtful else "")
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        place = label_place(face, tw + 4, th + base + 4, cores, taken, size)
        taken.append(place)
        left, top, right, bottom = (int(round(v)) for v in place)
        cv2.rectangle(out, (left, top), (right, bottom), (255, 255, 255), -1)
        ink = _APART_INK if k in apart else _DOUBT if doubtful else (0, 0, 0)
        cv2.putText(out, text, (left + 2, bottom - base - 2), cv2.FONT_HERSHEY_SIMPLEX, font,
                    ink, thick, cv2.LINE_AA)
    if banner:
        big = font * 1.6
        (tw, th), base = cv2.getTextSize(banner, cv2.FONT_HERSHEY_SIMPLEX, big, 2 * thick)
        cv2.rectangle(out, (0, 0), (tw + 16, th + base + 16), (40, 40, 40), -1)
        cv2.putText(out, banner, (8, th + 8), cv2.FONT_HERSHEY_SIMPLEX, big, (255, 255, 255),
                    2 * thick, cv2.LINE_AA)
    return out
