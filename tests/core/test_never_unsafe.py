"""No number on the unsafe side (issue 9, items 1-4), checked exactly against mpmath.

For every calibration: the exact δ (or ε) at the returned scale is at most the target. For every
reported δ (or ε): it is at least the exact value. The references evaluate the definitions
directly (the GG privacy profile as ``F(y) - e^ε F(y - Δ)`` at the root of the privacy loss, the
total-variation distance ``P(1/p, (Δ/2b)^p)``, the BIT ε as the larger of the kernel and atom
log-ratios, the Gaussian profile as ``Φ(a) - e^ε Φ(b)``) with enough digits to resolve δ down to
1e-300, at ε = 0 and p from 1 to 10.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

from gaussmech_core import (
    analytic_gaussian_sigma,
    bit_gg_epsilon,
    bit_gg_scale,
    gaussian_delta,
    gaussian_log_delta,
    generalized_gaussian_delta,
    generalized_gaussian_epsilon,
    generalized_gaussian_scale,
)

ORDERS = (1.0, 1.3, 2.0, 4.0, 8.0, 10.0)


def _digits(target: float) -> int:
    """Working digits that resolve a δ near ``target`` against the probabilities near 1/2 it is a difference of."""
    return 40 + int(max(0.0, -math.log10(target)))


# --- generalized Gaussian (items 1 and 2) ---------------------------------------------------------


def mp_gg_cdf(y, order):
    a = 1 / mp.mpf(order)
    upper = mp.gammainc(a, abs(y) ** order, mp.inf, regularized=True)
    return upper / 2 if y < 0 else 1 - upper / 2


def mp_gg_delta(epsilon, distance, order):
    """Exact δ(ε) of GG(0, 1, p) noise for sensitivity D (units of b), docs/math.md section 5.5."""
    epsilon, distance, order = mp.mpf(epsilon), mp.mpf(distance), mp.mpf(order)
    a = 1 / order
    if epsilon == 0:  # the total-variation distance
        return mp.gammainc(a, 0, (distance / 2) ** order, regularized=True)
    if order == 1:
        return max(mp.mpf(0), -mp.expm1((epsilon - distance) / 2))

    def loss(y):  # decreasing in y for p >= 1
        return abs(y - distance) ** order - abs(y) ** order - epsilon

    if loss(mp.mpf(0)) < 0:
        low, high = mp.mpf(0), distance / 2
    else:
        high = mp.mpf(0)
        low = -((epsilon / (order * distance)) ** (1 / (order - 1))) - 1
    y = _bracketed_root(loss, low, high)
    return mp_gg_cdf(y, order) - mp.exp(epsilon) * mp_gg_cdf(y - distance, order)


def _bracketed_root(function, low, high):
    """The root of a decreasing function in [low, high] to about 1e-30 relative.

    Bisection, geometric while the negative bracket spans decades. δ is stationary in y at the
    root (it is where f(y) = e^ε f(y - Δ)), so the root's error enters δ only squared.
    """
    for _ in range(400):
        if high - low <= abs(high) * mp.mpf(10) ** -30 + mp.mpf(10) ** (-2 * mp.mp.dps):
            break
        middle = (low + high) / 2
        if high < 0 and low < 2 * high:  # geometric midpoint on a wide negative bracket
            middle = -mp.sqrt(low * high)
        if function(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


ZERO_EPSILON_DELTAS = (1e-300, 1e-200, 1e-100, 1e-20, 1e-5, 0.3)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("delta", ZERO_EPSILON_DELTAS)
def test_gg_at_zero_epsilon_is_never_unsafe(order, delta):
    """Item 1: at ε = 0 the scale meets the total-variation distance exactly, and is tight."""
    with mp.workdps(_digits(delta)):
        for sensitivity in (1.0, 1e-5):
            scale = generalized_gaussian_scale(0.0, delta, sensitivity, order)
            assert math.isfinite(scale)
            exact = mp_gg_delta(0, mp.mpf(sensitivity) / mp.mpf(scale), order)
            assert exact <= delta, (sensitivity, scale, exact)
            # tight: 1e-9 less noise would not do
            assert mp_gg_delta(0, mp.mpf(sensitivity) / (mp.mpf(scale) * (1 - mp.mpf(1e-9))), order) > delta
            # what the profile reports at and around the scale is never below the exact δ
            for factor in (0.5, 1.0, 3.0):
                reported = generalized_gaussian_delta(0.0, scale * factor, sensitivity, order)
                assert reported >= mp_gg_delta(0, mp.mpf(sensitivity) / (mp.mpf(scale) * factor), order)
            # the inverse: the ε it returns at a slightly smaller scale is private (its reference
            # needs |log10 δ| digits, so it is checked down to δ = 1e-100, to keep this quick)
            if delta >= 1e-100 and sensitivity == 1.0:
                smaller = scale * 0.9
                epsilon = generalized_gaussian_epsilon(delta, smaller, sensitivity, order)
                assert epsilon > 0.0
                assert mp_gg_delta(epsilon, mp.mpf(sensitivity) / mp.mpf(smaller), order) <= delta


def test_gg_zero_epsilon_reproduces_the_issue_numbers():
    """The values the audit computed: b = √2 × analytic σ at p = 2, δ = 5.64e-201 at b = 1e200."""
    assert generalized_gaussian_scale(0.0, 1e-300, 1.0, 2.0) == pytest.approx(
        math.sqrt(2.0) * analytic_gaussian_sigma(0.0, 1e-300),
        rel=1e-10,  # σ carries a 7e-12 margin
    )
    with mp.workdps(60):
        exact = mp_gg_delta(0, mp.mpf(1) / mp.mpf(1e200), 2.0)
    assert float(exact) == pytest.approx(5.641895835477563e-201, rel=1e-12)
    assert generalized_gaussian_delta(0.0, 1e200, 1.0, 2.0) >= exact
    assert generalized_gaussian_epsilon(1e-300, 1e200, 1.0, 2.0) > 0.0


GG_CASES = [
    (epsilon, delta)
    for epsilon in (1e-300, 1e-3, 1.0, 20.0)
    for delta in (1e-300, 1e-50, 1e-5, 0.3)
    if not (epsilon == 1e-300 and delta == 1e-300)  # 340 digits at ε ≈ 0: ε = 0 covers it above
]


@pytest.mark.parametrize("order", (1.3, 2.0, 4.0, 10.0))
@pytest.mark.parametrize("epsilon, delta", GG_CASES)
def test_gg_calibration_is_never_unsafe(order, epsilon, delta):
    scale = generalized_gaussian_scale(epsilon, delta, 1.0, order)
    # δ is a difference of probabilities near 1/2 only when ε is tiny; otherwise of tail values
    with mp.workdps(_digits(delta) if epsilon < 1e-6 else 80):
        exact = mp_gg_delta(epsilon, 1 / mp.mpf(scale), order)
        assert exact <= delta, (scale, exact)
        reported = generalized_gaussian_delta(epsilon, scale, 1.0, order)
        assert reported >= exact or exact < 1e-307  # below the normal range the report rounds to 0


# --- BIT GG on bounded data (items 2 and 3) --------------------------------------------------------


def mp_bit_epsilon(scale, sensitivity, order, width):
    scale, sensitivity, order, width = (mp.mpf(v) for v in (scale, sensitivity, order, width))
    a = 1 / order
    kernel = (width**order - (width - sensitivity) ** order) / scale**order

    def log_tail(x):
        power = (x / scale) ** order
        if power < 1:  # log(1 - P) with P small: as log1p, or 60 digits would round Q to 1
            return mp.log1p(-mp.gammainc(a, 0, power, regularized=True))
        return mp.log(mp.gammainc(a, power, mp.inf, regularized=True))

    return max(kernel, log_tail(width - sensitivity) - log_tail(width))


BIT_CASES = [(0.5, 1.0), (1e-4, 1.0), (1.0, 1.0), (3.0, 40.0)]


@pytest.mark.parametrize("order", (1.0, 1.5, 2.0, 4.0, 10.0))
@pytest.mark.parametrize("epsilon", (1e-200, 1e-10, 0.1, 1.0, 10.0))
@pytest.mark.parametrize("sensitivity, width", BIT_CASES)
def test_bit_gg_is_never_unsafe(order, epsilon, sensitivity, width):
    scale = bit_gg_scale(epsilon, sensitivity, order, 0.0, width)
    assert math.isfinite(scale)
    with mp.workdps(60):
        exact = mp_bit_epsilon(scale, sensitivity, order, width)
        assert exact <= epsilon, (scale, exact)
        # tight up to the rounding bound (1e-14 relative to the log tails, 3e-10 at worst relative to ε)
        assert mp_bit_epsilon(scale * (1 - 1e-6), sensitivity, order, width) > epsilon
        for factor in (1 / 3, 1.0, 2.0):
            reported = bit_gg_epsilon(scale * factor, sensitivity, order, 0.0, width)
            assert reported >= mp_bit_epsilon(scale * factor, sensitivity, order, width)


def test_bit_gg_small_epsilon_is_not_underflow():
    """Item 2: the atom term ≈ Δ/(b Γ(1 + 1/p)) survives (W/b)^p underflowing."""
    scale = bit_gg_scale(1e-200, 0.5, 2.0, 0.0, 1.0)
    assert scale == pytest.approx(0.5 / (1e-200 * math.gamma(1.5)), rel=1e-12)
    assert bit_gg_epsilon(1e-300, 0.5, 2.0, 0.0, 1.0) == math.inf  # b tiny against W: documented inf


@pytest.mark.parametrize("seed", range(3))
def test_bit_gg_random_cases_are_never_unsafe(seed):
    rng = np.random.default_rng(seed)
    with mp.workdps(50):
        for _ in range(25):
            order = float(rng.uniform(1.0, 10.0))
            width = float(10 ** rng.uniform(-3, 3))
            sensitivity = width * float(10 ** rng.uniform(-6, 0))
            epsilon = float(10 ** rng.uniform(-6, 2))
            scale = bit_gg_scale(epsilon, sensitivity, order, 0.0, width)
            assert mp_bit_epsilon(scale, sensitivity, order, width) <= epsilon
            assert bit_gg_epsilon(scale, sensitivity, order, 0.0, width) >= mp_bit_epsilon(
                scale, sensitivity, order, width
            )


# --- the Gaussian profile (item 4) -----------------------------------------------------------------


def mp_gaussian_log_delta(epsilon, sigma):
    mu, epsilon = 1 / mp.mpf(sigma), mp.mpf(epsilon)
    a, b = mu / 2 - epsilon / mu, -mu / 2 - epsilon / mu
    return mp.log(mp.ncdf(a) - mp.exp(epsilon) * mp.ncdf(b))


@pytest.mark.parametrize("log_mu", (-5, -1, 0, 1, 3, 6, 10, 12))
def test_gaussian_reported_delta_is_never_below_the_exact_one(log_mu):
    """Item 4, at μ = Δ/σ up to 1e12 (where the old 1.5e-15 (1 + |log δ|) claim failed)."""
    rng = np.random.default_rng(log_mu + 100)
    for _ in range(12):
        mu = 10 ** (log_mu + rng.uniform(-0.5, 0.5))
        a = rng.uniform(-35.0, 4.0)
        epsilon = max(0.0, mu * (mu / 2 - a))
        sigma = 1.0 / mu
        with mp.workdps(60 + int(2 * math.log10(max(epsilon, 1.0)))):
            exact = mp_gaussian_log_delta(epsilon, sigma)
            assert gaussian_log_delta(epsilon, sigma) >= exact, (epsilon, sigma)
            assert gaussian_log_delta(np.array([epsilon]), np.array([sigma]))[0] >= exact
            assert gaussian_delta(epsilon, sigma) >= mp.exp(exact) or mp.exp(exact) < 1e-307


@pytest.mark.parametrize("epsilon", (0.0, 1e-300, 1e-3, 1.0, 50.0))
@pytest.mark.parametrize("delta", (1e-300, 1e-100, 1e-10, 0.3, 1 - 1e-10))
def test_gaussian_calibration_is_never_unsafe(epsilon, delta):
    sigma = analytic_gaussian_sigma(epsilon, delta)
    with mp.workdps(_digits(min(delta, 1 - delta))):
        exact = mp.exp(mp_gaussian_log_delta(epsilon, sigma))
        assert exact <= delta
        assert gaussian_delta(epsilon, sigma) <= delta  # and the report agrees: δ(σ) <= δ
