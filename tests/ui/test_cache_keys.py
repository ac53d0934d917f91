"""Cached results are keyed by ALL of an upload's content, so no session sees another's (issue 23, item 3).

Streamlit hashes a numpy array of 500,000 values or more by a 100,000-value sample, and a frame of
50,000 rows or more by a 10,000-row sample. Two students' different uploads that agree on the
sample would share one cache entry. The pairs below are built to collide under Streamlit's own
hashing, and must not collide under the app's caches.
"""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pandas as pd
import pytest
from streamlit.runtime.caching.cache_type import CacheType
from streamlit.runtime.caching.hashing import update_hash

from gaussmech_core.histogram import NeighbourModel
from gaussmech_ui.cached import denoising as cached
from gaussmech_ui.cached.cache import UPLOAD_HASH_FUNCS, cache_data
from gaussmech_ui.draw_history import release_errors

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINS = 500_000


def streamlit_default_key(value) -> bytes:
    """The key Streamlit's own hashing gives ``value`` (no hash_funcs)."""
    import hashlib

    hasher = hashlib.new("md5", usedforsecurity=False)
    update_hash(value, hasher, CacheType.DATA)
    return hasher.digest()


def colliding_counts() -> tuple[np.ndarray, np.ndarray]:
    """Two different 500,000-bin histograms that Streamlit's default hashing cannot tell apart."""
    first = np.full(BINS, 10.0)
    for index in range(BINS - 1, BINS - 200, -1):
        second = first.copy()
        second[index] = 1e6
        if streamlit_default_key(first) == streamlit_default_key(second):
            return first, second
    raise AssertionError("no bin outside Streamlit's sample found")  # about 82 % of bins are outside it


def test_streamlit_default_hashing_samples_large_arrays():
    first, second = colliding_counts()  # the premise of the issue: a real collision without our keys
    assert not np.array_equal(first, second)


def test_two_different_500000_bin_uploads_get_different_cached_results():
    first, second = colliding_counts()

    @cache_data(max_entries=4)
    def total_of(counts: np.ndarray) -> float:
        return float(counts.sum())

    assert total_of(first) == first.sum()
    assert total_of(second) == second.sum()


def test_the_denoising_sweep_and_release_history_keep_two_uploads_apart():
    first, second = colliding_counts()
    arguments = dict(
        mechanism="analytic_gaussian",
        order=2.0,
        pipelines=(("nonnegative",),),
        epsilons=(0.01,),
        delta=1e-6,
        changed_coordinates=1,
        coordinate_sensitivity=1.0,
        repetitions=1,
        metrics=("mse",),
        total=None,
        prior=None,
    )
    cached.sweep_of_read_arguments.clear()
    cached.sweep_of_read_arguments(first, **arguments)
    shown = cached.sweep_of_read_arguments(second, **arguments)
    computed = cached.sweep_of_read_arguments.__wrapped__(second, **arguments)
    np.testing.assert_array_equal(shown.mean, computed.mean)

    model = NeighbourModel(1, 1.0)
    history = dict(
        mechanism_id="analytic_gaussian",
        epsilon=0.01,
        delta=1e-6,
        model=model,
        order=2.0,
        seeds=(1,),
        steps=("nonnegative",),
        total=None,
        prior=None,
        metric="mse",
    )
    release_errors.clear()
    errors_first = release_errors(first, **history)
    errors_second = release_errors(second, **history)
    assert not np.array_equal(errors_first[1], errors_second[1])


def test_large_frames_are_keyed_by_every_row():
    first = pd.DataFrame({"count": np.zeros(60_000)})
    for index in range(59_999, 59_800, -1):
        second = first.copy()
        second.iloc[index, 0] = 7.0
        if streamlit_default_key(first) == streamlit_default_key(second):
            break
    else:
        pytest.skip("no row outside Streamlit's frame sample")

    @cache_data(max_entries=4)
    def frame_total(frame: pd.DataFrame) -> float:
        return float(frame["count"].sum())

    assert frame_total(first) == 0.0
    assert frame_total(second) == 7.0


def _cache_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            name = ast.unparse(function)
            if name in ("st.cache_data", "streamlit.cache_data", "st.cache_resource"):
                yield node


def test_every_streamlit_cache_keys_arrays_and_frames_by_all_their_content():
    sources = [*ROOT.joinpath("gaussmech_ui").rglob("*.py"), *ROOT.joinpath("pages").rglob("*.py"), ROOT / "app.py"]
    missing = []
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _cache_calls(tree):
            keywords = {keyword.arg: ast.unparse(keyword.value) for keyword in call.keywords}
            if "UPLOAD_HASH_FUNCS" not in keywords.get("hash_funcs", ""):
                missing.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert not missing, f"st.cache_data without the full-content hash_funcs: {missing}"
    assert set(UPLOAD_HASH_FUNCS) >= {np.ndarray, pd.DataFrame, pd.Series}
