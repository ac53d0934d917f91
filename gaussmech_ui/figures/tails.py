"""What the Tail probabilities page shows: tails down to 1e-300, error bounds, Liu's comparisons.

Pure builders (no ``st.*``): frames of exact values in (from :mod:`gaussmech_ui.cached.tails`),
a ``go.Figure``, a display table or a sentence out.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..claims.ranking import (
    assumes_bounds,
    assumption_sentence,
    bounded_note,
    rank,
    ranked,
    reader_name,
    share_exact_values,
    under_other_model,
    winner_phrase,
)
from ..format import format_number, format_percent, format_ratio
from . import light
from .built_once import built_once
from .common import (
    CURRENT_COLOR,
    DELTA_COLORS,
    LINE_WIDTH,
    apply_layout,
    exact_hover,
    horizontal_marker,
    mechanism_line,
    mechanism_marker,
    vertical_marker,
)
from .distributions import legend_below, log_dtick, trace_name
from .overview import setting_summary

__all__ = [
    "DELTA_COLORS",
    "tail_figure",
    "tail_caption",
    "error_bound_table",
    "tail_ratio_figure",
    "tail_ratio_caption",
    "privacy_cost_figure",
    "privacy_cost_caption",
    "lemma11_figure",
    "lemma11_caption",
]

# Paul Tol's colour-blind-safe "muted" scheme, for curves of different δ or ε.


def tail_figure(
    curves: pd.DataFrame,
    mechanisms: Mapping,
    setting,
    *,
    alpha: float,
    bounds: Mapping[str, float],
    vector: bool,
    monte_carlo: pd.DataFrame | None = None,
    monte_carlo_size: int = 0,
) -> go.Figure:
    """``P(|noise| > t)`` (or ``P(‖noise‖₂ > t)``) against t, log probability axis, α and the bounds marked.

    ``curves`` has a ``t`` column and one probability column per mechanism id (NaN below the
    floor shown). ``bounds[id]`` is the error bound at confidence 1 − α, drawn as a marker at
    (bound, α). ``monte_carlo`` (vector chart only) has ``t`` and one empirical-tail column per
    mechanism without a closed form, drawn dashed.
    """
    figure = light.new_figure()
    t = curves["t"].to_numpy(dtype=float)
    symbol = "‖noise‖₂" if vector else "|noise|"
    y_label = f"P({symbol} > t)"
    ids = [key for key in curves.columns if key != "t"]
    # Drawn last-to-first so the first mechanism (the reference) is on top where curves coincide
    # (GG at p = 2 is the analytic Gaussian); the legend keeps the registry order.
    for legend_rank, mechanism_id in reversed(list(enumerate(ids))):
        mechanism = mechanisms[mechanism_id]
        figure.add_trace(
            dict(
                type="scatter",
                x=t,
                y=curves[mechanism_id].to_numpy(dtype=float),
                name=trace_name(mechanism),
                legendgroup=mechanism_id,
                legendrank=legend_rank + 1,
                mode="lines+markers",
                line=mechanism_line(mechanism),
                marker=mechanism_marker(mechanism),
                hovertemplate=exact_hover("t", y_label),
            )
        )
    if monte_carlo is not None:
        for mechanism_id in monte_carlo.columns:
            if mechanism_id == "t":
                continue
            mechanism = mechanisms[mechanism_id]
            figure.add_trace(
                dict(
                    type="scatter",
                    x=monte_carlo["t"].to_numpy(dtype=float),
                    y=monte_carlo[mechanism_id].to_numpy(dtype=float),
                    name=f"{trace_name(mechanism)} (Monte Carlo, {monte_carlo_size:,} vectors)",
                    legendgroup=mechanism_id,
                    mode="lines",
                    line=dict(color=mechanism.color, width=LINE_WIDTH, dash="dashdot"),
                    hovertemplate=exact_hover("t", y_label),
                )
            )
    bound_ids = [key for key, value in bounds.items() if value is not None and math.isfinite(value)]
    if bound_ids:
        figure.add_trace(
            dict(
                type="scatter",
                x=[bounds[key] for key in bound_ids],
                y=[alpha] * len(bound_ids),
                name=f"error bound at confidence 1 − α = {format_percent(1 - alpha, 6)}",
                mode="markers",
                marker=dict(
                    color=[mechanisms[key].color for key in bound_ids],
                    size=14,
                    symbol="diamond",
                    line=dict(color=CURRENT_COLOR, width=1.5),
                ),
                customdata=[trace_name(mechanisms[key]) for key in bound_ids],
                hovertemplate="<b>%{customdata}</b><br>error bound t = %{x:.10g}<br>α = %{y:.10g}<extra></extra>",
            )
        )
    horizontal_marker(figure, alpha, f"α = {format_number(alpha)}", log_y=True)
    what = f"the noise vector's length at d = {setting.dim:,}" if vector else "one noise coordinate"
    apply_layout(
        figure,
        title=(
            f"How likely is an error larger than t? ({what})"
            f"<br><sup>{setting_summary(setting)}; diamonds: the error bound at confidence 1 − α</sup>"
        ),
        x_title=f"error size t ({'l2 norm' if vector else 'absolute value'})",
        y_title=f"{y_label} (log scale)",
        log_y=True,
    )
    values = curves.drop(columns="t").to_numpy(dtype=float)
    smallest = float(np.nanmin(values)) if np.isfinite(values).any() else alpha
    figure.update_yaxes(dtick=log_dtick(min(smallest, alpha)))
    return light.finished(legend_below(figure))


def tail_caption(
    bounds: Mapping[str, float],
    mechanisms: Mapping,
    alpha: float,
    *,
    vector: bool,
    setting=None,
    alternative: Mapping[str, float] | None = None,
    frames: tuple[pd.DataFrame, pd.DataFrame | None] | None = None,
) -> str:
    """The error bounds in one sentence: each coordinate (or the vector) is within t with probability 1 − α.

    The smallest and largest proven bounds are ranked with ties (:mod:`gaussmech_ui.claims.ranking`); with
    ``setting`` the caption states δ and the neighbour model and, from ``alternative`` (the bounds
    under the other neighbour model), what that model changes. ``frames`` (the bound tables here and
    under the other model, with ``std`` and ``method``) let a Monte Carlo bound of a noise that is
    the same as an exactly bounded one (GG with p = 2) rank with the exact value.
    """
    intervals: dict = {}
    other_intervals: dict = {}
    if frames is not None:
        bounds = _shared_bounds(bounds, frames[0], mechanisms, setting)
        intervals = _intervals(frames[0], bounds)
        if alternative is not None and frames[1] is not None:
            alternative = _shared_bounds(alternative, frames[1], mechanisms, setting)
            other_intervals = _intervals(frames[1], alternative)
    finite = {key: value for key, value in bounds.items() if value is not None and math.isfinite(value)}
    if not finite:
        return ""
    what = "the whole noise vector has l2 length" if vector else "each noise coordinate is"
    # Bounded-data mechanisms are listed after the others (they assume more; see gaussmech_ui.claims.ranking).
    in_order = sorted(finite.items(), key=lambda kv: (assumes_bounds(mechanisms[kv[0]]), kv[1]))
    parts = [f"{trace_name(mechanisms[key])} {format_number(value)}" for key, value in in_order]
    proven = {key: value for key, value in finite.items() if ranked(mechanisms[key])}
    text = f"With probability {format_percent(1 - alpha, 6)}, {what} at most: " + "; ".join(parts) + "."
    ranking = rank(proven, mechanisms, setting, quantity="error bound", intervals=intervals)
    if len(ranking.places) >= 2:
        best, worst = ranking.best[0], ranking.worst[0]
        text += (
            f" Among proven guarantees the largest bound ({reader_name(mechanisms[worst])}) is "
            f"{format_ratio(proven[worst] / proven[best])} the smallest ({winner_phrase(ranking, mechanisms, setting)})."
        )
        if setting is not None:
            other = (
                None
                if alternative is None
                else rank(
                    {key: value for key, value in alternative.items() if key in bounds and ranked(mechanisms[key])},
                    mechanisms,
                    under_other_model(setting),
                    quantity="error bound",
                    intervals=other_intervals,
                )
            )
            text += " " + assumption_sentence(
                setting, ranking, other, mechanisms, quantity="bound", verb="have the smallest bound"
            )
    note = bounded_note(mechanisms[key] for key in finite)
    return text + (" " + note if note else "")


def _shared_bounds(bounds: Mapping[str, float], frame: pd.DataFrame, mechanisms: Mapping, setting) -> dict:
    exact = {key: method != "Monte Carlo" for key, method in frame["method"].items()}
    return share_exact_values(bounds, exact, mechanisms, setting)


def _intervals(frame: pd.DataFrame, bounds: Mapping[str, float]) -> dict:
    """The 95% intervals of the Monte Carlo bounds still estimated (one that took an exact value has none)."""
    if "low" not in frame.columns:
        return {}
    rows = zip(frame.index, frame["method"], frame["bound"], frame["low"], frame["high"])  # iterrows: 10× slower
    return {
        key: (float(low), float(high))
        for key, method, bound, low, high in rows
        if method == "Monte Carlo" and bounds.get(key) == bound and math.isfinite(low)
    }


def error_bound_table(
    frame: pd.DataFrame, mechanisms: Mapping, alpha: float, dim: int, *, vector: bool
) -> pd.DataFrame:
    """The error bounds people read: one row per mechanism, 3 significant digits, a dash where none.

    ``frame`` is indexed by mechanism id with ``std``, ``bound`` and ``method`` (``"exact"``,
    ``"Monte Carlo"`` or ``""``), as :func:`gaussmech_ui.cached.tails.coordinate_bounds` and
    ``norm_bounds`` return.
    """
    confidence = format_percent(1 - alpha, 6)
    if vector:
        std_column, bound_column = f"√E‖noise‖₂² at d = {dim:,}", f"‖noise‖₂ bound at {confidence}"
    else:
        std_column, bound_column = "Noise std per coordinate", f"Per-coordinate error bound at {confidence}"
    rows = []
    for mechanism_id, row in frame.iterrows():
        mechanism = mechanisms[mechanism_id]
        bound = row["bound"]
        text = format_number(bound) if math.isfinite(bound) else "— (too rare for the Monte Carlo draws)"
        if math.isfinite(bound) and row["method"] == "Monte Carlo":
            text += " (Monte Carlo)"
        rows.append(
            {
                "Mechanism": trace_name(mechanism),
                "Guarantee": mechanism.guarantee_label,
                std_column: format_number(row["std"]),
                bound_column: text,
            }
        )
    return pd.DataFrame(rows, columns=["Mechanism", "Guarantee", std_column, bound_column])


def _curve_per_value(
    figure: go.Figure,
    frame: pd.DataFrame,
    *,
    group: str,
    symbol: str,
    current_value: float,
    x: str,
    y: str,
    hover: str,
    y_symbol: str,
    mode: str = "lines",
) -> go.Figure:
    """One curve per distinct value of ``frame[group]``, the current one thick and dark, plus y = 1.

    The ratio charts of Liu's comparisons all read "above 1: the Gaussian costs more", so the
    reference line at 1 is drawn with them.
    """
    for index, value in enumerate(dict.fromkeys(frame[group].tolist())):
        part = frame[frame[group] == value]
        current = math.isclose(value, current_value, rel_tol=1e-12)
        figure.add_trace(
            dict(
                type="scatter",
                x=part[x].to_numpy(dtype=float),
                y=part[y].to_numpy(dtype=float),
                name=f"{symbol} = {format_number(value)}" + (" (current)" if current else ""),
                mode=mode,
                **({"marker": dict(size=5)} if "markers" in mode else {}),
                line=dict(
                    color=CURRENT_COLOR if current else DELTA_COLORS[index % len(DELTA_COLORS)],
                    width=LINE_WIDTH + (2 if current else 0),
                ),
                hovertemplate=exact_hover(hover, y_symbol),
            )
        )
    figure.add_hline(y=1.0, line=dict(color="#6B6B6B", width=1.5, dash="dot"))
    return figure


@built_once
def tail_ratio_figure(frame: pd.DataFrame, setting, *, threshold: float, gaussian_label: str) -> go.Figure:
    """Liu's p₁:p₂, Laplace over Gaussian tail probability at threshold t, against ε, one curve per δ.

    ``frame`` is long: ``delta, epsilon, laplace, gaussian, ratio`` with ``ratio`` NaN where both
    tails are below 1e-4 (Liu omits those points).
    """
    figure = _curve_per_value(
        go.Figure(),
        frame,
        group="delta",
        symbol="δ",
        current_value=setting.delta,
        x="epsilon",
        y="ratio",
        hover="ε",
        y_symbol="p₁/p₂",
        mode="lines+markers",
    )
    apply_layout(
        figure,
        title=(
            f"Laplace vs Gaussian: P(|noise| > t) ratio p₁:p₂ at t = {format_number(threshold)}Δ"
            f"<br><sup>Liu, Sec. 3; Gaussian calibrated by {gaussian_label}; points where both tails are below 1e-4 "
            "are omitted; below 1: Laplace's large errors are rarer</sup>"
        ),
        x_title="ε",
        y_title="p₁ / p₂ (Laplace / Gaussian)",
        log_x=True,
        log_y=True,
    )
    return figure


def tail_ratio_caption(frame: pd.DataFrame, setting, threshold: float) -> str:
    """Where Laplace has the lighter tail at t, for the current δ."""
    part = frame[np.isclose(frame["delta"], setting.delta, rtol=1e-12)]
    part = part[np.isfinite(part["ratio"])]
    if part.empty:
        return f"At the current δ both tails are below 1e-4 at t = {format_number(threshold)}Δ for every ε shown."
    below = part[part["ratio"] < 1]
    if below.empty:
        return (
            f"At δ = {format_number(setting.delta)} and t = {format_number(threshold)}Δ, the Gaussian's tail is the "
            "lighter one for every ε shown: large errors are rarer with Gaussian noise."
        )
    if len(below) == len(part):
        return (
            f"At δ = {format_number(setting.delta)} and t = {format_number(threshold)}Δ, Laplace's tail is the lighter one "
            "for every ε shown."
        )
    return (
        f"At δ = {format_number(setting.delta)} and t = {format_number(threshold)}Δ, Laplace's tail is lighter for ε from "
        f"{format_number(below['epsilon'].min())} to {format_number(below['epsilon'].max())} and the Gaussian's elsewhere."
    )


@built_once
def privacy_cost_figure(frame: pd.DataFrame, setting, *, threshold: float) -> go.Figure:
    """Liu's relative privacy cost ε₂:ε₁ for the same tail probability τ at threshold t, one curve per δ.

    ``frame`` is long: ``delta, tail_probability, ratio``.
    """
    figure = _curve_per_value(
        go.Figure(),
        frame,
        group="delta",
        symbol="δ",
        current_value=setting.delta,
        x="tail_probability",
        y="ratio",
        hover="τ",
        y_symbol="ε₂/ε₁",
    )
    apply_layout(
        figure,
        title=(
            f"Privacy cost of the same tail: ε₂ (Gaussian, Lemma 10) : ε₁ (Laplace) at t = {format_number(threshold)}Δ"
            "<br><sup>Liu, Sec. 3: both mechanisms tuned so that P(|noise| > t) = τ; above 1: the Gaussian spends more ε</sup>"
        ),
        x_title="common tail probability τ = P(|noise| > t)",
        y_title="ε₂ / ε₁",
        log_x=True,
        log_y=True,
    )
    return figure


def privacy_cost_caption(frame: pd.DataFrame, setting, threshold: float, tau: float = 0.01) -> str:
    """The ratio at one τ for the current δ, in words."""
    part = frame[np.isclose(frame["delta"], setting.delta, rtol=1e-12)]
    if part.empty:
        return ""
    index = int(np.argmin(np.abs(np.log(part["tail_probability"].to_numpy(dtype=float) / tau))))
    row = part.iloc[index]
    ratio = float(row["ratio"])
    verdict = "more" if ratio > 1 else "less"
    return (
        f"To make an error beyond t = {format_number(threshold)}Δ as rare as τ = {format_number(row['tail_probability'])}, "
        f"a Gaussian with δ = {format_number(setting.delta)} spends {format_ratio(ratio)} the ε that Laplace needs "
        f"({verdict} privacy loss)."
    )


@built_once
def lemma11_figure(frame: pd.DataFrame, setting, *, threshold: float) -> go.Figure:
    """Liu's Lemma 11: Var(Gaussian, Lemma 10) / Var(Laplace, b = Δ/ε) against δ, one curve per ε.

    ``frame`` is long: ``epsilon, delta, ratio``; the δ threshold ``2Φ(−√2) ≈ 0.1573`` is marked.
    """
    figure = _curve_per_value(
        go.Figure(),
        frame,
        group="epsilon",
        symbol="ε",
        current_value=setting.epsilon,
        x="delta",
        y="ratio",
        hover="δ",
        y_symbol="Var_G / Var_L",
    )
    vertical_marker(figure, threshold, f"δ = 2Φ(−√2) ≈ {threshold:.4f}", log_x=True, width=2)
    apply_layout(
        figure,
        title=(
            "Lemma 11: Gaussian (pDP, Lemma 10) vs Laplace variance"
            "<br><sup>Liu: left of the dashed line, the Gaussian's variance exceeds Laplace's for every ε</sup>"
        ),
        x_title="δ",
        y_title="Var_G / Var_L",
        log_x=True,
        log_y=True,
    )
    return figure


def lemma11_caption(current_ratio: float, setting, threshold: float) -> str:
    """The current ratio and what the threshold says."""
    if setting.delta < threshold:
        verdict = f"δ is below the threshold {threshold:.4f}, so the Gaussian is noisier whatever ε."
    else:
        verdict = f"δ is above the threshold {threshold:.4f}, where Lemma 11 does not decide: the answer depends on ε."
    return (
        f"At ε = {format_number(setting.epsilon)} and δ = {format_number(setting.delta)}, Liu's Lemma-10 Gaussian has "
        f"{format_ratio(current_ratio)} the variance of Laplace noise with b = Δ/ε. {verdict} "
        "This compares probabilistic DP; the exact analytic Gaussian needs less noise."
    )
