"""Cached computations of the Accuracy-vs-dimension page.

The page asks how the error ``‖noise‖₂²`` of each mechanism grows with the dimension M of the
answer (Ji & Li 2024; docs/math.md sections 6, 7, 10). Everything here takes plain numbers (seeds as ``int``)
and returns pandas frames or dicts of exact values; a mechanism that is not valid at a point is
left out of a curve (its reason is returned), never drawn.

Sweeps over M iterate the registry (:data:`gaussmech_core.mechanisms.MECHANISMS`, its featured
entries: :func:`shown_ids`) and ask each entry: a mechanism calibrated at M is exactly what the
Overview shows at d = M, and its loss summary is its own ``loss_summary``. To keep a sweep fast, a
scale whose calibration does not read the dimension (``scale_depends_on_dim`` False) is computed
once (see :func:`scales_against_dim`).

A matrix-valued mechanism (``matrix_valued``: the MVG) keeps the number of rows M₁ fixed and
grows the columns: M = M₁ × M₂. The i.i.d. MVG loss depends on the shape only through M₁M₂ and
r = min(M₁, M₂), so with M₁ = 1 (the default) it is the loss of a vector query for every M.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import OrderedDict

import numpy as np
import pandas as pd

from gaussmech_core import audit, gaussian, inverse, loss, multivariate
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Mechanism, Setting
from gaussmech_core.streams import mechanism_seed

from ..figures import accuracy as accuracy_figures
from .cache import cache_data
from .overview import numbers_l1_model

__all__ = [
    "shown_ids",
    "MAX_DIM",
    "QUANTILE_LEVELS",
    "MONTE_CARLO_DIMS",
    "MONTE_CARLO_SAMPLES",
    "CLOSER_TEST_TRIALS",
    "TRUE_DELTA_SAMPLES",
    "dim_grid",
    "mvg_dims",
    "divisors",
    "make_setting",
    "scales_against_dim",
    "loss_curves",
    "loss_bands",
    "paper_bounds",
    "current_losses",
    "monte_carlo_points",
    "r1smg_audit_point",
    "r1smg_true_delta_curve",
    "closer_test",
    "closer_test_curve",
    "accuracy_first",
]

MAX_DIM = 1_000_000
POINTS_PER_DECADE = 6
QUANTILE_LEVELS = (0.05, 0.5, 0.95)
# Monte Carlo overlays: few points, small samples, so the error bars are visible and a rerun is fast.
MONTE_CARLO_DIMS = (1, 10, 100, 1000)
MONTE_CARLO_SAMPLES = 400
# At most this many noise coordinates per point (fewer samples at M = 1000): the overlay stays cheap.
MONTE_CARLO_DRAWS = 100_000
# Laplace/GG loss quantiles at scale 1 (the loss at scale b is b² times it): sums per dimension.
UNIT_QUANTILE_SAMPLES = 20_000
CLOSER_TEST_TRIALS = 20_000
TRUE_DELTA_SAMPLES = 100_000
# The true-δ curve of R1SMG against M: a few points per decade from M = 3 (quadrature, ~10 ms each).
TRUE_DELTA_DIMS = (3, 4, 5, 7, 10, 15, 20, 30, 50, 70, 100, 200, 500, 1000, 3000, 10_000, 100_000, 1_000_000)


def shown_ids() -> tuple[str, ...]:
    """The mechanisms the page compares: the registry's featured entries, in registry order."""
    return tuple(key for key, mechanism in MECHANISMS.items() if mechanism.featured)


def dim_grid(low: int = 1, high: int = MAX_DIM, points_per_decade: int = POINTS_PER_DECADE) -> np.ndarray:
    """Whole numbers from ``low`` to ``high``, evenly spread on a log scale (both ends included).

    Examples
    --------
    >>> dim_grid(1, 100, 3).tolist()
    [1, 2, 5, 10, 22, 46, 100]
    """
    decades = math.log10(high / low)
    count = max(2, int(round(decades * points_per_decade)) + 1)
    values = np.unique(np.round(np.logspace(math.log10(low), math.log10(high), count)).astype(np.int64))
    return values[(values >= low) & (values <= high)]


def mvg_dims(rows: int, high: int = MAX_DIM) -> np.ndarray:
    """Dimensions M = rows × cols of the MVG curve: the columns on a log grid, M up to ``high``.

    Examples
    --------
    >>> mvg_dims(4, 400).tolist()
    [4, 8, 12, 20, 28, 40, 60, 88, 128, 184, 272, 400]
    """
    if rows > high:
        return np.array([], dtype=np.int64)
    return rows * dim_grid(1, max(1, high // rows))


def divisors(number: int) -> list[int]:
    """The divisors of ``number`` in increasing order (the row counts that fit a d-dimensional answer).

    Examples
    --------
    >>> divisors(12), divisors(1), len(divisors(1_000_000))
    ([1, 2, 3, 4, 6, 12], [1], 49)
    """
    small = [k for k in range(1, math.isqrt(number) + 1) if number % k == 0]
    return sorted(set(small + [number // k for k in small]))


def make_setting(
    epsilon, delta, sensitivity, order, dim, l1_model, rows=1, gamma_ratio=0.5, *, data_lower=0.0, data_upper=1.0
) -> Setting:
    """The core's Setting with the page's MVG shape (rows × d/rows) and γ = gamma_ratio × Δ.

    A row count that does not divide d falls back to 1 (the page only offers divisors). The data
    bounds are the sidebar's (used by the bounded-data mechanisms).
    """
    rows = int(rows) if int(rows) >= 1 and dim % int(rows) == 0 else 1
    return Setting(
        epsilon=epsilon,
        delta=delta,
        sensitivity=sensitivity,
        order=order,
        dim=int(dim),
        l1_model=l1_model,
        mvg_shape=(rows, int(dim) // rows),
        mvg_gamma=float(gamma_ratio) * float(sensitivity),
        data_lower=data_lower,
        data_upper=data_upper,
    )


def _setting_at(base: Setting, dim: int, rows: int) -> Setting:
    return dataclasses.replace(base, dim=int(dim), mvg_shape=(rows, int(dim) // rows))


# Scales of calibrations that do not read d, keyed by (scale function, dimension-free values): a
# pure function gives the same number for the same values, so the sweep, the table at d and the
# Monte Carlo overlay share one (possibly slow) root-find. Bounded (least recently used goes
# first) and guarded by a lock, since every session's script thread shares it.
_SHARED_SCALES: OrderedDict = OrderedDict()
_SHARED_SCALES_MAX = 256
_SHARED_SCALES_LOCK = threading.Lock()
_DIMENSION_FREE = ("epsilon", "delta", "sensitivity", "order", "l1_model", "mvg_gamma", "data_lower", "data_upper")


def calibrated_scale(mechanism: Mechanism, setting: Setting) -> float:
    """The registry's scale of ``mechanism`` at ``setting`` (which must be valid).

    When the entry says its scale does not depend on d (``scale_depends_on_dim`` False), it is
    computed once per dimension-free setting and kept in a bounded, thread-safe memo (shared by
    both l1 models unless the calibration is to the l1 norm, :func:`~.overview.numbers_l1_model`).
    """
    if mechanism.scale_depends_on_dim:
        return float(mechanism.scale(setting))
    values = {name: getattr(setting, name) for name in _DIMENSION_FREE}
    # A calibration not to the l1 norm does not read the l1 model: one scale serves both (the page's
    # captions ask the other model too).
    values["l1_model"] = numbers_l1_model(mechanism, setting.l1_model)
    key = (mechanism.scale,) + tuple(values.values())
    with _SHARED_SCALES_LOCK:
        if key in _SHARED_SCALES:
            _SHARED_SCALES.move_to_end(key)
            return _SHARED_SCALES[key]
    value = float(mechanism.scale(setting))  # outside the lock: a lost race only repeats a computation
    with _SHARED_SCALES_LOCK:
        _SHARED_SCALES[key] = value
        while len(_SHARED_SCALES) > _SHARED_SCALES_MAX:
            _SHARED_SCALES.popitem(last=False)
    return value


def scales_against_dim(
    mechanism: Mechanism, base: Setting, dims, rows: int = 1, *, settings=None
) -> tuple[np.ndarray, str]:
    """The registry's calibrated scale of ``mechanism`` at every M in ``dims`` (NaN where not valid).

    Returns ``(scales, reason)``: ``reason`` is the validity message at the first M where the
    mechanism is not valid ("" if it is valid everywhere). A calibration that does not read the
    dimension is computed once (:func:`calibrated_scale`), otherwise once per M, or in one
    vectorized call where the entry has one (``scale_against_dim``). ``settings`` may give the
    Setting at each M (rows × M/rows) when the caller has them already.
    """
    dims = np.asarray(dims, dtype=np.int64)
    if settings is None:
        settings = [_setting_at(base, int(dim), rows) for dim in dims]
    scales = np.full(dims.shape, np.nan)
    reason = ""
    valid = []
    for index, setting in enumerate(settings):
        validity = mechanism.validity(setting)
        if not validity.valid:
            reason = reason or validity.reason
            continue
        valid.append(index)
    batch = mechanism.scale_against_dim if mechanism.scale_depends_on_dim else None
    if batch is not None and valid:
        scales[valid] = batch([settings[index] for index in valid])
    else:
        for index in valid:
            scales[index] = calibrated_scale(mechanism, settings[index])
    return scales, reason


def _rows_of(mechanism: Mechanism, rows: int) -> int:
    """The rows M₁ of the answer for ``mechanism``: ``rows`` for a matrix-valued one, else 1."""
    return rows if mechanism.matrix_valued else 1


def _finite_or_nan(value) -> float:
    value = float(value)
    return value if math.isfinite(value) else np.nan


@cache_data(max_entries=64, show_spinner=False)
def loss_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    l1_model: str,
    rows: int,
    gamma_ratio: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict]:
    """E‖noise‖₂² against M for each shown mechanism, calibrated at every M.

    Returns ``(curves, not_drawn)``: ``curves`` has columns ``mechanism, dim, scale,
    coordinate_std, expected_loss`` (valid points only; MVG on M = rows × cols); ``not_drawn``
    maps a mechanism id to the reason it is missing at some M.
    """
    base = make_setting(
        epsilon, delta, sensitivity, order, 1, l1_model, 1, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    rows_out = []
    not_drawn = {}
    # One Setting per (M, rows), shared by the mechanisms: building a Setting validates every field.
    grid_settings = [_setting_at(base, int(dim), 1) for dim in dim_grid()]
    for mechanism_id in shown_ids():
        mechanism = MECHANISMS[mechanism_id]
        if mechanism.matrix_valued and rows > 1:
            dims = mvg_dims(rows)
            settings = [_setting_at(base, int(dim), rows) for dim in dims]
        else:  # (a 1 × M matrix: the grid's own Settings, whose shape is 1 × M)
            dims, settings = dim_grid(), grid_settings
        scales, reason = scales_against_dim(mechanism, base, dims, settings=settings)
        if reason:
            not_drawn[mechanism_id] = reason
        for dim, scale, setting in zip(dims, scales, settings):
            if not math.isfinite(scale):
                continue
            rows_out.append(
                dict(
                    mechanism=mechanism_id,
                    dim=int(dim),
                    scale=scale,
                    coordinate_std=_finite_or_nan(mechanism.coordinate_std(scale, setting)),
                    expected_loss=_finite_or_nan(mechanism.expected_loss(scale, setting)),
                )
            )
    curves = pd.DataFrame(rows_out, columns=["mechanism", "dim", "scale", "coordinate_std", "expected_loss"])
    return curves.dropna(subset=["expected_loss"]).reset_index(drop=True), not_drawn


def _summaries(mechanism: Mechanism, curve: pd.DataFrame, settings: dict) -> list:
    """The entry's loss summary at every point of its curve (its own calibrated scale at each M).

    ``settings`` maps (M, rows) to the Setting there, shared by the mechanisms of one call. When
    the entry's scale does not read d, the curve has one scale, and an entry that can summarise
    the loss at many d in one call (``loss_summary_against_dim``) gets the whole curve at once.
    """
    dims = [int(dim) for dim in curve["dim"].to_numpy()]
    scales = curve["scale"].to_numpy(dtype=float)
    batch = mechanism.loss_summary_against_dim
    if batch is not None and not mechanism.matrix_valued and dims and bool(np.all(scales == scales[0])):
        setting = settings[dims[0], 1]
        return batch(float(scales[0]), setting, dims, QUANTILE_LEVELS, UNIT_QUANTILE_SAMPLES)
    return [
        mechanism.loss_summary(
            float(scale),
            settings[int(dim), _rows_of(mechanism, settings["rows"])],
            QUANTILE_LEVELS,
            UNIT_QUANTILE_SAMPLES,
        )
        for dim, scale in zip(curve["dim"].to_numpy(), curve["scale"].to_numpy())
    ]


@cache_data(max_entries=64, show_spinner=False)
def loss_bands(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    l1_model: str,
    rows: int,
    gamma_ratio: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The 5%, 50% and 95% quantiles of ‖noise‖₂² against M, next to the mean.

    Columns ``mechanism, dim, expected_loss, q05, q50, q95, method``, from each entry's
    ``loss_summary``: exact (χ²) for the Gaussian mechanisms, MVG and R1SMG; for Laplace and GG a
    seeded Monte Carlo at small M and the Cornish–Fisher expansion with exact cumulants beyond
    (:func:`gaussmech_core.loss.iid_coordinate_loss_summary`, at b = 1 once per M, scaled by b²).
    """
    curves, _ = loss_curves(
        epsilon, delta, sensitivity, order, l1_model, rows, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    base = make_setting(
        epsilon, delta, sensitivity, order, 1, l1_model, 1, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    pieces = []
    settings: dict = {"rows": rows}
    for dim in np.unique(curves["dim"].to_numpy()):
        settings[int(dim), 1] = _setting_at(base, int(dim), 1)
        if rows > 1 and int(dim) % rows == 0:
            settings[int(dim), rows] = _setting_at(base, int(dim), rows)
    for mechanism_id, curve in curves.groupby("mechanism", sort=False):
        summaries = _summaries(MECHANISMS[mechanism_id], curve, settings)
        with np.errstate(over="ignore"):
            pieces.append(
                pd.DataFrame(
                    {
                        "mechanism": mechanism_id,
                        "dim": curve["dim"].to_numpy(),
                        "expected_loss": curve["expected_loss"].to_numpy(),
                        "q05": [summary.quantiles[0.05] for summary in summaries],
                        "q50": [summary.quantiles[0.5] for summary in summaries],
                        "q95": [summary.quantiles[0.95] for summary in summaries],
                        "method": [_method_label(summary) for summary in summaries],
                    }
                )
            )
    if not pieces:
        return pd.DataFrame(columns=["mechanism", "dim", "expected_loss", "q05", "q50", "q95", "method"])
    return pd.concat(pieces, ignore_index=True)


@cache_data(max_entries=64, show_spinner=False)
def paper_bounds(epsilon: float, delta: float, sensitivity: float, rows: int) -> pd.DataFrame:
    """Ji & Li's stated constants times Δ² against M: C_C, C_A, C_M (on M = rows × cols) and C_R.

    Columns ``constant, mechanism, dim, bound``. C_C is drawn only where the classical Gaussian
    is a theorem (0 < ε < 1), C_R only for M ≥ 3 (where ψ is defined); all need ε > 0.
    """
    if epsilon <= 0:
        return pd.DataFrame(columns=["constant", "mechanism", "dim", "bound"])
    dims = dim_grid()
    scale = sensitivity**2
    pieces = []
    if epsilon < 1:
        pieces.append(("C_C", "classical_gaussian", dims, multivariate.ji_li_constant_classical(epsilon, delta, dims)))
    pieces.append(("C_A", "analytic_gaussian", dims, multivariate.ji_li_constant_analytic(epsilon, delta, dims)))
    mvg = mvg_dims(rows)
    if mvg.size:
        pieces.append(("C_M", "mvg_iid", mvg, multivariate.ji_li_constant_mvg(epsilon, rows, mvg // rows)))
    r1smg = dims[dims >= 3]
    pieces.append(("C_R", "r1smg", r1smg, multivariate.ji_li_constant_r1smg(epsilon, delta, r1smg)))
    frames = []
    for constant, mechanism_id, x, values in pieces:
        with np.errstate(over="ignore"):  # a bound beyond 1.8e308 is inf: left out below
            bound = np.asarray(values, dtype=float) * scale
        frames.append(pd.DataFrame({"constant": constant, "mechanism": mechanism_id, "dim": x, "bound": bound}))
    frame = pd.concat(frames, ignore_index=True)
    return frame[np.isfinite(frame["bound"]) & (frame["bound"] > 0)].reset_index(drop=True)


def _method_label(summary: loss.LossSummary) -> str:
    """How a band was computed, in a few words: exact, or Monte Carlo / Cornish–Fisher."""
    if summary.exact:
        return "exact (χ²)" if "chi^2" in summary.method else "exact"
    return "Monte Carlo (M ≤ 100) / Cornish–Fisher"


def _paper_constant(mechanism_id: str, setting: Setting) -> tuple[str, float]:
    """Ji & Li's constant for a mechanism at the setting, times Δ² (NaN where not defined)."""
    e, d, m = setting.epsilon, setting.delta, setting.dim
    if e <= 0:
        return "", np.nan
    with np.errstate(over="ignore"):  # C_R beyond 1.8e308 is inf, shown as ∞
        if mechanism_id == "classical_gaussian":
            return "C_C", multivariate.ji_li_constant_classical(e, d, m) * setting.sensitivity**2
        if mechanism_id == "analytic_gaussian":
            return "C_A", multivariate.ji_li_constant_analytic(e, d, m) * setting.sensitivity**2
        if mechanism_id == "mvg_iid":
            rows, cols = setting.matrix_shape
            return "C_M", multivariate.ji_li_constant_mvg(e, rows, cols) * setting.sensitivity**2
        if mechanism_id == "r1smg" and m >= 3:
            return "C_R", multivariate.ji_li_constant_r1smg(e, d, m) * setting.sensitivity**2
    return "", np.nan


@cache_data(max_entries=64, show_spinner=False)
def current_losses(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    rows: int,
    gamma_ratio: float,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The loss distribution of each shown mechanism at the current d: one row per mechanism.

    Columns ``mechanism, valid, reason, scale, mean, median, q05, q95, std, skewness,
    excess_kurtosis, exact, method, constant, paper_bound``. Invalid mechanisms keep their row
    with the reason and NaN numbers.
    """
    setting = make_setting(
        epsilon,
        delta,
        sensitivity,
        order,
        dim,
        l1_model,
        rows,
        gamma_ratio,
        data_lower=data_lower,
        data_upper=data_upper,
    )
    records = []
    for mechanism_id in shown_ids():
        mechanism = MECHANISMS[mechanism_id]
        record = dict(
            mechanism=mechanism_id,
            valid=False,
            reason="",
            scale=np.nan,
            mean=np.nan,
            median=np.nan,
            q05=np.nan,
            q95=np.nan,
            std=np.nan,
            skewness=np.nan,
            excess_kurtosis=np.nan,
            exact=False,
            method="",
            constant="",
            paper_bound=np.nan,
        )
        validity = mechanism.validity(setting)
        if not validity.valid:
            record["reason"] = validity.reason
        else:
            scale = calibrated_scale(mechanism, setting)
            constant, bound = _paper_constant(mechanism_id, setting)
            record.update(valid=True, scale=scale, constant=constant, paper_bound=_finite_or_nan(bound))
            if math.isfinite(scale):
                summary = mechanism.loss_summary(scale, setting, QUANTILE_LEVELS, UNIT_QUANTILE_SAMPLES)
                record.update(
                    mean=_finite_or_nan(summary.mean),
                    median=_finite_or_nan(summary.median),
                    q05=_finite_or_nan(summary.quantiles[0.05]),
                    q95=_finite_or_nan(summary.quantiles[0.95]),
                    std=_finite_or_nan(summary.std),
                    skewness=summary.skewness,
                    excess_kurtosis=summary.excess_kurtosis,
                    exact=summary.exact,
                    method=summary.method,
                )
            else:
                record["reason"] = "Its calibrated scale exceeds the largest floating-point number."
        records.append(record)
    return pd.DataFrame(records)


def _monte_carlo_dims(mechanism: Mechanism, rows: int) -> list[int]:
    """Where the Monte Carlo points go: M = 1, 10, 100, 1000 (matrix-valued: rows × 1, 10, 100, at most 1000)."""
    if mechanism.matrix_valued:
        return [rows * c for c in (1, 10, 100) if rows * c <= 1000] or [rows]
    return list(MONTE_CARLO_DIMS)


@cache_data(max_entries=32, show_spinner=False)
def monte_carlo_points(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    l1_model: str,
    rows: int,
    gamma_ratio: float,
    seed: int,
    samples: int = MONTE_CARLO_SAMPLES,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """Simulated losses at a few M, drawn with each mechanism's own sampler, with 95% intervals.

    Columns ``mechanism, dim, n, mean, mean_low, mean_high`` and ``q05, q50, q95`` with their
    order-statistic intervals ``q05_low`` ... (:func:`gaussmech_core.loss.monte_carlo_loss`).
    ``n`` is ``samples``, or fewer where n × M would exceed 100,000 coordinates (at least 50).
    The scales are those of :func:`loss_curves` (the registry's calibration at that M).
    """
    curves, _ = loss_curves(
        epsilon, delta, sensitivity, order, l1_model, rows, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    base = make_setting(
        epsilon, delta, sensitivity, order, 1, l1_model, 1, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    records = []
    ids, dims, scale_column = (curves[name].to_numpy() for name in ("mechanism", "dim", "scale"))
    settings: dict = {}  # one Setting per (M, rows), shared by the mechanisms (each validates every field)
    for mechanism_id in shown_ids():
        mechanism = MECHANISMS[mechanism_id]
        mechanism_rows = _rows_of(mechanism, rows)
        mine = ids == mechanism_id
        scales = dict(zip(dims[mine].tolist(), scale_column[mine].tolist()))  # a dict: no pandas index per mechanism
        for dim in _monte_carlo_dims(mechanism, rows):
            if dim not in scales:  # not valid there, or beyond float64
                continue
            scale = float(scales[dim])
            if (dim, mechanism_rows) not in settings:
                settings[dim, mechanism_rows] = _setting_at(base, dim, mechanism_rows)
            setting = settings[dim, mechanism_rows]
            size = max(50, min(samples, MONTE_CARLO_DRAWS // dim))
            result = loss.monte_carlo_loss(
                lambda rng, size: mechanism.sample(rng, size, scale, setting),
                size,
                seed=mechanism_seed(
                    int(seed), mechanism_id, dim
                ),  # a stream per (mechanism id, M), reproducible per seed
                quantile_levels=QUANTILE_LEVELS,
            )
            record = dict(
                mechanism=mechanism_id,
                dim=dim,
                n=size,
                mean=result.mean,
                mean_low=result.mean_interval[0],
                mean_high=result.mean_interval[1],
            )
            for level, name in zip(QUANTILE_LEVELS, ("q05", "q50", "q95")):
                record[name] = result.quantiles[level]
                record[f"{name}_low"], record[f"{name}_high"] = result.quantile_intervals[level]
            records.append(record)
    columns = [
        "mechanism",
        "dim",
        "n",
        "mean",
        "mean_low",
        "mean_high",
        "q05",
        "q05_low",
        "q05_high",
        "q50",
        "q50_low",
        "q50_high",
        "q95",
        "q95_low",
        "q95_high",
    ]
    return pd.DataFrame(records, columns=columns)


@cache_data(max_entries=64, show_spinner=False)
def r1smg_audit_point(
    epsilon: float, delta: float, sensitivity: float, dim: int, seed: int, samples: int = TRUE_DELTA_SAMPLES
) -> dict:
    """R1SMG at the current (ε, d): σ*, the claimed δ, the true δ(ε) by quadrature and by Monte Carlo.

    Returns a dict with ``valid, reason, sigma_star, claimed_delta, true_delta, quadrature_error,
    monte_carlo, monte_carlo_error, samples, seed``.
    """
    setting = Setting(epsilon=epsilon, delta=delta, sensitivity=sensitivity, dim=dim)
    mechanism = MECHANISMS["r1smg"]
    validity = mechanism.validity(setting)
    result = dict(
        valid=validity.valid,
        reason=validity.reason,
        sigma_star=np.nan,
        claimed_delta=delta,
        true_delta=np.nan,
        quadrature_error=np.nan,
        monte_carlo=np.nan,
        monte_carlo_error=np.nan,
        samples=samples,
        seed=seed,
    )
    if not validity.valid:
        return result
    sigma_star = float(mechanism.scale(setting))
    result["sigma_star"] = sigma_star
    if not math.isfinite(sigma_star):
        result.update(valid=False, reason="σ* exceeds the largest floating-point number at this setting.")
        return result
    true_delta, error = multivariate.r1smg_true_delta(epsilon, sigma_star, sensitivity, dim, full_output=True)
    estimate, standard_error = multivariate.r1smg_true_delta_monte_carlo(
        epsilon, sigma_star, sensitivity, dim, n_samples=samples, seed=seed
    )
    result.update(
        true_delta=float(true_delta),
        quadrature_error=float(error),
        monte_carlo=float(estimate),
        monte_carlo_error=float(standard_error),
    )
    return result


@cache_data(max_entries=32, show_spinner=False)
def r1smg_true_delta_curve(epsilon: float, delta: float, sensitivity: float) -> pd.DataFrame:
    """The true δ(ε) of R1SMG noise calibrated as published, against M (quadrature).

    Columns ``dim, sigma_star, claimed_delta, true_delta, quadrature_error`` (σ* beyond float64:
    the row is left out).
    """
    records = []
    if epsilon > 0:
        for dim in TRUE_DELTA_DIMS:
            sigma_star = float(multivariate.r1smg_sigma_star(epsilon, delta, sensitivity, dim))
            if not math.isfinite(sigma_star):
                continue
            value, error = multivariate.r1smg_true_delta(epsilon, sigma_star, sensitivity, dim, full_output=True)
            records.append(
                dict(
                    dim=dim,
                    sigma_star=sigma_star,
                    claimed_delta=delta,
                    true_delta=float(value),
                    quadrature_error=float(error),
                )
            )
    return pd.DataFrame(records, columns=["dim", "sigma_star", "claimed_delta", "true_delta", "quadrature_error"])


@cache_data(max_entries=64, show_spinner=False)
def closer_test(
    epsilon: float, delta: float, sensitivity: float, dim: int, trials: int, seed: int
) -> tuple[pd.DataFrame, float]:
    """The closer-answer test against R1SMG, a Gaussian of the same expected error, and the analytic Gaussian.

    Returns ``(rows, ceiling)``. ``rows`` has one row per noise: ``label, noise, mechanism,
    scale, expected_loss, honest_epsilon, exact, rate, low, high, successes, trials`` (``exact``
    the test's exact success probability, ``rate`` the simulated one with its Wilson interval;
    ``honest_epsilon`` the ε that noise really has at δ). ``ceiling`` is (e^ε + δ)/(1 + e^ε),
    the most any test can achieve against an (ε, δ)-DP mechanism.
    """
    ceiling = float(audit.max_distinguishing_success(epsilon, delta))
    setting = Setting(epsilon=epsilon, delta=delta, sensitivity=sensitivity, dim=dim)
    records = []

    def add(label, noise, mechanism_id, scale, expected_loss, honest_epsilon, stream):
        exact = (
            audit.gaussian_closer_test_success(scale, sensitivity)
            if noise == "gaussian"
            else audit.r1smg_closer_test_success(scale, sensitivity, dim)
        )
        result = audit.simulate_closer_test(noise, scale, sensitivity, dim, trials, seed=int(seed) * 3 + stream)
        records.append(
            dict(
                label=label,
                noise=noise,
                mechanism=mechanism_id,
                scale=scale,
                expected_loss=expected_loss,
                honest_epsilon=honest_epsilon,
                exact=float(exact),
                rate=result.rate,
                low=result.interval[0],
                high=result.interval[1],
                successes=result.successes,
                trials=result.trials,
            )
        )

    r1smg = MECHANISMS["r1smg"]
    if r1smg.validity(setting).valid:
        sigma_star = float(r1smg.scale(setting))
        if math.isfinite(sigma_star):
            add("R1SMG (claimed (ε, δ)-DP)", "r1smg", "r1smg", sigma_star, sigma_star, np.nan, 0)
            matched = float(audit.matched_gaussian_sigma(sigma_star, dim))
            honest = float(gaussian.gaussian_epsilon(delta, matched, sensitivity))
            add("Gaussian with the same E‖n‖²", "gaussian", "", matched, sigma_star, honest, 1)
    analytic = MECHANISMS["analytic_gaussian"]
    sigma = float(analytic.scale(setting))
    add("Analytic Gaussian at (ε, δ)", "gaussian", "analytic_gaussian", sigma, dim * sigma**2, epsilon, 2)
    return pd.DataFrame(records), ceiling


@cache_data(max_entries=32, show_spinner=False)
def closer_test_curve(epsilon: float, delta: float, sensitivity: float) -> pd.DataFrame:
    """Exact success of the closer-answer test against M, with the (ε, δ)-DP ceiling.

    Columns ``dim, r1smg, matched_gaussian, analytic_gaussian, ceiling``: R1SMG as published, the
    Gaussian with R1SMG's expected error, and the analytic Gaussian calibrated at (ε, δ).
    """
    ceiling = float(audit.max_distinguishing_success(epsilon, delta))
    analytic_sigma = float(
        MECHANISMS["analytic_gaussian"].scale(Setting(epsilon=epsilon, delta=delta, sensitivity=sensitivity))
    )
    analytic = float(audit.gaussian_closer_test_success(analytic_sigma, sensitivity))
    records = []
    if epsilon > 0:
        for dim in dim_grid(3, MAX_DIM, 4):
            sigma_star = float(multivariate.r1smg_sigma_star(epsilon, delta, sensitivity, int(dim)))
            if not math.isfinite(sigma_star):
                continue
            matched = float(audit.matched_gaussian_sigma(sigma_star, int(dim)))
            records.append(
                dict(
                    dim=int(dim),
                    r1smg=audit.r1smg_closer_test_success(sigma_star, sensitivity, int(dim)),
                    matched_gaussian=float(audit.gaussian_closer_test_success(matched, sensitivity)),
                    analytic_gaussian=analytic,
                    ceiling=ceiling,
                )
            )
    return pd.DataFrame(records, columns=["dim", "r1smg", "matched_gaussian", "analytic_gaussian", "ceiling"])


@cache_data(max_entries=64, show_spinner=False)
def accuracy_first(
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    rows: int,
    gamma_ratio: float,
    target: float,
    kind: str,
    alpha: float,
    scope: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """The ε each shown mechanism needs for the target error (:func:`gaussmech_core.inverse.epsilon_for_target_error`).

    Columns ``mechanism, epsilon, error, at_lower_end, method, reason, true_delta`` (``true_delta``:
    for R1SMG, the true δ(ε) of its noise at the ε found; its δ is only claimed).
    """
    setting = make_setting(
        1.0, delta, sensitivity, order, dim, l1_model, rows, gamma_ratio, data_lower=data_lower, data_upper=data_upper
    )
    records = []
    for mechanism_id in shown_ids():
        mechanism = MECHANISMS[mechanism_id]
        result = inverse.epsilon_for_target_error(mechanism, setting, target, kind=kind, alpha=alpha, scope=scope)
        true_delta = np.nan
        if result.epsilon is not None and mechanism.guarantee == "claimed":
            at_answer = dataclasses.replace(setting, epsilon=result.epsilon)
            scale = float(mechanism.scale(at_answer))
            if math.isfinite(scale):
                true_delta = float(mechanism.privacy_profile(np.float64(result.epsilon), scale, at_answer))
        records.append(
            dict(
                mechanism=mechanism_id,
                epsilon=np.nan if result.epsilon is None else result.epsilon,
                error=np.nan if result.error is None else result.error,
                at_lower_end=result.at_lower_end,
                method=result.method,
                reason=result.reason,
                true_delta=true_delta,
            )
        )
    return pd.DataFrame(records)


@dataclasses.dataclass(frozen=True)
class AccuracyFirstAnswer:
    """What the "Accuracy first" view shows: the table of ε, its one-sentence answer and its notes."""

    frame: pd.DataFrame  # :func:`accuracy_first` under the sidebar's neighbour model
    caption: str
    table: pd.DataFrame  # for people (:func:`gaussmech_ui.figures.accuracy.accuracy_first_table`)
    reasons: tuple[str, ...]  # why a mechanism has no ε
    claims: tuple[str, ...]  # the caveat of each claimed guarantee


@cache_data(max_entries=64, show_spinner=False)
def accuracy_first_answer(
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    other_l1_model: str,
    rows: int,
    gamma_ratio: float,
    target: float,
    kind: str,
    alpha: float,
    scope: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> AccuracyFirstAnswer:
    """:func:`accuracy_first` under both neighbour models, with the sentences and the table made from them.

    The sentences depend only on these arguments (the sidebar's ε is not read), so each answer is
    written once per input rather than on every rerun (3 ms of the view's rerun, measured).
    """
    common = dict(delta=delta, sensitivity=sensitivity, order=order, dim=dim, rows=rows, gamma_ratio=gamma_ratio)
    target_arguments = dict(target=target, kind=kind, alpha=alpha, scope=scope)
    bounds = dict(data_lower=data_lower, data_upper=data_upper)
    frame = accuracy_first(**common, l1_model=l1_model, **target_arguments, **bounds)
    other_frame = accuracy_first(**common, l1_model=other_l1_model, **target_arguments, **bounds)
    setting = make_setting(1.0, delta, sensitivity, order, dim, l1_model, rows, gamma_ratio, **bounds)
    reasons, claims = accuracy_figures.accuracy_first_notes(frame, MECHANISMS, setting)
    return AccuracyFirstAnswer(
        frame=frame,
        caption=accuracy_figures.accuracy_first_caption(
            frame, MECHANISMS, setting, target, kind, scope, alpha, other_frame
        ),
        table=accuracy_figures.accuracy_first_table(frame, MECHANISMS, setting),
        reasons=tuple(reasons),
        claims=tuple(claims),
    )
