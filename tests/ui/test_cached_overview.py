"""The Overview's calibration table: one mechanism's numbers shared by the table's two l1 models."""

from __future__ import annotations

import dataclasses
import math

import pytest

from gaussmech_core.mechanisms import MECHANISMS, evaluate
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached.arguments import setting_arguments
from gaussmech_ui.cached.overview import calibration_table, numbers_l1_model

SETTINGS = [
    Setting(epsilon=0.5, delta=1e-5, sensitivity=1.0, dim=1),
    Setting(epsilon=1.0, delta=1e-5, sensitivity=1.0, dim=10),
    Setting(epsilon=3.0, delta=1e-8, sensitivity=2.0, order=2.0, dim=50),
    Setting(epsilon=0.2, delta=1e-3, sensitivity=1.0, order=1.5, dim=1),
    Setting(epsilon=2.0, delta=1e-10, sensitivity=1.0, order=3.0, dim=200, data_lower=-1.0, data_upper=4.0),
]
MODELS = ("one_coordinate", "all_coordinates")


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return a == b or (math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}-p{s.order}")
@pytest.mark.parametrize("mechanism_id", [key for key, m in MECHANISMS.items() if m.sensitivity_norm != "l1"])
def test_numbers_of_a_calibration_not_to_the_l1_norm_do_not_read_the_l1_model(mechanism_id, setting):
    mechanism = MECHANISMS[mechanism_id]
    assert numbers_l1_model(mechanism, "all_coordinates") == "one_coordinate"
    one, every = (evaluate(mechanism, dataclasses.replace(setting, l1_model=model)) for model in MODELS)
    if not (one.validity.valid and every.validity.valid):
        pytest.skip("not valid under both models here: its numbers are not shared")
    for field in ("scale", "coordinate_std", "expected_loss", "true_delta"):
        assert _same(getattr(one, field), getattr(every, field)), field
    profile = [float(mechanism.privacy_profile(setting.epsilon, one.scale, c.setting)) for c in (one, every)]
    assert profile[0] == profile[1]


def test_the_l1_calibration_keeps_its_own_model():
    assert numbers_l1_model(MECHANISMS["laplace"], "all_coordinates") == "all_coordinates"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}-p{s.order}")
def test_table_rows_are_the_registry_calibrations_under_either_model(setting, model):
    setting = dataclasses.replace(setting, l1_model=model)
    table = calibration_table(**setting_arguments(setting))
    for mechanism_id, mechanism in MECHANISMS.items():
        row = table.loc[mechanism_id]
        calibration = evaluate(mechanism, setting)
        assert bool(row["valid"]) == calibration.validity.valid, mechanism_id
        assert row["reason"] == calibration.validity.reason, mechanism_id
        if calibration.validity.valid:
            for field in ("scale", "coordinate_std", "expected_loss"):
                assert row[field] == getattr(calibration, field), (mechanism_id, field)
            true_delta = calibration.true_delta
            if true_delta is None:
                true_delta = float(mechanism.privacy_profile(setting.epsilon, calibration.scale, setting))
            assert _same(float(row["true_delta"]), true_delta), mechanism_id


def test_numbers_are_shared_by_settings_that_differ_only_in_what_a_mechanism_ignores(monkeypatch):
    """After one table, a table at a new d recalibrates only the mechanisms whose scale reads d."""
    import gaussmech_ui.cached.overview as overview

    overview.calibrated_numbers.clear()
    base = Setting(epsilon=0.9, delta=1e-6, sensitivity=1.0, dim=7)
    calibration_table(**setting_arguments(base))
    evaluated = []

    def counting_evaluate(mechanism, setting):
        evaluated.append(mechanism.id)
        return evaluate(mechanism, setting)

    monkeypatch.setattr(overview, "evaluate", counting_evaluate)
    wider = dataclasses.replace(base, dim=70)
    table = calibration_table(**setting_arguments(wider))
    assert evaluated, "the mechanisms that read d were recalibrated"
    assert all(MECHANISMS[key].scale_depends_on_dim for key in evaluated), evaluated
    for key, mechanism in MECHANISMS.items():  # and the shared rows are this setting's own numbers
        if mechanism.validity(wider).valid:
            assert table.loc[key, "expected_loss"] == evaluate(mechanism, wider).expected_loss, key
