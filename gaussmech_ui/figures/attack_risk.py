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
from .common import apply_layout, horizontal_marker

__all__ = ["attack_tpr_figure"]


def attack_tpr_figure(frame: pd.DataFrame, setting: Setting, *, fpr: float = 0.01, height: int = 460) -> go.Figure:
    """Bars of TPR at ``fpr`` per mechanism (rows of :func:`gaussmech_ui.attack_panel.attack_risk_frame`).

    ``frame`` has columns ``mechanism``, ``short_name``, ``color``, ``valid`` and ``tpr_1``
    (``fpr`` = 1 %) or ``tpr_01`` (0.1 %).
    """
    column = "tpr_1" if fpr == 0.01 else "tpr_01"
    shown = frame[frame["valid"]]
    figure = go.Figure(
        go.Bar(
            x=shown["short_name"],
            y=shown[column],
            marker_color=list(shown["color"]),
            name=f"TPR at {format_percent(fpr, 2)} FPR",
            customdata=shown[["mechanism"]].to_numpy(),
            hovertemplate="<b>%{customdata[0]}</b><br>TPR = %{y:.6g}<extra></extra>",
            text=[format_percent(value, 3) for value in shown[column]],
            textposition="outside",
        )
    )
    bound = min(1.0, math.exp(min(setting.epsilon, 700.0)) * fpr + setting.delta)
    apply_layout(
        figure,
        title=f"What the best attacker detects at a {format_percent(fpr, 2)} false-alarm rate (ε = "
        f"{format_number(setting.epsilon)}, δ = {format_number(setting.delta)})",
        x_title="mechanism",
        y_title=f"true-positive rate at FPR {format_percent(fpr, 2)}",
        height=height,
    )
    top = max([bound, *shown[column].tolist()]) if len(shown) else bound
    figure.update_yaxes(range=[0.0, min(1.05, 1.25 * top)], tickformat=".1%")
    horizontal_marker(figure, bound, f"(ε, δ) promise: e^ε·α + δ = {format_percent(bound, 3)}", log_y=False)
    horizontal_marker(figure, fpr, "guessing", log_y=False, color="#777777", dash="dot")
    figure.update_layout(showlegend=False)
    return figure
