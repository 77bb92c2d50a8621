"""The ``fanscan`` command: one subcommand per module in this package.

Each module ``fanscan/cli/<name>.py`` defines ``register(subparsers) -> None``, which adds its
parser and sets ``handler`` (a function ``(args) -> int``) with ``set_defaults``. Modules only parse
and print; heavy imports (cv2, onnxruntime) happen inside handlers so that ``fanscan score`` on
hand notation starts fast.

Exit status: 0 ok, 1 bad input (one line on stderr), 2 usage error (argparse).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from fanscan import __version__
from fanscan.errors import FanscanError


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand module found in this package."""
    parser = argparse.ArgumentParser(
        prog="fanscan",
        description="Photograph a mahjong hand, get the fans.",
    )
    parser.add_argument("--version", action="version", version=f"fanscan {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show a traceback instead of a one-line error"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    ]
    for module in sorted(modules, key=lambda m: getattr(m, "ORDER", 100)):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fanscan`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except FanscanError as error:
        if args.debug:
            raise
        print(f"fanscan: error: {error.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fanscan: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        if args.debug:
            raise
        print("fanscan: error: out of memory", file=sys.stderr)
        return 1
