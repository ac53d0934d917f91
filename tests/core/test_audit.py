"""The closer-answer audit: the DP ceiling, the exact success of the test, and its simulation."""

from __future__ import annotations

import doctest
import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import gaussmech_core.audit as audit
from gaussmech_core.audit import (
    closer_test_projection_sample,
    gaussian_closer_test_success,
    matched_gaussian_sigma,
    max_distinguishing_success,
    max_test_power,
    r1smg_closer_test_success,
    simulate_closer_test,
    wilson_interval,
)


def test_doctests_pass():
    result = doctest.testmod(audit)
    assert result.attempted > 0
    assert result.failed == 0


# --- The ceiling that (ε, δ)-DP puts on any test --------------------------------------------


@pytest.mark.parametrize("epsilon", [0.0, 1e-6, 0.1, 1.0, 5.0, 50.0, 700.0, 1000.0])
@pytest.mark.parametrize("delta", [0.0, 1e-300, 1e-10, 1e-5, 0.3, 1.0])
def test_ceiling_matches_high_precision_formula(epsilon, delta):
    mp.mp.dps = 60
    expected = (mp.e ** mp.mpf(epsilon) + mp.mpf(delta)) / (1 + mp.e ** mp.mpf(epsilon))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = max_distinguishing_success(epsilon, delta)
    assert isinstance(value, float)
    assert value == pytest.approx(float(expected), rel=1e-14, abs=1e-300)


def test_ceiling_is_vectorized_and_monotone():
    epsilon = np.logspace(-6, 3, 50)
    values = max_distinguishing_success(epsilon, 1e-5)
    assert values.shape == (50,)
    assert np.all(np.diff(values) >= 0)
    assert np.all((values >= 0.5) & (values <= 1.0))
    assert max_distinguishing_success(0.0, 0.0) == 0.5


def _gaussian_delta_mp(epsilon, sigma, sensitivity):
    """Balle & Wang's exact δ(ε) of N(0, σ²) noise, Theorem 8 (docs/math.md section 2.1), in mpmath."""
    a = mp.mpf(sensitivity) / (2 * mp.mpf(sigma))
    b = mp.mpf(epsilon) * mp.mpf(sigma) / mp.mpf(sensitivity)
    return mp.ncdf(a - b) - mp.e ** mp.mpf(epsilon) * mp.ncdf(-a - b)


@settings(max_examples=80, deadline=None)
@given(
    sigma=st.floats(0.05, 50.0),
    epsilon=st.floats(0.0, 20.0),
)
def test_exact_gaussian_never_beats_the_ceiling(sigma, epsilon):
    # The closer-answer test is the likelihood-ratio test for Gaussian noise; its success must stay
    # below the ceiling at the exact δ(ε) of that noise, at every ε (the ceiling is a theorem).
    mp.mp.dps = 50
    delta = float(_gaussian_delta_mp(epsilon, sigma, 1.0))
    delta = min(max(delta, 0.0), 1.0)
    assert gaussian_closer_test_success(sigma, 1.0) <= max_distinguishing_success(epsilon, delta) + 1e-12


@pytest.mark.parametrize("sigma", [0.1, 1.0, 3.73, 20.0])
def test_ceiling_is_attained_at_epsilon_zero_by_the_gaussian(sigma):
    # At ε = 0, δ(0) is the total variation distance 2Φ(Δ/2σ) - 1, and the ceiling (1 + δ)/2 is
    # exactly Φ(Δ/2σ): the bound is tight, so the derivation has no slack in the wrong direction.
    mp.mp.dps = 50
    delta_zero = float(_gaussian_delta_mp(0.0, sigma, 1.0))
    assert max_distinguishing_success(0.0, delta_zero) == pytest.approx(
        gaussian_closer_test_success(sigma, 1.0), rel=1e-12
    )


def test_randomized_response_attains_the_pure_dp_ceiling():
    # Randomized response that tells the truth with probability e^ε/(1+e^ε) is ε-DP and the test
    # "believe the answer" succeeds with exactly that probability.
    for epsilon in (0.1, 1.0, 3.0):
        truthful = math.exp(epsilon) / (1 + math.exp(epsilon))
        assert max_distinguishing_success(epsilon, 0.0) == pytest.approx(truthful, rel=1e-14)


def test_max_test_power_formula_and_edges():
    mp.mp.dps = 40
    for alpha, epsilon, delta in [(0.05, 1.0, 0.0), (0.05, 1.0, 1e-5), (0.5, 0.1, 0.01), (0.01, 3.0, 1e-3)]:
        e = mp.e ** mp.mpf(epsilon)
        expected = min(mp.mpf(1), e * alpha + delta, 1 - (1 - delta - alpha) / e)
        assert max_test_power(alpha, epsilon, delta) == pytest.approx(float(expected), rel=1e-13)
    assert max_test_power(0.0, 1.0, 0.0) == 0.0
    assert max_test_power(0.0, 1.0, 1e-5) == pytest.approx(1e-5)
    assert max_test_power(1.0, 0.5, 0.0) == 1.0
    assert max_test_power(0.05, 1000.0, 0.0) == 1.0
    powers = max_test_power(np.linspace(0, 1, 101), 2.0, 1e-4)
    assert np.all(np.diff(powers) >= 0)


def test_balanced_success_follows_from_the_power_bound():
    # P(correct) = (1 - α + power)/2 maximised over α reproduces the balanced ceiling.
    alpha = np.linspace(0.0, 1.0, 200_001)
    for epsilon, delta in [(0.5, 1e-5), (1.0, 0.0), (2.0, 0.01)]:
        best = np.max((1 - alpha + max_test_power(alpha, epsilon, delta)) / 2)
        assert best == pytest.approx(max_distinguishing_success(epsilon, delta), abs=1e-5)


# --- The exact success probability of the closer-answer test ---------------------------------


@pytest.mark.parametrize("sigma", [1e-3, 0.5, 3.730631, 1e4])
def test_gaussian_success_matches_mpmath(sigma):
    mp.mp.dps = 50
    expected = mp.ncdf(mp.mpf(1) / (2 * mp.mpf(sigma)))
    assert gaussian_closer_test_success(sigma, 1.0) == pytest.approx(float(expected), rel=1e-14)


def _r1smg_failure_mp(sigma_star, sensitivity, dim):
    """P(√σ* Z T < -Δ/2), integrating over t with T's density c_M (1 - t²)^{(M-3)/2} (docs/math.md section 6.2)."""
    mp.mp.dps = 40
    c = mp.mpf(sensitivity) / (2 * mp.sqrt(mp.mpf(sigma_star)))
    log_norm = mp.loggamma(mp.mpf(dim) / 2) - mp.loggamma(mp.mpf(dim - 1) / 2) - mp.log(mp.pi) / 2

    def integrand(t):
        return mp.ncdf(-c / t) * mp.e ** (log_norm + (mp.mpf(dim - 3) / 2) * mp.log(1 - t * t))

    # The density lives on a width ~ 1/√M around 0: give the quadrature that scale.
    width = 1 / mp.sqrt(dim)
    points = [0] + [min(mp.mpf(k) * width, 1) for k in (0.25, 1, 3, 8, 20, 50)] + [1]
    points = sorted(set(points))
    # The density is symmetric; the test fails on the half where t has the sign opposing z.
    return 2 * mp.quad(integrand, points)


@pytest.mark.parametrize(
    "sigma_star, dim",
    [(4.9e10, 3), (2.66, 3), (1.0, 4), (49.2, 10), (2.66, 100), (2.06, 1000), (2.0, 5000), (0.3, 7)],
)
def test_r1smg_success_matches_an_independent_quadrature(sigma_star, dim):
    expected_failure = float(_r1smg_failure_mp(sigma_star, 1.0, dim))
    failure = 1.0 - r1smg_closer_test_success(sigma_star, 1.0, dim)
    assert failure == pytest.approx(expected_failure, rel=1e-8, abs=1e-15)


def test_r1smg_success_at_huge_dimension_is_finite_and_near_one():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = r1smg_closer_test_success(2.0, 1.0, 1_000_000)
    assert 0.999999 < value <= 1.0


def test_r1smg_claim_fails_where_math_md_says_and_holds_at_dim_three():
    # docs/math.md sections 6.1-6.2 at ε = 1, δ = 1e-5, Δ = 1: σ* = 2.66 at M = 100 and 4.9e10 at M = 3.
    ceiling = max_distinguishing_success(1.0, 1e-5)
    assert r1smg_closer_test_success(2.66, 1.0, 100) > ceiling + 0.2
    assert r1smg_closer_test_success(4.9e10, 1.0, 3) < ceiling


def test_matched_gaussian_sigma():
    assert matched_gaussian_sigma(400.0, 100) == 2.0
    assert np.allclose(matched_gaussian_sigma(np.array([1.0, 4.0]), 4), [0.5, 1.0])
    with pytest.raises(ValueError, match="expected_loss"):
        matched_gaussian_sigma(0.0, 3)


# --- The decision rule and the projection sampler --------------------------------------------


def _full_r1smg_noise(rng, size, sigma_star, dim):
    """R1SMG noise formed in full, exactly as docs/math.md section 6.1 describes the sampler."""
    g = rng.standard_normal((size, dim))
    v = g / np.linalg.norm(g, axis=1, keepdims=True)
    return math.sqrt(sigma_star) * rng.standard_normal(size)[:, None] * v


@pytest.mark.parametrize("dim", [3, 7, 50])
@pytest.mark.parametrize("noise", ["gaussian", "r1smg"])
def test_projection_rule_is_the_closer_answer_rule(noise, dim):
    rng = np.random.default_rng(11)
    difference = rng.standard_normal(dim)
    difference *= 0.8 / np.linalg.norm(difference)  # Δ = 0.8, a direction that is not an axis
    gap = np.linalg.norm(difference)
    size = 20_000
    if noise == "gaussian":
        samples = rng.normal(0.0, 0.6, size=(size, dim))
    else:
        samples = _full_r1smg_noise(rng, size, 0.9, dim)
    projection = samples @ (difference / gap)
    # Truth x: y - f(x) = n and y - f(x') = n + d.
    closer_to_x = np.linalg.norm(samples, axis=1) < np.linalg.norm(samples + difference, axis=1)
    assert np.array_equal(closer_to_x, projection > -gap / 2)
    # Truth x': y - f(x') = n and y - f(x) = n - d.
    closer_to_x_prime = np.linalg.norm(samples, axis=1) < np.linalg.norm(samples - difference, axis=1)
    assert np.array_equal(closer_to_x_prime, projection < gap / 2)


@pytest.mark.parametrize("dim", [3, 20, 200])
def test_r1smg_projection_has_the_distribution_of_the_full_noise(dim):
    rng = np.random.default_rng(5)
    full = _full_r1smg_noise(rng, 20_000, 1.7, dim)[:, 0]
    projected = closer_test_projection_sample("r1smg", np.random.default_rng(6), 20_000, 1.7, dim)
    assert projected.shape == (20_000,)
    assert stats.ks_2samp(full, projected).pvalue > 1e-3


def test_projection_sampler_needs_no_big_arrays_at_dimension_one_million():
    sample = closer_test_projection_sample("r1smg", np.random.default_rng(0), 50_000, 2.0, 1_000_000)
    assert sample.shape == (50_000,)
    # E[(Z T)²] = 1/M exactly and Var((Z T)²) ≈ 8/M² (T² ~ Beta(1/2, (M-1)/2)), so the mean square
    # of the sample is σ*/M within a relative CLT error of √(8/n).
    mean_square = np.mean(sample**2)
    expected = 2.0 / 1_000_000
    assert abs(mean_square - expected) < 5 * expected * math.sqrt(8 / 50_000)


# --- The simulation agrees with the exact probability ----------------------------------------


@pytest.mark.parametrize(
    "noise, scale, dim",
    [
        ("gaussian", 0.4, 1),
        ("gaussian", 3.73, 1_000_000),
        ("r1smg", 49.2, 10),
        ("r1smg", 2.66, 100),
        ("r1smg", 2.0, 1_000_000),
        ("r1smg", 0.25, 3),
    ],
)
def test_simulation_agrees_with_the_exact_success(noise, scale, dim):
    trials = 200_000
    result = simulate_closer_test(noise, scale, 1.0, dim, trials, seed=2024)
    exact = (
        gaussian_closer_test_success(scale, 1.0) if noise == "gaussian" else r1smg_closer_test_success(scale, 1.0, dim)
    )
    standard_error = math.sqrt(max(exact * (1 - exact), 1 / trials) / trials)
    assert abs(result.rate - exact) < 5 * standard_error
    assert result.successes == round(result.rate * trials)
    low, high = result.interval
    assert low <= result.rate <= high


def test_simulation_is_reproducible_and_seed_dependent():
    first = simulate_closer_test("r1smg", 49.2, 1.0, 10, 5_000, seed=7)
    again = simulate_closer_test("r1smg", 49.2, 1.0, 10, 5_000, seed=7)
    other = simulate_closer_test("r1smg", 49.2, 1.0, 10, 5_000, seed=8)
    assert first == again
    assert first.successes != other.successes


def test_wilson_covers_the_truth_at_the_stated_rate():
    # 400 simulations of 2 000 trials each: coverage of a 95% interval lies in [0.92, 0.98]
    # with overwhelming probability (binomial(400, 0.95) sd ≈ 0.011).
    rng = np.random.default_rng(3)
    p = 0.9
    hits = 0
    for successes in rng.binomial(2000, p, size=400):
        low, high = wilson_interval(int(successes), 2000)
        hits += low <= p <= high
    assert 0.92 <= hits / 400 <= 0.98


def test_wilson_reference_values_and_symmetry():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-5)
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=5e-5)
    low_a, high_a = wilson_interval(7, 40, 0.9)
    low_b, high_b = wilson_interval(33, 40, 0.9)
    assert low_a == pytest.approx(1 - high_b, rel=1e-12) and high_a == pytest.approx(1 - low_b, rel=1e-12)
    assert wilson_interval(100, 100)[1] == 1.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: simulate_closer_test("laplace", 1.0, 1.0, 3, 10, 0), "noise"),
        (lambda: simulate_closer_test("r1smg", 1.0, 1.0, 1, 10, 0), "dim"),
        (lambda: simulate_closer_test("gaussian", 1.0, 1.0, 3, 0, 0), "trials"),
        (lambda: simulate_closer_test("gaussian", 1.0, 1.0, 3, 10**8, 0), "trials"),
        (lambda: simulate_closer_test("gaussian", -1.0, 1.0, 3, 10, 0), "scale"),
        (lambda: simulate_closer_test("gaussian", 1.0, 0.0, 3, 10, 0), "sensitivity"),
        (lambda: simulate_closer_test("gaussian", 1.0, 1.0, 3, 10, -1), "seed"),
        (lambda: wilson_interval(11, 10), "successes"),
        (lambda: wilson_interval(1, 10, 1.0), "confidence"),
        (lambda: max_distinguishing_success(-0.1, 0.0), "epsilon"),
        (lambda: max_distinguishing_success(1.0, 1.5), "delta"),
        (lambda: max_test_power(1.5, 1.0, 0.0), "type_one_error"),
        (lambda: r1smg_closer_test_success(1.0, 1.0, 1), "dim"),
        (lambda: gaussian_closer_test_success(np.array([1.0, np.nan]), 1.0), "index 1"),
    ],
)
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_non_numeric_input_is_a_type_error():
    with pytest.raises(TypeError, match="scale"):
        simulate_closer_test("gaussian", "1.0", 1.0, 3, 10, 0)


@pytest.mark.parametrize("dim", [3, 5, 10, 30, 100])
def test_closer_test_is_the_likelihood_ratio_test_for_r1smg(dim):
    # R1SMG noise has a density that falls with the radius, so "closer answer" is the likelihood-ratio
    # test and its success with equal priors is (1 + TV)/2 with TV = δ(0) (the hockey stick at ε = 0).
    # δ(0) comes from multivariate.r1smg_true_delta, an independent 2-D quadrature of the privacy loss.
    from gaussmech_core import multivariate

    sigma_star = multivariate.r1smg_sigma_star(1.0, 1e-5, 1.0, dim)
    total_variation = multivariate.r1smg_true_delta(0.0, sigma_star, 1.0, dim)
    assert r1smg_closer_test_success(sigma_star, 1.0, dim) == pytest.approx((1 + total_variation) / 2, rel=1e-9)


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------


def test_closer_test_success_at_extreme_sigma_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert audit.gaussian_closer_test_success(5e-324, 1.0) == 1.0
        assert audit.gaussian_closer_test_success(1.7976931348623157e308, 1.0) == 0.5


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: audit.wilson_interval(1, 2**1024), "trials"),
        (lambda: audit.simulate_closer_test("gaussian", 1.0, 1.0, 2, 10, seed=2**64), "seed"),
        (lambda: audit.r1smg_closer_test_success(2.0, 1.0, 2**1024), "dim"),
        (lambda: audit.matched_gaussian_sigma(400.0, 2**53 + 1), "dim"),
    ],
)
def test_audit_refuses_integers_beyond_its_documented_range_by_name(call, name):
    with pytest.raises(ValueError, match=f"^{name} must be an integer in"):
        call()
