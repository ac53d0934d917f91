"""What the Accuracy-vs-dimension page shows, built from numbers: charts, tables and captions.

Pure functions (no ``st.*``): frames of exact values in (from :mod:`gaussmech_ui.cached.accuracy`),
a ``go.Figure``, a display table or a sentence out. ``mechanisms`` is the registry
(:data:`gaussmech_core.mechanisms.MECHANISMS`) or any mapping from id to objects with its
attributes (``name``, ``short_name``, ``color``, ``guarantee``, ``guarantee_label``, ``source``).

Wording rule for R1SMG (docs/math.md section 6.2): it is always named "claimed (Ji & Li 2024)", its numbers
sit next to the computed true δ, and no caption recommends it.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..claims.ranking import (
    assumption_sentence,
    bounded_note,
    on_curve_note,
    rank,
    ranked,
    under_other_model,
    winner_phrase,
)
from ..format import format_number, format_percent, math_reference_link
from .built_once import built_once
from .common import (
    CURRENT_COLOR,
    FONT_SIZE,
    LINE_WIDTH,
    apply_layout,
    coinciding_curves,
    core_ids,
    exact_hover,
    frame_rows,
    keep_in_view,
    mechanism_line,
    mechanism_marker,
    update_layout_quickly,
    vertical_marker,
)
from .distributions import trace_name

__all__ = [
    "setting_title",
    "shape_note",
    "expected_loss_figure",
    "expected_loss_caption",
    "paper_table",
    "paper_explanations",
    "loss_bands_figure",
    "bands_caption",
    "loss_table",
    "loss_table_notes",
    "loss_csv_frame",
    "true_delta_figure",
    "audit_caption",
    "closer_test_figure",
    "closer_test_curve_figure",
    "closer_test_caption",
    "accuracy_first_table",
    "accuracy_first_notes",
    "accuracy_first_caption",
    "target_description",
]

CONSTANT_NAMES = {"C_C": "C_C", "C_A": "C_A", "C_M": "C_M", "C_R": "C_R"}
MONTE_CARLO_NAME = "simulated with its own sampler (95% interval)"


def _rgba(hex_color: str, alpha: float) -> str:
    """'#RRGGBB' as a CSS rgba() string with the given opacity (for shaded bands)."""
    red, green, blue = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def setting_title(setting, rows: int) -> str:
    """The parameters for chart titles: ``ε = 1, δ = 1e-5, Δ = 1, p = 2, MVG: 1 × M, γ = 0.5``."""
    parts = [
        f"ε = {format_number(setting.epsilon)}",
        f"δ = {format_number(setting.delta)}",
        f"Δ = {format_number(setting.sensitivity)}",
        f"p = {format_number(setting.order)}",
    ]
    if setting.l1_model == "all_coordinates":
        parts.append("Δ₁ = √d·Δ")
    parts.append(
        f"MVG: {rows} × d/{rows}, γ = {format_number(setting.matrix_gamma)}"
        if rows > 1
        else f"MVG: 1 × d, γ = {format_number(setting.matrix_gamma)}"
    )
    return ", ".join(parts)


def shape_note(rows: int, dim: int) -> str:
    """How the MVG curve chooses a matrix shape for each d, in words.

    Examples
    --------
    >>> shape_note(1, 10)
    'MVG treats the answer as a 1 × d matrix at every d (here 1 × 10). Its i.i.d. loss depends on the shape only through d and r = min(rows, cols) = 1.'
    """
    return (
        f"MVG treats the answer as a {rows} × d/{rows} matrix at every d (here {rows} × {dim // rows:,})"
        if rows > 1
        else f"MVG treats the answer as a 1 × d matrix at every d (here 1 × {dim:,})"
    ) + (
        ". Its i.i.d. loss depends on the shape only through d and r = min(rows, cols)"
        + (
            " = 1."
            if rows == 1
            else f", so its curve starts at d = {rows} and has a point only where d/{rows} is whole."
        )
    )


def _curve_name(mechanism) -> str:
    return trace_name(mechanism)


def _percent(fraction: float) -> str:
    """A probability as a percentage with 4 significant digits (rates near 1 stay distinguishable)."""
    return format_percent(fraction, 4)


def _figure_of(traces: list[dict]) -> go.Figure:
    """A figure of plain trace dicts, built without Plotly's per-property validation.

    Every chart of this page is written here, as dicts with Plotly's own property names; checking
    each property of 20-30 traces (``add_trace``) was most of the work of drawing a new setting
    (about 45 ms for the quantile bands, 35 ms for the mean error). The figure is equal to the
    validated one (tests/ui/test_figures_accuracy.py rebuilds each chart with validation and
    compares), and it goes through :func:`~.built_once.built_once` as a plain dict anyway.
    """
    return go.Figure(data=traces, _validate=False)


def _columns_by_mechanism(frame: pd.DataFrame, columns: tuple[str, ...]) -> dict[str, dict[str, np.ndarray]]:
    """The float ``columns`` of each mechanism's rows, mechanisms in order of first appearance (as
    ``groupby("mechanism", sort=False)`` gives them), without a sub-frame per mechanism."""
    ids = frame["mechanism"].to_numpy()
    values = {column: frame[column].to_numpy(dtype=float) for column in columns}
    return {key: {column: value[ids == key] for column, value in values.items()} for key in dict.fromkeys(ids.tolist())}


def _mark_dim(figure: go.Figure, dim: int) -> go.Figure:
    """A dashed vertical line at the current d on the log-scaled M axis, labelled at the top."""
    return vertical_marker(figure, dim, f"d = {dim:,}", log_x=True)


def _legend_below(figure: go.Figure) -> go.Figure:
    """Legend under the plot, so the plot keeps the full width on a projector.

    Set on the layout's own legend and margin (a few properties checked), not by rebuilding the
    whole layout a second time after :func:`~.common.apply_layout`; the same merge as
    ``update_layout(legend=..., margin=...)``.
    """
    figure.layout.legend.update(
        orientation="h", yanchor="top", y=-0.2, x=0.0, xanchor="left", font=dict(size=FONT_SIZE - 2)
    )
    figure.layout.margin.update(b=40)
    return figure


@built_once
def expected_loss_figure(
    curves: pd.DataFrame,
    bounds: pd.DataFrame,
    monte_carlo: pd.DataFrame,
    current: pd.DataFrame,
    mechanisms: Mapping,
    setting,
    rows: int,
) -> go.Figure:
    """E‖noise‖₂² against M, log-log: exact curves, Ji & Li's bounds (dotted), simulated points, d marked.

    ``curves``: ``mechanism, dim, expected_loss``; ``bounds``: ``constant, mechanism, dim, bound``;
    ``monte_carlo``: ``mechanism, dim, mean, mean_low, mean_high``; ``current``: one row per
    mechanism with ``mechanism, valid, mean`` at the current d.
    """
    traces: list[dict] = []
    x_label, y_label = "d", "E‖n‖₂²"
    groups = _columns_by_mechanism(curves, ("dim", "expected_loss"))
    # A curve lying on another (GG with p = 2 on the analytic Gaussian) is drawn first, as a wide pale band.
    same = coinciding_curves(
        {
            key: curve["expected_loss"]
            for key, curve in groups.items()
            if len(curve["dim"]) == len(next(iter(groups.values()))["dim"])
        },
        mechanisms,
    )
    for mechanism_id in sorted(groups, key=lambda key: key not in same):
        curve = groups[mechanism_id]
        mechanism = mechanisms[mechanism_id]
        line, name = mechanism_line(mechanism), _curve_name(mechanism)
        if mechanism_id in same:
            line.update(width=LINE_WIDTH + 7)
            name += on_curve_note(mechanisms[same[mechanism_id]])
        traces.append(
            dict(
                type="scatter",
                x=curve["dim"],
                y=curve["expected_loss"],
                name=name,
                legendgroup=mechanism_id,
                mode="lines+markers",
                marker=mechanism_marker(mechanism),
                opacity=0.45 if mechanism_id in same else 1.0,
                line=line,
                hovertemplate=exact_hover(x_label, y_label),
            )
        )
    for (constant, mechanism_id), bound in bounds.groupby(["constant", "mechanism"], sort=False):
        mechanism = mechanisms[mechanism_id]
        traces.append(
            dict(
                type="scatter",
                x=bound["dim"].to_numpy(dtype=float),
                y=bound["bound"].to_numpy(dtype=float),
                name=f"Ji & Li's {constant}·Δ² (the paper's bound)",
                legendgroup=mechanism_id,
                mode="lines",
                line=dict(color=mechanism.color, width=2, dash="dot"),
                opacity=0.85,
                hovertemplate=exact_hover(x_label, f"{constant}·Δ²"),
            )
        )
    shown_legend = False
    simulated = _columns_by_mechanism(monte_carlo, ("dim", "mean", "mean_low", "mean_high", "n"))
    for mechanism_id, points in simulated.items():
        mechanism = mechanisms[mechanism_id]
        mean = points["mean"]
        traces.append(
            dict(
                type="scatter",
                x=points["dim"],
                y=mean,
                name=MONTE_CARLO_NAME,
                legendgroup="monte_carlo",
                showlegend=not shown_legend,
                mode="markers",
                marker=dict(
                    color=mechanism.color, size=9, symbol="circle-open", line=dict(width=2.5, color=mechanism.color)
                ),
                error_y=dict(
                    type="data",
                    array=points["mean_high"] - mean,
                    arrayminus=mean - points["mean_low"],
                    color=mechanism.color,
                    thickness=2,
                    width=5,
                ),
                customdata=np.stack([points["mean_low"], points["mean_high"], points["n"]], axis=1),
                hovertemplate=(
                    f"<b>{_curve_name(mechanism)}, simulated</b><br>{x_label} = %{{x:.10g}}<br>mean = %{{y:.10g}}"
                    "<br>95% interval %{customdata[0]:.6g} to %{customdata[1]:.6g}<br>n = %{customdata[2]:.0f} draws"
                    "<extra></extra>"
                ),
            )
        )
        shown_legend = True
    valid = current[current["valid"] & current["mean"].notna()]
    if len(valid):
        traces.append(
            dict(
                type="scatter",
                x=[setting.dim] * len(valid),
                y=valid["mean"].to_numpy(dtype=float),
                name=f"at d = {setting.dim:,}",
                mode="markers",
                marker=dict(
                    color=[mechanisms[m].color for m in valid["mechanism"]],
                    size=14,
                    symbol="diamond",
                    line=dict(width=1.5, color=CURRENT_COLOR),
                ),
                customdata=[_curve_name(mechanisms[m]) for m in valid["mechanism"]],
                hovertemplate="<b>%{customdata}</b><br>d = %{x:.10g}<br>E‖n‖₂² = %{y:.10g}<extra></extra>",
            )
        )
    figure = _figure_of(traces)
    _mark_dim(figure, setting.dim)
    apply_layout(
        figure,
        title=(
            "Expected squared error E‖n‖₂² against the dimension d"
            f"<br><sup>{setting_title(setting, rows)}; dotted: Ji & Li's stated constants × Δ²</sup>"
        ),
        x_title="dimension d (log scale)",
        y_title="E‖n‖₂² (log scale)",
        log_x=True,
        log_y=True,
        height=760,
    )
    # The default view is the proven mechanisms' region; MVG's 1e24 is marked at the top edge instead.
    losses = {key: curve["expected_loss"] for key, curve in groups.items()}
    keep_in_view(
        figure,
        losses,
        {key: _curve_name(mechanisms[key]) for key in losses},
        core_ids(losses, mechanisms, spread=1e3),
        log_y=True,
    )
    return _legend_below(figure)


def expected_loss_caption(
    current: pd.DataFrame, mechanisms: Mapping, setting, alternative: pd.DataFrame | None = None
) -> str:
    """The smallest proven expected error at d, and how it grows; R1SMG's number only with its caveat.

    The "smallest" is taken over mechanisms with a proven guarantee only: R1SMG is never named as
    the best, whatever its (claimed) number. Ties (a relative 1e-9) are named by the mechanism a
    reader knows (:mod:`gaussmech_ui.claims.ranking`); the caption states δ and the neighbour model and,
    from ``alternative`` (the same rows under the other neighbour model), what that model changes.
    """
    valid = current[current["valid"] & current["mean"].notna()]
    proven = valid[np.array([ranked(mechanisms[m]) for m in valid["mechanism"]], dtype=bool)]
    parts = []
    ranking = rank(dict(zip(proven["mechanism"], proven["mean"])), mechanisms, setting, quantity="expected error")
    if ranking.best:
        best = ranking.values[ranking.best[0]]
        parts.append(
            f"At d = {setting.dim:,}, the smallest expected squared error with a proven guarantee is "
            f"{format_number(best)} ({winner_phrase(ranking, mechanisms, setting)}), a root-mean-square error of "
            f"{format_number(math.sqrt(best))} on the whole vector. "
            "For every i.i.d. mechanism it grows in proportion to d (a straight line of slope 1 on these axes)"
            + (
                ", and faster for Laplace when every coordinate may change (Δ₁ = √d·Δ)."
                if setting.l1_model == "all_coordinates"
                else "."
            )
        )
        other = None
        if alternative is not None:
            shown = alternative[alternative["valid"] & alternative["mean"].notna()]
            shown = shown[np.array([ranked(mechanisms[m]) for m in shown["mechanism"]], dtype=bool)]
            other = rank(
                dict(zip(shown["mechanism"], shown["mean"])),
                mechanisms,
                under_other_model(setting),
                quantity="expected error",
            )
        parts.append(
            assumption_sentence(setting, ranking, other, mechanisms, quantity="error", verb="have the smallest error")
        )
    if setting.order == 2.0 and "generalized_gaussian" in set(valid["mechanism"]) and not ranking.best[1:]:
        parts.append("GG with p = 2 draws the same Gaussian noise, so its curve lies on the analytic Gaussian's.")
    r1smg = valid[valid["mechanism"] == "r1smg"]
    if len(r1smg):
        parts.append(
            f"R1SMG's expected error falls towards 2Δ²/ε as d grows (here {format_number(r1smg['mean'].iloc[0])}). "
            "Lower bounds for (ε, δ)-DP rule out an error that stays bounded as d grows, and its claimed guarantee indeed "
            "fails at most d: see the R1SMG audit tab."
        )
    if bounded_note(mechanisms[m] for m in valid["mechanism"]):
        parts.append(bounded_note(mechanisms[m] for m in valid["mechanism"]))
    return " ".join(parts)


_EXPLANATIONS = {
    "C_C": "Exact: C_C·Δ² is the classical Gaussian's E‖n‖² = d·σ², so the two curves coincide (drawn only for ε < 1, where the classical bound is a theorem).",
    "C_A": "Not a lower bound for the exact analytic Gaussian: C_A/d is the σ² of the older sufficient condition P[L ≥ ε] ≤ δ, 1.2 to 1.9 times the exact σ² of Balle & Wang's calibration ("
    + math_reference_link("6.3")
    + "). The solid blue curve is the exact one.",
    "C_M": "Far below the calibrated MVG loss: C_M drops the β term of the MVG condition and uses γ = Δ/2 ("
    + math_reference_link("6.4", "7.3")
    + "); the calibrated i.i.d. MVG loss is at least √(MN)·C_M·Δ², and the β term makes it much larger still.",
    "C_R": "By construction the R1SMG curve itself (σ* = C_R·Δ²): the small number is real, the privacy claim behind it is not ("
    + math_reference_link("6.2")
    + "; the R1SMG audit tab).",
}


def paper_explanations() -> dict[str, str]:
    """Why each of Ji & Li's constants differs (or not) from the exact value, in words (docs/math.md sections 6.3, 6.4)."""
    return dict(_EXPLANATIONS)


def paper_table(current: pd.DataFrame, mechanisms: Mapping, setting) -> pd.DataFrame:
    """Exact E‖n‖² next to Ji & Li's constant × Δ² at the current d, with the ratio (explained by :func:`paper_explanations`)."""
    records = []
    for row in frame_rows(current):
        if not row["constant"]:
            continue
        exact, bound = row["mean"], row["paper_bound"]
        ratio = exact / bound if (math.isfinite(exact) and math.isfinite(bound) and bound > 0) else np.nan
        records.append(
            {
                "Mechanism": _curve_name(mechanisms[row["mechanism"]]),
                f"Exact E‖n‖₂² at d = {setting.dim:,}": format_number(exact),
                "Ji & Li's constant × Δ²": f"{row['constant']}·Δ² = {format_number(bound)}",
                "Exact ÷ paper": format_number(ratio),
            }
        )
    return pd.DataFrame(records)


@built_once
def loss_bands_figure(
    bands: pd.DataFrame, monte_carlo: pd.DataFrame, mechanisms: Mapping, setting, rows: int, *, relative: bool = False
) -> go.Figure:
    """5-95% bands and the median of ‖n‖₂² against M, log-log, with simulated quantiles and their intervals.

    With ``relative`` every value is divided by the mechanism's E‖n‖² at that M, which shows the
    shape of the distribution: the bands of i.i.d. noise narrow around 1 as M grows, R1SMG's does not.
    """
    traces: list[dict] = []
    y_label = "‖n‖₂² / E‖n‖₂²" if relative else "‖n‖₂²"
    groups = _columns_by_mechanism(bands, ("dim", "expected_loss", "q05", "q50", "q95"))
    for mechanism_id, band in groups.items():
        mechanism = mechanisms[mechanism_id]
        divisor = band["expected_loss"] if relative else 1.0
        x = band["dim"]
        low = band["q05"] / divisor
        high = band["q95"] / divisor
        median = band["q50"] / divisor
        name = _curve_name(mechanism)
        traces.append(
            dict(
                type="scatter",
                x=x,
                y=high,
                name=f"{name}: 95%",
                legendgroup=mechanism_id,
                showlegend=False,
                mode="lines",
                line=dict(color=mechanism.color, width=0.8),
                hovertemplate=exact_hover("d", f"95% quantile of {y_label}"),
            )
        )
        traces.append(
            dict(
                type="scatter",
                x=x,
                y=low,
                name=f"{name}: 5%",
                legendgroup=mechanism_id,
                showlegend=False,
                mode="lines",
                line=dict(color=mechanism.color, width=0.8),
                fill="tonexty",
                fillcolor=_rgba(mechanism.color, 0.16),
                hovertemplate=exact_hover("d", f"5% quantile of {y_label}"),
            )
        )
        traces.append(
            dict(
                type="scatter",
                x=x,
                y=median,
                name=f"{name} (median, 5-95% band)",
                legendgroup=mechanism_id,
                mode="lines",
                line=mechanism_line(mechanism),
                hovertemplate=exact_hover("d", f"median of {y_label}"),
            )
        )
    shown_legend = False
    quantile_columns = tuple(f"{name}{end}" for name in ("q05", "q50", "q95") for end in ("", "_low", "_high"))
    for mechanism_id, points in _columns_by_mechanism(monte_carlo, ("dim",) + quantile_columns).items():
        mechanism = mechanisms[mechanism_id]
        if relative:  # the mean at each simulated d, from the band's curve (KeyError if it has no such d)
            mean_at = dict(zip(groups[mechanism_id]["dim"].tolist(), groups[mechanism_id]["expected_loss"].tolist()))
            divisor = np.array([mean_at[dim] for dim in points["dim"].tolist()])
        else:
            divisor = 1.0
        # The three simulated quantiles of a mechanism in one trace (fewer traces: a faster chart).
        x, value, low, high, level = [], [], [], [], []
        for name in ("q05", "q50", "q95"):
            x.append(points["dim"])
            value.append(points[name] / divisor)
            low.append(points[f"{name}_low"] / divisor)
            high.append(points[f"{name}_high"] / divisor)
            level.append(np.full(len(points["dim"]), name[1:] + "%"))
        x, value, low, high, level = (np.concatenate(part) for part in (x, value, low, high, level))
        traces.append(
            dict(
                type="scatter",
                x=x,
                y=value,
                name=MONTE_CARLO_NAME,
                legendgroup="monte_carlo",
                showlegend=not shown_legend,
                mode="markers",
                marker=dict(
                    color=mechanism.color, size=8, symbol="circle-open", line=dict(width=2, color=mechanism.color)
                ),
                error_y=dict(
                    type="data",
                    array=high - value,
                    arrayminus=value - low,
                    color=mechanism.color,
                    thickness=1.5,
                    width=4,
                ),
                customdata=level,
                hovertemplate=(
                    f"<b>{_curve_name(mechanism)}, simulated %{{customdata}} quantile</b><br>d = %{{x:.10g}}"
                    f"<br>{y_label} = %{{y:.10g}}<extra></extra>"
                ),
            )
        )
        shown_legend = True
    figure = _figure_of(traces)
    _mark_dim(figure, setting.dim)
    apply_layout(
        figure,
        title=(
            (
                "The loss relative to its mean: 5%, 50% and 95% quantiles"
                if relative
                else "How the loss ‖n‖₂² is spread: 5%, 50% and 95% quantiles against d"
            )
            + f"<br><sup>{setting_title(setting, rows)}; circles: simulated with each mechanism's sampler</sup>"
        ),
        x_title="dimension d (log scale)",
        y_title=f"{y_label} (log scale)",
        log_x=True,
        log_y=True,
        height=720,
    )
    return _legend_below(figure)


def bands_caption(current: pd.DataFrame, mechanisms: Mapping, setting) -> str:
    """What the quantiles say at the current d, from the numbers (R1SMG's spread versus a full-rank Gaussian's)."""
    parts = []
    rows = current.set_index("mechanism")
    if (
        "analytic_gaussian" in rows.index
        and rows.at["analytic_gaussian", "valid"]
        and math.isfinite(rows.at["analytic_gaussian", "mean"])
    ):
        row = rows.loc["analytic_gaussian"]
        parts.append(
            f"At d = {setting.dim:,}, the analytic Gaussian's loss lies between {format_number(row['q05'])} and "
            f"{format_number(row['q95'])} in 90% of releases ({format_number(row['q05'] / row['mean'])} to "
            f"{format_number(row['q95'] / row['mean'])} times its mean); the band narrows as d grows (skewness √(8/d))."
        )
    if "r1smg" in rows.index and rows.at["r1smg", "valid"] and math.isfinite(rows.at["r1smg", "mean"]):
        row = rows.loc["r1smg"]
        parts.append(
            f"R1SMG's loss σ*·z² spans {format_number(row['q05'] / row['mean'])} to {format_number(row['q95'] / row['mean'])} "
            'times its mean at every d: its larger skewness (2.83) and kurtosis (12), which Ji & Li read as "more stable", '
            "mean a heavier tail relative to its own scale."
        )
    return " ".join(parts)


def _short_method(row) -> str:
    if row["exact"]:
        return "exact (χ²)"
    if "Monte Carlo" in row["method"]:
        return "moments exact; quantiles simulated"
    if "Cornish" in row["method"]:
        return "moments exact; quantiles Cornish–Fisher"
    return row["method"]


def loss_table_notes(current: pd.DataFrame, mechanisms: Mapping) -> list[str]:
    """Why a row of the loss table is empty, one sentence per mechanism."""
    return [
        f"{_curve_name(mechanisms[row['mechanism']])}: {row['reason']}"
        for row in frame_rows(current)
        if (not row["valid"] or not math.isfinite(row["mean"])) and row["reason"]
    ]


def loss_table(current: pd.DataFrame, mechanisms: Mapping, setting) -> pd.DataFrame:
    """Mean, median, quantiles, skewness and kurtosis of ‖n‖₂² per mechanism at d, for people (3 digits)."""
    records = []
    for row in frame_rows(current):
        mechanism = mechanisms[row["mechanism"]]
        if not row["valid"] or not math.isfinite(row["mean"]):
            records.append(
                {
                    "Mechanism": _curve_name(mechanism),
                    "Mean": "—",
                    "Median": "—",
                    "5%": "—",
                    "95%": "—",
                    "Skewness": "—",
                    "Excess kurtosis": "—",
                    "How computed": "not valid here (see below)",
                }
            )
            continue
        records.append(
            {
                "Mechanism": _curve_name(mechanism),
                "Mean": format_number(row["mean"]),
                "Median": format_number(row["median"]),
                "5%": format_number(row["q05"]),
                "95%": format_number(row["q95"]),
                "Skewness": format_number(row["skewness"]),
                "Excess kurtosis": format_number(row["excess_kurtosis"]),
                "How computed": _short_method(row),
            }
        )
    return pd.DataFrame(records)


def loss_csv_frame(current: pd.DataFrame, mechanisms: Mapping, setting) -> pd.DataFrame:
    """The loss table with exact values, for the CSV download."""
    frame = current.copy()
    frame.insert(0, "name", [_curve_name(mechanisms[m]) for m in frame["mechanism"]])
    frame.insert(1, "dim", setting.dim)
    frame.insert(2, "epsilon", setting.epsilon)
    frame.insert(3, "delta", setting.delta)
    return frame


@built_once
def true_delta_figure(curve: pd.DataFrame, point: Mapping, mechanisms: Mapping, setting) -> go.Figure:
    """R1SMG's true δ(ε) against M (quadrature) next to the claimed δ, with a Monte Carlo check at d."""
    mechanism = mechanisms["r1smg"]
    traces: list[dict] = []
    x = curve["dim"].to_numpy(dtype=float)
    shown = np.where(curve["true_delta"].to_numpy(dtype=float) > 0, curve["true_delta"].to_numpy(dtype=float), np.nan)
    traces.append(
        dict(
            type="scatter",
            x=x,
            y=shown,
            name=f"true δ({format_number(setting.epsilon)}) of its noise (quadrature)",
            mode="lines+markers",
            line=dict(color=mechanism.color, width=LINE_WIDTH),
            marker=dict(size=7),
            hovertemplate=exact_hover("d", "true δ"),
        )
    )
    if len(curve):
        traces.append(
            dict(
                type="scatter",
                x=[x.min(), x.max()],
                y=[setting.delta, setting.delta],
                name=f"claimed δ = {format_number(setting.delta)} (Ji & Li 2024)",
                mode="lines",
                line=dict(color=CURRENT_COLOR, width=2, dash="dash"),
                hovertemplate=exact_hover("d", "claimed δ"),
            )
        )
    if point.get("valid") and math.isfinite(point.get("monte_carlo", np.nan)):
        error = 1.96 * point["monte_carlo_error"]
        traces.append(
            dict(
                type="scatter",
                x=[setting.dim],
                y=[point["monte_carlo"] if point["monte_carlo"] > 0 else np.nan],
                name=f"Monte Carlo at d = {setting.dim:,} (n = {point['samples']:,}), 95% interval",
                mode="markers",
                marker=dict(color=CURRENT_COLOR, size=12, symbol="diamond-open", line=dict(width=2.5)),
                error_y=dict(
                    type="data",
                    array=[error],
                    arrayminus=[min(error, point["monte_carlo"])],
                    color=CURRENT_COLOR,
                    thickness=2,
                ),
                hovertemplate=exact_hover("d", "δ (Monte Carlo)"),
            )
        )
    figure = _figure_of(traces)
    _mark_dim(figure, setting.dim)
    apply_layout(
        figure,
        title=(
            f"R1SMG (claimed, Ji & Li 2024): the true δ at ε = {format_number(setting.epsilon)} against d"
            f"<br><sup>noise calibrated as published for δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}; "
            "above the dashed line the claim fails</sup>"
        ),
        x_title="dimension d (log scale)",
        y_title="δ (log scale)",
        log_x=True,
        log_y=True,
        height=600,
    )
    return _legend_below(figure)


def audit_caption(point: Mapping, setting) -> str:
    """The audit in one paragraph: claimed δ, true δ, the Monte Carlo check, and whether the claim holds."""
    if not point.get("valid"):
        return f"R1SMG is not defined at this setting: {point.get('reason', '')}"
    true_delta, claimed = point["true_delta"], point["claimed_delta"]
    verdict = (
        f"The claim fails here: the noise's true δ is {format_number(true_delta / claimed)} times the claimed δ."
        if true_delta > claimed
        else "At this setting the claim holds: the true δ is within the claimed δ (R1SMG then adds more noise than the analytic Gaussian)."
    )
    return (
        f"At ε = {format_number(setting.epsilon)} and d = {setting.dim:,}, R1SMG calibrated as published (σ* = "
        f"{format_number(point['sigma_star'])}) claims δ = {format_number(claimed)}. The exact privacy loss of its noise gives "
        f"δ(ε) = {format_number(true_delta)} (quadrature, error estimate {format_number(point['quadrature_error'])}); "
        f"an independent Monte Carlo estimate with {point['samples']:,} draws gives {format_number(point['monte_carlo'])} ± "
        f"{format_number(1.96 * point['monte_carlo_error'])} (95%). {verdict}"
    )


MATCHED_GAUSSIAN_COLOR = "#555555"


def _row_colors(rows: pd.DataFrame, mechanisms: Mapping) -> list[str]:
    """A registry mechanism's colour, and grey for the Gaussian matched to R1SMG's expected error."""
    return [mechanisms[m].color if m else MATCHED_GAUSSIAN_COLOR for m in rows["mechanism"]]


@built_once
def closer_test_figure(rows: pd.DataFrame, ceiling: float, mechanisms: Mapping, setting) -> go.Figure:
    """Simulated success of the closer-answer test (Wilson 95% intervals), the exact value, and the DP ceiling."""
    traces: list[dict] = []
    labels = rows["label"].tolist()
    colors = _row_colors(rows, mechanisms)
    rate = rows["rate"].to_numpy(dtype=float)
    traces.append(
        dict(
            type="bar",
            y=labels,
            x=rate,
            orientation="h",
            name="simulated success rate",
            marker=dict(color=colors),
            error_x=dict(
                type="data",
                array=rows["high"].to_numpy(dtype=float) - rate,
                arrayminus=rate - rows["low"].to_numpy(dtype=float),
                color=CURRENT_COLOR,
                thickness=2,
                width=8,
            ),
            customdata=np.stack([rows["low"], rows["high"], rows["successes"], rows["trials"]], axis=1),
            hovertemplate=(
                "<b>%{y}</b><br>success rate = %{x:.6f}<br>95% interval %{customdata[0]:.6f} to %{customdata[1]:.6f}"
                "<br>%{customdata[2]:,} right out of %{customdata[3]:,}<extra></extra>"
            ),
        )
    )
    traces.append(
        dict(
            type="scatter",
            y=labels,
            x=rows["exact"].to_numpy(dtype=float),
            name="exact probability",
            mode="markers",
            marker=dict(color="white", size=13, symbol="diamond", line=dict(width=2.5, color=CURRENT_COLOR)),
            hovertemplate="<b>%{y}</b><br>exact success probability = %{x:.10g}<extra></extra>",
        )
    )
    figure = _figure_of(traces)
    figure.add_vline(
        x=ceiling,
        line=dict(color=CURRENT_COLOR, width=3, dash="dash"),
        annotation=dict(text=f"(ε, δ)-DP ceiling {format_number(ceiling)}", font=dict(size=FONT_SIZE - 1)),
        annotation_position="top",
    )
    figure.add_vline(
        x=0.5,
        line=dict(color="#777777", width=1.5, dash="dot"),
        annotation=dict(text="coin flip", font=dict(size=FONT_SIZE - 2)),
        annotation_position="top right",
    )
    apply_layout(
        figure,
        title=(
            "Which dataset was it? The closer-answer test on simulated releases"
            f"<br><sup>ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}, "
            f"d = {setting.dim:,}, {int(rows['trials'].iloc[0]):,} releases per bar; bars: 95% Wilson intervals</sup>"
        ),
        x_title="P(test names the right dataset)",
        y_title="",
        height=420,
    )
    figure.update_xaxes(range=[0.45, 1.02])
    figure.update_yaxes(type="category", autorange="reversed", ticks="")
    _legend_below(figure)
    update_layout_quickly(figure, showlegend=True, margin=dict(l=300, b=40), bargap=0.35, legend=dict(y=-0.32))
    return figure


@built_once
def closer_test_curve_figure(curve: pd.DataFrame, rows: pd.DataFrame, mechanisms: Mapping, setting) -> go.Figure:
    """Exact success of the closer-answer test against M, the ceiling, and the simulated points at d."""
    traces: list[dict] = []
    x = curve["dim"].to_numpy(dtype=float)
    r1smg = mechanisms["r1smg"]
    analytic = mechanisms["analytic_gaussian"]
    traces.append(
        dict(
            type="scatter",
            x=x,
            y=curve["r1smg"],
            name=f"{trace_name(r1smg)}",
            mode="lines",
            line=mechanism_line(r1smg),
            hovertemplate=exact_hover("d", "P(right)"),
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=x,
            y=curve["matched_gaussian"],
            name="Gaussian with R1SMG's E‖n‖²",
            mode="lines",
            line=dict(color=MATCHED_GAUSSIAN_COLOR, width=LINE_WIDTH, dash="dashdot"),
            hovertemplate=exact_hover("d", "P(right)"),
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=x,
            y=curve["analytic_gaussian"],
            name=f"{analytic.name} at (ε, δ)",
            mode="lines",
            line=mechanism_line(analytic),
            hovertemplate=exact_hover("d", "P(right)"),
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=x,
            y=curve["ceiling"],
            name="ceiling for any (ε, δ)-DP mechanism",
            mode="lines",
            line=dict(color=CURRENT_COLOR, width=2, dash="dash"),
            hovertemplate=exact_hover("d", "(e^ε + δ)/(1 + e^ε)"),
        )
    )
    if len(rows):
        rate = rows["rate"].to_numpy(dtype=float)
        colors = _row_colors(rows, mechanisms)
        traces.append(
            dict(
                type="scatter",
                x=[setting.dim] * len(rows),
                y=rate,
                name=f"simulated at d = {setting.dim:,} (95% Wilson)",
                mode="markers",
                marker=dict(color=colors, size=11, symbol="circle-open", line=dict(width=2.5, color=colors)),
                error_y=dict(
                    type="data",
                    array=rows["high"].to_numpy(dtype=float) - rate,
                    arrayminus=rate - rows["low"].to_numpy(dtype=float),
                    thickness=2,
                ),
                customdata=rows["label"].tolist(),
                hovertemplate="<b>%{customdata}</b><br>d = %{x}<br>simulated P(right) = %{y:.6f}<extra></extra>",
            )
        )
    figure = _figure_of(traces)
    _mark_dim(figure, setting.dim)
    apply_layout(
        figure,
        title=(
            "The closer-answer test against the dimension: above the dashed line, no (ε, δ)-DP guarantee can hold"
            f"<br><sup>ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}; "
            "curves exact, circles simulated</sup>"
        ),
        x_title="dimension d (log scale)",
        y_title="P(test names the right dataset)",
        log_x=True,
        height=620,
    )
    figure.update_yaxes(range=[0.45, 1.02])
    return _legend_below(figure)


def closer_test_caption(rows: pd.DataFrame, ceiling: float, curve: pd.DataFrame, setting) -> list[str]:
    """Plain sentences from the numbers: the simulated rates, the ceiling, and what follows."""
    sentences = []
    by_noise = {row["mechanism"] or row["noise"]: row for row in frame_rows(rows)}
    trials = int(rows["trials"].iloc[0]) if len(rows) else 0
    r1smg = by_noise.get("r1smg")
    if r1smg is not None:
        text = (
            f"In {trials:,} simulated releases of R1SMG noise the test named the right dataset "
            f"{_percent(r1smg['rate'])} of the time (95% interval {_percent(r1smg['low'])} to "
            f"{_percent(r1smg['high'])}; exact {_percent(r1smg['exact'])}). "
            f"Any (ε, δ)-DP mechanism with ε = {format_number(setting.epsilon)} and δ = {format_number(setting.delta)} allows at "
            f"most {_percent(ceiling)}."
        )
        if r1smg["low"] > ceiling:
            text += " The whole interval lies above that ceiling: this simulation alone shows the claimed guarantee does not hold here."
        else:
            crossing = curve[curve["r1smg"] > curve["ceiling"]]
            where = (
                f" (from about d = {int(crossing['dim'].iloc[0]):,} on, see the chart below)" if len(crossing) else ""
            )
            text += (
                " At this d one release is not enough for this test to cross the ceiling"
                f"{where}; the claim is judged by the true δ above, which is exact."
            )
        sentences.append(text)
    matched = by_noise.get("gaussian")
    if matched is not None and math.isfinite(matched["honest_epsilon"]):
        sentences.append(
            f"A Gaussian with the same expected error E‖n‖² = {format_number(matched['expected_loss'])} "
            f"(σ = {format_number(matched['scale'])} per coordinate) is told apart about as often "
            f"({_percent(matched['rate'])}); its exact guarantee at δ = {format_number(setting.delta)} is "
            f"ε = {format_number(matched['honest_epsilon'])}, not {format_number(setting.epsilon)}."
        )
    analytic = by_noise.get("analytic_gaussian")
    if analytic is not None:
        sentences.append(
            f"The analytic Gaussian calibrated to (ε, δ) (σ = {format_number(analytic['scale'])}) is told apart "
            f"{_percent(analytic['rate'])} of the time (exact {_percent(analytic['exact'])}), below the ceiling, "
            f"at the price of E‖n‖² = {format_number(analytic['expected_loss'])}."
        )
    return sentences


def target_description(kind: str, scope: str, alpha: float, target: float) -> str:
    """The target in words.

    Examples
    --------
    >>> target_description("quantile", "coordinate", 0.05, 10.0)
    "each coordinate's error |nᵢ| ≤ 10 with probability 95%"
    >>> target_description("rms", "norm", 0.05, 2.5)
    'a root-mean-square error ‖n‖₂ of at most 2.5 on the whole vector'
    """
    t = format_number(target)
    if kind == "rms":
        return (
            f"a root-mean-square error ‖n‖₂ of at most {t} on the whole vector"
            if scope == "norm"
            else f"a root-mean-square error of at most {t} per coordinate"
        )
    what = "the whole error ‖n‖₂" if scope == "norm" else "each coordinate's error |nᵢ|"
    return f"{what} ≤ {t} with probability {format_percent(1 - alpha, 6)}"


def accuracy_first_table(frame: pd.DataFrame, mechanisms: Mapping, setting) -> pd.DataFrame:
    """The ε each mechanism needs, for people: a dash and the reason where no ε in [1e-6, 1e3] works."""
    records = []
    for row in frame_rows(frame):
        mechanism = mechanisms[row["mechanism"]]
        epsilon = row["epsilon"]
        if not math.isfinite(epsilon):
            needed, error, note = "—", "—", "no ε in [1e-6, 1000] works (see below)"
        else:
            needed = ("≤ " if row["at_lower_end"] else "") + format_number(epsilon)
            error = format_number(row["error"])
            notes = []
            if row["at_lower_end"]:
                notes.append("already met at ε = 1e-6, the smallest ε searched")
            if row["method"] != "exact":
                notes.append(row["method"])
            if mechanism.guarantee == "claimed":
                notes.append(f"true δ at that ε: {format_number(row['true_delta'])}")
            note = "; ".join(notes)
        records.append(
            {
                "Mechanism": _curve_name(mechanism),
                "Guarantee": mechanism.guarantee_label,
                "ε needed": needed,
                "Error at that ε": error,
                "Note": note,
            }
        )
    return pd.DataFrame(records)


def accuracy_first_notes(frame: pd.DataFrame, mechanisms: Mapping, setting) -> tuple[list[str], list[str]]:
    """(reasons, warnings): why a mechanism has no ε, and the caveat of a claimed guarantee, in sentences."""
    reasons, warnings = [], []
    for row in frame_rows(frame):
        mechanism = mechanisms[row["mechanism"]]
        if not math.isfinite(row["epsilon"]):
            reasons.append(f"{_curve_name(mechanism)}: {row['reason']}")
        elif mechanism.guarantee == "claimed" and math.isfinite(row["true_delta"]):
            warnings.append(
                f"{_curve_name(mechanism)} would meet the target at ε = {format_number(row['epsilon'])} only by its claim: "
                f"the true δ of its noise at that ε is {format_number(row['true_delta'])}, not the claimed "
                f"{format_number(setting.delta)} ({math_reference_link('6.2')}). It is listed for comparison, not for use."
            )
    return reasons, warnings


def accuracy_first_caption(
    frame: pd.DataFrame,
    mechanisms: Mapping,
    setting,
    target: float,
    kind: str,
    scope: str,
    alpha: float,
    alternative: pd.DataFrame | None = None,
) -> str:
    """The answer in one sentence: the smallest ε among mechanisms with a proven guarantee.

    Ties (a relative 1e-9) are named by the mechanism a reader knows (:mod:`gaussmech_ui.claims.ranking`);
    the caption states δ and the neighbour model and, from ``alternative`` (the same table under
    the other neighbour model), what that model changes.
    """

    def proven_epsilons(table):
        return {
            row["mechanism"]: row["epsilon"]
            for row in frame_rows(table)
            if ranked(mechanisms[row["mechanism"]]) and not pd.isna(row["epsilon"])
        }

    goal = f"{target_description(kind, scope, alpha, target)} at d = {setting.dim:,}"
    ranking = rank(proven_epsilons(frame), mechanisms, setting, quantity="ε")
    if not ranking.best:
        return f"No mechanism with a proven guarantee reaches {goal} for any ε in [1e-6, 1000]."
    other = (
        None
        if alternative is None
        else rank(proven_epsilons(alternative), mechanisms, under_other_model(setting), quantity="ε")
    )
    return (
        f"For {goal}, the most private proven choice is {winner_phrase(ranking, mechanisms, setting)} at ε = "
        f"{format_number(ranking.values[ranking.best[0]])}; a smaller ε is more private and needs more noise. "
        + assumption_sentence(setting, ranking, other, mechanisms, quantity="ε", verb="be the most private choice")
        + " " * bool(bounded_note(mechanisms[m] for m in frame["mechanism"]))
        + bounded_note(mechanisms[m] for m in frame["mechanism"])
    )
