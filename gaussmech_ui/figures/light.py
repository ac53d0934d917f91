"""A figure built as plain dicts, validated by Plotly never: for the charts every new setting redraws.

A builder that adds its traces and layout through ``go.Figure`` pays for Plotly's validation of
every property: about 14 ms for the tail chart's nine curves and its layout, against 1.8 ms for
the same figure as dicts. That is also less than :func:`~gaussmech_ui.figures.built_once.built_once`
takes to hash the chart's inputs and copy a cached figure (5 ms), so light builders are not
wrapped in it. :class:`LightFigure` offers the few methods the shared helpers of
:mod:`gaussmech_ui.figures.common` call (``add_trace`` with a dict, ``add_hline``,
``add_vline``, ``add_annotation``, ``update_xaxes``/``update_yaxes``, ``layout`` read and
assigned as a dict) and writes them the way Plotly stores them, and :meth:`LightFigure.figure`
returns the ``go.Figure`` of that dict without validation. Builders take the factory as
:data:`new_figure`, so a test can run the same builder on a real ``go.Figure`` and check that
both give the same JSON (tests/ui/test_light_figures.py).
"""

from __future__ import annotations

import copy
import functools
import re

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["LightFigure", "new_figure", "finished"]


class _Layout(dict):
    """The layout as a plain dict, with the one method of Plotly's Layout the helpers use."""

    def to_plotly_json(self) -> dict:
        return copy.copy(dict(self))


class LightFigure:
    """Traces and layout as plain dicts, in the form Plotly stores them (see the module notes)."""

    def __init__(self) -> None:
        self.data: list[dict] = []
        self._layout = _Layout()

    @property
    def layout(self) -> _Layout:
        return self._layout

    @layout.setter
    def layout(self, value: dict) -> None:
        self._layout = _Layout(value)

    def add_trace(self, trace: dict) -> LightFigure:
        if not isinstance(trace, dict) or "type" not in trace:
            raise TypeError(f"a light figure takes traces as dicts with a 'type', got {trace!r}")
        self.data.append(dict(trace))
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

    def _update_axes(self, letter: str, updates: dict) -> LightFigure:
        names = [key for key in self._layout if re.fullmatch(rf"{letter}axis\d*", key)] or [f"{letter}axis"]
        for name in names:
            self._layout[name] = {**self._layout.get(name, {}), **updates}
        return self

    def update_xaxes(self, **updates) -> LightFigure:
        return self._update_axes("x", updates)

    def update_yaxes(self, **updates) -> LightFigure:
        return self._update_axes("y", updates)

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


def finished(figure) -> go.Figure:
    """The ``go.Figure`` of a builder's figure: a light one's, or a real one as it is."""
    return figure.figure() if isinstance(figure, LightFigure) else figure
