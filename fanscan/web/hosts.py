"""Refuse requests whose ``Host`` header names another server: the guard against DNS rebinding.

A web page the user visits can point a name it owns at 127.0.0.1 and then read this server from
the page's own origin; the one thing it cannot change is the ``Host`` header, which carries its
name. So the local servers answer only requests addressed to a loopback name or address, to the
address or name given to ``--host``, or, when ``--host`` is a wildcard such as 0.0.0.0 (a phone on
the same network), to any IP address, since a bare address is never a rebinding name.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

WILDCARDS = ("", "0.0.0.0", "::")


@dataclass(frozen=True)
class HostPolicy:
    """Which ``Host`` headers a server answers besides loopback ones."""

    names: frozenset[str] = frozenset()
    """Lower-case names and addresses given for this server (``--host``, the bound address)."""
    any_address: bool = False
    """Answer any bare IP address (the server listens on a wildcard address)."""

    def allows(self, host: str) -> bool:
        name = _host_name(host)
        if name == "localhost" or name.endswith(".localhost"):
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return name in self.names
        return address.is_loopback or self.any_address or str(address) in self.names


def policy_for(host: str, bound_address: str | None = None) -> HostPolicy:
    """The policy of a server started with ``--host HOST``, listening on ``bound_address``."""
    if host.strip("[]") in WILDCARDS:
        return HostPolicy(any_address=True)
    names = {_host_name(host)}
    if bound_address:
        names.add(_host_name(bound_address))
    return HostPolicy(frozenset(names))


def _host_name(host: str) -> str:
    """``Host`` header (or ``--host``) -> the name or address alone: no port, no brackets, lower
    case, no trailing dot; addresses in their normal spelling."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    host = host.rstrip(".")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


class HostGuard:
    """ASGI middleware: a request whose ``Host`` the policy does not allow gets a 400 JSON error.
    A request with no ``Host`` at all (HTTP/1.0 tools) is answered: browsers always send one."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((value for key, value in scope.get("headers", []) if key == b"host"), None)
            if host is not None and not self.policy.allows(host.decode("latin-1")):
                await _refuse(send, host.decode("latin-1"))
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send, host: str) -> None:
    shown = host if len(host) <= 80 else host[:77] + "..."
    body = json.dumps(
        {
            "detail": f"this server does not answer to the name {shown!r} (only to its own "
            "addresses, against DNS rebinding)",
            "code": "bad_host",
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
