"""Rankings in captions leave out claimed and bounded-data mechanisms, and say so (gaussmech_ui.ranking)."""

from __future__ import annotations

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui import ranking
from gaussmech_ui.figures import distributions, tails


def test_ranked_leaves_out_claimed_and_bounded_entries():
    assert ranking.ranked(MECHANISMS["laplace"]) and ranking.ranked(MECHANISMS["analytic_gaussian"])
    assert not ranking.ranked(MECHANISMS["r1smg"])
    assert not ranking.ranked(MECHANISMS["truncated_gg"]) and not ranking.ranked(MECHANISMS["bit_gg"])
    assert ranking.bounded_note([MECHANISMS["laplace"]]) == ""
    assert ranking.bounded_note([MECHANISMS["laplace"], MECHANISMS["bit_gg"]]) == ranking.BOUNDED_LEFT_OUT


def test_captions_do_not_crown_a_bounded_mechanism():
    stds = {"analytic_gaussian": 3.7, "laplace": 1.4, "truncated_gg": 0.28}
    text = distributions.density_caption(stds, MECHANISMS, {})
    assert "Laplace has the narrowest noise" in text and ranking.BOUNDED_LEFT_OUT in text
    bounds = {"analytic_gaussian": 7.3, "laplace": 3.0, "bit_gg": 0.47}
    sentence = tails.tail_caption(bounds, MECHANISMS, 0.05, vector=False)
    assert sentence.index("Laplace 3") < sentence.index("Analytic Gaussian 7.3") < sentence.index("bounded data 0.47")
    assert "the smallest (Laplace)" in sentence and ranking.BOUNDED_LEFT_OUT in sentence


def test_integer_noise_is_left_out_of_rankings_with_its_reason():
    assert ranking.integer_only(MECHANISMS["discrete_gaussian"]) and not ranking.ranked(MECHANISMS["discrete_gaussian"])
    assert ranking.bounded_note([MECHANISMS["discrete_gaussian"]]) == ranking.INTEGER_LEFT_OUT
