"""The names the project's issues promise are importable from the package itself."""

import doctest
import importlib
import inspect
import pkgutil
import tomllib
from pathlib import Path

import gaussmech_core

PROMISED = [
    # Gaussian family (issue 2)
    "analytic_gaussian_sigma",
    "classical_gaussian_sigma",
    "gaussian_delta",
    "gaussian_log_delta",
    "gaussian_epsilon",
    "delta_zero",
    # Laplace and GG
    "laplace_scale",
    "generalized_gaussian_scale",
    # Multivariate
    "r1smg_sigma_star",
    "r1smg_true_delta",
    # Discrete Gaussian (issue 13)
    "discrete_gaussian_sigma",
    "discrete_gaussian_delta",
    "discrete_gaussian_log_delta",
    "discrete_gaussian_sigma_zcdp_bound",
    "discrete_gaussian_delta_zcdp_bound",
    "discrete_gaussian_pmf",
    "discrete_gaussian_variance",
    "discrete_gaussian_exact_sample",
    # More noise is never less private (issue 20)
    "discrete_gaussian_smallest_sigma",
    "discrete_gaussian_delta_over",
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


def _public_modules():
    """Every module of the package whose name does not start with an underscore."""
    for info in pkgutil.iter_modules(gaussmech_core.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"gaussmech_core.{info.name}")


def _public_functions():
    """``(qualified name, function)`` for every function and public method a public module exports."""
    for module in _public_modules():
        names = getattr(module, "__all__", [name for name in vars(module) if not name.startswith("_")])
        for name in names:
            value = getattr(module, name)
            if inspect.isfunction(value) and value.__module__.startswith("gaussmech_core"):
                yield f"{module.__name__}.{name}", value
            elif inspect.isclass(value) and value.__module__ == module.__name__:
                for attribute, member in vars(value).items():
                    member = member.fget if isinstance(member, property) else member
                    if inspect.isfunction(member) and not attribute.startswith("_"):
                        yield f"{module.__name__}.{name}.{attribute}", member


def _missing_annotations(function):
    parameters = list(inspect.signature(function).parameters.values())
    if parameters and parameters[0].name in ("self", "cls"):
        parameters = parameters[1:]
    missing = [parameter.name for parameter in parameters if parameter.annotation is inspect.Parameter.empty]
    if "return" not in function.__annotations__:
        missing.append("return")
    return missing


def test_every_public_function_is_annotated():
    """Parameters and return of every exported function carry a type (mypy checks they are right)."""
    functions = dict(_public_functions())
    assert len(functions) > 150  # the check sees the whole API, not an empty list
    unannotated = {name: missing for name, function in functions.items() if (missing := _missing_annotations(function))}
    assert unannotated == {}


def test_the_annotation_check_sees_a_missing_annotation():
    def partly_annotated(epsilon: float, delta):
        return epsilon

    assert _missing_annotations(partly_annotated) == ["delta", "return"]


def test_the_package_ships_its_annotations():
    """PEP 561: the ``py.typed`` marker is in the package and in the wheel's package data."""
    assert (Path(gaussmech_core.__file__).parent / "py.typed").is_file()
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["gaussmech_core"]
