"""Which tiles lie together in one hand: a link probability fitted on real tables and scenes.

1. ``neighbour_pairs``: each tile and its nearest neighbours (at most ``NEIGHBOURS``, none
   further than ``REACH`` tile lengths) are the pairs that may be linked.
2. ``features_of_pairs``: how the two lie to each other, measured in each one's own frame and
   averaged: the gap between them along and across its rows, how far out of line they are, the
   turn between them, their sizes, backs, their slant to the hand's frame.
3. ``LinkModel`` (``models/hand_links.json``, fitted by ``models.fit_hand_links`` on real photos
   whose labels are the player's hand and on generated hands) gives each pair the probability
   that both tiles are one hand's; ``linked_clusters`` joins the tiles of every likelier-than-not
   link, the likeliest first, into clusters of no more tiles than a hand shows. A hand's rows
   and the melds laid beside them stay one cluster; a pile of discards a tile's length away, a
   wall, a rack's edge do not join it (a fixed reach of 3.5 tile lengths had put 181 tiles of
   discards into the hands of 27 held-out real photos).
4. ``ChoiceModel`` (the same file): of the clusters that can hold a set, the hand is the one its
   fitted score puts first (``cluster_features``: size, tiles touching in rows, the longest
   row, alike turns, lowness in the photo, tile size, confidence, backs, faces read beyond a
   set's copies; nearer the camera, and fewer faces beyond a set's copies, are never worse);
   ``clusters`` and ``choose`` are the two steps as the reader takes them.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fanscan.scoring.tiles import BACK, FLOWER_CODES
from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import CLUSTER_REACH
from fanscan.vision.hand_rules import excess_copies
from fanscan.vision.numeric import median

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "hand_links.json"
NEIGHBOURS = 6
"""A tile's candidate links: its nearest tiles, at most this many (a tile in a row has two
touching neighbours, a tile of a two-row hand up to three more)."""
REACH = CLUSTER_REACH
"""...and none whose centre lies more than this many tile lengths away (the reach that makes
``geometry.clusters``, which linked every such pair before the links were fitted)."""

MOST_HAND_TILES = 22
"""The most tiles one hand shows, flowers aside: five kongs and a pair, in the rules of 16-tile
hands (a 13-tile hand shows at most 18)."""

FEATURES: tuple[str, ...] = (
    "gap_along", "gap_across", "offset_along", "offset_across", "distance", "turn", "size_ratio",
    "backs", "slant", "across_hand", "least_confidence",
)
_CLIP = {"gap_along": (-1.0, 8.0), "gap_across": (-1.0, 8.0), "offset_along": (0.0, 8.0),
         "offset_across": (0.0, 8.0), "distance": (0.0, 6.0), "size_ratio": (0.0, 3.0),
         "across_hand": (0.0, 8.0)}


@dataclass(frozen=True)
class _Frames:
    """Each tile's own axes (along its face's top edge, down its side), size, centre and corners."""

    along: np.ndarray
    across: np.ndarray
    width: np.ndarray
    height: np.ndarray
    centre: np.ndarray
    quads: np.ndarray


def _frames(readings: list[TileReading]) -> _Frames:
    quads = np.stack([np.asarray(r.box, np.float64) for r in readings])
    along = (quads[:, 1] - quads[:, 0]) + (quads[:, 2] - quads[:, 3])
    across = (quads[:, 3] - quads[:, 0]) + (quads[:, 2] - quads[:, 1])
    width = np.maximum(np.linalg.norm(along, axis=1) / 2, 1e-6)
    height = np.maximum(np.linalg.norm(across, axis=1) / 2, 1e-6)
    return _Frames(along / (2 * width[:, None]), across / (2 * height[:, None]), width, height,
                   quads.mean(axis=1), quads)


def _one_way(frames: _Frames, mine: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, ...]:
    """The other tiles seen from mine: the free gap between them along my rows and across them
    (in my widths and heights: 0 when they touch), and the offset of the centres along and across."""
    offset = frames.centre[other] - frames.centre[mine]
    results = []
    for axis, size in ((frames.along[mine], frames.width[mine]), (frames.across[mine], frames.height[mine])):
        projected = np.einsum("pkd,pd->pk", frames.quads[other], axis)
        extent = projected.max(axis=1) - projected.min(axis=1)
        distance = np.abs(np.einsum("pd,pd->p", offset, axis))
        results.append(((distance - (size + extent) / 2) / size, distance / size))
    (gap_along, offset_along), (gap_across, offset_across) = results
    return gap_along, gap_across, offset_along, offset_across


def _slant(direction: np.ndarray, up: np.ndarray) -> np.ndarray:
    """How far tiles' top edges turn from the hand's rows, folded so that a quarter turn (a
    sideways tile) is no slant: |sin 2a|."""
    right = np.array([-up[1], up[0]])
    return np.abs(2 * (direction @ right) * (direction @ up))


def neighbour_pairs(readings: list[TileReading], neighbours: int | None = NEIGHBOURS) -> list[tuple[int, int]]:
    """The candidate links (i < j): each tile's ``neighbours`` nearest (None: all) within ``REACH``
    tile lengths."""
    centres = np.array([r.box.mean(axis=0) for r in readings])
    long_side = median([max(np.linalg.norm(r.box[1] - r.box[0]), np.linalg.norm(r.box[2] - r.box[1]))
                        for r in readings])
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    pairs: set[tuple[int, int]] = set()
    for i in range(len(readings)):
        for j in np.argsort(distances[i])[1 : None if neighbours is None else neighbours + 1]:
            if distances[i, j] <= REACH * long_side:
                pairs.add((min(i, int(j)), max(i, int(j))))
    return sorted(pairs)


def features_of_pairs(readings: list[TileReading], pairs: list[tuple[int, int]], up: np.ndarray,
                      frames: _Frames | None = None) -> np.ndarray:
    """The ``FEATURES`` of each pair (rows in ``pairs`` order), the same either way round
    (``frames``: the readings' ``_frames``, when the caller has them)."""
    if not pairs:
        return np.zeros((0, len(FEATURES)))
    frames = frames if frames is not None else _frames(readings)
    a, b = np.array(pairs).T
    ab, ba = _one_way(frames, a, b), _one_way(frames, b, a)
    gap_along, gap_across, offset_along, offset_across = ((x + y) / 2 for x, y in zip(ab, ba))
    offset = frames.centre[b] - frames.centre[a]
    long_side = np.maximum(frames.width, frames.height)
    short_side = np.minimum(frames.width, frames.height)
    angle = np.arctan2(frames.along[:, 1], frames.along[:, 0])
    area = frames.width * frames.height
    backs = np.array([r.code == BACK for r in readings], float)
    confidence = np.array([r.confidence for r in readings])
    slant = _slant(frames.along, np.asarray(up, np.float64))
    values = {
        "gap_along": gap_along, "gap_across": gap_across,
        "offset_along": offset_along, "offset_across": offset_across,
        "distance": np.linalg.norm(offset, axis=1) / ((long_side[a] + long_side[b]) / 2),
        "turn": np.abs(np.sin(2 * (angle[a] - angle[b]))),
        "size_ratio": np.abs(np.log(area[a] / area[b])),
        "backs": backs[a] + backs[b],
        "slant": np.maximum(slant[a], slant[b]),
        "across_hand": np.abs(offset @ np.asarray(up, np.float64)) / ((short_side[a] + short_side[b]) / 2),
        "least_confidence": np.minimum(confidence[a], confidence[b]),
    }
    return np.stack([np.clip(values[n], *_CLIP[n]) if n in _CLIP else values[n] for n in FEATURES], axis=1)


def pair_features(a: TileReading, b: TileReading, up: np.ndarray) -> np.ndarray:
    """The ``FEATURES`` of one pair."""
    return features_of_pairs([a, b], [(0, 1)], up)[0]


@dataclass(frozen=True)
class LinkModel:
    """A one-hidden-layer network over standardised ``FEATURES``: the probability of a link."""

    mean: np.ndarray
    scale: np.ndarray
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    out_weights: np.ndarray
    out_bias: float

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        x = (np.asarray(features, np.float64).reshape(-1, len(FEATURES)) - self.mean) / self.scale
        hidden = np.maximum(x @ self.hidden_weights + self.hidden_bias, 0.0)
        return 1.0 / (1.0 + np.exp(-(hidden @ self.out_weights + self.out_bias)))

    def to_json(self) -> dict:
        return {"features": list(FEATURES), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "hidden_weights": self.hidden_weights.tolist(), "hidden_bias": self.hidden_bias.tolist(),
                "out_weights": self.out_weights.tolist(), "out_bias": self.out_bias}

    @classmethod
    def from_json(cls, data: dict) -> LinkModel:
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"hand link model has features {data['features']}, not {list(FEATURES)}")
        return cls(np.array(data["mean"]), np.array(data["scale"]), np.array(data["hidden_weights"]),
                   np.array(data["hidden_bias"]), np.array(data["out_weights"]), float(data["out_bias"]))


@functools.cache
def _model_file() -> dict:
    return json.loads(MODEL_PATH.read_text())


@functools.cache
def default_model() -> LinkModel:
    return LinkModel.from_json(_model_file()["model"])


def check_model_file(path: Path) -> Path:
    """``path`` when it holds a link model and a choice of this module's features, else a
    ValueError that says why in one line."""
    try:
        data = json.loads(Path(path).read_text())
        LinkModel.from_json(data["model"])
        ChoiceModel.from_json(data["choice"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a hand link model file of these features ({error})") from None
    return Path(path)


def use_model_file(path: Path) -> None:
    """Read the links and the choice from ``path`` from now on (benchmarks comparing fits)."""
    global MODEL_PATH
    MODEL_PATH = Path(path)
    for cached in (_model_file, default_model, default_choice):
        cached.cache_clear()


@dataclass(frozen=True)
class Links:
    """The candidate pairs of a photo's tiles, their ``FEATURES`` and link probabilities, and
    the tiles' own frames they were measured in."""

    pairs: list[tuple[int, int]]
    features: np.ndarray
    probabilities: np.ndarray
    frames: _Frames


def links(readings: list[TileReading], up: np.ndarray, model: LinkModel | None = None) -> Links:
    frames = _frames(readings)
    pairs = neighbour_pairs(readings) if len(readings) > 1 else []
    if not pairs:
        return Links([], np.zeros((0, len(FEATURES))), np.zeros(0), frames)
    features = features_of_pairs(readings, pairs, up, frames)
    return Links(pairs, features, (model or default_model()).probabilities(features), frames)


class Groups:
    """Tiles joined into groups (union-find), each group weighing the sum of its tiles' weights;
    a group is named by its first tile's index."""

    def __init__(self, weights: list[int]) -> None:
        self.parent = list(range(len(weights)))
        self.weight = list(weights)

    def root(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int, most: float = np.inf) -> None:
        """Join the groups of tiles i and j, unless that would weigh more than ``most``."""
        a, b = sorted((self.root(i), self.root(j)))
        if a != b and self.weight[a] + self.weight[b] <= most:
            self.parent[b] = a
            self.weight[a] += self.weight[b]

    def roots(self) -> np.ndarray:
        return np.array([self.root(i) for i in range(len(self.parent))], int)


_TOUCHING_GAP = 0.5
"""Two tiles touch in a row when the free gap between them along it is under half a tile and
their centres lie within half a tile of one line (a feature of the choice, whose weight is fitted)."""


def linked_clusters(readings: list[TileReading], found: Links) -> np.ndarray:
    """Each tile's cluster (the index of its cluster's first tile): tiles joined by links
    likelier than not, the likeliest first, but for a link that would make a cluster of more
    tiles than any hand holds (``MOST_HAND_TILES``, flowers aside): a wall or a pile of discards
    then stays apart from the hand's rows, whose tiles are linked surer among themselves.

    A flower is laid aside by one hand: it joins the cluster its likeliest link leads to, and
    bridges two clusters only along a line (laid at the end of a row of melds, beside the
    concealed row: centres within half a tile of one line, ``_TOUCHING_GAP``), never across it
    (a flower laid between the hand and the discards beyond had linked both)."""
    flower = np.array([r.code in FLOWER_CODES for r in readings], bool)
    across = found.features[:, FEATURES.index("offset_across")]
    groups = Groups([0 if f else 1 for f in flower])
    for k in np.argsort(-found.probabilities, kind="stable"):
        if found.probabilities[k] <= 0.5:
            break
        i, j = found.pairs[k]
        if (flower[i] or flower[j]) and across[k] >= _TOUCHING_GAP:
            ri, rj = groups.root(i), groups.root(j)
            if groups.weight[ri] > 0 and groups.weight[rj] > 0:
                continue  # a flower off the line would join two clusters of suit and honour tiles
        groups.join(i, j, most=MOST_HAND_TILES)
    return groups.roots()


CLUSTER_FEATURES: tuple[str, ...] = (
    "tiles", "tiles_squared", "touching", "longest_row", "alignment", "lowness", "tile_size", "confidence",
    "backs", "beyond_copies",
)


def cluster_features(readings: list[TileReading], cluster: np.ndarray, found: Links,
                     up: np.ndarray, candidates: list[int]) -> np.ndarray:
    """The ``CLUSTER_FEATURES`` of each candidate cluster: its size, the share of its tiles that
    touch a neighbour in a row, its longest row (run of touching faces: a hand's concealed row is
    longer than a row of discards, and a wall's backs make none), how alike its tiles are
    turned, how far above the lowest cluster it lies in the photo (0 for the lowest), its tiles'
    size against the largest cluster's (nearer the camera, larger), its mean confidence, share of
    backs and share of faces read beyond the copies a set holds (``hand_rules.excess_copies``: a
    wall's sides read as white dragons, a pile of one face, is no one hand's, whatever the search
    later leaves out of it)."""
    gap_column, across_column = FEATURES.index("gap_along"), FEATURES.index("offset_across")
    touching = np.zeros(len(readings), bool)
    face_up = [r.code != BACK for r in readings]
    runs = Groups([1] * len(readings))  # the runs of touching faces along the rows
    for (i, j), f in zip(found.pairs, found.features):
        if cluster[i] == cluster[j] and abs(f[gap_column]) < _TOUCHING_GAP and f[across_column] < _TOUCHING_GAP:
            touching[i] = touching[j] = True
            if face_up[i] and face_up[j]:
                runs.join(i, j)
    run_of = runs.roots()
    run_length = np.bincount(run_of, minlength=len(readings))[run_of]  # each tile's run's length
    frames = found.frames
    heights = frames.centre @ up
    span = max(float(heights.max() - heights.min()), 1e-6)
    areas = frames.width * frames.height
    angles = np.arctan2(frames.along[:, 1], frames.along[:, 0])
    confidence = np.array([r.confidence for r in readings])
    backs = np.array([r.code == BACK for r in readings], float)
    members = {c: np.nonzero(cluster == c)[0] for c in candidates}
    sizes = {c: median(areas[m]) for c, m in members.items()}
    lows = {c: float(heights[m].min()) for c, m in members.items()}
    lowest, largest = min(lows.values()), max(sizes.values())
    rows = []
    for c in candidates:
        m = members[c]
        tiles = min(len(m), 40) / 14
        rows.append([
            tiles, tiles ** 2, float(touching[m].mean()), float(run_length[m].max()) / 14,
            float(abs(np.exp(4j * angles[m]).mean())),
            (lows[c] - lowest) / span, float(np.log(sizes[c] / largest)),
            float(confidence[m].mean()), float(backs[m].mean()), excess_copies([readings[i].code for i in m]),
        ])
    return np.array(rows).reshape(-1, len(CLUSTER_FEATURES))


@dataclass(frozen=True)
class ChoiceModel:
    """A linear score over ``CLUSTER_FEATURES``: the likeliest cluster is the hand (a conditional
    logit, fitted over the clusters of each photo)."""

    weights: np.ndarray

    def scores(self, features: np.ndarray) -> np.ndarray:
        return np.asarray(features) @ self.weights

    def to_json(self) -> dict:
        return {"features": list(CLUSTER_FEATURES), "weights": self.weights.tolist()}

    @classmethod
    def from_json(cls, data: dict) -> ChoiceModel:
        if tuple(data["features"]) != CLUSTER_FEATURES:
            raise ValueError(f"hand choice model has features {data['features']}, not {list(CLUSTER_FEATURES)}")
        return cls(np.array(data["weights"], np.float64))


@functools.cache
def default_choice() -> ChoiceModel:
    return ChoiceModel.from_json(_model_file()["choice"])


@dataclass(frozen=True)
class Clusters:
    """A photo's tiles in linked clusters: each tile's cluster (the index of its first tile) and
    that cluster's size, and the clusters of more tiles than asked (those that may be the hand)."""

    links: Links
    cluster: np.ndarray
    sizes: np.ndarray
    candidates: list[int]


def clusters(readings: list[TileReading], up: np.ndarray, more_than: int,
             model: LinkModel | None = None) -> Clusters:
    found = links(readings, up, model)
    cluster = linked_clusters(readings, found)
    counts = np.bincount(cluster, minlength=len(readings))
    return Clusters(found, cluster, counts[cluster],
                    [c for c in sorted(set(cluster.tolist())) if counts[c] > more_than])


def choose(readings: list[TileReading], made: Clusters, up: np.ndarray,
           choice: ChoiceModel | None = None) -> int:
    """The candidate cluster the choice scores first (``made.candidates`` must not be empty)."""
    features = cluster_features(readings, made.cluster, made.links, up, made.candidates)
    return made.candidates[int(np.argmax((choice or default_choice()).scores(features)))]
