"""The denoising lab's default from the data's shape and the step it names when a pipeline hurts (issue 21, item 8)."""

from __future__ import annotations

import doctest

import numpy as np

import gaussmech_ui.claims.denoising as rules
from gaussmech_core.denoise import apply_pipeline
from gaussmech_core.histogram import error_metrics
from gaussmech_ui.figures import denoising as figures
from gaussmech_ui.figures.denoising import ESTIMATOR_STEPS
from gaussmech_ui.uploads import make_histogram_data

DENSE = np.round(100 + 20 * np.sin(np.arange(50) / 3.0))  # an ordinary histogram: no empty bin
SPARSE = np.where(np.arange(50) % 5 == 0, 40.0, 0.0)


def test_doctests_pass():
    result = doctest.testmod(rules)
    assert result.attempted > 0 and result.failed == 0


def test_the_default_step_1_follows_the_shape_of_the_data():
    assert figures.default_estimator(make_histogram_data(DENSE), ESTIMATOR_STEPS) == "none"
    assert figures.default_estimator(make_histogram_data(SPARSE), ESTIMATOR_STEPS) == "soft_threshold"


def test_the_default_pipeline_does_not_make_a_dense_histogram_worse():
    """The new default for a dense histogram (projection only) never raises the l2 error, at any noise draw."""
    for seed in range(20):
        noisy = DENSE + np.random.default_rng(seed).normal(0.0, 50.0, DENSE.size)
        total = float(DENSE.sum())
        raw = error_metrics(DENSE, noisy)["mse"]
        new = apply_pipeline(noisy, ("simplex",), 50.0, total=total)
        assert error_metrics(DENSE, new)["mse"] <= raw * (1 + 1e-12)


def test_a_caption_that_says_worse_names_the_step_that_would_help():
    truth = DENSE[:4]
    text = figures.release_caption(
        mechanism_name="Analytic Gaussian",
        epsilon=1.0,
        delta=1e-5,
        noise_std=1.0,
        sensitivity_phrase="Δ₂ = 1",
        pure=False,
        truth=truth,
        raw_metrics=error_metrics(truth, truth + np.array([1.0, 0.0, 0.0, 0.0])),
        denoised_metrics=error_metrics(truth, truth + np.array([2.0, 2.0, 2.0, 2.0])),
        steps=("soft_threshold", "simplex"),
    )
    assert "16× larger" in text
    assert 'Choose "none" in step 1 and keep step 2' in text and "0% of the bins are 0" in text
