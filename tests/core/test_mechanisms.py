"""The registry: every mechanism is consistent with itself and honest about its guarantee."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from scipy import integrate

import gaussmech_core.mechanisms as mechanisms_module
from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS, calibrate_all, evaluate
from gaussmech_core.registry_types import Setting

SETTINGS = [
    Setting(epsilon=0.5, delta=1e-5, sensitivity=1.0, order=2.0, dim=1),
    Setting(epsilon=1.0, delta=1e-5, sensitivity=2.0, order=3.0, dim=10),
    Setting(epsilon=0.1, delta=1e-10, sensitivity=1.0, order=1.5, dim=5, l1_model="all_coordinates"),
    Setting(epsilon=5.0, delta=1e-3, sensitivity=0.5, order=1.0, dim=100),
]


def test_registry_ids_and_required_entries():
    expected = {
        "classical_gaussian",
        "analytic_gaussian",
        "gaussian_tail_bound",
        "gaussian_pdp",
        "gaussian_zcdp_bs",
        "gaussian_zcdp_cks",
        "gaussian_vinterbo",
        "laplace",
        "generalized_gaussian",
        "generalized_gaussian_pdp",
        "mvg_iid",
        "r1smg",
        "truncated_gg",
        "bit_gg",
        "discrete_gaussian",
    }
    assert set(MECHANISMS) == expected
    for mechanism_id, mechanism in MECHANISMS.items():
        assert mechanism.id == mechanism_id
        assert mechanism.guarantee in {"pure", "approximate", "probabilistic", "claimed"}
        assert mechanism.color.startswith("#") and len(mechanism.color) == 7
    assert len({m.color for m in MECHANISMS.values()}) == len(MECHANISMS), "colours must tell mechanisms apart"


def test_r1smg_is_claimed_and_never_default():
    r1smg = MECHANISMS["r1smg"]
    assert r1smg.guarantee == "claimed"
    assert not r1smg.is_default
    assert DEFAULT_MECHANISM_ID == "analytic_gaussian"
    assert [m.id for m in MECHANISMS.values() if m.is_default] == ["analytic_gaussian"]


def test_classical_gaussian_is_not_a_number_at_large_epsilon():
    calibration = evaluate("classical_gaussian", Setting(epsilon=1.0, delta=1e-5))
    assert not calibration.validity.valid
    assert calibration.scale is None and calibration.expected_loss is None
    assert "not a theorem" in calibration.validity.reason.lower()
    assert evaluate("classical_gaussian", Setting(epsilon=0.5, delta=1e-5)).scale == pytest.approx(9.68961, rel=1e-5)


def test_analytic_gaussian_reference_value():
    calibration = evaluate("analytic_gaussian", Setting(epsilon=1.0, delta=1e-5, sensitivity=1.0, dim=7))
    assert calibration.scale == pytest.approx(3.730631634816, rel=1e-11)
    assert calibration.expected_loss == pytest.approx(7 * 3.730631634816**2, rel=1e-11)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}-p{s.order}")
def test_every_valid_calibration_meets_its_delta(setting):
    """The true δ(ε) of each calibrated noise is within the target, except for 'claimed' mechanisms."""
    for calibration in calibrate_all(setting):
        mechanism = calibration.mechanism
        if not calibration.validity.valid:
            assert calibration.validity.reason, f"{mechanism.id} is invalid without a reason"
            continue
        assert calibration.scale > 0 and math.isfinite(calibration.scale)
        true_delta = float(mechanism.privacy_profile(np.float64(setting.epsilon), calibration.scale, setting))
        if mechanism.guarantee == "claimed":
            assert calibration.true_delta == pytest.approx(true_delta)
            continue
        if mechanism.guarantee == "pure":
            assert true_delta == 0.0
        else:
            assert true_delta <= setting.delta, mechanism.id


@pytest.mark.parametrize("mechanism_id", sorted(MECHANISMS))
def test_density_tail_and_sampler_agree(mechanism_id):
    mechanism = MECHANISMS[mechanism_id]
    setting = Setting(epsilon=0.8, delta=1e-4, sensitivity=1.0, order=2.5, dim=6)
    calibration = evaluate(mechanism, setting)
    assert calibration.validity.valid
    scale, std = calibration.scale, calibration.coordinate_std
    # The density integrates to one and its tail matches the tail function.
    if mechanism.support == "integer":  # a pmf on the integers: its sum, and its tail as a sum
        k = np.arange(-int(60 * std) - 10, int(60 * std) + 11, dtype=float)
        pmf = np.asarray(mechanism.pdf(k, scale, setting), dtype=float)
        assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
        t = 1.3 * std
        assert float(mechanism.tail(np.array(t), scale, setting)) == pytest.approx(pmf[np.abs(k) > t].sum(), rel=1e-9)
        samples = mechanism.sample(np.random.default_rng(20261129), 40_000, scale, setting)
        assert samples.shape == (40_000, setting.dim) and np.array_equal(samples, np.round(samples))
        loss = np.sum(samples**2, axis=1)
        assert abs(loss.mean() - calibration.expected_loss) < 5 * loss.std(ddof=1) / math.sqrt(loss.size)
        return
    total, _ = integrate.quad(lambda x: float(mechanism.pdf(np.array(x), scale, setting)), -np.inf, np.inf, limit=200)
    if mechanism.atoms is not None:  # point masses beside the density (the BIT GG's bounds)
        total += float(np.sum(mechanism.atoms(scale, setting)[1]))
    assert total == pytest.approx(1.0, abs=2e-4)
    t = 1.3 * std
    tail_from_density, _ = integrate.quad(
        lambda x: float(mechanism.pdf(np.array(x), scale, setting)), t, np.inf, limit=200
    )
    assert float(mechanism.tail(np.array(t), scale, setting)) == pytest.approx(
        2 * tail_from_density, rel=2e-3, abs=1e-6
    )
    # Samples have the stated shape, coordinate standard deviation and expected loss.
    rng = np.random.default_rng(20261129)
    samples = mechanism.sample(rng, 40_000, scale, setting)
    assert samples.shape == (40_000, setting.dim)
    loss = np.sum(samples**2, axis=1)
    standard_error = loss.std(ddof=1) / math.sqrt(loss.size)
    assert abs(loss.mean() - calibration.expected_loss) < 5 * standard_error
    empirical_tail = np.mean(np.abs(samples[:, 0]) > t)
    expected_tail = float(mechanism.tail(np.array(t), scale, setting))
    # (<=: beyond a bounded noise's support both are exactly 0.)
    assert abs(empirical_tail - expected_tail) <= 5 * math.sqrt(expected_tail * (1 - expected_tail) / samples.shape[0])
    if mechanism.norm_tail is not None:
        radius = math.sqrt(calibration.expected_loss)
        empirical = np.mean(np.sqrt(loss) > radius)
        expected = float(mechanism.norm_tail(np.array(radius), scale, setting))
        assert abs(empirical - expected) < 5 * math.sqrt(expected * (1 - expected) / loss.size)


def test_r1smg_true_delta_exceeds_claim_in_high_dimension():
    calibration = evaluate("r1smg", Setting(epsilon=1.0, delta=1e-5, dim=100))
    assert calibration.validity.valid
    assert calibration.true_delta > 0.9
    assert calibration.claim_holds is False


def test_generalized_gaussian_refuses_inexact_settings():
    setting = Setting(epsilon=1.0, delta=1e-5, order=3.0, dim=10, l1_model="all_coordinates")
    calibration = evaluate("generalized_gaussian", setting)
    assert not calibration.validity.valid and calibration.scale is None


def test_mvg_shape_must_match_dimension():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=6, mvg_shape=(2, 4))
    assert not evaluate("mvg_iid", setting).validity.valid
    setting = Setting(epsilon=1.0, delta=1e-5, dim=100, mvg_shape=(10, 10), mvg_gamma=0.5)
    assert evaluate("mvg_iid", setting).expected_loss == pytest.approx(3.1e9, rel=0.05)


def test_laplace_follows_the_l1_model():
    one = evaluate("laplace", Setting(epsilon=1.0, delta=1e-5, dim=16, l1_model="one_coordinate"))
    every = evaluate("laplace", Setting(epsilon=1.0, delta=1e-5, dim=16, l1_model="all_coordinates"))
    assert one.scale == pytest.approx(1.0)
    assert every.scale == pytest.approx(4.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(epsilon=-1, delta=1e-5),
        dict(epsilon=1, delta=1.0),
        dict(epsilon=1, delta=0.0),
        dict(epsilon=float("nan"), delta=1e-5),
        dict(epsilon=1, delta=1e-5, dim=0),
        dict(epsilon=1, delta=1e-5, order=0.5),
        dict(epsilon=1, delta=1e-5, sensitivity=0),
    ],
)
def test_setting_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        Setting(**kwargs)


def test_setting_rejects_strings():
    with pytest.raises(TypeError):
        Setting(epsilon="1", delta=1e-5)


def test_extreme_settings_evaluate_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for epsilon in (0.0, 1e-6, 1e3):
            for delta in (1e-300, 0.5):
                for calibration in calibrate_all(Setting(epsilon=epsilon, delta=delta, dim=1000, order=2.0)):
                    if calibration.scale is not None:
                        assert math.isfinite(calibration.scale) and calibration.scale > 0


def test_doctests():
    result = doctest.testmod(mechanisms_module)
    assert result.failed == 0


@pytest.mark.parametrize("mechanism_id", sorted(MECHANISMS))
def test_vectorized_std_over_epsilon_matches_one_call_per_epsilon(mechanism_id):
    from dataclasses import replace

    from gaussmech_core.mechanisms import coordinate_std_over_epsilon

    setting = Setting(epsilon=1.0, delta=1e-6, sensitivity=1.5, order=2.5, dim=12)
    epsilons = np.array([0.0, 1e-3, 0.3, 0.99, 1.0, 7.0, 500.0])
    stds = coordinate_std_over_epsilon(mechanism_id, epsilons, setting)
    for epsilon, std in zip(epsilons, stds):
        calibration = evaluate(mechanism_id, replace(setting, epsilon=float(epsilon)))
        if calibration.coordinate_std is None:
            assert np.isnan(std)
        else:
            assert std == pytest.approx(calibration.coordinate_std, rel=1e-12)


@pytest.mark.parametrize("epsilon, delta", [(1.0, 1e-5), (5.0, 0.01), (20.0, 1e-10)])
def test_discrete_gaussian_scale_and_round_up_answer_share_one_safe_sigma(epsilon, delta):
    from gaussmech_core.discrete_gaussian import discrete_gaussian_sigma, discrete_gaussian_smallest_sigma
    from gaussmech_core.histogram import NeighbourModel

    entry = MECHANISMS["discrete_gaussian"]
    setting = Setting(epsilon=epsilon, delta=delta, sensitivity=1.0, dim=3)
    answer = entry.smallest_private_scale(setting)
    assert answer == discrete_gaussian_smallest_sigma(epsilon, delta, 1)
    assert entry.scale(setting) == answer.safe_sigma == discrete_gaussian_sigma(epsilon, delta, 1)
    for changed, relation in ((1, "add_remove"), (2, "replace")):
        model = NeighbourModel(changed, 1.0)
        released = entry.histogram.calibrate(epsilon, delta, model, 2.0).scale
        assert float(released) == discrete_gaussian_sigma(epsilon, delta, 1, neighbours=relation)
        assert entry.histogram.smallest_private_scale(epsilon, delta, model, 2.0).safe_sigma == float(released)
    # Arrays of ε still calibrate in one vectorized call.
    many = entry.histogram.calibrate(np.array([epsilon, 2 * epsilon]), delta, NeighbourModel(1, 1.0), 2.0).scale
    assert np.array_equal(many, discrete_gaussian_sigma([epsilon, 2 * epsilon], delta, 1))
