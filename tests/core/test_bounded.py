"""Liu's bounded-data GG mechanisms as noise (gaussmech_core.bounded) and their registry entries."""

from __future__ import annotations

import doctest
import math

import mpmath
import numpy as np
import pytest

from gaussmech_core import bounded, generalized, tails
from gaussmech_core.mechanisms import MECHANISMS, evaluate
from gaussmech_core.registry_types import Setting

CASES = [(0.7, 2.0, 0.5), (0.2, 1.0, 1.5), (3.0, 3.5, 0.25), (0.05, 10.0, 2.0)]


def _gg_density(x, b, p):
    return p / (2 * b * mpmath.gamma(1 / p)) * mpmath.exp(-((abs(x) / b) ** p))


@pytest.mark.parametrize("b, p, h", CASES)
def test_moments_and_tails_match_quadrature(b, p, h):
    mpmath.mp.dps = 30
    # Break points where the density falls off (at b and 2b), so quadrature resolves p = 10.
    points = sorted({-h, h, 0.0} | {sign * k * b for sign in (-1, 1) for k in (1, 2) if k * b < h})
    mass = mpmath.quad(lambda x: _gg_density(x, b, p), points)
    for q in (2.0, 4.0, 8.0):
        inside = mpmath.quad(lambda x: abs(x) ** q * _gg_density(x, b, p), points)
        assert float(bounded.truncated_noise_moment(q, b, p, h)) == pytest.approx(float(inside / mass), rel=1e-10)
        assert float(bounded.clamped_noise_moment(q, b, p, h)) == pytest.approx(
            float(inside + h**q * (1 - mass)), rel=1e-10
        )
    t = 0.4 * h
    # P(|X| <= x) = P(1/p, (x/b)^p), the regularized lower incomplete gamma function, in mpmath.
    below_t = mpmath.gammainc(1 / p, 0, (t / b) ** p, regularized=True)
    below_h = mpmath.gammainc(1 / p, 0, (h / b) ** p, regularized=True)
    above_t = mpmath.gammainc(1 / p, (t / b) ** p, mpmath.inf, regularized=True)
    assert float(bounded.truncated_noise_tail(t, b, p, h)) == pytest.approx(
        float((below_h - below_t) / below_h), rel=1e-9
    )
    assert float(bounded.clamped_noise_tail(t, b, p, h)) == pytest.approx(float(above_t), rel=1e-9)


def test_the_truncated_density_integrates_to_one_and_vanishes_outside():
    x = np.linspace(-0.5, 0.5, 20_001)
    density = bounded.truncated_noise_pdf(x, 0.3, 2.5, 0.5)
    assert np.trapezoid(density, x) == pytest.approx(1.0, rel=1e-6)
    assert float(bounded.truncated_noise_pdf(0.51, 0.3, 2.5, 0.5)) == 0.0


def test_the_pure_dp_profile_bound_is_randomized_responses():
    epsilon_zero = 1.3
    # Randomized response with parameter ε₀: P = (e^ε₀, 1)/(1 + e^ε₀), Q reversed.
    for epsilon in (0.0, 0.5, 1.2):
        p_one = math.exp(epsilon_zero) / (1 + math.exp(epsilon_zero))
        expected = max(0.0, p_one - math.exp(epsilon) * (1 - p_one))
        assert float(bounded.pure_dp_delta_bound(epsilon, epsilon_zero)) == pytest.approx(expected, rel=1e-12)
    assert float(bounded.pure_dp_delta_bound(2.0, epsilon_zero)) == 0.0
    assert float(bounded.pure_dp_delta_bound(1.0, 800.0)) == pytest.approx(1.0)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("order", [1.0, 2.0, 4.0])
def test_the_entries_calibrate_to_their_pure_epsilon(epsilon, order):
    setting = Setting(epsilon=epsilon, delta=1e-5, sensitivity=0.5, order=order, data_lower=-1.0, data_upper=2.0)
    truncated = evaluate("truncated_gg", setting)
    assert bounded.truncated_gg_epsilon_bound(truncated.scale, 0.5, order, 3.0) <= epsilon
    clamped = evaluate("bit_gg", setting)
    assert generalized.bit_gg_epsilon(clamped.scale, 0.5, order, -1.0, 2.0) <= epsilon
    for calibration in (truncated, clamped):
        mechanism = calibration.mechanism
        assert not mechanism.uses_delta and mechanism.uses_bounds and mechanism.guarantee == "pure"
        assert float(mechanism.privacy_profile(np.float64(epsilon), calibration.scale, setting)) == 0.0
        assert calibration.coordinate_std <= 1.5  # the noise at the middle lies in [-h, h], h = 1.5


def test_the_data_bounds_decide_validity():
    wide = Setting(epsilon=1.0, delta=1e-5, sensitivity=2.0, data_lower=0.0, data_upper=1.0)
    reason = MECHANISMS["bit_gg"].validity(wide).reason
    assert not MECHANISMS["bit_gg"].validity(wide).valid and "exceeds the width" in reason
    every = Setting(epsilon=1.0, delta=1e-5, dim=3, l1_model="all_coordinates")
    assert not MECHANISMS["truncated_gg"].validity(every).valid
    with pytest.raises(ValueError, match="data_lower"):
        Setting(epsilon=1.0, delta=1e-5, data_lower=2.0, data_upper=1.0)


def test_bit_atoms_hold_the_mass_beyond_the_bounds():
    positions, masses = bounded.clamped_noise_atoms(0.7, 2.0, 0.5)
    assert positions.tolist() == [-0.5, 0.5]
    assert masses.sum() == pytest.approx(float(generalized.gg_tail(0.5, 0.7, 2.0)), rel=1e-12)


def test_doctests():
    assert doctest.testmod(bounded).failed == 0


@pytest.mark.parametrize("b, p, h", CASES)
def test_the_rejection_sampler_matches_the_truncated_law(b, p, h):
    draws = bounded.truncated_noise_sample(np.random.default_rng(7), 60_000, b, p, h)
    assert np.abs(draws).max() <= h
    for t in (0.2 * h, 0.6 * h):
        expected = float(bounded.truncated_noise_tail(t, b, p, h))
        assert (
            abs(np.mean(np.abs(draws) > t) - expected) < 5 * math.sqrt(expected * (1 - expected) / draws.size) + 1e-12
        )
    reference = generalized.truncated_gg_sample(np.random.default_rng(8), 60_000, 0.0, b, p, -h, h)
    assert abs(draws.var() - reference.var()) < 0.05 * reference.var()


def _kernel_points():
    """(ε, Δ, p, lower, upper): p = 1 a third of the time, Δ/W down to 1e-18 and ε down to 1e-20
    (ε ≪ Δ/W, where the float 2A(b) rounded down), plus a point where it did."""
    rng = np.random.default_rng(7)
    points = []
    for _ in range(400):
        order = float(rng.choice([1.0, 1.0, 1.5, 2.0, 3.7, 10.0]))
        lower = float(rng.uniform(-10, 10))
        upper = lower + float(10 ** rng.uniform(-3, 3))
        sensitivity = float(10 ** rng.uniform(-18, 0)) * (upper - lower)
        points.append((float(10 ** rng.uniform(-20, 2)), sensitivity, order, lower, upper))
    return points + [(1e-20, 3e-17, 1.0, 0.0, 1.0)]


def test_truncated_gg_scale_and_epsilon_bound_err_on_the_safe_side_against_mpmath():
    """2A(b) at the calibrated b is at most ε exactly (mpmath, with W = upper − lower exact), and
    truncated_gg_epsilon_bound never reports below the exact 2A(b) of the width it is given, and is
    within 1e-13 of it (issue 20 item 7: both rounded the float 2A(b) down, e.g. at p = 1)."""
    with mpmath.workdps(60):
        for epsilon, sensitivity, order, lower, upper in _kernel_points():
            scale = generalized.truncated_gg_scale(epsilon, sensitivity, order, lower, upper)
            width = mpmath.mpf(upper) - mpmath.mpf(lower)
            exact = 2 * (width**order - (width - sensitivity) ** order) / mpmath.mpf(scale) ** order
            assert exact <= epsilon, (epsilon, sensitivity, order, lower, upper)
            assert exact >= epsilon * (1 - 1e-13), (epsilon, sensitivity, order, lower, upper)
            float_width = upper - lower
            reported = bounded.truncated_gg_epsilon_bound(scale, sensitivity, order, float_width)
            exact = 2 * (mpmath.mpf(float_width) ** order - (mpmath.mpf(float_width) - sensitivity) ** order)
            exact /= mpmath.mpf(scale) ** order
            assert exact <= reported <= exact * (1 + 1e-13), (scale, sensitivity, order, float_width)


def test_truncated_noise_tail_keeps_its_digits_far_below_1e_16():
    """P(|e| > t) = (Q(1/p, z_t) − Q(1/p, z_h))/P(1/p, z_h) to 1e-12 relative against mpmath where
    it is far below 1e-16 (as 1 − P with both P near 1 it was 0 there), and the error bound of the
    truncated GG at ε = 1000, p = 2, α = 1e-30 is exceeded with probability at most α (it was
    0.2648, where P(|N| > t) = 5.6e-17)."""
    cases = [(0.3644, 0.0447, 2.0, 0.5), (0.2648, 0.0447, 2.0, 0.5), (4.0, 0.1, 1.0, 5.0), (1.2, 0.3, 3.7, 3.0)]
    for t, scale, order, h in cases:
        with mpmath.workdps(50):
            z_t, z_h = (mpmath.mpf(t) / scale) ** order, (mpmath.mpf(h) / scale) ** order
            a = 1 / mpmath.mpf(order)
            exact = mpmath.gammainc(a, z_t, z_h) / mpmath.gammainc(a, 0, z_h)
        assert exact < 1e-16
        assert bounded.truncated_noise_tail(t, scale, order, h) == pytest.approx(float(exact), rel=1e-12)
    mechanism = MECHANISMS["truncated_gg"]
    setting = Setting(epsilon=1000.0, delta=1e-5, order=2.0)
    scale = evaluate(mechanism, setting).scale
    bound = tails.coordinate_error_bound(mechanism, scale, setting, 1e-30)
    with mpmath.workdps(50):
        z_t, z_h = (mpmath.mpf(bound) / scale) ** 2, (mpmath.mpf(setting.data_width / 2) / scale) ** 2
        exact = mpmath.gammainc(0.5, z_t, z_h) / mpmath.gammainc(0.5, 0, z_h)
    assert 0.99e-30 <= exact <= 1e-30
