"""Tile images for the web app: one SVG per tile code, drawn here (no third-party art).

Dots are circles, bamboo are sticks (1s a bird), characters, winds, dragons and flowers are CJK
text (the browser's CJK font draws them), and ``back`` is a plain patterned back. Every face is a
60x80 tile; ``tile_svg(code)`` returns the whole document.

>>> tile_svg("3p").count('class="dot"')
3
>>> "南" in tile_svg("S"), "<text" in tile_svg("back")
(True, False)
"""

from __future__ import annotations

from functools import cache

from fanscan.scoring.tiles import BACK, CHINESE_NAMES, Tile

WIDTH, HEIGHT = 60, 80
_FONT = (
    "'Noto Serif CJK SC','Noto Serif CJK JP','Noto Sans CJK SC','Source Han Serif SC',"
    "'Songti SC','PingFang SC','Hiragino Mincho ProN','SimSun','Microsoft YaHei',serif"
)
_BLUE, _GREEN, _RED, _BLACK = "#1f4e9c", "#1d7a3a", "#c62828", "#1b1b1b"
_NUMERALS = "一二三四伍六七八九"

# Dot centres per rank, in face coordinates, with each dot's colour.
_DOTS: dict[int, list[tuple[int, int, str]]] = {
    2: [(30, 24, _GREEN), (30, 56, _BLUE)],
    3: [(16, 18, _BLUE), (30, 40, _RED), (44, 62, _GREEN)],
    4: [(18, 24, _BLUE), (42, 24, _GREEN), (18, 56, _GREEN), (42, 56, _BLUE)],
    5: [(17, 20, _BLUE), (43, 20, _GREEN), (30, 40, _RED), (17, 60, _GREEN), (43, 60, _BLUE)],
    6: [(19, 16, _GREEN), (41, 16, _GREEN)] + [(x, y, _RED) for y in (42, 62) for x in (19, 41)],
    7: [(15, 13, _GREEN), (30, 22, _GREEN), (45, 31, _GREEN)]
    + [(x, y, _RED) for y in (48, 65) for x in (19, 41)],
    8: [(x, y, _BLUE) for y in (13, 31, 49, 67) for x in (19, 41)],
    9: [(x, y, c) for y, c in ((16, _BLUE), (40, _RED), (64, _GREEN)) for x in (14, 30, 46)],
}

# Bamboo stick centres per rank, with each stick's colour.
_STICKS: dict[int, list[tuple[int, int, str]]] = {
    2: [(30, 24, _GREEN), (30, 56, _GREEN)],
    3: [(30, 24, _GREEN), (20, 56, _GREEN), (40, 56, _GREEN)],
    4: [(x, y, c) for y in (24, 56) for x, c in ((20, _GREEN), (40, _BLUE))],
    5: [(16, 24, _GREEN), (44, 24, _BLUE), (30, 40, _RED), (16, 56, _BLUE), (44, 56, _GREEN)],
    6: [(x, y, _GREEN) for y in (24, 56) for x in (15, 30, 45)],
    7: [(30, 15, _RED)] + [(x, y, _GREEN) for y in (40, 64) for x in (15, 30, 45)],
    8: [(x, y, _GREEN) for y in (24, 56) for x in (12, 24, 36, 48)],
    9: [(x, y, c) for y in (15, 40, 65) for x, c in ((15, _GREEN), (30, _RED), (45, _BLUE))],
}

_FLOWER_COLOURS = {
    "1f": "#c2185b",
    "2f": "#6a1b9a",
    "3f": "#ef6c00",
    "4f": _GREEN,
    "5f": _GREEN,
    "6f": _RED,
    "7f": "#ef6c00",
    "8f": _BLUE,
}
_HONOR_COLOURS = {"C": _RED, "F": _GREEN}


def _text(x: float, y: float, size: float, colour: str, text: str, weight: str = "700") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" fill="{colour}" font-weight="{weight}" '
        f'font-family="{_FONT}" text-anchor="middle" dominant-baseline="central">{text}</text>'
    )


def _dot(x: float, y: float, colour: str, radius: float) -> str:
    return (
        f'<g class="dot"><circle cx="{x}" cy="{y}" r="{radius}" fill="{colour}"/>'
        f'<circle cx="{x}" cy="{y}" r="{radius * 0.62}" fill="#fdfbf3"/>'
        f'<circle cx="{x}" cy="{y}" r="{radius * 0.32}" fill="{colour}"/></g>'
    )


def _stick(x: float, y: float, colour: str, height: float) -> str:
    top = y - height / 2
    return (
        f'<g class="stick"><rect x="{x - 3.2}" y="{top}" width="6.4" height="{height}" rx="3.2" '
        f'fill="{colour}"/><line x1="{x - 3.2}" y1="{y}" x2="{x + 3.2}" y2="{y}" '
        f'stroke="#fdfbf3" stroke-width="1.4"/></g>'
    )


def _bird() -> str:
    """The 1 of bamboo: a small bird standing on a stick."""
    return (
        '<g class="bird">'
        f'<path d="M22 50 L12 66 L20 64 L16 74 L28 58 Z" fill="{_BLUE}"/>'
        f'<ellipse cx="31" cy="46" rx="12" ry="15" fill="{_GREEN}"/>'
        f'<circle cx="38" cy="27" r="7.5" fill="{_GREEN}"/>'
        '<circle cx="40" cy="25.5" r="1.8" fill="#fdfbf3"/>'
        f'<path d="M45 26 L53 28 L45 30 Z" fill="{_RED}"/>'
        f'<path d="M26 44 Q31 52 38 44" stroke="{_RED}" stroke-width="2" fill="none"/>'
        f'<line x1="27" y1="61" x2="27" y2="70" stroke="{_RED}" stroke-width="2"/>'
        f'<line x1="34" y1="61" x2="34" y2="70" stroke="{_RED}" stroke-width="2"/>'
        "</g>"
    )


def _big_dot() -> str:
    """The 1 of dots: one large ringed circle."""
    rings = [(22, _GREEN), (17.5, "#fdfbf3"), (14.5, _RED), (9, "#fdfbf3"), (5.5, _BLUE)]
    circles = "".join(f'<circle cx="30" cy="40" r="{r}" fill="{c}"/>' for r, c in rings)
    return f'<g class="dot">{circles}</g>'


def _face(tile: Tile) -> str:
    code, suit, rank = tile.code, tile.suit, tile.rank
    if suit == "p" and rank is not None:
        if rank == 1:
            return _big_dot()
        radius = 7.5 if rank <= 5 else 6.2
        return "".join(_dot(x, y, c, radius) for x, y, c in _DOTS[rank])
    if suit == "s" and rank is not None:
        if rank == 1:
            return _bird()
        height = 26 if rank <= 6 or rank == 8 else 20
        return "".join(_stick(x, y, c, height) for x, y, c in _STICKS[rank])
    if suit == "m" and rank is not None:
        return _text(30, 25, 26, _BLUE, _NUMERALS[rank - 1]) + _text(30, 57, 30, _RED, "萬")
    if code == "P":
        return (
            f'<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="{_BLUE}" '
            f'stroke-width="3"/><rect x="17" y="19" width="26" height="42" rx="2" fill="none" '
            f'stroke="{_BLUE}" stroke-width="1.5"/>'
        )
    if tile.is_honor:
        return _text(30, 41, 40, _HONOR_COLOURS.get(code, _BLACK), CHINESE_NAMES[code])
    number = (int(code[0]) - 1) % 4 + 1
    colour = _FLOWER_COLOURS[code]
    return (
        _text(12, 12, 13, _RED if int(code[0]) <= 4 else _BLUE, str(number), "600")
        + f'<circle cx="30" cy="46" r="17" fill="none" stroke="{colour}" stroke-width="1.2" '
        'stroke-dasharray="2 3"/>' + _text(30, 46, 26, colour, CHINESE_NAMES[code])
    )


def _document(label: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{label}">'
        f"<title>{label}</title>{body}</svg>"
    )


_BACK_BODY = (
    f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="6" fill="#2e7d5b" '
    'stroke="#1b4d37" stroke-width="2"/>'
    '<rect x="7" y="7" width="46" height="66" rx="4" fill="none" stroke="#a5d6b9" '
    'stroke-width="1.5"/>'
    '<path d="M30 16 L46 40 L30 64 L14 40 Z" fill="none" stroke="#a5d6b9" stroke-width="1.5"/>'
    '<circle cx="30" cy="40" r="5" fill="#a5d6b9"/>'
)

_BLANK = (
    f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="6" fill="#fdfbf3" '
    'stroke="#b9b29a" stroke-width="2"/>'
)


@cache
def tile_svg(code: str) -> str:
    """The SVG document for a tile code (one of the 42 faces, or ``back``)."""
    if code == BACK:
        return _document("back", _BACK_BODY)
    tile = Tile.from_code(code)
    return _document(f"{code} {tile.chinese}", _BLANK + _face(tile))
