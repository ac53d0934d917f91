"""What a page uses, as the export, report and share tools state it (gaussmech_ui.page_facts).

The Training page uses the sidebar's ε and δ and its own N, B, E, C and sampling scheme: its
setting line, file names, report and link description name those and nothing else; every other
page keeps the whole sidebar's line and the registry's calibration table.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import pytest

from gaussmech_core import dpsgd
from gaussmech_core.registry_types import Setting
from gaussmech_ui import export, menu, page_facts, report, share, training

TRAINING = "pages/6_Training_DP_SGD.py"
SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)
DEFAULT_INPUTS = {
    "dpsgd_dataset_size": 60_000,
    "dpsgd_batch_size": 256,
    "dpsgd_epochs": 10.0,
    "dpsgd_clipping_norm": 1.0,
    "dpsgd_sampling": training.POISSON,
}
SIDEBAR_ONLY = ("Δ₂", "Δ₁", "d = ", "coordinate")


def test_the_training_line_states_its_inputs_and_what_they_give():
    q, steps = dpsgd.steps_for_epochs(60_000, 256, 10)
    line = page_facts.facts_for(TRAINING).line(SETTING, DEFAULT_INPUTS)
    assert line == (
        f"ε = 1, δ = 1e-5, N = 60,000, B = 256, E = 10, C = 1, Poisson sampling (q = {q:.4g}, T = {steps:,} steps)"
    )
    assert not any(word in line for word in SIDEBAR_ONLY)


def test_the_training_line_names_shuffling_as_optimistic_and_survives_inputs_without_a_schedule():
    facts = page_facts.facts_for(TRAINING)
    shuffled = facts.line(SETTING, {**DEFAULT_INPUTS, "dpsgd_sampling": training.SHUFFLED})
    assert shuffled.endswith("steps); you shuffle: optimistic")
    no_schedule = facts.line(SETTING, {**DEFAULT_INPUTS, "dpsgd_dataset_size": 100})  # B > N: no q, no T
    assert no_schedule == "ε = 1, δ = 1e-5, N = 100, B = 256, E = 10, C = 1, Poisson sampling"


@pytest.mark.parametrize("entry", menu.MENU, ids=lambda entry: entry.path)
def test_every_other_page_keeps_the_whole_sidebar_line(entry):
    facts = page_facts.facts_for(entry.path)
    if entry.path == TRAINING:
        assert not facts.uses_mechanisms and facts.setting_fields == ("epsilon", "delta")
        return
    assert facts is page_facts.GENERIC and facts.uses_mechanisms
    assert facts.line(SETTING) == export.setting_line(SETTING)
    assert export.setting_line(SETTING) == "ε = 1, δ = 1e-5, Δ₂ = 1, d = 10, one coordinate changes (Δ₁ = 1)"


def test_training_file_names_leave_the_dimension_out():
    fields = page_facts.facts_for(TRAINING).setting_fields
    assert export.figure_file_name("dpsgd-epsilon-epochs", SETTING, "svg", fields) == (
        "gaussmech-dpsgd-epsilon-epochs-eps1-delta1e-5.svg"
    )
    name = report.report_file_name("training-(dp-sgd)", SETTING, "brief", page_facts.facts_for(TRAINING))
    assert name == "gaussmech-report-training-(dp-sgd)-eps1-delta1e-5-brief.html"
    assert export.figure_file_name("noise", SETTING, "svg") == "gaussmech-noise-eps1-delta1e-5-d10.svg"


def test_the_slide_image_states_the_line_it_is_given():
    figure = go.Figure(go.Scatter(x=[1, 2], y=[1, 2], name="a"))
    line = page_facts.facts_for(TRAINING).line(SETTING, DEFAULT_INPUTS)
    slide = export.slide_figure(figure, SETTING, line)
    assert slide.layout.title.subtitle.text == line + " · gaussmech"
    assert export.slide_figure(figure, SETTING).layout.title.subtitle.text.startswith("ε = 1, δ = 1e-5, Δ₂ = 1")


def test_the_link_description_gives_the_training_inputs_their_labels():
    facts = page_facts.facts_for(TRAINING)
    query = {
        "epsilon": "0.5",
        "dpsgd_dataset_size": "1000",
        "dpsgd_clipping_norm": "0.5",
        "dpsgd_prior": "0.1",
        "dpsgd_sampling": training.SHUFFLED,
        "dpsgd_batch_size": "abc",
    }
    assert share.describe_query(query, facts) == [
        "ε = 0.5",
        "Dataset size N = 1,000",
        "Clipping norm C = 0.5",
        "Attacker's prior π = 0.1",
        "Batches: Shuffled batches",
        "Batch size B = abc (not usable: the page keeps its last good value)",
    ]
    # Another page's own values keep their keys.
    assert share.describe_query({"distributions_seed": "3"}) == ["distributions_seed = 3 (this page)"]


def _training_content(**changes) -> report.ReportContent:
    table = pd.DataFrame([{"accountant": "certified (PLD, this page)", "σ (noise multiplier)": "0.9<b>"}])
    values = dict(
        page_label="Training (DP-SGD)",
        setting=SETTING,
        charts=[
            report.ReportChart(go.Figure(go.Scatter(x=[1], y=[1])), "ε against epochs", "A caption", "The answer.")
        ],
        facts=page_facts.facts_for(TRAINING),
        inputs=DEFAULT_INPUTS,
        tables=[("The noise multiplier σ for this training run", table)],
    )
    values.update(changes)
    return report.ReportContent(**values)


@pytest.mark.parametrize("version", list(report.VERSIONS))
def test_the_training_report_states_its_line_and_its_own_table_not_the_mechanisms(version):
    html = report.build_report(_training_content(), version)
    line = page_facts.facts_for(TRAINING).line(SETTING, DEFAULT_INPUTS)
    assert f"<p class='setting'>{line}</p>" in html
    assert "Δ₂" not in html and "d = 10" not in html
    assert "How much noise each mechanism needs" not in html and "Analytic Gaussian" not in html
    assert "The noise multiplier σ for this training run" in html
    assert "0.9&lt;b&gt;" in html  # the page's cells, escaped
    assert "Bu et al. 2020" in html  # its own sources


def test_a_mechanism_page_report_keeps_its_calibration_table():
    content = report.ReportContent(page_label="Overview", setting=SETTING)
    html = report.build_report(content, "brief")
    assert "How much noise each mechanism needs" in html and "Δ₂ = 1, d = 10" in html
