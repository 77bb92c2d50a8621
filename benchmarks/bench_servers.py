"""Load test of the two local servers, on loopback only, with bounded request counts.

    python benchmarks/bench_servers.py [--reads 50] [--big 4] [--saves 100] [--photo PHOTO]

1. The referee app (``fanscan serve``, the project's own reader): ``--reads`` uploads of the
   bundled sample photo (or ``--photo``) to ``POST /api/read``, all sent at once from as many
   client threads; then ``--big`` at once of a 10,950 x 10,950 16-bit grey PNG (255 KB, the photo
   that once took a read to 2.3 GB). The server reads ``min(4, CPUs)`` photos at a time.
2. The labelling app (``fanscan label DIR``): two clients save the same photos' labels at once,
   ``--saves`` each, every save a ``GET`` then a ``PUT`` with ``If-Match``. A 409 (the other
   client saved first) is the version check doing its job: the client loads the labels again and
   retries. Every save names the version it replaces, so the acknowledged saves of a photo form
   one chain; at the end the label file must be that chain's end, with every acknowledged save on
   the way to it (else a save was lost).

Prints JSON: per phase the request count, p50 / p95 latency, errors (status 5xx, a failed
connection, a lost save), and the server's peak resident memory (``VmHWM``, Linux).
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"  # loopback only


@dataclass
class Phase:
    """Figures of one phase of the load test."""

    name: str
    requests: int = 0
    errors: int = 0
    conflicts: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list, repr=False)
    wall_s: float = 0.0
    server_peak_mb: float | None = None

    def summary(self) -> dict[str, Any]:
        times = sorted(self.latencies_ms)
        figures = {k: v for k, v in asdict(self).items() if k != "latencies_ms"}
        figures["p50_ms"] = round(statistics.median(times), 1) if times else None
        figures["p95_ms"] = round(times[min(len(times) - 1, int(0.95 * len(times)))], 1) if times else None
        return figures


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _start(argv: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "fanscan", *argv, "--host", HOST, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return process, port
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit(f"fanscan {' '.join(argv)} did not start")
            time.sleep(0.2)


def _peak_mb(process: subprocess.Popen[bytes]) -> float | None:
    try:
        for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _request(port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
             timeout: float = 600) -> tuple[int, dict[str, str], bytes, float]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request(method, path, body or None, headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data, (time.perf_counter() - started) * 1000
    finally:
        connection.close()


def _multipart(photo: bytes, name: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{name}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _all_at_once(phase: Phase, count: int, send: Any) -> None:
    """``count`` client threads, released together, each sending one request."""
    gate = threading.Barrier(count)
    lock = threading.Lock()

    def client() -> None:
        gate.wait()
        try:
            status, _, _, ms = send()
        except OSError:
            status, ms = 0, None
        with lock:
            phase.requests += 1
            phase.statuses[status] = phase.statuses.get(status, 0) + 1
            if status >= 500 or status == 0:
                phase.errors += 1
            elif ms is not None:
                phase.latencies_ms.append(ms)

    threads = [threading.Thread(target=client) for _ in range(count)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase.wall_s = round(time.perf_counter() - started, 2)


def big_grey_png(side: int = 10950) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\0" + b"\x03\xe8" * side
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 16, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def referee(reads: int, big: int, photo: bytes) -> list[Phase]:
    server, port = _start(["serve"])
    phases = []
    try:
        _request(port, "GET", "/api/tiles")
        sample = Phase(f"referee: {reads} concurrent reads of the sample photo")
        body, kind = _multipart(photo, "hand.jpg")
        # The first read loads the models; it is not counted.
        _request(port, "POST", "/api/read", body, {"content-type": kind})
        _all_at_once(sample, reads, lambda: _request(port, "POST", "/api/read", body, {"content-type": kind}))
        sample.server_peak_mb = _peak_mb(server)
        phases.append(sample)
        if big:
            large = Phase(f"referee: {big} concurrent reads of a 10950x10950 16-bit PNG")
            body, kind = _multipart(big_grey_png(), "grey16.png")
            _all_at_once(large, big, lambda: _request(port, "POST", "/api/read", body, {"content-type": kind}))
            large.server_peak_mb = _peak_mb(server)
            phases.append(large)
    finally:
        server.terminate()
        server.wait(30)
    return phases


def labelling(saves: int, photos: int = 4) -> Phase:
    from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_labels, save_labels

    phase = Phase(f"labelling: 2 clients saving the same {photos} photos, {saves} saves each")
    lock = threading.Lock()
    replaced: dict[str, dict[str, str]] = {}  # image -> {version a save made: the version it replaced}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        images = [f"photo{i}.png" for i in range(photos)]
        box = ((4.0, 4.0), (24.0, 4.0), (24.0, 34.0), (4.0, 34.0))
        for image in images:
            (root / image).write_bytes(big_grey_png(32))
            tiles = tuple(TileLabel("5p", box, 0.5, "model") for _ in range(14))
            save_labels(label_path(root / image), PhotoLabels(image, 32, 32, tiles))
        server, port = _start(["label", str(root)])

        def client(number: int) -> None:
            for i in range(saves):
                image = images[(i + number) % photos]
                url = f"/api/label/labels?image={image}"
                while True:
                    try:
                        status, headers, data, _ = _request(port, "GET", url)
                        labels, old = json.loads(data), headers["etag"]
                        tile = labels["tiles"][i % 14]
                        tile.update(code=("1m", "9s")[number], source="person", confidence=1.0)
                        tile["corners"][0][0] = 4.0 + i / 1000 + number / 10  # each save differs
                        status, headers, _, ms = _request(
                            port, "PUT", url, json.dumps(labels).encode(),
                            {"content-type": "application/json", "if-match": old},
                        )
                    except (OSError, ValueError, KeyError):
                        status, ms = 0, 0.0
                    with lock:
                        phase.requests += 1
                        phase.statuses[status] = phase.statuses.get(status, 0) + 1
                        if status == 200:
                            phase.latencies_ms.append(ms)
                            replaced.setdefault(image, {})[headers["etag"]] = old
                            break
                        if status == 409:
                            phase.conflicts += 1
                            continue
                        phase.errors += 1
                        break

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(n,)) for n in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        phase.wall_s = round(time.perf_counter() - started, 2)
        phase.server_peak_mb = _peak_mb(server)
        for image, chain in replaced.items():
            status, headers, _, _ = _request(port, "GET", f"/api/label/labels?image={image}")
            version, on_chain = headers.get("etag"), 0
            while version in chain and on_chain <= len(chain):  # back from the file's version
                version, on_chain = chain[version], on_chain + 1
            phase.errors += len(chain) - on_chain  # acknowledged saves not on the way: lost
            load_labels(label_path(root / image))  # and the file is whole
        server.terminate()
        server.wait(30)
    return phase


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reads", type=int, default=50, help="concurrent reads of the sample (at most 200)")
    parser.add_argument("--big", type=int, default=4, help="concurrent reads of the huge PNG (at most 16)")
    parser.add_argument("--saves", type=int, default=100, help="saves per labelling client (at most 2000)")
    parser.add_argument("--photo", type=Path, help="photo for the reads (default: the bundled sample)")
    args = parser.parse_args(argv)
    if not (1 <= args.reads <= 200 and 0 <= args.big <= 16 and 1 <= args.saves <= 2000):
        parser.error("request counts are bounded: --reads 1-200, --big 0-16, --saves 1-2000")
    if args.photo is None:
        from fanscan.vision.samples import sample_photo_path

        args.photo = sample_photo_path()
    phases = [*referee(args.reads, args.big, args.photo.read_bytes()), labelling(args.saves)]
    print(json.dumps([phase.summary() for phase in phases], indent=2))
    return 1 if any(phase.errors for phase in phases) else 0


if __name__ == "__main__":
    sys.exit(main())
