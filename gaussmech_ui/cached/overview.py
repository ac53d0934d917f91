"""Cached computations of the Overview page: the calibration table and the two sweeps over ε.

Each function takes the setting as plain numbers (so the cache key is exact and cheap to hash)
and returns a pandas frame of exact values. A mechanism that fails at a point is recorded as
such (a row with its error, or NaN in a sweep) instead of failing the page.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from gaussmech_core.mechanisms import MECHANISMS, coordinate_std_over_epsilon, evaluate
from gaussmech_core.registry_types import Setting

from .arguments import arguments_read_by, make_setting, setting_arguments
from .cache import cache_data

__all__ = [
    "setting_arguments",
    "epsilon_grid_exponents",
    "ratio_grid_exponent",
    "ratio_deltas",
    "calibration_table",
    "std_sweep",
    "mechanism_std_sweep",
    "variance_ratio_curve",
    "variance_ratio_frame",
    "RATIO_DELTAS",
    "POINTS_PER_DECADE",
]

POINTS_PER_DECADE = 8
# Balle & Wang's Figure 1 (left) compares several δ; these span the values used in practice.
RATIO_DELTAS = (1e-2, 1e-4, 1e-6, 1e-8, 1e-10)


def epsilon_grid_exponents(epsilon: float, low: int = -2, high: int = 2) -> tuple[int, int]:
    """Decades of the ε axis: [10^low, 10^high], widened to keep ``epsilon`` a decade inside.

    The range does not move while ε stays within it, so a slider move reuses the cached sweep.

    Examples
    --------
    >>> epsilon_grid_exponents(1.0), epsilon_grid_exponents(1e-5), epsilon_grid_exponents(700.0)
    ((-2, 2), (-6, 2), (-2, 3))
    """
    exponent = math.log10(epsilon)
    return max(-6, min(low, math.floor(exponent) - 1)), min(3, max(high, math.ceil(exponent) + 1))


def ratio_grid_exponent(epsilon: float) -> int:
    """Lowest decade of the variance-ratio chart: 10^-3, or a decade below ``epsilon`` when smaller.

    Examples
    --------
    >>> ratio_grid_exponent(0.5), ratio_grid_exponent(2.0), ratio_grid_exponent(2e-5)
    (-3, -3, -6)
    """
    if epsilon >= 1:
        return -3
    return max(-6, min(-3, math.floor(math.log10(epsilon)) - 1))


def ratio_deltas(delta: float) -> tuple[float, ...]:
    """The δ of the variance-ratio chart: :data:`RATIO_DELTAS` and the current δ, largest first."""
    return tuple(sorted(set(RATIO_DELTAS) | {float(delta)}, reverse=True))


def _epsilon_grid(low_exponent: int, high_exponent: int) -> np.ndarray:
    count = (high_exponent - low_exponent) * POINTS_PER_DECADE + 1
    return np.logspace(low_exponent, high_exponent, count)


@cache_data(max_entries=256, show_spinner=False)
def calibration_table(
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
    """Every registered mechanism at one setting: exact scale, per-coordinate std, E‖noise‖₂², validity.

    One row per mechanism, in registry order, indexed by mechanism id. ``true_delta`` is the
    computed δ(ε) of the calibrated noise at this ε, from the mechanism's exact privacy profile,
    for every valid row (for "claimed" mechanisms, R1SMG, it is the number their claim is checked
    against, docs/math.md section 6.2). ``error`` holds the message when the computation itself failed (the row
    then counts as not valid).
    """
    setting = Setting(
        epsilon=epsilon,
        delta=delta,
        sensitivity=sensitivity,
        order=order,
        dim=dim,
        l1_model=l1_model,
        data_lower=data_lower,
        data_upper=data_upper,
    )
    rows = []
    for mechanism_id, mechanism in MECHANISMS.items():
        row = dict(
            id=mechanism_id,
            valid=False,
            reason="",
            scale=np.nan,
            coordinate_std=np.nan,
            expected_loss=np.nan,
            true_delta=np.nan,
            error="",
        )
        try:
            validity = mechanism.validity(setting)
            row.update(reason=validity.reason)
            if validity.valid:
                numbers = _numbers_at_setting(mechanism_id, setting)
                row.update({name: value for name, value in numbers.items() if name != "reason"})
        except Exception as error:  # one failing mechanism must not take the table down
            row.update(
                valid=False, reason=f"Could not be computed here: {error}", error=f"{type(error).__name__}: {error}"
            )
        rows.append(row)
    return pd.DataFrame(rows).set_index("id")


def _numbers_at_setting(mechanism_id: str, setting: Setting) -> dict:
    """:func:`calibrated_numbers` of a valid mechanism at ``setting``, shared between settings that
    differ only in what the mechanism does not read (:func:`~.arguments.arguments_read_by`).

    The shared numbers are its scale, per-coordinate std and true δ; the expected loss
    E‖noise‖₂² reads d whatever the scale does, so it is taken at the setting itself (a closed
    form per entry). Where the stand-in setting is outside the mechanism's domain, everything is
    computed at the setting itself.
    """
    mechanism = MECHANISMS[mechanism_id]
    arguments = setting_arguments(setting)
    read = arguments_read_by(mechanism, arguments)
    numbers = calibrated_numbers(mechanism_id, **read)
    if not numbers["valid"]:
        return calibrated_numbers(mechanism_id, **arguments)
    if read["dim"] != setting.dim:
        numbers = dict(numbers, expected_loss=float(mechanism.expected_loss(numbers["scale"], setting)))
    return numbers


def numbers_l1_model(mechanism, l1_model: str) -> str:
    """The l1 model a mechanism's numbers depend on: its own for an l1 calibration (Laplace), else none.

    How the l1 sensitivity follows from Δ (``l1_model``) enters only calibrations to the l1 norm;
    for the others it decides validity alone (checked on the real setting), so their numbers are
    computed once under "one_coordinate" and shared by the Overview's two tables (the sidebar's
    model and the other one, for the caption). tests/ui/test_cached_overview.py checks that the
    numbers agree under both models for every such entry. The rule is that of
    :func:`~.arguments.arguments_read_by`.
    """
    return arguments_read_by(mechanism, {"l1_model": l1_model})["l1_model"]


@cache_data(max_entries=1024, show_spinner=False)
def calibrated_numbers(
    mechanism_id: str,
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    data_lower: float,
    data_upper: float,
) -> dict:
    """One mechanism's row of :func:`calibration_table`: valid, reason, scale, std, E‖noise‖₂², true δ.

    A row is a few numbers: 1024 of them are a few hundred kB.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    mechanism = MECHANISMS[mechanism_id]
    calibration = evaluate(mechanism, setting)
    numbers = dict(valid=calibration.validity.valid, reason=calibration.validity.reason)
    for field in ("scale", "coordinate_std", "expected_loss", "true_delta"):
        value = getattr(calibration, field)
        numbers[field] = np.nan if value is None else float(value)
    if calibration.validity.valid and calibration.true_delta is None:
        numbers["true_delta"] = _true_delta(mechanism, calibration.scale, setting)
    return numbers


def _true_delta(mechanism, scale: float, setting: Setting) -> float:
    """The δ(ε) of the calibrated noise at the setting's ε (its exact privacy profile), NaN if it cannot be computed."""
    try:
        return float(mechanism.privacy_profile(np.float64(setting.epsilon), scale, setting))
    except Exception:  # the table keeps its row; the CSV then has no true δ for it
        return np.nan


def _coordinate_std_or_nan(mechanism, setting: Setting) -> float:
    if not mechanism.validity(setting).valid:
        return np.nan
    try:
        return float(mechanism.coordinate_std(mechanism.scale(setting), setting))
    except Exception:  # a point the core cannot compute is left out of the chart, like an invalid one
        return np.nan


@cache_data(max_entries=64, show_spinner=False)
def std_sweep(
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    low_exponent: int,
    high_exponent: int,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> pd.DataFrame:
    """Per-coordinate noise std of every mechanism on a log grid of ε (NaN where not valid).

    Columns: ``epsilon`` and one per mechanism id. Each column comes from
    :func:`mechanism_std_sweep`, cached on the parameters that mechanism reads, and is masked by
    its validity at this setting.
    """
    epsilons = _epsilon_grid(low_exponent, high_exponent)
    arguments = dict(
        delta=delta,
        sensitivity=sensitivity,
        order=order,
        dim=dim,
        l1_model=l1_model,
        data_lower=data_lower,
        data_upper=data_upper,
    )
    base = make_setting(float(epsilons[0]), **arguments)
    columns = {"epsilon": epsilons}
    for mechanism_id, mechanism in MECHANISMS.items():
        valid = np.array([mechanism.validity(replace(base, epsilon=float(e))).valid for e in epsilons], dtype=bool)
        stds = np.full(epsilons.shape, np.nan)
        if valid.any():
            shared = mechanism_std_sweep(
                mechanism_id,
                low_exponent=low_exponent,
                high_exponent=high_exponent,
                **arguments_read_by(mechanism, arguments),
            )
            stds = np.where(valid, shared, np.nan)
            # Valid here but not where the shared column was computed (rare: validity can read a
            # parameter the scale does not): those points at this setting itself.
            for index in np.flatnonzero(valid & np.isnan(shared)):
                stds[index] = _coordinate_std_or_nan(mechanism, replace(base, epsilon=float(epsilons[index])))
        columns[mechanism_id] = stds
    return pd.DataFrame(columns)


@cache_data(max_entries=512, show_spinner=False)
def mechanism_std_sweep(
    mechanism_id: str,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    low_exponent: int,
    high_exponent: int,
    data_lower: float,
    data_upper: float,
) -> np.ndarray:
    """One mechanism's per-coordinate std on the ε grid of :func:`std_sweep` (NaN where not valid).

    Called with :func:`~gaussmech_ui.cached.arguments.arguments_read_by`, so one entry serves every
    setting that differs only in parameters this mechanism ignores. An array of at most 73 floats
    (ε from 1e-6 to 1e3): 512 entries are about 300 kB.
    """
    epsilons = _epsilon_grid(low_exponent, high_exponent)
    mechanism = MECHANISMS[mechanism_id]
    base = make_setting(float(epsilons[0]), delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    try:
        # One vectorized calibration over the whole grid (a root-find per point is ~30x slower).
        return np.asarray(coordinate_std_over_epsilon(mechanism, epsilons, base), dtype=float)
    except Exception:  # then point by point, leaving out only the points the core cannot compute
        return np.array([_coordinate_std_or_nan(mechanism, replace(base, epsilon=float(e))) for e in epsilons])


@cache_data(max_entries=64, show_spinner=False)
def variance_ratio_curve(delta: float, low_exponent: int) -> pd.DataFrame:
    """σ²(classical) / σ²(analytic) on ε in [10^low_exponent, 1) at one δ (Balle & Wang, Figure 1 left).

    Columns: ``delta, epsilon, classical_sigma, analytic_sigma, variance_ratio``. Only ε < 1 is
    swept, where the classical formula is a theorem; Δ cancels in the ratio. One cache entry per
    δ, so moving the δ slider computes one new curve, not all of them.
    """
    classical, analytic = MECHANISMS["classical_gaussian"], MECHANISMS["analytic_gaussian"]
    # ε = 1 itself is outside Theorem 1: the grid stops just below it.
    epsilons = np.append(_epsilon_grid(low_exponent, 0)[:-1], 0.999)
    rows = []
    for epsilon in epsilons:
        setting = Setting(epsilon=float(epsilon), delta=float(delta))
        rows.append(
            (
                float(delta),
                float(epsilon),
                _coordinate_std_or_nan(classical, setting),
                _coordinate_std_or_nan(analytic, setting),
            )
        )
    frame = pd.DataFrame(rows, columns=["delta", "epsilon", "classical_sigma", "analytic_sigma"])
    frame["variance_ratio"] = (frame["classical_sigma"] / frame["analytic_sigma"]) ** 2
    return frame


def variance_ratio_frame(deltas: tuple[float, ...], low_exponent: int) -> pd.DataFrame:
    """The curves of :func:`variance_ratio_curve` for several δ, in one long frame."""
    return pd.concat([variance_ratio_curve(float(delta), low_exponent) for delta in deltas], ignore_index=True)
