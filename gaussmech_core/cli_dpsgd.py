"""``python -m gaussmech_core dpsgd``: the noise multiplier for DP-SGD, or the ε bracket at a σ.

    python -m gaussmech_core dpsgd --dataset-size 60000 --batch-size 256 --epochs 10 --epsilon 8 --delta 1e-5
    python -m gaussmech_core dpsgd --sampling-rate 0.01 --steps 10000 --sigma 0.9 --delta 1e-5 --format json

Prints ``sigma`` with the certified bracket ``epsilon_low`` ≤ ε ≤ ``epsilon_high`` at that σ
(:mod:`gaussmech_core.dpsgd`, Poisson sampling, add/remove neighbours). With ``--epsilon`` σ is
calibrated (its ε_high is at most the target); with ``--sigma`` the bracket of that σ is printed.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Callable

from . import dpsgd
from ._validation import parameter_names

__all__ = ["add_parser", "rows"]

_FLAGS = {
    "dataset_size": "--dataset-size",
    "batch_size": "--batch-size",
    "epochs": "--epochs",
    "sampling_rate": "--sampling-rate",
    "steps": "--steps",
    "epsilon": "--epsilon",
    "sigma": "--sigma",
    "delta": "--delta",
}


def add_parser(
    commands: argparse._SubParsersAction,
    number: Callable[[str], float],
    whole: Callable[[str], int],
    add_format: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register the ``dpsgd`` subcommand (``number``/``whole`` are the CLI's argument types)."""
    parser = commands.add_parser(
        "dpsgd",
        help="noise multiplier σ for DP-SGD (Poisson sampling), with the certified ε bracket",
        description="DP-SGD with Poisson sampling: σ for (ε, δ), or the bracket [ε_low, ε_high] at a σ.",
    )
    parser.add_argument("--dataset-size", type=whole, help="number of training examples N")
    parser.add_argument("--batch-size", type=whole, help="expected batch size B (q = B/N)")
    parser.add_argument("--epochs", type=number, help="epochs E (T = ⌈E N/B⌉ steps)")
    parser.add_argument("--sampling-rate", type=number, help="Poisson sampling rate q in (0, 1] (instead of N, B)")
    parser.add_argument("--steps", type=whole, help="number of steps T (with --sampling-rate)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--epsilon", type=number, help="target ε > 0: calibrate σ")
    target.add_argument("--sigma", type=number, help="noise multiplier σ > 0: print its ε bracket")
    parser.add_argument("--delta", type=number, required=True, help="δ in (0, 1)")
    add_format(parser)


def _schedule(arguments: argparse.Namespace) -> tuple[float, int]:
    by_epochs = [arguments.dataset_size, arguments.batch_size, arguments.epochs]
    by_rate = [arguments.sampling_rate, arguments.steps]
    if any(v is not None for v in by_epochs) and any(v is not None for v in by_rate):
        raise ValueError("give --dataset-size, --batch-size, --epochs or --sampling-rate, --steps, not both")
    if all(v is not None for v in by_rate):
        return arguments.sampling_rate, arguments.steps
    if all(v is not None for v in by_epochs):
        return dpsgd.steps_for_epochs(arguments.dataset_size, arguments.batch_size, arguments.epochs)
    missing = [_FLAGS[name] for name in ("sampling_rate", "steps") if getattr(arguments, name) is None]
    if any(v is not None for v in by_epochs):
        missing = [_FLAGS[n] for n in ("dataset_size", "batch_size", "epochs") if getattr(arguments, n) is None]
    raise ValueError(
        f"missing {', '.join(missing)} (give --dataset-size, --batch-size, --epochs or --sampling-rate, --steps)"
    )


def rows(arguments: argparse.Namespace) -> list[dict]:
    """One row: ``sigma``, ``epsilon_low``, ``epsilon_high``."""
    with parameter_names(**_FLAGS):
        q, steps = _schedule(arguments)
        if arguments.sigma is not None:
            bracket = dpsgd.dpsgd_epsilon(arguments.sigma, q, steps, arguments.delta)
            sigma, low, high = bracket.sigma, bracket.low, bracket.high
        else:
            calibration = dpsgd.dpsgd_sigma(arguments.epsilon, arguments.delta, q, steps)
            sigma, low, high = calibration.sigma, calibration.epsilon_low, calibration.epsilon_high
    if not all(math.isfinite(v) for v in (sigma, low, high)):
        raise ValueError("no finite bound at this --delta: give a larger --delta or fewer --steps")
    return [{"sigma": sigma, "epsilon_low": low, "epsilon_high": high}]


def render_json(table: list[dict]) -> str:
    """Strict JSON (no NaN or Infinity)."""
    return json.dumps(table, indent=2, allow_nan=False)
