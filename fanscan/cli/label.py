"""``fanscan label DIR``: pre-label a folder of photos, or correct its labels in the browser.

``--prelabel`` reads every photo with the photo reader (in parallel, resumable) and writes each
one's label file beside it; without it, the web app opens in labelling mode on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import sys

from fanscan.cli._inputs import named_path
from fanscan.errors import FanscanError

ORDER = 70
WEB_HINT = "pip install 'fanscan[web]'"
SHOWN_FAILURES = 20


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def _port(text: str) -> int:
    port = _count(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"port must be 1-65535, not {port}")
    return port


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "label",
        help="pre-label a folder of photos, or correct their labels in the browser",
        description="Label the tiles on a folder of photos. With --prelabel, the photo reader "
        "labels every photo that has no current label file (PHOTO.fanscan.json beside it); "
        "a rerun resumes. Without it, a browser page goes through the photos, least sure first, "
        "to fix boxes and codes and accept each photo. See docs/labelling.md.",
    )
    parser.add_argument(
        "directory", type=named_path, metavar="DIR", help="folder of photos (searched recursively)"
    )
    parser.add_argument(
        "--prelabel", action="store_true", help="read the photos and write label files, then exit"
    )
    batch = parser.add_argument_group("pre-labelling")
    batch.add_argument(
        "--workers", type=_count, metavar="N", help="worker processes (default: one per CPU)"
    )
    where = batch.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster, e.g. tcp://host:8786 (needs the cluster extra)",
    )
    where.add_argument(
        "--dask-local",
        type=_count,
        metavar="N",
        help="run on a local Dask cluster of N worker processes",
    )
    batch.add_argument(
        "--force", action="store_true", help="read again photos whose labels no person has touched"
    )
    batch.add_argument(
        "--quiet", action="store_true", help="no progress bar on standard error"
    )
    batch.add_argument(
        "--reader",
        default=None,
        metavar="MODULE:FUNCTION",
        help="another photo reader (default: fanscan's own)",
    )
    web = parser.add_argument_group("labelling page")
    web.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    web.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.directory.is_dir():
        raise FanscanError("not_found", f"{args.directory} is not a folder")
    if args.prelabel:
        return _prelabel(args)
    if args.scheduler or args.dask_local or args.workers or args.force or args.reader or args.quiet:
        raise FanscanError(
            "bad_usage",
            "--workers, --scheduler, --dask-local, --force, --quiet and --reader go with --prelabel",
        )
    return _serve(args)


def _prelabel(args: argparse.Namespace) -> int:
    from fanscan.datasets.prelabel import DEFAULT_READER, prelabel

    report = prelabel(
        args.directory,
        reader=args.reader or DEFAULT_READER,
        workers=args.workers,
        scheduler=args.scheduler,
        dask_local=args.dask_local,
        force=args.force,
        progress=not args.quiet,
    )
    print(
        f"labelled {report.labelled} photos, {report.skipped} already current, "
        f"{len(report.failed)} failed"
    )
    for image, reason in report.failed[:SHOWN_FAILURES]:
        print(f"  {image}: {reason}", file=sys.stderr)
    if len(report.failed) > SHOWN_FAILURES:
        print(f"  ... and {len(report.failed) - SHOWN_FAILURES} more", file=sys.stderr)
    return 1 if report.failed else 0


def _serve(args: argparse.Namespace) -> int:
    try:
        import fastapi  # noqa: F401
        import python_multipart  # noqa: F401  (python-multipart: the app's photo uploads)
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as error:
        raise FanscanError(
            "missing_extra", f"the labelling page needs {error.name}: {WEB_HINT}"
        ) from None
    from fanscan.web.app import create_app
    from fanscan.web.server import bind, is_loopback, serve

    app = create_app(labelling_dir=args.directory)
    sock = bind(args.host, args.port)
    if not is_loopback(args.host):
        print(
            f"fanscan: serving on {args.host}: anyone who can reach this machine can change the "
            "label files",
            file=sys.stderr,
        )
    from fanscan.cli.serve import print_addresses

    print_addresses(f"labelling {args.directory}", args.host, args.port, "/label")
    serve(app, sock, host=args.host)
    return 0
