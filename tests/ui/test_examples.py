"""Built-in examples: shapes, totals, the published recipes, reproducibility."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import gaussmech_ui.examples as examples_module
from gaussmech_ui.examples import (
    EXAMPLES,
    carshare_heatmap,
    load_carshare,
    mean_estimation_data,
    sparse_dirichlet_histogram,
)
from gaussmech_ui.uploads import HistogramData


def test_doctests():
    result = doctest.testmod(examples_module)
    assert result.attempted >= 6
    assert result.failed == 0


def test_sparse_histogram_shape_total_and_seed():
    data = sparse_dirichlet_histogram(bins=1000, records=10_000, seed=4)
    assert data.kind == "1d" and data.counts.shape == (1000,)
    assert data.total == 10_000 and data.summary.bins == 1000
    assert np.array_equal(data.counts, np.round(data.counts)) and data.counts.min() >= 0
    assert np.array_equal(data.counts, sparse_dirichlet_histogram(1000, 10_000, 4).counts)
    assert not np.array_equal(data.counts, sparse_dirichlet_histogram(1000, 10_000, 5).counts)
    assert data.nonnegative and data.neighbour_model is None


def test_sparse_histogram_follows_balle_wang_appendix_b():
    """Dirichlet(1/d) weights then multinomial counts, from one seeded generator."""
    rng = np.random.default_rng(11)
    expected = rng.multinomial(500, rng.dirichlet(np.full(50, 1 / 50)))
    assert np.array_equal(sparse_dirichlet_histogram(50, 500, 11).counts, expected)


def test_sparse_histogram_is_sparse():
    """With α = 1/d a handful of bins carry almost all the weight (appendix B: "highly sparse")."""
    occupied = [np.count_nonzero(sparse_dirichlet_histogram(10_000, 10_000, seed).counts) for seed in range(10)]
    assert max(occupied) < 200  # of 10 000 bins
    big = sparse_dirichlet_histogram(1_000_000, 1_000_000, 0)
    assert big.total == 1_000_000 and np.isfinite(big.counts).all()


@pytest.mark.parametrize("kwargs, text", [({"bins": 1}, "bins"), ({"records": 0}, "records"), ({"seed": -1}, "seed")])
def test_sparse_histogram_validation(kwargs, text):
    with pytest.raises(ValueError, match=text):
        sparse_dirichlet_histogram(**kwargs)


def test_mean_estimation_follows_balle_wang_section_5_2():
    data = mean_estimation_data(dim=30, records=500, seed=2)
    rng = np.random.default_rng(2)
    center = rng.standard_normal(30)
    points = center + rng.uniform(-0.5, 0.5, size=(500, 30))
    assert np.allclose(data.counts, points.mean(axis=0), rtol=1e-12, atol=1e-14)
    model = data.neighbour_model
    assert model.l2_sensitivity == pytest.approx(math.sqrt(30) / 500)
    assert model.l1_sensitivity == pytest.approx(30 / 500)
    assert not data.nonnegative
    assert data.prior == (0.0, pytest.approx(1 + 1 / 6000))
    assert data.summary.rows == 500 and data.summary.bins == 30


def test_mean_estimation_spread_matches_the_prior():
    data = mean_estimation_data(dim=20_000, records=50, seed=0)
    variance = 1 + 1 / (12 * 50)
    # Sample variance of d coordinates: relative standard error about sqrt(2/d).
    assert abs(data.counts.var() / variance - 1) < 5 * math.sqrt(2 / 20_000)
    assert abs(data.counts.mean()) < 5 * math.sqrt(variance / 20_000)


def test_mean_estimation_chunks_do_not_change_the_data(monkeypatch):
    whole = mean_estimation_data(dim=40, records=300, seed=1).counts
    monkeypatch.setattr(examples_module, "_MEAN_CHUNK_VALUES", 100)  # two rows per chunk
    assert np.allclose(mean_estimation_data(dim=40, records=300, seed=1).counts, whole, rtol=1e-12, atol=1e-14)


def test_carshare_heatmap_bins_plotly_data():
    import plotly.express as px

    table = load_carshare()
    assert table.equals(px.data.carshare())
    locations = carshare_heatmap((10, 12), weight="locations")
    assert locations.kind == "2d" and locations.counts.shape == (10, 12)
    assert locations.total == len(table) == 249
    hours = carshare_heatmap((10, 12))
    assert hours.total == np.rint(table["car_hours"]).sum()
    assert np.array_equal(hours.counts, np.round(hours.counts)) and hours.counts.min() >= 0
    assert len(hours.row_labels) == 10 and len(hours.column_labels) == 12
    latitudes = [float(label.rstrip("°N")) for label in hours.row_labels]
    assert latitudes == sorted(latitudes)  # row 0 is the southernmost band
    # Independent binning: cell = floor((value - min) / width), the maximum in the last cell.
    lat, lon = table["centroid_lat"].to_numpy(), table["centroid_lon"].to_numpy()
    row = np.minimum(((lat - lat.min()) / (lat.max() - lat.min()) * 10).astype(int), 9)
    col = np.minimum(((lon - lon.min()) / (lon.max() - lon.min()) * 12).astype(int), 11)
    expected = np.zeros((10, 12))
    np.add.at(expected, (row, col), np.rint(table["car_hours"].to_numpy()))
    assert np.array_equal(hours.counts, expected)


def test_carshare_validation():
    with pytest.raises(ValueError, match="grid rows"):
        carshare_heatmap((1, 5))
    with pytest.raises(TypeError, match="pair"):
        carshare_heatmap(5)
    with pytest.raises(ValueError, match="weight"):
        carshare_heatmap(weight="peak_hour")


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_every_example_builds_with_its_defaults(example_id):
    example = EXAMPLES[example_id]
    assert example.id == example_id and example.name and example.description
    defaults = {name: spec[0] for name, spec in example.parameters.items()}
    for name, (default, low, high) in example.parameters.items():
        values = default if isinstance(default, tuple) else (default,)
        assert all(low <= value <= high for value in values), name
    data = example.build(**defaults)
    assert isinstance(data, HistogramData)
    assert data.summary.bins == data.counts.size and np.isfinite(data.counts).all()
    assert data.name and data.description
