"""“Draw again” with memory: a seeded history of releases in the URL, so a class sees a sampling distribution build.

A :class:`DrawHistory` keeps two numbers in the URL: the history's seed and how many draws it
holds. Draw i of history s always comes from the same random stream (the page decides which, e.g.
``mechanism_rng(s, mechanism_id, i)``), so a shared link shows exactly the same history. Its
buttons are "Draw again" (one more draw), "Draw 10 more" and "Start a new history" (the next seed,
one draw). The Class tour (step 1), the Noise distributions page (release by release) and the
Denoising lab (the error of every release so far) use it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from . import params
from .cached.cache import UPLOAD_HASH_FUNCS

__all__ = [
    "DrawHistory",
    "history_buttons",
    "url_int",
    "history_histogram",
    "coordinate_history",
    "release_errors",
    "SEED_LIMIT",
]

SEED_LIMIT = 2**31 - 1


def url_int(key: str, default: int, lower: int, upper: int) -> int:
    """The whole number under ``key`` in the URL, clamped to [lower, upper]; ``default`` (with a warning) for text."""
    raw = st.query_params.get(key)
    try:
        value = int(raw) if raw is not None else default
    except ValueError:
        st.warning(
            f"The link sets {params.quote_untrusted(f'{key}={raw}')}, which is not a whole number; using {default}."
        )
        return default
    return min(max(value, lower), upper)


@dataclass(frozen=True)
class DrawHistory:
    """A history of seeded draws whose seed and length live in the URL (``seed_key``, ``draws_key``).

    Buttons have the keys ``<button_prefix>_draw_again``, ``_draw_ten`` and ``_new_history``.
    """

    seed_key: str
    draws_key: str
    button_prefix: str
    max_draws: int = 400
    first_seed: int = 0

    @property
    def seed(self) -> int:
        """The history's seed (from the URL)."""
        return url_int(self.seed_key, self.first_seed, 0, SEED_LIMIT)

    @property
    def count(self) -> int:
        """How many draws the history holds (from the URL), 1 to :attr:`max_draws`."""
        return url_int(self.draws_key, 1, 1, self.max_draws)

    def _read(self, key: str, default: int, upper: int) -> int:
        try:
            return min(max(int(st.query_params.get(key, default)), 0), upper)
        except ValueError:
            return default

    def add(self, draws: int) -> None:
        """Callback: ``draws`` more draws (at most :attr:`max_draws` in all)."""
        current = max(self._read(self.draws_key, 1, self.max_draws), 1)
        st.query_params[self.draws_key] = str(min(current + draws, self.max_draws))

    def restart(self) -> None:
        """Callback: a new history (the next seed) with one draw."""
        st.query_params[self.seed_key] = str(self._read(self.seed_key, self.first_seed, SEED_LIMIT - 1) + 1)
        st.query_params[self.draws_key] = "1"

    def buttons(self) -> None:
        """ "Draw again", "Draw 10 more" and "Start a new history", in one row."""
        history_buttons(
            self.button_prefix,
            self.add,
            self.restart,
            again_help="One more draw; the earlier ones stay in the history.",
            restart_help=f"Forget the draws and start again from the next seed (at most {self.max_draws} draws are kept).",
        )


def history_buttons(prefix: str, add, restart, *, again_help: str, restart_help: str) -> None:
    """The row of a history's buttons: ``add(1)``, ``add(10)`` and ``restart()`` as callbacks.

    Keys: ``<prefix>_draw_again``, ``<prefix>_draw_ten``, ``<prefix>_new_history``.
    """
    columns = st.columns(3)
    for column, (label, suffix, callback, args, icon, help_text) in zip(
        columns,
        (
            ("Draw again", "draw_again", add, (1,), ":material/casino:", again_help),
            ("Draw 10 more", "draw_ten", add, (10,), ":material/replay_10:", None),
            ("Start a new history", "new_history", restart, (), ":material/restart_alt:", restart_help),
        ),
    ):
        column.button(
            label,
            key=f"{prefix}_{suffix}",
            on_click=callback,
            args=args,
            icon=icon,
            use_container_width=True,
            help=help_text,
        )


def history_histogram(draws: np.ndarray, low: float, high: float, bins: int = 30) -> pd.DataFrame:
    """The draws as a density histogram on [low, high]: ``left, right, count, density`` per bin.

    The density divides by all draws (those outside the window too), so bars and curve compare.

    Examples
    --------
    >>> frame = history_histogram(np.array([0.1, 0.2, 0.9]), 0.0, 1.0, bins=2)
    >>> frame["count"].tolist(), frame["density"].round(3).tolist()
    ([2, 1], [1.333, 0.667])
    """
    edges = np.linspace(low, high, bins + 1)
    counts, _ = np.histogram(np.asarray(draws, dtype=float), bins=edges)
    width = edges[1] - edges[0]
    size = max(int(np.size(draws)), 1)
    return pd.DataFrame({"left": edges[:-1], "right": edges[1:], "count": counts, "density": counts / (size * width)})


@st.cache_data(hash_funcs=UPLOAD_HASH_FUNCS, max_entries=64, show_spinner=False)
def coordinate_history(mechanism_id: str, scale: float, setting, seed: int, count: int) -> np.ndarray:
    """The first ``count`` releases of one noise coordinate in history ``seed``, at the calibrated ``scale``.

    Release i comes from the stream ``mechanism_rng(seed, mechanism_id, i)``, so a longer history
    starts with the same releases (and a link shows the same ones).
    """
    from gaussmech_core import tails
    from gaussmech_core.mechanisms import MECHANISMS
    from gaussmech_core.streams import mechanism_rng

    mechanism = MECHANISMS[mechanism_id]
    return np.array(
        [
            float(tails.coordinate_sample(mechanism, mechanism_rng(int(seed), mechanism_id, i), 1, scale, setting)[0])
            for i in range(int(count))
        ]
    )


@st.cache_data(hash_funcs=UPLOAD_HASH_FUNCS, max_entries=32, show_spinner=False)
def release_errors(
    counts: np.ndarray,
    mechanism_id: str,
    epsilon: float,
    delta: float,
    model,
    order: float,
    seeds: tuple[int, ...],
    steps: tuple[str, ...],
    total: float | None,
    prior,
    metric: str,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``metric`` error of the raw and of the denoised release for each release seed in ``seeds``.

    Each release is :func:`gaussmech_core.histogram.release_histogram` with ``rng=seed`` (the lab's
    release seed), denoised by ``steps``: the same numbers the lab shows for that seed.
    """
    from gaussmech_core.histogram import evaluate_pipelines, release_histogram

    raw, denoised = [], []
    for seed in seeds:
        release = release_histogram(counts, mechanism_id, epsilon, delta, model, order, rng=int(seed))
        before, after = evaluate_pipelines(
            counts, release.noisy, release.noise_std, [(), steps], total=total, prior=prior
        )
        raw.append(before.metrics[metric])
        denoised.append(after.metrics[metric])
    return np.array(raw, dtype=float), np.array(denoised, dtype=float)
