"""Denoisers: known values, the risk theorems of docs/math.md section 8 by Monte Carlo, exact projections."""

from __future__ import annotations

import doctest
import itertools
import math
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp
from scipy import integrate, stats

import gaussmech_core.denoise as denoise_module
from gaussmech_core.denoise import (
    DENOISERS,
    apply_pipeline,
    check_pipeline,
    clip_and_rescale,
    empirical_bayes,
    james_stein,
    james_stein_bayes_risk,
    oracle_prior,
    posterior_mean,
    posterior_mean_bayes_risk,
    project_nonnegative,
    project_to_simplex,
    round_keeping_total,
    soft_threshold,
    universal_threshold,
    wavelet_soft_threshold,
)

pywt = pytest.importorskip("pywt")

FLOATS = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)


def test_doctests():
    result = doctest.testmod(denoise_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 15
    assert result.failed == 0


# --- known values ------------------------------------------------------------------------------


def test_posterior_mean_known_values():
    assert np.allclose(posterior_mean([2.0, -4.0], 1.0, 3.0), [1.5, -3.0])
    assert np.allclose(posterior_mean([12.0, 8.0], 2.0, 4.0, prior_mean=[10.0, 10.0]), [11.0, 9.0])
    # No noise: the observation is the truth, whatever the prior.
    assert np.array_equal(posterior_mean([2.0, 5.0], 0.0, 0.0), [2.0, 5.0])
    # A point-mass prior (w = 0) ignores the data.
    assert np.array_equal(posterior_mean([2.0, 5.0], 1.0, 0.0, prior_mean=3.0), [3.0, 3.0])
    assert posterior_mean_bayes_risk(4, 2.0, 4.0) == pytest.approx(8.0)


def test_james_stein_known_values():
    y = np.array([3.0, 4.0, 0.0])  # ‖y‖² = 25, d - 2 = 1
    assert np.allclose(james_stein(y, 1.0), y * (1 - 1 / 25))
    assert np.allclose(james_stein(y, 10.0), y * (1 - 100 / 25))  # overshoots through 0
    assert np.allclose(james_stein(y, 10.0, positive_part=True), 0.0)
    # Shrinking towards a centre c works on y - c.
    assert np.allclose(james_stein(y + 7.0, 1.0, center=7.0), y * (1 - 1 / 25) + 7.0)
    # Lindley: towards the mean, with d - 3.
    z = np.array([1.0, 3.0, 5.0, 7.0])  # mean 4, ‖z - 4‖² = 20, d - 3 = 1
    assert np.allclose(james_stein(z, 2.0, center="mean"), 4.0 + (1 - 4 / 20) * (z - 4.0))
    # A zero residual stays at the centre (no 0/0).
    assert np.array_equal(james_stein(np.zeros(5), 1.0), np.zeros(5))
    assert np.array_equal(james_stein(np.full(5, 2.0), 1.0, center=2.0), np.full(5, 2.0))


def test_james_stein_needs_three_coordinates():
    with pytest.raises(ValueError, match="d >= 3"):
        james_stein([1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="d >= 4"):
        james_stein([1.0, 2.0, 3.0], 1.0, center="mean")
    assert james_stein_bayes_risk(10, 1.0, 1.0) == pytest.approx(6.0)


def test_james_stein_huge_values_do_not_overflow():
    y = np.array([1e200, -1e200, 3e200])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        assert np.allclose(james_stein(y, 1.0), y)
        assert np.array_equal(james_stein(np.array([1e-300, 0.0, 0.0]), 1e10, positive_part=True), np.zeros(3))


def test_empirical_bayes_is_positive_part_shrinkage_with_d():
    y = np.array([3.0, 4.0])  # ‖y‖² = 25, d = 2
    assert np.allclose(empirical_bayes(y, 1.0), y * (1 - 2 / 25))
    assert np.allclose(empirical_bayes(y, 5.0), 0.0)  # ŵ² = max(0, 12.5 - 25) = 0
    # Same as the posterior mean with the plug-in variance.
    rng = np.random.default_rng(5)
    z = rng.normal(0, 3, 50)
    w2 = max(0.0, float(np.mean(z**2)) - 1.0)
    assert np.allclose(empirical_bayes(z, 1.0), posterior_mean(z, 1.0, w2))


def test_soft_threshold_known_values():
    assert np.allclose(soft_threshold([5.0, -0.5, -4.0, 1.0], 1.0, threshold=2.0), [3.0, 0.0, -2.0, 0.0])
    y = np.array([10.0, -10.0, 0.1])
    lam = math.sqrt(2 * math.log(3))
    assert np.allclose(soft_threshold(y, 2.0), [10 - 2 * lam, -10 + 2 * lam, 0.0])
    assert universal_threshold(2.0, 3) == pytest.approx(2 * lam)
    assert universal_threshold(1.0, 1) == 0.0
    grid = np.arange(6.0).reshape(2, 3)
    assert soft_threshold(grid, 1.0, threshold=1.5).shape == (2, 3)
    assert not np.signbit(soft_threshold([-0.5, 0.5], 1.0, threshold=1.0)).any()  # no "-0" in exports


def test_projections_known_values():
    assert np.array_equal(project_nonnegative([3.0, -1.0, 0.0]), [3.0, 0.0, 0.0])
    assert np.allclose(project_to_simplex([3.0, 1.0, -2.0], 2.0), [2.0, 0.0, 0.0])
    assert np.allclose(project_to_simplex([1.0, 1.0], 4.0), [2.0, 2.0])
    assert np.allclose(project_to_simplex([0.5, 0.3, 0.2], 1.0), [0.5, 0.3, 0.2])  # already inside
    assert np.allclose(project_to_simplex([2.0, 1.0, 0.0], 1.0), [1.0, 0.0, 0.0])
    assert np.allclose(project_to_simplex([1.0, 0.8, 0.0], 1.0), [0.6, 0.4, 0.0])
    assert np.array_equal(project_to_simplex([5.0, -3.0], 0.0), [0.0, 0.0])
    assert np.allclose(clip_and_rescale([3.0, 1.0, -2.0], 8.0), [6.0, 2.0, 0.0])
    assert np.allclose(clip_and_rescale([30.0, 1.0], 8.0), [8 * 8 / 9, 8 / 9])  # clipped to n first
    assert np.allclose(clip_and_rescale([-1.0, -2.0], 4.0), [2.0, 2.0])


def test_round_keeping_total_known_values():
    assert np.array_equal(round_keeping_total([0.4, 0.4, 0.2], 1), [1.0, 0.0, 0.0])  # tie to the lower index
    assert np.array_equal(round_keeping_total([1.5, 2.5, 3.0]), [2.0, 2.0, 3.0])
    assert np.array_equal(round_keeping_total([0.2, 0.2], 5), [3.0, 2.0])  # more units than bins
    assert np.array_equal(round_keeping_total([2.9, 3.9], 4), [2.0, 2.0])  # fewer: take away evenly
    with pytest.raises(ValueError, match="whole number"):
        round_keeping_total([1.0, 2.0], 2.5)


# --- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, text",
    [
        (lambda: soft_threshold([1.0, np.nan], 1.0), ValueError, "index 1"),
        (lambda: soft_threshold([1.0, 2.0], -1.0), ValueError, "sigma"),
        (lambda: soft_threshold("12", 1.0), TypeError, "y"),
        (lambda: soft_threshold([], 1.0), ValueError, "empty"),
        (lambda: soft_threshold([1.0], [1.0, 2.0]), TypeError, "sigma"),
        (lambda: posterior_mean([1.0, 2.0], 1.0, -1.0), ValueError, "prior_variance"),
        (lambda: posterior_mean([1.0, 2.0], 1.0, 1.0, prior_mean=[1.0, 2.0, 3.0]), ValueError, "prior_mean"),
        (lambda: james_stein([1.0, 2.0, 3.0], 1.0, center="median"), ValueError, "center"),
        (lambda: project_to_simplex([1.0, 2.0], -1.0), ValueError, "total"),
        (lambda: wavelet_soft_threshold(np.ones(8), 1.0), ValueError, "2-D"),
        (lambda: wavelet_soft_threshold(np.ones((8, 8)), 1.0, wavelet="bior2.2"), ValueError, "orthogonal"),
        (lambda: wavelet_soft_threshold(np.ones((8, 8)), 1.0, wavelet="nope"), ValueError, "wavelet"),
        (lambda: wavelet_soft_threshold(np.ones((8, 8)), 1.0, level=9), ValueError, "level"),
    ],
)
def test_bad_input_is_named(call, error, text):
    with pytest.raises(error, match=text):
        call()


# --- risk theorems by Monte Carlo (fixed seeds, tolerances from the CLT) --------------------------


def _soft_threshold_risk_one(mean: float, threshold: float) -> float:
    """E[(η_λ(μ + Z) - μ)²] for Z ~ N(0, 1), by quadrature (independent of the code under test)."""
    integrand = lambda z: (np.sign(mean + z) * max(abs(mean + z) - threshold, 0.0) - mean) ** 2 * stats.norm.pdf(z)
    points = [-threshold - mean, threshold - mean]
    value, _ = integrate.quad(integrand, -12, 12, points=points, limit=200)
    return value


def test_soft_threshold_risk_matches_quadrature_and_the_oracle_inequality():
    rng = np.random.default_rng(20260101)
    d, reps, sigma = 200, 2000, 1.0
    theta = np.zeros(d)
    theta[:10] = 6.0
    theta[10:20] = 0.5
    noisy = theta + sigma * rng.standard_normal((reps, d))
    losses = np.array([np.sum((soft_threshold(row, sigma) - theta) ** 2) for row in noisy])
    mean, error = losses.mean(), losses.std(ddof=1) / math.sqrt(reps)
    lam = sigma * math.sqrt(2 * math.log(d))
    exact = sum(_soft_threshold_risk_one(value, lam) for value in theta)
    assert abs(mean - exact) < 4 * error
    oracle_bound = (2 * math.log(d) + 1) * (sigma**2 + np.sum(np.minimum(theta**2, sigma**2)))
    assert mean + 4 * error < oracle_bound
    assert mean + 4 * error < d * sigma**2  # far below the raw error on sparse truth


def _james_stein_exact_risk(d: int, sigma: float, theta_norm2: float) -> float:
    """d σ² - (d-2)² σ⁴ E[1/‖y‖²], with ‖y‖²/σ² noncentral χ²_d(λ) = Poisson mixture of χ²_{d+2K}."""
    lam = theta_norm2 / sigma**2
    k = np.arange(0, 400)
    weights = stats.poisson.pmf(k, lam / 2)
    inverse_mean = np.sum(weights / (d + 2 * k - 2)) / sigma**2
    return d * sigma**2 - (d - 2) ** 2 * sigma**4 * inverse_mean


def test_james_stein_frequentist_risk_is_exact_and_below_raw():
    rng = np.random.default_rng(11)
    d, reps, sigma = 10, 4000, 2.0
    theta = np.linspace(-3, 3, d)
    noisy = theta + sigma * rng.standard_normal((reps, d))
    plain = np.array([np.sum((james_stein(row, sigma) - theta) ** 2) for row in noisy])
    plus = np.array([np.sum((james_stein(row, sigma, positive_part=True) - theta) ** 2) for row in noisy])
    exact = _james_stein_exact_risk(d, sigma, float(theta @ theta))
    assert abs(plain.mean() - exact) < 4 * plain.std(ddof=1) / math.sqrt(reps)
    raw = d * sigma**2
    for losses in (plain, plus):
        assert losses.mean() + 4 * losses.std(ddof=1) / math.sqrt(reps) < raw
    difference = plain - plus  # positive part dominates
    assert difference.mean() > 4 * difference.std(ddof=1) / math.sqrt(reps)


def test_bayes_risks_match_math_8():
    """Posterior mean: d σ² w²/(w²+σ²); JS: (d σ² w² + 2σ⁴)/(w²+σ²); JS+ and EB below JS."""
    rng = np.random.default_rng(7)
    d, reps, sigma, w2 = 10, 20000, 1.0, 1.0
    theta = math.sqrt(w2) * rng.standard_normal((reps, d))
    noisy = theta + sigma * rng.standard_normal((reps, d))
    sigma_rows = np.full((reps, 1), sigma)
    kernels = {
        "posterior": denoise_module._posterior_mean_rows(noisy, sigma_rows, 0.0, w2),
        "js": denoise_module._shrink_rows(noisy, sigma_rows, 0.0, 2, False),
        "js_plus": denoise_module._shrink_rows(noisy, sigma_rows, 0.0, 2, True),
        "eb": denoise_module._shrink_rows(noisy, sigma_rows, 0.0, 0, True),
    }
    losses = {name: np.sum((estimate - theta) ** 2, axis=1) for name, estimate in kernels.items()}
    se = {name: loss.std(ddof=1) / math.sqrt(reps) for name, loss in losses.items()}
    assert abs(losses["posterior"].mean() - posterior_mean_bayes_risk(d, sigma, w2)) < 4 * se["posterior"]
    assert abs(losses["js"].mean() - james_stein_bayes_risk(d, sigma, w2)) < 4 * se["js"]
    gain = losses["js"] - losses["js_plus"]
    assert gain.mean() > 4 * gain.std(ddof=1) / math.sqrt(reps)
    # Nobody beats the Bayes estimator under its own prior (paired comparison).
    for name in ("js", "js_plus", "eb"):
        excess = losses[name] - losses["posterior"]
        assert excess.mean() > 0
    # The public estimators agree with the batch kernels the sweep uses.
    row = noisy[0]
    assert np.allclose(james_stein(row, sigma, positive_part=True), kernels["js_plus"][0])
    assert np.allclose(empirical_bayes(row, sigma), kernels["eb"][0])
    assert np.allclose(posterior_mean(row, sigma, w2), kernels["posterior"][0])


def test_oracle_prior_is_the_best_linear_shrinkage():
    rng = np.random.default_rng(3)
    theta = rng.gamma(2.0, 5.0, 400)
    sigma = 4.0
    noisy = theta + sigma * rng.standard_normal((3000, theta.size))
    center, variance = oracle_prior(theta)
    assert center == pytest.approx(theta.mean())
    assert variance == pytest.approx(theta.var())

    def risk(weight):
        return float(np.mean(np.sum((center + weight * (noisy - center) - theta) ** 2, axis=1)))

    best = variance / (variance + sigma**2)
    for other in (best * 0.8, best * 1.2, 1.0):
        assert risk(best) < risk(other)


# --- projections are exact -------------------------------------------------------------------------


def _assert_simplex_kkt(y, x, total):
    """x = P(y) iff x ≥ 0, Σx = n, and x_i = y_i - τ on the support with y_i ≤ τ off it."""
    scale = 1.0 + total + float(np.sum(np.abs(y)))
    assert np.all(x >= 0)
    assert abs(x.sum() - total) <= 1e-11 * scale
    support = x > 0
    if not support.any():  # only when n is below the rounding of the entries (or n = 0)
        assert total <= 1e-15 * scale
        return
    shifts = y[support] - x[support]
    tau = shifts.mean()
    assert np.all(np.abs(shifts - tau) <= 1e-9 * scale)
    assert np.all(y[~support] <= tau + 1e-9 * scale)


@settings(max_examples=150, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 40), elements=FLOATS), st.floats(0, 1e4))
def test_simplex_projection_satisfies_kkt(y, total):
    x = project_to_simplex(y, total)
    _assert_simplex_kkt(y, x, total)
    sorted_version = denoise_module._project_simplex_rows(y.reshape(1, -1), total, by_sorting=True)[0]
    assert np.allclose(x, sorted_version, rtol=1e-12, atol=1e-9 * (1 + total + np.abs(y).sum()))
    assert np.allclose(project_to_simplex(x, total), x, atol=1e-9 * (1 + total))  # idempotent


def _simplex_projection_by_enumeration(y, total):
    """Brute force: on each support S the optimum is y_S - τ_S with τ_S = (Σ y_S - n)/|S|; keep the best feasible."""
    best, best_value = None, math.inf
    for size in range(1, y.size + 1):
        for support in itertools.combinations(range(y.size), size):
            index = list(support)
            shift = (y[index].sum() - total) / size
            x = np.zeros_like(y)
            x[index] = y[index] - shift
            if np.all(x >= 0):
                value = float(np.sum((x - y) ** 2))
                if value < best_value:
                    best, best_value = x, value
    return best


def test_simplex_projection_matches_brute_force():
    rng = np.random.default_rng(2)
    for _ in range(40):
        d = int(rng.integers(1, 7))
        y = rng.normal(0, 3, d)
        total = float(rng.uniform(0.1, 10))
        assert np.allclose(project_to_simplex(y, total), _simplex_projection_by_enumeration(y, total), atol=1e-12)


def test_michelot_falls_back_to_sorting(monkeypatch):
    rng = np.random.default_rng(8)
    Y = rng.normal(0, 10, (20, 300))
    exact = denoise_module._project_simplex_rows(Y, 50.0, by_sorting=True)
    monkeypatch.setattr(denoise_module, "_MICHELOT_MAX_ROUNDS", 1)
    assert np.allclose(denoise_module._project_simplex_rows(Y, 50.0), exact)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 30).flatmap(
        lambda d: st.tuples(hnp.arrays(np.float64, d, elements=FLOATS), hnp.arrays(np.float64, d, elements=FLOATS))
    ),
    st.floats(0, 1e3),
)
def test_projections_are_non_expansive(pair, total):
    a, b = pair
    distance = np.linalg.norm(a - b)
    slack = 1e-9 * (1 + total + np.abs(a).sum() + np.abs(b).sum())
    assert np.linalg.norm(project_to_simplex(a, total) - project_to_simplex(b, total)) <= distance + slack
    assert np.linalg.norm(project_nonnegative(a) - project_nonnegative(b)) <= distance + slack


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 30), elements=st.floats(0, 100)), st.data())
def test_projections_never_increase_the_error_when_the_truth_is_in_the_set(theta, data):
    noise = data.draw(hnp.arrays(np.float64, theta.size, elements=st.floats(-50, 50)))
    y = theta + noise
    total = float(theta.sum())
    assert np.all(np.abs(project_nonnegative(y) - theta) <= np.abs(y - theta) + 1e-12)
    slack = 1e-9 * (1 + total + np.abs(y).sum())
    assert np.linalg.norm(project_to_simplex(y, total) - theta) <= np.linalg.norm(y - theta) + slack


@settings(max_examples=150, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 40), elements=st.floats(-100, 100)), st.integers(0, 500))
def test_round_keeping_total_keeps_the_sum_and_stays_within_one(y, total):
    x = project_to_simplex(y, float(total))
    z = round_keeping_total(x, total)
    assert z.sum() == total
    assert np.array_equal(z, np.round(z))
    assert np.all(z >= 0)
    assert np.all(np.abs(z - x) < 1 + 1e-9)


def test_round_keeping_total_is_the_nearest_integer_vector():
    rng = np.random.default_rng(4)
    for _ in range(30):
        d = int(rng.integers(1, 4))
        x = rng.uniform(-3, 3, d)
        total = int(rng.integers(-4, 8))
        if total < 0:
            continue
        z = round_keeping_total(x, total)
        base = np.floor(x).astype(int)
        candidates = [np.array(c) for c in itertools.product(*[range(b - 6, b + 10) for b in base]) if sum(c) == total]
        best = min(float(np.sum((c - x) ** 2)) for c in candidates)
        assert float(np.sum((z - x) ** 2)) == pytest.approx(best, abs=1e-12)


# --- wavelets --------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(8, 8), (16, 4), (13, 9), (1, 7), (2, 2), (33, 20)])
@pytest.mark.parametrize("wavelet", ["haar", "db2"])
def test_wavelet_with_no_noise_returns_the_grid(shape, wavelet):
    grid = np.random.default_rng(1).normal(0, 5, shape)
    assert np.allclose(wavelet_soft_threshold(grid, 0.0, wavelet=wavelet), grid, atol=1e-10)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_periodized_transform_is_orthonormal(level):
    """The assumption the threshold rests on: energy (hence i.i.d. N(0, σ²) noise) is preserved."""
    x = np.random.default_rng(level).standard_normal((16, 16))
    for wavelet in ("haar", "db2"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "boundary effects" beyond dwt_max_level
            coefficients = pywt.wavedec2(x, wavelet, mode="periodization", level=level)
        array, _ = pywt.coeffs_to_array(coefficients)
        assert np.sum(array**2) == pytest.approx(np.sum(x**2), rel=1e-12)


def test_flat_regions_stay_flat_and_approximation_is_not_thresholded():
    grid = np.full((8, 8), 7.0)
    assert np.allclose(wavelet_soft_threshold(grid, 1.0), grid)
    blocks = np.kron(np.array([[0.0, 40.0], [40.0, 0.0]]), np.ones((4, 4)))
    # Huge threshold: only the coarse approximation (the block means at level 3 = overall mean) survives.
    assert np.allclose(wavelet_soft_threshold(blocks, 1.0, threshold=1e6), blocks.mean())
    assert np.allclose(wavelet_soft_threshold(blocks, 1.0, level=2, threshold=1e6), blocks)  # 2×2 block means kept


def test_wavelet_risk_obeys_the_oracle_inequality_in_the_wavelet_basis():
    rng = np.random.default_rng(99)
    sigma, reps = 1.0, 300
    theta = np.kron(rng.integers(0, 30, (4, 4)).astype(float), np.ones((8, 8)))  # 32 × 32, piecewise flat
    noisy = theta + sigma * rng.standard_normal((reps,) + theta.shape)
    losses = np.array([np.sum((wavelet_soft_threshold(y, sigma) - theta) ** 2) for y in noisy])
    mean, error = losses.mean(), losses.std(ddof=1) / math.sqrt(reps)
    levels = 5
    coefficients = pywt.wavedec2(theta, "haar", mode="periodization", level=levels)
    details = np.concatenate([band.ravel() for detail in coefficients[1:] for band in detail])
    approximation_count = coefficients[0].size
    bound = approximation_count * sigma**2 + (2 * math.log(theta.size) + 1) * (
        sigma**2 + np.sum(np.minimum(details**2, sigma**2))
    )
    assert mean + 4 * error < bound
    assert mean + 4 * error < 0.25 * theta.size * sigma**2  # the raw error is 1024


def test_missing_pywavelets_gives_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pywt", None)
    with pytest.raises(ImportError, match="PyWavelets"):
        wavelet_soft_threshold(np.ones((4, 4)), 1.0)


# --- pipeline and registry ---------------------------------------------------------------------------


def test_registry_entries_are_complete():
    assert {
        "none",
        "posterior_mean",
        "james_stein",
        "james_stein_plus",
        "empirical_bayes",
        "soft_threshold",
        "wavelet_soft_threshold",
        "nonnegative",
        "simplex",
        "clip_rescale",
        "round",
    } <= set(DENOISERS)
    for key, denoiser in DENOISERS.items():
        assert denoiser.id == key
        assert denoiser.name and denoiser.description and denoiser.theory
        assert denoiser.requires <= {"total", "prior", "2d"}


@pytest.mark.parametrize("step", sorted(DENOISERS))
def test_batch_kernels_agree_with_the_public_pipeline(step):
    rng = np.random.default_rng(12)
    truth = np.kron(rng.integers(0, 20, (2, 3)).astype(float), np.ones((4, 4)))  # 8 × 12 grid
    sigma = 2.0
    rows = truth.reshape(1, -1) + sigma * rng.standard_normal((5, truth.size))
    total = float(truth.sum())
    prior = oracle_prior(truth)
    batch = denoise_module._apply_rows(
        rows, (step,) if step != "none" else (), np.full((5, 1), sigma), total, prior, truth.shape
    )
    for index in range(5):
        single = apply_pipeline(rows[index].reshape(truth.shape), [step], sigma, total=total, prior=prior)
        assert np.allclose(single.reshape(-1), batch[index], atol=1e-9)


def test_pipeline_composes_steps_in_order():
    y = np.array([6.0, -0.5, -4.0, 1.0, 2.5])
    composed = round_keeping_total(project_to_simplex(soft_threshold(y, 1.0), 5.0), 5)
    assert np.array_equal(apply_pipeline(y, ["soft_threshold", "simplex", "round"], 1.0, total=5.0), composed)
    unchanged = apply_pipeline(y, [], 1.0)
    assert np.array_equal(unchanged, y) and unchanged is not y
    assert np.array_equal(apply_pipeline(y, ("none",), 1.0), y)


@pytest.mark.parametrize(
    "steps, kwargs, text",
    [
        (["simplex"], {}, "total"),
        (["clip_rescale"], {}, "total"),
        (["posterior_mean"], {}, "prior"),
        (["wavelet_soft_threshold"], {}, "2-D"),
        (["bogus"], {}, "denoiser"),
        (["round"], {"total": 2.5}, "whole"),
    ],
)
def test_pipeline_requirements_are_checked(steps, kwargs, text):
    with pytest.raises(ValueError, match=text):
        apply_pipeline([1.0, 2.0, 3.0], steps, 1.0, **kwargs)


def test_pipeline_minimum_bins():
    with pytest.raises(ValueError, match="at least 3 bins"):
        check_pipeline(["james_stein"], (2,))
    assert check_pipeline("soft_threshold", (2,)) == ("soft_threshold",)
