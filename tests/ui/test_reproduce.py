"""The "Reproduce in Python" snippets run, alone, and print the numbers of gaussmech_core."""

from __future__ import annotations

import contextlib
import io
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaussmech_core.attack_risk import attack_risk_all
from gaussmech_core.mechanisms import calibrate_all
from gaussmech_core.registry_types import Setting
from gaussmech_ui.reproduce import PAGE_NUMBERS, parse_output, setting_expression, snippet

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [
    Setting(epsilon=1.0, delta=1e-5, dim=10),
    Setting(epsilon=0.3, delta=1e-8, sensitivity=2.0, order=1.5, dim=4, l1_model="all_coordinates"),
    Setting(epsilon=5.0, delta=1e-3, dim=3),
]


def run_snippet(code: str) -> str:
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    return output.getvalue()


def test_setting_expression_round_trips():
    for setting in SETTINGS:
        assert eval(setting_expression(setting), {"Setting": Setting}) == setting


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}")
@pytest.mark.parametrize("page", sorted(PAGE_NUMBERS))
def test_every_snippet_prints_the_core_numbers(page, setting):
    code = snippet(page, setting, prior=0.2)
    blocks = parse_output(run_snippet(code))
    calibrations = {c.mechanism.name: c for c in calibrate_all(setting)}
    assert set(blocks[0]) == set(calibrations)
    for name, cells in blocks[0].items():
        calibration = calibrations[name]
        if calibration.scale is None:
            assert cells[0].startswith("not valid here")
            continue
        values = [float(cell) for cell in cells]
        expected = [calibration.scale, calibration.coordinate_std, calibration.expected_loss]
        assert values == pytest.approx(expected, rel=1e-5)
    if "attack_risk_all" in code:
        risks = {r.mechanism.name: r for r in attack_risk_all(setting, prior=0.2)}
        for name, cells in blocks[1].items():
            risk = risks[name]
            if risk.scale is None:
                assert cells[0].startswith("not valid here")
                continue
            values = [float(cell) for cell in cells]
            assert values[1:] == pytest.approx(
                [risk.advantage, *risk.true_positive_rates, risk.posteriors[0]], rel=1e-5, abs=1e-300
            )


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}")
def test_the_tail_and_accuracy_snippets_print_the_core_numbers(setting):
    from gaussmech_core import multivariate, tails

    bounds = parse_output(
        run_snippet(snippet("pages/2_Tail_probabilities.py", setting, values={"tails_alpha": "0.01"}))
    )[1]
    for c in calibrate_all(setting):
        if c.scale is not None:
            expected = tails.coordinate_error_bound(c.mechanism, c.scale, setting, 0.01)
            assert float(bounds[c.mechanism.name][0]) == pytest.approx(expected, rel=1e-5)
    constants = parse_output(run_snippet(snippet("pages/4_Accuracy_vs_dimension.py", setting)))[1]
    analytic = next(c for c in calibrate_all(setting) if c.mechanism.id == "analytic_gaussian")
    paper = multivariate.ji_li_constant_analytic(setting.epsilon, setting.delta, setting.dim) * setting.sensitivity**2
    assert [float(x) for x in constants["Analytic Gaussian"]] == pytest.approx(
        [analytic.expected_loss, paper, analytic.expected_loss / paper], rel=1e-5
    )


def test_page_values_out_of_range_or_not_numbers_take_the_pages_defaults():
    code = snippet("pages/2_Tail_probabilities.py", SETTINGS[0], values={"tails_alpha": "abc"})
    assert "alpha = 0.05" in code
    code = snippet("pages/4_Accuracy_vs_dimension.py", SETTINGS[0], values={"accuracy_mvg_rows": "3"})  # 3 ∤ 10
    assert "rows, gamma_ratio = 1, 0.5" in code


def test_a_snippet_runs_as_a_script_in_a_fresh_interpreter(tmp_path):
    script = tmp_path / "reproduce.py"
    script.write_text(snippet("app.py", SETTINGS[0]), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Analytic Gaussian | 3.73063 | 3.73063 | 139.176" in result.stdout
    assert not any(
        math.isnan(float(c))
        for line in result.stdout.splitlines()[1:]
        for c in line.split(" | ")[1:]
        if not c.startswith("not valid")
    )
