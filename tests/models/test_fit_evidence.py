"""Fitting the reading search's evidence: the tile model, the temperature, the layout's events."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fanscan.models.fit_evidence import fit_logistic, fit_temperature, layout_events
from fanscan.models.hand_cases import HandCase
from tile_rows import tile_row
from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import hand_frame, rows_and_groups


def test_fit_logistic_recovers_the_weights_it_was_drawn_from() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20000, 2)) * [1.0, 3.0] + [0.0, 2.0]
    logit = 2.0 * x[:, 0] - 0.5 * x[:, 1] + 1.0
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-logit))).astype(float)
    weights, bias, mean, scale = fit_logistic(x, y, l2=0.0)
    assert weights / scale == pytest.approx([2.0, -0.5], abs=0.1)
    assert bias - (weights / scale) @ mean == pytest.approx(1.0, abs=0.1)


def test_fit_temperature_recovers_how_overconfident_the_probabilities_are() -> None:
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(4000, 6)) * 2.0
    true_p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(6, p=p) for p in true_p])
    overconfident = np.exp(logits * 2) / np.exp(logits * 2).sum(axis=1, keepdims=True)
    assert fit_temperature(overconfident, truth) == pytest.approx(2.0, rel=0.1)
    assert fit_temperature(true_p, truth) == pytest.approx(1.0, rel=0.1)


def _case(spec: str) -> HandCase:
    tiles = tile_row(spec, sure=0.9)
    right, up = hand_frame(np.stack([t.box for t in tiles]))
    return HandCase("t", tiles, right, up, rows_and_groups(tiles, right, up), (800, 100),
                    [t.code for t in tiles], {})


def test_layout_events_count_what_true_layouts_show_with_one_imagined_case_each_way() -> None:
    cases = [_case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p* 6p | 1f"),
             _case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m 2f | back 4p 4p back")]
    events = layout_events(cases)
    assert events["claimed_not_set"] == pytest.approx(math.log(1 / 3))  # 0 of 1 claimed groups
    assert events["stray_back"] == pytest.approx(math.log(1 / 4))  # 0 of 2 backs
    assert events["back_group_not_kong"] == pytest.approx(math.log(1 / 3))  # 0 of 1 groups with a back
    assert events["flower_in_group"] == pytest.approx(math.log(1 / 4))  # none of 2 flowers inside a group
    assert events["flower_ends_group"] == pytest.approx(math.log(2 / 4))  # 1 of 2 at a group's end


def test_layout_events_tell_a_flower_inside_a_group_from_one_at_its_end() -> None:
    inside = _case("1m 2m 3f 3m 7s 8s 9s E E 6m 7m 8m 4p 5p 6p")
    events = layout_events([inside])
    assert events["flower_in_group"] == pytest.approx(math.log(2 / 3))
    assert events["flower_ends_group"] == pytest.approx(math.log(1 / 3))
    at_the_right = _case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m 4p 5p 6p 3f 4f")
    events = layout_events([at_the_right])
    assert events["flower_in_group"] == pytest.approx(math.log(1 / 4))
    assert events["flower_ends_group"] == pytest.approx(math.log(3 / 4))


def test_layout_events_count_real_photos_too_and_no_box_the_labels_cannot_tell() -> None:
    # Real photos (no hand JSON): a flower touching the row counts; a box of unknown truth beside
    # two flowers is no tile of theirs (counted as one, it had put both in a group of suit tiles).
    from fanscan.models.hand_cases import UNKNOWN

    def real(spec: str, unknown: int | None = None) -> HandCase:
        made = _case(spec)
        truth = [UNKNOWN if i == unknown else code for i, code in enumerate(made.truth)]
        return HandCase("r", made.readings, made.right, made.up, made.rows, made.image_size, truth)

    generated = _case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p 6p | 1f")
    touching = real("3f 1m 2m 3m 7s 8s 9s E E 6m 7m 8m 4p 5p | 6p")
    beside_unknown = real("1m 2m 3m 7s 8s 9s E E 6m 7m 8m 4p 5p 6p | 1f 2f 9s", unknown=16)
    assert layout_events([generated])["flower_ends_group"] == pytest.approx(math.log(1 / 3))
    assert layout_events([generated, touching])["flower_ends_group"] == pytest.approx(math.log(2 / 4))
    assert layout_events([generated, touching, beside_unknown])["flower_ends_group"] == pytest.approx(math.log(2 / 6))
    assert layout_events([generated, touching, beside_unknown])["flower_in_group"] == pytest.approx(math.log(1 / 6))


def test_events_only_refits_the_layout_events_and_keeps_the_rest(tmp_path) -> None:
    import json
    import pickle

    from fanscan.models import fit_evidence
    from fanscan.vision.evidence import EVIDENCE_PATH, Evidence

    out = tmp_path / "evidence.json"
    out.write_bytes(EVIDENCE_PATH.read_bytes())
    (tmp_path / "evidence.about.json").write_text('{"fitted_on": ["the shipped cases"]}', encoding="utf-8")
    cases = tmp_path / "cases.pkl"
    with cases.open("wb") as f:
        made = _case("1f 1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p 6p")
        pickle.dump([HandCase("r", made.readings, made.right, made.up, made.rows, made.image_size, made.truth)], f)
    assert fit_evidence.main([str(cases), "--out", str(out), "--events-only"]) == 0
    before = Evidence.from_json(json.loads(EVIDENCE_PATH.read_text(encoding="utf-8")))
    after = Evidence.from_json(json.loads(out.read_text(encoding="utf-8")))
    assert after.tiles == before.tiles and after.layout.max_cost == before.layout.max_cost
    assert after.layout.flower_ends_group == pytest.approx(math.log(2 / 3))
    assert after.layout.flower_in_group == pytest.approx(math.log(1 / 3))
    about = json.loads((tmp_path / "evidence.about.json").read_text(encoding="utf-8"))
    assert about["fitted_on"] == ["the shipped cases"]  # the rest's record kept
    assert about["layout_events"]["events"]["flower_ends_group"] == pytest.approx(math.log(2 / 3))
    assert about["layout_events"]["before"]["flower_ends_group"] == before.layout.flower_ends_group


def _tile(x: float, code: str) -> TileReading:
    box = np.float32([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]])
    return TileReading(code, 0.9, box, 0.0, False, x + 15)


def test_real_truth_matches_upright_boxes_and_leaves_what_the_labels_cannot_say_unknown() -> None:
    from fanscan.models.hand_cases import UNKNOWN, _outside_the_labels, truth_by_boxes

    readings = [_tile(0, "1m"), _tile(31, "2m"), _tile(62, "P"), _tile(500, "5p"), _tile(93, "back")]
    labels = [np.float32([[x - 2, -3], [x + 32, -3], [x + 32, 44], [x - 2, 44]]) for x in (0, 31)]
    matched = truth_by_boxes(readings, labels, ["1m", "2s"])
    assert matched == ["1m", "2s", None, None, None]  # whole-tile boxes still match the face's box
    truth = _outside_the_labels(readings, matched, labels, ["1m", "2s"])
    # the box of no tile beside the labelled ones is no tile; one far off, or read face-down when
    # the labels know no backs, cannot be told
    assert truth == ["1m", "2s", None, UNKNOWN, UNKNOWN]


def test_describe_names_the_seeds_and_folds_the_evidence_was_fitted_on() -> None:
    from fanscan.models.fit_evidence import describe

    scene = _case("1m 2m 3m 7s 8s 9s E E 6m 7m 8m | 4p 5p* 6p")
    cases = [HandCase(f"scene{seed}", scene.readings, scene.right, scene.up, scene.rows, (1, 1), [], {})
             for seed in (20004, 20001)]
    cases += [HandCase(f"busy{seed}", scene.readings, scene.right, scene.up, scene.rows, (1, 1), [], {})
              for seed in (72010, 72000, 72005)]
    cases.append(HandCase("realphoto", scene.readings, scene.right, scene.up, scene.rows, (1, 1), [], None))
    out = describe(cases)
    assert out["generated_scenes"] == {"count": 2, "seeds": "20001-20004"}
    assert out["busy_scenes"] == {"count": 3, "seeds": "72000-72010"}
    assert out["real_photos"]["count"] == 1 and len(out["real_photos"]["source_folds"]) == 1


def test_cases_from_generated_scenes_carry_the_truth_and_fit_into_evidence(tmp_path) -> None:
    from fanscan.datasets import tile_art
    from fanscan.models import hand_cases
    from fanscan.models.fit_evidence import fit
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.evidence import Evidence

    if not tile_art.available_styles():
        pytest.skip("no tile art to render scenes with")
    cases = list(hand_cases.scene_cases([2032, 2033], default_classifier()))
    assert len(cases) == 2 and all(c.hand is not None for c in cases)
    for case in cases:  # nearly every box lies on a true tile, and most read as it
        known = [t for t in case.truth if t is not None]
        assert len(known) >= 0.9 * len(case.readings)
        assert sum(r.code == t for r, t in zip(case.readings, case.truth)) >= 0.8 * len(known)
    hand_cases.save(cases, tmp_path / "cases.pkl")
    again = hand_cases.load(tmp_path / "cases.pkl")
    assert [c.truth for c in again] == [c.truth for c in cases]
    evidence, report = fit(again)
    assert Evidence.from_json(evidence.to_json()) == evidence
    assert report["scenes"] == 2 and report["boxes"] == sum(len(c.readings) for c in cases)


def test_the_fitting_commands_refuse_bad_arguments_in_one_line(tmp_path, capsys) -> None:
    import pickle

    from fanscan.models import fit_evidence, hand_cases

    cases = tmp_path / "cases.pkl"
    cases.write_bytes(pickle.dumps([]))
    for main, argv, words in [
        (fit_evidence.main, [str(tmp_path / "none.pkl")], "no case file"),
        (fit_evidence.main, [str(cases), "--events-only", "--out", str(tmp_path / "none.json")],
         "refits the events of an evidence file"),
        (fit_evidence.main, [str(cases), "--events-only", "--out", str(cases)],
         "refits the events of an evidence file"),
        (hand_cases.main, ["--out", str(tmp_path / "x.pkl"), "--scenes", "a-b"], "--scenes takes FIRST-LAST"),
        (hand_cases.main, ["--out", str(tmp_path / "x.pkl")], "give --scenes FIRST-LAST, --folds, or --relabel"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2 and words in capsys.readouterr().err
