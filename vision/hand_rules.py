"""What a reading of the hand must be: the rules' hand sizes and kind, and the tests of a hand.

``HandRules`` says which hands a photo may show (complete sizes, kongs counted as three, and
whether the hand is a win, waiting to win, or anything); ``hand_rules`` makes them from a rule
set's name. ``copies_allowed``, ``is_complete``, ``is_waiting`` and ``satisfies`` are the
constraints the reading search (``interpret``) holds its readings to, on the layout's hand JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from fanscan.scoring.decompose import FORMS, SIXTEEN_TILE_HAND, waiting_tiles
from fanscan.scoring.decompose import readings as hand_readings
from fanscan.scoring.hand import Hand
from fanscan.scoring.tiles import BACK, TILE_CODES
from fanscan.vision.detections import HandLayout, LayoutGroup

from fanscan.errors import FanscanError

HandKind = Literal["win", "waiting", "any"]
_FLOWERS = frozenset(TILE_CODES[34:])


@dataclass(frozen=True)
class HandRules:
    """The hands a reading may be: complete ``sizes`` (kongs counted as three) and the kind."""

    sizes: tuple[int, ...]
    kind: HandKind = "win"


def hand_rules(rules: str | None = None, kind: HandKind = "win", size: int | None = None) -> HandRules:
    """The hand sizes of rule set ``rules`` (every rule set's, and the 16-tile games', when None);
    ``size``: the one complete size asked for outright (``SIXTEEN_TILE_HAND`` for a 16-tile game's
    hand, which no rule set here plays)."""
    from fanscan.scoring.ruleset import HAND_SIZES, get_ruleset

    if kind not in ("win", "waiting", "any"):
        raise FanscanError("bad_option", f"a hand is win, waiting or any, not {kind!r}")
    if size is not None:
        if rules is not None:
            get_ruleset(rules)  # an unknown name is still an error
        if size % 3 != 2 or not 2 <= size <= SIXTEEN_TILE_HAND:
            raise FanscanError("bad_option", f"a complete hand holds 2, 5, ... or 17 tiles, not {size}")
        return HandRules((size,), kind)
    if rules is not None:
        return HandRules((get_ruleset(rules).hand_size,), kind)
    sizes = set(HAND_SIZES.values()) | {SIXTEEN_TILE_HAND}
    return HandRules(tuple(sorted(sizes)), kind)


def copies_allowed(code: str) -> int:
    """How many tiles of this face a set holds (face-down tiles: any number)."""
    if code == BACK:
        return 10**6
    return 1 if code in _FLOWERS else 4


def excess_copies(codes: list[str]) -> float:
    """The share of the faces ``codes`` read beyond the copies one set holds of each."""
    if not codes:
        return 0.0
    counts = Counter(codes)
    return sum(max(0, n - copies_allowed(code)) for code, n in counts.items()) / len(codes)


def tile_count(hand: dict, unread_kongs: int = 0) -> int:
    """The hand JSON's playing tiles, kongs counted as three, with ``unread_kongs`` concealed kongs
    of four backs beside it (a set whose face the photo does not show, so the JSON cannot hold it)."""
    return len(hand.get("concealed", [])) + 3 * len(hand.get("melds", [])) + 3 * unread_kongs


def unread_kongs(groups: Iterable[LayoutGroup]) -> int:
    """The layout's concealed kongs of four backs: kongs, though no face of theirs is known."""
    return sum(1 for g in groups if g.role == "concealed_kong" and g.meld is None)


def layout_tile_count(hand_layout: HandLayout) -> int:
    """The playing tiles of a layout's hand, kongs counted as three, its unread kongs among them."""
    return tile_count(hand_layout.hand, unread_kongs(hand_layout.groups))


def is_complete(hand: dict) -> bool:
    """Whether the hand JSON is a possible, complete hand (any tile count, kongs counted as 3)."""
    count = tile_count(hand)
    if count % 3 != 2 or hand.get("win_tile") is None:
        return False
    try:
        return bool(hand_readings(Hand.from_json(hand, size=count)))
    except FanscanError:
        return False


def is_waiting(hand: dict) -> bool:
    """Whether the hand JSON (its winning tile counted as a concealed tile) waits on some tile."""
    count = tile_count(hand)
    if count % 3 != 1:
        return False
    try:
        waiting = Hand.from_json({**hand, "win_tile": None}, size=count, win_tile=False)
        return bool(waiting_tiles(waiting, FORMS))
    except FanscanError:
        return False


def satisfies(hand: dict, rules: HandRules, unread_kongs: int = 0, stray_backs: int = 0) -> bool:
    """Whether the hand JSON, with ``unread_kongs`` kongs of four backs and ``stray_backs``
    face-down tiles in no concealed kong beside it, is a hand ``rules`` allow. An unread kong is a
    set whatever its face: the tiles the JSON holds must make the rest of the hand, and the kong
    counts towards its size. A stray back is a tile of the hand whose face nobody can know: with
    one the hand is none the rules allow (the JSON, which holds faces, would pass without it)."""
    if rules.kind == "any":
        return True
    if stray_backs:
        return False
    count = tile_count(hand, unread_kongs)
    if rules.kind == "waiting":
        return count + 1 in rules.sizes and is_waiting(hand)
    return count in rules.sizes and is_complete(hand)
