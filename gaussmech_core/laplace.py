"""The Laplace mechanism: pure ε-DP calibration, its exact (ε, δ) profile, and per-coordinate facts.

``M(x) = f(x) + (Y_1, ..., Y_d)`` with ``Y_k`` i.i.d. Laplace(0, b), density ``exp(-|y|/b) / (2b)``
(Dwork, McSherry, Nissim & Smith 2006; Liu's Claim 4 with p = 1). The scale ``b = Δ₁/ε`` gives
pure ε-DP with the **l1** sensitivity Δ₁ (docs/math.md section 4).

The same noise is also (ε', δ)-DP for every smaller ε', with the exact privacy profile of
docs/math.md section 4: with ``ε₀ = Δ₁/b``,

    δ(ε) = 1 - exp((ε - ε₀)/2)   for 0 <= ε < ε₀,      δ(ε) = 0   for ε >= ε₀.

It is exact in one dimension, and in d dimensions when the whole difference ``f(x) - f(x')``
sits in one coordinate. :func:`laplace_scale_for_delta` inverts it for b (the smallest scale whose
profile meets a given (ε, δ)); :func:`laplace_epsilon` inverts it for ε.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import stats

from ._types import ArrayLike, FloatOrArray, Shape
from ._validation import (
    as_float_array,
    broadcast_1d as _broadcast,
    delta_array as _delta_array,
    epsilon_array as _epsilon_array,
    overflow_is_inf,
    positive_array as _positive_array,
    require_interval,
    sample_shape,
    scalar_or_array,
)

__all__ = [
    "laplace_scale",
    "laplace_delta",
    "laplace_log_delta",
    "laplace_epsilon",
    "laplace_scale_for_delta",
    "laplace_pdf",
    "laplace_tail",
    "laplace_log_tail",
    "laplace_sample",
    "laplace_variance",
]

# The profile has a kink at ε = ε₀ = Δ₁/b: one ulp of b there moves δ from 0 to about 1e-16. So
# every closed form is rounded towards privacy in exact arithmetic, not only in floating point:
# Δ₁/ε is rounded up to the next double (a correctly rounded quotient is within half an ulp), and
# formulas with a few more roundings (log1p, a sum, a quotient: under 3 ulps in all) are inflated
# by 8 ulps. After that, a result is pushed up one ulp at a time until the profile evaluated in
# floating point meets the target; the cap only guards against a logic error turning into a hang.
_ROUNDING_MARGIN = 8.0 * np.finfo(float).eps
_MAX_NUDGES = 64


def laplace_scale(epsilon: ArrayLike, sensitivity_l1: ArrayLike = 1.0) -> FloatOrArray:
    """Laplace scale b = Δ₁/ε for pure ε-DP.

    Parameters
    ----------
    epsilon : float or array_like
        Privacy parameter ε > 0.
    sensitivity_l1 : float or array_like, default 1.0
        The l1 sensitivity Δ₁ > 0 of the query.

    Returns
    -------
    float or numpy.ndarray
        The scale b (per coordinate; standard deviation ``√2 b``): ``Δ₁/ε`` rounded up to the
        next double, so that ``b >= Δ₁/ε`` holds exactly and the privacy loss never exceeds ε;
        inf where Δ₁/ε exceeds 1.8e308 (ε subnormal, or Δ₁ near the largest double).

    Raises
    ------
    ValueError
        If ε <= 0 (no finite Laplace noise gives 0-DP) or Δ₁ <= 0, or a value is NaN or infinite.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Dwork, McSherry, Nissim & Smith (2006); Liu (arXiv:1602.06028), Claim 4 with p = 1;
    docs/math.md section 4. For a d-dimensional query, Δ₁ is the l1 sensitivity (``Δ₂ <= Δ₁ <= √d Δ₂``).

    Examples
    --------
    >>> laplace_scale(0.5)  # 2, one ulp up
    2.0000000000000004
    >>> np.round(laplace_scale([1.0, 2.0], sensitivity_l1=3.0), 12)
    array([3. , 1.5])
    """
    epsilon_array = _epsilon_array(
        epsilon,
        positive=True,
        hint="no finite Laplace scale gives 0-DP (the privacy loss reaches Δ₁/b > 0); "
        "for a (0, δ) guarantee use laplace_scale_for_delta",
    )
    sensitivity_array = _positive_array(sensitivity_l1, "sensitivity_l1")
    epsilon_b, sensitivity_b = _broadcast(epsilon_array, sensitivity_array)
    return scalar_or_array(_pure_scale(epsilon_b, sensitivity_b), epsilon, sensitivity_l1)


_LARGEST = float(np.finfo(np.float64).max)


def _pure_scale(epsilon: np.ndarray, sensitivity: np.ndarray) -> np.ndarray:
    """``Δ₁/ε`` rounded up: the quotient is correctly rounded, so the next double is >= the exact value.

    Where the quotient is the largest double, the next one is inf: there the exact quotient is
    checked (in rationals) and the largest double kept when it is not below it (Δ₁ = 1.8e308, ε = 1).
    """
    with overflow_is_inf():  # Δ₁/ε beyond 1.8e308 is inf, still a private answer (documented)
        quotient = sensitivity / epsilon
        scale = np.nextafter(quotient, np.inf)
    largest = np.flatnonzero(np.ravel(quotient) == _LARGEST)
    if largest.size:
        flat_scale, flat_epsilon, flat_sensitivity = (
            np.ravel(a).copy() for a in np.broadcast_arrays(scale, epsilon, sensitivity)
        )
        for index in largest:
            if Fraction(float(flat_sensitivity[index])) <= Fraction(_LARGEST) * Fraction(float(flat_epsilon[index])):
                flat_scale[index] = _LARGEST
        scale = flat_scale.reshape(np.shape(scale))
    return scale


def _log_delta_of_ratio(epsilon: np.ndarray, epsilon_zero: np.ndarray) -> np.ndarray:
    """log δ(ε) = log(1 - exp((ε - ε₀)/2)), and -inf where ε >= ε₀ (docs/math.md section 4)."""
    exponent = np.minimum((epsilon - epsilon_zero) / 2.0, 0.0)
    result = np.full(exponent.shape, -np.inf)
    inside = exponent < 0.0
    result[inside] = np.log(-np.expm1(exponent[inside]))
    return result


def _quotient_rounded_up(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``n/d`` for positive n, d, rounded up: ``fl(n/d)``, or the next double where ``fl(n/d)``
    lies below the exact quotient.

    Which side ``fl(n/d) = q`` lies on is the sign of ``n - q d``, computed exactly with Dekker's
    error-free product (``q d = p + e`` exactly, and ``n - p`` is exact since ``p ≈ n``). Outside
    the range where the splitting is exact (|q|, |d| > 1e290 or a product below 1e-290) the next
    double is taken, which is always an upper bound.
    """
    with np.errstate(over="ignore"):  # n/d beyond 1.8e308 is inf, an upper bound
        quotient = numerator / denominator
    result = np.nextafter(quotient, np.inf)
    exact_range = (
        np.isfinite(quotient) & (quotient < 1e290) & (denominator < 1e290) & (numerator > 1e-290) & (quotient > 0.0)
    )
    if exact_range.any():
        q, d, n = quotient[exact_range], denominator[exact_range], numerator[exact_range]
        product = q * d
        splitter = 134217729.0  # 2^27 + 1 (Veltkamp)
        q_high = splitter * q - (splitter * q - q)
        d_high = splitter * d - (splitter * d - d)
        q_low, d_low = q - q_high, d - d_high
        error = ((q_high * d_high - product) + q_high * d_low + q_low * d_high) + q_low * d_low
        remainder = (n - product) - error  # = n - q d exactly, up to its own rounding
        result[exact_range] = np.where(remainder > 0.0, np.nextafter(q, np.inf), q)
    return result


def _upward_delta(epsilon: np.ndarray, sensitivity: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """δ(ε) = max(0, 1 - exp((ε - Δ₁/b)/2)) rounded up: never below the exact value, within ~3 ulps.

    ``ε₀ = Δ₁/b`` is taken rounded up (:func:`_quotient_rounded_up`, exact when the division is),
    the exponent ``(ε - ε₀)/2`` one ulp down, and ``-expm1`` one ulp up; each step bounds the
    exact value. So the kink at ε = ε₀ stays exact: a scale Δ₁/ε rounded up reports δ = 0.
    """
    upper_ratio = _quotient_rounded_up(sensitivity, scale)
    result = np.zeros(np.shape(upper_ratio))
    above = upper_ratio > epsilon
    if above.any():
        exponent = np.nextafter((epsilon[above] - upper_ratio[above]) / 2.0, -np.inf)
        result[above] = np.minimum(np.nextafter(-np.expm1(exponent), np.inf), 1.0)
    return result


def _reports_above(epsilon: np.ndarray, sensitivity: np.ndarray, scale: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Where :func:`laplace_delta` or :func:`laplace_log_delta` would report more than δ."""
    return (_upward_delta(epsilon, sensitivity, scale) > delta) | (
        _upward_log_delta(epsilon, sensitivity, scale) > np.log(delta)
    )


def _upward_log_delta(epsilon: np.ndarray, sensitivity: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """log of :func:`_upward_delta`, rounded up (-inf where δ = 0)."""
    delta = _upward_delta(epsilon, sensitivity, scale)
    result = np.full(delta.shape, -np.inf)
    positive = delta > 0.0
    result[positive] = np.minimum(np.nextafter(np.log(delta[positive]), np.inf), 0.0)
    return result


def laplace_log_delta(epsilon: ArrayLike, scale: ArrayLike, sensitivity_l1: ArrayLike = 1.0) -> FloatOrArray:
    """Natural log of the exact privacy profile δ(ε) of Laplace noise of scale b.

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0.
    scale : float or array_like
        Laplace scale b > 0.
    sensitivity_l1 : float or array_like, default 1.0
        Δ₁ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``log(-expm1((ε - ε₀)/2))`` with ``ε₀ = Δ₁/b``; ``-inf`` where ε >= ε₀ (δ = 0).

    Notes
    -----
    docs/math.md section 4 (exact 1-D profile). ``expm1`` keeps the value accurate when ε is close
    to ε₀ and δ is tiny.

    Examples
    --------
    >>> round(laplace_log_delta(0.0, 1.0), 6)  # log(1 - e^{-1/2})
    -0.932752
    >>> laplace_log_delta(2.0, 1.0)
    -inf
    """
    epsilon_array = _epsilon_array(epsilon)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _positive_array(sensitivity_l1, "sensitivity_l1")
    epsilon_b, scale_b, sensitivity_b = _broadcast(epsilon_array, scale_array, sensitivity_array)
    result = _upward_log_delta(epsilon_b, sensitivity_b, scale_b)
    return scalar_or_array(result, epsilon, scale, sensitivity_l1)


def laplace_delta(epsilon: ArrayLike, scale: ArrayLike, sensitivity_l1: ArrayLike = 1.0) -> FloatOrArray:
    """Exact privacy profile δ(ε) of the Laplace mechanism with scale b.

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0.
    scale : float or array_like
        Laplace scale b > 0.
    sensitivity_l1 : float or array_like, default 1.0
        Δ₁ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``δ(ε) = 1 - exp((ε - ε₀)/2)`` for ε < ε₀ = Δ₁/b, and 0 for ε >= ε₀.

    Notes
    -----
    docs/math.md section 4 [D]: the privacy loss of Laplace noise is ε₀ on ``y <= 0``, ``-ε₀`` on
    ``y >= Δ`` and linear between, so the hockey-stick divergence has this closed form. At ε = 0
    it is the total-variation distance ``1 - exp(-ε₀/2)``, computed with ``expm1``.

    Examples
    --------
    >>> round(laplace_delta(0.5, 1.0), 12)
    0.221199216929
    >>> laplace_delta([1.0, 3.0], 1.0)  # ε >= ε₀ = 1
    array([0., 0.])
    """
    epsilon_array = _epsilon_array(epsilon)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _positive_array(sensitivity_l1, "sensitivity_l1")
    epsilon_b, scale_b, sensitivity_b = _broadcast(epsilon_array, scale_array, sensitivity_array)
    # -expm1 directly (exp(log δ) would add |log δ| ulps where δ is tiny), rounded up.
    result = _upward_delta(epsilon_b, sensitivity_b, scale_b)
    return scalar_or_array(result, epsilon, scale, sensitivity_l1)


def laplace_epsilon(delta: ArrayLike, scale: ArrayLike, sensitivity_l1: ArrayLike = 1.0) -> FloatOrArray:
    """The smallest ε with δ(ε) <= δ for Laplace noise of scale b (inverse of :func:`laplace_delta`).

    Parameters
    ----------
    delta : float or array_like
        Target δ in (0, 1).
    scale : float or array_like
        Laplace scale b > 0.
    sensitivity_l1 : float or array_like, default 1.0
        Δ₁ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``max(0, ε₀ + 2 log(1 - δ))`` with ε₀ = Δ₁/b. It is 0 when δ is at least the total-variation
        distance ``1 - exp(-ε₀/2)``; inf where ε₀ = Δ₁/b exceeds 1.8e308 (b near the smallest double).

    Notes
    -----
    docs/math.md section 4, solved for ε. Rounding is absorbed on the private side: the result is
    raised by ``8 ulp × (ε₀ + 2|log(1 - δ)|)``, capped at ε₀ rounded up (where δ(ε) = 0), and then by
    whole ulps until ``laplace_delta(ε) <= δ`` holds in floating point.

    Examples
    --------
    >>> round(laplace_epsilon(0.221199216929, 1.0), 9)
    0.5
    >>> laplace_epsilon(0.9, 1.0)
    0.0
    """
    delta_array = _delta_array(delta)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _positive_array(sensitivity_l1, "sensitivity_l1")
    delta_b, scale_b, sensitivity_b = _broadcast(delta_array, scale_array, sensitivity_array)
    with np.errstate(over="ignore"):  # Δ₁/b beyond 1.8e308: ε = inf (no finite ε holds)
        epsilon_zero = sensitivity_b / scale_b
    log_survival = 2.0 * np.log1p(-delta_b)
    epsilon_b = np.maximum(epsilon_zero + log_survival, 0.0)
    margin = _ROUNDING_MARGIN * (epsilon_zero - log_survival)
    epsilon_b = np.where(epsilon_b > 0.0, np.minimum(epsilon_b + margin, np.nextafter(epsilon_zero, np.inf)), 0.0)
    step = np.finfo(float).eps  # relative, doubling each round: δ near 1 moves by less than an ulp per ulp
    for _ in range(_MAX_NUDGES):
        too_small = _reports_above(epsilon_b, sensitivity_b, scale_b, delta_b)
        if not too_small.any():
            break
        epsilon_b[too_small] = np.nextafter(epsilon_b[too_small] * (1.0 + step), np.inf)
        step *= 2.0
    return scalar_or_array(epsilon_b, delta, scale, sensitivity_l1)


def laplace_scale_for_delta(epsilon: ArrayLike, delta: ArrayLike, sensitivity_l1: ArrayLike = 1.0) -> FloatOrArray:
    """The smallest Laplace scale b whose exact privacy profile meets (ε, δ).

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0 (ε = 0 calibrates the total-variation distance, i.e. (0, δ)-DP).
    delta : float or array_like
        δ in (0, 1).
    sensitivity_l1 : float or array_like, default 1.0
        Δ₁ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``b = Δ₁ / (ε - 2 log(1 - δ))``, inflated by 8 ulps to cover its roundings (and never above
        :func:`laplace_scale`, which meets every δ), then raised by whole ulps until the profile
        evaluated in floating point is at most δ.

    Notes
    -----
    docs/math.md section 4: ``1 - exp((ε - Δ₁/b)/2) <= δ`` iff ``Δ₁/b <= ε - 2 log(1 - δ)``. It is
    always below the pure-DP scale ``Δ₁/ε``, and tends to it as δ → 0. This is the p = 1 case of
    :func:`gaussmech_core.generalized.generalized_gaussian_scale`.

    Examples
    --------
    >>> round(laplace_scale_for_delta(1.0, 1e-5), 8)
    0.99998
    >>> laplace_scale_for_delta(1.0, 1e-300) == laplace_scale(1.0)  # δ -> 0: the pure-DP scale
    True
    >>> round(laplace_scale_for_delta(0.0, 0.5), 6)  # (0, δ)-DP: TV distance <= δ
    0.721348
    """
    epsilon_array = _epsilon_array(epsilon)
    delta_array = _delta_array(delta)
    sensitivity_array = _positive_array(sensitivity_l1, "sensitivity_l1")
    epsilon_b, delta_b, sensitivity_b = _broadcast(epsilon_array, delta_array, sensitivity_array)
    with np.errstate(over="ignore"):  # a scale beyond 1.8e308 is inf, which is private
        scale_b = sensitivity_b / (epsilon_b - 2.0 * np.log1p(-delta_b)) * (1.0 + _ROUNDING_MARGIN)
    # A scale below the smallest subnormal rounds up to it, never down to 0 (which would be no noise).
    scale_b = np.maximum(scale_b, np.nextafter(0.0, 1.0))
    step = np.finfo(float).eps  # relative, doubling each round (as for laplace_epsilon)
    for _ in range(_MAX_NUDGES):
        too_small = _reports_above(epsilon_b, sensitivity_b, scale_b, delta_b)
        if not too_small.any():
            break
        with np.errstate(over="ignore"):  # a scale beyond 1.8e308 is inf, which is private
            scale_b[too_small] = np.nextafter(scale_b[too_small] * (1.0 + step), np.inf)
        step *= 2.0
    # The pure-DP scale meets every δ exactly; near δ = 0 it can be an ulp below the checked value.
    positive = epsilon_b > 0.0
    scale_b[positive] = np.minimum(scale_b[positive], _pure_scale(epsilon_b[positive], sensitivity_b[positive]))
    return scalar_or_array(scale_b, epsilon, delta, sensitivity_l1)


def laplace_pdf(x: ArrayLike, scale: ArrayLike) -> FloatOrArray:
    """Density ``exp(-|x|/b) / (2b)`` of Laplace(0, b).

    Parameters
    ----------
    x : float or array_like
        Points (may be ±inf).
    scale : float or array_like
        b > 0.

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    ``scipy.stats.laplace.pdf(x, scale=b)``; docs/math.md section 4.

    Examples
    --------
    >>> laplace_pdf(0.0, 0.5)
    1.0
    """
    x_array = require_interval(as_float_array(x, "x"), "x", allow_infinity=True)
    scale_array = _positive_array(scale, "scale")
    x_b, scale_b = _broadcast(x_array, scale_array)
    with np.errstate(over="ignore"):  # |x|/b or 1/b beyond 1.8e308 (subnormal b): density 0 or inf
        return scalar_or_array(stats.laplace.pdf(x_b, scale=scale_b), x, scale)


def laplace_log_tail(t: ArrayLike, scale: ArrayLike) -> FloatOrArray:
    """Natural log of the two-sided tail ``P(|Y| > t) = exp(-t/b)``, i.e. ``-t/b``.

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (may be inf).
    scale : float or array_like
        b > 0.

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    docs/math.md section 4 (per-coordinate facts).

    Examples
    --------
    >>> laplace_log_tail(3.0, 2.0)
    -1.5
    """
    t_array = require_interval(as_float_array(t, "t"), "t", 0.0, None, allow_infinity=True)
    scale_array = _positive_array(scale, "scale")
    t_b, scale_b = _broadcast(t_array, scale_array)
    with np.errstate(over="ignore"):  # t/b beyond 1.8e308 (subnormal b): log tail -inf
        return scalar_or_array(-t_b / scale_b, t, scale)


def laplace_tail(t: ArrayLike, scale: ArrayLike) -> FloatOrArray:
    """Two-sided tail probability ``P(|Y| > t) = exp(-t/b)`` of Laplace(0, b).

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (may be inf).
    scale : float or array_like
        b > 0.

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    docs/math.md section 4; ``2 * scipy.stats.laplace.sf(t, scale=b)`` is the same number.

    Examples
    --------
    >>> round(laplace_tail(1.0, 1.0), 12)
    0.367879441171
    """
    return scalar_or_array(np.exp(np.asarray(laplace_log_tail(t, scale))), t, scale)


def laplace_variance(scale: ArrayLike) -> FloatOrArray:
    """Variance ``2 b²`` of Laplace(0, b) (``E|Y| = b``, ``E||Y||₂² = 2 d b²``).

    Parameters
    ----------
    scale : float or array_like
        b > 0.

    Returns
    -------
    float or numpy.ndarray
        ``2 b²``; inf where it exceeds 1.8e308 (b above about 9.5e153).

    Notes
    -----
    docs/math.md section 4.

    Examples
    --------
    >>> laplace_variance(3.0)
    18.0
    """
    scale_array = _positive_array(scale, "scale")
    with overflow_is_inf():  # 2b² beyond 1.8e308 is inf, as documented
        variance = 2.0 * scale_array**2
    return scalar_or_array(variance, scale)


def laplace_sample(rng: np.random.Generator, size: Shape, scale: ArrayLike) -> np.ndarray:
    """Draw i.i.d. Laplace(0, b) noise.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness (pass a seeded generator for reproducible draws).
    size : int or tuple of int
        Output shape.
    scale : float or array_like
        b > 0, broadcastable to ``size``.

    Returns
    -------
    numpy.ndarray
        Samples of shape ``size``; a draw beyond the float64 range (b near the largest double)
        is ±inf, the draw rounded to float64.

    Notes
    -----
    ``rng.laplace(0, b, size)`` (inverse-CDF sampling in numpy); docs/math.md section 4. This is a
    floating-point sampler for plots and simulations, not a side-channel-hardened one.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> laplace_sample(rng, 3, 1.0).shape
    (3,)
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    shape = sample_shape(size)
    scale_array = _positive_array(scale, "scale")
    return rng.laplace(0.0, scale_array, shape)
