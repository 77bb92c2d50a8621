"""The layout events the reading search prices: what a reading's layout shows that true layouts
seldom do (a claimed group that is no set, a group with a back that is no concealed kong, a back
in no concealed kong, a flower inside a group of suit tiles, a flower at the end of one), each
event's cost its negative log probability in true layouts (fitted by
``fanscan.models.fit_evidence``), and the rows of a reading that leaves boxes out."""

from __future__ import annotations

from collections import Counter

from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision.detections import HandLayout, TileReading
from fanscan.vision.evidence import Evidence

_FLOWERS = frozenset(FLOWER_CODES)


def rows_without(rows: list[list[list[int]]], dropped: set[int]) -> list[list[list[int]]]:
    """The rows and groups with the ``dropped`` boxes taken out, the others renumbered: a box of no
    tile leaves the groups as they were found (its removal opens no gap)."""
    order = sorted(dropped)

    def renumbered(i: int) -> int:
        return i - sum(i > d for d in order)

    rows = [[[renumbered(i) for i in group if i not in dropped] for group in row] for row in rows]
    return [row for row in ([g for g in row if g] for row in rows) if row]


def layout_events(readings: list[TileReading], hand_layout: HandLayout,
                  rows: list[list[list[int]]]) -> Counter[str]:
    """How often the layout shows each event the evidence prices: a claimed group that is no
    set, a group holding a face-down tile that is no concealed kong, a back in no concealed kong,
    a flower in a row's group of tiles that are no flowers, inside it or at one of its ends
    (``flowers_in_groups``)."""
    events: Counter[str] = Counter()
    for group in hand_layout.groups:
        # The winning tile may lie sideways: the riichi way of showing it (``layout._riichi_split``).
        if group.role not in ("flowers", "meld", "win") and any(readings[m].sideways for m in group.members):
            events["claimed_not_set"] += 1
        if group.role != "concealed_kong" and any(readings[m].code == BACK for m in group.members):
            events["back_group_not_kong"] += 1
    for i, r in enumerate(readings):
        g = hand_layout.group_of[i] if i < len(hand_layout.group_of) else -1
        if r.code == BACK and (g < 0 or hand_layout.groups[g].role != "concealed_kong"):
            events["stray_back"] += 1
    inside, at_ends = flowers_in_groups([[readings[m].code in _FLOWERS for m in group]
                                         for row in rows for group in row])
    events["flower_in_group"] += inside
    events["flower_ends_group"] += at_ends
    return events


def flowers_in_groups(groups: list[list[bool]]) -> tuple[int, int]:
    """Of the flowers in groups (each a row's group, True for a flower) that also hold tiles that
    are no flowers: how many lie inside such a group, between tiles that are no flowers, and how
    many at one of its ends. A player lays flowers apart or at the row's end; one read inside a
    group is more likely a suit tile misread."""
    inside = at_ends = 0
    for flags in groups:
        if all(flags):
            continue
        lead = flags.index(False)
        trail = flags[::-1].index(False)
        at_ends += lead + trail
        inside += sum(flags) - lead - trail
    return inside, at_ends


def layout_cost(events: Counter[str], evidence: Evidence) -> float:
    """The events' cost in nats (each event's negative log probability in true layouts)."""
    return -sum(n * getattr(evidence.layout, name) for name, n in events.items())


EVENT_REASONS = {
    "claimed_not_set": "a group with a sideways (claimed) tile is a set",
    "back_group_not_kong": "a group with a face-down tile is a concealed kong",
    "stray_back": "a face-down tile lies only in a concealed kong",
    "flower_in_group": "a flower does not lie in a set",
    "flower_ends_group": "a flower does not lie in a set",
}
