"""The distribution of the accuracy loss ‖noise‖² (docs/math.md sections 6.1, 10).

Oracles: scipy.stats.chi2 and closed forms for the χ² families; mpmath (50 digits) for the
cumulants of X² under GG(p); the Gaussian special case GG(b, 2) = N(0, b²/2), whose loss is an
exact χ²; seeded Monte Carlo with CLT or order-statistic tolerances.
"""

from __future__ import annotations

import doctest
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import gaussmech_core.loss as loss_module
from gaussmech_core.loss import (
    LossSummary,
    MonteCarloLoss,
    gaussian_loss_summary,
    iid_coordinate_loss_summary,
    loss_quantiles_against_dim,
    monte_carlo_loss,
    mvg_iid_loss_summary,
    r1smg_loss_summary,
)
from gaussmech_core.multivariate import r1smg_sample

pytestmark = pytest.mark.filterwarnings("error")

LEVELS = (0.05, 0.5, 0.95)


def test_doctests_pass():
    result = doctest.testmod(loss_module)
    assert result.attempted > 8
    assert result.failed == 0


def quantile_within_order_statistics(sample, level, value, z=4.0):
    """True when ``value`` lies between the order statistics that bracket the level at ±z."""
    ordered = np.sort(sample)
    n = ordered.size
    spread = z * math.sqrt(n * level * (1 - level))
    low = ordered[max(int(math.floor(n * level - spread)), 0)]
    high = ordered[min(int(math.ceil(n * level + spread)), n - 1)]
    return low <= value <= high


# ----------------------------------------------------------------------------------------------
# χ² families
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sigma, dim", [(1.0, 1), (0.3, 7), (2.5, 100), (1e-3, 10**6)])
def test_gaussian_summary_is_scaled_chi_square(sigma, dim):
    summary = gaussian_loss_summary(sigma, dim, quantile_levels=(0.01, 0.05, 0.5, 0.95))
    law = stats.chi2(dim, scale=sigma**2)
    mean, variance, skewness, kurtosis = law.stats(moments="mvsk")
    assert summary.mean == pytest.approx(float(mean), rel=1e-14)
    assert summary.std == pytest.approx(math.sqrt(float(variance)), rel=1e-14)
    assert summary.skewness == pytest.approx(float(skewness), rel=1e-14)
    assert summary.excess_kurtosis == pytest.approx(float(kurtosis), rel=1e-14)
    assert summary.median == pytest.approx(float(law.median()), rel=1e-14)
    for level, value in summary.quantiles.items():
        assert value == pytest.approx(float(law.ppf(level)), rel=1e-14)
    assert summary.exact is True and "chi^2" in summary.method
    assert isinstance(summary, LossSummary)


def test_gaussian_summary_matches_monte_carlo():
    sigma, dim = 1.3, 6
    simulated = monte_carlo_loss(lambda rng, k: sigma * rng.standard_normal((k, dim)), 50_000, seed=4)
    summary = gaussian_loss_summary(sigma, dim)
    assert abs(simulated.mean - summary.mean) < 4 * simulated.mean_standard_error
    for level in LEVELS:
        assert quantile_within_order_statistics(simulated.losses, level, summary.quantiles[level])


def test_r1smg_summary_is_sigma_star_chi_square_one_and_matches_samples():
    sigma_star, dim = 3.7, 12
    summary = r1smg_loss_summary(sigma_star)
    assert summary.mean == sigma_star
    assert summary.std == pytest.approx(sigma_star * math.sqrt(2.0), rel=1e-15)
    assert summary.skewness == pytest.approx(2.0 * math.sqrt(2.0), rel=1e-15)
    assert summary.excess_kurtosis == 12.0
    assert summary.median == pytest.approx(sigma_star * float(stats.chi2(1).median()), rel=1e-14)
    simulated = monte_carlo_loss(lambda rng, k: r1smg_sample(rng, k, sigma_star, dim), 40_000, seed=9)
    assert abs(simulated.mean - summary.mean) < 4 * simulated.mean_standard_error
    for level in LEVELS:
        assert quantile_within_order_statistics(simulated.losses, level, summary.quantiles[level])


def test_skewness_claim_made_precise():
    """docs/math.md section 6.1: R1SMG's loss keeps skewness 2√2 while the Gaussian's falls like sqrt(8/d)."""
    r1smg = r1smg_loss_summary(2.0)
    for dim in (1, 2, 10, 1000):
        gaussian = gaussian_loss_summary(1.0, dim)
        assert gaussian.skewness <= r1smg.skewness
        assert gaussian.excess_kurtosis <= r1smg.excess_kurtosis
    assert gaussian_loss_summary(1.0, 1).skewness == pytest.approx(r1smg.skewness, rel=1e-15)


def test_mvg_summary_is_chi_square_of_all_entries():
    summary = mvg_iid_loss_summary(0.7, 3, 5)
    reference = gaussian_loss_summary(0.7, 15)
    assert summary.mean == pytest.approx(reference.mean, rel=1e-15)
    assert summary.quantiles == pytest.approx(reference.quantiles, rel=1e-15)
    assert summary.exact and "chi^2_15" in summary.method
    simulated = monte_carlo_loss(lambda rng, k: 0.7 * rng.standard_normal((k, 3, 5)), 30_000, seed=1)
    assert abs(simulated.mean - summary.mean) < 4 * simulated.mean_standard_error


def test_huge_scales_overflow_to_inf_without_warnings():
    assert gaussian_loss_summary(1e200, 10).mean == math.inf
    assert r1smg_loss_summary(1e308).quantiles[0.95] == math.inf
    assert math.isfinite(gaussian_loss_summary(1e-200, 10).median)


# ----------------------------------------------------------------------------------------------
# i.i.d. Laplace and GG coordinates
# ----------------------------------------------------------------------------------------------


def mp_square_cumulants(order):
    mp.mp.dps = 50
    p = mp.mpf(order)
    m = [mp.gamma((2 * j + 1) / p) / mp.gamma(1 / p) for j in (1, 2, 3, 4)]
    k1 = m[0]
    k2 = m[1] - m[0] ** 2
    k3 = m[2] - 3 * m[1] * m[0] + 2 * m[0] ** 3
    k4 = m[3] - 4 * m[2] * m[0] - 3 * m[1] ** 2 + 12 * m[1] * m[0] ** 2 - 6 * m[0] ** 4
    return k1, k2, k3, k4


@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 3.7, 10.0])
@pytest.mark.parametrize("dim", [1, 9, 5000])
def test_iid_moments_are_exact(order, dim):
    scale = 0.8
    family = "laplace" if order == 1.0 else "generalized_gaussian"
    summary = iid_coordinate_loss_summary(family, scale, dim, order=None if order == 1.0 else order)
    k1, k2, k3, k4 = mp_square_cumulants(order)
    assert summary.mean == pytest.approx(float(dim * k1 * mp.mpf(scale) ** 2), rel=1e-13)
    assert summary.std == pytest.approx(float(mp.sqrt(dim * k2) * mp.mpf(scale) ** 2), rel=1e-13)
    assert summary.skewness == pytest.approx(float(k3 / (k2**1.5 * mp.sqrt(dim))), rel=1e-12)
    assert summary.excess_kurtosis == pytest.approx(float(k4 / (k2**2 * dim)), rel=1e-11)
    assert summary.exact is False


def test_laplace_mean_is_two_d_b_squared():
    assert iid_coordinate_loss_summary("laplace", 1.5, 7).mean == pytest.approx(2 * 7 * 1.5**2, rel=1e-14)


@pytest.mark.parametrize("dim", [3, 40])
def test_gg_order_two_quantiles_are_the_exact_chi_square_by_monte_carlo(dim):
    """GG(b, 2) = N(0, b²/2): the Monte Carlo quantiles must match (b²/2) χ²_d within sampling error."""
    b = 1.2
    summary = iid_coordinate_loss_summary("generalized_gaussian", b, dim, order=2.0, n_samples=40_000, seed=3)
    assert "Monte Carlo" in summary.method
    law = stats.chi2(dim, scale=b * b / 2)
    density_floor = min(law.pdf(law.ppf(q)) for q in LEVELS)
    samples = min(40_000, 2_000_000 // dim)
    tolerance = 4 * math.sqrt(0.05 * 0.95 / samples) / density_floor
    for level, value in summary.quantiles.items():
        assert abs(value - law.ppf(level)) < tolerance
    assert abs(summary.median - law.median()) < tolerance
    assert summary.mean == pytest.approx(law.mean(), rel=1e-14)


def test_gg_order_two_cornish_fisher_for_large_dim():
    b, dim = 1.0, 2000
    summary = iid_coordinate_loss_summary("generalized_gaussian", b, dim, order=2.0)
    assert "Cornish-Fisher" in summary.method
    law = stats.chi2(dim, scale=0.5)
    for level, value in summary.quantiles.items():
        assert value == pytest.approx(law.ppf(level), rel=1e-5)


def test_laplace_cornish_fisher_agrees_with_monte_carlo():
    dim = 400
    summary = iid_coordinate_loss_summary("laplace", 1.0, dim)
    assert "Cornish-Fisher" in summary.method
    rng = np.random.default_rng(12)
    sums = np.array([np.sum(rng.laplace(0, 1, (5000, dim)) ** 2, axis=1) for _ in range(2)]).ravel()
    for level in LEVELS:
        # Cornish-Fisher error at d = 400 is below 0.01 std; the sampling error dominates.
        assert abs(summary.quantiles[level] - np.quantile(sums, level)) < 0.06 * summary.std


def test_monte_carlo_quantiles_are_seeded_and_scale_with_b_squared():
    first = iid_coordinate_loss_summary("laplace", 1.0, 5, seed=8, n_samples=30_000)
    again = iid_coordinate_loss_summary("laplace", 1.0, 5, seed=8, n_samples=30_000)
    scaled = iid_coordinate_loss_summary("laplace", 3.0, 5, seed=8, n_samples=30_000)
    assert first == again
    for level in LEVELS:
        assert scaled.quantiles[level] == pytest.approx(9.0 * first.quantiles[level], rel=1e-14)
    assert "n=30000, seed=8" in first.method


def test_iid_bad_input():
    with pytest.raises(ValueError, match="family"):
        iid_coordinate_loss_summary("cauchy", 1.0, 3)
    with pytest.raises(ValueError, match="order"):
        iid_coordinate_loss_summary("generalized_gaussian", 1.0, 3)
    with pytest.raises(ValueError, match="order"):
        iid_coordinate_loss_summary("generalized_gaussian", 1.0, 3, order=0.5)
    with pytest.raises(ValueError, match="order"):
        iid_coordinate_loss_summary("laplace", 1.0, 3, order=2.0)
    with pytest.raises(ValueError):
        iid_coordinate_loss_summary("laplace", 0.0, 3)
    with pytest.raises(ValueError):
        iid_coordinate_loss_summary("laplace", 1.0, 0)
    with pytest.raises(TypeError):
        iid_coordinate_loss_summary("laplace", "1", 3)
    with pytest.raises(ValueError):
        gaussian_loss_summary(1.0, 3, quantile_levels=(0.5, 1.0))
    with pytest.raises(ValueError):
        gaussian_loss_summary(math.nan, 3)
    with pytest.raises(ValueError):
        r1smg_loss_summary(-1.0)
    with pytest.raises(ValueError):
        mvg_iid_loss_summary(1.0, 0, 3)


# ----------------------------------------------------------------------------------------------
# Bands against the dimension and the Monte Carlo helper
# ----------------------------------------------------------------------------------------------


def test_bands_against_dim_agree_with_summaries():
    dims = np.array([1, 4, 30, 1000])
    sigmas = np.array([0.5, 1.0, 2.0, 3.0])
    bands = loss_quantiles_against_dim("gaussian", sigmas, dims)
    for i, (sigma, dim) in enumerate(zip(sigmas, dims)):
        summary = gaussian_loss_summary(float(sigma), int(dim))
        for level in LEVELS:
            assert bands[level][i] == pytest.approx(summary.quantiles[level], rel=1e-14)
    r1smg = loss_quantiles_against_dim("r1smg", 2.0, dims)
    assert np.all(r1smg[0.5] == r1smg_loss_summary(2.0).median)
    laplace = loss_quantiles_against_dim("laplace", np.array([1.0, 2.0]), np.array([3, 3]), seed=2)
    summary = iid_coordinate_loss_summary("laplace", 1.0, 3, seed=2)
    assert laplace[0.95][0] == pytest.approx(summary.quantiles[0.95], rel=1e-14)
    assert laplace[0.95][1] == pytest.approx(4 * summary.quantiles[0.95], rel=1e-14)
    gg = loss_quantiles_against_dim("generalized_gaussian", 1.0, [2, 500], order=1.5, seed=1)
    assert gg[0.05].shape == (2,) and np.all(gg[0.05] < gg[0.5]) and np.all(gg[0.5] < gg[0.95])
    with pytest.raises(ValueError):
        loss_quantiles_against_dim("gaussian", 1.0, [1, 2.5])


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-3, 1e3), st.integers(1, 10**6))
def test_gaussian_bands_are_ordered_and_scale(sigma, dim):
    bands = loss_quantiles_against_dim("gaussian", sigma, dim)
    assert bands[0.05] < bands[0.5] < bands[0.95]
    doubled = loss_quantiles_against_dim("gaussian", 2 * sigma, dim)
    assert doubled[0.5] == pytest.approx(4 * bands[0.5], rel=1e-13)


def test_monte_carlo_loss_intervals():
    result = monte_carlo_loss(lambda rng, k: rng.standard_normal((k, 4)), 20_000, seed=5, confidence=0.99)
    assert isinstance(result, MonteCarloLoss)
    assert result.n == 20_000 and result.seed == 5 and result.confidence == 0.99
    low, high = result.mean_interval
    assert low < 4.0 < high
    assert result.mean_standard_error == pytest.approx(math.sqrt(8.0 / 20_000), rel=0.05)
    for level in LEVELS:
        lo, hi = result.quantile_intervals[level]
        assert lo <= result.quantiles[level] <= hi
        assert lo <= stats.chi2(4).ppf(level) <= hi
    scalars = monte_carlo_loss(lambda rng, k: rng.standard_normal(k), 1000)
    assert scalars.losses.shape == (1000,)
    again = monte_carlo_loss(lambda rng, k: rng.standard_normal(k), 1000)
    np.testing.assert_array_equal(scalars.losses, again.losses)


def test_monte_carlo_loss_blocks_large_vectors():
    result = monte_carlo_loss(lambda rng, k: r1smg_sample(rng, k, 2.0, 200_000), 300, seed=0)
    assert result.losses.shape == (300,)
    assert abs(result.mean - 2.0) < 5 * result.mean_standard_error


def test_monte_carlo_loss_bad_input():
    with pytest.raises(TypeError):
        monte_carlo_loss("not callable", 10)
    with pytest.raises(ValueError):
        monte_carlo_loss(lambda rng, k: rng.standard_normal(k), 1)
    with pytest.raises(ValueError, match="rows"):
        monte_carlo_loss(lambda rng, k: rng.standard_normal(k + 1), 10)
    with pytest.raises(ValueError, match="NaN"):
        monte_carlo_loss(lambda rng, k: np.full(k, np.nan), 10)
    with pytest.raises(ValueError):
        monte_carlo_loss(lambda rng, k: rng.standard_normal(k), 10, confidence=1.0)
