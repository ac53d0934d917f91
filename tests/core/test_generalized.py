"""Tests for gaussmech_core.generalized (Liu's GG family, docs/math.md section 5).

Oracles: mpmath at 50 digits (incomplete gamma closed forms, the privacy-loss threshold found by
bisection, quadrature), evaluated at the exact values of the floating-point inputs; brute-force
sups for the BIT/truncated mechanisms; the Laplace and Gaussian modules for p = 1 and p = 2.
"""

import doctest
import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, special, stats

from gaussmech_core import generalized
from gaussmech_core.gaussian import analytic_gaussian_sigma, gaussian_delta, pdp_gaussian_sigma
from gaussmech_core.generalized import (
    COROLLARY7_LABEL,
    LEMMA11_DELTA_THRESHOLD,
    bit_gg_epsilon,
    bit_gg_sample,
    bit_gg_scale,
    generalized_gaussian_delta,
    generalized_gaussian_epsilon,
    generalized_gaussian_log_delta,
    generalized_gaussian_pdp_delta,
    generalized_gaussian_scale,
    gg_absolute_moment,
    gg_cdf,
    gg_density_at_mean_equal_variance,
    gg_kurtosis,
    gg_log_tail,
    gg_logpdf,
    gg_mean_absolute,
    gg_pdf,
    gg_sample,
    gg_scale_from_std,
    gg_tail,
    gg_variance,
    laplace_gaussian_tail_ratio,
    lemma11_variance_ratio,
    privacy_cost_ratio,
    truncated_gg_sample,
    truncated_gg_scale,
)
from gaussmech_core.laplace import laplace_scale, laplace_scale_for_delta

pytestmark = pytest.mark.filterwarnings("error")

mp.mp.dps = 50
SQRT2 = math.sqrt(2.0)

epsilons = st.floats(-6.0, 3.0).map(lambda e: 10.0**e)
deltas = st.floats(-300.0, -0.01).map(lambda e: 10.0**e)
orders = st.one_of(st.sampled_from([1.0, 2.0]), st.floats(1.0, 10.0))
smooth_orders = st.floats(1.05, 10.0)


# --- mpmath oracles -----------------------------------------------------------------------------


def mp_upper_gamma(order, x):
    """Q(1/p, x) at 50 digits."""
    return mp.gammainc(1 / mp.mpf(order), x, mp.inf, regularized=True)


def mp_cdf(y, scale, order):
    """CDF of GG(0, b, p) at 50 digits (docs/math.md section 5.1)."""
    y, scale, order = mp.mpf(y), mp.mpf(scale), mp.mpf(order)
    tail = mp_upper_gamma(order, (abs(y) / scale) ** order) / 2
    return tail if y < 0 else 1 - tail


def mp_loss_threshold(epsilon, scale, sensitivity, order):
    """y with (|y - Δ|^p - |y|^p)/b^p = ε, by bisection at 50 digits (the loss decreases in y)."""
    epsilon, scale, sensitivity, order = (mp.mpf(v) for v in (epsilon, scale, sensitivity, order))

    def loss(y):
        if y < 0:  # |y|^p expm1(p log1p(Δ/|y|)): the plain difference cancels for |y| >> Δ
            return abs(y) ** order * mp.expm1(order * mp.log1p(sensitivity / abs(y))) / scale**order
        return (abs(y - sensitivity) ** order - abs(y) ** order) / scale**order

    upper = sensitivity / 2
    width = sensitivity + scale
    while loss(upper - width) < epsilon:
        width *= 2
    lower = upper - width
    for _ in range(400):
        middle = (lower + upper) / 2
        if loss(middle) > epsilon:
            lower = middle
        else:
            upper = middle
    return (lower + upper) / 2


def mp_profile(epsilon, scale, sensitivity, order):
    """Exact δ(ε) = F(y_ε) - e^ε F(y_ε - Δ) at 50 digits (docs/math.md section 5.5), e^ε formed directly."""
    if order == 1.0 and epsilon >= sensitivity / scale:
        return mp.mpf(0)
    y = mp_loss_threshold(epsilon, scale, sensitivity, order)
    return mp_cdf(y, scale, order) - mp.exp(mp.mpf(epsilon)) * mp_cdf(y - mp.mpf(sensitivity), scale, order)


def mp_profile_by_quadrature(epsilon, scale, sensitivity, order):
    """∫ (p(y) - e^ε q(y))_+ dy with the GG densities written out (no incomplete gamma)."""
    epsilon, scale, sensitivity, order = (mp.mpf(v) for v in (epsilon, scale, sensitivity, order))
    constant = order / (2 * scale * mp.gamma(1 / order))

    def difference(y):
        p = constant * mp.exp(-((abs(y) / scale) ** order))
        q = constant * mp.exp(-((abs(y - sensitivity) / scale) ** order))
        return p - mp.exp(epsilon) * q

    y = mp_loss_threshold(epsilon, scale, sensitivity, order)
    points = sorted({y, min(y, mp.mpf(0)), min(y, mp.mpf(0)) - 5 * scale})
    return mp.quad(difference, [-mp.inf, *points])


def mp_pdp_delta(epsilon, scale, sensitivity, order):
    """Q(1/p, (t*/b)^p) with (t* + Δ)^p - t*^p = ε b^p, at 50 digits (docs/math.md section 5.4)."""
    epsilon, scale, sensitivity, order = (mp.mpf(v) for v in (epsilon, scale, sensitivity, order))
    target = epsilon * scale**order
    if sensitivity**order >= target:
        return mp.mpf(1)

    def loss_bound(noise):
        return noise**order * mp.expm1(order * mp.log1p(sensitivity / noise)) if noise > 0 else sensitivity**order

    lower, upper = mp.mpf(0), scale
    while loss_bound(upper) < target:
        upper *= 2
    for _ in range(400):
        middle = (lower + upper) / 2
        if loss_bound(middle) < target:
            lower = middle
        else:
            upper = middle
    return mp_upper_gamma(order, ((lower + upper) / 2 / scale) ** order)


# --- the distribution (docs/math.md section 5.1) --------------------------------------------------------------


@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 3.7, 10.0])
def test_density_is_liu_parametrisation(order):
    scale = 1.3
    for x in (-2.0, -0.1, 0.0, 0.4, 3.0):
        exact = order / (2 * scale * mp.gamma(1 / mp.mpf(order))) * mp.exp(-((abs(mp.mpf(x)) / scale) ** order))
        assert gg_pdf(x, scale, order) == pytest.approx(float(exact), rel=1e-13)
        assert gg_logpdf(x, scale, order) == pytest.approx(float(mp.log(exact)), rel=1e-13, abs=1e-14)
    total = (
        integrate.quad(lambda y: gg_pdf(y, scale, order), -np.inf, 0.0)[0]
        + integrate.quad(lambda y: gg_pdf(y, scale, order), 0.0, np.inf)[0]
    )
    assert total == pytest.approx(1.0, rel=1e-9)


def test_special_cases_are_laplace_and_gaussian():
    x = np.linspace(-4, 4, 17)
    assert gg_pdf(x, 2.0, 1.0) == pytest.approx(stats.laplace.pdf(x, scale=2.0), rel=1e-14)
    assert gg_pdf(x, SQRT2 * 1.5, 2.0) == pytest.approx(stats.norm.pdf(x, scale=1.5), rel=1e-13)
    assert gg_cdf(x, SQRT2, 2.0) == pytest.approx(stats.norm.cdf(x), rel=1e-13)


@pytest.mark.parametrize("order", [1.0, 1.3, 2.0, 5.0, 10.0])
def test_cdf_and_tails_match_mpmath_down_to_tiny_values(order):
    scale = 0.8
    for t in (0.0, 0.3, 1.0, 4.0, 12.0):
        assert gg_cdf(-t, scale, order) == pytest.approx(float(mp_cdf(-t, scale, order)), rel=1e-13)
        assert gg_cdf(t, scale, order) == pytest.approx(float(mp_cdf(t, scale, order)), rel=1e-14)
        exact_tail = mp_upper_gamma(order, (mp.mpf(t) / scale) ** order)
        assert gg_tail(t, scale, order) == pytest.approx(float(exact_tail), rel=1e-12)


@pytest.mark.parametrize("order", [1.0, 1.001, 1.5, 2.0, 3.0, 7.5, 10.0])
def test_log_tail_matches_mpmath_far_below_underflow(order):
    # (t/b)^p from 1e-6 to 1e5: tails from ~1 down to ~exp(-1e5), i.e. 1e-43000.
    for x in (1e-6, 0.5, 10.0, 49.999, 50.0, 50.001, 200.0, 700.0, 745.0, 1e3, 1e5):
        t = x ** (1 / order)
        exact = mp.log(mp_upper_gamma(order, mp.mpf(t) ** order))
        assert gg_log_tail(t, 1.0, order) == pytest.approx(float(exact), rel=1e-13, abs=1e-15)
    assert gg_log_tail(math.inf, 1.0, order) == -math.inf


def test_log_tail_is_continuous_where_the_method_switches():
    # x = (t/b)^p = 50 is where gammaincc hands over to the asymptotic series.
    t = 50.0 ** (1 / 1.7) * np.array([1 - 1e-12, 1 + 1e-12])
    below, above = gg_log_tail(t, 1.0, 1.7)
    exact = [mp.log(mp_upper_gamma(1.7, mp.mpf(v) ** 1.7)) for v in t]
    assert below - above == pytest.approx(float(exact[0] - exact[1]), rel=1e-3)


def test_tail_closed_forms():
    assert gg_log_tail(3.0, 2.0, 1.0) == pytest.approx(-1.5, rel=1e-15)
    t = np.array([0.5, 5.0, 30.0])
    assert gg_log_tail(t, SQRT2, 2.0) == pytest.approx(np.log(special.erfc(t / SQRT2)), rel=1e-13)


@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 4.0, 10.0])
def test_moments_match_quadrature(order):
    scale = 1.7

    def moment(q):
        integrand = lambda y: y**q * gg_pdf(y, scale, order)  # noqa: E731
        near = integrate.quad(integrand, 0.0, scale, epsabs=0, epsrel=1e-13)[0]
        far = integrate.quad(integrand, scale, np.inf, epsabs=0, epsrel=1e-13)[0]
        return 2 * (near + far)

    assert gg_variance(scale, order) == pytest.approx(moment(2), rel=1e-9)
    assert gg_mean_absolute(scale, order) == pytest.approx(moment(1), rel=1e-9)
    assert gg_absolute_moment(0.5, scale, order) == pytest.approx(moment(0.5), rel=1e-9)
    assert gg_kurtosis(order) == pytest.approx(moment(4) / moment(2) ** 2, rel=1e-9)
    assert gg_variance(scale, order) == pytest.approx(stats.gennorm.var(order, scale=scale), rel=1e-14)


def test_kurtosis_and_scale_conversions():
    assert gg_kurtosis(np.array([1.0, 2.0])) == pytest.approx([6.0, 3.0], rel=1e-14)
    assert gg_variance(SQRT2 * 3.0, 2.0) == pytest.approx(9.0, rel=1e-14)  # σ = b/√2
    assert gg_variance(2.0, 1.0) == pytest.approx(8.0, rel=1e-14)  # 2 b²
    orders_ = np.array([1.0, 1.5, 2.0, 6.0, 10.0])
    assert gg_variance(gg_scale_from_std(2.5, orders_), orders_) == pytest.approx(6.25, rel=1e-14)


def test_density_at_mean_at_equal_variance_is_liu_remark():
    # Laplace 1/√2 = 0.707, Gaussian 1/√(2π) = 0.399 (docs/math.md section 5.1).
    assert gg_density_at_mean_equal_variance(1.0, 1.0) == pytest.approx(1 / SQRT2, rel=1e-14)
    assert gg_density_at_mean_equal_variance(2.0, 2.0) == pytest.approx(1 / (2 * math.sqrt(2 * math.pi)), rel=1e-14)
    orders_ = np.linspace(1.0, 10.0, 19)
    direct = gg_pdf(0.0, gg_scale_from_std(1.0, orders_), orders_)
    assert gg_density_at_mean_equal_variance(1.0, orders_) == pytest.approx(direct, rel=1e-13)
    assert np.all(np.diff(direct) < 0)  # Laplace puts the most mass at the mean


@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 4.0, 10.0])
def test_sampler_matches_distribution(order):
    rng = np.random.default_rng(1000 + int(10 * order))
    scale, n = 1.3, 100_000
    samples = gg_sample(rng, n, scale, order)
    assert samples.shape == (n,)
    assert stats.kstest(samples, lambda x: gg_cdf(x, scale, order)).pvalue > 1e-3
    variance, fourth = gg_variance(scale, order), gg_absolute_moment(4.0, scale, order)
    assert abs(np.mean(samples**2) - variance) < 5 * math.sqrt((fourth - variance**2) / n)
    mean_absolute = gg_mean_absolute(scale, order)
    assert abs(np.mean(np.abs(samples)) - mean_absolute) < 5 * math.sqrt((variance - mean_absolute**2) / n)
    assert abs(np.mean(samples)) < 5 * math.sqrt(variance / n)


def test_sampler_shape_and_broadcast_parameters():
    rng = np.random.default_rng(5)
    samples = gg_sample(rng, (40_000, 2), np.array([1.0, 4.0]), np.array([2.0, 3.0]))
    assert samples.shape == (40_000, 2)
    ratio = samples.std(axis=0) / np.sqrt(gg_variance(np.array([1.0, 4.0]), np.array([2.0, 3.0])))
    assert ratio == pytest.approx([1.0, 1.0], rel=0.03)
    first, second = (gg_sample(np.random.default_rng(1), 4, 1.0, 3.0) for _ in range(2))
    assert np.array_equal(first, second)


# --- the exact profile (docs/math.md section 5.5) -----------------------------------------------------------


PROFILE_CASES = [
    # (ε, b, Δ, p): δ from ~0.9 down to 1e-2062, loss thresholds on both sides of 0
    (0.0, 1.0, 1.0, 1.5),
    (0.5, 1.0, 1.0, 1.5),
    (2.0, 0.5, 1.0, 3.0),
    (1.0, 5.0, 2.0, 10.0),
    (3.0, 2.0, 1.0, 10.0),
    (30.0, 0.2, 1.0, 2.5),
    (1e-6, 2e5, 1.0, 2.0),
    (1e-6, 1e6, 1.0, 1.01),
    (0.1, 30.0, 1.0, 10.0),
    (1.0, 40.0, 1.0, 2.0),
    (1e3, 0.33, 1.0, 3.0),
    (1e3, 0.005, 1.0, 1.2),
    (5.0, 1.0, 1.0, 1.0),
    (0.2, 1.0, 1.0, 1.0),
]


@pytest.mark.parametrize("epsilon, scale, sensitivity, order", PROFILE_CASES)
def test_profile_matches_mpmath(epsilon, scale, sensitivity, order):
    exact = mp_profile(epsilon, scale, sensitivity, order)
    computed = generalized_gaussian_log_delta(epsilon, scale, sensitivity, order)
    if exact == 0:
        assert computed == -math.inf
        return
    assert computed == pytest.approx(float(mp.log(exact)), rel=1e-12, abs=1e-13)
    if exact > 1e-300:
        assert generalized_gaussian_delta(epsilon, scale, sensitivity, order) == pytest.approx(float(exact), rel=1e-11)


def test_profile_reaches_far_below_1e300():
    exact = mp_profile(1.0, 150.0, 1.0, 2.0)
    assert exact < mp.mpf("1e-2000")
    assert generalized_gaussian_log_delta(1.0, 150.0, 1.0, 2.0) == pytest.approx(float(mp.log(exact)), rel=1e-13)
    assert generalized_gaussian_delta(1.0, 150.0, 1.0, 2.0) == 0.0


@pytest.mark.parametrize("epsilon, scale, order", [(0.5, 1.0, 1.5), (2.0, 0.7, 3.0), (1.0, 2.0, 2.0)])
def test_profile_formula_matches_quadrature_of_the_densities(epsilon, scale, order):
    exact = mp_profile_by_quadrature(epsilon, scale, 1.0, order)
    assert generalized_gaussian_delta(epsilon, scale, 1.0, order) == pytest.approx(float(exact), rel=1e-10)


def test_profile_at_zero_epsilon_is_total_variation():
    orders_ = np.array([1.0, 1.5, 2.0, 6.0])
    scale = 0.9
    expected = special.gammainc(1 / orders_, (0.5 / scale) ** orders_)
    assert generalized_gaussian_delta(0.0, scale, 1.0, orders_) == pytest.approx(expected, rel=1e-13)


def test_profile_at_p2_is_the_analytic_gaussian_profile():
    epsilon = np.array([0.0, 0.5, 1.0, 2.0, 5.0, 10.0])
    # docs/math.md section 2.5: σ = 1, Δ = 1.
    reference = [
        0.382924922548,
        0.2384217081349,
        0.1269367375066,
        0.02092363582111,
        5.793721691919e-7,
        9.812705826847e-23,
    ]
    assert generalized_gaussian_delta(epsilon, SQRT2, 1.0, 2.0) == pytest.approx(reference, rel=1e-11)
    scales = np.array([0.1, 1.0, 30.0])[:, None]
    assert generalized_gaussian_delta(epsilon, scales, 1.0, 2.0) == pytest.approx(
        gaussian_delta(epsilon, scales / SQRT2, 1.0), rel=1e-11, abs=1e-300
    )


def test_profile_at_p1_is_the_laplace_profile():
    epsilon = np.array([0.0, 0.3, 0.99, 1.0, 2.0])
    expected = np.where(epsilon < 1.0, -np.expm1((epsilon - 1.0) / 2), 0.0)
    assert generalized_gaussian_delta(epsilon, 1.0, 1.0, 1.0) == pytest.approx(expected, rel=1e-14)


def test_profile_is_continuous_as_order_tends_to_one():
    laplace = generalized_gaussian_delta(0.4, 1.0, 1.0, 1.0)
    assert generalized_gaussian_delta(0.4, 1.0, 1.0, 1.0 + 1e-7) == pytest.approx(laplace, rel=1e-5)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 50.0), st.floats(-2.0, 2.0).map(lambda e: 10.0**e), smooth_orders)
def test_profile_is_monotone(epsilon, scale, order):
    log_delta = generalized_gaussian_log_delta(epsilon, scale, 1.0, order)
    # The reported log δ is raised by a rounding margin (issue 9: every reported δ errs upward) whose
    # factor 1 + 0.1/(p - 1) applies only where ε > 0, so from ε = 0 to ε = 1e-9 the report may rise
    # by that margin (seen: 5e-16 relative); the exact profile is monotone, the report within its margin.
    margin = 1e-13 * (1.0 + abs(log_delta))
    assert generalized_gaussian_log_delta(epsilon * 1.01 + 1e-9, scale, 1.0, order) <= log_delta + margin
    assert generalized_gaussian_log_delta(epsilon, scale * 1.01, 1.0, order) <= log_delta + margin


# --- calibration: approximate DP -----------------------------------------------------------------


CALIBRATION_GRID = [
    (epsilon, delta, order)
    for order in (1.01, 1.5, 3.0, 10.0)
    for epsilon, delta in ((1e-6, 1e-5), (0.01, 1e-300), (1.0, 1e-10), (1.0, 0.5), (1e3, 1e-300), (1e3, 1e-5))
]


@pytest.mark.parametrize("epsilon, delta, order", CALIBRATION_GRID)
def test_approximate_scale_meets_delta_in_exact_arithmetic_and_is_tight(epsilon, delta, order):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    exact = mp_profile(epsilon, scale, 1.0, order)
    assert exact <= mp.mpf(delta)
    # Not wastefully large: 1e-10 less noise already breaks δ.
    assert mp_profile(epsilon, scale * (1 - 1e-10), 1.0, order) > mp.mpf(delta)


@pytest.mark.parametrize(
    "epsilon, delta",
    [
        (1e-6, 1e-5),
        (0.01, 1e-5),
        (0.1, 1e-5),
        (1.0, 1e-5),
        (1.0, 1e-100),
        (1.0, 1e-300),
        (10.0, 1e-5),
        (1e3, 1e-300),
        (0.5, 0.9),
        (0.0, 1e-3),
        (0.0, 0.5),
    ],
)
def test_p2_reduces_to_the_analytic_gaussian(epsilon, delta):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, 2.0)
    assert scale == pytest.approx(SQRT2 * analytic_gaussian_sigma(epsilon, delta, 1.0), rel=1e-11)


def test_p2_reproduces_the_math_reference_table():
    # docs/math.md section 2.5 (σ_aGM, Δ = 1), 13 significant digits.
    table = [
        (1e-6, 1e-5, 38021.98146875),
        (0.01, 1e-5, 243.7854376757),
        (1.0, 1e-5, 3.730631634816),
        (1.0, 1e-300, 36.86549789411),
        (1000.0, 1e-300, 0.04753766013224),
        (0.5, 0.9, 0.2841201552895),
    ]
    for epsilon, delta, sigma in table:
        assert generalized_gaussian_scale(epsilon, delta, 1.0, 2.0) / SQRT2 == pytest.approx(sigma, rel=5e-13)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.just(0.0), epsilons), deltas)
def test_p1_reduces_to_the_exact_laplace_profile(epsilon, delta):
    assert generalized_gaussian_scale(epsilon, delta, 2.0, 1.0) == laplace_scale_for_delta(epsilon, delta, 2.0)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.just(0.0), epsilons), deltas, orders, st.floats(-3.0, 3.0).map(lambda e: 10.0**e))
def test_approximate_scale_meets_delta(epsilon, delta, order, sensitivity):
    scale = generalized_gaussian_scale(epsilon, delta, sensitivity, order)
    assert 0 < scale < math.inf
    assert generalized_gaussian_log_delta(epsilon, scale, sensitivity, order) <= math.log(delta)
    assert generalized_gaussian_delta(epsilon, scale, sensitivity, order) <= delta


@settings(max_examples=40, deadline=None)
@given(epsilons, deltas, orders, st.floats(0.01, 100.0))
def test_approximate_scale_is_monotone_and_linear_in_sensitivity(epsilon, delta, order, factor):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    assert generalized_gaussian_scale(epsilon * 1.001, delta, 1.0, order) <= scale
    assert generalized_gaussian_scale(epsilon, min(delta * 1.5, 0.999), 1.0, order) <= scale
    assert generalized_gaussian_scale(epsilon, delta, factor, order) == pytest.approx(factor * scale, rel=1e-13)


@settings(max_examples=50, deadline=None)
@given(epsilons, deltas, smooth_orders)
def test_round_trip_scale_profile_epsilon(epsilon, delta, order):
    # For p >= 1.05 the profile is smooth in b, so one ulp of b moves log δ by at most ~1e-12 relative.
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    log_delta = generalized_gaussian_log_delta(epsilon, scale, 1.0, order)
    assert log_delta == pytest.approx(math.log(delta), rel=1e-10, abs=1e-10)
    recovered = generalized_gaussian_epsilon(delta, scale, 1.0, order)
    assert generalized_gaussian_log_delta(recovered, scale, 1.0, order) <= math.log(delta)
    # (plus 1e-15 absolute: at small ε, d log δ/dε is about 1, so the last bit of log δ moves ε by ~1e-16)
    assert recovered <= epsilon * (1 + 1e-12) + 1e-15
    assert recovered == pytest.approx(epsilon, rel=1e-6, abs=1e-9)


def test_epsilon_inverse_edge_cases():
    assert generalized_gaussian_epsilon(0.9, 1.0, 1.0, 3.0) == 0.0  # δ above the TV distance
    assert generalized_gaussian_epsilon(0.1269367375066, SQRT2, 1.0, 2.0) == pytest.approx(1.0, rel=1e-10)
    assert generalized_gaussian_epsilon(0.3, 1.0, 1.0, 1.0) == pytest.approx(1.0 + 2 * math.log(0.7), rel=1e-14)
    result = generalized_gaussian_epsilon(np.array([1e-300, 1e-5, 0.3]), 0.2, 1.0, np.array([[1.0], [2.0], [7.0]]))
    assert result.shape == (3, 3) and np.all(np.isfinite(result)) and np.all(np.diff(result, axis=1) <= 0)


def test_calibration_broadcasts_and_returns_floats_for_scalars():
    assert isinstance(generalized_gaussian_scale(1.0, 1e-5), float)
    epsilon, delta, order = np.array([[0.5], [1.0]]), np.array([1e-5, 1e-3, 0.1]), np.array([1.0, 2.0, 4.0])
    result = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    assert result.shape == (2, 3)
    assert result[0, 1] == generalized_gaussian_scale(0.5, 1e-3, 1.0, 2.0)


# --- calibration: probabilistic DP, Corollary 7 (reconstructed) -----------------------------------


def test_probabilistic_reproduces_math_table():
    # docs/math.md section 5.4, Δ = 1.
    table = {
        (1.0, 1e-5): (1.0, 6.4030, 13.447, 20.839),
        (0.5, 0.01): (2.0, 7.5504, 12.509, 16.743),
        (2.0, 1e-3): (0.5, 2.5248, 4.797, 7.008),
    }
    for (epsilon, delta), row in table.items():
        orders_ = np.array([1.0, 2.0, 3.0, 4.0])
        computed = generalized_gaussian_scale(epsilon, delta, 1.0, orders_, guarantee="probabilistic")
        assert computed == pytest.approx(row, rel=1e-4)


@settings(max_examples=80, deadline=None)
@given(epsilons, deltas, st.floats(-3.0, 3.0).map(lambda e: 10.0**e))
def test_probabilistic_reduces_to_lemma10_and_laplace(epsilon, delta, sensitivity):
    gaussian = generalized_gaussian_scale(epsilon, delta, sensitivity, 2.0, guarantee="probabilistic")
    assert gaussian == pytest.approx(SQRT2 * pdp_gaussian_sigma(epsilon, delta, sensitivity), rel=1e-11)
    laplace = generalized_gaussian_scale(epsilon, delta, sensitivity, 1.0, guarantee="probabilistic")
    assert laplace == laplace_scale(epsilon, sensitivity)


@settings(max_examples=100, deadline=None)
@given(epsilons, deltas, orders)
def test_probabilistic_scale_meets_its_condition(epsilon, delta, order):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order, guarantee="probabilistic")
    assert generalized_gaussian_pdp_delta(epsilon, scale, 1.0, order) <= delta
    if order > 1.0:
        assert generalized_gaussian_pdp_delta(epsilon, scale * (1 - 1e-9), 1.0, order) > delta
    # pDP implies approximate DP, and the exact calibration never needs more noise. Both computed
    # scales sit above their exact values by their safety margins (a few ulps, more as p -> 1, e.g.
    # 4 ulps at p = 1 + 2^-52), so the comparison allows that much.
    assert generalized_gaussian_scale(epsilon, delta, 1.0, order) <= scale * (1.0 + 1e-13)


@pytest.mark.parametrize(
    "epsilon, scale, order",
    [(1.0, 6.403, 2.0), (0.5, 12.0, 3.0), (2.0, 7.0, 4.0), (1e-3, 3e4, 1.5), (1.0, 100.0, 10.0), (1.0, 0.9, 3.0)],
)
def test_pdp_delta_matches_mpmath(epsilon, scale, order):
    exact = mp_pdp_delta(epsilon, scale, 1.0, order)
    computed = generalized_gaussian_pdp_delta(epsilon, scale, 1.0, order)
    assert computed == pytest.approx(float(exact), rel=1e-11)
    assert computed >= float(exact) * (1 - 1e-14)


@pytest.mark.parametrize(
    "epsilon, delta, order", [(1.0, 1e-300, 3.0), (1e-6, 1e-5, 2.5), (1e3, 1e-100, 10.0), (0.1, 0.5, 1.2)]
)
def test_probabilistic_scale_meets_condition_in_exact_arithmetic(epsilon, delta, order):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order, guarantee="probabilistic")
    assert mp_pdp_delta(epsilon, scale, 1.0, order) <= mp.mpf(delta)


def test_pdp_delta_for_laplace_is_all_or_nothing():
    assert generalized_gaussian_pdp_delta(1.0, laplace_scale(1.0), 1.0, 1.0) == 0.0
    assert generalized_gaussian_pdp_delta(1.0, 0.99, 1.0, 1.0) == 1.0
    assert generalized_gaussian_pdp_delta(1.0, 0.5, 1.0, 3.0) == 1.0  # Δ^p >= ε b^p: no t* works


def test_corollary7_label():
    assert COROLLARY7_LABEL == "Corollary 7 (reconstructed)"
    assert COROLLARY7_LABEL in generalized.generalized_gaussian_scale.__doc__
    assert COROLLARY7_LABEL in generalized.generalized_gaussian_pdp_delta.__doc__


# --- truncated and BIT GG (docs/math.md section 5.6) -----------------------------------------------------------


def brute_force_grid(scale, sensitivity, order, width):
    """Neighbouring true values (s1, s2) on [0, W] with |s1 - s2| <= Δ, and the sup over a grid of
    outputs y in [0, W] of the GG kernel's log-ratio ``(|y - s2|^p - |y - s1|^p)/b^p``."""
    first = np.linspace(0.0, width, 201)[:, None]
    second = first + np.linspace(-sensitivity, sensitivity, 41)[None, :]
    allowed = (second >= 0.0) & (second <= width)
    outputs = np.linspace(0.0, width, 401)
    kernel = (
        (np.abs(outputs - second[..., None]) / scale) ** order - (np.abs(outputs - first[..., None]) / scale) ** order
    ).max(axis=2)
    return first, second, allowed, kernel


def brute_force_bit_epsilon(scale, sensitivity, order, width):
    """sup of the log-ratio of the clamped releases: the kernel inside, the atoms at the bounds."""
    first, second, allowed, kernel = brute_force_grid(scale, sensitivity, order, width)

    def log_survival(x):
        return stats.gennorm.logsf(x / scale, order)

    upper_atom = log_survival(width - first) - log_survival(width - second)
    lower_atom = log_survival(first) - log_survival(second)
    return np.where(allowed, np.maximum(kernel, np.maximum(upper_atom, lower_atom)), -np.inf).max()


def brute_force_truncated_epsilon(scale, sensitivity, order, width):
    """sup of the log-ratio of the renormalised (truncated) releases: kernel plus normaliser ratio."""
    first, second, allowed, kernel = brute_force_grid(scale, sensitivity, order, width)

    def log_mass(center):
        return np.log(stats.gennorm.cdf((width - center) / scale, order) - stats.gennorm.cdf(-center / scale, order))

    return np.where(allowed, kernel + log_mass(second) - log_mass(first), -np.inf).max()


def test_bit_epsilon_matches_math_example_and_brute_force():
    assert bit_gg_epsilon(0.7, 0.5, 2.0, 0.0, 1.0) == pytest.approx(1.97501, abs=5e-6)
    formula = bit_gg_epsilon(0.7, 0.5, 2.0, 0.0, 1.0)
    assert brute_force_bit_epsilon(0.7, 0.5, 2.0, 1.0) == pytest.approx(formula, rel=1e-9)


@pytest.mark.parametrize(
    "scale, sensitivity, order, width",
    [(0.5, 0.3, 3.0, 1.0), (2.0, 1.0, 1.5, 2.0), (1.0, 1.0, 10.0, 1.0), (0.2, 1.0, 2.0, 1.0), (0.7, 0.5, 1.0, 1.0)],
)
def test_bit_epsilon_matches_brute_force(scale, sensitivity, order, width):
    formula = bit_gg_epsilon(scale, sensitivity, order, -width / 2, width / 2)
    assert brute_force_bit_epsilon(scale, sensitivity, order, width) == pytest.approx(formula, rel=1e-6)


def test_bit_epsilon_for_laplace_is_sensitivity_over_scale():
    scale = np.array([0.1, 1.0, 3.0])
    assert bit_gg_epsilon(scale, 0.5, 1.0, 0.0, 2.0) == pytest.approx(0.5 / scale, rel=1e-14)


def test_bit_epsilon_is_finite_deep_in_the_tails():
    # S_b(W) is about exp(-1e4): the ratio is formed in log space.
    epsilon = bit_gg_epsilon(0.01, 0.5, 2.0, 0.0, 1.0)
    assert math.isfinite(epsilon) and epsilon == pytest.approx(7500.0, rel=1e-3)


@settings(max_examples=60, deadline=None)
@given(epsilons, orders, st.floats(0.01, 1.0))
def test_bit_scale_is_the_smallest_private_scale(epsilon, order, fraction):
    scale = bit_gg_scale(epsilon, fraction, order, 0.0, 1.0)
    assert bit_gg_epsilon(scale, fraction, order, 0.0, 1.0) <= epsilon
    assert bit_gg_epsilon(scale * (1 - 1e-12), fraction, order, 0.0, 1.0) > epsilon


def test_bit_scale_for_laplace_and_round_trip():
    assert bit_gg_scale(0.5, 1.0, 1.0, 0.0, 4.0) == pytest.approx(2.0, rel=1e-14)
    assert bit_gg_scale(1.97501, 0.5, 2.0, 0.0, 1.0) == pytest.approx(0.7, rel=1e-5)


def test_truncated_bound_is_sufficient_and_closed_form():
    # docs/math.md section 5.6: exact ε 1.168 at p = 2, W = 1, Δ = 0.5, b = 0.7, against the bound 2A(b) = 3.06.
    assert brute_force_truncated_epsilon(0.7, 0.5, 2.0, 1.0) == pytest.approx(1.168, abs=1e-3)
    for scale, sensitivity, order in [(0.7, 0.5, 2.0), (0.5, 0.3, 3.0), (2.0, 1.0, 1.5), (0.7, 0.5, 1.0)]:
        bound = 2 * (1.0 - (1.0 - sensitivity) ** order) / scale**order
        assert brute_force_truncated_epsilon(scale, sensitivity, order, 1.0) <= bound * (1 + 1e-12)
    assert truncated_gg_scale(1.0, 1.0, 1.0, 0.0, 10.0) == pytest.approx(2.0, rel=1e-14)  # 2Δ/ε
    scale = truncated_gg_scale(3.0612244897959187, 0.5, 2.0, 0.0, 1.0)
    assert scale == pytest.approx(0.7, rel=1e-14)


@settings(max_examples=60, deadline=None)
@given(epsilons, orders, st.floats(0.01, 1.0), st.floats(0.1, 100.0))
def test_truncated_scale_meets_its_condition(epsilon, order, fraction, width):
    scale = truncated_gg_scale(epsilon, fraction * width, order, 0.0, width)
    kernel = (width**order - (width - fraction * width) ** order) / scale**order
    assert 2 * kernel <= epsilon * (1 + 1e-13)
    closed_form = (2 * (width**order - (width - fraction * width) ** order) / epsilon) ** (1 / order)
    assert scale == pytest.approx(closed_form, rel=1e-12)


@pytest.mark.parametrize(
    "center, scale, order, lower, upper",
    [
        (0.5, 1.0, 2.0, 0.0, 1.0),
        (0.2, 0.3, 3.0, 0.0, 1.0),
        (0.0, 1.0, 1.0, -2.0, 5.0),
        (0.0, 1.0, 2.0, 6.0, 7.0),  # the interval deep in the right tail
        (0.0, 1.0, 2.0, -9.0, -8.0),  # and in the left tail (probability 1e-16)
        (0.0, 0.5, 10.0, 0.9, 1.0),
    ],
)
def test_truncated_sampler_matches_restricted_distribution(center, scale, order, lower, upper):
    rng = np.random.default_rng(77)
    samples = truncated_gg_sample(rng, 50_000, center, scale, order, lower, upper)
    assert samples.min() >= lower and samples.max() <= upper

    def mass(start, stop):  # P(start < X - center < stop), from the tail on the side of the interval
        if start >= 0:
            return mp_cdf(-start, scale, order) - mp_cdf(-stop, scale, order)
        return mp_cdf(stop, scale, order) - mp_cdf(start, scale, order)

    def restricted_cdf(x):
        total = mass(lower - center, upper - center)
        return np.array([float(mass(lower - center, v - center) / total) for v in np.atleast_1d(x)])

    grid = np.linspace(lower, upper, 41)
    empirical = np.searchsorted(np.sort(samples), grid, side="right") / samples.size
    assert np.max(np.abs(empirical - restricted_cdf(grid))) < 1.63 * 1.3 / math.sqrt(samples.size)  # KS 1% level


def test_truncated_sampler_refuses_an_interval_of_unrepresentable_probability():
    with pytest.raises(ValueError, match="below 1e-308"):
        truncated_gg_sample(np.random.default_rng(0), 3, 0.0, 1.0, 2.0, -30.0, -29.0)


def test_bit_sampler_puts_the_tail_mass_on_the_bounds():
    rng = np.random.default_rng(11)
    n, center, scale, order = 200_000, 0.8, 0.5, 2.0
    samples = bit_gg_sample(rng, n, center, scale, order, 0.0, 1.0)
    upper_mass = float(mp_upper_gamma(order, ((1.0 - center) / scale) ** order) / 2)
    lower_mass = float(mp_upper_gamma(order, (center / scale) ** order) / 2)
    for observed, expected in ((np.mean(samples == 1.0), upper_mass), (np.mean(samples == 0.0), lower_mass)):
        assert abs(observed - expected) < 5 * math.sqrt(expected * (1 - expected) / n)
    inside = samples[(samples > 0.0) & (samples < 1.0)]

    def conditional_cdf(x):
        return (gg_cdf(x - center, scale, order) - lower_mass) / (1 - lower_mass - upper_mass)

    assert stats.kstest(inside, conditional_cdf).pvalue > 1e-3


# --- Liu's Gaussian-versus-Laplace comparisons (docs/math.md section 5.7) ----------------------------------------


def test_lemma11_threshold_and_ratio():
    assert LEMMA11_DELTA_THRESHOLD == pytest.approx(float(2 * mp.ncdf(-mp.sqrt(2))), rel=1e-15)
    assert LEMMA11_DELTA_THRESHOLD == pytest.approx(0.157299207050285, rel=1e-14)
    for epsilon, delta in [(1.0, 1e-5), (0.1, 0.01), (10.0, 1e-100)]:
        with mp.workdps(250):  # δ - 1 must keep the digits of δ = 1e-100
            z = -mp.sqrt(2) * mp.erfinv(mp.mpf(delta) - 1)
        expected = (z + mp.sqrt(z**2 + 2 * mp.mpf(epsilon))) ** 2 / 8
        assert lemma11_variance_ratio(epsilon, delta) == pytest.approx(float(expected), rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(epsilons, st.floats(-300.0, math.log10(LEMMA11_DELTA_THRESHOLD) - 1e-9).map(lambda e: 10.0**e))
def test_lemma11_gaussian_has_more_variance_below_the_threshold(epsilon, delta):
    assert lemma11_variance_ratio(epsilon, delta) > 1.0


def test_tail_ratio_matches_mpmath_and_stays_finite_when_both_tails_underflow():
    for t, gaussian in [(3.0, "pdp"), (0.5, "analytic"), (40.0, "pdp")]:
        comparison = laplace_gaussian_tail_ratio(t, 1.0, 1e-5, 1.0, gaussian=gaussian)
        sigma = pdp_gaussian_sigma(1.0, 1e-5, 1.0) if gaussian == "pdp" else analytic_gaussian_sigma(1.0, 1e-5, 1.0)
        p1, p2 = mp.exp(-mp.mpf(t)), mp.erfc(mp.mpf(t) / (mp.mpf(sigma) * mp.sqrt(2)))
        assert comparison.laplace == pytest.approx(float(p1), rel=1e-13)
        assert comparison.gaussian == pytest.approx(float(p2), rel=1e-12)
        assert comparison.ratio == pytest.approx(float(p1 / p2), rel=1e-11)
    deep = laplace_gaussian_tail_ratio(np.array([800.0, 2000.0]), 1.0, 1e-5)
    assert np.all(deep.laplace == 0.0) and np.all(deep.gaussian == 0.0)
    assert np.all(np.isfinite(deep.log_ratio)) and np.all(deep.log_ratio > 0)
    p1, p2 = mp.exp(-800), mp.erfc(800 / (mp.mpf(pdp_gaussian_sigma(1.0, 1e-5)) * mp.sqrt(2)))
    assert deep.log_ratio[0] == pytest.approx(float(mp.log(p1 / p2)), rel=1e-12)
    assert deep.ratio[1] == math.inf  # exp of the log-ratio overflows only here


def test_privacy_cost_ratio_matches_its_definition():
    for t, tail, delta, sensitivity in [(1.0, 0.01, 1e-5, 1.0), (3.0, 1e-6, 1e-10, 2.0), (0.2, 0.5, 0.1, 1.0)]:
        laplace_epsilon = sensitivity * math.log(1 / tail) / t
        sigma = t / -special.ndtri(tail / 2)
        z = -special.ndtri(delta / 2)
        relative = sigma / sensitivity
        gaussian_epsilon = (1 + 2 * relative * z) / (2 * relative**2)
        expected = gaussian_epsilon / laplace_epsilon
        assert privacy_cost_ratio(t, tail, delta, sensitivity) == pytest.approx(expected, rel=1e-13)
        # ε₂ is Lemma 10 inverted: the pDP Gaussian at ε₂ has exactly that σ.
        assert pdp_gaussian_sigma(gaussian_epsilon, delta, sensitivity) == pytest.approx(sigma, rel=1e-12)


# --- validation and extremes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: generalized_gaussian_scale(1.0, 1e-5, 1.0, 0.5),
        lambda: generalized_gaussian_scale(1.0, 1e-5, 1.0, 10.5),
        lambda: generalized_gaussian_scale(1.0, 1e-5, 1.0, math.nan),
        lambda: generalized_gaussian_scale(1.0, 1.0),
        lambda: generalized_gaussian_scale(1.0, 0.0),
        lambda: generalized_gaussian_scale(-1.0, 1e-5),
        lambda: generalized_gaussian_scale(math.inf, 1e-5),
        lambda: generalized_gaussian_scale(1.0, 1e-5, -1.0),
        lambda: generalized_gaussian_scale(0.0, 1e-5, guarantee="probabilistic"),
        lambda: generalized_gaussian_scale(1.0, 1e-5, guarantee="pure"),
        lambda: generalized_gaussian_delta(1.0, 0.0),
        lambda: generalized_gaussian_epsilon(1.5, 1.0),
        lambda: generalized_gaussian_pdp_delta(0.0, 1.0),
        lambda: gg_pdf(0.0, 1.0, 0.9),
        lambda: gg_tail(-1.0, 1.0, 2.0),
        lambda: gg_log_tail(1.0, -1.0, 2.0),
        lambda: gg_absolute_moment(-1.0, 1.0, 2.0),
        lambda: truncated_gg_scale(1.0, 0.5, 2.0, 1.0, 1.0),
        lambda: truncated_gg_scale(1.0, 0.5, 2.0, 1.0, 0.0),
        lambda: truncated_gg_scale(1.0, 2.0, 2.0, 0.0, 1.0),
        lambda: bit_gg_epsilon(1.0, 0.5, 2.0, 0.0, math.inf),
        lambda: bit_gg_scale(0.0, 0.5, 2.0, 0.0, 1.0),
        lambda: truncated_gg_sample(np.random.default_rng(0), 3, 0.5, 1.0, 2.0, 1.0, 0.0),
        lambda: gg_sample(np.random.default_rng(0), 3, 1.0, 11.0),
        lambda: lemma11_variance_ratio(0.0, 1e-5),
        lambda: laplace_gaussian_tail_ratio(1.0, 1.0, 1e-5, gaussian="classical"),
        lambda: privacy_cost_ratio(0.0, 0.1, 1e-5),
        lambda: privacy_cost_ratio(1.0, 1.0, 1e-5),
    ],
)
def test_bad_values_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_messages_name_the_parameter_and_range():
    with pytest.raises(ValueError, match=r"order must be in \[1, 10\].*index 2"):
        generalized_gaussian_scale(1.0, 1e-5, 1.0, [1.0, 2.0, 12.0])
    with pytest.raises(ValueError, match="sensitivity must be at most the width"):
        bit_gg_scale(1.0, 2.0, 2.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="lower < upper"):
        bit_gg_epsilon(1.0, 0.5, 2.0, 2.0, 1.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: generalized_gaussian_scale("1", 1e-5),
        lambda: generalized_gaussian_scale(1.0, 1e-5, order="2"),
        lambda: gg_tail(None, 1.0, 2.0),
        lambda: gg_sample(None, 3, 1.0, 2.0),
        lambda: truncated_gg_sample(np.random.RandomState(0), 3, 0.5, 1.0, 2.0, 0.0, 1.0),
    ],
)
def test_bad_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_extremes_are_finite_and_silent():
    epsilon = np.array([0.0, 1e-6, 1.0, 1e3])[:, None, None]
    delta = np.array([1e-300, 1e-5, 0.5, 1 - 1e-9])[None, :, None]
    order = np.array([1.0, 1.0 + 1e-6, 1.001, 2.0, 10.0])[None, None, :]
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    assert np.all(np.isfinite(scale)) and np.all(scale > 0)
    assert np.all(generalized_gaussian_log_delta(epsilon, scale, 1.0, order) <= np.log(delta))
    probabilistic = generalized_gaussian_scale(epsilon[1:], delta, 1.0, order, guarantee="probabilistic")
    assert np.all(np.isfinite(probabilistic))
    assert np.all(generalized_gaussian_pdp_delta(epsilon[1:], probabilistic, 1.0, order) <= delta)
    # Profiles at absurd scales: δ -> 1 for b -> 0 and δ -> 0 for b -> inf, without overflow.
    assert generalized_gaussian_delta(1.0, 1e-300, 1.0, np.array([1.5, 10.0])) == pytest.approx([1.0, 1.0])
    assert np.all(generalized_gaussian_log_delta(1e3, 1e-300, 1e300, np.array([1.0, 2.0, 10.0])) == 0.0)
    assert np.all(generalized_gaussian_delta(0.0, 1e300, 1.0, np.array([1.0, 1.5, 10.0])) < 1e-299)
    assert generalized_gaussian_epsilon(1e-300, 1e-40, 1.0, 10.0) == math.inf  # (Δ/b)^p = 1e400
    assert generalized_gaussian_epsilon(1e-300, 1e-10, 1.0, 10.0) == pytest.approx(1e100, rel=1e-6)
    assert np.all(np.isfinite(generalized_gaussian_epsilon(1e-300, 1e-3, 1.0, np.array([1.0, 1.5, 10.0]))))
    assert np.all(np.isfinite(bit_gg_scale(np.array([1e-6, 1e3]), 1.0, np.array([[1.0], [2.0], [10.0]]), 0.0, 1.0)))
    assert np.all(np.isfinite(truncated_gg_scale(np.array([1e-6, 1e3]), 1.0, 10.0, 0.0, 1e30)))
    assert gg_tail(1e300, 1.0, 10.0) == 0.0 and gg_log_tail(1e300, 1.0, 10.0) == -math.inf
    assert gg_pdf(1e300, 1.0, 10.0) == 0.0 and gg_cdf(-1e300, 1.0, 10.0) == 0.0


def test_doctests():
    result = doctest.testmod(generalized)
    assert result.attempted > 0 and result.failed == 0


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------


def _privacy_cost_ratio_mp(t, tail, delta, sensitivity):
    """ε₂/ε₁ of Liu Sec. 3 in mpmath, from its definition (σ, then Lemma 10 inverted)."""
    with mp.workdps(400):  # 1 − τ must keep τ = 5e-324
        t, tail, delta, sensitivity = (mp.mpf(v) for v in (t, tail, delta, sensitivity))
        w = mp.sqrt(2) * mp.erfinv(1 - tail)  # -Φ⁻¹(τ/2) = √2 erfinv(1 − τ)
        z = mp.sqrt(2) * mp.erfinv(1 - delta)
        s = t / w / sensitivity
        return float(((1 + 2 * s * z) / (2 * s * s)) / (sensitivity * mp.log(1 / tail) / t))


@pytest.mark.parametrize(
    ("t", "tail", "delta", "sensitivity"),
    [
        (1.0, 0.01, 1e-5, 1.0),
        (1.0, 5e-324, 1e-5, 1.0),
        (1.0, 0.01, 5e-324, 1.0),
        (1e-300, 0.01, 1e-5, 1.0),
        (1e300, 0.01, 1e-5, 1.0),
        (1.0, 0.01, 1e-5, 1e-300),
    ],
)
def test_privacy_cost_ratio_against_mpmath_at_the_edges(t, tail, delta, sensitivity):
    expected = _privacy_cost_ratio_mp(t, tail, delta, sensitivity)
    assert generalized.privacy_cost_ratio(t, tail, delta, sensitivity) == pytest.approx(expected, rel=1e-12)


def test_lemma11_ratio_at_a_subnormal_epsilon_is_the_closed_form_limit():
    z = -special.ndtri(0.5e-5)
    assert generalized.lemma11_variance_ratio(5e-324, 1e-5) == pytest.approx(z * z / 2.0, rel=1e-14)


def test_gg_density_at_the_largest_std_is_not_zero():
    largest = float(np.finfo(float).max)
    expected = float(mp.mpf(0.3989422804014327) / mp.mpf(largest))  # 1/(√(2π) σ) at p = 2
    assert generalized.gg_density_at_mean_equal_variance(largest, 2.0) == pytest.approx(expected, rel=1e-9)


def test_gg_absolute_moment_in_log_space_is_finite_where_b_to_the_q_underflows():
    # p = 1: E|X|^q = b^q Γ(q + 1); at b = 1e-2, q = 200, b^q = 1e-400 underflows, the moment is 7.9e-26
    expected = float(mp.mpf("1e-2") ** 200 * mp.gamma(201))
    assert generalized.gg_absolute_moment(200.0, 1e-2, 1.0) == pytest.approx(expected, rel=1e-12)


def test_truncated_sampler_with_bounds_far_out_in_standard_units_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        draws = truncated_gg_sample(np.random.default_rng(0), 50, 0.25, 1.5, 2.0, -1e300, 1e300)
    assert np.all(np.isfinite(draws))


def test_bit_sampler_refuses_a_center_outside_its_bounds():
    with pytest.raises(ValueError, match="^center must be in \\[lower, upper\\]"):
        bit_gg_sample(np.random.default_rng(0), 4, 1e300, 1.0, 2.0, 0.0, 1.0)


# --- p = 2 started from the Gaussian's closed forms (generalized._approximate_start, _pdp_log_delta) ---


@pytest.mark.parametrize("delta", [1e-300, 1e-50, 1e-10, 1e-5, 0.1, 0.6])
def test_order_two_start_agrees_with_the_bisection(delta):
    """b at p = 2 from √2 σ_aGM equals the threshold bisection's b to 1e-12, and meets δ exactly."""
    epsilon = np.concatenate([[0.0], np.logspace(-6, 3, 37)])
    fast = generalized_gaussian_scale(epsilon, delta, 1.0, 2.0)
    order = np.full_like(epsilon, 2.0)
    target = generalized._working_log_target(np.full_like(epsilon, delta), order, epsilon)
    slow = generalized._raise_until(
        lambda candidate, where: (
            generalized._log_profile(epsilon[where], 1.0 / candidate, order[where]) <= target[where]
        ),
        1.0 / generalized._approximate_scaled_sensitivity(epsilon, target, order),
    )
    finite = np.isfinite(slow)
    assert np.array_equal(finite, np.isfinite(fast))
    assert np.all(np.abs(fast[finite] / slow[finite] - 1.0) <= 1e-12)
    assert np.all(generalized._log_profile(epsilon[finite], 1.0 / fast[finite], order[finite]) <= math.log(delta))


@pytest.mark.parametrize("epsilon", [1e-6, 1e-2, 0.7, 5.0, 300.0])
@pytest.mark.parametrize("distance_fraction", [1e-12, 1e-3, 0.5, 0.999999])
def test_order_two_pdp_root_is_exact_and_on_the_safe_side(epsilon, distance_fraction):
    """The closed-form root s* = (ε/D − D)/2 of (s + D)² − s² = ε gives Q(½, s*²) to 1e-12, never below it."""
    distance = distance_fraction * math.sqrt(epsilon)  # D² < ε: a root exists
    got = float(generalized._pdp_log_delta(np.array([epsilon]), np.array([distance]), np.array([2.0]))[0])
    with mp.workdps(60):
        e, d = mp.mpf(epsilon), mp.mpf(distance)
        root = (e - d * d) / (2 * d)
        exact = mp.log(mp.gammainc(mp.mpf(1) / 2, root * root, mp.inf, regularized=True))
    assert got >= float(exact) - 1e-15 * (1 + abs(float(exact)))  # never the smaller δ
    assert abs(got - float(exact)) <= 1e-12 * (1 + abs(float(exact)))
