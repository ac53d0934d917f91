"""Histogram release, error metrics and the error-against-ε sweep."""

from __future__ import annotations

import doctest
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaussmech_core.histogram as histogram_module
from gaussmech_core.denoise import apply_pipeline, oracle_prior
from gaussmech_core.gaussian import analytic_gaussian_sigma, classical_gaussian_sigma
from gaussmech_core.generalized import generalized_gaussian_delta, generalized_gaussian_scale, gg_variance
from gaussmech_core.histogram import (
    KL_FLOOR,
    METRICS,
    NeighbourModel,
    calibrate_histogram_noise,
    error_metrics,
    error_sweep,
    evaluate_pipelines,
    histogram_sensitivities,
    improvement_factor,
    kl_divergence,
    l1_distance,
    max_error,
    mse,
    neighbour_model,
    release_histogram,
)
from gaussmech_core.laplace import laplace_scale
from gaussmech_core.streams import mechanism_rng


def test_doctests():
    result = doctest.testmod(histogram_module)
    assert result.attempted > 10
    assert result.failed == 0


# --- sensitivities ---------------------------------------------------------------------------------


def test_sensitivities_follow_the_neighbour_relation():
    assert histogram_sensitivities("add_remove") == (1.0, 1.0)
    l1, l2 = histogram_sensitivities("replace")
    assert l1 == 2.0 and l2 == pytest.approx(math.sqrt(2), rel=1e-15)
    model = NeighbourModel(100, 1 / 500)
    assert histogram_sensitivities(model) == pytest.approx((100 / 500, 10 / 500))
    assert neighbour_model(model) is model
    with pytest.raises(ValueError, match="relation"):
        histogram_sensitivities("swap")
    with pytest.raises(ValueError, match="coordinate_sensitivity"):
        NeighbourModel(2, 0.0)


# --- calibration equals the family modules -----------------------------------------------------------


@pytest.mark.parametrize("relation", ["add_remove", "replace"])
@pytest.mark.parametrize("epsilon, delta", [(0.1, 1e-5), (0.9, 1e-10), (1.0, 1e-5), (5.0, 1e-3)])
def test_gaussian_and_laplace_scales_are_the_core_calibrations(relation, epsilon, delta):
    l1, l2 = histogram_sensitivities(relation)
    analytic = calibrate_histogram_noise("analytic_gaussian", epsilon, delta, relation)
    assert analytic.scale == analytic_gaussian_sigma(epsilon, delta, l2)
    assert analytic.noise_std == analytic.scale and analytic.sensitivity == l2
    laplace = calibrate_histogram_noise("laplace", epsilon, delta, relation)
    assert laplace.scale == laplace_scale(epsilon, l1)
    assert laplace.noise_std == pytest.approx(math.sqrt(2) * laplace.scale, rel=1e-15)
    if epsilon < 1:
        classical = calibrate_histogram_noise("classical_gaussian", epsilon, delta, relation)
        assert classical.scale == classical_gaussian_sigma(epsilon, delta, l2)
    else:
        with pytest.raises(ValueError):
            classical_gaussian_sigma(epsilon, delta, l2)
        with pytest.raises(ValueError):
            calibrate_histogram_noise("classical_gaussian", epsilon, delta, relation)


@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("epsilon, delta", [(0.5, 1e-5), (2.0, 1e-3)])
def test_generalized_gaussian_scale_and_its_guarantee(order, epsilon, delta):
    single = calibrate_histogram_noise("generalized_gaussian", epsilon, delta, "add_remove", order)
    assert single.scale == generalized_gaussian_scale(epsilon, delta, 1.0, order, guarantee="approximate")
    assert single.noise_std == pytest.approx(math.sqrt(gg_variance(single.scale, order)), rel=1e-14)
    assert generalized_gaussian_delta(epsilon, single.scale, 1.0, order) <= delta
    replace = calibrate_histogram_noise("generalized_gaussian", epsilon, delta, "replace", order)
    if order == 2.0:
        assert replace.scale == generalized_gaussian_scale(epsilon, delta, math.sqrt(2), 2.0)
        assert generalized_gaussian_delta(epsilon, replace.scale, math.sqrt(2), 2.0) <= delta
    else:
        # Two coordinates change by 1: each is (ε/2, δ/2)-DP, so the pair is (ε, δ)-DP (basic composition).
        assert replace.scale == generalized_gaussian_scale(epsilon / 2, delta / 2, 1.0, order)
        assert generalized_gaussian_delta(epsilon / 2, replace.scale, 1.0, order) <= delta / 2
        assert "composition" in replace.note
    assert replace.scale >= single.scale


def test_calibration_rejects_bad_input():
    with pytest.raises(ValueError, match="mechanism"):
        calibrate_histogram_noise("r1smg", 1.0, 1e-5, "add_remove")
    with pytest.raises(ValueError, match="delta"):
        calibrate_histogram_noise("analytic_gaussian", 1.0, 0.0, "add_remove")
    with pytest.raises(ValueError, match="order"):
        calibrate_histogram_noise("generalized_gaussian", 1.0, 1e-5, "add_remove", order=0.5)
    with pytest.raises(ValueError, match="epsilon"):
        calibrate_histogram_noise("laplace", -1.0, 1e-5, "add_remove")


# --- release ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mechanism, order",
    [("analytic_gaussian", 2.0), ("classical_gaussian", 2.0), ("laplace", 1.0), ("generalized_gaussian", 3.0)],
)
def test_release_noise_has_the_calibrated_spread(mechanism, order):
    d = 100_000
    release = release_histogram(
        np.zeros(d), mechanism, 0.5, 1e-5, "replace", order=order, rng=np.random.default_rng(17)
    )
    noise = release.noisy
    # CLT: the sample variance has standard error sqrt((κ - 1)/d) σ² for kurtosis κ (at most 6 here).
    assert abs(noise.mean()) < 5 * release.noise_std / math.sqrt(d)
    assert abs(noise.var() / release.noise_std**2 - 1) < 5 * math.sqrt(5 / d)


def test_release_is_reproducible_and_keeps_the_shape():
    counts = np.arange(12.0).reshape(3, 4)
    first = release_histogram(counts, "laplace", 1.0, 1e-5, "add_remove", rng=5)
    second = release_histogram(counts, "laplace", 1.0, 1e-5, "add_remove", rng=np.random.default_rng(5))
    other = release_histogram(counts, "laplace", 1.0, 1e-5, "add_remove", rng=6)
    assert first.noisy.shape == (3, 4)
    assert np.array_equal(first.noisy, second.noisy)
    assert not np.array_equal(first.noisy, other.noisy)
    assert first.scale == first.calibration.scale and first.noise_std == first.calibration.noise_std


# --- metrics ---------------------------------------------------------------------------------------


def test_metrics_known_values_and_batches():
    true = np.array([1.0, 2.0, 3.0])
    estimate = np.array([2.0, 2.0, 0.0])
    assert mse(true, estimate) == pytest.approx(10 / 3)
    assert l1_distance(true, estimate) == 4.0
    assert max_error(true, estimate) == 3.0
    batch = np.stack([estimate, true])
    assert np.allclose(mse(true, batch), [10 / 3, 0.0])
    assert np.allclose(l1_distance(true, batch), [4.0, 0.0])
    grid = np.arange(6.0).reshape(2, 3)
    assert isinstance(mse(grid, grid + 1), float) and mse(grid, grid + 1) == 1.0
    assert mse(grid, np.stack([grid, grid + 2])).tolist() == [0.0, 4.0]
    with pytest.raises(ValueError, match="shape"):
        mse(true, np.ones(4))
    with pytest.raises(ValueError, match="estimate"):
        mse(true, [1.0, np.inf, 2.0])


def test_kl_divergence_against_mpmath():
    true = np.array([5.0, 0.0, 3.0, 2.0])
    estimate = np.array([4.0, 1.0, -1.0, 3.0])  # negative → 0 → floored
    mpmath.mp.dps = 50
    p = [mpmath.mpf(v) / 10 for v in true]
    clipped = [max(v, 0.0) for v in estimate]
    q = [mpmath.mpf(v) / sum(clipped) for v in clipped]
    q = [max(v, mpmath.mpf(KL_FLOOR)) if pi > 0 else v for v, pi in zip(q, p)]  # floor on occupied bins
    q = [v / sum(q) for v in q]
    expected = sum(pi * mpmath.log(pi / qi) for pi, qi in zip(p, q) if pi > 0)
    assert kl_divergence(true, estimate) == pytest.approx(float(expected), rel=1e-12)


def test_kl_divergence_properties():
    true = np.array([1.0, 3.0, 0.0])
    assert kl_divergence(true, true) == 0.0
    assert kl_divergence(true, 7 * true) == pytest.approx(0.0, abs=1e-15)  # scale-free
    assert kl_divergence(np.ones(1000), np.ones(1000)) == 0.0
    worst = kl_divergence(true, np.array([0.0, 0.0, 5.0]))
    assert 0 < worst <= math.log(1 / KL_FLOOR) + 1e-9
    assert kl_divergence(true, np.array([-1.0, -2.0, -3.0])) == pytest.approx(kl_divergence(true, np.ones(3)))
    with pytest.raises(ValueError, match="non-negative"):
        kl_divergence([1.0, -1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="non-negative"):
        kl_divergence([0.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="floor"):
        kl_divergence(true, true, floor=0.5)


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 30), elements=st.floats(0, 1e6)), st.data())
def test_kl_divergence_is_finite_and_non_negative(true, data):
    if true.sum() == 0:
        true = true + 1.0
    estimate = data.draw(hnp.arrays(np.float64, true.size, elements=st.floats(-1e6, 1e6)))
    value = kl_divergence(true, estimate)
    assert 0.0 <= value <= math.log(1 / KL_FLOOR) + math.log1p(true.size * KL_FLOOR) + 1e-12


def test_error_metrics_and_improvement_factor():
    metrics = error_metrics([1.0, 2.0], [2.0, 4.0])
    assert set(metrics) == set(METRICS)
    assert metrics["mse"] == 2.5 and metrics["l1"] == 3.0 and metrics["max"] == 2.0
    assert metrics["kl"] >= 0
    assert set(error_metrics([-1.0, 2.0], [2.0, 4.0])) == set(METRICS) - {"kl"}  # not a histogram: no KL, no NaN
    assert improvement_factor(4.0, 0.5) == 8.0
    assert improvement_factor(1.0, 0.0) == math.inf
    assert improvement_factor(0.0, 0.0) == 1.0
    assert np.allclose(improvement_factor([4.0, 2.0], 2.0), [2.0, 1.0])


def test_evaluate_pipelines_matches_apply_pipeline():
    rng = np.random.default_rng(3)
    true = rng.multinomial(200, rng.dirichlet(np.full(50, 0.1))).astype(float)
    release = release_histogram(true, "analytic_gaussian", 0.5, 1e-5, "add_remove", rng=rng)
    pipelines = [(), ("soft_threshold",), ("soft_threshold", "simplex", "round"), ("posterior_mean",)]
    prior = oracle_prior(true)
    results = evaluate_pipelines(true, release.noisy, release.noise_std, pipelines, total=200, prior=prior)
    for pipeline, result in zip(pipelines, results):
        expected = apply_pipeline(release.noisy, pipeline, release.noise_std, total=200, prior=prior)
        assert np.array_equal(result.estimate, expected)
        assert result.metrics == error_metrics(true, expected)
    assert results[2].estimate.sum() == 200
    assert results[1].metrics["mse"] < results[0].metrics["mse"]


# --- the sweep ---------------------------------------------------------------------------------------


def _sparse_counts(d=400, n=2000, seed=0):
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, rng.dirichlet(np.full(d, 1.0 / d))).astype(float)


def test_sweep_matches_a_direct_computation():
    counts = _sparse_counts()
    epsilons = [0.2, 1.0, 4.0]
    pipelines = [(), ("soft_threshold", "simplex")]
    result = error_sweep(
        counts,
        ["laplace", "analytic_gaussian"],
        pipelines,
        epsilons,
        1e-5,
        "replace",
        repetitions=7,
        seed=42,
        metrics=("mse", "l1"),
        total=counts.sum(),
    )
    rng = mechanism_rng(42, "analytic_gaussian")  # the analytic Gaussian's own stream, keyed by its id
    unit = rng.standard_normal((7, counts.size))
    sigma = analytic_gaussian_sigma(1.0, 1e-5, math.sqrt(2))
    estimates = [apply_pipeline(counts + sigma * u, pipelines[1], sigma, total=counts.sum()) for u in unit]
    values = [mse(counts, e) for e in estimates]
    assert result.mean[0, 1, 1, 1] == pytest.approx(np.mean(values), rel=1e-12)
    assert result.std[0, 1, 1, 1] == pytest.approx(np.std(values, ddof=1), rel=1e-10)
    assert result.lower[0, 1, 1, 1] == pytest.approx(np.quantile(values, 0.1), rel=1e-12)
    assert result.noise_std[1, 1] == pytest.approx(sigma, rel=1e-14)
    assert result.mean.shape == (2, 2, 2, 3)


def test_sweep_raw_error_is_the_noise_variance():
    counts = _sparse_counts(d=2000)
    result = error_sweep(
        counts, ["analytic_gaussian", "laplace"], [()], [0.5, 2.0], 1e-5, "add_remove", repetitions=20, seed=3
    )
    # Raw MSE per bin averages d·R noise squares: mean σ², relative standard error sqrt((κ-1)/(dR)).
    for m, kurtosis in ((0, 3.0), (1, 6.0)):
        relative = result.mean[0, m, 0] / result.noise_std[m] ** 2 - 1
        assert np.all(np.abs(relative) < 5 * math.sqrt((kurtosis - 1) / (2000 * 20)))


def test_sweep_is_reproducible_and_streams_are_per_mechanism():
    counts = _sparse_counts()
    args = ([(), ("nonnegative",)], [0.5, 1.0], 1e-5, "add_remove")
    one = error_sweep(counts, ["laplace"], *args, repetitions=5, seed=9)
    again = error_sweep(counts, ["laplace"], *args, repetitions=5, seed=9)
    both = error_sweep(counts, ["laplace", "analytic_gaussian"], *args, repetitions=5, seed=9)
    other = error_sweep(counts, ["laplace"], *args, repetitions=5, seed=10)
    assert np.array_equal(one.mean, again.mean)
    assert np.array_equal(one.mean[:, 0], both.mean[:, 0])
    assert not np.array_equal(one.mean, other.mean)
    assert np.all(one.mean[0, 0, 1] <= one.mean[0, 0, 0])  # clipping never hurts
    assert np.all(one.lower <= one.upper)


def test_sweep_chunks_give_the_same_numbers(monkeypatch):
    counts = _sparse_counts(d=300)
    args = (counts, ["analytic_gaussian"], [(), ("soft_threshold",)], [0.3, 3.0], 1e-5, "add_remove")
    whole = error_sweep(*args, repetitions=9, seed=1)
    monkeypatch.setattr(histogram_module, "_SWEEP_CHUNK_VALUES", 2 * counts.size)  # two rows per chunk
    chunked = error_sweep(*args, repetitions=9, seed=1)
    assert np.allclose(whole.mean, chunked.mean, rtol=1e-13)


@pytest.mark.parametrize("chunk_rows", [None, 3, 20])
def test_each_epsilon_of_a_sweep_is_the_sweep_at_that_epsilon_alone(monkeypatch, chunk_rows):
    """Scale-family noise is evaluated several ε at a time (stacked rows); every denoiser and
    metric works row by row, so each ε column must be exactly what a sweep at that ε alone gives,
    whether the ε values share a block of rows or not (chunk_rows: rows per chunk)."""
    counts = _sparse_counts(d=40, n=300)
    if chunk_rows is not None:
        monkeypatch.setattr(histogram_module, "_SWEEP_CHUNK_VALUES", chunk_rows * counts.size)
    pipelines = [(), ("soft_threshold", "simplex"), ("james_stein_plus_mean",), ("empirical_bayes", "simplex", "round")]
    common = dict(repetitions=7, seed=5, metrics=("mse", "l1", "max", "kl"), total=counts.sum(), order=1.5)
    mechanisms = ["analytic_gaussian", "laplace", "generalized_gaussian", "discrete_gaussian"]
    epsilons = [0.05, 0.3, 1.0, 4.0, 20.0]
    sweep = error_sweep(counts, mechanisms, pipelines, epsilons, 1e-6, "add_remove", **common)
    for e, epsilon in enumerate(epsilons):
        alone = error_sweep(counts, mechanisms[:3], pipelines, [epsilon], 1e-6, "add_remove", **common)
        for field in ("mean", "std", "lower", "upper"):
            assert np.array_equal(getattr(sweep, field)[:, :3, :, e], getattr(alone, field)[:, :, :, 0])
        assert np.array_equal(sweep.noise_std[:3, e], alone.noise_std[:, 0])
    # The discrete Gaussian is drawn afresh per ε (not a scale family): its draws at ε follow those
    # at the earlier ε of the grid (per chunk of rows), so only the first column of a sweep in one
    # chunk matches a sweep at that ε alone.
    if chunk_rows is not None and chunk_rows < common["repetitions"]:
        return
    alone = error_sweep(counts, ["discrete_gaussian"], pipelines, epsilons[:1], 1e-6, "add_remove", **common)
    assert np.array_equal(sweep.mean[:, 3, :, 0], alone.mean[:, 0, :, 0])


def test_sweep_marks_invalid_mechanisms_and_reports_improvement():
    counts = _sparse_counts()
    result = error_sweep(
        counts,
        ["classical_gaussian", ("generalized_gaussian", 3.0)],
        [(), ("soft_threshold",)],
        [0.5, 1.0, 2.0],
        1e-5,
        "add_remove",
        repetitions=4,
        seed=0,
    )
    assert result.valid[0].tolist() == [True, False, False]
    assert np.isnan(result.mean[0, 0, :, 1:]).all() and np.isfinite(result.mean[0, 0, :, 0]).all()
    assert "ε = 1" in result.reasons[0] and result.reasons[1] == ""
    assert result.orders == (2.0, 3.0)
    gain = result.improvement("mse", pipeline=1, baseline=0)
    assert gain.shape == (2, 3)
    assert np.isnan(gain[0, 1:]).all()
    assert np.all(gain[1] > 1) and np.all(gain[0, :1] > 1)  # sparse truth: soft thresholding helps


def test_sweep_with_oracle_and_kl():
    counts = np.kron(_sparse_counts(d=16, n=500, seed=2).reshape(4, 4), np.ones((2, 2)))
    result = error_sweep(
        counts,
        ["analytic_gaussian"],
        [("posterior_mean",), ("wavelet_soft_threshold", "simplex")],
        [1.0],
        1e-5,
        "add_remove",
        repetitions=3,
        seed=0,
        metrics=tuple(METRICS),
        total=counts.sum(),
        prior=oracle_prior(counts),
    )
    assert result.mean.shape == (4, 1, 2, 1)
    assert np.isfinite(result.mean).all()


@pytest.mark.parametrize(
    "kwargs, error, text",
    [
        ({"mechanisms": []}, ValueError, "mechanism"),
        ({"mechanisms": ["bogus"]}, ValueError, "mechanism"),
        ({"mechanisms": [("generalized_gaussian",)]}, TypeError, "pair"),
        ({"denoiser_pipelines": []}, ValueError, "pipeline"),
        ({"denoiser_pipelines": [("simplex",)]}, ValueError, "total"),
        ({"epsilons": []}, ValueError, "epsilons"),
        ({"epsilons": [-1.0]}, ValueError, "epsilons"),
        ({"repetitions": 0}, ValueError, "repetitions"),
        ({"metrics": ("rmse",)}, ValueError, "metric"),
        ({"band": (0.9, 0.1)}, ValueError, "band"),
        ({"counts": [1.0, -1.0, 2.0], "metrics": ("kl",)}, ValueError, "KL"),
    ],
)
def test_sweep_rejects_bad_input(kwargs, error, text):
    arguments = dict(
        counts=[1.0, 0.0, 5.0],
        mechanisms=["laplace"],
        denoiser_pipelines=[()],
        epsilons=[1.0],
        delta=1e-5,
        relation="add_remove",
        repetitions=2,
        seed=0,
    )
    arguments.update(kwargs)
    with pytest.raises(error, match=text):
        error_sweep(**arguments)


def test_metrics_do_not_overflow_before_their_value():
    """Issue 9: errors near the largest double give the rounded true value (finite where it is)."""
    big = 1.5e308
    assert mse([0.0, 0.0], [big, 0.0]) == math.inf  # (1.5e308)²/2 is beyond float64
    assert mse([0.0, 0.0], [1e154, 1e154]) == 1e154 * 1e154  # Σ e² = 2e308 overflows, the mean does not
    assert l1_distance([0.0, 0.0], [big, big]) == math.inf and l1_distance([0.0], [big]) == big
    with np.errstate(all="raise"):
        assert improvement_factor(4.0, 5e-324) == math.inf
