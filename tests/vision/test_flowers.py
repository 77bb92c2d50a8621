"""The second looks at possible flowers: only tiles whose flowers outweigh every other face are
re-read; the specialist names the flower, keeping the flowers' total; a sure printed number
re-weighs after it; the shipped specialist reads a style the classifier alone confuses."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import flowers
from fanscan.vision.flowers import FLOWER_CODES, FlowerLooks, may_be_flowers


class _SaysThree:
    """A numeral reader sure of a printed 3 on every crop."""

    def number_probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        return np.tile(np.float32([0.1, 0.2, 0.99, 0.1]), (len(crops), 1))


class _SpecialistSays:
    """A specialist (43 outputs) that reads every crop as ``code`` at 50 % and 7f at 20 %: under
    ``NUMBERS_BELOW`` of the eight flowers, so a numeral reader looks after it."""

    labels = CLASS_LABELS

    def __init__(self, code: str) -> None:
        self.code = code
        self.seen = 0

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.seen += len(crops)
        probs = np.full((len(crops), len(CLASS_LABELS)), 0.3 / (len(CLASS_LABELS) - 2), np.float32)
        probs[:, CLASS_LABELS.index(self.code)] = 0.5
        probs[:, CLASS_LABELS.index("7f")] = 0.2
        return probs


def _two_tiles() -> np.ndarray:
    """Tile 0 may be a flower (2f 0.45 + 3f 0.2 + 0.01 each other flower outweigh 5p 0.29); tile 1
    is a 3m."""
    probs = np.zeros((2, len(CLASS_LABELS)), np.float32)
    probs[0, [CLASS_LABELS.index(code) for code in FLOWER_CODES]] = 0.01
    probs[0, CLASS_LABELS.index("2f")], probs[0, CLASS_LABELS.index("3f")] = 0.45, 0.2
    probs[0, CLASS_LABELS.index("5p")] = 0.29
    probs[1, CLASS_LABELS.index("3m")], probs[1, CLASS_LABELS.index("3f")] = 0.8, 0.2
    return probs


def _crop_cutter(cut: list[int]):  # noqa: ANN202
    def crop_of(i: int) -> np.ndarray:
        cut.append(i)
        return np.full((60, 45, 3), 230, np.uint8)

    return crop_of


def test_flowers_only_tiles_whose_flowers_outweigh_every_other_face_may_be_flowers() -> None:
    probs = _two_tiles()
    assert may_be_flowers(probs, CLASS_LABELS) == [0]
    probs[0, CLASS_LABELS.index("5p")] = 0.75  # now one face outweighs the flowers together
    assert may_be_flowers(probs, CLASS_LABELS) == []


def test_flowers_numerals_reweigh_only_the_tiles_that_may_be_flowers() -> None:
    probs, cut = _two_tiles(), []
    out = FlowerLooks(None, _SaysThree()).reweigh(probs, CLASS_LABELS, _crop_cutter(cut))
    assert cut == [0]
    assert CLASS_LABELS[int(out[0].argmax())] == "3f"
    assert np.array_equal(out[1], probs[1])
    assert FlowerLooks().reweigh(probs, CLASS_LABELS, _crop_cutter(cut)) is probs


def test_flowers_the_specialist_names_the_flower_and_the_classifier_keeps_their_total() -> None:
    # The classifier: 2f 0.45 of 0.71 (63 %); the specialist: 6f at 50 %, 2f under 1 %.
    probs, cut = _two_tiles(), []
    specialist = _SpecialistSays("6f")
    out = FlowerLooks(specialist, None).reweigh(probs, CLASS_LABELS, _crop_cutter(cut))
    flower_columns = [CLASS_LABELS.index(code) for code in FLOWER_CODES]
    assert cut == [0] and specialist.seen == 1
    assert CLASS_LABELS[int(out[0].argmax())] == "6f"
    said = specialist.probabilities([np.zeros((4, 3, 3), np.uint8)])[0, flower_columns]
    np.testing.assert_allclose(out[0, flower_columns] / out[0, flower_columns].sum(), said / said.sum(),
                               rtol=1e-5)  # the eight in the specialist's proportions, the classifier's none
    assert out[0, flower_columns].sum() == pytest.approx(probs[0, flower_columns].sum(), rel=1e-5)
    assert out[0, CLASS_LABELS.index("5p")] == probs[0, CLASS_LABELS.index("5p")]  # not a flower: as read
    assert np.array_equal(out[1], probs[1])


def test_flowers_a_sure_number_has_the_last_word_after_the_specialist() -> None:
    # The specialist says 6f (summer, "2"), a season; a sure printed 3 moves it to 7f (autumn, "3"),
    # not to 3f (chrysanthemum), which the main classifier preferred.
    out = FlowerLooks(_SpecialistSays("6f"), _SaysThree()).reweigh(_two_tiles(), CLASS_LABELS, _crop_cutter([]))
    assert CLASS_LABELS[int(out[0].argmax())] == "7f"


def test_flowers_a_number_does_not_overrule_looks_already_sure_of_a_flower() -> None:
    # A set that prints no numbers: the reader "sees" a 3 in a character's strokes. Tile 0's looks
    # are sure of 6f (over NUMBERS_BELOW of its flowers), tile 1's are not: only tile 1 is moved.
    probs = np.zeros((2, len(CLASS_LABELS)), np.float32)
    flower_columns = [CLASS_LABELS.index(code) for code in FLOWER_CODES]
    probs[:, flower_columns] = 0.01
    sure, unsure = flowers.NUMBERS_BELOW + 0.05, flowers.NUMBERS_BELOW - 0.2
    for row, share in ((0, sure), (1, unsure)):
        probs[row, CLASS_LABELS.index("6f")] = share * 0.07 / (1 - share)  # 6f's share of the eight
    cut: list[int] = []
    out = FlowerLooks(None, _SaysThree()).reweigh(probs, CLASS_LABELS, _crop_cutter(cut))
    assert CLASS_LABELS[int(out[0].argmax())] == "6f" and CLASS_LABELS[int(out[1].argmax())] in ("3f", "7f")
    assert np.array_equal(out[0], probs[0])


def test_flowers_without_the_specialist_model_only_the_numerals_look(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path) -> None:
    monkeypatch.setattr(flowers, "SPECIALIST_MODEL", tmp_path / "absent.onnx")
    monkeypatch.setattr(flowers, "_default", None)
    looks = flowers.default_flower_looks()
    assert looks.specialist is None
    monkeypatch.setattr(flowers, "_default", None)  # the next caller gets the shipped models again


@pytest.mark.skipif(not flowers.SPECIALIST_MODEL.is_file(), reason="flower specialist not installed")
def test_flowers_shipped_specialist_reads_gold_characters_the_classifier_confuses() -> None:
    # gnome-mahjongg's flowers are the characters 梅蘭菊竹 in thin gold strokes alone; the tile
    # classifier alone read about half of these rendered crops right (17 of 32), with the
    # specialist 26 (session 5); the stage-8 classifier 14, with session 34's specialist 27.
    from fanscan.datasets.synth_tiles import render_plain_upright_crop
    from fanscan.datasets.tile_art import available_styles
    from fanscan.vision.classifier import TileClassifier, default_classifier

    if "gnome-smooth" not in available_styles():
        pytest.skip("gnome-mahjongg's tile art is not installed")
    crops, truth = [], []
    for seed in range(32):
        code = FLOWER_CODES[seed % 4]
        crops.append(render_plain_upright_crop("gnome-smooth", code, np.random.default_rng(seed)))
        truth.append(code)
    classifier = default_classifier()
    alone = classifier.classify(crops)[0]
    looked = classifier.classify(crops, FlowerLooks(TileClassifier(flowers.SPECIALIST_MODEL), None))[0]
    right_alone = sum(a == b for a, b in zip(alone, truth))
    right_looked = sum(a == b for a, b in zip(looked, truth))
    assert right_looked >= 24 and right_looked >= right_alone + 5, (right_alone, right_looked)
