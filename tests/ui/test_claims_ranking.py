"""The tie-aware ranking behind every caption that names a winner (gaussmech_ui.claims.ranking).

Ties come from the registry's NoiseLaw fact (two entries draw the same noise), exactly equal values,
or Monte Carlo estimates whose intervals overlap; never from a tolerance on floats.
"""

from __future__ import annotations

import doctest
from types import SimpleNamespace

import gaussmech_ui.claims.ranking as ranking_module
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.claims import ranking, recording
from gaussmech_ui.claims.ranking import (
    assumption_sentence,
    on_curve_note,
    place_phrase,
    rank,
    reader_name,
    winner_phrase,
)
from gaussmech_ui.figures import distributions, tails


def _mechanism(name, family, *, is_default=False, featured=True, short_name=None):
    return SimpleNamespace(
        name=name, family=family, is_default=is_default, featured=featured, short_name=short_name or name, guarantee=""
    )


# GG comes first in this registry on purpose: the name shown in a tie must come from is_default, not from order.
REGISTRY = {
    "gg": _mechanism("Generalized Gaussian GG(p)", "generalized_gaussian", short_name="GG"),
    "zz_gauss": _mechanism("Analytic Gaussian", "gaussian", is_default=True),
    "lap": _mechanism("Laplace", "laplace"),
}
SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)
AT_P = {p: Setting(epsilon=1.0, delta=1e-5, dim=10, order=p) for p in (1.0, 1.5, 2.0, 4.0)}


def test_doctests_pass():
    result = doctest.testmod(ranking_module)
    assert result.attempted > 0 and result.failed == 0


def test_entries_that_draw_the_same_noise_share_a_place_and_the_default_is_named():
    value = 139.17
    ranked = rank(
        {"generalized_gaussian": value * (1 - 1.7e-12), "analytic_gaussian": value, "laplace": 200.0},
        MECHANISMS,
        AT_P[2.0],
    )
    assert ranked.places == (("analytic_gaussian", "generalized_gaussian"), ("laplace",))
    assert winner_phrase(ranked, MECHANISMS, AT_P[2.0]) == "the analytic Gaussian (GG draws the same Gaussian noise)"
    assert ranked.violations() == []


def test_near_equal_values_of_different_noise_are_not_a_tie():
    """No tolerance: 1e-12 apart and not the same noise law is two places (the exact order)."""
    ranked = rank({"generalized_gaussian": 1.0, "analytic_gaussian": 1.0 + 1e-12}, MECHANISMS, AT_P[1.5])
    assert ranked.places == (("generalized_gaussian",), ("analytic_gaussian",))


def test_gg_at_p_1_is_named_as_laplace_noise_at_another_calibration():
    values = {"generalized_gaussian": 19.99943, "laplace": 20.0, "analytic_gaussian": 139.0}
    ranked = rank(values, MECHANISMS, AT_P[1.0])
    phrase = winner_phrase(ranked, MECHANISMS, AT_P[1.0])
    assert ranked.best == ("generalized_gaussian",)
    assert "GG is Laplace noise here, at another calibration than the Laplace mechanism" in phrase
    assert "0.00285% less" in phrase


def test_larger_is_better_and_missing_values_are_not_ranked():
    ranked = rank({"gg": 2.0, "zz_gauss": float("nan"), "lap": 5.0}, REGISTRY, smaller_is_better=False)
    assert ranked.places == (("lap",), ("gg",)) and ranked.place_of("zz_gauss") is None


def test_exactly_equal_values_share_a_place_joined_by_and():
    ranked = rank({"lap": 0.0, "zz_gauss": 0.0}, REGISTRY)
    assert place_phrase(ranked.best, REGISTRY, SETTING, ranked.values) == "the analytic Gaussian and Laplace"
    close = rank({"lap": 3.0, "zz_gauss": 3.0 * (1 + 1e-12)}, REGISTRY)
    assert close.places == (("lap",), ("zz_gauss",))


def test_monte_carlo_estimates_whose_intervals_overlap_are_not_ranked():
    values = {"lap": 2.97, "gg": 3.03, "zz_gauss": 9.0}
    intervals = {"lap": (2.90, 3.05), "gg": (2.95, 3.10), "zz_gauss": (8.9, 9.1)}
    ranked = rank(values, REGISTRY, intervals=intervals)
    assert ranked.places == (("gg", "lap"), ("zz_gauss",))
    assert "Monte Carlo estimates whose 95% intervals overlap" in winner_phrase(ranked, REGISTRY, SETTING)
    assert ranked.violations() == []


def test_the_rule_finds_a_ranking_that_separates_overlapping_estimates():
    bad = ranking.Ranking(
        places=(("lap",), ("gg",)),
        values={"lap": 2.97, "gg": 3.03},
        intervals={"lap": (2.90, 3.05), "gg": (2.95, 3.10)},
        mechanisms=REGISTRY,
    )
    assert any("intervals overlap" in problem for problem in bad.violations())
    claimed = ranking.Ranking(places=(("r1smg",),), values={"r1smg": 1.0}, mechanisms=MECHANISMS)
    assert any("only claimed" in problem for problem in claimed.violations())


def test_a_ranking_is_recorded_as_a_claim():
    with recording() as claims:
        rank({"lap": 1.0, "gg": 2.0}, REGISTRY)
    assert [claim.kind for claim in claims] == ["ranking"]


def test_a_curve_under_another_is_named_by_the_first_part_of_its_name():
    assert on_curve_note(MECHANISMS["truncated_gg"]) == " (on the truncated GG(p)'s curve)"
    assert on_curve_note(MECHANISMS["analytic_gaussian"]) == " (on the analytic Gaussian's curve)"


def test_the_real_registry_names_read_in_a_sentence():
    assert reader_name(MECHANISMS["analytic_gaussian"]) == "the analytic Gaussian"
    assert reader_name(MECHANISMS["laplace"]) == "the Laplace mechanism"


def test_the_assumption_names_delta_and_both_neighbour_models_and_what_changes():
    here = rank({"zz_gauss": 139.0, "lap": 20.0}, REGISTRY)
    there = rank({"zz_gauss": 139.0, "lap": 200.0}, REGISTRY)
    text = assumption_sentence(SETTING, here, there, REGISTRY, quantity="error", verb="add the least noise")
    assert "δ = 1e-5" in text and "“one coordinate changes” (Δ₁ = Δ)" in text
    assert "Under “every coordinate may change” (Δ₁ = √d·Δ)" in text
    assert "the Laplace mechanism's error would be 10× its value here" in text
    assert text.endswith("the analytic Gaussian would add the least noise.")


def test_at_dimension_one_both_models_agree():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=1)
    ranked = rank({"lap": 2.0}, REGISTRY)
    assert "nothing would change" in assumption_sentence(setting, ranked, ranked, REGISTRY)


# --- which entries a ranking may name (claimed and bounded-data mechanisms are left out) ----


def test_ranked_leaves_out_claimed_and_bounded_entries():
    assert ranking.ranked(MECHANISMS["laplace"]) and ranking.ranked(MECHANISMS["analytic_gaussian"])
    assert not ranking.ranked(MECHANISMS["r1smg"])
    assert not ranking.ranked(MECHANISMS["truncated_gg"]) and not ranking.ranked(MECHANISMS["bit_gg"])
    assert ranking.bounded_note([MECHANISMS["laplace"]]) == ""
    assert ranking.bounded_note([MECHANISMS["laplace"], MECHANISMS["bit_gg"]]) == ranking.BOUNDED_LEFT_OUT


def test_captions_do_not_crown_a_bounded_mechanism():
    stds = {"analytic_gaussian": 3.7, "laplace": 1.4, "truncated_gg": 0.28}
    text = distributions.density_caption(stds, MECHANISMS, {})
    assert "the Laplace mechanism has the narrowest noise" in text and ranking.BOUNDED_LEFT_OUT in text
    bounds = {"analytic_gaussian": 7.3, "laplace": 3.0, "bit_gg": 0.47}
    sentence = tails.tail_caption(bounds, MECHANISMS, 0.05, vector=False)
    assert sentence.index("Laplace 3") < sentence.index("Analytic Gaussian 7.3") < sentence.index("bounded data 0.47")
    assert "the smallest (the Laplace mechanism)" in sentence and ranking.BOUNDED_LEFT_OUT in sentence


def test_integer_noise_is_left_out_of_rankings_with_its_reason():
    assert ranking.integer_only(MECHANISMS["discrete_gaussian"]) and not ranking.ranked(MECHANISMS["discrete_gaussian"])
    assert ranking.bounded_note([MECHANISMS["discrete_gaussian"]]) == ranking.INTEGER_LEFT_OUT
