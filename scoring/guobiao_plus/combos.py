"""Super combinations (超级组合, seed 001 附录1 二): which ones a shape holds.

``found(shape)`` lists every combination the shape matches; ``best(shape)`` keeps those that apply
to its hand type and, per category, only the highest (different categories add up).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise, permutations

from fanscan.scoring.guobiao_plus.points import COMBO_BY_ID, COMBOS, Combo
from fanscan.scoring.guobiao_plus.shapes import DRAGONS, GREEN, HONORS, RED, WINDS, Shape


def _by_suit(tiles: tuple[int, ...]) -> list[list[int]]:
    """Ranks (0-8) of suited tiles per suit m p s, sorted."""
    out: list[list[int]] = [[], [], []]
    for t in tiles:
        if t < 27:
            out[t // 9].append(t % 9)
    return [sorted(r) for r in out]


def _run(ranks: set[int], length: int) -> bool:
    return any(all(r + i in ranks for i in range(length)) for r in ranks)


def _pung_combos(pungs: tuple[int, ...], pair: int) -> set[str]:
    found: set[str] = set()
    winds = [t for t in pungs if t in WINDS]
    dragons = [t for t in pungs if t in DRAGONS]
    if len(winds) == 4:
        found |= {"four_heavenly_kings", "three_wind_pungs"}
        if pair == RED:
            found.add("invincible")
    if len(winds) == 3:
        found.add("three_wind_pungs")
        if pair in WINDS:
            found.add("little_four_kings")
    if len(winds) == 2 and pair in WINDS:
        found.add("near_three_wind_pungs")
    if len(dragons) == 3:
        found |= {"big_three_joys", "double_joy"}
        if 18 in pungs:
            found.add("phoenix_clouds")
    if len(dragons) == 2:
        found.add("double_joy")
        if pair in DRAGONS:
            found.add("little_three_joys")
    if {7, 16, 25, GREEN} <= set(pungs):
        found.add("god_of_wealth")
    suits = [set(r) for r in _by_suit(pungs)]
    for x, y in combinations(range(3), 2):
        same = suits[x] & suits[y]
        if any(r + 1 in same for r in same):
            found.add("two_suit_linked_pungs")
        if len(same) >= 2:
            found.add("two_suit_double_pungs")
        if _run(suits[x], 2) and _run(suits[y], 2):
            found.add("mixed_two_linked_pungs")
    if suits[0] & suits[1] & suits[2]:
        found.add("triple_pung")
    if pair >= 0 and pair < 27:
        rank, suit = pair % 9, pair // 9
        if all(rank in suits[s] for s in range(3) if s != suit):
            found.add("near_triple_pung")
    for s, ranks in enumerate(suits):
        if _run(ranks, 3):
            found.add("pure_shifted_pungs")
        if _run(ranks, 4):
            found.add("four_pure_shifted_pungs")
        # 天衣无缝: four pungs of one suit and its pair make five ranks in a row, pair anywhere
        if len(ranks) == 4 and 0 <= pair < 27 and pair // 9 == s and _run(ranks | {pair % 9}, 5):
            found.add("seamless")
        pairs = [r for r in ranks if r + 1 in ranks]
        if any(b >= a + 2 for a in pairs for b in pairs):
            found.add("pure_two_linked_pungs")
    suited = [t for t in pungs if t < 27]
    for four in combinations(suited, 4):
        run = sorted(t % 9 for t in four)
        if run == list(range(run[0], run[0] + 4)) and len({t // 9 for t in four}) > 1:
            found.add("four_mixed_shifted_pungs")
    for three in combinations(suited, 3):
        run = sorted(t % 9 for t in three)
        if run == list(range(run[0], run[0] + 3)) and len({t // 9 for t in three}) == 3:
            found.add("mixed_shifted_pungs")
    return found


def _arithmetic(starts: list[int], steps: tuple[int, ...] = (1, 2)) -> bool:
    s = sorted(starts)
    return any(all(b - a == d for a, b in pairwise(s)) for d in steps)


def _chow_combos(chows: tuple[int, ...], pair: int) -> set[str]:
    found: set[str] = set()
    suits = _by_suit(chows)
    counts = Counter(chows)
    if 4 in counts.values():
        found.add("quadruple_chow")
    if any(n >= 3 for n in counts.values()):
        found.add("pure_triple_chow")
    for s, starts in enumerate(suits):
        if starts == [0, 0, 6, 6] and pair == s * 9 + 4:
            found.add("family_reunion")
        c = Counter(starts)
        if sorted(c.values()) == [2, 2]:
            found.add("pure_two_double_chows")
            low, high = sorted(c)
            if high == low + 3:
                found.add("phoenix_pair")
        if starts == [0, 2, 4, 6]:
            found.add("stacked_dragon")
        if len(starts) == 4 and _arithmetic(starts):
            found.add("four_pure_shifted_chows")
        for three in combinations(starts, 3):
            if _arithmetic(list(three)):
                found.add("pure_shifted_chows")
        if {0, 3, 6} <= set(starts):
            found.add("pure_straight")
    for x, y in permutations(range(3), 2):
        if len(suits[x]) == 2 and suits[x] == suits[y]:
            found.add("mixed_two_double_chows")
        if x < y and any(a + 3 in suits[x] and a in suits[y] and a + 3 in suits[y]
                         for a in suits[x]):
            found.add("swallows")
        z = 3 - x - y
        if (x < y and sorted(suits[x]) == [0, 6] == sorted(suits[y]) and pair == z * 9 + 4):
            found.add("neighbours")
    if set(suits[0]) & set(suits[1]) & set(suits[2]):
        found.add("mixed_triple_chow")
    for one in ((m, p, s) for m in suits[0] for p in suits[1] for s in suits[2]):
        if _arithmetic(list(one)):
            found.add("mixed_shifted_chows")
        if sorted(one) == [0, 3, 6]:
            found.add("mixed_straight")
    runs = [(t // 9, t % 9) for t in chows if t + 3 in chows and t % 9 <= 3 and t < 27]
    for (s1, r1), (s2, r2) in combinations(runs, 2):
        used = Counter([s1 * 9 + r1, s1 * 9 + r1 + 3, s2 * 9 + r2, s2 * 9 + r2 + 3])
        if r1 != r2 and all(counts[t] >= n for t, n in used.items()):
            found.add("two_six_runs")
    return found


def _mixed_only(pungs: tuple[int, ...], chows: tuple[int, ...], pair: int) -> set[str]:
    found: set[str] = set()
    if sorted(pungs) == [9, 17] and sorted(chows) == [10, 14] and pair == 13:
        found.add("nine_lanterns")
    if 18 in pungs:
        chow_found = _chow_combos(chows, -1)
        if "pure_straight" in chow_found:
            found.add("dragon_and_phoenix")
        if "mixed_straight" in chow_found:
            found.add("near_dragon_phoenix")
    return found


def _pair_combos(pairs: tuple[int, ...]) -> set[str]:
    found: set[str] = set()
    n = Counter(pairs)
    honors = {t for t in n if t in HONORS}
    winds = {t for t in n if t in WINDS}
    if honors == set(HONORS):
        found.add("all_honor_pairs")
    if all(t in WINDS for t in pairs):
        found.add("wind_pairs")
    if all(n[t] == 2 for t in DRAGONS):
        found.add("three_kingdoms")
    if len(honors) >= 6:
        found.add("six_honor_pairs")
    if {*WINDS, RED} <= honors:
        found.add("five_honor_pairs")
    if len(winds) == 4:
        found.add("four_wind_pairs")
    if set(DRAGONS) <= honors:
        found.add("dragon_pairs")
    if len(winds) >= 3:
        found.add("three_wind_pairs")
    suits = [set(r) for r in _by_suit(tuple(n))]
    for length, fan in ((7, "qilin"), (6, "six_shifted_pairs"), (5, "five_shifted_pairs"),
                        (4, "four_shifted_pairs")):
        if any(_run(ranks, length) for ranks in suits):
            found.add(fan)
    if _run(suits[0] | suits[1] | suits[2], 7) and not any(_run(r, 7) for r in suits):
        found.add("seven_mixed_shifted_pairs")
    if n[6] == n[15] == n[24] == 2 and n[18] == 1:
        found.add("seven_joys")
    if all(n[t] for t in (0, 8, 9, 17, 18, 26)):
        found.add("six_wings")
    if any(n[r] == n[9 + r] == n[18 + r] == 2 for r in range(9)):
        found.add("twelve_beauties")
    if all(n[t] for t in (7, 16, 25, GREEN)):
        found.add("tycoon")
    if suits[0] & suits[1] & suits[2]:
        found.add("triple_pair")
    return found


def _knitted_combos(shape: Shape) -> set[str]:
    if shape.special is not None:
        return {shape.special}
    tiles = [i for i, c in enumerate(shape.counts) if c]
    honors = [t for t in tiles if t in HONORS]
    suited = sorted(t % 9 for t in tiles if t < 27)
    if len(honors) == 7:
        if suited == list(range(suited[0], suited[0] + 7)):
            return {"stars_and_run"}
        return {"seven_stars"}
    if sorted(honors) == [*WINDS, RED] and suited == list(range(9)):
        return {"five_peaks"}
    return set()


def found(shape: Shape) -> set[str]:
    """Every super combination the shape matches, whatever hand type it is listed for."""
    if shape.kind == "Q":
        return _pair_combos(shape.pairs)
    if shape.kind == "B" or shape.special is not None:
        return _knitted_combos(shape)
    out = _pung_combos(shape.pungs, shape.pair) | _chow_combos(shape.chows, shape.pair)
    if shape.kind == "H":
        out |= _mixed_only(shape.pungs, shape.chows, shape.pair)
    return out


def best(shape: Shape) -> list[Combo]:
    """The combinations that count: listed for this hand type, the highest of each category."""
    top: dict[str, Combo] = {}
    for combo in (COMBO_BY_ID[i] for i in found(shape)):
        if shape.kind not in combo.types:
            continue
        held = top.get(combo.category)
        if held is None or combo.points > held.points:
            top[combo.category] = combo
    order = {c.id: i for i, c in enumerate(COMBOS)}
    return sorted(top.values(), key=lambda c: order[c.id])
