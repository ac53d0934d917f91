"""Composition: the privacy of k Gaussian releases, and the per-release σ for a total budget.

Four ways to account for k releases of ``f(x) + N(0, σ² I)`` with l2 sensitivity Δ (docs/math.md section 9):

* **exact** — the composition is exactly μ-GDP with μ = √k Δ/σ (Dong, Roth & Su 2022, Cor. 3.3),
  i.e. one Gaussian with sensitivity √k Δ; its (ε, δ) curve is the analytic Gaussian's (9.4);
* **zCDP** — ρ adds up, ρ_total = k Δ²/(2σ²), then a conversion to (ε, δ): Bun & Steinke's or
  Canonne, Kamath & Steinke's (9.1-9.2); valid but looser than exact;
* **advanced composition** — Dwork, Rothblum & Vadhan 2010: (ε, δ)-DP k times is
  (√(2k ln(1/δ')) ε + k ε (e^ε − 1), kδ + δ')-DP for any δ' > 0; holds for any mechanisms,
  so it ignores that the noise is Gaussian;
* **naive** — (kε, kδ).

Every per-release σ returned here is verified for its own guarantee, and the exact route is never
worse than the others (asserted in the tests). For comparison there is also the optimal
composition bound for arbitrary (ε, δ)-DP mechanisms (Kairouz, Oh & Viswanath 2015), which
advanced composition approximates.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import special

from . import gaussian
from ._types import ArrayLike, FloatOrArray
from ._validation import (
    as_float_array,
    broadcast,
    overflow_is_inf,
    parameter_names,
    require_choice,
    require_integer,
    require_interval,
    scalar_or_array,
)

__all__ = [
    "composed_gaussian_delta",
    "composed_gaussian_epsilon",
    "composed_gaussian_sigma",
    "zcdp_composed_epsilon",
    "zcdp_composed_sigma",
    "advanced_composition_epsilon",
    "naive_composition",
    "optimal_composition_delta",
    "per_release_sigma",
    "ROUTES",
]

ROUTES = ("exact", "zcdp_cks", "zcdp_bun_steinke", "advanced", "naive")
CONVERSIONS = ("cks", "bun_steinke")
MAX_RELEASES = 10**7
ULP = 2.0**-52


def _releases(k: object) -> int:
    return require_integer(k, "k", minimum=1, maximum=MAX_RELEASES)


def _sensitivity_array(sensitivity: ArrayLike) -> np.ndarray:
    return require_interval(as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None)


def _composed_pair(sigma: ArrayLike, sensitivity: ArrayLike, k: int) -> tuple[FloatOrArray, FloatOrArray]:
    """(σ', Δ') with Δ'/σ' = √k Δ/σ = μ: (σ, √k Δ), or (σ/√k, Δ) where √k Δ overflows float64.

    Scalars stay Python floats, so scalar calls keep returning floats.
    """
    sigma_array = gaussian._sigma(sigma)  # noqa: SLF001 - the same validation, before σ is rescaled
    sensitivity_array = _sensitivity_array(sensitivity)
    root_k = math.sqrt(k)
    with overflow_is_inf():  # inf marks where √k Δ does not fit; those use σ/√k instead
        scaled = root_k * sensitivity_array
    fits = np.isfinite(scaled)
    if np.all(fits):
        pair = (sigma_array, scaled)
    else:
        sigma_b, sensitivity_b, scaled_b, fits_b = np.broadcast_arrays(sigma_array, sensitivity_array, scaled, fits)
        # σ/√k rounded down, so μ errs upward (a larger δ or ε); below 5e-324, μ is inf either way
        shrunk = np.maximum(np.nextafter(sigma_b / root_k, 0.0), 5e-324)
        pair = (np.where(fits_b, sigma_b, shrunk), np.where(fits_b, scaled_b, sensitivity_b))
    scalar = np.ndim(sigma) == 0 and np.ndim(sensitivity) == 0
    return (float(pair[0]), float(pair[1])) if scalar else pair


def _calibrated_at_composed_sensitivity(
    calibrate: Callable[[ArrayLike, ArrayLike, ArrayLike], FloatOrArray],
    epsilon: ArrayLike,
    delta: ArrayLike,
    sensitivity: ArrayLike,
    k: int,
) -> FloatOrArray:
    """``calibrate(ε, δ, √k Δ)``; where √k Δ overflows float64, √k × ``calibrate(ε, δ, Δ)`` rounded
    up by an ulp (σ is linear in Δ), which is inf only where the true σ exceeds 1.8e308."""
    sensitivity_array = _sensitivity_array(sensitivity)
    root_k = math.sqrt(k)
    with overflow_is_inf():  # inf marks where √k Δ does not fit
        scaled = root_k * sensitivity_array
    fits = np.isfinite(scaled)
    if np.all(fits):
        return calibrate(epsilon, delta, float(scaled) if np.ndim(sensitivity) == 0 else scaled)
    sigma = np.asarray(calibrate(epsilon, delta, np.where(fits, scaled, sensitivity_array)), dtype=float)
    fits_b = np.broadcast_to(fits, sigma.shape)
    with overflow_is_inf():  # σ beyond 1.8e308 is inf, as documented
        sigma = np.where(fits_b, sigma, np.nextafter(root_k * sigma, np.inf))
    return scalar_or_array(sigma, epsilon, delta, sensitivity)


def composed_gaussian_delta(
    epsilon: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1
) -> FloatOrArray:
    """Exact δ(ε) of k releases of the Gaussian mechanism with the same σ and Δ.

    Parameters
    ----------
    epsilon : float or array_like
        Total ε ≥ 0.
    sigma : float or array_like
        σ > 0 of each release.
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases (adaptive composition allowed), 1 ≤ k ≤ 1e7.

    Returns
    -------
    float or ndarray
        The smallest δ for which the k-fold composition is (ε, δ)-DP.

    Notes
    -----
    The composition is μ-GDP with μ = √k Δ/σ (Dong, Roth & Su 2022, Cor. 3.3; docs/math.md section 9.4),
    which is one Gaussian with sensitivity √k Δ: :func:`~gaussmech_core.gaussian.gaussian_delta`.

    Examples
    --------
    >>> round(composed_gaussian_delta(1.0, 2.0 * 3.730631634816, k=4), 12)
    1e-05
    """
    k = _releases(k)
    return gaussian.gaussian_delta(epsilon, *_composed_pair(sigma, sensitivity, k))


def composed_gaussian_epsilon(
    delta: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1
) -> FloatOrArray:
    """Exact smallest total ε of k Gaussian releases at a given total δ.

    Parameters
    ----------
    delta : float or array_like
        Total δ in (0, 1).
    sigma : float or array_like
        σ > 0 of each release.
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases, 1 ≤ k ≤ 1e7.

    Returns
    -------
    float or ndarray
        ε = inf where the smallest ε exceeds 1.8e308 (μ = √k Δ/σ beyond about 1e154).
        ε, verified on the conservative side (see
        :func:`~gaussmech_core.gaussian.gaussian_epsilon`).

    Notes
    -----
    μ = √k Δ/σ (docs/math.md section 9.4).

    Examples
    --------
    >>> round(composed_gaussian_epsilon(1e-5, 2.0 * 3.730631634816, k=4), 9)
    1.0
    """
    k = _releases(k)
    return gaussian.gaussian_epsilon(delta, *_composed_pair(sigma, sensitivity, k))


def composed_gaussian_sigma(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1
) -> FloatOrArray:
    """Per-release σ so that k Gaussian releases are (ε, δ)-DP in total, exactly: √k σ_aGM.

    Parameters
    ----------
    epsilon : float or array_like
        Total ε ≥ 0.
    delta : float or array_like
        Total δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases, 1 ≤ k ≤ 1e7.

    Returns
    -------
    float or ndarray
        ``analytic_gaussian_sigma(ε, δ, √k Δ)`` = √k × the single-release σ (up to rounding),
        verified against :func:`composed_gaussian_delta`; inf where σ exceeds 1.8e308 (ε below
        about 1e-308, or Δ near the largest double).

    Notes
    -----
    docs/math.md section 9.4: the k releases are one Gaussian with sensitivity √k Δ. Strictly better than
    splitting the budget (naive, as Apple's pfl does) or advanced composition.

    Examples
    --------
    >>> round(composed_gaussian_sigma(1.0, 1e-5, k=4), 9)
    7.46126327
    """
    k = _releases(k)
    return _calibrated_at_composed_sensitivity(gaussian.analytic_gaussian_sigma, epsilon, delta, sensitivity, k)


def zcdp_composed_epsilon(
    delta: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1, conversion: str = "cks"
) -> FloatOrArray:
    """Total ε of k Gaussian releases by zCDP accounting: ρ_total = k Δ²/(2σ²), then converted.

    Parameters
    ----------
    delta : float or array_like
        Total δ in (0, 1).
    sigma : float or array_like
        σ > 0 of each release.
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases, 1 ≤ k ≤ 1e7.
    conversion : {"cks", "bun_steinke"}
        Canonne–Kamath–Steinke 2020 Cor. 13 (tighter) or Bun–Steinke 2016 Prop. 1.3.

    Returns
    -------
    float or ndarray
        ε (rounded up); never below :func:`composed_gaussian_epsilon`. inf where ρ_total
        = kΔ²/(2σ²) exceeds 1.8e308 (σ below about 1e-154 Δ): both conversions give ε > ρ.

    Notes
    -----
    zCDP composes additively (Bun & Steinke 2016; docs/math.md sections 9.1-9.2).

    Examples
    --------
    >>> round(zcdp_composed_epsilon(1e-5, 2.0, k=4), 6)
    4.728387
    >>> round(zcdp_composed_epsilon(1e-5, 2.0, k=4, conversion="bun_steinke"), 6)
    5.298526
    """
    k = _releases(k)
    require_choice(conversion, "conversion", CONVERSIONS)
    with overflow_is_inf():  # ρ_total beyond 1.8e308 is inf; ε > ρ is then inf too (below)
        rho = k * np.asarray(gaussian.zcdp_rho(sigma, sensitivity))
    convert = gaussian.zcdp_to_epsilon_cks if conversion == "cks" else gaussian.zcdp_to_epsilon_bun_steinke
    finite = np.isfinite(rho)
    if np.all(finite):
        return convert(float(rho) if rho.ndim == 0 else rho, delta)
    epsilon = np.asarray(convert(np.where(finite, rho, 0.0), delta), dtype=float)
    epsilon = np.where(np.broadcast_to(finite, epsilon.shape), epsilon, np.inf)
    return scalar_or_array(epsilon, delta, sigma, sensitivity)


def zcdp_composed_sigma(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1, conversion: str = "cks"
) -> FloatOrArray:
    """Per-release σ so that k releases convert, through zCDP, to a total (ε, δ).

    Parameters
    ----------
    epsilon : float or array_like
        Total ε > 0.
    delta : float or array_like
        Total δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases, 1 ≤ k ≤ 1e7.
    conversion : {"cks", "bun_steinke"}
        The zCDP → (ε, δ) conversion.

    Returns
    -------
    float or ndarray
        √k × the single-release zCDP σ (computed at sensitivity √k Δ and verified); inf where σ
        exceeds 1.8e308 (ε below about 1e-308, or Δ near the largest double).

    Examples
    --------
    >>> round(zcdp_composed_sigma(1.0, 1e-5, k=4), 3)            # 2 × zcdp_cks_sigma(1, 1e-5)
    8.09
    """
    k = _releases(k)
    require_choice(conversion, "conversion", CONVERSIONS)
    calibrate = gaussian.zcdp_cks_sigma if conversion == "cks" else gaussian.zcdp_bun_steinke_sigma
    return _calibrated_at_composed_sensitivity(calibrate, epsilon, delta, sensitivity, k)


def _advanced_total_epsilon(epsilon: np.ndarray, k: int, log_inverse_slack: FloatOrArray) -> np.ndarray:
    """√(2k ln(1/δ')) ε + k ε (e^ε − 1), inf where it overflows, rounded up by a few ulps."""
    with overflow_is_inf():  # the linear term beyond 1.8e308 (ε near the largest double) is inf
        linear = np.sqrt(2.0 * k * log_inverse_slack) * epsilon
    # k ε (e^ε − 1) in log space: log k + log ε + log expm1(ε), with log expm1(ε) = ε + log(−expm1(−ε))
    positive = epsilon > 0.0
    safe = np.where(positive, epsilon, 1.0)
    log_quadratic = math.log(k) + np.log(safe) + safe + np.log(-np.expm1(-safe))
    quadratic = np.where(positive, np.exp(np.minimum(log_quadratic, 709.0)), 0.0)
    with overflow_is_inf():  # a total beyond 1.8e308 is inf, as documented
        total = np.where(log_quadratic < 709.0, linear + quadratic, np.inf)
        return total + 4.0 * ULP * total


def advanced_composition_epsilon(
    epsilon: ArrayLike, delta: ArrayLike, k: int, delta_slack: ArrayLike
) -> tuple[FloatOrArray, FloatOrArray]:
    """Advanced composition (Dwork, Rothblum & Vadhan 2010): the total (ε, δ) of k (ε, δ)-DP steps.

    Parameters
    ----------
    epsilon : float or array_like
        Per-step ε ≥ 0.
    delta : float or array_like
        Per-step δ in [0, 1) (δ = 0: pure DP).
    k : int
        Number of steps, 1 ≤ k ≤ 1e7.
    delta_slack : float or array_like
        δ' in (0, 1).

    Returns
    -------
    (total_epsilon, total_delta) : tuple of float or ndarray
        ``√(2k ln(1/δ')) ε + k ε (e^ε − 1)`` (inf where it exceeds float64) and ``kδ + δ'``
        (which may exceed 1, where the statement is vacuous), both rounded up.

    Notes
    -----
    Dwork, Rothblum & Vadhan 2010, Thm III.3 (Dwork & Roth 2014, Thm 3.20). It holds for any
    (ε, δ)-DP mechanisms under adaptive composition; for Gaussians, use
    :func:`composed_gaussian_epsilon` (exact) instead. The optimal bound for arbitrary mechanisms is
    :func:`optimal_composition_delta`.

    Examples
    --------
    >>> total_epsilon, total_delta = advanced_composition_epsilon(0.1, 1e-6, 100, 1e-6)
    >>> round(total_epsilon, 6), round(total_delta, 12)
    (6.308231, 0.000101)
    """
    k = _releases(k)
    epsilon_array = as_float_array(epsilon, "epsilon")
    require_interval(epsilon_array, "epsilon", 0.0, None)
    delta_array = as_float_array(delta, "delta")
    require_interval(delta_array, "delta", 0.0, 1.0, upper_open=True)
    slack_array = as_float_array(delta_slack, "delta_slack")
    require_interval(slack_array, "delta_slack", 0.0, 1.0, lower_open=True, upper_open=True)
    e, d, s = broadcast(epsilon_array, delta_array, slack_array)
    total_epsilon = _advanced_total_epsilon(e, k, -np.log(s))
    total_delta = k * d + s
    total_delta = total_delta + 4.0 * ULP * total_delta
    return (
        scalar_or_array(total_epsilon, epsilon, delta, delta_slack),
        scalar_or_array(total_delta, epsilon, delta, delta_slack),
    )


def naive_composition(epsilon: ArrayLike, delta: ArrayLike, k: int) -> tuple[FloatOrArray, FloatOrArray]:
    """Basic composition: k (ε, δ)-DP steps are (kε, kδ)-DP.

    Parameters
    ----------
    epsilon : float or array_like
        Per-step ε ≥ 0.
    delta : float or array_like
        Per-step δ in [0, 1].
    k : int
        Number of steps, 1 ≤ k ≤ 1e7.

    Returns
    -------
    (total_epsilon, total_delta) : tuple of float or ndarray
        kε (inf where it exceeds 1.8e308) and kδ (which may exceed 1, where it is vacuous).

    Notes
    -----
    Dwork & Roth 2014, Thm 3.16.

    Examples
    --------
    >>> naive_composition(0.5, 1e-6, 4)
    (2.0, 4e-06)
    """
    k = _releases(k)
    epsilon_array = as_float_array(epsilon, "epsilon")
    require_interval(epsilon_array, "epsilon", 0.0, None)
    delta_array = as_float_array(delta, "delta")
    require_interval(delta_array, "delta", 0.0, 1.0)
    e, d = broadcast(epsilon_array, delta_array)
    with overflow_is_inf():  # kε beyond 1.8e308 is inf, as documented
        total_epsilon = k * e
    return scalar_or_array(total_epsilon, epsilon, delta), scalar_or_array(k * d, epsilon, delta)


def _log_randomized_response_delta(epsilon: float, k: int, total_epsilon: float) -> float:
    """log of δ of the k-fold composition of ε-randomized response at total ε (pure-DP worst case).

    δ_RR(ε_g) = Σ_{ℓ < (kε − ε_g)/(2ε)} C(k, ℓ) (e^{(k−ℓ)ε} − e^{ε_g + ℓε}) / (1 + e^ε)^k,
    summed in log space (log-sum-exp over ℓ), so k up to 1e7 and ε up to 700 are fine.
    """
    if epsilon == 0.0 or total_epsilon >= k * epsilon:
        return -math.inf
    count = int(min(k, math.floor((k * epsilon - total_epsilon) / (2.0 * epsilon))) + 1)
    ell = np.arange(count, dtype=float)
    gap = (k - 2.0 * ell) * epsilon - total_epsilon
    ell = ell[gap > 0.0]  # the terms with e^{(k−ℓ)ε} > e^{ε_g + ℓε}; ℓ = 0 always qualifies here
    gap = gap[gap > 0.0]
    log_binomial = special.gammaln(k + 1.0) - special.gammaln(ell + 1.0) - special.gammaln(k - ell + 1.0)
    log_terms = log_binomial + (k - ell) * epsilon + np.log(-np.expm1(-gap))
    log_normaliser = k * (epsilon + math.log1p(math.exp(-epsilon)))  # k log(1 + e^ε)
    # log C(k, ℓ) and the exponents reach ~k log k: their rounding is ~ulp × that, so round up by it.
    rounding = 8.0 * ULP * (log_normaliser + float(np.max(np.abs(log_terms))) + 1.0)
    return float(special.logsumexp(log_terms)) - log_normaliser + rounding


def optimal_composition_delta(epsilon: ArrayLike, delta: ArrayLike, k: int, total_epsilon: ArrayLike) -> FloatOrArray:
    """The optimal δ for k-fold composition of arbitrary (ε, δ)-DP mechanisms at a total ε.

    Parameters
    ----------
    epsilon : float or array_like
        Per-step ε ≥ 0, at most 700.
    delta : float or array_like
        Per-step δ in [0, 1).
    k : int
        Number of steps, 1 ≤ k ≤ 1e7 (cost grows like k).
    total_epsilon : float or array_like
        Total ε_g ≥ 0.

    Returns
    -------
    float or ndarray
        ``1 − (1 − δ)^k (1 − δ_RR(ε_g))``, where δ_RR is the privacy profile of k compositions of
        ε-randomized response; rounded up by a few ulps.

    Notes
    -----
    Kairouz, Oh & Viswanath 2015, Thm 3.3 (for ε_g = (k − 2i)ε) and Murtagh & Vadhan 2016,
    Thm 1.5 (any ε_g): this is the tightest bound that holds for *all* (ε, δ)-DP mechanisms, so
    it never exceeds advanced composition's δ; for Gaussians, :func:`composed_gaussian_delta` is
    tighter still. The randomized-response sum is the exact hockey-stick divergence of the
    product of k Bernoulli pairs (checked against mpmath in the tests).

    Examples
    --------
    >>> round(optimal_composition_delta(0.1, 0.0, 100, 3.0), 8)
    0.0013614
    """
    k = _releases(k)
    epsilon_array = as_float_array(epsilon, "epsilon")
    require_interval(epsilon_array, "epsilon", 0.0, 700.0)
    delta_array = as_float_array(delta, "delta")
    require_interval(delta_array, "delta", 0.0, 1.0, upper_open=True)
    total_array = as_float_array(total_epsilon, "total_epsilon")
    require_interval(total_array, "total_epsilon", 0.0, None)
    e, d, g = broadcast(epsilon_array, delta_array, total_array)
    result = np.empty_like(e)
    for index in np.ndindex(e.shape):
        log_pure = _log_randomized_response_delta(float(e[index]), k, float(g[index]))
        if log_pure >= 0.0:  # δ_RR = 1 (to rounding): no guarantee at this total ε
            result[index] = 1.0
            continue
        # 1 − (1 − δ)^k (1 − δ_RR) = −expm1(k log1p(−δ) + log1p(−δ_RR)), accurate when small
        log_keep = k * math.log1p(-float(d[index])) + math.log1p(-math.exp(log_pure))
        result[index] = -math.expm1(log_keep)
    result = np.minimum(result + 4.0 * ULP * result, 1.0)
    return scalar_or_array(result, epsilon, delta, total_epsilon)


def _advanced_step_epsilon(total_epsilon: np.ndarray, k: int, log_inverse_slack: FloatOrArray) -> np.ndarray:
    """Largest per-step ε whose advanced-composition total does not exceed ``total_epsilon``.

    The total √(2k ln(1/δ')) ε + k ε (e^ε − 1) increases in ε; bisection on [0, total/√(2k ln(1/δ'))]
    (the linear term alone reaches the total there) keeps the lower, valid end.
    """
    low = np.zeros_like(total_epsilon)
    high = total_epsilon / np.sqrt(2.0 * k * log_inverse_slack)
    for _ in range(200):
        middle = 0.5 * (low + high)
        if np.all((middle == low) | (middle == high)):
            break
        fits = _advanced_total_epsilon(middle, k, log_inverse_slack) <= total_epsilon
        low = np.where(fits, middle, low)
        high = np.where(fits, high, middle)
    return low


def per_release_sigma(
    total_epsilon: ArrayLike, total_delta: ArrayLike, sensitivity: ArrayLike = 1.0, k: int = 1, route: str = "exact"
) -> FloatOrArray:
    """σ of each of k Gaussian releases so that all k together are (ε, δ)-DP, by one accounting route.

    Parameters
    ----------
    total_epsilon : float or array_like
        Total ε ≥ 0 (> 0 for the zCDP routes).
    total_delta : float or array_like
        Total δ in (0, 1).
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0 of each release.
    k : int, default 1
        Number of releases, 1 ≤ k ≤ 1e7.
    route : {"exact", "zcdp_cks", "zcdp_bun_steinke", "advanced", "naive"}
        * ``"exact"``: GDP, σ = √k σ_aGM(ε, δ) (:func:`composed_gaussian_sigma`);
        * ``"zcdp_cks"`` / ``"zcdp_bun_steinke"``: ρ_total = kΔ²/(2σ²) converted to (ε, δ) by
          CKS20 Cor. 13 / Bun–Steinke Prop. 1.3 (:func:`zcdp_composed_sigma`);
        * ``"advanced"``: half of δ to the slack δ' = δ/2, the other half split as δ/(2k) per
          release; the per-release ε is the largest whose advanced-composition total is at most
          ε (bisection); then σ_aGM(ε_each, δ/(2k));
        * ``"naive"``: σ_aGM(ε/k, δ/k).

    Returns
    -------
    float or ndarray
        σ; ``composed_gaussian_delta(ε, σ, Δ, k) ≤ δ`` holds for every route (the exact one with
        equality up to rounding), and the exact route gives the smallest σ. inf where σ exceeds
        1.8e308 (ε below about 1e-308, or Δ near the largest double).

    Examples
    --------
    >>> [round(per_release_sigma(1.0, 1e-5, 1.0, 10, r), 2) for r in ROUTES]
    [11.8, 12.79, 15.5, 59.72, 36.3]
    """
    k = _releases(k)
    require_choice(route, "route", ROUTES)
    if route in ("exact", "zcdp_cks", "zcdp_bun_steinke"):
        with parameter_names(epsilon="total_epsilon", delta="total_delta"):
            if route == "exact":
                return composed_gaussian_sigma(total_epsilon, total_delta, sensitivity, k)
            conversion = "cks" if route == "zcdp_cks" else "bun_steinke"
            return zcdp_composed_sigma(total_epsilon, total_delta, sensitivity, k, conversion)
    epsilon_array = as_float_array(total_epsilon, "total_epsilon")
    require_interval(epsilon_array, "total_epsilon", 0.0, gaussian.EPSILON_MAX)
    delta_array = as_float_array(total_delta, "total_delta")
    require_interval(delta_array, "total_delta", gaussian.DELTA_MIN, 1.0, upper_open=True)
    sensitivity_array = as_float_array(sensitivity, "sensitivity")
    require_interval(sensitivity_array, "sensitivity", 0.0, None)
    e, d, s = broadcast(epsilon_array, delta_array, sensitivity_array)
    if route == "naive":
        sigma = gaussian.analytic_gaussian_sigma(e / k, d / k, s)
    else:
        each = _advanced_step_epsilon(e, k, -np.log(0.5 * d))
        sigma = gaussian.analytic_gaussian_sigma(each, d / (2.0 * k), s)
    return scalar_or_array(sigma, total_epsilon, total_delta, sensitivity)
