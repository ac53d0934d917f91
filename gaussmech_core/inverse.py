"""Accuracy first: the ε each mechanism needs to meet a target error at dimension d.

Users of DP release tools ask to start from the error they can accept and solve for ε
(USERS.md, item 1). This module inverts the registry's calibrations: for a mechanism, a setting
(δ, Δ, d, ...) and a target error, it finds the smallest ε in [1e-6, 1e3] at which the noise,
calibrated by the registry at that ε, meets the target.

Two kinds of target, each for the whole vector (``scope="norm"``) or one coordinate
(``scope="coordinate"``):

* ``kind="rms"``: the root-mean-square error, ``√E‖n‖₂²`` (norm) or ``√E n_i²`` (coordinate);
* ``kind="quantile"``: a bound t that holds with probability at least 1 - α,
  ``P(‖n‖₂ > t) ≤ α`` (norm) or ``P(|n_i| > t) ≤ α`` (coordinate).

Monotonicity assumption. Every registered calibration gives a scale that does not increase with
ε at fixed (δ, Δ, d), so the error is non-increasing in ε, and the set of ε where a mechanism is
valid is an interval starting at the bottom of the range (it is all ε > 0, or ε < 1 for the
classical Gaussian, or empty). Under this assumption the root-find returns the smallest feasible
ε to a relative precision of about 1e-10. Without it the answer is still *correct*: the returned
ε is always verified to meet the target (the root-find returns the end of its bracket on the
feasible side, never a plain root), it may only fail to be the smallest.

The returned ε is honest in both directions: the mechanism calibrated at that ε has the privacy
guarantee of that ε (it is the registry's calibration there), and its error meets the target.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import optimize

from ._types import FloatOrArray
from ._validation import as_float_array, require_choice, require_interval
from .mechanisms import MECHANISMS
from .registry_types import Mechanism, Setting

__all__ = [
    "EPSILON_RANGE",
    "TARGET_KINDS",
    "TARGET_SCOPES",
    "InverseCalibration",
    "error_at_epsilon",
    "epsilon_for_target_error",
    "epsilons_for_target_error",
]

EPSILON_RANGE = (1e-6, 1e3)
TARGET_KINDS = ("rms", "quantile")
TARGET_SCOPES = ("norm", "coordinate")

# The quantile root-find stops when its bracket is this narrow, relative to the bound.
_QUANTILE_RELATIVE_TOLERANCE = 1e-12
# The ε root-find works on log ε; this is its absolute tolerance there (relative in ε).
_LOG_EPSILON_TOLERANCE = 1e-11
# Bisection steps that locate the top of a validity interval (log ε range 20.7 / 2^60).
_VALIDITY_STEPS = 60
# The first of them, which place the top within 0.5 % of the edge (20.7 / 2^12 in log ε).
_COARSE_VALIDITY_STEPS = 12


@dataclass(frozen=True)
class InverseCalibration:
    """The ε a mechanism needs to meet a target error, or why no ε in range does.

    ``epsilon`` is ``None`` when no ε in [1e-6, 1e3] meets the target; ``reason`` then says why
    in plain words. ``error`` is the mechanism's error at the returned ε (≤ ``target``).
    ``at_lower_end`` is True when even ε = 1e-6 meets the target (any smaller ε may too).
    ``method`` says how the error was computed: "exact" (closed form or a root-find on an exact
    tail) or "approximate (...)" for the norm quantile of Laplace and GG noise, which has no
    closed form: a seeded Monte Carlo estimate or, at large d, the Cornish–Fisher expansion
    (:mod:`gaussmech_core.loss`).
    """

    mechanism_id: str
    target: float
    kind: str
    scope: str
    alpha: float | None
    epsilon: float | None
    error: float | None
    reason: str = ""
    at_lower_end: bool = False
    method: str = "exact"


def _mechanism(mechanism: Mechanism | str) -> Mechanism:
    if isinstance(mechanism, Mechanism):
        return mechanism
    require_choice(mechanism, "mechanism", tuple(MECHANISMS))
    return MECHANISMS[mechanism]


def _quantile_from_tail(tail: Callable[[float], FloatOrArray], alpha: float, start: float) -> float:
    """Smallest t (to 1e-12 relative, rounded up) with ``tail(t) ≤ alpha``, for a decreasing tail.

    Returns the upper end of the final bracket, so ``tail(result) ≤ alpha`` always holds: a
    bound that is promised with probability 1 - α is never reported too small.
    """
    high = max(start, np.finfo(float).tiny)
    while float(tail(high)) > alpha:
        high *= 2.0
        if not math.isfinite(high):
            raise ValueError("the noise tail did not fall below alpha at any finite bound")
    low = high / 2.0
    while low > np.finfo(float).tiny and float(tail(low)) <= alpha:
        high, low = low, low / 2.0
    # Now tail(low) > alpha >= tail(high): bisect on log t (the bound spans decades).
    log_alpha = math.log(alpha)

    def excess(log_t: float) -> float:
        value = float(tail(math.exp(log_t)))
        return (math.log(value) if value > 0 else -1e3) - log_alpha

    if high / low > 1.0 + _QUANTILE_RELATIVE_TOLERANCE and excess(math.log(low)) * excess(math.log(high)) >= 0:
        # A step tail (integer noise) can jump between t and exp(log t): bisect on t itself, keeping
        # the end verified to meet α.
        while high / low > 1.0 + _QUANTILE_RELATIVE_TOLERANCE:
            middle = math.sqrt(low * high)
            if float(tail(middle)) <= alpha:
                high = middle
            else:
                low = middle
        return high
    if high / low > 1.0 + _QUANTILE_RELATIVE_TOLERANCE:
        root = optimize.brentq(
            excess, math.log(low), math.log(high), xtol=_QUANTILE_RELATIVE_TOLERANCE / 4, rtol=4 * np.finfo(float).eps
        )
        candidate = math.exp(root) * (1.0 + _QUANTILE_RELATIVE_TOLERANCE)
        step = _QUANTILE_RELATIVE_TOLERANCE
        while candidate < high and float(tail(candidate)) > alpha:
            step *= 4.0
            candidate = min(high, math.exp(root) * (1.0 + step))
        high = min(high, candidate)
    return high


def _norm_quantile_approximate(mechanism: Mechanism, scale: float, setting: Setting, alpha: float) -> tuple[float, str]:
    """The (1 - α) quantile of ‖n‖₂ for noise without a closed-form norm tail, from its loss summary.

    ``mechanism.loss_summary`` gives the quantiles of ‖n‖₂² (for i.i.d. Laplace and GG noise a
    seeded Monte Carlo, or the Cornish–Fisher expansion at large d, computed once per (p, d) at
    b = 1 and scaled by b²); the norm quantile is the square root of the loss quantile.
    """
    level = 1.0 - alpha
    summary = mechanism.loss_summary(scale, setting, (level,))
    return math.sqrt(summary.quantiles[level]), f"approximate ({summary.method})"


def error_at_epsilon(
    mechanism: Mechanism | str,
    setting: Setting,
    epsilon: float,
    *,
    kind: str = "rms",
    alpha: float = 0.05,
    scope: str = "norm",
) -> float | None:
    """The error of a mechanism calibrated at ``epsilon`` (the other parameters from ``setting``).

    Parameters
    ----------
    mechanism : Mechanism or str
        A registry entry or its id.
    setting : Setting
        δ, Δ, d, p, the l1 model and the MVG shape; its ε is replaced by ``epsilon``.
    epsilon : float
        ε > 0.
    kind : {"rms", "quantile"}
        Root-mean-square error, or the bound that holds with probability 1 - ``alpha``.
    alpha : float
        Failure probability of the bound, in (0, 1); used when ``kind="quantile"``.
    scope : {"norm", "coordinate"}
        The l2 norm of the whole noise vector, or one coordinate.

    Returns
    -------
    float or None
        The error, or ``None`` where the mechanism's guarantee does not hold at this setting;
        inf where the error exceeds 1.8e308 (Δ or d near the largest double).

    Notes
    -----
    RMS uses the registry's exact E‖n‖₂²; per coordinate it is divided by d, since every
    registered noise has exchangeable coordinates. The quantile inverts the registry's exact
    tails (coordinate ``tail``; ``norm_tail``: the χ² tail Q(d/2, t²/2σ²) for Gaussians, erfc for
    R1SMG, docs/math.md section 10) by a root-find rounded up. For Laplace and GG noise, whose norm
    has no closed-form tail, the norm quantile is b times the quantile at b = 1 from
    :func:`gaussmech_core.loss.iid_coordinate_loss_summary` (seeded Monte Carlo, or
    Cornish–Fisher at large d): an approximation, labelled as such in ``method``.

    Examples
    --------
    >>> setting = Setting(epsilon=1.0, delta=1e-5, dim=100)
    >>> round(error_at_epsilon("analytic_gaussian", setting, 1.0), 4)
    37.3063
    >>> round(error_at_epsilon("laplace", setting, 2.0, scope="coordinate"), 4)
    0.7071
    >>> error_at_epsilon("classical_gaussian", setting, 2.0) is None
    True
    """
    mechanism = _mechanism(mechanism)
    require_choice(kind, "kind", TARGET_KINDS)
    require_choice(scope, "scope", TARGET_SCOPES)
    epsilon_value = float(require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None, lower_open=True))
    alpha_value = float(
        require_interval(as_float_array(alpha, "alpha"), "alpha", 0.0, 1.0, lower_open=True, upper_open=True)
    )
    return _error(mechanism, replace(setting, epsilon=epsilon_value), kind, alpha_value, scope)[0]


def _error(mechanism: Mechanism, setting: Setting, kind: str, alpha: float, scope: str) -> tuple[float | None, str]:
    """(error, method) at ``setting``; error is None where the mechanism is not valid, inf on overflow."""
    if not mechanism.validity(setting).valid:
        return None, "exact"
    scale = float(mechanism.scale(setting))
    if not math.isfinite(scale):
        return math.inf, "exact"
    expected_loss = float(mechanism.expected_loss(scale, setting))
    if kind == "rms":
        mean_square = expected_loss if scope == "norm" else expected_loss / setting.dim
        return math.sqrt(mean_square), "exact"
    if scope == "coordinate":
        start = math.sqrt(expected_loss / setting.dim)
        return _quantile_from_tail(lambda t: mechanism.tail(np.float64(t), scale, setting), alpha, start), "exact"  # type: ignore[arg-type]  # see [tool.mypy] in pyproject.toml
    if mechanism.norm_tail is not None:
        start = math.sqrt(expected_loss)
        return _quantile_from_tail(lambda t: mechanism.norm_tail(np.float64(t), scale, setting), alpha, start), "exact"  # type: ignore[arg-type, misc]  # norm_tail is not None: tested above
    return _norm_quantile_approximate(mechanism, scale, setting, alpha)


def epsilon_for_target_error(
    mechanism: Mechanism | str,
    setting: Setting,
    target: float,
    *,
    kind: str = "rms",
    alpha: float = 0.05,
    scope: str = "norm",
) -> InverseCalibration:
    """The smallest ε in [1e-6, 1e3] at which ``mechanism`` meets a target error.

    Parameters
    ----------
    mechanism : Mechanism or str
        A registry entry or its id.
    setting : Setting
        δ, Δ, d, p, the l1 model and the MVG shape (its own ε is ignored).
    target : float
        The largest acceptable error, > 0, in the units of the answer.
    kind, alpha, scope
        As in :func:`error_at_epsilon`.

    Returns
    -------
    InverseCalibration
        ``epsilon`` is the answer (``None`` when no ε in range meets the target, with the reason).

    Raises
    ------
    ValueError
        For a non-positive or non-finite target, α outside (0, 1), or an unknown kind, scope or
        mechanism.

    Notes
    -----
    Root-finding on log ε (``scipy.optimize.brentq``) of log error(ε) - log target, between
    1e-6 and the top of the mechanism's validity interval (found by bisection on its validity).
    The root is then moved up until the error at the returned float ε is verified to be at most
    the target: the returned ε is on the feasible side of the bracket. See the module docstring
    for the monotonicity this relies on, and what still holds without it.

    Examples
    --------
    >>> setting = Setting(epsilon=1.0, delta=1e-5, dim=100)
    >>> result = epsilon_for_target_error("analytic_gaussian", setting, 37.3063)
    >>> round(result.epsilon, 4), result.error <= 37.3063
    (1.0, True)
    >>> epsilon_for_target_error("classical_gaussian", setting, 1.0).epsilon is None
    True
    """
    mechanism = _mechanism(mechanism)
    require_choice(kind, "kind", TARGET_KINDS)
    require_choice(scope, "scope", TARGET_SCOPES)
    target_value = float(require_interval(as_float_array(target, "target"), "target", 0.0, None, lower_open=True))
    alpha_value = float(
        require_interval(as_float_array(alpha, "alpha"), "alpha", 0.0, 1.0, lower_open=True, upper_open=True)
    )
    low_epsilon, high_epsilon = EPSILON_RANGE
    result: dict[str, Any] = dict(
        mechanism_id=mechanism.id,
        target=target_value,
        kind=kind,
        scope=scope,
        alpha=alpha_value if kind == "quantile" else None,
    )

    def at(epsilon: float) -> Setting:
        return replace(setting, epsilon=epsilon)

    low_validity = mechanism.validity(at(low_epsilon))
    if not low_validity.valid:
        return InverseCalibration(**result, epsilon=None, error=None, reason=low_validity.reason)

    def error_and_method(epsilon: float) -> tuple[float, str]:
        error, method = _error(mechanism, at(epsilon), kind, alpha_value, scope)
        return (math.inf if error is None else error), method

    top_epsilon, beyond_reason = high_epsilon, ""
    top_validity = mechanism.validity(at(high_epsilon))
    if not top_validity.valid:
        beyond_reason = top_validity.reason
        valid_log, invalid_log = math.log(low_epsilon), math.log(high_epsilon)

        def closer_to_the_edge(steps: int) -> float:
            nonlocal valid_log, invalid_log
            for _ in range(steps):
                middle = 0.5 * (valid_log + invalid_log)
                if mechanism.validity(at(math.exp(middle))).valid:
                    valid_log = middle
                else:
                    invalid_log = middle
            top = math.exp(valid_log)
            if not mechanism.validity(at(top)).valid:  # exp rounding crossed the edge
                top = math.nextafter(top, 0.0)
            return top

        # The edge is needed to the last bit only when the target is not met just below it: a
        # valid ε that meets the target already closes the bracket of the root (the error falls
        # with ε). The discrete Gaussian's edge costs a lattice root search per probe.
        top_epsilon = closer_to_the_edge(_COARSE_VALIDITY_STEPS)
        if error_and_method(top_epsilon)[0] > target_value:
            top_epsilon = closer_to_the_edge(_VALIDITY_STEPS - _COARSE_VALIDITY_STEPS)

    top_error, method = error_and_method(top_epsilon)
    if top_error > target_value:
        reason = (
            f"even at ε = {top_epsilon:.4g}, the largest ε where it is valid here, its error is "
            f"{top_error:.4g}, above the target {target_value:.4g}"
        )
        if beyond_reason:
            reason += f". Above that: {beyond_reason}"
        return InverseCalibration(**result, epsilon=None, error=None, reason=reason, method=method)

    low_error, method = error_and_method(low_epsilon)
    if low_error <= target_value:
        return InverseCalibration(**result, epsilon=low_epsilon, error=low_error, at_lower_end=True, method=method)

    log_target = math.log(target_value)

    def excess(log_epsilon: float) -> float:
        error = error_and_method(math.exp(log_epsilon))[0]
        # Clip so that an overflowing scale (error = inf) keeps its sign without breaking brentq.
        return min(max(math.log(error) - log_target if error > 0 else -1e3, -1e3), 1e3)

    low_log, top_log = math.log(low_epsilon), math.log(top_epsilon)
    root = optimize.brentq(excess, low_log, top_log, xtol=_LOG_EPSILON_TOLERANCE, rtol=4 * np.finfo(float).eps)
    # Step up from the root until the error at the float ε we return is verified to meet the target.
    step = _LOG_EPSILON_TOLERANCE
    while True:
        candidate_log = min(root + step, top_log)
        epsilon = top_epsilon if candidate_log >= top_log else math.exp(candidate_log)
        error, method = error_and_method(epsilon)
        if error <= target_value:
            return InverseCalibration(**result, epsilon=epsilon, error=error, method=method)
        if candidate_log >= top_log:  # cannot happen: the top was checked above
            raise RuntimeError("inverse calibration lost its feasible bracket end")
        step *= 4.0


def epsilons_for_target_error(
    setting: Setting,
    target: float,
    *,
    kind: str = "rms",
    alpha: float = 0.05,
    scope: str = "norm",
    mechanism_ids: Sequence[str] | None = None,
) -> list[InverseCalibration]:
    """:func:`epsilon_for_target_error` for several mechanisms (the featured ones by default).

    Returns
    -------
    list of InverseCalibration
        In registry order.

    Examples
    --------
    >>> rows = epsilons_for_target_error(Setting(epsilon=1.0, delta=1e-5, dim=10), 10.0)
    >>> [row.mechanism_id for row in rows][:3]
    ['analytic_gaussian', 'classical_gaussian', 'laplace']
    """
    if mechanism_ids is None:
        mechanism_ids = [m.id for m in MECHANISMS.values() if m.featured]
    return [
        epsilon_for_target_error(mechanism_id, setting, target, kind=kind, alpha=alpha, scope=scope)
        for mechanism_id in mechanism_ids
    ]
