"""What the Privacy profiles page shows: δ(ε) curves, the privacy-loss distribution, where the classical
formula holds, the hypothesis-testing view and composition.

Pure builders (no ``st.*``): frames of exact values in (from :mod:`gaussmech_ui.cached.profiles`),
a ``go.Figure``, a display table or a sentence out.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..claims.ranking import on_curve_note, place_phrase, rank, reader_name
from ..format import format_number, format_percent, format_ratio
from . import light
from .built_once import built_once
from .common import (
    CURRENT_COLOR,
    LINE_WIDTH,
    apply_layout,
    coinciding_curves,
    exact_hover,
    mechanism_line,
    mechanism_marker,
    update_layout_quickly,
    vertical_marker,
)
from .distributions import legend_below, log_dtick, trace_name
from .overview import setting_summary

__all__ = [
    "REGION_COLORS",
    "ROUTE_STYLES",
    "profile_figure",
    "profile_caption",
    "privacy_loss_figure",
    "privacy_loss_caption",
    "classical_map_figure",
    "classical_map_caption",
    "low_privacy_figure",
    "low_privacy_caption",
    "tradeoff_figure",
    "tradeoff_caption",
    "composition_figure",
    "composition_table",
    "composition_caption",
    "per_release_sigma_figure",
    "per_release_caption",
    "map_frame",
]

_UPPER_COLOR = "#0072B2"  # the mass P[L ≥ ε]
_LOWER_COLOR = "#D55E00"  # the mass P[L ≤ −ε], weighted by e^ε

# The three regions of the classical-validity map (codes of gaussmech_core.tails), colour-blind safe.
REGION_COLORS = {0: "#009E73", 1: "#F0E442", 2: "#D55E00"}


def profile_figure(
    curves: pd.DataFrame, mechanisms: Mapping, setting, *, claimed: Mapping[str, tuple] | None = None
) -> go.Figure:
    """δ(ε) of every calibrated mechanism on log-log axes, with the chosen (ε, δ) marked.

    ``curves`` has ``epsilon`` and one column per mechanism id holding its true δ(ε) (NaN where
    δ is 0 or below the chart's floor). ``claimed`` maps the id of a "claimed" mechanism to
    ``(claimed δ, true δ)`` at the current ε: an open marker at what is claimed, a filled one at
    the truth, joined by a dashed segment.
    """
    figure = light.new_figure()
    epsilons = curves["epsilon"].to_numpy(dtype=float)
    ids = [key for key in curves.columns if key != "epsilon"]
    # Last-to-first, so the reference mechanism is drawn on top where curves coincide; legend in order. A curve
    # lying on another (GG with p = 2 on the analytic Gaussian) is a wide pale band under it, and says so.
    same = coinciding_curves({key: curves[key].to_numpy(dtype=float) for key in ids}, mechanisms)
    for position, mechanism_id in sorted(enumerate(ids), key=lambda item: (item[1] not in same, -item[0])):
        mechanism = mechanisms[mechanism_id]
        name = trace_name(mechanism)
        line = mechanism_line(mechanism)
        if mechanism.guarantee == "claimed":
            name += ": true δ(ε) of its noise"
        if mechanism_id in same:
            line.update(width=LINE_WIDTH + 7)
            name += on_curve_note(mechanisms[same[mechanism_id]])
        figure.add_trace(
            dict(
                type="scatter",
                x=epsilons,
                y=curves[mechanism_id].to_numpy(dtype=float),
                name=name,
                legendgroup=mechanism_id,
                legendrank=position + 1,
                mode="lines+markers",
                line=line,
                opacity=0.45 if mechanism_id in same else 1.0,
                marker=mechanism_marker(mechanism),
                hovertemplate=exact_hover("ε", "δ(ε)"),
            )
        )
    for mechanism_id, (claimed_delta, true_delta) in (claimed or {}).items():
        mechanism = mechanisms[mechanism_id]
        ys = [
            claimed_delta,
            true_delta if true_delta is not None and math.isfinite(true_delta) and true_delta > 0 else None,
        ]
        figure.add_trace(
            dict(
                type="scatter",
                x=[setting.epsilon, setting.epsilon],
                y=ys,
                name=f"{trace_name(mechanism)}: claimed δ (open) vs true δ (filled) at ε",
                legendgroup=mechanism_id,
                mode="lines+markers",
                line=dict(color=mechanism.color, width=2, dash="dash"),
                marker=dict(
                    color=mechanism.color,
                    size=15,
                    symbol=["circle-open", "circle"],
                    line=dict(width=3, color=mechanism.color),
                ),
                customdata=["claimed δ", "true δ"],
                hovertemplate="<b>%{customdata}</b><br>ε = %{x:.10g}<br>δ = %{y:.10g}<extra></extra>",
            )
        )
    figure.add_trace(
        dict(
            type="scatter",
            x=[setting.epsilon],
            y=[setting.delta],
            name=f"chosen (ε, δ) = ({format_number(setting.epsilon)}, {format_number(setting.delta)})",
            mode="markers",
            marker=dict(color=CURRENT_COLOR, size=14, symbol="x"),
            hovertemplate=exact_hover("ε", "δ"),
        )
    )
    apply_layout(
        figure,
        title=(
            "Privacy profiles: the smallest δ at every ε, for noise calibrated to one (ε, δ)"
            f"<br><sup>{setting_summary(setting)}; Gaussian, Laplace and GG curves are exact (GG: 1-D)</sup>"
        ),
        x_title="ε",
        y_title="δ(ε) (log scale)",
        log_x=True,
        log_y=True,
    )
    # Open on the region around the chosen δ (a few times its decades below it); the double-click
    # "autoscale" shows everything down to 1e-300.
    floor = max(1e-300, min(setting.delta, 1e-2) ** 3)
    figure.update_yaxes(range=[math.log10(floor), 0.3], dtick=log_dtick(floor))
    return light.finished(legend_below(figure))


def profile_caption(comparison: pd.DataFrame, mechanisms: Mapping, setting, claimed: Mapping[str, tuple]) -> str:
    """Two mechanisms through the same point differ elsewhere: their exact δ at ε/2 and at 2ε.

    ``comparison`` is indexed by mechanism id with columns ``half`` (δ(ε/2)) and ``double``
    (δ(2ε)); ``claimed`` maps a "claimed" mechanism to ``(claimed δ, true δ)`` at ε.
    """
    sentences = []
    if len(comparison):

        def listing(column: str) -> str:
            # Largest δ first; entries that draw the same noise (or equal values) share one entry, named by the
            # mechanism a reader knows; a claimed guarantee is listed after, unranked.
            values = comparison[column].to_dict()
            proven = {key: value for key, value in values.items() if mechanisms[key].guarantee != "claimed"}
            ranking = rank(proven, mechanisms, setting, smaller_is_better=False, quantity="δ")
            parts = [
                f"{format_number(values[place[0]])} for {place_phrase(place, mechanisms, setting, values)}"
                for place in ranking.places
            ]
            parts += [
                f"{format_number(value)} for {reader_name(mechanisms[key])}"
                for key, value in values.items()
                if ranking.place_of(key) is None
            ]
            return "; ".join(parts)

        sentences.append(
            f"All these curves pass through or below the chosen point, yet at ε/2 = {format_number(setting.epsilon / 2)} "
            f"their δ is {listing('half')}, and at 2ε = {format_number(2 * setting.epsilon)} it is {listing('double')}."
        )
    for mechanism_id, (claimed_delta, true_delta) in claimed.items():
        if true_delta is None or not math.isfinite(true_delta):
            continue
        if true_delta > claimed_delta:
            sentences.append(
                f"{trace_name(mechanisms[mechanism_id])}: its noise has true δ = {format_number(true_delta)} at "
                f"ε = {format_number(setting.epsilon)}, {format_ratio(true_delta / claimed_delta)} the claimed "
                f"δ = {format_number(claimed_delta)}. The claim does not hold here."
            )
        else:
            sentences.append(
                f"{trace_name(mechanisms[mechanism_id])}: its true δ at ε = {format_number(setting.epsilon)} is "
                f"{format_number(true_delta)}, within the claim here (the claim is not proven in general)."
            )
    return " ".join(sentences)


def privacy_loss_figure(
    frame: pd.DataFrame,
    setting,
    *,
    sigma: float,
    eta: float,
    upper: float,
    lower: float,
    delta: float,
    log_density: bool = False,
) -> go.Figure:
    """The Gaussian's privacy-loss density N(η, 2η) with the masses of Balle & Wang's Theorem 5 shaded.

    ``frame`` has ``loss`` and ``density``. ``upper`` = P[L ≥ ε], ``lower`` = e^ε P[L ≤ −ε],
    ``delta`` = upper − lower (computed exactly, not as this difference). ``log_density`` shows
    the density on a log axis, where the two small masses in the tails become visible.
    """
    loss = frame["loss"].to_numpy(dtype=float)
    density = frame["density"].to_numpy(dtype=float)
    epsilon = setting.epsilon
    figure = light.new_figure()
    right = loss >= epsilon
    left = loss <= -epsilon
    figure.add_trace(
        dict(
            type="scatter",
            x=loss[right],
            y=density[right],
            name=f"P[L ≥ ε] = {format_number(upper)}",
            mode="lines",
            fill="tozeroy",
            line=dict(color=_UPPER_COLOR, width=0.5),
            fillcolor="rgba(0,114,178,0.45)",
            hovertemplate=exact_hover("L", "density"),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=loss[left],
            y=density[left],
            name=f"P[L ≤ −ε]; e^ε × it = {format_number(lower)}",
            mode="lines",
            fill="tozeroy",
            line=dict(color=_LOWER_COLOR, width=0.5),
            fillcolor="rgba(213,94,0,0.45)",
            hovertemplate=exact_hover("L", "density"),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=loss,
            y=density,
            name=f"privacy loss L ~ N(η, 2η), η = {format_number(eta)}",
            mode="lines",
            line=dict(color=CURRENT_COLOR, width=LINE_WIDTH),
            hovertemplate=exact_hover("L", "density"),
        )
    )
    for x, text in ((epsilon, "ε"), (-epsilon, "−ε")):
        vertical_marker(figure, x, f"{text} = {format_number(x)}", log_x=False, color="#6B6B6B")
    apply_layout(
        figure,
        title=(
            f"δ = P[L ≥ ε] − e^ε P[L ≤ −ε] = {format_number(upper)} − {format_number(lower)} = {format_number(delta)}"
            f"<br><sup>privacy loss of the analytic Gaussian, σ = {format_number(sigma)}; Balle & Wang 2018, Theorem 5; "
            f"ε = {format_number(epsilon)}, Δ = {format_number(setting.sensitivity)}</sup>"
        ),
        x_title="privacy loss L = log(p(y | x) / p(y | x′))",
        y_title="density of L" + (" (log scale)" if log_density else ""),
        log_y=log_density,
    )
    if log_density:
        positive = density[density > 0]
        if positive.size:
            figure.update_yaxes(range=[math.log10(positive.min()), math.log10(positive.max()) + 0.3])
    return light.finished(figure)


def privacy_loss_caption(setting, *, eta: float, upper: float, lower: float, delta: float) -> str:
    """What the two shaded areas mean."""
    return (
        f"The privacy loss of one release is Gaussian with mean η = {format_number(eta)} and variance 2η. It exceeds "
        f"ε = {format_number(setting.epsilon)} with probability {format_number(upper)} (blue), but the guarantee does "
        f"not pay all of that: the orange mass below −ε, weighted by e^ε, is subtracted ({format_number(lower)}). "
        f"What is left, δ = {format_number(delta)}, is exactly the δ the analytic Gaussian was calibrated to "
        f"(target {format_number(setting.delta)}). The older sufficient condition asked for the blue mass alone to be "
        "below δ, which wastes noise."
    )


def _decade_ticks(low: float, high: float, step: int = 1) -> tuple[list[float], list[str]]:
    values = list(range(math.ceil(low), math.floor(high) + 1, step))
    return [float(v) for v in values], [
        f"10<sup>{v}</sup>" if v not in (0, 1) else ("1" if v == 0 else "10") for v in values
    ]


@built_once
def classical_map_figure(
    log_epsilons: np.ndarray,
    log_deltas: np.ndarray,
    regions: np.ndarray,
    true_deltas: np.ndarray,
    setting,
    *,
    labels: Mapping[int, str],
    current_region: int | None,
    delta_zero: pd.DataFrame | None = None,
) -> go.Figure:
    """The (ε, δ) plane shaded by whether the classical σ meets (ε, δ): theorem, holds anyway, fails.

    Axes are log₁₀ ε and log₁₀ δ (cell centres ``log_epsilons``, ``log_deltas``); ``regions[i, j]``
    is the code at (δ_i, ε_j), ``true_deltas[i, j]`` the exact δ the classical σ achieves there.
    ``delta_zero`` (columns ``epsilon``, ``delta_zero``) draws Balle & Wang's threshold δ₀(ε):
    below it, every (ε, δ)-DP Gaussian needs σ ≥ Δ/√(2ε).
    """
    codes = sorted(labels)
    epsilon_grid, delta_grid = np.meshgrid(10.0**log_epsilons, 10.0**log_deltas)
    customdata = np.stack([epsilon_grid, delta_grid, true_deltas], axis=-1)
    figure = go.Figure()
    # One heatmap per region (NaN elsewhere): the hover can then name the region without a
    # string per cell, and the chart's data stay numeric (compact in the page's JSON).
    for code in codes:
        figure.add_trace(
            dict(
                type="heatmap",
                x=log_epsilons,
                y=log_deltas,
                z=np.where(regions == code, 1.0, np.nan),
                zmin=0.0,
                zmax=1.0,
                colorscale=[[0.0, REGION_COLORS[code]], [1.0, REGION_COLORS[code]]],
                showscale=False,
                name=labels[code],
                customdata=customdata,
                hoverongaps=False,
                hovertemplate=(
                    "ε = %{customdata[0]:.6g}<br>target δ = %{customdata[1]:.6g}<br>true δ of the classical σ = "
                    f"%{{customdata[2]:.6g}}<br><b>{labels[code]}</b><extra></extra>"
                ),
            )
        )
    for code in codes:  # legend entries for the three colours
        figure.add_trace(
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="markers",
                name=labels[code],
                marker=dict(color=REGION_COLORS[code], size=14, symbol="square"),
            )
        )
    if delta_zero is not None:
        positive = delta_zero["delta_zero"].to_numpy(dtype=float) > 0
        figure.add_trace(
            dict(
                type="scatter",
                x=np.log10(delta_zero["epsilon"].to_numpy(dtype=float)[positive]),
                y=np.log10(delta_zero["delta_zero"].to_numpy(dtype=float)[positive]),
                name="δ₀(ε): below it every private σ ≥ Δ/√(2ε)",
                mode="lines",
                line=dict(color=CURRENT_COLOR, width=2, dash="dot"),
                customdata=np.stack(
                    [
                        delta_zero["epsilon"].to_numpy(dtype=float)[positive],
                        delta_zero["delta_zero"].to_numpy(dtype=float)[positive],
                    ],
                    axis=-1,
                ),
                hovertemplate="ε = %{customdata[0]:.10g}<br>δ₀(ε) = %{customdata[1]:.10g}<extra></extra>",
            )
        )
    figure.add_trace(
        dict(
            type="scatter",
            x=[math.log10(setting.epsilon)],
            y=[math.log10(setting.delta)],
            mode="markers",
            name=f"chosen (ε, δ) = ({format_number(setting.epsilon)}, {format_number(setting.delta)})",
            marker=dict(color=CURRENT_COLOR, size=16, symbol="x", line=dict(color="white", width=1)),
            customdata=[[setting.epsilon, setting.delta]],
            hovertemplate="chosen ε = %{customdata[0]:.10g}<br>δ = %{customdata[1]:.10g}<extra></extra>",
        )
    )
    where = labels.get(current_region, "") if current_region is not None else ""
    apply_layout(
        figure,
        title=(
            "Where the classical σ = Δ√(2 ln(1.25/δ))/ε really gives (ε, δ)-DP"
            f"<br><sup>exact δ from Balle & Wang's Theorem 8; Δ cancels; chosen point: {where}</sup>"
        ),
        x_title="ε (log scale)",
        y_title="target δ (log scale)",
        height=600,
    )
    x_ticks = _decade_ticks(float(log_epsilons.min()), float(log_epsilons.max()))
    span = float(log_deltas.max() - log_deltas.min())
    y_ticks = _decade_ticks(float(log_deltas.min()), float(log_deltas.max()), step=max(1, int(span // 10)))
    figure.update_xaxes(tickvals=x_ticks[0], ticktext=x_ticks[1], showgrid=False)
    figure.update_yaxes(tickvals=y_ticks[0], ticktext=y_ticks[1], showgrid=False)
    update_layout_quickly(figure, legend=dict(orientation="h", yanchor="top", y=-0.15, x=0.0))
    return figure


def classical_map_caption(region: int, true_delta: float, setting, breakdown: float | None) -> str:
    """Where the chosen point sits on the map, in words."""
    point = f"At ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}"
    if region == 0:
        text = f"{point} the classical formula is a theorem (ε < 1) and its noise is valid (true δ = {format_number(true_delta)})."
    elif region == 1:
        text = (
            f"{point} the classical formula is not a theorem, but its σ happens to be private enough "
            f"(true δ = {format_number(true_delta)} ≤ {format_number(setting.delta)}). Nothing guarantees that: "
            "use the analytic Gaussian."
        )
    else:
        text = (
            f"{point} the classical σ is **not private enough**: its true δ is {format_number(true_delta)}, "
            f"{format_ratio(true_delta / setting.delta)} the target."
        )
    if breakdown is not None and math.isfinite(breakdown):
        text += f" At this δ the formula fails from ε ≈ {format_number(breakdown)} on."
    return text


@built_once
def low_privacy_figure(frame: pd.DataFrame, setting) -> go.Figure:
    """σ against ε: analytic (exact), classical formula (a theorem for ε < 1, extrapolated beyond), and
    Balle & Wang's lower bound Δ/√(2ε), which holds wherever δ < δ₀(ε).

    ``frame`` has ``epsilon, analytic, classical, classical_extrapolated, bound`` (NaN where a
    curve does not apply).
    """
    epsilons = frame["epsilon"].to_numpy(dtype=float)
    figure = go.Figure()
    styles = (
        ("analytic", "analytic Gaussian σ (exact)", dict(color="#0072B2", width=LINE_WIDTH + 1)),
        ("classical", "classical σ (a theorem, ε < 1)", dict(color="#D55E00", width=LINE_WIDTH)),
        (
            "classical_extrapolated",
            "classical σ extrapolated (not a theorem)",
            dict(color="#D55E00", width=LINE_WIDTH, dash="dash"),
        ),
        (
            "bound",
            "lower bound Δ/√(2ε), valid where δ < δ₀(ε)",
            dict(color=CURRENT_COLOR, width=LINE_WIDTH, dash="dot"),
        ),
    )
    for column, name, line in styles:
        figure.add_trace(
            dict(
                type="scatter",
                x=epsilons,
                y=frame[column].to_numpy(dtype=float),
                name=name,
                mode="lines",
                line=line,
                hovertemplate=exact_hover("ε", "σ"),
            )
        )
    apply_layout(
        figure,
        title=(
            "Balle & Wang's low-privacy bound: σ cannot shrink like 1/ε"
            f"<br><sup>δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}; "
            "no (ε, δ)-DP Gaussian has σ below the dotted line (Theorem 4, exact threshold δ₀(ε))</sup>"
        ),
        x_title="ε",
        y_title="σ",
        log_x=True,
        log_y=True,
    )
    return legend_below(
        vertical_marker(figure, setting.epsilon, f"current ε = {format_number(setting.epsilon)}", log_x=True)
    )


def low_privacy_caption(frame: pd.DataFrame, setting) -> str:
    """Where the extrapolated classical σ drops below the necessary bound."""
    crossing = frame[np.isfinite(frame["classical_extrapolated"]) & np.isfinite(frame["bound"])]
    crossing = crossing[crossing["classical_extrapolated"] < crossing["bound"]]
    text = (
        "The analytic σ stays above the dotted bound everywhere, as every private σ must. The classical formula "
        "falls like 1/ε"
    )
    if crossing.empty:
        return text + " and stays above the bound over the range shown."
    return (
        text
        + f" and crosses below the bound from ε ≈ {format_number(crossing['epsilon'].iloc[0])}: there it cannot be "
        f"(ε, δ)-DP for δ = {format_number(setting.delta)}, whatever one hopes."
    )


def tradeoff_figure(
    frame: pd.DataFrame, setting, *, mu: float, alpha: float, gaussian_beta: float, region_beta: float
) -> go.Figure:
    """Hypothesis-testing view: the Gaussian's trade-off curve G_μ against the (ε, δ)-DP region.

    ``frame`` has ``alpha`` (type I error), ``gaussian`` (G_μ(α)) and ``region`` (the (ε, δ)
    curve f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))). Any test of the private release has
    its (α, β) on or above both curves; the point at the chosen α is marked.
    """
    alphas = frame["alpha"].to_numpy(dtype=float)
    figure = light.new_figure()
    figure.add_trace(
        dict(
            type="scatter",
            x=alphas,
            y=frame["region"].to_numpy(dtype=float),
            name=f"(ε, δ)-DP boundary, ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}",
            mode="lines",
            line=dict(color="#B36B00", width=LINE_WIDTH, dash="dash"),
            fill="tozeroy",
            fillcolor="rgba(230,159,0,0.15)",
            hovertemplate=exact_hover("α", "β"),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=alphas,
            y=frame["gaussian"].to_numpy(dtype=float),
            name=f"analytic Gaussian: G_μ, μ = Δ/σ = {format_number(mu)}",
            mode="lines",
            line=dict(color="#0072B2", width=LINE_WIDTH + 1),
            hovertemplate=exact_hover("α", "β"),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=[0.0, 1.0],
            y=[1.0, 0.0],
            name="perfect privacy: β = 1 − α (a coin flip)",
            mode="lines",
            line=dict(color="#6B6B6B", width=1.5, dash="dot"),
            hovertemplate=exact_hover("α", "β"),
        )
    )
    figure.add_trace(
        dict(
            type="scatter",
            x=[alpha, alpha],
            y=[gaussian_beta, region_beta],
            name=f"at α = {format_percent(alpha)}: best attacker's misses β",
            mode="markers",
            marker=dict(
                color=[("#0072B2"), ("#B36B00")], size=14, symbol="diamond", line=dict(color=CURRENT_COLOR, width=1.5)
            ),
            hovertemplate=exact_hover("α", "β"),
        )
    )
    apply_layout(
        figure,
        title=(
            "An attacker's best test: false accusations α against misses β"
            f"<br><sup>Dong, Roth & Su 2022 (Gaussian DP); {setting_summary(setting)}; shaded: impossible under (ε, δ)-DP</sup>"
        ),
        x_title="α: type I error (accuses when the person is absent)",
        y_title="β: type II error (misses the person)",
    )
    # Square and [0, 1] on both axes at any width (a slide, the PNG export): the plot shrinks to a square
    # ("domain") rather than stretching α beyond the probabilities ("range", Plotly's default).
    figure.update_xaxes(range=[0, 1], constrain="domain")
    figure.update_yaxes(range=[0, 1], scaleanchor="x", scaleratio=1, constrain="domain")
    update_layout_quickly(figure, height=620)
    return light.finished(figure)


def tradeoff_caption(alpha: float, gaussian_power: float, region_power: float) -> str:
    """The plain-language reading of the trade-off at α."""
    return (
        f"An attacker who wrongly accuses {format_percent(alpha)} of the time catches the target at most "
        f"{format_percent(gaussian_power)} of the time against this Gaussian noise (exact), and at most "
        f"{format_percent(region_power)} of the time under any mechanism with the same (ε, δ) guarantee. "
        f"Guessing at random would catch {format_percent(alpha)}."
    )


ROUTE_STYLES = {
    "exact": dict(name="exact Gaussian composition (Gaussian DP: μ-GDP, μ = √k Δ/σ)", color="#0072B2", dash="solid"),
    "zcdp_cks": dict(name="zCDP, Canonne–Kamath–Steinke conversion", color="#2A8878", dash="dash"),
    "zcdp_bun_steinke": dict(name="zCDP, Bun–Steinke conversion", color="#7A7A1A", dash="dash"),
    "advanced": dict(name="advanced composition of (ε, δ)", color="#AA4499", dash="dashdot"),
    "naive": dict(name="naive summation (kε, kδ)", color="#D55E00", dash="dot"),
}


def _route_curves(frame: pd.DataFrame, y_symbol: str) -> light.LightFigure:
    """One curve against k per accounting route present in ``frame``, styled by :data:`ROUTE_STYLES` (a light figure)."""
    figure = light.new_figure()
    ks = frame["k"].to_numpy(dtype=float)
    for route, style in ROUTE_STYLES.items():
        if route not in frame:
            continue
        figure.add_trace(
            dict(
                type="scatter",
                x=ks,
                y=frame[route].to_numpy(dtype=float),
                name=style["name"],
                mode="lines",
                line=dict(color=style["color"], width=LINE_WIDTH + (1 if route == "exact" else 0), dash=style["dash"]),
                hovertemplate=exact_hover("k", y_symbol),
            )
        )
    return figure


def composition_figure(frame: pd.DataFrame, setting, *, total_delta_text: str, k: int) -> go.Figure:
    """Total ε after k releases of the calibrated Gaussian, by each accounting route.

    ``frame`` has ``k`` and one column per route id of :data:`ROUTE_STYLES` (NaN where a route
    gives no finite ε).
    """
    figure = _route_curves(frame, "total ε")
    apply_layout(
        figure,
        title=(
            "Total privacy loss of k releases, each with the analytic Gaussian at the chosen (ε, δ)"
            f"<br><sup>{total_delta_text}; {setting_summary(setting)}</sup>"
        ),
        x_title="k: number of releases",
        y_title="total ε (log scale)",
        log_x=True,
        log_y=True,
    )
    return light.finished(legend_below(vertical_marker(figure, k, f"k = {k:,}", log_x=True)))


def composition_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Side by side at the chosen k: route, total ε, total δ, 3 significant digits.

    ``rows`` has ``route, total_epsilon, total_delta`` (one row per route).
    """
    return pd.DataFrame(
        {
            "Route": [ROUTE_STYLES[route]["name"] for route in rows["route"]],
            "Total ε": [format_number(value) for value in rows["total_epsilon"]],
            "Total δ": [format_number(value) for value in rows["total_delta"]],
        }
    )


def composition_caption(rows: pd.DataFrame, k: int) -> str:
    """How much the exact route saves over the others at k."""
    table = rows.set_index("route")
    if "exact" not in table.index or not math.isfinite(table.loc["exact", "total_epsilon"]):
        return ""
    exact = table.loc["exact", "total_epsilon"]
    text = f"After k = {k:,} releases the exact composition gives total ε = {format_number(exact)}"
    if exact <= 0:
        return text + ": the total δ alone already covers the k releases, so no route has anything to add."
    parts = []
    for route in ("zcdp_cks", "advanced", "naive"):
        if route in table.index and math.isfinite(table.loc[route, "total_epsilon"]):
            parts.append(f"{ROUTE_STYLES[route]['name']} {format_ratio(table.loc[route, 'total_epsilon'] / exact)}")
    if parts:
        text += "; the other routes overstate it: " + ", ".join(parts)
    return text + "."


def per_release_sigma_figure(frame: pd.DataFrame, setting, *, k: int) -> go.Figure:
    """The per-release σ each route needs so that k releases meet the chosen total (ε, δ).

    ``frame`` has ``k`` and one column per route id (NaN where the route cannot reach the budget).
    """
    figure = _route_curves(frame, "σ per release")
    apply_layout(
        figure,
        title=(
            f"Noise per release to keep k releases within a total (ε, δ) = ({format_number(setting.epsilon)}, "
            f"{format_number(setting.delta)})<br><sup>Δ = {format_number(setting.sensitivity)}; lower is better: the "
            "exact route needs √k × the single-release σ</sup>"
        ),
        x_title="k: number of releases",
        y_title="σ per release (log scale)",
        log_x=True,
        log_y=True,
    )
    return light.finished(legend_below(vertical_marker(figure, k, f"k = {k:,}", log_x=True)))


def per_release_caption(sigmas: Mapping[str, float], k: int) -> str:
    """The σ each route asks for at k, and the cost of the loosest one."""
    finite = {route: value for route, value in sigmas.items() if value is not None and math.isfinite(value)}
    if "exact" not in finite or finite["exact"] <= 0:
        return ""
    exact = finite["exact"]
    parts = [
        f"{ROUTE_STYLES[route]['name']} {format_number(value)} ({format_ratio(value / exact)})"
        for route, value in finite.items()
        if route != "exact"
    ]
    text = f"For k = {k:,} releases the exact route needs σ = {format_number(exact)} per release"
    if parts:
        text += "; the others need " + "; ".join(parts)
    return text + ". Variance, and so squared error, grows with the square of these ratios."


def map_frame(
    log_epsilons: np.ndarray,
    log_deltas: np.ndarray,
    regions: np.ndarray,
    true_deltas: np.ndarray,
    labels: Mapping[int, str],
) -> pd.DataFrame:
    """The map's cells as a long table for CSV: ε, target δ, true δ, region."""
    epsilon_grid, delta_grid = np.meshgrid(10.0**log_epsilons, 10.0**log_deltas)
    return pd.DataFrame(
        {
            "epsilon": epsilon_grid.ravel(),
            "target_delta": delta_grid.ravel(),
            "true_delta_of_classical_sigma": true_deltas.ravel(),
            "region": [labels[int(code)] for code in regions.ravel()],
        }
    )
