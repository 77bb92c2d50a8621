"""``benchmarks/bench_batch.py``: usage errors, its skip without photos, and a real timed run on
photos made here (fanscan's side; the peer's only where it is installed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_batch")


@pytest.mark.parametrize("argv", [["--workers", "two"], ["--workers", "0"], ["--rounds", "0"], ["--rf", "0"]])
def test_bad_arguments_are_a_usage_error(bench, argv) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(argv)
    assert exit_info.value.code == 2


def test_without_real_photos_it_says_so_in_one_line_and_succeeds(bench, monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench, "real_photos", lambda rf: [])
    assert bench.main([]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "skipped" in out


@pytest.mark.slow
def test_it_times_fanscan_reading_a_folder_with_each_worker_count(bench, tmp_path: Path) -> None:
    from fanscan.vision import samples

    photos = []
    for k in range(2):
        photo = tmp_path / f"hand{k}.jpg"
        photo.write_bytes(samples.sample_photo_path().read_bytes())
        photos.append(photo)
    result = bench.run(photos, workers=[1, 2], rounds=1, with_peer=False)
    assert set(result["best_seconds"]) == {"fanscan --workers 1", "fanscan --workers 2"}
    assert all(seconds > 0 for seconds in result["best_seconds"].values())
    assert result["photos_per_s"]["fanscan --workers 1"] == pytest.approx(2 / result["best_seconds"]["fanscan --workers 1"])
