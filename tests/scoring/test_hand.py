"""Hand JSON: reading, writing back, and one clear sentence for every kind of bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import Tile

from fanscan.errors import FanscanError


def _hand(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"],
        "melds": [{"type": "pung", "tiles": ["9m", "9m", "9m"], "concealed": False}],
        "win_tile": "E",
    }
    obj.update(changes)
    return obj


def test_hand_from_json_reads_every_field() -> None:
    hand = Hand.from_json(
        _hand(flowers=["1f", "6f"], self_drawn=True, seat_wind="S", round_wind="W", last_tile=True)
    )
    assert hand.win_tile is Tile.E
    assert hand.melds == (Meld("pung", (Tile.M9,) * 3, False, None),)
    assert hand.flowers == (Tile.F1, Tile.F6)
    assert (hand.self_drawn, hand.seat_wind, hand.round_wind, hand.last_tile) == (
        True,
        Tile.S,
        Tile.W,
        True,
    )


def test_hand_to_json_round_trips() -> None:
    obj = _hand(
        flowers=["3f"],
        melds=[
            {"type": "kong", "tiles": ["9m"] * 4, "concealed": True},
        ],
    )
    hand = Hand.from_json(obj)
    assert Hand.from_json(hand.to_json()) == hand
    assert hand.to_json()["melds"] == obj["melds"]


def test_hand_from_json_reads_face_down_concealed_kong() -> None:
    hand = Hand.from_json(
        _hand(melds=[{"type": "kong", "tiles": ["back", "9m", "9m", "back"], "concealed": True}])
    )
    assert hand.melds[0].tiles == (Tile.M9,) * 4


def test_hand_from_json_accepts_declared_extra_fields() -> None:
    hand = Hand.from_json(_hand(first_turn=True), extra_fields={"first_turn": False})
    assert hand.options == {"first_turn": True}
    assert Hand.from_json(_hand(), extra_fields={"first_turn": False}).options == {
        "first_turn": False
    }


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param({"colour": 1}, "unknown field 'colour' in the hand", id="unknown-field"),
        pytest.param(
            {"concealed": ["1m", "2x"] + ["3m"] * 9}, "unknown tile code '2x'", id="unknown-code"
        ),
        pytest.param(
            {"concealed": ["9m", "9m"] + ["1m", "2m", "3m"] * 3},
            "9m appears 5 times",
            id="five-of-a-tile",
        ),
        pytest.param(
            {"concealed": ["E", "E"]},
            "the hand has 5 tiles (2 concealed + 1 meld x 3)",
            id="wrong-count",
        ),
        pytest.param(
            {"melds": [{"type": "chow", "tiles": ["9m", "8m", "6m"], "concealed": False}]},
            "the chow 689m... is not three consecutive",
            id="chow-not-a-set",
        ),
        pytest.param(
            {"melds": [{"type": "pung", "tiles": ["9m", "9m", "8m"], "concealed": False}]},
            "is not 3 identical tiles",
            id="pung-not-a-set",
        ),
        pytest.param(
            {"melds": [{"type": "pair", "tiles": ["9m", "9m"]}]}, "has type 'pair'", id="meld-type"
        ),
        pytest.param(
            {"melds": [{"type": "pung", "tiles": ["9m"], "concealed": False}]},
            "the pung 9m has 1 tile; a pung has 3",
            id="pung-of-one",
        ),
        pytest.param(
            {"melds": [{"type": "pung", "tiles": ["9m"] * 3, "open": True}]},
            "unknown field 'open' in meld 1",
            id="meld-field",
        ),
        pytest.param(
            {"melds": [{"type": "pung", "tiles": ["9m"] * 3, "concealed": True}]},
            "only a kong can be concealed",
            id="concealed-pung",
        ),
        pytest.param(
            {"win_tile": "5m"},
            "the win tile 5m is not among the concealed tiles",
            id="win-tile-not-held",
        ),
        pytest.param({"win_tile": None}, "needs 'win_tile'", id="no-win-tile"),
        pytest.param(
            {"concealed": ["back"] + ["1m", "2m", "3m"] * 3 + ["E"]},
            "a face-down tile ('back') cannot be scored",
            id="back-in-hand",
        ),
        pytest.param(
            {"kong": True, "self_drawn": True}, "kong replacement", id="replacement-no-kong"
        ),
        pytest.param({"kong": True}, "robbing a kong of E", id="robbed-tile-held"),
        pytest.param({"fourth_tile": True}, "hold another E", id="fourth-tile-held"),
        pytest.param({"self_drawn": "yes"}, "self_drawn must be true or false", id="flag-type"),
        pytest.param({"seat_wind": "C"}, "seat_wind is C", id="seat-not-wind"),
        pytest.param({"flowers": ["1m"]}, "1m is listed as a flower", id="flower-not-flower"),
        pytest.param({"flowers": ["2f", "2f"]}, "the flower 2f appears 2 times", id="flower-twice"),
        pytest.param(
            {"concealed": ["1f"] + ["1m", "2m", "3m"] * 3 + ["E"]},
            "1f is a flower",
            id="flower-in-hand",
        ),
    ],
)
def test_hand_from_json_rejects_bad_input(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(FanscanError) as caught:
        Hand.from_json(_hand(**changes))
    expected = message.split("...")[0]
    assert expected in caught.value.message
    assert caught.value.code == "invalid_hand"
    assert "\n" not in caught.value.message


def test_hand_from_json_rejects_extra_field_of_wrong_type() -> None:
    with pytest.raises(FanscanError, match="first_turn must be true or false"):
        Hand.from_json(_hand(first_turn=1), extra_fields={"first_turn": False})
    with pytest.raises(FanscanError, match="base must be a whole number, not '1'") as caught:
        Hand.from_json(_hand(base="1"), extra_fields={"base": 1})
    with pytest.raises(FanscanError) as caught:  # a value of 400 digits is not quoted whole
        Hand.from_json(_hand(first_turn=10**400), extra_fields={"first_turn": False})
    assert "first_turn must be true or false, not 1000000000" in caught.value.message
    assert len(caught.value.message) < 120


def test_hand_from_json_rejects_non_object() -> None:
    with pytest.raises(FanscanError, match="must be a JSON object"):
        Hand.from_json(["1m"])


@pytest.mark.parametrize("value", [1, "X", "1m", [1], None, "back"])
def test_hand_from_json_a_wind_that_is_no_wind_names_the_field(value: Any) -> None:
    with pytest.raises(FanscanError) as caught:
        Hand.from_json(_hand(round_wind=value))
    assert caught.value.message.startswith("round_wind is ")
    assert caught.value.message.endswith("expected one of E S W N")


@pytest.mark.parametrize("rules", ["mcr", "sichuan", "mingxing", "app-custom", "guobiao-plus", "changsha"])
def test_robbing_a_kong_on_the_last_discard_is_refused_in_every_rule_set(rules: str) -> None:
    # kong without self_drawn is a robbed kong, last_tile without self_drawn the last discard: a
    # robbed kong's tile is no discard, and no kong is made after the wall's last tile. MCR reads
    # hand JSON on its own fast path; both it and Hand.from_json refuse the pair.
    from fanscan.scoring.notation import parse_notation
    from fanscan.scoring.ruleset import score

    obj = {**parse_notation("123m456m789s55m123s").to_json(), "kong": True, "last_tile": True}  # two suits
    result = score(obj, rules)
    assert result.error_code == "invalid_hand" and "robbing a kong" in result.error and "last discard" in result.error
    assert score({**obj, "last_tile": False}, rules).error is None  # each alone is a win
    assert score({**obj, "kong": False}, rules).error is None
