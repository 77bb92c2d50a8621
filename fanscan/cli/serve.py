"""``fanscan serve``: the referee web app (photo in, fans out) on a local port."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fanscan.cli._inputs import named_path
from fanscan.errors import FanscanError

ORDER = 60
INSTALL_HINT = "pip install 'fanscan[web]'"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 1-65535, not {port}")
    return port


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "serve",
        help="serve the referee web app",
        description="Serve the referee web app: photograph a hand, fix misread tiles, get the "
        "score. Open the printed address in a browser (a phone on the same network needs "
        "--host 0.0.0.0).",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this machine only)",
    )
    parser.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    parser.add_argument(
        "--save-labelled",
        type=named_path,
        metavar="DIR",
        help="offer \"Save as labelled data\" on the page: corrected readings and their photos "
        "are kept in DIR, for `fanscan label DIR` and `fanscan export DIR --format crops` "
        "(default: off)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        import fastapi  # noqa: F401
        import python_multipart  # noqa: F401  (python-multipart, for photo uploads)
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as error:
        raise FanscanError(
            "missing_extra", f"the web app needs {error.name}: {INSTALL_HINT}"
        ) from None
    from fanscan.web.app import create_app
    from fanscan.web.server import bind, is_loopback, serve

    if args.save_labelled is not None:
        check_writable_folder(args.save_labelled, "--save-labelled")
    sock = bind(args.host, args.port)
    if not is_loopback(args.host):
        print(
            f"fanscan: serving on {args.host}: anyone who can reach this machine can use the app",
            file=sys.stderr,
        )
    print_addresses("referee app", args.host, args.port, "/")
    if args.save_labelled is not None:
        print(f"fanscan: saving labelled photos in {args.save_labelled}", file=sys.stderr)
    serve(create_app(save_labelled_dir=args.save_labelled), sock, host=args.host)
    return 0


def check_writable_folder(folder: Path, option: str) -> None:
    """Make ``folder`` when it is not there, and refuse one that is no folder or cannot be
    written, before the server starts (not at the first save)."""
    import os

    if folder.exists() and not folder.is_dir():
        raise FanscanError("bad_option", f"{option}: {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FanscanError("bad_option", f"{option}: cannot make the folder {folder} "
                                         f"({error.strerror or type(error).__name__})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FanscanError("bad_option", f"{option}: the folder {folder} cannot be written")


def print_addresses(what: str, host: str, port: int, path: str) -> None:
    """Where to open the app; beyond localhost every LAN address, and a QR code of the first."""
    from fanscan.web.addresses import open_urls, qr_text
    from fanscan.web.server import is_loopback

    urls = open_urls(host, port, path)
    if is_loopback(host):
        print(f"fanscan: {what} at {urls[0]} (Ctrl+C to stop)", file=sys.stderr)
        return
    if not urls:
        print(f"fanscan: {what} on port {port}, but this machine has no network address a phone "
              "could open (Ctrl+C to stop)", file=sys.stderr)
        return
    print(f"fanscan: {what} at (open one on a phone on the same network; Ctrl+C to stop):",
          file=sys.stderr)
    for url in urls:
        print(f"  {url}", file=sys.stderr)
    code = qr_text(urls[0])
    if code:
        print(f"fanscan: scan this for {urls[0]}:\n{code}", file=sys.stderr)
