"""DP-SGD accounting: the certified bracket against exact values and against dp_accounting.

Oracles: the Gaussian mechanism composed T times (q = 1, exact, gaussmech_core.gaussian), and
dp_accounting's values at grid 1e-5 computed once by tools/make_dpsgd_reference.py and stored
in tests/core/data/dpsgd_reference.json (its Connect-the-Dots value is an upper bound on ε, its
optimistic privacy-buckets value a lower bound). Properties (bracket order, monotonicity) with
hypothesis; the issue's failure grid (q × T × δ × ε) from its stored run
(tools/run_dpsgd_failure_grid.py, tests/core/data/dpsgd_failure_grid.json) with a live subset.
"""

from __future__ import annotations

import itertools
import json
import math
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gaussmech_core import dpsgd
from gaussmech_core.attack_risk import gaussian_attack_power
from gaussmech_core.gaussian import analytic_gaussian_sigma, gaussian_delta, gaussian_epsilon

REFERENCE = json.loads((pathlib.Path(__file__).parent / "data" / "dpsgd_reference.json").read_text())


def _width(epsilon: float) -> float:
    return max(0.01, 0.002 * epsilon)


# --- q = 1: the exact Gaussian composition --------------------------------------------------------


@pytest.mark.parametrize("sigma, steps, delta", [(1.0, 1, 1e-5), (3.0, 100, 1e-10), (20.0, 10_000, 1e-3)])
def test_full_batch_is_the_exact_gaussian_composition(sigma, steps, delta):
    bracket = dpsgd.dpsgd_epsilon(sigma, 1.0, steps, delta)
    exact = gaussian_epsilon(delta, sigma / math.sqrt(steps))
    assert bracket.low == bracket.high
    assert abs(bracket.high - exact) <= 1e-12 * max(1.0, exact)
    d = dpsgd.dpsgd_delta(sigma, 1.0, steps, 1.0)
    assert abs(d.high - gaussian_delta(1.0, sigma / math.sqrt(steps))) <= 1e-12


def test_full_batch_calibration_is_the_analytic_gaussian_times_root_steps():
    c = dpsgd.dpsgd_sigma(1.0, 1e-5, 1.0, 16)
    assert abs(c.sigma - 4.0 * analytic_gaussian_sigma(1.0, 1e-5)) <= 1e-12 * c.sigma
    assert c.epsilon_high <= 1.0 + 1e-9


# --- against dp_accounting at grid 1e-5 -----------------------------------------------------------


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: f"q{c['sampling_rate']}-T{c['steps']}")
def test_bracket_against_dp_accounting(case):
    bracket = dpsgd.dpsgd_epsilon(case["sigma"], case["sampling_rate"], case["steps"], case["delta"])
    assert bracket.low <= case["pessimistic"]  # its Connect-the-Dots value is an upper bound
    assert bracket.high >= case["optimistic"]  # its optimistic value is a lower bound
    assert bracket.high - case["pessimistic"] <= _width(case["pessimistic"])


@pytest.mark.parametrize(
    "epsilon, delta, q, steps",
    [
        (1.0, 1e-5, 256 / 60_000, 2_344),  # the Training page's default
        (8.0, 1e-5, 0.01, 10_000),  # setting 1 of issue 25
        (3.0, 1e-5, 0.00512, 19_532),  # setting 2
        (0.5, 1e-5, 256 / 60_000, 2_344),
    ],
)
def test_a_calibration_reports_a_bracket_within_the_width(epsilon, delta, q, steps):
    # The bracket a calibration returns is as tight as dpsgd_epsilon's at its σ, and within the width
    # of issue 25 item 1 (once 0.045 wide at the page's default, and 0.082 at setting 1).
    c = dpsgd.dpsgd_sigma(epsilon, delta, q, steps)
    assert c.epsilon_low <= c.epsilon_high <= epsilon
    assert c.epsilon_high - c.epsilon_low <= _width(epsilon)


# --- calibration -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "epsilon, q, steps, reference",
    [(8.0, 0.01, 10_000, 0.88253), (3.0, 0.00512, 19_532, 1.20936)],
)
def test_calibration_meets_the_target_and_is_tight(epsilon, q, steps, reference):
    c = dpsgd.dpsgd_sigma(epsilon, 1e-5, q, steps)
    assert c.epsilon_high <= epsilon
    assert dpsgd.dpsgd_epsilon(c.sigma, q, steps, 1e-5).high <= epsilon
    assert c.sigma <= reference * 1.0005  # within 0.05 % of the tight σ
    assert c.epsilon_low <= epsilon
    # RDP is looser, the CLT below: both computed beside it
    assert dpsgd.dpsgd_rdp_sigma(epsilon, 1e-5, q, steps) > c.sigma
    assert dpsgd.dpsgd_clt_sigma(epsilon, 1e-5, q, steps) < c.sigma


def test_sigma_curve_is_decreasing_in_epsilon():
    epsilons = np.array([1.0, 2.0, 4.0])
    sigmas = dpsgd.dpsgd_sigma_curve(epsilons, 1e-5, 0.02, 500)
    assert np.all(np.diff(sigmas) < 0)


def test_sigma_curve_from_the_interpolated_inverse_is_certified_and_tight():
    """The fast path (a grid of ε(σ), interpolated, one Newton step, a certificate): every σ meets
    its ε by ε_high, is within 0.5 % of the single calibration's, and progress runs to 1."""
    epsilons = np.linspace(0.5, 10.0, 12)
    seen: list[float] = []
    sigmas = dpsgd.dpsgd_sigma_curve(epsilons, 1e-5, 0.05, 200, progress=seen.append)
    assert np.all(np.diff(sigmas) <= 0)
    assert seen == sorted(seen) and seen[-1] == 1.0
    for epsilon, sigma in zip(epsilons[::3], sigmas[::3]):
        assert dpsgd.dpsgd_epsilon(float(sigma), 0.05, 200, 1e-5).high <= epsilon
        single = dpsgd.dpsgd_sigma(float(epsilon), 1e-5, 0.05, 200).sigma
        assert single * 0.9999 <= sigma <= single * 1.005


# --- RDP and CLT beside the bracket ------------------------------------------------------------------


def test_rdp_is_an_upper_bound_and_clt_is_flagged_when_below():
    accounting = dpsgd.dpsgd_accounting(2.0, 0.3, 50, 1e-6)
    assert accounting.rdp_epsilon >= accounting.bracket.high
    assert accounting.clt_epsilon < accounting.bracket.low  # the CLT underestimates: unsafe
    assert accounting.clt_unsafe
    setting_one = dpsgd.dpsgd_accounting(0.88253, 0.01, 10_000, 1e-5)
    assert setting_one.clt_epsilon < 7.95  # below dp_accounting's own certified lower bound (7.9500)
    assert setting_one.clt_unsafe == (setting_one.clt_epsilon < setting_one.bracket.low)


def test_rdp_matches_dp_accounting_rdp():
    # dp_accounting's RdpAccountant at these settings (its own orders): 8.6898 and 3.2599
    assert dpsgd.dpsgd_rdp_epsilon(0.88253, 0.01, 10_000, 1e-5) == pytest.approx(8.6898, abs=0.01)
    assert dpsgd.dpsgd_rdp_epsilon(1.20936, 0.00512, 19_532, 1e-5) == pytest.approx(3.2599, abs=0.01)


# --- properties --------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    sigma=st.floats(0.5, 5.0),
    q=st.floats(1e-3, 0.5),
    steps=st.integers(1, 300),
    log_delta=st.floats(-10.0, -3.0),
)
def test_bracket_is_ordered_and_below_rdp(sigma, q, steps, log_delta):
    delta = 10.0**log_delta
    bracket = dpsgd.dpsgd_epsilon(sigma, q, steps, delta)
    assert 0.0 <= bracket.low <= bracket.high
    assert bracket.high <= dpsgd.dpsgd_rdp_epsilon(sigma, q, steps, delta) + 1e-12
    d = dpsgd.dpsgd_delta(sigma, q, steps, bracket.high)
    assert 0.0 <= d.low <= d.high
    assert d.low <= delta * (1 + 1e-9)  # at ε_high the true δ is at most δ


@settings(max_examples=8, deadline=None)
@given(sigma=st.floats(0.6, 3.0), q=st.floats(1e-3, 0.3), steps=st.integers(2, 200))
def test_more_noise_never_means_more_epsilon(sigma, q, steps):
    noisier = dpsgd.dpsgd_epsilon(sigma * 1.2, q, steps, 1e-6)
    base = dpsgd.dpsgd_epsilon(sigma, q, steps, 1e-6)
    assert noisier.high <= base.high + 1e-9
    assert noisier.low <= base.high


# --- attack risk -------------------------------------------------------------------------------------


def test_attack_risk_at_full_batch_is_the_gaussian_trade_off():
    risk = dpsgd.dpsgd_attack_risk(4.0, 1.0, 4, (0.01,))
    exact = gaussian_attack_power(0.01, 2.0)  # μ = √4/4 = 0.5 → σ_equivalent = 2
    assert risk.true_positive_rates[0.01] >= exact - 1e-9
    assert risk.true_positive_rates[0.01] <= exact + 1e-6


def test_attack_risk_is_on_the_safe_side_and_ordered():
    risk = dpsgd.dpsgd_attack_risk(1.0, 0.01, 1_000, (0.001, 0.01), prior=0.5)
    assert 0.001 <= risk.true_positive_rates[0.001] <= risk.true_positive_rates[0.01] <= 1.0
    assert 0.0 <= risk.advantage <= 1.0
    assert 0.5 <= risk.posterior <= 1.0


def test_sigma_for_attack_keeps_the_limit():
    sigma = dpsgd.dpsgd_sigma_for_attack(0.05, 0.01, 1_000, 0.01)
    assert dpsgd.dpsgd_attack_risk(sigma, 0.01, 1_000, (0.01,)).true_positive_rates[0.01] <= 0.05
    assert dpsgd.dpsgd_attack_risk(sigma * 0.98, 0.01, 1_000, (0.01,)).true_positive_rates[0.01] > 0.05 * 0.98


# --- validation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: dpsgd.dpsgd_epsilon(-1.0, 0.1, 10, 1e-5), "sigma"),
        (lambda: dpsgd.dpsgd_epsilon(1.0, 0.0, 10, 1e-5), "sampling_rate"),
        (lambda: dpsgd.dpsgd_epsilon(1.0, 1.5, 10, 1e-5), "sampling_rate"),
        (lambda: dpsgd.dpsgd_epsilon(1.0, 0.1, 0, 1e-5), "steps"),
        (lambda: dpsgd.dpsgd_epsilon(1.0, 0.1, 10, 1.0), "delta"),
        (lambda: dpsgd.dpsgd_delta(1.0, 0.1, 10, -1.0), "epsilon"),
        (lambda: dpsgd.dpsgd_sigma(0.0, 1e-5, 0.1, 10), "epsilon"),
        (lambda: dpsgd.steps_for_epochs(100, 200, 1), "batch_size"),
        (lambda: dpsgd.steps_for_epochs(100, 10, 0), "epochs"),
    ],
)
def test_bad_parameters_raise_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_steps_for_epochs():
    assert dpsgd.steps_for_epochs(60_000, 256, 10) == (256 / 60_000, 2344)


# --- the issue's failure grid ------------------------------------------------------------------------

FAILURE_GRID = json.loads((pathlib.Path(__file__).parent / "data" / "dpsgd_failure_grid.json").read_text())
PARAMETER_NAMES = ("epsilon", "delta", "steps", "sampling_rate")


def _grid_points() -> list[dict]:
    return FAILURE_GRID["points"]


def test_failure_grid_covers_the_issue_grid():
    """The stored run (tools/run_dpsgd_failure_grid.py) holds points of q × T × δ × ε, each once, and
    every point when it says it is complete (a run can be resumed: the script skips stored points)."""
    stored = [(p["sampling_rate"], p["steps"], p["delta"], p["epsilon"]) for p in _grid_points()]
    expected = set(
        itertools.product(
            [1e-5, 1e-3, 0.1, 0.5, 1.0], [1, 100, 10_000, 1_000_000], [1e-20, 1e-10, 1e-5], [0.01, 1, 10, 100, 1000]
        )
    )
    assert len(set(stored)) == len(stored) and set(stored) <= expected
    assert FAILURE_GRID["complete"] == (set(stored) == expected)


# Points of the stored run that exceed the issue's 30 CPU-s (q = 1e-5, T = 1e6: the PLD's windows
# at small q and small δ grow with T). Known failures of issue 25 item 4, listed so they are seen:
# strict xfail, so a fix makes them XPASS until they are removed from here.
OVER_TIME_LIMIT = {(1e-5, 1_000_000, 1e-10, 100.0), (1e-5, 1_000_000, 1e-10, 1000.0), (1e-5, 1_000_000, 1e-5, 1.0)}


def _grid_point_params() -> list:
    params = []
    for p in _grid_points():
        key = (p["sampling_rate"], p["steps"], p["delta"], p["epsilon"])
        marks = (
            [pytest.mark.xfail(strict=True, reason="over 30 CPU-s (issue 25 item 4)")] if key in OVER_TIME_LIMIT else []
        )
        ident = f"q{p['sampling_rate']}-T{p['steps']}-d{p['delta']}-e{p['epsilon']}"
        params.append(pytest.param(p, marks=marks, id=ident))
    return params


@pytest.mark.parametrize("point", _grid_point_params())
def test_failure_grid_point(point):
    """A correct σ (its certified ε at most the target, no NaN) or a ValueError naming a parameter,
    within 30 CPU-s and 1 GB (the issue's limits), as the stored run measured them."""
    assert point["cpu_seconds"] <= 30.0
    assert point["peak_memory_mb"] <= 1024.0
    if point["error"] is not None:
        assert any(name in point["error"] for name in PARAMETER_NAMES)
        return
    sigma, low, high = point["sigma"], point["epsilon_low"], point["epsilon_high"]
    assert isinstance(sigma, float) and math.isfinite(sigma) and sigma > 0
    assert high <= point["epsilon"] * (1 + 1e-12)
    assert 0.0 <= low <= high


def _sigma_of(q, steps, delta, epsilon):
    for p in _grid_points():
        if (p["sampling_rate"], p["steps"], p["delta"], p["epsilon"]) == (q, steps, delta, epsilon):
            return p["sigma"]
    return None  # not in the stored run


@pytest.mark.parametrize("axis", ["epsilon", "delta", "steps"])
def test_failure_grid_is_monotone(axis):
    """The tight σ falls as ε or δ grows and rises with T; the certified σ must too (to the search's
    relative step, 1e-5, with room 1e-4). A point without a σ (ValueError, or not run) is skipped."""
    values = {"epsilon": [0.01, 1, 10, 100, 1000], "delta": [1e-20, 1e-10, 1e-5], "steps": [1, 100, 10_000, 1_000_000]}
    others = {"epsilon": values["epsilon"], "delta": values["delta"], "steps": values["steps"]}
    del others[axis]
    names = list(others)
    violations: list[tuple] = []
    for q in [1e-5, 1e-3, 0.1, 0.5, 1.0]:
        for fixed in itertools.product(*(others[n] for n in names)):
            setting = dict(zip(names, fixed))
            sigmas = []
            for value in values[axis]:
                setting[axis] = value
                sigma = _sigma_of(q, setting["steps"], setting["delta"], setting["epsilon"])
                if sigma is not None:
                    sigmas.append(sigma)
            if axis == "steps":
                sigmas = [-s for s in sigmas]
            broken = any(after > before + 1e-4 * abs(before) for before, after in zip(sigmas, sigmas[1:]))
            key = (axis, q, setting["epsilon"], setting["delta"], setting["steps"])
            if broken:
                violations.append(key)
    # Known (issue 25 item 4, open): at q = 1e-5, δ = 1e-10, ε = 100 and 1000 the certified σ at
    # T = 1e4 (0.2345, 0.2195: the PLD's bound is loose there) is above the one at T = 1e6: both
    # certified, but not monotone. Listed exactly, so a fix or a new case fails here.
    known = {("steps", 1e-5, e, 1e-10, 1_000_000) for e in (100, 1000)} if axis == "steps" else set()
    assert set(violations) == known, violations


def _live_subset() -> list[dict]:
    """Four points per sampling rate, the cheapest of the stored run (about 20 in all)."""
    chosen = []
    for q in [1e-5, 1e-3, 0.1, 0.5, 1.0]:
        points = sorted((p for p in _grid_points() if p["sampling_rate"] == q), key=lambda p: p["cpu_seconds"])
        chosen.extend(points[:4])
    return chosen


@pytest.mark.parametrize(
    "point", _live_subset(), ids=lambda p: f"q{p['sampling_rate']}-T{p['steps']}-d{p['delta']}-e{p['epsilon']}"
)
def test_failure_grid_live_subset_matches_the_stored_run(point):
    """The stored outcomes are the code's: a subset is run again and must agree (the σ to 1e-9; the
    bracket the same or tighter, since a calibration takes its lower end from dpsgd_epsilon, after
    the stored run)."""
    try:
        c = dpsgd.dpsgd_sigma(
            point["epsilon"], point["delta"], point["sampling_rate"], point["steps"], coarsen=FAILURE_GRID["coarsen"]
        )
    except ValueError as error:
        assert point["error"] == str(error)
        return
    assert point["error"] is None
    assert c.sigma == pytest.approx(point["sigma"], rel=1e-9)
    assert c.epsilon_high <= point["epsilon_high"] * (1 + 1e-9) + 1e-12
    assert c.epsilon_low >= point["epsilon_low"] * (1 - 1e-9) - 1e-12
    assert c.epsilon_low <= c.epsilon_high


# --- the failures other tools' trackers report, as regression tests -------------------------------


def test_sampling_rate_one_eighth_does_not_crash():
    bracket = dpsgd.dpsgd_epsilon(1.0, 0.125, 1_000, 1e-5)
    assert 0.0 < bracket.low <= bracket.high < math.inf


def test_no_jump_in_epsilon_near_delta_1e_18():
    highs = [dpsgd.dpsgd_epsilon(1.0, 0.01, 10, delta).high for delta in (1e-17, 1e-18, 1e-19)]
    assert highs[0] <= highs[1] <= highs[2]
    assert highs[2] - highs[0] < 2.0  # no jump from 0.056 to 3.8


def test_epsilon_1000_finishes_with_a_finite_sigma():
    c = dpsgd.dpsgd_sigma(1000.0, 1e-5, 0.5, 1)
    assert 0.0 < c.sigma < math.inf and c.epsilon_high <= 1000.0


def test_epsilon_one_hundredth_finishes():
    c = dpsgd.dpsgd_sigma(0.01, 1e-5, 0.1, 100)
    assert math.isfinite(c.sigma) and c.epsilon_high <= 0.01
    assert not math.isnan(c.epsilon_low) and c.epsilon_low >= 0.0


def test_epsilon_one_hundredth_stays_far_below_a_gigabyte():
    """dp_accounting's tracker reports a 75 GB calibration at ε = 0.01: here the peak of what numpy
    allocates (tracemalloc) stays below 100 MB, and the σ is certified."""
    import tracemalloc

    tracemalloc.start()
    try:
        c = dpsgd.dpsgd_sigma(0.01, 1e-5, 0.01, 1_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100e6
    assert 0.0 <= c.epsilon_low <= c.epsilon_high <= 0.01


@pytest.mark.parametrize("sigma, q, steps", [(1e4, 1e-5, 1_000), (100.0, 1e-5, 10), (50.0, 0.001, 1), (0.05, 0.9, 3)])
def test_no_nan_or_negative_epsilon(sigma, q, steps):
    """Other trackers report NaN and negative ε (negative Rényi divergences at large σ, small q):
    every number here is a non-negative float, the bracket ordered, RDP above its upper end's floor."""
    bracket = dpsgd.dpsgd_epsilon(sigma, q, steps, 1e-5)
    rdp = dpsgd.dpsgd_rdp_epsilon(sigma, q, steps, 1e-5)
    values = [bracket.low, bracket.high, rdp, dpsgd.dpsgd_clt_epsilon(sigma, q, steps, 1e-5)]
    assert all(not math.isnan(v) and v >= 0.0 for v in values)
    assert bracket.low <= bracket.high <= rdp


# --- δ = 1e-20: the calibration once galloped to σ ~ 1e10-1e13 ----------------------------------------
# (the cuts' mass moved to +∞ and the FFT allowance exceeded δ, so the PLD bound was infinite at every
# reasonable σ and the search climbed to where the window has a few points). RDP σ from
# dpsgd_rdp_sigma, which matches dp_accounting's RdpAccountant (0.47629 and 1.18550 at the first and
# third inputs; at the fourth dp_accounting warns of negative Rényi divergences and returns 0.2535,
# below the CLT value; at the second its orders cannot reach ε = 0.01 and it gives 7e5).


@pytest.mark.parametrize(
    "epsilon, q, steps",
    [(10.0, 1e-5, 10_000), (10.0, 1e-3, 1_000_000), (100.0, 1e-5, 1_000_000)],
)
def test_tiny_delta_sigma_is_at_most_rdp_and_near_it(epsilon, q, steps):
    """Each input is a point of the failure grid (same coarsening): its stored calibration is used
    where the run holds it (a minute of CPU live at q = 1e-5, T = 1e4; the live subset test keeps
    the stored outcomes the code's), else it is computed here."""
    delta = 1e-20
    stored = next(
        (
            p
            for p in _grid_points()
            if (p["epsilon"], p["sampling_rate"], p["steps"], p["delta"]) == (epsilon, q, steps, delta)
            and p["error"] is None
        ),
        None,
    )
    if stored is not None:
        sigma, high = stored["sigma"], stored["epsilon_high"]
    else:
        c = dpsgd.dpsgd_sigma(epsilon, delta, q, steps, coarsen=FAILURE_GRID["coarsen"])
        sigma, high = c.sigma, c.epsilon_high
    rdp_sigma = dpsgd.dpsgd_rdp_sigma(epsilon, delta, q, steps)
    assert sigma <= rdp_sigma
    assert sigma >= 0.9 * rdp_sigma  # RDP is a few % above the tight σ, never 10 %
    assert sigma >= dpsgd.dpsgd_clt_sigma(epsilon, delta, q, steps) * 0.99
    # certified: RDP's ε (an independent upper bound) or the bracket's upper end meets the target
    assert high <= epsilon
    assert min(dpsgd.dpsgd_rdp_epsilon(sigma, q, steps, delta), high) <= epsilon


def test_tiny_delta_one_step_is_near_the_amplified_gaussian():
    """One step at q = 1e-3: the Gaussian at ε' = log(1 + (e^ε − 1)/q), δ' = δ/q is (ε, δ)-DP after
    sampling (amplification by subsampling), so its σ is an upper bound on the tight σ."""
    epsilon, delta, q = 0.01, 1e-20, 1e-3
    c = dpsgd.dpsgd_sigma(epsilon, delta, q, 1, coarsen=3)
    amplified = analytic_gaussian_sigma(math.log1p(math.expm1(epsilon) / q), delta / q)
    assert 0.99 * amplified <= c.sigma <= 1.001 * amplified  # 3.4291 against 3.4286
    assert c.epsilon_low <= c.epsilon_high <= epsilon
    bracket = dpsgd.dpsgd_epsilon(c.sigma, q, 1, delta)
    assert bracket.high <= epsilon * (1 + 1e-9)


# --- the edges: exact limits outside the PLD's range (docs/math.md section 13.7) -------------------


def test_tiny_sigma_gives_infinite_epsilon_and_huge_sigma_gives_zero():
    """σ = 1e-300: the true ε grows like 1/(2σ²), past the largest double, so both ends are inf;
    σ = 1e300: the total-variation distance is far below δ, so ε is 0 to floating point."""
    tiny = dpsgd.dpsgd_epsilon(1e-300, 0.01, 100, 1e-5)
    assert tiny.low == tiny.high == math.inf
    huge = dpsgd.dpsgd_epsilon(1e300, 0.01, 100, 1e-5)
    assert huge.low == 0.0 and 0.0 <= huge.high <= 1e-290
    assert dpsgd.dpsgd_delta(1e300, 0.01, 100, 0.0).high <= 1e-290


@pytest.mark.parametrize("sigma, q, steps", [(0.6, 0.1, 100), (1.5, 0.01, 1000), (0.9, 0.5, 1)])
def test_the_limits_bracket_the_pld(sigma, q, steps):
    """One step's exact ε (below) and the full-batch Gaussian's (above) bracket the PLD's bracket."""
    delta = 1e-5
    bracket = dpsgd.dpsgd_epsilon(sigma, q, steps, delta)
    one_step = dpsgd._one_step_epsilon(sigma, q, delta)
    assert one_step <= bracket.high
    assert dpsgd._full_batch_epsilon(sigma, steps, delta) >= bracket.low
    if steps == 1:  # one step: the one-step ε is the remove direction's exact ε, inside the bracket
        assert bracket.low - 1e-9 <= one_step <= bracket.high


def test_one_step_epsilon_matches_the_mixture_profile_by_quadrature():
    """δ of one step (remove) at the one-step ε, by mpmath quadrature of (P − e^ε Q)_+, is δ."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 30
    sigma, q, delta = 0.8, 0.2, 1e-4
    epsilon = dpsgd._one_step_epsilon(sigma, q, delta)
    s, e = mpmath.mpf(sigma), mpmath.e ** mpmath.mpf(epsilon)

    def normal(x, mean):
        return mpmath.npdf(x, mean, s)

    def integrand(x):
        return max((1 - q) * normal(x, 0) + q * normal(x, 1) - e * normal(x, 0), 0)

    x_star = s**2 * mpmath.log((e - 1 + q) / q) + mpmath.mpf(0.5)
    value = mpmath.quad(integrand, [x_star, x_star + 40 * s])
    assert abs(float(value) - delta) <= 1e-6 * delta


def test_the_pld_range_boundary_is_consistent():
    """Just below σ = 0.03 the bracket is the limits, just above the PLD: the true ε falls with σ, so
    the upper end below the boundary is at least the lower end above it."""
    below = dpsgd.dpsgd_epsilon(0.0299, 0.5, 1, 1e-5)
    above = dpsgd.dpsgd_epsilon(0.0301, 0.5, 1, 1e-5)
    assert below.high >= above.low and below.low <= below.high and above.low <= above.high


def test_delta_at_least_the_sampling_chance_raises_naming_delta():
    """δ ≥ 1 − (1 − q)^T is met with no noise at all: a ValueError naming delta, not a search."""
    with pytest.raises(ValueError, match="delta"):
        dpsgd.dpsgd_sigma(1.0, 0.75, 0.01, 100)
    with pytest.raises(ValueError, match="delta"):
        dpsgd.dpsgd_sigma_curve(np.array([0.5, 1.0]), 0.75, 0.01, 100)


def test_extreme_sampling_rate_and_sigma_give_certified_values():
    """q below 1e-12 (δ above the chance of being sampled: ε = 0 exactly) and σ below 0.03: certified limits."""
    bracket = dpsgd.dpsgd_epsilon(1.0, 1e-300, 100, 1e-5)
    assert bracket.low == bracket.high == 0.0
    c = dpsgd.dpsgd_sigma(2000.0, 1e-5, 0.5, 1)
    assert c.epsilon_low <= c.epsilon_high <= 2000.0
    assert dpsgd.dpsgd_epsilon(c.sigma, 0.5, 1, 1e-5).high <= 2000.0
