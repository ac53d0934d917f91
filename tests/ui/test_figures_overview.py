"""The Overview's builders on synthetic numbers: charts, table, captions and CSV (no core, no Streamlit)."""

from __future__ import annotations

import doctest
import io
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import gaussmech_ui.figures.common as common_module
from gaussmech_core.registry_types import GUARANTEE_LABELS, Setting
from gaussmech_ui.downloads import csv_bytes
from gaussmech_ui.figures.common import apply_layout, figure_frame
from gaussmech_ui.figures.overview import (
    claim_warnings,
    current_variance_ratio,
    failures,
    not_valid_here,
    overview_caption,
    overview_csv_frame,
    overview_table,
    std_vs_epsilon_figure,
    variance_ratio_figure,
)


def _mechanism(
    mechanism_id, name, guarantee, color, symbol="σ", featured=True, is_default=False, family="gaussian", norm="l2"
):
    return SimpleNamespace(
        is_default=is_default,
        family=family,
        sensitivity_norm=norm,
        short_name=name.split(" (")[0],
        id=mechanism_id,
        name=name,
        guarantee=guarantee,
        guarantee_label=GUARANTEE_LABELS[guarantee],
        color=color,
        scale_symbol=symbol,
        source=f"source of {name}",
        featured=featured,
    )


MECHANISMS = {
    "analytic_gaussian": _mechanism(
        "analytic_gaussian", "Analytic Gaussian", "approximate", "#0072B2", is_default=True
    ),
    "classical_gaussian": _mechanism("classical_gaussian", "Classical Gaussian", "approximate", "#D55E00"),
    "laplace": _mechanism("laplace", "Laplace", "pure", "#E69F00", symbol="b", family="laplace", norm="l1"),
    "gaussian_pdp": _mechanism("gaussian_pdp", "Gaussian pDP", "probabilistic", "#882255", featured=False),
    "r1smg": _mechanism("r1smg", "R1SMG (claimed)", "claimed", "#CC6677", symbol="σ*", family="r1smg"),
}


def _frame(*, classical_valid: bool, r1smg_true_delta: float = 0.181, laplace_error: str = "") -> pd.DataFrame:
    nan = np.nan
    rows = [
        dict(
            id="analytic_gaussian",
            valid=True,
            reason="",
            scale=3.7306,
            coordinate_std=3.7306,
            expected_loss=10 * 3.7306**2,
            true_delta=nan,
            error="",
        ),
        dict(
            id="classical_gaussian",
            valid=classical_valid,
            reason="" if classical_valid else "Not a theorem here: proved only for 0 < ε < 1.",
            scale=4.8448 if classical_valid else nan,
            coordinate_std=4.8448 if classical_valid else nan,
            expected_loss=10 * 4.8448**2 if classical_valid else nan,
            true_delta=nan,
            error="",
        ),
        dict(
            id="laplace",
            valid=not laplace_error,
            reason=f"Could not be computed here: {laplace_error}" if laplace_error else "",
            scale=nan if laplace_error else 1.0,
            coordinate_std=nan if laplace_error else 2**0.5,
            expected_loss=nan if laplace_error else 20.0,
            true_delta=nan,
            error=laplace_error,
        ),
        dict(
            id="gaussian_pdp",
            valid=True,
            reason="",
            scale=4.528,
            coordinate_std=4.528,
            expected_loss=10 * 4.528**2,
            true_delta=nan,
            error="",
        ),
        dict(
            id="r1smg",
            valid=True,
            reason="",
            scale=49.2,
            coordinate_std=(49.2 / 10) ** 0.5,
            expected_loss=49.2,
            true_delta=r1smg_true_delta,
            error="",
        ),
    ]
    return pd.DataFrame(rows).set_index("id")


SETTING = Setting(epsilon=1.0, delta=1e-5, sensitivity=1.0, order=2.0, dim=10)


def test_common_doctests_pass():
    result = doctest.testmod(common_module)
    assert result.attempted > 0 and result.failed == 0


def _sweep():
    epsilons = np.logspace(-2, 2, 49)
    return pd.DataFrame(
        {
            "epsilon": epsilons,
            "analytic_gaussian": 4.0 / epsilons,
            "classical_gaussian": np.where(epsilons < 1, 5.0 / epsilons, np.nan),
            "laplace": np.sqrt(2) / epsilons,
            "gaussian_pdp": 4.5 / epsilons,
            "r1smg": 2.0 / np.sqrt(epsilons),
        }
    )


def test_std_chart_has_a_line_per_mechanism_in_its_registry_colour_on_log_axes():
    current = _frame(classical_valid=False)["coordinate_std"].to_dict()
    figure = std_vs_epsilon_figure(_sweep(), MECHANISMS, SETTING, current)
    lines = list(figure.data)
    legend_order = sorted(lines, key=lambda trace: trace.legendrank)
    assert [trace.name for trace in legend_order] == [
        "Analytic Gaussian",
        "Classical Gaussian",
        "Gaussian pDP",
        "Laplace",
        "R1SMG, claimed (source of R1SMG)",
    ], "grouped: Gaussian calibrations, other families, claimed only"
    assert [trace.legendgrouptitle.text for trace in legend_order] == [
        "Gaussian calibrations",
        "Gaussian calibrations",
        "Gaussian calibrations",
        "Other families",
        "Claimed only, not proven",
    ]
    for trace in legend_order:
        mechanism = next(m for m in MECHANISMS.values() if trace.name.startswith(m.name.split(" (")[0]))
        assert trace.line.color == mechanism.color
    assert lines[-1].name == "Analytic Gaussian", "the default mechanism is drawn on top"
    assert lines[-1].line.width > lines[0].line.width
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert figure.layout.legend.orientation == "v" and figure.layout.legend.x > 1, "the legend is beside the plot"
    by_name = {trace.name: trace for trace in lines}
    assert by_name["R1SMG, claimed (source of R1SMG)"].line.dash == "dash"
    assert by_name["Gaussian pDP"].line.dash == "dot"
    assert all(trace.visible in (None, True) for trace in lines), "nothing drawn starts hidden"
    hidden = std_vs_epsilon_figure(_sweep(), MECHANISMS, SETTING, current, every_variant=False)
    assert "Gaussian pDP" not in {trace.name for trace in hidden.data}, "variants only with the checkbox"
    # The invalid region stays a gap, never a number.
    classical = np.asarray(by_name["Classical Gaussian"].y, dtype=float)
    epsilons = np.asarray(by_name["Classical Gaussian"].x, dtype=float)
    assert np.all(np.isnan(classical[epsilons >= 1])) and np.all(np.isfinite(classical[epsilons < 1]))


def test_a_curve_far_below_the_others_is_named_off_the_bottom_and_the_view_keeps_the_rest():
    """Integer noise whose std collapses at large ε (the discrete Gaussian) must not squeeze the chart."""
    current = _frame(classical_valid=False)["coordinate_std"].to_dict()
    plain = std_vs_epsilon_figure(_sweep(), MECHANISMS, SETTING, current)
    assert not any("Off the bottom" in (note.text or "") for note in plain.layout.annotations)
    low, high = plain.layout.yaxis.range
    assert 10**low <= 0.02 and 10**high >= 400, "every curve in view: 0.04 to 400"
    sweep = _sweep()
    sweep["laplace"] = np.where(sweep["epsilon"] > 10, 1e-22, sweep["laplace"])  # a dive of 20 decades
    figure = std_vs_epsilon_figure(sweep, MECHANISMS, SETTING, current)
    low, high = figure.layout.yaxis.range
    assert -3 < low < -1 and high > 2.5, "the view is the other curves' region, not 1e-22"
    (note,) = [note.text for note in figure.layout.annotations if "Off the bottom" in (note.text or "")]
    assert "Laplace" in note and "down to 1e-22" in note
    assert len(figure.data) == len(plain.data), "the curve is still drawn (a double click shows it)"


def test_a_curve_that_lies_on_another_is_marked_and_drawn_under_it():
    sweep = _sweep().assign(gaussian_pdp=lambda f: f["analytic_gaussian"] * (1 + 1e-12))
    figure = std_vs_epsilon_figure(sweep, MECHANISMS, SETTING, {})
    names = [trace.name for trace in figure.data]
    assert "Gaussian pDP (on the analytic Gaussian's curve)" in names
    assert names.index("Gaussian pDP (on the analytic Gaussian's curve)") < names.index("Analytic Gaussian")


def test_std_chart_marks_the_current_epsilon_and_states_the_parameters():
    current = _frame(classical_valid=False)["coordinate_std"].to_dict()
    figure = std_vs_epsilon_figure(_sweep(), MECHANISMS, SETTING, current)
    assert [shape.x0 for shape in figure.layout.shapes] == [1.0]
    marked = {}
    for trace in figure.data:
        sizes = np.asarray(trace.marker.size, dtype=float)
        if (sizes > 10).any():
            (index,) = np.flatnonzero(sizes > 10)
            marked[trace.name] = (float(trace.x[index]), float(trace.y[index]))
    assert set(marked) == {"Analytic Gaussian", "Laplace", "Gaussian pDP", "R1SMG, claimed (source of R1SMG)"}
    assert all(x == 1.0 for x, _ in marked.values())
    assert marked["Analytic Gaussian"][1] == current["analytic_gaussian"], "the marker is the exact value"
    title = figure.layout.title.text
    assert "δ = 1e-5" in title and "d = 10" in title and "Δ = 1" in title
    assert "ε" in figure.layout.xaxis.title.text and "std" in figure.layout.yaxis.title.text
    assert "%{y:.10g}" in figure.data[0].hovertemplate, "hover shows exact values"


def test_std_chart_follows_the_current_epsilon():
    current = _frame(classical_valid=True)["coordinate_std"].to_dict()
    moved = std_vs_epsilon_figure(_sweep(), MECHANISMS, Setting(epsilon=0.5, delta=1e-5, dim=10), current)
    assert [shape.x0 for shape in moved.layout.shapes] == [0.5]
    assert "current ε = 0.5" in moved.layout.annotations[0].text


def _ratios(deltas=(1e-2, 1e-5)):
    rows = []
    for delta in deltas:
        for epsilon in np.logspace(-3, -0.01, 20):
            rows.append(
                dict(
                    delta=delta,
                    epsilon=epsilon,
                    classical_sigma=2.0,
                    analytic_sigma=1.5,
                    variance_ratio=(2.0 / 1.5) ** 2 / epsilon**0.3,
                )
            )
    return pd.DataFrame(rows)


def test_ratio_chart_has_one_curve_per_delta_and_highlights_the_current_one():
    figure = variance_ratio_figure(_ratios(), current_epsilon=0.5, current_delta=1e-5, current_ratio=1.9)
    curves = [trace for trace in figure.data if trace.mode == "lines"]
    assert [trace.name for trace in curves] == ["δ = 0.01", "δ = 1e-5 (current)"]
    assert curves[1].line.width > curves[0].line.width
    marker = [trace for trace in figure.data if trace.mode == "markers"]
    assert len(marker) == 1 and list(marker[0].x) == [0.5] and list(marker[0].y) == [1.9]
    assert figure.layout.yaxis.type == "log"
    assert "Balle & Wang" in figure.layout.title.text
    assert figure.layout.xaxis.range[1] == 0.0, "the axis ends at ε = 1"


def test_ratio_chart_shows_no_point_where_the_classical_formula_is_not_a_theorem():
    figure = variance_ratio_figure(_ratios(), current_epsilon=2.0, current_delta=1e-5, current_ratio=None)
    assert not [trace for trace in figure.data if trace.mode == "markers"]
    assert any("not a theorem" in annotation.text for annotation in figure.layout.annotations)


def test_table_greys_the_classical_gaussian_beyond_its_theorem_and_shows_no_number():
    table, styler = overview_table(_frame(classical_valid=False), MECHANISMS, SETTING)
    row = table.set_index("Mechanism").loc["Classical Gaussian"]
    assert row["Scale"] == "—" and row["Noise std per coordinate"] == "—" and row["E‖noise‖₂² at d = 10"] == "—"
    assert "Not a theorem here" in row["Validity"]
    assert not any(ch.isdigit() for ch in row["Scale"] + row["Noise std per coordinate"])
    styles = styler._compute().ctx
    classical_index = list(table["Mechanism"]).index("Classical Gaussian")
    assert ("color", "#6B6B6B") in styles[(classical_index, 0)]
    assert styles.get((0, 0), []) in ([], [("", "")]), "valid rows are not greyed"


def test_table_shows_numbers_to_three_digits_and_the_loss_ratio():
    table, _ = overview_table(_frame(classical_valid=True), MECHANISMS, Setting(epsilon=0.5, delta=1e-5, dim=10))
    analytic = table.set_index("Mechanism").loc["Analytic Gaussian"]
    assert analytic["Scale"] == "σ = 3.73" and analytic["Validity"] == "✓ holds"
    assert analytic["Error vs analytic Gaussian"] == "1×"
    assert table.set_index("Mechanism").loc["Laplace", "Scale"] == "b = 1"


def test_r1smg_shows_its_claim_next_to_its_true_delta_with_a_warning():
    frame = _frame(classical_valid=False)
    table, styler = overview_table(frame, MECHANISMS, SETTING)
    from gaussmech_ui.figures.common import trace_name

    row = table.set_index("Mechanism").loc[trace_name(MECHANISMS["r1smg"])]
    assert "claimed (1, 1e-5)-DP" in row["Guarantee"] and "true δ = 0.181" in row["Guarantee"]
    assert row["Validity"].startswith("⚠")
    warnings = claim_warnings(frame, MECHANISMS, SETTING)
    assert len(warnings) == 1 and "0.181" in warnings[0] and "18,100×" in warnings[0]
    assert claim_warnings(_frame(classical_valid=False, r1smg_true_delta=3e-6), MECHANISMS, SETTING) == []


def test_current_variance_ratio_only_where_both_calibrations_hold():
    assert current_variance_ratio(_frame(classical_valid=True)) == pytest.approx((4.8448 / 3.7306) ** 2)
    assert current_variance_ratio(_frame(classical_valid=False)) is None


def test_caption_compares_analytic_with_classical_in_plain_words():
    setting = Setting(epsilon=0.9, delta=1e-5, dim=10)
    caption = overview_caption(_frame(classical_valid=True), MECHANISMS, setting)
    assert caption.startswith(
        "At ε = 0.9 and δ = 1e-5, the analytic Gaussian needs σ = 3.73, 23% less than the classical formula's 4.84."
    )
    assert "the Laplace mechanism adds the least noise at d = 10" in caption, "claimed mechanisms never win"


def test_caption_does_not_compare_with_the_classical_formula_beyond_its_theorem():
    caption = overview_caption(_frame(classical_valid=False), MECHANISMS, SETTING)
    assert "σ = 3.73" in caption and "not a theorem at ε ≥ 1" in caption
    assert "4.84" not in caption


def test_failures_are_listed_and_shown_as_not_valid():
    frame = _frame(classical_valid=True, laplace_error="ValueError: boom")
    assert failures(frame, MECHANISMS) == ["Laplace: ValueError: boom"]
    assert not_valid_here(frame, MECHANISMS) == ["Laplace: Could not be computed here: ValueError: boom"]
    table, _ = overview_table(frame, MECHANISMS, SETTING)
    assert table.set_index("Mechanism").loc["Laplace", "Scale"] == "—"


def test_csv_of_the_table_has_exact_values_and_the_setting():
    exact = overview_csv_frame(_frame(classical_valid=False), MECHANISMS, SETTING)
    back = pd.read_csv(io.BytesIO(csv_bytes(exact)))
    analytic = back.set_index("mechanism_id").loc["analytic_gaussian"]
    assert analytic["scale"] == 3.7306 and analytic["epsilon"] == 1.0 and analytic["delta"] == 1e-5
    assert np.isnan(back.set_index("mechanism_id").loc["classical_gaussian", "scale"])


def test_figure_frame_turns_every_trace_into_rows_with_exact_values():
    figure = apply_layout(
        go.Figure([go.Scatter(x=[0.1, 1.0], y=[1 / 3, np.nan], name="a"), go.Scatter(x=[2.0], y=[5.0], name="b")]),
        title="t",
        x_title="ε",
        y_title="σ<sub>c</sub>",
    )
    frame = figure_frame(figure)
    assert list(frame.columns) == ["series", "ε", "σc"]
    assert frame["series"].tolist() == ["a", "a", "b"]
    assert frame["σc"].iloc[0] == 1 / 3 and np.isnan(frame["σc"].iloc[1])
    text = csv_bytes(frame).decode("utf-8-sig")
    assert "0.3333333333333333" in text, "the CSV keeps every digit"


def test_layout_is_projector_friendly():
    figure = apply_layout(go.Figure(), title="t", x_title="x", y_title="y", log_x=True)
    assert figure.layout.font.size >= 16
    assert figure.layout.plot_bgcolor == "white"
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "linear"


@pytest.mark.parametrize("prefix", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_neutralizes_formula_cells(prefix):
    text = csv_bytes(pd.DataFrame({"label": [f"{prefix}cmd()"], "value": [-1.0]})).decode("utf-8-sig")
    assert f"'{prefix}cmd()" in text
    assert "\n-1.0" in text.replace("\r\n", "\n").replace(",", "\n"), "numbers are left alone"


def test_current_marker_label_sits_on_the_line_of_a_log_axis():
    """Plotly reads annotation x on a log axis as log10(x): the label must be there, not at 10^x."""
    import math

    import plotly.graph_objects as go

    from gaussmech_ui.figures.common import apply_layout, mark_current_x

    figure = go.Figure(go.Scatter(x=[0.01, 100.0], y=[1.0, 2.0]))
    apply_layout(figure, title="t", x_title="ε", y_title="σ", log_x=True, log_y=False)
    mark_current_x(figure, 5.0, "current ε = 5")
    assert figure.layout.shapes[0].x0 == 5.0
    assert figure.layout.annotations[-1].x == math.log10(5.0)

    linear = go.Figure(go.Scatter(x=[0.0, 10.0], y=[1.0, 2.0]))
    apply_layout(linear, title="t", x_title="x", y_title="y", log_x=False, log_y=False)
    mark_current_x(linear, 5.0, "x = 5")
    assert linear.layout.annotations[-1].x == 5.0
