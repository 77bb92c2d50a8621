"""The ``fanscan`` command: one subcommand per module in this package.

Each module ``fanscan/cli/<name>.py`` defines ``register(subparsers) -> None``, which adds its
parser and sets ``handler`` (a function ``(args) -> int``) with ``set_defaults``. Modules only parse
and print; heavy imports (cv2, onnxruntime) happen inside handlers so that ``fanscan score`` on
hand notation starts fast.

Exit status: 0 ok, 1 bad input (one line on stderr), 2 usage error (argparse, or a
``FanscanError`` whose code is in ``USAGE_CODES``: options that do not go together).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from fanscan import __version__
from fanscan.errors import FanscanError


#: FanscanError codes that mean the command line itself is wrong: exit 2, as argparse does.
USAGE_CODES = frozenset({"bad_arguments", "bad_usage", "bad_option"})

EPILOG = """\
exit status:
  0  success
  1  bad input: a photo, hand, notation or file that cannot be used (one line on stderr,
     "fanscan: error: ..."); `score --jsonl` answers every line and exits 1 when any failed
  2  usage error: an unknown option, a missing argument, options that do not go together

Each command's --help says what it reads and writes."""

#: Subcommands whose module is named differently (``import`` is a Python keyword).
_MODULE_OF_COMMAND = {"import": "importer"}


def _module_names(argv: Sequence[str]) -> list[str]:
    """The subcommand modules to load: only the chosen one when argv names one, else all.

    Loading one module instead of all keeps start-up short for scripts that call
    ``fanscan score`` thousands of times.
    """
    names = [info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")]
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    module = _MODULE_OF_COMMAND.get(command or "", command)
    return [module] if module in names else names


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The top-level parser with the subcommand modules that ``argv`` needs (all by default)."""
    parser = argparse.ArgumentParser(
        prog="fanscan",
        description="Photograph a mahjong hand, get the fans.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fanscan {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show a traceback instead of a one-line error"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [importlib.import_module(f"{__name__}.{name}") for name in _module_names(argv)]
    for module in sorted(modules, key=lambda m: getattr(m, "ORDER", 100)):
        module.register(subparsers)
    for command_parser in subparsers.choices.values():
        for action in command_parser._actions:
            if type(action) is argparse._StoreAction and action.option_strings:
                action.__class__ = GivenOnce
    parser.set_defaults(command_parsers=subparsers.choices)  # for errors in a command's own words
    return parser


class GivenOnce(argparse._StoreAction):
    """An option of one value, refused when given twice (``--seat E --seat S``): as a field given
    twice is (README), never settled by taking the last."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        given = namespace.__dict__.setdefault("_given_once", set())  # the options this parse has met
        if self.dest in given:
            parser.error(f"{option_string} is given twice: give it once")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


MESSAGE_CHARS = 400
"""An error message is cut to this many characters: it may quote what it was given (a notation
of 100,000 tiles, a YAML file's lines), and stays one readable line."""


def one_line(message: str) -> str:
    """``message`` on one line (line breaks as spaces), its middle cut past ``MESSAGE_CHARS``."""
    text = " ".join(message.split())
    if len(text) <= MESSAGE_CHARS:
        return text
    half = (MESSAGE_CHARS - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fanscan`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse would blame the top-level usage; show the command's own
        command_parser = args.command_parsers.get(args.command, parser)
        command_parser.error(f"unrecognized arguments: {' '.join(u if u.strip() else repr(u) for u in unknown)}")
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except FanscanError as error:
        if args.debug:
            raise
        print(f"fanscan: error: {one_line(error.message)}", file=sys.stderr)
        return 2 if error.code in USAGE_CODES else 1
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
    except OSError as error:  # a file or stream the system would not read or write: no bug of ours
        if args.debug:
            raise
        where = f": {error.filename}" if error.filename else ""
        print(f"fanscan: error: {one_line(f'{error.strerror or error}{where}')}", file=sys.stderr)
        return 1
    except Exception as error:  # noqa: BLE001 - the last resort: one line, never a traceback
        if args.debug:
            raise
        print(
            f"fanscan: internal error ({type(error).__name__}: {one_line(str(error))}); please report it, with "
            "--debug for the details",
            file=sys.stderr,
        )
        return 2
