"""Cached computations of the Privacy profiles page: δ(ε) curves, the privacy-loss distribution, the
classical-validity map, Balle & Wang's low-privacy bound, trade-off curves and composition.

Functions take plain numbers and return pandas frames of exact values (NaN where a quantity does
not apply or is below what a chart can show). Calibrations come from the Overview's cached table.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from gaussmech_core import accounting, audit, gaussian, tails
from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS

from .cache import cache_data
from .distributions import make_setting, shown_ids
from .overview import calibration_table

__all__ = [
    "PROFILE_FLOOR",
    "TYPE_ONE_ERRORS",
    "RELEASE_STOPS",
    "profile_epsilon_exponents",
    "profile_curves",
    "privacy_loss_frame",
    "map_delta_exponent",
    "classical_map",
    "classical_point",
    "low_privacy_frame",
    "tradeoff_frame",
    "release_grid",
    "composition_frame",
    "composition_rows",
    "per_release_frame",
]

PROFILE_FLOOR = 1e-300  # δ below this (or exactly 0) is left out of the log chart
PROFILE_POINTS_PER_DECADE = 10
TYPE_ONE_ERRORS = (0.01, 0.05, 0.1, 0.2, 0.3)
RELEASE_STOPS = (1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100, 200, 300, 500, 700, 1000, 2000, 3000, 5000, 7000, 10_000)
MAP_EPSILON_EXPONENTS = (-2, 3)
MAP_CELLS = 100
ROUTES = accounting.ROUTES


def profile_epsilon_exponents(epsilon: float) -> tuple[int, int]:
    """Decades of the profile chart's ε axis: two below the chosen ε to one above, within [1e-6, 1e3].

    Examples
    --------
    >>> profile_epsilon_exponents(1.0), profile_epsilon_exponents(1e-6), profile_epsilon_exponents(1000.0)
    ((-2, 1), (-6, -5), (1, 3))
    """
    exponent = math.log10(epsilon)
    return max(-6, math.floor(exponent) - 2), min(3, max(math.ceil(exponent) + 1, math.floor(exponent) + 1))


def _shown_delta(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return np.where(values >= PROFILE_FLOOR, values, np.nan)


@cache_data(max_entries=64, show_spinner=False)
def profile_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict, dict, pd.DataFrame]:
    """The true δ(ε) of every shown valid mechanism, each at the scale calibrated to (ε, δ).

    Returns ``(curves, claimed, invalid, comparison)``: ``curves`` has ``epsilon`` and one column
    per mechanism (NaN where δ is 0 or below 1e-300); ``claimed`` maps each "claimed" mechanism to
    ``(claimed δ, true δ at ε)``; ``invalid`` maps the others to the reason; ``comparison`` holds
    the exact δ(ε/2) and δ(2ε) of each proven mechanism (columns ``half``, ``double``), 0 included.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    low, high = profile_epsilon_exponents(epsilon)
    epsilons = np.logspace(low, high, PROFILE_POINTS_PER_DECADE * (high - low) + 1)
    columns = {"epsilon": epsilons}
    claimed, invalid, comparison = {}, {}, {}
    for key in shown_ids(every_variant):
        if not (bool(table.loc[key, "valid"]) and math.isfinite(table.loc[key, "scale"])):
            invalid[key] = table.loc[key, "reason"] or "not available here"
            continue
        mechanism = MECHANISMS[key]
        scale = float(table.loc[key, "scale"])
        columns[key] = _shown_delta(mechanism.privacy_profile(epsilons, scale, setting))
        if mechanism.guarantee == "claimed":
            claimed[key] = (float(delta), float(table.loc[key, "true_delta"]))
        elif mechanism.profile_is_exact:  # the comparison is of exact profiles; a bound is not compared
            half, double = mechanism.privacy_profile(np.array([epsilon / 2.0, 2.0 * epsilon]), scale, setting)
            comparison[key] = dict(half=float(half), double=float(double))
    comparison_frame = pd.DataFrame.from_dict(comparison, orient="index", columns=["half", "double"])
    return pd.DataFrame(columns), claimed, invalid, comparison_frame


@cache_data(max_entries=64, show_spinner=False)
def privacy_loss_frame(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict]:
    """The analytic Gaussian's privacy loss L ~ N(η, 2η) and the two masses of Theorem 5.

    Returns ``(frame, numbers)``: ``frame`` has ``loss`` and ``density`` over η ± 5 sd, widened to
    show ±ε, with ±ε on the grid; ``numbers`` has ``sigma, eta, upper, lower, delta``.
    """
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "scale"])
    mean, variance = gaussian.gaussian_privacy_loss(sigma, sensitivity)
    sd = math.sqrt(variance)
    low = min(mean - 5.0 * sd, -1.15 * epsilon)
    high = max(mean + 5.0 * sd, 1.15 * epsilon)
    loss = np.union1d(np.linspace(low, high, 1200), [-epsilon, epsilon])
    density = stats.norm.pdf(loss, loc=mean, scale=sd)
    upper, lower = gaussian.privacy_loss_masses(epsilon, sigma, sensitivity)
    numbers = dict(
        sigma=sigma,
        eta=float(mean),
        upper=float(upper),
        lower=float(lower),
        delta=float(gaussian.gaussian_delta(epsilon, sigma, sensitivity)),
    )
    return pd.DataFrame({"loss": loss, "density": density}), numbers


def map_delta_exponent(delta: float) -> int:
    """The lowest decade of δ on the map: 1e-30, or lower to keep the chosen δ inside.

    Examples
    --------
    >>> map_delta_exponent(1e-5), map_delta_exponent(1e-300)
    (-30, -300)
    """
    return min(-30, math.floor(math.log10(delta)))


@cache_data(max_entries=32, show_spinner=False)
def classical_map(low_delta_exponent: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, pd.DataFrame]:
    """The classical formula's validity over ε in [1e-2, 1e3] × δ in [10^low, 0.9] (Δ cancels).

    Returns ``(log_epsilons, log_deltas, regions, true_deltas, delta_zero)``: cell centres on
    log₁₀ axes, region codes of :func:`gaussmech_core.tails.classical_validity_map`, the exact δ
    the classical σ achieves in each cell, and the curve δ₀(ε) (columns ``epsilon``, ``delta_zero``).
    """
    log_epsilons = np.linspace(*MAP_EPSILON_EXPONENTS, MAP_CELLS)
    log_deltas = np.linspace(low_delta_exponent, math.log10(0.9), MAP_CELLS)
    epsilon_grid, delta_grid = np.meshgrid(10.0**log_epsilons, 10.0**log_deltas)
    regions = tails.classical_validity_map(epsilon_grid, delta_grid)
    true_deltas = np.asarray(tails.classical_true_delta(epsilon_grid, delta_grid), dtype=float)
    epsilons = 10.0**log_epsilons
    delta_zero = pd.DataFrame(
        {"epsilon": epsilons, "delta_zero": np.asarray(gaussian.delta_zero(epsilons), dtype=float)}
    )
    return log_epsilons, log_deltas, regions, true_deltas, delta_zero


@cache_data(max_entries=64, show_spinner=False)
def classical_point(epsilon: float, delta: float) -> dict:
    """The chosen point on the map: its region, the exact δ of the classical σ, and where the formula breaks."""
    return dict(
        region=int(tails.classical_validity_map(epsilon, delta)),
        true_delta=float(tails.classical_true_delta(epsilon, delta)),
        breakdown=float(tails.classical_breakdown_epsilon(delta)),
    )


@cache_data(max_entries=64, show_spinner=False)
def low_privacy_frame(delta: float, sensitivity: float, epsilon: float) -> pd.DataFrame:
    """σ against ε: analytic, classical (a theorem for ε < 1; extrapolated beyond), and Δ/√(2ε) where δ < δ₀(ε).

    The ε grid spans [1e-2, 1e3], widened to hold ``epsilon``.
    """
    low = min(-2, math.floor(math.log10(epsilon)))
    epsilons = np.logspace(low, 3, 12 * (3 - low) + 1)
    analytic = np.asarray(gaussian.analytic_gaussian_sigma(epsilons, delta, sensitivity), dtype=float)
    formula = np.asarray(tails.classical_formula_sigma(epsilons, delta, sensitivity), dtype=float)
    theorem = epsilons < 1.0
    # The extrapolated line starts at the last theorem point, so the two pieces join.
    join = np.zeros_like(theorem)
    if theorem.any() and not theorem.all():
        join[np.flatnonzero(theorem)[-1]] = True
    bound_applies = delta < np.asarray(gaussian.delta_zero(epsilons), dtype=float)
    bound = np.asarray(gaussian.low_privacy_sigma_bound(epsilons, sensitivity), dtype=float)
    return pd.DataFrame(
        {
            "epsilon": epsilons,
            "analytic": analytic,
            "classical": np.where(theorem, formula, np.nan),
            "classical_extrapolated": np.where(~theorem | join, formula, np.nan),
            "bound": np.where(bound_applies, bound, np.nan),
        }
    )


@cache_data(max_entries=64, show_spinner=False)
def tradeoff_frame(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    type_one_error: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict]:
    """The analytic Gaussian's trade-off curve G_μ and the (ε, δ)-DP boundary on α in [0, 1].

    Returns ``(frame, numbers)``: ``frame`` has ``alpha, gaussian, region``; ``numbers`` has
    ``mu`` and, at ``type_one_error``, each curve's β and the attacker's power 1 − β.
    """
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "scale"])
    mu = float(gaussian.gdp_mu(sigma, sensitivity))
    alphas = np.union1d(np.linspace(0.0, 1.0, 501), np.geomspace(1e-6, 1e-2, 60))
    gaussian_beta = np.asarray(gaussian.gaussian_tradeoff(alphas, mu), dtype=float)
    region_beta = 1.0 - np.asarray(audit.max_test_power(alphas, epsilon, delta), dtype=float)
    power_gaussian = 1.0 - float(gaussian.gaussian_tradeoff(type_one_error, mu))
    power_region = float(audit.max_test_power(type_one_error, epsilon, delta))
    numbers = dict(
        mu=mu,
        sigma=sigma,
        gaussian_beta=1.0 - power_gaussian,
        region_beta=1.0 - power_region,
        gaussian_power=power_gaussian,
        region_power=power_region,
    )
    return pd.DataFrame({"alpha": alphas, "gaussian": gaussian_beta, "region": region_beta}), numbers


def release_grid() -> np.ndarray:
    """The k of the composition charts: the slider's stops, 1, 2, 3, 5, 7, 10, ..., 10,000."""
    return np.array(RELEASE_STOPS, dtype=int)


def _composed_totals(epsilon: float, delta: float, sigma: float, sensitivity: float, k: int) -> dict:
    """Total (ε, δ) of k releases of N(0, σ²) calibrated to (ε, δ), by each route.

    The exact, zCDP and advanced routes are compared at the same total δ = 2kδ (advanced
    composition spends kδ on the releases and δ' = kδ of slack); naive summation gives (kε, kδ).
    A route whose total δ reaches 1 says nothing: its ε is NaN.
    """
    total_delta = 2.0 * k * delta
    totals = {}
    if total_delta < 1.0:
        totals["exact"] = (float(accounting.composed_gaussian_epsilon(total_delta, sigma, sensitivity, k)), total_delta)
        totals["zcdp_cks"] = (
            float(accounting.zcdp_composed_epsilon(total_delta, sigma, sensitivity, k, "cks")),
            total_delta,
        )
        totals["zcdp_bun_steinke"] = (
            float(accounting.zcdp_composed_epsilon(total_delta, sigma, sensitivity, k, "bun_steinke")),
            total_delta,
        )
        advanced_epsilon, advanced_delta = accounting.advanced_composition_epsilon(epsilon, delta, k, k * delta)
        totals["advanced"] = (float(advanced_epsilon), float(advanced_delta))
    else:
        for route in ("exact", "zcdp_cks", "zcdp_bun_steinke", "advanced"):
            totals[route] = (math.nan, total_delta)
    naive_epsilon, naive_delta = accounting.naive_composition(epsilon, delta, k)
    totals["naive"] = (float(naive_epsilon) if naive_delta < 1.0 else math.nan, float(naive_delta))
    return totals


@cache_data(max_entries=64, show_spinner=False)
def composition_frame(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """Total ε of k releases of the calibrated analytic Gaussian on :func:`release_grid`, one column per route."""
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "scale"])
    rows = []
    for k in release_grid():
        totals = _composed_totals(epsilon, delta, sigma, sensitivity, int(k))
        rows.append({"k": int(k), **{route: totals[route][0] for route in ROUTES}})
    return pd.DataFrame(rows)


@cache_data(max_entries=64, show_spinner=False)
def composition_rows(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    k: int,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The total (ε, δ) of each route at one k: columns ``route, total_epsilon, total_delta``."""
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "scale"])
    totals = _composed_totals(epsilon, delta, sigma, sensitivity, int(k))
    return pd.DataFrame(
        [{"route": route, "total_epsilon": totals[route][0], "total_delta": totals[route][1]} for route in ROUTES]
    )


def _per_release_sigma(epsilon: float, delta: float, sensitivity: float, k: int, route: str) -> float:
    try:
        return float(accounting.per_release_sigma(epsilon, delta, sensitivity, k, route))
    except ValueError:  # a route that cannot reach this budget (e.g. ε/k below the calibrable range)
        return math.nan


@cache_data(max_entries=64, show_spinner=False)
def per_release_frame(epsilon: float, delta: float, sensitivity: float) -> pd.DataFrame:
    """σ per release so that k releases meet the total (ε, δ), on :func:`release_grid`, one column per route."""
    rows = []
    for k in release_grid():
        rows.append(
            {"k": int(k), **{route: _per_release_sigma(epsilon, delta, sensitivity, int(k), route) for route in ROUTES}}
        )
    return pd.DataFrame(rows)


@cache_data(max_entries=64, show_spinner=False)
def per_release_at(epsilon: float, delta: float, sensitivity: float, k: int) -> dict:
    """σ per release of each route at one k."""
    return {route: _per_release_sigma(epsilon, delta, sensitivity, int(k), route) for route in ROUTES}
