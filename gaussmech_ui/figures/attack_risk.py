"""The attack-risk chart: what the best membership attacker reaches against each mechanism.

A pure builder (frame in, ``go.Figure`` out): one bar per mechanism valid at the setting, the
attacker's true-positive rate at a fixed false-positive rate, with the bound (ε, δ)-DP promises
(e^ε α + δ) as a dashed line, so a mechanism above the line visibly breaks its own claim.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from gaussmech_core.registry_types import Setting

from ..format import format_number, format_percent
from .built_once import built_once
from .common import apply_layout, update_layout_quickly

__all__ = ["attack_tpr_figure"]


@built_once
def attack_tpr_figure(
    frame: pd.DataFrame, setting: Setting, *, fpr: float = 0.01, height: int = 440, featured_only: bool = True
) -> go.Figure:
    """Horizontal bars of TPR at ``fpr`` per mechanism (rows of :func:`gaussmech_ui.attack_panel.attack_risk_frame`).

    ``frame`` has columns ``mechanism``, ``short_name``, ``color``, ``valid``, ``featured`` and
    ``tpr_1`` (``fpr`` = 1 %) or ``tpr_01`` (0.1 %). Bars run top to bottom in registry order; the
    (ε, δ) promise e^ε α + δ and random guessing (TPR = FPR) are vertical lines.
    """
    column = "tpr_1" if fpr == 0.01 else "tpr_01"
    shown = frame[frame["valid"] & (frame["featured"] | (not featured_only))].iloc[::-1]
    figure = go.Figure(
        go.Bar(
            y=shown["short_name"],
            x=shown[column],
            orientation="h",
            marker_color=list(shown["color"]),
            name=f"TPR at {format_percent(fpr, 2)} FPR",
            customdata=shown[["mechanism"]].to_numpy(),
            hovertemplate="<b>%{customdata[0]}</b><br>TPR = %{x:.6g}<extra></extra>",
            text=[format_percent(value, 3) for value in shown[column]],
            textposition="outside",
            cliponaxis=False,
        )
    )
    bound = min(1.0, math.exp(min(setting.epsilon, 700.0)) * fpr + setting.delta)
    apply_layout(
        figure,
        title=f"Attacker's success at {format_percent(fpr, 2)} false alarms",
        x_title=f"true-positive rate at FPR {format_percent(fpr, 2)}",
        y_title="",
        height=height,
    )
    update_layout_quickly(
        figure,
        title_subtitle=dict(
            text=f"ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, d = {setting.dim}",
            font=dict(size=14),
        ),
        margin=dict(t=110, l=75, r=50),
        showlegend=False,
    )
    top = max([bound, *shown[column].tolist()]) if len(shown) else bound
    figure.update_yaxes(type="category")  # apply_layout sets a linear axis, on which names are not drawn
    figure.update_xaxes(range=[0.0, min(1.05, 1.3 * top)], tickformat=".0%" if top > 0.2 else ".1%")
    figure.add_vline(x=bound, line=dict(color="#111111", width=2, dash="dash"))
    figure.add_annotation(
        x=bound,
        y=1.0,
        yref="paper",
        yanchor="bottom",
        xanchor="left",
        showarrow=False,
        text=f"(ε, δ) promise {format_percent(bound, 3)}",
    )
    figure.add_vline(x=fpr, line=dict(color="#777777", width=1.5, dash="dot"))
    figure.add_annotation(
        x=fpr,
        y=0.0,
        yref="paper",
        yanchor="top",
        xanchor="right",
        yshift=-28,
        showarrow=False,
        text="guessing",
        font=dict(color="#555555", size=13),
    )
    return figure
