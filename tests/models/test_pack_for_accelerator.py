"""Packing the finder's training data into the checkout for an accelerator's run."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest


def test_pack_copies_one_version_per_source_and_writes_the_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.datasets import real_tables
    from fanscan.datasets.real_tables import TablePhoto, source_fold, source_of
    from fanscan.models import pack_for_accelerator, train_finder

    rf = tmp_path / "rf"
    (rf / "images").mkdir(parents=True)
    (rf / "labels").mkdir()
    (rf / "README.md").write_text("licence")
    stem = next(f"s{n}" for n in range(100) if source_fold(f"s{n}") == 0)
    photos = []
    rng = np.random.default_rng(0)
    for version, fill in (("1", 0), ("2", 24)):  # the second version turned: a black corner
        image = rng.integers(40, 220, (64, 64, 3), dtype=np.uint8)
        image[:fill, :fill] = 0
        path = rf / "images" / f"{stem}_jpg.rf.{version}.jpg"
        cv2.imwrite(str(path), image)
        (rf / "labels" / f"{path.stem}.txt").write_text("0 0.5 0.5 0.2 0.3\n")
        photos.append(TablePhoto(path, source_of(path.name), np.float32([[20, 20, 40, 50]]), ("1m",)))
    monkeypatch.setattr(real_tables, "load_table_photos", lambda: photos)
    packed: list[tuple] = []
    monkeypatch.setattr(train_finder, "_examples", lambda n, cache, *shares: packed.append((n, cache, shares)))
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    script = pack_for_accelerator.pack(checkout, [0, 1], scenes=7, steps=11, workers=2, minutes=4.5)

    images = sorted(p.name for p in (checkout / "shared/data/rf-chinese/images").iterdir())
    assert images == [photos[0].path.name]  # the least turned version of the one source
    assert (checkout / "shared/data/rf-chinese/labels" / f"{photos[0].path.stem}.txt").is_file()
    assert (checkout / "shared/data/rf-chinese/README.md").read_text() == "licence"
    assert packed == [(7, checkout / "work_data/accelerator/scenes.npz", (0.3, 0.15, 0.2))]
    text = script.read_text()
    assert text.count("\nrun ") == len(pack_for_accelerator.RUNS)
    assert "--real-folds 0,1" in text and "--device cuda" in text and "--steps 11" in text
    assert "--workers 2" in text and "--scenes 7" in text and "--minutes 4.5" in text


def test_pack_says_so_when_the_real_photos_are_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.datasets import real_tables
    from fanscan.models import pack_for_accelerator

    monkeypatch.setattr(real_tables, "load_table_photos", lambda: [])
    with pytest.raises(SystemExit, match="no real table photos found"):
        pack_for_accelerator.pack(tmp_path, [0], scenes=1, steps=1, workers=0, minutes=1.0)


def test_pack_refuses_a_folder_that_is_no_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import pack_for_accelerator

    with pytest.raises(SystemExit) as exit_info:
        pack_for_accelerator.main(["--root", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "not fanscan's checkout" in capsys.readouterr().err


def test_pack_says_so_when_it_cannot_write_into_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import pack_for_accelerator

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "shared").write_text("a file where the folder would go")
    monkeypatch.setattr(pack_for_accelerator, "pack", lambda root, *a: (root / "shared" / "data").mkdir(parents=True))
    with pytest.raises(SystemExit) as exit_info:
        pack_for_accelerator.main(["--root", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "cannot write the pack into" in capsys.readouterr().err.strip().splitlines()[-1]
