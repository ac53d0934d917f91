"""The sentence pages add where the discrete Gaussian's smallest private σ is not safe to round up."""

from __future__ import annotations

import math
import re

import pytest

from gaussmech_core.discrete_gaussian import discrete_gaussian_log_delta, discrete_gaussian_smallest_sigma
from gaussmech_core.histogram import neighbour_model
from gaussmech_ui.round_up import release_round_up_sentence, round_up_sentence


@pytest.mark.parametrize(
    "epsilon, delta, sensitivity",
    [(5.0, 0.01, 1), (20.0, 1e-10, 1), (1000.0, 1e-300, 100), (48.40210052513128, 2.17e-300, 1)],
)
def test_the_sentence_is_a_claim_its_numbers_back(epsilon, delta, sensitivity):
    answer = discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity)
    sentence = round_up_sentence("Discrete Gaussian", "σ", answer.smallest_sigma, answer.safe_sigma)
    numbers = [float(x) for x in re.findall(r"\d+\.\d+", sentence)]
    smallest_text, below_text, from_text = numbers
    assert below_text == from_text
    # "every σ from X up does": X is at or above the safe σ, and the two shown numbers differ.
    assert from_text >= answer.safe_sigma and from_text > smallest_text
    assert discrete_gaussian_log_delta(epsilon, from_text, sensitivity) <= math.log(delta)
    # "some larger σ do not": one of the intervals is there, below X.
    assert answer.not_private and answer.not_private[-1][1] <= from_text
    assert smallest_text == pytest.approx(answer.smallest_sigma, rel=1e-3)


def test_no_sentence_where_the_two_agree():
    answer = discrete_gaussian_smallest_sigma(1.0, 1e-5)
    assert round_up_sentence("Discrete Gaussian", "σ", answer.smallest_sigma, answer.safe_sigma) is None


def test_the_release_sentence_follows_the_relation_of_the_release():
    add_remove = release_round_up_sentence("discrete_gaussian", 5.0, 0.01, neighbour_model("add_remove"), 2.0)
    answer = discrete_gaussian_smallest_sigma(5.0, 0.01, 1, "add_remove")
    assert add_remove == round_up_sentence("Discrete Gaussian", "σ", answer.smallest_sigma, answer.safe_sigma)
    # Replace one record at the same (ε, δ): its smallest private σ is safe, so no sentence.
    assert release_round_up_sentence("discrete_gaussian", 5.0, 0.01, neighbour_model("replace"), 2.0) is None
    replace = discrete_gaussian_smallest_sigma(8.0, 0.1, 1, "replace")
    assert release_round_up_sentence("discrete_gaussian", 8.0, 0.1, neighbour_model("replace"), 2.0) == (
        round_up_sentence("Discrete Gaussian", "σ", replace.smallest_sigma, replace.safe_sigma)
    )
    # A noise whose δ falls as its scale grows has nothing to say.
    assert release_round_up_sentence("analytic_gaussian", 5.0, 0.01, neighbour_model("add_remove"), 2.0) is None
