"""The denoising lab's discrete Gaussian: its σ is the safe σ₀ of its own neighbour relation.

The lab calibrates through the entry's ``histogram.calibrate`` with a neighbour model (add/remove:
one bin changes; replace: one record moves between two bins), and asks
``histogram.smallest_private_scale`` for the sentence it shows where the smallest private σ is
not safe to round up (docs/math.md section 9.7). Both must speak of the same relation, and the σ
released with must be the one from which every larger σ is private: checked here against the
mpmath-verified reference of ``tests/data/discrete_gaussian_round_up.json`` and afresh on a grid.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gaussmech_core.discrete_gaussian import discrete_gaussian_log_delta, discrete_gaussian_smallest_sigma
from gaussmech_core.histogram import NeighbourModel, neighbour_model, release_histogram
from gaussmech_core.mechanisms import MECHANISMS

DATA = Path(__file__).resolve().parents[1] / "data" / "discrete_gaussian_round_up.json"
RELEASE = MECHANISMS["discrete_gaussian"].histogram
CHANGED = {"add_remove": 1, "replace": 2}


def _model(neighbours: str, sensitivity: int = 1) -> NeighbourModel:
    return NeighbourModel(CHANGED[neighbours], float(sensitivity))


def test_the_lab_entry_answers_for_its_relation():
    assert RELEASE.smallest_private_scale is not None
    # Continuous noises' δ falls as their scale grows: they have no such answer.
    assert MECHANISMS["analytic_gaussian"].histogram.smallest_private_scale is None


@pytest.mark.parametrize("neighbours", ["add_remove", "replace"])
def test_the_released_sigma_is_the_stored_mpmath_checked_sigma(neighbours):
    rows = [row for row in json.loads(DATA.read_text())["rows"] if row["neighbours"] == neighbours]
    for row in rows[::16] + [row for row in rows if row["sigma"] > row["smallest_sigma"]]:
        model = _model(neighbours, row["sensitivity"])
        answer = RELEASE.smallest_private_scale(row["epsilon"], row["delta"], model, 2.0)
        released = float(RELEASE.calibrate(row["epsilon"], row["delta"], model, 2.0).scale)
        assert released == answer.safe_sigma, row
        assert released == pytest.approx(row["sigma"], rel=1e-12), row
        assert answer.smallest_sigma == pytest.approx(row["smallest_sigma"], rel=1e-9), row


@pytest.mark.parametrize(
    "epsilon, delta, neighbours",
    [(5.0, 0.01, "add_remove"), (20.0, 1e-10, "add_remove"), (8.0, 0.1, "replace"), (15.0, 1e-5, "replace")],
)
def test_every_sigma_above_the_released_one_is_private_and_some_below_are_not(epsilon, delta, neighbours):
    model = neighbour_model(neighbours)
    release = release_histogram([3, 0, 7], "discrete_gaussian", epsilon, delta, model, rng=0)
    sigma = float(release.calibration.scale)
    answer = RELEASE.smallest_private_scale(epsilon, delta, model, 2.0)
    assert sigma == answer.safe_sigma > answer.smallest_sigma
    above = np.linspace(sigma, 2.0 * sigma, 4001)
    assert np.all(discrete_gaussian_log_delta(epsilon, above, 1, neighbours) <= math.log(delta))
    # The sentence says "some larger σ do not": the end of the last interval is not private.
    worst = max(
        float(discrete_gaussian_log_delta(epsilon, np.linspace(low, high, 201), 1, neighbours).max())
        for low, high in answer.not_private
    )
    assert worst > math.log(delta)


def test_the_relation_changes_the_answer():
    add_remove = RELEASE.smallest_private_scale(8.0, 0.1, neighbour_model("add_remove"), 2.0)
    replace = RELEASE.smallest_private_scale(8.0, 0.1, neighbour_model("replace"), 2.0)
    assert replace == discrete_gaussian_smallest_sigma(8.0, 0.1, 1, "replace")
    assert add_remove == discrete_gaussian_smallest_sigma(8.0, 0.1, 1, "add_remove")
    assert replace.safe_sigma != add_remove.safe_sigma


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(0.05, 60.0),
    delta_exponent=st.floats(-30.0, -0.5),
    neighbours=st.sampled_from(["add_remove", "replace"]),
    sensitivity=st.integers(1, 3),
)
def test_the_answer_and_the_calibration_agree(epsilon, delta_exponent, neighbours, sensitivity):
    delta = 10.0**delta_exponent
    model = _model(neighbours, sensitivity)
    answer = RELEASE.smallest_private_scale(epsilon, delta, model, 2.0)
    assert answer.safe_sigma == float(RELEASE.calibrate(epsilon, delta, model, 2.0).scale)
    assert answer.smallest_sigma <= answer.safe_sigma


def test_a_query_the_discrete_gaussian_cannot_release_is_refused():
    with pytest.raises(ValueError, match="whole numbers"):
        RELEASE.smallest_private_scale(1.0, 1e-5, NeighbourModel(1, 0.5), 2.0)
    with pytest.raises(ValueError, match="whole numbers"):
        RELEASE.smallest_private_scale(1.0, 1e-5, NeighbourModel(3, 1.0), 2.0)
