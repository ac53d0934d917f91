"""What every page repeats, once: a chart with its caption and CSV download, the Plotly config, seed controls.

* :data:`PLOTLY_CONFIG`: the toolbar of every chart (no logo; the camera saves a PNG at twice
  the screen resolution, ready for a slide).
* :func:`chart`: a Plotly figure, then its caption (a claim in words from the numbers) and a
  CSV download of its data, with stable widget keys.
* :func:`seed_controls`: a seed box bound to the URL and a "Draw again" button that moves to
  the next seed, so a drawn picture can still be shared by its link.
* :func:`bounded_data_explainer`: where mechanisms for bounded data are shown, why bounds buy pure
  ε-DP for GG noise (Liu, Claim 4) and Liu's note on the exponential mechanism (docs/math.md sections 5.6, 5.8).
"""

from __future__ import annotations

import math
import re
from typing import Callable

import pandas as pd
import streamlit as st

from gaussmech_core.mechanisms import MECHANISMS

from .downloads import download_csv
from .format import cite_math

__all__ = ["PLOTLY_CONFIG", "say", "chart", "seed_controls", "next_seed", "BOUNDED_DATA_TEXT", "bounded_data_explainer"]

PLOTLY_CONFIG = {
    "displaylogo": False,
    # The camera button saves a PNG at twice the screen resolution, ready for a slide.
    "toImageButtonOptions": {"format": "png", "scale": 2},
}
SEED_RANGE = (1, 1_000_000)


def say(text: str) -> None:
    """A plain-language reading of a chart, generated from its numbers (nothing when there is none)."""
    if text:
        st.info(text, icon=":material/campaign:")


def chart(
    figure,
    key: str,
    *,
    alt: str | None = None,
    caption: str | None = None,
    data: pd.DataFrame | Callable[[], pd.DataFrame] | None = None,
    file_name: str | None = None,
    download_key: str | None = None,
    download_label: str = "Chart data as CSV",
) -> None:
    """Draw ``figure`` (key ``key``), then ``caption`` (:func:`say`) and a CSV download of ``data``.

    The download's key is ``download_key``, or ``key`` with ``_chart`` replaced by ``_download``.
    """
    options = dict(key=key, theme=None, config=PLOTLY_CONFIG)
    if alt is not None:
        options["alt"] = alt
    st.plotly_chart(figure, **options)
    say(caption or "")
    if data is not None:
        download_key = download_key or (key.replace("_chart", "_download") if "_chart" in key else f"{key}_download")
        download_csv(download_label, data, file_name or f"gaussmech-{key}.csv", key=download_key)


# A plain decimal number, ASCII only (Python's float() also reads "９" and "1_0", a link must not).
_PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def _link_value_fits(raw: str, low: float, high: float, whole: bool) -> bool:
    text = str(raw).strip()
    if not _PLAIN_NUMBER.fullmatch(text):
        return False
    value = float(text)
    return math.isfinite(value) and low <= value <= high and (not whole or value.is_integer())


def linked_number_input(container, label: str, min_value, max_value, value="min", *, key: str, step=1, **options):
    """``number_input`` bound to the URL that first drops a link value it cannot take.

    Streamlit's binding raises on ``inf`` or ``1e309`` and keeps other bad text in the URL while
    the box shows its default; removing such a value before the box reads it makes the box use its
    default and lets :func:`gaussmech_ui.sidebar.finish_page` warn about the dropped value.
    """
    raw = st.query_params.get(key)
    whole = isinstance(min_value, int) and isinstance(step, int)
    options.setdefault("bind", "query-params")
    if raw is not None and not _link_value_fits(raw, min_value, max_value, whole):
        # Streamlit seeds a bound box from the link it was opened with, so this run the box is not
        # bound; the value leaves the URL, and the next run binds it again.
        del st.query_params[key]
        options.pop("bind")
    return container.number_input(label, min_value, max_value, value, step=step, key=key, **options)


def next_seed(key: str) -> None:
    """ "Draw again": the next seed (wrapping within :data:`SEED_RANGE`)."""
    st.session_state[key] = int(st.session_state.get(key, SEED_RANGE[0])) % SEED_RANGE[1] + 1


def seed_controls(
    prefix: str, *, help: str = "Draws new random noise (the next seed). The curve stays: it is exact."
) -> int:
    """A seed box (key ``<prefix>_seed``, in the URL) and a "Draw again" button; returns the seed."""
    left, right = st.columns([1, 1], vertical_alignment="bottom")
    with right:
        st.button(
            "Draw again",
            key=f"{prefix}_draw_again",
            icon=":material/casino:",
            on_click=next_seed,
            args=(f"{prefix}_seed",),
            help=help,
        )
    with left:
        seed = linked_number_input(
            st,
            "Seed",
            SEED_RANGE[0],
            SEED_RANGE[1],
            step=1,
            key=f"{prefix}_seed",
            help="The same seed always draws the same noise, so a shared link shows the same picture.",
        )
    return int(seed)


BOUNDED_DATA_TEXT = cite_math(
    "**Why the data bounds matter.** With unbounded outputs, generalized Gaussian noise of order p > 1 is never "
    "pure ε-DP (Liu, Claim 4): the privacy loss (|e + Δ|ᵖ − |e|ᵖ)/bᵖ grows without limit as the noise e grows, "
    "so no scale b caps it. When every coordinate is known to lie in [a, b] and the release is kept there "
    "(truncated, or clamped with the excess piled on the bounds), the loss is at most (Wᵖ − (W − Δ)ᵖ)/bᵖ with "
    "W = b − a, and that buys pure ε-DP for every p ≥ 1 at a finite b (docs/math.md section 5.6). The noise is shown for a "
    "true value at the middle of [a, b].\n\n"
    "**Liu's note on the exponential mechanism** (docs/math.md section 5.8). The exponential mechanism with utility "
    "u = −‖s* − s‖ₚᵖ also releases GG-shaped output, but its scale follows the sensitivity Δᵤ of the utility, "
    "not Δₚ; with u = −‖s* − s‖₁ both become a truncated Laplace. Its actual privacy cost is below its nominal ε, "
    "and equals ε/2 when the normaliser does not depend on the data (Liu, Appendix D)."
)


def bounded_data_explainer() -> None:
    """An expander with :data:`BOUNDED_DATA_TEXT`, drawn when the registry has a mechanism for bounded data."""
    bounded = [mechanism for mechanism in MECHANISMS.values() if mechanism.uses_bounds]
    if not bounded:
        return
    names = ", ".join(mechanism.name for mechanism in bounded)
    with st.expander(f"Mechanisms for bounded data: {names}", icon=":material/crop_free:"):
        st.markdown(BOUNDED_DATA_TEXT)
