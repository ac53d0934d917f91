"""The Training (DP-SGD) page's pure parts: inputs and budget, the claims, the figures.

Numbers in the claims tests come from the core at small, fast settings (q = 0.05, T ≤ 100).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from gaussmech_core import dpsgd
from gaussmech_ui import training
from gaussmech_ui.claims import dpsgd as claims, recording
from gaussmech_ui.figures import dpsgd as figures


def test_default_schedule_is_q_b_over_n_and_t_ceil_en_over_b():
    plan = training.schedule(60_000, 256, 10)
    assert plan.sampling_rate == 256 / 60_000
    assert plan.steps == math.ceil(10 * 60_000 / 256)


@pytest.mark.parametrize(
    "arguments, named",
    [
        ((100, 256, 10.0), "Batch size B = 256"),
        ((60_000, 256, 0.0), "Epochs E = 0"),
        ((60_000, 1, 10.0), "Epochs E = 10"),  # 600,000 steps: beyond the page's budget
    ],
)
def test_bad_inputs_name_the_input(arguments, named):
    with pytest.raises(training.InputProblem, match=named):
        training.schedule(*arguments)


def test_budget_refusal_points_to_the_command_line():
    with pytest.raises(training.InputProblem, match="python -m gaussmech_core dpsgd"):
        training.schedule(60_000, 1, 1.0)


def test_targets_beyond_the_budget_name_the_sidebar_input():
    training.check_target(training.MAX_EPSILON, training.MIN_DELTA)
    with pytest.raises(training.InputProblem, match="sidebar's ε = 51"):
        training.check_target(51.0, 1e-5)
    with pytest.raises(training.InputProblem, match="sidebar's δ = 1e-21"):
        training.check_target(1.0, 1e-21)
    training.check_target(1.0, training.MAX_DELTA)
    with pytest.raises(training.InputProblem, match="sidebar's δ = 0.5 is above 0.3"):
        training.check_target(1.0, 0.5)


def test_planner_axes_hold_the_current_setting_and_stay_within_n():
    plan = training.schedule(1_000, 600, 2)
    batches, epochs = training.planner_axes(plan)
    assert 600 in batches and 2.0 in epochs
    assert max(batches) == 1_000 and batches == sorted(set(batches))


def test_planner_cells_beyond_the_budget_are_none():
    plan = training.schedule(60_000, 256, 10)
    batches, epochs = training.planner_axes(plan)
    cells = training.planner_cells(plan, batches, epochs)
    for i, j, cell in training.flat_cells(cells):
        steps = training.steps_of(plan, batches[j], epochs[i])
        assert (cell is None) == (steps > training.STEP_BUDGET)
        if cell is not None:
            assert cell.steps == steps


def test_epoch_points_end_at_e():
    assert training.epoch_points(3.0, 3) == [1.0, 2.0, 3.0]


@given(st.floats(min_value=1e-300, max_value=1e300, allow_nan=False))
def test_round_up_never_below_and_round_down_never_above(value):
    assert claims.round_up(value) >= value
    assert claims.round_down(value) <= value


def _answer(epsilon=1.0, delta=1e-5, q=0.05, steps=100):
    calibration = dpsgd.dpsgd_sigma(epsilon, delta, q, steps)
    clt = dpsgd.dpsgd_clt_sigma(epsilon, delta, q, steps)
    at_clt = dpsgd.dpsgd_epsilon(clt, q, steps, delta)
    return dict(
        sigma=calibration.sigma,
        epsilon_low=calibration.epsilon_low,
        epsilon_high=calibration.epsilon_high,
        rdp_sigma=dpsgd.dpsgd_rdp_sigma(epsilon, delta, q, steps),
        clt_sigma=clt,
        rdp_epsilon=dpsgd.dpsgd_rdp_epsilon(calibration.sigma, q, steps, delta),
        clt_epsilon=dpsgd.dpsgd_clt_epsilon(calibration.sigma, q, steps, delta),
        clt_epsilon_low=at_clt.low,
        clt_epsilon_high=at_clt.high,
    )


@pytest.fixture(scope="module")
def answer():
    return _answer()


def test_answer_claim_rounds_sigma_up_and_states_the_noise_std(answer):
    with recording() as made:
        claim = claims.answer_claim(
            answer, epsilon=1.0, delta=1e-5, clipping_norm=2.0, steps=100, sampling_rate=0.05, shuffled=False
        )
    assert made == [claim] and claim.violations() == []
    assert claim.shown_sigma >= answer["sigma"]
    assert "σ·C" in claim.text and "Poisson" in claim.text


def test_answer_claim_rule_catches_a_sigma_rounded_down(answer):
    claim = claims.AnswerClaim(
        text="",
        sigma=answer["sigma"],
        shown_sigma=answer["sigma"] * 0.99,
        epsilon=1.0,
        delta=1e-5,
        epsilon_low=answer["epsilon_low"],
        epsilon_high=answer["epsilon_high"],
        clipping_norm=1.0,
        noise_std=answer["sigma"] * 0.99,
    )
    assert any("below the certified" in problem for problem in claim.violations())


def test_clt_claim_flags_unsafe_only_when_its_epsilon_low_exceeds_the_target(answer):
    claim = claims.clt_claim(answer, 1.0)
    assert claim.violations() == []
    if answer["clt_sigma"] < answer["sigma"] and answer["clt_epsilon_low"] > 1.0:
        assert claim.verdict == "unsafe" and "underestimates: unsafe" in claim.text
    forged = claims.AlternativeClaim(
        text="",
        accountant="CLT",
        sigma=0.5,
        certified_sigma=1.0,
        epsilon=1.0,
        epsilon_low_at_sigma=0.9,
        verdict="unsafe",
    )
    assert forged.violations()


def test_rdp_claim_is_loose_and_its_sigma_at_least_the_certified(answer):
    claim = claims.rdp_claim(answer)
    assert claim.verdict == "loose" and claim.violations() == []
    assert answer["rdp_sigma"] >= answer["sigma"]


def test_sampling_note_labels_shuffling_optimistic():
    assert training.SHUFFLING_LABEL in claims.sampling_note(True)
    assert "Poisson" in claims.sampling_note(False)


def test_attack_claim_numbers_are_upper_bounds(answer):
    risk = dpsgd.dpsgd_attack_risk(answer["sigma"], 0.05, 100, (0.001, 0.01), 0.5)
    numbers = dict(
        tpr_0001=risk.true_positive_rates[0.001],
        tpr_001=risk.true_positive_rates[0.01],
        advantage=risk.advantage,
        posterior=risk.posterior,
        prior=0.5,
    )
    claim = claims.attack_claim(numbers, shuffled=True)
    assert claim.violations() == [] and "optimistic" in claim.text
    assert set(claim.bounds) == {"tpr_0001", "tpr_001", "advantage", "posterior"}


def _band(sigma=1.0, q=0.05, delta=1e-5):
    steps = (25, 50, 100)
    return training.epsilon_band(sigma, delta, q, steps, tuple(count * q for count in steps))


def test_band_claim_counts_the_clt_below_epsilon_low():
    band = _band()
    claim = claims.band_claim(band, epochs=5.0)
    assert claim.violations() == []
    assert claim.clt_below == int((band["clt_epsilon"] < band["epsilon_low"]).sum())


def test_tighten_full_length_narrows_only_the_full_row():
    band = _band()
    narrowed = training.tighten_full_length(band, {"epsilon_low": 0.0, "epsilon_high": 0.1}, 100)
    assert narrowed["epsilon_high"].iloc[-1] == 0.1
    assert narrowed["epsilon_high"].iloc[0] == band["epsilon_high"].iloc[0]


def test_band_figure_names_poisson_and_delta():
    figure = figures.epsilon_band_figure(_band(), sigma=1.0, target=1.0, delta=1e-5, scheme="Poisson sampling")
    spec = json.loads(figure.to_json())
    assert "Poisson sampling" in spec["layout"]["title"]["text"] and "δ = 1e-5" in spec["layout"]["title"]["text"]
    assert [trace["name"] for trace in spec["data"]][:2] == [
        "ε_high (certified upper bound)",
        "ε_low (certified lower bound)",
    ]


def test_planner_claim_range_and_monotone_rule():
    sigmas = np.array([[0.5, 0.7], [0.6, np.nan]])
    claim = claims.planner_claim([64, 128], [1.0, 2.0], sigmas, steps=np.array([[10, 20], [20, 40]]), budget=30)
    assert claim.violations() == []
    assert claim.smallest == 0.5 and claim.largest == 0.7 and claim.monotone
    assert "1 cell left empty: more than 30 steps" in claim.text
    falling = claims.planner_claim([64, 128], [1.0, 2.0], np.array([[0.7, 0.5], [0.8, 0.9]]))
    assert not falling.monotone and "needs more noise" not in falling.text


def test_planner_figure_and_frame_keep_empty_cells_empty():
    sigmas = np.array([[0.5, np.nan]])
    figure = figures.planner_figure(
        [64, 128],
        [1.0],
        sigmas,
        epsilon=1.0,
        delta=1e-5,
        dataset_size=1000,
        current=(64, 1.0),
        scheme="Poisson sampling",
    )
    assert figure.data[0].text[0][1] == "—"
    frame = figures.planner_frame([64, 128], [1.0], sigmas, np.array([[10, 20]]))
    assert frame["sigma"].isna().tolist() == [False, True] and frame["steps"].tolist() == [10, 20]
