"""The annotated picture: every tile's label beside it, never over a face; the banner in a corner."""

from __future__ import annotations

import numpy as np

from fanscan.vision import annotate

FACE = (225, 240, 245)


def _tiles(rows: int) -> tuple[np.ndarray, list[np.ndarray]]:
    image = np.full((400, 640, 3), (40, 90, 30), np.uint8)
    boxes = []
    for r in range(rows):
        for i in range(8):
            x, y = 60 + i * 52, 120 + r * 70  # rows 6 px apart: no room between them
            image[y:y + 64, x:x + 48] = FACE
            boxes.append(np.array([[x, y], [x + 48, y], [x + 48, y + 64], [x, y + 64]], float))
    return image, boxes


def test_labels_go_beside_the_tiles_and_the_faces_stay_clear() -> None:
    for rows in (1, 2):
        image, boxes = _tiles(rows)
        codes = ["5p"] * len(boxes)
        out = annotate.draw(image, boxes, codes, [0.97] * len(boxes), [], 1.0)
        for box in boxes:
            (x0, y0), (x1, y1) = box[0].astype(int), box[2].astype(int)
            inner = out[y0 + 6:y1 - 5, x0 + 6:x1 - 5].reshape(-1, 3)
            assert (inner == FACE).all()  # nothing drawn on the face
        changed = (out != image).any(axis=2)
        rows_changed = np.flatnonzero(changed.any(axis=1))
        assert rows_changed.min() < 118  # labels above the first row
        if rows == 2:  # and, no room between the rows, below the second one
            assert rows_changed.max() > 120 + 70 + 66


def test_a_label_is_placed_off_its_own_tile() -> None:
    tile = (60.0, 120.0, 108.0, 184.0)
    left, top, right, bottom = annotate.label_place(tile, 40, 14, [tile], [], (640, 400))
    assert bottom <= tile[1] or top >= tile[3] or right <= tile[0] or left >= tile[2]


def test_banner_in_the_top_left_corner() -> None:
    image, boxes = _tiles(1)
    out = annotate.draw(image, boxes, ["5p"] * 8, [0.9] * 8, [], 1.0, banner="30 fans")
    assert tuple(out[2, 2]) == (40, 40, 40)
    assert (out[:40, :150] == 255).all(axis=2).any()  # the white text
    plain = annotate.draw(image, boxes, ["5p"] * 8, [0.9] * 8, [], 1.0)
    assert tuple(plain[2, 2]) == tuple(image[2, 2])


def test_a_box_left_out_as_no_tile_is_crossed_in_grey() -> None:
    image, boxes = _tiles(1)
    left = np.array([[520.0, 200.0], [580.0, 200.0], [580.0, 280.0], [520.0, 280.0]])
    out = annotate.draw(image, boxes, ["5p"] * len(boxes), [0.97] * len(boxes), [], 1.0, left_out=[left])
    centre = out[239:242, 549:552].reshape(-1, 3)
    assert any(tuple(p) == annotate._LEFT_OUT for p in centre)  # the cross's middle
    assert (out[230:236, 525:532] == image[230:236, 525:532]).all()  # not filled in


def test_tiles_not_in_the_hand_are_boxed_and_framed_in_grey() -> None:
    image, boxes = _tiles(2)
    apart = list(range(8, 16))  # the second row
    out = annotate.draw(image, boxes, ["5p"] * len(boxes), [0.97] * len(boxes),
                        [("concealed", list(range(8))), (annotate.NOT_IN_HAND, apart)], 1.0)
    for k, box in enumerate(boxes):
        x, y = box[0].astype(int)
        edge = tuple(out[y + 20, x])  # on the box's left side, clear of its corner dot
        assert edge == (annotate._LEFT_OUT if k in apart else (0, 255, 0))
