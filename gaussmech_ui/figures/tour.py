"""The Class tour's charts: one idea each, large and plain (pure builders, no ``st.*`` call)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from gaussmech_core.registry_types import Setting

from ..format import format_number
from .built_once import built_once
from .common import LINE_WIDTH, apply_layout, mark_current_x, update_layout_quickly

__all__ = [
    "TOUR_HEIGHT",
    "count_release_figure",
    "classical_delta_figure",
    "tail_figure",
    "dimension_figure",
    "denoising_figure",
]

TOUR_HEIGHT = 440


def _titled(figure: go.Figure, title: str, setting: Setting) -> go.Figure:
    """A short title (it must fit a phone's width) with the setting as its subtitle."""
    update_layout_quickly(
        figure,
        title=dict(
            text=title,
            subtitle=dict(
                text=f"ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, "
                f"Δ = {format_number(setting.sensitivity)}",
                font=dict(size=14),
            ),
        ),
        margin=dict(t=90),
    )
    return figure


@built_once
def count_release_figure(true_count: float, sigma: float, draws: np.ndarray, setting: Setting) -> go.Figure:
    """The density of the released count around the truth, with the history of draws as a histogram."""
    x = np.linspace(true_count - 4.5 * sigma, true_count + 4.5 * sigma, 400)
    density = np.exp(-0.5 * ((x - true_count) / sigma) ** 2) / (sigma * np.sqrt(2 * np.pi))
    figure = go.Figure()
    if draws.size:
        figure.add_trace(
            dict(
                type="histogram",
                x=draws,
                histnorm="probability density",
                name=f"your class's {draws.size} draws",
                marker_color="#56B4E9",
                opacity=0.6,
                xbins=dict(size=max(sigma / 2.0, 1e-12)),
            )
        )
    figure.add_trace(
        dict(
            type="scatter",
            x=x,
            y=density,
            mode="lines",
            name="where a release can land (exact density)",
            line=dict(color="#0072B2", width=LINE_WIDTH),
        )
    )
    apply_layout(
        figure,
        title=f"One count, noise σ = {format_number(sigma)}",
        x_title="released count",
        y_title="density",
        height=TOUR_HEIGHT,
    )
    _titled(figure, figure.layout.title.text, setting)
    peak = 1.0 / (sigma * np.sqrt(2 * np.pi))
    # Few draws make tall bars; the axis stays on the density, and the bars settle onto it as draws accumulate.
    figure.update_yaxes(range=[0.0, 1.7 * peak])
    figure.add_vline(x=true_count, line=dict(color="#111111", width=1.5, dash="dash"))
    latest = float(draws[-1]) if draws.size else None
    left_of_truth = latest is not None and latest < true_count
    figure.add_annotation(
        x=true_count,
        y=1.0,
        yref="paper",
        yanchor="bottom",
        showarrow=False,
        xanchor="left" if left_of_truth else "right",
        text=f"truth {format_number(true_count)}",
    )
    if latest is not None:
        figure.add_vline(x=latest, line=dict(color="#D55E00", width=2.5))
        figure.add_annotation(
            x=latest,
            y=1.0,
            yref="paper",
            yanchor="bottom",
            showarrow=False,
            xanchor="right" if left_of_truth else "left",
            text=f"latest {format_number(latest)}",
            font=dict(color="#D55E00"),
        )
    update_layout_quickly(figure, legend=dict(orientation="h", y=-0.22, x=0.0), barmode="overlay")
    return figure


@built_once
def classical_delta_figure(epsilons: np.ndarray, true_deltas: np.ndarray, setting: Setting) -> go.Figure:
    """The true δ of the classical formula's noise against ε, with the δ it was asked for."""
    figure = go.Figure(
        go.Scatter(
            x=epsilons,
            y=true_deltas,
            mode="lines",
            name="true δ of the classical formula's σ",
            line=dict(color="#D55E00", width=LINE_WIDTH),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=epsilons,
            y=np.full_like(epsilons, setting.delta),
            mode="lines",
            name=f"δ asked for = {format_number(setting.delta)}",
            line=dict(color="#111111", width=2, dash="dash"),
        )
    )
    apply_layout(
        figure,
        title="Does the classical σ keep its δ?",
        x_title="ε",
        y_title="true δ at ε",
        log_x=True,
        log_y=True,
        height=TOUR_HEIGHT,
    )
    _titled(figure, figure.layout.title.text, setting)
    figure.add_vrect(x0=float(epsilons[0]), x1=1.0, fillcolor="#009E73", opacity=0.08, line_width=0)
    mark_current_x(figure, setting.epsilon, f"ε = {format_number(setting.epsilon)}")
    update_layout_quickly(figure, legend=dict(orientation="h", y=-0.22, x=0.0))
    return figure


@built_once
def tail_figure(t: np.ndarray, curves: dict[str, tuple[np.ndarray, str]], setting: Setting) -> go.Figure:
    """P(|noise| > t) for each named mechanism (log scale), from ``{name: (tail values, colour)}``."""
    figure = go.Figure()
    for name, (values, color) in curves.items():
        figure.add_trace(
            dict(type="scatter", x=t, y=values, mode="lines", name=name, line=dict(color=color, width=LINE_WIDTH))
        )
    apply_layout(
        figure,
        title="How often the error exceeds t",
        x_title="error size t",
        y_title="P(|noise| > t)",
        log_y=True,
        height=TOUR_HEIGHT,
    )
    _titled(figure, figure.layout.title.text, setting)
    update_layout_quickly(figure, legend=dict(orientation="h", y=-0.22, x=0.0))
    return figure


@built_once
def dimension_figure(dims: np.ndarray, curves: dict[str, tuple[np.ndarray, str, str]], setting: Setting) -> go.Figure:
    """Root-mean-square error of the whole vector against d, from ``{name: (values, colour, dash)}``."""
    figure = go.Figure()
    for name, (values, color, dash) in curves.items():
        figure.add_trace(
            dict(
                type="scatter",
                x=dims,
                y=values,
                mode="lines",
                name=name,
                line=dict(color=color, width=LINE_WIDTH, dash=dash),
            )
        )
    apply_layout(
        figure,
        title="Error of a d-dimensional answer",
        x_title="dimension d",
        y_title="√E‖noise‖₂²",
        log_x=True,
        log_y=True,
        height=TOUR_HEIGHT,
    )
    _titled(figure, figure.layout.title.text, setting)
    mark_current_x(figure, setting.dim, f"d = {setting.dim}")
    update_layout_quickly(figure, legend=dict(orientation="h", y=-0.22, x=0.0))
    return figure


@built_once
def denoising_figure(truth: np.ndarray, noisy: np.ndarray, denoised: np.ndarray, setting: Setting) -> go.Figure:
    """A small histogram: the truth, the noisy release, and the release cleaned by post-processing."""
    bins = np.arange(1, truth.size + 1)
    figure = go.Figure(
        [
            go.Bar(x=bins, y=truth, name="true counts (shown only for teaching)", marker_color="#BBBBBB"),
            go.Scatter(
                x=bins, y=noisy, mode="markers", name="noisy release", marker=dict(color="#D55E00", size=11, symbol="x")
            ),
            go.Scatter(
                x=bins,
                y=denoised,
                mode="markers",
                name="after post-processing (no negatives, known total)",
                marker=dict(color="#0072B2", size=11),
            ),
        ]
    )
    apply_layout(figure, title="Cleaning noise costs no privacy", x_title="bin", y_title="count", height=TOUR_HEIGHT)
    _titled(figure, figure.layout.title.text, setting)
    update_layout_quickly(figure, legend=dict(orientation="h", y=-0.22, x=0.0))
    return figure
