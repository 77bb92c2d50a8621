"""Run an app under uvicorn on a socket bound here, so a busy port is a one-line error.

Used by ``fanscan serve`` (and any other command that serves this app, such as labelling).
"""

from __future__ import annotations

import errno
import ipaddress
import socket

import uvicorn
from starlette.types import ASGIApp

from fanscan.errors import FanscanError
from fanscan.web.hosts import HostGuard, policy_for


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0 picks a free one)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise FanscanError("bad_host", f"cannot resolve host {host!r}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise FanscanError(
            "cannot_listen", f"cannot listen on {host}:{port}: {error.strerror or error}"
            + ("; choose another with --port N" if error.errno == errno.EADDRINUSE else "")
        ) from None
    sock.set_inheritable(True)
    return sock


def make_server(app: ASGIApp, *, log_level: str = "info") -> uvicorn.Server:
    """A uvicorn server for ``app`` that serves on sockets passed to ``run``/``serve``."""
    config = uvicorn.Config(app, log_level=log_level, access_log=False, server_header=False)
    return uvicorn.Server(config)


def serve(app: ASGIApp, sock: socket.socket, host: str | None = None) -> None:
    """Serve ``app`` on a socket from ``bind`` until interrupted, then close the socket.

    Only requests addressed to this server are answered (``hosts.HostGuard``): loopback names,
    ``host`` (the ``--host`` given) and the socket's own address."""
    bound = str(sock.getsockname()[0])
    guarded = HostGuard(app, policy_for(host if host is not None else bound, bound))
    try:
        make_server(guarded).run(sockets=[sock])
    finally:
        sock.close()
