"""`--melds` end to end: a real read of a generated standing hand whose declared sets the photo
does not show, scored and waited on with the sets typed."""

from __future__ import annotations

import json

import pytest

from fanscan.cli import main


@pytest.fixture(scope="module")
def standing_photo(tmp_path_factory: pytest.TempPathFactory):
    """234m 234s 55p standing on edge, nothing else: with [234p1] and [CCCC] a win on 4s."""
    from fanscan.datasets import tile_art
    from fanscan.datasets.scenes import SceneGroup, generate_scene

    if "xmahjongg-real" not in tile_art.available_styles():
        pytest.skip("xmahjongg not installed")
    path = tmp_path_factory.mktemp("standing") / "standing.jpg"
    groups = [SceneGroup("concealed", ("2m", "3m", "4m", "2s", "3s", "4s", "5p", "5p"))]
    path.write_bytes(generate_scene(2032, size=(1280, 960), style="xmahjongg-real", groups=groups,
                                    standing=True).jpeg)
    return path


def test_score_reads_the_standing_tiles_and_scores_them_with_the_sets_typed(
    standing_photo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(standing_photo)]) == 1  # eight tiles are no winning hand of 14
    assert "fewer than a hand of 14" in capsys.readouterr().out
    assert main(["score", str(standing_photo), "--melds", "[234p1][CCCC]", "--win", "4s", "--json"]) == 0
    photo = json.loads(capsys.readouterr().out)
    assert main(["score", "--hand", "[234p1][CCCC]234m23s55p4s", "--json"]) == 0
    typed = json.loads(capsys.readouterr().out)
    assert (photo["total"], photo["fans"]) == (typed["total"], typed["fans"])
    assert "Mixed Triple Chow" in {f["name"] for f in photo["fans"]}


def test_score_says_how_many_tiles_stand_when_the_sets_typed_leave_another_count(
    standing_photo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(standing_photo), "--melds", "[234p1]"]) == 1
    err = capsys.readouterr().err
    assert "shows 8 standing tiles (234m" in err and "winning hand of 14 stands 11" in err
    # Sets enough for a shorter hand: the tiles left over lie apart, and the reading says so.
    assert main(["score", str(standing_photo), "--melds", "[234p1][CCCC][999s3]"]) == 0
    out = capsys.readouterr().out
    assert "  hand: [234p1][CCCC][999s3]" in out and "3 tiles lie apart from the hand" in out
