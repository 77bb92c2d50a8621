"""Annotated pictures: each tile's box, code and confidence, the meld groups, doubtful tiles marked."""

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


def draw(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    labels: Sequence[str],
    confidences: Sequence[float],
    groups: Sequence[tuple[str, Sequence[int]]],
    scale: float,
    left_out: Sequence[np.ndarray] = (),
) -> np.ndarray:
    """A copy of ``image`` with the tiles (boxes in full-res pixels, times ``scale``), groups, and
    boxes the reader left out as no tile (crossed, in grey)."""
    out = image.copy()
    thick = max(1, round(max(out.shape[:2]) / 700))
    font = max(0.35, max(out.shape[:2]) / 2200)
    for role, members in groups:
        colour = _ROLE_COLOURS.get(role, (128, 128, 128))
        points = np.vstack([boxes[i] for i in members]) * scale
        x, y, w, h = cv2.boundingRect(points.astype(np.float32))
        pad = 3 * thick
        cv2.rectangle(out, (x - pad, y - pad), (x + w + pad, y + h + pad), colour, thick)
        cv2.putText(out, role.replace("_", " "), (x - pad, y - 2 * pad), cv2.FONT_HERSHEY_SIMPLEX,
                    font, colour, thick, cv2.LINE_AA)
    for box in left_out:
        quad = (np.asarray(box) * scale).astype(np.int32)
        cv2.polylines(out, [quad], True, _LEFT_OUT, thick)
        cv2.line(out, tuple(int(v) for v in quad[0]), tuple(int(v) for v in quad[2]), _LEFT_OUT, thick)
        cv2.line(out, tuple(int(v) for v in quad[1]), tuple(int(v) for v in quad[3]), _LEFT_OUT, thick)
        cv2.putText(out, "no tile?", tuple(int(v) for v in quad[3] + [0, 14 * font * 2]),
                    cv2.FONT_HERSHEY_SIMPLEX, font, _LEFT_OUT, thick, cv2.LINE_AA)
    for box, label, confidence in zip(boxes, labels, confidences):
        doubtful = confidence < DOUBT_BELOW
        quad = (np.asarray(box) * scale).astype(np.int32)
        cv2.polylines(out, [quad], True, _DOUBT if doubtful else (0, 255, 0), 2 * thick if doubtful else thick)
        cv2.circle(out, tuple(int(v) for v in quad[0]), 2 * thick, (255, 255, 255), -1)
        text = f"{label} {confidence:.0%}" + (" ?" if doubtful else "")
        centre = quad.mean(axis=0).astype(int)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        origin = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
        cv2.rectangle(out, (origin[0] - 2, origin[1] - th - 2), (origin[0] + tw + 2, origin[1] + 4),
                      (255, 255, 255), -1)
        cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, font,
                    _DOUBT if doubtful else (0, 0, 0), thick, cv2.LINE_AA)
    return out
