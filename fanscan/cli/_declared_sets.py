"""``--melds``: a photo's hand completed by declared sets the user types (a standing hand's sets
lie flat beyond the row, where the photo may not show them or the reader may miss them).

The photo is read as it shows first (its flowers and any sets found kept in their places); when
its standing tiles are not as many as the sets typed leave (the hand's tiles less three a set), it
is read again held to that count. The sets typed take the place of any the photo shows. ``waits``
and ``score`` share these steps.
"""

from __future__ import annotations

from typing import Any

from fanscan.errors import FanscanError

MELDS_HELP = ("with a PHOTO: the hand's declared sets, in the notation's brackets (e.g. "
              "[567m2][999s3]), when the photo shows the standing tiles alone or its sets were not "
              "read: the photo is read for the standing tiles ({whole} less three a set) and these "
              "sets are added, in place of any the photo shows")


def sets_phrase(count: int) -> str:
    """``1 set``, ``2 sets``."""
    return f"{count} set" if count == 1 else f"{count} sets"


def standing_count(whole: int, given: tuple[Any, ...], kind: str) -> int:
    """The tiles left standing in ``kind`` (``a waiting hand``) of ``whole`` tiles once the sets
    ``given`` are laid apart; refuses sets that leave none."""
    standing = whole - 3 * len(given)
    if standing < 1:
        raise FanscanError("bad_arguments", f"--melds: {sets_phrase(len(given))} leave no standing "
                                            f"tile in {kind} of {whole}")
    return standing


def read_standing(source: str | bytes, rules: str | None, kind: str, standing: int) -> Any:
    """The reading of the photo ``source`` whose standing tiles should be ``standing`` of a hand
    ``kind`` (``win``: the winning tile among them; ``waiting``): the photo as read without a
    count when that count comes out (a second search held to it could cut the flowers lying with
    the sets), else read again as a complete hand of the standing tiles (plus the one it waits on)."""
    from fanscan.vision.reader import read_photo

    reading = read_photo(source, rules=rules, hand=kind)
    if len(reading.hand.concealed) == standing:
        return reading
    return read_photo(source, rules=rules, hand=kind, hand_size=standing + (kind == "waiting"))


def check_standing(shown: str, read: Any, standing: int, given: tuple[Any, ...], kind: str, whole: int) -> None:
    """Refuse a reading ``read`` (a Hand) whose standing tiles are not ``standing`` in number,
    naming what the photo shows and how many should stand."""
    from fanscan.cli.read import hand_notation

    count = len(read.concealed)
    if count != standing:
        raise FanscanError("bad_hand", f"{shown} shows {count} standing tiles "
                                       f"({hand_notation(read) if count else 'none'}); with the "
                                       f"{sets_phrase(len(given))} of --melds {kind} of {whole} "
                                       f"stands {standing}")


def with_sets(read: Any, given: tuple[Any, ...], shown: str, whole: int) -> Any:
    """The Hand ``read`` with the sets ``given`` in place of its own; refuses, naming the photo,
    a hand of ``whole`` tiles they make impossible (a fifth tile of a face)."""
    try:
        return read.replace(melds=given).check(whole)
    except FanscanError as error:
        raise FanscanError("bad_hand", f"{shown} with the sets of --melds is no possible hand: "
                                       f"{error.message}") from None


def holds_sets(read: Any, given: tuple[Any, ...], whole: int) -> bool:
    """Whether the Hand ``read`` with the sets ``given`` in place of its own is a possible hand."""
    try:
        with_sets(read, given, "", whole)
    except FanscanError:
        return False
    return True
