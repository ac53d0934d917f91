"""Auditing a privacy claim with a distinguishing test: the "closer answer" attack.

An (ε, δ)-DP mechanism limits how well *any* test can tell two neighbouring datasets apart from
one release. This module computes that limit, the exact success probability of one simple test,
and a seeded simulation of the test, so a claimed guarantee can be checked against what the
noise actually does (docs/math.md section 6.2, item 3).

The test. Let ``d = f(x) - f(x')`` with ``‖d‖₂ = Δ`` and release ``y = f(x) + n``. The test
guesses x when ``‖y - f(x)‖ < ‖y - f(x')‖``. Since ``y - f(x) = n`` and
``y - f(x') = n + d``,

    ‖n + d‖² - ‖n‖² = 2⟨n, d⟩ + Δ²,

so the test guesses x exactly when ``⟨n, u⟩ > -Δ/2`` with ``u = d/Δ``: the decision depends on
the noise only through its projection on one unit vector. When the truth is x' (``y = f(x') + n``)
the test is right exactly when ``⟨n, u⟩ < Δ/2``. We never form d-dimensional vectors: we sample
the projection, which is

* ``σ Z`` for isotropic Gaussian noise ``N(0, σ² I)`` (rotation invariance), and
* ``√σ* · Z · T`` for R1SMG noise ``√σ* Z v`` with v uniform on the sphere, where
  ``T = ⟨v, u⟩`` has density ``c_M (1 - t²)^{(M-3)/2}`` on [-1, 1] (docs/math.md section 6.2, item 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate, special

from ._types import ArrayLike, FloatOrArray
from ._validation import (
    MAX_DIMENSION,
    MAX_SEED,
    as_float_array,
    broadcast,
    overflow_is_inf,
    require_choice,
    require_integer,
    require_interval,
    scalar_or_array,
)

__all__ = [
    "CLOSER_TEST_NOISES",
    "CloserTestResult",
    "max_distinguishing_success",
    "max_test_power",
    "gaussian_closer_test_success",
    "r1smg_closer_test_success",
    "matched_gaussian_sigma",
    "closer_test_projection_sample",
    "simulate_closer_test",
    "wilson_interval",
]

CLOSER_TEST_NOISES = ("gaussian", "r1smg")

#: Upper limit on simulated releases per call: the arrays stay a few megabytes.
MAX_TRIALS = 10_000_000
#: Trials in a Wilson interval: up to 2**53, where k/n and z²/n are still formed from exact doubles.
MAX_WILSON_TRIALS = 2**53


def max_distinguishing_success(epsilon: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """Largest probability with which any test can name the dataset behind an (ε, δ)-DP release.

    With the two neighbours equally likely a priori,

        P(correct) ≤ (e^ε + δ) / (1 + e^ε) = 1 - (1 - δ) / (1 + e^ε).

    A test that succeeds more often than this is a proof that the mechanism is *not* (ε, δ)-DP.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0.
    delta : float or array_like
        δ in [0, 1].

    Returns
    -------
    float or numpy.ndarray
        The ceiling on the success probability, in [1/2, 1].

    Raises
    ------
    ValueError
        If ε < 0 or δ is outside [0, 1].

    Notes
    -----
    Let α = P(guess x' | x) and β = P(guess x | x') be the test's two error probabilities and
    S the set of outputs on which it guesses x. (ε, δ)-DP applied to S and to its complement gives
    ``1 - α ≤ e^ε β + δ`` and ``1 - β ≤ e^ε α + δ`` (Kairouz, Oh & Viswanath, "The composition
    theorem for differential privacy", ICML 2015, Theorem 2.1; Wasserman & Zhou 2010). Adding them,
    ``(1 + e^ε)(α + β) ≥ 2(1 - δ)``, and P(correct) = 1 - (α + β)/2. The bound is attained by
    randomized response, so it is the best general ceiling. Computed as
    ``1 - (1 - δ) expit(-ε)`` so that no ``e^ε`` can overflow.

    Examples
    --------
    >>> round(max_distinguishing_success(1.0, 1e-5), 6)
    0.731061
    >>> max_distinguishing_success(0.0, 0.0)
    0.5
    """
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None)
    delta_array = require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0)
    epsilon_array, delta_array = broadcast(epsilon_array, delta_array)
    ceiling = 1.0 - (1.0 - delta_array) * special.expit(-epsilon_array)
    return scalar_or_array(ceiling, epsilon, delta)


def max_test_power(type_one_error: ArrayLike, epsilon: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """Largest power (1 - type II error) of any test at a given type I error, under (ε, δ)-DP.

    Parameters
    ----------
    type_one_error : float or array_like
        α = P(reject x | x), in [0, 1].
    epsilon : float or array_like
        ε ≥ 0.
    delta : float or array_like
        δ in [0, 1].

    Returns
    -------
    float or numpy.ndarray
        ``min(1, e^ε α + δ, 1 - e^{-ε}(1 - δ - α))``.

    Notes
    -----
    The two inequalities of :func:`max_distinguishing_success`, solved for the power 1 - β
    (Kairouz, Oh & Viswanath 2015, Theorem 2.1). ``e^ε α`` is formed as ``exp(ε + log α)`` and
    capped, so large ε does not overflow.

    Examples
    --------
    >>> round(max_test_power(0.05, 1.0, 0.0), 6)
    0.135914
    >>> max_test_power(0.05, 1000.0, 0.0)
    1.0
    """
    alpha = require_interval(as_float_array(type_one_error, "type_one_error"), "type_one_error", 0.0, 1.0)
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None)
    delta_array = require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0)
    alpha, epsilon_array, delta_array = broadcast(alpha, epsilon_array, delta_array)
    # exp(ε + log α) ≥ 1 makes the first bound trivial; clip the exponent before exponentiating.
    with np.errstate(divide="ignore"):  # log(0) = -inf is the intended value for α = 0
        log_alpha = np.log(alpha)
    scaled_alpha = np.exp(np.minimum(epsilon_array + log_alpha, 1.0))
    first = scaled_alpha + delta_array
    second = 1.0 - np.exp(-epsilon_array) * np.maximum(1.0 - delta_array - alpha, 0.0)
    power = np.minimum(1.0, np.minimum(first, second))
    return scalar_or_array(power, type_one_error, epsilon, delta)


def gaussian_closer_test_success(sigma: ArrayLike, sensitivity: ArrayLike) -> FloatOrArray:
    """Exact success probability of the closer-answer test against N(0, σ² I) noise.

    Parameters
    ----------
    sigma : float or array_like
        Standard deviation of each coordinate, σ > 0.
    sensitivity : float or array_like
        Δ = ‖f(x) - f(x')‖₂ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``Φ(Δ / (2σ))``, whatever the dimension.

    Notes
    -----
    ⟨n, u⟩ ~ N(0, σ²) for every unit vector u, and the test is right when ⟨n, u⟩ > -Δ/2 (module
    docstring). For Gaussian noise this test is the likelihood-ratio test, i.e. the best test at
    balanced priors, so Φ(Δ/(2σ)) ≤ (e^ε + δ)/(1 + e^ε) whenever σ is a correct calibration.

    Examples
    --------
    >>> round(gaussian_closer_test_success(3.730631, 1.0), 6)
    0.553309
    """
    sigma_array = require_interval(as_float_array(sigma, "sigma"), "sigma", 0.0, None, lower_open=True)
    sensitivity_array = require_interval(
        as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None, lower_open=True
    )
    sigma_array, sensitivity_array = broadcast(sigma_array, sensitivity_array)
    # ½(Δ/σ), not Δ/(2σ): 2σ overflows at σ near 1.8e308; Δ/σ overflowing (σ subnormal) is Φ(inf) = 1
    with overflow_is_inf():
        half_mu = 0.5 * (sensitivity_array / sigma_array)
    return scalar_or_array(special.ndtr(half_mu), sigma, sensitivity)


def _r1smg_closer_test_failure(half_gap: float, dim: int) -> float:
    """P(√σ* Z T < -Δ/2) = P(Z² T² > c²)/2 with c = Δ/(2√σ*), by one quadrature over z.

    T² ~ Beta(1/2, (M-1)/2), so P(Z² T² > c²) = 2 ∫_c^∞ φ(z) P(T² > c²/z²) dz. The integrand
    vanishes below z = c and peaks near z² ≈ c √M for large M (there P(T² > c²/z²) rises like
    erfc(c √M /(√2 z))); we split the range at that point so the quadrature sees the peak, and
    ask for a relative tolerance only, since the result can be far below 1e-8.
    """
    beta_b = (dim - 1) / 2.0

    def integrand(z: float) -> float:
        return (
            math.exp(-0.5 * z * z)
            / math.sqrt(2.0 * math.pi)
            * special.betaincc(0.5, beta_b, min(1.0, (half_gap / z) ** 2))
        )

    peak = max(half_gap, math.sqrt(half_gap * math.sqrt(dim)))
    edges = sorted({half_gap, peak, peak + 8.0, max(peak + 8.0, 40.0)})
    total = 0.0
    for low, high in zip(edges[:-1], edges[1:]):
        if high > low:
            value, _ = integrate.quad(integrand, low, high, epsabs=0.0, epsrel=1e-11, limit=200)
            total += value
    # Beyond z = max(peak + 8, 40) the integrand is below φ(40) ≈ 1e-348: nothing left.
    return total


def r1smg_closer_test_success(sigma_star: float, sensitivity: float, dim: int) -> float:
    """Exact success probability of the closer-answer test against R1SMG noise.

    Parameters
    ----------
    sigma_star : float
        R1SMG's σ* = E‖n‖² (Ji & Li 2024), > 0.
    sensitivity : float
        Δ = ‖f(x) - f(x')‖₂ > 0.
    dim : int
        The dimension, 2 ≤ M ≤ 2**53 (the quadrature forms (M - 1)/2 and √M in float64).

    Returns
    -------
    float
        ``1 - P(√σ* Z T < -Δ/2)`` with Z ~ N(0, 1) and T = ⟨v, u⟩, v uniform on the sphere.

    Notes
    -----
    With ``c = Δ / (2√σ*)`` the failure probability is ``∫_c^∞ φ(z) I_{1 - c²/z²}((M-1)/2, 1/2) dz``,
    because T² ~ Beta(1/2, (M-1)/2) (docs/math.md section 6.2, item 2: T has density ∝ (1 - t²)^{(M-3)/2}).
    Evaluated by adaptive quadrature with a relative tolerance of 1e-11.

    Examples
    --------
    >>> round(r1smg_closer_test_success(2.66, 1.0, 100), 4)
    0.9909
    """
    sigma_star_value = float(
        require_interval(as_float_array(sigma_star, "sigma_star"), "sigma_star", 0.0, None, lower_open=True)
    )
    sensitivity_value = float(
        require_interval(as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None, lower_open=True)
    )
    dim_value = require_integer(dim, "dim", minimum=2, maximum=MAX_DIMENSION)
    half_gap = sensitivity_value / (2.0 * math.sqrt(sigma_star_value))
    return 1.0 - _r1smg_closer_test_failure(half_gap, dim_value)


def matched_gaussian_sigma(expected_loss: ArrayLike, dim: int) -> FloatOrArray:
    """σ of the isotropic Gaussian whose expected squared error E‖n‖² equals ``expected_loss``.

    Parameters
    ----------
    expected_loss : float or array_like
        Target E‖n‖₂² > 0.
    dim : int
        The dimension, 1 ≤ d ≤ 2**53 (:data:`~gaussmech_core._validation.MAX_DIMENSION`).

    Returns
    -------
    float or numpy.ndarray
        ``√(expected_loss / d)``, since E‖N(0, σ² I_d)‖² = d σ².

    Examples
    --------
    >>> matched_gaussian_sigma(400.0, 100)
    2.0
    """
    loss = require_interval(as_float_array(expected_loss, "expected_loss"), "expected_loss", 0.0, None, lower_open=True)
    dim_value = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    return scalar_or_array(np.sqrt(loss / dim_value), expected_loss)


def closer_test_projection_sample(
    noise: str, rng: np.random.Generator, size: int, scale: float, dim: int
) -> np.ndarray:
    """Sample the projection ⟨n, u⟩ of the noise on a fixed unit vector u.

    Parameters
    ----------
    noise : {"gaussian", "r1smg"}
        The noise family.
    rng : numpy.random.Generator
        The random source.
    size : int
        Number of samples.
    scale : float
        σ for "gaussian" (per-coordinate standard deviation); σ* for "r1smg".
    dim : int
        The dimension (≥ 2 for "r1smg"; unused by "gaussian", whose projection does not depend on it).

    Returns
    -------
    numpy.ndarray
        Shape (size,); a draw beyond the float64 range (scale near the largest double) is ±inf,
        the draw rounded to float64.

    Notes
    -----
    For R1SMG, T = ⟨v, u⟩ is drawn as ``G₁ / √(G₁² + χ²_{M-1})``, the first coordinate of a
    normalised standard normal vector, without forming that vector: memory is O(size) for any M.
    """
    require_choice(noise, "noise", CLOSER_TEST_NOISES)
    size_value = require_integer(size, "size", minimum=1, maximum=MAX_TRIALS)
    scale_value = float(require_interval(as_float_array(scale, "scale"), "scale", 0.0, None, lower_open=True))
    if noise == "gaussian":
        require_integer(dim, "dim", minimum=1)
        with overflow_is_inf():  # σ Z beyond 1.8e308 is ±inf, as documented
            return scale_value * rng.standard_normal(size_value)
    dim_value = require_integer(dim, "dim", minimum=2)
    radius = rng.standard_normal(size_value)
    first = rng.standard_normal(size_value)
    rest = rng.chisquare(dim_value - 1, size_value)
    direction_cosine = first / np.sqrt(first * first + rest)
    with overflow_is_inf():  # a draw beyond 1.8e308 is ±inf, as documented
        return math.sqrt(scale_value) * radius * direction_cosine


@dataclass(frozen=True)
class CloserTestResult:
    """Outcome of a simulated closer-answer test.

    ``rate`` is successes / trials; ``interval`` is the Wilson score interval at ``confidence``.
    """

    noise: str
    trials: int
    successes: int
    rate: float
    interval: tuple[float, float]
    confidence: float
    seed: int


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes : int
        Number of successes, 0 ≤ successes ≤ trials.
    trials : int
        Number of trials, 1 ≤ trials ≤ 2**53 (beyond, counts are not exact doubles).
    confidence : float
        Coverage in (0, 1).

    Returns
    -------
    tuple of float
        (low, high), inside [0, 1].

    Notes
    -----
    Wilson (1927), J. Amer. Statist. Assoc. 22, 209-212: with z = Φ⁻¹(1 - (1 - confidence)/2)
    and p̂ = k/n, centre ``(p̂ + z²/2n)/(1 + z²/n)``, half-width
    ``z √(p̂(1 - p̂)/n + z²/4n²) / (1 + z²/n)``. Unlike the Wald interval it never collapses to
    a point at p̂ = 0 or 1, which matters here: the test often succeeds every time.

    Examples
    --------
    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(100, 100)[1]
    1.0
    """
    trials_value = require_integer(trials, "trials", minimum=1, maximum=MAX_WILSON_TRIALS)
    successes_value = require_integer(successes, "successes", minimum=0, maximum=trials_value)
    level = float(
        require_interval(
            as_float_array(confidence, "confidence"), "confidence", 0.0, 1.0, lower_open=True, upper_open=True
        )
    )
    z = float(special.ndtri(0.5 + level / 2.0))
    n = float(trials_value)
    proportion = successes_value / n
    denominator = 1.0 + z * z / n
    centre = (proportion + z * z / (2.0 * n)) / denominator
    half_width = z * math.sqrt(proportion * (1.0 - proportion) / n + z * z / (4.0 * n * n)) / denominator
    return (max(0.0, centre - half_width), min(1.0, centre + half_width))


def simulate_closer_test(
    noise: str, scale: float, sensitivity: float, dim: int, trials: int, seed: int, confidence: float = 0.95
) -> CloserTestResult:
    """Simulate many releases of two neighbouring answers and run the closer-answer test.

    Each trial picks the true dataset (x or x', probability 1/2 each), adds fresh noise, and
    guesses the dataset whose answer is closer to the output.

    Parameters
    ----------
    noise : {"gaussian", "r1smg"}
        The noise family.
    scale : float
        σ for "gaussian"; σ* for "r1smg".
    sensitivity : float
        Δ = ‖f(x) - f(x')‖₂ > 0.
    dim : int
        The dimension of the answer.
    trials : int
        Number of simulated releases, 1 to 10 000 000.
    seed : int
        Seed of ``numpy.random.default_rng``, 0 ≤ seed < 2**64; the same seed gives the same result.
    confidence : float
        Coverage of the reported Wilson interval.

    Returns
    -------
    CloserTestResult

    Notes
    -----
    When the truth is x the test is right iff ⟨n, u⟩ > -Δ/2; when it is x', iff ⟨n, u⟩ < Δ/2
    (module docstring). Only the projection ⟨n, u⟩ is sampled.

    Examples
    --------
    >>> result = simulate_closer_test("gaussian", 3.73, 1.0, 10, 20_000, seed=1)
    >>> result.interval[0] < 0.5534 < result.interval[1]
    True
    """
    require_choice(noise, "noise", CLOSER_TEST_NOISES)
    sensitivity_value = float(
        require_interval(as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None, lower_open=True)
    )
    trials_value = require_integer(trials, "trials", minimum=1, maximum=MAX_TRIALS)
    seed_value = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
    rng = np.random.default_rng(seed_value)
    projection = closer_test_projection_sample(noise, rng, trials_value, scale, dim)
    truth_is_x = rng.random(trials_value) < 0.5
    correct = np.where(truth_is_x, projection > -sensitivity_value / 2.0, projection < sensitivity_value / 2.0)
    successes = int(np.count_nonzero(correct))
    return CloserTestResult(
        noise=noise,
        trials=trials_value,
        successes=successes,
        rate=successes / trials_value,
        interval=wilson_interval(successes, trials_value, confidence),
        confidence=float(confidence),
        seed=seed_value,
    )
