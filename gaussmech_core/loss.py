"""The distribution of the accuracy loss ``‖noise‖₂²`` of each mechanism (docs/math.md sections 6.1, 10).

Ji & Li (2024) compare mechanisms by the expected loss ``E‖n‖²`` and read the larger skewness
and kurtosis of R1SMG's loss as "more stable". This module gives the whole distribution, so the
interface can show medians and 5-95% bands next to the means:

==========================  ==============================  ==========================
noise                       loss                            summary
==========================  ==============================  ==========================
Gaussian N(0, σ² I_d)       σ² χ²_d                         exact
R1SMG (claimed)             σ* χ²_1                         exact
MVG i.i.d. (m×n)            s² χ²_{mn}                      exact
Laplace, GG(p) i.i.d.       Σ_{i<=d} X_i²                   exact moments; quantiles by
                                                            Monte Carlo or Cornish–Fisher
==========================  ==============================  ==========================

Skewness ``sqrt(8/d)`` and excess kurtosis ``12/d`` of σ²χ²_d fall with d; for R1SMG they stay at
``2√2`` and 12: a heavier tail relative to the loss's own scale, not a more stable one
(docs/math.md section 6.1, "Kurtosis and skewness claim, made precise").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import special, stats

from ._types import ArrayLike
from ._validation import (
    MAX_DIMENSION,
    MAX_SEED,
    as_float_array,
    broadcast,
    require_choice,
    require_integer,
    require_interval,
)
from .generalized import gg_absolute_moment, gg_sample
from .laplace import laplace_sample

__all__ = [
    "LossSummary",
    "MonteCarloLoss",
    "gaussian_loss_summary",
    "r1smg_loss_summary",
    "mvg_iid_loss_summary",
    "iid_coordinate_loss_summary",
    "iid_loss_summary_from_moments",
    "loss_quantiles_against_dim",
    "monte_carlo_loss",
]

DEFAULT_LEVELS = (0.05, 0.5, 0.95)
# Kinds of noise (the registry's vocabulary, registry_types.NOISE_FAMILIES) whose loss is a scaled
# χ²: scale -> σ² (i.i.d. Gaussian, also the i.i.d. MVG with d = mn entries) or σ* (R1SMG), and
# its degrees of freedom at dimension d.
_CHI_SQUARE_LOSS = {
    "gaussian": (lambda s: s * s, lambda d: d),
    "r1smg": (lambda s: s, lambda d: np.ones_like(d)),
}
_IID_LOSS = ("laplace", "generalized_gaussian")

# Monte Carlo quantiles for i.i.d. Laplace/GG losses draw at most this many coordinates; with
# fewer than _MIN_MC_SAMPLES sums left, the Cornish–Fisher expansion (exact cumulants) is more
# accurate than the sampling error (checked against 4e5-sample runs: <= 0.02 std at d >= 100
# for Laplace, the most skewed case, and shrinking like d^{-3/2}).
_MC_DRAW_BUDGET = 2_000_000
_MIN_MC_SAMPLES = 20_000


@dataclass(frozen=True)
class LossSummary:
    """Summary of the distribution of the accuracy loss ``L = ‖noise‖₂²``.

    ``exact`` is True when every number is exact (closed form); ``method`` says how each was
    obtained, for the interface to show.
    """

    mean: float
    median: float
    quantiles: dict[float, float]
    std: float
    skewness: float
    excess_kurtosis: float
    exact: bool
    method: str


@dataclass(frozen=True)
class MonteCarloLoss:
    """Empirical summary of simulated losses, with uncertainty, for overlays on exact curves.

    ``mean_interval`` is the normal-theory interval ``mean ± z SE``; ``quantile_intervals`` are
    distribution-free order-statistic intervals at the same confidence.
    """

    n: int
    seed: int
    confidence: float
    mean: float
    mean_standard_error: float
    mean_interval: tuple[float, float]
    quantiles: dict[float, float]
    quantile_intervals: dict[float, tuple[float, float]]
    losses: np.ndarray = field(repr=False)


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------


def _levels(quantile_levels: Sequence[float]) -> tuple[float, ...]:
    levels = as_float_array(quantile_levels, "quantile_levels").ravel()
    require_interval(levels, "quantile_levels", 0.0, 1.0, lower_open=True, upper_open=True)
    return tuple(float(q) for q in levels)


def _positive_scalar(value: ArrayLike, name: str) -> float:
    array = require_interval(as_float_array(value, name), name, 0.0, None, lower_open=True)
    if array.ndim != 0:
        raise ValueError(f"{name} must be a scalar, got an array of shape {array.shape}")
    return float(array)


def _whole_numbers(value: ArrayLike, name: str, minimum: int = 1) -> np.ndarray:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {name}={value!r}")
    array = require_interval(as_float_array(value, name), name, float(minimum), float(MAX_DIMENSION))
    if np.any(array != np.floor(array)):
        bad = array[array != np.floor(array)].ravel()[0]
        raise ValueError(f"{name} must be a whole number, got {name}={float(bad)!r}")
    return array


def _chi_square_summary(scale_sq: float, degrees: float, levels: Sequence[float], method: str) -> LossSummary:
    """Summary of ``scale_sq * χ²_degrees`` (all closed forms; scipy.stats.chi2 for quantiles)."""
    levels = _levels(levels)
    with np.errstate(over="ignore"):  # a loss beyond 1.8e308 is inf, which is the answer
        # 2 P⁻¹(k/2, q) is exactly what scipy.stats.chi2.ppf computes, without its per-call overhead.
        quantiles = {q: float(scale_sq * 2.0 * special.gammaincinv(0.5 * degrees, q)) for q in levels}
        median = float(scale_sq * 2.0 * special.gammaincinv(0.5 * degrees, 0.5))
        mean = float(np.float64(scale_sq) * degrees)
        std = float(np.float64(scale_sq) * math.sqrt(2.0 * degrees))
    return LossSummary(
        mean=mean,
        median=median,
        quantiles=quantiles,
        std=std,
        skewness=math.sqrt(8.0 / degrees),
        excess_kurtosis=12.0 / degrees,
        exact=True,
        method=method,
    )


# ----------------------------------------------------------------------------------------------
# Exact families
# ----------------------------------------------------------------------------------------------


def gaussian_loss_summary(sigma: float, dim: int, quantile_levels: Sequence[float] = DEFAULT_LEVELS) -> LossSummary:
    """Loss of N(0, σ² I_d) noise: ``‖Z‖² ~ σ² χ²_d`` (exact).

    Parameters
    ----------
    sigma : float
        σ > 0 per coordinate (classical or analytic Gaussian mechanism).
    dim : int
        d >= 1.
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).

    Returns
    -------
    LossSummary
        mean dσ², std σ² sqrt(2d), skewness sqrt(8/d), excess kurtosis 12/d, quantiles from
        ``scipy.stats.chi2``; ``exact=True``.
        Entries are inf where the loss exceeds the largest double (its value rounded to float64).

    Raises
    ------
    ValueError
        If σ <= 0, d < 1, or a level is outside (0, 1).
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.1 ("Kurtosis and skewness claim, made precise") and 10.

    Examples
    --------
    >>> summary = gaussian_loss_summary(1.0, 10)
    >>> summary.mean, round(summary.median, 4), round(summary.skewness, 4)
    (10.0, 9.3418, 0.8944)
    """
    sigma_value = _positive_scalar(sigma, "sigma")
    dim_value = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    method = f"exact: sigma^2 chi^2_{dim_value} (scipy.stats.chi2)"
    with np.errstate(over="ignore"):  # σ² beyond float64 is inf, which is the answer
        scale_sq = float(np.float64(sigma_value) ** 2)
    return _chi_square_summary(scale_sq, float(dim_value), quantile_levels, method)


def r1smg_loss_summary(sigma_star: float, quantile_levels: Sequence[float] = DEFAULT_LEVELS) -> LossSummary:
    """Loss of R1SMG noise: ``‖n‖² = σ* z² ~ σ* χ²_1`` (exact; the mechanism's guarantee is claimed).

    Parameters
    ----------
    sigma_star : float
        σ* > 0 (from ``multivariate.r1smg_sigma_star``).
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).

    Returns
    -------
    LossSummary
        mean σ*, std σ* √2, skewness 2√2, excess kurtosis 12, whatever the dimension.
        Entries are inf where the loss exceeds the largest double (its value rounded to float64).

    Raises
    ------
    ValueError
        If σ* <= 0 or a level is outside (0, 1).
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.1. Ji & Li read the larger skewness and kurtosis as "more stable"; relative to its
    own scale the loss has the heavier tail. The R1SMG privacy guarantee is claimed, not proven
    (docs/math.md section 6.2).

    Examples
    --------
    >>> summary = r1smg_loss_summary(2.0)
    >>> summary.mean, round(summary.skewness, 4), summary.excess_kurtosis
    (2.0, 2.8284, 12.0)
    """
    sigma_value = _positive_scalar(sigma_star, "sigma_star")
    return _chi_square_summary(sigma_value, 1.0, quantile_levels, "exact: sigma* chi^2_1 (scipy.stats.chi2)")


def mvg_iid_loss_summary(
    std: float, rows: int, cols: int, quantile_levels: Sequence[float] = DEFAULT_LEVELS
) -> LossSummary:
    """Loss of i.i.d. MVG noise on an m×n query: ``‖Z‖_F² ~ s² χ²_{mn}`` (exact).

    Parameters
    ----------
    std : float
        Per-entry standard deviation s > 0 (``multivariate.mvg_iid_std``).
    rows, cols : int
        m, n >= 1.
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).

    Returns
    -------
    LossSummary
        s² χ²_{mn}: mean mn s², std s² √(2mn); exact.
        Entries are inf where the loss exceeds the largest double (its value rounded to float64).

    Raises
    ------
    ValueError
        If s <= 0, a shape < 1, or a level is outside (0, 1).
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.1 ("MVG with i.i.d. entries: the same with MN") and 7.2.

    Examples
    --------
    >>> mvg_iid_loss_summary(1.0, 2, 3).mean
    6.0
    """
    std_value = _positive_scalar(std, "std")
    m = require_integer(rows, "rows", minimum=1, maximum=MAX_DIMENSION)
    n = require_integer(cols, "cols", minimum=1, maximum=MAX_DIMENSION)
    if m * n > MAX_DIMENSION:
        raise ValueError(f"rows * cols must be at most 2**53 = {MAX_DIMENSION} entries, got rows={m}, cols={n}")
    with np.errstate(over="ignore"):  # s² beyond float64 is inf, which is the answer
        scale_sq = float(np.float64(std_value) ** 2)
    return _chi_square_summary(scale_sq, float(m * n), quantile_levels, f"exact: s^2 chi^2_{m * n} (scipy.stats.chi2)")


# ----------------------------------------------------------------------------------------------
# i.i.d. Laplace and generalized Gaussian coordinates
# ----------------------------------------------------------------------------------------------


def _family_order(family: str, order: float | None) -> float:
    require_choice(family, "family", ("laplace", "generalized_gaussian"))
    if family == "laplace":
        if order is not None and float(as_float_array(order, "order")) != 1.0:
            raise ValueError(f"order must be None or 1 for family='laplace', got order={order!r}")
        return 1.0
    if order is None:
        raise ValueError("order (the GG exponent p in [1, 10]) is required for family='generalized_gaussian'")
    value = as_float_array(order, "order")
    require_interval(value, "order", 1.0, 10.0)
    if value.ndim != 0:
        raise ValueError(f"order must be a scalar, got an array of shape {value.shape}")
    return float(value)


def _square_cumulants(order: float) -> tuple[float, float, float, float]:
    """The first four cumulants of Y = X² for X ~ GG(0, 1, p), from E|X|^q, q = 2, 4, 6, 8.

    ``E|X|^q = Γ((q+1)/p)/Γ(1/p)`` (docs/math.md section 5.1) through ``generalized.gg_absolute_moment``;
    the cumulants by the standard moment-cumulant relations. At b = 1 nothing overflows for
    p in [1, 10]; b enters as b^{2j}.
    """
    m1, m2, m3, m4 = (float(gg_absolute_moment(2.0 * j, 1.0, order)) for j in (1, 2, 3, 4))
    k1 = m1
    k2 = m2 - m1 * m1
    k3 = m3 - 3.0 * m2 * m1 + 2.0 * m1**3
    k4 = m4 - 4.0 * m3 * m1 - 3.0 * m2 * m2 + 12.0 * m2 * m1 * m1 - 6.0 * m1**4
    return k1, k2, k3, k4


def _cornish_fisher(levels: ArrayLike, gamma1: float, gamma2: float) -> np.ndarray:
    """Standardized quantiles from the Cornish–Fisher expansion with skewness and excess kurtosis."""
    z = special.ndtri(np.asarray(levels, dtype=np.float64))
    return (
        z
        + (z * z - 1.0) * gamma1 / 6.0
        + (z**3 - 3.0 * z) * gamma2 / 24.0
        - (2.0 * z**3 - 5.0 * z) * gamma1 * gamma1 / 36.0
    )


def _unit_loss_quantiles(
    order: float, dim: int, levels: tuple[float, ...], n_samples: int, seed: int
) -> tuple[dict[float, float], float, str, tuple[float, float, float, float]]:
    """Quantiles of Σ_{i<=d} X_i² for X ~ GG(0, 1, p), and how they were obtained."""
    k1, k2, k3, k4 = _square_cumulants(order)
    mean = dim * k1
    std = math.sqrt(dim * k2)
    samples = min(n_samples, _MC_DRAW_BUDGET // dim)
    wanted = tuple(levels) + (0.5,)
    if samples >= _MIN_MC_SAMPLES:
        rng = np.random.default_rng(seed)
        sums = np.empty(samples)
        rows = max(1, (1 << 20) // dim)
        for start in range(0, samples, rows):
            count = min(rows, samples - start)
            if order == 1.0:
                draws = laplace_sample(rng, (count, dim), 1.0)
            else:
                draws = gg_sample(rng, (count, dim), 1.0, order)
            sums[start : start + count] = np.einsum("ij,ij->i", draws, draws)
        values = np.quantile(sums, wanted)
        method = f"quantiles by Monte Carlo (n={samples}, seed={seed})"
    else:
        gamma1 = k3 / (k2**1.5 * math.sqrt(dim))
        gamma2 = k4 / (k2 * k2 * dim)
        values = np.maximum(mean + std * _cornish_fisher(wanted, gamma1, gamma2), 0.0)
        method = "quantiles by the Cornish-Fisher expansion with the exact first four cumulants"
    return dict(zip(wanted[:-1], values[:-1].tolist())), float(values[-1]), method, (k1, k2, k3, k4)


def iid_coordinate_loss_summary(
    family: str,
    scale: float,
    dim: int,
    order: float | None = None,
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    n_samples: int = 100_000,
    seed: int = 0,
) -> LossSummary:
    """Loss ``Σ_{i<=d} X_i²`` of i.i.d. Laplace or generalized Gaussian noise.

    Parameters
    ----------
    family : {"laplace", "generalized_gaussian"}
        Laplace(0, b) is GG(0, b, 1).
    scale : float
        b > 0 (density ∝ exp(-(|x|/b)^p)).
    dim : int
        d >= 1.
    order : float, optional
        p in [1, 10]; required for "generalized_gaussian", must be None or 1 for "laplace".
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).
    n_samples : int, default 100_000
        Monte Carlo sums for the quantiles, >= 1 (fewer are used when d n_samples > 2e6).
    seed : int, default 0
        Seed of ``numpy.random.default_rng`` for the Monte Carlo.

    Returns
    -------
    LossSummary
        Mean, standard deviation, skewness and excess kurtosis are **exact**, from the cumulants
        of X² summed over d coordinates. Quantiles and median are Monte Carlo (seeded) while at
        least 20 000 sums fit in 2e6 draws, and the Cornish–Fisher expansion with the exact
        cumulants beyond; ``method`` says which, and ``exact`` is False.
        Entries are inf where the loss exceeds the largest double (its value rounded to float64).

    Raises
    ------
    ValueError
        For an unknown family, a bad order, b <= 0, d < 1, or a level outside (0, 1).
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Cumulants of Y = X² from ``E|X|^{2j} = b^{2j} Γ((2j+1)/p)/Γ(1/p)`` (docs/math.md sections 5.1, 10):
    κ₁ = m₁, κ₂ = m₂ - m₁², κ₃ = m₃ - 3m₂m₁ + 2m₁³, κ₄ = m₄ - 4m₃m₁ - 3m₂² + 12m₂m₁² - 6m₁⁴; the
    loss has mean dκ₁, variance dκ₂, skewness κ₃/(κ₂^{3/2} √d), excess kurtosis κ₄/(κ₂² d).
    Laplace (p = 1): mean 2db², the figure of docs/math.md section 10.

    Examples
    --------
    >>> summary = iid_coordinate_loss_summary("laplace", 1.0, 10)
    >>> summary.mean, summary.exact, round(summary.skewness, 3)
    (20.0, False, 2.093)
    """
    p = _family_order(family, order)
    b = _positive_scalar(scale, "scale")
    d = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    levels = _levels(quantile_levels)
    n_samples = require_integer(n_samples, "n_samples", minimum=1)
    seed = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
    quantiles, median, quantile_method, (k1, k2, k3, k4) = _unit_loss_quantiles(p, d, levels, n_samples, seed)
    with np.errstate(over="ignore"):  # b² beyond float64 gives inf, which is the answer
        b_sq = float(np.float64(b) ** 2)
        mean = float(np.float64(b_sq) * (d * k1))
        std = float(np.float64(b_sq) * math.sqrt(d * k2))
        quantiles = {q: float(np.float64(b_sq) * value) for q, value in quantiles.items()}
        median = float(np.float64(b_sq) * median)
    name = "Laplace" if family == "laplace" else f"GG(p={p:g})"
    return LossSummary(
        mean=mean,
        median=median,
        quantiles=quantiles,
        std=std,
        skewness=k3 / (k2**1.5 * math.sqrt(d)),
        excess_kurtosis=k4 / (k2 * k2 * d),
        exact=False,
        method=f"{name}: moments exact (cumulants of X^2); {quantile_method}",
    )


def iid_loss_summary_from_moments(
    even_moments: Sequence[float],
    dim: int,
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    *,
    largest: float | None = None,
    name: str = "noise",
) -> LossSummary:
    """Loss ``Σ_{i<=d} X_i²`` of d i.i.d. coordinates from ``(E X², E X⁴, E X⁶, E X⁸)`` alone.

    Parameters
    ----------
    even_moments : sequence of 4 floats
        ``E X^{2j}``, j = 1..4, of one coordinate (e.g. Liu's bounded GG noise, :mod:`gaussmech_core.bounded`).
    dim : int
        d >= 1.
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).
    largest : float, optional
        The largest value X² can take (``h²`` for noise on [-h, h]); the quantiles are clipped
        to ``[0, d · largest]``.
    name : str
        How ``method`` names the noise.

    Returns
    -------
    LossSummary
        Mean, standard deviation, skewness and excess kurtosis exact (cumulants of X², as in
        :func:`iid_coordinate_loss_summary`); quantiles and median by the Cornish–Fisher expansion
        with those cumulants (``exact`` False), clipped to the loss's range.
        Entries are inf where the loss exceeds the largest double (its value rounded to float64).

    Notes
    -----
    The cumulants are computed in units of ``c = max_j (E X^{2j})^{1/j}`` (each moment divided by
    ``c^j``, in log space), so that moments near the largest double neither overflow nor turn
    into NaN; skewness and kurtosis do not depend on the unit.

    Examples
    --------
    >>> summary = iid_loss_summary_from_moments((1 / 3, 1 / 5, 1 / 7, 1 / 9), 100, largest=1.0)   # uniform on [-1, 1]
    >>> round(summary.mean, 12), summary.exact
    (33.333333333333, False)
    """
    d = require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION)
    return _iid_loss_summaries_from_moments(even_moments, (d,), quantile_levels, largest=largest, name=name)[0]


def _iid_loss_summaries_from_moments(
    even_moments: Sequence[float],
    dims: Sequence[int],
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    *,
    largest: float | None = None,
    name: str = "noise",
) -> list[LossSummary]:
    """:func:`iid_loss_summary_from_moments` at every d of ``dims``, the cumulants of X² found once.

    The values are those of one call per d (that function is this one at a single d); only the
    work that does not depend on d (validating and rescaling the moments, their cumulants) is
    shared, which is what a sweep over d of one noise (the accuracy page's bands) repeats. Private:
    the registry's bounded entries use it (``Mechanism.loss_summary_against_dim``).

    Examples
    --------
    >>> [round(s.mean, 9) for s in _iid_loss_summaries_from_moments((1 / 3, 1 / 5, 1 / 7, 1 / 9), (1, 10), largest=1.0)]
    [0.333333333, 3.333333333]
    """
    moments = require_interval(as_float_array(even_moments, "even_moments"), "even_moments", 0.0, None)
    if moments.shape != (4,):
        raise ValueError(f"even_moments must be the 4 values (E X², E X⁴, E X⁶, E X⁸), got shape {moments.shape}")
    dim_values = [require_integer(dim, "dim", minimum=1, maximum=MAX_DIMENSION) for dim in dims]
    levels = _levels(quantile_levels)
    top = None
    if largest is not None:
        top = float(require_interval(as_float_array(largest, "largest"), "largest", 0.0, None, allow_infinity=True))
    orders = np.arange(1.0, 5.0)
    with np.errstate(divide="ignore"):  # log 0 = -inf: a zero moment stays exactly 0 below
        logs = np.log(moments)
    unit = float(np.exp(np.max(logs / orders))) if np.any(moments > 0) else 1.0
    m1, m2, m3, m4 = (float(value) for value in np.exp(logs - orders * math.log(unit)))
    k1 = m1
    k2 = max(m2 - m1 * m1, 0.0)
    k3 = m3 - 3.0 * m2 * m1 + 2.0 * m1**3
    k4 = m4 - 4.0 * m3 * m1 - 3.0 * m2 * m2 + 12.0 * m2 * m1 * m1 - 6.0 * m1**4
    spread = k2**1.5
    wanted = levels + (0.5,)
    method = f"{name}: moments exact (cumulants of X^2); quantiles by the Cornish-Fisher expansion"
    summaries = []
    for d in dim_values:
        gamma1 = k3 / (spread * math.sqrt(d)) if spread > 0 else 0.0
        gamma2 = k4 / (k2 * k2 * d) if k2 * k2 > 0 else 0.0
        standardized = np.maximum(d * k1 + math.sqrt(d * k2) * _cornish_fisher(wanted, gamma1, gamma2), 0.0)
        with np.errstate(over="ignore"):  # a loss beyond the largest double is inf, its rounded value
            values = standardized * unit
            mean, std = float(np.float64(d * k1) * unit), float(np.float64(math.sqrt(d * k2)) * unit)
        if top is not None:
            values = np.minimum(values, d * top)
        summaries.append(
            LossSummary(
                mean=mean,
                median=float(values[-1]),
                quantiles=dict(zip(levels, values[:-1].tolist())),
                std=std,
                skewness=gamma1,
                excess_kurtosis=gamma2,
                exact=False,
                method=method,
            )
        )
    return summaries


def loss_quantiles_against_dim(
    family: str,
    scale: ArrayLike,
    dim: ArrayLike,
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    order: float | None = None,
    n_samples: int = 100_000,
    seed: int = 0,
) -> dict[float, np.ndarray]:
    """Loss quantiles against the dimension, for 5/50/95% bands in plots.

    Parameters
    ----------
    family : {"gaussian", "r1smg", "laplace", "generalized_gaussian"}
        The kind of noise, in the registry's vocabulary (``Mechanism.family``). "gaussian" (also
        the i.i.d. MVG, d = mn entries) is σ² χ²_d; "r1smg" is σ* χ²_1.
    scale : float or array_like
        σ, σ*, s or b > 0, broadcast against ``dim`` (a calibrated scale usually depends on d).
    dim : int or array_like of int
        d >= 1 (the number of noise coordinates).
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).
    order : float, optional
        p for "generalized_gaussian" (or None/1 for "laplace").
    n_samples, seed : int
        Monte Carlo settings for Laplace/GG, as in :func:`iid_coordinate_loss_summary`.

    Returns
    -------
    dict[float, numpy.ndarray]
        Level -> quantiles, of the broadcast shape of (scale, dim). Exact and vectorized for the
        χ² families; for Laplace/GG one Monte Carlo or Cornish–Fisher run per distinct d, scaled
        by b² (the loss is b² times the loss at b = 1). Entries are inf where the loss exceeds
        the largest double (its value rounded to float64).

    Raises
    ------
    ValueError
        For an unknown family or out-of-range values.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md sections 6.1 and 10.

    Examples
    --------
    >>> bands = loss_quantiles_against_dim("gaussian", 1.0, [1, 10, 100])
    >>> np.round(bands[0.5], 2).tolist()
    [0.45, 9.34, 99.33]
    """
    require_choice(family, "family", tuple(_CHI_SQUARE_LOSS) + _IID_LOSS)
    levels = _levels(quantile_levels)
    scale_array = require_interval(as_float_array(scale, "scale"), "scale", 0.0, None, lower_open=True)
    dim_array = _whole_numbers(dim, "dim", 1)
    s, d = broadcast(scale_array, dim_array)
    with np.errstate(over="ignore"):  # a loss beyond float64 is inf, which is the answer
        if family in _CHI_SQUARE_LOSS:
            factor, degrees = _CHI_SQUARE_LOSS[family]
            return {q: np.asarray(factor(s) * stats.chi2.ppf(q, degrees(d)), dtype=np.float64) for q in levels}
        p = _family_order(family, order)
        n_samples = require_integer(n_samples, "n_samples", minimum=1)
        seed = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
        result = {q: np.empty(d.shape) for q in levels}
        for value in np.unique(d):
            quantiles, _, _, _ = _unit_loss_quantiles(p, int(value), levels, n_samples, seed)
            mask = d == value
            for q in levels:
                result[q][mask] = s[mask] * s[mask] * quantiles[q]
        return result


# ----------------------------------------------------------------------------------------------
# Monte Carlo overlay
# ----------------------------------------------------------------------------------------------


def monte_carlo_loss(
    sampler: Callable,
    n: int,
    seed: int = 0,
    quantile_levels: Sequence[float] = DEFAULT_LEVELS,
    confidence: float = 0.95,
) -> MonteCarloLoss:
    """Simulate losses ``‖noise‖₂²`` from a sampler and summarise them with confidence intervals.

    Parameters
    ----------
    sampler : callable
        ``sampler(rng, size)`` returning ``size`` noise vectors, shape (size, ...) (a shape
        (size,) array is read as scalars). E.g. ``lambda rng, k: r1smg_sample(rng, k, s, 10)``.
    n : int
        Number of vectors, >= 2. Drawn in blocks of about 4 million entries.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``.
    quantile_levels : sequence of float, default (0.05, 0.5, 0.95)
        Levels in (0, 1).
    confidence : float, default 0.95
        Level of the intervals, in (0, 1).

    Returns
    -------
    MonteCarloLoss
        Mean with its standard error and normal interval; sample quantiles (linear interpolation)
        with distribution-free order-statistic intervals (ranks ``nq ∓ z sqrt(nq(1-q))``); the
        losses themselves.

    Raises
    ------
    ValueError
        If n < 2, seed < 0, a level or the confidence is outside (0, 1), or the sampler returns
        the wrong number of rows or non-finite values.
    TypeError
        If ``sampler`` is not callable or an argument is not numeric.

    Notes
    -----
    For overlaying simulated points on the exact curves of this module (docs/math.md section 10).

    Examples
    --------
    >>> result = monte_carlo_loss(lambda rng, k: rng.standard_normal((k, 3)), 20_000, seed=1)
    >>> abs(result.mean - 3.0) < 4 * result.mean_standard_error
    True
    """
    if not callable(sampler):
        raise TypeError(f"sampler must be callable as sampler(rng, size), got sampler={sampler!r}")
    n = require_integer(n, "n", minimum=2)
    seed = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
    levels = _levels(quantile_levels)
    confidence_value = require_interval(
        as_float_array(confidence, "confidence"), "confidence", 0.0, 1.0, lower_open=True, upper_open=True
    )
    rng = np.random.default_rng(seed)
    losses = np.empty(n)
    done = 0
    block = min(n, 256)
    while done < n:
        count = min(block, n - done)
        draws = np.asarray(sampler(rng, count), dtype=np.float64)
        if draws.shape[:1] != (count,):
            raise ValueError(f"sampler(rng, {count}) must return {count} rows, got shape {draws.shape}")
        flat = draws.reshape(count, -1)
        if not np.all(np.isfinite(flat)):
            raise ValueError("sampler returned NaN or infinite values")
        losses[done : done + count] = np.einsum("ij,ij->i", flat, flat)
        done += count
        block = max(1, (1 << 22) // max(flat.shape[1], 1))
    z = float(special.ndtri(0.5 * (1.0 + float(confidence_value))))
    mean = float(np.mean(losses))
    standard_error = float(np.std(losses, ddof=1) / math.sqrt(n))
    ordered = np.sort(losses)
    quantiles = {}
    intervals = {}
    # One np.quantile for every level (the same linear interpolation as one call per level).
    for q, value in zip(levels, np.quantile(ordered, levels).tolist()):
        quantiles[q] = value
        spread = z * math.sqrt(n * q * (1.0 - q))
        low = min(max(math.floor(n * q - spread), 0), n - 1)
        high = min(max(math.ceil(n * q + spread), 0), n - 1)
        intervals[q] = (float(ordered[low]), float(ordered[high]))
    return MonteCarloLoss(
        n=n,
        seed=seed,
        confidence=float(confidence_value),
        mean=mean,
        mean_standard_error=standard_error,
        mean_interval=(mean - z * standard_error, mean + z * standard_error),
        quantiles=quantiles,
        quantile_intervals=intervals,
        losses=losses,
    )
