"""What the Noise distributions page shows: densities, the GG family, a Monte Carlo histogram, noise vectors.

Pure builders (no ``st.*``): frames of exact values in (from :mod:`gaussmech_ui.cached.distributions`),
a ``go.Figure`` or a sentence out. ``mechanisms`` is the registry or any mapping from id to objects
with its attributes (``name``, ``short_name``, ``color``, ``guarantee``, ``source``).
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
    rank,
    ranked,
    reader_name,
    under_other_model,
    winner_phrase,
)
from ..format import format_number, format_ratio
from . import light
from .built_once import built_once
from .common import (
    CURRENT_COLOR,
    FONT_FAMILY,
    FONT_SIZE,
    LINE_WIDTH,
    TEXT_COLOR,
    TITLE_SIZE,
    apply_layout,
    core_ids,
    exact_hover,
    keep_in_view,
    mechanism_line,
    mechanism_marker,
    trace_name,
    update_layout_quickly,
)
from .overview import setting_summary

__all__ = [
    "trace_name",
    "log_dtick",
    "legend_below",
    "density_figure",
    "density_caption",
    "gg_family_figure",
    "gg_family_caption",
    "sample_histogram_figure",
    "sample_caption",
    "vector_scatter_figure",
    "vector_caption",
    "scatter_frame",
]


def legend_below(figure: go.Figure, height: int = 640) -> go.Figure:
    """Move the legend under the plot, so a chart with long mechanism names keeps its full width."""
    update_layout_quickly(
        figure,
        height=height,
        legend=dict(orientation="h", yanchor="top", y=-0.16, x=0.0, xanchor="left"),
        margin=dict(b=40),
    )
    return figure


def log_dtick(smallest: float) -> int:
    """Decades between ticks of a log axis reaching down to ``smallest``, so it has at most about 8 ticks.

    Examples
    --------
    >>> log_dtick(1e-5), log_dtick(1e-30), log_dtick(1e-300)
    (1, 5, 50)
    """
    decades = max(1.0, -math.log10(smallest)) if smallest > 0 else 1.0
    for step in (1, 2, 5, 10, 20, 50, 100):
        if decades / step <= 8:
            return step
    return 100


def density_figure(curves: pd.DataFrame, mechanisms: Mapping, setting, *, log_density: bool) -> go.Figure:
    """Per-coordinate noise densities of several mechanisms on one chart, linear or log density.

    ``curves`` has an ``x`` column and one density column per mechanism id to draw (values that
    are not positive are left out of a log chart).
    """
    figure = light.new_figure()
    x = curves["x"].to_numpy(dtype=float)
    ids = [key for key in curves.columns if key != "x"]
    # Drawn last-to-first so the first mechanism (the reference) is on top where curves coincide
    # (GG at p = 2 is the analytic Gaussian); the legend keeps the registry order.
    for legend_rank, mechanism_id in reversed(list(enumerate(ids))):
        mechanism = mechanisms[mechanism_id]
        density = curves[mechanism_id].to_numpy(dtype=float)
        if log_density:
            density = np.where(density > 0, density, np.nan)
        if getattr(mechanism, "support", "continuous") == "integer":  # a pmf on the integers: points, not a curve
            shown = np.isfinite(density)
            figure.add_trace(
                dict(
                    type="scatter",
                    x=x[shown],
                    y=density[shown],
                    name=trace_name(mechanism),
                    legendrank=legend_rank + 1,
                    mode="markers",
                    marker=dict(color=mechanism.color, size=6),
                    hovertemplate=exact_hover("k", "P(N = k)"),
                )
            )
            continue
        # The integers where a pmf is drawn beside this curve hold NaN here: leave those points out.
        drawn = ~np.isnan(curves[mechanism_id].to_numpy(dtype=float))
        figure.add_trace(
            dict(
                type="scatter",
                x=x[drawn],
                y=density[drawn],
                name=trace_name(mechanism),
                legendrank=legend_rank + 1,
                mode="lines+markers",
                line=mechanism_line(mechanism),
                marker=mechanism_marker(mechanism),
                hovertemplate=exact_hover("x", "f(x)"),
            )
        )
    view = "log density: the tails" if log_density else "linear density: the centre"
    apply_layout(
        figure,
        title=(
            f"What each mechanism adds to one coordinate ({view})"
            f"<br><sup>each at its calibrated scale; {setting_summary(setting)}</sup>"
        ),
        x_title="noise value x in one coordinate",
        y_title="density f(x)" + (" (log scale)" if log_density else ""),
        log_y=log_density,
    )
    if not log_density:  # the centre view is scaled to the proven noises; R1SMG's spike is marked at the top edge
        densities = {key: curves[key].to_numpy(dtype=float) for key in ids}
        keep_in_view(
            figure,
            densities,
            {key: trace_name(mechanisms[key]) for key in ids},
            core_ids(densities, mechanisms),
            log_y=False,
        )
    return light.finished(legend_below(figure))


def density_caption(
    stds: Mapping[str, float],
    mechanisms: Mapping,
    invalid: Mapping[str, str],
    setting=None,
    alternative: Mapping[str, float] | None = None,
) -> str:
    """Which mechanism is narrowest and widest, in plain words, and which were left out and why.

    Ties (a relative 1e-9) share a place and are named by the mechanism a reader knows
    (:mod:`gaussmech_ui.claims.ranking`); with ``setting`` the sentence states δ and the neighbour model
    and, from ``alternative`` (the stds under the other neighbour model), what that model changes.
    """
    finite = {key: value for key, value in stds.items() if value is not None and math.isfinite(value)}
    sentences = []
    proven = {key: value for key, value in finite.items() if ranked(mechanisms[key])}
    ranking = rank(proven, mechanisms, setting, quantity="noise std")
    if len(ranking.places) >= 2:
        narrow, wide = ranking.best[0], ranking.worst[0]
        sentences.append(
            f"Of the mechanisms with a proven guarantee, {winner_phrase(ranking, mechanisms, setting)} has the "
            f"narrowest noise (std {format_number(proven[narrow])} per coordinate) and {reader_name(mechanisms[wide])} "
            f"the widest (std {format_number(proven[wide])}, {format_ratio(proven[wide] / proven[narrow])})."
        )
        if setting is not None:
            other = (
                None
                if alternative is None
                else rank(
                    {key: value for key, value in alternative.items() if ranked(mechanisms[key])},
                    mechanisms,
                    under_other_model(setting),
                    quantity="noise std",
                )
            )
            sentences.append(
                assumption_sentence(
                    setting, ranking, other, mechanisms, quantity="noise std", verb="have the narrowest noise"
                )
            )
    elif len(ranking.places) == 1 and len(ranking.best) > 1:
        sentences.append(
            f"The proven mechanisms shown have the same noise width: {winner_phrase(ranking, mechanisms, setting)}."
        )
    if bounded_note(mechanisms[key] for key in finite):
        sentences.append(bounded_note(mechanisms[key] for key in finite))
    for key in finite:
        if mechanisms[key].guarantee == "claimed":
            sentences.append(
                f"{trace_name(mechanisms[key])} is drawn at the scale its authors claim is private; "
                "the Privacy profiles page shows its true δ."
            )
    if invalid:
        sentences.append(
            "Not drawn: "
            + "; ".join(f"{mechanisms[key].name} ({reason.rstrip('.')})" for key, reason in invalid.items())
            + "."
        )
    return " ".join(sentences)


_FAMILY_STYLE = {"gg": "solid", "laplace": "dash", "gaussian": "dot"}


def gg_family_figure(curves: pd.DataFrame, styles: Mapping[str, Mapping], setting, *, mode: str) -> go.Figure:
    """The generalized Gaussian GG(p) next to Laplace (p = 1) and the Gaussian (p = 2).

    ``curves`` has an ``x`` column and the density columns ``gg``, ``laplace``, ``gaussian``
    (any may be missing); ``styles[column]`` gives its ``name`` and ``color``. ``mode`` is
    ``"equal_variance"`` (all three with one standard deviation) or ``"calibrated"`` (each at
    its own calibrated scale).
    """
    figure = light.new_figure()
    x = curves["x"].to_numpy(dtype=float)
    for column in ("gg", "laplace", "gaussian"):
        if column not in curves:
            continue
        style = styles[column]
        figure.add_trace(
            dict(
                type="scatter",
                x=x,
                y=curves[column].to_numpy(dtype=float),
                name=style["name"],
                mode="lines",
                line=dict(
                    color=style["color"], width=LINE_WIDTH + (1 if column == "gg" else 0), dash=_FAMILY_STYLE[column]
                ),
                hovertemplate=exact_hover("x", "f(x)"),
            )
        )
    if mode == "equal_variance":
        subtitle = "all three with the same variance (the analytic Gaussian's σ²): who puts more mass near 0?"
    else:
        subtitle = "each at its own calibrated scale"
    apply_layout(
        figure,
        title=(
            f"Generalized Gaussian of order p = {format_number(setting.order)} between Laplace and Gaussian"
            f"<br><sup>{subtitle}; {setting_summary(setting)}</sup>"
        ),
        x_title="noise value x in one coordinate",
        y_title="density f(x)",
    )
    return light.finished(figure)


def gg_family_caption(mode: str, order: float, at_mean: Mapping[str, float], stds: Mapping[str, float]) -> str:
    """Liu's point in numbers: at equal variance Laplace has the highest density at the mean.

    ``at_mean`` maps ``gg``, ``laplace``, ``gaussian`` to the density at 0; ``stds`` to the std.
    """
    if mode == "equal_variance":
        return (
            f"At equal variance the density at the mean is {format_number(at_mean['laplace'])} for Laplace, "
            f"{format_number(at_mean['gaussian'])} for the Gaussian and {format_number(at_mean['gg'])} for "
            f"GG(p = {format_number(order)}): Laplace concentrates "
            f"{format_ratio(at_mean['laplace'] / at_mean['gaussian'])} as much mass at the mean as the Gaussian "
            "(Liu's remark), and pays for it with heavier tails. Larger p gives a flatter top and lighter tails."
        )
    parts = [
        f"{name} std {format_number(value)}"
        for name, value in stds.items()
        if value is not None and math.isfinite(value)
    ]
    return (
        "At their calibrated scales the curves differ in width, not only in shape: "
        + ", ".join(parts)
        + ". Laplace here is pure ε-DP (δ = 0); the others are (ε, δ)-DP at the sidebar's δ."
    )


def sample_histogram_figure(
    histogram: pd.DataFrame, curve: pd.DataFrame, mechanism, setting, *, size: int, seed: int
) -> go.Figure:
    """A Monte Carlo histogram of one noise coordinate (as a density) over the exact density.

    ``histogram`` has ``left``, ``right`` and ``density`` per bin; ``curve`` has ``x`` and ``density``.
    """
    left = histogram["left"].to_numpy(dtype=float)
    right = histogram["right"].to_numpy(dtype=float)
    figure = light.new_figure()
    figure.add_trace(
        dict(
            type="bar",
            x=(left + right) / 2.0,
            y=histogram["density"].to_numpy(dtype=float),
            width=right - left,
            name=f"{size:,} draw{'s' if size != 1 else ''} (seed {seed})",
            marker=dict(color=mechanism.color, opacity=0.45, line=dict(width=0)),
            hovertemplate="<b>%{fullData.name}</b><br>bin centre = %{x:.10g}<br>draws / (n × bin width) = %{y:.10g}<extra></extra>",
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=curve["x"].to_numpy(dtype=float),
            y=curve["density"].to_numpy(dtype=float),
            name=f"exact density: {trace_name(mechanism)}",
            mode="lines",
            line=dict(color=CURRENT_COLOR, width=LINE_WIDTH),
            hovertemplate=exact_hover("x", "f(x)"),
        )
    )
    apply_layout(
        figure,
        title=(
            f"{size:,} draw{'s' if size != 1 else ''} of {trace_name(mechanism)} noise against its density"
            f"<br><sup>one coordinate, seed {seed}; {setting_summary(setting)}</sup>"
        ),
        x_title="noise value x in one coordinate",
        y_title="density (histogram: share of draws per unit of x)",
    )
    update_layout_quickly(figure, bargap=0)
    return light.finished(figure)


def sample_caption(summary: Mapping[str, float], mechanism, size: int) -> str:
    """How well the draws match: sample std against exact std, and what fell outside the window."""
    text = (
        f"The {size:,} draws have standard deviation {format_number(summary['sample_std'])}; the exact value is "
        f"{format_number(summary['exact_std'])}. "
    )
    outside = int(summary["outside"])
    if outside:
        text += f"{outside:,} draws ({format_number(100 * outside / size)}%) fall outside the window shown. "
    text += "Press “Draw again” for a new seed: the bars move, the curve does not."
    if size < 1000:
        text += " With so few draws the bars are ragged; take more to see them settle on the curve."
    return text


def _scatter_layout_3d(figure: go.Figure, title: str, limit: float) -> None:
    axis = dict(
        range=[-limit, limit],
        backgroundcolor="white",
        gridcolor="#D9D9D9",
        showline=True,
        linecolor=TEXT_COLOR,
        title_font=dict(size=FONT_SIZE),
        tickfont=dict(size=FONT_SIZE - 3),
    )
    update_layout_quickly(
        figure,
        template="none",
        title=dict(text=title, font=dict(size=TITLE_SIZE), x=0.0, xanchor="left", y=0.97),
        font=dict(family=FONT_FAMILY, size=FONT_SIZE, color=TEXT_COLOR),
        paper_bgcolor="white",
        height=640,
        margin=dict(l=10, r=10, t=110, b=10),
        legend=dict(font=dict(size=FONT_SIZE - 2), bgcolor="rgba(255,255,255,0.85)", orientation="h", x=0.0, y=0.0),
        scene=dict(
            xaxis=dict(title_text="x₁", **axis),
            yaxis=dict(title_text="x₂", **axis),
            zaxis=dict(title_text="x₃", **axis),
            aspectmode="cube",
        ),
    )


@built_once
def vector_scatter_figure(
    points: Mapping[str, np.ndarray], styles: Mapping[str, Mapping], *, expected_loss: float, setting, subtitle: str
) -> go.Figure:
    """2-D or 3-D scatter of noise vectors around the true value, one colour per mechanism.

    ``points[key]`` is an (n, 2) or (n, 3) array of released values f(x) + noise with f(x) = 0;
    ``styles[key]`` gives ``name`` and ``color``. The true value is marked with a black cross.
    """
    dimension = next(iter(points.values())).shape[1]
    largest = max(float(np.max(np.abs(p))) for p in points.values() if p.size) if points else 1.0
    limit = 1.05 * largest if largest > 0 else 1.0
    figure = go.Figure()
    title = (
        f"{dimension}-D noise around the true value"
        f"<br><sup>equal E‖noise‖² = {format_number(expected_loss)}; {subtitle}<br>"
        f"ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}</sup>"
    )
    for key, array in points.items():
        style = styles[key]
        marker = dict(color=style["color"], size=5 if dimension == 2 else 3, opacity=0.6)
        if dimension == 2:
            figure.add_trace(
                dict(
                    type="scattergl",
                    x=array[:, 0],
                    y=array[:, 1],
                    mode="markers",
                    name=style["name"],
                    marker=marker,
                    hovertemplate="<b>%{fullData.name}</b><br>x₁ = %{x:.10g}<br>x₂ = %{y:.10g}<extra></extra>",
                )
            )
        else:
            figure.add_trace(
                dict(
                    type="scatter3d",
                    x=array[:, 0],
                    y=array[:, 1],
                    z=array[:, 2],
                    mode="markers",
                    name=style["name"],
                    marker=marker,
                    hovertemplate="<b>%{fullData.name}</b><br>x₁ = %{x:.10g}<br>x₂ = %{y:.10g}<br>x₃ = %{z:.10g}<extra></extra>",
                )
            )
    truth = dict(
        name="true value f(x)",
        mode="markers",
        marker=dict(color=CURRENT_COLOR, size=14 if dimension == 2 else 7, symbol="x"),
    )
    if dimension == 2:
        figure.add_trace(
            dict(type="scatter", x=[0.0], y=[0.0], hovertemplate="true value f(x) = (0, 0)<extra></extra>", **truth)
        )
        apply_layout(figure, title=title, x_title="x₁", y_title="x₂", height=640)
        # A square plot with equal scales: the shrink happens in the plot area, not in the range.
        figure.update_xaxes(range=[-limit, limit], constrain="domain")
        figure.update_yaxes(range=[-limit, limit], scaleanchor="x", scaleratio=1, constrain="domain")
        update_layout_quickly(
            figure,
            margin=dict(l=60, r=20, t=110, b=60),
            legend=dict(orientation="h", yanchor="top", y=-0.14, x=0.0),
        )
    else:
        figure.add_trace(
            dict(
                type="scatter3d",
                x=[0.0],
                y=[0.0],
                z=[0.0],
                hovertemplate="true value f(x) = (0, 0, 0)<extra></extra>",
                **truth,
            )
        )
        _scatter_layout_3d(figure, title, limit)
    return figure


def vector_caption(points: Mapping[str, np.ndarray], fixed_direction: bool, expected_loss: float) -> str:
    """What the scatter shows, with the mean squared error of the drawn points against the expected one.

    ``points`` has the keys ``gaussian`` and ``r1smg`` (arrays of noise vectors).
    """
    labels = {"gaussian": "Gaussian", "r1smg": "R1SMG-shaped"}
    errors = ", ".join(
        f"{labels.get(key, key)} {format_number(float(np.mean(np.sum(array**2, axis=1))))}"
        for key, array in points.items()
    )
    if fixed_direction:
        shape = (
            "Every R1SMG vector lies on one line through the true value: given its direction v, the covariance "
            "σ* v vᵀ has rank 1. Ji & Li draw a new, secret v for each release (press Draw again)."
        )
    else:
        shape = (
            "With a fresh direction for each release, R1SMG's noise is spherically symmetric but piles up near the "
            "true value and reaches far out along random lines; the Gaussian fills a round cloud."
        )
    return (
        f"{shape} Both have expected squared error {format_number(expected_loss)}; the points drawn have mean squared "
        f"error {errors}."
    )


def scatter_frame(figure: go.Figure) -> pd.DataFrame:
    """The points of a 2-D or 3-D scatter as one long table: series, x1, x2 (and x3)."""
    pieces = []
    for trace in figure.data:
        columns = {
            "series": trace.name or "",
            "x1": np.asarray(trace.x, dtype=float),
            "x2": np.asarray(trace.y, dtype=float),
        }
        if getattr(trace, "z", None) is not None:
            columns["x3"] = np.asarray(trace.z, dtype=float)
        pieces.append(pd.DataFrame(columns))
    return pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame(columns=["series", "x1", "x2"])
