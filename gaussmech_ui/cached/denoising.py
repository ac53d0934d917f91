"""Cached computations of the denoising lab: the data sets, parsed uploads and the error sweeps.

* :func:`example_data` builds a built-in data set (a 1e6-bin Dirichlet draw takes a while);
* :func:`parsed_upload` reads an uploaded CSV once per content (parsing 1e6 rows takes ~4 s),
  and caches a malformed file's message too, so a bad file is not re-read on every rerun;
* :func:`mechanism_sweep` runs :func:`gaussmech_core.histogram.error_sweep` for ONE mechanism,
  so that adding a mechanism to the chart computes only the new one, and the page can show
  progress mechanism by mechanism.

Pure helpers (no Streamlit state): :func:`epsilon_grid` places the ε axis, :func:`sweep_units`
and :func:`sweep_seconds` estimate a sweep's cost before it runs, :func:`sweep_seed` gives each
mechanism its own fixed random stream.

Arguments are plain numbers, strings, tuples, bytes and numpy arrays (hashed by content), so the
cache key is exact; nothing result-changing hides behind a leading underscore.
"""

from __future__ import annotations

import math

import numpy as np

from gaussmech_core.histogram import NeighbourModel, SweepResult, error_sweep
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui.examples import EXAMPLES
from gaussmech_ui.uploads import HistogramData, parse_histogram_csv

from .arguments import STAND_IN
from .cache import cache_data

__all__ = [
    "POINTS_PER_DECADE",
    "SWEEP_BASE_SEED",
    "SWEEP_BUDGET_UNITS",
    "HISTORY_BUDGET_UNITS",
    "history_releases_within_budget",
    "sweep_refusal",
    "epsilon_grid_exponents",
    "epsilon_grid",
    "sweep_units",
    "sweep_seconds",
    "example_data",
    "parsed_upload",
    "mechanism_sweep",
    "sweep_of_read_arguments",
]

POINTS_PER_DECADE = 4
SWEEP_BASE_SEED = 2018
# One "unit" is one bin of one release under one pipeline (bins × repetitions × ε values ×
# pipelines). The core runs 15-100 ns per unit on these machines (the whole-count rounding is the
# slow end), so 2.5e7 units is about 1-2 s: above that the page asks before running a sweep.
SWEEP_BUDGET_UNITS = 25_000_000
_SECONDS_PER_UNIT = 1e-7


# The release history draws every release again on each rerun (about 250 ns per bin and release,
# denoising included: 1e6 bins × 100 releases took 24.7 CPU-s): at most this many bin-releases.
HISTORY_BUDGET_UNITS = 5_000_000


def history_releases_within_budget(bins: int) -> int:
    """How many releases of a ``bins``-bin histogram the release history may draw in one rerun (at least 1).

    Examples
    --------
    >>> history_releases_within_budget(1000), history_releases_within_budget(1_000_000)
    (5000, 5)
    """
    return max(1, HISTORY_BUDGET_UNITS // max(1, int(bins)))


def sweep_refusal(bins: int, repetitions: int, epsilons: int, pipelines: int, mechanisms: int, stops) -> str:
    """Why a sweep above :data:`SWEEP_BUDGET_UNITS` is not run, and the largest R of ``stops`` that fits."""
    units = sweep_units(bins, repetitions, epsilons, pipelines, mechanisms)
    fitting = [r for r in stops if sweep_units(bins, r, epsilons, pipelines, mechanisms) <= SWEEP_BUDGET_UNITS]
    advice = (
        f"R = {max(fitting)} releases per ε fits"
        if fitting
        else "no R fits at this size: compare fewer mechanisms or pipelines, or use a smaller data set"
    )
    return (
        f"This sweep is not run: {bins:,} bins × {repetitions} releases × {epsilons} values of ε × {pipelines} "
        f"pipeline{'s' if pipelines != 1 else ''} × {mechanisms} mechanism{'s' if mechanisms != 1 else ''} is "
        f"{units:,} bin-releases, roughly {sweep_seconds(units):,.0f} s of the server that the whole class shares; "
        f"one click may start at most {SWEEP_BUDGET_UNITS:,} (about a second or two). {advice[0].upper()}{advice[1:]}."
    )


def epsilon_grid_exponents(epsilon: float, low: int = -2, high: int = 2) -> tuple[int, int]:
    """Decades of the sweep's ε axis: [10^low, 10^high], widened to keep ``epsilon`` a decade inside.

    Clamped to the sidebar's range [1e-6, 1e3]. The axis stays put while ε moves inside it, so
    moving the ε slider reuses the cached sweep.

    Examples
    --------
    >>> epsilon_grid_exponents(1.0), epsilon_grid_exponents(1e-6), epsilon_grid_exponents(1000.0)
    ((-2, 2), (-6, 2), (-2, 3))
    """
    exponent = math.log10(epsilon)
    return max(-6, min(low, math.floor(exponent) - 1)), min(3, max(high, math.ceil(exponent) + 1))


def epsilon_grid(low_exponent: int, high_exponent: int) -> tuple[float, ...]:
    """``POINTS_PER_DECADE`` log-spaced ε values per decade, both ends included.

    Examples
    --------
    >>> epsilon_grid(-1, 0)
    (0.1, 0.1778279410038923, 0.31622776601683794, 0.5623413251903491, 1.0)
    """
    count = (high_exponent - low_exponent) * POINTS_PER_DECADE + 1
    return tuple(float(value) for value in np.logspace(low_exponent, high_exponent, count))


def sweep_units(bins: int, repetitions: int, epsilons: int, pipelines: int, mechanisms: int = 1) -> int:
    """The work of a sweep in bin-releases (see :data:`SWEEP_BUDGET_UNITS`).

    Examples
    --------
    >>> sweep_units(1000, 20, 17, 2, 3)
    2040000
    """
    return int(bins) * int(repetitions) * int(epsilons) * int(pipelines) * int(mechanisms)


def sweep_seconds(units: int) -> float:
    """A rough time estimate for ``units`` of sweep work on this kind of machine (order of magnitude)."""
    return units * _SECONDS_PER_UNIT


@cache_data(max_entries=16, show_spinner=False)
def example_data(example_id: str, parameters: tuple[tuple[str, object], ...]) -> HistogramData:
    """The built-in data set ``example_id`` of :data:`~gaussmech_ui.examples.EXAMPLES` built with ``parameters``."""
    return EXAMPLES[example_id].build(**dict(parameters))


# An upload is one student's: kept 10 minutes (a session's work with it), so a classroom's files do
# not stay in memory after the class; at most 8 at once (each up to the upload cap).
@cache_data(max_entries=8, ttl=600, show_spinner=False)
def parsed_upload(
    data: bytes, filename: str, column: str | None, kind: str | None, header: bool | None
) -> tuple[HistogramData | None, str]:
    """``(histogram, "")`` for a readable upload, ``(None, message)`` for a malformed one.

    The bytes are parsed in memory (:func:`gaussmech_ui.uploads.parse_histogram_csv`), never
    written to disk. Streamlit keys the cache on a hash of the bytes, so the same file is parsed
    once; the message of a malformed file is cached as well.
    """
    try:
        return parse_histogram_csv(data, filename, column, kind=kind, header=header), ""
    except ValueError as error:  # UploadError (a ValueError) and option errors: a message for the person
        return None, str(error)


def mechanism_sweep(
    counts: np.ndarray,
    mechanism: str,
    order: float,
    pipelines: tuple[tuple[str, ...], ...],
    epsilons: tuple[float, ...],
    delta: float,
    changed_coordinates: int,
    coordinate_sensitivity: float,
    repetitions: int,
    metrics: tuple[str, ...],
    total: float | None,
    prior: tuple[float, float] | None,
) -> SweepResult:
    """:func:`sweep_of_read_arguments` with δ and p replaced by stand-ins for a mechanism that does not
    read them (its entry's ``uses_delta``, ``uses_order``), so that a move of the δ slider does not
    recompute the Laplace mechanism's sweep: the result is the same, and so is its cache entry."""
    entry = MECHANISMS[mechanism]
    return sweep_of_read_arguments(
        counts,
        mechanism,
        order if entry.uses_order else STAND_IN["order"],
        pipelines,
        epsilons,
        delta if entry.uses_delta else STAND_IN["delta"],
        changed_coordinates,
        coordinate_sensitivity,
        repetitions,
        metrics,
        total,
        prior,
    )


@cache_data(max_entries=48, show_spinner=False)
def sweep_of_read_arguments(
    counts: np.ndarray,
    mechanism: str,
    order: float,
    pipelines: tuple[tuple[str, ...], ...],
    epsilons: tuple[float, ...],
    delta: float,
    changed_coordinates: int,
    coordinate_sensitivity: float,
    repetitions: int,
    metrics: tuple[str, ...],
    total: float | None,
    prior: tuple[float, float] | None,
) -> SweepResult:
    """Error against ε of one mechanism for each pipeline, R seeded releases per ε (Balle & Wang, figs 1 and 4).

    The neighbour relation is passed as its :class:`~gaussmech_core.histogram.NeighbourModel`
    fields (k changed coordinates, each by at most c), so histograms and Balle & Wang's mean
    estimation share one code path. The seed is :data:`SWEEP_BASE_SEED`; the core keys the
    mechanism's stream by its id.
    """
    model = NeighbourModel(int(changed_coordinates), float(coordinate_sensitivity))
    return error_sweep(
        counts,
        [(mechanism, float(order))],
        [tuple(pipeline) for pipeline in pipelines],
        np.asarray(epsilons, dtype=float),
        delta,
        model,
        repetitions,
        SWEEP_BASE_SEED,
        order=float(order),
        metrics=metrics,
        total=total,
        prior=prior,
    )
