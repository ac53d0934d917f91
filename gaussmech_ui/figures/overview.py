"""What the Overview page shows, built from numbers: its two charts, its table and its captions.

Pure functions (no ``st.*``): frames of exact values in (from :mod:`gaussmech_ui.cached.overview`),
a ``go.Figure``, a display table or a sentence out. The table and the sentences live here too,
because they are views of the same numbers and are tested the same way.

``mechanisms`` is the registry (:data:`gaussmech_core.mechanisms.MECHANISMS`) or any mapping from
id to objects with its attributes (``name``, ``color``, ``guarantee``, ``guarantee_label``,
``scale_symbol``, ``source``, ``featured``).
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
    reader_name,
    same_noise,
    under_other_model,
    winner_phrase,
)
from ..claims.reasons import excess_range, failed_claim, ratio_clause
from ..format import cite_math, format_number, format_percent, format_ratio, math_reference_link, math_reference_name
from . import light
from .common import (
    CURRENT_COLOR,
    DELTA_COLORS,
    FONT_SIZE,
    LEGEND_GROUPS,
    LINE_WIDTH,
    apply_layout,
    coinciding_curves,
    exact_hover,
    frame_rows,
    grouped_legend_beside,
    keep_in_view,
    legend_group,
    mark_current_x,
    mechanism_line,
    mechanism_marker,
    trace_name,
)

__all__ = [
    "setting_summary",
    "std_vs_epsilon_figure",
    "variance_ratio_figure",
    "current_variance_ratio",
    "overview_table",
    "overview_csv_frame",
    "overview_caption",
    "why_sentences",
    "proven_values",
    "claim_warnings",
    "failures",
    "guarantee_holds",
    "not_valid_here",
    "PROVEN_GUARANTEES",
]

PROVEN_GUARANTEES = ("pure", "approximate", "probabilistic")


def setting_summary(setting, *, with_epsilon: bool = True) -> str:
    """The parameters in a short line for chart titles: ``ε = 1, δ = 1e-5, Δ = 1, d = 10, p = 2``."""
    parts = [f"ε = {format_number(setting.epsilon)}"] if with_epsilon else []
    parts += [
        f"δ = {format_number(setting.delta)}",
        f"Δ = {format_number(setting.sensitivity)}",
        f"d = {setting.dim:,}",
        f"p = {format_number(setting.order)}",
    ]
    if setting.l1_model == "all_coordinates":
        parts.append("Δ₁ = √d·Δ")
    return ", ".join(parts)


def std_vs_epsilon_figure(
    sweep: pd.DataFrame,
    mechanisms: Mapping,
    setting,
    current_stds: Mapping[str, float],
    *,
    every_variant: bool = True,
) -> go.Figure:
    """Per-coordinate noise std against ε for every mechanism, log-log, the current ε marked.

    ``sweep`` has an ``epsilon`` column and one column per mechanism id (NaN where the
    guarantee does not hold: those stretches are left out). Without ``every_variant`` only the
    ``featured`` mechanisms are drawn. ``current_stds`` gives each mechanism's std at the current
    setting (NaN when not valid), drawn as a marker on its curve (one trace, so hiding the curve
    hides its marker). The legend sits beside the plot in groups (Gaussian calibrations, other
    families, claimed only); a curve that lies on another (GG with p = 2 on the analytic Gaussian)
    is drawn as a wide pale band under it and says so in the legend. Built as a light figure
    (:mod:`~gaussmech_ui.figures.light`).
    """
    figure = light.new_figure()
    epsilons = sweep["epsilon"].to_numpy(dtype=float)
    x_label, y_label = "ε", "std per coordinate"
    shown = [key for key in mechanisms if key in sweep and (every_variant or mechanisms[key].featured)]
    same = coinciding_curves({key: sweep[key].to_numpy(dtype=float) for key in shown}, mechanisms)
    # The default mechanism (the analytic Gaussian) is drawn last, on top, and a little thicker, so a
    # mechanism that coincides with it (GG with p = 2) cannot hide it; the legend keeps registry order.
    ranks = {mechanism_id: rank for rank, mechanism_id in enumerate(mechanisms)}
    group_ranks = {group: index for index, group in enumerate(LEGEND_GROUPS)}
    drawing_order = sorted(
        shown, key=lambda i: (i not in same, bool(getattr(mechanisms[i], "is_default", False)), ranks[i])
    )
    for mechanism_id in drawing_order:
        mechanism = mechanisms[mechanism_id]
        is_default = bool(getattr(mechanism, "is_default", False))
        x, y = epsilons, sweep[mechanism_id].to_numpy(dtype=float)
        # A small marker of the mechanism's own symbol every 8 points (offset per mechanism, so they do not stack).
        sizes = np.where((np.arange(x.size) + ranks[mechanism_id]) % 8 == 0, 7.0, 0.0)
        current = float(current_stds.get(mechanism_id, np.nan))
        if math.isfinite(current):  # the current point, exact, as the one visible marker of the curve
            at = int(np.searchsorted(x, setting.epsilon))
            x, y = np.insert(x, at, setting.epsilon), np.insert(y, at, current)
            sizes = np.insert(sizes, at, 13.0)
        line = mechanism_line(mechanism, width=LINE_WIDTH + 1 if is_default else LINE_WIDTH)
        name = trace_name(mechanism)
        opacity = 1.0
        if mechanism_id in same:
            line.update(width=LINE_WIDTH + 7)
            opacity = 0.45
            name += on_curve_note(mechanisms[same[mechanism_id]])
        group = legend_group(mechanism)
        figure.add_trace(
            dict(
                type="scatter",
                x=x,
                y=y,
                name=name,
                legendgroup=group,
                legendgrouptitle_text=LEGEND_GROUPS[group],
                legendrank=1000 * (1 + group_ranks[group]) + ranks[mechanism_id],
                mode="lines+markers",
                line=line,
                opacity=opacity,
                marker=dict(
                    color=mechanism.color,
                    size=sizes,
                    symbol=mechanism_marker(mechanism)["symbol"],
                    line=dict(color="white", width=1),
                ),
                hovertemplate=exact_hover(x_label, y_label),
                connectgaps=False,
            )
        )
    apply_layout(
        figure,
        title=(
            "How much noise each mechanism adds, against ε"
            f"<br><sup>{setting_summary(setting, with_epsilon=False)}; "
            "dashed: claimed, not proven; dotted: probabilistic DP; dots: the current ε</sup>"
        ),
        x_title="ε (privacy loss bound; smaller is more private)",
        y_title="noise std per coordinate",
        log_x=True,
        log_y=True,
        height=620,
    )
    # A curve that falls many decades below the others (the discrete Gaussian's std at large ε: integer
    # noise that is 0 almost surely) would press every other curve into a sliver of the chart: the
    # view keeps the others' region and names it "off the bottom" (a double click shows everything).
    values = {key: sweep[key].to_numpy(dtype=float) for key in shown}
    names = {key: trace_name(mechanisms[key]) for key in shown}
    keep_in_view(figure, values, names, curves_in_one_region(values), log_y=True, mark_below=True)
    grouped_legend_beside(figure)
    return light.finished(mark_current_x(figure, setting.epsilon, f"current ε = {format_number(setting.epsilon)}"))


def curves_in_one_region(values: Mapping[str, np.ndarray], decades: float = 4.0) -> list[str]:
    """The curves whose smallest positive value lies within ``decades`` of the median curve's smallest.

    Examples
    --------
    >>> curves_in_one_region({"a": np.array([1.0, 0.1]), "b": np.array([2.0, 0.05]), "c": np.array([1.0, 1e-20])})
    ['a', 'b']
    """
    lows = {}
    for key, series in values.items():
        series = np.asarray(series, dtype=float)
        positive = series[np.isfinite(series) & (series > 0)]
        if positive.size:
            lows[key] = float(positive.min())
    if not lows:
        return []
    typical = float(np.median(list(lows.values())))
    return [key for key, low in lows.items() if low >= typical * 10.0**-decades]


def variance_ratio_figure(
    ratios: pd.DataFrame,
    current_epsilon: float,
    current_delta: float,
    current_ratio: float | None,
) -> go.Figure:
    """Balle & Wang's Figure 1 (left): σ²(classical) / σ²(analytic) against ε, one curve per δ.

    ``ratios`` is the long frame of :func:`gaussmech_ui.cached.overview.variance_ratio_sweep`.
    The curve of the current δ is drawn thicker; the current point is marked when ε < 1 (the
    classical formula is not a theorem elsewhere, so there is no ratio to show). Built as a light
    figure (:mod:`~gaussmech_ui.figures.light`).
    """
    figure = light.new_figure()
    x_label, y_label = "ε", "variance ratio"
    deltas = list(dict.fromkeys(ratios["delta"].tolist()))
    for index, delta in enumerate(deltas):
        part = ratios[ratios["delta"] == delta]
        is_current = math.isclose(delta, current_delta, rel_tol=1e-12)
        figure.add_trace(
            dict(
                type="scatter",
                x=part["epsilon"].to_numpy(dtype=float),
                y=part["variance_ratio"].to_numpy(dtype=float),
                name=f"δ = {format_number(delta)}" + (" (current)" if is_current else ""),
                mode="lines",
                line=dict(
                    color=CURRENT_COLOR if is_current else DELTA_COLORS[index % len(DELTA_COLORS)],
                    width=LINE_WIDTH + 2 if is_current else LINE_WIDTH,
                ),
                hovertemplate=exact_hover(x_label, y_label),
            )
        )
    if current_ratio is not None and math.isfinite(current_ratio) and current_epsilon < 1:
        figure.add_trace(
            dict(
                type="scatter",
                x=[current_epsilon],
                y=[current_ratio],
                name="current ε and δ",
                mode="markers",
                marker=dict(color=CURRENT_COLOR, size=14, symbol="diamond", line=dict(color="white", width=1.5)),
                hovertemplate=exact_hover(x_label, y_label),
            )
        )
    apply_layout(
        figure,
        title=(
            "What exact calibration saves: σ² classical / σ² analytic"
            "<br><sup>Balle & Wang 2018, Figure 1 (left); ε < 1, where the classical formula is a theorem</sup>"
        ),
        x_title="ε (privacy loss bound)",
        y_title="variance ratio σ²(classical) / σ²(analytic)",
        log_x=True,
        log_y=True,
    )
    # The x axis ends at ε = 1, where the classical formula stops being a theorem.
    lowest = float(ratios["epsilon"].min()) if len(ratios) else 1e-3
    figure.update_xaxes(range=[math.log10(lowest), 0.0])
    if current_epsilon >= 1:
        figure.add_annotation(
            text=f"current ε = {format_number(current_epsilon)} ≥ 1: the classical formula<br>is not a theorem there, so no ratio",
            xref="paper",
            yref="paper",
            x=0.98,
            y=0.95,
            xanchor="right",
            showarrow=False,
            font=dict(size=FONT_SIZE - 1),
            bgcolor="rgba(255,255,255,0.9)",
        )
    else:
        mark_current_x(figure, current_epsilon, f"current ε = {format_number(current_epsilon)}")
    return light.finished(figure)


def current_variance_ratio(frame: pd.DataFrame) -> float | None:
    """σ²(classical) / σ²(analytic) at the table's setting, or ``None`` where either is not valid."""
    if not {"classical_gaussian", "analytic_gaussian"} <= set(frame.index):
        return None
    classical, analytic = frame.loc["classical_gaussian"], frame.loc["analytic_gaussian"]
    if not (classical["valid"] and analytic["valid"]):
        return None
    return float((classical["scale"] / analytic["scale"]) ** 2)


def _scale_text(mechanism, row) -> str:
    if not row["valid"] or not math.isfinite(row["scale"]):
        return "—"
    return f"{mechanism.scale_symbol} = {format_number(row['scale'])}"


def _claim_fails(row, delta: float) -> bool:
    return math.isfinite(row["true_delta"]) and row["true_delta"] > delta


def _validity_text(mechanism, row, setting) -> str:
    if row["error"]:
        return f"✗ {row['reason']}"
    if not row["valid"]:
        return f"✗ {row['reason']}"
    if mechanism.guarantee == "claimed":
        if _claim_fails(row, setting.delta):
            return f"⚠ the claim does not hold: true δ is larger than claimed ({math_reference_name('6.2')})"
        return "⚠ not proven; the computed true δ is within the claim here"
    return "✓ holds"


def guarantee_holds(mechanism, row, setting) -> bool:
    """Whether the row's guarantee holds at this setting: valid, and for a claim, its true δ within the claimed δ."""
    if row["error"] or not row["valid"]:
        return False
    if mechanism.guarantee == "claimed":
        return math.isfinite(row["true_delta"]) and not _claim_fails(row, setting.delta)
    return True


def _holds_text(mechanism, row, setting) -> str:
    """The short verdict the table shows first on every row: does the guarantee hold here?"""
    if guarantee_holds(mechanism, row, setting):
        return "⚠ not proven" if mechanism.guarantee == "claimed" else "✓ yes"
    if mechanism.guarantee == "claimed" and row["valid"] and math.isfinite(row["true_delta"]):
        return f"✗ no: true δ = {format_number(row['true_delta'])}"
    return "✗ no (see below)"


def _guarantee_text(mechanism, row, setting) -> str:
    if mechanism.guarantee == "claimed" and math.isfinite(row["true_delta"]):
        return (
            f"claimed ({format_number(setting.epsilon)}, {format_number(setting.delta)})-DP; "
            f"computed true δ = {format_number(row['true_delta'])}"
        )
    return mechanism.guarantee_label


def _rows(frame: pd.DataFrame) -> list[tuple[str, dict]]:
    """``(mechanism id, row as a dict)`` for each row of a calibration table: what ``iterrows`` gives,
    without building a pandas Series per row (:func:`~.common.frame_rows`)."""
    return list(zip(frame.index.tolist(), frame_rows(frame)))


def overview_table(frame: pd.DataFrame, mechanisms: Mapping, setting):
    """The table people read: one row per mechanism, numbers to 3 significant digits.

    Returns ``(table, styler)``: the text table, and a pandas ``Styler`` of it that greys the
    rows whose guarantee does not hold here and tints the rows whose claim fails. Invalid rows
    show a dash and the reason, never a number.
    """
    reference = frame.loc["analytic_gaussian", "expected_loss"] if "analytic_gaussian" in frame.index else np.nan
    loss_column = f"E‖noise‖₂² at d = {setting.dim:,}"
    rows = []
    for mechanism_id, row in _rows(frame):
        mechanism = mechanisms[mechanism_id]
        valid = bool(row["valid"])
        ratio = row["expected_loss"] / reference if valid and math.isfinite(reference) else np.nan
        rows.append(
            {
                "Mechanism": trace_name(mechanism),
                "Holds here?": _holds_text(mechanism, row, setting),
                "Scale": _scale_text(mechanism, row),
                "Noise std per coordinate": format_number(row["coordinate_std"]) if valid else "—",
                loss_column: format_number(row["expected_loss"]) if valid else "—",
                "Error vs analytic Gaussian": format_ratio(ratio) if math.isfinite(ratio) else "—",
                "Guarantee": _guarantee_text(mechanism, row, setting),
                "Validity": _validity_text(mechanism, row, setting),
                "Source": cite_math(mechanism.source, links=False),
            }
        )
    table = pd.DataFrame(rows)
    greyed = [not bool(row["valid"]) for _, row in _rows(frame)]
    warned = [
        mechanisms[mechanism_id].guarantee == "claimed" and _claim_fails(row, setting.delta)
        for mechanism_id, row in _rows(frame)
    ]

    def style_row(row):
        if greyed[row.name]:
            return ["color: #6B6B6B; font-style: italic"] * len(row)
        if warned[row.name]:
            return ["background-color: #FCE8D5"] * len(row)
        return [""] * len(row)

    return table, table.style.apply(style_row, axis=1)


def overview_csv_frame(frame: pd.DataFrame, mechanisms: Mapping, setting) -> pd.DataFrame:
    """The table's exact values, with the setting on every row, for the CSV download.

    ``guarantee_holds`` is the column to filter on: False for a row whose guarantee does not
    hold here, including a claimed mechanism whose true δ exceeds its claim (R1SMG from d = 4).
    ``true_delta_at_epsilon`` is the δ(ε) of the calibrated noise from its exact privacy profile.
    """
    rows = []
    for mechanism_id, row in _rows(frame):
        mechanism = mechanisms[mechanism_id]
        valid = bool(row["valid"])
        rows.append(
            {
                "mechanism_id": mechanism_id,
                "mechanism": mechanism.name,
                "guarantee": mechanism.guarantee_label,
                "guarantee_holds": guarantee_holds(mechanism, row, setting),
                # True for R1SMG too: its σ* is defined here, which is not to say its claim holds.
                "calibration_defined": valid,
                "validity_reason": row["reason"],
                "scale_symbol": mechanism.scale_symbol,
                "scale": row["scale"] if valid else np.nan,
                "coordinate_std": row["coordinate_std"] if valid else np.nan,
                "expected_squared_l2_error": row["expected_loss"] if valid else np.nan,
                "true_delta_at_epsilon": row["true_delta"],
                "epsilon": setting.epsilon,
                "delta": setting.delta,
                "sensitivity_l2": setting.sensitivity,
                "sensitivity_l1": setting.l1_sensitivity,
                "order": setting.order,
                "dim": setting.dim,
                "source": cite_math(mechanism.source, links=False),
            }
        )
    return pd.DataFrame(rows)


def proven_values(frame: pd.DataFrame, mechanisms: Mapping, column: str = "expected_loss") -> dict[str, float]:
    """``column`` of the rows whose guarantee is proven and holds here, under the page's assumptions alone
    (the rows a ranking may name: not bounded-data or integer-only entries, :func:`gaussmech_ui.claims.ranking.ranked`)."""
    keep = [
        mechanism_id
        for mechanism_id, row in _rows(frame)
        if row["valid"] and mechanisms[mechanism_id].guarantee in PROVEN_GUARANTEES and ranked(mechanisms[mechanism_id])
    ]
    return {mechanism_id: float(frame.loc[mechanism_id, column]) for mechanism_id in keep}


def _default_id(frame: pd.DataFrame, mechanisms: Mapping) -> str | None:
    """The registry's default mechanism among the rows (the analytic Gaussian), if present."""
    for mechanism_id in frame.index:
        if getattr(mechanisms[mechanism_id], "is_default", False):
            return mechanism_id
    return None


def why_sentences(frame: pd.DataFrame, mechanisms: Mapping, setting) -> str:
    """Why the ranking comes out as it does, in one or two sentences generated from the numbers.

    Each family's reason, with its error as a multiple of the default mechanism's (the analytic
    Gaussian, calibrated exactly): Laplace follows the l1 sensitivity Δ₁ (given with its value); the
    other Gaussian calibrations are sufficient bounds (their extra error as a range, far outliers
    by name); a generalized Gaussian below the reference is named with its order; a claimed
    mechanism with a smaller number is said not to be ranked.
    """
    reference_id = _default_id(frame, mechanisms)
    if reference_id is None or not frame.loc[reference_id, "valid"]:
        return ""
    reference = float(frame.loc[reference_id, "expected_loss"])
    reference_name = reader_name(mechanisms[reference_id])
    others, claimed, close, far = [], [], [], []
    for mechanism_id, row in _rows(frame):
        mechanism = mechanisms[mechanism_id]
        if mechanism_id == reference_id or not row["valid"] or not math.isfinite(row["expected_loss"]):
            continue
        error = float(row["expected_loss"])
        ratio = error / reference
        if mechanism.guarantee == "claimed":
            if ratio < 1 and _claim_fails(row, setting.delta):
                claimed.append(
                    failed_claim(
                        ratio_clause(
                            f"{mechanism.short_name}'s ",
                            " is not ranked: its claim fails here",
                            value=error,
                            reference_value=reference,
                        ),
                        claimed_delta=setting.delta,
                        true_delta=float(row["true_delta"]),
                    )
                )
        elif mechanism.sensitivity_norm == "l1":  # the registry's fact: its noise follows Δ₁
            delta_one = "Δ" if setting.l1_model == "one_coordinate" or setting.dim == 1 else "√d·Δ"
            others.append(
                ratio_clause(
                    f"{mechanism.name}'s noise follows the l1 sensitivity, here Δ₁ = {delta_one} = "
                    f"{format_number(setting.l1_sensitivity)}, which gives it ",
                    f" {reference_name}'s error",
                    value=error,
                    reference_value=reference,
                    quoted=(("Δ₁", setting.l1_sensitivity),),
                )
            )
        elif mechanism.family == mechanisms[reference_id].family:
            if not same_noise(mechanism, mechanisms[reference_id], setting):
                (close if ratio <= 10 else far).append((mechanism, error))
        elif (
            ratio < 1
            and not same_noise(mechanism, mechanisms[reference_id], setting)
            and mechanism.guarantee == "approximate"
        ):
            others.append(
                ratio_clause(
                    f"{mechanism.short_name} with p = {format_number(setting.order)} has ",
                    f" {reference_name}'s error",
                    value=error,
                    reference_value=reference,
                    quoted=(("p", setting.order),),
                )
            )
    gaussian = f"{reference_name} is calibrated exactly (the smallest σ that meets (ε, δ))"
    if close:
        gaussian += excess_range(
            ", and the other Gaussian calibrations are sufficient bounds that add ",
            " more error",
            [error / reference - 1 for _, error in close],
        )
    if far:
        gaussian += (
            " ("
            + ", ".join(
                ratio_clause(f"{m.short_name} ", "", value=error, reference_value=reference) for m, error in far
            )
            + ")"
        )
    clauses = others + [gaussian] + claimed
    text = "; ".join(clauses)
    return f"Why: {text[0].upper()}{text[1:]}."


def overview_caption(frame: pd.DataFrame, mechanisms: Mapping, setting, alternative: pd.DataFrame | None = None) -> str:
    """A plain-language answer from the numbers, for presenters: who adds the least noise, why, under what.

    e.g. "At ε = 1 and δ = 1e-5, the analytic Gaussian needs σ = 3.73, 23% less than the
    classical formula's 4.84." followed by the ranking of proven mechanisms by E‖noise‖₂² (ties to
    a relative 1e-9, :mod:`gaussmech_ui.claims.ranking`), the reason (:func:`why_sentences`), and what the
    ranking assumes. ``alternative`` is the same table under the other neighbour model.
    """
    where = f"At ε = {format_number(setting.epsilon)} and δ = {format_number(setting.delta)}"
    if setting.sensitivity != 1:
        where += f" (Δ = {format_number(setting.sensitivity)})"
    sentences = []
    analytic = frame.loc["analytic_gaussian"] if "analytic_gaussian" in frame.index else None
    classical = frame.loc["classical_gaussian"] if "classical_gaussian" in frame.index else None
    if analytic is not None and analytic["valid"]:
        sentence = f"{where}, the analytic Gaussian needs σ = {format_number(analytic['scale'])}"
        if classical is not None and classical["valid"]:
            saving = 1.0 - analytic["scale"] / classical["scale"]
            sentence += (
                f", {format_percent(saving)} less than the classical formula's {format_number(classical['scale'])}."
            )
        elif setting.epsilon >= 1:
            sentence += "; the classical formula has no σ to compare, because it is not a theorem at ε ≥ 1."
        else:
            sentence += "."
        sentences.append(sentence)
    ranking = rank(proven_values(frame, mechanisms), mechanisms, setting, quantity="E‖noise‖₂²")
    if ranking.best:
        best = ranking.values[ranking.best[0]]
        sentences.append(
            f"Of the mechanisms with a proven guarantee, {winner_phrase(ranking, mechanisms, setting)} adds the least "
            f"noise at d = {setting.dim:,}: E‖noise‖₂² = {format_number(best)}."
        )
        left_out = bounded_note(mechanisms[key] for key, row in _rows(frame) if row["valid"])
        if left_out:
            sentences.append(left_out)
        answer = " ".join(sentences)
        why = why_sentences(frame, mechanisms, setting)
        other = (
            None
            if alternative is None
            else rank(
                proven_values(alternative, mechanisms),
                mechanisms,
                under_other_model(setting),
                quantity="E‖noise‖₂²",
            )
        )
        assumes = assumption_sentence(setting, ranking, other, mechanisms, quantity="error", verb="add the least noise")
        # Three short paragraphs (answer, reason, assumption) read better than one block on a projector.
        return "\n\n".join(part for part in (answer, why, assumes) if part)
    return " ".join(sentences)


def claim_warnings(frame: pd.DataFrame, mechanisms: Mapping, setting) -> list[str]:
    """One warning per "claimed" mechanism whose computed true δ exceeds the claimed δ."""
    messages = []
    for mechanism_id, row in _rows(frame):
        mechanism = mechanisms[mechanism_id]
        if mechanism.guarantee != "claimed" or not _claim_fails(row, setting.delta):
            continue
        messages.append(
            failed_claim(
                f"**{trace_name(mechanism)}: the published guarantee does not hold here.** Its authors claim "
                f"({format_number(setting.epsilon)}, {format_number(setting.delta)})-DP, but the noise it adds has "
                f"true δ = {format_number(row['true_delta'])} at ε = {format_number(setting.epsilon)}, "
                f"{format_ratio(row['true_delta'] / setting.delta)} the claimed δ. "
                f"The true δ comes from the exact privacy loss of its noise ({math_reference_link('6.2')}; formula "
                'in "The math" below). '
                "Do not use it to protect data.",
                claimed_delta=setting.delta,
                true_delta=float(row["true_delta"]),
            )
        )
    return messages


def not_valid_here(frame: pd.DataFrame, mechanisms: Mapping) -> list[str]:
    """ "Name: reason" for each mechanism whose guarantee does not hold (or could not be computed) here."""
    return [f"{trace_name(mechanisms[i])}: {row['reason']}" for i, row in _rows(frame) if not row["valid"]]


def failures(frame: pd.DataFrame, mechanisms: Mapping) -> list[str]:
    """One line per mechanism whose computation failed at this setting (not an invalid guarantee)."""
    return [f"{mechanisms[i].name}: {row['error']}" for i, row in _rows(frame) if row["error"]]
