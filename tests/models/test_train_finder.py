"""The finder's training targets and network shape."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.models.train_finder import target_mask
from fanscan.vision.finder import SHRINK


def test_train_finder_target_keeps_touching_tiles_apart() -> None:
    left = np.float32([[10, 10], [40, 10], [40, 50], [10, 50]])
    right = left + np.float32([30, 0])  # shares an edge with the left tile
    mask = target_mask((60, 80), [left, right], [False, True])
    assert set(np.unique(mask)) == {0, 1, 2}
    assert mask[30, 40] == 0  # the shared edge stays table
    assert mask[30, 25] == 1 and mask[30, 55] == 2
    face_area = int((mask == 1).sum())
    assert face_area == pytest.approx(30 * 40 * SHRINK**2, rel=0.15)


def test_train_finder_network_halves_the_resolution() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_finder import build_net

    net = build_net().eval()
    with torch.no_grad():
        out = net(torch.zeros(1, 3, 64, 96))
    assert tuple(out.shape) == (1, 3, 32, 48)


def test_train_finder_fit_lowers_the_loss_and_reports_it(capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_finder import fit

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    truth = np.float32([[0.2], [-0.1]])  # within reach of a one-cycle run peaking at 3e-3

    def batches():
        while True:
            x = rng.normal(size=(32, 2)).astype(np.float32)
            yield x, x @ truth

    net = torch.nn.Linear(2, 1, bias=False)
    torch.nn.init.zeros_(net.weight)
    loss_of = lambda out, y: ((out - y) ** 2).mean()  # noqa: E731
    x, y = next(batches())
    with torch.no_grad():
        before = float(loss_of(net(torch.from_numpy(x)), torch.from_numpy(y)))
    fit(net, batches(), 200, loss_of, 100, lambda loss: f"mse {loss:.3f}")
    with torch.no_grad():
        after = float(loss_of(net(torch.from_numpy(x)), torch.from_numpy(y)))
    assert after < before / 10
    logged = capsys.readouterr().err.splitlines()
    assert [line.split(" mse ")[0] for line in logged] == ["step 0/200", "step 100/200"]


def test_train_finder_fit_shrinks_its_schedule_to_the_time_allowed(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models import train_finder

    clock = iter(np.arange(0, 1000, 0.5))  # every reading of the clock half a second later
    monkeypatch.setattr(train_finder, "_clock", lambda: float(next(clock)))
    rates: list[float] = []

    def batches():
        while True:
            yield np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)

    net = torch.nn.Linear(2, 1)
    real_step = torch.optim.AdamW.step

    def step_noting_the_rate(self, *args, **kwargs):
        rates.append(self.param_groups[0]["lr"])
        return real_step(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.AdamW, "step", step_noting_the_rate)
    # the calibration reads the clock at its start, after its first 10 steps and at its end:
    # 0.5 s over its last 10 steps, 0.05 s a step; 60 s less the 1.5 s gone by the next reading
    # leave 1170 more: the 5000 asked for become 1190, the one cycle fitted to them
    taken = train_finder.fit(net, batches(), 5000, lambda out, y: ((out - y) ** 2).mean(), 10_000, str,
                             max_lr=1e-2, seconds=60)
    assert taken == 1190 == len(rates)
    assert rates[:20] == [pytest.approx(1e-2 / 25)] * 20
    assert max(rates) == pytest.approx(1e-2, rel=1e-3)
    assert rates[-1] < 1e-5  # the cycle ends at its low rate, not cut off at its peak
    assert "1190 steps fit 60 s, not 5000" in capsys.readouterr().err
    assert train_finder.fit(net, batches(), 30, lambda out, y: ((out - y) ** 2).mean(), 10_000, str,
                            seconds=1e6) == 30  # time to spare: the steps asked for


def test_train_finder_fit_takes_its_peak_learning_rate() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_finder import fit

    def run(max_lr: float) -> float:
        torch.manual_seed(0)
        rng = np.random.default_rng(0)
        net = torch.nn.Linear(2, 1, bias=False)
        torch.nn.init.zeros_(net.weight)

        def batches():
            while True:
                x = rng.normal(size=(32, 2)).astype(np.float32)
                yield x, x @ np.float32([[0.2], [-0.1]])

        fit(net, batches(), 200, lambda out, y: ((out - y) ** 2).mean(), 1000, str, max_lr=max_lr)
        return float(net.weight.abs().sum())

    assert run(1e-6) < 1e-3 < 0.2 < run(3e-3)  # a gentle run barely moves the weights


def test_train_finder_refuses_a_peak_learning_rate_of_zero(capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--max-lr", "0"])
    assert exit_info.value.code == 2
    assert "--max-lr must be above 0" in capsys.readouterr().err


def test_train_finder_refuses_a_negative_seed(capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--seed", "-1"])
    assert exit_info.value.code == 2
    assert "--seed must be 0 or more" in capsys.readouterr().err


def _random_norms(net, torch) -> None:
    """Batch-norm statistics and affine weights that are not the identity, as after training."""
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                n = module.num_features
                module.running_mean.copy_(torch.randn(n, generator=generator) * 0.3)
                module.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
                module.weight.copy_(torch.rand(n, generator=generator) + 0.5)
                module.bias.copy_(torch.randn(n, generator=generator) * 0.2)


def test_train_finder_starts_again_from_an_onnx_export(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import onnxruntime as ort
    from fanscan.models.train_finder import build_net, fit, load_onnx_weights

    torch.manual_seed(0)
    trained = build_net()
    _random_norms(trained, torch)
    trained.eval()
    path = tmp_path / "finder.onnx"
    torch.onnx.export(trained, torch.zeros(1, 3, 64, 64), str(path), input_names=["image"],
                      output_names=["logits"], opset_version=17, dynamo=False)
    x = np.random.default_rng(0).random((1, 3, 64, 64), dtype=np.float32)
    exported = ort.InferenceSession(str(path)).run(None, {"image": x})[0]

    fresh = build_net()
    load_onnx_weights(fresh, path)
    fresh.eval()
    with torch.no_grad():
        assert np.allclose(fresh(torch.from_numpy(x)).numpy(), exported, atol=1e-4)

    # Trained with frozen norms, a step at a tiny rate barely moves the output; with norms that
    # learn batch statistics again it would start from another function.
    loss_of = lambda out, y: torch.nn.functional.cross_entropy(out, y)  # noqa: E731
    target = np.zeros((1, 32, 32), np.int64)
    fit(fresh, iter([(x, target)]), 1, loss_of, 10, str, frozen_norms=True)
    assert all(not m.training for m in fresh.modules() if isinstance(m, torch.nn.BatchNorm2d))
    assert fresh.training
    fresh.eval()
    with torch.no_grad():
        assert np.abs(fresh(torch.from_numpy(x)).numpy() - exported).max() < 0.5


def test_train_finder_refuses_an_onnx_of_another_network(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models.train_finder import build_net, load_onnx_weights

    other = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU())
    path = tmp_path / "other.onnx"
    torch.onnx.export(other, torch.zeros(1, 3, 16, 16), str(path), opset_version=17, dynamo=False)
    with pytest.raises(ValueError, match="convolutions"):
        load_onnx_weights(build_net(), path)


@pytest.mark.parametrize("name, content", [("missing.onnx", None), ("broken.onnx", b"not a model"),
                                           ("broken.pt", b"not weights")])
def test_train_finder_refuses_a_bad_init_before_rendering_scenes(
    tmp_path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, content: bytes | None
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from fanscan.models import train_finder

    monkeypatch.setattr(train_finder, "_examples", lambda *a: pytest.fail("rendered scenes for a bad --init"))
    init = tmp_path / name
    if content is not None:
        init.write_bytes(content)
    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--init", str(init), "--out", str(tmp_path / "out.onnx")])
    assert exit_info.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"error: --init {init}: " in message
    assert not (tmp_path / "out.onnx").exists()


def test_train_finder_zoomed_windows_keep_image_and_mask_together() -> None:
    from fanscan.models.train_finder import _window

    image = np.zeros((480, 640, 3), np.uint8)
    image[200:260, 300:344] = 255  # one bright "tile"
    mask = np.zeros((240, 320), np.uint8)
    mask[100:130, 150:172] = 1  # the same tile at half resolution
    rng = np.random.default_rng(0)
    sizes = []
    for _ in range(60):
        im, m = _window(image, mask, rng, 256, (0.6, 2.5))
        assert im.shape == (256, 256, 3) and m.shape == (128, 128)
        if (m == 1).sum() > 20:
            bright = cv2.resize(im[:, :, 0], (128, 128), interpolation=cv2.INTER_AREA) > 127
            agree = (bright == (m == 1)).mean()
            assert agree > 0.98
            sizes.append(int((m == 1).sum()))
    assert max(sizes) > 2 * min(sizes)  # the tile was seen at several scales
    # Without zoom every window is the scene at its own scale.
    plain = [(_window(image, mask, rng, 256, None)[1] == 1).sum() for _ in range(40)]
    assert max(plain) == 30 * 22  # whole, never enlarged (a window may cut it)


@pytest.mark.parametrize("zoom", [["0.3", "2"], ["2", "1"], ["1", "9"]])
def test_train_finder_refuses_a_zoom_out_of_range(zoom: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--zoom", *zoom])
    assert exit_info.value.code == 2
    assert "error: --zoom:" in capsys.readouterr().err.strip().splitlines()[-1]


def test_train_finder_real_photo_marks_only_what_its_labels_say() -> None:
    from fanscan.models.train_finder import IGNORE, real_example

    image = np.zeros((100, 200, 3), np.uint8)
    boxes = np.float32([[20, 20, 60, 80], [60, 20, 100, 80]])  # two touching labelled tiles
    _, mask = real_example(image, boxes)
    assert mask.shape == (50, 100)
    assert mask[25, 20] == 1 and mask[25, 40] == 1  # each face, at half size
    assert mask[25, 30] == 0  # the seam between them is table
    assert mask[25, 8] == 0  # so is the ring just outside a labelled tile
    assert mask[25, 90] == IGNORE and mask[2, 2] == IGNORE  # unlabelled: maybe a wall, maybe table


def test_train_finder_refuses_the_held_out_fold() -> None:
    from fanscan.datasets.real_tables import HELD_OUT_FOLD
    from fanscan.models.train_finder import real_examples

    with pytest.raises(ValueError, match="held out"):
        real_examples([0, HELD_OUT_FOLD])


def test_train_finder_windows_are_drawn_by_weight() -> None:
    from fanscan.models.train_finder import _batches

    dark, bright = np.zeros((300, 300, 3), np.uint8), np.full((300, 300, 3), 255, np.uint8)
    masks = [np.zeros((150, 150), np.uint8), np.ones((150, 150), np.uint8)]
    batches = _batches([dark, bright], masks, np.random.default_rng(0), 8, weights=np.array([0.0, 1.0]))
    _, y = next(batches)
    assert (y == 1).all()  # every window from the second picture


def test_train_finder_shows_a_share_of_windows_as_a_poorer_camera_would() -> None:
    from fanscan.models.train_finder import _batches

    picture = np.full((300, 300, 3), 120, np.uint8)
    picture[:, 150:] = 230  # a straight edge: blur softens it, a fault's exposure moves its levels
    mask = [np.zeros((150, 150), np.uint8)]

    def faulty_windows(faults: float) -> int:
        x, y = next(_batches([picture], mask, np.random.default_rng(3), 64, faults=faults))
        assert (y == 0).all()  # targets untouched
        # a plain window holds the picture's two levels (scaled and shifted alike); blur and noise add more
        return sum(len(np.unique(np.round(window[0], 4))) > 2 for window in x)

    assert faulty_windows(0.0) == 0
    assert faulty_windows(1.0) > 0


@pytest.mark.parametrize("folds", ["0,4", "0,7"], ids=["held-out", "no-such-fold"])
def test_train_finder_refuses_real_folds_it_may_not_train_on(folds: str, capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--real-folds", folds])
    assert exit_info.value.code == 2
    assert "error: --real-folds: only folds 0, 1, 2, 3" in capsys.readouterr().err.strip().splitlines()[-1]


def test_train_finder_turned_pictures_keep_image_and_mask_together() -> None:
    from fanscan.models.train_finder import IGNORE, _turned

    image = np.zeros((240, 320, 3), np.uint8)
    image[100:140, 180:240] = 255  # a bright "tile" right of the centre
    mask = np.zeros((120, 160), np.uint8)
    mask[50:70, 90:120] = 1
    turned_image, turned_mask = _turned(image, mask, 90.0)  # counter-clockwise: the tile goes up
    assert turned_image.shape == image.shape and turned_mask.shape == mask.shape
    ys, xs = np.nonzero(turned_mask == 1)
    assert ys.mean() < 40 and abs(xs.mean() - 80) < 3
    bright = cv2.resize(turned_image[:, :, 0], (160, 120), interpolation=cv2.INTER_AREA) > 127
    inside = turned_mask != IGNORE
    assert (bright[inside] == (turned_mask[inside] == 1)).mean() > 0.98
    # What the turn brought in from outside the picture is no evidence of anything.
    assert turned_mask[0, 0] == IGNORE and turned_mask[60, 80] == 0


def test_train_finder_foreshortened_windows_squeeze_one_axis_against_the_other() -> None:
    from fanscan.models.train_finder import _window

    image = np.zeros((480, 640, 3), np.uint8)
    image[200:260, 300:340] = 255
    mask = np.zeros((240, 320), np.uint8)
    mask[100:130, 150:170] = 1  # 20 wide, 30 high at half resolution
    rng = np.random.default_rng(1)
    ratios = []
    for _ in range(80):
        im, m = _window(image, mask, rng, 256, None, stretch=3.0)
        assert im.shape == (256, 256, 3) and m.shape == (128, 128)
        ys, xs = np.nonzero(m == 1)
        if len(xs) and xs.min() > 0 and ys.min() > 0 and xs.max() < 127 and ys.max() < 127:
            bright = cv2.resize(im[:, :, 0], (128, 128), interpolation=cv2.INTER_AREA) > 127
            assert (bright == (m == 1)).mean() > 0.98
            ratios.append((np.ptp(xs) + 1) / (np.ptp(ys) + 1) / (20 / 30))
    assert min(ratios) < 0.7 and max(ratios) > 1.4  # squeezed either way
    assert min(ratios) > 1 / 3.3 and max(ratios) < 3.3  # never past the ratio asked for


@pytest.mark.parametrize(("flags", "message"), [
    (["--rotate", "60"], "error: --rotate:"),
    (["--stretch", "0.5"], "error: --stretch:"),
    (["--batch", "0"], "error: --batch"),
    (["--unturned-only", "--one-per-source"], "error: --unturned-only and --one-per-source"),
    (["--clutter-share", "1.5"], "error: --clutter-share must lie between 0 and 1"),
    (["--standing-share", "-0.1"], "error: --standing-share must lie between 0 and 1"),
    (["--workers", "-1"], "error: --workers must be 0 or more"),
    (["--width", "0"], "error: --width must lie between 0 and 4"),
    (["--minutes", "0"], "error: --minutes must be above 0"),
])
def test_train_finder_refuses_flags_out_of_range(flags: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(flags)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]


def test_train_finder_one_version_per_source_takes_each_source_s_least_turned(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Source "a" has an unturned version and a turned one; source "b" only a turned one: one
    # version of each (the unturned "a", the turned "b" turned back), where --unturned-only
    # would keep "a" alone and every version would count "a" twice.
    from fanscan.datasets import real_tables
    from fanscan.datasets.real_tables import TablePhoto, source_fold, source_of
    from fanscan.models.train_finder import real_examples

    a, b = (next(f"{stem}{n}" for n in range(100) if source_fold(f"{stem}{n}") == 0) for stem in ("a", "b"))
    rng = np.random.default_rng(0)
    table = rng.integers(40, 200, (200, 200, 3), dtype=np.uint8)
    photos = []
    for name, degrees in ((f"{a}_jpg.rf.1", 0.0), (f"{a}_jpg.rf.2", 20.0), (f"{b}_jpg.rf.1", 15.0)):
        turn = cv2.getRotationMatrix2D((100, 100), degrees, 1.0)
        path = tmp_path / f"{name}.jpg"
        cv2.imwrite(str(path), cv2.warpAffine(table, turn, (200, 200), borderValue=(0, 0, 0)),
                    [cv2.IMWRITE_JPEG_QUALITY, 98])
        corners = np.float32([[80, 80, 1], [110, 80, 1], [110, 120, 1], [80, 120, 1]]) @ turn.T
        box = np.float32([[*corners.min(axis=0), *corners.max(axis=0)]])
        photos.append(TablePhoto(path, source_of(path.name), box, ("1m",)))
    monkeypatch.setattr(real_tables, "load_table_photos", lambda: photos)
    assert len(real_examples([0], one_per_source=True)[0]) == 2
    assert len(real_examples([0], unturned_only=True)[0]) == 1
    assert len(real_examples([0])[0]) == 3
    _, masks = real_examples([0], one_per_source=True)
    assert all((m == 1).sum() > 0 for m in masks)  # each keeps its labelled face


def _scene_art() -> bool:
    from fanscan.datasets import tile_art
    from fanscan.datasets.scenes import SCENE_STYLES

    return bool(set(SCENE_STYLES) & set(tile_art.available_styles()))


@pytest.mark.skipif(not _scene_art(), reason="no tile art installed")
def test_train_finder_a_tables_tiles_with_no_whole_face_are_ignored_not_table() -> None:
    from fanscan.datasets.scenes import generate_scene
    from fanscan.models.train_finder import IGNORE, make_example

    for seed in range(1_000_000, 1_000_050):
        image, mask = make_example(seed, clutter_share=1.0)
        scene = generate_scene(seed, size=(image.shape[1], image.shape[0]), clutter=True)
        if scene.unseen:
            break
    assert np.array_equal(image, scene.image)  # the share's draw leaves the scene's own draws alone
    for quad in scene.unseen:  # cut by the photo's edge, or a wall's lower tile under an upper one
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad / 2).astype(np.int32), 1)
        assert (mask[inside == 1] != 0).all()  # never taken for table (an upper tile may lie on it)
    assert (mask == IGNORE).any()
    plain_image, plain_mask = make_example(seed)
    assert not (plain_mask == IGNORE).any()


@pytest.mark.skipif(not _scene_art(), reason="no tile art installed")
def test_train_finder_scene_cache_is_kept_only_for_the_same_shares(tmp_path, monkeypatch) -> None:
    from fanscan.models import train_finder

    drawn: list[tuple] = []

    def example(seed: int, clutter_share: float = 0.0, standing_share: float = 0.0, busy_share: float = 0.0):
        drawn.append((clutter_share, standing_share, busy_share))
        return np.zeros((4, 4, 3), np.uint8), np.zeros((2, 2), np.uint8)

    monkeypatch.setattr(train_finder, "make_example", example)
    cache = tmp_path / "scenes.npz"
    train_finder._examples(3, cache, 0.5, 0.0)
    train_finder._examples(3, cache, 0.5, 0.0)
    assert len(drawn) == 3  # the second call read the cache
    train_finder._examples(2, cache, 0.0, 0.3)
    assert drawn[3:] == [(0.0, 0.3, 0.0)] * 2  # other shares: drawn again
    train_finder._examples(2, cache, 0.0, 0.3, 0.5)
    assert drawn[5:] == [(0.0, 0.3, 0.5)] * 2  # a busy share is a share too
    # A cache written before busy tables existed holds two shares: it drew no busy tables.
    np.savez(cache, shares=np.array([0.0, 0.3]), image0=np.zeros((4, 4, 3), np.uint8),
             mask0=np.zeros((2, 2), np.uint8))
    train_finder._examples(1, cache, 0.0, 0.3)
    assert len(drawn) == 7
    train_finder._examples(1, cache, 0.0, 0.3, 0.2)
    assert len(drawn) == 8


def test_train_finder_scene_cache_keeps_pictures_close_and_class_maps_exact(tmp_path, monkeypatch) -> None:
    from fanscan.models import train_finder

    rng = np.random.default_rng(0)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (96, 128, 3), dtype=np.uint8), (7, 7), 2)
    classes = rng.integers(0, 3, (48, 64), dtype=np.uint8)
    classes[:8] = train_finder.IGNORE
    monkeypatch.setattr(train_finder, "make_example", lambda *a: (picture, classes))
    cache = tmp_path / "scenes.npz"
    fresh_images, fresh_masks = train_finder._examples(2, cache)
    cached_images, cached_masks = train_finder._examples(2, cache)
    assert cache.stat().st_size < picture.nbytes  # two pictures kept in less than one raw
    assert all(np.array_equal(m, classes) for m in fresh_masks + cached_masks)  # lossless
    # A fresh run trains on the same pixels a rerun reads back, and both are close to the scene's.
    assert all(np.array_equal(a, b) for a, b in zip(fresh_images, cached_images))
    assert np.abs(cached_images[0].astype(int) - picture).mean() < 4


@pytest.mark.parametrize("width", [0.5, 2.0])
def test_train_finder_width_scales_the_channels_not_the_maps(width: float) -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_finder import build_net

    weights = lambda net: sum(p.numel() for p in net.parameters())  # noqa: E731
    net = build_net(width).eval()
    with torch.no_grad():
        assert tuple(net(torch.zeros(1, 3, 64, 96)).shape) == (1, 3, 32, 48)
    # Convolutions' weights grow with the square of the channels.
    assert weights(net) / weights(build_net()) == pytest.approx(width**2, rel=0.25)


def test_train_finder_windows_cut_in_worker_processes() -> None:
    # OpenCV used before the fork (as the real photos' loading does) must not hang the workers.
    pytest.importorskip("torch")
    import faulthandler

    from fanscan.models.train_finder import parallel_batches

    rng = np.random.default_rng(0)
    images = [rng.integers(0, 255, (320, 320, 3), dtype=np.uint8) for _ in range(2)]
    masks = [np.zeros((160, 160), np.uint8), np.ones((160, 160), np.uint8)]
    cv2.warpAffine(images[0], np.eye(2, 3), (640, 640))  # OpenCV's thread pool started here
    faulthandler.dump_traceback_later(120, exit=True)  # a hang fails the run, not CI's clock
    try:
        batches = parallel_batches(images, masks, seed=3, workers=2, size=4, rotate=30.0)
        drawn = [next(batches) for _ in range(6)]
    finally:
        faulthandler.cancel_dump_traceback_later()
    for x, y in drawn:
        assert tuple(x.shape) == (4, 3, 256, 256) and tuple(y.shape) == (4, 128, 128)
    # Each worker draws its own windows: no two batches alike.
    assert len({x.numpy().tobytes() for x, _ in drawn}) == len(drawn)


def test_train_finder_refuses_a_device_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")  # without it the train extra is what is missing
    from fanscan.models import train_finder

    with pytest.raises(SystemExit) as exit_info:
        train_finder.main(["--device", "nowhere"])
    assert exit_info.value.code == 2
    assert "error: --device nowhere:" in capsys.readouterr().err.strip().splitlines()[-1]


def test_train_finder_names_a_missing_accelerator() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_finder import unusable_device

    assert unusable_device("cpu") is None
    if not torch.cuda.is_available():
        assert unusable_device("cuda") == "torch sees no CUDA device here"
