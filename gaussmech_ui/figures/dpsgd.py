"""The Training (DP-SGD) page's charts: ε against epochs as a certified band, and the planner map.

Pure builders (data in, ``go.Figure`` out, no ``st.*`` call). Every title names the sampling
scheme (Poisson is what is computed) and δ.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..claims.dpsgd import round_up
from ..format import format_number
from .common import DELTA_COLORS, LINE_WIDTH, apply_layout, update_layout_quickly

__all__ = ["epsilon_band_figure", "planner_figure", "planner_frame"]

BAND_COLOR = "#332288"
RDP_COLOR = "#117733"
CLT_COLOR = "#CC6677"


def epsilon_band_figure(
    frame: pd.DataFrame, *, sigma: float, target: float, delta: float, scheme: str, height: int = 480
) -> go.Figure:
    """ε_low and ε_high against epochs (the true ε lies in the shaded band), with RDP and CLT beside it.

    ``frame`` is :func:`gaussmech_ui.cached.dpsgd.epsilon_band` (columns ``epochs``, ``steps``,
    ``epsilon_low``, ``epsilon_high``, ``rdp_epsilon``, ``clt_epsilon``).
    """
    epochs, steps = frame["epochs"], frame["steps"]
    custom = np.column_stack([steps])
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=epochs,
            y=frame["epsilon_high"],
            name="ε_high (certified upper bound)",
            mode="lines+markers",
            line=dict(color=BAND_COLOR, width=LINE_WIDTH),
            customdata=custom,
            hovertemplate="E = %{x:.6g} (T = %{customdata[0]:,})<br>ε_high = %{y:.6g}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(
            x=epochs,
            y=frame["epsilon_low"],
            name="ε_low (certified lower bound)",
            mode="lines+markers",
            line=dict(color=BAND_COLOR, width=1.5),
            fill="tonexty",
            fillcolor="rgba(51, 34, 136, 0.25)",
            customdata=custom,
            hovertemplate="E = %{x:.6g} (T = %{customdata[0]:,})<br>ε_low = %{y:.6g}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(
            x=epochs,
            y=frame["rdp_epsilon"],
            name="RDP (loose bound)",
            mode="lines",
            line=dict(color=RDP_COLOR, width=2, dash="dash"),
            hovertemplate="E = %{x:.6g}<br>RDP ε = %{y:.6g}<extra></extra>",
        )
    )
    figure.add_trace(
        go.Scatter(
            x=epochs,
            y=frame["clt_epsilon"],
            name="CLT (approximation; unsafe where below ε_low)",
            mode="lines",
            line=dict(color=CLT_COLOR, width=2, dash="dot"),
            hovertemplate="E = %{x:.6g}<br>CLT ε = %{y:.6g}<extra></extra>",
        )
    )
    apply_layout(
        figure,
        title=f"ε against epochs at the certified σ = {format_number(sigma, 6)} ({scheme}, δ = {format_number(delta)})",
        x_title="epochs E",
        y_title="ε at δ",
        height=height,
    )
    figure.add_hline(y=target, line=dict(color="#111111", width=1.5, dash="dash"))
    figure.add_annotation(
        x=0.0,
        xref="paper",
        y=target,
        yanchor="bottom",
        xanchor="left",
        showarrow=False,
        text=f"target ε = {format_number(target)}",
    )
    return update_layout_quickly(
        figure,
        # The legend beside the plot, one entry a line: the first chart of the page, whose height follows a
        # projector's window (show_chart's screen_top), where a legend below left the plot a strip.
        legend=dict(orientation="v", yanchor="top", y=1.0, x=1.02, xanchor="left", font=dict(size=12)),
        margin=dict(l=80, r=30, t=80, b=60),
    )


def planner_frame(batches: list[int], epochs: list[float], sigmas: np.ndarray, steps: np.ndarray) -> pd.DataFrame:
    """The map as rows: batch size, epochs, steps T and the certified σ (NaN: not computed, or no σ)."""
    rows = [
        dict(batch_size=b, epochs=e, steps=int(steps[i, j]), sigma=float(sigmas[i, j]))
        for i, e in enumerate(epochs)
        for j, b in enumerate(batches)
    ]
    return pd.DataFrame(rows)


def planner_figure(
    batches: list[int],
    epochs: list[float],
    sigmas: np.ndarray,
    *,
    epsilon: float,
    delta: float,
    dataset_size: int,
    current: tuple[int, float],
    scheme: str,
    height: int = 480,
) -> go.Figure:
    """Heat map of the certified σ (rounded up) over batch size (columns) × epochs (rows); empty cells: no σ."""
    # Each cell is a σ to use: rounded up (a σ shown below the certified one would not be covered).
    text = [[format_number(round_up(value), 3) if math.isfinite(value) else "—" for value in row] for row in sigmas]
    figure = go.Figure(
        go.Heatmap(
            x=[f"{b:,}" for b in batches],
            y=[format_number(e) for e in epochs],
            z=sigmas,
            text=text,
            texttemplate="%{text}",
            textfont=dict(size=15),
            colorscale=[[0.0, "#FFFFFF"], [1.0, DELTA_COLORS[0]]],
            colorbar=dict(title=dict(text="σ")),
            hovertemplate="B = %{x}, E = %{y}<br>σ = %{z:.6g}<extra></extra>",
            hoverongaps=False,
        )
    )
    apply_layout(
        figure,
        title=f"σ needed for ε = {format_number(epsilon)}, δ = {format_number(delta)}, N = {dataset_size:,} ({scheme})",
        x_title="batch size B",
        y_title="epochs E",
        height=height,
    )
    figure.update_xaxes(type="category")
    figure.update_yaxes(type="category")
    # The current cell, outlined. On a category axis a position is the category's index (a label such
    # as "256" would be read as index 256 and drawn far outside the map).
    batch, epoch = current
    if batch in batches and epoch in epochs:
        column, row = batches.index(batch), epochs.index(epoch)
        figure.add_shape(
            type="rect",
            x0=column - 0.5,
            x1=column + 0.5,
            y0=row - 0.5,
            y1=row + 0.5,
            line=dict(color="#AA4499", width=3),
        )
        figure.add_annotation(
            x=column, y=row, text="yours", showarrow=False, yshift=-17, font=dict(size=12, color="#AA4499")
        )
    return figure
