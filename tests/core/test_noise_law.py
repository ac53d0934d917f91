"""The registry's fact "these two entries draw the same noise" (NoiseLaw), checked on the numbers it replaces.

A ranking ties two entries only when their laws are equal (DESIGN.md section 3); here every pair,
at every order p and both neighbour models, is checked: equal laws mean equal calibrated noise
(scale and standard deviation to floating-point accuracy), and entries whose noise differs by more
never share a law.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import LAW_NAMES, NoiseLaw, Setting

PAIRS = list(itertools.combinations(MECHANISMS, 2))


def _std(mechanism, setting):
    return float(mechanism.coordinate_std(mechanism.scale(setting), setting))


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(0.05, 20.0),
    log10_delta=st.floats(-12.0, -0.6),
    order=st.sampled_from([1.0, 1.5, 2.0, 4.0]),
    dim=st.sampled_from([1, 10, 100]),
    model=st.sampled_from(["one_coordinate", "all_coordinates"]),
)
def test_equal_laws_mean_equal_noise_for_every_pair(epsilon, log10_delta, order, dim, model):
    setting = Setting(epsilon=epsilon, delta=10.0**log10_delta, order=order, dim=dim, l1_model=model)
    for first, second in PAIRS:
        a, b = MECHANISMS[first], MECHANISMS[second]
        if not (a.validity(setting).valid and b.validity(setting).valid):
            continue
        same = a.draws_same_noise(b, setting)
        assert same == b.draws_same_noise(a, setting)
        ratio = _std(a, setting) / _std(b, setting)
        if same:
            assert math.isclose(ratio, 1.0, rel_tol=1e-9), (first, second, setting, ratio)
            assert a.family == b.family or {a.family, b.family} <= {"gaussian", "laplace", "generalized_gaussian"}


@pytest.mark.parametrize(
    "order, pairs",
    [
        (1.0, {("laplace", "generalized_gaussian_pdp")}),
        (1.5, set()),
        (2.0, {("analytic_gaussian", "generalized_gaussian"), ("gaussian_pdp", "generalized_gaussian_pdp")}),
        (4.0, set()),
    ],
)
def test_the_pairs_that_draw_the_same_noise(order, pairs):
    setting = Setting(epsilon=1.0, delta=1e-5, order=order, dim=10)
    found = {(a, b) for a, b in PAIRS if MECHANISMS[a].draws_same_noise(MECHANISMS[b], setting)}
    assert found == pairs


def test_gg_at_p_1_is_laplace_noise_at_another_scale():
    """GG(1) on its (ε, δ) profile draws Laplace noise, but not the pure-ε Laplace mechanism's scale."""
    setting = Setting(epsilon=1.0, delta=1e-5, order=1.0, dim=10)
    gg, laplace = MECHANISMS["generalized_gaussian"], MECHANISMS["laplace"]
    assert gg.law_at(setting).law == laplace.law_at(setting).law == "Laplace"
    assert not gg.draws_same_noise(laplace, setting)
    assert gg.scale(setting) < laplace.scale(setting)


def test_an_entry_without_a_declared_law_has_its_own_calibration():
    setting = Setting(epsilon=1.0, delta=1e-5)
    entry = MECHANISMS["classical_gaussian"].law_at(setting)
    assert entry == NoiseLaw(LAW_NAMES["gaussian"], entry.calibration)
    assert not MECHANISMS["classical_gaussian"].draws_same_noise(MECHANISMS["analytic_gaussian"], setting)
