"""fanscan: photograph a physical mahjong hand, get the fans.

Subpackages: ``fanscan.scoring`` (tiles, hands, rule sets; pure Python), ``fanscan.vision``
(the OpenCV/ONNX photo reader), ``fanscan.models`` (the shipped classifier and its training),
``fanscan.datasets`` (synthetic data, real-data loaders, label formats), ``fanscan.cli``.
Importing this package loads nothing heavy.
"""

__version__ = "0.1.0"
