"""gaussmech_ui.cached.distributions: the symmetric shortcut for densities agrees with the direct evaluation.

The Densities chart evaluates each density once per distinct |x| and mirrors it; that is exact only
because every registered noise is symmetric about 0, which the first test checks entry by entry.
"""

from __future__ import annotations

import numpy as np
import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached.distributions import DENSITY_POINTS, symmetric_grid, symmetric_pdf

SETTINGS = [
    Setting(1.0, 1e-5, dim=10),
    Setting(0.1, 1e-10, order=1.5, dim=3, data_lower=-2.0, data_upper=3.0),
    Setting(5.0, 1e-3, order=4.0, dim=50),
]


def _cases():
    return [
        pytest.param(key, setting, id=f"{key}-eps{setting.epsilon:g}-p{setting.order:g}")
        for setting in SETTINGS
        for key, mechanism in MECHANISMS.items()
        if mechanism.validity(setting).valid
    ]


def _points(mechanism, scale, setting):
    std = float(mechanism.coordinate_std(scale, setting))
    if mechanism.support == "integer":
        return np.arange(0.0, max(3.0, np.ceil(6 * std)) + 1)
    return std * np.array([1e-6, 0.01, 0.3, 1.0, 2.5, 6.0])


@pytest.mark.parametrize(("key", "setting"), _cases())
def test_every_registered_density_is_symmetric(key, setting):
    mechanism = MECHANISMS[key]
    scale = mechanism.scale(setting)
    x = _points(mechanism, scale, setting)
    right = np.asarray(mechanism.pdf(x, scale, setting), dtype=float)
    left = np.asarray(mechanism.pdf(-x, scale, setting), dtype=float)
    np.testing.assert_allclose(left, right, rtol=1e-14, atol=0.0)


@pytest.mark.parametrize(("key", "setting"), _cases())
def test_the_mirrored_density_is_the_density(key, setting):
    mechanism = MECHANISMS[key]
    scale = mechanism.scale(setting)
    half_width = 6.0 * float(mechanism.coordinate_std(scale, setting))
    x = symmetric_grid(half_width, 40)
    if mechanism.support == "integer":
        x = np.arange(-np.floor(half_width), np.floor(half_width) + 1)
    np.testing.assert_allclose(
        symmetric_pdf(mechanism, x, scale, setting),
        np.asarray(mechanism.pdf(x, scale, setting), dtype=float),
        rtol=1e-14,
        atol=0.0,
    )


@pytest.mark.parametrize("half_width", [1e-300, 1e-3, 1.0, 37.7, 1e300])
def test_the_symmetric_grid_is_linspace_to_an_ulp(half_width):
    grid = symmetric_grid(half_width, DENSITY_POINTS)
    assert grid.shape == (DENSITY_POINTS,) and np.all(grid == -grid[::-1]) and np.all(np.diff(grid) > 0)
    # linspace's own points carry a rounding of a few ulps of the half width (near 0 too)
    np.testing.assert_allclose(
        grid, np.linspace(-half_width, half_width, DENSITY_POINTS), rtol=0.0, atol=1e-15 * half_width
    )
    assert not np.any(grid == 0.0)  # an even count never hits x = 0 (R1SMG's density is infinite there)


def test_each_magnitude_is_evaluated_once():
    seen = []

    class Recorder:
        @staticmethod
        def pdf(x, scale, setting):
            seen.append(np.asarray(x).size)
            return np.exp(-np.abs(x))

    x = symmetric_grid(5.0, 800)
    values = symmetric_pdf(Recorder, x, 1.0, None)
    assert seen == [400] and values.shape == (800,)
    np.testing.assert_array_equal(values, np.exp(-np.abs(x)))


@pytest.mark.parametrize("l1_model", ["one_coordinate", "all_coordinates"])
@pytest.mark.parametrize("every_variant", [False, True])
def test_the_stds_alone_are_those_of_the_density_chart(l1_model, every_variant):
    import logging

    from gaussmech_ui.cached.distributions import coordinate_stds, density_curves

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    arguments = dict(epsilon=0.7, delta=1e-6, sensitivity=1.0, order=1.5, dim=10, l1_model=l1_model)
    _, stds, invalid = density_curves(**arguments, every_variant=every_variant, reference="analytic_gaussian")
    assert coordinate_stds(**arguments, every_variant=every_variant) == (stds, invalid)
