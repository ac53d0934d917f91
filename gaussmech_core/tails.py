"""Error bounds from tail probabilities, and where the classical Gaussian formula holds.

Three questions the teaching pages ask of any registered mechanism, answered with its own
functions so that no formula lives in a page:

* **How large can the error be?** :func:`tail_quantile` finds the half-width ``t`` with
  ``P(|noise| > t) = α``, i.e. the error bound at confidence ``1 - α``, for any decreasing tail
  function, by a root-find on ``log t`` whose answer is checked and moved to the side where the
  bound holds (the interval covers *at least* ``1 - α``). :func:`coordinate_error_bound` and
  :func:`norm_error_bound` apply it to a mechanism's per-coordinate tail and to the tail of
  the l2 norm of its noise vector.
* **How small is a tail?** :func:`log_coordinate_tail` and :func:`log_norm_tail` return
  ``log P(|noise| > t)`` computed in log space where the family offers it, so charts can go
  down to 1e-300 without underflow.
* **What does one coordinate, or one vector, of the noise look like?** :func:`coordinate_sample`
  draws one coordinate of a mechanism's noise many times (cheaply, whatever d), and
  :func:`rank_one_noise_sample` draws rank-1 noise ``√s · z · v`` (the shape of R1SMG's noise) in
  any dimension >= 2, with one direction v for all draws or a fresh one per draw.
* **Where does the classical formula hold?** :func:`classical_true_delta` is the exact δ at ε of
  Gaussian noise with Dwork & Roth's σ, evaluated also where their theorem does not apply
  (ε >= 1), and :func:`classical_validity_map` sorts points of the (ε, δ) plane into "a theorem",
  "not a theorem but holds" and "fails" (docs/math.md section 1).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy import optimize

from . import gaussian
from ._types import ArrayLike, FloatOrArray
from ._validation import as_float_array, broadcast, require_integer, require_interval, sample_shape, scalar_or_array
from .registry_types import Mechanism, Setting

__all__ = [
    "SMALLEST_ALPHA",
    "CLASSICAL_THEOREM",
    "CLASSICAL_HOLDS_BEYOND_THEOREM",
    "CLASSICAL_FAILS",
    "CLASSICAL_REGION_LABELS",
    "tail_quantile",
    "log_coordinate_tail",
    "log_norm_tail",
    "coordinate_error_bound",
    "norm_error_bound",
    "classical_formula_sigma",
    "classical_true_delta",
    "classical_validity_map",
    "classical_breakdown_epsilon",
    "coordinate_sample",
    "rank_one_noise_sample",
]

# The smallest tail probability the dashboard handles (its δ range also ends here).
SMALLEST_ALPHA = 1e-300

# Brent's method stops at this absolute width in u = log t (a relative width in t); a bracket
# already narrower than _RELATIVE_WIDTH is returned at its safe end without iterating.
_BRENT_TOLERANCE = 2e-13
_RELATIVE_WIDTH = 1e-12
_FAR = 1e300
# The bracket grows or shrinks by e^2 per step, within t in [1e-300, 1e300] (so e^u never
# overflows and the loops end after at most 350 steps).
_BRACKET_STEP = 2.0
_LOG_LARGEST_T = math.log(1e300)
_LOG_SMALLEST_T = math.log(1e-300)
_MAX_ITERATIONS = 200

CLASSICAL_THEOREM = 0
CLASSICAL_HOLDS_BEYOND_THEOREM = 1
CLASSICAL_FAILS = 2
CLASSICAL_REGION_LABELS = {
    CLASSICAL_THEOREM: "a theorem (0 < ε < 1) and true",
    CLASSICAL_HOLDS_BEYOND_THEOREM: "not a theorem (ε ≥ 1), but happens to hold",
    CLASSICAL_FAILS: "fails: the true δ exceeds the target",
}


def _scale_value(scale: ArrayLike) -> float:
    """A mechanism's calibrated scale: one positive, finite number (checked before the registry sees it)."""
    array = require_interval(as_float_array(scale, "scale"), "scale", 0.0, None, lower_open=True)
    if array.ndim != 0:
        raise TypeError(f"scale must be a single number (one calibrated scale), got an array of shape {array.shape}")
    return float(array)


def tail_quantile(log_tail: Callable[[np.ndarray], FloatOrArray], alpha: ArrayLike, scale: float) -> FloatOrArray:
    """Smallest half-width t, up to a relative 1e-12 and rounded up, with ``P(|N| > t) <= α``.

    Parameters
    ----------
    log_tail : callable
        ``t -> log P(|N| > t)`` for an array of ``t > 0``; non-increasing in t, tending to
        -inf (or below ``log α``) as t grows. May return -inf where the tail underflows.
    alpha : float or array_like
        Tail probability α in [1e-300, 1): the interval ``[-t, t]`` then holds the noise with
        probability at least ``1 - α``.
    scale : float
        A typical size of the noise (its standard deviation, say), > 0: where the bracket
        search starts. It changes the work done, not the answer.

    Returns
    -------
    float or numpy.ndarray
        The half-width t, the same shape as ``alpha``.

    Raises
    ------
    ValueError
        If α is outside [1e-300, 1) or NaN, ``scale`` is not positive and finite, or the tail
        never falls to α (a tail function that does not tend to zero).
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Root-finding on ``u = log t``. A bracket ``[u_lo, u_hi]`` with ``log_tail(e^u_lo) > log α >=
    log_tail(e^u_hi)`` is grown by factors e^2 from ``log(scale)``; Brent's method
    (``scipy.optimize.brentq``, absolute tolerance 2e-13 in u, i.e. relative in t) then locates
    the root, and the answer is the first point at or above it, stepping up by doubling
    increments (never beyond ``u_hi``), at which the predicate ``log_tail(t) <= log α`` is
    evaluated true: the returned t always meets the confidence level, whichever side of the root
    Brent's estimate falls on (DESIGN.md section 2: the end of the bracket on the safe side,
    verified). About a dozen evaluations of ``log_tail`` per α.

    Examples
    --------
    >>> from scipy import special
    >>> gaussian_log_tail = lambda t: np.log(special.erfc(t / np.sqrt(2.0)))
    >>> round(tail_quantile(gaussian_log_tail, 0.05, 1.0), 9)   # the familiar 1.96
    1.959963985
    >>> tail_quantile(lambda t: -t, [0.5, 1e-300], 1.0)          # Laplace(0, 1): t = ln(1/α)
    array([  0.69314718, 690.7755279 ])
    """
    alpha_array = require_interval(as_float_array(alpha, "alpha"), "alpha", SMALLEST_ALPHA, 1.0, upper_open=True)
    scale_value = float(require_interval(as_float_array(scale, "scale"), "scale", 0.0, None, lower_open=True))
    flat_alpha = alpha_array.ravel()
    log_alpha = np.log(flat_alpha)

    def log_tail_at(u: np.ndarray) -> np.ndarray:
        return np.broadcast_to(np.asarray(log_tail(np.exp(u)), dtype=np.float64), np.shape(u))

    def holds(u: np.ndarray) -> np.ndarray:
        return log_tail_at(u) <= log_alpha  # NaN counts as "does not hold"

    start = min(max(math.log(scale_value), _LOG_SMALLEST_T + _BRACKET_STEP), _LOG_LARGEST_T)
    upper = np.full(flat_alpha.shape, start)
    while True:
        short = ~holds(upper)
        if not short.any():
            break
        if upper[short].max() >= _LOG_LARGEST_T:
            raise ValueError(
                f"the tail never falls to alpha={float(flat_alpha[short].min())!r} for any finite t; "
                "is log_tail decreasing to -inf?"
            )
        upper[short] = np.minimum(upper[short] + _BRACKET_STEP, _LOG_LARGEST_T)
    lower = upper - _BRACKET_STEP
    while True:
        too_wide = holds(lower) & (lower > _LOG_SMALLEST_T)
        if not too_wide.any():
            break
        upper[too_wide] = lower[too_wide]
        lower[too_wide] -= _BRACKET_STEP
    # Still true at t <= 1e-300: the noise has an atom at 0 of mass >= 1 - α; that tested t is the answer.
    atom = holds(lower)
    half_width = np.where(atom, np.exp(lower), 0.0)
    for index in np.flatnonzero(~atom):
        half_width[index] = _safe_root(log_tail, float(log_alpha[index]), float(lower[index]), float(upper[index]))
    return scalar_or_array(half_width.reshape(alpha_array.shape), alpha)


def _safe_root(log_tail: Callable[[np.ndarray], FloatOrArray], log_alpha: float, lower: float, upper: float) -> float:
    """The smallest t found, at or above the root of log_tail(t) = log α, at which the tail is
    evaluated <= α; ``e^upper`` is known to satisfy it, ``e^lower`` not."""

    def holds_at(t: float) -> bool:
        value = float(np.asarray(log_tail(np.asarray(t, dtype=np.float64)), dtype=np.float64))
        return value <= log_alpha  # NaN counts as "does not hold"

    def excess(u: float) -> float:
        value = float(np.asarray(log_tail(np.exp(np.float64(u))), dtype=np.float64)) - log_alpha
        # brentq needs finite values: an underflowed tail (-inf) is "far below α", NaN "above α".
        if math.isnan(value):
            return _FAR
        return min(max(value, -_FAR), _FAR)

    if upper - lower > _RELATIVE_WIDTH:
        root = optimize.brentq(
            excess, lower, upper, xtol=_BRENT_TOLERANCE, rtol=4.0 * np.finfo(float).eps, maxiter=_MAX_ITERATIONS
        )
        step = _BRENT_TOLERANCE
        while root + step < upper:
            t = float(np.exp(root + step))
            if holds_at(t):
                return t
            step *= 2.0
    # The bracket's safe end. Its tail was evaluated on an array; evaluate the returned scalar
    # itself, and step up by ulps in the (never observed) case that rounding differs.
    t = float(np.exp(upper))
    for _ in range(_MAX_ITERATIONS):
        if holds_at(t):
            return t
        t = float(np.nextafter(t, np.inf))
    raise ValueError("could not verify the error bound; please report the inputs")  # pragma: no cover


def log_coordinate_tail(mechanism: Mechanism, t: ArrayLike, scale: float, setting: Setting) -> FloatOrArray:
    """Natural log of ``P(|N_i| > t)`` for one noise coordinate of a registered mechanism.

    Parameters
    ----------
    mechanism : Mechanism
        A registry entry (:data:`gaussmech_core.mechanisms.MECHANISMS`).
    t : float or array_like
        Thresholds t >= 0.
    scale : float
        The mechanism's calibrated scale at ``setting`` (``mechanism.scale(setting)``).
    setting : Setting
        The parameters (the order p, the dimension d).

    Returns
    -------
    float or numpy.ndarray
        ``log P(|N_i| > t)``; -inf only where even the log-space formula has no finite value.

    Notes
    -----
    The mechanism's own ``log_tail`` (the registry is the seam): Gaussian noise through ``log erfc``
    (``log_ndtr``), Laplace ``-t/b``, the generalized Gaussian ``log Q(1/p, (t/b)^p)`` (docs/math.md
    sections 4, 5.1 and 10), all finite far below 1e-300; a mechanism with no log-space formula
    (R1SMG) gives the log of its tail probability, which underflows to -inf below about 1e-308.

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> setting = Setting(epsilon=1.0, delta=1e-5)
    >>> round(log_coordinate_tail(MECHANISMS["laplace"], 3.0, 1.0, setting), 12)
    -3.0
    >>> log_coordinate_tail(MECHANISMS["analytic_gaussian"], 100.0, 1.0, setting) < math.log(1e-300)
    True
    """
    t_array = require_interval(as_float_array(t, "t"), "t", 0.0, None, allow_infinity=True)
    result = np.asarray(mechanism.log_tail(t_array, scale, setting), dtype=np.float64)
    return scalar_or_array(result, t)


def log_norm_tail(mechanism: Mechanism, t: ArrayLike, scale: float, setting: Setting) -> FloatOrArray:
    """Natural log of ``P(‖N‖₂ > t)`` for the noise vector at ``setting.dim``.

    Parameters
    ----------
    mechanism : Mechanism
        A registry entry whose ``norm_tail`` is not ``None``.
    t : float or array_like
        Thresholds t >= 0.
    scale : float
        The calibrated scale at ``setting``.
    setting : Setting
        The parameters.

    Returns
    -------
    float or numpy.ndarray
        ``log P(‖N‖₂ > t)``, -inf where the probability underflows (below about 1e-308).

    Raises
    ------
    ValueError
        If the mechanism has no closed-form norm tail (``norm_tail is None``: Laplace and the
        generalized Gaussian, whose norm tail only Monte Carlo gives).

    Notes
    -----
    The registry's ``log_norm_tail``, the log of its ``norm_tail`` (docs/math.md section 10: ``Q(d/2, t²/(2σ²))`` for the
    isotropic Gaussian, ``erfc(t/√(2σ*))`` for R1SMG).

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> setting = Setting(epsilon=1.0, delta=1e-5, dim=1)
    >>> round(math.exp(log_norm_tail(MECHANISMS["analytic_gaussian"], 1.959963985, 1.0, setting)), 9)
    0.05
    """
    if mechanism.log_norm_tail is None:
        raise ValueError(
            f"{mechanism.name} has no closed-form tail of ‖noise‖₂ (norm_tail is None); estimate it by Monte Carlo"
        )
    t_array = require_interval(as_float_array(t, "t"), "t", 0.0, None, allow_infinity=True)
    return scalar_or_array(np.asarray(mechanism.log_norm_tail(t_array, scale, setting), dtype=np.float64), t)


def coordinate_error_bound(mechanism: Mechanism, scale: float, setting: Setting, alpha: ArrayLike) -> FloatOrArray:
    """Half-width t with ``P(|N_i| <= t) >= 1 - α``: the error bound of one coordinate.

    Parameters
    ----------
    mechanism : Mechanism
        A registry entry.
    scale : float
        Its calibrated scale at ``setting``.
    setting : Setting
        The parameters.
    alpha : float or array_like
        α in [1e-300, 1).

    Returns
    -------
    float or numpy.ndarray
        t, rounded up: each released coordinate is within t of the truth with probability at
        least ``1 - α``.

    Notes
    -----
    :func:`tail_quantile` on :func:`log_coordinate_tail`; where the entry has a
    ``coordinate_quantile`` in closed form (Gaussian ``t = σ Φ⁻¹(1 - α/2)``, Laplace
    ``t = b ln(1/α)``, GG, the bounded GGs, the discrete Gaussian's lattice search), that answer
    checked by :func:`_verified_quantile` instead, the root search only where the check fails
    (docs/math.md sections 4, 10 and 12.4).

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> setting = Setting(epsilon=1.0, delta=1e-5)
    >>> round(coordinate_error_bound(MECHANISMS["laplace"], 1.0, setting, 0.05), 9)   # ln 20
    2.995732274
    """
    scale = _scale_value(scale)

    def log_tail(t):
        return log_coordinate_tail(mechanism, t, scale, setting)

    def std() -> float:
        return float(mechanism.coordinate_std(scale, setting))

    return _error_bound_on_tail(log_tail, mechanism.coordinate_quantile, alpha, std, scale, setting)


def _error_bound_on_tail(
    log_tail: Callable[[np.ndarray], FloatOrArray],
    closed_form: Callable[[np.ndarray, float, Setting], np.ndarray] | None,
    alpha: ArrayLike,
    typical: Callable[[], float],
    scale: float,
    setting: Setting,
) -> FloatOrArray:
    """:func:`tail_quantile` on ``log_tail`` from ``typical()``, or, where the entry has a closed form
    (``closed_form(alpha, scale, setting)``), that answer checked by :func:`_verified_quantile`."""
    if closed_form is None:
        return tail_quantile(log_tail, alpha, typical())
    alpha_array = require_interval(as_float_array(alpha, "alpha"), "alpha", SMALLEST_ALPHA, 1.0, upper_open=True)
    estimate = np.asarray(closed_form(alpha_array, scale, setting), dtype=np.float64)
    return scalar_or_array(_verified_quantile(log_tail, alpha_array, estimate, typical), alpha)


def _verified_quantile(
    log_tail: Callable[[np.ndarray], FloatOrArray],
    alpha: np.ndarray,
    estimate: np.ndarray,
    scale: Callable[[], float],
) -> np.ndarray:
    """:func:`tail_quantile`'s answer from a closed-form estimate, checked on the log tail itself.

    Parameters
    ----------
    log_tail : callable
        ``t -> log P(|N| > t)``, as for :func:`tail_quantile`.
    alpha : numpy.ndarray
        α in [1e-300, 1) (already checked).
    estimate : numpy.ndarray
        A closed-form t with ``P(|N| > t) = α`` for each α (NaN or a non-positive value: none).
    scale : callable
        Returns the typical size that :func:`tail_quantile` starts from, called only if needed.

    Returns
    -------
    numpy.ndarray
        For each α whose estimate t fails the check ``log_tail <= log α`` at ``t e^{-2e-13}``, the
        first of ``t e^{2e-13}``, ``t e^{4e-13}``, ``t e^{8e-13}`` at which it holds (evaluated once
        more as a scalar): the steps :func:`tail_quantile` takes above its root, so the answer is
        within a relative 1e-12 of the smallest t that holds and on its safe side by the same
        margin. Every other α (an estimate off by more than that, or none) gets
        :func:`tail_quantile`'s root search: the guarantee never rests on the formula.

    Notes
    -----
    docs/math.md section 12.4: four evaluations of the log tail in one array call instead of a
    bracket search and Brent's method (about a dozen calls per α).

    Examples
    --------
    >>> from scipy import special
    >>> gaussian_log_tail = lambda t: np.log(special.erfc(t / np.sqrt(2.0)))
    >>> guess = -special.ndtri(np.array([0.025]))
    >>> round(float(_verified_quantile(gaussian_log_tail, np.array([0.05]), guess, lambda: 1.0)[0]), 9)
    1.959963985
    """
    shape = np.shape(alpha)
    flat_alpha = np.asarray(alpha, dtype=np.float64).ravel()
    log_alpha = np.log(flat_alpha)
    t = np.broadcast_to(np.asarray(estimate, dtype=np.float64), shape).ravel()
    result = np.full(flat_alpha.shape, np.nan)
    usable = np.flatnonzero(np.isfinite(t) & (t > SMALLEST_ALPHA) & (t < _FAR))
    if usable.size:
        log_t = np.log(t[usable])
        offsets = np.array([-1.0, 1.0, 2.0, 4.0])[:, None] * _BRENT_TOLERANCE
        probes = np.exp(log_t[None, :] + offsets)  # row 0 must fail, the first later row that holds wins
        values = np.asarray(log_tail(probes.ravel()), dtype=np.float64).reshape(probes.shape)
        holds = values <= log_alpha[usable]  # NaN counts as "does not hold"
        first = np.argmax(holds[1:], axis=0) + 1
        accepted = ~holds[0] & holds[1:].any(axis=0)
        for column in np.flatnonzero(accepted):
            value = float(probes[first[column], column])
            index = usable[column]
            if float(np.asarray(log_tail(np.asarray(value)), dtype=np.float64)) <= log_alpha[index]:
                result[index] = value
    rest = np.isnan(result)
    if rest.any():
        result[rest] = np.asarray(tail_quantile(log_tail, flat_alpha[rest], scale()), dtype=np.float64)
    return result.reshape(shape)


def norm_error_bound(mechanism: Mechanism, scale: float, setting: Setting, alpha: ArrayLike) -> FloatOrArray:
    """Radius t with ``P(‖N‖₂ <= t) >= 1 - α``: the error bound of the whole vector in l2.

    Parameters
    ----------
    mechanism : Mechanism
        A registry entry whose ``norm_tail`` is not ``None``.
    scale : float
        Its calibrated scale at ``setting``.
    setting : Setting
        The parameters (the dimension d).
    alpha : float or array_like
        α in [1e-300, 1).

    Returns
    -------
    float or numpy.ndarray
        t, rounded up.

    Raises
    ------
    ValueError
        If the mechanism has no closed-form norm tail.

    Notes
    -----
    :func:`tail_quantile` on :func:`log_norm_tail`, started from ``√(E‖N‖₂²)``; where the entry has
    a ``norm_quantile`` (the Gaussian's ``σ √(2 Q⁻¹(d/2, α))``, R1SMG's ``√σ* Φ̄⁻¹(α/2)``), that
    answer checked by :func:`_verified_quantile` instead (docs/math.md section 12.4).

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> setting = Setting(epsilon=1.0, delta=1e-5, dim=2)
    >>> round(norm_error_bound(MECHANISMS["analytic_gaussian"], 1.0, setting, math.exp(-2.0)), 9)  # χ²₂/2 ~ Exp(1)
    2.0
    """
    if mechanism.norm_tail is None:
        raise ValueError(
            f"{mechanism.name} has no closed-form tail of ‖noise‖₂ (norm_tail is None); estimate it by Monte Carlo"
        )
    scale = _scale_value(scale)

    def log_tail(t):
        return log_norm_tail(mechanism, t, scale, setting)

    def typical() -> float:
        return math.sqrt(float(mechanism.expected_loss(scale, setting)))

    return _error_bound_on_tail(log_tail, mechanism.norm_quantile, alpha, typical, scale, setting)


def classical_formula_sigma(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """Dwork & Roth's formula σ = Δ√(2 ln(1.25/δ))/ε evaluated for every ε > 0, also where it is no theorem.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        Δ > 0.

    Returns
    -------
    float or numpy.ndarray
        The formula's σ. **Not a calibration** for ε >= 1: use it only to show what the formula
        gives there (the map, the low-privacy chart); to calibrate, use
        :func:`gaussmech_core.gaussian.classical_gaussian_sigma` (which refuses ε >= 1) or the
        analytic Gaussian. inf where σ exceeds the largest double (e.g. a subnormal ε).

    Notes
    -----
    Dwork & Roth 2014, Theorem A.1 (Balle & Wang, Theorem 1), proved for 0 < ε < 1 only
    (docs/math.md section 1); ``ln(1.25/δ)`` is written ``ln 1.25 − ln δ`` so δ = 1e-300 is fine.

    Examples
    --------
    >>> round(classical_formula_sigma(1.0, 1e-5), 5), round(classical_formula_sigma(10.0, 1e-5), 6)
    (4.84481, 0.484481)
    """
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None, lower_open=True)
    delta_array = require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0, lower_open=True, upper_open=True)
    sensitivity_array = require_interval(
        as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None, lower_open=True
    )
    epsilon_b, delta_b, sensitivity_b = broadcast(epsilon_array, delta_array, sensitivity_array)
    root = np.sqrt(2.0 * (math.log(1.25) - np.log(delta_b)))
    with np.errstate(over="ignore"):
        sigma = sensitivity_b * (root / epsilon_b)
        # Where a factor overflowed the product need not have: take those in log space, which
        # gives inf only where σ itself exceeds the largest double.
        logarithmic = np.exp(np.log(sensitivity_b) + np.log(root) - np.log(epsilon_b))
        sigma = np.where(np.isinf(sigma), logarithmic, sigma)
    return scalar_or_array(sigma, epsilon, delta, sensitivity)


def classical_true_delta(epsilon: ArrayLike, delta: ArrayLike) -> FloatOrArray:
    """Exact δ at ε of Gaussian noise with the classical σ = Δ√(2 ln(1.25/δ))/ε, for every ε > 0.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 (also ε >= 1, where the classical formula is not a theorem).
    delta : float or array_like
        The target δ in (0, 1) that the classical formula was given.

    Returns
    -------
    float or numpy.ndarray
        The δ the noise actually achieves at ε. The formula meets its target exactly where this
        is <= ``delta``. Δ cancels: only σ/Δ matters.

    Notes
    -----
    σ from Dwork & Roth 2014, Theorem A.1 (Balle & Wang, Theorem 1), written with
    ``ln(1.25) - ln δ`` so δ = 1e-300 is fine, and evaluated on purpose beyond its domain
    ε < 1; the exact δ is Balle & Wang's Theorem 8, :func:`gaussmech_core.gaussian.gaussian_delta`.
    docs/math.md section 1 measures the break-down (at δ = 1e-5, near ε ≈ 8.42).

    Examples
    --------
    >>> classical_true_delta(0.5, 1e-5) < 1e-5
    True
    >>> classical_true_delta(5.0, 1e-5) < 1e-5 < classical_true_delta(10.0, 1e-5)
    True
    """
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None, lower_open=True)
    delta_array = require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0, lower_open=True, upper_open=True)
    epsilon_b, delta_b = broadcast(epsilon_array, delta_array)
    # Only σ/Δ = √(2 ln(1.25/δ))/ε matters: take σ = 1 and Δ = ε/√(2 ln(1.25/δ)), which stays
    # finite (and exact) where σ itself would overflow at a subnormal ε.
    sensitivity = epsilon_b / np.sqrt(2.0 * (math.log(1.25) - np.log(delta_b)))
    true_delta = gaussian.gaussian_delta(epsilon_b, 1.0, sensitivity)
    return scalar_or_array(true_delta, epsilon, delta)


def classical_validity_map(epsilon: ArrayLike, delta: ArrayLike) -> int | np.ndarray:
    """Where the classical Gaussian σ meets (ε, δ): 0 a theorem, 1 holds beyond it, 2 fails.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).

    Returns
    -------
    numpy.ndarray of int or int
        :data:`CLASSICAL_THEOREM` (0 < ε < 1, where Theorem A.1 applies; the exact δ confirms
        it), :data:`CLASSICAL_HOLDS_BEYOND_THEOREM` (ε >= 1 and the exact δ is within target)
        or :data:`CLASSICAL_FAILS` (the exact δ exceeds the target).

    Notes
    -----
    docs/math.md section 1; labels in :data:`CLASSICAL_REGION_LABELS`. A point with ε < 1 whose exact
    δ exceeded the target would be marked as failing, not as a theorem: the map trusts the exact
    computation over the theorem's statement (no such point exists; the tests check a grid).

    Examples
    --------
    >>> classical_validity_map([0.5, 5.0, 10.0], 1e-5)
    array([0, 1, 2])
    """
    true_delta = np.asarray(classical_true_delta(epsilon, delta), dtype=np.float64)
    epsilon_b, delta_b = broadcast(as_float_array(epsilon, "epsilon"), as_float_array(delta, "delta"))
    holds = true_delta <= delta_b
    region = np.where(
        holds, np.where(epsilon_b < 1.0, CLASSICAL_THEOREM, CLASSICAL_HOLDS_BEYOND_THEOREM), CLASSICAL_FAILS
    ).astype(int)
    if region.ndim == 0:
        return int(region)
    return region


def classical_breakdown_epsilon(delta: float, *, largest_epsilon: float = 1e3) -> float:
    """The smallest ε >= 1 at which the classical σ stops meeting (ε, δ), or inf if it never does.

    Parameters
    ----------
    delta : float
        The target δ in (0, 1).
    largest_epsilon : float, default 1e3
        Search up to this ε (the dashboard's range).

    Returns
    -------
    float
        ε*, to a relative 1e-12 and rounded down (so the formula already fails at the returned
        value or just above it); ``inf`` when the formula holds on all of [1, largest_epsilon].

    Notes
    -----
    Scans 1000 log-spaced points of [1, largest_epsilon] for the first failure of
    :func:`classical_true_delta` (ε) <= δ, then bisects on log ε between the last success and
    the first failure. docs/math.md section 1 reports ε* ≈ 8.42 at δ = 1e-5, 7.46 at 1e-3, 9.85 at 1e-10.

    Examples
    --------
    >>> round(classical_breakdown_epsilon(1e-5), 2)
    8.42
    """
    delta_value = float(
        require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0, lower_open=True, upper_open=True)
    )
    largest = float(require_interval(as_float_array(largest_epsilon, "largest_epsilon"), "largest_epsilon", 1.0, None))
    with np.errstate(over="ignore"):  # e^{ln L} may round above L = the largest double
        grid = np.minimum(np.exp(np.linspace(0.0, math.log(largest), 1000)), largest)
    fails = np.asarray(classical_true_delta(grid, delta_value)) > delta_value
    if not fails.any():
        return math.inf
    first = int(np.argmax(fails))
    if first == 0:
        return 1.0
    low, high = math.log(grid[first - 1]), math.log(grid[first])
    while high - low > 1e-12:
        middle = 0.5 * (low + high)
        if float(classical_true_delta(math.exp(middle), delta_value)) > delta_value:
            high = middle
        else:
            low = middle
    return math.exp(low)


def _require_rng(rng: object) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got rng={rng!r}")


def coordinate_sample(
    mechanism: Mechanism, rng: np.random.Generator, size: int, scale: float, setting: Setting
) -> np.ndarray:
    """``size`` independent draws of one coordinate of a mechanism's noise (its marginal).

    Parameters
    ----------
    mechanism : Mechanism
        A registry entry.
    rng : numpy.random.Generator
        Source of randomness (seeded for reproducible draws).
    size : int
        Number of draws, >= 0.
    scale : float
        The calibrated scale at ``setting``.
    setting : Setting
        The parameters (d matters only for non-i.i.d. noise).

    Returns
    -------
    numpy.ndarray
        Shape ``(size,)``: draws of the first coordinate N₁, one per independent release.

    Notes
    -----
    The mechanism's own ``coordinate_sample``: for i.i.d. noise its sampler at d = 1 (a coordinate
    of d-dimensional i.i.d. noise has the same law, and the work does not grow with d); for R1SMG
    ``N₁ = √σ* z v₁`` with ``v₁ = g₁ / √(g₁² + χ²_{d−1})`` (docs/math.md section 6.1), O(size) even at d = 10⁶.

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> draws = coordinate_sample(MECHANISMS["laplace"], np.random.default_rng(1), 100_000, 2.0, Setting(1.0, 1e-5, dim=50))
    >>> draws.shape, bool(abs(draws.std() / (2.0 * math.sqrt(2.0)) - 1) < 0.01)
    ((100000,), True)
    """
    _require_rng(rng)
    if isinstance(size, (tuple, list)) or np.ndim(size) != 0:
        raise TypeError(f"size must be a whole number of draws, got size={size!r}")
    (count,) = sample_shape(size)
    scale = _scale_value(scale)
    return np.asarray(mechanism.coordinate_sample(rng, count, scale, setting), dtype=np.float64).reshape(count)


def rank_one_noise_sample(
    rng: np.random.Generator, size: int, total_variance: float, dim: int, *, fixed_direction: bool
) -> np.ndarray:
    """Rank-1 Gaussian noise ``√s · z · v`` in R^dim: the shape of R1SMG's noise (Ji & Li 2024).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness.
    size : int
        Number of noise vectors, >= 0.
    total_variance : float
        ``s = E‖noise‖₂²`` > 0 (R1SMG's σ*).
    dim : int
        Dimension >= 2 (a picture in 2-D or 3-D; R1SMG's own calibration needs d >= 3).
    fixed_direction : bool
        True: one uniformly random direction v for every row, so every vector lies on one line
        through the origin (the noise given v, covariance ``s v vᵀ``). False: a fresh v per
        row, as R1SMG draws for each release (the law of :func:`r1smg_sample`).

    Returns
    -------
    numpy.ndarray
        Shape ``(size, dim)``.

    Notes
    -----
    docs/math.md section 6.1 ("Sampling"): ``v = g/‖g‖`` with ``g ~ N(0, I)``, ``z ~ N(0, 1)``. Written here
    (rather than calling :func:`gaussmech_core.multivariate.r1smg_sample`) because the teaching
    picture needs d = 2 and a fixed direction, which that sampler rightly does not offer.

    Examples
    --------
    >>> noise = rank_one_noise_sample(np.random.default_rng(0), 500, 3.0, 2, fixed_direction=True)
    >>> noise.shape, int(np.linalg.matrix_rank(noise))
    ((500, 2), 1)
    """
    _require_rng(rng)
    size = require_integer(size, "size", minimum=0)
    dim = require_integer(dim, "dim", minimum=2)
    variance = float(
        require_interval(as_float_array(total_variance, "total_variance"), "total_variance", 0.0, None, lower_open=True)
    )
    rows = 1 if fixed_direction else size
    directions = rng.standard_normal((rows, dim))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    radius = math.sqrt(variance) * rng.standard_normal(size)
    return radius[:, None] * directions
