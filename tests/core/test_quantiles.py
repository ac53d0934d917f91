"""gaussmech_core.quantiles and the registry's ``coordinate_quantile``: closed forms that only speed up.

Oracles: mpmath at 50 digits (the root of each family's tail, solved in log space), the exact
lattice sum for the discrete Gaussian, and the slow path itself, :func:`tails.tail_quantile`'s
root search, which every closed-form error bound must match to a relative 1e-12 on a grid that
includes the extremes (α = 1e-300, tiny and huge scales, p = 1 and 10, narrow data bounds).
"""

from __future__ import annotations

import dataclasses
import doctest
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_core.quantiles as quantiles_module
from gaussmech_core import tails
from gaussmech_core.bounded import clamped_noise_tail, truncated_noise_tail
from gaussmech_core.discrete_gaussian import discrete_gaussian_log_tail
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.quantiles import (
    clamped_gg_coordinate_quantile,
    discrete_gaussian_coordinate_quantile,
    gaussian_coordinate_quantile,
    gaussian_norm_quantile,
    gg_coordinate_quantile,
    laplace_coordinate_quantile,
    truncated_gg_coordinate_quantile,
)
from gaussmech_core.registry_types import Setting

mp.mp.dps = 50
ALPHAS = [1e-300, 1e-100, 1e-12, 1e-6, 0.01, 0.05, 0.3, 0.9]
WITH_QUANTILE = [key for key, mechanism in MECHANISMS.items() if mechanism.coordinate_quantile is not None]
WITH_NORM_QUANTILE = [key for key, mechanism in MECHANISMS.items() if mechanism.norm_quantile is not None]


def _mp_root(log_tail, log_alpha, start):
    """t > 0 with log_tail(t) = log α, by mpmath's secant method on log t."""
    u = mp.findroot(lambda u: log_tail(mp.e**u) - log_alpha, mp.log(start))
    return float(mp.e**u)


def _mp_gg_log_tail(t, b, p):
    return mp.log(mp.gammainc(mp.mpf(1) / p, (t / b) ** p, mp.inf, regularized=True))


def test_module_doctests():
    assert doctest.testmod(quantiles_module).failed == 0


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("sigma", [1e-200, 0.3, 1.0, 1e200])
def test_gaussian_quantile_against_mpmath(alpha, sigma):
    start = math.sqrt(2.0 * math.log(2.0 / alpha)) if alpha < 0.5 else 0.1
    unit = _mp_root(lambda t: mp.log(mp.erfc(t / mp.sqrt(2))), mp.log(alpha), start)
    assert gaussian_coordinate_quantile(alpha, sigma) == pytest.approx(sigma * unit, rel=1e-13)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_laplace_quantile_is_b_ln_one_over_alpha(alpha):
    assert laplace_coordinate_quantile(alpha, 2.5) == pytest.approx(float(2.5 * -mp.log(alpha)), rel=1e-14)


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("order", [1.0, 1.5, 2.0, 4.0, 10.0])
def test_gg_quantile_against_mpmath(alpha, order):
    b = 0.7
    start = b * max(math.log(1.0 / alpha), 0.05) ** (1.0 / order)
    expected = _mp_root(lambda t: _mp_gg_log_tail(t, b, order), mp.log(alpha), start)
    assert gg_coordinate_quantile(alpha, b, order) == pytest.approx(expected, rel=1e-11)


@pytest.mark.parametrize("alpha", [1e-6, 0.01, 0.05, 0.3, 0.9])
@pytest.mark.parametrize(("b", "order", "h"), [(0.7, 2.0, 0.5), (0.2, 1.0, 0.5), (1.5, 4.0, 2.0), (3.0, 1.3, 0.25)])
def test_truncated_gg_quantile_against_mpmath(alpha, b, order, h):
    a = mp.mpf(1) / order
    inside = mp.gammainc(a, 0, (mp.mpf(h) / b) ** order, regularized=True)

    def log_tail(t):
        return mp.log((inside - mp.gammainc(a, 0, (t / b) ** order, regularized=True)) / inside)

    # bracketed on (0, h), where the tail falls from 1 to 0
    expected = float(
        mp.findroot(
            lambda t: log_tail(t) - mp.log(alpha),
            (mp.mpf(h) * 1e-9, mp.mpf(h) * (1 - mp.mpf(10) ** -30)),
            solver="illinois",
        )
    )
    t = truncated_gg_coordinate_quantile(alpha, b, order, h)
    assert t == pytest.approx(expected, rel=1e-10)
    assert float(truncated_noise_tail(t, b, order, h)) == pytest.approx(alpha, rel=1e-8)


@pytest.mark.parametrize(
    ("alpha", "b", "order", "h"), [(0.05, 0.7, 2.0, 0.5), (0.3, 0.7, 2.0, 0.5), (0.9, 2.0, 1.0, 0.5)]
)
def test_clamped_gg_quantile_is_the_gg_quantile_below_h_and_h_beyond(alpha, b, order, h):
    t = clamped_gg_coordinate_quantile(alpha, b, order, h)
    gg = gg_coordinate_quantile(alpha, b, order)
    if gg < h:
        assert t == gg
        assert float(clamped_noise_tail(t, b, order, h)) == pytest.approx(alpha, rel=1e-12)
    else:
        assert t == h
        assert (
            float(clamped_noise_tail(h, b, order, h)) == 0.0
            and float(clamped_noise_tail(h * (1 - 1e-12), b, order, h)) > alpha
        )


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("sigma", [0.4, 1.0, 3.0, 37.5, 1e5])
def test_discrete_gaussian_quantile_is_the_first_integer_that_meets_alpha(alpha, sigma):
    """Against the lattice tail summed in mpmath: P(|X| > k) <= α < P(|X| > k - 1)."""
    k = discrete_gaussian_coordinate_quantile(alpha, sigma)
    assert k == math.floor(k) and k >= 0

    def mp_tail(m):  # P(|X| > m), m an integer, as 2 Σ_{y > m} e^{-y²/2σ²} / Σ_y e^{-y²/2σ²}
        s2 = 2 * mp.mpf(sigma) ** 2
        width = int(40 * sigma) + 60
        norm = 1 + 2 * mp.fsum(mp.e ** (-(y**2) / s2) for y in range(1, width))
        top = int(m) + width
        return 2 * mp.fsum(mp.e ** (-(y**2) / s2) for y in range(int(m) + 1, top)) / norm

    if sigma <= 3:
        assert mp_tail(k) <= alpha
        if k >= 1:
            assert mp_tail(k - 1) > alpha
    else:  # the exact tail in float64, checked on its own log form
        assert discrete_gaussian_log_tail(k, sigma) <= math.log(alpha) < discrete_gaussian_log_tail(k - 1, sigma)


def test_discrete_gaussian_quantile_is_zero_when_no_noise_is_likely():
    # σ = 0.3: P(X ≠ 0) ≈ 8e-3 (docs/math.md section 9.5); any t >= 0 meets α = 0.05.
    assert discrete_gaussian_coordinate_quantile(0.05, 0.3) == 0.0
    assert discrete_gaussian_coordinate_quantile(1e-6, 0.3) >= 1.0


@pytest.mark.parametrize(
    ("function", "arguments", "name"),
    [
        (gaussian_coordinate_quantile, (0.0, 1.0), "alpha"),
        (gaussian_coordinate_quantile, (1.0, 1.0), "alpha"),
        (laplace_coordinate_quantile, (0.05, -1.0), "scale"),
        (gg_coordinate_quantile, (0.05, 1.0, 0.5), "order"),
        (gg_coordinate_quantile, (0.05, 1.0, 11.0), "order"),
        (truncated_gg_coordinate_quantile, (0.05, 1.0, 2.0, 0.0), "h"),
        (clamped_gg_coordinate_quantile, (float("nan"), 1.0, 2.0, 0.5), "alpha"),
        (discrete_gaussian_coordinate_quantile, (0.05, 0.0), "sigma"),
    ],
)
def test_bad_parameters_are_refused_by_name(function, arguments, name):
    with pytest.raises(ValueError, match=name):
        function(*arguments)


def test_arrays_keep_their_shape():
    alpha = np.array([[0.1, 0.01], [1e-6, 1e-300]])
    for result in (
        gaussian_coordinate_quantile(alpha, 2.0),
        gg_coordinate_quantile(alpha, 2.0, 1.5),
        discrete_gaussian_coordinate_quantile(alpha, 2.0),
    ):
        assert np.shape(result) == (2, 2) and np.all(np.diff(np.asarray(result).ravel()) >= 0)


# --- the registry's error bound: the closed form must agree with the root search it replaces ---


def _settings_for(mechanism):
    orders = (1.0, 1.3, 2.0, 4.0, 10.0) if mechanism.uses_order else (2.0,)
    bounds = ((0.0, 1.0), (-3.0, 5.0), (0.0, 1e-3)) if mechanism.uses_bounds else ((0.0, 1.0),)
    return [Setting(1.0, 1e-5, order=p, dim=10, data_lower=lo, data_upper=hi) for p in orders for lo, hi in bounds]


@pytest.mark.parametrize("key", WITH_QUANTILE)
def test_closed_form_error_bound_agrees_with_the_root_search(key):
    mechanism = MECHANISMS[key]
    without = dataclasses.replace(mechanism, coordinate_quantile=None)
    alphas = np.array(ALPHAS + [0.1, 1e-9, 0.999999])
    for setting in _settings_for(mechanism):
        for scale in (1e-6, 0.01, 0.3, 1.0, 7.0, 1e4):
            if not mechanism.coordinate_std(scale, setting) > 0:
                continue  # no noise in float64 (the discrete Gaussian at σ <= 0.03): the registry refuses it
            fast = np.asarray(tails.coordinate_error_bound(mechanism, scale, setting, alphas))
            slow = np.asarray(tails.coordinate_error_bound(without, scale, setting, alphas))
            np.testing.assert_allclose(fast, slow, rtol=2e-12, atol=0.0, err_msg=f"{key} at b={scale}, {setting}")
            # and it is never on the unsafe side: the tail at the bound, evaluated alone, is <= α
            for alpha, bound in zip(alphas, fast):
                assert tails.log_coordinate_tail(mechanism, float(bound), scale, setting) <= math.log(alpha)


@pytest.mark.parametrize("key", WITH_QUANTILE)
def test_a_scalar_alpha_gives_a_float(key):
    mechanism = MECHANISMS[key]
    setting = Setting(1.0, 1e-5, dim=10)
    bound = tails.coordinate_error_bound(mechanism, 1.0, setting, 0.05)
    assert isinstance(bound, float) and bound > 0


@pytest.mark.parametrize(
    "wrong", [lambda t: t * 1.5, lambda t: t * (1 - 1e-9), lambda t: np.full_like(t, np.nan), lambda t: -t]
)
def test_a_wrong_closed_form_falls_back_to_the_root_search(wrong):
    """The check decides, not the formula: a quantile off by 50 %, by 1e-9, NaN or negative changes nothing."""
    mechanism = MECHANISMS["analytic_gaussian"]
    right = mechanism.coordinate_quantile
    broken = dataclasses.replace(mechanism, coordinate_quantile=lambda a, s, setting: wrong(right(a, s, setting)))
    slow = dataclasses.replace(mechanism, coordinate_quantile=None)
    setting = Setting(1.0, 1e-5)
    alphas = np.array([1e-300, 1e-6, 0.05])
    np.testing.assert_array_equal(
        tails.coordinate_error_bound(broken, 2.0, setting, alphas),
        tails.coordinate_error_bound(slow, 2.0, setting, alphas),
    )


@settings(max_examples=60, deadline=None)
@given(
    alpha=st.floats(1e-300, 0.5),
    scale=st.floats(1e-3, 1e3),
    order=st.floats(1.0, 10.0),
)
def test_gg_error_bound_holds_and_matches_the_slow_path(alpha, scale, order):
    mechanism = MECHANISMS["generalized_gaussian"]
    setting = Setting(1.0, 1e-5, order=order)
    fast = tails.coordinate_error_bound(mechanism, scale, setting, alpha)
    slow = tails.coordinate_error_bound(dataclasses.replace(mechanism, coordinate_quantile=None), scale, setting, alpha)
    assert fast == pytest.approx(slow, rel=2e-12)
    assert tails.log_coordinate_tail(mechanism, fast, scale, setting) <= math.log(alpha)


@pytest.mark.parametrize("alpha", [1e-300, 1e-12, 0.05, 0.5])
@pytest.mark.parametrize("dim", [1, 2, 10, 1000])
def test_gaussian_norm_quantile_against_mpmath(alpha, dim):
    def log_tail(t):  # log Q(d/2, t²/2), the χ_d tail
        return mp.log(mp.gammainc(mp.mpf(dim) / 2, t**2 / 2, mp.inf, regularized=True))

    start = math.sqrt(dim + 2 * math.log(1 / alpha) + 2 * math.sqrt(dim * math.log(1 / alpha)))
    expected = _mp_root(log_tail, mp.log(alpha), start)
    assert gaussian_norm_quantile(alpha, 1.5, dim) == pytest.approx(1.5 * expected, rel=1e-11)


@pytest.mark.parametrize("key", WITH_NORM_QUANTILE)
def test_closed_form_norm_bound_agrees_with_the_root_search(key):
    mechanism = MECHANISMS[key]
    without = dataclasses.replace(mechanism, norm_quantile=None)
    alphas = np.array(ALPHAS + [0.1, 1e-9])
    for dim in (3, 10, 200):
        setting = Setting(1.0, 1e-5, dim=dim)
        for scale in (1e-6, 0.3, 1.0, 7.0, 1e4):
            fast = np.asarray(tails.norm_error_bound(mechanism, scale, setting, alphas))
            slow = np.asarray(tails.norm_error_bound(without, scale, setting, alphas))
            np.testing.assert_allclose(fast, slow, rtol=2e-12, atol=0.0, err_msg=f"{key} at {scale}, d={dim}")
            for alpha, bound in zip(alphas, fast):
                assert tails.log_norm_tail(mechanism, float(bound), scale, setting) <= math.log(alpha)
