"""The Overview page (app.py) in AppTest: what it shows, and that every sidebar control changes it."""

from __future__ import annotations

import numpy as np
import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui.params import exact_key, widget_key


def _table(at):
    (element,) = at.dataframe
    return element.value.set_index("Mechanism")


def _main_text(at) -> str:
    parts = [element.value for element in at.main.get("markdown")]
    parts += [element.value for kind in ("info", "warning", "error", "caption") for element in at.main.get(kind)]
    return "\n".join(str(part) for part in parts)


def _std_chart(at, chart_specs):
    return chart_specs(at)[0]


def _snapshot(at, chart_specs) -> dict:
    """Everything the Overview shows that depends on the setting: table, charts, caption."""
    specs = chart_specs(at)
    return {
        "table": _table(at).to_dict(),
        "std_chart": [
            (trace["name"], np.asarray(trace["y"], dtype=float).round(12).tolist()) for trace in specs[0]["data"]
        ],
        "std_title": specs[0]["layout"]["title"]["text"],
        "ratio_chart": [
            (trace["name"], np.asarray(trace["y"], dtype=float).round(12).tolist()) for trace in specs[1]["data"]
        ],
        "caption": at.info[0].value,
    }


@pytest.fixture
def overview(app_test):
    at = app_test.run()
    assert not at.exception, at.exception
    return at


def test_the_overview_shows_a_table_two_charts_downloads_and_the_math(overview, chart_specs):
    at = overview
    assert not at.error
    assert at.title[0].value == "How much noise does each mechanism need?"
    table = _table(at)
    from gaussmech_ui.figures.common import trace_name

    assert list(table.index) == [trace_name(mechanism) for mechanism in MECHANISMS.values()]
    for column in ("Guarantee", "Scale", "Noise std per coordinate", "E‖noise‖₂² at d = 10", "Validity", "Source"):
        assert column in table.columns
    specs = chart_specs(at)
    assert len(specs) == 2
    assert specs[0]["layout"]["xaxis"]["type"] == "log" and specs[0]["layout"]["yaxis"]["type"] == "log"
    assert len(at.get("download_button")) == 3
    expander = next(expander for expander in at.expander if expander.label == "The math")
    assert len(expander.get("latex")) >= 8
    assert "Balle & Wang 2018" in "\n".join(m.value for m in expander.markdown)


def test_the_table_has_the_reference_numbers_at_the_defaults(overview):
    table = _table(overview)
    analytic = table.loc[MECHANISMS["analytic_gaussian"].name]
    assert analytic["Scale"] == "σ = 3.73" and analytic["Noise std per coordinate"] == "3.73"
    assert analytic["E‖noise‖₂² at d = 10"] == "139"  # 10 × 3.7306² = 139.2
    assert analytic["Validity"] == "✓ holds"
    assert "σ = 3.73" in overview.info[0].value


def test_the_classical_gaussian_is_not_a_theorem_at_epsilon_one(overview):
    row = _table(overview).loc[MECHANISMS["classical_gaussian"].name]
    assert row["Scale"] == "—" and row["Noise std per coordinate"] == "—"
    assert "not a theorem" in row["Validity"].lower()
    assert "4.84" not in overview.info[0].value


def test_at_epsilon_one_half_the_classical_gaussian_is_compared(app_test):
    app_test.query_params["epsilon"] = "0.5"
    at = app_test.run()
    row = _table(at).loc[MECHANISMS["classical_gaussian"].name]
    assert row["Scale"] == "σ = 9.69"
    assert at.info[0].value.startswith(
        "At ε = 0.5 and δ = 1e-5, the analytic Gaussian needs σ = 7.03, 27% less than the classical formula's 9.69."
    )


def test_r1smg_shows_its_claim_next_to_its_true_delta_and_a_warning(overview):
    row = _table(overview).loc["R1SMG, claimed (Ji & Li 2024)"]
    assert "claimed (1, 1e-5)-DP" in row["Guarantee"] and "true δ" in row["Guarantee"]
    assert row["Validity"].startswith("⚠")
    warnings = [w.value for w in overview.warning]
    assert any("R1SMG, claimed (Ji & Li 2024)" in w and "does not hold" in w for w in warnings)


def test_the_chart_marks_the_current_epsilon_and_omits_invalid_regions(overview, chart_specs):
    spec = _std_chart(overview, chart_specs)
    assert [shape["x0"] for shape in spec["layout"]["shapes"]] == [1.0]
    classical = next(trace for trace in spec["data"] if trace["name"] == MECHANISMS["classical_gaussian"].name)
    x = np.asarray(classical["x"], dtype=float)
    y = np.asarray(classical["y"], dtype=float)
    assert np.all(np.isnan(y[x >= 1])) and np.all(np.isfinite(y[x < 1]))


@pytest.mark.parametrize(
    ("control", "change"),
    [
        ("epsilon slider", lambda at: at.select_slider(key=widget_key("epsilon")).set_value(0.3)),
        ("epsilon entry", lambda at: at.text_input(key=exact_key("epsilon")).input("2.5")),
        ("delta slider", lambda at: at.select_slider(key=widget_key("delta")).set_value(1e-10)),
        ("delta entry", lambda at: at.text_input(key=exact_key("delta")).input("3e-4")),
        ("sensitivity", lambda at: at.text_input(key=exact_key("sensitivity")).input("2")),
        ("order", lambda at: at.slider(key=widget_key("order")).set_value(3.0)),
        ("dim slider", lambda at: at.select_slider(key=widget_key("dim")).set_value(100)),
        ("dim entry", lambda at: at.text_input(key=exact_key("dim")).input("42")),
        ("l1 model", lambda at: at.radio(key=widget_key("l1_model")).set_value("all_coordinates")),
    ],
)
def test_every_sidebar_control_changes_what_the_overview_shows(overview, chart_specs, control, change):
    before = _snapshot(overview, chart_specs)
    change(overview).run()
    assert not overview.exception and not overview.error
    after = _snapshot(overview, chart_specs)
    assert after["table"] != before["table"], f"{control} did not change the table"
    assert after["std_chart"] != before["std_chart"] or after["std_title"] != before["std_title"], (
        f"{control} did not change the chart"
    )


def test_delta_changes_the_ratio_chart_and_every_row_it_should(overview, chart_specs):
    before = _snapshot(overview, chart_specs)
    overview.select_slider(key=widget_key("delta")).set_value(1e-3).run()
    after = _snapshot(overview, chart_specs)
    assert after["ratio_chart"] != before["ratio_chart"]
    assert any("δ = 0.001 (current)" == name for name, _ in after["ratio_chart"])
    assert after["caption"] != before["caption"]


def test_laplace_follows_the_l1_model(overview):
    name = MECHANISMS["laplace"].name
    overview.select_slider(key=widget_key("dim")).set_value(100).run()
    one = _table(overview).loc[name, "Scale"]
    overview.radio(key=widget_key("l1_model")).set_value("all_coordinates").run()
    every = _table(overview).loc[name, "Scale"]
    assert (one, every) == ("b = 1", "b = 10")  # Δ₁ = √100 · Δ


def test_no_traceback_reaches_the_page_when_a_part_fails(app_test, monkeypatch):
    import gaussmech_ui.cached.overview as cached

    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(cached, "std_sweep", broken)
    at = app_test.run()
    assert not at.exception
    assert len(at.error) == 1 and "simulated failure" in at.error[0].value
    assert len(chart_specs_count := at.get("plotly_chart")) == 1, chart_specs_count  # the other chart still draws
    assert _table(at) is not None
