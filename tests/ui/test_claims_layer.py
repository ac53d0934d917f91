"""The Overview's reasons and its failed-claim warning are typed claims whose rules catch wrong numbers (issue 21)."""

from __future__ import annotations

import math

import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached.arguments import setting_arguments
from gaussmech_ui.cached.overview import calibration_table
from gaussmech_ui.claims import recording
from gaussmech_ui.claims.reasons import ExcessClaim, FailedClaim, RatioClaim, excess_range, failed_claim, ratio_clause
from gaussmech_ui.figures.overview import claim_warnings, why_sentences


def _frame(setting: Setting):
    return calibration_table(**setting_arguments(setting))


@pytest.mark.parametrize(
    "setting",
    [
        Setting(epsilon=1.0, delta=1e-5, dim=10),
        Setting(epsilon=0.3, delta=1e-8, dim=100, order=1.5, l1_model="all_coordinates"),
        Setting(epsilon=8.0, delta=1e-3, dim=1, order=4.0),
    ],
    ids=["default", "all-coordinates", "d=1"],
)
def test_every_clause_of_the_why_sentence_is_a_recorded_claim_that_holds(setting):
    frame = _frame(setting)
    with recording() as claims:
        text = why_sentences(frame, MECHANISMS, setting)
    reasons = [claim for claim in claims if claim.kind in ("ratio", "excess", "failed claim")]
    assert reasons, "the reasons are claims"
    for claim in reasons:
        assert claim.text in text, claim.text
        assert claim.violations() == [], (claim.text, claim.violations())


def test_the_failed_claim_warning_carries_the_two_deltas_that_make_it_true():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=10)  # R1SMG's claim fails from d = 4 on
    with recording() as claims:
        warnings = claim_warnings(_frame(setting), MECHANISMS, setting)
    failed = [claim for claim in claims if isinstance(claim, FailedClaim)]
    assert warnings and len(failed) == len(warnings)
    assert all(claim.true_delta > claim.claimed_delta == setting.delta for claim in failed)
    assert all(claim.violations() == [] for claim in failed)


def test_the_rules_refuse_numbers_that_do_not_back_the_text():
    assert RatioClaim(text="Laplace has 2× the error", value=3.0, reference_value=1.0).violations()
    assert RatioClaim(
        text="here Δ₁ = 2, 3× the error", value=3.0, reference_value=1.0, quoted=(("Δ₁", 3.16),)
    ).violations(), "a quoted number that is not the setting's"
    assert ExcessClaim(text="add 5% more error", excesses=(-0.05,)).violations(), "less is not more"
    assert ExcessClaim(text="add 5% more error", excesses=(0.05, 0.5)).violations(), "the range is 5–50%"
    assert FailedClaim(text="its claim fails", claimed_delta=1e-5, true_delta=1e-6).violations()
    assert FailedClaim(text="its claim fails", claimed_delta=1e-5, true_delta=math.nan).violations()


def test_the_builders_write_what_their_claims_check():
    with recording() as claims:
        ratio = ratio_clause("Laplace has ", " the error", value=1.0, reference_value=4.0)
        excess = excess_range("they add ", " more error", [0.03, 0.25])
        failed = failed_claim("R1SMG's claim fails here", claimed_delta=1e-5, true_delta=0.2)
    assert ratio == "Laplace has 0.25× the error"
    assert excess == "they add 3%–25% more error"
    assert failed == "R1SMG's claim fails here"
    assert [claim.violations() for claim in claims] == [[], [], []]
