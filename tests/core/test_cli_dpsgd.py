"""``python -m gaussmech_core dpsgd``: key names, strict JSON, exit status 2 naming the argument."""

from __future__ import annotations

import json
import math

import pytest

from gaussmech_core import dpsgd
from gaussmech_core.cli import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out, parse_constant=lambda name: pytest.fail(f"not strict JSON: {name}"))


def test_bracket_at_a_sigma(capsys):
    rows = _json(
        capsys,
        ["dpsgd", "--sampling-rate", "0.1", "--steps", "100", "--sigma", "1", "--delta", "1e-6", "--format", "json"],
    )
    assert list(rows[0]) == ["sigma", "epsilon_low", "epsilon_high"]
    bracket = dpsgd.dpsgd_epsilon(1.0, 0.1, 100, 1e-6)
    assert rows[0] == {"sigma": 1.0, "epsilon_low": bracket.low, "epsilon_high": bracket.high}


def test_calibration_from_epochs(capsys):
    rows = _json(
        capsys,
        [
            "dpsgd",
            "--dataset-size",
            "1000",
            "--batch-size",
            "50",
            "--epochs",
            "2",
            "--epsilon",
            "2",
            "--delta",
            "1e-5",
            "--format",
            "json",
        ],
    )
    q, steps = dpsgd.steps_for_epochs(1000, 50, 2)
    assert (q, steps) == (0.05, 40)
    assert rows[0]["epsilon_high"] <= 2.0
    assert math.isclose(rows[0]["sigma"], dpsgd.dpsgd_sigma(2.0, 1e-5, q, steps).sigma)


def test_table_output(capsys):
    assert main(["dpsgd", "--sampling-rate", "1", "--steps", "4", "--sigma", "2", "--delta", "1e-5"]) == 0
    out = capsys.readouterr().out
    assert "sigma" in out and "epsilon_low" in out and "epsilon_high" in out


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--steps", "10", "--epsilon", "1", "--delta", "1e-5"], "--sampling-rate"),
        (
            ["--dataset-size", "100", "--batch-size", "200", "--epochs", "1", "--epsilon", "1", "--delta", "1e-5"],
            "--batch-size",
        ),
        (["--sampling-rate", "2", "--steps", "10", "--epsilon", "1", "--delta", "1e-5"], "--sampling-rate"),
        (["--sampling-rate", "0.1", "--steps", "10", "--epsilon", "1", "--delta", "1.5"], "--delta"),
        (["--sampling-rate", "0.1", "--steps", "10", "--sigma", "-1", "--delta", "1e-5"], "--sigma"),
        (["--sampling-rate", "0.1", "--steps", "0", "--sigma", "1", "--delta", "1e-5"], "--steps"),
        (["--sampling-rate", "0.1", "--steps", "10", "--sigma", "1", "--epsilon", "1", "--delta", "1e-5"], "--epsilon"),
        (
            ["--sampling-rate", "0.1", "--steps", "10", "--dataset-size", "5", "--sigma", "1", "--delta", "1e-5"],
            "--sampling-rate",
        ),
    ],
)
def test_bad_arguments_exit_2_naming_the_argument(capsys, argv, named):
    with pytest.raises(SystemExit) as exit_info:
        main(["dpsgd", *argv])
    assert exit_info.value.code == 2
    assert named in capsys.readouterr().err
