"""gaussmech_core.tails: error bounds that always hold, log tails, the classical map, samplers.

Oracles: mpmath at 50 digits for the Gaussian, GG and chi-square quantiles and for the exact δ of
the classical σ; closed forms for Laplace and R1SMG's norm; docs/math.md section 1 for the break-down ε.
"""

from __future__ import annotations

import dataclasses
import doctest
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import special, stats

import gaussmech_core.tails as tails_module
from gaussmech_core import gaussian, multivariate
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_core.tails import (
    CLASSICAL_FAILS,
    CLASSICAL_HOLDS_BEYOND_THEOREM,
    CLASSICAL_THEOREM,
    classical_breakdown_epsilon,
    classical_formula_sigma,
    classical_true_delta,
    classical_validity_map,
    coordinate_error_bound,
    coordinate_sample,
    log_coordinate_tail,
    log_norm_tail,
    norm_error_bound,
    rank_one_noise_sample,
    tail_quantile,
)

mp.mp.dps = 50

SETTINGS = [
    Setting(epsilon=1.0, delta=1e-5, dim=10),
    Setting(epsilon=0.5, delta=1e-10, sensitivity=3.0, order=3.0, dim=5),
    Setting(epsilon=5.0, delta=1e-3, sensitivity=0.5, order=1.5, dim=3),
    Setting(epsilon=1e-3, delta=1e-300, dim=1),
]
ALPHAS = (0.5, 0.05, 1e-3, 1e-9)


def _gaussian_log_tail(t):
    """log P(|Z| > t) = log 2 + log Φ(−t), finite far below float64's range."""
    return math.log(2.0) + special.log_ndtr(-np.asarray(t, dtype=float))


def _mp_gaussian_quantile(alpha: float) -> float:
    """x with erfc(x/√2) = α, at 50 digits (root of the log, so α = 1e-300 is fine)."""
    target = mp.log(mp.mpf(alpha))
    start = mp.sqrt(-2 * target)
    root = mp.findroot(lambda x: mp.log(mp.erfc(x / mp.sqrt(2))) - target, start)
    return float(root)


def test_doctests_pass():
    result = doctest.testmod(tails_module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 20


# --- tail_quantile ---------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.9, 0.05, 1e-5, 1e-30, 1e-300])
def test_gaussian_quantile_matches_mpmath_and_is_on_the_safe_side(alpha):
    t = tail_quantile(_gaussian_log_tail, alpha, 1.0)
    exact = _mp_gaussian_quantile(alpha)
    assert exact <= t <= exact * (1 + 2e-12)
    assert float(mp.erfc(mp.mpf(t) / mp.sqrt(2))) <= alpha


@settings(max_examples=150, deadline=None)
@given(
    log10_alpha=st.floats(min_value=-300.0, max_value=-0.01),
    log10_scale=st.floats(min_value=-200.0, max_value=200.0),
)
def test_laplace_quantile_is_conservative_and_tight_at_any_scale(log10_alpha, log10_scale):
    alpha, b = 10.0**log10_alpha, 10.0**log10_scale
    t = tail_quantile(lambda x: -np.asarray(x) / b, alpha, b)
    assert -t / b <= math.log(alpha)  # P(|N| > t) <= α, as evaluated
    assert t == pytest.approx(b * math.log(1.0 / alpha), rel=1e-11)


def test_the_scale_hint_changes_the_work_not_the_answer():
    answers = [tail_quantile(_gaussian_log_tail, 1e-6, hint) for hint in (1e-100, 1e-3, 1.0, 1e3, 1e100)]
    assert max(answers) / min(answers) - 1 < 1e-12


def test_arrays_keep_their_shape_and_scalars_give_floats():
    alphas = np.array([[0.1, 0.01], [1e-3, 1e-4]])
    result = tail_quantile(lambda x: -np.asarray(x), alphas, 1.0)
    assert result.shape == (2, 2)
    np.testing.assert_allclose(result, -np.log(alphas), rtol=1e-12)
    assert isinstance(tail_quantile(lambda x: -np.asarray(x), 0.1, 1.0), float)


def test_an_atom_at_zero_gives_a_vanishing_half_width():
    """P(|N| > t) = 0.01 for every t > 0: an interval of half-width 1e-300 already holds 99%."""
    t = tail_quantile(lambda x: np.full(np.shape(x), math.log(0.01)), 0.05, 1.0)
    assert 0.0 < t <= 1e-300


def test_nan_tails_count_as_not_holding():
    """A tail that is NaN below t = 2 and Laplace above: the answer is never in the NaN region."""

    def odd_tail(x):
        x = np.asarray(x, dtype=float)
        return np.where(x < 2.0, np.nan, -x)

    t = tail_quantile(odd_tail, 0.5, 1.0)
    assert t >= 2.0


def test_a_tail_that_never_falls_is_reported():
    with pytest.raises(ValueError, match="never falls"):
        tail_quantile(lambda x: np.zeros(np.shape(x)), 0.05, 1.0)


@pytest.mark.parametrize(
    ("alpha", "scale", "error", "match"),
    [
        (0.0, 1.0, ValueError, "alpha must be in"),
        (1.0, 1.0, ValueError, "alpha must be in"),
        (1e-301, 1.0, ValueError, "alpha must be in"),
        (float("nan"), 1.0, ValueError, "alpha"),
        ([0.1, 2.0], 1.0, ValueError, "index 1"),
        (0.1, 0.0, ValueError, "scale must be"),
        (0.1, float("inf"), ValueError, "scale must be"),
        ("0.1", 1.0, TypeError, "alpha"),
    ],
)
def test_bad_arguments_are_named(alpha, scale, error, match):
    with pytest.raises(error, match=match):
        tail_quantile(lambda x: -np.asarray(x), alpha, scale)


# --- mechanism error bounds ------------------------------------------------------------------


def _valid_pairs():
    for setting in SETTINGS:
        for mechanism_id, mechanism in MECHANISMS.items():
            if mechanism.validity(setting).valid:
                yield pytest.param(mechanism_id, setting, id=f"{mechanism_id}-eps{setting.epsilon}-d{setting.dim}")


@pytest.mark.parametrize(("mechanism_id", "setting"), list(_valid_pairs()))
def test_every_mechanism_bound_holds_and_is_tight(mechanism_id, setting):
    mechanism = MECHANISMS[mechanism_id]
    scale = mechanism.scale(setting)
    bounds = coordinate_error_bound(mechanism, scale, setting, np.array(ALPHAS))
    for alpha, t in zip(ALPHAS, bounds):
        assert mechanism.tail(t, scale, setting) <= alpha
        assert mechanism.tail(t * (1 - 1e-9), scale, setting) > alpha, "the bound is the smallest one"


def test_gaussian_coordinate_bound_is_sigma_times_the_normal_quantile():
    setting = Setting(epsilon=1.0, delta=1e-5)
    mechanism = MECHANISMS["analytic_gaussian"]
    sigma = mechanism.scale(setting)
    for alpha in (0.05, 1e-12, 1e-300):
        t = coordinate_error_bound(mechanism, sigma, setting, alpha)
        assert t == pytest.approx(sigma * _mp_gaussian_quantile(alpha), rel=2e-12)


@pytest.mark.parametrize("order", [1.0, 1.5, 3.0, 7.0])
def test_generalized_gaussian_bound_matches_mpmath(order):
    setting = Setting(epsilon=1.0, delta=1e-5, order=order)
    mechanism = MECHANISMS["generalized_gaussian"]
    b = mechanism.scale(setting)
    for alpha in (0.05, 1e-8, 1e-200):
        t = coordinate_error_bound(mechanism, b, setting, alpha)
        a = mp.mpf(1) / order

        def tail(x):
            return mp.gammainc(a, (mp.mpf(x) / b) ** order, mp.inf, regularized=True)

        assert float(mp.log(tail(t))) <= math.log(alpha) + 1e-13 * abs(math.log(alpha))
        assert float(tail(t * (1 - 1e-10))) > alpha


def test_norm_bounds_match_chi_square_and_r1smg_closed_forms():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=10)
    gaussian_mechanism = MECHANISMS["analytic_gaussian"]
    sigma = gaussian_mechanism.scale(setting)
    for alpha in (0.05, 1e-6, 1e-100):
        t = norm_error_bound(gaussian_mechanism, sigma, setting, alpha)
        x = mp.findroot(
            lambda y: mp.log(mp.gammainc(5, y, mp.inf, regularized=True)) - mp.log(alpha), 5 - math.log(alpha)
        )
        assert t == pytest.approx(sigma * math.sqrt(2 * float(x)), rel=1e-11)
        assert gaussian_mechanism.norm_tail(t, sigma, setting) <= alpha
    r1smg = MECHANISMS["r1smg"]
    sigma_star = r1smg.scale(setting)
    t = norm_error_bound(r1smg, sigma_star, setting, 0.05)
    assert t == pytest.approx(math.sqrt(2 * sigma_star) * special.erfcinv(0.05), rel=1e-11)


def test_norm_bound_of_a_mechanism_without_closed_form_is_refused():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=10)
    with pytest.raises(ValueError, match="Monte Carlo"):
        norm_error_bound(MECHANISMS["laplace"], 1.0, setting, 0.05)
    with pytest.raises(ValueError, match="Monte Carlo"):
        log_norm_tail(MECHANISMS["laplace"], 1.0, 1.0, setting)


def test_log_tails_go_far_below_float64_and_agree_with_the_probabilities():
    setting = Setting(epsilon=1.0, delta=1e-5, order=3.0, dim=10)
    for mechanism_id in ("analytic_gaussian", "laplace", "generalized_gaussian", "mvg_iid", "r1smg"):
        mechanism = MECHANISMS[mechanism_id]
        scale = mechanism.scale(setting)
        std = mechanism.coordinate_std(scale, setting)
        t = np.array([0.5, 2.0, 5.0]) * std
        np.testing.assert_allclose(
            np.exp(log_coordinate_tail(mechanism, t, scale, setting)), mechanism.tail(t, scale, setting), rtol=1e-9
        )
    gaussian_mechanism = MECHANISMS["analytic_gaussian"]
    value = log_coordinate_tail(gaussian_mechanism, 60.0, 1.0, setting)  # about 1e-784
    assert value == pytest.approx(float(mp.log(mp.erfc(60 / mp.sqrt(2)))), rel=1e-13)
    assert log_coordinate_tail(MECHANISMS["laplace"], 1e4, 1.0, setting) == -1e4
    gg = MECHANISMS["generalized_gaussian"]
    b = gg.scale(setting)
    far = log_coordinate_tail(gg, 30 * b, b, setting)
    assert far == pytest.approx(float(mp.log(mp.gammainc(mp.mpf(1) / 3, 27000, mp.inf, regularized=True))), rel=1e-12)


# --- the classical formula beyond its theorem -------------------------------------------------


def _mp_gaussian_delta(epsilon: float, sigma: float) -> float:
    epsilon, mu = mp.mpf(epsilon), 1 / mp.mpf(sigma)
    phi = lambda x: mp.ncdf(x)  # noqa: E731
    return float(phi(mu / 2 - epsilon / mu) - mp.exp(epsilon) * phi(-mu / 2 - epsilon / mu))


def test_formula_sigma_equals_the_theorem_where_it_is_one_and_scales_with_sensitivity():
    epsilons = np.array([1e-3, 0.1, 0.5, 0.99])
    np.testing.assert_allclose(
        classical_formula_sigma(epsilons, 1e-5, 2.0), gaussian.classical_gaussian_sigma(epsilons, 1e-5, 2.0), rtol=1e-15
    )
    assert classical_formula_sigma(10.0, 1e-5, 3.0) == pytest.approx(3 * classical_formula_sigma(10.0, 1e-5), rel=1e-15)
    assert math.isfinite(classical_formula_sigma(1.0, 1e-300))
    with pytest.raises(ValueError, match="epsilon"):
        classical_formula_sigma(0.0, 1e-5)


@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 1e-5), (5.0, 1e-5), (10.0, 1e-5), (100.0, 1e-5), (2.0, 1e-100)])
def test_true_delta_of_the_classical_sigma_matches_mpmath(epsilon, delta):
    sigma = float(classical_formula_sigma(epsilon, delta))
    assert classical_true_delta(epsilon, delta) == pytest.approx(_mp_gaussian_delta(epsilon, sigma), rel=1e-9)


def test_math_md_section_1_numbers():
    assert classical_true_delta(5.0, 1e-5) == pytest.approx(1.349e-6, rel=1e-3)  # "1.3e-6"
    assert classical_true_delta(10.0, 1e-5) == pytest.approx(2.265e-5, rel=1e-3)  # "2.27e-5"
    assert classical_true_delta(100.0, 1e-5) == pytest.approx(0.99999997, abs=1e-8)


def test_the_map_never_calls_a_failing_point_a_theorem_and_has_all_three_regions():
    epsilons, deltas = np.meshgrid(np.logspace(-3, 3, 61), np.logspace(-300, math.log10(0.999), 61))
    regions = classical_validity_map(epsilons, deltas)
    assert set(np.unique(regions)) == {CLASSICAL_THEOREM, CLASSICAL_HOLDS_BEYOND_THEOREM, CLASSICAL_FAILS}
    assert np.all(regions[epsilons < 1] == CLASSICAL_THEOREM), "Dwork & Roth's theorem holds on its domain"
    assert np.all(regions[epsilons >= 1] != CLASSICAL_THEOREM)
    true_deltas = classical_true_delta(epsilons, deltas)
    assert np.array_equal(regions == CLASSICAL_FAILS, true_deltas > deltas)
    assert classical_validity_map(0.5, 1e-5) == CLASSICAL_THEOREM and isinstance(classical_validity_map(0.5, 1e-5), int)


@pytest.mark.parametrize(("delta", "expected"), [(1e-3, 7.46), (1e-5, 8.42), (1e-10, 9.85)])
def test_breakdown_epsilon_matches_math_md_and_is_a_crossing(delta, expected):
    breakdown = classical_breakdown_epsilon(delta)
    assert round(breakdown, 2) == expected
    assert (
        classical_true_delta(breakdown * (1 - 1e-9), delta)
        <= delta
        < classical_true_delta(breakdown * (1 + 1e-9), delta)
    )


def test_breakdown_is_infinite_when_the_formula_holds_on_the_whole_range():
    assert classical_breakdown_epsilon(1e-5, largest_epsilon=5.0) == math.inf


# --- samplers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism_id", ["analytic_gaussian", "laplace", "generalized_gaussian", "mvg_iid"])
def test_coordinate_draws_of_iid_noise_have_the_right_spread_whatever_d(mechanism_id):
    setting = Setting(epsilon=1.0, delta=1e-5, order=3.0, dim=1_000_000)
    mechanism = MECHANISMS[mechanism_id]
    scale = mechanism.scale(setting)
    std = mechanism.coordinate_std(scale, setting)
    draws = coordinate_sample(mechanism, np.random.default_rng(7), 200_000, scale, setting)
    assert draws.shape == (200_000,)
    kurtosis = {"analytic_gaussian": 3.0, "mvg_iid": 3.0, "laplace": 6.0, "generalized_gaussian": 2.42}[mechanism_id]
    # CLT: the sample variance has relative sd √((κ − 1)/n); allow 5 sd.
    assert abs(draws.var() / std**2 - 1) < 5 * math.sqrt((kurtosis - 1) / draws.size)
    assert abs(draws.mean()) < 5 * std / math.sqrt(draws.size)


@pytest.mark.parametrize("dim", [3, 10, 100])
def test_r1smg_coordinate_draws_match_the_registry_sampler_and_tail(dim):
    setting = Setting(epsilon=1.0, delta=1e-5, dim=dim)
    mechanism = MECHANISMS["r1smg"]
    sigma_star = mechanism.scale(setting)
    draws = coordinate_sample(mechanism, np.random.default_rng(11), 40_000, sigma_star, setting)
    reference = multivariate.r1smg_sample(np.random.default_rng(12), 40_000, sigma_star, dim)[:, 0]
    assert stats.ks_2samp(draws, reference).pvalue > 1e-3
    std = mechanism.coordinate_std(sigma_star, setting)
    for t in (0.5 * std, std, 3 * std):
        p = float(mechanism.tail(t, sigma_star, setting))
        observed = np.mean(np.abs(draws) > t)
        assert abs(observed - p) < 5 * math.sqrt(p * (1 - p) / draws.size)


def test_coordinate_sample_rejects_bad_arguments():
    setting = Setting(epsilon=1.0, delta=1e-5)
    with pytest.raises(TypeError, match="rng"):
        coordinate_sample(MECHANISMS["laplace"], 3, 10, 1.0, setting)
    with pytest.raises(ValueError, match="size"):
        coordinate_sample(MECHANISMS["laplace"], np.random.default_rng(0), -1, 1.0, setting)
    assert coordinate_sample(MECHANISMS["laplace"], np.random.default_rng(0), 0, 1.0, setting).shape == (0,)


@pytest.mark.parametrize("dim", [2, 3, 10])
def test_rank_one_noise_with_a_fixed_direction_lies_on_one_line(dim):
    noise = rank_one_noise_sample(np.random.default_rng(3), 1000, 5.0, dim, fixed_direction=True)
    assert noise.shape == (1000, dim)
    assert np.linalg.matrix_rank(noise, tol=1e-9 * np.abs(noise).max()) == 1
    squared = np.sum(noise**2, axis=1)
    assert abs(squared.mean() / 5.0 - 1) < 5 * math.sqrt(2 / 1000)  # ‖n‖² = s z², Var = 2s²


def test_rank_one_noise_with_fresh_directions_is_isotropic_with_the_right_energy():
    noise = rank_one_noise_sample(np.random.default_rng(4), 100_000, 3.0, 3, fixed_direction=False)
    squared = np.sum(noise**2, axis=1)
    assert abs(squared.mean() / 3.0 - 1) < 5 * math.sqrt(2 / squared.size)
    second_moment = noise.T @ noise / noise.shape[0]  # E[n nᵀ] = (s/d) I
    np.testing.assert_allclose(second_moment, np.eye(3), atol=0.05)
    # The same law as R1SMG's own sampler at d = 3 (compare the first coordinate).
    reference = multivariate.r1smg_sample(np.random.default_rng(5), 100_000, 3.0, 3)[:, 0]
    assert stats.ks_2samp(noise[:, 0], reference).pvalue > 1e-3


def test_rank_one_noise_rejects_bad_arguments():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="dim"):
        rank_one_noise_sample(rng, 10, 1.0, 1, fixed_direction=True)
    with pytest.raises(ValueError, match="total_variance"):
        rank_one_noise_sample(rng, 10, 0.0, 2, fixed_direction=True)
    with pytest.raises(TypeError, match="rng"):
        rank_one_noise_sample(None, 10, 1.0, 2, fixed_direction=True)


def test_setting_is_not_changed_by_coordinate_sampling():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=7)
    before = dataclasses.asdict(setting)
    coordinate_sample(MECHANISMS["analytic_gaussian"], np.random.default_rng(0), 5, 1.0, setting)
    assert dataclasses.asdict(setting) == before
