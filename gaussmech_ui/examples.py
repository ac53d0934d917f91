"""Built-in data sets for the denoising lab, one click each (no Streamlit here).

* :func:`sparse_dirichlet_histogram`: Balle & Wang's sparse histograms (2018, appendix B.1):
  bin probabilities from a symmetric Dirichlet with ``alpha = 1/d``, then multinomial counts.
* :func:`mean_estimation_data`: Balle & Wang's mean-estimation data (2018, Sec. 5.2): the mean
  of ``n = 500`` points in a cube of side 1 around a Gaussian centre, with its own
  sensitivities (every coordinate moves by at most ``1/n``).
* :func:`carshare_heatmap`: a real 2-D heat map, standing in for Balle & Wang's New York taxi
  maps (Sec. 5.3): plotly's bundled ``carshare`` data set (car-sharing availability in
  Montreal, 249 locations), binned by latitude and longitude.

Each returns a :class:`~gaussmech_ui.uploads.HistogramData`, the type an upload yields, so the
page treats examples and uploads alike; the same arguments always give the same data.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from gaussmech_core._validation import require_choice, require_integer
from gaussmech_core.histogram import NeighbourModel

from .uploads import HistogramData, make_histogram_data

__all__ = [
    "Example",
    "EXAMPLES",
    "sparse_dirichlet_histogram",
    "mean_estimation_data",
    "load_carshare",
    "carshare_heatmap",
]

# Bound on the uniform draws held in memory at once when building the mean-estimation data.
_MEAN_CHUNK_VALUES = 1_000_000


def sparse_dirichlet_histogram(bins: int = 1000, records: int = 10_000, seed: int = 0) -> HistogramData:
    """A sparse histogram: ``p ~ Dirichlet(1/d, ..., 1/d)``, counts ``~ Multinomial(n, p)``.

    Parameters
    ----------
    bins : int
        d, in [2, 1 000 000].
    records : int
        n, in [1, 1e9].
    seed : int
        Seeds both draws.

    Returns
    -------
    HistogramData
        One-dimensional, ``total == records``.

    Notes
    -----
    Balle & Wang (2018), appendix B.1: "each dataset is sampled from a multinomial
    distribution with parameters sampled from a symmetric Dirichlet with alpha = 1/d"; the
    small alpha makes most of the mass fall on a few bins (about ``ln d`` occupied bins carry
    almost all of it), the regime where soft thresholding shines. numpy's Dirichlet sampler
    switches to a stick-breaking construction for small alpha, so no weight underflows to NaN.

    Examples
    --------
    >>> data = sparse_dirichlet_histogram(bins=100, records=1000, seed=1)
    >>> data.counts.shape, data.total
    ((100,), 1000.0)
    """
    d = require_integer(bins, "bins", minimum=2, maximum=1_000_000)
    n = require_integer(records, "records", minimum=1, maximum=1_000_000_000)
    rng = np.random.default_rng(require_integer(seed, "seed", minimum=0))
    probabilities = rng.dirichlet(np.full(d, 1.0 / d))
    counts = rng.multinomial(n, probabilities).astype(float)
    occupied = int(np.count_nonzero(counts))
    return make_histogram_data(
        counts,
        "1d",
        name=f"Sparse histogram (Dirichlet α = 1/{d}, n = {n:,}, seed {seed})",
        description=(
            f"{d:,} bins, {n:,} records, {occupied:,} non-empty bins: probabilities drawn from a "
            f"symmetric Dirichlet with α = 1/d, counts from a multinomial (Balle & Wang 2018, appendix B)."
        ),
    )


def mean_estimation_data(dim: int = 100, records: int = 500, seed: int = 0) -> HistogramData:
    """The mean of n points near a random centre, as in Balle & Wang's mean-estimation experiment.

    Draw a centre ``x0 ~ N(0, I_d)`` and points ``x_i = x0 + xi_i`` with ``xi_i`` uniform on
    ``[-1/2, 1/2]^d``; the query is the mean ``theta = (1/n) sum_i x_i``.

    Parameters
    ----------
    dim : int
        d, in [1, 100 000].
    records : int
        n, in [1, 1 000 000]; Balle & Wang use n = 500.
    seed : int

    Returns
    -------
    HistogramData
        ``counts`` holds ``theta`` (real numbers, not counts: ``nonnegative`` is False and
        there is no public total). ``neighbour_model`` is ``NeighbourModel(d, 1/n)``, i.e.
        ``Delta_2 = sqrt(d)/n`` and ``Delta_1 = d/n``. ``prior`` is ``(0, 1 + 1/(12 n))``, the
        mean and variance of each coordinate of theta.

    Notes
    -----
    Balle & Wang (2018), Sec. 5.2 [V, docs/math.md section 0]: "first sample a center x0 ~ N(0, I)
    and then build x = (x1, ..., xn) with xi = x0 + xi_i, where each xi_i is i.i.d. with
    independent coordinates sampled uniformly from [-1/2, 1/2]", n = 500, delta = 1e-4, and
    sensitivities Delta_2 = sqrt(d)/n, Delta_1 = d/n, i.e. replacing one point (all points lie in
    a cube of side 1) moves every coordinate of the mean by at most 1/n. What we reconstruct:
    the query is the empirical mean (the paper says "mean estimation"); a fresh data set is
    drawn per seed (they average over 100 data sets). The prior of theta is
    ``N(0, 1)`` plus the mean of n uniforms (variance ``1/(12 n)``, Gaussian only
    approximately, by the central limit theorem), so the posterior mean with this prior is the
    Bayes estimator of Balle & Wang's Theorem 10 up to that approximation.

    Examples
    --------
    >>> data = mean_estimation_data(dim=10, seed=3)
    >>> data.counts.shape, data.neighbour_model.l2_sensitivity == 10 ** 0.5 / 500
    ((10,), True)
    """
    d = require_integer(dim, "dim", minimum=1, maximum=100_000)
    n = require_integer(records, "records", minimum=1, maximum=1_000_000)
    rng = np.random.default_rng(require_integer(seed, "seed", minimum=0))
    center = rng.standard_normal(d)
    offsets = np.zeros(d)
    rows_per_chunk = max(1, _MEAN_CHUNK_VALUES // d)
    for start in range(0, n, rows_per_chunk):
        rows = min(rows_per_chunk, n - start)
        offsets += rng.uniform(-0.5, 0.5, size=(rows, d)).sum(axis=0)
    theta = center + offsets / n
    return make_histogram_data(
        theta,
        "1d",
        rows=n,
        name=f"Mean estimation (Balle & Wang, d = {d:,}, n = {n:,}, seed {seed})",
        description=(
            f"The mean of {n:,} points in {d:,} dimensions, each within a cube of side 1 around a "
            f"centre drawn from N(0, I) (Balle & Wang 2018, Sec. 5.2). Replacing one point moves each "
            f"coordinate of the mean by at most 1/n, so Δ₂ = √d/n = {np.sqrt(d) / n:.3g} and Δ₁ = d/n = {d / n:.3g}."
        ),
        neighbour_model=NeighbourModel(
            d, 1.0 / n, "replace one point: every coordinate of the mean moves by at most 1/n"
        ),
        nonnegative=False,
        prior=(0.0, 1.0 + 1.0 / (12.0 * n)),
    )


def load_carshare() -> pd.DataFrame:
    """plotly's bundled ``carshare`` table (centroid_lat, centroid_lon, car_hours, peak_hour).

    Read straight from the file plotly ships (``plotly/package_data/datasets/carshare.csv.gz``),
    which is what ``plotly.express.data.carshare()`` returns, without importing plotly.express.
    """
    resource = importlib.resources.files("plotly").joinpath("package_data", "datasets", "carshare.csv.gz")
    if resource.is_file():
        with resource.open("rb") as handle:
            return pd.read_csv(handle, compression="gzip")
    import plotly.express as px  # pragma: no cover - only if a plotly release moves the file

    return px.data.carshare()  # pragma: no cover


def carshare_heatmap(grid: tuple[int, int] = (16, 16), weight: str = "car_hours") -> HistogramData:
    """A heat map of car-sharing use in Montreal: plotly's ``carshare`` data binned to a grid.

    Parameters
    ----------
    grid : (int, int)
        (rows, columns) of the grid, each in [2, 200]: rows split latitude (south to north),
        columns longitude (west to east), over the bounding box of the 249 locations.
    weight : {"car_hours", "locations"}
        What a cell counts: the car-hours of the locations in it (each location's car_hours
        rounded to a whole number; one record = one car-hour), or the number of locations.

    Returns
    -------
    HistogramData
        Two-dimensional, row 0 the southernmost band (so a heat map drawn with row 0 at the
        bottom has north up); ``row_labels`` / ``column_labels`` give the cell centres.

    Notes
    -----
    A stand-in for Balle & Wang's New York taxi heat maps (2018, Sec. 5.3 and appendix B.2),
    which are not shipped with any installed package. The bounding box comes from the data
    itself; a real release would fix it in advance, since it leaks the extreme locations.

    Examples
    --------
    >>> data = carshare_heatmap((8, 8), weight="locations")
    >>> data.counts.shape, data.total
    ((8, 8), 249.0)
    """
    try:
        rows, cols = grid
    except (TypeError, ValueError) as error:
        raise TypeError(f"grid must be a pair (rows, columns), got grid={grid!r}") from error
    rows = require_integer(rows, "grid rows", minimum=2, maximum=200)
    cols = require_integer(cols, "grid columns", minimum=2, maximum=200)
    require_choice(weight, "weight", ("car_hours", "locations"))
    table = load_carshare()
    latitude = table["centroid_lat"].to_numpy(dtype=float)
    longitude = table["centroid_lon"].to_numpy(dtype=float)
    weights = np.rint(table["car_hours"].to_numpy(dtype=float)) if weight == "car_hours" else None
    counts, lat_edges, lon_edges = np.histogram2d(
        latitude,
        longitude,
        bins=(rows, cols),
        range=((latitude.min(), latitude.max()), (longitude.min(), longitude.max())),
        weights=weights,
    )
    lat_centres = (lat_edges[:-1] + lat_edges[1:]) / 2
    lon_centres = (lon_edges[:-1] + lon_edges[1:]) / 2
    what = "car-hours" if weight == "car_hours" else "car-sharing locations"
    return make_histogram_data(
        counts,
        "2d",
        name=f"Montreal car-sharing heat map ({rows} × {cols}, {what})",
        description=(
            f"{what.capitalize()} per cell of a {rows} × {cols} latitude/longitude grid over Montreal, from "
            f"plotly.express.data.carshare (249 locations); a stand-in for Balle & Wang's New York taxi heat maps."
        ),
        row_labels=tuple(f"{value:.4f}°N" for value in lat_centres),
        column_labels=tuple(f"{-value:.4f}°W" for value in lon_centres),
        first_row_at_bottom=True,
        row_axis_title="row (south → north)",
    )


@dataclass(frozen=True)
class Example:
    """One built-in data set: display name, one-line description, builder and its parameters.

    ``parameters`` maps each keyword of ``build`` to ``(default, minimum, maximum)``.
    """

    id: str
    name: str
    description: str
    build: Callable[..., HistogramData]
    parameters: dict = field(default_factory=dict)


EXAMPLES: dict[str, Example] = {
    "sparse_dirichlet": Example(
        "sparse_dirichlet",
        "Sparse histogram (Balle & Wang, appendix B)",
        "Multinomial counts with Dirichlet(1/d) probabilities: a few full bins, many empty ones.",
        sparse_dirichlet_histogram,
        {"bins": (1000, 2, 1_000_000), "records": (10_000, 1, 1_000_000_000), "seed": (0, 0, 2**31 - 1)},
    ),
    "mean_estimation": Example(
        "mean_estimation",
        "Mean estimation (Balle & Wang, Sec. 5.2)",
        "The mean of 500 points in d dimensions around a Gaussian centre; Δ₂ = √d/n.",
        mean_estimation_data,
        {"dim": (100, 1, 100_000), "records": (500, 1, 1_000_000), "seed": (0, 0, 2**31 - 1)},
    ),
    "carshare": Example(
        "carshare",
        "Montreal car-sharing heat map",
        "Car-hours on a latitude/longitude grid (plotly's carshare data), standing in for NYC taxi maps.",
        carshare_heatmap,
        {"grid": ((16, 16), 2, 200)},
    ),
}
