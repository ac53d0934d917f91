"""The error of every release so far, raw and denoised, as two histograms (pure builder, no ``st.*`` call)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .common import CURRENT_COLOR, apply_layout

__all__ = ["error_history_figure"]

RAW_COLOR = "#D55E00"
DENOISED_COLOR = "#0072B2"


def error_history_figure(
    raw: np.ndarray, denoised: np.ndarray, *, metric: str, title: str, current: tuple[float, float] | None = None
) -> go.Figure:
    """Histograms of ``raw`` and ``denoised`` errors (one value per release) on one axis, the current release marked.

    As releases accumulate, the two histograms show the sampling distribution of the error before
    and after denoising: where they sit, and how far apart.
    """
    raw, denoised = np.asarray(raw, dtype=float), np.asarray(denoised, dtype=float)
    values = np.concatenate([raw, denoised])
    values = values[np.isfinite(values)]
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    size = (high - low) / 25 if high > low else max(abs(high), 1.0) / 25
    figure = go.Figure()
    for name, data, color in (("released", raw, RAW_COLOR), ("denoised", denoised, DENOISED_COLOR)):
        figure.add_trace(
            go.Histogram(
                x=data,
                name=f"{name} ({data.size:,} release{'s' if data.size != 1 else ''})",
                marker_color=color,
                opacity=0.6,
                xbins=dict(start=low - size / 2, size=size),
                hovertemplate=f"<b>{name}</b><br>{metric} in %{{x}}<br>releases: %{{y}}<extra></extra>",
            )
        )
    apply_layout(figure, title=title, x_title=metric, y_title="releases", height=420)
    figure.update_layout(barmode="overlay", legend=dict(orientation="h", y=-0.25, x=0.0))
    if current is not None:
        for value, color in zip(current, (RAW_COLOR, DENOISED_COLOR)):
            if np.isfinite(value):
                figure.add_vline(x=value, line=dict(color=color, width=2.5))
        figure.add_annotation(
            x=1.0,
            xref="paper",
            y=1.0,
            yref="paper",
            yanchor="bottom",
            xanchor="right",
            showarrow=False,
            text="lines: this release",
            font=dict(color=CURRENT_COLOR),
        )
    return figure
