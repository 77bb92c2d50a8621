"""``benchmarks/bench_peer.py``: its skip without the peer, and its plot."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_peer")


def test_without_the_peer_it_says_so_in_one_line_and_succeeds(bench, monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench, "peer_installed", lambda: False)
    assert bench.main([]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "skipped" in out and "mahjong-detector" in out


def test_unknown_sides_are_a_usage_error(bench) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["--sides", "fanscan,yolo"])
    assert exit_info.value.code == 2


def test_the_plot_puts_each_side_where_its_time_and_boxes_are(bench, tmp_path: Path) -> None:
    rows = [{"fanscan": {"seconds": 0.1 * k, "boxes": 10 * k}, "peer": {"seconds": 0.05, "boxes": 10 * k}}
            for k in range(1, 6)]
    path = tmp_path / "plot.png"
    bench.plot(rows, path)
    image = cv2.imread(str(path))
    assert image is not None and image.shape == (440, 720, 3)
    plot_area = image[50:-50, 70:-20]  # inside the axes (the legend is above them)
    blue = (plot_area[..., 0] > 150) & (plot_area[..., 2] < 80)
    red = (plot_area[..., 2] > 150) & (plot_area[..., 0] < 80)
    blue_rows, red_rows = np.flatnonzero(blue.any(axis=1)), np.flatnonzero(red.any(axis=1))
    assert blue_rows.size and red_rows.size
    # fanscan's slowest dot lies higher up than every peer dot (all at 50 ms)
    assert blue_rows.min() < red_rows.min()


@pytest.mark.parametrize("argv", [["--sides", "fanscan,fanscan-base"],
                                  ["--sides", "fanscan,peer", "--baseline", "."]])
def test_the_baseline_side_and_its_checkout_go_together(bench, argv) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(argv)
    assert exit_info.value.code == 2


def test_a_baseline_that_is_no_source_tree_is_a_usage_error(bench, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["--sides", "fanscan,fanscan-base", "--baseline", str(tmp_path)])
    assert exit_info.value.code == 2


def test_the_baseline_side_imports_fanscan_from_its_checkout(bench, tmp_path: Path) -> None:
    import subprocess
    import sys

    checkout = tmp_path / "old"
    checkout.mkdir()
    (checkout / "__init__.py").write_text("WHERE = 'old checkout'\n", encoding="utf-8")
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_peer; "
              "bench_peer._import_fanscan_from(sys.argv[2]); import fanscan; print(fanscan.WHERE)")
    out = subprocess.run([sys.executable, "-c", script, str(Path(bench.__file__).parent), str(checkout)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "old checkout"
