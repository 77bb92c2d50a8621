"""The addresses a phone on the same network can open, and a QR code of one for the terminal.

``open_urls(host, port, path)``: for a wildcard host (``0.0.0.0``, ``::``, empty) every address of
this machine's network interfaces that is not loopback or link-local; for a named host, that
host. ``qr_text(url)``: the URL as a QR code drawn in text (the ``qrcode`` package of the ``web``
extra), or None without it.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
import struct
import sys

_WILDCARDS = {"", "0.0.0.0", "::", "[::]"}


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces (Linux: SIOCGIFADDR on each), else none."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):
                answer = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
                found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _route_address(family: socket.AddressFamily, target: str) -> list[str]:
    """The address the default route leaves from (a UDP connect sends no packet)."""
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect((target, 9))
        return [probe.getsockname()[0]]
    return []


def _hostname_addresses(family: socket.AddressFamily) -> list[str]:
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
        return [str(info[4][0]) for info in infos]
    return []


def lan_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses others on the network can reach, the default route's first."""
    candidates = _route_address(socket.AF_INET, "10.255.255.255")
    candidates += _interface_addresses() + _hostname_addresses(socket.AF_INET)
    if ipv6:
        candidates += _route_address(socket.AF_INET6, "fd00::1") + _hostname_addresses(socket.AF_INET6)
    seen: list[str] = []
    for address in candidates:
        if _usable(address) and address not in seen:
            seen.append(address)
    return seen


def _url(host: str, port: int, path: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def open_urls(host: str, port: int, path: str = "/") -> list[str]:
    """The URLs to print for a server listening on ``host``:``port``."""
    if host.strip("[]") in {w.strip("[]") for w in _WILDCARDS}:
        return [_url(a, port, path) for a in lan_addresses(ipv6=":" in host)]
    return [_url(host, port, path)]


def qr_text(url: str) -> str | None:
    """``url`` as a QR code in block characters (dark on light), or None without ``qrcode``."""
    try:
        import qrcode
    except ModuleNotFoundError:
        return None
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
