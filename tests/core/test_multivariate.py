"""R1SMG (as published, and its true privacy profile) and the i.i.d. MVG mechanism (docs/math.md sections 6, 7).

Oracles: mpmath at high precision for ψ, σ*, the harmonic numbers and the MVG constant; an
independent nested ``scipy.integrate.quad`` evaluation of the true δ(ε) (written from docs/math.md section 6.2
directly: the loss from the noise density, the cut by root finding); Monte Carlo over (z, t) and
over whole noise vectors with fixed seeds and CLT tolerances.
"""

from __future__ import annotations

import doctest
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, optimize, special, stats

import gaussmech_core.multivariate as multivariate
from gaussmech_core.gaussian import analytic_gaussian_sigma
from gaussmech_core.multivariate import (
    harmonic_number,
    harmonic_number_half,
    ji_li_constant_analytic,
    ji_li_constant_classical,
    ji_li_constant_mvg,
    ji_li_constant_r1smg,
    log_r1smg_psi,
    log_r1smg_sigma_star,
    mvg_iid_expected_loss,
    mvg_iid_std,
    mvg_K,
    r1smg_coordinate_pdf,
    r1smg_coordinate_tail,
    r1smg_norm_tail,
    r1smg_privacy_loss,
    r1smg_psi,
    r1smg_sample,
    r1smg_sigma_star,
    r1smg_true_delta,
    r1smg_true_delta_monte_carlo,
)

pytestmark = pytest.mark.filterwarnings("error")


def test_doctests_pass():
    result = doctest.testmod(multivariate, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20
    assert result.failed == 0


# ----------------------------------------------------------------------------------------------
# Oracles
# ----------------------------------------------------------------------------------------------


def mp_log_psi(delta, dim):
    mp.mp.dps = 60
    m = mp.mpf(dim)
    value = (2 / (m - 2)) * (mp.log(mp.mpf(delta)) + mp.loggamma((m - 1) / 2) - mp.log(mp.pi) / 2 - mp.loggamma(m / 2))
    return float(value)


def sphere_constant(dim):
    mp.mp.dps = 40
    return float(mp.gamma(mp.mpf(dim) / 2) / (mp.sqrt(mp.pi) * mp.gamma((mp.mpf(dim) - 1) / 2)))


def direct_loss(z, t, a, dim):
    """L from docs/math.md section 6.2 item 2 as written: r1² = z², r2² = z² + 2 z a t + a² (units of σ*)."""
    r1_sq = z * z
    r2_sq = z * z + 2.0 * z * a * t + a * a
    return 0.5 * (dim - 1) * math.log(r2_sq / r1_sq) + 0.5 * (r2_sq - r1_sq)


def reference_true_delta(epsilon, a, dim):
    """δ(ε) by nested adaptive quadrature: inner over θ = arccos t, outer over u = ln z in pieces."""
    c_m = sphere_constant(dim)

    def inner(z):
        gap = lambda theta: direct_loss(z, math.cos(theta), a, dim) - epsilon  # decreasing in θ
        if gap(0.0) <= 0.0:
            return 0.0
        top = math.pi if gap(math.pi) >= 0.0 else optimize.brentq(gap, 0.0, math.pi, xtol=1e-15, rtol=1e-15)
        integrand = lambda theta: c_m * math.sin(theta) ** (dim - 2) * -math.expm1(-gap(theta))
        return integrate.quad(integrand, 0.0, top, epsabs=0.0, epsrel=1e-12, limit=200)[0]

    outer = lambda u: 2.0 * math.exp(u) * math.exp(-0.5 * math.exp(2 * u)) / math.sqrt(2 * math.pi) * inner(math.exp(u))
    low = math.log(a) - epsilon / (dim - 1) - 40.0 / (dim - 1) - 2.0
    edges = np.arange(low, math.log(12.0), 0.5).tolist() + [math.log(12.0)]
    total = math.erf(math.exp(low) / math.sqrt(2.0))  # below `low`, 1 - e^{ε-L} = 1 to e^-40
    for left, right in zip(edges[:-1], edges[1:]):
        total += integrate.quad(outer, left, right, epsabs=0.0, epsrel=1e-12, limit=200)[0]
    return total


# ----------------------------------------------------------------------------------------------
# ψ, σ* and Ji & Li's constants (docs/math.md sections 6.1, 6.3, 6.4)
# ----------------------------------------------------------------------------------------------


def test_psi_and_sigma_star_reproduce_math_table():
    table = {3: (4.05e-11, 4.9e10), 10: (0.0407, 49.2), 100: (0.751, 2.66), 1000: (0.970, 2.06)}
    for dim, (psi, sigma) in table.items():
        assert r1smg_psi(1e-5, dim) == pytest.approx(psi, rel=2e-3)
        assert r1smg_sigma_star(1.0, 1e-5, 1.0, dim) == pytest.approx(sigma, rel=1e-2)


@pytest.mark.parametrize("delta", [0.3, 1e-5, 1e-100, 1e-300])
@pytest.mark.parametrize("dim", [3, 4, 7, 50, 51, 10**4, 10**6, 10**9])
def test_log_psi_matches_mpmath(delta, dim):
    assert log_r1smg_psi(delta, dim) == pytest.approx(mp_log_psi(delta, dim), rel=1e-14, abs=1e-14)


def test_psi_formula_and_the_density_constant():
    # docs/math.md section 6.1 writes "c_M psi^{(M-2)/2} = delta"; the stated formula actually gives
    # psi^{(M-2)/2} = delta / (pi c_M), i.e. c_M psi^{(M-2)/2} = delta/pi (the table agrees).
    for dim in (3, 4, 10, 100):
        lhs = sphere_constant(dim) * r1smg_psi(1e-5, dim) ** ((dim - 2) / 2)
        assert lhs == pytest.approx(1e-5 / math.pi, rel=1e-12)


def test_sigma_star_is_log_space_and_scales_with_sensitivity_squared():
    assert log_r1smg_sigma_star(1.0, 1e-300, 1.0, 3) == pytest.approx(math.log(2.0) - mp_log_psi(1e-300, 3), rel=1e-14)
    assert r1smg_sigma_star(1.0, 1e-300, 1.0, 3) == math.inf  # e^1383 overflows, without a warning
    assert r1smg_psi(1e-300, 3) == 0.0
    unit = r1smg_sigma_star(1.0, 1e-5, 1.0, 10)
    assert r1smg_sigma_star(2.0, 1e-5, 3.0, 10) == pytest.approx(9.0 / 2.0 * unit, rel=1e-14)
    grid = r1smg_sigma_star(np.array([0.5, 1.0]), 1e-5, 1.0, np.array([[10], [100]]))
    assert grid.shape == (2, 2)
    assert grid[0, 1] == pytest.approx(r1smg_sigma_star(1.0, 1e-5, 1.0, 10), rel=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-6, 1e3), st.floats(1e-300, 0.9), st.integers(3, 10**7))
def test_sigma_star_properties(epsilon, delta, dim):
    sigma = r1smg_sigma_star(epsilon, delta, 1.0, dim)
    assert sigma > 0
    assert ji_li_constant_r1smg(epsilon, delta, dim) == sigma
    # more privacy (smaller δ) costs more claimed noise
    assert r1smg_sigma_star(epsilon, delta / 2, 1.0, dim) >= sigma


def test_ji_li_constants_values():
    assert ji_li_constant_classical(1.0, 1e-5, 10) == pytest.approx(20.0 * math.log(1.25e5), rel=1e-15)
    quantile = float(mp.sqrt(2) * mp.erfinv(2 * mp.mpf("1e-5") - 1))
    assert ji_li_constant_analytic(1.0, 1e-5, 3) == pytest.approx(3 * (quantile**2 + 1.0), rel=1e-13)
    # docs/math.md section 7.3: C_M = 0.75 (1x1) and 246 (10x10)
    assert ji_li_constant_mvg(1.0, 1, 1) == pytest.approx(0.75, rel=1e-15)
    assert ji_li_constant_mvg(1.0, 10, 10) == pytest.approx(245.82, rel=1e-4)
    assert ji_li_constant_mvg(2.0, 10, 3) == pytest.approx(
        (1.25 * harmonic_number(3) + 0.25 * harmonic_number_half(3)) * 30 / 4.0, rel=1e-15
    )


def test_ca_is_not_a_bound_for_the_exact_analytic_gaussian():
    """docs/math.md section 6.3: C_A/M exceeds the exact aGM σ² (by 1.17-1.93×), so it bounds nothing."""
    table = [
        (0.1, 1e-5, 1828.9, 945.5),
        (1.0, 1e-5, 19.19, 13.92),
        (1.0, 1e-10, 41.47, 34.43),
        (5.0, 1e-5, 0.928, 0.795),
    ]
    for epsilon, delta, ca, agm in table:
        per_dim = ji_li_constant_analytic(epsilon, delta, 7) / 7
        agm_variance = analytic_gaussian_sigma(epsilon, delta, 1.0) ** 2
        assert per_dim == pytest.approx(ca, rel=1e-3)
        assert agm_variance == pytest.approx(agm, rel=1e-3)
        assert 1.15 < per_dim / agm_variance < 1.95


def test_cm_is_far_below_the_calibrated_mvg_loss():
    """docs/math.md sections 6.4/7.3: C_M Δ² <= C_M sqrt(MN) Δ² <= E‖Z‖² of the calibrated i.i.d. MVG."""
    for rows, cols in [(1, 1), (3, 4), (10, 10), (1, 50)]:
        for epsilon in (0.1, 1.0, 10.0):
            loss = mvg_iid_expected_loss(epsilon, 1e-5, 1.0, rows, cols, 0.5)
            bound = ji_li_constant_mvg(epsilon, rows, cols) * math.sqrt(rows * cols)
            assert bound <= loss
    assert mvg_iid_expected_loss(1.0, 1e-5, 1.0, 10, 10, 0.5) / ji_li_constant_mvg(1.0, 10, 10) > 1e6


# ----------------------------------------------------------------------------------------------
# Harmonic numbers and MVG (docs/math.md section 7)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("r", [1, 2, 10, 64, 65, 100, 10**4, 10**6, 10**9, 10**12])
def test_harmonic_numbers_match_mpmath(r):
    mp.mp.dps = 50
    assert harmonic_number(r) == pytest.approx(float(mp.harmonic(r)), rel=4e-16)
    assert harmonic_number_half(r) == pytest.approx(float(mp.zeta(0.5) - mp.zeta(0.5, r + 1)), rel=4e-16)


def test_harmonic_numbers_vectorized_and_across_the_table_edge():
    r = np.arange(1, 200)
    steps = np.diff(harmonic_number_half(r))
    np.testing.assert_allclose(steps, 1.0 / np.sqrt(r[1:]), rtol=1e-12)
    np.testing.assert_allclose(np.diff(harmonic_number(r)), 1.0 / r[1:], rtol=1e-12)
    assert harmonic_number(0) == 0.0 and harmonic_number_half(0) == 0.0


def mp_mvg_k(epsilon, delta, sensitivity, rows, cols, gamma):
    mp.mp.dps = 60
    m, n = mp.mpf(rows), mp.mpf(cols)
    r = min(rows, cols)
    h = mp.harmonic(r)
    h_half = mp.zeta(0.5) - mp.zeta(0.5, r + 1)
    ld = mp.log(mp.mpf(delta))
    zeta = 2 * mp.sqrt(-m * n * ld) - 2 * ld + m * n
    g, s, e = mp.mpf(gamma), mp.mpf(sensitivity), mp.mpf(epsilon)
    alpha = (h + h_half) * g**2 + 2 * h * g * s
    beta = 2 * (m * n) ** mp.mpf(0.25) * h * s * zeta
    return (-beta + mp.sqrt(beta**2 + 8 * alpha * e)) ** 2 / (4 * alpha**2)


@pytest.mark.parametrize(
    "args",
    [
        (1.0, 1e-5, 1.0, 1, 1, 0.5),
        (1.0, 1e-5, 1.0, 10, 10, 0.5),
        (1e-3, 1e-300, 2.0, 7, 3, 5.0),
        (1e3, 0.2, 0.1, 1000, 1, 1.0),
    ],
)
def test_mvg_k_matches_mpmath(args):
    assert mvg_K(*args) == pytest.approx(float(mp_mvg_k(*args)), rel=1e-13)


def test_mvg_numbers_reproduce_math_table():
    assert mvg_iid_expected_loss(1.0, 1e-5, 1.0, 1, 1, 0.5) == pytest.approx(951, rel=1e-3)
    assert mvg_iid_expected_loss(1.0, 1e-5, 1.0, 10, 10, 0.5) == pytest.approx(3.1e9, rel=2e-2)
    std = mvg_iid_std(1.0, 1e-5, 1.0, 10, 10, 0.5)
    assert std**2 == pytest.approx(10.0 / mvg_K(1.0, 1e-5, 1.0, 10, 10, 0.5), rel=1e-14)
    assert 100 * std**2 == pytest.approx(mvg_iid_expected_loss(1.0, 1e-5, 1.0, 10, 10, 0.5), rel=1e-14)


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-6, 1e3), st.floats(1e-300, 0.5), st.integers(1, 200), st.integers(1, 200), st.floats(0.5, 100.0))
def test_mvg_loss_decreases_in_epsilon_and_is_finite(epsilon, delta, rows, cols, gamma):
    loss = mvg_iid_expected_loss(epsilon, delta, 1.0, rows, cols, gamma)
    assert math.isfinite(loss) and loss > 0
    assert mvg_iid_expected_loss(epsilon * 1.5, delta, 1.0, rows, cols, gamma) < loss
    assert mvg_iid_expected_loss(epsilon, delta, 1.0, rows, cols, gamma * 2) >= loss  # = when β dominates


def test_mvg_gamma_below_half_the_sensitivity_is_refused():
    with pytest.raises(ValueError, match="gamma must be >= sensitivity/2"):
        mvg_K(1.0, 1e-5, 1.0, 2, 2, 0.49)
    with pytest.raises(ValueError, match="index 1"):
        mvg_iid_std(1.0, 1e-5, 1.0, 2, 2, [0.5, 0.3])
    assert mvg_iid_std(1.0, 1e-5, 1.0, 2, 2, 0.5) > 0  # exactly Δ/2 is allowed


@pytest.mark.parametrize(
    "bad, error",
    [
        (dict(epsilon=0.0), ValueError),
        (dict(epsilon=math.nan), ValueError),
        (dict(delta=1.0), ValueError),
        (dict(rows=0), ValueError),
        (dict(cols=2.5), ValueError),
        (dict(rows="3"), TypeError),
        (dict(gamma=math.inf), ValueError),
        (dict(sensitivity=-1.0), ValueError),
        (dict(epsilon="1"), TypeError),
    ],
)
def test_mvg_bad_input(bad, error):
    args = dict(epsilon=1.0, delta=1e-5, sensitivity=1.0, rows=2, cols=3, gamma=1.0) | bad
    with pytest.raises(error):
        mvg_iid_expected_loss(**args)


# ----------------------------------------------------------------------------------------------
# The privacy loss and the true δ(ε) (docs/math.md section 6.2)
# ----------------------------------------------------------------------------------------------


def test_privacy_loss_is_the_log_ratio_of_the_noise_density():
    """L(z, t) equals log p(n) - log p(n + d) for the spherically symmetric density of n."""
    rng = np.random.default_rng(7)
    for dim in (3, 5, 40):
        sigma, delta_norm = 2.5, 1.3
        log_area = math.log(2.0) + 0.5 * dim * math.log(math.pi) - special.gammaln(0.5 * dim)

        def log_density(vector):
            r = np.linalg.norm(vector)
            return (
                math.log(2.0)
                + stats.norm.logpdf(r / math.sqrt(sigma))
                - 0.5 * math.log(sigma)
                - log_area
                - (dim - 1) * math.log(r)
            )

        for _ in range(5):
            direction = rng.standard_normal(dim)
            direction /= np.linalg.norm(direction)
            z = rng.standard_normal()
            d = rng.standard_normal(dim)
            d *= delta_norm / np.linalg.norm(d)
            noise = math.sqrt(sigma) * z * direction
            t = float(direction @ d) / delta_norm
            expected = log_density(noise) - log_density(noise + d)
            assert r1smg_privacy_loss(z, t, sigma, delta_norm, dim) == pytest.approx(expected, rel=1e-10, abs=1e-10)


REFERENCE_POINTS = [
    (1.0, 1e-5, 3, 1.0),
    (1.0, 1e-5, 4, 1.0),
    (1.0, 1e-5, 10, 1.0),
    (1.0, 1e-5, 100, 5.0),
    (2.0, 1e-3, 20, 30.0),
]


@pytest.mark.parametrize("calibration_epsilon, calibration_delta, dim, epsilon", REFERENCE_POINTS)
def test_true_delta_matches_nested_quadrature(calibration_epsilon, calibration_delta, dim, epsilon):
    sigma = r1smg_sigma_star(calibration_epsilon, calibration_delta, 1.0, dim)
    expected = reference_true_delta(epsilon, 1.0 / math.sqrt(sigma), dim)
    value, error = r1smg_true_delta(epsilon, sigma, 1.0, dim, full_output=True)
    assert value == pytest.approx(expected, rel=1e-8)
    assert error < 1e-8 * value


def test_true_delta_math_value_at_dim_10():
    sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, 10)
    assert r1smg_true_delta(1.0, sigma, 1.0, 10) == pytest.approx(0.18141, abs=5e-6)


def test_true_delta_reproduces_math_table_within_its_monte_carlo_error():
    """docs/math.md section 6.2 item 3 (2e6-sample Monte Carlo, printed to 2-3 digits)."""
    table = {
        10: {1.0: 0.181, 5.0: 0.070, 10.0: 0.035, 50.0: 4.0e-4},
        100: {1.0: 0.971, 5.0: 0.897, 10.0: 0.781, 50.0: 0.354},
        1000: {1.0: 1.0, 50.0: 0.964},
    }
    for dim, row in table.items():
        sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, dim)
        epsilons = np.array(sorted(row))
        values = r1smg_true_delta(epsilons, sigma, 1.0, dim)
        for epsilon, value in zip(epsilons, values):
            printed = row[epsilon]
            monte_carlo = 4 * math.sqrt(printed * (1 - printed) / 2e6)
            rounding = 0.5 * 10 ** (math.floor(math.log10(printed)) - 1)
            assert abs(value - printed) <= monte_carlo + rounding + 1e-4, (dim, epsilon, value)


def test_claim_holds_at_dim_3_but_fails_from_dim_4():
    """At M = 3 the huge σ* keeps δ below the claim; at M = 4 the true δ is already 90× the claim."""
    for dim, low, high in [(3, 1.6e-6, 1.9e-6), (4, 8.9e-4, 9.1e-4), (5, 8.2e-3, 8.4e-3)]:
        value = r1smg_true_delta(1.0, r1smg_sigma_star(1.0, 1e-5, 1.0, dim), 1.0, dim)
        assert low < value < high
    assert r1smg_true_delta(1.0, r1smg_sigma_star(1.0, 1e-5, 1.0, 3), 1.0, 3) < 1e-5
    # at M = 4 the true δ scales like sqrt(claimed δ): the smaller the claim, the worse
    for delta in (1e-3, 1e-10, 1e-100):
        value = r1smg_true_delta(1.0, r1smg_sigma_star(1.0, delta, 1.0, 4), 1.0, 4)
        assert value / math.sqrt(delta) == pytest.approx(0.28601, rel=1e-3)


@pytest.mark.parametrize(
    "dim, epsilons",
    [(4, [0.5, 2.0]), (10, [0.0, 1.0, 5.0]), (37, [0.3, 3.0, 20.0]), (300, [1.0, 40.0]), (5000, [60.0, 200.0])],
)
def test_true_delta_matches_monte_carlo(dim, epsilons):
    sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, dim)
    values = r1smg_true_delta(epsilons, sigma, 1.0, dim)
    estimates, errors = r1smg_true_delta_monte_carlo(epsilons, sigma, 1.0, dim, n_samples=200_000, seed=dim)
    assert np.all(np.abs(values - estimates) <= 4 * errors + 1e-4)
    assert np.all(errors > 0)


def test_true_delta_dim_one_million_is_one():
    sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, 10**6)
    values = r1smg_true_delta(np.array([0.0, 1.0, 10.0, 1e3]), sigma, 1.0, 10**6)
    np.testing.assert_allclose(values[:3], 1.0, atol=1e-9)
    assert 0.0 <= values[3] <= 1.0


def test_true_delta_is_a_privacy_profile():
    """δ(ε) in [0, 1], non-increasing in ε, vectorized like scalar calls, larger for larger Δ."""
    epsilons = np.concatenate([[0.0], np.logspace(-3, 3, 25)])
    for dim in (3, 12, 2000):
        sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, dim)
        values = r1smg_true_delta(epsilons, sigma, 1.0, dim)
        assert np.all((values >= 0) & (values <= 1))
        assert np.all(np.diff(values) <= 1e-12 * values[:-1])
        assert values[7] == r1smg_true_delta(float(epsilons[7]), sigma, 1.0, dim)
        larger = r1smg_true_delta(epsilons[:12], sigma, 1.3, dim)
        assert np.all(larger >= values[:12])


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 1e3), st.floats(1e-6, 1e3), st.floats(1e-300, 0.5), st.integers(3, 10**6))
def test_true_delta_hypothesis(epsilon, calibration_epsilon, delta, dim):
    sigma = r1smg_sigma_star(calibration_epsilon, delta, 1.0, dim)
    value = r1smg_true_delta(epsilon, sigma, 1.0, dim)
    assert 0.0 <= value <= 1.0
    assert r1smg_true_delta(epsilon + 1.0, sigma, 1.0, dim) <= value * (1 + 1e-9) + 1e-300


def test_true_delta_extremes_without_warnings():
    sigma = r1smg_sigma_star(1.0, 1e-300, 1.0, 10)
    values = r1smg_true_delta(np.array([0.0, 1e-6, 1.0, 1e3]), sigma, 1.0, 10)
    assert np.all(np.isfinite(values)) and np.all(values >= 0)
    assert r1smg_true_delta(1.0, math.inf, 1.0, 3) == 0.0  # σ* overflowed: the noise hides all
    assert r1smg_true_delta(0.0, 1e-12, 1.0, 5) == 1.0  # Δ/sqrt(σ*) = 1e6: distinguishable
    assert r1smg_true_delta(1e3, 1.0, 1.0, 3) < 1e-200
    assert 0.0 <= r1smg_true_delta(1.0, 1e300, 1e-10, 10**6) < 1e-100


@pytest.mark.parametrize(
    "bad, error",
    [
        (dict(dim=2), ValueError),
        (dict(dim=3.5), ValueError),
        (dict(dim="10"), TypeError),
        (dict(dim=True), TypeError),
        (dict(epsilon=-0.1), ValueError),
        (dict(epsilon=math.nan), ValueError),
        (dict(epsilon=math.inf), ValueError),
        (dict(sigma_star=0.0), ValueError),
        (dict(sensitivity=math.nan), ValueError),
        (dict(epsilon="1"), TypeError),
        (dict(epsilon=[1.0, -1.0]), ValueError),
    ],
)
def test_true_delta_bad_input(bad, error):
    args = dict(epsilon=1.0, sigma_star=2.0, sensitivity=1.0, dim=10) | bad
    with pytest.raises(error):
        r1smg_true_delta(**args)
    if "epsilon" not in bad or not isinstance(bad["epsilon"], list):
        with pytest.raises(error):
            r1smg_true_delta_monte_carlo(**args, n_samples=10)


def test_r1smg_bad_input_everywhere():
    with pytest.raises(ValueError, match="dim >= 3"):
        r1smg_psi(1e-5, 2)
    with pytest.raises(ValueError, match="index 1"):
        r1smg_psi(1e-5, [3, 2])
    with pytest.raises(ValueError, match="epsilon"):
        r1smg_sigma_star(0.0, 1e-5, 1.0, 10)
    with pytest.raises(ValueError):
        r1smg_sigma_star(1.0, 0.0, 1.0, 10)
    with pytest.raises(TypeError):
        r1smg_sample(0, 5, 1.0, 10)
    with pytest.raises(ValueError):
        r1smg_sample(np.random.default_rng(0), 5, 1.0, 2)
    with pytest.raises(ValueError):
        r1smg_coordinate_tail(-1.0, 1.0, 10)
    with pytest.raises(ValueError):
        r1smg_coordinate_pdf(math.nan, 1.0, 10)
    with pytest.raises(ValueError):
        r1smg_privacy_loss(1.0, 1.5, 1.0, 1.0, 10)
    with pytest.raises(ValueError):
        ji_li_constant_r1smg(1.0, 1e-5, 2)


def test_monte_carlo_is_reproducible_and_vectorized():
    first = r1smg_true_delta_monte_carlo([1.0, 2.0], 5.0, 1.0, 8, n_samples=5000, seed=3)
    second = r1smg_true_delta_monte_carlo([1.0, 2.0], 5.0, 1.0, 8, n_samples=5000, seed=3)
    np.testing.assert_array_equal(first[0], second[0])
    single = r1smg_true_delta_monte_carlo(2.0, 5.0, 1.0, 8, n_samples=5000, seed=3)
    assert single[0] == pytest.approx(first[0][1], rel=1e-12)
    assert isinstance(single[0], float) and isinstance(single[1], float)


# ----------------------------------------------------------------------------------------------
# The sampler and the coordinate marginal (docs/math.md section 6.1)
# ----------------------------------------------------------------------------------------------


def test_sampler_is_rank_one_with_the_stated_law():
    dim, sigma, n = 6, 2.5, 60_000
    noise = r1smg_sample(np.random.default_rng(11), n, sigma, dim)
    assert noise.shape == (n, dim)
    squared_norm = np.einsum("ij,ij->i", noise, noise)
    # E‖n‖² = σ*, with the CLT tolerance of σ* χ²_1 (variance 2σ*²)
    assert abs(squared_norm.mean() - sigma) < 4 * sigma * math.sqrt(2.0 / n)
    # ‖n‖²/σ* ~ χ²_1 and the direction is uniform: its first coordinate has density c_M (1-t²)^{(M-3)/2}
    assert stats.kstest(squared_norm / sigma, stats.chi2(1).cdf).pvalue > 1e-3
    direction_first = noise[:, 0] / np.sqrt(squared_norm)
    assert stats.kstest((direction_first + 1) / 2, stats.beta((dim - 1) / 2, (dim - 1) / 2).cdf).pvalue > 1e-3
    # covariance σ*/M I
    covariance = noise.T @ noise / n
    np.testing.assert_allclose(covariance, sigma / dim * np.eye(dim), atol=6 * sigma / dim * math.sqrt(3.0 / n) * 3)
    # several releases together span many directions, each one a single line
    assert np.linalg.matrix_rank(noise[:dim]) == dim
    for row in noise[:20]:
        assert np.linalg.matrix_rank(row[None, :]) == 1
        assert np.linalg.svd(np.outer(row, row), compute_uv=False)[1] <= 1e-12 * row @ row


def test_sampler_reproducible_blocked_and_large_dim():
    a = r1smg_sample(np.random.default_rng(5), 7, 1.0, 10)
    b = r1smg_sample(np.random.default_rng(5), 7, 1.0, 10)
    np.testing.assert_array_equal(a, b)
    assert r1smg_sample(np.random.default_rng(5), 0, 1.0, 10).shape == (0, 10)
    big = r1smg_sample(np.random.default_rng(5), 12, 3.0, 10**6)  # blocks of 4 rows
    assert big.shape == (12, 10**6)
    z_squared = np.einsum("ij,ij->i", big, big) / 3.0
    assert np.all(np.isfinite(z_squared))


@pytest.mark.parametrize("dim", [3, 4, 30])
def test_coordinate_marginal_matches_samples(dim):
    sigma = 1.7
    sample = r1smg_sample(np.random.default_rng(dim), 20_000, sigma, dim)[:, 1]

    def cdf(x):
        x = np.asarray(x, dtype=float)
        tail = np.asarray(r1smg_coordinate_tail(np.abs(x), sigma, dim))
        return np.where(x < 0, 0.5 * tail, 1.0 - 0.5 * tail)

    assert stats.kstest(sample, cdf).pvalue > 1e-3


@pytest.mark.parametrize("dim", [3, 4, 9, 200, 10**6])
def test_coordinate_pdf_and_tail_match_quadrature(dim):
    sigma = 2.0
    s = math.sqrt(sigma)
    c_m = sphere_constant(dim)
    spread = s / math.sqrt(dim) if dim > 10 else s
    for x in spread * np.array([1e-6, 0.05, 0.7, 3.0, 12.0]):
        weight = lambda t: 2 * c_m * math.exp(0.5 * (dim - 3) * math.log1p(-t * t))
        pdf = lambda t: weight(t) * stats.norm.pdf(x / (s * t)) / (s * t)
        tail = lambda t: weight(t) * special.erfc(x / (math.sqrt(2) * s * t))
        points = sorted({min(x / s, 0.5), min(1 / math.sqrt(dim), 0.5), min(math.sqrt(x / s / math.sqrt(dim)), 0.5)})
        expected_pdf = integrate.quad(pdf, 0, 1, points=points, epsabs=0, epsrel=1e-12, limit=500)[0]
        expected_tail = integrate.quad(tail, 0, 1, points=points, epsabs=0, epsrel=1e-12, limit=500)[0]
        assert r1smg_coordinate_pdf(x, sigma, dim) == pytest.approx(expected_pdf, rel=1e-8)
        assert r1smg_coordinate_pdf(-x, sigma, dim) == pytest.approx(expected_pdf, rel=1e-8)
        assert r1smg_coordinate_tail(x, sigma, dim) == pytest.approx(expected_tail, rel=1e-8)


def test_coordinate_pdf_integrates_to_the_tail():
    dim, sigma = 7, 0.8
    for x in (0.01, 0.4, 2.0):
        mass = integrate.quad(lambda y: 2 * r1smg_coordinate_pdf(y, sigma, dim), x, 20, limit=200, epsrel=1e-10)[0]
        assert mass == pytest.approx(r1smg_coordinate_tail(x, sigma, dim), rel=1e-7)
    assert r1smg_coordinate_pdf(0.0, sigma, dim) == math.inf
    assert r1smg_coordinate_tail(0.0, sigma, dim) == 1.0
    assert r1smg_coordinate_tail(math.inf, sigma, dim) == 0.0
    assert r1smg_coordinate_tail(1e6, sigma, dim) == 0.0
    assert r1smg_coordinate_tail(np.array([0.1, 0.2]), sigma, dim).shape == (2,)


def test_norm_tail():
    assert r1smg_norm_tail(1.0, 2.0) == pytest.approx(float(mp.erfc(0.5)), rel=1e-15)
    assert r1smg_norm_tail(math.inf, 1.0) == 0.0
    assert r1smg_norm_tail(0.0, 1.0) == 1.0
    assert r1smg_norm_tail(math.inf, math.inf) == 0.0
    noise = r1smg_sample(np.random.default_rng(2), 40_000, 3.0, 5)
    observed = np.mean(np.linalg.norm(noise, axis=1) > 2.0)
    expected = r1smg_norm_tail(2.0, 3.0)
    assert abs(observed - expected) < 4 * math.sqrt(expected * (1 - expected) / 40_000)


def test_extreme_domain_without_warnings():
    """ε = 1e3 and 1e-6, δ = 1e-300, M = 1e6 everywhere, with warnings raised as errors."""
    for epsilon in (1e-6, 1e3):
        for dim in (3, 10**6):
            sigma = r1smg_sigma_star(epsilon, 1e-300, 1.0, dim)
            assert sigma > 0
            assert math.isfinite(log_r1smg_sigma_star(epsilon, 1e-300, 1.0, dim))
            assert 0.0 <= r1smg_true_delta([0.0, 1.0, 1e3], sigma, 1.0, dim).min()
            estimate, error = r1smg_true_delta_monte_carlo(1e3, sigma, 1.0, dim, n_samples=1000)
            assert 0.0 <= estimate <= 1.0 and error >= 0.0
        for shape in ((1, 1), (1000, 1000)):
            assert math.isfinite(mvg_iid_expected_loss(epsilon, 1e-300, 1.0, *shape, 0.5))
            assert math.isfinite(ji_li_constant_analytic(epsilon, 1e-300, 10**6))
            assert math.isfinite(ji_li_constant_mvg(epsilon, *shape))
    sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, 10**6)
    assert r1smg_coordinate_tail(1e3, sigma, 10**6) == 0.0
    assert math.isfinite(r1smg_coordinate_pdf(1e-300, sigma, 10**6))
    assert r1smg_sample(np.random.default_rng(0), 2, sigma, 10**6).shape == (2, 10**6)
