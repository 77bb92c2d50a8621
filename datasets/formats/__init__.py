"""Dataset formats other tools read: COCO, YOLO, Pascal VOC, and per-class crop folders.

Each module has pure ``parse_<fmt>`` / ``format_<fmt>`` functions (text in, records out, and back)
plus thin ``load_<fmt>`` / ``save_<fmt>`` that touch files, writing atomically. The records are
``fanscan.datasets.labels.PhotoLabels`` whose ``image`` is the photo's path relative to the
dataset's image folder.
"""
