"""The Gaussian family: exact privacy profile, calibrations, privacy loss, zCDP/GDP and tails.

Everything here is about the mechanism ``M(x) = f(x) + N(0, σ² I_d)`` with l2 sensitivity ``Δ``
(``sensitivity``). Its privacy is governed by one number, the Gaussian-DP parameter ``μ = Δ/σ``
(docs/math.md sections 2.1, 9.3): the privacy profile (the smallest δ for each ε, Balle & Wang 2018, Thm 8) is

    δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ),        ε ≥ 0,

strictly increasing in μ and decreasing in ε; the dimension d does not enter.

Numerics (docs/math.md section 2.3). With ``a = μ/2 − ε/μ``, ``b = a − μ`` and ``x₁ = −a/√2``, ``x₂ = −b/√2``,
the identity ``b² − a² = 2ε`` gives ``e^ε Φ(b) = ½ e^{−a²/2} erfcx(x₂)``, so

* for ``a < 0``: ``δ = ½ e^{−a²/2} [erfcx(x₁) − erfcx(x₂)]``, evaluated as a logarithm;
* for ``a ≥ 0``: ``δ = ½ erf(a/√2) + (½ − e^ε Φ(b))``, a sum of two non-negative terms.

No ``exp(ε)`` is ever formed, and ``log δ`` is exact far below the float64 range (``log δ`` of
−1800, i.e. δ = 1e-800, is fine). The one delicate spot is the difference of the two ``erfcx``
values when ``x₂ − x₁ = μ/√2`` is small next to the scale on which ``erfcx`` varies (ε tiny and
δ tiny: at ε = 1e-6, δ = 1e-300 the two values agree to 9 digits). There we compute

    log(erfcx(x₂)/erfcx(x₁)) = ∫_{x₁}^{x₂} g(t) dt,      g = (log erfcx)' = 2t − 2/(√π erfcx(t)),

by 4-point Gauss–Legendre quadrature (used where ``μ/√2 ≤ 0.1/max(1, x₁)``), which has no
cancellation; ``g`` itself loses only ``O(t²)`` ulps, the same order as the float64 spacing of
``log δ ≈ −t²`` there, and for ``t ≥ 100`` it is taken from the continued fraction of ``erfc``.
At ε = 1e-6, δ = 1e-300 this gives log δ to 4e-14 absolute (the spacing of floats near −690 is
1.1e-13), against 1.2e-7 for the plain erfcx difference and 3.5e-5 for a ``log_ndtr``-based
log-diff-exp (what Google's dp_accounting does), which keeps the same cancellation inside
``log Φ(b) − log Φ(a)``. In σ that is 1e-16 instead of 1e-10 or 3e-8. Measured against mpmath
over the calibration domain: ``|error in log δ| ≤ 1.5e-15 (1 + |log δ|)``.

Calibration (:func:`analytic_gaussian_sigma`) solves ``log δ(ε; e^t) = log δ_target`` for
``t = log μ`` by Halley's method (the derivatives are analytic: ``d δ/d μ = φ(a)``) from the
best of two closed-form private starting points (the tail bound and the ε = 0 calibration), then
verifies the returned σ with the same evaluator that :func:`gaussian_log_delta` uses and moves
it up (``np.nextafter``) until the achieved δ is below the target by a margin that covers the
evaluator's rounding error. So the achieved δ never exceeds the target.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._types import ArrayLike, FloatOrArray
from ._validation import (
    as_float_array,
    broadcast,
    epsilon_array,
    overflow_is_inf,
    require_interval,
    scalar_or_array,
    whole_numbers,
)

__all__ = [
    "gaussian_log_delta",
    "gaussian_delta",
    "gaussian_epsilon",
    "analytic_gaussian_sigma",
    "classical_gaussian_sigma",
    "delta_zero",
    "zero_epsilon_gaussian_sigma",
    "theorem2_gaussian_sigma",
    "low_privacy_sigma_bound",
    "gaussian_privacy_loss",
    "privacy_loss_masses",
    "tail_bound_gaussian_sigma",
    "pdp_gaussian_sigma",
    "zcdp_rho",
    "zcdp_to_epsilon_bun_steinke",
    "zcdp_to_delta_cks",
    "zcdp_to_epsilon_cks",
    "zcdp_bun_steinke_sigma",
    "zcdp_cks_sigma",
    "vinterbo_gaussian_sigma",
    "gdp_mu",
    "gaussian_tradeoff",
    "gaussian_loss_quantile",
    "gaussian_norm_tail",
    "gaussian_coordinate_tail",
    "gaussian_log_coordinate_tail",
    "DELTA_MIN",
    "EPSILON_MAX",
]

DELTA_MIN = float(np.finfo(float).tiny)  # smallest normal float64, 2.2e-308
EPSILON_MAX = 1e20  # largest ε for analytic_gaussian_sigma (see its Raises section)

SQRT2 = math.sqrt(2.0)
SQRT_PI = math.sqrt(math.pi)
LOG2 = math.log(2.0)
LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
ULP = 2.0**-52

# Largest μ we represent (δ(ε; μ) is 1 to the last bit long before) and the |a| beyond which
# a² overflows; log δ < -5e299 there and is returned as -inf.
_MU_CAP = 1e300
_A_CAP = 1e150
# Beyond |a| = _A_SLOPE the slope q is taken from its asymptotic form |a b| (see _slope): the
# rounding of a²/2 in log μ − a²/2 − log δ would cost 1e-8 × a² absolute (and q = e^{that}).
_A_SLOPE = 1e4

# Quadrature of g on [x₁, x₂] is used where the two erfcx values are close (see module notes).
_QUAD_WIDTH = 0.1
_QUAD_FAR = 1e3
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(4)
_GL_NODES_CHEAP, _GL_WEIGHTS_CHEAP = np.polynomial.legendre.leggauss(2)
_GL_ACCURATE = tuple(zip(((1.0 + _GL_NODES) / 2).tolist(), (_GL_WEIGHTS / 2).tolist()))
_GL_CHEAP = tuple(zip(((1.0 + _GL_NODES_CHEAP) / 2).tolist(), (_GL_WEIGHTS_CHEAP / 2).tolist()))
_G_ASYMPTOTIC = 100.0

# The error of the log δ evaluator against mpmath, in units of (1 + |log δ| + slope), where the
# slope term (slope = q = d log δ / d log μ) covers the rounding of μ = Δ/σ and of a = μ/2 − ε/μ:
# the largest measured is 1.55e-15 (20,000 random points, ε in [1e-6, 1e3], Δ in [1e-3, 1e3], σ
# near the calibrations and out to 1e30; the worst where erfcx(x₁) − erfcx(x₂) loses three bits
# just outside the quadrature's range). tests/core/test_gaussian.py checks this bound.
_LOG_DELTA_ERROR = 1.6e-15
# The calibration keeps log δ(σ) ≤ log δ_target − margin, margin = _MARGIN (1 + |log δ| + slope):
# six times the evaluator's error bound; it costs ~1e-14 relative in σ.
_MARGIN = 1e-14
# What gaussian_log_delta reports is raised by _REPORT_MARGIN (1 + |log δ| + slope), 2.5 times
# the error bound, so a reported δ is never below the exact one; the calibration's margin exceeds
# this plus the error bound, so a calibrated σ still reports δ(σ) <= δ_target.
_REPORT_MARGIN = 4e-15


# ----------------------------------------------------------------------------------------------
# The privacy profile in log space
# ----------------------------------------------------------------------------------------------


def _g_array(t):
    """g(t) = d/dt log erfcx(t) for t ≥ 0 (negative); continued fraction of erfc for large t."""
    g = 2.0 * t - 2.0 / (SQRT_PI * special.erfcx(t))
    large = t >= _G_ASYMPTOTIC
    if large.any():
        u = t[large]
        # erfc(u) = e^{-u²}/√π · 1/(u + ½/(u + 1/(u + (3/2)/(u + 2/(u + ...))))) gives
        # g(u) = −1/(u + 1/(u + (3/2)/(u + 2/(u + (5/2)/u)))) to < 1e-19 relative for u ≥ 100.
        g[large] = -1.0 / (u + 1.0 / (u + 1.5 / (u + 2.0 / (u + 2.5 / u))))
    return g


_scipy_erfcx = special.erfcx


def _erfcx(x):
    """scipy's erfcx as a Python float (numpy scalars make the arithmetic after them ~5x slower)."""
    return float(_scipy_erfcx(x))


def _g_scalar(t):
    if t >= _G_ASYMPTOTIC:
        return -1.0 / (t + 1.0 / (t + 1.5 / (t + 2.0 / (t + 2.5 / t))))
    return 2.0 * t - 2.0 / (SQRT_PI * _erfcx(t))


def _split(mask):
    """Indices where ``mask`` holds and where it does not (integer indexing is ~10x faster)."""
    inside = np.flatnonzero(mask)
    return inside, np.flatnonzero(~mask) if 0 < inside.size < mask.size else None


def _log_delta_negative_a(a, mu, accurate):
    """log δ for a < 0 (arrays): ½ e^{−a²/2} [erfcx(x₁) − erfcx(x₂)]."""
    x1 = -a / SQRT2
    h = mu / SQRT2
    if a.size and a.min() < -_A_CAP:
        out = np.full_like(a, -np.inf)
        near = np.flatnonzero(a >= -_A_CAP)
        out[near] = _log_delta_negative_a(a[near], mu[near], accurate)
        return out
    quad = (h <= _QUAD_WIDTH / np.maximum(1.0, x1)) | ((x1 > _QUAD_FAR) & (h <= _QUAD_WIDTH * x1))
    inside, outside = _split(quad)
    if outside is None:
        return _log_delta_quadrature(a, x1, h, accurate) if inside.size else _log_delta_difference(a, x1, h)
    out = np.empty_like(a)
    out[inside] = _log_delta_quadrature(a.take(inside), x1.take(inside), h.take(inside), accurate)
    out[outside] = _log_delta_difference(a.take(outside), x1.take(outside), h.take(outside))
    return out


def _log_delta_difference(a, x1, h):
    """−a²/2 + log(erfcx(x₁) − erfcx(x₁ + h)) − log 2, where the two values differ enough."""
    return np.log(special.erfcx(x1) - special.erfcx(x1 + h)) - 0.5 * a * a - LOG2


def _log_delta_quadrature(a, x1, h, accurate):
    """log Φ(a) + log(1 − erfcx(x₂)/erfcx(x₁)), the log-ratio by Gauss–Legendre on g (no cancellation)."""
    nodes = _GL_ACCURATE if accurate else _GL_CHEAP
    integral = sum(weight * _g_array(x1 + node * h) for node, weight in nodes)  # < 0
    r = integral * h  # log(erfcx(x₂)/erfcx(x₁)), small here
    # log Φ(a) = −x₁² + log(erfcx(x₁)/2); log(−expm1(r)) directly unless r is denormal-small,
    # where −expm1(r) = −r to the last bit and log(−r) = log(−integral) + log h cannot underflow.
    log_phi = np.log(special.erfcx(x1)) - x1 * x1 - LOG2
    tiny = r > -1e-290
    log_one_minus = np.log(-np.expm1(np.minimum(r, -1e-290)))
    if tiny.any():
        log_one_minus[tiny] = np.log(-integral[tiny]) + np.log(h[tiny])
    return log_phi + log_one_minus


def _log_delta_positive_a(a, mu, epsilon, ratio):
    """log δ for a ≥ 0 (arrays): ½ erf(a/√2) + (½ − e^ε Φ(b)), both terms ≥ 0."""
    half_b = 0.5 * mu + ratio  # = −b
    first = 0.5 * special.erf(a / SQRT2)
    second = np.empty_like(a)
    small = epsilon <= 1.0
    if small.any():
        # ½ − e^ε Φ(b) = ½ erf(−b/√2) − (e^ε − 1) Φ(b): the subtracted part is < 1/3 of the first.
        e, hb = epsilon[small], half_b[small]
        second[small] = 0.5 * special.erf(hb / SQRT2) - np.expm1(e) * special.ndtr(-hb)
    large = ~small
    if large.any():
        # e^ε Φ(b) = ½ e^{−a²/2} erfcx(x₂) ≤ ½ − δ₀(1) < 0.22 here: 1 − 2 e^ε Φ(b) has no cancellation.
        al = np.minimum(a[large], _A_CAP)
        second[large] = -0.5 * np.expm1(-0.5 * al * al + np.log(special.erfcx(half_b[large] / SQRT2)))
    total = first + second
    positive = total > 0.0
    if positive.all():
        return np.log(total)
    # Only ε = 0 with μ below ~1e-300: δ = erf(μ/(2√2)) = μ/√(2π) (1 − O(μ²)).
    out = np.log(mu) - LOG_SQRT_2PI
    out[positive] = np.log(total[positive])
    return out


def _log_one_minus_delta_positive_a(a, half_b):
    """log(1 − δ) for a ≥ 0: 1 − δ = Φ(−a) + e^ε Φ(b) = ½ e^{−a²/2} [erfcx(a/√2) + erfcx(−b/√2)]."""
    a_clipped = np.minimum(a, _A_CAP)
    return np.log(special.erfcx(a / SQRT2) + special.erfcx(half_b / SQRT2)) - 0.5 * a_clipped * a_clipped - LOG2


def _profile(epsilon, mu, accurate=True, complement=False):
    """(ℓ, a, ε/μ) for flat float arrays, ε ≥ 0 finite, 0 < μ ≤ _MU_CAP.

    ℓ = log δ(ε; μ), or log(1 − δ(ε; μ)) when ``complement`` (the well-conditioned quantity for
    δ near 1, where log δ ≈ −(1 − δ) carries no relative accuracy).
    """
    # ε/μ is capped at 1e300: beyond it a < −1e150 and log δ is −inf anyway.
    ratio = epsilon / np.maximum(mu, epsilon * 1e-300)
    a = 0.5 * mu - ratio

    def below(a, mu):  # a < 0: δ < ½, so log(1 − δ) = log1p(−δ) is accurate
        log_delta = _log_delta_negative_a(a, mu, accurate)
        return np.log1p(-np.exp(log_delta)) if complement else log_delta

    def above(a, mu, epsilon, ratio):
        if complement:
            return _log_one_minus_delta_positive_a(a, 0.5 * mu + ratio)
        return _log_delta_positive_a(a, mu, epsilon, ratio)

    negative, positive = _split(a < 0.0)
    if positive is None:
        return (below(a, mu) if negative.size else above(a, mu, epsilon, ratio)), a, ratio
    out = np.empty_like(mu)
    out[negative] = below(a.take(negative), mu.take(negative))
    out[positive] = above(a.take(positive), mu.take(positive), epsilon.take(positive), ratio.take(positive))
    return out, a, ratio


def _log_profile_array(epsilon, mu, accurate=True, complement=False):
    """ℓ of :func:`_profile` for any μ ≥ 0, including μ = 0 (δ = 0) and μ = inf (δ = 1)."""
    regular = (mu > 0.0) & (mu < np.inf)
    if regular.all():
        return _profile(epsilon, mu, accurate, complement)[0]
    zero, one = (0.0, -np.inf) if complement else (-np.inf, 0.0)
    out = np.where(mu > 0.0, one, zero)
    out[regular] = _profile(epsilon[regular], mu[regular], accurate, complement)[0]
    return out


def _log_delta_array(epsilon, mu, accurate=True):
    """log δ(ε; μ) for flat float arrays, ε ≥ 0 finite, 0 ≤ μ ≤ _MU_CAP or μ = inf."""
    return _log_profile_array(epsilon, mu, accurate)


def _log_delta_scalar(epsilon, mu, accurate=True, complement=False):
    """The same evaluation as :func:`_log_profile_array`, for Python floats (fast scalar path)."""
    if mu == 0.0:
        return 0.0 if complement else -math.inf
    if mu == math.inf:
        return -math.inf if complement else 0.0
    return _profile_scalar(epsilon, mu, accurate, complement)[0]


def _profile_scalar(epsilon, mu, accurate, complement):
    """(ℓ, a, ε/μ) as :func:`_profile` returns them, for Python floats with 0 < μ ≤ _MU_CAP."""
    ratio = epsilon / (mu if mu > epsilon * 1e-300 else epsilon * 1e-300)
    a = 0.5 * mu - ratio
    if a < 0.0:
        log_delta = _log_delta_negative_a_scalar(a, mu, accurate)
        return (math.log1p(-math.exp(log_delta)) if complement else log_delta), a, ratio
    half_b = 0.5 * mu + ratio
    a_clipped = a if a < _A_CAP else _A_CAP
    if complement:
        return math.log(_erfcx(a / SQRT2) + _erfcx(half_b / SQRT2)) - 0.5 * a_clipped * a_clipped - LOG2, a, ratio
    first = 0.5 * math.erf(a / SQRT2)
    if epsilon <= 1.0:
        second = 0.5 * math.erf(half_b / SQRT2) - math.expm1(epsilon) * 0.5 * math.erfc(half_b / SQRT2)
    else:
        second = -0.5 * math.expm1(-0.5 * a_clipped * a_clipped + math.log(_erfcx(half_b / SQRT2)))
    total = first + second
    return (math.log(total) if total > 0.0 else math.log(mu) - LOG_SQRT_2PI), a, ratio


def _log_delta_negative_a_scalar(a, mu, accurate):
    if a < -_A_CAP:
        return -math.inf
    x1 = -a / SQRT2
    h = mu / SQRT2
    if h <= _QUAD_WIDTH / (x1 if x1 > 1.0 else 1.0) or (x1 > _QUAD_FAR and h <= _QUAD_WIDTH * x1):
        integral = 0.0
        for node, weight in _GL_ACCURATE if accurate else _GL_CHEAP:
            t = x1 + node * h
            if t < _G_ASYMPTOTIC:  # g(t) inline: this loop is the scalar path's hot spot
                integral += weight * (2.0 * t - 2.0 / (SQRT_PI * float(_scipy_erfcx(t))))
            else:
                integral += weight * _g_scalar(t)
        r = integral * h
        log_phi = math.log(_erfcx(x1)) - x1 * x1 - LOG2
        if r > -1e-290:
            return log_phi + math.log(-integral) + math.log(h)
        return log_phi + math.log(-math.expm1(r))
    return math.log(_erfcx(x1) - _erfcx(x1 + h)) - 0.5 * a * a - LOG2


def _unit_mu(sigma, sensitivity):
    """μ = Δ/σ without overflow (capped at 1e300, where δ = 1 to the last bit); 0 for σ = inf."""
    return sensitivity / np.maximum(sigma, sensitivity / _MU_CAP)


def _unit_mu_scalar(sigma, sensitivity):
    return sensitivity / max(sigma, sensitivity / _MU_CAP)


def _slope(log_mu, a, ell):
    """q = μ φ(a) / e^ℓ: d log δ / d log μ (ℓ = log δ) or −d log(1 − δ)/d log μ (ℓ = log(1 − δ)).

    Both follow from dδ/dμ = φ(a), which is eq. (6) differentiated with e^ε φ(b) = φ(a). Where ℓ
    is the tail side (ℓ ≈ −a²/2, |a| ≥ _A_SLOPE) the exponent log μ − a²/2 − ℓ cancels, so q is
    taken from its asymptotic form |a b| (docs/math.md section 2.3) instead.
    """
    a_clipped = np.clip(a, -_A_CAP, _A_CAP)
    exponent = log_mu - 0.5 * a_clipped * a_clipped - LOG_SQRT_2PI - np.maximum(ell, -1e300)
    q = np.exp(np.minimum(exponent, 700.0))
    tail = (np.abs(a) >= _A_SLOPE) & (ell < -1.0)
    if tail.any():
        q[tail] = _tail_slope(a[tail], np.exp(log_mu[tail]))
    return q


def _tail_slope(a, mu):
    """q = |a b| (1 + 2/a²) for |a| ≥ _A_SLOPE on the tail side, b = a − μ (docs/math.md section 2.3).

    With erfcx(x) = (1 − 1/(2x²) + O(x⁻⁴))/(√π x): for a < 0, q = μ√(2/π)/(erfcx(x₁) − erfcx(x₂));
    for a > 0 (ℓ = log(1 − δ)), q = μ√(2/π)/(erfcx(a/√2) + erfcx(−b/√2)); both are |a b| to
    relative O(1/a²), which the factor 1 + 2/a² rounds up. |a b| is capped at 1e300.
    """
    a_clipped = np.clip(a, -_A_CAP, _A_CAP)
    b_clipped = np.clip(a - mu, -_A_CAP, _A_CAP)
    return np.abs(a_clipped * b_clipped) * (1.0 + 2.0 / (a_clipped * a_clipped))


def _slope_scalar(log_mu, a, ell):
    if ell < -1.0 and not -_A_SLOPE < a < _A_SLOPE:
        return float(_tail_slope(np.array([a]), np.array([math.exp(log_mu)]))[0])
    if not -_A_CAP <= a <= _A_CAP or ell < -1e300:  # only far outside any calibration
        a, ell = min(max(a, -_A_CAP), _A_CAP), max(ell, -1e300)
    exponent = log_mu - 0.5 * a * a - LOG_SQRT_2PI - ell
    return math.exp(exponent if exponent < 700.0 else 700.0)


# ----------------------------------------------------------------------------------------------
# Calibration: the smallest σ with δ(ε; Δ/σ) ≤ δ_target
# ----------------------------------------------------------------------------------------------
#
# We solve F(t) = F_target in t = log μ, with F increasing in t:
#   δ_target ≤ ½ ("lower"):  F = log δ,          F' = q = μφ(a)/δ,      F'' = q (1 − a a' − q);
#   δ_target > ½ ("upper"):  F = −log(1 − δ),    F' = q = μφ(a)/(1 − δ), F'' = q (1 − a a' + q);
# with a' = da/dt = μ/2 + ε/μ. The requirement δ(σ) ≤ δ_target is F(σ) ≤ F_target in both cases.


def _private_start_mu(epsilon, delta):
    """A μ that is provably private, and close: the larger of the tail-bound and ε = 0 solutions.

    * Tail bound (docs/math.md sections 2.3-2.4): δ(ε; μ) ≤ Φ(a(μ)), and Φ(a(μ₀)) = δ at μ₀ = z + √(z² + 2ε),
      z = Φ⁻¹(δ) (written as 2ε/(√(z²+2ε) − z) when z < 0, to avoid cancellation).
    * ε = 0 (docs/math.md section 3): δ(ε; μ) ≤ δ(0; μ) = erf(μ/(2√2)), equal to δ at μ = 2√2 erfinv(δ).
    """
    z = special.ndtri(delta)
    root = SQRT2 * np.sqrt(epsilon + 0.5 * z * z)
    tail = np.empty_like(delta)
    below, above = _split(z < 0.0)
    if above is None:
        tail = epsilon / (0.5 * (root - z)) if below.size else z + root
    else:
        tail[below] = epsilon.take(below) / (0.5 * (root.take(below) - z.take(below)))
        tail[above] = z.take(above) + root.take(above)
    return np.maximum(tail, 2.0 * SQRT2 * special.erfinv(delta))


def _private_start_mu_scalar(epsilon, delta):
    z = float(special.ndtri(delta))
    root = SQRT2 * math.sqrt(epsilon + 0.5 * z * z)
    tail = epsilon / (0.5 * (root - z)) if z < 0.0 else z + root
    total_variation = 2.0 * SQRT2 * float(special.erfinv(delta))
    return tail if tail > total_variation else total_variation


_HALLEY_STEPS = 3  # from the private start, 3 steps reach ~1e-11 in log μ over ε ∈ [1e-6, 1e3]
_VERIFY_ROUNDS = 8
_T_MAX = math.log(_MU_CAP)


def _margin(target, slope):
    return _MARGIN * (1.0 + np.abs(target) + slope)


def _target(delta, upper):
    """F_target: log δ, or −log(1 − δ) (exact: 1 − δ is exact in float64 for δ ≥ ½)."""
    return -np.log1p(-delta) if upper else np.log(delta)


def _halley_step(epsilon, t, target, t_floor, accurate, upper):
    """One Halley step on F(t) − (F_target − 1.5 margin): (f/q) / (1 − f F''/(2q²)), clipped."""
    mu = np.exp(t)
    ell, a, ratio = _profile(epsilon, mu, accurate, complement=upper)
    q = np.maximum(_slope(t, a, ell), 1e-100)  # q < 1e-100: flat, the clip below decides
    f = (-ell if upper else ell) - (target - 1.5 * _margin(target, q))
    curvature = 1.0 - a * (0.5 * mu + ratio) + (q if upper else -q)
    halley = f / (2.0 * q) * curvature
    step = f / q / (1.0 - np.clip(halley, -1.0, 0.5))
    return np.clip(t - np.clip(step, -3.0, 3.0), t_floor, _T_MAX)


def _halley_step_scalar(epsilon, t, target, t_floor, accurate, upper):
    mu = math.exp(t)
    ell, a, ratio = _profile_scalar(epsilon, mu, accurate, upper)
    q = _slope_scalar(t, a, ell)
    q = q if q > 1e-100 else 1e-100
    f = (-ell if upper else ell) - (target - 1.5 * _MARGIN * (1.0 + abs(target) + q))
    halley = f / (2.0 * q) * (1.0 - a * (0.5 * mu + ratio) + (q if upper else -q))
    step = f / q / (1.0 - (-1.0 if halley < -1.0 else 0.5 if halley > 0.5 else halley))
    step = -3.0 if step < -3.0 else 3.0 if step > 3.0 else step
    t = t - step
    return t_floor if t < t_floor else _T_MAX if t > _T_MAX else t


def _check(epsilon, sigma, sensitivity, target, upper):
    """(F at σ as gaussian_log_delta computes it, the bound F_target − margin, slope q)."""
    mu = _unit_mu(sigma, sensitivity)
    ell = _log_profile_array(epsilon, mu, True, complement=upper)
    q = np.zeros_like(mu)
    positive = mu > 0.0  # μ = 0 (σ = inf): δ = 0, nothing to check
    e, m, el = (epsilon, mu, ell) if positive.all() else (epsilon[positive], mu[positive], ell[positive])
    q[positive] = _slope(np.log(m), 0.5 * m - e / np.maximum(m, e * 1e-300), el)
    return (-ell if upper else ell), target - _margin(target, q), q


def _verified_sigma(epsilon, target, sigma, sensitivity, upper):
    """Move σ until F(ε; Δ/σ) lies in [bound − 1.5 m, bound], bound = F_target − m.

    m is the rounding margin. Each round is a Newton step in log σ (slope q) towards
    F_target − 1.5 m, evaluated with exactly what :func:`gaussian_log_delta` computes; an unsafe
    σ always moves up by at least one ulp. So the returned σ is verified, not assumed.
    """
    pending = np.arange(sigma.size)
    for _ in range(_VERIFY_ROUNDS):
        s, e, d, ft = sigma[pending], epsilon[pending], sensitivity[pending], target[pending]
        value, bound, q = _check(e, s, d, ft, upper)
        margin = ft - bound
        unsafe = value > bound
        # q = 0: σ = inf (δ = 0) or δ = 1 to the last bit; nothing to gain by moving a safe σ there.
        move = unsafe | ((value < bound - 1.5 * margin) & (q > 0.0))
        if not move.any():
            return sigma
        pending = pending[move]
        s, q, unsafe = s[move], np.maximum(q[move], 1e-100), unsafe[move]
        step = (value[move] - (ft[move] - 1.5 * margin[move])) / q
        moved = np.maximum(s * np.exp(np.clip(step, -50.0, 50.0)), 5e-324)
        moved[unsafe] = np.maximum(moved[unsafe], np.nextafter(s[unsafe], np.inf))
        sigma[pending] = moved
    return _doubled_until_private(epsilon, target, sigma, sensitivity, pending, upper)


def _doubled_until_private(epsilon, target, sigma, sensitivity, pending, upper):
    """Last resort after the Newton rounds: double σ until verified (at worst σ = inf).

    Only reached where σ or Δ is subnormal, so that σ has too few bits for the Newton moves;
    the tests check that it is never reached on the calibration domain.
    """
    for _ in range(2100):  # 2^2100 × 5e-324 overflows: the loop always ends
        value, bound, _ = _check(epsilon[pending], sigma[pending], sensitivity[pending], target[pending], upper)
        unsafe = value > bound
        if not unsafe.any():
            return sigma
        pending = pending[unsafe]
        with np.errstate(over="ignore"):  # 2σ overflowing to inf is the private limit
            sigma[pending] = 2.0 * sigma[pending]
    return sigma  # pragma: no cover


def _solve_sigma(epsilon, delta, sensitivity, upper):
    """σ for flat arrays (Δ > 0) on one side of δ = ½."""
    target = _target(delta, upper)
    t = np.log(_private_start_mu(epsilon, delta))
    t_floor = t - 0.1
    for step in range(_HALLEY_STEPS):
        t = _halley_step(epsilon, t, target, t_floor, step == _HALLEY_STEPS - 1, upper)
    # σ = Δ e^{−t}, and inf where that product overflows (σ = inf is trivially private).
    scale = np.exp(-t)
    fits = scale <= _safe_divide(np.finfo(float).max, sensitivity)
    sigma = np.multiply(sensitivity, scale, out=np.full_like(scale, np.inf), where=fits)
    sigma = np.maximum(sigma, 5e-324)  # σ > 0 even for a subnormal Δ; verification moves it up
    return _verified_sigma(epsilon, target, sigma, sensitivity, upper)


def _analytic_sigma_array(epsilon, delta, sensitivity):
    """σ for flat arrays already validated (0 ≤ ε ≤ EPSILON_MAX, DELTA_MIN ≤ δ < 1, Δ ≥ 0 finite)."""
    sigma = np.zeros_like(delta)
    for upper in (False, True):
        part = np.flatnonzero((sensitivity > 0.0) & ((delta > 0.5) == upper))
        if part.size == sigma.size:
            return _solve_sigma(epsilon, delta, sensitivity, upper)
        if part.size:
            sigma[part] = _solve_sigma(epsilon[part], delta[part], sensitivity[part], upper)
    return sigma


def _analytic_sigma_scalar(epsilon, delta, sensitivity):
    """The scalar path of :func:`analytic_gaussian_sigma`: the same steps on Python floats."""
    if sensitivity == 0.0:
        return 0.0
    upper = delta > 0.5
    target = -math.log1p(-delta) if upper else math.log(delta)
    t = math.log(_private_start_mu_scalar(epsilon, delta))
    t_floor = t - 0.1
    for step in range(_HALLEY_STEPS):
        t = _halley_step_scalar(epsilon, t, target, t_floor, step == _HALLEY_STEPS - 1, upper)
    sigma = max(sensitivity * math.exp(-t), 5e-324)  # a float product overflows to inf silently
    for _ in range(_VERIFY_ROUNDS):
        if sigma == math.inf:  # the exact σ exceeds float64; infinite noise is private
            return sigma
        mu = _unit_mu_scalar(sigma, sensitivity)
        ell, a, _ = _profile_scalar(epsilon, mu, True, upper)
        q = _slope_scalar(math.log(mu), a, ell)
        value = -ell if upper else ell
        margin = _MARGIN * (1.0 + abs(target) + q)
        unsafe = value > target - margin
        if not unsafe and (value >= target - 2.5 * margin or q == 0.0):
            return sigma
        step = (value - (target - 1.5 * margin)) / max(q, 1e-100)
        moved = max(sigma * math.exp(min(max(step, -50.0), 50.0)), 5e-324)
        sigma = max(moved, math.nextafter(sigma, math.inf)) if unsafe else moved
    arrays = [np.array([value]) for value in (epsilon, target, sigma, sensitivity)]
    return float(_doubled_until_private(*arrays, np.arange(1), upper)[0])


def _analytic_sigma_blocks(epsilon, delta, sensitivity):
    """Blocks of 8192 keep every temporary in cache: ~1.5x faster than one pass over 1e5 points."""
    if epsilon.size <= _BLOCK:
        return _analytic_sigma_array(epsilon, delta, sensitivity)
    sigma = np.empty_like(delta)
    for start in range(0, epsilon.size, _BLOCK):
        block = slice(start, start + _BLOCK)
        sigma[block] = _analytic_sigma_array(epsilon[block], delta[block], sensitivity[block])
    return sigma


_BLOCK = 8192


# ----------------------------------------------------------------------------------------------
# Validation shared by the public functions
# ----------------------------------------------------------------------------------------------

_PLAIN_SCALARS = (float, np.float64)  # Python ints go through validation (2**1024 rounds to inf there)

_EPSILON_ZERO_HINT = (
    "this formula divides by epsilon; at epsilon = 0 use analytic_gaussian_sigma (exact for every "
    "epsilon >= 0) or zero_epsilon_gaussian_sigma (the exact (0, delta) calibration)"
)


_epsilon = epsilon_array


def _delta(value, name="delta"):
    # Subnormal δ (below 2.2e-308) carry too few significant bits to calibrate against.
    delta = as_float_array(value, name)
    return require_interval(delta, name, DELTA_MIN, 1.0, upper_open=True)


def _sigma(value):
    sigma = as_float_array(value, "sigma")
    return require_interval(sigma, "sigma", 0.0, None, lower_open=True, allow_infinity=True)


def _sensitivity(value):
    sensitivity = as_float_array(value, "sensitivity")
    return require_interval(sensitivity, "sensitivity", 0.0, None)


def _flat(*arrays):
    """Broadcast, then flatten to contiguous 1-d float arrays; also return the output shape."""
    broadcasted = broadcast(*arrays)
    return broadcasted[0].shape, [np.ascontiguousarray(a).ravel() for a in broadcasted]


def _safe_divide(numerator, denominator):
    """numerator/denominator for non-negative arrays: inf where it overflows or divides a positive
    number by 0 (the exact limits here), 0 where the numerator is 0."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return np.where(numerator == 0.0, 0.0, numerator / denominator)


def _with_margin_up(value, scale):
    """value + 4 ulp × scale: an upward rounding margin for a formula evaluated in float64."""
    return value + 4.0 * ULP * scale


# ----------------------------------------------------------------------------------------------
# The exact privacy profile and its inverse (docs/math.md sections 2.1, 2.3, 9.3)
# ----------------------------------------------------------------------------------------------


def gaussian_log_delta(epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Natural log of the exact privacy profile δ(ε) of the Gaussian mechanism.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        Noise standard deviation σ > 0 per coordinate; ``inf`` is allowed (δ = 0).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 (Δ = 0 gives δ = 0).

    Returns
    -------
    float or ndarray
        ``log δ(ε; μ)`` with ``μ = Δ/σ``; −inf where δ = 0. Accurate where δ itself underflows
        (log δ = −1800 is fine); values below about −5e299 are returned as −inf.

    Raises
    ------
    ValueError, TypeError
        For out-of-range, NaN or non-numeric input (the message names the parameter).

    Notes
    -----
    ``δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)`` (Balle & Wang 2018, Theorem 8 / eq. (6);
    Dong, Roth & Su 2022, Cor. 2.13), evaluated through ``erfcx`` without forming ``e^ε``
    (docs/math.md section 2.3; see the module notes for the quadrature used where two ``erfcx`` values are
    close). Measured error against mpmath: below 1.6e-15 (1 + |log δ| + q), where
    ``q = d log δ / d log μ = μ φ(a)/δ`` is the condition number of δ in μ (it measures what the
    rounding of μ = Δ/σ and of a = μ/2 − ε/μ costs; it dominates for μ beyond about 10, e.g. the
    error is 1.9e-4 relative at μ ≈ 1e10 because q is about 1e12 there, and for |a| ≥ 1e4 on the
    tail side, where q ≈ |a b| ≈ 2 |log δ|). The value returned is raised by
    ``4e-15 (1 + |log δ| + q)``, so it is never below the exact log δ.

    Examples
    --------
    >>> round(gaussian_delta(1.0, 1.0), 13)
    0.1269367375066
    >>> round(gaussian_log_delta(1.0, 100.0), 4)    # δ = e^-5014: far below float64
    -5014.2348
    >>> gaussian_log_delta(1.0, float("inf"))
    -inf
    """
    if type(epsilon) in _PLAIN_SCALARS and type(sigma) in _PLAIN_SCALARS and type(sensitivity) in _PLAIN_SCALARS:
        e, s, d = float(epsilon), float(sigma), float(sensitivity)  # type: ignore[arg-type]  # plain scalars, by the test above
        if 0.0 <= e < math.inf and 0.0 < s <= math.inf and 0.0 <= d < math.inf:
            mu = _unit_mu_scalar(s, d)
            return _reported_upward_scalar(_log_delta_scalar(e, mu), e, mu)
    epsilon_array, sigma_array, sensitivity_array = _epsilon(epsilon), _sigma(sigma), _sensitivity(sensitivity)
    shape, (e, s, d) = _flat(epsilon_array, sigma_array, sensitivity_array)
    mu = _unit_mu(s, d)
    result = _reported_upward(_log_delta_array(e, mu), e, mu).reshape(shape)
    return scalar_or_array(result, epsilon, sigma, sensitivity)


def _reported_upward(ell, epsilon, mu):
    """log δ raised by its error bound, _REPORT_MARGIN (1 + |log δ| + q), capped at 0 (δ <= 1).

    q = d log δ / d log μ is the condition number of δ in μ: the rounding of μ = Δ/σ and of
    a = μ/2 − ε/μ costs about q ulps of log δ, which dominates for large μ (issue 9 item 4).

    For δ > 1/2 the well-conditioned quantity is 1 − δ: there log(1 − δ) is lowered by the same
    bound (with its own q) and log δ = log1p(−(1 − δ)) formed from it, which keeps the relative
    accuracy of log δ when δ is within a few ulps of 1.
    """
    out = ell.copy()
    finite = np.isfinite(ell) & (mu > 0.0) & (mu < np.inf)
    if finite.any():
        e, m, el = epsilon[finite], mu[finite], ell[finite]
        log_m, a = np.log(m), 0.5 * m - e / np.maximum(m, e * 1e-300)
        q = _slope(log_m, a, el)
        raised = np.minimum(el + _REPORT_MARGIN * (1.0 + np.abs(el) + q), 0.0)
        upper = el > -LOG2
        if upper.any():
            log_rest = _log_profile_array(e[upper], m[upper], True, complement=True)
            q_rest = _slope(log_m[upper], a[upper], log_rest)
            lowered = log_rest - _REPORT_MARGIN * (1.0 + np.abs(log_rest) + q_rest)
            raised[upper] = np.log1p(-np.exp(lowered))
        out[finite] = raised
    return out


def _reported_upward_scalar(ell, epsilon, mu):
    if not (math.isfinite(ell) and 0.0 < mu < math.inf):
        return ell
    if ell > -LOG2:  # δ > 1/2: through 1 − δ, as in the array version
        return float(_reported_upward(np.array([ell]), np.array([epsilon]), np.array([mu]))[0])
    a = 0.5 * mu - epsilon / max(mu, epsilon * 1e-300)
    return min(ell + _REPORT_MARGIN * (1.0 + abs(ell) + _slope_scalar(math.log(mu), a, ell)), 0.0)


def gaussian_delta(epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The exact privacy profile δ(ε) of the Gaussian mechanism (Balle & Wang 2018, Theorem 8).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        σ > 0 (``inf`` allowed).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        ``exp(gaussian_log_delta(ε, σ, Δ))``: the smallest δ for which the mechanism is (ε, δ)-DP.

    Notes
    -----
    docs/math.md section 2.1: δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) with μ = Δ/σ. Use
    :func:`gaussian_log_delta` when δ may underflow (below about 1e-308).

    Examples
    --------
    >>> [round(gaussian_delta(e, 1.0), 13) for e in (0.0, 0.5, 2.0)]
    [0.382924922548, 0.2384217081349, 0.0209236358211]
    >>> print(f"{gaussian_delta(10.0, 1.0):.9e}")  # exact: 9.812705826847e-23, reported a hair above
    9.812705827e-23
    """
    log_delta = gaussian_log_delta(epsilon, sigma, sensitivity)
    return math.exp(log_delta) if isinstance(log_delta, float) else np.exp(log_delta)


_EPSILON_ROUNDS = 60
_MU_RESOLVED = 1e10  # beyond, a = μ/2 − ε/μ at the answer has fewer than ~6 correct digits


def _epsilon_solve(delta, mu, upper):
    """Smallest ε with F(ε) ≤ F_target − margin for flat arrays (μ > 0), F as in the calibration.

    Newton's method in ε from the tail-bound ε (private: δ(ε) ≤ Φ(a(ε)) = δ_target there), with
    dδ/dε = −e^ε Φ(b) (so dF/dε = −e^ε Φ(b)/δ or −e^ε Φ(b)/(1 − δ)); every iterate is checked
    against the same band as the calibration, and unsafe ones move up by at least one ulp.
    """
    target = _target(delta, upper)
    epsilon = np.zeros_like(mu)
    ell_zero = _log_profile_array(np.zeros_like(mu), mu, True, upper)
    q_zero = _slope(np.log(mu), 0.5 * mu, ell_zero)
    solve = np.flatnonzero((-ell_zero if upper else ell_zero) > target - _margin(target, q_zero))
    if solve.size == 0:
        return epsilon
    ft, m = target[solve], mu[solve]
    z = special.ndtri(delta[solve])
    unresolved = m > _MU_RESOLVED
    m_ok = np.where(unresolved, 1.0, m)
    e = np.maximum(m_ok * (0.5 * m_ok - z), 1e-300)
    if unresolved.any():
        # σ < Δ/1e10: ε > 5e19 and the profile cannot be resolved near it in float64; return the
        # tail-bound ε = μ²/2 − μ Φ⁻¹(δ), an upper bound (δ(ε) ≤ Φ(a) = δ_target), rounded up.
        mu_big = m[unresolved]
        with np.errstate(over="ignore"):  # μ > 1.3e154: ε > 1e308, inf is the answer
            tail = mu_big * (0.5 * mu_big - z[unresolved])
        e[unresolved] = _with_margin_up(tail, tail)
    pending = np.flatnonzero(~unresolved)
    for _ in range(_EPSILON_ROUNDS):
        if pending.size == 0:
            break
        ef, mf, ftf = e[pending], m[pending], ft[pending]
        ell, a, ratio = _profile(ef, mf, True, upper)
        value = -ell if upper else ell
        margin = _margin(ftf, _slope(np.log(mf), a, ell))
        # log(e^ε Φ(b)) = −a²/2 + log erfcx(−b/√2) − log 2, and |dF/dε| = exp(that − ℓ).
        a_clipped = np.clip(a, -_A_CAP, _A_CAP)
        log_lower = -0.5 * a_clipped * a_clipped + np.log(special.erfcx((0.5 * mf + ratio) / SQRT2)) - LOG2
        inverse_rate = np.exp(np.minimum(ell - log_lower, 709.0))  # 1/|dF/dε|, may be subnormal
        unsafe = value > ftf - margin
        accept = ~unsafe & (value >= ftf - 2.5 * margin)
        moved = np.maximum(ef + (value - (ftf - 1.5 * margin)) * inverse_rate, 0.0)
        moved[unsafe] = np.maximum(moved[unsafe], np.nextafter(ef[unsafe], np.inf))
        moved[accept] = ef[accept]
        e[pending] = moved
        pending = pending[~accept]
    if pending.size:  # pragma: no cover - never seen on the tested domain; refuse rather than guess
        raise RuntimeError("gaussian_epsilon could not verify its result; please report the inputs")
    epsilon[solve] = e
    return epsilon


def _epsilon_array(delta, mu):
    epsilon = np.zeros_like(mu)
    for upper in (False, True):
        part = np.flatnonzero((delta > 0.5) == upper)
        if part.size:
            epsilon[part] = _epsilon_solve(delta[part], mu[part], upper)
    return epsilon


def gaussian_epsilon(delta: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The smallest ε for which the Gaussian mechanism is (ε, δ)-DP: the inverse of the profile.

    Parameters
    ----------
    delta : float or array_like
        Target δ in (0, 1).
    sigma : float or array_like
        σ > 0 (``inf`` allowed: ε = 0).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        ε ≥ 0 with ``gaussian_delta(ε, σ, Δ) ≤ δ`` (verified; on the conservative side by a
        relative margin of order 1e-14); 0 when ``δ ≥ δ(0)``, the total-variation distance.

    Notes
    -----
    Solves ``log δ(ε; Δ/σ) = log δ_target`` (docs/math.md section 2.3, "inverse problems"; on
    ``−log(1 − δ)`` for δ > ½) by Newton's method from the tail-bound value
    ε = μ²/2 − μ Φ⁻¹(δ), which is private because δ(ε) ≤ Φ(μ/2 − ε/μ), using
    dδ/dε = −e^ε Φ(−μ/2 − ε/μ) (eq. (6) differentiated); every iterate is checked with the same
    evaluator as :func:`gaussian_log_delta`. For σ < Δ/1e10 (ε > 5e19) float64 cannot resolve
    the profile near the answer and the tail-bound ε itself, an upper bound, is returned.

    Examples
    --------
    >>> round(gaussian_epsilon(1e-5, 3.730631634816), 9)
    1.0
    >>> gaussian_epsilon(0.5, 1.0)                   # δ(0) = 0.383 < 0.5
    0.0
    """
    delta_array, sigma_array, sensitivity_array = _delta(delta), _sigma(sigma), _sensitivity(sensitivity)
    shape, (d, s, n) = _flat(delta_array, sigma_array, sensitivity_array)
    mu = _unit_mu(s, n)
    epsilon = np.zeros_like(mu)
    live = np.flatnonzero(mu > 0.0)
    epsilon[live] = _epsilon_array(d[live], mu[live])
    return scalar_or_array(epsilon.reshape(shape), delta, sigma, sensitivity)


# ----------------------------------------------------------------------------------------------
# Calibrations of σ (docs/math.md sections 1, 2, 3)
# ----------------------------------------------------------------------------------------------


def analytic_gaussian_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The smallest σ for which ``f(x) + N(0, σ² I)`` is (ε, δ)-DP: the analytic Gaussian mechanism.

    Parameters
    ----------
    epsilon : float or array_like
        0 ≤ ε ≤ 1e20 (``EPSILON_MAX``); ε = 0 is the (0, δ) total-variation calibration.
    delta : float or array_like
        δ in [2.2e-308, 1) (``DELTA_MIN``: subnormal δ are refused).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 (Δ = 0 gives σ = 0).

    Returns
    -------
    float or ndarray
        σ, never below the exact value: ``gaussian_log_delta(ε, σ, Δ)`` is verified to lie below
        ``log δ`` by a margin that covers its rounding error (1e-14 (1 + |log δ| + q), q the slope
        d log δ/d log μ). The excess over the exact σ is below 3e-13 relative for ε ≥ 1e-6
        (measured), up to 1e-11 at ε = 0 with δ = 1e-300. σ = inf where the exact σ exceeds
        float64.

    Raises
    ------
    ValueError, TypeError
        For ε < 0 or ε > 1e20, δ outside [2.2e-308, 1), Δ < 0, NaN, inf or non-numeric input; the
        message names the parameter and, for arrays, the index of the first bad element.

    Notes
    -----
    Balle & Wang 2018, Theorem 8: σ is (ε, δ)-DP iff
    ``Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ`` (eq. (6)), for every ε ≥ 0; the
    dimension does not matter. Solved in ``t = log(Δ/σ)`` (docs/math.md section 2.3) by three Halley steps from
    the larger of two closed-form private starting points (the tail bound, docs/math.md section 2.4, and the
    ε = 0 calibration ``Δ/(2√2 erfinv δ)``, docs/math.md section 3), then verified and moved up (``nextafter``)
    where needed. For δ > ½ the equation is solved on ``−log(1 − δ)`` instead, which keeps full
    relative accuracy as δ → 1. Vectorized over arrays in blocks (well under 1 µs per point); a
    scalar takes a pure-Python path with the same steps (about 10 µs); see
    ``benchmarks/bench_calibration.py``.

    Examples
    --------
    >>> round(analytic_gaussian_sigma(1.0, 1e-5), 10)
    3.7306316348
    >>> round(analytic_gaussian_sigma(1000.0, 1e-300), 10)
    0.0475376601
    >>> round(analytic_gaussian_sigma(0.0, 1e-3), 3)        # (0, δ): exact total variation
    398.942
    >>> analytic_gaussian_sigma([0.1, 10.0], 1e-5, sensitivity=2.0).round(6)
    array([61.499132,  0.999777])
    """
    if type(epsilon) in _PLAIN_SCALARS and type(delta) in _PLAIN_SCALARS and type(sensitivity) in _PLAIN_SCALARS:
        e, d, s = float(epsilon), float(delta), float(sensitivity)  # type: ignore[arg-type]  # plain scalars, by the test above
        if 0.0 <= e <= EPSILON_MAX and DELTA_MIN <= d < 1.0 and 0.0 <= s < math.inf:
            return _analytic_sigma_scalar(e, d, s)
    epsilon_array = as_float_array(epsilon, "epsilon")
    require_interval(epsilon_array, "epsilon", 0.0, EPSILON_MAX, hint=_EPSILON_MAX_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    if e.size == 1:
        # Python floats: the scalar path relies on float products overflowing to inf silently
        sigma = _analytic_sigma_scalar(float(e[0]), float(d[0]), float(s[0]))
        return scalar_or_array(np.full(shape, sigma), epsilon, delta, sensitivity)
    return scalar_or_array(_analytic_sigma_blocks(e, d, s).reshape(shape), epsilon, delta, sensitivity)


_EPSILON_MAX_HINT = (
    "beyond 1e20 float64 cannot resolve the privacy profile near the solution (mu/2 - epsilon/mu "
    "loses its digits); use tail_bound_gaussian_sigma there, which is private and within 1e-9 of "
    "the exact sigma at such epsilon"
)

_CLASSICAL_HINT = (
    "the classical formula (Dwork & Roth 2014, Thm A.1) is not a theorem outside 0 < epsilon < 1, "
    "and for large epsilon it is not even private (at delta = 1e-5 it fails from epsilon = 8.4 on); "
    "use analytic_gaussian_sigma, which is exact for every epsilon >= 0"
)


def classical_gaussian_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The classical Gaussian mechanism's σ = Δ √(2 ln(1.25/δ)) / ε, only for 0 < ε < 1.

    Parameters
    ----------
    epsilon : float or array_like
        ε in (0, 1): the theorem's domain.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ (sufficient, not exact; always at least :func:`analytic_gaussian_sigma`); inf where it
        exceeds 1.8e308 (ε below about 1e-308, or Δ near the largest double).

    Raises
    ------
    ValueError
        For ε outside (0, 1), naming :func:`analytic_gaussian_sigma`: beyond ε = 1 the formula is
        not a theorem, and it stops being private near ε ≈ 8 (docs/math.md section 1).

    Notes
    -----
    Dwork & Roth 2014, Theorem A.1 (Balle & Wang 2018, Theorem 1). ``ln(1.25/δ)`` is computed as
    ``ln 1.25 − ln δ`` so that δ = 1e-300 is fine.

    Examples
    --------
    >>> round(classical_gaussian_sigma(0.5, 1e-5), 5)
    9.68961
    >>> classical_gaussian_sigma(2.0, 1e-5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be in (0, 1), got epsilon=2.0; the classical formula (...) is not a theorem ...
    """
    epsilon_array = as_float_array(epsilon, "epsilon")
    require_interval(epsilon_array, "epsilon", 0.0, 1.0, lower_open=True, upper_open=True, hint=_CLASSICAL_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    e, d, s = broadcast(epsilon_array, delta_array, sensitivity_array)
    with overflow_is_inf():  # σ beyond 1.8e308 is inf, as documented
        sigma = s * (np.sqrt(2.0 * (math.log(1.25) - np.log(d))) / e)
    return scalar_or_array(sigma, epsilon, delta, sensitivity)


def delta_zero(epsilon: ArrayLike) -> FloatOrArray:
    """δ₀(ε) = ½ − e^ε Φ(−√(2ε)): the δ achieved at σ = Δ/√(2ε) (Balle & Wang, Algorithm 1).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.

    Returns
    -------
    float or ndarray
        δ₀(ε) in [0, ½). Below it, σ ≥ Δ/√(2ε) is necessary (:func:`low_privacy_sigma_bound`).

    Notes
    -----
    Balle & Wang 2018, Sec. 3 and Algorithm 1 (docs/math.md sections 2.2, 3). With e^ε Φ(−√(2ε)) =
    ½ erfcx(√ε) this is ``½ (1 − erfcx(√ε))``; for √ε < ½ we use
    ``1 − erfcx(x) = e^{x²} erf(x) − expm1(x²)``, which keeps full relative accuracy as ε → 0
    (δ₀ ≈ √(ε/π)).

    Examples
    --------
    >>> [round(delta_zero(e), 12) for e in (0.01, 1.0, 20.0)]
    [0.051771510015, 0.286208211922, 0.438393029956]
    >>> delta_zero(0.0)
    0.0
    """
    epsilon_array = _epsilon(epsilon)
    x = np.sqrt(epsilon_array)
    small = x < 0.5
    xs = np.where(small, x, 0.0)
    one_minus = np.where(small, np.exp(xs * xs) * special.erf(xs) - np.expm1(xs * xs), 1.0 - special.erfcx(x))
    return scalar_or_array(0.5 * one_minus, epsilon)


def zero_epsilon_gaussian_sigma(delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The exact (0, δ) calibration σ = Δ / (2 Φ⁻¹((1 + δ)/2)) (total variation).

    Parameters
    ----------
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ with TV(N(0, σ²), N(Δ, σ²)) = 2Φ(Δ/(2σ)) − 1 ≤ δ, verified; equal to
        ``analytic_gaussian_sigma(0, δ, Δ)``. About 0.798 × :func:`theorem2_gaussian_sigma`.

    Notes
    -----
    (0, δ)-DP is TV ≤ δ (Balle & Wang 2018, Sec. 2, proof of Theorem 2); the Gaussian's TV is
    ``erf(Δ/(2√2 σ))`` (docs/math.md section 3), so σ = Δ/(2√2 erfinv(δ)); ``erfinv`` keeps full accuracy for
    tiny δ, where (1 + δ)/2 would round to ½.

    Examples
    --------
    >>> [round(zero_epsilon_gaussian_sigma(d), 3) for d in (0.1, 1e-3)]
    [3.979, 398.942]
    """
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (d, s) = _flat(delta_array, sensitivity_array)
    sigma = np.zeros_like(d)
    live = np.flatnonzero(s > 0.0)
    if live.size:
        dl, sl = d[live], s[live]
        closed_form = np.maximum(_safe_divide(sl, 2.0 * SQRT2 * special.erfinv(dl)), 5e-324)
        for upper in (False, True):
            part = np.flatnonzero((dl > 0.5) == upper)
            if part.size:
                dp, sp = dl[part], sl[part]
                target = _target(dp, upper)
                sigma[live[part]] = _verified_sigma(np.zeros_like(dp), target, closed_form[part], sp, upper)
    return scalar_or_array(sigma.reshape(shape), delta, sensitivity)


def theorem2_gaussian_sigma(delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Balle & Wang's Theorem 2: σ = Δ/(2δ) gives (0, δ)-DP (via Pinsker's inequality).

    Parameters
    ----------
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        Δ/(2δ): sufficient, about 1.25 × the exact :func:`zero_epsilon_gaussian_sigma`.

    Notes
    -----
    Balle & Wang 2018, Theorem 2: TV ≤ √(KL/2) = Δ/(2σ) (docs/math.md section 3).

    Examples
    --------
    >>> theorem2_gaussian_sigma(1e-3)
    500.0
    """
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    d, s = broadcast(delta_array, sensitivity_array)
    return scalar_or_array(_safe_divide(s, 2.0 * d), delta, sensitivity)


def low_privacy_sigma_bound(epsilon: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Balle & Wang's Theorem 4 lower bound: σ ≥ Δ/√(2ε) is necessary whenever δ < δ₀(ε).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 (at ε = 0 the statement is vacuous: δ₀(0) = 0).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        Δ/√(2ε): no Gaussian with smaller σ is (ε, δ)-DP for any δ < :func:`delta_zero` (ε). So σ
        cannot shrink like 1/ε as ε grows, only like 1/√ε (the classical formula's 1/ε is wrong).
        inf where it exceeds 1.8e308 (ε subnormal, or Δ near the largest double).

    Notes
    -----
    docs/math.md section 3. Balle & Wang's extracted proof states the threshold as
    ``δ < ½ − e^{−3ε}/√(4πε)``, which is numerically false (at ε = 1: e^ε Φ(−√2) = 0.2138 is
    not below e^{−3}/√(4π) = 0.0140), so we use the exact threshold δ₀(ε) = ½ − e^ε Φ(−√(2ε)),
    which follows from Theorem 8: at σ = Δ/√(2ε) the achieved δ is exactly δ₀(ε), and δ(σ)
    decreases in σ. A valid closed-form weakening (Mills ratio) is δ < ½ − 1/√(4πε).

    Examples
    --------
    >>> low_privacy_sigma_bound(50.0)
    0.1
    """
    hint = "the bound is vacuous at epsilon = 0 (delta_zero(0) = 0); use zero_epsilon_gaussian_sigma there"
    epsilon_array = _epsilon(epsilon, positive=True, hint=hint)
    e, s = broadcast(epsilon_array, _sensitivity(sensitivity))
    # √(2ε) as √2 √ε beyond ε = 8e307, where 2ε overflows (the bound there is about 5e-155 Δ)
    root = np.where(e <= 8e307, np.sqrt(2.0 * np.minimum(e, 8e307)), SQRT2 * np.sqrt(e))
    with overflow_is_inf():  # Δ near the largest double over √(2ε) < 1: inf, as documented
        bound = s / root
    return scalar_or_array(bound, epsilon, sensitivity)


# ----------------------------------------------------------------------------------------------
# Privacy-loss distribution (docs/math.md sections 2.1, 2.4)
# ----------------------------------------------------------------------------------------------


def _half_mu_squared(sigma, sensitivity):
    """η = μ²/2 = Δ²/(2σ²), inf where it overflows."""
    mu = _unit_mu(sigma, sensitivity)
    eta = np.full_like(mu, np.inf)
    fits = mu < 1.8e154  # (μ/2) μ fits below √(2 × 1.8e308) = 1.896e154
    eta[fits] = 0.5 * mu[fits] * mu[fits]
    return eta


def gaussian_privacy_loss(sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> tuple[FloatOrArray, FloatOrArray]:
    """The privacy-loss distribution of the Gaussian mechanism: L ~ N(η, 2η), η = Δ²/(2σ²).

    Parameters
    ----------
    sigma : float or array_like
        σ > 0 (``inf`` allowed).
    sensitivity : float or array_like, default 1.0
        ‖f(x) − f(x')‖₂ (the worst case is the l2 sensitivity Δ).

    Returns
    -------
    (mean, variance) : tuple of float or ndarray
        η and 2η. The law is the same for L_{x,x'} and L_{x',x}.

    Notes
    -----
    Balle & Wang 2018, Lemma 3 (docs/math.md section 2.1). η is also the zCDP ρ (:func:`zcdp_rho`) and μ²/2.

    Examples
    --------
    >>> gaussian_privacy_loss(2.0)
    (0.125, 0.25)
    """
    sigma_array, sensitivity_array = _sigma(sigma), _sensitivity(sensitivity)
    shape, (s, d) = _flat(sigma_array, sensitivity_array)
    eta = _half_mu_squared(s, d).reshape(shape)
    return scalar_or_array(eta, sigma, sensitivity), scalar_or_array(2.0 * eta, sigma, sensitivity)


def privacy_loss_masses(
    epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0
) -> tuple[FloatOrArray, FloatOrArray]:
    """The two masses of Balle & Wang's Theorem 5: P[L ≥ ε] and e^ε P[L' ≤ −ε].

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite.
    sigma : float or array_like
        σ > 0 (``inf`` allowed).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    (upper, lower) : tuple of float or ndarray
        ``upper = Φ(μ/2 − ε/μ)`` (the old sufficient condition's tail) and
        ``lower = e^ε Φ(−μ/2 − ε/μ)``; ``upper − lower`` is δ(ε). Each is accurate to a few ulps;
        their difference is not where δ ≪ upper: use :func:`gaussian_delta` for δ.

    Notes
    -----
    Balle & Wang 2018, Theorem 5 and eqs. (4)-(5) (docs/math.md sections 2.1, 2.4). ``lower`` is computed as
    ``½ e^{−a²/2} erfcx(−b/√2)`` (b² − a² = 2ε), so ``e^ε`` never overflows.

    Examples
    --------
    >>> upper, lower = privacy_loss_masses(1.0, 1.0)
    >>> round(upper, 12), round(lower, 12), round(upper - lower, 12)
    (0.308537538726, 0.181600801219, 0.126936737507)
    """
    epsilon_array, sigma_array, sensitivity_array = _epsilon(epsilon), _sigma(sigma), _sensitivity(sensitivity)
    shape, (e, s, d) = _flat(epsilon_array, sigma_array, sensitivity_array)
    mu = _unit_mu(s, d)
    upper = np.where(e == 0.0, 1.0, 0.0)  # μ = 0: L ≡ 0
    lower = upper.copy()
    live = np.flatnonzero(mu > 0.0)
    if live.size:
        el, ml = e[live], mu[live]
        ratio = el / np.maximum(ml, el * 1e-300)
        a = 0.5 * ml - ratio
        a_clipped = np.clip(a, -_A_CAP, _A_CAP)
        upper[live] = special.ndtr(a)
        lower[live] = 0.5 * np.exp(-0.5 * a_clipped * a_clipped) * special.erfcx((0.5 * ml + ratio) / SQRT2)
    return (
        scalar_or_array(upper.reshape(shape), epsilon, sigma, sensitivity),
        scalar_or_array(lower.reshape(shape), epsilon, sigma, sensitivity),
    )


# ----------------------------------------------------------------------------------------------
# Looser calibrations for the comparison table (docs/math.md sections 1, 2.4, 5.3, 9.1, 9.2)
# ----------------------------------------------------------------------------------------------


def _nudged_up(sigma, holds):
    """Move σ up until ``holds(σ)`` (its own defining inequality, re-evaluated) is true.

    The closed forms below solve their inequalities exactly, so rounding can only put them a few
    ulps on the wrong side: steps of 1, 2, 4, ... ulps restore the inequality at a cost in σ of at
    most twice what was needed.
    """
    exempt = ~np.isfinite(sigma) | (sigma == 0.0)  # σ = inf is private; σ = 0 only arises for Δ = 0
    for doubling in range(60):
        with np.errstate(all="ignore"):  # the exempt elements (σ = inf, Δ = 0) may give NaN here
            bad = ~holds(sigma) & ~exempt
        if not bad.any():
            return sigma
        with np.errstate(over="ignore"):  # σ → inf is the private limit
            sigma = np.where(bad, sigma * (1.0 + ULP * 2.0**doubling), sigma)
    raise RuntimeError("could not verify a closed-form calibration; please report the inputs")  # pragma: no cover


def _tail_sigma(epsilon, z, sensitivity):
    """σ = Δ (z + √(z² + 2ε)) / (2ε): the solution of Φ(Δ/(2σ) − εσ/Δ) = Φ(−z)."""
    root = SQRT2 * np.sqrt(epsilon + 0.5 * z * z)
    # z ≥ 0: (z + root)/(2ε); z < 0: the same number written as 1/(root − z), without cancellation.
    # Halved before dividing, so ε near 1.8e308 does not overflow 2ε; σ beyond 1.8e308 (ε below
    # about 1e-308) is inf, and Δ = 0 gives σ = 0.
    with np.errstate(over="ignore"):
        unit = np.where(z >= 0.0, 0.5 * (np.maximum(z, 0.0) + root) / epsilon, 1.0 / (root - np.minimum(z, 0.0)))
        return np.where(sensitivity == 0.0, 0.0, sensitivity * unit)


def _tail_holds(epsilon, sensitivity, z):
    """σ ↦ (Φ(a) ≤ Φ(z) with a = Δ/(2σ) − εσ/Δ), checked as a ≤ z − (rounding margin of a and z).

    Comparing a with z = Φ⁻¹(tail) rather than log Φ(a) with log(tail) keeps the check well posed
    where Φ(a) hardly moves with σ (ε → 0 at tail = ½).
    """

    def holds(sigma):
        mu = _unit_mu(sigma, sensitivity)
        ratio = epsilon / np.maximum(mu, epsilon * 1e-300)
        a = 0.5 * mu - ratio
        margin = 8.0 * ULP * (np.abs(z) + 0.5 * mu + ratio)
        return (sensitivity == 0.0) | (a + margin <= z)

    return holds


def tail_bound_gaussian_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """σ from the sufficient condition P[L ≥ ε] ≤ δ: Δ (z + √(z² + 2ε)) / (2ε), z = −Φ⁻¹(δ).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 (the formula divides by ε).
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ with Φ(Δ/(2σ) − εσ/Δ) ≤ δ (verified); valid for all ε > 0 but larger than the exact
        :func:`analytic_gaussian_sigma` (4.379 vs 3.731 at ε = 1, δ = 1e-5).

    Raises
    ------
    ValueError
        At ε = 0, naming the exact alternatives.

    Notes
    -----
    The privacy loss is N(η, 2η) (Balle & Wang, Lemma 3), so P[L ≥ ε] = Φ(μ/2 − ε/μ); the old
    sufficient condition (Balle & Wang text, eq. (2)) solved for σ (docs/math.md section 2.4). This is what
    Ji & Li's "C_A" corresponds to (docs/math.md section 6.3).

    Examples
    --------
    >>> round(tail_bound_gaussian_sigma(1.0, 1e-5), 3)
    4.379
    """
    epsilon_array = _epsilon(epsilon, positive=True, hint=_EPSILON_ZERO_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    z = special.ndtri(d)
    sigma = _nudged_up(_tail_sigma(e, -z, s), _tail_holds(e, s, z))
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


def pdp_gaussian_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Liu's Lemma 10 (probabilistic DP): σ = Δ (z + √(z² + 2ε)) / (2ε), z = −Φ⁻¹(δ/2).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ with P[|L| > ε] ≤ δ, i.e. (ε, δ)-probabilistic DP (which implies (ε, δ)-DP); verified
        through the binding side P[L > ε] ≤ δ/2.

    Raises
    ------
    ValueError
        At ε = 0, naming the exact alternatives.

    Notes
    -----
    Liu, arXiv:1602.06028, Lemma 10 in the form reconstructed in docs/math.md section 5.3: with
    L ~ N(η, 2η) and η > 0, P[L < −ε] ≤ P[L > ε], so P[L > ε] ≤ δ/2 suffices for the two-sided
    condition. It is the tail bound at δ/2 (4.528 vs 3.731 for the exact aGM at ε = 1, δ = 1e-5).

    Examples
    --------
    >>> round(pdp_gaussian_sigma(1.0, 1e-5), 3)
    4.528
    """
    epsilon_array = _epsilon(epsilon, positive=True, hint=_EPSILON_ZERO_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    z = special.ndtri(0.5 * d)
    sigma = _nudged_up(_tail_sigma(e, -z, s), _tail_holds(e, s, z))
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


def zcdp_rho(sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The zCDP parameter of the Gaussian mechanism: ρ = Δ²/(2σ²) (Bun & Steinke 2016).

    Parameters
    ----------
    sigma : float or array_like
        σ > 0 (``inf`` allowed: ρ = 0).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        ρ; it adds under composition (docs/math.md section 9.1). Rényi DP of order α is αρ (Mironov 2017).

    Examples
    --------
    >>> zcdp_rho(2.0, 1.0)
    0.125
    """
    sigma_array, sensitivity_array = _sigma(sigma), _sensitivity(sensitivity)
    shape, (s, d) = _flat(sigma_array, sensitivity_array)
    return scalar_or_array(_half_mu_squared(s, d).reshape(shape), sigma, sensitivity)


def _rho(value):
    rho = as_float_array(value, "rho")
    return require_interval(rho, "rho", 0.0, None)


def zcdp_to_epsilon_bun_steinke(rho: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """ε from ρ-zCDP by Bun & Steinke's conversion: ε = ρ + 2√(ρ ln(1/δ)).

    Parameters
    ----------
    rho : float or array_like
        ρ ≥ 0, finite.
    delta : float or array_like
        δ in (0, 1).

    Returns
    -------
    float or ndarray
        ε (rounded up by a few ulps) such that ρ-zCDP implies (ε, δ)-DP; inf where that exceeds
        1.8e308 (ρ near the largest double).

    Notes
    -----
    Bun & Steinke 2016, Prop. 1.3 (docs/math.md section 9.2). Looser than :func:`zcdp_to_epsilon_cks`.

    Examples
    --------
    >>> round(zcdp_to_epsilon_bun_steinke(0.5, 1e-5), 6)
    5.298526
    """
    rho_array, delta_array = _rho(rho), _delta(delta)
    r, d = broadcast(rho_array, delta_array)
    with overflow_is_inf():  # ε beyond 1.8e308 is inf, as documented
        epsilon = r + 2.0 * (np.sqrt(r) * np.sqrt(-np.log(d)))
        epsilon = _with_margin_up(epsilon, epsilon)
    return scalar_or_array(epsilon, rho, delta)


def _softplus(x):
    """log(1 + e^x) without overflow."""
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _bisect_increasing(function, low, high, iterations=200):
    """Vectorized bisection for the sign change of an increasing function on [low, high].

    Stops early once every bracket has stopped shrinking (a floating-point fixed point).
    """
    for _ in range(iterations):
        middle = 0.5 * (low + high)
        stuck = (middle == low) | (middle == high)
        if stuck.all():
            break
        positive = function(middle) > 0.0
        high = np.where(positive, middle, high)
        low = np.where(positive, low, middle)
    return 0.5 * (low + high)


def _cks_log_delta(log_order_minus_one, rho, epsilon):
    """(log δ, rounding scale) of CKS20 Cor. 13 at α = 1 + e^s:
    log δ = (α − 1)(αρ − ε) + α log(1 − 1/α) − log(α − 1)."""
    s = log_order_minus_one
    alpha_minus_one = np.exp(s)
    alpha = 1.0 + alpha_minus_one
    # (α − 1)(αρ − ε) may overflow for α near e^700: ±inf is then the exact limit of log δ.
    with np.errstate(over="ignore"):
        first = alpha_minus_one * (alpha * rho - epsilon)
        # 2 max(αρ, ε) ≥ αρ + ε, without overflowing at ε near 1.8e308
        scale = 2.0 * alpha_minus_one * np.maximum(alpha * rho, epsilon)
    # α log(1 − 1/α) − log(α − 1) = (α − 1) s − α log(1 + e^s) = −α log(1 + e^{−s}) − s: the first
    # form has no cancellation for s ≤ 0 (α near 1), the second for s > 0.
    negative = s <= 0.0
    s_neg, s_pos = np.minimum(s, 0.0), np.maximum(s, 0.0)
    rest = np.where(
        negative,
        alpha_minus_one * s_neg - alpha * np.log1p(np.exp(s_neg)),
        -alpha * np.log1p(np.exp(-s_pos)) - s_pos,
    )
    scale = np.where(np.isfinite(first), scale + np.abs(rest), 0.0) + 1e-300  # first = ±inf: exact
    return first + rest, scale


def zcdp_to_delta_cks(rho: ArrayLike, epsilon: ArrayLike) -> FloatOrArray:
    """δ from ρ-zCDP by Canonne, Kamath & Steinke's conversion (CKS20 Cor. 13), for a given ε.

    Parameters
    ----------
    rho : float or array_like
        ρ ≥ 0, finite.
    epsilon : float or array_like
        ε ≥ 0, finite.

    Returns
    -------
    float or ndarray
        ``inf_{α>1} exp((α−1)(αρ − ε)) (1 − 1/α)^α / (α − 1)``, capped at 1, rounded up.

    Notes
    -----
    CKS20 (arXiv:2004.00010) Cor. 13, equivalently Asoodeh et al. 2020 eq. (20) with RDP αρ
    (docs/math.md section 9.2 item 3). The exponent is convex in α with derivative
    ``(2α − 1)ρ − ε + log(1 − 1/α)``, increasing from −∞ to ∞, so the optimal α is its root,
    found by bisection in ``log(α − 1)`` over all α > 1 (not a fixed grid, unlike
    dp_accounting; OpenDP's ``cdp_delta`` searches the same root). Any α gives a valid bound, so
    the result is conservative regardless of the root's accuracy; it is also rounded up.

    Examples
    --------
    >>> round(zcdp_to_delta_cks(0.5, 3.0), 8)
    0.00514318
    >>> zcdp_to_delta_cks(0.0, 1.0)
    0.0
    """
    rho_array, epsilon_array = _rho(rho), _epsilon(epsilon)
    shape, (r, e) = _flat(rho_array, epsilon_array)
    delta = np.zeros_like(r)  # ρ = 0: no privacy loss at all
    live = np.flatnonzero(r > 0.0)
    if live.size:
        rl, el = r[live], e[live]

        def derivative(s):  # (2α − 1)ρ − ε + log(1 − 1/α), α = 1 + e^s
            with np.errstate(over="ignore"):  # ρ near 1.8e308: +inf has the right sign
                return (1.0 + 2.0 * np.exp(np.minimum(s, 700.0))) * rl - el - _softplus(-s)

        # below s = -800, α − 1 = e^s is 0 in double precision: nothing changes further down
        with np.errstate(over="ignore"):  # -inf for ρ near 1.8e308, clamped at -800
            low = np.maximum(np.minimum(-1.0, el - 2.0 * rl - 1.0), -800.0)
        high = np.maximum(0.0, np.log1p(el) - np.log(2.0) - np.log(rl)) + 1.0
        s = _bisect_increasing(derivative, low, np.minimum(high, 700.0))
        log_delta, scale = _cks_log_delta(s, rl, el)
        delta[live] = np.exp(np.minimum(_with_margin_up(log_delta, scale), 0.0))
    return scalar_or_array(delta.reshape(shape), rho, epsilon)


def _cks_epsilon(log_order_minus_one, rho, log_delta):
    """(ε, rounding scale) of CKS20 at α = 1 + e^s: αρ + log(1 − 1/α) − (log δ + log α)/(α − 1)."""
    s = log_order_minus_one
    alpha = 1.0 + np.exp(s)
    log_alpha = _softplus(s)
    last = (log_delta + log_alpha) * np.exp(-s)
    first = alpha * rho
    middle = -_softplus(-s)
    scale = first + np.abs(middle) + (np.abs(log_delta) + log_alpha) * np.exp(-s)
    return first + middle - last, scale


def zcdp_to_epsilon_cks(rho: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """ε from ρ-zCDP by Canonne, Kamath & Steinke's conversion (CKS20 Cor. 13), for a given δ.

    Parameters
    ----------
    rho : float or array_like
        ρ ≥ 0, finite.
    delta : float or array_like
        δ in (0, 1).

    Returns
    -------
    float or ndarray
        ``max(0, inf_{α>1} αρ + log(1 − 1/α) − (log δ + log α)/(α − 1))``, rounded up; inf
        where that exceeds 1.8e308 (ρ near the largest double).

    Notes
    -----
    CKS20 Cor. 13 / Asoodeh et al. 2020 (docs/math.md section 9.2 item 3). The optimal α solves
    ``ρ (α − 1)² = log(1/(αδ))`` (the derivative vanishes), increasing minus decreasing in α, found
    by bisection in ``log(α − 1)``; every α gives a valid ε.

    Examples
    --------
    >>> round(zcdp_to_epsilon_cks(0.5, 1e-5), 6)          # Bun–Steinke gives 5.298526
    4.728387
    """
    rho_array, delta_array = _rho(rho), _delta(delta)
    shape, (r, d) = _flat(rho_array, delta_array)
    log_delta = np.log(d)

    def derivative(s):  # ρ(α − 1)² + log δ + log α
        return np.exp(np.minimum(np.log(np.maximum(r, 1e-320)) + 2.0 * s, 700.0)) * (r > 0.0) + log_delta + _softplus(s)

    low = np.minimum(0.0, np.log(-log_delta / (r + 1.0))) - 1.0
    high = np.minimum(1.0 - log_delta, 0.5 * np.log(-log_delta / np.maximum(r, 1e-300)) + 1.0)
    s = _bisect_increasing(derivative, low, high)
    with overflow_is_inf():  # ε (or its rounding margin) beyond 1.8e308 is inf, as documented
        epsilon, scale = _cks_epsilon(s, r, log_delta)
        epsilon = np.maximum(_with_margin_up(epsilon, scale), 0.0)
    return scalar_or_array(epsilon.reshape(shape), rho, delta)


def zcdp_bun_steinke_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """σ whose ρ = Δ²/(2σ²) converts to (ε, δ)-DP by Bun & Steinke: ρ + 2√(ρ ln(1/δ)) = ε.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ = Δ (√(L + ε) + √L) / (√2 ε) with L = ln(1/δ) (i.e. √ρ = √(L + ε) − √L, written without
        cancellation), verified against the forward conversion.

    Raises
    ------
    ValueError
        At ε = 0, naming the exact alternatives.

    Notes
    -----
    Bun & Steinke 2016, Prop. 1.3 and ρ = Δ²/(2σ²) (docs/math.md sections 9.1-9.2). For the Gaussian it equals
    the best Mironov RDP bound over a continuum of orders.

    Examples
    --------
    >>> round(zcdp_bun_steinke_sigma(1.0, 1e-5), 3)
    4.901
    """
    epsilon_array = _epsilon(epsilon, positive=True, hint=_EPSILON_ZERO_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    log_inverse = -np.log(d)
    with np.errstate(over="ignore"):  # σ beyond 1.8e308 (ε below about 1e-308) is inf
        unit = (np.sqrt(log_inverse + e) + np.sqrt(log_inverse)) / SQRT2 / e
        sigma = np.where(s == 0.0, 0.0, s * unit)

    def holds(candidate):
        rho = _half_mu_squared(candidate, s)
        converted = rho + 2.0 * (np.sqrt(rho) * np.sqrt(log_inverse))  # ρ L overflows at ε near 1.8e308
        return (s == 0.0) | (_with_margin_up(converted, converted) <= e)

    sigma = _nudged_up(sigma, holds)
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


def _cks_rho_parts(log_order_minus_one, epsilon, log_inverse_delta):
    """(ρ_α, dρ_α/dα up to a positive factor) at α = 1 + e^s, without forming α² (α reaches e^700).

    ρ_α = [ε(α−1) − L + α log α − (α−1) log(α−1)] / (α(α−1)) is the largest ρ that CKS20 Cor. 13
    converts to (ε, δ) at order α (L = log 1/δ). With M = numerator/(α − 1)
    = ε − L e^{−s} + log(1 + e^{−s}) + e^{−s} log(1 + e^s), ρ_α = M/α, and the sign of dρ_α/dα is
    that of ε + log(1 + e^{−s}) − M (2 − 1/α).
    """
    m, log1p_inverse = _cks_numerator(log_order_minus_one, epsilon, log_inverse_delta)
    one_over_alpha = np.exp(-_softplus(log_order_minus_one))
    return m * one_over_alpha, epsilon + log1p_inverse - m * (2.0 - one_over_alpha)


def _cks_numerator(log_order_minus_one, epsilon, log_inverse_delta):
    """(M, log(1 + e^{−s})) of :func:`_cks_rho_parts`; M stays normal where ρ_α = M/α underflows."""
    s = log_order_minus_one
    inverse = np.exp(-s)
    log1p_inverse = np.log1p(inverse)
    return epsilon - log_inverse_delta * inverse + log1p_inverse + inverse * _softplus(s), log1p_inverse


def zcdp_cks_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """σ whose ρ = Δ²/(2σ²) converts to (ε, δ)-DP by CKS20 Cor. 13 (the tighter zCDP conversion).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ = Δ/√(2ρ*), ρ* = sup over α > 1 of the ρ that the conversion at order α allows; verified
        against the conversion at the chosen α (rounded on the safe side).

    Raises
    ------
    ValueError
        At ε = 0, naming the exact alternatives.

    Notes
    -----
    The conversion at order α, ``δ ≥ exp((α−1)(αρ − ε)) (1 − 1/α)^α/(α − 1)`` (CKS20 Cor. 13,
    docs/math.md section 9.2), is linear in ρ, so for each α it gives
    ``ρ_α = [ε(α−1) − ln(1/δ) + α ln α − (α−1) ln(α−1)] / (α(α−1))``, and ρ* = sup_α ρ_α: a
    one-dimensional maximisation, done by bisection on the sign of dρ_α/dα in ``log(α − 1)``
    (ρ_α rises then falls). Every α yields a valid ρ, so only accuracy, never privacy, depends on
    finding the maximiser.

    Examples
    --------
    >>> [round(zcdp_cks_sigma(e, d), 3) for e, d in [(0.1, 1e-5), (1.0, 1e-5), (8.0, 1e-6)]]
    [33.982, 4.045, 0.689]
    """
    epsilon_array = _epsilon(epsilon, positive=True, hint=_EPSILON_ZERO_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    log_inverse = -np.log(d)

    def falling(t):  # > 0 where ρ_α decreases in α (past the maximiser)
        return -_cks_rho_parts(t, e, log_inverse)[1]

    low = np.full_like(e, -40.0)
    high = np.minimum(np.log(2.0 * (log_inverse + 10.0 + np.abs(np.log(e)))) - np.log(e) + 5.0, 700.0)
    order = _bisect_increasing(falling, low, high)
    # σ = Δ/√(2ρ) with ρ = M/α, as Δ √α / √(2M): ρ itself underflows for ε near 1e-300 (α ~ 1e303)
    log_alpha = _softplus(order)
    m_part = _cks_numerator(order, e, log_inverse)[0]
    with np.errstate(over="ignore", divide="ignore"):  # σ beyond 1.8e308 is inf
        sigma = np.where(s == 0.0, 0.0, s * np.exp(0.5 * log_alpha) / (SQRT2 * np.sqrt(m_part)))

    def holds(candidate):
        log_delta, scale = _cks_log_delta(order, _half_mu_squared(candidate, s), e)
        return (s == 0.0) | (_with_margin_up(log_delta, scale) <= -log_inverse)

    sigma = _nudged_up(sigma, holds)
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


def vinterbo_gaussian_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Vinterbo's closed-form σ, valid for every ε > 0: Δ (√(az + ε) + s√(az)) / (ε√2).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        σ = inf where it would exceed 1.8e308 (ε below about 1e-308, or Δ near the largest double).
        σ with z = −ln(4δ(1 − δ)) and (a, s) = (1, 1) for δ ≤ ½, (π/4, −1) for δ > ½, rounded
        up by 4 ulps. Never
        below the exact :func:`analytic_gaussian_sigma` (checked in the tests on ε ∈ [1e-6, 1e3],
        δ ∈ [1e-300, 0.9]); within 10-50% of it at typical settings.

    Raises
    ------
    ValueError
        At ε = 0, naming the exact alternatives.

    Notes
    -----
    Vinterbo 2022, arXiv:2012.10523 (abstract), docs/math.md section 1. For s = −1 the difference of square
    roots is written as ε/(√(az + ε) + √(az)); z uses ``log1p(−δ)`` so δ near 0 or 1 is exact.

    Examples
    --------
    >>> [round(vinterbo_gaussian_sigma(e, 1e-5), 3) for e in (1.0, 10.0)]
    [4.609, 0.542]
    """
    epsilon_array = _epsilon(epsilon, positive=True, hint=_EPSILON_ZERO_HINT)
    delta_array, sensitivity_array = _delta(delta), _sensitivity(sensitivity)
    shape, (e, d, s) = _flat(epsilon_array, delta_array, sensitivity_array)
    z = -(math.log(4.0) + np.log(d) + np.log1p(-d))
    z = np.maximum(z, 0.0)  # z ≥ 0 exactly (4δ(1−δ) ≤ 1); rounding at δ = ½ could give −1e-17
    upper_half = d > 0.5
    az = np.where(upper_half, 0.25 * math.pi * z, z)
    plus = np.sqrt(az + e) + np.sqrt(az)
    with overflow_is_inf():  # σ beyond 1.8e308 (ε below about 1e-308, Δ near 1.8e308) is inf
        # plus/√2/ε, not plus/(√2 ε): √2 ε overflows at ε near 1.8e308, where σ is about 5e-155 Δ
        unit = np.where(upper_half, 1.0 / (SQRT2 * plus), plus / SQRT2 / e)
        # + 4 ulps for the (at most 3) roundings above: at ε near 1.8e308 the formula exceeds the
        # necessary Δ/√(2ε) by a factor 1 + 4e-154 only, and rounded to nearest it fell an ulp below
        sigma = _with_margin_up(s * unit, s * unit)
    return scalar_or_array(sigma.reshape(shape), epsilon, delta, sensitivity)


# ----------------------------------------------------------------------------------------------
# Gaussian differential privacy (docs/math.md section 9.3)
# ----------------------------------------------------------------------------------------------


def gdp_mu(sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The Gaussian-DP parameter of the Gaussian mechanism: μ = Δ/σ (Dong, Roth & Su 2022).

    Parameters
    ----------
    sigma : float or array_like
        σ > 0 (``inf`` allowed: μ = 0).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        μ (inf where Δ/σ overflows). k-fold composition gives √k μ (docs/math.md section 9.4).

    Examples
    --------
    >>> gdp_mu(4.0, 2.0)
    0.5
    """
    sigma_array, sensitivity_array = _sigma(sigma), _sensitivity(sensitivity)
    s, d = broadcast(sigma_array, sensitivity_array)
    return scalar_or_array(_safe_divide(d, s), sigma, sensitivity)


def gaussian_tradeoff(alpha: ArrayLike, mu: ArrayLike) -> FloatOrArray:
    """The μ-GDP trade-off function G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the least type II error at type I α.

    Parameters
    ----------
    alpha : float or array_like
        Type I error α in [0, 1].
    mu : float or array_like
        GDP parameter μ ≥ 0, finite.

    Returns
    -------
    float or ndarray
        β = G_μ(α), in [0, 1 − α]; no test distinguishing neighbours does better.

    Notes
    -----
    Dong, Roth & Su 2022, Def. 2.7 (docs/math.md section 9.3). Computed as Φ(−Φ⁻¹(α) − μ), so α close to 0
    keeps full accuracy.

    Examples
    --------
    >>> round(gaussian_tradeoff(0.05, 1.0), 6)
    0.740489
    >>> round(gaussian_tradeoff(0.3, 0.0), 12)             # μ = 0: no test beats guessing
    0.7
    """
    alpha_array = as_float_array(alpha, "alpha")
    require_interval(alpha_array, "alpha", 0.0, 1.0)
    mu_array = as_float_array(mu, "mu")
    require_interval(mu_array, "mu", 0.0, None)
    a, m = broadcast(alpha_array, mu_array)
    beta = special.ndtr(-special.ndtri(a) - m)
    return scalar_or_array(beta, alpha, mu)


# ----------------------------------------------------------------------------------------------
# Size of the noise (docs/math.md section 10)
# ----------------------------------------------------------------------------------------------


def _dimension(value):
    """dim as a float array of whole numbers ≥ 1 (an integer, or an array of them)."""
    return whole_numbers(value, "dim", 1)


def _nonnegative(value, name, allow_infinity=False):
    array = as_float_array(value, name)
    return require_interval(array, name, 0.0, None, allow_infinity=allow_infinity)


def _threshold_ratio(t, sigma):
    """t/σ, with t = inf giving inf even for σ = inf (nothing exceeds an infinite threshold)."""
    return np.where(t == np.inf, np.inf, _safe_divide(t, np.where(t == np.inf, 1.0, sigma)))


def gaussian_loss_quantile(q: ArrayLike, sigma: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """Quantile of the squared l2 norm of N(0, σ² I_dim): ‖Z‖² ~ σ² χ²_dim.

    Parameters
    ----------
    q : float or array_like
        Probability in [0, 1] (1 gives inf).
    sigma : float or array_like
        σ > 0, finite.
    dim : int or array_like of int
        Dimension d ≥ 1.

    Returns
    -------
    float or ndarray
        The q-quantile of ‖Z‖₂², ``2σ² P⁻¹(d/2, q)`` (``gammaincinv``).

    Examples
    --------
    >>> round(gaussian_loss_quantile(0.5, 1.0, 1), 6)      # median of χ²₁
    0.454936
    """
    q_array = as_float_array(q, "q")
    require_interval(q_array, "q", 0.0, 1.0)
    sigma_array = _nonnegative(sigma, "sigma")
    require_interval(sigma_array, "sigma", 0.0, None, lower_open=True)
    dim_array = _dimension(dim)
    p, s, d = broadcast(q_array, sigma_array, dim_array)
    chi_square = 2.0 * special.gammaincinv(0.5 * d, p)
    with np.errstate(over="ignore"):  # beyond float64 the quantile is inf, which is the answer
        quantile = s * (s * chi_square)
    return scalar_or_array(quantile, q, sigma, dim)


def gaussian_norm_tail(t: ArrayLike, sigma: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """P(‖Z‖₂ > t) for Z ~ N(0, σ² I_dim): Q(dim/2, t²/(2σ²)).

    Parameters
    ----------
    t : float or array_like
        Threshold t ≥ 0 (``inf`` allowed).
    sigma : float or array_like
        σ > 0 (``inf`` allowed).
    dim : int or array_like of int
        Dimension d ≥ 1.

    Returns
    -------
    float or ndarray
        The regularized upper incomplete gamma function (``gammaincc``), exact in the tail.

    Notes
    -----
    ‖Z‖²/σ² ~ χ²_d (docs/math.md section 10).

    Examples
    --------
    >>> round(gaussian_norm_tail(1.0, 1.0, 1), 10) == round(gaussian_coordinate_tail(1.0, 1.0), 10)
    True
    >>> print(f"{gaussian_norm_tail(30.0, 1.0, 10):.6e}")
    6.367822e-187
    """
    t_array = _nonnegative(t, "t", allow_infinity=True)
    sigma_array = _sigma(sigma)
    dim_array = _dimension(dim)
    x, s, d = broadcast(t_array, sigma_array, dim_array)
    ratio = np.minimum(_threshold_ratio(x, s), 1e154)  # beyond, the tail is 0 to the last bit
    return scalar_or_array(special.gammaincc(0.5 * d, 0.5 * ratio * ratio), t, sigma, dim)


def gaussian_coordinate_tail(t: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """P(|N| > t) for one coordinate N ~ N(0, σ²): erfc(t/(σ√2)).

    Parameters
    ----------
    t : float or array_like
        Threshold t ≥ 0 (``inf`` allowed).
    sigma : float or array_like
        σ > 0 (``inf`` allowed).

    Returns
    -------
    float or ndarray
        The two-sided tail; underflows to 0 beyond t ≈ 38σ: use
        :func:`gaussian_log_coordinate_tail` there.

    Examples
    --------
    >>> round(gaussian_coordinate_tail(1.96, 1.0), 4)
    0.05
    """
    t_array = _nonnegative(t, "t", allow_infinity=True)
    sigma_array = _sigma(sigma)
    x, s = broadcast(t_array, sigma_array)
    ratio = _threshold_ratio(x, s)
    return scalar_or_array(special.erfc(ratio / SQRT2), t, sigma)


def gaussian_log_coordinate_tail(t: ArrayLike, sigma: ArrayLike) -> FloatOrArray:
    """log P(|N| > t) for N ~ N(0, σ²): log 2 + log Φ(−t/σ), for plots down to 1e-300 and beyond.

    Parameters
    ----------
    t : float or array_like
        Threshold t ≥ 0 (``inf`` allowed).
    sigma : float or array_like
        σ > 0 (``inf`` allowed).

    Returns
    -------
    float or ndarray
        The natural log of the two-sided tail (−inf at t = inf or where it is below e^{−1e307}).

    Examples
    --------
    >>> round(gaussian_log_coordinate_tail(40.0, 1.0), 4)         # 1e-349: below float64
    -803.9153
    """
    t_array = _nonnegative(t, "t", allow_infinity=True)
    sigma_array = _sigma(sigma)
    x, s = broadcast(t_array, sigma_array)
    ratio = _threshold_ratio(x, s)
    return scalar_or_array(LOG2 + special.log_ndtr(-ratio), t, sigma)
