"""The slow check that the discrete Gaussian's default σ is safe to round up, read from its data.

``tools/discrete_gaussian_round_up_reference.py`` scans σ' in [σ₀, 2σ₀] for a grid of ε in
[1e-3, 1000], δ in [1e-300, 0.5], Δ in {1, 2, 3, 7, 100} and both neighbour relations, with the
float profile on 20 001 points and the independent mpmath lattice sum at the worst ones, and stores
what it found in ``tests/data/discrete_gaussian_round_up.json``. Here: every stored ratio
δ(σ')/δ_target is at most 1, and the module still returns the stored σ₀ (so the data describe
this code). A small grid is also checked afresh with the float profile.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gaussmech_core.discrete_gaussian import discrete_gaussian_log_delta, discrete_gaussian_sigma

DATA = Path(__file__).resolve().parents[1] / "data" / "discrete_gaussian_round_up.json"


@pytest.fixture(scope="module")
def reference():
    return json.loads(DATA.read_text())


def test_the_stored_grid_is_the_promised_one(reference):
    rows = reference["rows"]
    assert {row["sensitivity"] for row in rows} == {1, 2, 3, 7, 100}
    assert {row["neighbours"] for row in rows} == {"add_remove", "replace"}
    assert min(row["epsilon"] for row in rows) == 1e-3 and max(row["epsilon"] for row in rows) == 1000.0
    assert min(row["delta"] for row in rows) == 1e-300 and max(row["delta"] for row in rows) == 0.5
    assert reference["summary"]["settings"] == len(rows)


def test_no_sigma_above_the_default_exceeds_the_target_by_mpmath(reference):
    for row in reference["rows"]:
        assert row["mpmath_worst_ratio"] <= 1.0, row
        assert row["float_worst_ratio"] <= 1.0, row
        assert row["sigma"] >= row["smallest_sigma"], row


def test_the_module_still_returns_the_stored_sigma(reference):
    rows = reference["rows"][::7]
    for neighbours in ("add_remove", "replace"):
        chosen = [row for row in rows if row["neighbours"] == neighbours]
        for sensitivity in {row["sensitivity"] for row in chosen}:
            group = [row for row in chosen if row["sensitivity"] == sensitivity]
            sigma = discrete_gaussian_sigma(
                np.array([row["epsilon"] for row in group]),
                np.array([row["delta"] for row in group]),
                sensitivity,
                neighbours,
            )
            np.testing.assert_allclose(sigma, [row["sigma"] for row in group], rtol=1e-12)


@pytest.mark.parametrize("neighbours", ["add_remove", "replace"])
@pytest.mark.parametrize("sensitivity", [1, 3])
def test_a_small_grid_afresh(sensitivity, neighbours):
    for epsilon in (0.3, 4.0, 30.0):
        for delta in (1e-200, 1e-3):
            sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
            larger = np.linspace(sigma, 2.0 * sigma, 4_001)
            assert np.max(discrete_gaussian_log_delta(epsilon, larger, sensitivity, neighbours)) <= math.log(delta)
