"""The page tools, presenter mode, the Class tour and the attack-risk section in AppTest.

Every new control is driven here; the numbers the pages show are compared with what the
"Reproduce in Python" snippet of the page prints at the same setting.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui import share
from gaussmech_ui.format import format_number, format_percent
from gaussmech_ui.reproduce import parse_output, snippet
from tests.app.page_helpers import open_page

BY_NAME = {m.name: m for m in MECHANISMS.values()}


def _run_snippet(code: str) -> dict[str, list[dict[str, list[str]]]]:
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    return parse_output(output.getvalue())


def _setting(at):
    from gaussmech_ui.params import DEFAULTS, make_setting

    return make_setting({name: at.session_state[name] for name in DEFAULTS})


def _frame_with(at, column: str):
    """The displayed table that has ``column`` (dataframes carry no key in AppTest)."""
    return next(d.value for d in at.dataframe if column in d.value.columns).set_index("Mechanism")


def _tool(at, name: str):
    at.session_state["page_tools_tab"] = name
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"epsilon": "0.5", "delta": "1e-8", "dim": "50", "l1": "all_coordinates"},
        {"epsilon": "3", "sensitivity": "2", "order": "1.5", "dim": "4"},
    ],
)
def test_the_overview_table_shows_what_its_snippet_prints(query):
    at = open_page("app.py", **query)
    setting = _setting(at)
    _tool(at, "Python")
    code = at.code[0].value
    assert code.strip() == snippet("app.py", setting, file_name="gaussmech-overview.py").strip()
    (calibration,) = _run_snippet(code)
    table = at.dataframe[0].value.set_index("Mechanism")
    from gaussmech_ui.figures.common import trace_name

    for name, cells in calibration.items():
        row = table.loc[trace_name(BY_NAME[name])]  # the table names R1SMG as everywhere: "R1SMG, claimed (...)"
        if cells[0].startswith("not valid"):
            assert row["Scale"] in ("—", "–", "")
            continue
        scale, std, loss = (float(c) for c in cells[:3])
        # A claimed guarantee the page marks as failing ("✗ no: true δ = …") fails in the script too.
        assert cells[3].startswith("FAILS") == str(row["Holds here?"]).startswith("✗"), (name, cells, row)
        assert row["Scale"] == f"{BY_NAME[name].scale_symbol} = {format_number(scale)}"
        assert row["Noise std per coordinate"] == format_number(std)
        assert row[f"E‖noise‖₂² at d = {setting.dim}"] == format_number(loss)


def test_the_downloaded_script_runs_from_another_folder_and_prints_the_pages_numbers(tmp_path):
    """The script as downloaded, saved in an empty folder and run there with a Python that has
    gaussmech_core installed (dev.py installs it into .venv in development mode; here PYTHONPATH
    stands in for that install, so the shared environment is left alone)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    at = open_page("app.py", epsilon="2")
    _tool(at, "Python")
    code = at.code[0].value
    assert "/.venv/bin/python gaussmech-overview.py" in code  # the header says exactly how to run it
    script = tmp_path / "gaussmech-overview.py"
    script.write_text(code, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run(
        [sys.executable, script.name], cwd=tmp_path, env=environment, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    (calibration,) = parse_output(result.stdout)
    answer = next(m.value for m in at.info if "the analytic Gaussian needs σ" in m.value)
    assert f"σ = {format_number(float(calibration['Analytic Gaussian'][0]))}" in answer  # σ = 1.99 on the page
    assert calibration["Rank-1 singular multivariate Gaussian (claimed)"][3].startswith("FAILS: true delta = 0.181")


def test_the_privacy_profiles_script_has_the_hypothesis_testing_numbers():
    at = open_page("pages/3_Privacy_profiles.py", profiles_view="Hypothesis testing", profiles_alpha="0.1")
    _tool(at, "Python")
    blocks = _run_snippet(at.code[0].value)
    numbers = {name: cells[0] for name, cells in blocks[-1].items()}
    reading = next(m.value for m in at.info if m.value.startswith("An attacker who wrongly accuses"))
    gaussian_power = float(numbers["attacker's power at alpha, analytic Gaussian"])
    region_power = float(numbers["attacker's power at alpha, any (epsilon, delta)-DP mechanism"])
    assert f"at most {format_percent(gaussian_power)} of the time" in reading, (reading, gaussian_power)
    assert f"at most {format_percent(region_power)} of the time under any mechanism" in reading, (reading, region_power)


@pytest.mark.parametrize("query", [{}, {"epsilon": "0.5", "delta": "1e-6", "dim": "5"}])
def test_the_attack_table_shows_what_its_snippet_prints(query):
    at = open_page("pages/0_Class_tour.py", **query, tour_step="5")
    setting = _setting(at)
    at.select_slider(key="attack_prior").set_value(0.1).run()
    table = _frame_with(at, "TPR at 1% FPR")
    _tool(at, "Python")
    blocks = _run_snippet(at.code[0].value)
    assert "prior = 0.1" in at.code[0].value
    for name, cells in blocks[1].items():
        row = table.loc[name]
        if cells[0].startswith("not valid"):
            assert row["Advantage"] == "–"
            continue
        _, advantage, tpr_1, tpr_01, posterior = (float(c) for c in cells)
        assert row["Advantage"] == format_percent(advantage, 3)
        assert row["TPR at 1% FPR"] == format_percent(tpr_1, 3)
        assert row["TPR at 0.1% FPR"] == format_percent(tpr_01, 3)
        assert row["Posterior at 1% FPR"] == format_percent(posterior, 3)
    assert setting.epsilon > 0


def test_link_tool_shows_the_url_and_what_it_holds():
    at = open_page("pages/2_Tail_probabilities.py", epsilon="0.5", dim="20")
    url = at.code[0].value
    assert url.startswith("http://localhost:8501/Tail_probabilities?") and "epsilon=0.5" in url and "dim=20" in url
    assert any("It holds: ε = 0.5" in m.value and "d = 20" in m.value for m in at.markdown)


def test_figures_tool_offers_every_chart_as_svg_and_png():
    at = _tool(open_page("app.py"), "Figures")
    chart = at.selectbox(key="page_tools_chart")
    assert len(chart.options) == 2 and "How much noise each mechanism adds" in chart.options[0]
    labels = {button.label for button in at.get("download_button")}
    assert {"SVG", "PNG (2×)"} <= labels
    assert any("gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.svg" in c.value for c in at.caption)
    chart.select_index(1).run()
    assert any("gaussmech-variance-ratio-eps1-delta1e-5-d10.svg" in c.value for c in at.caption)


def test_figures_tool_says_why_when_there_is_no_browser(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    at = _tool(open_page("app.py"), "Figures")
    assert any("Image export is not available on this server" in i.value for i in at.info)
    buttons = [b for b in at.get("download_button") if b.label in ("SVG", "PNG (2×)")]
    assert buttons and all(b.proto.disabled for b in buttons)


def test_report_tool_offers_both_versions():
    at = _tool(open_page("pages/1_Noise_distributions.py"), "Report")
    labels = [button.label for button in at.get("download_button")]
    assert "Brief (one page)" in labels and "Full report with the math" in labels


def _uploader_key(at) -> str:
    return next(u.key for u in at.get("file_uploader") if u.key.startswith("page_tools_settings_upload_"))


def test_settings_file_download_and_load_switch_to_its_page_and_values():
    at = _tool(open_page("app.py", epsilon="0.25"), "Settings file")
    assert any(b.label == "Download this view's settings (JSON)" for b in at.get("download_button"))
    data = share.settings_bytes("pages/4_Accuracy_vs_dimension.py", {"epsilon": "0.7", "dim": "30", "delta": "oops"})
    at.file_uploader(key=_uploader_key(at)).set_value(("view.json", data, "application/json")).run()
    assert not at.exception, at.exception
    assert at.session_state["epsilon"] == 0.7 and at.session_state["dim"] == 30
    assert at.session_state["delta"] == 1e-5  # the bad value became the default
    assert at.title[0].value != "How much noise does each mechanism need?", "switched to the file's page"


def test_a_settings_file_with_bad_values_says_so_for_each_on_the_page_it_opens():
    at = _tool(open_page("app.py"), "Settings file")
    data = share.settings_bytes("pages/2_Tail_probabilities.py", {"epsilon": "abc", "delta": "2", "dim": "5"})
    at.file_uploader(key=_uploader_key(at)).set_value(("bad-values.json", data, "application/json")).run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning]
    assert any("`epsilon=abc`, but that is not a number. Using ε = 1 instead." in w for w in warnings), warnings
    assert any("`delta=2`, but that is outside the allowed range" in w for w in warnings), warnings
    assert at.session_state["dim"] == 5 and at.session_state["epsilon"] == 1.0


def test_a_bad_settings_file_is_refused_with_the_reason():
    at = _tool(open_page("app.py"), "Settings file")
    at.file_uploader(key=_uploader_key(at)).set_value(("bad.json", b'{"format": "x"}', "application/json")).run()
    assert not at.exception
    assert any("Could not load `bad.json`: it is not a gaussmech settings file" in e.value for e in at.error)
    assert at.session_state["epsilon"] == 1.0


def test_presenter_mode_shows_one_chart_at_a_time_and_steps_through_them():
    at = open_page("app.py")
    at.toggle(key="page_tools_present").set_value(True).run()
    assert at.query_params["present"] == "1"
    assert at.button(key="presenter_next") and at.button(key="presenter_previous")
    assert any("Chart 1 of 2" in m.value for m in at.markdown)
    assert any("ε = 1, δ = 1e-5, Δ₂ = 1, d = 10" in m.value for m in at.markdown)
    at.button(key="presenter_next").click().run()
    assert any("Chart 2 of 2" in m.value for m in at.markdown)
    at.button(key="presenter_next").click().run()
    assert any("Chart 1 of 2" in m.value for m in at.markdown)  # wraps around
    at.button(key="presenter_previous").click().run()
    assert any("Chart 2 of 2" in m.value for m in at.markdown)
    at.button(key="presenter_leave").click().run()
    assert "present" not in at.query_params
    assert not any("Chart 2 of 2" in m.value for m in at.markdown)


def test_presenter_mode_from_the_url_with_a_bad_slide_number():
    at = open_page("app.py", present="1", slide="abc")
    assert any("Chart 1 of 2" in m.value for m in at.markdown)
    at = open_page("app.py", present="1", slide="99")
    assert any("Chart 2 of 2" in m.value for m in at.markdown)


def test_the_tour_has_six_steps_each_with_a_chart_a_question_a_button_and_a_link():
    at = open_page("pages/0_Class_tour.py")
    steps = at.selectbox(key="tour_step")
    assert steps.options[0] == "Step 1 of 6: What noise does to one count" and len(steps.options) == 6
    assert at.button(key="tour_previous").disabled
    for number in range(1, 7):
        at.selectbox(key="tour_step").set_value(number).run()
        assert not at.exception and not at.error, (number, at.error)
        assert at.get("plotly_chart"), number
        assert any(m.value.startswith("**Ask the room:**") for m in at.markdown), number
        assert at.button(key=f"tour_set_values_{number}")
        links = at.get("page_link")
        assert any("at this setting" in str(link.proto.label) for link in links), number


def test_set_this_steps_values_and_next_step():
    at = open_page("pages/0_Class_tour.py", epsilon="3")
    at.selectbox(key="tour_step").set_value(4).run()
    at.button(key="tour_set_values_4").click().run()
    assert at.session_state["epsilon"] == 1.0 and at.session_state["dim"] == 50
    assert at.session_state["l1_model"] == "all_coordinates"
    at.button(key="tour_next").click().run()
    assert at.session_state["tour_step"] == 5 and at.query_params["tour_step"] == "5"
    at.button(key="tour_previous").click().run()
    assert at.session_state["tour_step"] == 4


def test_draw_again_keeps_a_seeded_history_in_the_url():
    at = open_page("pages/0_Class_tour.py", tour_step="1")
    at.button(key="tour_draw_again").click().run()
    assert at.query_params["tour_draws"] == "2"
    at.button(key="tour_draw_ten").click().run()
    assert at.query_params["tour_draws"] == "12"
    caption = next(c.value for c in at.caption if c.value.startswith("12 draws (seed 0)"))
    again = open_page("pages/0_Class_tour.py", tour_step="1", tour_draws="12")
    assert any(c.value == caption for c in again.caption), "the same link shows the same history"
    at.button(key="tour_new_history").click().run()
    assert at.query_params["tour_seed"] == "1" and at.query_params["tour_draws"] == "1"


def test_a_bad_step_in_the_link_is_a_warning_not_a_traceback():
    at = _open_raw(tour_step="9")
    assert any("tour_step=9" in w.value for w in at.warning)
    assert at.session_state["tour_step"] == 1


def _open_raw(**query):
    """Open the tour from a link without failing on the page's own warnings."""
    from streamlit.testing.v1 import AppTest

    from tests.app.page_helpers import APP_ROOT

    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page("pages/0_Class_tour.py").run()
    assert not at.exception
    return at


def test_a_bad_draw_count_in_the_link_is_a_warning_not_a_traceback():
    from streamlit.testing.v1 import AppTest

    from tests.app.page_helpers import APP_ROOT

    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=60)
    at.query_params["tour_step"] = "1"
    at.query_params["tour_draws"] = "lots"
    at.switch_page("pages/0_Class_tour.py").run()
    assert not at.exception
    assert any("tour_draws=lots" in w.value for w in at.warning)


def test_the_attack_numbers_on_privacy_profiles_have_their_own_tab_and_the_inverse():
    assert not [d for d in open_page("pages/3_Privacy_profiles.py").dataframe if "TPR at 1% FPR" in d.value.columns]
    at = open_page("pages/3_Privacy_profiles.py", profiles_view="What an attacker can do")
    assert "What an attacker can do" in [tab.label for tab in at.tabs][:2]  # second tab, not behind a toggle
    table = _frame_with(at, "TPR at 1% FPR")
    assert table.loc["Laplace", "TPR at 1% FPR"] == "2.72%"  # e^ε × 1%: pure ε-DP is tight
    limits = _frame_with(at, "Scale needed")
    assert limits.loc["Analytic Gaussian", "Scale needed"] == "σ = 7.97"  # advantage ≤ 5%
    at.radio(key="attack_limit_kind").set_value("tpr").run()
    at.number_input(key="attack_limit_level").set_value(0.02).run()
    limits = _frame_with(at, "Scale needed")
    assert limits.loc["Analytic Gaussian", "Scale needed"] == "σ = 3.67"
    before = table.loc["Laplace", "Posterior at 1% FPR"]
    at.select_slider(key="attack_prior").set_value(0.1).run()
    after = _frame_with(at, "TPR at 1% FPR").loc["Laplace", "Posterior at 1% FPR"]
    assert before == "73.1%" and after == "23.2%"


def test_presenter_mode_walks_every_view_and_passes_a_view_without_charts():
    at = open_page("pages/4_Accuracy_vs_dimension.py", present="1")
    seen = []
    for _ in range(12):
        position = next(m.value for m in at.markdown if "Chart" in m.value and " of " in m.value)
        seen.append(position)
        at.button(key="presenter_next").click().run()
        assert not at.exception
    views = [position.split(" (")[0] for position in seen]
    assert {"Mean error", "Spread of the error", "R1SMG audit"} <= set(views)
    assert "Accuracy first" not in views  # a table to fill in is no slide: the deck passes it
    assert seen[: seen.index(seen[0], 1)] == seen[: len(set(seen))]  # and comes back to the first slide
    at.button(key="presenter_previous").click().run()
    assert not at.exception
