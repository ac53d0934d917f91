"""Composition of Gaussian releases: exact (GDP), zCDP, advanced, naive and optimal bounds."""

from __future__ import annotations

import doctest
import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_core.accounting as accounting
from gaussmech_core.accounting import (
    ROUTES,
    advanced_composition_epsilon,
    composed_gaussian_delta,
    composed_gaussian_epsilon,
    composed_gaussian_sigma,
    naive_composition,
    optimal_composition_delta,
    per_release_sigma,
    zcdp_composed_epsilon,
    zcdp_composed_sigma,
)
from gaussmech_core.gaussian import (
    analytic_gaussian_sigma,
    gaussian_delta,
    gaussian_epsilon,
    zcdp_bun_steinke_sigma,
    zcdp_cks_sigma,
    zcdp_rho,
    zcdp_to_epsilon_bun_steinke,
    zcdp_to_epsilon_cks,
)

DPS = 60


def mp_composed_delta(epsilon, sigma, sensitivity, k):
    """δ(ε) of the k-fold composition from its privacy loss, a sum of k i.i.d. N(η, 2η): N(kη, 2kη).

    Theorem 5 of Balle & Wang applied to the summed loss (independent of the GDP formula):
    δ = P[L ≥ ε] − e^ε P[L' ≤ −ε] with L, L' ~ N(kη, 2kη).
    """
    with mp.workdps(DPS):
        eta = mp.mpf(k) * mp.mpf(sensitivity) ** 2 / (2 * mp.mpf(sigma) ** 2)
        e = mp.mpf(epsilon)
        spread = mp.sqrt(2 * eta)
        return mp.ncdf((eta - e) / spread) - mp.exp(e) * mp.ncdf((-eta - e) / spread)


def test_doctests_pass():
    result = doctest.testmod(accounting)
    assert result.attempted >= 9
    assert result.failed == 0


# --- Exact composition ----------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 7, 100, 10_000])
@pytest.mark.parametrize(
    "epsilon, sigma, sensitivity", [(0.5, 3.0, 1.0), (1.0, 30.0, 2.0), (5.0, 2.0, 0.1), (0.0, 10.0, 1.0)]
)
def test_composed_delta_matches_the_summed_privacy_loss(epsilon, sigma, sensitivity, k):
    expected = float(mp_composed_delta(epsilon, sigma, sensitivity, k))
    reported = composed_gaussian_delta(epsilon, sigma, sensitivity, k)
    # Never below the exact δ; above it by at most the evaluator's upward report margin
    # (4e-15 (1 + |log δ|) in log δ, issue 20 item 6: 1.4e-12 relative at δ ≈ 2.7e-53).
    assert reported >= expected
    assert reported == pytest.approx(expected, rel=2e-12, abs=1e-300)


@pytest.mark.parametrize("epsilon, delta", [(0.1, 1e-5), (1.0, 1e-10), (3.0, 1e-300), (0.0, 1e-3)])
def test_k_equal_one_is_a_single_release(epsilon, delta):
    sigma = analytic_gaussian_sigma(epsilon, delta, 2.0)
    assert composed_gaussian_sigma(epsilon, delta, 2.0, 1) == sigma
    assert per_release_sigma(epsilon, delta, 2.0, 1, "exact") == sigma
    assert composed_gaussian_delta(epsilon, sigma, 2.0, 1) == gaussian_delta(epsilon, sigma, 2.0)
    assert composed_gaussian_epsilon(delta, sigma, 2.0, 1) == gaussian_epsilon(delta, sigma, 2.0)
    if epsilon > 0:
        assert zcdp_composed_sigma(epsilon, delta, 2.0, 1) == zcdp_cks_sigma(epsilon, delta, 2.0)
        assert zcdp_composed_sigma(epsilon, delta, 2.0, 1, "bun_steinke") == zcdp_bun_steinke_sigma(epsilon, delta, 2.0)
        rho = zcdp_rho(sigma, 2.0)
        assert zcdp_composed_epsilon(delta, sigma, 2.0, 1) == zcdp_to_epsilon_cks(rho, delta)
        assert zcdp_composed_epsilon(delta, sigma, 2.0, 1, "bun_steinke") == zcdp_to_epsilon_bun_steinke(rho, delta)
        assert naive_composition(epsilon, delta, 1) == (epsilon, delta)
        assert per_release_sigma(epsilon, delta, 2.0, 1, "naive") == sigma


@settings(max_examples=60, deadline=None)
@given(
    st.floats(min_value=1e-3, max_value=100.0),
    st.floats(min_value=-300.0, max_value=-1.0),
    st.integers(min_value=1, max_value=10_000),
)
def test_composed_sigma_is_sqrt_k_times_single_and_exactly_private(epsilon, log10_delta, k):
    delta = 10.0**log10_delta
    sigma = composed_gaussian_sigma(epsilon, delta, 1.0, k)
    assert sigma == pytest.approx(math.sqrt(k) * analytic_gaussian_sigma(epsilon, delta), rel=1e-12)
    assert mp_composed_delta(epsilon, sigma, 1.0, k) <= delta
    assert composed_gaussian_delta(epsilon, sigma, 1.0, k) <= delta
    assert composed_gaussian_epsilon(delta, sigma, 1.0, k) == pytest.approx(epsilon, rel=1e-8)


# --- Routes to a per-release σ ----------------------------------------------------------------

ROUTE_SETTINGS = [(e, d, k) for e in (0.1, 1.0, 10.0) for d in (1e-10, 1e-5) for k in (1, 2, 10, 100, 10_000)]


@pytest.mark.parametrize("epsilon, delta, k", ROUTE_SETTINGS)
def test_every_route_is_private_and_exact_is_never_worse(epsilon, delta, k):
    sigmas = {route: per_release_sigma(epsilon, delta, 1.5, k, route) for route in ROUTES}
    for route, sigma in sigmas.items():
        # the exact δ of the k-fold composition at the route's σ is within the total budget
        assert mp_composed_delta(epsilon, sigma, 1.5, k) <= delta, route
        assert sigma >= sigmas["exact"], route
    # zCDP via CKS is tighter than via Bun–Steinke
    assert sigmas["zcdp_cks"] <= sigmas["zcdp_bun_steinke"]


def test_advanced_route_uses_the_largest_valid_step_epsilon():
    epsilon, delta, k = 2.0, 1e-6, 50
    step = accounting._advanced_step_epsilon(np.array([epsilon]), k, np.array([-math.log(delta / 2)]))[0]
    total, _ = advanced_composition_epsilon(step, delta / (2 * k), k, delta / 2)
    assert total <= epsilon
    assert advanced_composition_epsilon(step * (1 + 1e-12), delta / (2 * k), k, delta / 2)[0] > epsilon
    assert per_release_sigma(epsilon, delta, 1.0, k, "advanced") == analytic_gaussian_sigma(step, delta / (2 * k))


def test_routes_broadcast():
    sigma = per_release_sigma(np.array([0.5, 1.0, 2.0]), 1e-5, 1.0, 10, "advanced")
    assert sigma.shape == (3,)
    assert np.all(np.diff(sigma) < 0)
    assert per_release_sigma(np.array([[0.5], [1.0]]), np.array([1e-5, 1e-6]), 1.0, 4, "naive").shape == (2, 2)


# --- Advanced, naive and optimal composition ---------------------------------------------------


@pytest.mark.parametrize(
    "epsilon, delta, k, slack",
    [(0.1, 1e-6, 100, 1e-6), (1.0, 0.0, 10, 1e-5), (0.01, 1e-9, 10_000, 1e-3), (0.0, 0.0, 5, 0.5)],
)
def test_advanced_composition_formula(epsilon, delta, k, slack):
    total_epsilon, total_delta = advanced_composition_epsilon(epsilon, delta, k, slack)
    with mp.workdps(40):
        e = mp.mpf(epsilon)
        expected = mp.sqrt(2 * k * mp.log(1 / mp.mpf(slack))) * e + k * e * (mp.exp(e) - 1)
    assert total_epsilon >= float(expected)
    assert total_epsilon == pytest.approx(float(expected), rel=1e-14, abs=1e-300)
    assert total_delta >= k * delta + slack
    assert total_delta == pytest.approx(k * delta + slack, rel=1e-14)


def test_advanced_composition_overflow_is_inf_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        total, _ = advanced_composition_epsilon(np.array([700.0, 800.0, 1e300]), 0.0, 10, 1e-5)
    assert total[0] < np.inf
    assert total[1] == total[2] == np.inf


def test_naive_composition():
    assert naive_composition(np.array([0.1, 0.2]), 1e-6, 10)[0].tolist() == pytest.approx([1.0, 2.0])
    assert naive_composition(0.5, 1e-6, 4) == (2.0, 4e-6)


def mp_randomized_response_delta(epsilon, k, total_epsilon):
    """Hockey-stick divergence of k i.i.d. ε-randomized responses, by brute force over the count."""
    with mp.workdps(50):
        e, g = mp.mpf(epsilon), mp.mpf(total_epsilon)
        p = mp.exp(e) / (1 + mp.exp(e))
        return sum(
            mp.binomial(k, j) * p**j * (1 - p) ** (k - j) * max(0, 1 - mp.exp(g - (2 * j - k) * e))
            for j in range(k + 1)
        )


@pytest.mark.parametrize(
    "epsilon, k, total_epsilon",
    [(0.1, 100, 3.0), (1.0, 1, 0.5), (1.0, 1, 1.5), (0.5, 20, 2.0), (2.0, 5, 0.0), (0.3, 40, 12.0)],
)
def test_optimal_composition_pure_part_is_the_randomized_response_profile(epsilon, k, total_epsilon):
    expected = mp_randomized_response_delta(epsilon, k, total_epsilon)
    value = optimal_composition_delta(epsilon, 0.0, k, total_epsilon)
    assert value >= float(expected) * (1 - 1e-15)
    assert value == pytest.approx(float(expected), rel=1e-12, abs=1e-300)


def test_optimal_composition_with_delta():
    # k = 1: δ_g = δ + (1 − δ) max(0, e^ε − e^{ε_g})/(1 + e^ε)
    value = optimal_composition_delta(1.0, 0.01, 1, 0.5)
    assert value == pytest.approx(0.01 + 0.99 * (math.e - math.exp(0.5)) / (1 + math.e), rel=1e-13)
    assert optimal_composition_delta(1.0, 0.01, 1, 1.0) == pytest.approx(0.01, rel=1e-14)
    # never looser than advanced composition at advanced composition's own (ε_g, δ_g)
    for epsilon, delta, k in [(0.1, 1e-6, 100), (0.05, 1e-8, 1000), (0.5, 0.0, 30)]:
        total_epsilon, total_delta = advanced_composition_epsilon(epsilon, delta, k, 1e-6)
        assert optimal_composition_delta(epsilon, delta, k, total_epsilon) <= total_delta
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = optimal_composition_delta(np.array([0.01, 1.0, 700.0]), 1e-9, 10_000, 20.0)
    assert np.all((big >= 0) & (big <= 1))


# --- Bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: composed_gaussian_delta(1.0, 1.0, 1.0, 0), ValueError, "k must be"),
        (lambda: composed_gaussian_delta(1.0, 1.0, 1.0, 1.5), ValueError, "whole number"),
        (lambda: composed_gaussian_delta(1.0, 1.0, 1.0, "3"), TypeError, "k must be"),
        (lambda: composed_gaussian_delta(1.0, 1.0, 1.0, True), TypeError, "k must be"),
        (lambda: composed_gaussian_sigma(1.0, 1e-5, -1.0, 2), ValueError, "sensitivity"),
        (lambda: composed_gaussian_sigma(np.array([1.0, np.nan]), 1e-5, 1.0, 2), ValueError, "index 1"),
        (lambda: zcdp_composed_epsilon(1e-5, 1.0, 1.0, 2, "renyi"), ValueError, "conversion"),
        (lambda: zcdp_composed_sigma(0.0, 1e-5, 1.0, 2), ValueError, "zero_epsilon_gaussian_sigma"),
        (lambda: per_release_sigma(1.0, 1e-5, 1.0, 2, "magic"), ValueError, "route"),
        (lambda: per_release_sigma(1.0, 1.0, 1.0, 2, "advanced"), ValueError, "total_delta"),
        (lambda: per_release_sigma(-1.0, 1e-5, 1.0, 2, "naive"), ValueError, "total_epsilon"),
        (lambda: advanced_composition_epsilon(1.0, 1e-5, 3, 0.0), ValueError, "delta_slack"),
        (lambda: advanced_composition_epsilon(1.0, 1.0, 3, 1e-5), ValueError, "delta"),
        (lambda: advanced_composition_epsilon(np.array([1.0, -1.0]), 0.0, 3, 1e-5), ValueError, "index 1"),
        (lambda: naive_composition(1.0, 1e-5, 0), ValueError, "k must be"),
        (lambda: optimal_composition_delta(800.0, 0.0, 3, 1.0), ValueError, "epsilon"),
    ],
)
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_large_k_and_extremes_give_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for route in ROUTES:
            sigma = per_release_sigma(np.array([1e-3, 1.0, 1e3]), np.array([[1e-300], [0.5]]), 1.0, 10_000, route)
            assert np.all(np.isfinite(sigma)) and np.all(sigma > 0)
        assert composed_gaussian_delta(0.0, 1.0, 0.0, 10_000) == 0.0
        assert composed_gaussian_sigma(1.0, 1e-5, 0.0, 10_000) == 0.0


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------


@pytest.mark.parametrize("conversion", ["cks", "bun_steinke"])
@pytest.mark.parametrize(("sigma", "sensitivity"), [(1e-300, 1.0), (5e-324, 1.0), (2.0, 1e300)])
def test_zcdp_composed_epsilon_is_inf_where_rho_total_overflows(sigma, sensitivity, conversion):
    # ρ_total = kΔ²/(2σ²) beyond 1.8e308, and ε > ρ for both conversions: inf, not a ValueError about rho
    assert accounting.zcdp_composed_epsilon(1e-5, sigma, sensitivity, k=4, conversion=conversion) == math.inf


def test_composition_where_root_k_sensitivity_overflows_keeps_mu():
    # √k Δ = 3.2e308 does not fit a double, but μ = √k Δ/σ = √10 does: the answers at that μ
    sigma, sensitivity, k = 1e308, 1e305, 10**7
    mu = float(mp.sqrt(k) * mp.mpf(sensitivity) / mp.mpf(sigma))
    exact_epsilon = gaussian_epsilon(1e-5, 1.0, mu)
    epsilon = accounting.composed_gaussian_epsilon(1e-5, sigma, sensitivity, k)
    assert exact_epsilon * (1.0 - 1e-14) <= epsilon <= exact_epsilon * (1.0 + 1e-12)
    exact_delta = gaussian_delta(1.0, 1.0, mu)
    delta = accounting.composed_gaussian_delta(1.0, sigma, sensitivity, k)
    assert exact_delta * (1.0 - 1e-14) <= delta <= exact_delta * (1.0 + 1e-12)


def test_composed_sigma_where_root_k_sensitivity_overflows_is_root_k_times_the_single_sigma():
    single = analytic_gaussian_sigma(1000.0, 1e-5, 1e306)
    sigma = accounting.composed_gaussian_sigma(1000.0, 1e-5, 1e306, k=10**6)
    assert math.isfinite(sigma) and 1000.0 * single <= sigma <= 1000.0 * single * (1.0 + 1e-15)


@pytest.mark.parametrize("route", ["exact", "zcdp_cks", "naive"])
def test_per_release_sigma_names_its_own_parameters(route):
    with pytest.raises(ValueError, match=r"^total_epsilon must .*got total_epsilon=-1\.0"):
        accounting.per_release_sigma(-1.0, 1e-5, 1.0, 4, route)
    with pytest.raises(ValueError, match=r"^total_delta must .*got total_delta=0\.0"):
        accounting.per_release_sigma(1.0, 0.0, 1.0, 4, route)
