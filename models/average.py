"""Average the weights of classifiers fine-tuned from one start: one model with less of each
run's luck (its draws of crops and augmentations), at the cost of one.

    python -m fanscan.models.average A.onnx B.onnx [...] --out C.onnx

Each export is loaded back into the network (``onnx_init.tile_net_from_onnx``: its batch norms
are folded into the convolutions, the same way in every run from one start), the parameters are
averaged, and the mean is exported with a sidecar that keeps what the runs' records share and,
run by run, what differs (each run's seed, data, time and held-out figures). Runs from different
starts (their weights point apart: ``SAME_LINEAGE``), of different outputs or taught different
faces are refused. Needs the train extra.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fanscan.errors import FanscanError


def _sidecar(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FanscanError("bad_model", f"cannot read the sidecar of {path} ({error})") from None


SAME_LINEAGE = 0.9
"""The least cosine between two runs' convolution and layer weights for averaging them: runs
fine-tuned from one start (or from each other) measure above 0.99, networks started apart near 0."""
_EACH_RUN = ("seed", "held_out_accuracy", "seconds")
"""Kept with each run even where the runs agree: the mean has no seed, time or figure of its own
(its held-out figure is measured apart)."""


def averaged_record(sidecars: list[dict[str, Any]], paths: list[Path]) -> dict[str, Any]:
    """The training record of the mean of the runs ``paths`` whose sidecars are ``sidecars``;
    refuses runs with other outputs or taught other faces."""
    first = sidecars[0]
    for path, other in zip(paths[1:], sidecars[1:]):
        if other.get("labels") != first.get("labels"):
            raise FanscanError("bad_model", f"{path.name} answers other faces than {paths[0].name}")
        mine, theirs = first.get("training", {}).get("classes"), other.get("training", {}).get("classes")
        if mine != theirs:
            raise FanscanError("bad_model", f"{path.name} was taught the faces {theirs}, {paths[0].name} {mine}")
    runs = [s.get("training", {}) for s in sidecars]
    keys = list(dict.fromkeys(key for run in runs for key in run))
    shared = [k for k in keys if all(k in run and run[k] == runs[0][k] for run in runs)]
    record = {k: runs[0][k] for k in shared if k not in _EACH_RUN}
    record["averaged_from"] = [
        {"model": path.name, **{k: run[k] for k in keys if k in run and (k not in shared or k in _EACH_RUN)}}
        for path, run in zip(paths, runs)
    ]
    return record


def _agreement(first: dict[str, Any], other: dict[str, Any]) -> float:
    """The cosine between two state dicts' weights of two or more dimensions (the folded norms,
    the identity in every run, would make any two networks look alike)."""
    import torch

    def flat(state: dict[str, Any]) -> Any:
        return torch.cat([t.float().flatten() for t in state.values() if t.is_floating_point() and t.dim() >= 2])

    return float(torch.nn.functional.cosine_similarity(flat(first), flat(other), dim=0))


def average(paths: list[Path], out: Path) -> None:
    """Write the mean of the classifiers ``paths`` to ``out`` with its sidecar."""
    from fanscan.models.export import export
    from fanscan.models.onnx_init import tile_net_from_onnx
    from fanscan.vision.preprocess import PreprocessSpec

    sidecars = [_sidecar(path) for path in paths]
    record = averaged_record(sidecars, paths)
    nets = [tile_net_from_onnx(path) for path in paths]
    states = [net.state_dict() for net in nets]
    for path, state in zip(paths[1:], states[1:]):
        if (agreement := _agreement(states[0], state)) < SAME_LINEAGE:
            raise FanscanError("bad_model", f"{path.name}'s weights do not line up with {paths[0].name}'s "
                                            f"(agreement {agreement:.2f}): not fine-tuned from one start")
    mean = {
        name: (sum(state[name].float() for state in states) / len(states)).to(tensor.dtype)
        if tensor.is_floating_point() else tensor
        for name, tensor in states[0].items()
    }
    nets[0].load_state_dict(mean)
    spec = PreprocessSpec.from_json(sidecars[0]["input"])
    export(nets[0], spec, out, record, sidecars[0]["labels"])


def record_held_out(model: Path, figures: dict[str, float]) -> None:
    """Write the mean's own held-out figures (measured apart) into its sidecar's record."""
    from fanscan.atomic import write_text_atomic

    sidecar = _sidecar(model)
    sidecar["training"]["held_out_accuracy"] = figures
    write_text_atomic(model.with_suffix(".json"), json.dumps(sidecar, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", type=Path, nargs="+", help="exported classifiers (.onnx beside .json)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if len(args.models) < 2:
        parser.error("average at least two models")
    try:
        average(args.models, args.out)
    except (FanscanError, ValueError) as error:  # ValueError: a file that is no such classifier
        print(f"fanscan: error: {error}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as error:
        print(f"fanscan: error: averaging needs the train extra (pip install 'fanscan[train]'): "
              f"{error.name} is missing", file=sys.stderr)
        return 1
    print(f"wrote {args.out} (the mean of {len(args.models)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
