"""Liu's generalized Gaussian (GG) family: the distribution, its calibrations, and its comparisons.

Fang Liu, "Generalized Gaussian mechanism for differential privacy", arXiv:1602.06028
(docs/math.md section 5). ``GG(0, b, p)`` has density ``p / (2 b Γ(1/p)) exp(-(|x|/b)^p)``; p = 1 is
Laplace with scale b, p = 2 is the Gaussian with ``σ = b/√2``. The order p is restricted to
``1 <= p <= 10`` throughout: p >= 1 makes the privacy loss monotone, which every calibration here
relies on, and the numerics are checked up to p = 10.

What is here:

* the distribution (docs/math.md section 5.1): density, CDF, two-sided tail ``Q(1/p, (t/b)^p)`` and its log
  (valid far below 1e-300), moments, samplers;
* :func:`generalized_gaussian_scale` with ``guarantee="approximate"``: the smallest b whose
  **exact** (ε, δ) privacy profile (docs/math.md section 5.5) meets δ, with the profile itself
  (:func:`generalized_gaussian_delta`) and its inverse in ε; with ``guarantee="probabilistic"``:
  the (ε, δ)-probabilistic-DP scale of "Corollary 7 (reconstructed)" (docs/math.md section 5.4);
* the truncated and boundary-inflated truncated (BIT) GG mechanisms for bounded data, pure ε-DP
  (docs/math.md section 5.6);
* Liu's Gaussian-versus-Laplace comparisons (Lemma 11, tail ratios, privacy-cost ratios,
  docs/math.md section 5.7).

All quantities that can be tiny are carried in log space. Writing ``R(a, x) = e^x Q(a, x)`` (the
analogue of ``erfcx`` for the incomplete gamma function), the exact profile is a difference of two
``R`` values times ``e^{-x}`` and never forms ``e^ε`` (see :func:`generalized_gaussian_log_delta`).
Calibrations bisect to adjacent floating-point numbers and return the end of the bracket on the
private side, then check the result with the forward formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy import special, stats

from ._types import ArrayLike, FloatOrArray, Shape
from ._validation import (
    as_float_array,
    broadcast,
    broadcast_1d as _broadcast,
    delta_array as _delta_array,
    epsilon_array as _epsilon_array,
    overflow_is_inf,
    positive_array as _positive_array,
    require_choice,
    require_interval,
    sample_shape,
    scalar_or_array,
)
from .gaussian import analytic_gaussian_sigma, pdp_gaussian_sigma
from .laplace import (
    _log_delta_of_ratio as _laplace_log_delta_of_ratio,  # the p = 1 profile at ε₀ = Δ/b
    laplace_delta,
    laplace_epsilon,
    laplace_log_delta,
    laplace_scale,
    laplace_scale_for_delta,
)

__all__ = [
    "COROLLARY7_LABEL",
    "ORDER_RANGE",
    "LEMMA11_DELTA_THRESHOLD",
    "gg_pdf",
    "gg_logpdf",
    "gg_cdf",
    "gg_tail",
    "gg_log_tail",
    "gg_variance",
    "gg_mean_absolute",
    "gg_kurtosis",
    "gg_absolute_moment",
    "gg_scale_from_std",
    "gg_density_at_mean_equal_variance",
    "gg_sample",
    "generalized_gaussian_scale",
    "generalized_gaussian_delta",
    "generalized_gaussian_log_delta",
    "generalized_gaussian_epsilon",
    "generalized_gaussian_pdp_delta",
    "truncated_gg_scale",
    "bit_gg_epsilon",
    "bit_gg_scale",
    "truncated_gg_sample",
    "bit_gg_sample",
    "lemma11_variance_ratio",
    "TailComparison",
    "laplace_gaussian_tail_ratio",
    "privacy_cost_ratio",
]

COROLLARY7_LABEL = "Corollary 7 (reconstructed)"
"""How the interface must label Liu's pDP condition for p >= 2: its text was not readable (docs/math.md section 5.4)."""

ORDER_RANGE = (1.0, 10.0)
"""The orders p this module accepts."""

LEMMA11_DELTA_THRESHOLD = float(special.erfc(1.0))
"""``2 Φ(-√2) = erfc(1) = 0.157299...``: below it, Lemma-10 Gaussian noise has more variance than
Laplace noise at the same ε, for every ε > 0 (Liu, Lemma 11; docs/math.md section 5.7)."""

_GUARANTEES = ("approximate", "probabilistic")

# R(a, x) = e^x Q(a, x) is evaluated as e^x * gammaincc below this x and by its asymptotic series
#     R(a, x) ~ x^(a-1)/Γ(a) * sum_k (a-1)(a-2)...(a-k) / x^k
# above it. For 0 < a <= 1 the k-th coefficient is at most k!, so with 40 terms at x >= 50 the
# truncation error is below 40!/50^40 < 1e-20 (relative). scipy has no log-space or scaled
# upper incomplete gamma, which is why this is written out here.
_SERIES_START = 50.0
_SERIES_TERMS = 40
# R(a, x) - R(a, x + ε) cancels when ε << x; there it is computed as the integral of -dR/dx over
# [x, x + ε] with Gauss-Legendre nodes. The integrand is analytic within a distance x of the
# interval, so 12 nodes are exact to double precision whenever ε <= x/10.
_SHORT_INTERVAL = 0.1
_GAUSS_NODES, _GAUSS_WEIGHTS = np.polynomial.legendre.leggauss(12)
# Thresholds are bracketed so that |u|^p <= 1e300: beyond that the tail is exp(-1e300), which is
# 0 in double precision (and in its logarithm's useful range), so nothing is lost.
_LOG_LARGEST_POWER = math.log(1e300)
# Calibrations aim at log δ_target - margin, margin = 1e-14 (1 + |log δ_target|) (1 + 0.1/(p - 1)).
# It covers the rounding error of the log-profile, checked against mpmath: about 1e-15 |log δ| for
# p >= 1.01, growing like 1e-16 |log δ|/(p - 1) as p -> 1 (the tail term R(a, x1) - R(a, x2) is
# proportional to 1 - 1/p there). So the result meets δ in exact arithmetic too. Measured against
# an mpmath calibration, the margin costs under 2e-13 relative in b for p >= 1.5, 2e-12 at
# p = 1.01 and 2e-11 at p = 1.001 (eps in [1e-6, 1e3], delta in [1e-300, 0.9]).
_LOG_DELTA_MARGIN = 1e-14
_MARGIN_ORDER_SCALE = 0.1
# A calibrated value is checked with the forward formula; if rounding left it a hair on the
# non-private side it is moved by a relative step that doubles each round (2^-52, 2^-51, ...).
_MAX_NUDGES = 60


# --- validation ---------------------------------------------------------------------------------


def _order_array(order: ArrayLike) -> np.ndarray:
    return require_interval(
        as_float_array(order, "order"),
        "order",
        *ORDER_RANGE,
        hint="Liu's GG mechanisms need p >= 1 (a monotone privacy loss); this library supports 1 <= p <= 10",
    )


def _sensitivity_array(sensitivity: ArrayLike) -> np.ndarray:
    """Δ >= 0, as for the Gaussian functions: Δ = 0 means no noise is needed (b = 0, δ = 0, ε = 0)."""
    return require_interval(as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None)


def _threshold_array(t: ArrayLike) -> np.ndarray:
    return require_interval(as_float_array(t, "t"), "t", 0.0, None, allow_infinity=True)


def _require_rng(rng: object) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got rng={rng!r}")


_SMALLEST_FRACTION = float(np.finfo(np.float64).tiny)  # Δ/W below it: the kernel shape underflows


def _refuse_sensitivity(bad: np.ndarray, sensitivity: np.ndarray, width: np.ndarray, rule: str, joiner: str) -> None:
    """ValueError naming sensitivity (and W) at the first element where ``bad`` holds."""
    if bad.any():
        index = tuple(np.argwhere(bad)[0]) if bad.ndim else ()
        raise ValueError(
            f"sensitivity must be {rule}, got sensitivity={float(sensitivity[index])!r} {joiner} W={float(width[index])!r}"
            + (f" (first bad element at index {tuple(int(i) for i in index)})" if bad.ndim else "")
        )


def _bounds_arrays(
    lower: ArrayLike, upper: ArrayLike, sensitivity: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Validate bounds ``lower < upper`` (finite, with a finite width) and ``2.2e-308 W <= Δ <= W``."""
    lower_array = require_interval(as_float_array(lower, "lower"), "lower")
    upper_array = require_interval(as_float_array(upper, "upper"), "upper")
    lower_b, upper_b = broadcast(lower_array, upper_array)
    with np.errstate(over="ignore"):  # an infinite width is reported just below
        width = upper_b - lower_b
    require_interval(
        width, "upper - lower", 0.0, None, lower_open=True, hint="the bounds need lower < upper and a finite width"
    )
    if sensitivity is not None:
        sensitivity_b, width_b = broadcast(sensitivity, width)
        _refuse_sensitivity(
            sensitivity_b > width_b,
            sensitivity_b,
            width_b,
            "at most the width W = upper - lower of the bounded range",
            ">",
        )
        # Below Δ/W = 2.2e-308 the kernel's 1 - (1 - Δ/W)^p underflows (to 0, or to a subnormal
        # with a few bits), so neither the scale nor ε can be computed from it.
        _refuse_sensitivity(
            sensitivity_b / width_b < _SMALLEST_FRACTION,
            sensitivity_b,
            width_b,
            f"at least {_SMALLEST_FRACTION:.3g} × the width W = upper - lower",
            "with",
        )
    return lower_array, upper_array


# --- numerical building blocks ----------------------------------------------------------------


def _scaled_sensitivity_of(sensitivity: np.ndarray, scale: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``D = Δ/b`` as the privacy checks use it: rounded up to the next double where p > 1.

    For p > 1 every profile here increases smoothly with D, and the quotient is correctly rounded,
    so rounding it up makes each evaluation conservative for the exact b. At p = 1 the profile has
    a kink at ε = Δ/b, where rounding up would report δ ≈ 1e-16 for scales that are exactly
    private; the Laplace closed forms are rounded towards privacy in gaussmech_core.laplace instead.
    """
    with np.errstate(over="ignore"):  # Δ/b beyond 1.8e308 is inf: δ = 1, which the formulas return
        ratio = sensitivity / scale
    return np.where(order == 1.0, ratio, np.nextafter(ratio, np.inf))


def _power(base: np.ndarray, exponent: FloatOrArray) -> np.ndarray:
    """``base**exponent`` for base >= 0, where overflow to +inf is the correct answer."""
    with np.errstate(over="ignore"):  # x^p > 1.8e308 means a tail of exactly 0 in double precision
        return np.power(base, exponent)


# P(a, x) for x < _ROOT_SERIES_END is summed from its series in x = y^p with the factor x^a = y
# taken from the root y itself, so it stays exact when y^p underflows (y < 1e-162 at p = 2):
#     P(1/p, y^p) = y / Γ(1 + 1/p) * sum_k a (-x)^k / ((a + k) k!),   a = 1/p.
# The terms are below x^k/k!, so 20 of them leave an error below 0.5^20/20! < 1e-24 (relative).
_ROOT_SERIES_END = 0.5
_ROOT_SERIES_TERMS = 20
_ROOT_SERIES_K = np.arange(1.0, _ROOT_SERIES_TERMS + 1.0)


def _lower_gamma_of_root(a: np.ndarray, root: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``P(a, y^p)`` with ``a = 1/p`` for roots ``y >= 0``, accurate where ``y^p`` underflows.

    The total-variation distance of GG noise at ε = 0 is ``P(1/p, (Δ/2b)^p)``; forming
    ``(Δ/2b)^p`` first loses it below 1e-308 although the distance itself is about Δ/b (issue 9).
    """
    x = _power(root, order)
    result = np.empty_like(x)
    small = x < _ROOT_SERIES_END
    result[~small] = special.gammainc(a[~small], x[~small])
    a_small, x_small = a[small], x[small]
    # All terms at once ((-x)^k/k! as a running product along k): one pass of array operations
    # instead of a Python loop of twenty, the calibrations' inner kernel.
    k = _ROOT_SERIES_K
    terms = np.cumprod(-x_small[:, None] / k, axis=1) * (a_small[:, None] / (a_small[:, None] + k))
    total = 1.0 + terms.sum(axis=1)
    result[small] = root[small] / special.gamma(1.0 + a_small) * total
    return result


def _root_of_sum(magnitude: np.ndarray, epsilon: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``(m^p + ε)^(1/p)`` for m, ε >= 0, without forming ``m^p`` (which underflows for tiny m).

    With ``r = ε^(1/p)`` and ``M = max(m, r)`` it is ``M ((m/M)^p + (r/M)^p)^(1/p)``: both ratios
    are at most 1 and one of them is 1, so nothing underflows that matters and nothing overflows.
    """
    epsilon_root = _power(epsilon, 1.0 / order)
    largest = np.maximum(magnitude, epsilon_root)
    positive = largest > 0.0
    safe = np.where(positive, largest, 1.0)
    inner = np.power(magnitude / safe, order) + np.power(epsilon_root / safe, order)
    with np.errstate(over="ignore"):  # beyond 1.8e308 the root is inf, as the plain formula gives
        return np.where(positive, largest * np.power(inner, 1.0 / order), 0.0)


def _series_tail(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``sum_{k>=1} (a-1)(a-2)...(a-k) / x^k``, so that ``R(a, x) ~ x^(a-1)/Γ(a) (1 + tail)`` for x >= 50.

    The terms alternate in sign and shrink (``|a - k| < k < x``), so the remainder is below the
    last term added: the loop stops once every term is below 1e-17, after at most 40 terms.
    """
    tail = np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, _SERIES_TERMS + 1):
        term *= (a - k) / x
        tail += term
        if k % 8 == 0 and not np.any(np.abs(term) > 1e-17):
            break
    return tail


def _scaled_upper_gamma(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``R(a, x) = e^x Q(a, x)`` for 0 < a <= 1 and 0 <= x <= inf (decreasing in x, R(a, 0) = 1)."""
    result = np.empty_like(x)
    small = x < _SERIES_START
    result[small] = np.exp(x[small]) * special.gammaincc(a[small], x[small])
    large = ~small
    a_large, x_large = a[large], x[large]
    result[large] = np.power(x_large, a_large - 1.0) / special.gamma(a_large) * (1.0 + _series_tail(a_large, x_large))
    return result


def _one_minus_scaled_upper_gamma(a: np.ndarray, x: np.ndarray, root: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``1 - R(a, x)`` at ``x = root^p``, accurate for small x where R is close to 1.

    There it is ``P(a, x) - expm1(x) Q(a, x)``, with P taken from the root (exact where x
    underflows; then ``expm1(x) Q`` is below x, negligible beside ``P ~ x^(1/p)``).
    """
    result = np.empty_like(x)
    small = x < 1.0
    a_small, x_small = a[small], x[small]
    result[small] = _lower_gamma_of_root(a_small, root[small], order[small]) - np.expm1(x_small) * special.gammaincc(
        a_small, x_small
    )
    result[~small] = 1.0 - _scaled_upper_gamma(a[~small], x[~small])
    return result


def _scaled_gamma_slope(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``-dR/dx = x^(a-1)/Γ(a) - R(a, x)`` (positive for a < 1), for x > 0."""
    result = np.empty_like(x)
    small = x < _SERIES_START
    a_small, x_small = a[small], x[small]
    result[small] = np.power(x_small, a_small - 1.0) / special.gamma(a_small) - np.exp(x_small) * special.gammaincc(
        a_small, x_small
    )
    large = ~small
    a_large, x_large = a[large], x[large]
    result[large] = -np.power(x_large, a_large - 1.0) / special.gamma(a_large) * _series_tail(a_large, x_large)
    return result


def _scaled_gamma_drop(
    a: np.ndarray,
    x: np.ndarray,
    epsilon: np.ndarray,
    root: np.ndarray,
    far_root: np.ndarray,
    order: np.ndarray,
    gap: np.ndarray,
) -> np.ndarray:
    """``R(a, x) - R(a, x + ε) >= 0`` at ``x = root^p`` and ``x + ε = far_root^p``, without
    cancellation (quadrature of -dR/dx when ε <= x/10)."""
    result = np.empty_like(x)
    short = (epsilon > 0.0) & (epsilon <= _SHORT_INTERVAL * x)
    if short.any():
        x_short, epsilon_short = x[short][:, None], epsilon[short][:, None]
        nodes = x_short + epsilon_short * (1.0 + _GAUSS_NODES) / 2.0
        slopes = _scaled_gamma_slope(np.broadcast_to(a[short][:, None], nodes.shape).copy(), nodes)
        result[short] = epsilon[short] / 2.0 * (slopes @ _GAUSS_WEIGHTS)
    # Near 0 with far_root - root = D small against root (tiny Δ/b): x + ε may round to x, and
    # ε itself may underflow. There R1 - R2 = e^x (ΔP - expm1(ε) Q(a, x + ε)) with
    # ΔP = P(a, far^p) - P(a, root^p) = ∫ e^{-t^p} dt / Γ(1 + a) over [root, far], by Gauss-Legendre
    # (the integrand is analytic within a distance root of the interval, and D <= root/10).
    with overflow_is_inf():  # x + ε beyond 1.8e308 (ε near the largest double) is inf: R(a, inf) = 0
        far_x_all = x + epsilon
    narrow = ~short & (far_x_all < 1.0) & (gap <= _SHORT_INTERVAL * root) & (gap > 0.0)
    if narrow.any():
        root_n, gap_n, a_n, order_n = root[narrow][:, None], gap[narrow][:, None], a[narrow], order[narrow]
        nodes = root_n + gap_n * (1.0 + _GAUSS_NODES) / 2.0
        integrand = np.exp(-np.power(nodes, order_n[:, None]))
        increment = gap[narrow] / 2.0 * (integrand @ _GAUSS_WEIGHTS) / special.gamma(1.0 + a_n)
        far_x = x[narrow] + epsilon[narrow]
        result[narrow] = np.exp(x[narrow]) * (increment - np.expm1(epsilon[narrow]) * special.gammaincc(a_n, far_x))
    near_zero = ~short & ~narrow & (far_x_all < 1.0)
    a_near, x_near, epsilon_near = a[near_zero], x[near_zero], epsilon[near_zero]
    root_near, order_near = root[near_zero], order[near_zero]
    result[near_zero] = _one_minus_scaled_upper_gamma(
        a_near, x_near + epsilon_near, far_root[near_zero], order_near
    ) - _one_minus_scaled_upper_gamma(a_near, x_near, root_near, order_near)
    direct = ~short & ~narrow & ~near_zero
    result[direct] = _scaled_upper_gamma(a[direct], x[direct]) - _scaled_upper_gamma(a[direct], far_x_all[direct])
    return result


def _log_upper_gamma(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``log Q(a, x)`` for 0 < a <= 1, finite however small Q is (down to x = 1e300)."""
    result = np.empty_like(x)
    small = x < _SERIES_START
    a_small, x_small = a[small], x[small]
    lower = special.gammainc(a_small, x_small)
    result[small] = np.where(
        lower < 0.5, np.log1p(-np.minimum(lower, 0.5)), np.log(special.gammaincc(a_small, x_small))
    )
    large = ~small & np.isfinite(x)
    a_large, x_large = a[large], x[large]
    result[large] = (
        -x_large
        + (a_large - 1.0) * np.log(x_large)
        - special.gammaln(a_large)
        + np.log1p(_series_tail(a_large, x_large))
    )
    result[np.isinf(x)] = -np.inf
    return result


def _order_key(values: np.ndarray) -> np.ndarray:
    """Doubles as int64 keys in the same order (negative numbers flipped), so that every bracket,
    whatever its sign or range of magnitudes, is halved by the midpoint of its keys."""
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.int64)
    return bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))


def _from_order_key(keys: np.ndarray) -> np.ndarray:
    """The inverse of :func:`_order_key`."""
    return (keys ^ ((keys >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))).view(np.float64)


_SMART_STEPS = 64  # probes chosen by interpolation, then bisection of the keys closes any bracket


def _bisect(
    function: Callable[[np.ndarray], np.ndarray],
    target: np.ndarray | float,
    lower: np.ndarray,
    upper: np.ndarray,
    *,
    inclusive: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The adjacent doubles ``lower < upper`` around the crossing of the predicate
    ``function(x) > target`` (``>=`` when ``inclusive``), elementwise, for an increasing ``function``.

    The predicate must be False at ``lower`` and True at ``upper`` (and monotone between). Only the
    predicate decides which end of the bracket moves, so the result is the crossing plain bisection
    finds; the values of the gap ``function(x) - target`` only choose where to probe. The probe
    is the Illinois variant of regula falsi while that keeps cutting ``|gap|`` at least in half,
    and otherwise the bracket's midpoint: arithmetic where the ends are of one magnitude or of
    opposite signs, in the order of doubles where they are binades apart. After 64 probes the
    midpoint of the keys alone finishes, so every bracket closes in at most 128 steps; a smooth
    root takes about 10 (plain bisection of the keys takes up to 64).
    """
    lower_key, upper_key = _order_key(lower), _order_key(upper)
    with np.errstate(all="ignore"):  # the ends only seed the interpolation; inf or NaN there just disables it
        lower_gap = np.asarray(function(_from_order_key(lower_key)), dtype=np.float64) - target
        upper_gap = np.asarray(function(_from_order_key(upper_key)), dtype=np.float64) - target
    interpolate = np.ones(lower_key.shape, dtype=bool)
    lower_stayed = upper_stayed = np.zeros(lower_key.shape, dtype=bool)
    for step in range(2 * _SMART_STEPS + 2):
        active = lower_key + 1 < upper_key
        if not active.any():
            break
        low, high = _from_order_key(lower_key), _from_order_key(upper_key)
        key_middle = lower_key // 2 + upper_key // 2 + ((lower_key & 1) + (upper_key & 1)) // 2
        if step < _SMART_STEPS:
            with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                arithmetic = (
                    np.isfinite(high - low)
                    & ((low <= 0.0) | (high <= 1024.0 * low))
                    & ((high >= 0.0) | (low >= 1024.0 * high))
                )
                middle_key = np.where(
                    arithmetic, _order_key(np.where(arithmetic, low + (high - low) / 2.0, 0.0)), key_middle
                )
                falsi = low - lower_gap * ((high - low) / (upper_gap - lower_gap))
                usable = interpolate & np.isfinite(falsi) & (lower_gap < 0.0) & (upper_gap > 0.0)
                falsi_key = _order_key(np.where(usable, falsi, 0.0))
            probe_key = np.where(usable, falsi_key, middle_key)
            probe_key = np.clip(probe_key, lower_key + 1, np.maximum(upper_key - 1, lower_key + 1))
        else:
            usable = np.zeros(lower_key.shape, dtype=bool)
            probe_key = key_middle
        probe_value = np.asarray(function(_from_order_key(probe_key)), dtype=np.float64)
        goes_up = probe_value >= target if inclusive else probe_value > target
        with np.errstate(invalid="ignore", over="ignore"):
            probe_gap = probe_value - target  # NaN where both are the same infinity: no interpolation
        move_upper, move_lower = active & goes_up, active & ~goes_up
        with np.errstate(invalid="ignore"):
            interpolate = ~usable | (np.abs(probe_gap) <= 0.5 * np.minimum(np.abs(lower_gap), np.abs(upper_gap)))
        # Illinois: an end that stays while the other moves twice has its gap halved, so the next
        # interpolation leaves it instead of creeping towards the root from one side.
        lower_gap = np.where(move_upper & lower_stayed & usable, lower_gap / 2.0, lower_gap)
        upper_gap = np.where(move_lower & upper_stayed & usable, upper_gap / 2.0, upper_gap)
        upper_stayed, lower_stayed = move_lower, move_upper
        upper_key = np.where(move_upper, probe_key, upper_key)
        lower_key = np.where(move_lower, probe_key, lower_key)
        upper_gap = np.where(move_upper, probe_gap, upper_gap)
        lower_gap = np.where(move_lower, probe_gap, lower_gap)
    return _from_order_key(lower_key), _from_order_key(upper_key)


def _working_log_target(
    delta: np.ndarray, order: np.ndarray | None = None, epsilon: np.ndarray | None = None
) -> np.ndarray:
    """``log δ`` lowered by the margin that covers the rounding error of the exact profile at order
    p > 1 (``order=None``: of the pDP condition, whose accuracy does not depend on p).

    The factor ``1 + 0.1/(p - 1)`` covers the cancellation in ``R(a, x1) - R(a, x2)`` on the tail
    side of the loss threshold (u < 0); at ε = 0 the threshold is Δ/2b > 0, where the profile is the
    total-variation distance taken from the root, so there (``epsilon`` given and 0) it is left out.
    """
    log_delta = np.log(delta)
    margin = _LOG_DELTA_MARGIN * (1.0 + np.abs(log_delta))
    if order is not None:
        factor = 1.0 + _MARGIN_ORDER_SCALE / (order - 1.0)
        margin = margin * (factor if epsilon is None else np.where(epsilon > 0.0, factor, 1.0))
    return log_delta - margin


def _raise_until(
    is_private: Callable[[np.ndarray, np.ndarray], np.ndarray], values: np.ndarray, floor: float = 0.0
) -> np.ndarray:
    """Raise each value by a relative step that doubles each round until ``is_private`` holds.

    ``is_private(candidates, where)`` receives the candidates for the elements selected by the
    boolean mask ``where`` and returns a boolean array for them; infinite values count as private.
    It only absorbs the last bits of rounding after a calibration: one or two rounds in practice.
    """
    values = values.copy()
    pending = np.isfinite(values)  # infinite noise is private; it needs no check
    pending[pending] = ~is_private(values[pending], pending)
    step = np.finfo(float).eps
    for _ in range(_MAX_NUDGES):
        if not pending.any():
            return values
        values[pending] = np.maximum(values[pending] * (1.0 + step), floor)
        still = ~is_private(values[pending], pending)
        pending[pending] = still
        step *= 2.0
    raise RuntimeError("a calibrated value could not be verified; please report this as a bug")  # pragma: no cover


# --- the distribution (docs/math.md section 5.1) -----------------------------------------------------------


def gg_pdf(x: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Density ``p / (2 b Γ(1/p)) exp(-(|x|/b)^p)`` of GG(0, b, p).

    Parameters
    ----------
    x : float or array_like
        Points (may be ±inf).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    Liu (arXiv:1602.06028) Sec. 2.3; docs/math.md section 5.1. ``scipy.stats.gennorm`` with shape ``β = p`` and
    ``scale = b`` has exactly this density (``β/(2Γ(1/β)) exp(-|x|^β)`` before scaling); the value
    is ``exp`` of :func:`gg_logpdf`.

    Examples
    --------
    >>> round(gg_pdf(0.0, 1.0, 1.0), 12)  # Laplace(0, 1)
    0.5
    >>> round(gg_pdf(0.0, math.sqrt(2.0), 2.0), 12)  # N(0, 1)
    0.398942280401
    """
    return scalar_or_array(np.exp(np.asarray(gg_logpdf(x, scale, order))), x, scale, order)


def gg_logpdf(x: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Log density ``log(p / (2 b Γ(1/p))) - (|x|/b)^p`` of GG(0, b, p).

    Parameters
    ----------
    x : float or array_like
        Points (may be ±inf).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    ``scipy.stats.gennorm.logpdf``; docs/math.md section 5.1.

    Examples
    --------
    >>> round(gg_logpdf(1.0, 1.0, 2.0), 12)  # log(1/√π) - 1
    -1.572364942925
    """
    x_array = require_interval(as_float_array(x, "x"), "x", allow_infinity=True)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    x_b, scale_b, order_b = _broadcast(x_array, scale_array, order_array)
    with np.errstate(over="ignore"):  # |x/b|^p = inf gives log density -inf, the right value
        result = stats.gennorm.logpdf(x_b, order_b, scale=scale_b)
    return scalar_or_array(result, x, scale, order)


def gg_cdf(x: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Cumulative distribution function of GG(0, b, p).

    Parameters
    ----------
    x : float or array_like
        Points (may be ±inf).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ``Q(1/p, (|x|/b)^p)/2`` for x < 0 and ``1 - Q(1/p, (x/b)^p)/2`` for x >= 0.

    Notes
    -----
    docs/math.md section 5.1. ``scipy.stats.gennorm.cdf`` evaluates the left tail with ``gammaincc`` directly
    (no ``1 - P`` cancellation), so small values are accurate to the last digits.

    Examples
    --------
    >>> gg_cdf(0.0, 1.0, 3.0)
    0.5
    >>> round(gg_cdf(-1.0, 1.0, 1.0), 12)  # e^{-1}/2
    0.183939720586
    """
    x_array = require_interval(as_float_array(x, "x"), "x", allow_infinity=True)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    x_b, scale_b, order_b = _broadcast(x_array, scale_array, order_array)
    with np.errstate(over="ignore"):  # |x/b|^p = inf gives a tail of 0, the right value
        result = stats.gennorm.cdf(x_b, order_b, scale=scale_b)
    return scalar_or_array(result, x, scale, order)


def gg_log_tail(t: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Natural log of the two-sided tail ``P(|X| > t) = Q(1/p, (t/b)^p)``, finite far below 1e-300.

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (may be inf, giving -inf).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    docs/math.md sections 5.1 and 10. With ``a = 1/p`` and ``x = (t/b)^p``: for x < 50, ``log(gammaincc(a, x))``
    (or ``log1p(-gammainc(a, x))`` when Q > 1/2); for x >= 50, the asymptotic expansion
    ``log Q(a, x) = -x + (a-1) log x - log Γ(a) + log sum_k (a-1)...(a-k)/x^k`` with 40 terms,
    whose truncation error is below 1e-20 for 1/10 <= a <= 1 (the series is written out because
    scipy has no log-space incomplete gamma function). Checked against mpmath at 50 digits for
    x up to 1e5, i.e. tails down to about 1e-43000.

    Examples
    --------
    >>> round(gg_log_tail(1.0, 1.0, 1.0), 12)  # Laplace: -t/b
    -1.0
    >>> round(gg_log_tail(100.0, 1.0, 2.0), 6)  # log erfc(100): the tail is 6.4e-4346
    -10005.177585
    """
    t_array = _threshold_array(t)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    t_b, scale_b, order_b = _broadcast(t_array, scale_array, order_array)
    with np.errstate(over="ignore"):  # t/b beyond 1.8e308 (subnormal b): the tail is 0, log -inf
        ratio = t_b / scale_b
    result = _log_upper_gamma(1.0 / order_b, _power(ratio, order_b))
    return scalar_or_array(result, t, scale, order)


def gg_tail(t: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Two-sided tail probability ``P(|X| > t) = Q(1/p, (t/b)^p)`` of GG(0, b, p).

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (may be inf).
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        The tail, from ``scipy.special.gammaincc`` (0 where it underflows; use
        :func:`gg_log_tail` below 1e-308).

    Notes
    -----
    docs/math.md section 5.1 and the formula sheet of section 10.

    Examples
    --------
    >>> round(gg_tail(1.0, 1.0, 2.0), 12)  # erfc(1)
    0.15729920705
    >>> round(gg_tail(2.0, 1.0, 1.0), 12)  # e^{-2}
    0.135335283237
    """
    t_array = _threshold_array(t)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    t_b, scale_b, order_b = _broadcast(t_array, scale_array, order_array)
    with np.errstate(over="ignore"):  # t/b beyond 1.8e308 (subnormal b): the tail is 0
        ratio = t_b / scale_b
    result = special.gammaincc(1.0 / order_b, _power(ratio, order_b))
    return scalar_or_array(result, t, scale, order)


def gg_absolute_moment(q: ArrayLike, scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Absolute moment ``E|X|^q = b^q Γ((q+1)/p) / Γ(1/p)`` of GG(0, b, p).

    Parameters
    ----------
    q : float or array_like
        Moment order q > -1.
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ``E|X|^q``; inf where it exceeds 1.8e308 (q or b large).

    Notes
    -----
    docs/math.md section 5.1 (from ``|X|^p / b^p ~ Gamma(1/p, 1)``); evaluated as
    ``exp(q log b + log Γ((q+1)/p) − log Γ(1/p))`` (``gammaln``), so b^q may overflow or
    underflow on its own without spoiling the product.

    Examples
    --------
    >>> round(gg_absolute_moment(2.0, 1.0, 1.0), 12)  # Laplace variance 2 b²
    2.0
    """
    q_array = require_interval(as_float_array(q, "q"), "q", -1.0, None, lower_open=True)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    q_b, scale_b, order_b = _broadcast(q_array, scale_array, order_array)
    with overflow_is_inf():  # a moment beyond 1.8e308 is inf, as documented
        log_ratio = special.gammaln((q_b + 1.0) / order_b) - special.gammaln(1.0 / order_b)
        log_power = np.where(q_b == 0.0, 0.0, q_b * np.log(scale_b))
        # -inf + inf only where q is near 1.8e308 and b < 1/e: Γ((q+1)/p) grows faster than b^q falls
        log_moment = np.where(np.isposinf(log_ratio), np.inf, log_power + log_ratio)
        result = np.exp(log_moment)
    return scalar_or_array(result, q, scale, order)


def gg_variance(scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Variance ``b² Γ(3/p) / Γ(1/p)`` of GG(0, b, p).

    Parameters
    ----------
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        The variance; inf where it exceeds 1.8e308 (b above about 1e154).

    Notes
    -----
    docs/math.md section 5.1; ``E||N||₂² = d × variance`` for d i.i.d. coordinates (section 10).

    Examples
    --------
    >>> round(gg_variance(math.sqrt(2.0), 2.0), 12)  # σ² = b²/2
    1.0
    """
    return gg_absolute_moment(2.0, scale, order)


def gg_mean_absolute(scale: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Mean absolute value ``E|X| = b Γ(2/p) / Γ(1/p)`` of GG(0, b, p).

    Parameters
    ----------
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ``E|X|``; inf where it exceeds 1.8e308 (b near the largest double).

    Notes
    -----
    docs/math.md sections 5.1 and 10.

    Examples
    --------
    >>> round(gg_mean_absolute(2.0, 1.0), 12)
    2.0
    """
    return gg_absolute_moment(1.0, scale, order)


def gg_kurtosis(order: ArrayLike) -> FloatOrArray:
    """Kurtosis (not excess) ``Γ(5/p) Γ(1/p) / Γ(3/p)²`` of GG(·, ·, p): 6 for Laplace, 3 for Gaussian.

    Parameters
    ----------
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray

    Notes
    -----
    docs/math.md section 5.1.

    Examples
    --------
    >>> round(gg_kurtosis(1.0), 12), round(gg_kurtosis(2.0), 12)
    (6.0, 3.0)
    """
    order_array = _order_array(order)
    log_value = (
        special.gammaln(5.0 / order_array)
        + special.gammaln(1.0 / order_array)
        - 2.0 * special.gammaln(3.0 / order_array)
    )
    return scalar_or_array(np.exp(log_value), order)


def gg_scale_from_std(std: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """The scale b of the GG(0, b, p) with standard deviation ``std``: ``b = std √(Γ(1/p)/Γ(3/p))``.

    Parameters
    ----------
    std : float or array_like
        Standard deviation > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        b; inf where it exceeds 1.8e308 (std near the largest double, p > 1).

    Notes
    -----
    Inverse of :func:`gg_variance` (docs/math.md section 5.1).

    Examples
    --------
    >>> round(gg_scale_from_std(1.0, 2.0), 12)  # b = √2 σ
    1.414213562373
    """
    std_array = _positive_array(std, "std")
    order_array = _order_array(order)
    std_b, order_b = _broadcast(std_array, order_array)
    log_factor = (special.gammaln(1.0 / order_b) - special.gammaln(3.0 / order_b)) / 2.0
    with overflow_is_inf():  # b beyond 1.8e308 is inf, as documented
        scale = std_b * np.exp(log_factor)
    return scalar_or_array(scale, std, order)


def gg_density_at_mean_equal_variance(std: ArrayLike, order: ArrayLike) -> FloatOrArray:
    """Density at the mean of the GG(p) with standard deviation σ: ``p √Γ(3/p) / (2 σ Γ(1/p)^{3/2})``.

    Parameters
    ----------
    std : float or array_like
        The common standard deviation σ > 0.
    order : float or array_like
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        The density; inf where it exceeds 1.8e308 (σ subnormal).

    Notes
    -----
    Liu's remark (Sec. 2.3) that at equal variance Laplace puts the most mass near the mean:
    0.707/σ for p = 1, 0.399/σ for p = 2 (docs/math.md section 5.1).

    Examples
    --------
    >>> round(gg_density_at_mean_equal_variance(1.0, 1.0), 6), round(gg_density_at_mean_equal_variance(1.0, 2.0), 6)
    (0.707107, 0.398942)
    """
    std_array = _positive_array(std, "std")
    order_array = _order_array(order)
    std_b, order_b = _broadcast(std_array, order_array)
    log_value = special.gammaln(3.0 / order_b) / 2.0 - 1.5 * special.gammaln(1.0 / order_b)
    # (p/2) e^{...} / σ, not p/(2σ) e^{...}: 2σ overflows at σ near 1.8e308, where the density is 1e-309
    with overflow_is_inf():  # a density beyond 1.8e308 (σ subnormal) is inf, as documented
        density = 0.5 * order_b * np.exp(log_value) / std_b
    return scalar_or_array(density, std, order)


def gg_sample(rng: np.random.Generator, size: Shape, scale: ArrayLike, order: ArrayLike) -> np.ndarray:
    """Draw i.i.d. GG(0, b, p) noise.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness.
    size : int or tuple of int
        Output shape.
    scale : float or array_like
        b > 0, broadcastable to ``size``.
    order : float or array_like
        p in [1, 10], broadcastable to ``size``.

    Returns
    -------
    numpy.ndarray
        Samples of shape ``size``; a draw beyond the float64 range (b near the largest double)
        is ±inf, the draw rounded to float64.

    Notes
    -----
    ``scipy.stats.gennorm.rvs(p, scale=b, random_state=rng)``, which uses the construction of
    docs/math.md section 5.1: ``X = S b G^{1/p}`` with ``G ~ Gamma(1/p, 1)`` and S a random sign. A
    floating-point sampler for plots and simulations, not a side-channel-hardened one.

    Examples
    --------
    >>> gg_sample(np.random.default_rng(0), (2, 3), 1.0, 3.0).shape
    (2, 3)
    """
    _require_rng(rng)
    shape = sample_shape(size)
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    with overflow_is_inf():  # b G^{1/p} beyond 1.8e308 is ±inf, as documented
        draws = stats.gennorm.rvs(order_array, scale=scale_array, size=shape, random_state=rng)
    return np.asarray(draws, dtype=np.float64)


# --- the exact (ε, δ) profile in one dimension (docs/math.md section 5.5) -----------------------------------
#
# In units of b, with D = Δ/b and a = 1/p, the privacy loss l(u) = |u - D|^p - |u|^p is strictly
# decreasing, so the profile is δ(ε) = G(u) - e^ε G(u - D) at the threshold u where l(u) = ε
# (G: CDF of GG(0, 1, p)). We parametrise everything by u: with x1 = |u|^p and x2 = x1 + ε,
#
#     D(u) = u + (|u|^p + ε)^(1/p)                            (increasing in u)
#     u < 0:   δ = e^{-x1} (R(a, x1) - R(a, x2)) / 2           (no e^ε: e^ε e^{-x2} = e^{-x1})
#     u >= 0:  δ = (P(a, x1) + 1 - e^{-x1} + e^{-x1} (1 - R(a, x2))) / 2,
#
# every term non-negative. Calibrating b is then a single bisection on u; the profile at a given
# b is a bisection of the cheap D(u) = Δ/b followed by one evaluation of δ.


def _scaled_sensitivity(threshold: np.ndarray, epsilon: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``D(u) = u + (|u|^p + ε)^(1/p)``: the Δ/b at which the loss threshold is u (for p >= 1)."""
    result = np.empty_like(threshold)
    magnitude = np.abs(threshold)
    power = _power(magnitude, order)
    positive = threshold >= 0.0
    with np.errstate(over="ignore"):  # D beyond 1.8e308 is inf: a bracket end that no b reaches
        result[positive] = threshold[positive] + _root_of_sum(magnitude[positive], epsilon[positive], order[positive])
    # u < 0: D = (|u|^p + ε)^(1/p) - |u| = |u| expm1(log1p(ε/|u|^p)/p) cancels nothing.
    cancels = ~positive & (power > epsilon)
    result[cancels] = magnitude[cancels] * np.expm1(np.log1p(epsilon[cancels] / power[cancels]) / order[cancels])
    plain = ~positive & ~cancels
    result[plain] = _root_of_sum(magnitude[plain], epsilon[plain], order[plain]) - magnitude[plain]
    return result


def _log_delta_at_threshold(
    threshold: np.ndarray, epsilon: np.ndarray, order: np.ndarray, distance: np.ndarray | None = None
) -> np.ndarray:
    """log δ at loss threshold u (units of b), for p > 1; see the block comment above.

    ``|u - D| = (|u|^p + ε)^(1/p)``; callers that know D = Δ/b pass it as ``distance``, which
    stays exact where ε = (|u| + D)^p - |u|^p underflows or D is far below |u| (issue 9).
    """
    if distance is None:
        far_root = _root_of_sum(np.abs(threshold), epsilon, order)
        gap = far_root - np.abs(threshold)
    else:
        far_root = distance - threshold
        gap = distance
    a = 1.0 / order
    x1 = _power(np.abs(threshold), order)
    result = np.empty_like(threshold)
    negative = threshold < 0.0

    a_neg, x1_neg, epsilon_neg = a[negative], x1[negative], epsilon[negative]
    drop = _scaled_gamma_drop(
        a_neg, x1_neg, epsilon_neg, np.abs(threshold[negative]), far_root[negative], order[negative], gap[negative]
    )
    log_delta_neg = np.full_like(drop, -np.inf)
    resolved = drop > 0.0
    log_delta_neg[resolved] = -x1_neg[resolved] + np.log(drop[resolved]) - math.log(2.0)
    # A drop that rounds to <= 0 (only for p within ~1e-12 of 1, where R is nearly constant) is
    # replaced by the upper bound δ <= Q(a, x1)/2, so the result errs on the private side.
    unresolved = ~resolved & (epsilon_neg > 0.0)
    log_delta_neg[unresolved] = _log_upper_gamma(a_neg[unresolved], x1_neg[unresolved]) - math.log(2.0)
    result[negative] = log_delta_neg

    positive = ~negative
    a_pos, x1_pos = a[positive], x1[positive]
    root_pos, order_pos = threshold[positive], order[positive]
    # P from the roots u and |u - D|: at ε = 0 and tiny Δ/b, u^p underflows (issue 9).
    far_pos = far_root[positive]
    delta_pos = (
        _lower_gamma_of_root(a_pos, root_pos, order_pos)
        - np.expm1(-x1_pos)
        + np.exp(-x1_pos) * _one_minus_scaled_upper_gamma(a_pos, _power(far_pos, order_pos), far_pos, order_pos)
    ) / 2.0
    log_delta_pos = np.full_like(delta_pos, -np.inf)
    log_delta_pos[delta_pos > 0.0] = np.log(delta_pos[delta_pos > 0.0])
    result[positive] = log_delta_pos
    return result


def _threshold_for_sensitivity(epsilon: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The loss threshold u with D(u) = Δ/b, rounded up (a larger u means a larger δ)."""
    upper = scaled_sensitivity.copy()  # D(D) >= 2D
    # D(u) <= ε / (p |u|^(p-1)) for u < 0, so |u| = (ε / (p D))^(1/(p-1)) has D(u) <= D. The
    # bracket is capped at |u|^p = 1e300; if the cap binds, δ there (about e^{-1e300}) is an upper
    # bound for the true δ, which is all the rounding-up needs.
    lower = np.zeros_like(upper)
    positive = epsilon > 0.0
    log_magnitude = (np.log(epsilon[positive]) - np.log(order[positive]) - np.log(scaled_sensitivity[positive])) / (
        order[positive] - 1.0
    )
    lower[positive] = -np.exp(np.minimum(log_magnitude, _LOG_LARGEST_POWER / order[positive]))
    _, threshold = _bisect(
        lambda u: _scaled_sensitivity(u, epsilon, order), scaled_sensitivity, lower, upper, inclusive=True
    )
    return threshold


def _log_profile(epsilon: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """log δ_GG(ε) at D = Δ/b for broadcast arrays; the Laplace closed form where p = 1."""
    result = np.empty_like(epsilon)
    laplace = order == 1.0
    if laplace.any():
        result[laplace] = _laplace_log_delta_of_ratio(epsilon[laplace], scaled_sensitivity[laplace])
    general = ~laplace
    if general.any():
        epsilon_g, sensitivity_g, order_g = epsilon[general], scaled_sensitivity[general], order[general]
        threshold = _threshold_for_sensitivity(epsilon_g, sensitivity_g, order_g)
        # |u - D| from D itself: exact where D is far below |u| or where ε underflows
        result[general] = _log_delta_at_threshold(threshold, epsilon_g, order_g, sensitivity_g)
    return result


def generalized_gaussian_log_delta(
    epsilon: ArrayLike, scale: ArrayLike, sensitivity: ArrayLike = 1.0, order: ArrayLike = 2.0
) -> FloatOrArray:
    """Natural log of the exact privacy profile δ(ε) of scalar GG(0, b, p) noise.

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0.
    scale : float or array_like
        b > 0.
    sensitivity : float or array_like, default 1.0
        Δ >= 0 (the change of the scalar query between neighbours; Δ = 0 gives δ = 0).
    order : float or array_like, default 2.0
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ``log δ(ε)``; ``-inf`` where δ is exactly 0 (p = 1 and ε >= Δ/b).

    Notes
    -----
    docs/math.md section 5.5 [D] (cf. Rinberg et al. 2025, arXiv:2506.12553): for p >= 1 the loss
    ``l(y) = (|y - Δ|^p - |y|^p)/b^p`` decreases in y, so ``δ(ε) = F(y_ε) - e^ε F(y_ε - Δ)`` with
    ``l(y_ε) = ε``. In units of b, with ``x1 = |y_ε/b|^p``, ``x2 = x1 + ε`` and
    ``R(a, x) = e^x Q(a, x)``: for ``y_ε < 0``, ``δ = e^{-x1} (R(1/p, x1) - R(1/p, x2)) / 2``,
    which never forms ``e^ε`` and stays finite in log space for δ far below 1e-300. The difference
    ``R(1/p, x1) - R(1/p, x2)`` is integrated (12-point Gauss-Legendre on ``-dR/dx``) where
    ``ε <= x1/10``, so it does not cancel when ε is tiny. For p > 1, ``Δ/b`` is rounded up and the
    threshold ``y_ε`` is bisected to the last bit and rounded up, both towards the larger δ. At p = 2 this is
    Balle & Wang's eq. (6) with σ = b/√2; at p = 1 the Laplace profile of docs/math.md section 4.

    Examples
    --------
    >>> round(generalized_gaussian_delta(1.0, math.sqrt(2.0), 1.0, 2.0), 10)  # aGM at σ = 1
    0.1269367375
    >>> round(generalized_gaussian_log_delta(20.0, 1.0, 1.0, 3.0), 10)
    -12.6558358086
    """
    epsilon_array = _epsilon_array(epsilon, positive=False)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _sensitivity_array(sensitivity)
    order_array = _order_array(order)
    epsilon_b, scale_b, sensitivity_b, order_b = _broadcast(epsilon_array, scale_array, sensitivity_array, order_array)
    no_noise = sensitivity_b == 0.0  # Δ = 0: computed with Δ = 1, then set to its exact value
    sensitivity_b = np.where(no_noise, 1.0, sensitivity_b)
    scaled_sensitivity = _scaled_sensitivity_of(sensitivity_b, scale_b, order_b)
    result = _reported_upward(_log_profile(epsilon_b, scaled_sensitivity, order_b), order_b, epsilon_b)
    laplace = order_b == 1.0  # the closed form, rounded up in gaussmech_core.laplace
    if laplace.any():
        result[laplace] = laplace_log_delta(epsilon_b[laplace], scale_b[laplace], sensitivity_b[laplace])
    result[no_noise] = -np.inf
    return scalar_or_array(result, epsilon, scale, sensitivity, order)


def _reported_upward(log_delta: np.ndarray, order: np.ndarray, epsilon: np.ndarray) -> np.ndarray:
    """log δ raised by half the calibration margin, which bounds its rounding error twice over.

    The profile's error against mpmath is about 1e-15 |log δ| for p >= 1.01 and grows like
    1e-16 |log δ|/(p - 1) as p -> 1; the raise is 5e-15 (1 + |log δ|) (1 + 0.1/(p - 1)), the last
    factor only where ε > 0 (as in the calibration), so a reported δ is never below the exact
    one, and a calibrated scale (margin twice that) still reports δ <= δ_target. Capped at 0.
    """
    general = np.isfinite(log_delta) & (order > 1.0)
    result = log_delta.copy()
    margin = 0.5 * _LOG_DELTA_MARGIN * (1.0 + np.abs(log_delta[general]))
    margin *= np.where(epsilon[general] > 0.0, 1.0 + _MARGIN_ORDER_SCALE / (order[general] - 1.0), 1.0)
    result[general] = np.minimum(log_delta[general] + margin, 0.0)
    return result


def generalized_gaussian_delta(
    epsilon: ArrayLike, scale: ArrayLike, sensitivity: ArrayLike = 1.0, order: ArrayLike = 2.0
) -> FloatOrArray:
    """Exact privacy profile δ(ε) of scalar GG(0, b, p) noise (the smallest δ for each ε).

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0.
    scale : float or array_like
        b > 0.
    sensitivity : float or array_like, default 1.0
        Δ > 0.
    order : float or array_like, default 2.0
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        δ(ε) (0 where it underflows; see :func:`generalized_gaussian_log_delta`).

    Notes
    -----
    docs/math.md section 5.5. At ε = 0 it is the total-variation distance ``P(1/p, (Δ/(2b))^p)``.

    Examples
    --------
    >>> round(generalized_gaussian_delta(0.0, 1.0, 1.0, 1.0), 12)  # Laplace TV: 1 - e^{-1/2}
    0.393469340287
    """
    epsilon_array = _epsilon_array(epsilon, positive=False)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _sensitivity_array(sensitivity)
    order_array = _order_array(order)
    epsilon_b, scale_b, sensitivity_b, order_b = _broadcast(epsilon_array, scale_array, sensitivity_array, order_array)
    no_noise = sensitivity_b == 0.0  # Δ = 0: computed with Δ = 1, then set to its exact value
    sensitivity_b = np.where(no_noise, 1.0, sensitivity_b)
    log_delta = _log_profile(epsilon_b, _scaled_sensitivity_of(sensitivity_b, scale_b, order_b), order_b)
    result = np.exp(_reported_upward(log_delta, order_b, epsilon_b))
    laplace = order_b == 1.0
    if laplace.any():  # -expm1 directly: exp(log δ) would add |log δ| ulps where δ is tiny
        result[laplace] = laplace_delta(epsilon_b[laplace], scale_b[laplace], sensitivity_b[laplace])
    result[no_noise] = 0.0
    return scalar_or_array(result, epsilon, scale, sensitivity, order)


def _loss_at_threshold(threshold: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``ε(u) = |u - D|^p - |u|^p`` for u <= D/2, as ``(|u| + gap)^p - |u|^p`` without cancellation.

    The gap between |u - D| and |u| is ``D - 2u`` for u >= 0 and D for u < 0.
    """
    gap = np.where(threshold >= 0.0, scaled_sensitivity - 2.0 * threshold, scaled_sensitivity)
    return _loss_bound(np.abs(threshold), gap, order)


def _epsilon_for_delta(log_target: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The smallest ε with log δ(ε) <= log_target at D = Δ/b, p > 1, before the final check."""
    a = 1.0 / order
    total_variation = _lower_gamma_of_root(a, scaled_sensitivity / 2.0, order)  # δ at ε = 0
    log_total_variation = np.full_like(total_variation, -np.inf)
    log_total_variation[total_variation > 0.0] = np.log(total_variation[total_variation > 0.0])
    epsilon = np.zeros_like(log_target)
    needed = log_total_variation > log_target
    if needed.any():
        target, distance, p = log_target[needed], scaled_sensitivity[needed], order[needed]
        lower = -_power(np.maximum(1.0, -(target + math.log(2.0))), 1.0 / p)  # δ <= Q(a, x1)/2 <= e^{-x1}/2
        upper = distance / 2.0  # ε = 0
        private, _ = _bisect(
            lambda u: _log_delta_at_threshold(u, _loss_at_threshold(u, distance, p), p, distance),
            target,
            lower,
            upper,
        )
        epsilon[needed] = _loss_at_threshold(private, distance, p)
    return epsilon


def generalized_gaussian_epsilon(
    delta: ArrayLike, scale: ArrayLike, sensitivity: ArrayLike = 1.0, order: ArrayLike = 2.0
) -> FloatOrArray:
    """The smallest ε for which scalar GG(0, b, p) noise is (ε, δ)-DP (inverse of the exact profile).

    Parameters
    ----------
    delta : float or array_like
        δ in (0, 1).
    scale : float or array_like
        b > 0.
    sensitivity : float or array_like, default 1.0
        Δ > 0.
    order : float or array_like, default 2.0
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ε >= 0; 0 when δ is at least the total-variation distance. The value is rounded up and
        checked: ``generalized_gaussian_delta(ε, b, Δ, p) <= δ`` holds in floating point. inf
        where ε exceeds 1.8e308 (Δ/b beyond about (1.8e308)^{1/p}).

    Notes
    -----
    docs/math.md section 5.5, solved for ε by bisection on the loss threshold u (ε(u) = |u - Δ/b|^p - |u|^p and
    δ(u) both fall as u falls); p = 1 uses the Laplace closed form (docs/math.md section 4).

    Examples
    --------
    >>> round(generalized_gaussian_epsilon(0.1269367375066, math.sqrt(2.0), 1.0, 2.0), 9)
    1.0
    """
    delta_array = _delta_array(delta)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _sensitivity_array(sensitivity)
    order_array = _order_array(order)
    delta_b, scale_b, sensitivity_b, order_b = _broadcast(delta_array, scale_array, sensitivity_array, order_array)
    no_noise = sensitivity_b == 0.0  # Δ = 0: computed with Δ = 1, then set to its exact value
    sensitivity_b = np.where(no_noise, 1.0, sensitivity_b)
    epsilon = np.empty_like(delta_b)
    laplace = order_b == 1.0
    if laplace.any():  # closed form, already rounded towards privacy in gaussmech_core.laplace
        epsilon[laplace] = laplace_epsilon(delta_b[laplace], scale_b[laplace], sensitivity_b[laplace])
    general = ~laplace
    if general.any():
        order_g = order_b[general]
        scaled_sensitivity = _scaled_sensitivity_of(sensitivity_b[general], scale_b[general], order_g)
        working_target = _working_log_target(delta_b[general], order_g)
        epsilon[general] = _raise_until(
            lambda value, where: (
                _log_profile(value, scaled_sensitivity[where], order_g[where]) <= working_target[where]
            ),
            _epsilon_for_delta(working_target, scaled_sensitivity, order_g),
            floor=np.finfo(float).tiny,
        )
    epsilon[no_noise] = 0.0
    return scalar_or_array(epsilon, delta, scale, sensitivity, order)


# --- calibration (docs/math.md sections 5.4 and 5.5) ------------------------------------------------------


def _approximate_scaled_sensitivity(epsilon: np.ndarray, log_target: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The largest D = Δ/b with exact log δ(ε) <= log_target, p > 1 (bisection on the threshold u)."""
    # Bracket: for u < 0, δ <= Q(a, |u|^p)/2 <= e^{-|u|^p}/2 once |u|^p >= 1; for u >= 0,
    # δ >= 1 - e^{-|u|^p}, which exceeds δ_target at |u|^p = 1 - 2 log(1 - δ_target).
    delta = np.exp(log_target)
    lower = -_power(np.maximum(1.0, -(log_target + math.log(2.0))), 1.0 / order)
    lower[epsilon == 0.0] = 0.0  # at ε = 0 every u < 0 has D = 0: the answer lies at u > 0
    upper = _power(1.0 - 2.0 * np.log1p(-delta), 1.0 / order)
    private, _ = _bisect(lambda u: _log_delta_at_threshold(u, epsilon, order), log_target, lower, upper)
    return _scaled_sensitivity(private, epsilon, order)


def _approximate_start(epsilon: np.ndarray, delta: np.ndarray, log_target: np.ndarray, order: np.ndarray) -> np.ndarray:
    """D = Δ/b to start the final check from: the bisection of :func:`_approximate_scaled_sensitivity`,
    or at p = 2 the analytic Gaussian's calibration.

    GG(0, b, 2) is N(0, b²/2), so its exact profile is the Gaussian's and b = √2 σ_aGM(ε, δ, Δ)
    (Balle & Wang 2018, Theorem 8; docs/math.md section 5.5): the aGM's root search instead of a
    bisection on the threshold, about five times faster (15 -> 2.8 ms per calibration). The caller's check against
    the GG profile itself (``_raise_until``) still decides, so b never drops below the exact value.
    """
    result = np.empty_like(epsilon)
    # At ε = 0 the aGM's margin is looser than the GG's own (3e-12 against 1e-12 relative at
    # δ = 1e-300), so there the threshold bisection gives the tighter b.
    gaussian = (order == 2.0) & (epsilon > 0.0)
    if gaussian.any():
        sigma = np.asarray(analytic_gaussian_sigma(epsilon[gaussian], delta[gaussian], 1.0), dtype=np.float64)
        with np.errstate(divide="ignore"):  # σ = inf (ε, δ -> 0) gives D = 0, b = inf
            result[gaussian] = 1.0 / (math.sqrt(2.0) * sigma)
    other = ~gaussian
    if other.any():
        result[other] = _approximate_scaled_sensitivity(epsilon[other], log_target[other], order[other])
    return result


def _pdp_log_delta(epsilon: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """log of Q(1/p, (t*/b)^p), Corollary 7 (reconstructed), with t*/b rounded down (larger Q)."""
    result = np.zeros_like(epsilon)
    laplace = order == 1.0
    result[laplace] = np.where(scaled_sensitivity[laplace] <= epsilon[laplace], -np.inf, 0.0)
    # For p > 1, (s + D)^p - s^p = ε has a root s* > 0 only when D^p < ε; otherwise t* = 0, Q = 1.
    solvable = ~laplace & (_power(scaled_sensitivity, order) < epsilon)
    # p = 2: (s + D)² − s² = 2sD + D² = ε has the root s* = (ε/D − D)/2, lowered by a bound on its
    # rounding (4 ulps of the larger term) so that Q is never the smaller one.
    quadratic = solvable & (order == 2.0)
    if quadratic.any():
        epsilon_q, distance = epsilon[quadratic], scaled_sensitivity[quadratic]
        # Capped as the bisection's bracket is (a larger root would only lower Q further).
        with np.errstate(over="ignore", divide="ignore"):
            ratio = np.minimum(epsilon_q / distance, math.exp(_LOG_LARGEST_POWER / 2.0))
        root = np.maximum(0.5 * (ratio - distance) - 2.0 * np.finfo(float).eps * (ratio + distance), 0.0)
        result[quadratic] = _log_upper_gamma(np.full_like(root, 0.5), _power(root, 2.0))
        solvable &= ~quadratic
    if solvable.any():
        epsilon_s, distance, p = epsilon[solvable], scaled_sensitivity[solvable], order[solvable]
        # (s + D)^p - s^p >= p D s^(p-1), so s = (ε/(p D))^(1/(p-1)) is past the root (capped as in
        # _threshold_for_sensitivity; if the cap binds, Q at the lower end is still an upper bound).
        log_upper = (np.log(epsilon_s) - np.log(p) - np.log(distance)) / (p - 1.0)
        upper = np.exp(np.minimum(log_upper, _LOG_LARGEST_POWER / p))
        lower = np.zeros_like(upper)
        root_low, _ = _bisect(lambda s: _loss_bound(s, distance, p), epsilon_s, lower, upper, inclusive=True)
        result[solvable] = _log_upper_gamma(1.0 / p, _power(root_low, p))
    return result


def _loss_bound(noise: np.ndarray, scaled_sensitivity: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``(s + D)^p - s^p``: the largest privacy loss when the noise has magnitude s (units of b).

    Computed as ``s^p expm1(p log1p(D/s))`` when s > D (where the plain difference cancels) and
    as ``(s + D)^p (1 - (s/(s + D))^p)`` otherwise (there the ratio is at most 1/2, so nothing
    cancels). Overflow gives inf.
    """
    result = np.empty_like(noise)
    large = noise > scaled_sensitivity
    with np.errstate(over="ignore"):  # a bound beyond 1.8e308 is inf, which exceeds every ε
        result[large] = _power(noise[large], order[large]) * np.expm1(
            order[large] * np.log1p(scaled_sensitivity[large] / noise[large])
        )
    small = ~large
    total = noise[small] + scaled_sensitivity[small]
    with np.errstate(over="ignore"):  # total = inf (D overflowed) makes a bound of inf, as it should
        result[small] = _power(total, order[small]) * (1.0 - np.power(noise[small] / total, order[small]))
    return result


def generalized_gaussian_pdp_delta(
    epsilon: ArrayLike, scale: ArrayLike, sensitivity: ArrayLike = 1.0, order: ArrayLike = 2.0
) -> FloatOrArray:
    """The δ of Liu's pDP condition at scale b: ``Q(1/p, (t*/b)^p)`` (Corollary 7 (reconstructed)).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    scale : float or array_like
        b > 0.
    sensitivity : float or array_like, default 1.0
        Δ > 0.
    order : float or array_like, default 2.0
        p in [1, 10].

    Returns
    -------
    float or numpy.ndarray
        ``Q(1/p, (t*/b)^p)`` where ``t* >= 0`` solves ``(t* + Δ)^p - t*^p = ε b^p`` (1 if
        ``Δ^p >= ε b^p``); for p = 1, 0 if ``b >= Δ/ε`` and 1 otherwise. GG(0, b, p) noise is
        (ε, δ)-probabilistically DP for every δ at least this value.

    Notes
    -----
    docs/math.md section 5.4, "Corollary 7 (reconstructed)" [U statement, D method]: for p >= 1 the privacy
    loss satisfies ``|L| <= ((|e| + Δ)^p - |e|^p)/b^p``, which increases with the noise magnitude
    |e|, so ``P(|L| > ε) <= P(|e| > t*) = Q(1/p, (t*/b)^p)``. Liu's own Corollary 7 could not be
    read; this condition reproduces Lemma 10 at p = 2 and Laplace at p = 1. It is a sufficient
    condition, not the exact pDP δ. t* is bisected to the last bit and rounded down.

    Examples
    --------
    >>> round(generalized_gaussian_pdp_delta(1.0, 6.403, 1.0, 2.0), 7)  # Lemma 10 at (1, 1e-5)
    1e-05
    """
    epsilon_array = _epsilon_array(epsilon, positive=True)
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    order_array = _order_array(order)
    epsilon_b, scale_b, sensitivity_b, order_b = _broadcast(epsilon_array, scale_array, sensitivity_array, order_array)
    scaled_sensitivity = _scaled_sensitivity_of(sensitivity_b, scale_b, order_b)
    result = np.exp(_pdp_log_delta(epsilon_b, scaled_sensitivity, order_b))
    return scalar_or_array(result, epsilon, scale, sensitivity, order)


def _pdp_scaled_sensitivity(epsilon: np.ndarray, delta: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The largest D = Δ/b meeting the pDP condition: s* from Q(1/p, s*^p) = δ, then D(s*)."""
    noise_power = special.gammainccinv(1.0 / order, delta)  # s*^p; accurate to ~1e-16 down to δ = 1e-310
    noise = _power(noise_power, 1.0 / order)
    # D = (s^p + ε)^(1/p) - s, computed as s expm1(log1p(ε/s^p)/p) when s^p > ε.
    return np.where(
        noise_power > epsilon,
        noise * np.expm1(np.log1p(epsilon / np.maximum(noise_power, epsilon)) / order),
        _power(noise_power + epsilon, 1.0 / order) - noise,
    )


def generalized_gaussian_scale(
    epsilon: ArrayLike,
    delta: ArrayLike,
    sensitivity: ArrayLike = 1.0,
    order: ArrayLike = 2.0,
    guarantee: str = "approximate",
) -> FloatOrArray:
    """Scale b of scalar GG(0, b, p) noise for (ε, δ)-DP or (ε, δ)-probabilistic DP.

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0 for ``"approximate"`` (ε = 0: total-variation distance <= δ), ε > 0 for
        ``"probabilistic"``.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        Δ >= 0 (the change of the scalar query, or of the one coordinate a neighbour changes);
        Δ = 0 gives b = 0, as the Gaussian functions give σ = 0.
    order : float or array_like, default 2.0
        p in [1, 10].
    guarantee : {"approximate", "probabilistic"}, default "approximate"
        ``"approximate"``: the smallest b whose **exact** privacy profile (docs/math.md section 5.5) is at most
        δ at ε. ``"probabilistic"``: the smallest b meeting "Corollary 7 (reconstructed)" (docs/math.md section
        5.4), ``Q(1/p, (t*/b)^p) <= δ``, a sufficient condition for (ε, δ)-pDP.

    Returns
    -------
    float or numpy.ndarray
        The scale b, never below the exact answer: the result is checked with
        :func:`generalized_gaussian_delta` (resp. :func:`generalized_gaussian_pdp_delta`) and is
        at most δ there. Standard deviation ``b √(Γ(3/p)/Γ(1/p))``. inf where b exceeds 1.8e308
        (Δ near the largest double).

    Raises
    ------
    ValueError
        For ε, δ, Δ or p out of range (p outside [1, 10]; ε = 0 with ``"probabilistic"``), NaN or
        infinite values, or an unknown ``guarantee``.
    TypeError
        For non-numeric arguments.

    Notes
    -----
    Approximate DP (docs/math.md section 5.5 [D]): the exact profile is
    ``δ(ε) = F(y_ε) - e^ε F(y_ε - Δ)`` with ``l(y_ε) = ε``. Parametrised by the loss threshold
    ``u = y_ε/b``, both δ and ``Δ/b = u + (|u|^p + ε)^(1/p)`` increase with u, so the calibration is
    one bisection on u, carried to adjacent doubles, in log δ; the private end gives b. p = 1 is
    the Laplace closed form :func:`gaussmech_core.laplace.laplace_scale_for_delta`; p = 2 agrees
    with ``√2 × analytic_gaussian_sigma`` (Balle & Wang 2018, Theorem 8).

    Probabilistic DP, "Corollary 7 (reconstructed)" (Liu, arXiv:1602.06028, Sec. 2.6; docs/math.md section 5.4
    [U statement]): with ``s* = Q^{-1}(1/p, δ)^{1/p}`` (``gammainccinv``), ``b = Δ /
    ((s*^p + ε)^{1/p} - s*)``. p = 1 gives ``Δ/ε`` (Laplace, Claim 4) and p = 2 gives
    ``√2 × σ`` of Liu's Lemma 10.

    The target is lowered by a margin covering the profile's rounding error (which grows like
    ``1e-16/(p - 1)`` as p approaches 1), so b is never below the exact value; measured against
    mpmath it is above by under 2e-13 (relative) for p >= 1.5 and 2e-11 at p = 1.001.

    Examples
    --------
    >>> round(generalized_gaussian_scale(1.0, 1e-5, 1.0, 2.0) / math.sqrt(2.0), 9)  # aGM σ
    3.730631635
    >>> round(generalized_gaussian_scale(1.0, 1e-5, 1.0, 3.0, guarantee="probabilistic"), 3)
    13.447
    >>> generalized_gaussian_scale(1.0, 1e-5, 2.0, 1.0, guarantee="probabilistic")  # Δ/ε, rounded up
    2.0000000000000004
    """
    require_choice(guarantee, "guarantee", _GUARANTEES)
    probabilistic = guarantee == "probabilistic"
    epsilon_array = _epsilon_array(epsilon, positive=probabilistic)
    delta_array = _delta_array(delta)
    sensitivity_array = _sensitivity_array(sensitivity)
    order_array = _order_array(order)
    epsilon_b, delta_b, sensitivity_b, order_b = _broadcast(epsilon_array, delta_array, sensitivity_array, order_array)
    no_noise = sensitivity_b == 0.0  # Δ = 0: computed with Δ = 1, then set to its exact value
    sensitivity_b = np.where(no_noise, 1.0, sensitivity_b)
    scale = np.empty_like(epsilon_b)
    laplace = order_b == 1.0
    if laplace.any():  # closed forms, already rounded towards privacy in gaussmech_core.laplace
        if probabilistic:
            scale[laplace] = laplace_scale(epsilon_b[laplace], sensitivity_b[laplace])
        else:
            scale[laplace] = laplace_scale_for_delta(epsilon_b[laplace], delta_b[laplace], sensitivity_b[laplace])
    general = ~laplace
    if general.any():
        epsilon_g, delta_g, sensitivity_g, order_g = (
            epsilon_b[general],
            delta_b[general],
            sensitivity_b[general],
            order_b[general],
        )
        working_target = _working_log_target(delta_g, None if probabilistic else order_g, epsilon_g)
        if probabilistic:
            scaled_sensitivity = _pdp_scaled_sensitivity(epsilon_g, np.exp(working_target), order_g)
            achieved = _pdp_log_delta
        else:
            scaled_sensitivity = _approximate_start(epsilon_g, delta_g, working_target, order_g)
            achieved = _log_profile
        with np.errstate(divide="ignore", over="ignore"):  # b beyond 1.8e308 (ε ~ 1e-320) is inf
            scale[general] = sensitivity_g / scaled_sensitivity
        scale[general] = _raise_until(
            lambda candidate, where: (
                achieved(
                    epsilon_g[where],
                    _scaled_sensitivity_of(sensitivity_g[where], candidate, order_g[where]),
                    order_g[where],
                )
                <= working_target[where]
            ),
            scale[general],
        )
    scale[no_noise] = 0.0
    return scalar_or_array(scale, epsilon, delta, sensitivity, order)


# --- truncated and BIT GG for bounded data, pure ε-DP (docs/math.md section 5.6) ---------------------------


def _kernel_shape(sensitivity: np.ndarray, width: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``c = 1 - (1 - Δ/W)^p`` in (0, 1], so that ``A(b) = (W/b)^p c = (W^p - (W - Δ)^p)/b^p``."""
    fraction = sensitivity / width
    result = np.ones_like(fraction)
    partial = fraction < 1.0
    result[partial] = -np.expm1(order[partial] * np.log1p(-fraction[partial]))
    return result


# A(b) = (W/b)^p c with c = −expm1(p log1p(−Δ/W)): every step is within an ulp or two, and the
# relative errors of W/b and of W = upper − lower are multiplied by at most p (d log A/d log W ≤ p),
# that of log1p by at most 1 (d log c/d log(Δ/W) ≤ 1 for p ≥ 1). So (8 + 4p) ulps bound the
# rounding of the float A, which is raised by that much: it is never below the exact A(b).
_KERNEL_ULPS = 8.0
_ULP = 2.0**-52


def _kernel_log_ratio(scale: np.ndarray, sensitivity: np.ndarray, width: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``A(b) = (W^p - (W - Δ)^p)/b^p``: the sup over the box of the GG kernel's log-ratio.

    Rounded upward by a bound on its rounding error, ``(8 + 4p)`` ulps relative (docs/math.md
    section 5.6), so an ε bound ``2A(b)`` is never below the exact one and a scale calibrated
    on it is never below the exact scale.
    """
    with overflow_is_inf():  # W/b beyond 1.8e308 (b subnormal): A = inf, no privacy
        ratio = width / scale
        rounding = 1.0 + (_KERNEL_ULPS + 4.0 * order) * _ULP
        return _power(ratio, order) * _kernel_shape(sensitivity, width, order) * rounding


def _log_upper_gamma_of_root(a: np.ndarray, root: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``log Q(a, y^p)`` with ``a = 1/p`` for roots ``y >= 0``: :func:`_log_upper_gamma`, with P
    taken from the root where ``y^p`` is small (there ``log Q = log1p(-P)`` and P ~ y)."""
    x = _power(root, order)
    result = np.empty_like(x)
    small = x < _ROOT_SERIES_END
    result[small] = np.log1p(-_lower_gamma_of_root(a[small], root[small], order[small]))
    result[~small] = _log_upper_gamma(a[~small], x[~small])
    return result


# The BIT ε is a maximum of A(b) (a power and an expm1: a few ulps times p) and a difference of
# two log tails (gammainc/gammaincc and the asymptotic series). Against mpmath its error is below
# 1.2e-15 (A + |log Q_lo| + |log Q_hi|) (p in [1, 10], Δ/W down to 1e-6, b/W in [0.03, 1000]);
# relative to ε it reaches 3e-10 where the two log tails nearly cancel (Δ << W). _BIT_ERROR times
# that sum is added to what is reported and to what the calibration compares with ε, so both err
# on the private side. At p = 1 the exact ε = Δ/b is used instead (rounded up).
_BIT_ERROR = 1e-14


def _bit_epsilon(scale: np.ndarray, sensitivity: np.ndarray, width: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``max(A(b), log S_b(W - Δ) - log S_b(W))`` plus a bound on its rounding error (broadcast arrays).

    The result is never below the exact ε: the rounding bound is added and the sum rounded up.
    """
    a = 1.0 / order
    with np.errstate(over="ignore"):  # W/b beyond 1.8e308: the tails are 0 and ε is inf
        near_root, far_root = (width - sensitivity) / scale, width / scale
    log_tail_near = _log_upper_gamma_of_root(a, near_root, order)
    log_tail_far = _log_upper_gamma_of_root(a, far_root, order)
    kernel = _kernel_log_ratio(scale, sensitivity, width, order)
    atom_log_ratio = np.full_like(kernel, np.inf)  # where the far tail underflows to exp(-inf)
    finite = np.isfinite(log_tail_far)
    atom_log_ratio[finite] = log_tail_near[finite] - log_tail_far[finite]
    with np.errstate(over="ignore", invalid="ignore"):  # inf + inf = inf; nothing is inf - inf here
        bound = _BIT_ERROR * (kernel + np.abs(log_tail_near) + np.abs(log_tail_far))
        result = np.nextafter(np.maximum(kernel, atom_log_ratio) + bound, np.inf)
        laplace = order == 1.0  # both terms are exactly Δ/b (clamped Laplace)
        result[laplace] = np.nextafter(sensitivity[laplace] / scale[laplace], np.inf)
    return result


def truncated_gg_scale(
    epsilon: ArrayLike, sensitivity: ArrayLike, order: ArrayLike, lower: ArrayLike, upper: ArrayLike
) -> FloatOrArray:
    """Scale b of the truncated GG mechanism on ``[lower, upper]`` for pure ε-DP (sufficient condition).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    sensitivity : float or array_like
        Δ in [2.2e-308 W, W], W = ``upper - lower`` (below, the kernel shape underflows).
    order : float or array_like
        p in [1, 10].
    lower, upper : float or array_like
        The bounds ``c0 < c1`` of the query's range.

    Returns
    -------
    float or numpy.ndarray
        ``b = (2 (W^p - (W - Δ)^p) / ε)^{1/p}``, raised by ulps until ``2 A(b) <= ε`` holds in
        floating point; inf where b exceeds 1.8e308 (ε subnormal).

    Notes
    -----
    Liu's Definition 5 (release drawn from the GG density restricted and renormalised to
    [c0, c1]) and Appendix C's split of ε into the kernel ratio and the normaliser ratio; docs/math.md section
    5.6 [D]: each is at most ``A(b) = (W^p - (W - Δ)^p)/b^p``, so ``2 A(b) <= ε`` suffices. For
    p = 1 it is the known ``2Δ/ε``. Valid but loose (at p = 2, W = 1, Δ = 0.5, b = 0.7 the exact ε
    is 1.168 against the bound's 3.06).

    Examples
    --------
    >>> round(truncated_gg_scale(1.0, 1.0, 1.0, 0.0, 10.0), 12)   # 2Δ/ε, rounded up by a few ulps
    2.0
    """
    epsilon_array = _epsilon_array(epsilon, positive=True)
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    order_array = _order_array(order)
    lower_array, upper_array = _bounds_arrays(lower, upper, sensitivity_array)
    epsilon_b, sensitivity_b, order_b, lower_b, upper_b = _broadcast(
        epsilon_array, sensitivity_array, order_array, lower_array, upper_array
    )
    width = upper_b - lower_b
    shape = _kernel_shape(sensitivity_b, width, order_b)
    with overflow_is_inf():  # b beyond 1.8e308 (ε subnormal) is inf, as documented
        scale = width * _power(2.0 * shape / epsilon_b, 1.0 / order_b)
    scale = _raise_until(
        lambda candidate, where: (
            # A <= ε/2 rather than 2A <= ε: 2A overflows for the tiny first candidates at ε near 1.8e308
            _kernel_log_ratio(candidate, sensitivity_b[where], width[where], order_b[where]) <= 0.5 * epsilon_b[where]
        ),
        scale,
    )
    return scalar_or_array(scale, epsilon, sensitivity, order, lower, upper)


def bit_gg_epsilon(
    scale: ArrayLike, sensitivity: ArrayLike, order: ArrayLike, lower: ArrayLike, upper: ArrayLike
) -> FloatOrArray:
    """Exact pure-DP ε of the boundary-inflated truncated (BIT) GG mechanism (clamping).

    Parameters
    ----------
    scale : float or array_like
        b > 0.
    sensitivity : float or array_like
        Δ in [2.2e-308 W, W], W = ``upper - lower`` (below, the kernel shape underflows).
    order : float or array_like
        p in [1, 10].
    lower, upper : float or array_like
        Bounds ``c0 < c1``.

    Returns
    -------
    float or numpy.ndarray
        ``ε = max(A(b), log(S_b(W - Δ) / S_b(W)))`` with ``A(b) = (W^p - (W - Δ)^p)/b^p`` and
        ``S_b(x) = Q(1/p, (x/b)^p)/2``, plus a bound on its rounding error (about 1e-13
        relative), so the reported ε is never below the exact one; inf where ``S_b(W)``
        underflows below exp(-1.8e308) (b tiny against W).

    Notes
    -----
    docs/math.md section 5.6 [D]. The release ``clamp(s + e, c0, c1)`` has density ``k(y - s)`` inside and
    atoms ``S_b(s - c0)``, ``S_b(c1 - s)`` at the bounds. Inside, the log-ratio's sup is A(b); at
    an atom, ``log S_b(x - Δ) - log S_b(x)`` increases with x (the GG survival function is
    log-concave), so its sup is at x = W. The tail ratio is taken in log space
    (:func:`gg_log_tail`); where ``(x/b)^p`` is small, ``Q = 1 - P`` with P summed from the root
    x/b, so the atom term (about ``Δ/(b Γ(1 + 1/p))`` for large b) does not underflow with
    ``(x/b)^p``. For p = 1 both terms are Δ/b: clamping is post-processing of Laplace.

    Examples
    --------
    >>> round(bit_gg_epsilon(0.7, 0.5, 2.0, 0.0, 1.0), 5)
    1.97501
    >>> round(bit_gg_epsilon(2.0, 1.0, 1.0, 0.0, 3.0), 12)
    0.5
    """
    scale_array = _positive_array(scale, "scale")
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    order_array = _order_array(order)
    lower_array, upper_array = _bounds_arrays(lower, upper, sensitivity_array)
    scale_b, sensitivity_b, order_b, lower_b, upper_b = _broadcast(
        scale_array, sensitivity_array, order_array, lower_array, upper_array
    )
    result = _bit_epsilon(scale_b, sensitivity_b, upper_b - lower_b, order_b)
    return scalar_or_array(result, scale, sensitivity, order, lower, upper)


def bit_gg_scale(
    epsilon: ArrayLike, sensitivity: ArrayLike, order: ArrayLike, lower: ArrayLike, upper: ArrayLike
) -> FloatOrArray:
    """The smallest scale b for which the BIT GG mechanism on ``[lower, upper]`` is ε-DP.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    sensitivity : float or array_like
        Δ in [2.2e-308 W, W], W = ``upper - lower`` (below, the kernel shape underflows).
    order : float or array_like
        p in [1, 10].
    lower, upper : float or array_like
        Bounds ``c0 < c1``.

    Returns
    -------
    float or numpy.ndarray
        b with ``bit_gg_epsilon(b) <= ε``, the private end of a bisection carried to adjacent
        doubles. Since :func:`bit_gg_epsilon` includes its rounding bound, the exact ε at b is
        at most ε too; inf where b exceeds 1.8e308 (ε below about Δ/1.8e308).

    Notes
    -----
    docs/math.md section 5.6: both terms of :func:`bit_gg_epsilon` decrease in b. The bracket starts at half
    of ``A^{-1}(ε) = ((W^p - (W - Δ)^p)/ε)^{1/p}`` (where A alone exceeds ε) and doubles upwards.
    For p = 1 the answer is Δ/ε.

    Examples
    --------
    >>> round(bit_gg_scale(1.97501, 0.5, 2.0, 0.0, 1.0), 4)
    0.7
    """
    epsilon_array = _epsilon_array(epsilon, positive=True)
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    order_array = _order_array(order)
    lower_array, upper_array = _bounds_arrays(lower, upper, sensitivity_array)
    epsilon_b, sensitivity_b, order_b, lower_b, upper_b = _broadcast(
        epsilon_array, sensitivity_array, order_array, lower_array, upper_array
    )
    width = upper_b - lower_b
    with overflow_is_inf():  # b beyond 1.8e308 (ε subnormal) is inf, as documented
        kernel_scale = width * _power(_kernel_shape(sensitivity_b, width, order_b) / epsilon_b, 1.0 / order_b)
    lower_scale = kernel_scale / 2.0  # A(b) = 2^p ε > ε there
    upper_scale = kernel_scale * 2.0
    # ε_BIT(b) -> 0 as b -> inf, so doubling ends; 2100 doublings span every double.
    for _ in range(2100):
        pending = _bit_epsilon(upper_scale, sensitivity_b, width, order_b) > epsilon_b
        if not pending.any():
            break
        with np.errstate(over="ignore"):  # ε below about Δ/1.8e308 needs b = inf
            upper_scale[pending] *= 2.0
    _, scale = _bisect(  # ε_BIT decreases in b: b is private where -ε_BIT(b) >= -ε
        lambda b: -_bit_epsilon(b, sensitivity_b, width, order_b), -epsilon_b, lower_scale, upper_scale, inclusive=True
    )
    return scalar_or_array(scale, epsilon, sensitivity, order, lower, upper)


_FAR_Z = 1e3  # standard units beyond which GG(0, 1, p >= 1) has no float64 tail mass (e^-1000)


def truncated_gg_sample(
    rng: np.random.Generator,
    size: Shape,
    center: ArrayLike,
    scale: ArrayLike,
    order: ArrayLike,
    lower: ArrayLike,
    upper: ArrayLike,
) -> np.ndarray:
    """Draw from GG(center, b, p) restricted and renormalised to ``[lower, upper]`` (Liu's Definition 5).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness.
    size : int or tuple of int
        Output shape.
    center : float or array_like
        The true value s(x) (normally inside the bounds), broadcastable to ``size``.
    scale : float or array_like
        b > 0, broadcastable to ``size``.
    order : float or array_like
        p in [1, 10], broadcastable to ``size``.
    lower, upper : float or array_like
        Bounds ``lower < upper``, broadcastable to ``size``.

    Returns
    -------
    numpy.ndarray
        Samples in ``[lower, upper]``.

    Notes
    -----
    Inverse-CDF sampling on the restricted law (docs/math.md section 5.6): ``U`` uniform on
    ``(F(z_lo), F(z_hi))``, ``X = center + b F^{-1}(U)``. Probabilities above 1/2 are carried as
    survival probabilities and inverted with ``gennorm.isf``, so the draws keep their accuracy
    when the bounds sit in either tail, as long as the interval's probability is representable
    (above about 1e-308; otherwise ``ValueError``).

    Examples
    --------
    >>> draws = truncated_gg_sample(np.random.default_rng(1), 1000, 0.5, 1.0, 2.0, 0.0, 1.0)
    >>> bool(draws.min() >= 0.0 and draws.max() <= 1.0)
    True
    """
    _require_rng(rng)
    center_array = require_interval(as_float_array(center, "center"), "center")
    scale_array = _positive_array(scale, "scale")
    order_array = _order_array(order)
    lower_array, upper_array = _bounds_arrays(lower, upper)
    shape = sample_shape(size)
    try:
        center_b, scale_b, order_b, lower_b, upper_b = (
            np.broadcast_to(array, shape)
            for array in (center_array, scale_array, order_array, lower_array, upper_array)
        )
    except ValueError as error:
        raise ValueError(f"center, scale, order, lower and upper must broadcast to size={size!r}") from error
    with overflow_is_inf():  # a bound beyond 1.8e308 scales is ±inf standard units: its tail is 0
        standard_lower = (lower_b - center_b) / scale_b
        standard_upper = (upper_b - center_b) / scale_b
    # Beyond |z| = 1e3 every tail of GG(0, 1, p >= 1) is below e^-1000, 0 in float64; clamping
    # there keeps gennorm's |z|^p from overflowing without changing any probability.
    far_lower, far_upper = np.clip(standard_lower, -_FAR_Z, _FAR_Z), np.clip(standard_upper, -_FAR_Z, _FAR_Z)
    below = stats.gennorm.cdf(far_lower, order_b)  # P(Z < z_lo)
    above = stats.gennorm.sf(far_upper, order_b)  # P(Z > z_hi)
    # Mass of [z_lo, z_hi], from whichever pair of one-sided probabilities has no cancellation.
    mass = np.where(
        far_upper <= 0.0,
        stats.gennorm.cdf(far_upper, order_b) - below,
        np.where(far_lower >= 0.0, stats.gennorm.sf(far_lower, order_b) - above, 1.0 - below - above),
    )
    if np.any(mass <= 0.0):
        raise ValueError(
            "the interval [lower, upper] has probability below 1e-308 under GG(center, scale, order), "
            "so the restricted law cannot be sampled in double precision; move the bounds towards center"
        )
    uniform = rng.random(shape)
    left_probability = below + uniform * mass
    right_probability = above + (1.0 - uniform) * mass
    standard = np.where(
        left_probability <= 0.5,
        stats.gennorm.ppf(np.minimum(left_probability, 0.5), order_b),
        stats.gennorm.isf(np.minimum(right_probability, 0.5), order_b),
    )
    samples = center_b + scale_b * np.clip(standard, standard_lower, standard_upper)
    return np.clip(samples, lower_b, upper_b)


def bit_gg_sample(
    rng: np.random.Generator,
    size: Shape,
    center: ArrayLike,
    scale: ArrayLike,
    order: ArrayLike,
    lower: ArrayLike,
    upper: ArrayLike,
) -> np.ndarray:
    """Draw ``clamp(center + e, lower, upper)`` with ``e ~ GG(0, b, p)`` (the BIT GG mechanism).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness.
    size : int or tuple of int
        Output shape.
    center : float or array_like
        The true value s(x), in ``[lower, upper]`` (the mechanism is for bounded data),
        broadcastable to ``size``.
    scale : float or array_like
        b > 0.
    order : float or array_like
        p in [1, 10].
    lower, upper : float or array_like
        Bounds ``lower < upper``.

    Returns
    -------
    numpy.ndarray
        Samples in ``[lower, upper]``, with atoms at the bounds.

    Notes
    -----
    docs/math.md section 5.6: mass beyond the bounds is piled onto the boundary points.

    Examples
    --------
    >>> draws = bit_gg_sample(np.random.default_rng(2), 1000, 0.9, 1.0, 2.0, 0.0, 1.0)
    >>> bool((draws == 1.0).any())
    True
    """
    lower_array, upper_array = _bounds_arrays(lower, upper)
    center_array = as_float_array(center, "center")
    center_b, lower_b, upper_b = broadcast(center_array, lower_array, upper_array)
    outside = (center_b < lower_b) | (center_b > upper_b) | np.isnan(center_b)
    if np.any(outside):
        where = f" (first bad element at index {int(np.argmax(outside.ravel()))})" if center_b.ndim else ""
        bad = float(center_b[outside][0]) if center_b.ndim else float(center_b)
        raise ValueError(
            f"center must be in [lower, upper] (the true value of a bounded query), got center={bad!r}{where}"
        )
    noise = gg_sample(rng, size, scale, order)
    with overflow_is_inf():  # center + noise beyond 1.8e308 is clamped to the bound just below
        return np.clip(center_array + noise, lower_array, upper_array)


# --- Liu's Gaussian-versus-Laplace comparisons (docs/math.md section 5.7) ------------------------------------


def lemma11_variance_ratio(epsilon: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """``Var_G / Var_L``: Lemma-10 Gaussian noise over Laplace noise with b = Δ/ε (Liu, Lemma 11).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).

    Returns
    -------
    float or numpy.ndarray
        ``(z + √(z² + 2ε))² / 8`` with ``z = -Φ^{-1}(δ/2)``; independent of Δ. It exceeds 1 for
        every ε whenever ``δ < LEMMA11_DELTA_THRESHOLD = 2Φ(-√2)``.

    Notes
    -----
    Liu (arXiv:1602.06028), Lemma 11 and its proof (Appendix G); docs/math.md section 5.7. Computed as
    ``σ² / (2 (Δ/ε)²)`` with σ from :func:`gaussmech_core.gaussian.pdp_gaussian_sigma`.

    Examples
    --------
    >>> round(lemma11_variance_ratio(1.0, 1e-5), 4)
    10.2496
    """
    epsilon_array = _epsilon_array(epsilon, positive=True)
    delta_array = _delta_array(delta)
    epsilon_b, delta_b = _broadcast(epsilon_array, delta_array)
    sigma = np.asarray(pdp_gaussian_sigma(epsilon_b, delta_b, 1.0))
    with overflow_is_inf():  # σ = inf (ε subnormal) is replaced by the closed form just below
        ratio = (sigma * epsilon_b) ** 2 / 2.0
    # Where σ(Δ = 1) exceeds float64 (ε below about 1e-308) the closed form has the finite value.
    z = -special.ndtri(delta_b / 2.0)
    closed_form = ((z + math.sqrt(2.0) * np.sqrt(0.5 * z * z + epsilon_b)) / math.sqrt(8.0)) ** 2  # no 2ε to overflow
    return scalar_or_array(np.where(np.isfinite(sigma), ratio, closed_form), epsilon, delta)


class TailComparison(NamedTuple):
    """Tail probabilities ``P(|noise| > t)`` of Laplace and Gaussian noise, and their ratio."""

    laplace: np.ndarray | float
    gaussian: np.ndarray | float
    ratio: np.ndarray | float
    log_ratio: np.ndarray | float


def laplace_gaussian_tail_ratio(
    t: ArrayLike, epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0, gaussian: str = "pdp"
) -> TailComparison:
    """Liu's tail comparison at threshold t: Laplace ``p1 = exp(-ε t/Δ)``, Gaussian ``p2 = erfc(t/(σ√2))``.

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0.
    epsilon : float or array_like
        ε > 0 (the Laplace noise is ε-DP with b = Δ/ε).
    delta : float or array_like
        δ in (0, 1) for the Gaussian.
    sensitivity : float or array_like, default 1.0
        Δ > 0 (scalar query: Δ₁ = Δ₂ = Δ).
    gaussian : {"pdp", "analytic"}, default "pdp"
        σ from Liu's Lemma 10 (pDP, as in Liu's plots) or from the analytic Gaussian (exact aDP).

    Returns
    -------
    TailComparison
        ``(laplace=p1, gaussian=p2, ratio=p1/p2, log_ratio=log(p1/p2))``. The ratio is formed from
        the logarithms, so it is finite when both tails underflow (it is inf only when
        ``log(p1/p2) > 709.78``).

    Notes
    -----
    docs/math.md section 5.7 (Liu Sec. 3, who omits points where both tails are below 1e-4). ``log p2 =
    log 2 + log_ndtr(-t/σ)``.

    Examples
    --------
    >>> comparison = laplace_gaussian_tail_ratio(3.0, 1.0, 1e-5)
    >>> round(comparison.laplace, 6), round(comparison.gaussian, 6), round(comparison.ratio, 6)
    (0.049787, 0.507586, 0.098086)
    """
    require_choice(gaussian, "gaussian", ("pdp", "analytic"))
    t_array = require_interval(as_float_array(t, "t"), "t", 0.0, None)
    epsilon_array = _epsilon_array(epsilon, positive=True)
    delta_array = _delta_array(delta)
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    t_b, epsilon_b, delta_b, sensitivity_b = _broadcast(t_array, epsilon_array, delta_array, sensitivity_array)
    sigma_function = pdp_gaussian_sigma if gaussian == "pdp" else analytic_gaussian_sigma
    sigma = np.asarray(sigma_function(epsilon_b, delta_b, sensitivity_b), dtype=np.float64)
    with overflow_is_inf():  # ε t/Δ beyond 1.8e308 (Δ subnormal): log p1 = -inf, p1 = 0 exactly rounded
        log_laplace = -epsilon_b * (t_b / sensitivity_b)
    with overflow_is_inf():  # t/σ beyond 1.8e308 (Δ subnormal): log p2 = -inf
        log_gaussian = math.log(2.0) + special.log_ndtr(-t_b / sigma)
    # Where p2 underflows even in log space, p1 (log-linear in t/Δ) dwarfs it (log-quadratic): +inf.
    underflow = np.isneginf(log_gaussian)
    log_ratio = np.where(underflow, np.inf, log_laplace - np.where(underflow, 0.0, log_gaussian))
    with np.errstate(over="ignore"):  # a ratio beyond 1.8e308 is inf; log_ratio keeps its value
        ratio = np.exp(log_ratio)
    inputs = (t, epsilon, delta, sensitivity)
    return TailComparison(
        scalar_or_array(np.exp(log_laplace), *inputs),
        scalar_or_array(np.exp(log_gaussian), *inputs),
        scalar_or_array(ratio, *inputs),
        scalar_or_array(log_ratio, *inputs),
    )


def privacy_cost_ratio(
    t: ArrayLike, tail_probability: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0
) -> FloatOrArray:
    """``ε₂/ε₁``: the ε a Lemma-10 Gaussian needs over the ε Laplace needs for the same tail at t.

    Parameters
    ----------
    t : float or array_like
        Threshold t > 0.
    tail_probability : float or array_like
        The common ``τ = P(|noise| > t)`` in (0, 1).
    delta : float or array_like
        δ in (0, 1) of the Gaussian's (ε, δ)-pDP guarantee.
    sensitivity : float or array_like, default 1.0
        Δ > 0.

    Returns
    -------
    float or numpy.ndarray
        ``ε₂/ε₁``; below 1 where the Gaussian reaches the tail τ at t for less privacy cost; inf
        where it exceeds 1.8e308 (t/Δ below about 1e-308).

    Notes
    -----
    docs/math.md section 5.7 [D], Liu Sec. 3. Laplace: ``ε₁ = Δ ln(1/τ)/t``. Gaussian: ``σ = t/(-Φ^{-1}(τ/2))``,
    then Lemma 10 inverted, ``ε₂ = (1 + 2 s z)/(2 s²)`` with ``s = σ/Δ`` and
    ``z = -Φ^{-1}(δ/2)``. The ratio depends on δ (Liu: "varies with |t| and δ"), so δ is an
    argument here.

    Examples
    --------
    >>> round(privacy_cost_ratio(1.0, 0.01, 1e-5), 6)
    3.191051
    """
    t_array = _positive_array(t, "t")
    tail_array = require_interval(
        as_float_array(tail_probability, "tail_probability"),
        "tail_probability",
        0.0,
        1.0,
        lower_open=True,
        upper_open=True,
    )
    delta_array = _delta_array(delta)
    sensitivity_array = _positive_array(sensitivity, "sensitivity")
    t_b, tail_b, delta_b, sensitivity_b = _broadcast(t_array, tail_array, delta_array, sensitivity_array)
    # With u = t/Δ, w = -Φ⁻¹(τ/2) and L = ln(1/τ): s = u/w, so ε₁ = L/u, ε₂ = (w² + 2uzw)/(2u²) and
    # ε₂/ε₁ = w (w/(2u) + z)/L, which neither squares nor divides by s. Φ⁻¹(τ/2) is taken as
    # ndtri_exp(log τ − log 2): τ/2 itself rounds to 0 at τ = 5e-324 (w is 38.5 there).
    w = -special.ndtri_exp(np.log(tail_b) - math.log(2.0))
    z = -special.ndtri_exp(np.log(delta_b) - math.log(2.0))
    with overflow_is_inf():  # u = t/Δ overflowing gives w/(2u) = 0, its limit; u subnormal gives inf
        half_w_over_u = 0.5 * w / (t_b / sensitivity_b)
        ratio = w * (half_w_over_u + z) / -np.log(tail_b)
    return scalar_or_array(ratio, t, tail_probability, delta, sensitivity)
