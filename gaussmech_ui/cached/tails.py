"""Cached computations of the Tail probabilities page: tail curves, error bounds, Liu's comparisons.

Tails are computed as logarithms in the core (:mod:`gaussmech_core.tails`) and turned into
probabilities only where they are at least the chart's floor (down to 1e-300, which float64
holds), so nothing underflows. Functions take plain numbers and return pandas frames.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from gaussmech_core import generalized, tails
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.streams import mechanism_rng

from .arguments import STAND_IN, setting_arguments
from .cache import cache_data
from .distributions import make_setting, shown_ids
from .overview import calibration_table

__all__ = [
    "ALPHAS",
    "FLOORS",
    "THRESHOLDS",
    "LIU_DELTAS",
    "LEMMA11_EPSILONS",
    "MONTE_CARLO_FLOATS",
    "coordinate_tail_curves",
    "monte_carlo_vectors",
    "monte_carlo_norms",
    "norm_tail_curves",
    "coordinate_bounds",
    "norm_bounds",
    "comparison_deltas",
    "tail_ratio_frame",
    "privacy_cost_frame",
    "lemma11_frame",
]

ALPHAS = (0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12)
FLOORS = (1e-6, 1e-30, 1e-300)
THRESHOLDS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0)
LIU_DELTAS = (1e-1, 1e-2, 1e-4, 1e-6, 1e-10)
LEMMA11_EPSILONS = (0.1, 0.5, 1.0, 2.0, 5.0)
TAIL_POINTS = 400
# Monte Carlo of ‖noise‖₂ for mechanisms without a closed form: at most this many floats drawn
# per mechanism (10,000 vectors up to d = 200), and no estimate from fewer than 1,000 vectors.
MONTE_CARLO_FLOATS = 2_000_000
MONTE_CARLO_MAX_VECTORS = 10_000
MONTE_CARLO_MIN_VECTORS = 1_000
MONTE_CARLO_SEED = 20240101
LIU_OMIT_BELOW = 1e-4  # Liu omits points where both tails are below this


def _valid_scales(table: pd.DataFrame, ids) -> tuple[dict, dict]:
    scales, invalid = {}, {}
    for mechanism_id in ids:
        if bool(table.loc[mechanism_id, "valid"]) and math.isfinite(table.loc[mechanism_id, "scale"]):
            scales[mechanism_id] = float(table.loc[mechanism_id, "scale"])
        else:
            invalid[mechanism_id] = table.loc[mechanism_id, "reason"] or "not available here"
    return scales, invalid


def _noise_setting(setting):
    """``setting`` with the neighbour model at its stand-in, for computations at a given scale.

    The neighbour model enters a calibration only (through Δ₁, which the scale then carries); the
    law of the noise at that scale, its tails and its sampler, do not read it (the seam test in
    tests/ui/test_cached_tails.py checks every entry). So the tables of both models (the page
    shows the other model's bounds in its caption) share each bound and each Monte Carlo draw.
    """
    return dataclasses.replace(setting, l1_model=STAND_IN["l1_model"])


def _setting_fields(setting) -> dict:
    """:func:`~.arguments.setting_arguments` without the neighbour model, which the cached
    computations at a given scale take at its stand-in (:func:`_noise_setting`)."""
    fields = setting_arguments(setting)
    del fields["l1_model"]
    return fields


@cache_data(max_entries=512, show_spinner=False)
def _error_bound(
    kind: str,
    mechanism_id: str,
    scale: float,
    alpha: float,
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    data_lower: float,
    data_upper: float,
) -> float:
    """One mechanism's error bound at one α: ``kind`` "coordinate" or "norm" (tails.*_error_bound)."""
    setting = make_setting(epsilon, delta, sensitivity, order, dim, STAND_IN["l1_model"], data_lower, data_upper)
    bound = tails.coordinate_error_bound if kind == "coordinate" else tails.norm_error_bound
    return float(bound(MECHANISMS[mechanism_id], scale, setting, alpha))


def _bound(kind: str, mechanism_id: str, scale: float, setting, alpha: float) -> float:
    """The error bound, from :func:`_error_bound`'s cache where it takes a root search; a closed-form
    bound (``coordinate_quantile``, ``norm_quantile``: about 0.3 ms) costs no more than a cache lookup."""
    noise_setting, mechanism = _noise_setting(setting), MECHANISMS[mechanism_id]
    if kind == "coordinate" and mechanism.coordinate_quantile is not None:
        return float(tails.coordinate_error_bound(mechanism, float(scale), noise_setting, alpha))
    if kind == "norm" and mechanism.norm_quantile is not None:
        return float(tails.norm_error_bound(mechanism, float(scale), noise_setting, alpha))
    return _error_bound(kind, mechanism_id, float(scale), float(alpha), **_setting_fields(noise_setting))


def _probabilities(log_tail: np.ndarray, floor: float) -> np.ndarray:
    """exp(log tail) where it is at least the floor, NaN below (so a log axis never sees 0)."""
    log_tail = np.asarray(log_tail, dtype=float)
    shown = log_tail >= math.log(floor)
    result = np.full(log_tail.shape, np.nan)
    result[shown] = np.exp(log_tail[shown])
    return result


@cache_data(max_entries=64, show_spinner=False)
def coordinate_tail_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    floor: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict]:
    """``P(|N_i| > t)`` on a log grid of t for the shown mechanisms, NaN below ``floor``.

    The grid runs from a twentieth of the smallest std to the largest error bound at α = floor
    among mechanisms with a proven guarantee (a "claimed" mechanism's far larger noise does not
    stretch the axis). Returns ``(curves, invalid)``.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    scales, invalid = _valid_scales(table, shown_ids(every_variant))
    stds = {key: float(table.loc[key, "coordinate_std"]) for key in scales}
    proven = [key for key in scales if MECHANISMS[key].guarantee != "claimed"] or list(scales)
    upper = max(_bound("coordinate", key, scales[key], setting, floor) for key in proven)
    lower = min(stds[key] for key in proven) / 20.0
    t = np.geomspace(lower, 1.05 * upper, TAIL_POINTS)
    columns = {"t": t}
    for key, scale in scales.items():
        columns[key] = _probabilities(tails.log_coordinate_tail(MECHANISMS[key], t, scale, setting), floor)
    return pd.DataFrame(columns), invalid


@cache_data(max_entries=64, show_spinner=False)
def monte_carlo_norms(
    mechanism_id: str,
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> np.ndarray | None:
    """Sorted ‖noise‖₂ of :func:`monte_carlo_vectors` (d) seeded draws of a mechanism's noise, or None.

    None when the mechanism is not valid here or d is too large to draw (see
    :func:`monte_carlo_vectors`). The seed is fixed (:data:`MONTE_CARLO_SEED`), so the estimate
    is the same on every rerun and for every viewer.
    """
    vectors = monte_carlo_vectors(dim)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    if not vectors or not bool(table.loc[mechanism_id, "valid"]):
        return None
    setting = _noise_setting(make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper))
    return _sorted_norms(mechanism_id, float(table.loc[mechanism_id, "scale"]), vectors, **_setting_fields(setting))


@cache_data(max_entries=64, show_spinner=False)
def _sorted_norms(
    mechanism_id: str,
    scale: float,
    vectors: int,
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    data_lower: float,
    data_upper: float,
) -> np.ndarray:
    """The draws of :func:`monte_carlo_norms` at a given scale (shared by both neighbour models)."""
    setting = make_setting(epsilon, delta, sensitivity, order, dim, STAND_IN["l1_model"], data_lower, data_upper)
    mechanism = MECHANISMS[mechanism_id]
    rng = mechanism_rng(MONTE_CARLO_SEED, mechanism_id)  # its own stream, whichever others are drawn
    norms = np.empty(vectors)
    block = max(1, MONTE_CARLO_FLOATS // (8 * dim))
    for start in range(0, vectors, block):
        count = min(block, vectors - start)
        noise = np.asarray(mechanism.sample(rng, count, scale, setting), dtype=float)
        norms[start : start + count] = np.linalg.norm(noise, axis=1)
    return np.sort(norms)


def monte_carlo_vectors(dim: int) -> int:
    """How many noise vectors the Monte Carlo of ‖noise‖₂ draws at dimension d (0: too large to draw).

    Examples
    --------
    >>> monte_carlo_vectors(10), monte_carlo_vectors(1000), monte_carlo_vectors(10_000)
    (10000, 2000, 0)
    """
    vectors = min(MONTE_CARLO_MAX_VECTORS, MONTE_CARLO_FLOATS // int(dim))
    return vectors if vectors >= MONTE_CARLO_MIN_VECTORS else 0


@cache_data(max_entries=64, show_spinner=False)
def norm_tail_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    floor: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, pd.DataFrame | None, int, dict]:
    """``P(‖N‖₂ > t)`` at dimension d: exact where the registry has ``norm_tail``, else Monte Carlo.

    Returns ``(curves, monte_carlo, vectors, invalid)``: ``monte_carlo`` has ``t`` and one
    empirical-tail column per mechanism without a closed form (NaN where no draw exceeds t), or is
    None when there is none or d is too large to draw; ``vectors`` is the Monte Carlo size.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    scales, invalid = _valid_scales(table, shown_ids(every_variant))
    exact = {key: scale for key, scale in scales.items() if MECHANISMS[key].norm_tail is not None}
    sampled = {key: scale for key, scale in scales.items() if MECHANISMS[key].norm_tail is None}
    vectors = monte_carlo_vectors(dim)
    norms = {}
    for key in sampled:
        values = monte_carlo_norms(
            key, epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
        )
        if values is None:
            invalid[key] = f"no closed form for ‖noise‖₂, and d = {dim:,} is too large to draw it here"
        else:
            norms[key] = values
    typical = {key: math.sqrt(float(table.loc[key, "expected_loss"])) for key in scales}
    proven = [key for key in exact if MECHANISMS[key].guarantee != "claimed"] or list(exact)
    uppers = [_bound("norm", key, exact[key], setting, floor) for key in proven]
    uppers += [float(values[-1]) for values in norms.values()]
    lowers = [typical[key] for key in proven + list(norms)]
    upper = max(uppers) if uppers else 1.0
    lower = min(lowers) / 20.0 if lowers else upper / 1e3
    t = np.geomspace(lower, 1.05 * upper, TAIL_POINTS)
    columns = {"t": t}
    for key, scale in exact.items():
        columns[key] = _probabilities(tails.log_norm_tail(MECHANISMS[key], t, scale, setting), floor)
    monte_carlo = None
    if norms:
        mc_columns = {"t": t}
        for key, values in norms.items():
            exceed = values.size - np.searchsorted(values, t, side="right")
            fraction = exceed / values.size
            mc_columns[key] = np.where(exceed > 0, fraction, np.nan)
        monte_carlo = pd.DataFrame(mc_columns)
    return pd.DataFrame(columns), monte_carlo, vectors if norms else 0, invalid


@cache_data(max_entries=64, show_spinner=False)
def coordinate_bounds(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    alpha: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The per-coordinate error bound at confidence 1 − α of every shown valid mechanism.

    Index: mechanism id. Columns ``std`` (noise std per coordinate) and ``bound`` (the t with
    P(|N_i| > t) = α, rounded up), ``method`` (``"exact"``).
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    scales, _ = _valid_scales(table, shown_ids(every_variant))
    rows = [
        dict(
            id=key,
            std=float(table.loc[key, "coordinate_std"]),
            bound=_bound("coordinate", key, scale, setting, alpha),
            method="exact",
        )
        for key, scale in scales.items()
    ]
    frame = pd.DataFrame(rows, columns=["id", "std", "bound", "method"]).set_index("id")
    frame["low"] = frame["high"] = frame["bound"]
    return frame


@cache_data(max_entries=64, show_spinner=False)
def norm_bounds(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    alpha: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The error bound in l2 norm at confidence 1 − α of every shown valid mechanism, at dimension d.

    Index: mechanism id. Columns ``std`` (the root of E‖N‖₂²), ``bound`` (exact where the registry
    has ``norm_tail``, and at d = 1, where ‖N‖₂ = |N₁| and the coordinate bound is exact; else the
    empirical 1 − α quantile of :func:`monte_carlo_norms` when at least 10 draws lie beyond it;
    else NaN), ``method`` (``"exact"``, ``"Monte Carlo"`` or ``""``), and ``low``/``high``: a 95%
    confidence interval of the bound (:func:`quantile_interval` for Monte Carlo; the bound itself
    when exact), so that a ranking never separates estimates whose intervals overlap.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    scales, _ = _valid_scales(table, shown_ids(every_variant))
    rows = []
    for key, scale in scales.items():
        mechanism = MECHANISMS[key]
        bound, method = math.nan, ""
        low = high = math.nan
        if mechanism.norm_tail is not None:
            bound, method = _bound("norm", key, scale, setting, alpha), "exact"
        elif dim == 1 and not mechanism.matrix_valued:  # ‖N‖₂ = |N₁|: the coordinate bound, exactly
            bound, method = _bound("coordinate", key, scale, setting, alpha), "exact"
        else:
            values = monte_carlo_norms(
                key, epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
            )
            if values is not None and alpha * values.size >= 10:
                bound, method = float(np.quantile(values, 1.0 - alpha, method="higher")), "Monte Carlo"
                low, high = quantile_interval(values, 1.0 - alpha)
        if method == "exact":
            low = high = bound
        rows.append(
            dict(
                id=key,
                std=math.sqrt(float(table.loc[key, "expected_loss"])),
                bound=bound,
                method=method,
                low=low,
                high=high,
            )
        )
    return pd.DataFrame(rows, columns=["id", "std", "bound", "method", "low", "high"]).set_index("id")


def quantile_interval(sorted_values: np.ndarray, level: float, z: float = 1.96) -> tuple[float, float]:
    """A distribution-free 95% confidence interval of the ``level`` quantile from sorted draws.

    The number of draws below the quantile is Binomial(n, level); the order statistics at
    n·level ∓ z·√(n·level·(1 − level)) bracket it (the normal approximation, fine for the ≥ 10
    draws beyond it that :func:`norm_bounds` asks for).

    Examples
    --------
    >>> low, high = quantile_interval(np.arange(1.0, 10_001.0), 0.95)
    >>> low < 9500 < high
    True
    """
    n = sorted_values.size
    spread = z * math.sqrt(n * level * (1.0 - level))
    lower = max(0, math.floor(n * level - spread) - 1)
    upper = min(n - 1, math.ceil(n * level + spread))
    return float(sorted_values[lower]), float(sorted_values[upper])


def comparison_deltas(delta: float, base: tuple = LIU_DELTAS) -> tuple[float, ...]:
    """The δ values of Liu's comparison curves, with the current δ added (largest first).

    Examples
    --------
    >>> comparison_deltas(1e-5)
    (0.1, 0.01, 0.0001, 1e-05, 1e-06, 1e-10)
    """
    return tuple(sorted(set(base) | {float(delta)}, reverse=True))


def _epsilon_grid(epsilon: float) -> np.ndarray:
    low = min(-2, math.floor(math.log10(epsilon)))
    high = max(2, math.ceil(math.log10(epsilon)))
    return np.logspace(low, high, 12 * (high - low) + 1)


@cache_data(max_entries=64, show_spinner=False)
def tail_ratio_frame(threshold: float, deltas: tuple, gaussian: str, epsilon: float) -> pd.DataFrame:
    """Liu's p₁:p₂ at t = threshold·Δ on a log grid of ε around ``epsilon``, one block per δ.

    Columns ``delta, epsilon, laplace, gaussian, ratio``; ``ratio`` is NaN where both tails are
    below 1e-4 (Liu omits those points). The ratio does not depend on Δ once t is in units of Δ.
    """
    epsilons = _epsilon_grid(epsilon)
    pieces = []
    for delta in deltas:
        comparison = generalized.laplace_gaussian_tail_ratio(threshold, epsilons, delta, 1.0, gaussian=gaussian)
        laplace = np.asarray(comparison.laplace, dtype=float)
        gaussian_tail = np.asarray(comparison.gaussian, dtype=float)
        ratio = np.asarray(comparison.ratio, dtype=float)
        omitted = (laplace < LIU_OMIT_BELOW) & (gaussian_tail < LIU_OMIT_BELOW)
        pieces.append(
            pd.DataFrame(
                {
                    "delta": float(delta),
                    "epsilon": epsilons,
                    "laplace": laplace,
                    "gaussian": gaussian_tail,
                    "ratio": np.where(omitted, np.nan, ratio),
                }
            )
        )
    return pd.concat(pieces, ignore_index=True)


@cache_data(max_entries=64, show_spinner=False)
def privacy_cost_frame(threshold: float, deltas: tuple) -> pd.DataFrame:
    """Liu's ε₂:ε₁ (Lemma-10 Gaussian over Laplace) for the same tail τ at t = threshold·Δ.

    Columns ``delta, tail_probability, ratio`` on τ from 1e-10 to 0.5.
    """
    taus = np.logspace(-10, math.log10(0.5), 121)
    pieces = [
        pd.DataFrame(
            {
                "delta": float(delta),
                "tail_probability": taus,
                "ratio": np.asarray(generalized.privacy_cost_ratio(threshold, taus, delta, 1.0), dtype=float),
            }
        )
        for delta in deltas
    ]
    return pd.concat(pieces, ignore_index=True)


@cache_data(max_entries=64, show_spinner=False)
def lemma11_frame(epsilons: tuple) -> pd.DataFrame:
    """Liu's Lemma 11 ratio Var_G/Var_L on δ from 1e-12 to 0.9, one block per ε."""
    deltas = np.logspace(-12, math.log10(0.9), 133)
    pieces = [
        pd.DataFrame(
            {
                "epsilon": float(epsilon),
                "delta": deltas,
                "ratio": np.asarray(generalized.lemma11_variance_ratio(epsilon, deltas), dtype=float),
            }
        )
        for epsilon in epsilons
    ]
    return pd.concat(pieces, ignore_index=True)
