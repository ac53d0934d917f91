"""Conventions shared by every chart: projector-friendly layout, colours, log axes, hover, CSV.

* **Layout** (:func:`apply_layout`): large fonts and thick lines that read from the back of a
  lecture hall and on a laptop, a white background, the parameters in the title, axis titles
  with symbols, log axes where values span decades.
* **Colours** come from the registry (:attr:`gaussmech_core.registry_types.Mechanism.color`, a
  colour-blind-safe palette), so a mechanism has the same colour on every page;
  :func:`mechanism_line` adds a dash pattern by kind of guarantee, so the legend also reads in
  black and white.
* **Hover** shows exact values (:func:`exact_hover`, 10 significant digits); tables and captions
  round to 3 (:mod:`gaussmech_ui.format`).
* **CSV** (:func:`figure_frame`): any figure's traces as one long table, for the page's download
  button.
"""

from __future__ import annotations

import math
import re
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "frame_rows",
    "FONT_SIZE",
    "LINE_WIDTH",
    "TEXT_COLOR",
    "GRID_COLOR",
    "CURRENT_COLOR",
    "DELTA_COLORS",
    "contrast_ratio",
    "DASH_BY_GUARANTEE",
    "apply_layout",
    "mechanism_line",
    "trace_name",
    "mechanism_marker",
    "MARKER_SYMBOLS",
    "exact_hover",
    "mark_current_x",
    "vertical_marker",
    "horizontal_marker",
    "figure_frame",
    "plain_text",
    "core_ids",
    "keep_in_view",
    "LEGEND_GROUPS",
    "legend_group",
    "grouped_legend_below",
    "grouped_legend_beside",
    "coinciding_curves",
]

FONT_SIZE = 16
TITLE_SIZE = 19
LINE_WIDTH = 3
TEXT_COLOR = "#111111"
GRID_COLOR = "#D9D9D9"
CURRENT_COLOR = "#111111"
FONT_FAMILY = "Source Sans, Source Sans Pro, Helvetica, Arial, sans-serif"

# Paul Tol's colour-blind-safe "muted" scheme, for curves of different δ; cyan, teal and sand are
# darkened to at least 3:1 against white (#88CCEE was 1.8:1, #DDCC77 1.6:1).
DELTA_COLORS = ("#332288", "#117733", "#2A8878", "#3C8DBF", "#938500", "#CC6677", "#AA4499", "#882255")

# Solid for proven (ε, δ)- and ε-DP, dotted for probabilistic DP, dashed for claims not proven.
DASH_BY_GUARANTEE = {"pure": "solid", "approximate": "solid", "probabilistic": "dot", "claimed": "dash"}


def contrast_ratio(color: str, background: str = "#FFFFFF") -> float:
    """WCAG 2.1 contrast ratio of two ``#RRGGBB`` colours, (L1 + 0.05) / (L2 + 0.05) of relative luminances.

    Lines and markers need at least 3:1 against the background (WCAG 2.1, 1.4.11 non-text contrast).

    Examples
    --------
    >>> round(contrast_ratio("#000000"), 2), round(contrast_ratio("#E69F00"), 2)
    (21.0, 2.25)
    """

    def luminance(text: str) -> float:
        text = text.lstrip("#")
        channels = [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(color), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


SETTING_LINE_SIZE = FONT_SIZE - 1


def readable_setting_line(title: str) -> str:
    """A title whose second line (the setting: ε, δ, Δ, d) is drawn at 15 px in the text colour.

    Builders write the setting as ``<br><sup>…</sup>``; Plotly draws ``<sup>`` at 70 % of the title
    size, raised (13 px), too small to read from the back of a room. It becomes a plain line.

    Examples
    --------
    >>> readable_setting_line("Noise<br><sup>ε = 1, δ = 1e-5</sup>")
    'Noise<br><span style="font-size:15px">ε = 1, δ = 1e-5</span>'
    """
    return title.replace("<sup>", f'<span style="font-size:{SETTING_LINE_SIZE}px">').replace("</sup>", "</span>")


def apply_layout(
    figure: go.Figure,
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    height: int = 540,
) -> go.Figure:
    """Give ``figure`` the shared look; returns the same figure.

    Axis titles keep their symbols (``ε``, ``σ``); log axes show exponents as powers of ten.
    """
    axis = dict(
        showline=True,
        linecolor=TEXT_COLOR,
        linewidth=1.5,
        mirror=True,
        ticks="outside",
        gridcolor=GRID_COLOR,
        zeroline=False,
        title=dict(font=dict(size=FONT_SIZE + 1)),
        tickfont=dict(size=FONT_SIZE - 1),
    )
    x_axis = _merged(axis, dict(title=dict(text=x_title), type="log" if log_x else "linear"))
    y_axis = _merged(axis, dict(title=dict(text=y_title), type="log" if log_y else "linear"))
    x_axis["exponentformat"] = "power" if log_x else "B"
    y_axis["exponentformat"] = "power" if log_y else "B"
    updates = dict(
        template="none",
        title=dict(text=readable_setting_line(title), font=dict(size=TITLE_SIZE), x=0.0, xanchor="left", y=0.97),
        font=dict(family=FONT_FAMILY, size=FONT_SIZE, color=TEXT_COLOR),
        paper_bgcolor="white",
        plot_bgcolor="white",
        height=height,
        margin=dict(l=80, r=30, t=80, b=70),
        legend=dict(font=dict(size=FONT_SIZE - 2), bgcolor="rgba(255,255,255,0.85)", borderwidth=0),
        hoverlabel=dict(font=dict(size=FONT_SIZE - 1)),
        hovermode="closest",
    )
    # Every x and y axis of the figure (subplots have xaxis2, ...), as update_xaxes/update_yaxes do.
    axes = _axis_names(figure)
    for name in axes:
        updates[name] = x_axis if name.startswith("x") else y_axis
    return update_layout_quickly(figure, updates)


def _merged(base: dict, updates: dict) -> dict:
    """``base`` updated by ``updates`` as Plotly's ``update_layout`` does: dicts merged, the rest replaced."""
    merged = dict(base)
    for key, value in updates.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = value
    return merged


def _axis_names(figure: go.Figure) -> list[str]:
    """The layout's axis keys (``xaxis``, ``yaxis``, ``xaxis2``, ...), ``xaxis`` and ``yaxis`` always."""
    names = {"xaxis", "yaxis"}
    names.update(key for key in figure.layout if re.fullmatch(r"[xy]axis\d*", key) and figure.layout[key] is not None)
    return sorted(names)


def update_layout_quickly(figure: go.Figure, updates: dict | None = None, /, **more) -> go.Figure:
    """``figure.update_layout(updates, **more)``, in a fraction of the time.

    ``update_layout`` on a figure with traces goes through Plotly's relayout machinery, checking
    every key path against the whole figure (about 10 ms for the shared look of one chart); the
    same layout, merged as plain dicts and validated once as a new ``Layout``, is equal and takes
    about a tenth of that. Nested dicts merge as in ``update_layout``; a ``a_b`` shorthand key is
    resolved by Plotly when the layout is built. Returns the same figure.
    """
    figure.layout = _merged(figure.layout.to_plotly_json(), {**(updates or {}), **more})
    return figure


def trace_name(mechanism) -> str:
    """The one name of a mechanism in legends, tables and warnings; a "claimed" one always says so, and whose claim it is.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> r1smg = SimpleNamespace(name="Rank-1 singular multivariate Gaussian (claimed)", short_name="R1SMG",
    ...                         guarantee="claimed", source="Ji & Li 2024 (USENIX Security), as published")
    >>> trace_name(r1smg)
    'R1SMG, claimed (Ji & Li 2024)'
    """
    if mechanism.guarantee == "claimed":
        authors = mechanism.source.split(" (")[0].split(",")[0].strip()
        return f"{mechanism.short_name}, claimed ({authors})"
    return mechanism.name


def mechanism_line(mechanism, width: float = LINE_WIDTH) -> dict:
    """The line style of a mechanism: its registry colour and the dash of its kind of guarantee."""
    return dict(color=mechanism.color, width=width, dash=DASH_BY_GUARANTEE.get(mechanism.guarantee, "solid"))


# One marker symbol per mechanism (by registry position), so two solid lines differ by more than colour.
MARKER_SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "x",
    "cross",
    "star",
    "triangle-down",
    "pentagon",
    "hexagon",
    "hourglass",
    "bowtie",
    "star-triangle-up",
    "asterisk-open",
    "circle-open",
    "square-open",
)


def mechanism_marker(mechanism, *, size: float = 8, maxdisplayed: int = 10) -> dict:
    """The marker of a mechanism's curve: its colour and its own symbol, a few along the line.

    The symbol follows the mechanism's position in the registry (the same on every page); Plotly
    draws at most ``maxdisplayed`` markers on the line, so the curve stays a line.
    """
    from gaussmech_core.mechanisms import MECHANISMS

    ids = list(MECHANISMS)
    position = ids.index(mechanism.id) if getattr(mechanism, "id", None) in ids else len(ids)
    return dict(
        color=mechanism.color,
        symbol=MARKER_SYMBOLS[position % len(MARKER_SYMBOLS)],
        size=size,
        maxdisplayed=maxdisplayed,
        line=dict(color=mechanism.color, width=1),
    )


def exact_hover(x_label: str, y_label: str) -> str:
    """A hover template showing the trace's name and the exact point (10 significant digits)."""
    return f"<b>%{{fullData.name}}</b><br>{x_label} = %{{x:.10g}}<br>{y_label} = %{{y:.10g}}<extra></extra>"


def vertical_marker(
    figure: go.Figure,
    x: float,
    label: str,
    *,
    log_x: bool,
    color: str = CURRENT_COLOR,
    dash: str = "dash",
    width: float = 1.5,
) -> go.Figure:
    """A vertical line at x with its label at the top, right on linear and log axes.

    Plotly places a shape at the data value x but an annotation, on a log axis, at log₁₀ x; the
    label is therefore added by hand (``add_vline(annotation=...)`` would put it at 10^x and
    stretch the axis).
    """
    figure.add_vline(x=x, line=dict(color=color, width=width, dash=dash))
    figure.add_annotation(
        x=math.log10(x) if log_x else x,
        xref="x",
        y=1.0,
        yref="paper",
        yanchor="bottom",
        showarrow=False,
        text=label,
        font=dict(size=FONT_SIZE - 1),
    )
    return figure


def horizontal_marker(
    figure: go.Figure,
    y: float,
    label: str | None,
    *,
    log_y: bool,
    color: str = CURRENT_COLOR,
    dash: str = "dash",
    width: float = 1.5,
) -> go.Figure:
    """A horizontal line at y, labelled at the right end (log-axis aware, as :func:`vertical_marker`)."""
    figure.add_hline(y=y, line=dict(color=color, width=width, dash=dash))
    if label:
        figure.add_annotation(
            y=math.log10(y) if log_y else y,
            yref="y",
            x=1.0,
            xref="paper",
            xanchor="right",
            yanchor="bottom",
            showarrow=False,
            text=label,
            font=dict(size=FONT_SIZE - 1),
        )
    return figure


def mark_current_x(figure: go.Figure, x: float, label: str) -> go.Figure:
    """A dashed vertical line at the current value of the x quantity, labelled at the top.

    Call it after :func:`apply_layout`: whether the x axis is logarithmic is read from the figure
    (a ``go.Figure``, or a light figure whose layout is a plain dict).
    """
    layout = figure.layout
    axis_type = layout.get("xaxis", {}).get("type") if isinstance(layout, dict) else layout.xaxis.type
    return vertical_marker(figure, x, label, log_x=axis_type == "log")


_TAG = re.compile(r"<[^>]+>")


def plain_text(text: str | None) -> str:
    """A title without Plotly's HTML tags (``<b>``, ``<br>``), for CSV column names.

    Examples
    --------
    >>> plain_text("σ<sub>coord</sub><br>(std)")
    'σcoord (std)'
    """
    if not text:
        return ""
    return _TAG.sub("", text.replace("<br>", " ")).strip()


def figure_frame(figure: go.Figure) -> pd.DataFrame:
    """Every trace of ``figure`` as rows of one long table: series, x, y (exact values).

    The x and y columns are named after the axis titles. Points a chart leaves out (an invalid
    region, NaN) stay as empty cells, so the CSV shows where a guarantee does not hold.
    """
    x_name = plain_text(figure.layout.xaxis.title.text) or "x"
    y_name = plain_text(figure.layout.yaxis.title.text) or "y"
    if x_name == y_name:
        y_name = f"{y_name} (y)"
    pieces = []
    for trace in figure.data:
        if getattr(trace, "x", None) is None or getattr(trace, "y", None) is None:
            continue
        x = np.asarray(trace.x, dtype=float).ravel()
        y = np.asarray(trace.y, dtype=float).ravel()
        pieces.append(pd.DataFrame({"series": trace.name or "", x_name: x, y_name: y}))
    if not pieces:
        return pd.DataFrame(columns=["series", x_name, y_name])
    return pd.concat(pieces, ignore_index=True)


def core_ids(values: Mapping[str, np.ndarray], mechanisms: Mapping, *, spread: float | None = None) -> list[str]:
    """The mechanisms whose curves set a chart's default range: proven ones, near the default mechanism's.

    A "claimed" mechanism never sets the range. With ``spread``, a proven curve whose largest value
    is more than ``spread`` times the default mechanism's (MVG at 1e24 against the Gaussian's 1e7)
    is an outlier too; without a default mechanism among ``values`` every proven one counts.
    """
    proven = [key for key in values if mechanisms[key].guarantee != "claimed" and np.isfinite(values[key]).any()]
    reference = next((key for key in proven if getattr(mechanisms[key], "is_default", False)), None)
    if spread is None or reference is None:
        return proven
    limit = float(np.nanmax(values[reference])) * spread
    return [key for key in proven if float(np.nanmax(values[key])) <= limit]


def keep_in_view(
    figure: go.Figure,
    values: Mapping[str, np.ndarray],
    names: Mapping[str, str],
    core: Sequence[str],
    *,
    log_y: bool,
    mark_below: bool = False,
) -> list[str]:
    """Set the y axis to the ``core`` curves' region and name, at the top edge, every curve that leaves it.

    The default view then shows the useful region of the proven mechanisms; an outlier (R1SMG's
    spike, MVG's 1e24) is marked "off the top" with its largest value, and a double click on the
    chart shows everything. With ``mark_below`` (a log axis), a curve that falls below the region
    is named at the bottom edge too, with its smallest value. Returns the ids marked. Values are
    arrays of y (NaN where not drawn).
    """
    kept = [np.asarray(values[key], dtype=float) for key in core]
    kept = np.concatenate([v[np.isfinite(v) & ((v > 0) if log_y else True)] for v in kept]) if kept else np.array([])
    if kept.size == 0:
        return []
    high = float(kept.max())
    floor = -math.inf
    if log_y:
        low = float(kept.min())
        top = math.log10(high) + 0.3
        figure.update_yaxes(range=[math.log10(low) - 0.3, top])
        limit = 10.0**top
        floor = 10.0 ** (math.log10(low) - 0.3) if mark_below else -math.inf
    else:
        bottom = min(0.0, float(kept.min()))
        limit = high * 1.12
        figure.update_yaxes(range=[bottom, limit])
    above, below = [], []
    for key, series in values.items():
        series = np.asarray(series, dtype=float)
        if key in core or not np.isfinite(series).any():
            continue
        if float(np.nanmax(series)) > limit:
            above.append(key)
        positive = series[np.isfinite(series) & (series > 0)]
        if positive.size and float(positive.min()) < floor:
            below.append(key)
    from ..format import format_number

    def note(heading: str, keys: list[str], extreme, y: float, anchor: str) -> None:
        text = (
            f"{heading}: "
            + "<br>".join(f"{names[key]} ({extreme(key)})" for key in keys)
            + "<br><i>double-click the chart to see all</i>"
        )
        figure.add_annotation(
            text=text,
            xref="paper",
            yref="paper",
            x=0.01,
            y=y,
            xanchor="left",
            yanchor=anchor,
            showarrow=False,
            font=dict(size=FONT_SIZE - 2, color=TEXT_COLOR),
            bgcolor="rgba(255,255,255,0.9)",
            bordercolor=TEXT_COLOR,
            borderwidth=1,
        )

    if above:
        note("Off the top", above, lambda key: f"up to {format_number(float(np.nanmax(values[key])))}", 0.99, "top")
    if below:

        def smallest(key: str) -> str:
            series = np.asarray(values[key], dtype=float)
            return f"down to {format_number(float(series[np.isfinite(series) & (series > 0)].min()))}"

        note("Off the bottom", below, smallest, 0.01, "bottom")
    return above + [key for key in below if key not in above]


# The legend's groups, in order: what a reader compares first, then the rest, then what is not proven.
LEGEND_GROUPS = {
    "gaussian": "Gaussian calibrations",
    "other": "Other families",
    "claimed": "Claimed only, not proven",
}


def legend_group(mechanism) -> str:
    """The legend group of a mechanism, from registry facts: its guarantee kind, then its family."""
    if mechanism.guarantee == "claimed":
        return "claimed"
    return "gaussian" if getattr(mechanism, "family", "") == "gaussian" else "other"


def grouped_legend_below(figure: go.Figure, *, height: int | None = None) -> go.Figure:
    """A legend under the plot in titled groups (:data:`LEGEND_GROUPS`), so the plot keeps its full width.

    Traces are placed in groups with ``legendgroup=legend_group(m)`` and
    ``legendgrouptitle_text=LEGEND_GROUPS[...]``; a click hides one curve, not its group.
    """
    updates = dict(
        legend=dict(
            orientation="h",
            yanchor="top",
            y=-0.17,
            x=0.0,
            xanchor="left",
            traceorder="grouped",
            groupclick="toggleitem",
            title=dict(text=""),
            font=dict(size=FONT_SIZE - 2),
            grouptitlefont=dict(size=FONT_SIZE - 2, color=TEXT_COLOR),
        ),
        margin=dict(b=40),
    )
    if height is not None:
        updates["height"] = height
    return update_layout_quickly(figure, updates)


def grouped_legend_beside(figure: go.Figure) -> go.Figure:
    """A legend right of the plot in titled groups (:data:`LEGEND_GROUPS`), one entry per line, so the plot
    keeps its height when the chart follows a projector's window (1280×620); a click hides one curve.
    """
    return update_layout_quickly(
        figure,
        dict(
            legend=dict(
                orientation="v",
                yanchor="top",
                y=1.0,
                x=1.02,
                xanchor="left",
                traceorder="grouped",
                groupclick="toggleitem",
                tracegroupgap=4,
                title=dict(text=""),
                font=dict(size=FONT_SIZE - 3),
                grouptitlefont=dict(size=FONT_SIZE - 3, color=TEXT_COLOR),
            ),
        ),
    )


def coinciding_curves(curves: Mapping[str, np.ndarray], mechanisms: Mapping, rel_tol: float = 1e-9) -> dict[str, str]:
    """Curves that lie exactly on another (GG with p = 2 on the analytic Gaussian): ``{hidden id: visible id}``.

    Two curves coincide when they are finite at the same points and equal there to a relative
    ``rel_tol``. Of two coinciding curves the one a reader knows stays visible (the registry's
    default, then a featured one, then registry order), as in :func:`gaussmech_ui.claims.ranking.familiar_order`.
    """
    from ..claims.ranking import familiar_order

    keys = [key for key in curves if np.isfinite(np.asarray(curves[key], dtype=float)).any()]
    order = familiar_order(keys, mechanisms)
    result: dict[str, str] = {}
    for index, key in enumerate(order):
        if key in result:
            continue
        base = np.asarray(curves[key], dtype=float)
        for other in order[index + 1 :]:
            if other in result:
                continue
            values = np.asarray(curves[other], dtype=float)
            same_points = np.array_equal(np.isfinite(base), np.isfinite(values))
            finite = np.isfinite(base)
            if same_points and np.allclose(values[finite], base[finite], rtol=rel_tol, atol=0.0):
                result[other] = key
    return result


def frame_rows(frame: pd.DataFrame) -> list[dict]:
    """The rows of a small table as plain dicts, as ``frame.to_dict("records")`` gives them.

    Built from each column's ``tolist()`` (Python scalars, as ``to_dict`` boxes them): ``iterrows``
    builds a pandas Series per row, and ``to_dict`` boxes every cell on its own (3 ms of an
    Accuracy rerun, half of the Overview's table and captions).
    """
    names = list(frame.columns)
    columns = [frame[name].tolist() for name in names]
    return [dict(zip(names, values)) for values in zip(*columns)]
