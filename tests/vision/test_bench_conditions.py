"""The camera conditions of ``benchmarks/bench_conditions.py``: what each does to a picture."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_conditions")


def _picture() -> np.ndarray:
    rng = np.random.default_rng(0)
    image = np.full((1200, 1600, 3), 200, np.uint8)  # blur lengths are given at 1,600 px wide
    image[400:800, 600:1000] = rng.integers(0, 255, (400, 400, 3), dtype=np.uint8)
    return image


def test_each_condition_changes_the_picture_as_named(bench) -> None:
    image = _picture()
    out = {name: change(image, np.random.default_rng(1)) for name, change in bench.CONDITIONS.items()}
    assert all(o.dtype == np.uint8 and o.shape[2] == 3 for o in out.values())
    assert out["plain"] is image and out["jpeg40"] is image  # jpeg40 differs only in its encoding
    warm = out["tungsten"][0, 0].astype(int)
    assert warm[2] > 200 > warm[1] > warm[0]  # red up, blue down
    assert out["small"].shape[:2] == (750, 1000)
    assert out["dim"].mean() < 0.5 * image.mean()
    assert (out["bright"][:200, :200] == 255).all()  # the table's 200 clipped at white
    assert out["bright"][450:750, 650:950].mean() > 1.5 * image[450:750, 650:950].mean()
    assert out["hazy"].min() >= 255 - 0.6 * 255 - 1  # every level within 0.6 of white
    assert (np.diff(out["hazy"][0, :, 0].astype(int)) == 0).all()  # order kept: a flat row stays flat
    for blurred in ("motion", "defocus"):  # sharp detail smeared, flat table untouched
        assert out[blurred][450:750, 650:950].std() < 0.8 * image[450:750, 650:950].std()
        assert np.abs(out[blurred][:200, :200].astype(int) - 200).max() <= 1


def test_an_unknown_condition_is_refused(bench, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--conditions", "sepia", "--scenes", "1"])
    assert exit_.value.code == 2
    assert "unknown condition(s) sepia" in capsys.readouterr().err
