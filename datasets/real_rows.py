"""Rows of real tile faces on a generated table: the nearest thing to a real photo of a hand in
rows that the labelled real crops (../shared/data) allow.

``compose_row(faces, rng)`` lays tight face crops side by side, touching, each with a thin shaded
rim, on a table texture, the row (or two rows) about two thirds of the photo wide and slightly
turned, and returns the photo with each face's quad. The faces are flat (no tile sides, no perspective).
"""

from __future__ import annotations

import cv2
import numpy as np

from fanscan.datasets.textures import TABLE_KINDS, table_texture

PHOTO = (1600, 1200)
"""Width and height of the composed photo."""


def compose_row(faces: list[np.ndarray], rng: np.random.Generator, *, keystone: float = 0.0,
                rows: int = 1) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo of ``faces`` side by side on a table, and each face's quad in it. ``keystone`` (0-0.3):
    up to this share of the photo's width is taken off each end of its top edge (and a little of
    its height), as a camera looking down at a slant sees the table. ``rows=2`` lays the faces in
    two rows, the first half above the rest, a third of a tile apart, as a long hand is laid."""
    width, height = PHOTO
    table = table_texture(TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))], rng, height, width)
    per_row = -(-len(faces) // rows)
    tile_w = int(width * rng.uniform(0.6, 0.85) / per_row)
    tile_h = int(tile_w * rng.uniform(1.3, 1.4))
    rim = max(2, tile_w // 30)
    pitch_y = tile_h + 2 * rim + tile_h // 3
    row = np.zeros((pitch_y * (rows - 1) + tile_h + 2 * rim, per_row * (tile_w + 2 * rim), 3), np.uint8)
    covered = np.zeros(row.shape[:2], np.uint8)
    quads = []
    for n, face in enumerate(faces):
        x, y = (n % per_row) * (tile_w + 2 * rim), (n // per_row) * pitch_y
        body = cv2.resize(face, (tile_w, tile_h), interpolation=cv2.INTER_AREA)
        row[y : y + tile_h + 2 * rim, x : x + tile_w + 2 * rim] = (body[:4, :4].reshape(-1, 3).mean(0) * 0.6).astype(np.uint8)
        row[y + rim : y + rim + tile_h, x + rim : x + rim + tile_w] = body
        covered[y : y + tile_h + 2 * rim, x : x + tile_w + 2 * rim] = 255
        quads.append(np.float32([[x + rim, y + rim], [x + rim + tile_w, y + rim], [x + rim + tile_w, y + rim + tile_h],
                                 [x + rim, y + rim + tile_h]]))
    angle = rng.uniform(-8, 8)
    centre = np.float32([width / 2 + rng.uniform(-60, 60), height / 2 + rng.uniform(-80, 80)])
    turn = cv2.getRotationMatrix2D((row.shape[1] / 2, row.shape[0] / 2), angle, 1.0)
    turn[:, 2] += centre - np.float32([row.shape[1] / 2, row.shape[0] / 2])
    mask = cv2.warpAffine(covered, turn, (width, height))
    placed = cv2.warpAffine(row, turn, (width, height))
    quads = [cv2.transform(q[None], turn)[0] for q in quads]
    if keystone > 0:
        inset = rng.uniform(0, keystone) * width
        corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        slanted = np.float32([[inset, inset * 0.3], [width - inset, inset * 0.3], [width, height], [0, height]])
        matrix = cv2.getPerspectiveTransform(corners, slanted)
        placed = cv2.warpPerspective(placed, matrix, (width, height))
        mask = cv2.warpPerspective(mask, matrix, (width, height))
        quads = [cv2.perspectiveTransform(q[None], matrix)[0] for q in quads]
    return np.where(mask[..., None] > 127, placed, table), quads
