"""What the denoising lab shows, built from numbers: its charts, its tables and its captions.

Pure functions (no ``st.*``): arrays, core results (:class:`~gaussmech_core.histogram.SweepResult`,
:class:`~gaussmech_core.histogram.NoiseCalibration`) and the mechanism registry in; a
``go.Figure``, a pandas frame or a sentence out.

* :func:`comparison_figure`: true, released and denoised values side by side (three stacked bar
  panels on one scale, or three heat maps on one colour scale);
* :func:`error_figure`: the error of every bin before and after denoising, on its own scale, so
  noise too small to see next to large counts is still visible (USERS.md, item 4);
* :func:`sweep_figure`: error against ε for each mechanism × pipeline, mean over R seeded
  releases with a quantile band (Balle & Wang 2018, figures 1 right and 4);
* :func:`metrics_frames`, :func:`values_frame`, :func:`published_frame`, :func:`sweep_frame`:
  the tables and the CSV downloads;
* :func:`release_caption`, :func:`sweep_caption`: plain-language sentences made from the numbers.

The three charts are light figures (:mod:`~gaussmech_ui.figures.light`), built afresh on every
rerun and not kept by :func:`~gaussmech_ui.figures.built_once.built_once`: a light build takes
less than that cache's hit (the three-panel bar chart of 1,000 bins: 2 ms against 3 ms, 32 ms
validated; a 400 × 400 grid's heat maps: 22 ms against 40 ms), and each student's upload would
miss it anyway.

``mechanisms`` is the registry (:data:`gaussmech_core.mechanisms.MECHANISMS`) or any mapping from
id to objects with ``name`` and ``color``; the release mechanisms of
:data:`gaussmech_core.histogram.RELEASE_MECHANISMS` share their ids with it.
"""

from __future__ import annotations

import html
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from gaussmech_core.denoise import DENOISERS
from gaussmech_core.histogram import METRICS, improvement_factor

from ..claims.denoising import default_estimator_for, helping_step
from ..format import format_number, format_percent, format_ratio
from . import light
from .common import FONT_SIZE, LINE_WIDTH, TEXT_COLOR, apply_layout, mark_current_x, update_layout_quickly

__all__ = [
    "TRUE_COLOR",
    "DENOISED_COLOR",
    "MAX_BARS",
    "MAX_HEATMAP_SIDE",
    "METRIC_AXIS_TITLES",
    "pipeline_label",
    "mechanism_label",
    "sensitivity_text",
    "relative_error",
    "bar_window",
    "comparison_figure",
    "error_figure",
    "values_frame",
    "published_frame",
    "metrics_frames",
    "release_caption",
    "sweep_figure",
    "sweep_frame",
    "sweep_caption",
    "improvement_at",
    "metric_name",
    "ESTIMATOR_STEPS",
    "applicable_metrics",
    "step_fits",
    "default_estimator",
    "sweep_pipelines",
    "calibration_sentence",
    "title_setting",
    "preview_frame",
    "html_escape",
    "link_problems",
]

TRUE_COLOR = "#7F7F7F"
# Okabe–Ito reddish purple: distinct from every release mechanism's registry colour.
DENOISED_COLOR = "#CC79A7"
# A bar chart draws at most this many bins at once (a window onto larger histograms).
MAX_BARS = 2000
# A heat map side above this is shown averaged over square blocks (the browser draws ≤ 200 × 200).
MAX_HEATMAP_SIDE = 200

METRIC_AXIS_TITLES = {
    "mse": "MSE per bin, ‖θ̂ − θ‖²/d",
    "l1": "l1 distance ‖θ̂ − θ‖₁",
    "kl": "KL(θ ‖ θ̂) of the normalised histograms",
    "max": "max error ‖θ̂ − θ‖∞",
}
# What the relative version of each metric is called (see :func:`relative_error`).
_RELATIVE = {
    "mse": ("relative l2 error", "‖θ̂ − θ‖₂/‖θ‖₂"),
    "l1": ("relative l1 error", "‖θ̂ − θ‖₁/‖θ‖₁"),
    "max": ("relative max error", "max error / max |θ|"),
}
# Line dash per pipeline: the raw release dotted, the chosen pipeline solid, the others cycle.
_RAW_DASH = "dot"
_PIPELINE_DASHES = ("solid", "dash", "dashdot", "longdash", "longdashdot")
_BAND_OPACITY = 0.14


# --- words -------------------------------------------------------------------------------------


def pipeline_label(steps: Sequence[str]) -> str:
    """A pipeline in words: ``"raw release (no denoising)"`` or the steps joined by arrows.

    Examples
    --------
    >>> pipeline_label(())
    'raw release (no denoising)'
    >>> pipeline_label(("soft_threshold", "simplex"))
    'Soft thresholding → Project onto counts with total n'
    """
    steps = [step for step in steps if step != "none"]
    if not steps:
        return "raw release (no denoising)"
    return " → ".join(DENOISERS[step].name for step in steps)


def mechanism_label(mechanism, order: float | None = None) -> str:
    """A mechanism's name, with its order p for the generalized Gaussian.

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> mechanism_label(MECHANISMS["generalized_gaussian"], 3.0)
    'Generalized Gaussian GG(p = 3)'
    """
    name = mechanism.name
    if order is not None and "GG(p)" in name:
        return name.replace("GG(p)", f"GG(p = {format_number(order)})")
    return name


def sensitivity_text(l2_sensitivity: float, l1_sensitivity: float) -> str:
    """``Δ₂ = 1, Δ₁ = 1`` for captions and titles.

    Examples
    --------
    >>> sensitivity_text(2 ** 0.5, 2.0)
    'Δ₂ = 1.41, Δ₁ = 2'
    """
    return f"Δ₂ = {format_number(l2_sensitivity)}, Δ₁ = {format_number(l1_sensitivity)}"


def relative_error(metric: str, value, truth: np.ndarray):
    """A metric's value relative to the size of the data (NaN where that size is 0 or undefined).

    * ``mse``: ``√(MSE / mean θ²) = ‖θ̂ − θ‖₂/‖θ‖₂``, the relative l2 error;
    * ``l1``: ``‖θ̂ − θ‖₁/‖θ‖₁`` (for a histogram, the share of the total misplaced);
    * ``max``: ``max error / max |θ|``;
    * ``kl``: already relative (a divergence of distributions): NaN.

    Examples
    --------
    >>> relative_error("mse", 4.0, np.array([3.0, 4.0, 0.0, 0.0]))  # ‖e‖² = 4 × 4 bins, ‖θ‖² = 25
    0.8
    >>> relative_error("l1", np.array([1.0, 7.0]), np.array([3.0, 4.0, 0.0, 0.0]))
    array([0.14285714, 1.        ])
    """
    values = np.asarray(value, dtype=float)
    flat = np.abs(np.asarray(truth, dtype=float)).reshape(-1)
    if metric == "mse":
        size = float(np.mean(flat**2)) if flat.size else 0.0
        result = np.sqrt(values / size) if size > 0 else np.full(values.shape, np.nan)
    elif metric == "l1":
        size = float(flat.sum())
        result = values / size if size > 0 else np.full(values.shape, np.nan)
    elif metric == "max":
        size = float(flat.max()) if flat.size else 0.0
        result = values / size if size > 0 else np.full(values.shape, np.nan)
    else:
        result = np.full(values.shape, np.nan)
    return float(result) if result.ndim == 0 else result


def _safe_improvement(raw: float, denoised: float) -> float:
    if not (math.isfinite(raw) and math.isfinite(denoised)):
        return float("nan")
    return improvement_factor(max(raw, 0.0), max(denoised, 0.0))


# --- side by side ----------------------------------------------------------------------------------


def bar_window(bins: int, first_bin: int, width: int = MAX_BARS) -> slice:
    """The bins a bar chart shows: ``width`` bins from ``first_bin`` (1-based), kept inside the data.

    Examples
    --------
    >>> bar_window(10, 1), bar_window(5000, 4500), bar_window(5000, 1)
    (slice(0, 10, None), slice(3000, 5000, None), slice(0, 2000, None))
    """
    width = max(1, int(width))
    start = min(max(int(first_bin) - 1, 0), max(int(bins) - width, 0))
    return slice(start, min(int(bins), start + width))


def _block_mean(grid: np.ndarray, factor: int) -> np.ndarray:
    """Average over ``factor × factor`` blocks (the last blocks may be partial)."""
    if factor <= 1:
        return grid
    rows, cols = grid.shape
    padded = np.full((-(-rows // factor) * factor, -(-cols // factor) * factor), np.nan)
    padded[:rows, :cols] = grid
    blocks = padded.reshape(padded.shape[0] // factor, factor, padded.shape[1] // factor, factor)
    counts = np.sum(~np.isnan(blocks), axis=(1, 3))
    return np.nansum(blocks, axis=(1, 3)) / counts


def _display_factor(shape) -> int:
    return max(1, math.ceil(max(shape) / MAX_HEATMAP_SIDE))


def _axis_ticks(labels, count: int) -> dict:
    """Tick labels from the data's labels when there are few enough to read."""
    if labels is None or count > 30:
        return {}
    return dict(tickmode="array", tickvals=list(range(1, count + 1)), ticktext=[html_escape(label) for label in labels])


# Hover labels are fixed-width string arrays (dtype str), not object arrays: go.Figure and
# to_dict deep-copy a trace's arrays, an object array string by string (a 200 × 200 grid's three
# heat maps: 120,000 strings, about 10 ms per copy), a fixed-width one as one block.


def _bin_labels(labels, window: slice, count: int) -> np.ndarray:
    if labels is None:
        return np.array([str(i) for i in range(window.start + 1, window.start + count + 1)], dtype=str)
    return np.array([html_escape(label) for label in labels[window]], dtype=str)


def comparison_figure(
    truth: np.ndarray,
    released: np.ndarray,
    denoised: np.ndarray,
    *,
    title: str,
    released_name: str,
    denoised_name: str,
    released_color: str,
    labels=None,
    row_labels=None,
    column_labels=None,
    first_bin: int = 1,
    value_name: str = "count",
    first_row_at_bottom: bool = False,
    row_axis_title: str = "row",
) -> go.Figure:
    """True, released and denoised values side by side, on one common scale.

    1-D: three stacked bar panels sharing both axes (bins ``first_bin`` onwards, at most
    :data:`MAX_BARS`). 2-D: three heat maps in a row with one colour scale; grids wider than
    :data:`MAX_HEATMAP_SIDE` are drawn averaged over square blocks (said in the panel titles).
    The true values are labelled as shown only for teaching. Built as a light figure
    (:mod:`~gaussmech_ui.figures.light`).
    """
    truth, released, denoised = (np.asarray(a, dtype=float) for a in (truth, released, denoised))
    names = (f"True {value_name}s (shown only in this teaching lab)", released_name, denoised_name)
    if truth.ndim == 2:
        figure = _comparison_heatmaps(truth, released, denoised, names, title, row_labels, column_labels, value_name)
        return light.finished(
            _grid_axes(figure, truth.shape, row_labels, column_labels, first_row_at_bottom, row_axis_title)
        )
    window = bar_window(truth.size, first_bin)
    x = np.arange(window.start + 1, window.stop + 1)
    hover_labels = _bin_labels(labels, window, x.size)
    figure = light.new_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.07, subplot_titles=names)
    for row, (name, values, color) in enumerate(
        zip(names, (truth, released, denoised), (TRUE_COLOR, released_color, DENOISED_COLOR)), start=1
    ):
        figure.add_trace(
            dict(
                type="bar",
                x=x,
                y=values[window],
                name=name,
                marker=dict(color=color, line=dict(width=0)),
                customdata=hover_labels,
                hovertemplate=f"<b>{name}</b><br>bin %{{customdata}}<br>{value_name} = %{{y:.10g}}<extra></extra>",
            ),
            row=row,
            col=1,
        )
    shown = np.concatenate([values[window] for values in (truth, released, denoised)])
    low, high = float(np.min(shown, initial=0.0)), float(np.max(shown, initial=0.0))
    pad = 0.05 * (high - low) or 1.0
    apply_layout(figure, title=title, x_title="bin", y_title=value_name, height=720)
    update_layout_quickly(figure, showlegend=False, bargap=0.1)
    figure.update_yaxes(range=[min(low, 0.0) - pad, high + pad], title_text="")
    figure.update_yaxes(matches="y", title_text=value_name, row=2, col=1)
    figure.update_yaxes(matches="y", row=3, col=1)
    figure.update_xaxes(title_text="", **_axis_ticks(labels, x.size))
    figure.update_xaxes(title_text=_bin_axis_title(window, truth.size), row=3, col=1)
    return light.finished(_style_subplot_titles(figure))


def _bin_axis_title(window: slice, bins: int) -> str:
    if window.stop - window.start >= bins:
        return "bin"
    return f"bin (showing {window.start + 1:,}–{window.stop:,} of {bins:,})"


def _style_subplot_titles(figure):
    """The panel titles in the text colour at the base font size (Plotly draws them at 16 px, default colour)."""
    titles = figure.layout.to_plotly_json().get("annotations") or ()
    font = dict(size=FONT_SIZE, color=TEXT_COLOR)
    return update_layout_quickly(figure, annotations=[{**dict(title), "font": font} for title in titles])


def _grid_hover(row_labels, column_labels, shape, factor: int) -> np.ndarray:
    rows = (
        [html_escape(label) for label in row_labels]
        if row_labels is not None
        else [str(i + 1) for i in range(shape[0])]
    )
    cols = (
        [html_escape(label) for label in column_labels]
        if column_labels is not None
        else [str(j + 1) for j in range(shape[1])]
    )
    if factor > 1:
        rows = [f"{rows[i]}–{rows[min(i + factor, shape[0]) - 1]}" for i in range(0, shape[0], factor)]
        cols = [f"{cols[j]}–{cols[min(j + factor, shape[1]) - 1]}" for j in range(0, shape[1], factor)]
    return np.array([[f"row {r}, column {c}" for c in cols] for r in rows], dtype=str)


def _heatmap_row(names, grids, hover, quantity: str, *, spacing: float):
    """Heat maps side by side, one per (name, grid), sharing one colour axis and the cell hover (a light figure)."""
    figure = light.new_subplots(rows=1, cols=len(grids), horizontal_spacing=spacing, subplot_titles=names)
    for col, (name, values) in enumerate(zip(names, grids), start=1):
        figure.add_trace(
            dict(
                type="heatmap",
                z=values,
                x=np.arange(1, values.shape[1] + 1),
                y=np.arange(1, values.shape[0] + 1),
                coloraxis="coloraxis",
                name=name,
                customdata=hover,
                hovertemplate=f"<b>{name}</b><br>%{{customdata}}<br>{quantity} = %{{z:.10g}}<extra></extra>",
            ),
            row=1,
            col=col,
        )
    # The panels show the same rows: their numbers once, on the left, so that on a narrow screen
    # one panel's numbers do not run into its neighbour (the hover still names the row).
    for col in range(2, len(grids) + 1):
        figure.update_yaxes(showticklabels=False, row=1, col=col)
    return figure


def _comparison_heatmaps(truth, released, denoised, names, title, row_labels, column_labels, value_name) -> go.Figure:
    factor = _display_factor(truth.shape)
    shown = [_block_mean(values, factor) for values in (truth, released, denoised)]
    # Three maps in a row leave room for short panel titles only; the details go under the title.
    title = f"{title}<br><sup>{names[1]}; {names[2]}</sup>"
    names = (f"True {value_name}s (teaching lab only)", names[1].split(":")[0], names[2].split(":")[0])
    if factor > 1:
        names = tuple(f"{name} (mean of {factor}×{factor} cells)" for name in names)
    hover = _grid_hover(row_labels, column_labels, truth.shape, factor)
    figure = _heatmap_row(names, shown, hover, value_name, spacing=0.04)
    low = float(min(np.nanmin(values) for values in shown))
    high = float(max(np.nanmax(values) for values in shown))
    apply_layout(figure, title=title, x_title="column", y_title="row", height=520)
    update_layout_quickly(
        figure,
        # Three title lines (the title, the setting, the two pipelines) above the panels' own titles.
        margin=dict(t=112),
        coloraxis=dict(
            colorscale=light.colorscale("Viridis"),
            cmin=low,
            cmax=high if high > low else low + 1.0,
            colorbar=dict(title=dict(text=value_name), thickness=18),
        ),
        showlegend=False,
    )
    figure.update_xaxes(showgrid=False, constrain="domain")
    figure.update_yaxes(showgrid=False, title_text="")
    return _style_subplot_titles(figure)


def _short_labels(labels, most: int) -> bool:
    return labels is not None and len(labels) <= most and max((len(str(label)) for label in labels), default=0) <= 8


def _grid_axes(figure: go.Figure, shape, row_labels, column_labels, first_row_at_bottom: bool, row_axis_title: str):
    """The grid drawn as its data lays it out: the first row on top (a file's order) unless it is a map's
    southernmost row, and the rows and columns named by the data's own labels when they are few enough to read."""
    factor = _display_factor(shape)
    figure.update_yaxes(autorange=True if first_row_at_bottom else "reversed")
    figure.update_yaxes(title_text=row_axis_title, row=1, col=1)
    # The data's own labels as ticks where they fit (short, and few: three panels side by side);
    # long ones (a map's coordinates) would run into the axis title: the hover names every cell.
    if factor == 1 and _short_labels(row_labels, 30):
        figure.update_yaxes(
            tickmode="array", tickvals=list(range(1, shape[0] + 1)), ticktext=[html_escape(x) for x in row_labels]
        )
    if factor == 1 and _short_labels(column_labels, 12):
        figure.update_xaxes(
            tickmode="array", tickvals=list(range(1, shape[1] + 1)), ticktext=[html_escape(x) for x in column_labels]
        )
    return figure


def error_figure(
    truth: np.ndarray,
    released: np.ndarray,
    denoised: np.ndarray,
    *,
    title: str,
    released_name: str,
    denoised_name: str,
    released_color: str,
    labels=None,
    row_labels=None,
    column_labels=None,
    first_bin: int = 1,
    first_row_at_bottom: bool = False,
    row_axis_title: str = "row",
) -> go.Figure:
    """The error of each bin, ``released − true`` and ``denoised − true``, on its own scale.

    1-D: two marker series over the bins (the window of :func:`comparison_figure`). 2-D: two
    heat maps with one diverging colour scale centred on 0. Built as a light figure
    (:mod:`~gaussmech_ui.figures.light`).
    """
    truth, released, denoised = (np.asarray(a, dtype=float) for a in (truth, released, denoised))
    errors = (released - truth, denoised - truth)
    names = (f"{released_name}: error", f"{denoised_name}: error")
    if truth.ndim == 2:
        factor = _display_factor(truth.shape)
        shown = [_block_mean(values, factor) for values in errors]
        hover = _grid_hover(row_labels, column_labels, truth.shape, factor)
        figure = _heatmap_row(names, shown, hover, "error", spacing=0.06)
        largest = float(max(np.nanmax(np.abs(values)) for values in shown)) or 1.0
        apply_layout(figure, title=title, x_title="column", y_title="row", height=500)
        update_layout_quickly(
            figure,
            coloraxis=dict(
                colorscale=light.colorscale("RdBu"),
                reversescale=True,
                cmin=-largest,
                cmax=largest,
                colorbar=dict(title=dict(text="error"), thickness=18),
            ),
            showlegend=False,
        )
        figure.update_xaxes(showgrid=False)
        figure.update_yaxes(showgrid=False, title_text="")
        return light.finished(
            _grid_axes(
                _style_subplot_titles(figure),
                truth.shape,
                row_labels,
                column_labels,
                first_row_at_bottom,
                row_axis_title,
            )
        )
    window = bar_window(truth.size, first_bin)
    x = np.arange(window.start + 1, window.stop + 1)
    hover_labels = _bin_labels(labels, window, x.size)
    figure = light.new_figure()
    for name, values, color, symbol in zip(names, errors, (released_color, DENOISED_COLOR), ("circle", "diamond")):
        figure.add_trace(
            dict(
                type="scatter",
                x=x,
                y=values[window],
                name=name,
                mode="markers",
                marker=dict(color=color, size=6 if x.size > 200 else 9, symbol=symbol, opacity=0.85),
                customdata=hover_labels,
                hovertemplate=f"<b>{name}</b><br>bin %{{customdata}}<br>error = %{{y:.10g}}<extra></extra>",
            )
        )
    figure.add_hline(y=0.0, line=dict(color=TEXT_COLOR, width=1))
    apply_layout(
        figure, title=title, x_title=_bin_axis_title(window, truth.size), y_title="error (estimate − true)", height=460
    )
    figure.update_xaxes(**_axis_ticks(labels, x.size))
    update_layout_quickly(figure, legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0.0))
    return light.finished(figure)


# --- tables and downloads --------------------------------------------------------------------------


def values_frame(truth, released, denoised, *, labels=None, row_labels=None, column_labels=None) -> pd.DataFrame:
    """Every bin's true, released and denoised value and both errors (the charts' data, all bins).

    1-D: one row per bin (``bin`` = the label, or 1, 2, ...); 2-D: one row per cell (``row``,
    ``column``). Labels stay text; the download escapes formula-like cells.
    """
    truth, released, denoised = (np.asarray(a, dtype=float) for a in (truth, released, denoised))
    columns = {
        "true": truth,
        "released": released,
        "denoised": denoised,
        "released error": released - truth,
        "denoised error": denoised - truth,
    }
    return _long_frame(columns, labels, row_labels, column_labels)


def published_frame(released, denoised, *, labels=None, row_labels=None, column_labels=None) -> pd.DataFrame:
    """The released and the denoised histogram: what may be published (no true values)."""
    columns = {"released": np.asarray(released, dtype=float), "denoised": np.asarray(denoised, dtype=float)}
    return _long_frame(columns, labels, row_labels, column_labels)


def _long_frame(columns, labels, row_labels, column_labels) -> pd.DataFrame:
    shape = next(iter(columns.values())).shape
    if len(shape) == 2:
        rows, cols = shape
        row_names = list(row_labels) if row_labels is not None else list(range(1, rows + 1))
        col_names = list(column_labels) if column_labels is not None else list(range(1, cols + 1))
        table = {
            "row": np.repeat(np.array(row_names, dtype=object), cols),
            "column": np.tile(np.array(col_names, dtype=object), rows),
        }
    else:
        table = {"bin": list(labels) if labels is not None else list(range(1, shape[0] + 1))}
    table.update({name: values.reshape(-1) for name, values in columns.items()})
    return pd.DataFrame(table)


def metrics_frames(truth, raw_metrics: Mapping[str, float], denoised_metrics: Mapping[str, float]):
    """The metrics table: an exact frame (for the CSV) and a display frame (3 significant digits).

    Rows: every metric of :data:`~gaussmech_core.histogram.METRICS` (Liu's l1 and KL, MSE, max
    error), then the relative l2 and l1 errors. Columns: the released (raw) value, the denoised
    value and the improvement factor raw/denoised (above 1: denoising helped). KL is "—" when
    the data are not a histogram (negative values or a zero total).
    """
    rows = []
    for metric_id, metric in METRICS.items():
        raw, denoised = float(raw_metrics.get(metric_id, math.nan)), float(denoised_metrics.get(metric_id, math.nan))
        rows.append((metric.name, metric.description, raw, denoised, _safe_improvement(raw, denoised)))
    for metric_id in ("mse", "l1"):
        raw = relative_error(metric_id, float(raw_metrics[metric_id]), truth)
        denoised = relative_error(metric_id, float(denoised_metrics[metric_id]), truth)
        name, meaning = _RELATIVE[metric_id]
        rows.append((name, meaning, raw, denoised, _safe_improvement(raw, denoised)))
    exact = pd.DataFrame(rows, columns=["metric", "what it measures", "released", "denoised", "improvement"])
    display = exact.copy()
    relative = display["metric"].str.startswith("relative")
    for column in ("released", "denoised"):
        display[column] = [
            format_percent(value, 3) if is_relative and math.isfinite(value) else format_number(value)
            for value, is_relative in zip(exact[column], relative)
        ]
    display["improvement"] = [format_ratio(value) if math.isfinite(value) else "—" for value in exact["improvement"]]
    display.columns = ["Metric", "What it measures", "Released (raw)", "Denoised", "Improvement (raw ÷ denoised)"]
    return exact, display


# --- captions -------------------------------------------------------------------------------------


def release_caption(
    *,
    mechanism_name: str,
    epsilon: float,
    delta: float,
    noise_std: float,
    sensitivity_phrase: str,
    pure: bool,
    truth: np.ndarray,
    raw_metrics: Mapping[str, float],
    denoised_metrics: Mapping[str, float],
    steps: Sequence[str],
    value_name: str = "count",
) -> str:
    """What the release did and what denoising recovered, in plain words from the numbers."""
    privacy = f"ε = {format_number(epsilon)}" + ("" if pure else f", δ = {format_number(delta)}")
    raw_mse, denoised_mse = float(raw_metrics["mse"]), float(denoised_metrics["mse"])
    raw_relative = relative_error("mse", raw_mse, truth)
    parts = [
        f"{mechanism_name} at {privacy} adds noise of standard deviation {format_number(noise_std)} to every "
        f"{value_name} ({sensitivity_phrase}).",
        f"The released {value_name}s are off by {format_number(math.sqrt(raw_mse))} per bin (root mean squared error)"
        + (f", a relative l2 error of {format_percent(raw_relative, 3)}." if math.isfinite(raw_relative) else "."),
    ]
    largest = float(np.max(np.abs(truth))) if np.size(truth) else 0.0
    if largest > 0 and noise_std < 0.02 * largest:
        parts.append(
            f"That noise is under 2% of the largest {value_name} ({format_number(largest)}), too small to see next to "
            "the bars: the error chart below shows it on its own scale."
        )
    steps = [step for step in steps if step != "none"]
    if not steps:
        parts.append("No denoising is chosen: pick a step below to see how much post-processing removes.")
        return " ".join(parts)
    denoised_relative = relative_error("mse", denoised_mse, truth)
    after = f"After {pipeline_label(steps)}, the error is {format_number(math.sqrt(denoised_mse))} per bin"
    if math.isfinite(denoised_relative):
        after += f" ({format_percent(denoised_relative, 3)})"
    factor = _safe_improvement(raw_mse, denoised_mse)
    if not math.isfinite(factor) and denoised_mse == 0:
        after += ": denoising removed all of the error here, at no privacy cost."
    elif factor >= 1.005:
        after += f": the MSE is {format_ratio(factor)} smaller, at no privacy cost."
    elif factor > 1 / 1.005:
        after += ": about the same as the raw release."
    else:
        after += (
            f": the MSE is {format_ratio(1 / factor)} larger. This pipeline does not suit these data at this ε. "
            + (
                helping_step(steps, truth, bool(np.min(truth) >= 0), {k: d.name for k, d in DENOISERS.items()})
                or "Try another step, or a smaller ε."
            )
        )
    parts.append(after)
    return " ".join(parts)


# --- error against epsilon ---------------------------------------------------------------------------


def _rgba(hex_color: str, alpha: float) -> str:
    value = hex_color.lstrip("#")
    red, green, blue = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({red},{green},{blue},{alpha})"


def _pipeline_dash(index: int, steps) -> str:
    """The raw release dotted; denoised pipelines solid, dashed, ... in the order given."""
    if not steps:
        return _RAW_DASH
    return _PIPELINE_DASHES[max(index - 1, 0) % len(_PIPELINE_DASHES)]


def _positive(values: np.ndarray) -> np.ndarray:
    """Log axes cannot show 0 or negatives: such points are left out (NaN)."""
    return np.where(values > 0, values, np.nan)


def sweep_figure(
    sweeps: Sequence,
    mechanisms: Mapping,
    metric: str,
    *,
    truth: np.ndarray,
    title: str,
    current_epsilon: float,
    current: Sequence | None = None,
) -> go.Figure:
    """Error against ε for every mechanism × pipeline: mean over R releases and the quantile band.

    ``sweeps`` are :class:`~gaussmech_core.histogram.SweepResult` objects (one per mechanism on
    this page; any number of mechanisms each works). Colour = mechanism (registry colour), dash =
    pipeline (raw dotted). ``current``, if given, holds sweeps at the current ε alone, drawn as
    markers. Points where the mechanism is not valid are gaps; values of 0 cannot be drawn on the
    log axis and are gaps too (the CSV has them). Built as a light figure
    (:mod:`~gaussmech_ui.figures.light`).
    """
    figure = light.new_figure()
    axis_title = METRIC_AXIS_TITLES[metric]
    relative_name = _RELATIVE[metric][0] if metric in _RELATIVE else None
    for result in sweeps:
        k = result.metrics.index(metric)
        for m, (mechanism_id, order) in enumerate(zip(result.mechanisms, result.orders)):
            mechanism = mechanisms[mechanism_id]
            label = mechanism_label(mechanism, order if mechanism.uses_order else None)
            for p, steps in enumerate(result.pipelines):
                name = f"{label}, {pipeline_label(steps)}"
                group = f"{mechanism_id}-{p}"
                mean = result.mean[k, m, p]
                lower, upper = result.lower[k, m, p], result.upper[k, m, p]
                relative = relative_error(metric, mean, truth)
                figure.add_trace(
                    dict(
                        type="scatter",
                        x=result.epsilons,
                        y=_positive(upper),
                        mode="lines",
                        line=dict(width=0),
                        legendgroup=group,
                        showlegend=False,
                        hoverinfo="skip",
                        name=f"{name} (band top)",
                    )
                )
                figure.add_trace(
                    dict(
                        type="scatter",
                        x=result.epsilons,
                        y=_positive(lower),
                        mode="lines",
                        line=dict(width=0),
                        fill="tonexty",
                        fillcolor=_rgba(mechanism.color, _BAND_OPACITY),
                        legendgroup=group,
                        showlegend=False,
                        hoverinfo="skip",
                        name=f"{name} (band bottom)",
                    )
                )
                relative_hover = f"<br>{relative_name} = %{{customdata[2]:.3%}}" if relative_name else ""
                figure.add_trace(
                    dict(
                        type="scatter",
                        x=result.epsilons,
                        y=_positive(mean),
                        name=name,
                        legendgroup=group,
                        mode="lines+markers",
                        line=dict(color=mechanism.color, width=LINE_WIDTH, dash=_pipeline_dash(p, steps)),
                        marker=dict(size=6),
                        connectgaps=False,
                        customdata=np.column_stack([lower, upper, relative]),
                        hovertemplate=(
                            f"<b>{name}</b><br>ε = %{{x:.10g}}<br>{metric_name(metric)} = %{{y:.10g}}"
                            f"<br>{_band_words(result.band)}: %{{customdata[0]:.6g}} – %{{customdata[1]:.6g}}"
                            f"{relative_hover}<extra></extra>"
                        ),
                    )
                )
    for result in current or ():
        k = result.metrics.index(metric)
        for m, mechanism_id in enumerate(result.mechanisms):
            mechanism = mechanisms[mechanism_id]
            for p, steps in enumerate(result.pipelines):
                value = float(result.mean[k, m, p, 0])
                if not (math.isfinite(value) and value > 0):
                    continue
                figure.add_trace(
                    dict(
                        type="scatter",
                        x=[float(result.epsilons[0])],
                        y=[value],
                        mode="markers",
                        showlegend=False,
                        legendgroup=f"{mechanism_id}-{p}",
                        name=f"{mechanism.name}, {pipeline_label(steps)}, current ε",
                        marker=dict(
                            color=mechanism.color,
                            size=13,
                            symbol="circle" if steps else "circle-open",
                            line=dict(color=mechanism.color, width=2),
                        ),
                        hovertemplate=(
                            f"<b>{mechanism.name}, {pipeline_label(steps)}</b><br>current ε = %{{x:.10g}}"
                            f"<br>{metric_name(metric)} = %{{y:.10g}}<extra></extra>"
                        ),
                    )
                )
    apply_layout(
        figure,
        title=title,
        x_title="ε (privacy loss bound; smaller is more private)",
        y_title=axis_title,
        log_x=True,
        log_y=True,
        height=620 + 26 * len(figure.data) // 3,
    )
    mark_current_x(figure, current_epsilon, f"current ε = {format_number(current_epsilon)}")
    # The legend goes under the chart: its entries are long, and the chart keeps the full width.
    update_layout_quickly(figure, legend=dict(orientation="h", yanchor="top", y=-0.16, xanchor="left", x=0.0))
    return light.finished(figure)


def metric_name(metric: str) -> str:
    """The display name of a metric id (``"mse"`` → ``"MSE"``)."""
    return METRICS[metric].name


def _band_words(band) -> str:
    low, high = band
    return f"{format_number(100 * low)}–{format_number(100 * high)}% of releases"


def sweep_frame(sweeps: Sequence, mechanisms: Mapping) -> pd.DataFrame:
    """The sweeps as one long table: mechanism, pipeline, ε, metric, mean, std, band, noise std, valid."""
    rows = []
    for result in sweeps:
        low, high = result.band
        for m, (mechanism_id, order) in enumerate(zip(result.mechanisms, result.orders)):
            label = mechanism_label(mechanisms[mechanism_id], order if mechanisms[mechanism_id].uses_order else None)
            for p, steps in enumerate(result.pipelines):
                for k, metric in enumerate(result.metrics):
                    for e, epsilon in enumerate(result.epsilons):
                        rows.append(
                            {
                                "mechanism": label,
                                "pipeline": pipeline_label(steps),
                                "epsilon": float(epsilon),
                                "metric": METRICS[metric].name,
                                "mean": float(result.mean[k, m, p, e]),
                                "std across releases": float(result.std[k, m, p, e]),
                                f"quantile {format_number(low)}": float(result.lower[k, m, p, e]),
                                f"quantile {format_number(high)}": float(result.upper[k, m, p, e]),
                                "noise std": float(result.noise_std[m, e]),
                                "valid": bool(result.valid[m, e]),
                                "repetitions": int(result.repetitions),
                            }
                        )
    return pd.DataFrame(rows)


def improvement_at(result, metric: str, pipeline: int = 1) -> np.ndarray:
    """Raw error ÷ error after pipeline ``pipeline`` for each mechanism of ``result`` and each ε."""
    return result.improvement(metric, pipeline=pipeline, baseline=0)


def sweep_caption(
    sweeps: Sequence,
    mechanisms: Mapping,
    metric: str,
    *,
    current: Sequence | None = None,
    current_epsilon: float | None = None,
) -> str:
    """One line per mechanism (a markdown list): how much the chosen pipeline (index 1) cuts the
    error over the ε axis and at the current ε, and where a mechanism has no curve (its guarantee
    does not hold there). Empty when no denoising pipeline is compared.
    """
    sentences = []
    current_by_mechanism = {}
    for result in current or ():
        if len(result.pipelines) > 1:
            factors = improvement_at(result, metric)
            for m, mechanism_id in enumerate(result.mechanisms):
                current_by_mechanism[mechanism_id] = float(factors[m, 0])
    name = metric_name(metric)
    for result in sweeps:
        if len(result.pipelines) < 2:
            continue
        steps = pipeline_label(result.pipelines[1])
        factors = improvement_at(result, metric)
        for m, mechanism_id in enumerate(result.mechanisms):
            label = mechanism_label(
                mechanisms[mechanism_id], result.orders[m] if mechanisms[mechanism_id].uses_order else None
            )
            finite = factors[m][np.isfinite(factors[m])]
            if finite.size == 0:
                reason = result.reasons[m] or "no valid point on this axis"
                sentences.append(f"**{label}**: no curve ({reason}).")
                continue
            low, high = float(finite.min()), float(finite.max())
            spread = (
                format_ratio(low)
                if math.isclose(low, high, rel_tol=5e-3)
                else f"{format_ratio(low)} to {format_ratio(high)}"
            )
            valid = result.valid[m]
            epsilons = result.epsilons[valid]
            sentence = (
                f"**{label}**: {steps} divides the {name} by {spread} over ε from {format_number(epsilons.min())} "
                f"to {format_number(epsilons.max())}"
            )
            at_current = current_by_mechanism.get(mechanism_id)
            if at_current is not None and math.isfinite(at_current) and current_epsilon is not None:
                sentence += f", and by {format_ratio(at_current)} at the current ε = {format_number(current_epsilon)}"
            # Only a visible drop below 1 (after rounding to 3 digits) earns the warning.
            sentence += " (a factor below 1× means denoising made it worse)." if low < 0.995 else "."
            if not valid.all():
                gap = result.epsilons[~valid]
                sentence += (
                    f" No curve for ε from {format_number(gap.min())} to {format_number(gap.max())}: "
                    "the guarantee does not hold there."
                )
            sentences.append(sentence)
    return "\n".join(f"- {sentence}" for sentence in sentences)


# --- the page's choices ------------------------------------------------------------------------------

# Step-1 estimators in the order the page lists them ("none" first); the rest of a pipeline is
# made of the projections and the rounding.
ESTIMATOR_STEPS = (
    "none",
    "posterior_mean",
    "james_stein",
    "james_stein_plus",
    "james_stein_plus_mean",
    "empirical_bayes",
    "soft_threshold",
    "wavelet_soft_threshold",
)


def applicable_metrics(data) -> tuple[str, ...]:
    """The metric ids that apply to ``data``: KL only for a histogram (values >= 0, positive total).

    Examples
    --------
    >>> from gaussmech_ui.uploads import make_histogram_data
    >>> applicable_metrics(make_histogram_data([1.0, -2.0]))
    ('mse', 'l1', 'max')
    """
    counts = np.asarray(data.counts, dtype=float)
    is_histogram = bool(np.all(counts >= 0) and counts.sum() > 0)
    return tuple(metric for metric in METRICS if metric != "kl" or is_histogram)


def step_fits(denoiser, shape) -> bool:
    """Whether a denoising step can run on data of ``shape`` (a grid for "2d", enough bins).

    The prior is always available (the oracle's, or the one an example knows) and the total is
    handled by the page, so only the shape decides here.

    Examples
    --------
    >>> step_fits(DENOISERS["wavelet_soft_threshold"], (100,)), step_fits(DENOISERS["james_stein"], (2,))
    (False, False)
    """
    size = int(np.prod(shape))
    return ("2d" not in denoiser.requires or len(shape) == 2) and size >= denoiser.min_bins


def default_estimator(data, available: Sequence[str]) -> str:
    """The step-1 estimator a data set opens with, from its shape
    (:func:`gaussmech_ui.claims.denoising.default_estimator_for`): wavelets for a heat map, soft
    thresholding for a sparse histogram (Balle & Wang appendix B), none for a dense one (the
    projection of step 2 does the work), positive-part James–Stein for a mean.

    Examples
    --------
    >>> from gaussmech_ui.uploads import make_histogram_data
    >>> default_estimator(make_histogram_data([[1.0, 2.0], [3.0, 4.0]]), ESTIMATOR_STEPS)
    'wavelet_soft_threshold'
    """
    return default_estimator_for(data.kind, bool(data.nonnegative), np.asarray(data.counts), available)


def sweep_pipelines(steps: Sequence[str], estimators: Sequence[str], compare_all: bool) -> tuple[tuple[str, ...], ...]:
    """The pipelines of the error-against-ε chart: the raw release, the chosen pipeline, and, with
    ``compare_all``, every other available step-1 estimator followed by the same later steps.

    Examples
    --------
    >>> sweep_pipelines(("soft_threshold", "simplex"), ("none", "soft_threshold", "empirical_bayes"), True)
    ((), ('soft_threshold', 'simplex'), ('simplex',), ('empirical_bayes', 'simplex'))
    >>> sweep_pipelines((), ("none", "soft_threshold"), False)
    ((),)
    """
    pipelines = [()]
    if steps:
        pipelines.append(tuple(steps))
    if compare_all:
        later = tuple(step for step in steps if step not in ESTIMATOR_STEPS)
        for estimator in estimators:
            candidate = tuple(step for step in (estimator,) + later if step != "none")
            if candidate not in pipelines:
                pipelines.append(candidate)
    return tuple(pipelines)


def calibration_sentence(calibration, mechanism_name: str, scale_symbol: str) -> str:
    """The noise of a release in one sentence (markdown): its scale, its std and what it was calibrated on.

    Examples
    --------
    >>> from gaussmech_core.histogram import calibrate_histogram_noise
    >>> calibration_sentence(calibrate_histogram_noise("laplace", 0.5, 1e-5, "replace"), "Laplace", "b")
    '**Noise:** Laplace with b = 4, standard deviation 5.66 per coordinate, calibrated at Δ₁ = 2 (b = Δ₁/ε (pure ε-DP)); δ is not used.'
    """
    sentence = (
        f"**Noise:** {mechanism_name} with {scale_symbol} = {format_number(calibration.scale)}, standard deviation "
        f"{format_number(calibration.noise_std)} per coordinate, calibrated at {calibration.sensitivity_symbol} = "
        f"{format_number(calibration.sensitivity)} ({calibration.note})"
    )
    return sentence + ("; δ is not used." if math.isnan(calibration.delta) else ".")


def title_setting(setting, model, mechanism=None, draw: int | None = None) -> str:
    """The parameters of a chart in one line: ``ε = 1, δ = 1e-5, Δ₂ = 1, Δ₁ = 1, p = 2, seed 0``.

    ``mechanism`` is a registry entry (or None when several mechanisms may be shown); the order p
    is given when its noise has one (``uses_order``) or for several mechanisms.
    """
    parts = [
        f"ε = {format_number(setting.epsilon)}",
        f"δ = {format_number(setting.delta)}",
        sensitivity_text(model.l2_sensitivity, model.l1_sensitivity),
    ]
    if mechanism is None or mechanism.uses_order:
        parts.append(f"p = {format_number(setting.order)}")
    if draw is not None:
        parts.append(f"release seed {draw}")
    return ", ".join(parts)


def preview_frame(data, rows: int = 10, columns: int = 10) -> pd.DataFrame:
    """The first values read, as a small table (labels stay text)."""
    counts = np.asarray(data.counts, dtype=float)
    if counts.ndim == 2:
        shown = counts[:rows, :columns]
        names = (
            list(data.column_labels)[:columns] if data.column_labels is not None else list(range(1, shown.shape[1] + 1))
        )
        frame = pd.DataFrame(shown, columns=[str(name) for name in names])
        labels = data.row_labels[:rows] if data.row_labels is not None else list(range(1, shown.shape[0] + 1))
        frame.insert(0, "row", [str(label) for label in labels])
        return frame
    labels = data.labels[:rows] if data.labels is not None else list(range(1, min(rows, counts.size) + 1))
    return pd.DataFrame({"bin": [str(label) for label in labels], data.column or "count": counts[:rows]})


def html_escape(text: str) -> str:
    """Text from a file made inert in a Plotly title or hover label (which read a little HTML).

    Examples
    --------
    >>> html_escape("<b>x</b> & y")
    '&lt;b&gt;x&lt;/b&gt; &amp; y'
    """
    return html.escape(str(text), quote=False)


def _describe_rule(kind: str, allowed) -> str:
    if kind == "int":
        low, high = allowed
        return f"a whole number from {low:,} to {high:,}"
    if kind == "bool":
        return "true or false"
    return "one of " + ", ".join(f"'{value}'" for value in allowed)


def link_problems(query: Mapping[str, object], rules: Mapping[str, tuple]) -> list[str]:
    """One warning per page setting of a link that cannot be used (the page keeps its default there).

    ``rules`` maps a query key to ``(kind, allowed)``: ``("int", (low, high))``, ``("bool", ())`` or
    ``("choice", labels)``. Keys not in ``rules`` are left alone (the sidebar checks its own).

    Examples
    --------
    >>> rules = {"denoising_bins": ("int", (2, 1000)), "denoising_round": ("bool", ())}
    >>> link_problems({"denoising_bins": "abc", "denoising_round": "True", "epsilon": "x"}, rules)
    ["The link sets denoising_bins=abc, but it must be a whole number from 2 to 1,000. Using this page's default instead."]
    """
    problems = []
    for key, (kind, allowed) in rules.items():
        if key not in query:
            continue
        raw = query[key]
        if isinstance(raw, (list, tuple)):
            if not raw:
                continue
            raw = raw[-1]
        text = str(raw).strip()
        if kind == "int":
            try:
                number = float(text)
                fine = number.is_integer() and allowed[0] <= number <= allowed[1]
            except ValueError:
                fine = False
        elif kind == "bool":
            fine = text.lower() in ("true", "false")
        else:
            fine = text in allowed
        if not fine:
            problems.append(
                f"The link sets {key}={text[:60]}, but it must be {_describe_rule(kind, allowed)}. "
                "Using this page's default instead."
            )
    return problems
