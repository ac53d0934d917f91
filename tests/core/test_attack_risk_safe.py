"""Attack risk asks the registry, and its inverse is safe to round up (issue 20, items 2 and 3).

* A scale given to ``mechanism_attack_risk`` is still the mechanism's noise at the setting: where
  the registry refuses the setting (a Δ that is not whole for the discrete Gaussian, every
  coordinate changing), the numbers are refused too, never another setting's numbers.
* ``scale_for_attack_limit`` returns a scale from which every larger scale meets the limit (the
  discrete Gaussian's TPR at a fixed FPR rises with σ on stretches), whatever the setting's ε.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gaussmech_core.attack_risk import attack_power_from_profile, mechanism_attack_risk, scale_for_attack_limit
from gaussmech_core.discrete_gaussian import discrete_gaussian_delta
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

BASE = Setting(epsilon=1.0, delta=1e-5)
REFUSED = [
    replace(BASE, sensitivity=1.5),  # a shift of 1.5 on Z: the Δ = 1 numbers would be wrong
    replace(BASE, sensitivity=2.7),
    replace(BASE, dim=5, l1_model="all_coordinates"),  # every coordinate changes
]


@pytest.mark.parametrize("setting", REFUSED)
def test_a_given_scale_is_refused_where_the_registry_refuses_the_setting(setting):
    entry = MECHANISMS["discrete_gaussian"]
    assert not entry.validity(setting).valid
    risk = mechanism_attack_risk(entry, setting, scale=1.0)
    assert risk.advantage is None and risk.true_positive_rates is None and risk.posteriors is None
    assert risk.reason == entry.validity(setting).reason


@pytest.mark.parametrize("setting", REFUSED)
def test_the_inverse_refuses_a_setting_the_noise_does_not_fit(setting):
    with pytest.raises(ValueError, match="Discrete Gaussian does not apply"):
        scale_for_attack_limit("discrete_gaussian", setting, advantage=0.1)
    with pytest.raises(ValueError, match="Discrete Gaussian does not apply"):
        scale_for_attack_limit("discrete_gaussian", setting, true_positive_rate=0.2, false_positive_rate=0.01)


def test_the_profile_never_truncates_the_sensitivity():
    entry = MECHANISMS["discrete_gaussian"]
    with pytest.raises(ValueError, match="sensitivity must be a whole number"):
        entry.privacy_profile(np.zeros(1), 1.0, replace(BASE, sensitivity=1.5))


def test_a_valid_setting_with_a_given_scale_gives_that_scale_numbers():
    risk = mechanism_attack_risk("discrete_gaussian", replace(BASE, sensitivity=2), scale=1.0)
    assert risk.advantage == pytest.approx(float(discrete_gaussian_delta(0.0, 1.0, 2)), rel=1e-12)


def _tpr(sigma, fpr):
    return attack_power_from_profile(fpr, lambda e: discrete_gaussian_delta(e, sigma))


@pytest.mark.parametrize("tpr, fpr", [(0.194, 0.01), (0.0802, 0.001), (0.1143, 0.001)])
def test_every_larger_sigma_holds_the_attack_and_epsilon_plays_no_part(tpr, fpr):
    # At these levels the TPR crosses the limit three times as σ grows (it rises between teeth).
    answers = {
        scale_for_attack_limit(
            "discrete_gaussian", replace(BASE, epsilon=e), true_positive_rate=tpr, false_positive_rate=fpr
        )
        for e in (0.5, 4.0)
    }
    assert len(answers) == 1
    sigma = answers.pop()
    larger = sigma * np.concatenate([[1.0, 1.0 + 1e-9, 1.0 + 1e-6], np.linspace(1.0, 1.6, 25)[1:]])
    # Risks are reported rounded up (issue 20, item 7), the inverse certifies against its own bound:
    # the two meet to 1e-11 relative (5.8e-12 measured at TPR 0.194).
    assert max(_tpr(s, fpr) for s in larger) <= tpr * (1.0 + 1e-11)
    # ...and it is the smallest such σ: just below it the attack does better than the limit.
    assert _tpr(sigma * (1.0 - 1e-6), fpr) > tpr


@pytest.mark.parametrize("mechanism_id", ["analytic_gaussian", "laplace", "discrete_gaussian"])
def test_the_answer_does_not_depend_on_the_settings_epsilon(mechanism_id):
    for limit in ({"advantage": 0.1}, {"true_positive_rate": 0.05, "false_positive_rate": 0.01}):
        answers = {scale_for_attack_limit(mechanism_id, replace(BASE, epsilon=e), **limit) for e in (0.3, 3.0)}
        assert len(answers) == 1
