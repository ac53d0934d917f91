"""DP-SGD calibration: gaussmech's certified PLD accountant beside dp_accounting, in one run.

Run: ``.venv/bin/python benchmarks/bench_dpsgd.py`` (a few minutes: dp_accounting's PLD
calibration is the slow part) or ``--quick`` (a small setting, seconds).

For the issue's two settings (q = 0.01, T = 10⁴, ε = 8 and q = 0.00512, T = 19,532, ε = 3, both
δ = 1e-5) it times, one after the other in this process:

* ``gaussmech_core.dpsgd.dpsgd_sigma`` (σ with ε_high ≤ ε, and the bracket at that σ);
* dp_accounting's PLD calibration (Connect-the-Dots, grid 1e-4, ``calibrate_dp_mechanism``
  with tolerance 1e-5 on σ) and its RDP calibration;

and prints each σ, its excess over dp_accounting's PLD σ, and the time ratio. Then the time of a
20-point σ(ε) curve for ε in [0.5, 10] at setting 1's q and T. Opacus is not run: its accountants
need torch, and the registry's torch wheels here are the CUDA build (gigabytes); its PRV and RDP
accountants are the ones the issue's table measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dp_accounting import dp_event, mechanism_calibration  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant  # noqa: E402

from gaussmech_core import dpsgd  # noqa: E402

SETTINGS = [("setting 1", 8.0, 0.01, 10_000), ("setting 2", 3.0, 0.00512, 19_532)]
QUICK = [("quick", 2.0, 0.05, 200)]
DELTA = 1e-5


def _dp_accounting_sigma(make_accountant, epsilon: float, q: float, steps: int) -> float:
    def event(sigma: float) -> dp_event.DpEvent:
        return dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps)

    return float(
        mechanism_calibration.calibrate_dp_mechanism(
            make_accountant,
            event,
            epsilon,
            DELTA,
            mechanism_calibration.ExplicitBracketInterval(0.3, 10.0),
            tol=1e-5,
        )
    )


def _timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def _cpu_timed(function):
    """(value, CPU seconds of this process): less sensitive than the wall clock to a busy machine."""
    start = time.process_time()
    value = function()
    return value, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one small setting, no 20-point curve")
    arguments = parser.parse_args()
    settings = QUICK if arguments.quick else SETTINGS
    for name, epsilon, q, steps in settings:
        ours, our_time = _timed(lambda: dpsgd.dpsgd_sigma(epsilon, DELTA, q, steps))
        _, our_cpu = _cpu_timed(lambda: dpsgd.dpsgd_sigma(epsilon, DELTA, q, steps))
        pld, pld_time = _timed(
            lambda: _dp_accounting_sigma(
                lambda: pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4), epsilon, q, steps
            )
        )
        rdp, rdp_time = _timed(lambda: _dp_accounting_sigma(rdp_privacy_accountant.RdpAccountant, epsilon, q, steps))
        print(f"{name}: q = {q:g}, T = {steps}, ε = {epsilon:g}, δ = {DELTA:g}")
        print(
            f"  gaussmech PLD      σ = {ours.sigma:.6f}  ({ours.sigma / pld - 1:+.4%} vs dp_accounting PLD)  "
            f"bracket at σ: [{ours.epsilon_low:.4f}, {ours.epsilon_high:.4f}]  {our_time:.2f} s "
            f"(again: {our_cpu:.2f} CPU-s)"
        )
        print(f"  dp_accounting PLD  σ = {pld:.6f}  {pld_time:.2f} s  (ratio to gaussmech: {pld_time / our_time:.1f}x)")
        print(
            f"  dp_accounting RDP  σ = {rdp:.6f}  ({rdp / pld - 1:+.2%})  {rdp_time:.2f} s  "
            f"(ratio to gaussmech: {rdp_time / our_time:.1f}x)"
        )
        print(f"  gaussmech RDP      σ = {dpsgd.dpsgd_rdp_sigma(epsilon, DELTA, q, steps):.6f}")
        print(f"  CLT (unsafe)       σ = {dpsgd.dpsgd_clt_sigma(epsilon, DELTA, q, steps):.6f}")
    if not arguments.quick:
        _, epsilon, q, steps = SETTINGS[0]
        epsilons = np.linspace(0.5, 10.0, 20)
        curve, curve_time = _timed(lambda: dpsgd.dpsgd_sigma_curve(epsilons, DELTA, q, steps))
        _, curve_cpu = _cpu_timed(lambda: dpsgd.dpsgd_sigma_curve(epsilons, DELTA, q, steps))
        print(
            f"20-point σ(ε) curve, ε in [0.5, 10], q = {q:g}, T = {steps}: {curve_time:.2f} s "
            f"(again: {curve_cpu:.2f} CPU-s)"
        )
        print("  " + ", ".join(f"{s:.4f}" for s in curve))
    return 0


if __name__ == "__main__":
    sys.exit(main())
