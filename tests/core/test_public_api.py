"""The names the project's issues promise are importable from the package itself."""

import doctest

import gaussmech_core

PROMISED = [
    # Gaussian family (issue 2)
    "analytic_gaussian_sigma", "classical_gaussian_sigma", "gaussian_delta", "gaussian_log_delta",
    "gaussian_epsilon", "delta_zero",
    # Laplace and GG
    "laplace_scale", "generalized_gaussian_scale",
    # Multivariate
    "r1smg_sigma_star", "r1smg_true_delta",
    # Discrete Gaussian (issue 13)
    "discrete_gaussian_sigma", "discrete_gaussian_delta", "discrete_gaussian_log_delta",
    "discrete_gaussian_sigma_zcdp_bound", "discrete_gaussian_delta_zcdp_bound",
    "discrete_gaussian_pmf", "discrete_gaussian_variance", "discrete_gaussian_exact_sample",
    # Registry
    "MECHANISMS",
]


def test_promised_names_are_exported():
    missing = [name for name in PROMISED if not hasattr(gaussmech_core, name)]
    assert missing == []
    assert set(PROMISED) <= set(gaussmech_core.__all__)


def test_every_exported_name_exists():
    assert [name for name in gaussmech_core.__all__ if not hasattr(gaussmech_core, name)] == []


def test_denoise_names_promised_by_the_denoising_issue():
    from gaussmech_core.denoise import james_stein, project_to_simplex, soft_threshold  # noqa: F401


def test_package_doctest():
    assert doctest.testmod(gaussmech_core).failed == 0
