"""gaussmech_ui.cached.tails: bounds and draws shared by both neighbour models are the ones each would compute.

The Tail probabilities page asks for every bound under the sidebar's neighbour model and under the
other one (for its caption). At a given scale the noise's law does not read the model, so the two
share each bound and each Monte Carlo draw; the first test is the contract that makes that exact.
"""

from __future__ import annotations

import dataclasses
import logging

import numpy as np
import pytest

from gaussmech_core import tails
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached import tails as cached

logging.getLogger("streamlit").setLevel(logging.ERROR)  # "No runtime found" outside a server

BASE = Setting(epsilon=1.0, delta=1e-5, sensitivity=1.0, order=1.5, dim=5, data_lower=-1.0, data_upper=2.0)
ARGS = dict(
    epsilon=BASE.epsilon,
    delta=BASE.delta,
    sensitivity=BASE.sensitivity,
    order=BASE.order,
    dim=BASE.dim,
    data_lower=BASE.data_lower,
    data_upper=BASE.data_upper,
)


@pytest.mark.parametrize("key", list(MECHANISMS))
def test_the_noise_at_a_given_scale_does_not_read_the_neighbour_model(key):
    mechanism = MECHANISMS[key]
    one, every = (dataclasses.replace(BASE, l1_model=model) for model in ("one_coordinate", "all_coordinates"))
    scale = 0.8 if mechanism.family != "r1smg" else 3.0
    t = np.array([0.0, 0.1, 0.7, 2.0, 9.0])
    np.testing.assert_array_equal(mechanism.log_tail(t, scale, one), mechanism.log_tail(t, scale, every))
    np.testing.assert_array_equal(mechanism.pdf(t + 0.05, scale, one), mechanism.pdf(t + 0.05, scale, every))
    if mechanism.coordinate_quantile is not None:
        alpha = np.array([0.1, 1e-6])
        np.testing.assert_array_equal(
            mechanism.coordinate_quantile(alpha, scale, one), mechanism.coordinate_quantile(alpha, scale, every)
        )
    if mechanism.log_norm_tail is not None:
        np.testing.assert_array_equal(mechanism.log_norm_tail(t, scale, one), mechanism.log_norm_tail(t, scale, every))
    draws = [mechanism.sample(np.random.default_rng(3), 50, scale, setting) for setting in (one, every)]
    np.testing.assert_array_equal(*draws)


def test_shared_bounds_are_the_direct_bounds():
    cached._error_bound.clear()
    for model in ("one_coordinate", "all_coordinates"):
        setting = dataclasses.replace(BASE, l1_model=model)
        frame = cached.coordinate_bounds(**ARGS, l1_model=model, every_variant=True, alpha=0.01)
        for key, row in frame.iterrows():
            mechanism = MECHANISMS[key]
            assert row["bound"] == float(
                tails.coordinate_error_bound(mechanism, mechanism.scale(setting), setting, 0.01)
            )
        norms = cached.norm_bounds(**ARGS, l1_model=model, every_variant=True, alpha=0.01)
        for key, row in norms.iterrows():
            mechanism = MECHANISMS[key]
            if row["method"] == "exact":
                assert row["bound"] == float(tails.norm_error_bound(mechanism, mechanism.scale(setting), setting, 0.01))


def test_monte_carlo_norms_are_the_seeded_draws_under_either_model():
    key = "generalized_gaussian"  # calibrated to Δ₂: the same scale under both models (valid for both at p = 2)
    mechanism = MECHANISMS[key]
    arguments = {**ARGS, "order": 2.0}
    first = cached.monte_carlo_norms(key, **arguments, l1_model="one_coordinate")
    second = cached.monte_carlo_norms(key, **arguments, l1_model="all_coordinates")
    np.testing.assert_array_equal(first, second)
    setting = dataclasses.replace(BASE, order=2.0)
    rng = cached.mechanism_rng(cached.MONTE_CARLO_SEED, key)
    vectors = cached.monte_carlo_vectors(setting.dim)
    direct = np.sort(np.linalg.norm(mechanism.sample(rng, vectors, mechanism.scale(setting), setting), axis=1))
    np.testing.assert_allclose(first, direct, rtol=1e-15)
