"""The Training (DP-SGD) page in AppTest: defaults, the URL, bad inputs, shuffling, the CLT flag, presenter mode.

Numbers read back from the page are checked against the core (Poisson sampling, docs/math.md section 13).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from gaussmech_core import dpsgd
from gaussmech_core.registry_types import Setting
from gaussmech_ui import reproduce
from gaussmech_ui.claims import recording
from gaussmech_ui.claims.dpsgd import round_up
from gaussmech_ui.format import format_number
from tests.app.page_helpers import APP_ROOT, open_page

PAGE = "pages/6_Training_DP_SGD.py"


def _text(at) -> str:
    return "\n".join(
        element.value
        for kind in ("markdown", "info", "warning", "caption")
        for element in at.get(kind)
        if element.value
    )


@pytest.fixture(scope="module")
def defaults():
    with recording() as made:
        at = open_page(PAGE)
    return at, made


def test_defaults_answer_with_the_certified_sigma_and_the_two_others(defaults):
    at, made = defaults
    assert at.title[0].value == "Which noise multiplier for DP-SGD?"
    q, steps = dpsgd.steps_for_epochs(60_000, 256, 10)
    calibration = dpsgd.dpsgd_sigma(1.0, 1e-5, q, steps)
    answer = at.info[0].value
    assert "Use noise multiplier σ" in answer and f"T = {steps:,}" in answer and "σ·C" in answer
    shown = at.dataframe[0].value["σ (noise multiplier)"].tolist()
    assert shown == [
        format_number(round_up(calibration.sigma, 4), 4),  # the bounds' σ rounded up: never below the certified
        format_number(round_up(dpsgd.dpsgd_rdp_sigma(1.0, 1e-5, q, steps), 4), 4),
        format_number(dpsgd.dpsgd_clt_sigma(1.0, 1e-5, q, steps), 4),
    ]
    assert float(shown[0]) >= calibration.sigma
    assert "Poisson" in _text(at)
    assert made and all(claim.violations() == [] for claim in made)


def test_the_clt_is_flagged_unsafe_at_the_defaults(defaults):
    at, _ = defaults
    table = at.dataframe[0].value
    assert table["what it is"].iloc[2] == "underestimates: unsafe"
    assert "underestimates: unsafe" in _text(at)


def test_the_band_chart_and_attack_numbers_are_shown(defaults, chart_specs):
    at, _ = defaults
    (spec,) = chart_specs(at)
    assert "Poisson sampling" in spec["layout"]["title"]["text"]
    assert [metric.label for metric in at.metric][:2] == ["TPR at 0.1% FPR, at most", "TPR at 1% FPR, at most"]


def test_url_round_trip_sets_every_input():
    at = open_page(
        PAGE,
        dpsgd_dataset_size="10000",
        dpsgd_batch_size="500",
        dpsgd_epochs="2",
        dpsgd_clipping_norm="3",
        dpsgd_sampling="Shuffled batches",
        epsilon="2",
    )
    q, steps = dpsgd.steps_for_epochs(10_000, 500, 2)
    assert f"T = {steps:,}" in at.info[0].value and "C = 3" in at.info[0].value
    for key, value in dict(
        dpsgd_dataset_size="10000", dpsgd_batch_size="500", dpsgd_epochs="2", dpsgd_clipping_norm="3"
    ).items():
        assert at.query_params[key] == [value] or at.query_params[key] == value
    assert "optimistic: no tight analysis exists for shuffling" in _text(at)


@pytest.mark.parametrize(
    "query, named",
    [
        (dict(dpsgd_dataset_size="100", dpsgd_batch_size="256"), "Batch size B = 256"),
        (dict(dpsgd_epochs="0"), "Epochs E = 0"),
        (dict(dpsgd_batch_size="1"), "Epochs E = 10"),
    ],
)
def test_bad_inputs_give_a_message_naming_the_input(query, named):
    at = open_page(PAGE, **query)
    assert any(named in warning.value for warning in at.warning), [w.value for w in at.warning]
    assert not at.dataframe


@pytest.mark.parametrize(
    "query, named",
    [
        (dict(epsilon="1000"), "The sidebar's ε = 1000 is above 50"),
        (dict(delta="1e-300"), "The sidebar's δ = 1e-300 is below 1e-20"),
        (dict(delta="0.999999"), "The sidebar's δ = 0.999999 is above 0.3"),
    ],
)
def test_a_target_beyond_the_page_budget_is_a_message_naming_it(query, named):
    at = open_page(PAGE, **query)
    assert any(named in warning.value for warning in at.warning), [w.value for w in at.warning]
    assert not at.dataframe


def test_the_most_demanding_target_the_page_allows_is_answered_by_the_core():
    # ε = 1e-6 at δ = 1e-20 is met by a huge σ (since the core's edge hardening): shown, rounded up.
    at = open_page(PAGE, epsilon="0.000001", delta="1e-20")
    sigma = dpsgd.dpsgd_sigma(1e-6, 1e-20, 256 / 60_000, 2_344).sigma
    assert any("Use noise multiplier σ = 3.449e8" in info.value for info in at.info), [i.value for i in at.info]
    assert 3.449e8 >= sigma


def test_a_target_no_sigma_meets_is_a_message_not_a_traceback(monkeypatch):
    def refuse(*args, **kwargs):
        raise ValueError("epsilon: no sigma up to 1e300 meets it")

    monkeypatch.setattr(dpsgd, "dpsgd_sigma", refuse)
    at = open_page(PAGE, epsilon="0.000123", delta="1e-19")  # a target no other test has cached
    assert any("No noise multiplier meets ε = 1.23e-4 at δ = 1e-19" in w.value for w in at.warning), [
        w.value for w in at.warning
    ]
    assert not at.dataframe


def test_presenter_mode_shows_the_chart_as_a_slide_with_its_caption():
    at = open_page(PAGE, present="1", slide="1")
    titles = [json.loads(chart.proto.spec)["layout"]["title"]["text"] for chart in at.get("plotly_chart")]
    assert titles and all("ε against epochs" in title and "Poisson sampling" in title for title in titles)
    assert any("the true ε lies in" in markdown.value for markdown in at.markdown)
    # One slide and no other view: nowhere to go, so the clicker's keys have nothing to press.
    assert at.button(key="presenter_next").disabled and at.button(key="presenter_previous").disabled


def test_the_reproduce_script_runs_from_a_temp_folder_and_prints_the_page_numbers(tmp_path):
    """The script the page's Python tool offers, saved in an empty folder and run there by a fresh Python.

    gaussmech_core is found as an installed package would be (PYTHONPATH: the checkout, as
    ``pip install <the checkout>`` would provide it), never through the folder the script is in.
    """
    values = dict(dpsgd_dataset_size="10000", dpsgd_batch_size="500", dpsgd_epochs="2", dpsgd_clipping_norm="3")
    at = open_page(PAGE, **values)
    at.session_state["page_tools_tab"] = "Python"
    at.run()
    assert not at.exception, at.exception
    script = tmp_path / "gaussmech-training.py"
    script.write_text(at.code[0].value, encoding="utf-8")
    environment = dict(os.environ, PYTHONPATH=str(APP_ROOT))
    output = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600
    )
    assert output.returncode == 0, output.stderr
    (table,) = reproduce.parse_output(output.stdout)
    shown = at.dataframe[0].value
    sigmas = shown["σ (noise multiplier)"].tolist()
    certified = float(table["certified sigma"][0])
    assert sigmas[0] == format_number(round_up(certified, 4), 4)
    assert shown["noise std σ·C"].iloc[0] == format_number(round_up(3 * certified, 4), 4)
    assert float(table["noise std sigma*C"][0]) == pytest.approx(3 * certified, rel=1e-9)
    assert sigmas[1] == format_number(round_up(float(table["RDP sigma"][0]), 4), 4)
    assert sigmas[2] == format_number(float(table["CLT sigma"][0]), 4)
    advantage = float(table["advantage (at most)"][0])
    shown_advantage = float(next(m.value for m in at.metric if m.label == "Advantage, at most"))
    assert advantage <= shown_advantage <= advantage * 1.01  # the bound, rounded up to 3 digits


def test_the_planner_map_is_computed_on_the_button_and_its_cells_are_the_core_sigma(chart_specs):
    at = open_page(PAGE, dpsgd_dataset_size="1000", dpsgd_batch_size="500", dpsgd_epochs="1")
    assert len(chart_specs(at)) == 1  # the band only: the map waits for its button
    at.button(key="dpsgd_map_button").click().run()
    assert not at.exception and not at.error
    band, heat = chart_specs(at)
    assert heat["data"][0]["type"] == "heatmap" and "Poisson sampling" in heat["layout"]["title"]["text"]
    batches = heat["data"][0]["x"]
    epochs = heat["data"][0]["y"]
    row, column = epochs.index("1"), batches.index("500")
    text = heat["data"][0]["text"][row][column]
    q, steps = dpsgd.steps_for_epochs(1000, 500, 1)
    assert text == format_number(round_up(dpsgd.dpsgd_sigma(1.0, 1e-5, q, steps).sigma), 3)
    assert any("certified σ runs from" in info.value for info in at.info)
    at.run()  # a rerun keeps the map (the session asked for it at these inputs)
    assert len(chart_specs(at)) == 2


def test_a_settings_file_reopens_the_page_with_its_inputs():
    from gaussmech_ui import share

    at = open_page("app.py")
    at.session_state["page_tools_tab"] = "Settings file"
    at.run()
    values = {"epsilon": "2", "dpsgd_dataset_size": "10000", "dpsgd_batch_size": "500", "dpsgd_epochs": "2"}
    data = share.settings_bytes(PAGE, values)
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("page_tools_settings_upload_"))
    uploader.set_value(("training.json", data, "application/json")).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Which noise multiplier for DP-SGD?"
    q, steps = dpsgd.steps_for_epochs(10_000, 500, 2)
    assert f"T = {steps:,}" in at.info[0].value and "ε = 2" in at.info[0].value


def test_the_report_holds_the_band_chart_and_its_caption(defaults):
    from gaussmech_ui import report
    from gaussmech_ui.figures import dpsgd as figures

    at, _ = defaults
    caption = at.info[1].value
    assert caption.startswith("After E = 10 epochs")
    q, steps = dpsgd.steps_for_epochs(60_000, 256, 10)
    band = pd.DataFrame(
        [dict(epochs=10.0, steps=steps, epsilon_low=0.99, epsilon_high=1.0, rdp_epsilon=1.2, clt_epsilon=0.93)]
    )
    figure = figures.epsilon_band_figure(band, sigma=1.05, target=1.0, delta=1e-5, scheme="Poisson sampling")
    content = report.ReportContent(
        page_label="Training (DP-SGD)",
        setting=Setting(epsilon=1.0, delta=1e-5),
        charts=[report.ReportChart(figure, "ε against epochs", caption, at.info[0].value)],
    )
    for version in report.VERSIONS:
        html = report.build_report(content, version)
        assert "Training (DP-SGD)" in html and "Use noise multiplier σ" in html  # the answer, in both
    assert "stopping earlier spends less" in report.build_report(content, "full")  # the caption, in the full one


def _training_line(**inputs) -> str:
    values = dict(dataset_size=60_000, batch_size=256, epochs=10, clipping_norm=1)
    values.update(inputs)
    q, steps = dpsgd.steps_for_epochs(values["dataset_size"], values["batch_size"], values["epochs"])
    return (
        f"ε = 1, δ = 1e-5, N = {values['dataset_size']:,}, B = {values['batch_size']:,}, E = {values['epochs']:g}, "
        f"C = {values['clipping_norm']:g}, Poisson sampling (q = {format_number(q, 4)}, T = {steps:,} steps)"
    )


def test_a_slide_states_the_pages_inputs_not_the_sidebars_unused_fields():
    at = open_page(PAGE, present="1", slide="1", dpsgd_batch_size="512")
    texts = [markdown.value for markdown in at.markdown]
    assert _training_line(batch_size=512) in texts
    assert not any("Δ₂" in text or "d = 10" in text for text in texts), texts


def test_the_link_tool_names_the_pages_inputs_by_their_labels():
    at = open_page(PAGE, dpsgd_dataset_size="1000", dpsgd_sampling="Shuffled batches")
    holds = next(markdown.value for markdown in at.markdown if "It holds:" in markdown.value)
    assert "Dataset size N = 1,000" in holds and "Batches: Shuffled batches" in holds
    assert "dpsgd_" not in holds and "(this page)" not in holds


def test_the_figures_and_report_tools_state_the_pages_line_and_its_sigma_table(monkeypatch):
    from gaussmech_ui import page_tools, report

    made = {}

    def image_maker(chart, setting, image_format, line):
        made["line"] = line  # what the image would state, without starting a browser
        return lambda: b""

    def report_maker(content, version):
        made["content"] = content
        return lambda: b""

    monkeypatch.setattr(page_tools, "_image_maker", image_maker)
    monkeypatch.setattr(page_tools, "_report_maker", report_maker)
    at = open_page(PAGE)
    at.session_state["page_tools_tab"] = "Figures"
    at.run()
    assert not at.exception, at.exception
    assert made["line"] == _training_line()
    assert any("gaussmech-dpsgd-epsilon-epochs-eps1-delta1e-5.svg" in caption.value for caption in at.caption)
    at.session_state["page_tools_tab"] = "Report"
    at.run()
    assert not at.exception, at.exception
    shown = at.dataframe[0].value
    for version in report.VERSIONS:
        html = report.build_report(made["content"], version)
        assert f"<p class='setting'>{_training_line()}</p>" in html
        assert "How much noise each mechanism needs" not in html and "Δ₂" not in html and "d = 10" not in html
        assert "The noise multiplier σ for this training run" in html
        assert all(f"<td>{sigma}</td>" in html for sigma in shown["σ (noise multiplier)"])


def test_the_python_script_header_states_the_pages_line():
    at = open_page(PAGE, dpsgd_dataset_size="10000", dpsgd_epochs="2", dpsgd_clipping_norm="3")
    at.session_state["page_tools_tab"] = "Python"
    at.run()
    assert not at.exception, at.exception
    header = at.code[0].value.splitlines()[0]
    assert header == "# gaussmech: Training (DP-SGD) at " + _training_line(
        dataset_size=10_000, epochs=2, clipping_norm=3
    )
