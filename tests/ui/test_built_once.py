"""Figures built once per input, cached calls keyed by their bound signature, the quick layout merge."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io

from gaussmech_ui.cached.cache import cache_data
from gaussmech_ui.figures.built_once import built_once, with_arrays
from gaussmech_ui.figures.common import apply_layout, update_layout_quickly


def _content(figure: go.Figure) -> dict:
    return json.loads(plotly.io.to_json(figure, validate=False))


def _example(points: int, title: str) -> go.Figure:
    figure = go.Figure()
    figure.add_trace(dict(type="scatter", x=np.arange(points), y=np.linspace(0.0, 1.0, points), name="a"))
    figure.add_trace(dict(type="heatmap", z=np.arange(12.0).reshape(3, 4)))
    return apply_layout(figure, title=title, x_title="d", y_title="E‖Z‖²", log_x=True)


def test_with_arrays_restores_the_arrays_plotly_encoded():
    figure = _example(5, "t")
    restored = with_arrays(figure.to_dict())
    x, z = restored["data"][0]["x"], restored["data"][1]["z"]
    assert x.dtype == np.int64 and x.tolist() == [0, 1, 2, 3, 4]  # narrowed to int8 by Plotly, widened back
    assert z.shape == (3, 4) and z[2, 3] == 11.0


def test_a_built_once_figure_equals_the_builders_and_is_a_new_object_each_time():
    calls = []

    @built_once
    def builder(points: int, title: str) -> go.Figure:
        calls.append(points)
        return _example(points, title)

    builder.clear()
    first, second = builder(7, "one"), builder(7, "one")
    assert calls == [7], "built once for one input"
    assert first is not second
    assert _content(first) == _content(_example(7, "one"))
    first.update_layout(title_text="changed")  # a caller's copy is its own
    assert _content(builder(7, "one")) == _content(_example(7, "one"))
    builder(8, "one")
    assert calls == [7, 8]
    assert np.asarray(builder(7, "one").data[0].x).tolist() == list(range(7))  # arrays, as from the builder


def test_cached_calls_share_one_entry_however_the_arguments_are_spelled():
    calls = []

    @cache_data(max_entries=8)
    def compute(epsilon: float, delta: float, *, bound: float = 1.0) -> float:
        calls.append((epsilon, delta, bound))
        return epsilon + delta + bound

    compute.clear()
    assert compute(1.0, 2.0) == compute(delta=2.0, epsilon=1.0) == compute(1.0, delta=2.0, bound=1.0) == 4.0
    assert calls == [(1.0, 2.0, 1.0)]
    assert compute(1.0, 2.0, bound=2.0) == 5.0 and len(calls) == 2


def test_the_quick_layout_update_equals_plotlys():
    updates = dict(legend=dict(orientation="h", y=-0.2, font=dict(size=13)), margin=dict(b=40), height=600)
    quick, slow = _example(6, "t"), _example(6, "t")
    update_layout_quickly(quick, updates)
    slow.update_layout(**updates)
    assert _content(quick) == _content(slow)
