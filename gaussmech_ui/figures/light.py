"""A figure built as plain dicts, validated by Plotly never: for the charts every new setting redraws.

A builder that adds its traces and layout through ``go.Figure`` pays for Plotly's validation of
every property: about 14 ms for the tail chart's nine curves and its layout, against 1.8 ms for
the same figure as dicts. That is also less than :func:`~gaussmech_ui.figures.built_once.built_once`
takes to hash the chart's inputs and copy a cached figure (5 ms), so light builders are not
wrapped in it. :class:`LightFigure` offers the few methods the shared helpers of
:mod:`gaussmech_ui.figures.common` call (``add_trace`` with a dict, ``add_hline``,
``add_vline``, ``add_annotation``, ``update_xaxes``/``update_yaxes``, ``layout`` read and
assigned as a dict) and writes them the way Plotly stores them, and :meth:`LightFigure.figure`
returns the ``go.Figure`` of that dict without validation. Builders take the factories as
:data:`new_figure` and :data:`new_subplots`, so a test can run the same builder on a real
``go.Figure`` (and ``make_subplots``) and check that both give the same JSON
(tests/ui/test_light_figures.py).

A grid of panels comes from :func:`new_subplots`, the light ``make_subplots``: Plotly's own
layout of that grid (axis domains, anchors, shared axes, where the panel titles go), computed
once per grid and copied, since ``make_subplots`` itself takes about 12 ms.
``add_trace(..., row=, col=)`` and ``update_xaxes(..., row=, col=)`` address one panel as they
do in Plotly.
"""

from __future__ import annotations

import copy
import functools
import re

import plotly.graph_objects as go
import plotly.io as pio

from .common import _merged

__all__ = ["LightFigure", "new_figure", "new_subplots", "colorscale", "finished"]


class _Layout(dict):
    """The layout as a plain dict, with the one method of Plotly's Layout the helpers use."""

    def to_plotly_json(self) -> dict:
        return copy.copy(dict(self))


def _nested(updates: dict) -> dict:
    """Plotly's "magic underscore" keys spelled out: ``{"title_text": "x"}`` → ``{"title": {"text": "x"}}``.

    (Plotly's property names have no underscore of their own, so every one splits a path.)
    """
    result: dict = {}
    for key, value in updates.items():
        *parents, last = key.split("_")
        value = _nested(value) if isinstance(value, dict) else value
        result = _merged(result, functools.reduce(lambda inner, name: {name: inner}, reversed(parents), {last: value}))
    return result


def _without_none(properties: dict) -> dict:
    """``properties`` without the keys set to None: Plotly's update takes None as "back to the default"."""
    return {
        key: _without_none(value) if isinstance(value, dict) else value
        for key, value in properties.items()
        if value is not None
    }


class LightFigure:
    """Traces and layout as plain dicts, in the form Plotly stores them (see the module notes).

    ``grid`` is the panel grid of :func:`new_subplots`: per row, per column, the panel's
    ``(x axis key, y axis key)`` in the layout (``("xaxis2", "yaxis2")``); None for one panel.
    """

    def __init__(self, grid: tuple[tuple[tuple[str, str], ...], ...] | None = None) -> None:
        self.data: list[dict] = []
        self._layout = _Layout()
        self._grid = grid

    @property
    def layout(self) -> _Layout:
        return self._layout

    @layout.setter
    def layout(self, value: dict) -> None:
        self._layout = _Layout(value)

    def _panels(self, row: int | None, col: int | None) -> list[tuple[str, str]]:
        """The axis keys of the panels at ``row`` and ``col`` (1-based; None: every row or column)."""
        if self._grid is None:
            raise ValueError(f"row={row!r}, col={col!r} given, but this figure has no subplots (use new_subplots)")
        rows, cols = len(self._grid), len(self._grid[0])
        for name, index, count in (("row", row, rows), ("col", col, cols)):
            if index is not None and not 1 <= index <= count:
                raise ValueError(f"{name} must be from 1 to {count} in this grid, got {name}={index!r}")
        return [
            self._grid[r][c]
            for r in range(rows)
            for c in range(cols)
            if (row is None or r == row - 1) and (col is None or c == col - 1)
        ]

    def add_trace(self, trace: dict, row: int | None = None, col: int | None = None) -> LightFigure:
        """As ``go.Figure.add_trace``; with ``row`` and ``col``, on that panel of the grid."""
        if not isinstance(trace, dict) or "type" not in trace:
            raise TypeError(f"a light figure takes traces as dicts with a 'type', got {trace!r}")
        trace = dict(trace)
        if row is not None or col is not None:
            if row is None or col is None:
                raise ValueError(f"a trace goes on one panel: give both row and col, got row={row!r}, col={col!r}")
            (x_key, y_key) = self._panels(row, col)[0]
            trace.update(xaxis=x_key.replace("axis", ""), yaxis=y_key.replace("axis", ""))
        self.data.append(trace)
        return self

    def add_annotation(self, **annotation) -> LightFigure:
        self._layout["annotations"] = [*self._layout.get("annotations", ()), annotation]
        return self

    def _add_shape(self, shape: dict) -> LightFigure:
        self._layout["shapes"] = [*self._layout.get("shapes", ()), shape]
        return self

    def add_hline(self, *, y: float, line: dict) -> LightFigure:
        """As ``go.Figure.add_hline``: a line across the x domain at y."""
        return self._add_shape(dict(line=line, type="line", x0=0, x1=1, xref="x domain", y0=y, y1=y, yref="y"))

    def add_vline(self, *, x: float, line: dict) -> LightFigure:
        """As ``go.Figure.add_vline``: a line across the y domain at x."""
        return self._add_shape(dict(line=line, type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain"))

    def _update_axes(self, letter: str, updates: dict, row: int | None, col: int | None) -> LightFigure:
        if row is None and col is None:
            names = [key for key in self._layout if re.fullmatch(rf"{letter}axis\d*", key)] or [f"{letter}axis"]
        else:
            names = [panel[0 if letter == "x" else 1] for panel in self._panels(row, col)]
        spelled_out = _nested(updates)
        for name in names:
            self._layout[name] = _without_none(_merged(self._layout.get(name, {}), spelled_out))
        return self

    def update_xaxes(self, row: int | None = None, col: int | None = None, **updates) -> LightFigure:
        """As ``go.Figure.update_xaxes``: every x axis, or those of the panels at ``row``/``col``."""
        return self._update_axes("x", updates, row, col)

    def update_yaxes(self, row: int | None = None, col: int | None = None, **updates) -> LightFigure:
        """As ``go.Figure.update_yaxes``: every y axis, or those of the panels at ``row``/``col``."""
        return self._update_axes("y", updates, row, col)

    def figure(self) -> go.Figure:
        """The ``go.Figure`` of these dicts, built without validation (a named template spelled out, as Plotly does)."""
        layout = dict(self._layout)
        if isinstance(layout.get("template"), str):
            layout["template"] = _template(layout["template"])
        return go.Figure(dict(data=self.data, layout=layout), _validate=False)


@functools.lru_cache(maxsize=8)
def _template_dict(name: str) -> dict:
    return pio.templates[name].to_plotly_json()


def _template(name: str) -> dict:
    """A named Plotly template as the dict a validated layout holds (a fresh copy each time)."""
    return copy.deepcopy(_template_dict(name))


def new_figure() -> LightFigure:
    """A new :class:`LightFigure` (the factory builders use; a test swaps in ``go.Figure``)."""
    return LightFigure()


@functools.lru_cache(maxsize=16)
def _subplot_grid(rows: int, cols: int, titles: int, options: tuple) -> tuple[dict, tuple]:
    """``make_subplots``' layout of a grid with ``titles`` panel titles ("0", "1", ...) and its panels' axis keys."""
    from plotly.subplots import make_subplots

    made = make_subplots(rows=rows, cols=cols, subplot_titles=[str(i) for i in range(titles)], **dict(options))
    layout = made.layout.to_plotly_json()
    layout.pop("template", None)  # a builder sets its own (apply_layout: "none")
    grid = tuple(tuple(cell[0].layout_keys for cell in row) for row in made._grid_ref)
    return layout, grid


def new_subplots(rows: int = 1, cols: int = 1, *, subplot_titles=(), **options) -> LightFigure:
    """A new :class:`LightFigure` laid out as ``make_subplots(rows, cols, subplot_titles=..., **options)``.

    The grid's layout is Plotly's own, made once per ``(rows, cols, options, number of titles)``;
    each title goes into its annotation, and an empty title has none, as in Plotly. ``options``
    must be hashable (numbers, strings, tuples). A test swaps in ``make_subplots``.
    """
    layout, grid = _subplot_grid(int(rows), int(cols), len(subplot_titles), tuple(sorted(options.items())))
    layout = copy.deepcopy(layout)
    annotations = [
        {**annotation, "text": title}
        for annotation, title in zip(layout.pop("annotations", ()), subplot_titles)
        if title  # make_subplots leaves out an empty title's annotation
    ]
    if annotations:
        layout["annotations"] = annotations
    figure = LightFigure(grid)
    figure.layout = layout
    return figure


@functools.lru_cache(maxsize=16)
def _colorscale(name: str) -> tuple:
    return tuple(tuple(stop) for stop in go.layout.Coloraxis(colorscale=name).to_plotly_json()["colorscale"])


def colorscale(name: str) -> list[list]:
    """A named colour scale (``"Viridis"``) as the ``[[position, colour], ...]`` list Plotly's validation stores."""
    return [list(stop) for stop in _colorscale(name)]


def finished(figure) -> go.Figure:
    """The ``go.Figure`` of a builder's figure: a light one's, or a real one as it is."""
    return figure.figure() if isinstance(figure, LightFigure) else figure
