"""More noise is never less private: the discrete Gaussian's σ is safe to round up (docs/math.md 9.7).

δ(σ) is a sawtooth on the integer lattice, so the smallest private σ is not a σ one may round up
(at ε = 5, δ = 0.01 it is 0.3161, while σ = 0.479 has δ = 0.0725). These tests check the default
answer of ``discrete_gaussian_sigma`` (every larger σ is private), the bound over an interval that
proves it, and the explicit smallest σ with the intervals above it that are not private.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_core.discrete_gaussian as dg
from gaussmech_core.discrete_gaussian import (
    LatticeCalibration,
    discrete_gaussian_log_delta,
    discrete_gaussian_sigma,
    discrete_gaussian_smallest_sigma,
)

SAWTOOTH = [
    (5.0, 0.01, 1, "add_remove"),  # the example: 0.3161 is private, 0.479 is not
    (20.0, 1e-10, 1, "add_remove"),
    (1000.0, 1e-300, 100, "add_remove"),
    (37.25, math.exp(-435.5), 1, "replace"),
    (8.0, math.exp(-100.0), 1, "replace"),
]
FALLING = [
    (1.0, 1e-5, 1, "add_remove"),
    (1.0, 1e-5, 1, "replace"),
    (1e-3, 1e-300, 7, "add_remove"),
    (0.0, 0.3, 2, "replace"),
]


@pytest.mark.parametrize("epsilon, delta, sensitivity, neighbours", SAWTOOTH + FALLING)
def test_every_sigma_above_the_default_is_private(epsilon, delta, sensitivity, neighbours):
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    larger = np.linspace(sigma, 2.0 * sigma, 20_001)
    assert np.all(discrete_gaussian_log_delta(epsilon, larger, sensitivity, neighbours) <= math.log(delta))


@pytest.mark.parametrize("epsilon, delta, sensitivity, neighbours", SAWTOOTH + FALLING)
def test_the_default_is_the_smallest_such_sigma(epsilon, delta, sensitivity, neighbours):
    # Just below σ₀ some σ is not private (or within a hair of the target): σ₀ cannot be lowered.
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    below = np.linspace(sigma * (1.0 - 1e-7), sigma, 2_001)[:-1]
    worst = np.max(discrete_gaussian_log_delta(epsilon, below, sensitivity, neighbours))
    assert worst > math.log(delta) - 1e-9 * (1.0 + abs(math.log(delta)))


@pytest.mark.parametrize("epsilon, delta, sensitivity, neighbours", SAWTOOTH)
def test_smallest_sigma_comes_with_every_sigma_above_it_that_is_not_private(epsilon, delta, sensitivity, neighbours):
    answer = discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity, neighbours)
    assert isinstance(answer, LatticeCalibration) and answer.differs
    assert answer.safe_sigma == discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    target = math.log(delta)
    assert discrete_gaussian_log_delta(epsilon, answer.smallest_sigma, sensitivity, neighbours) <= target
    grid = np.linspace(answer.smallest_sigma, answer.safe_sigma, 50_001)
    not_private = discrete_gaussian_log_delta(epsilon, grid, sensitivity, neighbours) > target
    inside = np.zeros(grid.size, dtype=bool)
    for low, high in answer.not_private:
        assert answer.smallest_sigma <= low < high <= answer.safe_sigma
        inside |= (grid >= low) & (grid <= high)
    assert not np.any(not_private & ~inside)
    # ...and the intervals are not padded: each holds a σ that is not private.
    for low, high in answer.not_private:
        assert np.any(not_private[(grid >= low) & (grid <= high)])
    assert answer.not_private[-1][1] == pytest.approx(answer.safe_sigma, rel=1e-9)
    # The example: the σ the smallest answer invites rounding to is in an interval.
    if (epsilon, delta) == (5.0, 0.01):
        assert any(low <= 0.479 <= high for low, high in answer.not_private)


@pytest.mark.parametrize("epsilon, delta, sensitivity, neighbours", FALLING)
def test_where_delta_falls_with_sigma_the_two_answers_agree(epsilon, delta, sensitivity, neighbours):
    answer = discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity, neighbours)
    assert not answer.differs and answer.not_private == ()
    assert (
        answer.smallest_sigma == answer.safe_sigma == discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
    )


@settings(max_examples=60, deadline=None)
@given(
    epsilon=st.floats(0.0, 60.0),
    low=st.floats(0.05, 40.0),
    ratio=st.floats(1.0, 1.5),
    sensitivity=st.sampled_from([1, 2, 3, 7]),
    neighbours=st.sampled_from(["add_remove", "replace"]),
)
def test_the_bound_over_an_interval_holds_at_every_sigma_in_it(epsilon, low, ratio, sensitivity, neighbours):
    high = low * ratio
    flat = np.array([epsilon]), np.array([low]), np.array([high]), np.array([float(sensitivity)])
    bound = float(dg._log_delta_bound(*flat, neighbours)[0])
    inside = np.linspace(low, high, 401)
    exact = discrete_gaussian_log_delta(epsilon, inside, sensitivity, neighbours)
    assert np.all(exact <= bound + 1e-12 * (1.0 + abs(bound)))
    # At a point the bound is the profile itself.
    point = float(dg._log_delta_bound(flat[0], flat[1], flat[1], flat[3], neighbours)[0])
    assert point == pytest.approx(float(exact[0]), rel=1e-12, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(1.0, 60.0),
    log_delta=st.floats(-690.0, math.log(0.5)),
    sensitivity=st.sampled_from([1, 2, 3]),
    neighbours=st.sampled_from(["add_remove", "replace"]),
)
def test_rounding_the_default_up_never_loses_privacy(epsilon, log_delta, sensitivity, neighbours):
    sigma = discrete_gaussian_sigma(epsilon, math.exp(log_delta), sensitivity, neighbours)
    larger = sigma * np.linspace(1.0, 1.8, 4_001)
    assert np.all(discrete_gaussian_log_delta(epsilon, larger, sensitivity, neighbours) <= log_delta)


def test_smallest_sigma_takes_one_setting():
    with pytest.raises(ValueError, match="epsilon must be a scalar"):
        discrete_gaussian_smallest_sigma([1.0, 2.0], 1e-5)
    with pytest.raises(ValueError, match="delta"):
        discrete_gaussian_smallest_sigma(1.0, 1.5)
    with pytest.raises(ValueError, match="sensitivity"):
        discrete_gaussian_smallest_sigma(1.0, 1e-5, 1.5)


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(0.0, 40.0),
    log_delta=st.floats(-60.0, -0.1),
    sensitivity=st.integers(1, 5),
    neighbours=st.sampled_from(["add_remove", "replace"]),
)
def test_the_smallest_answer_carries_the_default_sigma_to_the_bit(epsilon, log_delta, sensitivity, neighbours):
    # The registry computes both answers in one call and takes its scale from it (one certified
    # scan per setting): that σ must be exactly the one discrete_gaussian_sigma returns.
    delta = math.exp(log_delta)
    answer = discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity, neighbours)
    assert answer.safe_sigma == discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours)
