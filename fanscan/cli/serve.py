"""``fanscan serve``: the referee web app (photo in, fans out) on a local port."""

from __future__ import annotations

import argparse
import sys

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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        import fastapi  # noqa: F401
        import multipart  # noqa: F401  (python-multipart, for photo uploads)
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as error:
        raise FanscanError(
            "missing_extra", f"the web app needs {error.name}: {INSTALL_HINT}"
        ) from None
    from fanscan.web.app import create_app
    from fanscan.web.server import bind, is_loopback, serve

    sock = bind(args.host, args.port)
    if not is_loopback(args.host):
        print(
            f"fanscan: serving on {args.host}: anyone who can reach this machine can use the app",
            file=sys.stderr,
        )
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"fanscan: referee app at http://{shown}:{args.port}/ (Ctrl+C to stop)", file=sys.stderr)
    serve(create_app(), sock, host=args.host)
    return 0
