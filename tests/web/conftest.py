"""Fixtures for the web app tests: a fake reader and scorer, a test client and a live server.

The fakes stand in for the photo reader and the scorer so that the app's own behaviour (routing,
limits, refusals, the page) is tested alone; tests that use the project's scorer say so.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fanscan.scoring.hand import DEFAULT_WIN_CONDITIONS

# Debian's Chromium (FANSCAN_CHROMIUM overrides), with the flags that work on a closed network.
CHROMIUM = os.environ.get("FANSCAN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (starting it is the slow part); skips without it."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(url, errors, **context)``: a page of ``url`` in a fresh browser context (its own
    storage), phone-sized unless ``viewport`` says otherwise, ready (``data-ready``); page errors
    and console errors go to ``errors``."""
    from playwright.sync_api import expect

    contexts: list[Any] = []

    def opener(url: str, errors: list[str], **context: Any) -> Any:
        context.setdefault("viewport", {"width": 390, "height": 844})
        ctx = browser.new_context(**context)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.set_default_timeout(10_000)
        page.goto(url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        return page

    yield opener
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def photo_file(tmp_path: Any, photo: bytes) -> Any:
    """The test photo (``photo``) as a file to upload."""
    path = tmp_path / "hand.png"
    path.write_bytes(photo)
    return path

# A read of the photo from ``photo_png()``: seven pairs, one 7p read as 7s with low confidence.
SEVEN_PAIRS_MISREAD = [
    "1m",
    "1m",
    "3m",
    "3m",
    "5p",
    "5p",
    "7p",
    "7s",
    "9s",
    "9s",
    "E",
    "E",
    "C",
    "C",
]


def _box(index: int) -> list[list[int]]:
    left = 40 + index * 52
    return [[left, 120], [left + 48, 120], [left + 48, 184], [left, 184]]


def fake_reading(codes: list[str] | None = None, doubtful: int = 7) -> dict[str, Any]:
    """A contract ``read`` object for tiles laid in a row; tile ``doubtful`` has confidence 0.55."""
    codes = codes or SEVEN_PAIRS_MISREAD
    tiles = [
        {
            "code": code,
            "confidence": 0.55 if i == doubtful else 0.97,
            "box": _box(i),
            "orientation": 0,
        }
        for i, code in enumerate(codes)
    ]
    hand = {
        "concealed": list(codes),
        "melds": [],
        "win_tile": codes[-1],
        "flowers": [],
        **DEFAULT_WIN_CONDITIONS,
    }
    doubts = (
        [f"tile {doubtful + 1} from the left may not be {codes[doubtful]}"] if doubtful >= 0 else []
    )
    return {"tiles": tiles, "hand": hand, "doubts": doubts}


def photo_png(width: int = 820, height: int = 300) -> bytes:
    """A small PNG with pale rectangles where ``fake_reading`` puts its tiles."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (31, 95, 70))
    draw = ImageDraw.Draw(image)
    for i in range(14):
        (x0, y0), _, (x1, y1), _ = _box(i)
        draw.rectangle([x0, y0, x1, y1], fill=(245, 240, 225), outline=(120, 110, 90))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class FakeReader:
    """Returns a fixed reading; counts calls and the most calls in flight at once."""

    def __init__(self, reading: dict[str, Any] | None = None, delay: float = 0.0) -> None:
        self.reading = reading or fake_reading()
        self.delay = delay
        self.calls: list[bytes] = []
        self.rules: list[str | None] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self._lock = threading.Lock()

    def __call__(self, data: bytes, rules: str | None = None) -> dict[str, Any]:
        with self._lock:
            self.calls.append(data)
            self.rules.append(rules)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.delay:
                time.sleep(self.delay)
            return {**self.reading, "bytes": len(data)}
        finally:
            with self._lock:
                self.in_flight -= 1


class FakeScorer:
    """Two rule sets; the total is the number of concealed tiles, +10 when self-drawn."""

    def __init__(self) -> None:
        self.hands: list[tuple[dict[str, Any], str]] = []

    def rule_sets(self) -> list[dict[str, Any]]:
        return [
            {"name": "mcr", "title": "Fake MCR", "minimum": 8, "hand_size": 14, "fields": []},
            {
                "name": "other",
                "title": "Fake other",
                "minimum": 3,
                "hand_size": 14,
                "fields": [
                    {"name": "heavenly", "default": False, "help": "won on the deal"},
                    {"name": "wild", "default": "none", "choices": ["none", "same", "next"],
                     "help": "the wild tile: " + "a long explanation of every kind of wild tile " * 4},
                    {"name": "base_money", "default": 1, "help": "money per point"},
                ],
            },
        ]

    def score(self, hand: dict[str, Any], rules: str) -> dict[str, Any]:
        self.hands.append((hand, rules))
        total = len(hand.get("concealed", [])) + (10 if hand.get("self_drawn") else 0)
        minimum = 8 if rules == "mcr" else 3
        return {
            "rules": rules,
            "total": total,
            "fans": [{"name": "Tile count", "chinese": "张数", "points": total, "count": 1}],
            "flower_points": 0,
            "minimum": minimum,
            "meets_minimum": total >= minimum,
            "error": None,
        }


@pytest.fixture
def photo() -> bytes:
    """The PNG that ``fake_reading`` describes."""
    return photo_png()


@pytest.fixture
def reading() -> dict[str, Any]:
    """The fake reader's answer (seven pairs, one tile misread with low confidence)."""
    return fake_reading()


@pytest.fixture
def fakes() -> Any:
    """The fake classes, for tests that build their own app."""
    return _Fakes


@pytest.fixture
def reader() -> FakeReader:
    return FakeReader()


@pytest.fixture
def scorer() -> FakeScorer:
    return FakeScorer()


@pytest.fixture
def client(reader: FakeReader, scorer: FakeScorer) -> Iterator[Any]:
    pytest.importorskip("fastapi")
    pytest.importorskip("python_multipart")
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    with TestClient(create_app(reader=reader, scorer=scorer)) as test_client:
        yield test_client


@contextlib.contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yields the base URL."""
    from fanscan.web.server import bind, make_server

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = make_server(app, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


class _Fakes:
    Reader = FakeReader
    Scorer = FakeScorer
    live_server = staticmethod(live_server)
