"""The discrete Gaussian mechanism (Canonne, Kamath & Steinke 2020): exact privacy, moments, sampling.

For integer-valued queries (counts, histograms), CKS20 (arXiv:2004.00010) add noise from the
discrete Gaussian ``N_Z(0, σ²)`` on the integers (docs/math.md section 9.5),

    P[X = x] = exp(−x²/(2σ²)) / Z(σ),        Z(σ) = Σ_{y ∈ Z} exp(−y²/(2σ²)),

which keeps the released values integers and can be sampled *exactly* with integer and rational
arithmetic only. ``σ`` is the scale parameter, not the standard deviation: ``Var X < σ²``.

Privacy, exactly (docs/math.md sections 9.5 and 9.6). For neighbours whose outputs differ by the integer
vector ``v`` the exact privacy profile is ``δ_v(ε) = E[(1 − e^{ε − L})_+]``, and

* ``neighbours="add_remove"`` (a scalar count, or a histogram where one record moves one count by
  Δ, ``v = Δ e_i``): CKS20 Thm 7, ``δ(ε) = P[X > A] − e^ε P[X > A + Δ]`` with
  ``A = εσ²/Δ − Δ/2``, for every dimension d;
* ``neighbours="replace"`` (a histogram where one record of weight Δ moves between two bins,
  ``v = Δ(e_i − e_j)``): the loss is ``(Δ² + ΔW)/σ²`` with ``W = Y₁ + Y₂`` the sum of two
  independent discrete Gaussians. We evaluate this two-coordinate sum exactly in closed form:
  ``y² + (w − y)² = 2(y − w/2)² + w²/2`` gives ``P[W = w] = e^{−w²/(4σ²)} θ_{w mod 2} / Z(σ)²`` with
  ``θ₀ = Σ_y e^{−y²/σ²}`` and ``θ₁ = Σ_y e^{−(y − ½)²/σ²}``, so with ``x = w/2``

      δ(ε) = [θ₀ S_Z + θ₁ S_{Z+½}] / Z(σ)²,   S_Λ = Σ_{x ∈ Λ, x > A'} e^{−x²/σ²} (1 − e^{ε − (Δ² + 2Δx)/σ²}),

  ``A' = εσ²/(2Δ) − Δ/2``: two sums of the add/remove form at scale ``σ/√2``, on the integers and
  on the half-integers. No truncation is needed (docs/math.md section 9.6 suggests a truncated
  convolution; this is the same quantity without it);
* any other integer change with ``‖v‖₂ ≤ Δ``: the multivariate discrete Gaussian is
  ``Δ²/(2σ²)``-zCDP (CKS20, multivariate theorem), converted by CKS20 Cor. 13. That is a valid
  **bound**, not the exact curve: :func:`discrete_gaussian_sigma_zcdp_bound` and
  :func:`discrete_gaussian_delta_zcdp_bound`.

Numerics. Every sum above is a sum of *positive* terms ``f(x)(1 − e^{ε − L(x)})`` over a unit-step
lattice ``x₀, x₀ + 1, …`` (``x₀`` the first lattice point past the threshold), evaluated in log
space with ``expm1`` (no ``e^ε`` is ever formed, no difference of two tails is taken):

* when the terms that matter number at most 256 they are summed directly (log-sum-exp);
* beyond (large σ, where the summand varies on a scale ≫ 1), by the Euler–Maclaurin formula
  ``Σ_{k≥0} g(x₀ + k) = ∫_{x₀}^∞ g + g(x₀)/2 − Σ_{j=1}^{6} B_{2j}/(2j)! g^{(2j−1)}(x₀)``, with the
  derivatives in closed form (Hermite polynomials) and the integral through the continuous
  Gaussian profile, ``∫ g = σ√(2π) [δ_cont(ε') + e^ε expm1(ε' − ε) Φ̄((x₀ + Δ)/σ)]`` with
  ``ε' = L(x₀)``, again a sum of two positive terms (:func:`gaussian_log_delta`). Where this
  branch is used (a window of more than 256 terms, so u/(2πσ) < 0.04 with u = x₀/σ), the
  remainder is of relative order ``(u/(2πσ))^{12}`` < 1e-17; the two branches agree to 1e-14
  where they meet (tested).
* ``Z(σ)`` by direct summation for σ < 1 and by its Poisson (Jacobi theta) dual
  ``Z = σ√(2π) (1 + 2 Σ_k e^{−2π²σ²k²})`` for σ ≥ 1, where three terms are exact to the last bit.

Measured against mpmath, ``log δ`` has an absolute error below 1e-13 (1 + |log δ|); the
calibration keeps ``log δ(σ) ≤ log δ_target − 1e-12 (1 + |log δ_target|)`` and returns the safe end
of its bracket, so the exact δ at the returned σ never exceeds the target.

Calibration. :func:`discrete_gaussian_sigma` brackets the root in ``log σ`` from the continuous
(analytic Gaussian) σ, refines it by the Illinois variant of regula falsi, and returns the upper
end of the final bracket, a σ at which the exact δ was evaluated and found below the target; its
lower end, at most 1e-12 below in relative terms, was found above it. δ(σ) is not monotone on
the lattice at small σ (docs/math.md section 9.6 warns of it): for large ε/Δ it is a sawtooth whose
teeth span many units of log δ (at ε = 37.25, δ = e^{−435.5}, replace, log δ swings by 20 within
1% of σ). So the smallest private σ (``_lowest_private``, from the lattice crossings below the
root) is not safe to round up, and :func:`discrete_gaussian_sigma` returns the smallest σ from
which every larger σ is private, certified by a bound on δ over intervals of σ and the zCDP bound
beyond (docs/math.md section 9.7); :func:`discrete_gaussian_smallest_sigma` gives both, with the
non-private intervals between them.

What the mechanism registry needs, function by function
-------------------------------------------------------
==========================================  =====================================================
registry question                           function (σ is the scale parameter)
==========================================  =====================================================
scale (σ from ε, δ, Δ, neighbours)          :func:`discrete_gaussian_sigma` (safe to round up);
                                            :func:`discrete_gaussian_smallest_sigma` (the smallest
                                            private σ, and the gaps above it); for a general
                                            integer l2 sensitivity the zCDP **bound**
                                            :func:`discrete_gaussian_sigma_zcdp_bound`
scale over an array of ε (one call)         :func:`discrete_gaussian_sigma` (vectorized over ε, δ)
coordinate std                              ``sqrt(discrete_gaussian_variance(σ))``
expected loss E‖noise‖₂² at dimension d     :func:`discrete_gaussian_expected_loss`
pmf on an integer grid (the "density")      :func:`discrete_gaussian_pmf`, :func:`discrete_gaussian_log_pmf`
per-coordinate tail P(|N_i| > t)            :func:`discrete_gaussian_tail` (``inclusive=True``: ≥)
per-coordinate log tail                     :func:`discrete_gaussian_log_tail`
tail of the vector norm P(‖N‖₂ > t)         :func:`discrete_gaussian_norm_tail` (exact lattice
                                            convolution where
                                            :func:`discrete_gaussian_norm_tail_is_exact` says it
                                            fits; Monte Carlo with the float sampler beyond)
loss summary at dimension d                 :func:`discrete_gaussian_loss_summary` (a
                                            :class:`~gaussmech_core.loss.LossSummary`)
per-coordinate / release sampler (plots)    :func:`discrete_gaussian_sample` (numpy Generator,
                                            any shape: ``size=(n, d)`` for n release vectors)
exact sampler for a real release            :func:`discrete_gaussian_exact_sample` (σ² rational;
                                            ``Fraction(σ) ** 2`` is the exact σ² of a float σ)
privacy profile δ(ε) at fixed σ             :func:`discrete_gaussian_delta` /
                                            :func:`discrete_gaussian_log_delta` (vectorized
                                            over ε); zCDP bound: :func:`discrete_gaussian_delta_zcdp_bound`
support                                     the integer lattice Z^d
sensitivity norm                            integer l2 (Δ a positive integer; ``neighbours``
                                            says which change the exact forms assume)
==========================================  =====================================================
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy import special

from . import _cover
from ._types import ArrayLike, FloatOrArray, Shape
from ._validation import (
    MAX_DIMENSION,
    MAX_SEED,
    as_float_array,
    broadcast,
    epsilon_array,
    require_choice,
    require_integer,
    require_interval,
    sample_shape,
    scalar_or_array,
    whole_numbers,
)
from .gaussian import (
    DELTA_MIN,
    analytic_gaussian_sigma,
    gaussian_log_delta,
    zcdp_cks_sigma,
    zcdp_rho,
    zcdp_to_delta_cks,
)
from .loss import DEFAULT_LEVELS, LossSummary, _cornish_fisher

__all__ = [
    "NEIGHBOUR_RELATIONS",
    "discrete_gaussian_log_delta",
    "discrete_gaussian_delta",
    "discrete_gaussian_delta_over",
    "discrete_gaussian_sigma",
    "discrete_gaussian_smallest_sigma",
    "LatticeCalibration",
    "discrete_gaussian_delta_zcdp_bound",
    "discrete_gaussian_sigma_zcdp_bound",
    "discrete_gaussian_log_normaliser",
    "discrete_gaussian_log_pmf",
    "discrete_gaussian_pmf",
    "discrete_gaussian_variance",
    "discrete_gaussian_expected_loss",
    "discrete_gaussian_log_tail",
    "discrete_gaussian_tail",
    "discrete_gaussian_norm_tail",
    "discrete_gaussian_norm_tail_is_exact",
    "discrete_gaussian_loss_summary",
    "discrete_gaussian_sample",
    "discrete_gaussian_exact_sample",
    "SAMPLER_SIGMA_MAX",
]

NEIGHBOUR_RELATIONS = ("add_remove", "replace")

SQRT2 = math.sqrt(2.0)
LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
TWO_PI_SQ = 2.0 * math.pi * math.pi

# Direct summation while the terms that matter number at most this many; Euler–Maclaurin beyond.
_DIRECT_TERMS = 256
# Terms past the point where (x² − x_s²)/(2σ²) exceeds this (plus log σ², for the factor
# 1 − e^{ε−L} that can be as small as Δ/σ² at the first term) are below e^-60 of the sum.
_CUT = 60.0
# Cells per block of the direct summation (points × terms), to keep temporaries in cache.
_BLOCK_CELLS = 1 << 18
# Euler–Maclaurin: B_{2j}/(2j)! for j = 1..6.
_EM_COEFFICIENTS = tuple(
    float(Fraction(b) / math.factorial(2 * j))
    for j, b in enumerate(
        (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66), Fraction(-691, 2730)),
        start=1,
    )
)
_EM_ORDER = 2 * len(_EM_COEFFICIENTS)  # Hermite polynomials He_0 .. He_{11} are needed

# The calibration keeps log δ ≤ log δ_target − _MARGIN (1 + |log δ_target|): ten times the largest
# error of the evaluator seen against mpmath.
_MARGIN = 1e-12
_WIDTH = 1e-12  # final bracket width in log σ (relative width in σ)
_MAX_ITERATIONS = 200
# Below _SIGMA_POINT, N_Z(0, σ²) is the point mass at 0 to float64 precision (P[X ≠ 0] < e^{−5e199});
# computations use max(σ, _SIGMA_POINT). Above _SIGMA_CONTINUOUS the lattice changes the privacy
# profile by a relative O(Δ/σ) < 1e-30, far below float64's resolution, and the continuous
# Gaussian's profile (gaussian_log_delta) is used, which avoids overflowing εσ².
_SIGMA_POINT = 1e-100
_SIGMA_CONTINUOUS = 1e30
# The float sampler returns int64: σ is capped so that draws stay far inside its range.
SAMPLER_SIGMA_MAX = 1e15
_FIRST_STEP = 1.02  # the first bracket: the continuous σ × 1.02^±1 (95% of the roots lie inside)


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------


def _sigma_array(value, allow_infinity=True):
    sigma = as_float_array(value, "sigma")
    return require_interval(sigma, "sigma", 0.0, None, lower_open=True, allow_infinity=allow_infinity)


MAX_INTEGER_SENSITIVITY = 2.0**52  # beyond it, doubles are not every integer: Δ's lattice is lost


def _integer_sensitivity(value):
    """Δ for the exact forms: a positive integer (an integer query changes by whole units)."""
    array = whole_numbers(value, "sensitivity", 1)
    return require_interval(
        array, "sensitivity", 1.0, MAX_INTEGER_SENSITIVITY, hint="the exact forms need an integer sensitivity"
    )


def _neighbours(value):
    if not isinstance(value, str):
        raise TypeError(f"neighbours must be a string, got neighbours={value!r}")
    return require_choice(value, "neighbours", NEIGHBOUR_RELATIONS)


def _delta_target(value):
    delta = as_float_array(value, "delta")
    return require_interval(delta, "delta", DELTA_MIN, 1.0, upper_open=True)


def _flat(*arrays):
    broadcasted = broadcast(*arrays)
    return broadcasted[0].shape, [np.ascontiguousarray(a).ravel() for a in broadcasted]


# ----------------------------------------------------------------------------------------------
# Normalising constants (Jacobi theta functions)
# ----------------------------------------------------------------------------------------------

_DIRECT_Y = np.arange(-45.0, 46.0)


def _log_theta(sigma, shift=0.0):
    """log Σ_{y∈Z} exp(−(y + shift)²/(2σ²)) for shift ∈ {0, ½} and flat σ > 0 (inf allowed).

    σ < 1: direct (|y| ≤ 45 leaves e^{−1000} out); σ ≥ 1: the Poisson dual
    σ√(2π) Σ_k (±1)^k e^{−2π²σ²k²}, with (−1)^k for the half-integer shift.
    """
    out = np.empty_like(sigma)
    small = sigma < 1.0
    if small.any():
        s = sigma[small][:, None]
        exponent = -((_DIRECT_Y + shift) ** 2) / (2.0 * s * s)
        top = exponent.max(axis=1)
        out[small] = top + np.log(np.exp(exponent - top[:, None]).sum(axis=1))
    large = ~small
    if large.any():
        s = sigma[large]
        with np.errstate(over="ignore"):
            q = np.exp(-TWO_PI_SQ * s * s)
        sign = -1.0 if shift else 1.0
        series = sign * q + q**4 + sign * q**9
        with np.errstate(over="ignore"):
            out[large] = np.log(s) + LOG_SQRT_2PI + np.log1p(2.0 * series)
    return out


def discrete_gaussian_log_normaliser(sigma: ArrayLike) -> FloatOrArray:
    """log Z(σ), the normalising constant of the discrete Gaussian: Z = Σ_{y∈Z} e^{−y²/(2σ²)}.

    Parameters
    ----------
    sigma : float or array_like
        σ > 0, finite.

    Returns
    -------
    float or ndarray
        ``log Z(σ)``, exact to the last bits.

    Notes
    -----
    Direct summation for σ < 1; for σ ≥ 1 the Jacobi (Poisson summation) identity
    ``Z(σ) = σ√(2π) Σ_{k∈Z} e^{−2π²σ²k²}`` (docs/math.md section 9.5), where the k-th term is below
    e^{−19.7 k²} of the first.

    Examples
    --------
    >>> round(discrete_gaussian_log_normaliser(1.0), 12)       # log(σ√(2π)) + 2e^{-2π²}
    0.918938538555
    >>> discrete_gaussian_log_normaliser(1e-3)
    0.0
    """
    sigma_array = _sigma_array(sigma, allow_infinity=False)
    shape, (s,) = _flat(sigma_array)
    # Below _SIGMA_POINT, Z = 1 to float64 precision (log Z = 0 exactly), and y²/(2σ²) would divide by 0.
    return scalar_or_array(_log_theta(np.maximum(s, _SIGMA_POINT)).reshape(shape), sigma)


# ----------------------------------------------------------------------------------------------
# Lattice sums Σ_{k≥0} f(x₀+k) (1 − e^{−(θ+k)Δ/σ²}): the engine of tails and privacy profiles
# ----------------------------------------------------------------------------------------------
#
# A privacy profile sums f(x)(1 − e^{ε − L(x)}) over lattice points x > A, with
# L(x) − ε = (x − A)Δ/σ²; writing θ = x₀ − A ∈ (0, 1] for the first point keeps that factor
# accurate however large A is. A plain tail is θ = inf (factor 1) and c = ε = −inf.


def _window(x0, sigma):
    """Number of lattice terms from x₀ whose omission would matter (see _CUT)."""
    with np.errstate(over="ignore", invalid="ignore"):
        start = np.maximum(x0, 0.0)
        cut = _CUT + np.log1p(sigma * sigma)
        end = np.sqrt(start * start + 2.0 * cut * sigma * sigma)
        terms = np.ceil(end - x0) + 1.0
    return np.where(np.isnan(terms), np.inf, terms)


def _log_lattice_sum_direct(x0, theta, sigma, rate, terms):
    out = np.empty_like(x0)
    order = np.argsort(terms, kind="stable")
    start = 0
    while start < order.size:
        width = int(terms[order[start]])
        rows = max(1, _BLOCK_CELLS // max(width, 1))
        chunk = order[start : start + rows]
        width = int(terms[chunk].max())
        k = np.arange(width, dtype=np.float64)
        x = x0[chunk, None] + k
        with np.errstate(over="ignore", divide="ignore"):
            logs = np.log(-np.expm1(-(theta[chunk, None] + k) * rate[chunk, None]))
            logs -= 0.5 * (x / sigma[chunk, None]) ** 2
        logs[k >= terms[chunk, None]] = -np.inf
        top = logs.max(axis=1)
        finite = np.isfinite(top)
        safe_top = np.where(finite, top, 0.0)
        with np.errstate(divide="ignore"):
            total = safe_top + np.log(np.exp(logs - safe_top[:, None]).sum(axis=1))
        out[chunk] = np.where(finite, total, -np.inf)
        start += rows
    return out


def _hermite(w, count=_EM_ORDER):
    """Probabilists' Hermite polynomials He_0 .. He_{count − 1} at w (list of arrays)."""
    values = [np.ones_like(w), np.array(w, dtype=np.float64)]
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, count - 1):
            values.append(w * values[k] - k * values[k - 1])
    return values


def _log_lattice_sum_euler_maclaurin(x0, theta, sigma, sensitivity, c, rate):
    """log Σ_{k≥0} g(x₀+k) by Euler–Maclaurin (module notes), for wide windows (σ large)."""
    with np.errstate(over="ignore"):
        w0 = x0 / sigma
        log_f0 = -0.5 * w0 * w0
    mu = sensitivity / sigma
    plain = np.isneginf(c)
    log_scale = np.log(sigma) + LOG_SQRT_2PI
    # The integral ∫_{x₀}^∞ g.
    log_integral = np.empty_like(x0)
    if plain.any():
        log_integral[plain] = log_scale[plain] + special.log_ndtr(-w0[plain])
    diff = ~plain
    r0 = np.zeros_like(x0)
    one_minus_r0 = np.ones_like(x0)
    if diff.any():
        cd, sd, dd = c[diff], sigma[diff], sensitivity[diff]
        gap = theta[diff] * rate[diff]  # ε' − ε, with ε' = L(x₀)
        log_one_minus = np.log(-np.expm1(-gap))
        first = gaussian_log_delta(cd + gap, sd, dd)
        second = cd + gap + log_one_minus + special.log_ndtr(-(w0[diff] + mu[diff]))  # e^ε expm1(gap) Φ̄
        log_integral[diff] = log_scale[diff] + np.logaddexp(first, second)
        r0[diff] = np.exp(-gap)
        one_minus_r0[diff] = np.exp(log_one_minus)
    # g^{(k)}(x₀) = (−1/σ)^k f(x₀) [(1 − r₀) He_k(w₀) − r₀ (He_k(w₀ + μ) − He_k(w₀))].
    he = _hermite(w0)
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.exp(log_integral - log_f0) + 0.5 * one_minus_r0
        inverse_sigma = 1.0 / sigma
        for j, coefficient in enumerate(_EM_COEFFICIENTS, start=1):
            k = 2 * j - 1
            shift_difference = sum(math.comb(k, i) * mu**i * he[k - i] for i in range(1, k + 1))
            bracket = one_minus_r0 * he[k] - r0 * shift_difference
            total = total + coefficient * inverse_sigma**k * bracket
    # w₀ beyond ~1e154 (a threshold far past any representable tail): the sum is e^{−∞}.
    finite = np.isfinite(log_f0) & np.isfinite(total) & (total > 0.0)
    return np.where(finite, log_f0 + np.log(np.where(finite, total, 1.0)), -np.inf)


def _log_lattice_sum(x0, theta, sigma, sensitivity, c, rate):
    """log Σ_{k≥0} f(x₀+k)(1 − e^{−(θ+k) r}) for flat arrays, r = ``rate`` = Δ/σ² (θ > 0; θ = inf,
    c = −inf: plain tail).

    ``c`` is ε (used by the Euler–Maclaurin integral, where ε + θΔ/σ² = L(x₀)). The rate is
    passed in so that callers compute it from the exact σ² they have (σ²/2 for replace).
    """
    # Lattice points left of −reach carry less than e^{−_CUT} of the term at 0, which the sum
    # contains with a factor 1 − e^{−(x − A)Δ/σ²} near 1 whenever x₀ < −reach (see _window).
    with np.errstate(over="ignore"):
        reach = np.ceil(np.sqrt(2.0 * (_CUT + np.log1p(sigma * sigma))) * sigma) + 1.0
    shift = np.maximum(0.0, np.ceil(-reach - x0))
    x0, theta = x0 + shift, theta + shift
    rate = np.maximum(rate, 1e-300)
    terms = _window(x0, sigma)
    direct = terms <= _DIRECT_TERMS
    out = np.empty_like(x0)
    if direct.any():
        out[direct] = _log_lattice_sum_direct(x0[direct], theta[direct], sigma[direct], rate[direct], terms[direct])
    wide = ~direct
    if wide.any():
        out[wide] = _log_lattice_sum_euler_maclaurin(
            x0[wide], theta[wide], sigma[wide], sensitivity[wide], c[wide], rate[wide]
        )
    return out


def _log_profile_sum(epsilon, sigma, sensitivity, variance, offset=0.0):
    """log Σ_{x ∈ Z + offset, x > A} f(x)(1 − e^{ε − L(x)}), A = εσ²/Δ − Δ/2 (−inf where A = inf).

    ``variance`` is σ² as the caller has it (for replace, the exact half of the float σ², not
    the square of σ/√2), so that A and the rate Δ/σ² carry a single rounding.
    """
    with np.errstate(over="ignore"):
        threshold = epsilon * variance / sensitivity - 0.5 * sensitivity
        rate = sensitivity / variance
    out = np.full_like(sigma, -np.inf)
    finite = np.flatnonzero(np.isfinite(threshold))
    if finite.size:
        a = threshold[finite]
        x0 = np.floor(a - offset) + 1.0 + offset
        # Beyond 2^52 the first point and A may round together; θ = 1 then errs on the safe side.
        theta = x0 - a
        theta = np.where(theta > 0.0, theta, 1.0)
        out[finite] = _log_lattice_sum(x0, theta, sigma[finite], sensitivity[finite], epsilon[finite], rate[finite])
    return out


# ----------------------------------------------------------------------------------------------
# The exact privacy profile (docs/math.md sections 9.5, 9.6)
# ----------------------------------------------------------------------------------------------


def _log_delta_flat(epsilon, sigma, sensitivity, neighbours):
    """log δ(ε) for flat arrays; σ = inf gives −inf."""
    out = np.full_like(sigma, -np.inf)
    continuous = np.flatnonzero(sigma >= _SIGMA_CONTINUOUS)
    if continuous.size:
        scale = SQRT2 if neighbours == "replace" else 1.0
        out[continuous] = gaussian_log_delta(epsilon[continuous], sigma[continuous], scale * sensitivity[continuous])
    live = np.flatnonzero(sigma < _SIGMA_CONTINUOUS)
    if live.size == 0:
        return out
    e, s, d = epsilon[live], np.maximum(sigma[live], _SIGMA_POINT), sensitivity[live]
    with np.errstate(over="ignore"):
        variance = s * s
    if neighbours == "add_remove":
        out[live] = np.minimum(_log_profile_sum(e, s, d, variance) - _log_theta(s), 0.0)
        return out
    half = s / SQRT2
    whole = _log_profile_sum(e, half, d, 0.5 * variance) + _log_theta(half)
    halves = _log_profile_sum(e, half, d, 0.5 * variance, 0.5) + _log_theta(half, 0.5)
    out[live] = np.minimum(np.logaddexp(whole, halves) - 2.0 * _log_theta(s), 0.0)
    return out


def discrete_gaussian_log_delta(
    epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1, neighbours: str = "add_remove"
) -> FloatOrArray:
    """Natural log of the exact privacy profile δ(ε) of the discrete Gaussian mechanism.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        Scale σ > 0 of ``N_Z(0, σ²)`` per coordinate; ``inf`` gives δ = 0.
    sensitivity : int or array_like of int, default 1
        Δ, a positive integer: the change of the one count that moves (``"add_remove"``), or the
        weight of the record that moves between two bins (``"replace"``).
    neighbours : {"add_remove", "replace"}, default "add_remove"
        ``"add_remove"``: a scalar, or a histogram where one record changes one count by Δ
        (valid for every dimension). ``"replace"``: a histogram where one record moves from one
        bin to another (two counts change, by +Δ and −Δ).

    Returns
    -------
    float or ndarray
        ``log δ(ε)``, accurate where δ itself underflows float64.

    Raises
    ------
    ValueError
        ε < 0, σ ≤ 0, Δ not a positive whole number, an unknown ``neighbours``, or NaN.
    TypeError
        For non-numeric input or a non-string ``neighbours``.

    Notes
    -----
    ``"add_remove"``: CKS20 Thm 7 (docs/math.md section 9.5),
    ``δ(ε) = P[X > εσ²/Δ − Δ/2] − e^ε P[X > εσ²/Δ + Δ/2]``, X ~ N_Z(0, σ²), evaluated as one sum
    of positive terms. ``"replace"``: the exact two-coordinate sum of docs/math.md section 9.6, in
    the closed form of the module notes (two theta-weighted lattice sums at scale σ/√2). For a
    general integer change use the bound :func:`discrete_gaussian_delta_zcdp_bound`.

    Examples
    --------
    >>> round(discrete_gaussian_delta(1.0, 1.0), 4)           # docs/math.md section 9.5 table
    0.1414
    >>> round(discrete_gaussian_log_delta(1.0, 60.0), 3)      # δ below float64's range
    -1812.665
    """
    neighbours = _neighbours(neighbours)
    epsilon_values = epsilon_array(epsilon)
    sigma_values = _sigma_array(sigma)
    sensitivity_values = _integer_sensitivity(sensitivity)
    shape, (e, s, d) = _flat(epsilon_values, sigma_values, sensitivity_values)
    return scalar_or_array(_log_delta_flat(e, s, d, neighbours).reshape(shape), epsilon, sigma, sensitivity)


def discrete_gaussian_delta(
    epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1, neighbours: str = "add_remove"
) -> FloatOrArray:
    """The exact privacy profile δ(ε) of the discrete Gaussian mechanism (CKS20 Thm 7).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        σ > 0 (``inf`` allowed: δ = 0).
    sensitivity : int or array_like of int, default 1
        Δ, a positive integer.
    neighbours : {"add_remove", "replace"}, default "add_remove"
        As in :func:`discrete_gaussian_log_delta`.

    Returns
    -------
    float or ndarray
        ``exp(discrete_gaussian_log_delta(...))``: the smallest δ with (ε, δ)-DP.

    Notes
    -----
    docs/math.md sections 9.5 (add/remove, Thm 7) and 9.6 (replace). The discrete δ can be larger or
    smaller than the continuous (analytic Gaussian) δ at the same σ, so calibrate with this one.

    Examples
    --------
    >>> [round(discrete_gaussian_delta(e, s), 5) for e, s in [(0.5, 1.0), (0.3, 3.0)]]
    [0.20398, 0.03847]
    >>> round(discrete_gaussian_delta(1.0, 2.0, neighbours="replace"), 6)
    0.037969
    """
    log_delta = discrete_gaussian_log_delta(epsilon, sigma, sensitivity, neighbours)
    return math.exp(log_delta) if isinstance(log_delta, float) else np.exp(log_delta)


def discrete_gaussian_delta_over(
    epsilon: ArrayLike,
    sigma_low: ArrayLike,
    sigma_high: ArrayLike,
    sensitivity: ArrayLike = 1,
    neighbours: str = "add_remove",
) -> FloatOrArray:
    """An upper bound on δ(ε) of the discrete Gaussian that holds at **every** σ in [σ_low, σ_high].

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma_low, sigma_high : float or array_like
        The ends of the interval of σ, > 0 (inf allowed; given in either order).
    sensitivity : int or array_like of int, default 1
        Δ, a positive integer.
    neighbours : {"add_remove", "replace"}, default "add_remove"
        As in :func:`discrete_gaussian_log_delta`.

    Returns
    -------
    float or ndarray
        δ(ε) is not monotone in σ on the lattice (a sawtooth), so the profile at one σ says nothing
        about a larger one; this bound does. For σ_high < 1e30: each factor of the exact profile
        bounded at the end of the interval that makes it largest (docs/math.md section 9.7, Lemma
        1), equal to :func:`discrete_gaussian_delta` at σ_low = σ_high. Beyond: the zCDP bound at
        σ_low (Lemma 2), which falls as σ grows.

    Examples
    --------
    >>> exact = discrete_gaussian_delta(5.0, np.linspace(0.45, 0.5, 51))
    >>> bound = discrete_gaussian_delta_over(5.0, 0.45, 0.5)
    >>> bool(exact.max() <= bound), round(bound, 4)
    (True, 0.1056)
    """
    neighbours = _neighbours(neighbours)
    epsilon_values = epsilon_array(epsilon)
    low_values, high_values = (
        require_interval(as_float_array(value, name), name, 0.0, None, lower_open=True, allow_infinity=True)
        for value, name in ((sigma_low, "sigma_low"), (sigma_high, "sigma_high"))
    )
    sensitivity_values = _integer_sensitivity(sensitivity)
    shape, (e, first, second, d) = _flat(epsilon_values, low_values, high_values, sensitivity_values)
    low, high = np.minimum(first, second), np.maximum(first, second)  # the interval, in either order
    delta = np.empty_like(e)
    tail = high >= _SIGMA_CONTINUOUS
    if tail.any():
        norm = d[tail] * (SQRT2 if neighbours == "replace" else 1.0)
        delta[tail] = discrete_gaussian_delta_zcdp_bound(e[tail], low[tail], norm)
    if (~tail).any():
        delta[~tail] = np.exp(_log_delta_bound(e[~tail], low[~tail], high[~tail], d[~tail], neighbours))
    return scalar_or_array(delta.reshape(shape), epsilon, sigma_low, sigma_high, sensitivity)


# ----------------------------------------------------------------------------------------------
# Calibration: the smallest σ whose exact δ meets the target
# ----------------------------------------------------------------------------------------------


def _excess(epsilon, sigma, sensitivity, target, neighbours):
    """G = log δ(σ) − log δ_target + margin: G ≤ 0 means σ meets the target with room to spare."""
    return _log_delta_flat(epsilon, sigma, sensitivity, neighbours) - target + _MARGIN * (1.0 + np.abs(target))


def _bracket(epsilon, target, sensitivity, neighbours, start):
    """(σ_lo, G_lo > 0, σ_hi, G_hi ≤ 0) around a root, by doubling outward from ``start``."""
    low, high = start / _FIRST_STEP, start * _FIRST_STEP
    g_low = _excess(epsilon, low, sensitivity, target, neighbours)
    g_high = _excess(epsilon, high, sensitivity, target, neighbours)
    step = np.full_like(start, _FIRST_STEP)
    for _ in range(_MAX_ITERATIONS):
        down = np.flatnonzero(g_low <= 0.0)  # the low end is already private: look lower
        up = np.flatnonzero(g_high > 0.0)  # the high end is not private: look higher
        if down.size == 0 and up.size == 0:
            return low, g_low, high, g_high
        moved = np.union1d(down, up)
        step[moved] = np.minimum(step[moved] ** 3, 16.0)  # 1.02, 1.06, 1.19, 1.7, 4.8, 16, 16, ...
        if down.size:
            high[down], g_high[down] = low[down], g_low[down]
            low[down] = low[down] / step[down]
            g_low[down] = _excess(epsilon[down], low[down], sensitivity[down], target[down], neighbours)
        if up.size:
            low[up], g_low[up] = high[up], g_high[up]
            high[up] = high[up] * step[up]
            g_high[up] = _excess(epsilon[up], high[up], sensitivity[up], target[up], neighbours)
    raise RuntimeError(
        "discrete_gaussian_sigma could not bracket the root; please report the inputs"
    )  # pragma: no cover


def _refine(epsilon, target, sensitivity, neighbours, low, g_low, high, g_high):
    """Illinois regula falsi in log σ until the bracket is narrower than _WIDTH; returns σ_hi."""
    t_low, t_high = np.log(low), np.log(high)
    side = np.zeros(low.shape, dtype=np.int8)  # which end moved last: −1 low, +1 high
    slow = np.zeros(low.shape, dtype=np.int8)  # steps in a row that shrank the bracket by < half
    pending = np.flatnonzero(t_high - t_low > _WIDTH)
    for _ in range(_MAX_ITERATIONS):
        if pending.size == 0:
            return high
        tl, th, gl, gh = t_low[pending], t_high[pending], g_low[pending], g_high[pending]
        width = th - tl
        # Regula falsi, kept inside the bracket; a bisection after three steps that did not halve it.
        guess = th - gh * width / (gh - gl)
        # Aim a quarter width past the predicted root, on the private side; once the root is
        # predicted within half a width of an end, probe half a width inside that end, which
        # closes the bracket in one more step when the prediction holds.
        inner = np.clip(guess + 0.25 * _WIDTH, tl + 0.01 * width, th - 0.01 * width)
        inner = np.where(th - guess < 0.5 * _WIDTH, th - 0.5 * _WIDTH, inner)
        inner = np.where(guess - tl < 0.5 * _WIDTH, tl + 0.5 * _WIDTH, inner)
        t_new = np.where(slow[pending] >= 3, 0.5 * (tl + th), inner)
        sigma_new = np.exp(t_new)
        t_new = np.log(sigma_new)
        g_new = _excess(epsilon[pending], sigma_new, sensitivity[pending], target[pending], neighbours)
        private = g_new <= 0.0
        to_high = pending[private]
        to_low = pending[~private]
        # Illinois: halve the G of the end that stayed put twice in a row.
        stay_low = to_high[side[to_high] == 1]
        g_low[stay_low] *= 0.5
        stay_high = to_low[side[to_low] == -1]
        g_high[stay_high] *= 0.5
        t_high[to_high], g_high[to_high], high[to_high] = t_new[private], g_new[private], sigma_new[private]
        t_low[to_low], g_low[to_low] = t_new[~private], g_new[~private]
        side[to_high], side[to_low] = 1, -1
        new_width = t_high[pending] - t_low[pending]
        slow[pending] = np.where((new_width > 0.5 * width) & (new_width > 4.0 * _WIDTH), slow[pending] + 1, 0)
        pending = pending[new_width > _WIDTH]
    raise RuntimeError("discrete_gaussian_sigma did not converge; please report the inputs")  # pragma: no cover


_TEETH = 64  # lattice crossings examined below a root before settling for the lowest private one


def _lowest_private(epsilon, target, sensitivity, neighbours, sigma):
    """Move each root σ down to the smallest private σ when the profile is a sawtooth.

    At small σ and large ε/Δ, log δ(σ) is not monotone: each time the threshold A(σ) passes a
    lattice point m, the term at m vanishes, and log δ falls steeply just before that crossing
    σ_m, then rises until the next one (docs/math.md section 9.6 warns of this). The private σ form
    one interval per tooth, starting at its crossing. So from the root found, we look at the
    crossings below it, σ_m = √((m h + Δ/2) κ Δ/ε) (h = 1, κ = 1 for add/remove; h = ½, κ = 2
    for replace, whose lattice is Z/2), taken just past the crossing, where δ is at the bottom of
    its tooth: while that bottom is private, a smaller private σ exists; at the first one that is
    not, the smallest private σ lies on the steep fall in (σ_m, σ_{m+1}) and is refined there.
    """
    kappa, spacing = (2.0, 0.5) if neighbours == "replace" else (1.0, 1.0)
    result = sigma.copy()
    with np.errstate(over="ignore"):
        position = epsilon * sigma * sigma / (kappa * sensitivity) - 0.5 * sensitivity
    index = np.ceil(position / spacing) - 1.0  # the last crossing below σ
    low, g_low = np.zeros_like(sigma), np.zeros_like(sigma)
    high, g_high = sigma.copy(), np.zeros_like(sigma)
    moved = np.zeros(sigma.shape, dtype=bool)
    pending = np.flatnonzero((epsilon > 0.0) & np.isfinite(position) & (index * spacing + 0.5 * sensitivity > 0.0))
    for _ in range(_TEETH):
        if pending.size == 0:
            break
        e, d = epsilon[pending], sensitivity[pending]
        crossing = np.sqrt((index[pending] * spacing + 0.5 * d) * kappa * d / e) * (1.0 + 1e-14)
        # A crossing inside the final bracket (the root sits at it) is stepped over.
        below = crossing < high[pending] * (1.0 - 2.0 * _WIDTH)
        g = np.full_like(crossing, -np.inf)
        if below.any():
            g[below] = _excess(e[below], crossing[below], d[below], target[pending[below]], neighbours)
        private = g <= 0.0
        done = pending[~private]
        low[done], g_low[done] = crossing[~private], g[~private]
        found = private & below
        keep = pending[found]
        high[keep], g_high[keep], moved[keep] = crossing[found], g[found], True
        step = pending[private]
        index[step] -= 1.0
        pending = step[index[step] * spacing + 0.5 * sensitivity[step] > 0.0]
    # Where every crossing down to σ → 0 was private, or the scan stopped early, keep the lowest
    # private crossing found unless a point far below is private too (δ → 1 as σ → 0).
    unbounded = np.flatnonzero(moved & (g_low <= 0.0))
    if unbounded.size:
        low[unbounded] = high[unbounded] / 1e3
        g_low[unbounded] = _excess(
            epsilon[unbounded], low[unbounded], sensitivity[unbounded], target[unbounded], neighbours
        )
    refine = np.flatnonzero(moved & (g_low > 0.0) & np.isfinite(g_low))
    result[np.flatnonzero(moved)] = high[moved]
    if refine.size:
        result[refine] = _refine(
            epsilon[refine],
            target[refine],
            sensitivity[refine],
            neighbours,
            low[refine],
            g_low[refine],
            high[refine],
            g_high[refine],
        )
    return result


# ----------------------------------------------------------------------------------------------
# More noise is never less private: the σ from which every larger σ is private (docs/math.md 9.7)
# ----------------------------------------------------------------------------------------------
#
# δ(σ) is a sawtooth on the lattice, so "the smallest private σ" is not a σ one may round up.
# The calibration returns σ₀, the smallest σ from which every larger σ is private, and proves it:
# [σ₀, σ_tail] is covered by intervals [a, b] on each of which an upper bound on δ(σ) for every
# σ in [a, b] (_log_delta_bound) is below the target, and every σ ≥ σ_tail is private by the
# zCDP bound, which falls as σ grows.

# The bound over an interval must stay below log δ_target − _CERTIFY_MARGIN (1 + |log δ_target|):
# half the calibration's margin, still five times the evaluator's largest error; the root keeps
# the other half as room to start the cover from.
_CERTIFY_MARGIN = 0.5 * _MARGIN


def _log_profile_sum_between(epsilon, sigma_high, sensitivity, variance_low, offset=0.0):
    """log Σ_{x ∈ Z + offset, x > A(a)} e^{−x²/(2 s_b²)} (1 − e^{−(x − A(a)) Δ/v_a}): the lattice sum of
    :func:`_log_profile_sum` with the threshold A(a) = ε v_a/Δ − Δ/2 and the rate Δ/v_a of the lower
    end (v_a = ``variance_low``) and the Gaussian weight of the upper end (s_b = ``sigma_high``).

    It is the profile sum of a Gaussian of scale s_b with shift Δ' = (Δ/v_a) s_b² and
    ε' = (Δ/v_a) A + (Δ/v_a)² s_b²/2 (docs/math.md section 9.7), which is what the Euler–Maclaurin
    branch needs; at s_b² = v_a these are Δ and ε.
    """
    with np.errstate(over="ignore"):
        threshold = epsilon * variance_low / sensitivity - 0.5 * sensitivity
        rate = sensitivity / variance_low
    out = np.full_like(sigma_high, -np.inf)
    finite = np.flatnonzero(np.isfinite(threshold))
    if finite.size:
        a, r, s = threshold[finite], rate[finite], sigma_high[finite]
        x0 = np.floor(a - offset) + 1.0 + offset
        theta = x0 - a
        theta = np.where(theta > 0.0, theta, 1.0)
        with np.errstate(over="ignore"):
            shift = r * s * s
            c = r * a + 0.5 * r * shift
        out[finite] = _log_lattice_sum(x0, theta, s, shift, c, r)
    return out


def _log_delta_bound(epsilon, low, high, sensitivity, neighbours):
    """log of an upper bound on δ(σ) that holds for every σ in [low, high] (flat arrays).

    Every factor of the profile is bounded at the end of the interval that makes it largest
    (docs/math.md section 9.7): the Gaussian weights e^{−x²/(2σ²)} and the half-scale thetas
    at ``high``, the normaliser Z(σ), the factor 1 − e^{ε − L(x)} and the set of lattice points past
    the threshold at ``low``. At low = high it is the profile itself.
    """
    a = np.maximum(low, _SIGMA_POINT)
    b = np.maximum(high, a)
    with np.errstate(over="ignore"):
        variance = a * a
    if neighbours == "add_remove":
        return np.minimum(_log_profile_sum_between(epsilon, b, sensitivity, variance) - _log_theta(a), 0.0)
    half = b / SQRT2
    whole = _log_profile_sum_between(epsilon, half, sensitivity, 0.5 * variance) + _log_theta(half)
    halves = _log_profile_sum_between(epsilon, half, sensitivity, 0.5 * variance, 0.5) + _log_theta(half, 0.5)
    return np.minimum(np.logaddexp(whole, halves) - 2.0 * _log_theta(a), 0.0)


def _certified_level(target):
    return target - _CERTIFY_MARGIN * (1.0 + np.abs(target))


def _bound_of(epsilon, sensitivity, neighbours):
    """The bound as :mod:`._cover` asks for it: log U over [low, high] for the problems ``rows``."""
    return lambda rows, low, high: _log_delta_bound(epsilon[rows], low, high, sensitivity[rows], neighbours)


def _tail_sigma(epsilon, delta, sensitivity, neighbours, start):
    """A σ from which every larger σ is private: the zCDP bound (docs/math.md section 9.7).

    N_Z(0, σ²) with an integer change v is ‖v‖₂²/(2σ²)-zCDP (CKS20), ‖v‖₂ = Δ (add/remove) or
    Δ√2 (replace), and CKS20 Cor. 13 turns ρ into a δ(ε) bound that grows with ρ, so it falls as σ
    grows. For ε > 0 the σ of :func:`~gaussmech_core.gaussian.zcdp_cks_sigma`; at ε = 0, σ doubled
    from ``start`` until the bound meets δ. Either is checked with the conversion itself.
    """
    norm = sensitivity * (SQRT2 if neighbours == "replace" else 1.0)
    sigma = np.array(start, dtype=np.float64)
    positive = epsilon > 0.0
    if positive.any():
        sigma[positive] = np.maximum(
            zcdp_cks_sigma(epsilon[positive], delta[positive], norm[positive]), start[positive]
        )
    for _ in range(2100):
        with np.errstate(over="ignore"):
            rho = 0.5 * (norm / sigma) ** 2
        holds = zcdp_to_delta_cks(rho, epsilon) <= delta
        if holds.all():
            return sigma
        sigma = np.where(holds, sigma, sigma * 2.0)
    raise RuntimeError("no σ meets the zCDP bound; please report the inputs")  # pragma: no cover


def _safe_sigma(epsilon, delta, sensitivity, neighbours, root):
    """σ₀ ≥ ``root``: every σ ≥ σ₀ is private, proved by the bound and the zCDP tail.

    ``root`` is private, with a σ 1e-12 below it that is not, so σ₀ ≥ root up to that width.
    """
    target = np.log(delta)
    level = _certified_level(target)
    tail = _tail_sigma(epsilon, delta, sensitivity, neighbours, root)
    # Beyond _SIGMA_CONTINUOUS the profile is the continuous Gaussian's, which falls as σ grows.
    top = np.minimum(tail, _SIGMA_CONTINUOUS)
    beyond = np.flatnonzero(tail > _SIGMA_CONTINUOUS)
    if beyond.size:
        continuous_private = (
            _log_delta_flat(epsilon[beyond], np.full(beyond.size, _SIGMA_CONTINUOUS), sensitivity[beyond], neighbours)
            <= level[beyond]
        )
        top[beyond[~continuous_private]] = tail[beyond[~continuous_private]]
    sigma = root.copy()
    below = np.flatnonzero(root < top)
    if below.size:
        bound = _bound_of(epsilon[below], sensitivity[below], neighbours)
        sigma[below] = _cover.certified_from(bound, level[below], root[below], top[below])
    return sigma


def _calibration_inputs(epsilon, delta, sensitivity, neighbours):
    neighbours = _neighbours(neighbours)
    epsilon_values = epsilon_array(epsilon)
    delta_values = _delta_target(delta)
    sensitivity_values = _integer_sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_values, delta_values, sensitivity_values)
    return neighbours, shape, e, d, s


def _roots(e, d, s, neighbours):
    """The continuous (analytic Gaussian) σ everywhere, and where it is below 5e29 the lattice root
    found from it: (σ, indices on the lattice, their roots)."""
    target = np.log(d)
    continuous = s * (SQRT2 if neighbours == "replace" else 1.0)
    start = np.atleast_1d(analytic_gaussian_sigma(e, d, continuous)).astype(np.float64)
    lattice = np.flatnonzero(start < _SIGMA_CONTINUOUS / 2.0)
    root = start[lattice]
    if lattice.size:
        el, tl, sl = e[lattice], target[lattice], s[lattice]
        bracket = _bracket(el, tl, sl, neighbours, np.maximum(start[lattice], 1e-3))
        root = _refine(el, tl, sl, neighbours, *bracket)
    return start, lattice, root


def discrete_gaussian_sigma(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1, neighbours: str = "add_remove"
) -> FloatOrArray:
    """The smallest σ from which every larger σ makes the discrete Gaussian (ε, δ)-DP, exactly.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    delta : float or array_like
        δ in [2.2e-308, 1).
    sensitivity : int or array_like of int, default 1
        Δ, a positive integer (see ``neighbours``).
    neighbours : {"add_remove", "replace"}, default "add_remove"
        ``"add_remove"``: a scalar count, or a histogram where one record changes one count by Δ
        (every dimension). ``"replace"``: a histogram where one record moves between two bins.
        For any other integer change of l2 norm ≤ Δ use
        :func:`discrete_gaussian_sigma_zcdp_bound` (a bound, not exact).

    Returns
    -------
    float or ndarray
        σ₀, the scale of ``N_Z(0, σ²)`` per coordinate, safe to round up: **every** σ ≥ σ₀ meets
        (ε, δ), proved by an upper bound on δ over intervals that cover [σ₀, σ_zCDP] and by the
        zCDP bound beyond (docs/math.md section 9.7). δ(σ) is a sawtooth on the lattice, so at
        large ε/Δ some σ below σ₀ are private too: :func:`discrete_gaussian_smallest_sigma` gives
        the smallest one and the σ above it that are not private. Where the two coincide (small
        ε/Δ), σ₀ is the smallest private σ up to the evaluator's margin
        ``1e-12 (1 + |log δ_target|)``: a σ 1e-12 lower (relative) was evaluated with ``log δ``
        above ``log δ_target`` minus that margin (as δ_target → 1 the margin exceeds
        ``1 − δ_target``, so σ₀ is private with room to spare). Otherwise σ₀ is within 1e-12 (relative) of a σ that the bound could not certify.
        Where δ is very near 1 (1 − δ below about 1e-4) the bound is too flat to certify σ near the
        root, and σ₀ errs upward (never beyond the zCDP σ): at ε = 0, δ = 1 − 1e-6, Δ = 3 it is
        0.464 where δ falls from 0.372 on.

    Raises
    ------
    ValueError
        ε < 0, δ outside [2.2e-308, 1), Δ not a positive whole number, an unknown
        ``neighbours``, or NaN/inf.
    TypeError
        For non-numeric input or a non-string ``neighbours``.

    Notes
    -----
    Solves ``log δ(ε; σ) = log δ_target`` with the exact profile of
    :func:`discrete_gaussian_log_delta` (CKS20 Thm 7, docs/math.md sections 9.5-9.6): a bracket in
    log σ grown from the continuous analytic-Gaussian σ, then Illinois regula falsi until the
    bracket is 1e-12 wide, keeping ``log δ ≤ log δ_target − 1e-12 (1 + |log δ_target|)``. From that
    root, docs/math.md section 9.7: the interval up to the zCDP σ is covered by a geometric grid,
    an upper bound on δ(σ) valid for every σ of an interval is evaluated on each, and intervals
    it cannot certify are cut in 16 until they are, or lie below a σ that is not private, or are
    1e-12 narrow; σ₀ is the top of the highest such stuck part (the root if there is none).
    Where the continuous σ exceeds 5e29, the continuous calibration itself is returned (the
    lattice changes δ by a relative O(Δ/σ) < 1e-29 there, far inside its margin).

    Examples
    --------
    >>> sigma = discrete_gaussian_sigma(1.0, 1e-5)
    >>> round(sigma, 9), discrete_gaussian_delta(1.0, sigma) <= 1e-5
    (3.740484704, True)
    >>> discrete_gaussian_sigma([0.5, 2.0], 1e-6, neighbours="replace").round(6)
    array([11.393532,  3.152331])
    >>> round(discrete_gaussian_sigma(5.0, 0.01), 4)   # σ = 0.3161 is private, σ = 0.479 is not
    0.5439
    """
    neighbours, shape, e, d, s = _calibration_inputs(epsilon, delta, sensitivity, neighbours)
    start, lattice, root = _roots(e, d, s, neighbours)
    sigma = start.copy()  # σ ≥ 1e30: the continuous calibration (see _SIGMA_CONTINUOUS)
    if lattice.size:
        sigma[lattice] = _safe_sigma(e[lattice], d[lattice], s[lattice], neighbours, root)
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


@dataclass(frozen=True)
class LatticeCalibration:
    """The discrete Gaussian's two answers at one setting (docs/math.md section 9.7).

    ``smallest_sigma`` is the smallest σ that meets (ε, δ); ``safe_sigma`` the smallest σ from
    which every larger σ meets it (what :func:`discrete_gaussian_sigma` returns). Every σ in
    (smallest, safe) that does not meet (ε, δ) lies in one of the ``not_private`` intervals
    (low, high), sorted and disjoint; a σ in them may still be private within a relative 1e-9
    of the target, so the intervals err on the side of "not private".
    """

    smallest_sigma: float
    safe_sigma: float
    not_private: tuple[tuple[float, float], ...]

    @property
    def differs(self) -> bool:
        """Whether some σ above the smallest private one are not private."""
        return self.safe_sigma > self.smallest_sigma


def discrete_gaussian_smallest_sigma(
    epsilon: float, delta: float, sensitivity: int = 1, neighbours: str = "add_remove"
) -> LatticeCalibration:
    """The smallest σ that makes the discrete Gaussian (ε, δ)-DP, with the larger σ that do not.

    Parameters
    ----------
    epsilon, delta, sensitivity, neighbours
        One setting, as in :func:`discrete_gaussian_sigma` (scalars only).

    Returns
    -------
    LatticeCalibration
        The smallest private σ (a σ 1e-12 lower, relative, is not private), the safe σ of
        :func:`discrete_gaussian_sigma`, and the intervals between them that hold every σ that
        is not private. Rounding the smallest σ up can land in one of them: use the safe σ
        unless σ is set exactly.

    Notes
    -----
    docs/math.md sections 9.5 (calibration) and 9.7. The smallest private σ: from the root, the
    lattice crossings below it are examined (δ falls steeply just before each) and the lowest
    private σ refined on its tooth. The intervals: [smallest, safe] is covered as in
    :func:`discrete_gaussian_sigma`, and each interval that the bound cannot certify is cut in
    16 until it is certified, both its ends are not private, or it is 1e-12 narrow.

    Examples
    --------
    >>> answer = discrete_gaussian_smallest_sigma(5.0, 0.01)
    >>> round(answer.smallest_sigma, 4), round(answer.safe_sigma, 4)
    (0.3161, 0.5439)
    >>> [(round(low, 3), round(high, 3)) for low, high in answer.not_private]
    [(0.33, 0.544)]
    """
    for name, value in (("epsilon", epsilon), ("delta", delta), ("sensitivity", sensitivity)):
        if np.ndim(value) != 0:
            raise ValueError(f"{name} must be a scalar here (one setting), got an array of shape {np.shape(value)}")
    neighbours, _, e, d, s = _calibration_inputs(epsilon, delta, sensitivity, neighbours)
    start, lattice, root = _roots(e, d, s, neighbours)
    if not lattice.size:
        return LatticeCalibration(float(start[0]), float(start[0]), ())
    target = np.log(d)
    smallest = _lowest_private(e, target, s, neighbours, root)
    safe = _safe_sigma(e, d, s, neighbours, root)
    intervals: list[tuple[float, float]] = []
    if safe[0] > smallest[0]:
        bound = _bound_of(e, s, neighbours)
        _, low, high = _cover.uncertified_intervals(bound, _certified_level(target), smallest, safe)
        for a, b in sorted(zip(low.tolist(), high.tolist())):
            if intervals and a <= intervals[-1][1]:
                intervals[-1] = (intervals[-1][0], max(b, intervals[-1][1]))
            else:
                intervals.append((a, b))
    return LatticeCalibration(float(smallest[0]), float(safe[0]), tuple(intervals))


# ----------------------------------------------------------------------------------------------
# General integer l2 sensitivity: the zCDP bound (docs/math.md section 9.6)
# ----------------------------------------------------------------------------------------------


def discrete_gaussian_delta_zcdp_bound(
    epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0
) -> FloatOrArray:
    """An upper **bound** on δ(ε) of the discrete Gaussian for any integer change of l2 norm ≤ Δ.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        σ > 0 (``inf`` allowed).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of the integer-valued query (√2 for a replaced histogram record,
        any ``‖v‖₂`` of an integer vector).

    Returns
    -------
    float or ndarray
        δ such that the mechanism is (ε, δ)-DP: a valid bound, not the exact profile (which
        depends on the change vector itself; the lattice is not rotation-invariant). Where
        ρ = Δ²/(2σ²) exceeds the largest double (Δ/σ > 1.3e154) it is the trivial bound 1.

    Notes
    -----
    ``N_Z(0, σ²)^d`` is ρ-zCDP with ρ = Δ²/(2σ²) for integer queries of l2 sensitivity Δ (CKS20,
    multivariate theorem), converted by CKS20 Cor. 13 (docs/math.md sections 9.2 item 3 and 9.6),
    through :func:`~gaussmech_core.gaussian.zcdp_to_delta_cks`.

    Examples
    --------
    >>> bound = discrete_gaussian_delta_zcdp_bound(1.0, 2.0, 2 ** 0.5)
    >>> exact = discrete_gaussian_delta(1.0, 2.0, neighbours="replace")
    >>> round(bound, 4), bool(exact <= bound)
    (0.0882, True)
    """
    rho = np.asarray(zcdp_rho(sigma, sensitivity))
    bounded = np.isfinite(rho)
    if np.all(bounded):
        return zcdp_to_delta_cks(rho.item() if rho.ndim == 0 else rho, epsilon)
    # ρ = Δ²/(2σ²) beyond the largest double (Δ/σ > 1.3e154): no conversion says more than δ <= 1.
    delta = np.asarray(zcdp_to_delta_cks(np.where(bounded, rho, 0.0), epsilon))
    rho_b, delta_b = np.broadcast_arrays(rho, delta)
    return scalar_or_array(np.where(np.isfinite(rho_b), delta_b, 1.0), epsilon, sigma, sensitivity)


def discrete_gaussian_sigma_zcdp_bound(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0
) -> FloatOrArray:
    """A σ that is (ε, δ)-DP for any integer change of l2 norm ≤ Δ, by the zCDP **bound**.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of the integer-valued query.

    Returns
    -------
    float or ndarray
        σ with ``Δ²/(2σ²)``-zCDP converting to (ε, δ) by CKS20 Cor. 13: sufficient, not the
        smallest; above the exact :func:`discrete_gaussian_sigma` where both apply.
        inf where that σ (proportional to Δ) exceeds the largest double.

    Notes
    -----
    docs/math.md section 9.6 (general integer query), through
    :func:`~gaussmech_core.gaussian.zcdp_cks_sigma` (the same ρ as the continuous Gaussian).

    Examples
    --------
    >>> round(discrete_gaussian_sigma_zcdp_bound(1.0, 1e-5), 3)     # exact (Thm 7): 3.738
    4.045
    """
    return zcdp_cks_sigma(epsilon, delta, sensitivity)


# ----------------------------------------------------------------------------------------------
# Distribution: pmf, moments, tails
# ----------------------------------------------------------------------------------------------


def discrete_gaussian_log_pmf(x: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """log P[X = x] for X ~ N_Z(0, σ²), with the exact normalising constant.

    Parameters
    ----------
    x : array_like
        Points; non-integer points have probability 0 (log = −inf).
    sigma : float or array_like
        σ > 0, finite.

    Returns
    -------
    float or ndarray
        ``−x²/(2σ²) − log Z(σ)`` on the integers, −inf elsewhere.

    Examples
    --------
    >>> round(discrete_gaussian_log_pmf(0, 1.0), 12)
    -0.918938538555
    """
    x_values = as_float_array(x, "x")
    require_interval(x_values, "x", allow_infinity=True)
    sigma_values = _sigma_array(sigma, allow_infinity=False)
    shape, (points, s) = _flat(x_values, sigma_values)
    s = np.maximum(s, _SIGMA_POINT)
    with np.errstate(over="ignore"):
        log_pmf = -0.5 * (points / s) ** 2 - _log_theta(s)
    log_pmf[points != np.floor(points)] = -np.inf
    return scalar_or_array(log_pmf.reshape(shape), x, sigma)


def discrete_gaussian_pmf(x: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """P[X = x] for X ~ N_Z(0, σ²) (docs/math.md section 9.5): ``exp(−x²/(2σ²))/Z(σ)`` on the integers.

    Parameters
    ----------
    x : array_like
        Points (non-integers have probability 0).
    sigma : float or array_like
        σ > 0, finite.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> grid = np.arange(-40, 41)
    >>> round(float(discrete_gaussian_pmf(grid, 3.0).sum()), 12)
    1.0
    >>> round(discrete_gaussian_pmf(1, 0.5), 6)
    0.106451
    """
    log_pmf = discrete_gaussian_log_pmf(x, sigma)
    return math.exp(log_pmf) if isinstance(log_pmf, float) else np.exp(log_pmf)


_MOMENT_Y = np.arange(-100.0, 101.0)


def _scaled_even_moments(sigma, orders):
    """E[(X/σ)^{2m}] for m in ``orders`` (Python floats), X ~ N_Z(0, σ²), σ > 0 finite (a float).

    σ < 1: direct sums over |y| ≤ 100 in log space (e^{−5000} left out; σ below 1e-100 is the
    point mass).
    σ ≥ 1: Poisson summation, Σ_y y^{2m} e^{−y²/(2σ²)} = σ√(2π) σ^{2m} Σ_k (−1)^m He_{2m}(2πkσ)
    e^{−2π²k²σ²}, k = 0 giving (2m − 1)!!; for m = 1 written as 1 − 8π²σ² Σ k² q_k/(1 + 2Σ q_k),
    without cancellation. Scaled by σ^{2m} so that nothing overflows for any finite σ.
    """
    if sigma < 1.0:
        s = max(sigma, _SIGMA_POINT)
        log_weights = -(_MOMENT_Y**2) / (2.0 * s * s)
        log_total = math.log(np.exp(log_weights).sum())  # the y = 0 term is 1
        nonzero = _MOMENT_Y != 0.0
        log_ratio = np.log(np.abs(_MOMENT_Y[nonzero]) / s)
        return [float(np.exp(log_weights[nonzero] + 2 * m * log_ratio - log_total).sum()) for m in orders]
    if sigma >= 40.0:  # e^{−2π²σ²} < 1e-13000: the Gaussian moments (2m − 1)!! exactly
        return [float(math.prod(range(1, 2 * m, 2))) for m in orders]
    k = np.arange(1.0, 4.0)
    q = np.exp(-TWO_PI_SQ * sigma * sigma * k * k)
    norm = 1.0 + 2.0 * q.sum()
    he = _hermite(2.0 * math.pi * sigma * k, 2 * max(orders) + 1)
    moments = []
    for m in orders:
        if m == 1:
            moments.append(1.0 - 8.0 * math.pi**2 * sigma**2 * float((k * k * q).sum()) / norm)
            continue
        double_factorial = float(math.prod(range(1, 2 * m, 2)))
        correction = 2.0 * (-1) ** m * float((he[2 * m] * q).sum())
        moments.append((double_factorial + correction) / norm)
    return moments


def _variance(sigma):
    """Var X for flat σ (finite): σ² E[(X/σ)²], inf where σ² overflows."""
    scaled = np.array([_scaled_even_moments(float(value), (1,))[0] for value in sigma])
    with np.errstate(over="ignore"):
        return sigma * sigma * scaled


def discrete_gaussian_variance(sigma: ArrayLike) -> FloatOrArray:
    """Var[X] for X ~ N_Z(0, σ²), exactly; strictly below σ² (CKS20).

    Parameters
    ----------
    sigma : float or array_like
        σ > 0, finite.

    Returns
    -------
    float or ndarray
        ``E[X²] = σ² (1 − 8π²σ² Σ_{k≥1} k² e^{−2π²σ²k²} / Σ_{k∈Z} e^{−2π²σ²k²})`` (σ ≥ 1, Poisson
        summation) or the direct sum (σ < 1). The deficit falls below float64's resolution of
        σ² near σ = 1.45, beyond which the correctly rounded value is σ² itself.
        inf where σ² exceeds the largest double (σ above about 1.34e154), as σ² itself.

    Notes
    -----
    docs/math.md sections 9.5-9.6 ("Var[Y_j] < σ²", computed from the theta series). The coordinate
    standard deviation for the registry is ``sqrt`` of this.

    Examples
    --------
    >>> round(discrete_gaussian_variance(1.0), 12)       # 1 − 8π² e^{−2π²}/(1 + 2e^{−2π²})
    0.999999788768
    >>> round(discrete_gaussian_variance(0.5), 6)
    0.215013
    """
    sigma_values = _sigma_array(sigma, allow_infinity=False)
    shape, (s,) = _flat(sigma_values)
    return scalar_or_array(_variance(s).reshape(shape), sigma)


def discrete_gaussian_expected_loss(sigma: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """E‖Y‖₂² for Y ~ N_Z(0, σ²)^d: ``d Var[X]`` (below d σ²).

    Parameters
    ----------
    sigma : float or array_like
        σ > 0, finite.
    dim : int or array_like of int
        d ≥ 1.

    Returns
    -------
    float or ndarray
        ``d Var[X]`` (:func:`discrete_gaussian_variance`); inf where it exceeds the largest double
        (d σ² above about 1.8e308).

    Notes
    -----
    docs/math.md section 9.6, "Moments": E‖Y‖₂² = d Var[Y₁].

    Examples
    --------
    >>> round(discrete_gaussian_expected_loss(0.5, 10), 5)
    2.15013
    """
    sigma_values = _sigma_array(sigma, allow_infinity=False)
    dims = whole_numbers(dim, "dim", 1)
    shape, (s, d) = _flat(sigma_values, dims)
    with np.errstate(over="ignore"):
        loss = d * _variance(s)
    return scalar_or_array(loss.reshape(shape), sigma, dim)


def discrete_gaussian_log_tail(t: ArrayLike, sigma: ArrayLike, inclusive: bool = False) -> FloatOrArray:
    """log P(|X| > t) (or log P(|X| ≥ t) when ``inclusive``), X ~ N_Z(0, σ²), as an exact sum.

    Parameters
    ----------
    t : float or array_like
        Thresholds (any real; ``inf`` gives −inf).
    sigma : float or array_like
        σ > 0, finite.
    inclusive : bool, default False
        False: P(|X| > t), the registry's tail. True: P(|X| ≥ t).

    Returns
    -------
    float or ndarray
        ``log(2 Σ_{y ≥ m} e^{−y²/(2σ²)} / Z(σ))`` with m the first integer counted (m ≥ 1), and
        0 where t is below the smallest counted value (every outcome counts); accurate for tails
        far below float64 (the per-coordinate log tail for error bounds).

    Notes
    -----
    docs/math.md section 9.6 ("tails P(|Y₁| > t) are exact finite sums"): direct log-sum-exp, or
    the Euler–Maclaurin form of the module notes for large σ.

    Examples
    --------
    >>> round(discrete_gaussian_log_tail(0, 1.0), 6)         # log P(X ≠ 0)
    -0.509064
    >>> round(discrete_gaussian_log_tail(40.0, 1.0), 3)
    -840.726
    """
    if not isinstance(inclusive, (bool, np.bool_)):
        raise TypeError(f"inclusive must be a bool, got inclusive={inclusive!r}")
    t_values = as_float_array(t, "t")
    require_interval(t_values, "t", allow_infinity=True)
    sigma_values = _sigma_array(sigma, allow_infinity=False)
    shape, (points, s) = _flat(t_values, sigma_values)
    first = np.ceil(points) if inclusive else np.floor(points) + 1.0  # smallest counted |y|
    out = np.zeros_like(points)
    finite = np.isfinite(first)
    out[np.isposinf(points)] = -np.inf
    counted = np.flatnonzero(finite & (first >= 1.0))
    if counted.size:
        m, sc = first[counted], np.maximum(s[counted], _SIGMA_POINT)
        plain = np.full_like(m, np.inf)
        log_one_side = _log_lattice_sum(m, plain, sc, np.ones_like(m), -plain, np.ones_like(m))
        out[counted] = np.minimum(math.log(2.0) + log_one_side - _log_theta(sc), 0.0)
    return scalar_or_array(out.reshape(shape), t, sigma)


def discrete_gaussian_tail(t: ArrayLike, sigma: ArrayLike, inclusive: bool = False) -> FloatOrArray:
    """P(|X| > t) (or P(|X| ≥ t) when ``inclusive``) for X ~ N_Z(0, σ²), as an exact sum.

    Parameters
    ----------
    t : float or array_like
        Thresholds.
    sigma : float or array_like
        σ > 0, finite.
    inclusive : bool, default False
        Count |X| = t as well.

    Returns
    -------
    float or ndarray
        ``exp(discrete_gaussian_log_tail(t, σ, inclusive))``; use the log form below 1e-300.

    Examples
    --------
    >>> round(discrete_gaussian_tail(1, 1.0), 6), round(discrete_gaussian_tail(1, 1.0, inclusive=True), 6)
    (0.117116, 0.601058)
    """
    log_tail = discrete_gaussian_log_tail(t, sigma, inclusive)
    return math.exp(log_tail) if isinstance(log_tail, float) else np.exp(log_tail)


# ----------------------------------------------------------------------------------------------
# The loss ‖Y‖₂² at dimension d: exact lattice distribution where it fits
# ----------------------------------------------------------------------------------------------

_EXACT_SUPPORT = 1 << 16  # largest support of ‖Y‖² (values 0..d K²) convolved exactly
_TRUNCATION_SIGMAS = 10.0  # |y| ≤ 10σ + 2 per coordinate: e^{−50} left out per coordinate
_MC_DRAW_BUDGET = 400_000  # Monte Carlo only while cheap (d ≤ 20 at 20 000 sums); Cornish–Fisher beyond
_MIN_MC_SAMPLES = 20_000
# Beyond the exact support, the pmf of ‖Y‖₂² on a window [0, M) by one FFT (in place of Monte Carlo)
# while M is at most this; the loss's mass beyond M is at most _WINDOW_TAIL (sub-Gaussian bound).
_WINDOW_LIMIT = 1 << 18
_WINDOW_TAIL = 1e-18


def _square_pmf(sigma):
    """pmf of X² on 0..K² (dense, zero off the squares), K = ceil(10σ) + 2."""
    top = int(math.ceil(_TRUNCATION_SIGMAS * sigma)) + 2
    y = np.arange(0, top + 1, dtype=np.float64)
    sigma = max(sigma, _SIGMA_POINT)
    with np.errstate(over="ignore"):
        probability = np.exp(-0.5 * (y / sigma) ** 2 - float(_log_theta(np.array([sigma]))[0]))
    probability[1:] *= 2.0
    pmf = np.zeros(top * top + 1)
    pmf[(y * y).astype(np.int64)] = probability
    return pmf


def _exact_loss_support(sigma, dim):
    """d (⌈10σ⌉ + 2)² + 1 values; as a float, inf where that exceeds the largest double (it is
    only compared with the exact-support limit, and shown in a message)."""
    top = math.ceil(min(_TRUNCATION_SIGMAS * sigma, 1e300)) + 2.0
    return dim * top * top + 1.0


def _loss_pmf_for_quantiles(sigma: float, dim: int, powers: list | None = None) -> np.ndarray:
    """The pmf of :func:`_loss_pmf` by FFT convolution, for quantiles at moderate levels only.

    Direct convolution costs O(n²) on supports of up to 65536 values (about 0.5 s per d on the
    accuracy page's sweep); FFT costs O(n log n) with an absolute error near 1e-16 per value, which
    moves a quantile only when its level lies within about 1e-12 of a cdf step. Deep tails
    (:func:`discrete_gaussian_norm_tail`) keep the direct, relatively exact convolution.

    ``powers`` (optional) keeps the pmfs of the sums of 1, 2, 4, ... squares between calls at one σ
    (a sweep over d), each computed as here, so a call gives the same array with or without it.
    """
    from scipy.signal import fftconvolve

    if powers is None:
        powers = []
    if not powers:
        powers.append(_square_pmf(sigma))
    result = np.array([1.0])
    bit = 0
    remaining = dim
    while remaining:
        if remaining & 1:
            result = np.clip(fftconvolve(result, powers[bit]), 0.0, None)
        remaining >>= 1
        bit += 1
        if remaining and bit == len(powers):
            powers.append(np.clip(fftconvolve(powers[-1], powers[-1]), 0.0, None))
    return result


def _loss_window(sigma: float, dim: int) -> float:
    """A length M such that ``P(‖Y‖₂² ≥ M) ≤ 1e-18`` (docs/math.md section 9.6, "Loss quantiles").

    N_Z(0, σ²) is σ²-sub-Gaussian (CKS20: E e^{tY} ≤ e^{t²σ²/2}), so, averaging e^{√(2λ) g Y} over
    a standard normal g, E e^{λY²} ≤ (1 − 2λσ²)^{−1/2}: the loss over σ² is dominated, in its
    moment generating function, by χ²_d, and Chernoff's bound gives
    P(‖Y‖₂² ≥ σ² d r) ≤ exp(−(d/2)(r − 1 − ln r)) for r > 1. M = σ² d r at the r where that is
    1e-18 (found from below by the fixed point r = 1 + c + ln r, then widened by 1 %), as a float
    (inf where it exceeds the doubles).
    """
    c = -2.0 * math.log(_WINDOW_TAIL) / dim
    r = 1.0 + c
    for _ in range(200):
        r = 1.0 + c + math.log(r)
    r *= 1.01
    if not r - 1.0 - math.log(r) >= c:  # pragma: no cover - the iteration converges from below
        raise ArithmeticError(f"no loss window found at sigma={sigma!r}, dim={dim}")
    return min(sigma * sigma, 1e300) * dim * r + 1.0


def _loss_pmf_on_window(sigma: float, dim: int, size: int) -> np.ndarray:
    """The pmf of ``‖Y‖₂²`` on 0..size−1 by one FFT: the square's pmf (:func:`_square_pmf`) raised to
    the d-th power in the frequency domain.

    The circular convolution of length n ≥ size folds the mass at n and beyond onto 0..n−1: at
    most ``P(‖Y‖₂² ≥ size)``, below 1e-18 for ``size`` from :func:`_loss_window`, far below the
    FFT's own error (about 1e-16 per value). Squares at or beyond n are left out of the base:
    they only reach losses beyond the window.
    """
    from scipy import fft

    n = fft.next_fast_len(size, real=True)
    spectrum = fft.rfft(_square_pmf(sigma)[:n], n)
    return np.clip(fft.irfft(spectrum**dim, n)[:size], 0.0, None)


def _loss_pmf(sigma, dim):
    """pmf of ‖Y‖₂² on 0..d K² by repeated squaring with direct (non-FFT) convolutions."""
    base = _square_pmf(sigma)
    result = np.array([1.0])
    power = base
    remaining = dim
    while remaining:
        if remaining & 1:
            result = np.convolve(result, power)
        remaining >>= 1
        if remaining:
            power = np.convolve(power, power)
    return result


def discrete_gaussian_norm_tail_is_exact(sigma: float, dim: int) -> bool:
    """Whether :func:`discrete_gaussian_norm_tail` can give P(‖Y‖₂ > t) exactly at (σ, d).

    Parameters
    ----------
    sigma : float
        σ > 0, finite.
    dim : int
        d ≥ 1.

    Returns
    -------
    bool
        True for d = 1 (the coordinate tail) and where the lattice support of ‖Y‖₂²,
        d (⌈10σ⌉ + 2)² + 1 values, is at most 65536; elsewhere use Monte Carlo.

    Examples
    --------
    >>> discrete_gaussian_norm_tail_is_exact(1.0, 3), discrete_gaussian_norm_tail_is_exact(50.0, 10)
    (True, False)
    """
    sigma_value = float(_sigma_array(sigma, allow_infinity=False))
    d = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    return d == 1 or _exact_loss_support(sigma_value, d) <= _EXACT_SUPPORT


def discrete_gaussian_norm_tail(t: ArrayLike, sigma: float, dim: int) -> FloatOrArray:
    """P(‖Y‖₂ > t) for Y ~ N_Z(0, σ²)^d, from the exact lattice distribution of ‖Y‖₂².

    Parameters
    ----------
    t : float or array_like
        Thresholds t (≥ 0 counts; t < 0 gives 1).
    sigma : float
        σ > 0, finite.
    dim : int
        d ≥ 1.

    Returns
    -------
    float or ndarray
        d = 1: the exact coordinate tail. d ≥ 2: the lattice pmf of ‖Y‖₂² = Σ Y_j², each
        coordinate truncated at |y| ≤ 10σ + 2 (mass left out below d·e^{−50}), by direct
        convolution (no FFT, so small tails keep their relative accuracy down to ~1e-300 of the
        truncation).

    Raises
    ------
    ValueError
        When the support of ‖Y‖₂² (d (10σ + 2)² values) exceeds 65536: use Monte Carlo with
        :func:`discrete_gaussian_sample` there (what the registry does).

    Examples
    --------
    >>> round(discrete_gaussian_norm_tail(2.0, 1.0, 3), 6)
    0.260249
    """
    sigma_value = float(_sigma_array(sigma, allow_infinity=False))
    d = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    t_values = as_float_array(t, "t")
    require_interval(t_values, "t", allow_infinity=True)
    if d == 1:
        return discrete_gaussian_tail(t, sigma_value)
    support = _exact_loss_support(sigma_value, d)
    if not discrete_gaussian_norm_tail_is_exact(sigma_value, d):
        raise ValueError(
            f"the exact norm tail needs d (10 sigma + 2)^2 <= {_EXACT_SUPPORT} lattice values, got "
            f"{support:.6g} (sigma={sigma_value!r}, dim={d}); use Monte Carlo with discrete_gaussian_sample"
        )
    pmf = _loss_pmf(sigma_value, d)
    survival = np.concatenate([np.cumsum(pmf[::-1])[::-1], [0.0]])  # survival[k] = P(L ≥ k)
    flat = t_values.ravel()
    with np.errstate(invalid="ignore", over="ignore"):
        first = np.where(flat < 0.0, 0.0, np.floor(np.square(np.maximum(flat, 0.0))) + 1.0)
    index = np.minimum(first, pmf.size).astype(np.int64)
    result = np.minimum(survival[index], 1.0)
    return scalar_or_array(result.reshape(t_values.shape), t)


def _square_cumulants(sigma):
    """The first four cumulants of (X/σ)² from the exact even moments of X/σ (orders 2 to 8)."""
    m1, m2, m3, m4 = _scaled_even_moments(sigma, (1, 2, 3, 4))
    k1 = m1
    k2 = m2 - m1 * m1
    k3 = m3 - 3.0 * m2 * m1 + 2.0 * m1**3
    k4 = m4 - 4.0 * m3 * m1 - 3.0 * m2 * m2 + 12.0 * m2 * m1 * m1 - 6.0 * m1**4
    return k1, k2, k3, k4


def _standardized_cumulants(k2: float, k3: float, k4: float, d: int) -> tuple[float, float]:
    """Skewness κ₃/(κ₂^{3/2}√d) and excess kurtosis κ₄/(κ₂²d) of a sum of d i.i.d. squares.

    Divided one factor at a time: at a small σ, κ₂ is tiny and κ₂^{3/2} or κ₂² underflows to 0
    although both ratios are finite (about κ₂^{-1/2} and κ₂^{-1}); they reach inf, the rounded
    value, only for a subnormal κ₂.
    """
    return (k3 / k2) / math.sqrt(k2) / math.sqrt(d), (k4 / k2) / k2 / d


def discrete_gaussian_loss_summary(
    sigma: float,
    dim: int,
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    n_samples: int = 100_000,
    seed: int = 0,
) -> LossSummary:
    """Summary of the loss ``‖Y‖₂²`` of discrete Gaussian noise at dimension d.

    Parameters
    ----------
    sigma : float
        σ > 0, finite.
    dim : int
        d ≥ 1.
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).
    n_samples : int, default 100_000
        Monte Carlo sums, used only where the exact lattice distribution is too large.
    seed : int, default 0
        Seed of ``numpy.random.default_rng`` for that Monte Carlo.

    Returns
    -------
    LossSummary
        Mean, standard deviation, skewness and excess kurtosis are **exact** (cumulants of X²
        from the theta-series moments, summed over d coordinates). Quantiles and median are
        exact (the lattice pmf of ‖Y‖₂², as in :func:`discrete_gaussian_norm_tail`) while its
        support fits in 65536 values (``exact=True``); beyond, while at least 20 000 sums fit in
        4e5 draws, exact on a window [0, M) holding all but 1e-18 of it (a sub-Gaussian bound)
        if it fits in 2^18 values, else Monte Carlo with the float sampler (seeded); beyond
        that, the Cornish–Fisher expansion with the exact cumulants; ``method`` says which. Entries are
        inf where the loss exceeds the largest double (σ² d beyond 1.8e308; its value rounded
        to float64).

    Notes
    -----
    docs/math.md sections 9.6 ("Moments", "Loss quantiles") and 10. The loss is integer-valued;
    its quantiles are the smallest integers with cdf ≥ level.

    Examples
    --------
    >>> summary = discrete_gaussian_loss_summary(1.0, 4)
    >>> round(summary.mean, 6), summary.median, summary.exact
    (3.999999, 3.0, True)
    """
    d = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    return _discrete_gaussian_loss_summaries(sigma, (d,), quantile_levels, n_samples, seed)[0]


def _discrete_gaussian_loss_summaries(
    sigma: float,
    dims: Sequence[int],
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    n_samples: int = 100_000,
    seed: int = 0,
) -> list[LossSummary]:
    """:func:`discrete_gaussian_loss_summary` at every d of ``dims``, one σ (the registry's
    ``loss_summary_against_dim``): the cumulants and the pmfs of sums of 1, 2, 4, ... squares are
    computed once for the sweep; each summary equals the single call at its d.
    """
    sigma_value = float(_sigma_array(sigma, allow_infinity=False))
    dim_values = [require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION) for dim in dims]
    levels = tuple(
        float(q)
        for q in require_interval(
            as_float_array(quantile_levels, "quantile_levels").ravel(),
            "quantile_levels",
            0.0,
            1.0,
            lower_open=True,
            upper_open=True,
        )
    )
    n_samples = require_integer(n_samples, "n_samples", minimum=1)
    seed = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
    k1, k2, k3, k4 = _square_cumulants(sigma_value)
    powers: list = []
    return [_loss_summary_at(sigma_value, d, levels, n_samples, seed, (k1, k2, k3, k4), powers) for d in dim_values]


def _loss_quantiles_on_window(sigma: float, d: int, wanted: np.ndarray) -> np.ndarray | None:
    """The loss quantiles from the pmf on a window holding all but 1e-18 of it, or None where that
    window is longer than 2^18 values (or, numerically, does not reach the highest level)."""
    size = _loss_window(sigma, d)
    if not size <= _WINDOW_LIMIT:
        return None
    cdf = np.cumsum(_loss_pmf_on_window(sigma, d, int(math.ceil(size))))
    total = float(np.sum(_square_pmf(sigma))) ** d  # the truncated lattice law's mass, as in the exact path
    if not cdf[-1] >= float(np.max(wanted)) * total:  # pragma: no cover - the window holds 1 - 1e-18
        return None
    return np.searchsorted(cdf, wanted * total).astype(np.float64)


def _loss_summary_at(
    sigma_value: float,
    d: int,
    levels: tuple[float, ...],
    n_samples: int,
    seed: int,
    cumulants: tuple[float, float, float, float],
    powers: list,
) -> LossSummary:
    """:func:`discrete_gaussian_loss_summary` at one d, from validated arguments and the shared work."""
    k1, k2, k3, k4 = cumulants
    wanted = np.array(levels + (0.5,))
    exact = _exact_loss_support(sigma_value, d) <= _EXACT_SUPPORT
    if exact:
        cdf = np.cumsum(_loss_pmf_for_quantiles(sigma_value, d, powers))
        values = np.searchsorted(cdf, wanted * cdf[-1]).astype(np.float64)
        method = "exact: lattice distribution of the sum of squares (FFT convolution)"
    else:
        samples = min(n_samples, _MC_DRAW_BUDGET // d)
        simulated = samples >= _MIN_MC_SAMPLES and sigma_value <= SAMPLER_SIGMA_MAX
        # Where Monte Carlo would run (small d), the exact pmf on a window is cheaper, if it is short.
        windowed = _loss_quantiles_on_window(sigma_value, d, wanted) if simulated else None
        if windowed is not None:
            exact = True
            values = windowed
            method = "exact: lattice distribution of the sum of squares (FFT on a window holding all but 1e-18)"
        elif simulated:
            rng = np.random.default_rng(seed)
            draws = discrete_gaussian_sample(rng, (samples, d), sigma_value).astype(np.float64)
            values = np.quantile(np.einsum("ij,ij->i", draws, draws), wanted)
            method = f"moments exact; quantiles by Monte Carlo (n={samples}, seed={seed}, float sampler)"
        else:
            gamma1, gamma2 = _standardized_cumulants(k2, k3, k4, d) if k2 > 0 else (0.0, 0.0)
            standardized = d * k1 + math.sqrt(d * k2) * _cornish_fisher(wanted, gamma1, gamma2)
            with np.errstate(over="ignore"):  # σ² beyond float64: inf, the loss's rounded value
                values = np.where(standardized > 0.0, sigma_value * sigma_value * standardized, 0.0)
            method = "moments exact; quantiles by the Cornish-Fisher expansion with the exact cumulants"
    degenerate = k2 <= 0.0  # σ so small that X = 0 to float precision
    skewness, excess_kurtosis = (0.0, 0.0) if degenerate else _standardized_cumulants(k2, k3, k4, d)
    if degenerate:
        method += "; the noise is 0 to float precision (skewness and kurtosis reported as 0)"
    with np.errstate(over="ignore"):
        variance_unit = np.float64(sigma_value) ** 2  # σ², inf beyond float64, which is the answer
    return LossSummary(
        mean=float(variance_unit * (d * k1)),
        median=float(values[-1]),
        quantiles=dict(zip(levels, values[:-1].tolist())),
        std=float(variance_unit * math.sqrt(d * max(k2, 0.0))),
        skewness=skewness,
        excess_kurtosis=excess_kurtosis,
        exact=exact,
        method=method,
    )


# ----------------------------------------------------------------------------------------------
# Float sampler (plots) and exact sampler (releases)
# ----------------------------------------------------------------------------------------------


def _require_generator(rng):
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got rng={rng!r}")


def discrete_gaussian_sample(rng: np.random.Generator, size: Shape, sigma: float) -> np.ndarray:
    """Draws of N_Z(0, σ²) with numpy's float generator: for plots and Monte Carlo, not releases.

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream.
    size : int or tuple of int
        Output shape, e.g. ``(n, d)`` for n noise vectors of dimension d.
    sigma : float
        0 < σ ≤ 1e15 (``SAMPLER_SIGMA_MAX``, so that draws fit in int64).

    Returns
    -------
    ndarray of int64
        Independent draws with the discrete Gaussian pmf (up to float64 rounding of the
        acceptance probabilities, which is why a real release uses
        :func:`discrete_gaussian_exact_sample`: floating-point samplers leak, Mironov 2012).

    Notes
    -----
    CKS20 Algorithm 3 vectorized with floats: ``Y = G₁ − G₂`` with G geometric of ratio
    e^{−1/t} (a discrete Laplace, t = ⌊σ⌋ + 1), accepted with probability
    ``exp(−(|Y| − σ²/t)²/(2σ²))`` (docs/math.md section 9.5); 1.3 proposals per draw for σ ≥ 2 (1.9 at
    σ = 0.5).

    Examples
    --------
    >>> draws = discrete_gaussian_sample(np.random.default_rng(0), 5, 2.0)
    >>> draws.dtype, draws.shape
    (dtype('int64'), (5,))
    """
    _require_generator(rng)
    sigma_value = float(
        require_interval(
            as_float_array(sigma, "sigma"),
            "sigma",
            0.0,
            SAMPLER_SIGMA_MAX,
            lower_open=True,
            hint="draws must fit in int64",
        )
    )
    shape = sample_shape(size)
    count = math.prod(shape)
    t = math.floor(sigma_value) + 1.0
    success = -math.expm1(-1.0 / t)
    out = np.empty(count, dtype=np.int64)
    filled = 0
    while filled < count:
        batch = int(1.4 * (count - filled)) + 16
        proposal = rng.geometric(success, batch) - rng.geometric(success, batch)
        # (distance/σ)² rather than distance²/σ²: σ² underflows to 0 below σ ≈ 1e-154, while the
        # ratio only overflows to inf where the acceptance exp(-inf) = 0 is the exact answer.
        with np.errstate(over="ignore"):
            standardized = (np.abs(proposal) - sigma_value * sigma_value / t) / sigma_value
            accept = rng.random(batch) < np.exp(-0.5 * standardized * standardized)
        kept = proposal[accept][: count - filled]
        out[filled : filled + kept.size] = kept
        filled += kept.size
    return out.reshape(shape)


class _RandomBits:
    """Uniform integers from 64-bit random words, in Python integer arithmetic.

    The words come from a numpy Generator (its full-range ``integers(0, 2**64, dtype=uint64)``,
    which is the bit generator's 64-bit output ``next_uint64`` untouched, in blocks) or from a
    ``random.Random`` instance's ``getrandbits(64)`` (e.g. ``secrets.SystemRandom()``). Not
    ``bit_generator.random_raw``: its words are 64-bit for PCG64, PCG64DXSM, Philox and SFC64
    but 32-bit for MT19937, whose top bits would always be 0.
    """

    def __init__(self, rng):
        self._source = rng
        self._words = []

    def _word(self):
        if not self._words:
            if isinstance(self._source, random.Random):
                self._words = [self._source.getrandbits(64) for _ in range(256)]
            else:
                self._words = self._source.integers(0, 2**64, size=4096, dtype=np.uint64).tolist()
                self._words.reverse()
        return self._words.pop()

    def below(self, n):
        """Uniform on {0, …, n − 1} by rejection from the next k = bit_length(n − 1) bits."""
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            value = 0
            needed = bits
            while needed > 0:
                take = min(needed, 64)
                value = (value << take) | (self._word() >> (64 - take))
                needed -= take
            if value < n:
                return value


def _bernoulli_exp_minus_fraction(bits, numerator, denominator):
    """Bernoulli(exp(−γ)), γ = numerator/denominator ≥ 0 (CKS20 Algorithm 1), integers only."""
    whole, numerator = divmod(numerator, denominator)
    for _ in range(whole):
        if not _bernoulli_exp_minus_unit(bits, 1, 1):
            return False
    return _bernoulli_exp_minus_unit(bits, numerator, denominator)


def _bernoulli_exp_minus_unit(bits, numerator, denominator):
    """Bernoulli(exp(−γ)) for γ = numerator/denominator in [0, 1]: draw Bernoulli(γ/k) for
    k = 1, 2, … until the first failure; 1 iff k is odd there (an even number of successes)."""
    k = 1
    while bits.below(denominator * k) < numerator:
        k += 1
    return k % 2 == 1


def _discrete_laplace(bits, t):
    """P[Y = y] ∝ exp(−|y|/t) for a positive integer t (CKS20 Algorithm 2)."""
    while True:
        u = bits.below(t)
        if not _bernoulli_exp_minus_unit(bits, u, t):
            continue
        v = 0
        while _bernoulli_exp_minus_unit(bits, 1, 1):
            v += 1
        magnitude = u + t * v
        negative = bits.below(2) == 1
        if negative and magnitude == 0:
            continue
        return -magnitude if negative else magnitude


def _exact_discrete_gaussian(bits, p, q, t):
    """One draw of N_Z(0, p/q) (CKS20 Algorithm 3), t = ⌊√(p/q)⌋ + 1."""
    while True:
        y = _discrete_laplace(bits, t)
        # γ = (|y| − σ²/t)²/(2σ²) = (|y| q t − p)² / (2 p q t²).
        gap = abs(y) * q * t - p
        if _bernoulli_exp_minus_fraction(bits, gap * gap, 2 * p * q * t * t):
            return y


def _rational(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an int, a Fraction or a float, got {name}={value!r}")
    if isinstance(value, numbers.Rational):
        fraction = Fraction(int(value.numerator), int(value.denominator))
    else:
        if not math.isfinite(float(value)):
            raise ValueError(f"{name} must be finite and in (0, inf), got {name}={value!r}")
        fraction = Fraction(float(value))
    if fraction <= 0:
        raise ValueError(f"{name} must be in (0, inf), got {name}={value!r}")
    return fraction


def discrete_gaussian_exact_sample(
    sigma_squared: numbers.Real,
    size: Shape | None = None,
    rng: np.random.Generator | random.Random | int | None = None,
) -> int | np.ndarray:
    """Exact draws of N_Z(0, σ²) with integer and rational arithmetic only (CKS20 Algorithms 1-3).

    Parameters
    ----------
    sigma_squared : int, Fraction or float
        σ², a positive rational (a float is taken at its exact binary value).
    size : int or tuple of int, optional
        Output shape; ``None`` returns one Python ``int``.
    rng : numpy.random.Generator, int, random.Random or None, optional
        The source of uniform bits: a numpy Generator on any of numpy's bit generators (PCG64,
        PCG64DXSM, MT19937, Philox, SFC64; its 64-bit words are used, no floats), an int seed for ``numpy.random.default_rng`` (reproducible draws, e.g. for the
        teaching pages), a ``random.Random`` instance (its ``getrandbits``; pass
        ``secrets.SystemRandom()`` for a real release, since numpy's generators are not
        cryptographic), or ``None`` for ``numpy.random.default_rng()`` seeded from OS entropy.

    Returns
    -------
    int or ndarray of int64

    Raises
    ------
    TypeError
        For a non-numeric σ² or an rng of another type.
    ValueError
        For σ² ≤ 0, not finite or above ``SAMPLER_SIGMA_MAX² = 1e30`` (draws beyond int64), or a
        negative size.

    Notes
    -----
    docs/math.md section 9.5, "Exact sampler outline": Bernoulli(exp(−γ)) by the alternating series
    (Algorithm 1), the discrete Laplace of integer scale t = ⌊σ⌋ + 1 (Algorithm 2), and
    rejection to the discrete Gaussian with acceptance exp(−(|Y| − σ²/t)²/(2σ²)) (Algorithm 3).
    Every comparison is between integers; nothing is rounded, so the draws have exactly the
    pmf of :func:`discrete_gaussian_pmf` given ideal uniform bits. About 8 µs per draw at
    σ² = 4 (``benchmarks/bench_discrete_gaussian.py``).

    Examples
    --------
    >>> from fractions import Fraction
    >>> discrete_gaussian_exact_sample(Fraction(9, 4), size=6, rng=7).tolist()
    [1, -2, 0, 0, -1, 0]
    """
    fraction = _rational(sigma_squared, "sigma_squared")
    if fraction > Fraction(SAMPLER_SIGMA_MAX**2):  # the float 1e30, as its message says
        raise ValueError(
            f"sigma_squared must be in (0, {SAMPLER_SIGMA_MAX**2:g}] so that the draws fit in int64 "
            f"(σ ≤ SAMPLER_SIGMA_MAX), got sigma_squared="
            + (f"{float(fraction):g}" if fraction < Fraction(2) ** 1023 else "a number beyond 1e308")
        )
    generator: np.random.Generator | random.Random
    if rng is None:
        generator = np.random.default_rng()
    elif isinstance(rng, (np.random.Generator, random.Random)):
        generator = rng
    elif isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)):
        generator = np.random.default_rng(require_integer(rng, "rng", minimum=0))
    else:
        raise TypeError(f"rng must be a numpy.random.Generator, an int seed, a random.Random or None, got rng={rng!r}")
    p, q = fraction.numerator, fraction.denominator
    t = math.isqrt(p * q) // q + 1
    bits = _RandomBits(generator)
    if size is None:
        return _exact_discrete_gaussian(bits, p, q, t)
    shape = sample_shape(size)
    count = math.prod(shape)
    draws = [_exact_discrete_gaussian(bits, p, q, t) for _ in range(count)]
    return np.array(draws, dtype=np.int64).reshape(shape)
