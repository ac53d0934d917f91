"""Cached computations of the Noise distributions page: densities, the GG family, Monte Carlo draws.

Each function takes the setting as plain numbers (``setting_arguments``) and returns pandas frames
or numpy arrays of exact values. Monte Carlo draws take an ``int`` seed: the same seed gives the
same picture, "Draw again" passes a new one. Calibrations come from the Overview's cached table
(:func:`~gaussmech_ui.cached.overview.calibration_table`, the one calibration cache), so every
page shows the same scales.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from gaussmech_core import generalized, tails
from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS
from gaussmech_core.streams import mechanism_rng

from .arguments import make_setting, setting_arguments
from .cache import cache_data
from .overview import calibration_table

__all__ = [
    "DENSITY_POINTS",
    "WINDOW_STDS",
    "HISTOGRAM_BINS",
    "setting_arguments",
    "make_setting",
    "shown_ids",
    "coordinate_stds",
    "symmetric_grid",
    "symmetric_pdf",
    "density_curves",
    "gg_family_curves",
    "sample_histogram",
    "noise_vectors",
]

DENSITY_POINTS = 800  # an even count: the grid never hits x = 0, where R1SMG's marginal density is infinite
WINDOW_STDS = 6.0  # the density window spans ± this many standard deviations of the reference mechanism
HISTOGRAM_STDS = 4.5
HISTOGRAM_BINS = 90
LATTICE_POINTS = 401  # at most this many integers carry an integer noise's pmf in the density chart


def shown_ids(every_variant: bool) -> list[str]:
    """The mechanisms a chart draws: the featured ones, or every registered one."""
    return [key for key, mechanism in MECHANISMS.items() if every_variant or mechanism.featured]


def _valid(table: pd.DataFrame, mechanism_id: str) -> bool:
    return bool(table.loc[mechanism_id, "valid"]) and math.isfinite(table.loc[mechanism_id, "scale"])


@cache_data(max_entries=64, show_spinner=False)
def density_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    every_variant: bool,
    reference: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict, dict]:
    """Per-coordinate densities of the shown mechanisms on a common window.

    The window is ± :data:`WINDOW_STDS` standard deviations of the ``reference`` mechanism (or of
    the analytic Gaussian when the reference is not valid here). Returns ``(curves, stds,
    invalid)``: ``curves`` has ``x`` and one column per valid mechanism, ``stds`` maps every valid
    shown mechanism to its std, ``invalid`` maps the others to the reason.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    stds, invalid = _stds_of_shown(table, every_variant)
    anchor = reference if reference in stds else DEFAULT_MECHANISM_ID
    half_width = WINDOW_STDS * stds.get(anchor, float(table.loc[DEFAULT_MECHANISM_ID, "coordinate_std"]))
    grid = symmetric_grid(half_width, DENSITY_POINTS)
    lattice = _lattice(half_width) if any(MECHANISMS[key].support == "integer" for key in stds) else np.array([])
    # Continuous densities on the grid, integer noise's pmf on the integers (each NaN at the other's points).
    x = np.union1d(grid, lattice) if lattice.size else grid
    on_grid, on_lattice = np.isin(x, grid), np.isin(x, lattice)
    columns = {"x": x}
    for mechanism_id in stds:
        mechanism = MECHANISMS[mechanism_id]
        where = on_lattice if mechanism.support == "integer" else on_grid
        values = np.full(x.shape, np.nan)
        values[where] = symmetric_pdf(mechanism, x[where], float(table.loc[mechanism_id, "scale"]), setting)
        columns[mechanism_id] = values
    return pd.DataFrame(columns), stds, invalid


def _stds_of_shown(table: pd.DataFrame, every_variant: bool) -> tuple[dict, dict]:
    stds, invalid = {}, {}
    for mechanism_id in shown_ids(every_variant):
        if _valid(table, mechanism_id):
            stds[mechanism_id] = float(table.loc[mechanism_id, "coordinate_std"])
        else:
            invalid[mechanism_id] = table.loc[mechanism_id, "reason"] or "not available here"
    return stds, invalid


def coordinate_stds(
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
) -> tuple[dict, dict]:
    """The ``(stds, invalid)`` of :func:`density_curves` without its curves, from the calibration table.

    The Densities caption says what the other neighbour model would change: that needs the stds
    under it, not its densities (R1SMG's alone are a quadrature per point).
    """
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    return _stds_of_shown(table, every_variant)


def symmetric_grid(half_width: float, points: int) -> np.ndarray:
    """``np.linspace(-half_width, half_width, points)`` (an even count) made exactly symmetric.

    The positive half is linspace's own; the negative half is its mirror image, so every |x|
    appears twice (linspace's negative values may differ from the mirror by an ulp).

    Examples
    --------
    >>> grid = symmetric_grid(3.0, 6)
    >>> grid.round(12).tolist(), bool(np.all(grid == -grid[::-1]))
    ([-3.0, -1.8, -0.6, 0.6, 1.8, 3.0], True)
    """
    positive = np.linspace(-half_width, half_width, points)[points // 2 :]
    return np.concatenate([-positive[::-1], positive])


def symmetric_pdf(mechanism, x: np.ndarray, scale: float, setting) -> np.ndarray:
    """``mechanism.pdf(x, scale, setting)``, evaluated once per distinct |x| and mirrored.

    Every registered noise is symmetric about 0 (tests/ui/test_cached_distributions.py checks
    each entry's pdf at ±x), so a symmetric grid costs half the evaluations: for R1SMG, whose
    marginal density is a quadrature per point, that is half of a Densities rerun's largest cost.
    """
    magnitudes, where = np.unique(np.abs(np.asarray(x, dtype=float)), return_inverse=True)
    return np.asarray(mechanism.pdf(magnitudes, scale, setting), dtype=float)[where.reshape(np.shape(x))]


def _lattice(half_width: float) -> np.ndarray:
    """The integers of [-half_width, half_width] where integer noise's pmf is drawn: every one, or
    at most :data:`LATTICE_POINTS` of them, evenly spread (their pmf is then close to a density)."""
    top = math.floor(half_width)
    if 2 * top + 1 <= LATTICE_POINTS:
        return np.arange(-top, top + 1, dtype=float)
    return np.unique(np.round(np.linspace(-top, top, LATTICE_POINTS)))


@cache_data(max_entries=64, show_spinner=False)
def gg_family_curves(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    mode: str,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, dict, dict, dict]:
    """GG(p) beside Laplace (p = 1) and the Gaussian (p = 2), at equal variance or calibrated.

    Returns ``(curves, styles, at_mean, stds)``: ``curves`` has ``x`` and columns ``gg``,
    ``laplace``, ``gaussian`` (a column is missing when its mechanism is not valid here);
    ``styles`` gives each column's legend name and colour; ``at_mean`` the density at 0;
    ``stds`` the standard deviations.

    ``mode`` ``"equal_variance"``: all three with the analytic Gaussian's σ (Liu's comparison);
    ``"calibrated"``: GG(p) at its exact (ε, δ) scale, Laplace at b = Δ₁/ε (pure ε-DP), the
    Gaussian at the analytic σ.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "coordinate_std"])
    p = float(order)
    colors = {
        "gg": MECHANISMS["generalized_gaussian"].color,
        "laplace": MECHANISMS["laplace"].color,
        "gaussian": MECHANISMS[DEFAULT_MECHANISM_ID].color,
    }
    if mode == "equal_variance":
        orders = {"gg": p, "laplace": 1.0, "gaussian": 2.0}
        stds = {key: sigma for key in orders}
        half_width = WINDOW_STDS * sigma
        x = np.linspace(-half_width, half_width, DENSITY_POINTS)
        columns = {"x": x}
        at_mean = {}
        for key, key_order in orders.items():
            scale = generalized.gg_scale_from_std(sigma, key_order)
            columns[key] = np.asarray(generalized.gg_pdf(x, scale, key_order), dtype=float)
            at_mean[key] = float(generalized.gg_density_at_mean_equal_variance(sigma, key_order))
        styles = {
            "gg": dict(name=f"GG(p = {p:g})", color=colors["gg"]),
            "laplace": dict(name="Laplace (p = 1)", color=colors["laplace"]),
            "gaussian": dict(name="Gaussian (p = 2)", color=colors["gaussian"]),
        }
        return pd.DataFrame(columns), styles, at_mean, stds
    sources = {"gg": "generalized_gaussian", "laplace": "laplace", "gaussian": DEFAULT_MECHANISM_ID}
    styles = {
        "gg": dict(name=f"GG(p = {p:g}), exact (ε, δ)-DP", color=colors["gg"]),
        "laplace": dict(name="Laplace (p = 1), pure ε-DP", color=colors["laplace"]),
        "gaussian": dict(name="analytic Gaussian (p = 2), (ε, δ)-DP", color=colors["gaussian"]),
    }
    stds = {
        key: float(table.loc[mechanism_id, "coordinate_std"])
        for key, mechanism_id in sources.items()
        if _valid(table, mechanism_id)
    }
    half_width = WINDOW_STDS * max(stds.values())
    x = np.linspace(-half_width, half_width, DENSITY_POINTS)
    columns = {"x": x}
    at_mean = {}
    for key, std in stds.items():
        mechanism = MECHANISMS[sources[key]]
        scale = float(table.loc[sources[key], "scale"])
        columns[key] = np.asarray(mechanism.pdf(x, scale, setting), dtype=float)
        at_mean[key] = float(mechanism.pdf(np.float64(0.0), scale, setting))
    return pd.DataFrame(columns), styles, at_mean, stds


@cache_data(max_entries=32, show_spinner=False)
def sample_histogram(
    mechanism_id: str,
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    size: int,
    seed: int,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """``size`` seeded draws of one noise coordinate, as a density histogram, and the exact density.

    Returns ``(histogram, curve, summary)``: bins ``left, right, count, density`` over ± 4.5
    standard deviations; the density on the same window; and ``sample_std``, ``exact_std``,
    ``outside`` (draws beyond the window), ``size``, ``seed``. Raises ``ValueError`` when the
    mechanism is not valid at this setting.
    """
    setting = make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper)
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    if not _valid(table, mechanism_id):
        raise ValueError(table.loc[mechanism_id, "reason"] or f"{MECHANISMS[mechanism_id].name} is not available here")
    mechanism = MECHANISMS[mechanism_id]
    scale = float(table.loc[mechanism_id, "scale"])
    std = float(table.loc[mechanism_id, "coordinate_std"])
    draws = tails.coordinate_sample(mechanism, mechanism_rng(seed, mechanism_id), size, scale, setting)
    half_width = HISTOGRAM_STDS * std
    edges = np.linspace(-half_width, half_width, HISTOGRAM_BINS + 1)
    counts, _ = np.histogram(draws, bins=edges)
    width = edges[1] - edges[0]
    histogram = pd.DataFrame(
        {"left": edges[:-1], "right": edges[1:], "count": counts, "density": counts / (size * width)}
    )
    x = symmetric_grid(half_width, DENSITY_POINTS)
    curve = pd.DataFrame({"x": x, "density": symmetric_pdf(mechanism, x, scale, setting)})
    summary = dict(
        sample_std=float(np.std(draws)) if size > 1 else float("nan"),
        exact_std=std,
        outside=int(size - counts.sum()),
        size=int(size),
        seed=int(seed),
    )
    return histogram, curve, summary


@cache_data(max_entries=32, show_spinner=False)
def noise_vectors(
    epsilon: float,
    delta: float,
    sensitivity: float,
    order: float,
    dim: int,
    l1_model: str,
    vector_dim: int,
    size: int,
    seed: int,
    fixed_direction: bool,
    *,
    data_lower: float = 0.0,
    data_upper: float = 1.0,
) -> tuple[dict, dict, float]:
    """Noise vectors in 2-D or 3-D: the analytic Gaussian's isotropic noise and rank-1 (R1SMG-shaped)
    noise with the same expected squared error ``vector_dim × σ²``.

    Returns ``(points, styles, expected_loss)`` with ``points["gaussian"]`` and ``points["r1smg"]``
    arrays of shape (size, vector_dim) (the true value is the origin).
    """
    table = calibration_table(
        epsilon, delta, sensitivity, order, dim, l1_model, data_lower=data_lower, data_upper=data_upper
    )
    sigma = float(table.loc[DEFAULT_MECHANISM_ID, "scale"])
    picture = dataclasses.replace(
        make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower, data_upper), dim=vector_dim
    )
    gaussian = MECHANISMS[DEFAULT_MECHANISM_ID]
    expected_loss = float(gaussian.expected_loss(sigma, picture))
    rng = np.random.default_rng(seed)
    points = {
        "gaussian": np.asarray(gaussian.sample(rng, size, sigma, picture), dtype=float),
        "r1smg": tails.rank_one_noise_sample(rng, size, expected_loss, vector_dim, fixed_direction=fixed_direction),
    }
    r1smg = MECHANISMS["r1smg"]
    styles = {
        "gaussian": dict(name=f"isotropic Gaussian, σ = {sigma:.4g} per coordinate", color=gaussian.color),
        "r1smg": dict(
            name="R1SMG-shaped, claimed (Ji & Li 2024)"
            + (": one direction v" if fixed_direction else ": fresh v each"),
            color=r1smg.color,
        ),
    }
    return points, styles, expected_loss
