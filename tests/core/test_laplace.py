"""Tests for gaussmech_core.laplace: pure-DP scale, exact (ε, δ) profile and its inverses, facts, sampler.

The oracle is mpmath at 50 digits, evaluated at the exact values of the floating-point inputs, so
"meets δ" is checked in exact arithmetic, not only in floating point.
"""

import doctest
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from gaussmech_core import laplace
from gaussmech_core.laplace import (
    laplace_delta,
    laplace_epsilon,
    laplace_log_delta,
    laplace_log_tail,
    laplace_pdf,
    laplace_sample,
    laplace_scale,
    laplace_scale_for_delta,
    laplace_tail,
    laplace_variance,
)

pytestmark = pytest.mark.filterwarnings("error")

mp.mp.dps = 50

epsilons = st.floats(-6.0, 3.0).map(lambda e: 10.0**e)
deltas = st.floats(-300.0, -0.01).map(lambda e: 10.0**e)
sensitivities = st.floats(-3.0, 3.0).map(lambda e: 10.0**e)


def exact_delta(epsilon, scale, sensitivity=1.0):
    """δ(ε) = max(0, 1 - exp((ε - Δ/b)/2)) at 50 digits, for the exact values of the float inputs."""
    epsilon_zero = mp.mpf(sensitivity) / mp.mpf(scale)
    if mp.mpf(epsilon) >= epsilon_zero:
        return mp.mpf(0)
    return -mp.expm1((mp.mpf(epsilon) - epsilon_zero) / 2)


def hockey_stick_by_quadrature(epsilon, scale, sensitivity):
    """sup over S of P(S) - e^ε Q(S) for P = Lap(0, b), Q = Lap(Δ, b): ∫ (p - e^ε q)_+ by quadrature."""
    epsilon, scale, sensitivity = mp.mpf(epsilon), mp.mpf(scale), mp.mpf(sensitivity)

    def integrand(y):
        p = mp.exp(-abs(y) / scale) / (2 * scale)
        q = mp.exp(-abs(y - sensitivity) / scale) / (2 * scale)
        return max(p - mp.exp(epsilon) * q, 0)

    kink = (sensitivity - epsilon * scale) / 2  # where the loss (|y - Δ| - |y|)/b crosses ε
    points = sorted({mp.mpf(0), sensitivity, kink})
    return mp.quad(integrand, [-mp.inf, *points, mp.inf])


# --- pure DP ----------------------------------------------------------------------------------


def test_pure_scale_is_sensitivity_over_epsilon_rounded_up():
    assert laplace_scale(1.0) == pytest.approx(1.0, rel=1e-15)
    assert laplace_scale(0.5, 3.0) == pytest.approx(6.0, rel=1e-15)
    for epsilon, sensitivity in [(3.0, 1.0), (0.1, 1.0), (1e-6, 7.0), (1e3, 0.3)]:
        scale = laplace_scale(epsilon, sensitivity)
        assert Fraction(scale) >= Fraction(sensitivity) / Fraction(epsilon)  # exact rational check
        assert scale == pytest.approx(sensitivity / epsilon, rel=3e-16)


def test_pure_scale_at_zero_epsilon_explains():
    with pytest.raises(ValueError, match="0-DP"):
        laplace_scale(0.0)


@settings(max_examples=100, deadline=None)
@given(epsilons, sensitivities)
def test_pure_scale_bounds_the_privacy_loss_exactly(epsilon, sensitivity):
    assert Fraction(laplace_scale(epsilon, sensitivity)) * Fraction(epsilon) >= Fraction(sensitivity)


# --- exact profile (docs/math.md section 4) ---------------------------------------------------------


@pytest.mark.parametrize(
    "epsilon, scale, sensitivity", [(0.0, 1.0, 1.0), (0.3, 1.0, 1.0), (1.0, 0.7, 2.0), (2.5, 1.3, 4.0)]
)
def test_profile_matches_quadrature(epsilon, scale, sensitivity):
    expected = hockey_stick_by_quadrature(epsilon, scale, sensitivity)
    assert laplace_delta(epsilon, scale, sensitivity) == pytest.approx(float(expected), rel=1e-12)


def test_profile_at_zero_epsilon_is_total_variation():
    for scale in (0.1, 1.0, 10.0):
        assert laplace_delta(0.0, scale) == pytest.approx(-math.expm1(-0.5 / scale), rel=1e-14)


def test_profile_is_zero_beyond_epsilon_zero():
    assert laplace_delta(np.array([2.0, 5.0, 1e3]), 1.0).tolist() == [0.0, 0.0, 0.0]
    assert laplace_log_delta(2.0, 1.0) == -math.inf


def test_log_profile_is_accurate_next_to_the_kink():
    # δ ≈ (ε₀ - ε)/2 is about 5e-13 here: log(1 - exp(x)) must not be computed as log of a difference.
    epsilon = 1.0 - 1e-12
    expected = mp.log(exact_delta(epsilon, 1.0))
    assert laplace_log_delta(epsilon, 1.0) == pytest.approx(float(expected), rel=1e-6)
    assert laplace_delta(epsilon, 1.0) == pytest.approx(float(exact_delta(epsilon, 1.0)), rel=1e-4)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 50.0), st.floats(-3.0, 3.0).map(lambda e: 10.0**e))
def test_profile_is_accurate(epsilon, scale):
    # Relative to δ where it is not tiny; near the kink ε ≈ Δ/b only absolutely (1 ulp of Δ/b).
    exact = exact_delta(epsilon, scale)
    assert laplace_delta(epsilon, scale) == pytest.approx(float(exact), rel=1e-13, abs=1e-16 / scale)
    if exact > 1e-6:
        assert laplace_log_delta(epsilon, scale) == pytest.approx(float(mp.log(exact)), rel=1e-12, abs=1e-12)


def test_profile_broadcasts_and_keeps_shape():
    epsilon = np.linspace(0.0, 2.0, 6).reshape(2, 3)
    result = laplace_delta(epsilon, np.array([1.0, 2.0, 4.0]))
    assert result.shape == (2, 3)
    assert isinstance(laplace_delta(0.5, 1.0), float)
    assert np.all(np.diff(result, axis=1) <= 0)  # larger b, smaller δ at every ε


# --- calibration and inverse -------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.just(0.0), epsilons), deltas, sensitivities)
def test_scale_for_delta_meets_delta_in_exact_arithmetic(epsilon, delta, sensitivity):
    scale = laplace_scale_for_delta(epsilon, delta, sensitivity)
    assert exact_delta(epsilon, scale, sensitivity) <= mp.mpf(delta)
    assert laplace_delta(epsilon, scale, sensitivity) <= delta
    closed_form = sensitivity / (epsilon - 2 * math.log1p(-delta))
    # laplace_delta rounds up by up to 3 ulps and laplace_log_delta by 1 ulp of |log δ| (never below
    # the exact values), so the verified scale may sit that much above the closed form
    assert scale == pytest.approx(closed_form, rel=1e-15 * (4 + abs(math.log(delta))))


def test_scale_for_delta_is_the_smallest():
    for epsilon, delta in [(1.0, 1e-5), (0.1, 0.3), (0.0, 0.5), (5.0, 1e-12)]:
        scale = laplace_scale_for_delta(epsilon, delta)
        assert exact_delta(epsilon, scale * (1 - 1e-12)) > mp.mpf(delta)


def test_scale_for_delta_never_exceeds_the_pure_scale():
    epsilon = np.array([1e-6, 1.0, 1e3])
    assert np.all(laplace_scale_for_delta(epsilon, 1e-300) <= laplace_scale(epsilon))
    assert laplace_scale_for_delta(1.0, 1e-300) == laplace_scale(1.0)


@settings(max_examples=100, deadline=None)
@given(epsilons, deltas, st.floats(0.5, 100.0))
def test_scale_for_delta_is_monotone_and_linear(epsilon, delta, factor):
    scale = laplace_scale_for_delta(epsilon, delta)
    assert laplace_scale_for_delta(epsilon * (1 + 1e-3), delta) <= scale
    assert laplace_scale_for_delta(epsilon, min(delta * 2, 0.99)) <= scale
    assert laplace_scale_for_delta(epsilon, delta, factor) == pytest.approx(factor * scale, rel=1e-14)


@settings(max_examples=200, deadline=None)
@given(st.floats(-3.0, 3.0).map(lambda e: 10.0**e), st.floats(-300.0, -0.01).map(lambda e: 10.0**e))
def test_epsilon_inverse_meets_delta_and_round_trips(scale, delta):
    epsilon = laplace_epsilon(delta, scale)
    assert epsilon >= 0.0
    assert exact_delta(epsilon, scale) <= mp.mpf(delta)
    exact = max(0.0, 1.0 / scale + 2 * math.log1p(-delta))
    assert epsilon == pytest.approx(exact, rel=1e-14, abs=1e-14 / scale)


def test_epsilon_inverse_is_zero_above_total_variation():
    assert laplace_epsilon(0.5, 1.0) == 0.0  # TV = 1 - e^{-1/2} = 0.39
    assert laplace_epsilon(0.3, 1.0) == pytest.approx(1.0 + 2 * math.log(0.7), rel=1e-14)


def test_round_trip_scale_profile_epsilon():
    epsilon, delta = np.array([0.1, 1.0, 10.0]), np.array([1e-3, 0.1, 0.5])
    scale = laplace_scale_for_delta(epsilon, delta)
    assert laplace_delta(epsilon, scale) == pytest.approx(delta, rel=1e-12)
    assert laplace_epsilon(delta, scale) == pytest.approx(epsilon, rel=1e-12)


# --- per-coordinate facts and sampling ----------------------------------------------------------


def test_density_tail_and_variance_match_scipy_and_closed_forms():
    x = np.array([-3.0, -0.5, 0.0, 0.2, 7.0])
    assert laplace_pdf(x, 1.7) == pytest.approx(stats.laplace.pdf(x, scale=1.7), rel=1e-15)
    assert laplace_pdf(math.inf, 1.0) == 0.0
    t = np.array([0.0, 0.5, 3.0])
    assert laplace_tail(t, 2.0) == pytest.approx(2 * stats.laplace.sf(t, scale=2.0), rel=1e-14)
    assert laplace_log_tail(1e5, 1.0) == -1e5  # far below the smallest double
    assert laplace_tail(math.inf, 1.0) == 0.0
    assert laplace_variance(np.array([1.0, 3.0])) == pytest.approx([2.0, 18.0])
    assert laplace_variance(2.5) == pytest.approx(stats.laplace.var(scale=2.5), rel=1e-15)


def test_sampler_matches_the_distribution():
    rng = np.random.default_rng(20240601)
    scale, n = 1.7, 200_000
    samples = laplace_sample(rng, n, scale)
    assert samples.shape == (n,)
    assert stats.kstest(samples, stats.laplace(scale=scale).cdf).pvalue > 1e-3
    # E|Y| = b (sd b), E Y² = 2b² (sd sqrt(24 - 4) b²): five standard errors.
    assert abs(np.mean(np.abs(samples)) - scale) < 5 * scale / math.sqrt(n)
    assert abs(np.mean(samples**2) - 2 * scale**2) < 5 * math.sqrt(20.0) * scale**2 / math.sqrt(n)
    assert abs(np.mean(samples > 2.0) - laplace_tail(2.0, scale) / 2) < 5 * math.sqrt(0.25 / n)


def test_sampler_broadcasts_a_scale_per_column():
    rng = np.random.default_rng(7)
    samples = laplace_sample(rng, (50_000, 2), np.array([1.0, 10.0]))
    ratio = samples[:, 1].std() / samples[:, 0].std()
    assert ratio == pytest.approx(10.0, rel=0.05)


def test_sampler_is_reproducible_with_a_seed():
    first = laplace_sample(np.random.default_rng(3), 5, 1.0)
    second = laplace_sample(np.random.default_rng(3), 5, 1.0)
    assert np.array_equal(first, second)


# --- validation and extremes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: laplace_scale(-1.0),
        lambda: laplace_scale(math.nan),
        lambda: laplace_scale(math.inf),
        lambda: laplace_scale(1.0, 0.0),
        lambda: laplace_delta(-0.1, 1.0),
        lambda: laplace_delta(0.1, 0.0),
        lambda: laplace_delta(0.1, -2.0),
        lambda: laplace_scale_for_delta(1.0, 1.0),
        lambda: laplace_scale_for_delta(1.0, 0.0),
        lambda: laplace_scale_for_delta(1.0, 1.5),
        lambda: laplace_scale_for_delta(1.0, math.nan),
        lambda: laplace_epsilon(1.0, 1.0),
        lambda: laplace_tail(-1.0, 1.0),
        lambda: laplace_pdf(math.nan, 1.0),
        lambda: laplace_variance(0.0),
        lambda: laplace_sample(np.random.default_rng(0), 3, -1.0),
    ],
)
def test_bad_values_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_message_names_parameter_and_index():
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\).*index 1"):
        laplace_scale_for_delta(1.0, [0.5, 1.0])


@pytest.mark.parametrize(
    "call",
    [
        lambda: laplace_scale("1.0"),
        lambda: laplace_delta(None, 1.0),
        lambda: laplace_scale_for_delta(1.0, "0.1"),
        lambda: laplace_sample(0, 3, 1.0),
        lambda: laplace_sample(np.random.RandomState(0), 3, 1.0),
    ],
)
def test_bad_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_extremes_give_finite_results_without_warnings():
    epsilon = np.array([0.0, 1e-6, 1.0, 1e3])[:, None]
    delta = np.array([1e-300, 1e-100, 0.5, 0.999999])[None, :]
    scale = laplace_scale_for_delta(epsilon, delta)
    assert np.all(np.isfinite(scale)) and np.all(scale > 0)
    assert np.all(laplace_delta(epsilon, scale) <= delta)
    assert np.all(np.isfinite(laplace_epsilon(delta, scale)))
    assert laplace_scale(1e-300, 1e10) == math.inf  # beyond the largest double, still private
    assert np.isfinite(laplace_log_delta(0.0, 1e-300))


def test_doctests():
    result = doctest.testmod(laplace)
    assert result.attempted > 0 and result.failed == 0


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------


def test_laplace_scale_keeps_the_largest_double_when_it_is_the_exact_quotient():
    largest = float(np.finfo(float).max)
    assert laplace.laplace_scale(1.0, largest) == largest  # Δ₁/ε exactly: the next double is inf
    assert laplace.laplace_scale(0.5, largest) == math.inf  # 2 × largest: beyond float64
    assert laplace.laplace_scale(5e-324) == math.inf


@pytest.mark.parametrize("size", [4.0, np.float64(4.0), np.array([2.0, 2.0]), True])
def test_laplace_sample_refuses_a_float_size_by_name(size):
    with pytest.raises(TypeError, match="^size must be"):
        laplace.laplace_sample(np.random.default_rng(0), size, 1.0)


def test_laplace_sample_refuses_an_impossible_size_by_name():
    with pytest.raises(ValueError, match="^size must"):
        laplace.laplace_sample(np.random.default_rng(0), 2**1024, 1.0)
