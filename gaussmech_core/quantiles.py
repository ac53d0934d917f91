"""Per-coordinate quantiles in closed form: the t with P(|N| > t) = α, without a root search.

Each function inverts one family's two-sided tail exactly (up to the accuracy of the special
function it calls), for α in [1e-300, 1). The registry offers them as ``coordinate_quantile``;
:func:`gaussmech_core.tails.coordinate_error_bound` uses the answer only after checking it on the
mechanism's own log tail (the bound must hold, and t·(1 − 1e-12) must not), and runs the root
search of :func:`gaussmech_core.tails.tail_quantile` wherever the check fails, so these
functions change the work done, never the guarantee (docs/math.md section 12.4).

* Gaussian N(0, σ²): ``t = σ Φ̄⁻¹(α/2)`` (``-σ ndtri(α/2)``; α/2 >= 5e-301 is a normal double).
* The l2 norm of N(0, σ² I_d): ``t = σ √(2 Q⁻¹(d/2, α))`` (``gammainccinv``), as
  ``‖N‖₂²/σ² ~ χ²_d``; R1SMG's norm ``√σ* |z|`` is the Gaussian case with σ = √σ*, d = 1.
* Laplace(0, b): ``t = b ln(1/α)``.
* GG(0, b, p): ``t = b Q⁻¹(1/p, α)^{1/p}`` (``gammainccinv``), Q the regularised upper gamma.
* Truncated GG on [-h, h]: ``P(1/p, z_t) = (1 − α) P(1/p, z_h)``, z = (t/b)^p, inverted with
  ``gammaincinv`` or, where that mass is above 1/2, with ``gammainccinv`` on its complement.
* Clamped (boundary-inflated) GG on [-h, h]: the GG quantile where it is below h, else h (the
  atoms at ±h carry the rest of the tail).
* Discrete Gaussian N_Z(0, σ²): the tail is a step function, constant on [k, k + 1), so the
  answer is the smallest integer k >= 1 with P(|X| > k) <= α, found on the exact lattice tail by
  a window search around the continuous Gaussian's quantile (0 when no positive k is needed,
  inf beyond 2^52).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._types import ArrayLike, FloatOrArray
from ._validation import as_float_array, broadcast, require_interval, scalar_or_array
from .discrete_gaussian import discrete_gaussian_log_tail
from .generalized import ORDER_RANGE

__all__ = [
    "gaussian_coordinate_quantile",
    "gaussian_norm_quantile",
    "laplace_coordinate_quantile",
    "gg_coordinate_quantile",
    "truncated_gg_coordinate_quantile",
    "clamped_gg_coordinate_quantile",
    "discrete_gaussian_coordinate_quantile",
]

_SMALLEST_ALPHA = 1e-300
# The discrete Gaussian's window around its first guess: 2 × 16 + 1 integers per evaluation.
_LATTICE_WINDOW = 16
# Beyond this σ Φ̄⁻¹(α/2) the integers are no longer exact doubles (2^52): no lattice answer.
_LARGEST_LATTICE_T = float(2**52)


def _alpha(alpha: ArrayLike) -> np.ndarray:
    return require_interval(as_float_array(alpha, "alpha"), "alpha", _SMALLEST_ALPHA, 1.0, upper_open=True)


def _positive(value: ArrayLike, name: str) -> np.ndarray:
    return require_interval(as_float_array(value, name), name, 0.0, None, lower_open=True)


def _order(order: ArrayLike) -> np.ndarray:
    return require_interval(as_float_array(order, "order"), "order", *ORDER_RANGE)


def _bounded_arguments(alpha: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> tuple[np.ndarray, ...]:
    """α, b, p and h of a bounded-data GG noise, checked and broadcast."""
    return broadcast(_alpha(alpha), _positive(scale, "scale"), _order(order), _positive(h, "h"))


def gaussian_coordinate_quantile(alpha: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """The t with ``P(|N| > t) = erfc(t/(σ√2)) = α`` for N ~ N(0, σ²).

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    sigma : float or array_like
        σ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``σ Φ̄⁻¹(α/2) = -σ ndtri(α/2)``; inf where that exceeds the largest double.

    Notes
    -----
    docs/math.md sections 10 and 12.4 (the error bound ``σ Φ⁻¹(1 − α/2)``).

    Examples
    --------
    >>> round(gaussian_coordinate_quantile(0.05, 1.0), 9)
    1.959963985
    """
    alpha_b, sigma_b = broadcast(_alpha(alpha), _positive(sigma, "sigma"))
    with np.errstate(over="ignore"):
        t = sigma_b * -special.ndtri(0.5 * alpha_b)
    return scalar_or_array(t, alpha, sigma)


def gaussian_norm_quantile(alpha: ArrayLike, sigma: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """The t with ``P(‖N‖₂ > t) = Q(d/2, t²/(2σ²)) = α`` for N ~ N(0, σ² I_d).

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    sigma : float or array_like
        σ > 0.
    dim : int or array_like
        d >= 1.

    Returns
    -------
    float or numpy.ndarray
        ``σ √(2 Q⁻¹(d/2, α))`` with scipy's ``gammainccinv``; inf where that exceeds the largest double.

    Notes
    -----
    docs/math.md sections 10 and 12.4 (``‖N‖₂²/σ² ~ χ²_d``).

    Examples
    --------
    >>> round(gaussian_norm_quantile(0.05, 1.0, 1), 9)   # d = 1: the coordinate's 1.96
    1.959963985
    >>> round(gaussian_norm_quantile(float(np.exp(-2.0)), 1.0, 2), 9)   # χ²₂/2 ~ Exp(1)
    2.0
    """
    alpha_b, sigma_b, dim_b = broadcast(
        _alpha(alpha), _positive(sigma, "sigma"), require_interval(as_float_array(dim, "dim"), "dim", 1.0, None)
    )
    with np.errstate(over="ignore"):
        t = sigma_b * np.sqrt(2.0 * special.gammainccinv(0.5 * dim_b, alpha_b))
    return scalar_or_array(t, alpha, sigma, dim)


def laplace_coordinate_quantile(alpha: ArrayLike, scale: ArrayLike) -> FloatOrArray:
    """The t with ``P(|N| > t) = e^{-t/b} = α`` for N ~ Laplace(0, b): ``t = b ln(1/α)``.

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    scale : float or array_like
        b > 0.

    Returns
    -------
    float or numpy.ndarray
        ``-b ln α``; inf where that exceeds the largest double.

    Notes
    -----
    docs/math.md sections 4 and 12.4.

    Examples
    --------
    >>> round(laplace_coordinate_quantile(0.05, 1.0), 9)   # ln 20
    2.995732274
    """
    alpha_b, scale_b = broadcast(_alpha(alpha), _positive(scale, "scale"))
    with np.errstate(over="ignore"):
        t = scale_b * -np.log(alpha_b)
    return scalar_or_array(t, alpha, scale)


def gg_coordinate_quantile(alpha: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """The t with ``P(|N| > t) = Q(1/p, (t/b)^p) = α`` for N ~ GG(0, b, p).

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10] (the registry's range for GG noise).

    Returns
    -------
    float or numpy.ndarray
        ``b Q⁻¹(1/p, α)^{1/p}`` with scipy's ``gammainccinv``; inf where that exceeds the largest double.

    Notes
    -----
    docs/math.md sections 5.1 and 12.4 (p = 1 is Laplace, p = 2 the Gaussian with σ = b/√2).

    Examples
    --------
    >>> round(gg_coordinate_quantile(0.05, 1.0, 1.0), 9)   # Laplace: ln 20
    2.995732274
    >>> round(gg_coordinate_quantile(0.05, 2.0 ** 0.5, 2.0), 9)   # N(0, 1)
    1.959963985
    """
    alpha_b, scale_b, order_b = broadcast(_alpha(alpha), _positive(scale, "scale"), _order(order))
    with np.errstate(over="ignore"):
        t = scale_b * np.power(special.gammainccinv(1.0 / order_b, alpha_b), 1.0 / order_b)
    return scalar_or_array(t, alpha, scale, order)


def truncated_gg_coordinate_quantile(
    alpha: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike
) -> FloatOrArray:
    """The t with ``P(|e| > t) = α`` for GG(0, b, p) noise truncated to [-h, h].

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10] (the registry's range for GG noise).
    h : float or array_like
        The half-width h > 0 of the noise's support [-h, h].

    Returns
    -------
    float or numpy.ndarray
        t in (0, h]: ``b z^{1/p}`` with ``P(1/p, z) = (1 − α) P(1/p, z_h)``, z_h = (h/b)^p, inverted
        by ``gammaincinv`` where that mass is at most 1/2 and otherwise by ``gammainccinv`` on
        ``Q(1/p, z) = Q(1/p, z_h) + α P(1/p, z_h)``; never above h. Where the mass inside
        underflows (h far below b) the density is flat on [-h, h] to double precision, and the
        answer is the uniform law's ``h(1 − α)``.

    Notes
    -----
    docs/math.md sections 5.6 and 12.4: ``P(|e| > t) = (P(1/p, z_h) − P(1/p, z_t))/P(1/p, z_h)``.

    Examples
    --------
    >>> from gaussmech_core.bounded import truncated_noise_tail
    >>> t = truncated_gg_coordinate_quantile(0.05, 0.7, 2.0, 0.5)
    >>> round(float(truncated_noise_tail(t, 0.7, 2.0, 0.5)), 12)
    0.05
    """
    alpha_b, scale_b, order_b, h_b = _bounded_arguments(alpha, scale, order, h)
    shape = 1.0 / order_b
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        z_h = np.power(h_b / scale_b, order_b)
        inside = special.gammainc(shape, z_h)
        outside = special.gammaincc(shape, z_h)
        mass = (1.0 - alpha_b) * inside
        z = np.where(
            mass <= 0.5,
            special.gammaincinv(shape, mass),
            special.gammainccinv(shape, outside + alpha_b * inside),
        )
        t = np.minimum(scale_b * np.power(z, 1.0 / order_b), h_b)
    # Where the mass inside underflows, z_h is so small that the density is flat on [-h, h] to
    # double precision: the uniform law's quantile h(1 − α).
    t = np.where(inside > 0, t, h_b * (1.0 - alpha_b))
    return scalar_or_array(t, alpha, scale, order, h)


def clamped_gg_coordinate_quantile(alpha: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """The t with ``P(|e| > t) <= α``, smallest, for GG(0, b, p) noise clamped to [-h, h].

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10] (the registry's range for GG noise).
    h : float or array_like
        The half-width h > 0 of the noise's support [-h, h].

    Returns
    -------
    float or numpy.ndarray
        ``min(h, b Q⁻¹(1/p, α)^{1/p})``: below h the tail is the GG tail; at h it drops to 0 (the
        atoms at ±h hold the mass beyond), so where α is below ``Q(1/p, z_h)`` the answer is h.

    Notes
    -----
    docs/math.md sections 5.6 and 12.4 (the boundary-inflated truncation of Liu).

    Examples
    --------
    >>> float(clamped_gg_coordinate_quantile(1e-6, 0.7, 2.0, 0.5))   # beyond h: the atoms
    0.5
    """
    alpha_b, scale_b, order_b, h_b = _bounded_arguments(alpha, scale, order, h)
    unclamped = np.asarray(gg_coordinate_quantile(alpha_b, scale_b, order_b), dtype=np.float64)
    return scalar_or_array(np.minimum(unclamped, h_b), alpha, scale, order, h)


def _lattice_quantile(log_alpha: float, sigma: float) -> float:
    """Smallest integer k >= 1 with log P(|X| > k) <= log α (0.0 when k = 0 would do, inf out of range)."""
    with np.errstate(over="ignore"):
        guess = float(sigma * -special.ndtri(0.5 * math.exp(log_alpha)))
    if not guess <= _LARGEST_LATTICE_T:
        return math.inf
    low = max(0.0, math.floor(guess) - _LATTICE_WINDOW)
    while True:
        points = low + np.arange(2 * _LATTICE_WINDOW + 1, dtype=np.float64)
        holds = np.asarray(discrete_gaussian_log_tail(points, sigma), dtype=np.float64) <= log_alpha
        if holds[0]:
            if low == 0.0:
                return 0.0
            low = max(0.0, low - 2 * _LATTICE_WINDOW)  # the answer lies below the window
            continue
        if holds.any():
            return float(points[int(np.argmax(holds))])
        low += 2 * _LATTICE_WINDOW  # the answer lies above it
        if low > _LARGEST_LATTICE_T:
            return math.inf


def discrete_gaussian_coordinate_quantile(alpha: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """The smallest t with ``P(|X| > t) <= α`` for X ~ N_Z(0, σ²): an integer, on the exact tail.

    Parameters
    ----------
    alpha : float or array_like
        α in [1e-300, 1).
    sigma : float or array_like
        σ > 0, finite.

    Returns
    -------
    float or numpy.ndarray
        The smallest integer k >= 1 with ``P(|X| > k) <= α`` (the tail is constant on [k, k + 1),
        so no real t in (k − 1, k) does better); 0.0 where ``P(X ≠ 0) <= α`` already (the answer
        is then any t >= 0); inf where k would exceed 2^52, beyond which doubles miss integers (the
        error bound then takes the root search).

    Notes
    -----
    docs/math.md sections 9.6 and 12.4: the exact lattice tail
    (:func:`gaussmech_core.discrete_gaussian.discrete_gaussian_log_tail`) on windows of 33 integers,
    starting 16 below the continuous Gaussian's quantile ``σ Φ̄⁻¹(α/2)`` and moving down or up
    until the first integer that meets α is inside.

    Examples
    --------
    >>> discrete_gaussian_coordinate_quantile(0.05, 3.0)
    6.0
    >>> from gaussmech_core.discrete_gaussian import discrete_gaussian_tail
    >>> bool(discrete_gaussian_tail(6.0, 3.0) <= 0.05 < discrete_gaussian_tail(5.0, 3.0))
    True
    """
    alpha_b, sigma_b = broadcast(_alpha(alpha), _positive(sigma, "sigma"))
    flat_alpha, flat_sigma = alpha_b.ravel(), sigma_b.ravel()
    answers = np.array(
        [_lattice_quantile(math.log(a), s) for a, s in zip(flat_alpha.tolist(), flat_sigma.tolist())],
        dtype=np.float64,
    )
    return scalar_or_array(answers.reshape(alpha_b.shape), alpha, sigma)
