"""Every registry entry says what a page or the release lab needs (the seam, DESIGN.md section 2)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from gaussmech_core import histogram, loss
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import NOISE_FAMILIES, SENSITIVITY_NORMS, Setting

SETTING = Setting(epsilon=0.7, delta=1e-6, sensitivity=1.3, order=3.0, dim=5)


def _valid_entries(setting=SETTING):
    return [(key, m) for key, m in MECHANISMS.items() if m.validity(setting).valid]


@pytest.mark.parametrize("key", list(MECHANISMS))
def test_every_entry_speaks_the_one_vocabulary(key):
    mechanism = MECHANISMS[key]
    assert mechanism.family in NOISE_FAMILIES
    assert mechanism.sensitivity_norm in SENSITIVITY_NORMS
    assert mechanism.support in ("continuous", "integer")
    assert (mechanism.norm_tail is None) == (mechanism.log_norm_tail is None)
    if mechanism.guarantee == "pure":
        assert not mechanism.uses_delta, "a pure ε-DP calibration has no δ"


@pytest.mark.parametrize("key", [key for key, _ in _valid_entries()])
def test_log_tails_are_the_logs_of_the_tails(key):
    mechanism = MECHANISMS[key]
    scale = mechanism.scale(SETTING)
    std = mechanism.coordinate_std(scale, SETTING)
    t = np.array([0.1, 1.0, 3.0]) * std
    np.testing.assert_allclose(
        mechanism.log_tail(t, scale, SETTING), np.log(mechanism.tail(t, scale, SETTING)), rtol=1e-9
    )
    if mechanism.norm_tail is not None:
        r = np.array([0.5, 1.0, 2.0]) * math.sqrt(mechanism.expected_loss(scale, SETTING))
        np.testing.assert_allclose(
            mechanism.log_norm_tail(r, scale, SETTING), np.log(mechanism.norm_tail(r, scale, SETTING)), rtol=1e-9
        )


@pytest.mark.parametrize("key", [key for key, _ in _valid_entries()])
def test_the_coordinate_sampler_has_the_coordinate_std(key):
    mechanism = MECHANISMS[key]
    scale = mechanism.scale(SETTING)
    draws = mechanism.coordinate_sample(np.random.default_rng(11), 40_000, scale, SETTING)
    assert draws.shape == (40_000,)
    std = mechanism.coordinate_std(scale, SETTING)
    # Relative standard error of a sample std is below sqrt((κ - 1)/(4n)); κ <= 20 for every entry here.
    assert abs(draws.std() / std - 1) < 5 * math.sqrt(19 / (4 * 40_000))


@pytest.mark.parametrize("key", [key for key, _ in _valid_entries()])
def test_the_loss_summary_mean_is_the_expected_loss(key):
    mechanism = MECHANISMS[key]
    scale = mechanism.scale(SETTING)
    summary = mechanism.loss_summary(scale, SETTING, (0.05, 0.5, 0.95), 20_000)
    assert isinstance(summary, loss.LossSummary)
    assert summary.mean == pytest.approx(mechanism.expected_loss(scale, SETTING), rel=1e-12)
    assert summary.quantiles[0.05] <= summary.median <= summary.quantiles[0.95]


def test_the_iid_loss_summary_scales_with_b_squared():
    laplace = MECHANISMS["laplace"]
    one = laplace.loss_summary(1.0, SETTING, (0.5,), 20_000)
    three = laplace.loss_summary(3.0, SETTING, (0.5,), 20_000)
    assert three.quantiles[0.5] == pytest.approx(9 * one.quantiles[0.5], rel=1e-14)
    assert three.skewness == one.skewness


def _numbers(mechanism, setting):
    """What the UI's caches share: the scale, the per-coordinate std, and δ(ε) of the calibrated noise."""
    scale = mechanism.scale(setting)
    profile = float(mechanism.privacy_profile(np.float64(setting.epsilon), scale, setting))
    return scale, mechanism.coordinate_std(scale, setting), profile


@pytest.mark.parametrize(
    "base",
    [
        SETTING,
        dataclasses.replace(SETTING, epsilon=0.3, delta=1e-8, order=1.5, dim=4),
        dataclasses.replace(SETTING, epsilon=4.0, delta=1e-3, sensitivity=2.0, order=3.0, dim=20),
    ],
)
def test_the_flags_say_how_each_calibration_reads_the_setting(base):
    """A parameter an entry says it does not read leaves its scale and per-coordinate std unchanged.

    The UI's caches rely on this (gaussmech_ui.cached.arguments.arguments_read_by): they key a
    mechanism's numbers only on the parameters it reads.
    """
    unread = {
        "uses_delta": dict(delta=1e-3 if base.delta != 1e-3 else 1e-7),
        "uses_order": dict(order=2.0 if base.order != 2.0 else 1.3),
        "scale_depends_on_dim": dict(dim=50, mvg_shape=None),
        "uses_bounds": dict(data_lower=-2.0, data_upper=5.0),
    }
    for key, mechanism in MECHANISMS.items():
        if not mechanism.validity(base).valid:
            continue
        numbers = _numbers(mechanism, base)
        changes = [change for flag, change in unread.items() if not getattr(mechanism, flag)]
        if mechanism.sensitivity_norm != "l1":
            other = "all_coordinates" if base.l1_model == "one_coordinate" else "one_coordinate"
            changes.append(dict(l1_model=other))
        for change in changes:
            other_setting = dataclasses.replace(base, **change)
            if mechanism.validity(other_setting).valid:
                assert _numbers(mechanism, other_setting) == numbers, (key, change)
    assert MECHANISMS["laplace"].sensitivity_norm == "l1" and not MECHANISMS["laplace"].uses_delta


def test_release_mechanisms_are_the_entries_with_a_histogram_release():
    assert histogram.release_mechanisms() == tuple(k for k, m in MECHANISMS.items() if m.can_release_histogram)
    for key in histogram.release_mechanisms():
        calibration = histogram.calibrate_histogram_noise(key, 0.5, 1e-5, "replace", order=3.0)
        expected = {"l1": "Δ₁", "l2": "Δ₂", "integer_l2": "Δ₂"}[MECHANISMS[key].sensitivity_norm]
        assert calibration.sensitivity_symbol in (expected, "Δ"), key
        assert math.isnan(calibration.delta) == (not MECHANISMS[key].uses_delta)


def test_a_mechanism_without_a_histogram_release_is_refused_by_name():
    with pytest.raises(ValueError, match="mechanism"):
        histogram.calibrate_histogram_noise("r1smg", 0.5, 1e-5, "replace")
