"""What an attacker can do, for every mechanism side by side: a section any page can show.

:func:`render_attack_risk_section` draws, at the sidebar's setting: the odds framing of ε, a
prior the presenter chooses, a table of every mechanism's attack numbers (advantage, TPR at 1 %
and 0.1 % FPR, the largest posterior belief), the chart of TPR at 1 % FPR against the (ε, δ)
promise, and the inverse: the noise each mechanism needs to hold an attack below a chosen level.
The numbers come from :mod:`gaussmech_core.attack_risk`, exactly from each mechanism's privacy
profile (for a "claimed" mechanism, from its computed true δ(ε)).
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from gaussmech_core import attack_risk
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

from .cached.cache import UPLOAD_HASH_FUNCS
from .claims.attack import risk_caption
from .claims.odds import odds_example, odds_sentence
from .downloads import download_csv
from .figures.attack_risk import attack_tpr_figure
from .format import format_number, format_percent
from .page_kit import show_chart, table as page_table

__all__ = [
    "PRIOR_STOPS",
    "attack_risk_frame",
    "attack_limit_frame",
    "display_table",
    "risk_caption",
    "render_attack_risk_section",
]

PRIOR_STOPS = (0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
LIMIT_KINDS = {
    "advantage": "advantage (TPR − FPR)",
    "tpr": "TPR at 1% FPR",
}
_PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def _setting(epsilon, delta, sensitivity, order, dim, l1_model) -> Setting:
    return Setting(epsilon=epsilon, delta=delta, sensitivity=sensitivity, order=order, dim=dim, l1_model=l1_model)


def setting_arguments(setting: Setting) -> dict:
    """The plain numbers the cached functions take (a Setting's fields)."""
    return dict(
        epsilon=setting.epsilon,
        delta=setting.delta,
        sensitivity=setting.sensitivity,
        order=setting.order,
        dim=setting.dim,
        l1_model=setting.l1_model,
    )


@st.cache_data(
    hash_funcs=UPLOAD_HASH_FUNCS,
    max_entries=64,
    show_spinner="Computing each mechanism's attack risk from its privacy profile…",
)
def attack_risk_frame(epsilon, delta, sensitivity, order, dim, l1_model, prior: float) -> pd.DataFrame:
    """One row per registered mechanism: its attack numbers at the setting (NaN where not valid)."""
    setting = _setting(epsilon, delta, sensitivity, order, dim, l1_model)
    rows = []
    for risk in attack_risk.attack_risk_all(setting, false_positive_rates=(0.01, 0.001), prior=prior):
        mechanism = risk.mechanism
        valid = risk.scale is not None
        rows.append(
            {
                "id": mechanism.id,
                "mechanism": mechanism.name,
                "short_name": mechanism.short_name,
                "color": mechanism.color,
                "guarantee": mechanism.guarantee_label,
                "featured": mechanism.featured,
                "valid": valid,
                "advantage": risk.advantage if valid else math.nan,
                "tpr_1": risk.true_positive_rates[0] if valid else math.nan,
                "tpr_01": risk.true_positive_rates[1] if valid else math.nan,
                "posterior_1": risk.posteriors[0] if valid else math.nan,
                "posterior_01": risk.posteriors[1] if valid else math.nan,
                "reason": risk.reason,
            }
        )
    return pd.DataFrame(rows)


@st.cache_data(
    hash_funcs=UPLOAD_HASH_FUNCS,
    max_entries=64,
    show_spinner="Solving for the noise that holds the attack to your level…",
)
def attack_limit_frame(
    epsilon, delta, sensitivity, order, dim, l1_model, kind: str, level: float, mechanism_ids: tuple
) -> pd.DataFrame:
    """The scale and per-coordinate std each listed mechanism needs to hold the attack to ``level``."""
    setting = _setting(epsilon, delta, sensitivity, order, dim, l1_model)
    rows = []
    for mechanism_id in mechanism_ids:
        mechanism = MECHANISMS[mechanism_id]
        limit = (
            {"advantage": level} if kind == "advantage" else {"true_positive_rate": level, "false_positive_rate": 0.01}
        )
        try:
            scale = attack_risk.scale_for_attack_limit(mechanism, setting, **limit)
            std = float(mechanism.coordinate_std(scale, setting))
            problem = ""
        except (ValueError, ArithmeticError) as error:
            scale = std = math.nan
            problem = str(error)
        rows.append(
            {
                "mechanism": mechanism.name,
                "scale_symbol": mechanism.scale_symbol,
                "scale": scale,
                "coordinate_std": std,
                "problem": problem,
            }
        )
    return pd.DataFrame(rows)


def display_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The table people read: percentages to 3 digits, the reason where a guarantee does not hold."""

    def percent(value):
        return "–" if not math.isfinite(value) else format_percent(value, 3)

    shown = pd.DataFrame(
        {
            "Mechanism": frame["mechanism"],
            "Advantage": frame["advantage"].map(percent),
            "TPR at 1% FPR": frame["tpr_1"].map(percent),
            "TPR at 0.1% FPR": frame["tpr_01"].map(percent),
            "Posterior at 1% FPR": frame["posterior_1"].map(percent),
            "Guarantee": frame["guarantee"],
            "Note": frame["reason"],
        }
    )
    return shown


def render_attack_risk_section(
    setting: Setting,
    key_prefix: str,
    *,
    with_inverse: bool = True,
    heading: bool = True,
    chart_first: bool = False,
    screen_top: int | None = None,
) -> pd.DataFrame | None:
    """Draw the attack-risk section; returns its frame (``None`` if it was not drawn or could not be computed).

    With ``chart_first`` the chart opens the section, above the odds sentence and the prior it is
    read at (one idea, one chart on a projector's first screen: the tour's odds step, the Privacy
    profiles page's tab), its height following the window from ``screen_top``
    (:func:`gaussmech_ui.page_kit.show_chart`); the table follows.
    """
    if heading:
        st.subheader("What an attacker can do")
    chart_slot = st.container() if chart_first else None
    st.markdown(odds_sentence(setting.epsilon, setting.delta))
    prior = st.select_slider(
        "The attacker's belief before the release that Alice is in the data (prior)",
        options=PRIOR_STOPS,
        value=0.5,
        format_func=lambda p: format_percent(p, 3),
        key=f"{key_prefix}_prior",
        help="The posterior column is the most an attacker starting from this belief can be sure of after the "
        "release, on any decision that raises a false alarm at most 1 time in 100 when Alice is absent.",
    )
    st.caption(odds_example(float(prior), setting.epsilon, setting.delta))
    try:
        frame = attack_risk_frame(**setting_arguments(setting), prior=float(prior))
    except Exception as error:  # a page must survive any failure of one part
        st.error(
            f"Could not compute the attack numbers here ({type(error).__name__}: {error}). Try a less extreme ε, δ or d."
        )
        return None

    def table() -> None:
        with st.container(key=f"{key_prefix}_risk_table"):
            page_table(display_table(frame), hide_index=True, key=f"{key_prefix}_risk_dataframe")
        st.info(risk_caption(frame, setting, float(prior), MECHANISMS), icon=":material/campaign:")

    def chart() -> None:
        show_chart(
            attack_tpr_figure(frame, setting),
            f"{key_prefix}_risk_chart",
            config=_PLOTLY_CONFIG,
            alt="Bars of the best attacker's true-positive rate at a 1% false-positive rate, one per mechanism.",
            screen_top=screen_top,
        )
        st.caption(
            "Each bar is the most a membership attacker can detect at a 1% false-alarm rate, computed exactly from the "
            "mechanism's privacy profile (its f-DP trade-off curve; Dong, Roth & Su 2022; Kulynych et al. 2024). The "
            "dashed line is what (ε, δ)-DP promises: e^ε·1% + δ."
        )

    if chart_slot is not None:
        with chart_slot:
            chart()
        table()
    else:
        table()
        chart()
    download_csv(
        "Attack numbers as CSV",
        frame.drop(columns=["color"]),
        "gaussmech-attack-risk.csv",
        key=f"{key_prefix}_risk_download",
    )
    if with_inverse:
        _render_inverse(setting, key_prefix, frame)
    return frame


def _render_inverse(setting: Setting, key_prefix: str, frame: pd.DataFrame) -> None:
    st.markdown("**The noise needed to hold an attack below your level**")
    left, right = st.columns(2)
    kind = left.radio(
        "Limit",
        options=tuple(LIMIT_KINDS),
        format_func=LIMIT_KINDS.get,
        key=f"{key_prefix}_limit_kind",
        horizontal=True,
    )
    level = right.number_input(
        "Level (a fraction)",
        min_value=0.0011 if kind == "tpr" else 1e-6,
        max_value=0.999,
        value=0.05,
        step=0.01,
        format="%.4f",
        key=f"{key_prefix}_limit_level",
        help="For TPR at 1% FPR the level must exceed 0.01: guessing at random already reaches TPR = FPR.",
    )
    if kind == "tpr" and level <= 0.01:
        st.warning("A TPR limit at 1% FPR must be above 1%: an attacker who guesses already reaches TPR = FPR.")
        return
    featured = tuple(
        row["id"] for _, row in frame.iterrows() if row["featured"] and MECHANISMS[row["id"]].guarantee != "claimed"
    )
    limits = attack_limit_frame(**setting_arguments(setting), kind=kind, level=float(level), mechanism_ids=featured)
    shown = pd.DataFrame(
        {
            "Mechanism": limits["mechanism"],
            "Scale needed": [
                "–" if not math.isfinite(s) else f"{symbol} = {format_number(s)}"
                for symbol, s in zip(limits["scale_symbol"], limits["scale"])
            ],
            "Noise std per coordinate": limits["coordinate_std"].map(
                lambda v: "–" if not math.isfinite(v) else format_number(v)
            ),
        }
    )
    page_table(shown, hide_index=True, key=f"{key_prefix}_limit_table")
    st.caption(
        "The smallest noise of each kind for which the best attacker stays at or below the level, whatever ε it "
        "corresponds to (a claimed guarantee is left out: its noise is not what its claim says). The scale is "
        "checked to meet the level."
    )
