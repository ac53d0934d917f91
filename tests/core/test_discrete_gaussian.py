"""The discrete Gaussian (Canonne, Kamath & Steinke 2020): exact profile, calibration, moments, samplers.

The oracle is mpmath, written independently of the module: lattice sums by direct summation, or
(where that would take too many terms) by Euler–Maclaurin with mpmath's own numerical derivatives
(``mp.diffs``) and the integral in closed form through ``mp.erfc``; the normalising constants by
``mp.jtheta``; the replace-one profile from the distribution of Y₁ + Y₂ (checked against a brute
force convolution). Reference numbers: the table of docs/math.md section 9.5.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import warnings
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from scipy import stats

import gaussmech_core
import gaussmech_core.discrete_gaussian as dg
from gaussmech_core.discrete_gaussian import (
    discrete_gaussian_delta,
    discrete_gaussian_delta_zcdp_bound,
    discrete_gaussian_exact_sample,
    discrete_gaussian_expected_loss,
    discrete_gaussian_log_delta,
    discrete_gaussian_log_normaliser,
    discrete_gaussian_log_pmf,
    discrete_gaussian_log_tail,
    discrete_gaussian_loss_summary,
    discrete_gaussian_norm_tail,
    discrete_gaussian_pmf,
    discrete_gaussian_sample,
    discrete_gaussian_sigma,
    discrete_gaussian_sigma_zcdp_bound,
    discrete_gaussian_smallest_sigma,
    discrete_gaussian_tail,
    discrete_gaussian_variance,
)
from gaussmech_core.gaussian import analytic_gaussian_sigma, gaussian_delta, gaussian_log_delta

DPS = 40
RELATIONS = ("add_remove", "replace")

# --- The mpmath oracle ----------------------------------------------------------------------


def mp_log_normaliser(sigma, shift=0):
    """log Σ_y exp(−(y + shift)²/(2σ²)) via mp.jtheta (θ₃ for shift 0, θ₂ for shift ½)."""
    sigma = mp.mpf(sigma)
    if sigma < 3:
        q = mp.exp(-1 / (2 * sigma**2))
        return mp.log(mp.jtheta(2 if shift else 3, 0, q))
    # Jacobi's imaginary transformation: θ₃ ↔ θ₃ and θ₂ ↔ θ₄ with q' = e^{−2π²σ²}.
    q = mp.exp(-2 * mp.pi**2 * sigma**2)
    return mp.log(sigma * mp.sqrt(2 * mp.pi) * mp.jtheta(4 if shift else 3, 0, q))


_BERNOULLI = [mp.bernoulli(2 * j) / mp.factorial(2 * j) for j in range(1, 9)]


def mp_gaussian_sum(scale, start, shift, epsilon, step):
    """Σ_{k≥0} h(start + step k), h(x) = e^{−x²/(2s²)} − e^ε e^{−(x + shift)²/(2s²)}, every term ≥ 0.

    Direct summation while at most 3000 terms matter, else Euler–Maclaurin with the integral
    (1/step) s√(π/2) [erfc(x₀/(s√2)) − e^ε erfc((x₀ + shift)/(s√2))] and mp.diffs derivatives.
    """
    s, x0, b, e = mp.mpf(scale), mp.mpf(start), mp.mpf(shift), mp.mpf(epsilon)

    def h(x):
        return mp.exp(-x * x / (2 * s * s)) - mp.exp(e - (x + b) ** 2 / (2 * s * s))

    positive_start = max(x0, mp.mpf(0))
    reach = (mp.sqrt(positive_start**2 + 200 * s * s) - positive_start + max(-x0, 0)) / step
    if reach <= 3000:
        total, k = mp.mpf(0), 0
        while True:
            x = x0 + step * k
            term = h(x)
            total += term
            if x > 0 and term < total * mp.mpf(10) ** (-(DPS + 5)):
                return total
            k += 1
    root2 = mp.sqrt(2)
    integral = s * mp.sqrt(mp.pi / 2) * (mp.erfc(x0 / (s * root2)) - mp.exp(e) * mp.erfc((x0 + b) / (s * root2)))
    total = integral / step + h(x0) / 2
    derivatives = mp.diffs(h, x0, 2 * len(_BERNOULLI))
    derivatives = list(derivatives)
    for j, coefficient in enumerate(_BERNOULLI, start=1):
        correction = coefficient * step ** (2 * j - 1) * derivatives[2 * j - 1]
        total -= correction
        if abs(correction) < abs(total) * mp.mpf(10) ** (-(DPS - 5)):
            return total
    raise AssertionError("Euler–Maclaurin did not converge in the oracle")  # pragma: no cover


def mp_log_delta(epsilon, sigma, sensitivity=1, neighbours="add_remove"):
    """log δ(ε) of the discrete Gaussian (CKS20 Thm 7; docs/math.md section 9.6 for replace), inputs taken exactly."""
    with mp.workdps(DPS):
        e, s, d = mp.mpf(epsilon), mp.mpf(sigma), mp.mpf(sensitivity)
        if neighbours == "add_remove":
            start = mp.floor(e * s * s / d - d / 2) + 1
            return mp.log(mp_gaussian_sum(s, start, d, e, 1)) - mp_log_normaliser(s)
        # W = Y₁ + Y₂ has P[W = w] = e^{−w²/(4σ²)} θ_{w mod 2}/Z²; the loss is (Δ² + Δw)/σ².
        threshold = e * s * s / d - d
        first = mp.floor(threshold) + 1
        log_theta = {0: mp_log_normaliser(s / mp.sqrt(2)), 1: mp_log_normaliser(s / mp.sqrt(2), 1)}
        total = mp.mpf(0)
        for start in (first, first + 1):
            parity = int(start) % 2
            total += mp.exp(log_theta[parity]) * mp_gaussian_sum(s * mp.sqrt(2), start, 2 * d, e, 2)
        return mp.log(total) - 2 * mp_log_normaliser(s)


def brute_force_replace_delta(epsilon, sigma, sensitivity):
    """δ for v = Δ(e₁ − e₂) by the definition: E[(1 − e^{ε − L})_+] over the pair (Y₁, Y₂)."""
    with mp.workdps(30):
        s, e, d = mp.mpf(sigma), mp.mpf(epsilon), mp.mpf(sensitivity)
        top = int(30 * sigma) + 10
        weights = {y: mp.exp(-(mp.mpf(y) ** 2) / (2 * s * s)) for y in range(-top, top + 1)}
        z = mp.fsum(weights.values())
        total = mp.mpf(0)
        for y1, y2 in itertools.product(weights, repeat=2):
            loss = (2 * d * d - 2 * d * y1 + 2 * d * y2) / (2 * s * s)
            if loss > e:
                total += weights[y1] * weights[y2] * (1 - mp.exp(e - loss))
        return total / (z * z)


# --- The exact profile ----------------------------------------------------------------------


def test_profile_reproduces_the_table_of_math_section_9_5():
    # (σ, Δ, ε, discrete δ, continuous δ) as printed in docs/math.md section 9.5.
    table = [(1.0, 1, 1.0, 0.1414, 0.1269), (1.0, 1, 0.5, 0.2040, 0.2384), (3.0, 1, 0.3, 0.03847, 0.03857)]
    for sigma, sensitivity, epsilon, discrete, continuous in table:
        assert float(f"{discrete_gaussian_delta(epsilon, sigma, sensitivity):.4g}") == discrete
        assert float(f"{gaussian_delta(epsilon, sigma, sensitivity):.4g}") == continuous


def test_profile_reproduces_the_checked_numbers_of_math_sections_9_5_and_9_6():
    # The 10-digit values beside the table of section 9.5, and the replace-one values of 9.6.
    for sigma, epsilon, expected in [(1.0, 1.0, 0.1413513394), (1.0, 0.5, 0.2039828138), (3.0, 0.3, 0.03847246063)]:
        assert discrete_gaussian_delta(epsilon, sigma) == pytest.approx(expected, rel=1e-9)
    for sigma, epsilon, expected in [(1.0, 1.0, 0.262500197), (3.0, 0.3, 0.0859501178), (2.0, 1.0, 0.0379694447)]:
        assert discrete_gaussian_delta(epsilon, sigma, 1, "replace") == pytest.approx(expected, rel=1e-8)


PROFILE_POINTS = [
    (epsilon, sigma, sensitivity)
    for epsilon in (0.0, 1e-3, 0.3, 1.0, 5.0, 50.0)
    for sigma in (0.05, 0.4, 1.0, 3.7, 25.0, 400.0, 3e4)
    for sensitivity in (1, 2, 5)
]


@pytest.mark.parametrize("neighbours", RELATIONS)
def test_log_delta_matches_mpmath(neighbours):
    epsilon, sigma, sensitivity = (np.array(column, dtype=float) for column in zip(*PROFILE_POINTS))
    ours = discrete_gaussian_log_delta(epsilon, sigma, sensitivity.astype(int), neighbours)
    for (e, s, d), value in zip(PROFILE_POINTS, ours):
        reference = mp_log_delta(e, s, d, neighbours)
        if reference < -1e5:  # δ = e^{-1e5} and below: only "far below every target" matters
            assert value < -1e5
            continue
        assert abs(value - float(reference)) <= 1e-13 * (1.0 + abs(float(reference))), (e, s, d, value, reference)


@pytest.mark.parametrize("args", [(1.0, 1.0, 1), (0.3, 0.8, 2), (2.0, 1.5, 1), (0.0, 0.6, 1)])
def test_replace_closed_form_equals_the_brute_force_pair_sum(args):
    epsilon, sigma, sensitivity = args
    expected = brute_force_replace_delta(epsilon, sigma, sensitivity)
    assert discrete_gaussian_delta(epsilon, sigma, sensitivity, "replace") == pytest.approx(float(expected), rel=1e-13)


def test_theta_identity_behind_the_replace_form():
    # Σ_w P[W = w] = (θ₀² + θ₁²)/Z² = 1 (Jacobi's θ₃(q)² = θ₃(q²)² + θ₂(q²)²).
    for sigma in (0.3, 1.0, 4.0, 50.0):
        half = np.array([sigma / math.sqrt(2.0)])
        total = np.logaddexp(2 * dg._log_theta(half), 2 * dg._log_theta(half, 0.5)) - 2 * dg._log_theta(
            np.array([sigma])
        )
        assert abs(float(total[0])) < 1e-14


def test_both_branches_of_the_lattice_sum_agree_where_they_meet():
    # σ and ε chosen so that the window straddles the switch from direct sums to Euler–Maclaurin.
    sigma = np.geomspace(20.0, 200.0, 40)
    for epsilon in (1e-3, 0.05, 0.5):
        x0 = np.floor(epsilon * sigma * sigma - 0.5) + 1.0
        theta = x0 - (epsilon * sigma * sigma - 0.5)
        ones, c = np.ones_like(sigma), np.full_like(sigma, epsilon)
        direct = dg._log_lattice_sum_direct(x0, theta, sigma, ones / sigma**2, np.full_like(sigma, 20000.0))
        wide = dg._log_lattice_sum_euler_maclaurin(x0, theta, sigma, ones, c, ones / sigma**2)
        assert np.max(np.abs(direct - wide) / (1.0 + np.abs(direct))) < 1e-13


def test_profile_limits():
    assert discrete_gaussian_delta(1.0, np.inf) == 0.0
    assert discrete_gaussian_delta(1.0, 1e-200) == 1.0  # the point mass: outputs differ surely
    # Beyond 1e30 the lattice is invisible and the continuous profile is used.
    assert discrete_gaussian_log_delta(1e-31, 1e31) == gaussian_log_delta(1e-31, 1e31)
    assert discrete_gaussian_log_delta(1e-31, 1e31, 1, "replace") == gaussian_log_delta(1e-31, 1e31, math.sqrt(2.0))
    assert discrete_gaussian_log_delta(1e300, 1e8) == -np.inf


def test_delta_decreases_in_epsilon():
    epsilon = np.linspace(0.0, 5.0, 200)
    for neighbours in RELATIONS:
        values = discrete_gaussian_log_delta(epsilon, 1.3, 1, neighbours)
        assert np.all(np.diff(values) < 0.0)


def test_zcdp_bound_is_above_the_exact_profile():
    epsilon = np.geomspace(1e-2, 10.0, 30)
    for sigma in (0.7, 2.0, 9.0):
        assert np.all(
            discrete_gaussian_delta(epsilon, sigma, 1) <= discrete_gaussian_delta_zcdp_bound(epsilon, sigma, 1.0)
        )
        exact_replace = discrete_gaussian_delta(epsilon, sigma, 1, "replace")
        assert np.all(exact_replace <= discrete_gaussian_delta_zcdp_bound(epsilon, sigma, math.sqrt(2.0)))
    exact = discrete_gaussian_sigma(np.array([0.1, 1.0, 8.0]), 1e-6)
    assert np.all(discrete_gaussian_sigma_zcdp_bound(np.array([0.1, 1.0, 8.0]), 1e-6) > exact)


# --- Calibration against mpmath ---------------------------------------------------------------

GRID_EPSILONS = [1e-3, 1e-2, 0.1, 1.0, 10.0, 50.0]
GRID_DELTAS = [1e-300, 1e-100, 1e-20, 1e-8, 1e-3, 0.5]


@pytest.mark.parametrize("neighbours", RELATIONS)
@pytest.mark.parametrize("sensitivity", [1, 2, 5])
def test_sigma_is_a_root_of_the_mpmath_profile_within_1e9_and_never_unsafe(sensitivity, neighbours):
    epsilon, delta = (a.ravel() for a in np.meshgrid(GRID_EPSILONS, GRID_DELTAS))
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    for e, d, s in zip(epsilon, delta, sigma):
        target = mp.log(mp.mpf(d))
        # Never unsafe: the exact δ at the returned float σ is below the target...
        assert mp_log_delta(e, s, sensitivity, neighbours) <= target, (e, d, s)
        # ...and σ is within 1e-9 of a root: 1e-9 lower, the exact δ is above the target.
        assert mp_log_delta(e, mp.mpf(s) * (1 - mp.mpf(1e-9)), sensitivity, neighbours) > target, (e, d, s)


@functools.lru_cache(maxsize=None)
def mp_sigma(epsilon, delta, sensitivity, neighbours):
    """The root of the mpmath profile: bisection in log σ to 1e-12, from a bracket of ±0.3 around
    the continuous σ (bisection, because at small σ log δ(σ) rises by many units within a tiny
    interval each time a lattice point crosses the threshold)."""
    with mp.workdps(DPS):
        target = mp.log(mp.mpf(delta))
        scale = math.sqrt(2.0) if neighbours == "replace" else 1.0
        start = mp.log(analytic_gaussian_sigma(epsilon, delta, scale * sensitivity))

        def excess(t):
            return mp_log_delta(epsilon, mp.exp(t), sensitivity, neighbours) - target

        low, high = start - mp.mpf("0.3"), start + mp.mpf("0.3")
        assert excess(low) > 0 > excess(high)
        while high - low > mp.mpf(1e-12):
            middle = (low + high) / 2
            if excess(middle) > 0:
                low = middle
            else:
                high = middle
        return mp.exp(high)


@pytest.mark.parametrize(
    "epsilon, delta, sensitivity, neighbours",
    [
        (1e-3, 1e-300, 5, "add_remove"),
        (1e-3, 0.5, 1, "replace"),
        (0.3, 1e-10, 2, "add_remove"),
        (1.0, 1e-5, 1, "add_remove"),
        (1.0, 1e-5, 1, "replace"),
        (50.0, 1e-300, 1, "add_remove"),
        (10.0, 1e-20, 5, "replace"),
    ],
)
def test_sigma_matches_an_independent_mpmath_root(epsilon, delta, sensitivity, neighbours):
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    reference = mp_sigma(epsilon, delta, sensitivity, neighbours)  # within 1e-12 above the root
    assert -1e-12 <= (sigma - reference) / reference <= 1e-9
    assert mp_log_delta(epsilon, sigma, sensitivity, neighbours) <= mp.log(mp.mpf(delta))


@pytest.mark.parametrize(
    "epsilon, log_delta, sensitivity, neighbours",
    [
        (37.25, -435.5, 1, "replace"),
        (20.0, -230.0, 2, "add_remove"),
        (50.0, -690.0, 5, "add_remove"),
        (8.0, -100.0, 1, "replace"),
        (3.0, -40.0, 1, "add_remove"),
        (45.0, -12.0, 2, "replace"),
        (48.40210052513128, -690.0, 1, "add_remove"),
    ],  # the root found first sits on a crossing
)
def test_smallest_sigma_is_the_smallest_private_one_on_the_sawtooth(epsilon, log_delta, sensitivity, neighbours):
    # At large ε/Δ, log δ(σ) rises between lattice crossings and falls steeply at each: scan a fine
    # grid below the returned σ for any private point.
    sigma = discrete_gaussian_smallest_sigma(epsilon, math.exp(log_delta), sensitivity, neighbours).smallest_sigma
    grid = np.linspace(0.3 * sigma, sigma, 20_001)
    private = discrete_gaussian_log_delta(epsilon, grid, sensitivity, neighbours) <= log_delta
    assert private[-1]
    assert grid[np.argmax(private)] >= sigma * (1 - 1e-4)


def test_sigma_is_monotone_in_epsilon_across_the_sawtooth():
    epsilon = np.linspace(5.0, 50.0, 1500)
    for neighbours in RELATIONS:
        sigma = discrete_gaussian_sigma(epsilon, 1e-300, 1, neighbours)
        assert np.all(np.diff(sigma) <= sigma[1:] * 3e-12)


def test_sigma_shape_and_scalars():
    assert isinstance(discrete_gaussian_sigma(1.0, 1e-5), float)
    grid = discrete_gaussian_sigma(np.array([[0.5], [2.0]]), np.array([1e-6, 1e-3, 0.1]), 2)
    assert grid.shape == (2, 3)
    assert grid[0, 0] == discrete_gaussian_sigma(0.5, 1e-6, 2)


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(1e-3, 50.0),
    log_delta=st.floats(-690.0, math.log(0.5)),
    sensitivity=st.sampled_from([1, 2, 3, 5]),
    neighbours=st.sampled_from(RELATIONS),
)
def test_returned_sigma_meets_the_guarantee(epsilon, log_delta, sensitivity, neighbours):
    delta = math.exp(log_delta)
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    assert discrete_gaussian_log_delta(epsilon, sigma, sensitivity, neighbours) <= math.log(delta)
    assert discrete_gaussian_log_delta(epsilon, sigma * (1 - 1e-11), sensitivity, neighbours) > log_delta - 1e-9


@settings(max_examples=30, deadline=None)
@given(
    epsilon=st.floats(1e-3, 40.0),
    ratio=st.floats(1.001, 3.0),
    log_delta=st.floats(-500.0, math.log(0.4)),
    neighbours=st.sampled_from(RELATIONS),
)
def test_sigma_is_monotone_in_epsilon_and_delta(epsilon, ratio, log_delta, neighbours):
    delta = math.exp(log_delta)
    assume(delta * ratio < 0.5)  # the larger δ must be a δ too (δ = 0.4 × 3 is not)
    sigmas = discrete_gaussian_sigma(
        np.array([epsilon, epsilon * ratio, epsilon]), np.array([delta, delta, delta * ratio]), 1, neighbours
    )
    tolerance = 1 + 3e-12  # each σ is within 1e-12 of its root
    assert sigmas[1] <= sigmas[0] * tolerance
    assert sigmas[2] <= sigmas[0] * tolerance


# --- Distribution: pmf, variance, tails, loss ----------------------------------------------------


@pytest.mark.parametrize("sigma", [1e-3, 0.2, 0.9, 1.0, 2.5, 17.0, 300.0])
def test_pmf_sums_to_one_and_matches_mpmath(sigma):
    top = int(40 * sigma) + 5
    grid = np.arange(-top, top + 1)
    pmf = discrete_gaussian_pmf(grid, sigma)
    assert math.fsum(pmf) == pytest.approx(1.0, abs=1e-14)
    with mp.workdps(30):
        log_z = mp_log_normaliser(sigma)
        for x in (0, 1, 3, top // 2):
            expected = -(mp.mpf(x) ** 2) / (2 * mp.mpf(sigma) ** 2) - log_z
            assert discrete_gaussian_log_pmf(x, sigma) == pytest.approx(float(expected), rel=1e-14, abs=1e-15)
    assert discrete_gaussian_log_normaliser(sigma) == pytest.approx(
        float(mp_log_normaliser(sigma)), rel=1e-14, abs=1e-16
    )
    assert discrete_gaussian_pmf(0.5, sigma) == 0.0


def mp_moment(sigma, order):
    with mp.workdps(40):
        s = mp.mpf(sigma)
        top = int(60 * sigma) + 10
        weights = [(mp.mpf(y), mp.exp(-(mp.mpf(y) ** 2) / (2 * s * s))) for y in range(-top, top + 1)]
        return mp.fsum(w * y**order for y, w in weights) / mp.fsum(w for _, w in weights)


@pytest.mark.parametrize("sigma", [0.05, 0.3, 0.7, 1.0, 1.2, 1.4, 3.0, 60.0])
def test_variance_is_exact_and_below_sigma_squared(sigma):
    variance = discrete_gaussian_variance(sigma)
    assert variance == pytest.approx(float(mp_moment(sigma, 2)), rel=1e-14)
    assert variance <= sigma * sigma
    if sigma <= 1.4:  # where the deficit is resolvable in float64
        assert variance < sigma * sigma
    assert discrete_gaussian_expected_loss(sigma, 7) == pytest.approx(7 * variance, rel=1e-15)


def test_variance_vectorizes():
    sigma = np.array([0.5, 1.0, 2.0])
    np.testing.assert_array_equal(discrete_gaussian_variance(sigma), [discrete_gaussian_variance(s) for s in sigma])
    assert discrete_gaussian_expected_loss(sigma, np.array([1, 2, 3])).shape == (3,)


@pytest.mark.parametrize("sigma", [0.4, 1.0, 6.0, 800.0])
def test_tails_are_the_exact_sums(sigma):
    with mp.workdps(40):
        s = mp.mpf(sigma)
        log_z = mp_log_normaliser(sigma)
        for t in (0.0, 0.5, 1.0, 2.0, 3 * sigma, 20 * sigma):
            first = math.floor(t) + 1
            one_side = mp_gaussian_sum(s, first, 0, -mp.inf, 1)
            expected = mp.log(2 * one_side) - log_z
            assert discrete_gaussian_log_tail(t, sigma) == pytest.approx(float(expected), rel=1e-13, abs=1e-15)
            inclusive_first = math.ceil(t) if t > 0 else 0
            if inclusive_first >= 1:
                inclusive = mp.log(2 * mp_gaussian_sum(s, inclusive_first, 0, -mp.inf, 1)) - log_z
                assert discrete_gaussian_log_tail(t, sigma, inclusive=True) == pytest.approx(
                    float(inclusive), rel=1e-13
                )
    assert discrete_gaussian_tail(-1.0, sigma) == 1.0
    assert discrete_gaussian_tail(0.0, sigma, inclusive=True) == 1.0
    assert discrete_gaussian_tail(np.inf, sigma) == 0.0


def test_tail_is_one_minus_the_pmf_mass_inside():
    grid = np.arange(-200, 201)
    for sigma in (0.7, 3.0):
        pmf = discrete_gaussian_pmf(grid, sigma)
        for t in (0, 1, 4):
            inside = math.fsum(pmf[np.abs(grid) <= t])
            assert discrete_gaussian_tail(t, sigma) == pytest.approx(1.0 - inside, rel=1e-12)


def test_norm_tail_matches_brute_force():
    grid = np.arange(-12, 13)
    pmf = discrete_gaussian_pmf(grid, 1.0)
    squares = grid[:, None, None] ** 2 + grid[None, :, None] ** 2 + grid[None, None, :] ** 2
    joint = pmf[:, None, None] * pmf[None, :, None] * pmf[None, None, :]
    for t in (0.0, 1.0, 2.0, 3.5):
        assert discrete_gaussian_norm_tail(t, 1.0, 3) == pytest.approx(float(joint[squares > t * t].sum()), rel=1e-12)
    assert discrete_gaussian_norm_tail(2.0, 1.5, 1) == discrete_gaussian_tail(2.0, 1.5)
    assert not dg.discrete_gaussian_norm_tail_is_exact(50.0, 10)
    assert dg.discrete_gaussian_norm_tail_is_exact(50.0, 1)
    with pytest.raises(ValueError, match="Monte Carlo"):
        discrete_gaussian_norm_tail(1.0, 50.0, 10)


def test_loss_summary_exact_moments_and_quantiles():
    sigma, dim = 0.8, 3
    summary = discrete_gaussian_loss_summary(sigma, dim, quantile_levels=(0.1, 0.9))
    m2, m4, m6 = (mp_moment(sigma, k) for k in (2, 4, 6))
    variance = m4 - m2**2
    third = m6 - 3 * m4 * m2 + 2 * m2**3
    assert summary.exact
    assert summary.mean == pytest.approx(dim * float(m2), rel=1e-13)
    assert summary.std == pytest.approx(math.sqrt(dim * float(variance)), rel=1e-12)
    assert summary.skewness == pytest.approx(float(third / variance**1.5) / math.sqrt(dim), rel=1e-10)
    # Quantiles of the integer loss from its exact cdf (brute force over the 3-d lattice).
    grid = np.arange(-10, 11)
    pmf = discrete_gaussian_pmf(grid, sigma)
    losses = (grid[:, None, None] ** 2 + grid[None, :, None] ** 2 + grid[None, None, :] ** 2).ravel()
    weights = (pmf[:, None, None] * pmf[None, :, None] * pmf[None, None, :]).ravel()
    order = np.argsort(losses, kind="stable")
    cdf = np.cumsum(weights[order])
    for level in (0.1, 0.9):
        assert summary.quantiles[level] == losses[order][np.searchsorted(cdf, level)]


def test_loss_summary_beyond_the_exact_support():
    # Past the exact support at small d: exact on a window holding all but 1e-18 of the loss ...
    windowed = discrete_gaussian_loss_summary(30.0, 20)
    assert windowed.exact and "window" in windowed.method
    assert windowed.median == pytest.approx(900.0 * stats.chi2.median(20), rel=0.02)
    # ... and Monte Carlo where that window is longer than 2^18 values.
    monte_carlo = discrete_gaussian_loss_summary(100.0, 20)
    assert not monte_carlo.exact and "Monte Carlo" in monte_carlo.method
    assert monte_carlo.median == pytest.approx(1e4 * stats.chi2.median(20), rel=0.02)
    cornish_fisher = discrete_gaussian_loss_summary(30.0, 500)
    assert "Cornish-Fisher" in cornish_fisher.method
    assert cornish_fisher.median == pytest.approx(900.0 * stats.chi2.median(500), rel=1e-3)
    # Large σ: the loss is σ² χ²_d to float precision.
    assert cornish_fisher.skewness == pytest.approx(math.sqrt(8.0 / 500), rel=1e-12)


# --- Samplers ---------------------------------------------------------------------------------


def chi_square_p_value(draws, sigma):
    """Pearson's test of draws against the pmf: one bin per value with expected count >= 20,
    and the two tails beyond as one bin each (P(X > m) = P(|X| > m)/2 by symmetry)."""
    n = draws.size
    top = int(12 * sigma) + 5
    values = np.arange(0, top + 1)
    high = int(values[n * discrete_gaussian_pmf(values, sigma) >= 20].max())
    inside = np.arange(-high, high + 1)
    observed = np.concatenate([[np.sum(draws < -high)], [np.sum(draws == v) for v in inside], [np.sum(draws > high)]])
    half_tail = discrete_gaussian_tail(high, sigma) / 2
    expected = n * np.concatenate([[half_tail], discrete_gaussian_pmf(inside, sigma), [half_tail]])
    return stats.chisquare(observed, expected * n / expected.sum()).pvalue


def test_float_sampler_matches_the_pmf():
    rng = np.random.default_rng(20201)
    for sigma in (0.6, 2.5, 11.0):
        draws = discrete_gaussian_sample(rng, 100_000, sigma)
        assert draws.dtype == np.int64
        assert chi_square_p_value(draws, sigma) > 1e-3
    assert discrete_gaussian_sample(rng, (4, 3), 1.0).shape == (4, 3)


def test_exact_sampler_matches_the_pmf_on_1e5_draws():
    sigma_squared = Fraction(25, 4)  # σ = 2.5
    draws = discrete_gaussian_exact_sample(sigma_squared, size=100_000, rng=20200)
    assert draws.dtype == np.int64
    assert chi_square_p_value(draws, 2.5) > 1e-3
    # CLT check of the variance against the exact one (Var of X² from the exact moments).
    variance = discrete_gaussian_variance(2.5)
    spread = math.sqrt((float(mp_moment(2.5, 4)) - variance**2) / draws.size)
    assert abs(np.mean(draws.astype(float) ** 2) - variance) < 5 * spread


@pytest.mark.parametrize("sigma_squared", [Fraction(1, 9), 3, Fraction(1001, 7), 1e4])
def test_exact_sampler_moments_across_scales(sigma_squared):
    sigma = math.sqrt(float(sigma_squared))
    draws = discrete_gaussian_exact_sample(sigma_squared, size=4000, rng=5).astype(float)
    variance = discrete_gaussian_variance(sigma)
    assert abs(draws.mean()) < 5 * math.sqrt(variance / draws.size) + 1e-12
    spread = (
        math.sqrt((float(mp_moment(sigma, 4)) - variance**2) / draws.size)
        if sigma < 20
        else variance * math.sqrt(2 / draws.size)
    )
    assert abs(np.mean(draws**2) - variance) < 5 * spread


@pytest.mark.parametrize("delta", [1e-5, 0.5, 0.99, 1 - 1e-6, 1 - 1e-14])
def test_sigma_meets_its_stated_margin_against_mpmath(delta):
    """The Returns section's claim, checked with the exact lattice sums: log δ at σ is below the
    target, and at σ (1 − 1e-12) above the target minus the stated margin 1e-12 (1 + |log δ_target|)
    (plus the evaluator's error, a tenth of it). The old claim, "a σ 1e-12 lower was evaluated above
    the target", fails as δ → 1: at δ = 1 − 1e-14 a σ 5% lower is still private."""
    text = " ".join(discrete_gaussian_sigma.__doc__.split())
    assert "above ``log δ_target`` minus that margin" in text and "``1e-12 (1 + |log δ_target|)``" in text
    sigma = discrete_gaussian_sigma(1.0, delta)
    target = math.log(delta)
    margin = 1e-12 * (1 + abs(target))
    assert float(mp_log_delta(1.0, sigma)) <= target
    assert float(mp_log_delta(1.0, sigma * (1 - 1e-12))) > target - 1.1 * margin
    if delta == 1 - 1e-14:  # the stated example: room to spare, 1 − δ ≈ 1e-12
        assert float(-mp.expm1(mp_log_delta(1.0, sigma))) == pytest.approx(1e-12, rel=0.05)
        assert float(mp_log_delta(1.0, 0.95 * sigma)) <= target


@pytest.mark.parametrize("sigma", [1.9e31, 1.9e32])
@pytest.mark.parametrize("neighbours", ["add_remove", "replace"])
def test_log_delta_far_out_in_sigma_is_the_gaussian_tail(neighbours, sigma):
    """σ ≈ 1e31 at ε = 2.99 (the continuous regime): log δ ≈ −(εσ/Δ')²/2, not 0 (the Gaussian
    evaluator's slope cancelled, and its upward raise was capped at 0 at σ = 1.9e31, replace)."""
    scale = math.sqrt(2.0) if neighbours == "replace" else 1.0
    expected = -0.5 * (2.99 * sigma / scale) ** 2
    assert discrete_gaussian_log_delta(2.99, sigma, neighbours=neighbours) == pytest.approx(expected, rel=2e-14)


NUMPY_BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64]


@pytest.mark.parametrize("bit_generator", NUMPY_BIT_GENERATORS, ids=lambda b: b.__name__)
def test_exact_sampler_takes_uniform_64_bit_words_from_every_numpy_bit_generator(bit_generator):
    """MT19937's raw words are 32-bit: taking the top bits of a 64-bit word gave 0 every time, and
    the sampler hung. Every bit generator must feed 64 uniform bits per word: each of the 64 bit
    positions is set in about half of 4096 words (binomial, 6 standard deviations), and the draws
    follow the pmf."""
    bits = dg._RandomBits(np.random.Generator(bit_generator(1)))
    words = [bits._word() for _ in range(4096)]
    for position in range(64):
        ones = sum((word >> position) & 1 for word in words)
        assert abs(ones - 2048) < 6 * 32, (bit_generator.__name__, position, ones)
    draws = discrete_gaussian_exact_sample(Fraction(25, 4), size=20_000, rng=np.random.Generator(bit_generator(1)))
    assert chi_square_p_value(draws, 2.5) > 1e-4


def test_exact_bernoulli_and_laplace_components():
    bits = dg._RandomBits(np.random.default_rng(3))
    n = 40_000
    for numerator, denominator in ((1, 3), (5, 2), (0, 1), (7, 7)):
        hits = sum(dg._bernoulli_exp_minus_fraction(bits, numerator, denominator) for _ in range(n))
        p = math.exp(-numerator / denominator)
        assert abs(hits / n - p) < 5 * math.sqrt(p * (1 - p) / n) + 1e-12
    draws = np.array([dg._discrete_laplace(bits, 3) for _ in range(n)])
    values = np.arange(-6, 7)
    expected = np.exp(-np.abs(values) / 3) * (1 - math.exp(-1 / 3)) / (1 + math.exp(-1 / 3))
    observed = np.array([np.mean(draws == v) for v in values])
    assert np.all(np.abs(observed - expected) < 5 * np.sqrt(expected / n))


def test_exact_sampler_seeding_and_sources():
    first = discrete_gaussian_exact_sample(Fraction(9, 4), size=50, rng=11)
    again = discrete_gaussian_exact_sample(Fraction(9, 4), size=50, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, discrete_gaussian_exact_sample(Fraction(9, 4), size=50, rng=12))
    assert isinstance(discrete_gaussian_exact_sample(2, rng=random.SystemRandom()), int)
    assert discrete_gaussian_exact_sample(2.25, size=(2, 3), rng=1).shape == (2, 3)
    # A float σ² is taken at its exact binary value: 2.25 is 9/4 exactly.
    np.testing.assert_array_equal(
        discrete_gaussian_exact_sample(2.25, size=20, rng=4),
        discrete_gaussian_exact_sample(Fraction(9, 4), size=20, rng=4),
    )


# --- Validation and warnings ----------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: discrete_gaussian_sigma(-1.0, 1e-5), ValueError, "epsilon"),
        (lambda: discrete_gaussian_sigma(1.0, 0.0), ValueError, "delta"),
        (lambda: discrete_gaussian_sigma(1.0, 1.0), ValueError, "delta"),
        (lambda: discrete_gaussian_sigma(1.0, 1e-5, 1.5), ValueError, "sensitivity must be a whole number"),
        (lambda: discrete_gaussian_sigma(1.0, 1e-5, 0), ValueError, "sensitivity"),
        (lambda: discrete_gaussian_sigma(1.0, 1e-5, neighbours="swap"), ValueError, "neighbours"),
        (lambda: discrete_gaussian_sigma(1.0, 1e-5, neighbours=1), TypeError, "neighbours"),
        (lambda: discrete_gaussian_sigma("1", 1e-5), TypeError, "epsilon"),
        (lambda: discrete_gaussian_delta(1.0, 0.0), ValueError, "sigma"),
        (lambda: discrete_gaussian_delta(1.0, [1.0, np.nan]), ValueError, "index 1"),
        (lambda: discrete_gaussian_delta(1.0, 1.0, True), TypeError, "sensitivity"),
        (lambda: discrete_gaussian_pmf(0, -1.0), ValueError, "sigma"),
        (lambda: discrete_gaussian_tail(1.0, 1.0, inclusive="yes"), TypeError, "inclusive"),
        (lambda: discrete_gaussian_expected_loss(1.0, 0), ValueError, "dim"),
        (lambda: discrete_gaussian_sample(0, 5, 1.0), TypeError, "rng"),
        (lambda: discrete_gaussian_sample(np.random.default_rng(), 5, 1e16), ValueError, "sigma"),
        (lambda: discrete_gaussian_exact_sample(0), ValueError, "sigma_squared"),
        (lambda: discrete_gaussian_exact_sample("1"), TypeError, "sigma_squared"),
        (lambda: discrete_gaussian_exact_sample(1, rng="seed"), TypeError, "rng"),
        (lambda: discrete_gaussian_loss_summary(1.0, 2, quantile_levels=(0.0,)), ValueError, "quantile_levels"),
    ],
)
def test_bad_parameters_raise_with_the_parameter_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_no_runtime_warning_at_extreme_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for neighbours in RELATIONS:
            values = discrete_gaussian_log_delta(
                np.array([0.0, 1e-300, 1.0, 1e3, 1e300])[:, None],
                np.array([1e-300, 1e-3, 1.0, 1e8, 1e29, 1e31, 1e300, np.inf]),
                np.array([1, 7, 2**40])[:, None, None],
                neighbours,
            )
            assert np.all(values <= 0.0)
            sigma = discrete_gaussian_sigma(
                np.array([0.0, 1e-6, 1e6]), np.array([2.3e-308, 0.999999])[:, None], 3, neighbours
            )
            assert np.all(sigma > 0)
        discrete_gaussian_log_tail(np.array([-np.inf, 0.0, 1e300, np.inf]), np.array([1e-300, 1e300])[:, None])
        discrete_gaussian_log_pmf(np.array([-np.inf, 0.0, 1e300]), np.array([1e-300, 1e300])[:, None])
        for sigma in (1e-300, 1e150, 1e300):
            discrete_gaussian_variance(sigma)
            discrete_gaussian_loss_summary(sigma, 3)


def test_exported_from_the_package():
    for name in dg.__all__:
        assert getattr(gaussmech_core, name) is getattr(dg, name)


# --- The entry's cheap validity check (gaussmech_core.mechanisms._discrete_noise_is_visible) --------


@pytest.mark.parametrize("sensitivity", [1, 2, 5])
@pytest.mark.parametrize("delta", [1e-300, 1e-20, 1e-5, 0.1, 0.45])
def test_sigma_never_below_the_proved_floor(delta, sensitivity):
    """Every σ ≤ Δ/√(2(ε + ln 2)) fails (ε, δ) when δ < ½(1 − q)/(1 + q): the exact σ lies above it."""
    from gaussmech_core.mechanisms import _discrete_noise_is_visible

    for epsilon in np.logspace(1, 3, 15) * sensitivity:
        floor = sensitivity / math.sqrt(2.0 * (epsilon + math.log(2.0)))
        q = math.exp(-(epsilon + math.log(2.0)) / sensitivity**2)
        if not delta < 0.5 * (1.0 - q) / (1.0 + q):
            continue
        sigma = float(discrete_gaussian_sigma(epsilon, delta, sensitivity))
        assert sigma > floor
        # At the floor itself the profile is above δ, as the proof says.
        assert discrete_gaussian_delta(epsilon, floor, sensitivity) > delta
        if _discrete_noise_is_visible(epsilon, delta, sensitivity):
            assert float(dg.discrete_gaussian_variance(sigma)) > 0.0


def test_cheap_validity_agrees_with_the_root_search():
    """The shortcut decides without a root search where it can, and never contradicts one."""
    from dataclasses import replace

    from gaussmech_core.mechanisms import MECHANISMS, _discrete_noise_is_visible
    from gaussmech_core.registry_types import Setting

    entry = MECHANISMS["discrete_gaussian"]
    for epsilon in (10.0, 50.0, 300.0, 700.0, 745.0, 760.0, 800.0, 1000.0, 5000.0):
        for delta in (1e-300, 1e-5, 0.3, 0.6):
            setting = replace(Setting(epsilon=1.0, delta=1e-5), epsilon=epsilon, delta=delta)
            sigma = float(discrete_gaussian_sigma(epsilon, delta))
            exact_visible = float(dg.discrete_gaussian_variance(sigma)) > 0.0
            assert entry.validity(setting).valid == exact_visible
            shortcut = _discrete_noise_is_visible(epsilon, delta, 1.0)
            assert not shortcut or exact_visible
            if epsilon <= 300.0 and delta <= 0.3:  # where the page's sweeps spend their points
                assert shortcut
    # The safe σ can have visible noise where the smallest private σ has none: at ε = 800,
    # δ = 1e-300 the smallest private σ (0.025) is the point mass in float64, but σ up to 0.056
    # are not private, so the entry is valid there.
    assert entry.validity(replace(Setting(epsilon=1.0, delta=1e-5), epsilon=800.0, delta=1e-300)).valid
