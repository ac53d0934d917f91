"""Slide-ready figures: any chart as PNG (2×) or SVG, legend, title and setting line inside.

The camera button of a Plotly chart saves what the browser shows, which on a narrow screen cuts
the legend off and names the file after the title. This module makes the image on the server
with Plotly's own static export (kaleido, driving a headless Chromium):

* :func:`slide_figure` copies a figure and lays it out for a slide: fixed 1200-pixel width, the
  legend below the plot (always shown, inside the image), the title, and a subtitle with the
  page's setting line (the sidebar fields and own inputs it uses: :mod:`gaussmech_ui.page_facts`)
  so the image says what it shows;
* :func:`figure_file_name` builds ``gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.svg`` from the
  chart's name and the parameters;
* :func:`figure_image` returns the bytes (PNG at scale 2, or SVG);
* :func:`export_unavailable_reason` says, in a sentence, why export cannot work here (no kaleido,
  no browser), so a page shows that instead of a button that fails.

Chromium is found at ``$BROWSER_PATH``, else ``/usr/bin/chromium``, else on ``PATH``. One browser
is started on the first export and kept for the next ones (kaleido's sync server; the first image
takes about 3 s, later ones about 0.2 s); calls are serialized by a lock.
"""

from __future__ import annotations

import copy
import os
import shutil
import threading
from functools import lru_cache

import plotly.graph_objects as go

from gaussmech_core.registry_types import Setting

from .page_facts import GENERIC, SETTING_FIELDS

__all__ = [
    "IMAGE_FORMATS",
    "SLIDE_WIDTH",
    "PNG_SCALE",
    "browser_path",
    "export_unavailable_reason",
    "setting_line",
    "parameter_slug",
    "figure_file_name",
    "legend_below",
    "slide_figure",
    "figure_image",
    "stop_export_browser",
]

IMAGE_FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
SLIDE_WIDTH = 1200
PNG_SCALE = 2
_BROWSER_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
_LOCK = threading.Lock()
_SERVER = {"running": False}


def browser_path() -> str | None:
    """The Chromium that kaleido drives: ``$BROWSER_PATH``, a Debian path, or one on ``PATH``."""
    explicit = os.environ.get("BROWSER_PATH")
    if explicit:
        return explicit if os.path.isfile(explicit) and os.access(explicit, os.X_OK) else None
    for candidate in _BROWSER_CANDIDATES:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@lru_cache(maxsize=1)
def _kaleido_problem() -> str | None:
    try:
        import kaleido  # noqa: F401
    except ImportError:
        return "the kaleido package is not installed (pip install -r requirements.txt)"
    return None


def export_unavailable_reason() -> str | None:
    """``None`` when figures can be exported here, else why not (one sentence, for the page)."""
    problem = _kaleido_problem()
    if problem:
        return f"Image export is not available on this server: {problem}."
    if browser_path() is None:
        explicit = os.environ.get("BROWSER_PATH")
        where = f"BROWSER_PATH={explicit!r} is not an executable browser" if explicit else "no Chromium was found"
        return (
            f"Image export is not available on this server: {where} (install chromium, or set BROWSER_PATH). "
            "The chart's camera button still saves a PNG from your browser."
        )
    return None


def setting_line(setting: Setting) -> str:
    """The parameters a figure of a page that uses the whole sidebar states: ε, δ, Δ, d and the neighbour model.

    A page that uses less states less (:meth:`gaussmech_ui.page_facts.PageFacts.line`).

    Examples
    --------
    >>> setting_line(Setting(epsilon=1.0, delta=1e-5, dim=10))
    'ε = 1, δ = 1e-5, Δ₂ = 1, d = 10, one coordinate changes (Δ₁ = 1)'
    """
    return GENERIC.line(setting)


def _compact(value: float) -> str:
    """A number as file-name text: ``1``, ``0.5``, ``1e-5`` (no padding zeros, no plus sign)."""
    text = f"{value:.6g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def parameter_slug(setting: Setting, fields: tuple[str, ...] = SETTING_FIELDS) -> str:
    """``eps1-delta1e-5-d10`` (plus ``-sens2`` when Δ ≠ 1 and ``-l1all`` when every coordinate may change),
    of the setting ``fields`` a page uses (:attr:`gaussmech_ui.page_facts.PageFacts.setting_fields`).

    Examples
    --------
    >>> parameter_slug(Setting(epsilon=1.0, delta=1e-5, dim=10))
    'eps1-delta1e-5-d10'
    >>> parameter_slug(Setting(epsilon=0.25, delta=1e-10, sensitivity=2.0, dim=3, l1_model="all_coordinates"))
    'eps0.25-delta1e-10-d3-sens2-l1all'
    >>> parameter_slug(Setting(epsilon=1.0, delta=1e-5, dim=10), ("epsilon", "delta"))
    'eps1-delta1e-5'
    """
    parts = [f"eps{_compact(setting.epsilon)}", f"delta{_compact(setting.delta)}"]
    if "dim" in fields:
        parts.append(f"d{setting.dim}")
    if "sensitivity" in fields and setting.sensitivity != 1.0:
        parts.append(f"sens{_compact(setting.sensitivity)}")
    if "l1_model" in fields and setting.l1_model != "one_coordinate":
        parts.append("l1all")
    return "-".join(parts)


def _slugify(text: str) -> str:
    keep = [c.lower() if c.isascii() and c.isalnum() else "-" for c in text]
    return "-".join(part for part in "".join(keep).split("-") if part) or "chart"


def figure_file_name(
    chart_slug: str, setting: Setting, extension: str, fields: tuple[str, ...] = SETTING_FIELDS
) -> str:
    """``gaussmech-<chart>-<parameters>.<extension>``.

    Examples
    --------
    >>> figure_file_name("noise-vs-epsilon", Setting(epsilon=1.0, delta=1e-5, dim=10), "svg")
    'gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.svg'
    """
    return f"gaussmech-{_slugify(chart_slug)}-{parameter_slug(setting, fields)}.{extension}"


def _legend_layout(figure: go.Figure, columns: int | None = None) -> tuple[int, int]:
    """(columns, rows) of the slide legend: 3 columns of short names, 2 of long ones (or ``columns``), 0 rows without names."""
    names = [trace.name for trace in figure.data if trace.name and trace.showlegend is not False]
    if not names:
        return 1, 0
    if columns is None:
        columns = 3 if max(len(name) for name in names) <= 38 else 2
    return columns, -(-len(names) // columns)


def _group_title(trace) -> str:
    title = getattr(trace, "legendgrouptitle", None)
    return str(title.text) if title is not None and title.text else ""


def _spacer(name: str, rank: int) -> dict:
    """A legend entry that draws nothing: a group's title (bold) or an empty cell that ends a row."""
    return dict(
        type="scatter",
        x=[None],
        y=[None],
        mode="markers",
        marker=dict(color="rgba(0,0,0,0)", size=1, line=dict(width=0)),
        name=name,
        hoverinfo="skip",
        showlegend=True,
        legendrank=rank,
    )


def _keep_groups_as_rows(figure: go.Figure, columns: int) -> None:
    """Legend groups in a static image: each group's title on a row of its own, its entries on the rows below.

    Plotly stacks a horizontal legend's groups one entry per row, so the groups are dissolved and
    rebuilt from entries that draw nothing: the title ("Gaussian calibrations", from the
    registry-based :func:`gaussmech_ui.figures.common.legend_group`), then the group's curves in
    their legend order, then empty cells to the end of the row. A figure without group titles is
    left as it is.
    """
    entries = [trace for trace in figure.data if trace.name and trace.showlegend is not False]
    if not any(_group_title(trace) for trace in entries):
        return
    entries.sort(key=lambda trace: trace.legendrank if trace.legendrank is not None else 1000)
    groups: dict[str, list] = {}
    titles: dict[str, str] = {}
    for trace in entries:
        group = str(trace.legendgroup or trace.name)
        groups.setdefault(group, []).append(trace)
        titles.setdefault(group, _group_title(trace))
    rank = 0
    spacers = []
    for group, members in groups.items():
        cells = [f"<b>{titles[group]}</b>"] + [" "] * (columns - 1) if titles[group] else []
        for name in cells:
            spacers.append(_spacer(name, rank))
            rank += 1
        for trace in members:
            trace.legendrank = rank
            rank += 1
        for _ in range(-len(members) % columns):
            spacers.append(_spacer(" ", rank))
            rank += 1
    figure.update_traces(legendgrouptitle_text=None)
    figure.add_traces(spacers)


def legend_below(figure: go.Figure, *, top: int, height: int, drop_hidden: bool = True, row_height: int = 28) -> None:
    """Lay ``figure`` out at ``height`` pixels with its legend below the plot in aligned columns (in place).

    Traces hidden in the legend (``visible="legendonly"``) are left out when ``drop_hidden``
    (they are not drawn, so a static image should not list them); legend groups keep their titles
    as rows of their own (:func:`_keep_groups_as_rows`) and the legend's title is removed. The
    bottom margin holds the x-axis title and every legend row, so nothing overlaps or is cut.
    """
    if drop_hidden:
        figure.data = [trace for trace in figure.data if trace.visible != "legendonly"]
    columns, _ = _legend_layout(figure)
    _keep_groups_as_rows(figure, columns)
    figure.update_traces(legendgroup=None)
    columns, rows = _legend_layout(figure, columns)
    named = sum(1 for trace in figure.data if trace.name and trace.showlegend is not False)
    if figure.layout.showlegend is False or (figure.layout.showlegend is None and named < 2):
        rows = 0  # a chart without a legend (one trace, or hidden on purpose) keeps none
    axis_space = 80  # tick labels and the x-axis title, in pixels
    bottom = axis_space + 20 + row_height * rows
    plot_height = max(height - top - bottom, 120)
    figure.update_layout(
        height=height,
        showlegend=rows > 0,
        margin=dict(t=top, b=bottom, l=90, r=40),
        legend=dict(
            orientation="h",
            x=0.0,
            xanchor="left",
            y=-axis_space / plot_height,
            yanchor="top",
            yref="paper",
            traceorder="normal",
            entrywidth=1.0 / columns,
            entrywidthmode="fraction",
            title_text="",
        ),
    )


def slide_figure(figure: go.Figure, setting: Setting, line: str | None = None) -> go.Figure:
    """A copy of ``figure`` laid out for a slide: legend below in columns, setting line under the title.

    ``line`` is the page's setting line (:meth:`gaussmech_ui.page_facts.PageFacts.line`); by
    default the whole sidebar's (:func:`setting_line`).

    The original is not changed. Width is :data:`SLIDE_WIDTH`; the height grows with the legend's
    rows so that nothing is cut (see :func:`legend_below`).
    """
    slide = go.Figure(copy.deepcopy(figure.to_dict()))
    title = slide.layout.title.text or ""
    row_height = 28
    _, rows = _legend_layout(go.Figure([t for t in slide.data if t.visible != "legendonly"]))
    top = 120
    height = int((slide.layout.height or 540) - 80 + top + row_height * rows + 40)
    legend_below(slide, top=top, height=height, row_height=row_height)
    slide.update_layout(
        width=SLIDE_WIDTH,
        title=dict(
            text=title, x=0.015, xref="container", subtitle=dict(text=(line or setting_line(setting)) + " · gaussmech")
        ),
    )
    return slide


def _ensure_server(path: str) -> None:
    import kaleido

    if not _SERVER["running"]:
        kaleido.start_sync_server(mathjax=False, path=path, silence_warnings=True)
        _SERVER["running"] = True


def figure_image(figure: go.Figure, setting: Setting, image_format: str, line: str | None = None) -> bytes:
    """The slide version of ``figure`` as ``"svg"`` or ``"png"`` (scale 2) bytes, stating ``line`` (see :func:`slide_figure`).

    Raises
    ------
    ValueError
        For an unknown format.
    RuntimeError
        When export is not available here (the message of :func:`export_unavailable_reason`).
    """
    if image_format not in IMAGE_FORMATS:
        raise ValueError(f"image_format must be one of {', '.join(IMAGE_FORMATS)}, got image_format={image_format!r}")
    reason = export_unavailable_reason()
    if reason:
        raise RuntimeError(reason)
    import kaleido

    slide = slide_figure(figure, setting, line)
    options = dict(
        format=image_format,
        width=slide.layout.width,
        height=slide.layout.height,
        scale=PNG_SCALE if image_format == "png" else 1,
    )
    with _LOCK:
        _ensure_server(browser_path())
        return kaleido.calc_fig_sync(slide.to_dict(), opts=options)


def stop_export_browser() -> None:
    """Close the export browser (tests; a server keeps it for the next export)."""
    import kaleido

    with _LOCK:
        if _SERVER["running"]:
            kaleido.stop_sync_server(silence_warnings=True)
            _SERVER["running"] = False
