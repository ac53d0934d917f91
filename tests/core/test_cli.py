"""``python -m gaussmech_core``: run as a user would, through a subprocess."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gaussmech_core.cli import main
from gaussmech_core.gaussian import analytic_gaussian_sigma, gaussian_delta, gaussian_epsilon
from gaussmech_core.mechanisms import MECHANISMS, Setting, calibrate_all

ROOT = Path(__file__).resolve().parents[2]


def run(*arguments: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "gaussmech_core", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=120,
    )


def test_calibrate_json_lists_every_mechanism_with_the_registry_numbers():
    result = run(
        "calibrate",
        "--epsilon",
        "0.5",
        "--delta",
        "1e-8",
        "--dim",
        "10",
        "--sensitivity",
        "2",
        "--neighbours",
        "all_coordinates",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["mechanism"] for row in rows] == list(MECHANISMS)
    setting = Setting(epsilon=0.5, delta=1e-8, sensitivity=2.0, dim=10, l1_model="all_coordinates")
    for row, calibration in zip(rows, calibrate_all(setting)):
        assert row["scale"] == calibration.scale
        assert row["coordinate_std"] == calibration.coordinate_std
        assert row["expected_squared_error"] == calibration.expected_loss
    by_id = {row["mechanism"]: row for row in rows}
    assert by_id["analytic_gaussian"]["scale"] == analytic_gaussian_sigma(0.5, 1e-8, 2.0)
    assert by_id["analytic_gaussian"]["guarantee_holds"] is True
    assert by_id["r1smg"]["guarantee_holds"] is False and "true δ" in by_id["r1smg"]["note"]


def test_calibrate_table_says_why_a_guarantee_fails():
    result = run("calibrate", "--epsilon", "1", "--delta", "1e-5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ε = 1, δ = 1e-05")
    classical = next(line for line in lines if line.startswith("classical_gaussian"))
    assert " no " in classical and "0 < ε < 1" in classical
    analytic = next(line for line in lines if line.startswith("analytic_gaussian"))
    assert "3.73063" in analytic and " yes" in analytic


def test_calibrate_csv_keeps_full_precision():
    result = run("calibrate", "--epsilon", "1", "--delta", "1e-5", "--order", "1.5", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    analytic = next(row for row in rows if row["mechanism"] == "analytic_gaussian")
    assert float(analytic["scale"]) == analytic_gaussian_sigma(1.0, 1e-5)
    classical = next(row for row in rows if row["mechanism"] == "classical_gaussian")
    assert classical["scale"] == "" and classical["guarantee_holds"] == "False"


def test_delta_and_epsilon_are_inverse():
    result = run("delta", "--sigma", "3.73", "--epsilon", "0", "1", "2", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["delta"] for row in rows] == list(gaussian_delta(np.array([0.0, 1.0, 2.0]), 3.73))
    back = run("epsilon", "--sigma", "3.73", "--delta", repr(rows[1]["delta"]), "--format", "json")
    assert back.returncode == 0, back.stderr
    epsilon = json.loads(back.stdout)[0]["epsilon"]
    assert epsilon == gaussian_epsilon(rows[1]["delta"], 3.73)
    assert epsilon == pytest.approx(1.0, rel=1e-9)


def test_delta_far_out_in_sigma_prints_zero_not_a_traceback(capsys):
    """At σ = 1.9e10, ε = 1.3 log δ = −3.05e20: gaussian_delta overflowed (the slope cancelled)."""
    assert main(["delta", "--sigma", "1.9e10", "--epsilon", "1.3", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["delta"] == 0.0


def _strict_json(text: str):
    """json.loads that refuses the non-standard constants Infinity, -Infinity and NaN (RFC 8259)."""

    def refuse(constant):
        raise AssertionError(f"not RFC 8259 JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_json_is_strict_rfc_8259_with_inf_as_a_string(capsys):
    """At ε = 1e-300 the expected squared errors exceed 1.8e308: json wrote Infinity, which
    RFC 8259 does not allow; they are the string "inf", as --help says."""
    assert main(["calibrate", "--epsilon", "1e-300", "--delta", "1e-5", "--format", "json"]) == 0
    rows = _strict_json(capsys.readouterr().out)
    assert "inf" in [row["expected_squared_error"] for row in rows]
    assert all(isinstance(row["scale"], (float, str)) or row["scale"] is None for row in rows)
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    assert 'the string "inf"' in " ".join(capsys.readouterr().out.split())


def test_risk_columns_of_distinct_rates_stay_distinct(capsys):
    """--fpr 0.001 0.0010000001 were both named tpr_at_fpr_0.001 (":g"), and one column was lost."""
    assert (
        main(["risk", "--epsilon", "1", "--delta", "1e-5", "--fpr", "0.001", "0.0010000001", "--format", "json"]) == 0
    )
    row = _strict_json(capsys.readouterr().out)[0]
    assert {"tpr_at_fpr_0.001", "tpr_at_fpr_0.0010000001"} <= set(row)
    assert row["tpr_at_fpr_0.001"] < row["tpr_at_fpr_0.0010000001"]


def test_risk_prints_attack_numbers():
    result = run("risk", "--epsilon", "1", "--delta", "1e-5", "--prior", "0.1", "--fpr", "0.01", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {row["mechanism"]: row for row in json.loads(result.stdout)}
    assert rows["laplace"]["tpr_at_fpr_0.01"] == pytest.approx(0.01 * 2.718281828459045, rel=1e-9)
    assert rows["classical_gaussian"]["advantage"] is None and rows["classical_gaussian"]["note"]


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (("calibrate", "--epsilon", "1", "--delta", "2"), "delta must be in (0, 1), got delta=2.0"),
        (("calibrate", "--epsilon", "-1", "--delta", "1e-5"), "epsilon must be"),
        (("calibrate", "--epsilon", "1", "--delta", "1e-5", "--dim", "0"), "argument --dim: '0' is not in [1, "),
        (("calibrate", "--epsilon", "1", "--delta", "1e-5", "--dim", "1e20"), "argument --dim: '1e20' is not in [1, "),
        (("calibrate", "--epsilon", "1", "--delta", "1e-5", "--dim", "2.5"), "argument --dim: '2.5' is not a whole"),
        (("risk", "--epsilon", "1", "--delta", "1e-5", "--fpr", "0.01", "0.01"), "fpr must be distinct"),
        (("risk", "--epsilon", "1", "--delta", "1e-5", "--fpr", "0", "0.5"), "fpr must be in (0, 1)"),
        (("calibrate", "--epsilon", "abc", "--delta", "1e-5"), "argument --epsilon: 'abc' is not a number"),
        (("calibrate", "--epsilon", "inf", "--delta", "1e-5"), "is not a finite number"),
        (("calibrate", "--epsilon", "1"), "the following arguments are required: --delta"),
        (("calibrate", "--epsilon", "1", "--delta", "1e-5", "--format", "xml"), "invalid choice: 'xml'"),
        (("delta", "--sigma", "-1", "--epsilon", "1"), "sigma must be in (0, inf), got sigma=-1.0"),
        (("epsilon", "--sigma", "1", "--delta", "1.5"), "delta must be in [2.22507e-308, 1), got delta=1.5"),
        (("risk", "--epsilon", "1", "--delta", "1e-5", "--prior", "1"), "prior must be in (0, 1)"),
        (("nonsense",), "invalid choice: 'nonsense'"),
        ((), "the following arguments are required"),
    ],
)
def test_bad_arguments_print_usage_and_one_line_reason_and_exit_2(arguments, reason, capsys):
    """In-process (the parser and the library's checks); the subprocess test below covers the entry point."""
    with pytest.raises(SystemExit) as stopped:
        main(list(arguments))
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("usage: python -m gaussmech_core")
    last = captured.err.strip().splitlines()[-1]
    assert "error: " in last and reason in last


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (("calibrate", "--epsilon", "1", "--delta", "2"), "delta must be in (0, 1), got delta=2.0"),
        (("calibrate", "--epsilon", "1"), "the following arguments are required: --delta"),
    ],
)
def test_bad_arguments_through_the_module_entry_point(arguments, reason):
    result = run(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: python -m gaussmech_core")
    last = result.stderr.strip().splitlines()[-1]
    assert "error: " in last and reason in last
    assert "Traceback" not in result.stderr
