"""The denoising lab (pages/5_Denoising_lab.py) in AppTest: data, release, denoising, sweep, uploads, links."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from gaussmech_core.discrete_gaussian import discrete_gaussian_smallest_sigma
from gaussmech_ui.examples import carshare_heatmap, sparse_dirichlet_histogram
from gaussmech_ui.format import format_number
from gaussmech_ui.params import exact_key, widget_key

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/5_Denoising_lab.py"


def _open(**query) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def lab() -> AppTest:
    return _open()


def _texts(at, kind: str) -> list[str]:
    return [str(element.value) for element in at.get(kind)]


def _all_text(at) -> str:
    kinds = ("markdown", "caption", "info", "warning", "error", "success")
    return "\n".join(text for kind in kinds for text in _texts(at, kind))


def _noise_line(at) -> str:
    (line,) = [text for text in _texts(at, "markdown") if text.startswith("**Noise:**")]
    return line


@pytest.fixture
def upload_page() -> AppTest:
    """The lab opened on its upload box (through a link, which skips drawing the default example)."""
    at = _open(denoising_data="Upload a CSV")
    assert at.button_group(key="denoising_data").value == "upload"
    return at


def _upload(at, name: str, content: bytes) -> AppTest:
    at.file_uploader(key="denoising_upload").set_value((name, content, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _table(at, first_column: str):
    """The dataframe whose first column is ``first_column`` (AppTest does not expose dataframe keys)."""
    (frame,) = [element.value for element in at.dataframe if element.value.columns[0] == first_column]
    return frame


def _lines(spec) -> list[dict]:
    return [trace for trace in spec["data"] if trace.get("mode") == "lines+markers"]


# --- defaults -----------------------------------------------------------------------------------------


def test_the_lab_opens_on_the_sparse_histogram_with_every_part(lab, chart_specs):
    at = lab
    assert not at.error and not at.warning
    assert at.title[0].value == "The denoising lab"
    specs = chart_specs(at)
    assert len(specs) == 3
    truth = sparse_dirichlet_histogram(1000, 10_000, 0).counts
    comparison = specs[0]
    assert [trace["type"] for trace in comparison["data"]] == ["bar"] * 3
    np.testing.assert_array_equal(comparison["data"][0]["y"], truth)
    released = np.asarray(comparison["data"][1]["y"])
    assert 2.0 < np.std(released - truth) < 6.0, "analytic Gaussian noise, σ = 3.73 at ε = 1, δ = 1e-5"
    denoised = np.asarray(comparison["data"][2]["y"])
    assert denoised.min() >= 0 and denoised.sum() == pytest.approx(10_000), "projected onto counts with total n"
    text = _all_text(at)
    assert "only because this is a teaching lab" in text
    assert "not used on this page" in text and "Δ₂ = 1, Δ₁ = 1" in text
    assert "σ = 3.73" in _noise_line(at)
    assert "smaller, at no privacy cost" in at.info[0].value
    table = _table(at, "Metric")
    assert table["Metric"].tolist()[:4] == ["MSE", "l1 distance", "KL divergence", "max error"]
    keys = {button.key for button in at.get("download_button")}
    assert {
        "denoising_download_published",
        "denoising_download_values",
        "denoising_download_metrics",
        "denoising_download_sweep",
    } <= keys
    sweep = specs[2]
    assert sweep["layout"]["xaxis"]["type"] == "log" and sweep["layout"]["yaxis"]["type"] == "log"
    names = [trace["name"] for trace in _lines(sweep)]
    assert "Analytic Gaussian, raw release (no denoising)" in names
    assert "Laplace, Soft thresholding → Project onto counts with total n" in names
    assert [metric.label for metric in at.metric] == ["Analytic Gaussian", "Classical Gaussian", "Laplace"]
    assert at.metric[1].value == "not valid here", "the classical Gaussian at ε = 1"
    assert any(
        "No curve for ε from 1 to 100: the guarantee does not hold there." in caption
        for caption in _texts(at, "caption")
    )


def test_the_same_setting_gives_the_same_release_and_draw_again_a_new_one(lab, chart_specs):
    at = lab
    truth = np.asarray(chart_specs(at)[0]["data"][0]["y"])
    first = np.asarray(chart_specs(at)[0]["data"][1]["y"])
    at.run()
    np.testing.assert_array_equal(np.asarray(chart_specs(at)[0]["data"][1]["y"]), first)
    at.button(key="denoising_draw_again").click().run()
    assert at.number_input(key="denoising_draw").value == 1
    assert not at.warning, "the seed box is moved through session state without a Streamlit warning"
    again = np.asarray(chart_specs(at)[0]["data"][1]["y"])
    assert not np.array_equal(again, first)
    np.testing.assert_array_equal(chart_specs(at)[0]["data"][0]["y"], truth)
    assert "release seed 1" in chart_specs(at)[0]["layout"]["title"]["text"]


# --- the sidebar and the release controls ------------------------------------------------------------


def test_a_smaller_epsilon_adds_more_noise_and_moves_the_sweep_marker(lab, chart_specs):
    at = lab
    at.select_slider(key=widget_key("epsilon")).set_value(0.5).run()
    assert not at.exception and not at.error
    assert "σ = 7.03" in _noise_line(at)
    annotations = " ".join(a.get("text", "") for a in chart_specs(at)[2]["layout"]["annotations"])
    assert "current ε = 0.5" in annotations
    assert "Improvement factor at the current ε = 0.5" in _all_text(at)
    assert at.metric[1].value.endswith("×"), "the classical Gaussian is valid at ε = 0.5"


def test_replace_one_record_doubles_the_l1_sensitivity(lab):
    at = lab
    at.radio(key="denoising_relation").set_value("replace").run()
    assert "Δ₂ = 1.41, Δ₁ = 2" in _all_text(at)
    assert "calibrated at Δ₂ = 1.41" in _noise_line(at)
    at.selectbox(key="denoising_mechanism").set_value("laplace").run()
    line = _noise_line(at)
    assert "b = 2" in line and "Δ₁ = 2" in line and "δ is not used" in line
    assert "as heuristics" in _all_text(at), "the Gaussian risk theorems do not cover Laplace noise"


def _round_up_sentences(at) -> list[str]:
    return [text for text in _texts(at, "caption") if "but some larger σ do not" in text]


def _discrete_release(at, relation: str) -> AppTest:
    at.selectbox(key="denoising_mechanism").set_value("discrete_gaussian").run()
    at.radio(key="denoising_relation").set_value(relation).run()
    assert not at.exception and not at.error
    return at


@pytest.mark.parametrize(
    "epsilon, delta, relation", [("5", "0.01", "add_remove"), ("8", "0.1", "replace"), ("15", "0.00001", "replace")]
)
def test_the_discrete_gaussian_says_where_a_larger_sigma_is_not_private(epsilon, delta, relation):
    """Where the smallest private σ is not safe to round up, the release uses σ₀ of its own relation and
    says so in one sentence whose numbers are the core's."""
    at = _discrete_release(_open(epsilon=epsilon, delta=delta), relation)
    (sentence,) = _round_up_sentences(at)
    answer = discrete_gaussian_smallest_sigma(float(epsilon), float(delta), 1, relation)
    smallest, below, safe = (float(x) for x in re.findall(r"\d+\.\d+", sentence))
    assert sentence.startswith("Discrete Gaussian: the smallest σ that meets (ε, δ) is about")
    assert smallest == pytest.approx(answer.smallest_sigma, rel=1e-3) and below == safe
    assert answer.safe_sigma <= safe <= answer.safe_sigma * (1 + 1e-3) and smallest < safe
    assert f"σ = {format_number(answer.safe_sigma)}," in _noise_line(at), "the σ released with is σ₀"


@pytest.mark.parametrize(
    "epsilon, delta, relation", [(None, None, "add_remove"), (None, None, "replace"), ("5", "0.01", "replace")]
)
def test_no_such_sentence_where_the_smallest_private_sigma_is_safe(epsilon, delta, relation):
    """The default setting says nothing; nor does replace at (5, 0.01), where add/remove would."""
    query = {} if epsilon is None else dict(epsilon=epsilon, delta=delta)
    at = _discrete_release(_open(**query), relation)
    model_sigma = discrete_gaussian_smallest_sigma(at.session_state["epsilon"], at.session_state["delta"], 1, relation)
    assert model_sigma.smallest_sigma == model_sigma.safe_sigma
    assert not _round_up_sentences(at)
    assert f"σ = {format_number(model_sigma.safe_sigma)}," in _noise_line(at)


def test_the_generalized_gaussian_says_how_it_is_calibrated_for_two_changed_bins(lab):
    at = lab
    at.slider(key=widget_key("order")).set_value(3.0).run()
    at.selectbox(key="denoising_mechanism").set_value("generalized_gaussian").run()
    at.radio(key="denoising_relation").set_value("replace").run()
    assert not at.error
    notes = _texts(at, "info")
    assert any("(ε/2, δ/2), basic composition" in note for note in notes)
    assert "GG(p = 3)" in _noise_line(at)


def test_the_classical_gaussian_is_not_used_where_its_guarantee_fails(lab, chart_specs):
    at = lab
    at.selectbox(key="denoising_mechanism").set_value("classical_gaussian").run()
    assert not at.exception and not at.error
    assert any("proved only for 0 < ε < 1" in w and "Nothing is released" in w for w in _texts(at, "warning"))
    assert len(chart_specs(at)) == 1, "no release to show; the sweep still draws where it is valid"
    at.select_slider(key=widget_key("epsilon")).set_value(0.5).run()
    assert not at.warning and len(chart_specs(at)) == 3


# --- the pipeline -------------------------------------------------------------------------------------


def test_no_denoising_step_keeps_the_release(lab, chart_specs):
    at = lab
    at.selectbox(key="denoising_estimator_histogram").set_value("none").run()
    at.selectbox(key="denoising_projection").set_value("none").run()
    comparison = chart_specs(at)[0]
    np.testing.assert_array_equal(comparison["data"][2]["y"], comparison["data"][1]["y"])
    assert "No denoising is chosen" in at.info[0].value
    assert "only the raw release is drawn" in _all_text(at)
    assert [trace["name"] for trace in _lines(chart_specs(at)[2])][0].endswith("raw release (no denoising)")


def test_rounding_gives_whole_counts_with_the_public_total(lab, chart_specs):
    at = lab
    at.toggle(key="denoising_round").set_value(True).run()
    denoised = np.asarray(chart_specs(at)[0]["data"][2]["y"])
    np.testing.assert_array_equal(denoised, np.round(denoised))
    assert denoised.sum() == 10_000
    assert "Round to whole counts" in _all_text(at)


def test_without_a_public_total_the_projections_that_need_it_disappear(lab):
    at = lab
    at.toggle(key="denoising_total_public").set_value(False).run()
    options = at.selectbox(key="denoising_projection").options
    assert "Project onto counts with total n" not in options and "Clip negatives to 0" in options
    assert at.selectbox(key="denoising_projection").value == "nonnegative"


def test_the_oracle_prior_is_announced_as_a_yardstick(lab):
    at = lab
    at.selectbox(key="denoising_estimator_histogram").set_value("posterior_mean").run()
    assert any("oracle prior" in note for note in _texts(at, "info"))


def test_comparing_every_estimator_adds_curves_and_the_metric_and_r_can_change(lab, chart_specs):
    at = lab
    before = len(_lines(chart_specs(at)[2]))
    at.toggle(key="denoising_compare_all").set_value(True).run()
    assert len(_lines(chart_specs(at)[2])) > before
    at.selectbox(key="denoising_metric").set_value("kl").run()
    assert chart_specs(at)[2]["layout"]["yaxis"]["title"]["text"].startswith("KL")
    at.select_slider(key="denoising_repetitions").set_value(50).run()
    assert "R = 50" in chart_specs(at)[2]["layout"]["title"]["text"]
    assert not at.exception and not at.error


def test_a_large_histogram_asks_before_running_the_sweep(lab, chart_specs):
    at = lab
    at.number_input(key="denoising_bins").set_value(300_000).run()
    assert not at.exception and not at.error
    assert len(chart_specs(at)) == 2, "the comparison charts only; the sweep waits"
    # No "run it anyway" (issue 23, item 2): the reason, and the R that fits.
    assert not [t for t in at.toggle if t.key == "denoising_run_large"]
    assert any("This sweep is not run" in text and "fits" in text for text in _texts(at, "info"))
    assert "showing 1–2,000 of 300,000" in chart_specs(at)[0]["layout"]["xaxis3"]["title"]["text"]
    at.number_input(key="denoising_first_bin").set_value(5001).run()
    assert chart_specs(at)[0]["data"][0]["x"][0] == 5001


# --- the other built-in data sets ----------------------------------------------------------------------


def test_mean_estimation_uses_its_own_sensitivity_and_prior(lab, chart_specs):
    at = lab
    at.button_group(key="denoising_data").set_value("mean_estimation").run()
    assert not at.exception and not at.error
    assert not at.get("radio") or "denoising_relation" not in {r.key for r in at.radio}
    text = _all_text(at)
    assert "Δ₂ = 0.02, Δ₁ = 0.2" in text and "replace one point" in text
    assert at.selectbox(key="denoising_estimator_values").value == "james_stein_plus"
    assert "denoising_projection" not in {s.key for s in at.selectbox}
    table = _table(at, "Metric").set_index("Metric")
    assert table.loc["KL divergence", "Released (raw)"] == "—"
    assert at.selectbox(key="denoising_metric").options == ["MSE", "l1 distance", "max error"]
    at.selectbox(key="denoising_estimator_values").set_value("posterior_mean").run()
    assert "known from how the data were generated" in _all_text(at)


def test_the_car_sharing_heat_map_is_drawn_as_three_maps(lab, chart_specs):
    at = lab
    at.button_group(key="denoising_data").set_value("carshare").run()
    assert not at.exception and not at.error
    comparison = chart_specs(at)[0]
    assert [trace["type"] for trace in comparison["data"]] == ["heatmap"] * 3
    np.testing.assert_array_equal(comparison["data"][0]["z"], carshare_heatmap((16, 16), "locations").counts)
    assert at.selectbox(key="denoising_estimator_grid").value == "wavelet_soft_threshold"
    assert [trace["type"] for trace in chart_specs(at)[1]["data"]] == ["heatmap"] * 2


# --- uploads ------------------------------------------------------------------------------------------


def test_a_single_column_upload_is_read_and_released(upload_page, chart_specs):
    at = _upload(upload_page, "counts.csv", b"count\n3\n0\n12\n5\n0\n")
    assert not at.error
    assert at.success[0].value == "Read 5 rows: 5 bins, total 20."
    np.testing.assert_array_equal(chart_specs(at)[0]["data"][0]["y"], [3, 0, 12, 5, 0])
    assert len(chart_specs(at)) == 3


def test_labels_are_text_never_formulas_and_a_bom_is_read(upload_page, chart_specs):
    content = codecs.BOM_UTF8 + "label,count\n=1+1,4\n@SUM(A1),2\n<b>x</b>,7\n".encode()
    at = _upload(upload_page, "labels.csv", content)
    assert not at.error
    preview = _table(at, "bin")
    assert preview["bin"].tolist() == ["=1+1", "@SUM(A1)", "<b>x</b>"]
    hover = chart_specs(at)[0]["data"][0]["customdata"]
    assert list(hover) == ["=1+1", "@SUM(A1)", "&lt;b&gt;x&lt;/b&gt;"]


def test_an_ambiguous_file_lets_the_person_pick_the_column(upload_page):
    at = _upload(upload_page, "two.csv", b"fruit,count,weight\napple,3,1\npear,5,2\nfig,0,3\nplum,12,1\n")
    assert at.success[0].value == "Read 4 rows: 4 bins, total 20."
    assert any("Several columns hold numbers" in w for w in _texts(at, "warning"))
    picker = at.selectbox(key="denoising_upload_column")
    assert picker.options == ["count", "weight"] and picker.value == "count"
    picker.set_value("weight").run()
    assert at.success[0].value == "Read 4 rows: 4 bins, total 7."


def test_a_grid_upload_becomes_a_heat_map_and_can_be_read_as_one_histogram(upload_page, chart_specs):
    content = b"r,a,b,c\nx,1,0,2\ny,0,5,1\nz,3,0,0\n"
    at = _upload(upload_page, "grid.csv", content)
    assert at.success[0].value == "Read 3 rows: 9 bins (3 × 3 grid), total 12."
    assert chart_specs(at)[0]["data"][0]["type"] == "heatmap"
    at.selectbox(key="denoising_upload_shape").set_value("1d").run()
    assert not at.error and chart_specs(at)[0]["data"][0]["type"] == "bar"
    assert at.selectbox(key="denoising_upload_column").options == ["a", "b", "c"]


MALFORMED = {
    "empty": (b"", "empty"),
    "ragged": (b"label,count\na,1\nb\nc,3,4,5\n", "line 3"),
    "negative": (b"count\n3\n-2\n", "line 3"),
    "text in counts": (b"label,count\na,1\nb,2\nc,lots\nd,3\ne,1\n", "line 4"),
    "no numbers": (b"name\nalice\nbob\n", "no column of numbers"),
    "excel workbook": (b"PK\x03\x04rest-of-a-zip", "excel"),
    "binary": (b"count\n1\n\x00\x00\n", "nul"),
    "not utf-8": (b"label,count\ncaf\xe9,1\n", "line 2"),
    "unclosed quote": (b'label,count\n"open,1\nb,2\n', "never closed"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_upload_says_what_is_wrong_and_where(upload_page, chart_specs, case):
    content, where = MALFORMED[case]
    at = _upload(upload_page, f"{case}.csv", content)
    errors = _texts(at, "error")
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"Could not read **{case}.csv**")
    assert where in errors[0].lower()
    assert chart_specs(at) == [], "nothing is released from a file that could not be read"


def test_the_upload_box_explains_the_formats_before_a_file_arrives(lab):
    at = lab
    at.button_group(key="denoising_data").set_value("upload").run()
    assert not at.get("plotly_chart"), "nothing to release before a file arrives"
    assert not at.error and not at.exception
    assert "never written to disk" in at.info[0].value


# --- links --------------------------------------------------------------------------------------------


def test_a_link_opens_the_heat_map_at_its_settings(chart_specs):
    at = _open(
        **{
            "denoising_data": "Car-sharing heat map",
            "denoising_grid_rows": "8",
            "denoising_mechanism": "Laplace",
            "denoising_draw": "3",
        }
    )
    assert not at.error and not at.warning
    comparison = chart_specs(at)[0]
    assert np.asarray(comparison["data"][0]["z"]).shape == (8, 16)
    assert "Laplace" in _noise_line(at) and "release seed 3" in comparison["layout"]["title"]["text"]


def test_a_bad_link_value_is_a_warning_and_the_default(chart_specs):
    at = _open(denoising_bins="abc", denoising_round="maybe")
    warnings = _texts(at, "warning")
    assert any("`denoising_bins=abc`" in w and "cannot use that value. Using the default" in w for w in warnings)
    assert any("denoising_round=maybe" in w for w in warnings)
    assert not at.error
    assert len(chart_specs(at)[0]["data"][0]["y"]) == 1000


def test_sidebar_values_not_used_here_do_not_change_the_page(chart_specs):
    baseline = _open()
    changed = _open(sensitivity="7", dim="50", l1="all_coordinates")
    assert _noise_line(changed) == _noise_line(baseline)
    np.testing.assert_array_equal(chart_specs(changed)[0]["data"][1]["y"], chart_specs(baseline)[0]["data"][1]["y"])
    assert changed.text_input(key=exact_key("sensitivity")).value == "7"


def test_each_kind_of_data_keeps_its_own_estimator(lab):
    at = lab
    at.selectbox(key="denoising_estimator_histogram").set_value("empirical_bayes").run()
    at.button_group(key="denoising_data").set_value("carshare").run()
    assert at.selectbox(key="denoising_estimator_grid").value == "wavelet_soft_threshold"
    at.button_group(key="denoising_data").set_value("sparse_dirichlet").run()
    assert at.selectbox(key="denoising_estimator_histogram").value == "empirical_bayes"


def test_the_page_settings_survive_a_visit_to_another_page(lab):
    at = lab
    at.selectbox(key="denoising_mechanism").set_value("laplace").run()
    at.button_group(key="denoising_data").set_value("carshare").run()
    at.switch_page("app.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.selectbox(key="denoising_mechanism").value == "laplace"
    assert at.button_group(key="denoising_data").value == "carshare"


def _history_spec(at, chart_specs) -> dict:
    (spec,) = [
        s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith("The error of every release so far")
    ]
    return spec


def test_draw_again_keeps_the_error_of_every_release_in_a_history(lab, chart_specs):

    at = lab
    assert not any(s["layout"]["title"]["text"].startswith("The error of every") for s in chart_specs(at))
    at.button(key="denoising_history_draw_again").click().run()
    assert at.number_input(key="denoising_draw").value == 1 and at.query_params["denoising_history"] == "2"
    raw, denoised = _history_spec(at, chart_specs)["data"]
    assert raw["name"] == "released (2 releases)" and denoised["name"] == "denoised (2 releases)"
    at.button(key="denoising_history_draw_ten").click().run()
    assert at.number_input(key="denoising_draw").value == 11 and at.query_params["denoising_history"] == "12"
    spec = _history_spec(at, chart_specs)
    assert "12 releases, seeds 0 to 11" in spec["layout"]["title"]["text"]
    released = np.asarray(spec["data"][0]["x"], dtype=float)
    assert released.size == 12
    # The last entry is the release the lab shows now (seed 11): the same error as its metrics table.
    truth = np.asarray(chart_specs(at)[0]["data"][0]["y"], dtype=float)
    shown = np.asarray(chart_specs(at)[0]["data"][1]["y"], dtype=float)
    assert released[-1] == pytest.approx(float(np.mean((shown - truth) ** 2)), rel=1e-9)
    caption = next(c for c in _texts(at, "caption") if c.startswith("12 releases of the same data"))
    again = _open(denoising_draw="11", denoising_history="12")
    assert caption in _texts(again, "caption"), "the same link shows the same history"
    at.button(key="denoising_history_new_history").click().run()
    assert at.query_params["denoising_history"] == "1"
    assert any(c.startswith("“Draw again” releases the same data") for c in _texts(at, "caption"))


def test_a_link_to_a_million_bins_and_a_history_of_100_draws_within_the_budget(chart_specs):
    at = _open(denoising_bins="1000000", denoising_draw="99", denoising_history="100")
    assert not at.error, [e.value for e in at.error]
    spec = _history_spec(at, chart_specs)
    released = np.asarray(spec["data"][0]["x"], dtype=float)
    assert released.size == 5, "5e6 bin-releases at 1e6 bins: five releases, not a hundred"
    assert any(c.startswith("The history shows the last 5 of 100 releases") for c in _texts(at, "caption"))
    assert any("This sweep is not run" in text for text in _texts(at, "info"))


def test_a_session_that_lost_its_upload_to_a_failover_is_told_so(upload_page):
    at = _upload(upload_page, "mine.csv", b"fruit,count\napple,3\npear,5\n")
    mark = at.query_params["denoising_upload_mark"]
    assert mark and "apple" not in mark and "mine" not in mark  # a digest, never the file's name or content
    assert not any("not on this server any more" in w for w in _texts(at, "warning"))
    # Another replica: the same URL (the browser keeps it), a new session without the file.
    moved = _open(denoising_data="Upload a CSV", denoising_upload_mark=mark)
    assert any("not on this server any more" in w and "Upload it again" in w for w in _texts(moved, "warning"))
    # Removing the file on purpose is not a loss.
    at.file_uploader(key="denoising_upload").set_value(None).run()
    assert "denoising_upload_mark" not in at.query_params
    assert not any("not on this server any more" in w for w in _texts(at, "warning"))
