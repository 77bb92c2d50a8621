"""The text notation for hands: the grammar, the parser and the printer.

Grammar (the contract's notation, as in the widely used MCR calculators)::

    hand     := item+ [flowers]
    item     := tiles | meld            (spaces between items are allowed)
    tiles    := digits suit | honor     digits 1-9, suit m p s; honors E S W N C F P
    meld     := "[" tiles+ [[","] claim] "]"  three tiles of a chow or pung, four of a kong
    claim    := one digit: chow 1-3 (which tile was claimed), pung 1-3 (from left, across, right),
                kong 1-3 (exposed), 5-7 (added to a pung claimed from 1-3); a kong without
                a claim is concealed
    flowers  := ("+" | space) digits "f" ...   flower and season codes 1f-8f

The claim may follow a comma, as the MCR calculators' other form writes it: ``[567m,2]`` is
``[567m2]``, ``[999s,3]`` is ``[999s3]``. The last standing tile written is the winning tile.
Win conditions (self-drawn, winds, ...) are not part of the notation; they come with the hand
JSON or the CLI flags.

Standing tiles, a chow claimed on its 2nd tile, a pung from the right and a concealed kong:

>>> hand = parse_notation("[567m2][999s3][SSSS]46pCC5p")
>>> [(m.kind, m.concealed, m.claimed_from) for m in hand.melds]
[('chow', False, 2), ('pung', False, 3), ('kong', True, None)]
>>> hand.win_tile.code, len(hand.concealed)
('5p', 5)

The comma form reads the same hand; the printer writes the claim without the comma:

>>> comma = parse_notation("[567m,2][999s,3]123p45sEE6s")
>>> comma == parse_notation("[567m2][999s3]123p45sEE6s")
True
>>> [(m.kind, m.claimed_from) for m in comma.melds], format_notation(comma)
([('chow', 2), ('pung', 3)], '[567m2][999s3]123p45sEE6s')
>>> len(parse_notation("[567m,2][999s,3]123p45sEE", complete=False).concealed)  # waiting
7
>>> [m.claimed_from for m in parse_notation("[8888p,1][1111s,6]123789m55s").melds]
[1, 6]

An exposed kong, an added kong and flowers after a ``+`` or a space:

>>> hand = parse_notation("[8888p1][1111s6]123789m55s +1f6f")
>>> [(m.kind, m.concealed, m.claimed_from) for m in hand.melds], [f.code for f in hand.flowers]
([('kong', False, 1), ('kong', False, 6)], ['1f', '6f'])
>>> format_notation(hand)
'[8888p1][1111s6]123789m55s+1f6f'

Waiting hands (``complete=False``) have no win tile:

>>> parse_notation("123456789m1234p", complete=False).win_tile is None
True

Every error names the column (counted from 1):

>>> parse_notation("123m4x5p")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: unexpected 'x' at column 6 in '123m4x5p'
>>> parse_notation("123m45")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: digits '45' at column 5 have no suit letter (m, p or s) in '123m45'
>>> parse_notation("[123m")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: the meld opened at column 1 is not closed in '[123m'
>>> parse_notation("[124m]55p")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: the meld [124m] at column 1 is not a chow, pung or kong
>>> parse_notation("[567m4]11p")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: the meld [567m4] at column 1 has claim 4; a chow takes 1-3
>>> parse_notation("[567m,]11p")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: the comma at column 6 needs a claim digit before ']' in '[567m,]11p'
>>> parse_notation("[567m,4]11p")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: the meld [567m,4] at column 1 has claim 4; a chow takes 1-3
>>> parse_notation("123m+1f9f")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: '9f' at column 8 is not a flower (1f-8f) in '123m+1f9f'
>>> parse_notation("12f3m")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: flowers at column 1 must come last, after a space or '+', in '12f3m'
>>> parse_notation("[111m]")
Traceback (most recent call last):
...
fanscan.errors.FanscanError: '[111m]' has no standing tiles, so no winning tile
"""

from __future__ import annotations

import unicodedata

from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import Tile, format_tiles, suited

from fanscan.errors import FanscanError, quoted

_HONORS = "ESWNCFP"
_SUITS = "mps"
_DIGITS = frozenset("0123456789")
"""Digits are ASCII only: ``str.isdigit`` also takes superscripts, circled digits and other
scripts' digits, which ``int`` refuses."""


def _digit(char: str) -> bool:
    return char in _DIGITS


def _error(message: str) -> FanscanError:
    return FanscanError("bad_notation", message)


SHOWN_CHARS = 60
"""An error message quotes at most this much of the notation: a line, not a pasted file."""


def _shown(text: str) -> str:
    """``text`` quoted as in a message, cut short (with an ellipsis) past ``SHOWN_CHARS``."""
    return quoted(text, SHOWN_CHARS)


class _Parser:
    """A single left-to-right pass; positions are 0-based inside, reported 1-based."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail_unexpected(self) -> FanscanError:
        char = self.text[self.pos]
        # Any script's digit, a superscript or a circled one, then a full-width 'ｍ' as a CJK
        # keyboard types it: the message says what to type instead.
        value = unicodedata.digit(char, None)
        plain = str(value) if value is not None else unicodedata.normalize("NFKC", char)
        typed = plain != char and plain.isascii() and plain.isprintable()
        hint = f": write it as {plain!r}" if typed else ""
        where = f"at column {self.pos + 1} in {_shown(self.text)}"
        return _error(f"unexpected {char!r} {where}{hint}")

    def tiles_group(self) -> list[Tile] | None:
        """Read ``digits suit`` or one honor letter at pos; None if neither starts here."""
        text, start = self.text, self.pos
        if start < len(text) and text[start] in _HONORS:
            self.pos += 1
            return [Tile.from_code(text[start])]
        end = start
        while end < len(text) and _digit(text[end]):
            end += 1
        if end == start:
            return None
        if end < len(text) and text[end] in _SUITS:
            digits = text[start:end]
            if "0" in digits:
                column = start + digits.index("0") + 1
                raise _error(f"unexpected '0' at column {column} in {_shown(text)}")
            self.pos = end + 1
            return [suited(text[end], int(d)) for d in digits]
        return None

    def digits_without_suit(self) -> FanscanError:
        text, start = self.text, self.pos
        end = start
        while end < len(text) and _digit(text[end]):
            end += 1
        if end < len(text) and text[end] == "f":
            return _error(
                f"flowers at column {start + 1} must come last, after a space or '+', "
                f"in {_shown(text)}"
            )
        if end < len(text) and not text[end].isspace() and text[end] not in "]+":
            self.pos = end
            return self.fail_unexpected()
        return _error(
            f"digits {text[start:end]!r} at column {start + 1} have no suit letter (m, p or s)"
            f" in {_shown(text)}"
        )

    def meld(self) -> Meld:
        text, start = self.text, self.pos
        close = text.find("]", start)
        if close < 0:
            raise _error(f"the meld opened at column {start + 1} is not closed in {_shown(text)}")
        self.pos += 1
        tiles: list[Tile] = []
        claim = None
        while self.pos < close:
            group = self.tiles_group()
            if group is not None:
                tiles += group
                continue
            if _digit(text[self.pos]) and self.pos + 1 == close:
                claim = int(text[self.pos])
                self.pos += 1
                continue
            if text[self.pos] == "," and tiles and claim is None:
                if self.pos + 2 != close or not _digit(text[self.pos + 1]):
                    raise _error(
                        f"the comma at column {self.pos + 1} needs a claim digit before ']'"
                        f" in {_shown(text)}"
                    )
                claim = int(text[self.pos + 1])
                self.pos += 2
                continue
            if _digit(text[self.pos]):
                raise self.digits_without_suit()
            raise self.fail_unexpected()
        self.pos = close + 1
        shown = text[start : close + 1]
        kinds = {3: ("chow", "pung"), 4: ("kong",)}.get(len(tiles), ())
        kind = next((k for k in kinds if _is_set(k, tiles)), None)
        if kind is None:
            raise _error(f"the meld {shown} at column {start + 1} is not a chow, pung or kong")
        allowed = (1, 2, 3, 5, 6, 7) if kind == "kong" else (1, 2, 3)
        if claim is not None and claim not in allowed:
            takes = "1-3 or 5-7" if kind == "kong" else "1-3"
            raise _error(
                f"the meld {shown} at column {start + 1} has claim {claim}; a {kind} takes {takes}"
            )
        concealed = kind == "kong" and claim is None
        return Meld(kind, tuple(sorted(tiles)), concealed, claim)

    def flowers(self) -> list[Tile]:
        text = self.text
        found: list[Tile] = []
        while self.pos < len(text):
            char = text[self.pos]
            if char.isspace() or char == "+":
                self.pos += 1
                continue
            start = self.pos
            end = start
            while end < len(text) and _digit(text[end]):
                end += 1
            if end == start or end >= len(text) or text[end] != "f":
                if end > start:
                    self.pos = end if end < len(text) else start
                raise self.fail_unexpected()
            for offset, digit in enumerate(text[start:end]):
                code = f"{digit}f"
                if not "1" <= digit <= "8":
                    column = start + offset + 1
                    raise _error(
                        f"{code!r} at column {column} is not a flower (1f-8f) in {_shown(text)}"
                    )
                found.append(Tile.from_code(code))
            self.pos = end + 1
        return found


def _is_set(kind: str, tiles: list[Tile]) -> bool:
    ordered = sorted(tiles)
    if kind == "chow":
        first = ordered[0]
        return (
            first.is_suited
            and (first.rank or 9) <= 7
            and ordered == [first, Tile(first + 1), Tile(first + 2)]
        )
    return all(t == ordered[0] for t in ordered)


def parse_notation(text: str, *, complete: bool = True, size: int | None = None) -> Hand:
    """Parse ``text`` into a checked Hand (see the module docstring for the grammar).

    ``complete=False`` reads a waiting hand: no win tile, and the tile count is ``size``
    (default 13). A complete hand has ``size`` tiles (default 14).
    """
    if not isinstance(text, str) or not text.strip():
        raise _error("the hand notation is empty")
    parser = _Parser(text)
    concealed: list[Tile] = []
    melds: list[Meld] = []
    flowers: list[Tile] = []
    while parser.pos < len(text):
        char = text[parser.pos]
        if char == "[":
            melds.append(parser.meld())
            continue
        if char == "+" or (char.isspace() and _flowers_follow(text, parser.pos)):
            flowers = parser.flowers()
            break
        if char.isspace():
            parser.pos += 1
            continue
        group = parser.tiles_group()
        if group is not None:
            concealed += group
            continue
        if _digit(char):
            raise parser.digits_without_suit()
        raise parser.fail_unexpected()
    if not concealed:
        raise _error(f"{_shown(text)} has no standing tiles, so no winning tile")
    win = concealed[-1] if complete else None
    hand = Hand(tuple(concealed), tuple(melds), win, tuple(flowers))
    return hand.check(size if size is not None else (14 if complete else 13))


def parse_flowers(text: str) -> tuple[Tile, ...]:
    """Flower codes on their own, as after the ``+`` of a hand: ``1f6f`` or ``16f``.

    >>> [t.code for t in parse_flowers("16f 8f")]
    ['1f', '6f', '8f']
    """
    parser = _Parser(text)
    return tuple(parser.flowers())


def parse_melds(text: str) -> tuple[Meld, ...]:
    """Declared sets on their own, in the hand's brackets: ``[567m2][999s3]``, spaces allowed.

    >>> [(m.kind, m.claimed_from) for m in parse_melds("[567m2] [SSSS]")]
    [('chow', 2), ('kong', None)]
    >>> parse_melds("[567m2]4p")
    Traceback (most recent call last):
    ...
    fanscan.errors.FanscanError: only sets in brackets go here: '4' at column 8 in '[567m2]4p'
    """
    if not isinstance(text, str) or not text.strip():
        raise _error("no declared sets given (write them in brackets, e.g. [567m2][999s3])")
    parser = _Parser(text)
    melds: list[Meld] = []
    while parser.pos < len(text):
        char = text[parser.pos]
        if char.isspace():
            parser.pos += 1
        elif char == "[":
            melds.append(parser.meld())
        else:
            raise _error(f"only sets in brackets go here: {quoted(char)} at column "
                         f"{parser.pos + 1} in {_shown(text)}")
    return tuple(melds)


def _flowers_follow(text: str, pos: int) -> bool:
    rest = text[pos:].strip()
    index = 0
    while index < len(rest) and _digit(rest[index]):
        index += 1
    return index > 0 and index < len(rest) and rest[index] == "f"


def format_notation(hand: Hand) -> str:
    """The notation of ``hand``; the win tile is written last so that parsing gives it back."""
    parts = [_format_meld(m) for m in hand.melds]
    standing = list(hand.concealed)
    if hand.win_tile is not None and hand.win_tile in standing:
        standing.remove(hand.win_tile)
        standing.append(hand.win_tile)
    parts.append(format_tiles(standing))
    text = "".join(parts)
    if hand.flowers:
        text += "+" + "".join(f.code for f in hand.flowers)
    return text


def _format_meld(meld: Meld) -> str:
    claim = meld.claimed_from
    if meld.kind == "kong" and not meld.concealed and claim is None:
        claim = 1  # the notation writes every exposed kong with a claim
    return f"[{format_tiles(list(meld.tiles))}{claim if claim is not None else ''}]"
