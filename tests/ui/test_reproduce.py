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


def run_in_fresh_interpreter(code: str, folder: Path) -> subprocess.CompletedProcess:
    """Run ``code`` as a script file in ``folder`` by a new Python (gaussmech importable); it must succeed."""
    script = folder / "reproduce.py"
    script.write_text(code, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=folder,
    )
    assert result.returncode == 0, result.stderr
    return result


def test_setting_expression_round_trips():
    for setting in SETTINGS:
        assert eval(setting_expression(setting), {"Setting": Setting}) == setting


# Pages whose script opens with the mechanisms' calibration table (Training (DP-SGD) has no mechanism table:
# its script prints the DP-SGD numbers, tested below).
CALIBRATION_PAGES = sorted(page for page, (_, parts) in PAGE_NUMBERS.items() if "calibrate_all(setting)" in parts[0])


def test_the_training_script_prints_the_core_dpsgd_numbers():
    from gaussmech_core import dpsgd

    values = {"dpsgd_dataset_size": "1000", "dpsgd_batch_size": "100", "dpsgd_epochs": "1", "dpsgd_clipping_norm": "2"}
    code = snippet("pages/6_Training_DP_SGD.py", Setting(epsilon=2.0, delta=1e-6), values=values)
    (table,) = parse_output(run_snippet(code))
    calibration = dpsgd.dpsgd_sigma(2.0, 1e-6, 0.1, 10)
    assert float(table["steps T"][0]) == 10 and float(table["sampling rate q"][0]) == pytest.approx(0.1)
    assert float(table["certified sigma"][0]) == pytest.approx(calibration.sigma, rel=1e-5)
    assert float(table["noise std sigma*C"][0]) == pytest.approx(2 * calibration.sigma, rel=1e-5)
    assert float(table["CLT sigma"][0]) == pytest.approx(dpsgd.dpsgd_clt_sigma(2.0, 1e-6, 0.1, 10), rel=1e-5)
    risk = dpsgd.dpsgd_attack_risk(calibration.sigma, 0.1, 10, (0.001, 0.01), 0.5)
    assert float(table["advantage (at most)"][0]) == pytest.approx(risk.advantage, rel=1e-5)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"eps{s.epsilon}-d{s.dim}")
@pytest.mark.parametrize("page", CALIBRATION_PAGES)
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
        values = [float(cell) for cell in cells[:3]]
        expected = [calibration.scale, calibration.coordinate_std, calibration.expected_loss]
        assert values == pytest.approx(expected, rel=1e-5)
        fails = calibration.true_delta is not None and not calibration.claim_holds
        if fails:  # a claimed guarantee whose true delta exceeds delta is marked, with that true delta
            assert cells[3].startswith("FAILS: true delta = ") and float(cells[3].split()[4]) == pytest.approx(
                calibration.true_delta, rel=1e-5
            ), (name, cells[3])
        else:
            assert cells[3] == "holds", (name, cells[3])
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
    result = run_in_fresh_interpreter(snippet("app.py", SETTINGS[0]), tmp_path)
    assert "Analytic Gaussian | 3.73063 | 3.73063 | 139.176" in result.stdout
    assert not any(
        math.isnan(float(c))
        for line in result.stdout.splitlines()[1:]
        for c in line.split(" | ")[1:4]
        if not c.startswith("not valid")
    )


LAB = "pages/5_Denoising_lab.py"


def _lab_numbers(context: dict, setting: Setting) -> dict[str, list[float]]:
    """The lab's metrics table computed here, as the page does: {metric name: [released, denoised]}."""
    import numpy as np

    from gaussmech_core.denoise import oracle_prior
    from gaussmech_core.histogram import METRICS, evaluate_pipelines, release_histogram
    from gaussmech_ui.figures.denoising import relative_error

    counts = np.asarray(context["counts"], dtype=float)
    release = release_histogram(
        counts,
        context["mechanism"],
        setting.epsilon,
        setting.delta,
        context["neighbours"],
        setting.order,
        rng=context["seed"],
    )
    prior = oracle_prior(counts) if context["oracle_prior"] else context["prior"]
    results = evaluate_pipelines(
        counts, release.noisy, release.noise_std, [(), context["steps"]], total=context["total"], prior=prior
    )
    table = {m.name: [r.metrics[key] for r in results] for key, m in METRICS.items() if key in results[0].metrics}
    for key, name in (("mse", "relative l2 error"), ("l1", "relative l1 error")):
        table[name] = [relative_error(key, r.metrics[key], counts) for r in results]
    return table


def test_the_lab_snippet_embeds_small_counts_and_names_the_relation():
    import numpy as np

    from gaussmech_core.histogram import neighbour_model

    counts = np.random.default_rng(5).poisson(3.0, size=200).astype(float)
    context = dict(
        counts=counts,
        mechanism="laplace",
        neighbours=neighbour_model("replace"),
        seed=11,
        steps=("posterior_mean", "simplex", "round"),
        total=float(counts.sum()),
        prior=(1.0, 2.0),  # ignored: the page used the oracle prior
        oracle_prior=True,
    )
    setting = SETTINGS[1]
    code = snippet(LAB, setting, context=context)
    assert "'replace'" in code and "prior = oracle_prior(counts)" in code and "np.loadtxt" not in code
    printed = parse_output(run_snippet(code))[1]
    expected = _lab_numbers(context, setting)
    assert set(printed) == set(expected)
    for name, cells in printed.items():
        assert [float(c) for c in cells] == pytest.approx(expected[name], rel=1e-5), name


def test_the_lab_snippet_reads_many_counts_from_the_csv_offered_beside_it(tmp_path):
    import numpy as np

    from gaussmech_core.histogram import NeighbourModel
    from gaussmech_ui.downloads import csv_bytes
    from gaussmech_ui.reproduce import COUNTS_FILE, MAX_EMBEDDED_VALUES, context_frame

    counts = np.random.default_rng(2).gamma(0.3, 40.0, size=(60, 100))  # 6,000 values, not whole numbers
    assert counts.size > MAX_EMBEDDED_VALUES
    context = dict(
        counts=counts,
        mechanism="analytic_gaussian",
        neighbours=NeighbourModel(3, 0.25),
        seed=4,
        steps=("wavelet_soft_threshold", "nonnegative"),
        total=None,
        prior=None,
        oracle_prior=True,
    )
    setting = SETTINGS[2]
    code = snippet(LAB, setting, context=context)
    assert "NeighbourModel(3, 0.25)" in code and COUNTS_FILE in code and "counts = np.array" not in code
    (tmp_path / COUNTS_FILE).write_bytes(csv_bytes(context_frame(context)))
    result = run_in_fresh_interpreter(code, tmp_path)
    printed = parse_output(result.stdout)[1]
    expected = _lab_numbers(context, setting)
    assert set(printed) == set(expected)
    for name, cells in printed.items():
        assert [float(c) for c in cells] == pytest.approx(expected[name], rel=1e-5), name


def test_the_lab_snippet_without_a_release_prints_the_calibration_alone():
    from gaussmech_ui.reproduce import context_frame

    code = snippet(LAB, SETTINGS[0])
    assert "No release at this setting" in code and "release_histogram" not in code
    assert len(parse_output(run_snippet(code))) == 1
    assert context_frame(None) is None and context_frame({"counts": [1.0, 2.0]}) is None
