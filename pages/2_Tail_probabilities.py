"""gaussmech: Tail probabilities: how likely is a large error, and how large can it be?

Five views (lazy tabs, the open one in the URL): the per-coordinate tail P(|noise| > t) of every
mechanism down to 1e-300 with the error bound at confidence 1 − α; the same for the l2 norm of the
noise vector at dimension d; and Liu's three comparisons of Laplace and Gaussian noise (tail ratio,
privacy cost of the same tail, Lemma 11's variance).
"""

import math
from dataclasses import replace

import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core.generalized import LEMMA11_DELTA_THRESHOLD, lemma11_variance_ratio  # noqa: E402
from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402
from gaussmech_ui.cached import distributions as cached_setting, tails as cached  # noqa: E402
from gaussmech_ui.claims.ranking import other_neighbour_model  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.figures import tails as figures  # noqa: E402
from gaussmech_ui.figures.common import figure_frame  # noqa: E402
from gaussmech_ui.format import format_number, format_percent, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import (  # noqa: E402
    bounded_data_explainer,
    round_up_note,
    say,
    show_chart,
    table as page_table,  # noqa: E402
)
from gaussmech_ui.params import EVERY_VARIANT_HELP  # noqa: E402

ARGS = cached_setting.setting_arguments(setting)
# The same setting under the other neighbour model, for captions that say what it would change.
OTHER_MODEL = cached_setting.setting_arguments(replace(setting, l1_model=other_neighbour_model(setting.l1_model)))


def _tail_controls() -> tuple[float, float, bool]:
    """α, the floor of the chart and the mechanism set: the same keys on both tail views."""
    left, middle, right = st.columns([1.3, 1, 1])
    with left:
        alpha = st.select_slider(
            "Error bound at confidence 1 − α, with α =",
            options=cached.ALPHAS,
            value=0.05,
            format_func=format_number,
            key="tails_alpha",
            bind="query-params",
            help="The bound t with P(|noise| ≤ t) = 1 − α: an error larger than t happens with probability α.",
        )
    with middle:
        floor = st.segmented_control(
            "Show tails down to",
            cached.FLOORS,
            format_func=format_number,
            default=1e-6,
            required=True,
            key="tails_floor",
            bind="query-params",
            help="How far down the probability axis goes. It always reaches a hundredth of α, so the error bounds "
            "(diamonds) are in view; 1e-300 shows the far tails, where the mechanisms differ most.",
        )
    with right:
        every_variant = st.checkbox(
            "Every calibration variant",
            key="tails_every_variant",
            bind="query-params",
            help=EVERY_VARIANT_HELP,
        )
    # The floor reaches below α, so the diamonds at α are never under it (and, at the default, not squeezed onto y = 1).
    return float(alpha), min(float(floor), float(alpha) / 100), bool(every_variant)


def _invalid_note(invalid: dict) -> None:
    if invalid:
        st.caption(
            "Not drawn: "
            + "; ".join(f"{MECHANISMS[key].name} ({reason.rstrip('.')})" for key, reason in invalid.items())
            + "."
        )


def _claimed_note(bounds) -> None:
    for key in bounds.index:
        mechanism = MECHANISMS[key]
        if mechanism.guarantee == "claimed":
            st.warning(
                f"{figures.trace_name(mechanism)} is drawn at the scale its authors claim is private; that claim does not "
                "hold in general (see the Privacy profiles page). Its small errors are not a reason to use it.",
                icon=":material/warning:",
            )


st.title("How likely is a large error?")
st.markdown(
    "How often each mechanism's noise exceeds a given size, and the error you can promise "
    f"(ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}, d = {setting.dim:,})."
)

TAB_LABELS = [
    "Per coordinate",
    "Whole vector",
    "Laplace vs Gaussian: tails",
    "Laplace vs Gaussian: privacy cost",
    "Laplace vs Gaussian: variance",
]
coordinate_tab, vector_tab, ratio_tab, cost_tab, lemma_tab = st.tabs(TAB_LABELS, key="tails_view", bind="query-params")

TAIL_MATH = (
    r"P(|N_i| > t) = \operatorname{erfc}\!\Big(\frac{t}{\sigma\sqrt2}\Big)\ \text{(Gaussian)},\quad"
    r"e^{-t/b}\ \text{(Laplace)},\quad Q\big(1/p, (t/b)^p\big)\ \text{(GG)}"
)

with coordinate_tab:
    if coordinate_tab.open:
        with guarded("the per-coordinate tail chart"):
            alpha, floor, every_variant = _tail_controls()
            curves, invalid = cached.coordinate_tail_curves(**ARGS, every_variant=every_variant, floor=floor)
            bounds = cached.coordinate_bounds(**ARGS, every_variant=every_variant, alpha=alpha)
            figure = figures.tail_figure(
                curves, MECHANISMS, setting, alpha=alpha, bounds=bounds["bound"].to_dict(), vector=False
            )
            figure.update_xaxes(type="log", exponentformat="power")
            show_chart(
                figure,
                "tails_coordinate_chart",
                screen_top=284,
                alt="Per-coordinate tail probability of each mechanism's noise against the error size, log-log.",
            )
            other_bounds = cached.coordinate_bounds(**OTHER_MODEL, every_variant=every_variant, alpha=alpha)
            say(
                figures.tail_caption(
                    bounds["bound"].to_dict(),
                    MECHANISMS,
                    alpha,
                    vector=False,
                    setting=setting,
                    alternative=other_bounds["bound"].to_dict(),
                    frames=(bounds, other_bounds),
                )
            )
            _claimed_note(bounds)
            _invalid_note(invalid)
            download_csv(
                "Chart data as CSV",
                lambda: figure_frame(figure),
                "gaussmech-coordinate-tails.csv",
                key="tails_download_coordinate",
            )
            st.markdown(f"**Error bound of one coordinate at confidence {format_percent(1 - alpha, 6)}**")
            with st.container(key="tails_coordinate_bounds"):  # a stable selector for the table
                page_table(
                    figures.error_bound_table(bounds, MECHANISMS, alpha, setting.dim, vector=False),
                    hide_index=True,
                    key="tails_coordinate_bound_table",
                )
            download_csv(
                "Error bounds as CSV",
                lambda: bounds.assign(alpha=alpha).reset_index(),
                "gaussmech-coordinate-error-bounds.csv",
                key="tails_download_coordinate_bounds",
            )
        st.markdown(
            "**How often is one coordinate's error larger than t?** Each curve falls as t grows; the diamonds mark "
            "the error bound at the chosen confidence."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Tail of one noise coordinate ("
                + math_reference_link("4", "5.1", "10")
                + "), computed as a logarithm so that 1e-300 does not underflow:"
            )
            st.latex(TAIL_MATH)
            st.markdown(
                "The error bound at confidence $1-\\alpha$ is the $t$ with $P(|N_i| > t) = \\alpha$; gaussmech finds it by "
                "bisection on $\\log t$ and rounds it up, so the promise holds (Gaussian: $t = \\sigma\\,\\Phi^{-1}(1-\\alpha/2)$; "
                "Laplace: $t = b\\ln(1/\\alpha)$). R1SMG's coordinate (Ji & Li 2024, claimed) mixes over its random direction:"
            )
            st.latex(r"P(|N_i| > t) = E_{v_1}\Big[\operatorname{erfc}\Big(\frac{t}{\sqrt{2\sigma^*}\,|v_1|}\Big)\Big]")

with vector_tab:
    if vector_tab.open:
        with guarded("the vector tail chart"):
            alpha, floor, every_variant = _tail_controls()
            curves, monte_carlo, vectors, invalid = cached.norm_tail_curves(
                **ARGS, every_variant=every_variant, floor=floor
            )
            bounds = cached.norm_bounds(**ARGS, every_variant=every_variant, alpha=alpha)
            figure = figures.tail_figure(
                curves,
                MECHANISMS,
                setting,
                alpha=alpha,
                bounds=bounds["bound"].to_dict(),
                vector=True,
                monte_carlo=monte_carlo,
                monte_carlo_size=vectors,
            )
            figure.update_xaxes(type="log", exponentformat="power")
            show_chart(
                figure,
                "tails_vector_chart",
                screen_top=284,
                alt="Tail probability of the l2 norm of each mechanism's noise vector, log-log.",
            )
            other_bounds = cached.norm_bounds(**OTHER_MODEL, every_variant=every_variant, alpha=alpha)
            say(
                figures.tail_caption(
                    bounds["bound"].to_dict(),
                    MECHANISMS,
                    alpha,
                    vector=True,
                    setting=setting,
                    alternative=other_bounds["bound"].to_dict(),
                    frames=(bounds, other_bounds),
                )
            )
            if monte_carlo is not None:
                st.caption(
                    f"Monte Carlo curves use {vectors:,} seeded noise vectors, so they stop near 1/{vectors:,} "
                    f"≈ {format_number(1 / vectors)}; their bounds need α ≥ {format_number(10 / vectors)}."
                )
            _claimed_note(bounds)
            _invalid_note(invalid)
            download_csv(
                "Chart data as CSV",
                lambda: figure_frame(figure),
                "gaussmech-vector-tails.csv",
                key="tails_download_vector",
            )
            st.markdown(
                f"**Error bound of the whole vector at confidence {format_percent(1 - alpha, 6)}, d = {setting.dim:,}**"
            )
            with st.container(key="tails_norm_bounds"):
                page_table(
                    figures.error_bound_table(bounds, MECHANISMS, alpha, setting.dim, vector=True),
                    hide_index=True,
                    key="tails_norm_bound_table",
                )
            download_csv(
                "Error bounds as CSV",
                lambda: bounds.assign(alpha=alpha, dim=setting.dim).reset_index(),
                "gaussmech-vector-error-bounds.csv",
                key="tails_download_norm_bounds",
            )
        st.markdown(
            f"**How often is the whole answer's error larger than t?** The tail of the noise vector's length "
            f"‖noise‖₂ at d = {setting.dim:,}: exact for Gaussian-type noise, Monte Carlo (dash-dot) for the others."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "For i.i.d. Gaussian noise $\\lVert N\\rVert_2^2/\\sigma^2 \\sim \\chi^2_d$; R1SMG's length is $\\sqrt{\\sigma^*}\\,|z|$ ("
                + math_reference_link("6.1", "10")
                + "):"
            )
            st.latex(
                r"P(\lVert N\rVert_2 > t) = Q\Big(\frac d2, \frac{t^2}{2\sigma^2}\Big)\ \text{(Gaussian)},\qquad"
                r"\operatorname{erfc}\Big(\frac{t}{\sqrt{2\sigma^*}}\Big)\ \text{(R1SMG, claimed)}"
            )
            st.markdown(
                "Laplace and GG vectors have no closed form: the dash-dot curves are the share of seeded draws whose length "
                "exceeds t, and their bound is the empirical $(1-\\alpha)$ quantile."
            )

with ratio_tab:
    if ratio_tab.open:
        with guarded("the tail-ratio chart"):
            left, right = st.columns([1.3, 1])
            with left:
                threshold = st.select_slider(
                    "Error size t (in units of Δ)",
                    options=cached.THRESHOLDS,
                    value=3.0,
                    format_func=format_number,
                    key="tails_threshold",
                    bind="query-params",
                )
            with right:
                gaussian_kind = st.segmented_control(
                    "Gaussian calibrated by",
                    ["pdp", "analytic"],
                    format_func={"pdp": "Liu's Lemma 10 (probabilistic DP)", "analytic": "analytic (exact (ε, δ))"}.get,
                    default="pdp",
                    required=True,
                    key="tails_gaussian",
                    bind="query-params",
                )
            deltas = cached.comparison_deltas(setting.delta)
            frame = cached.tail_ratio_frame(float(threshold), deltas, gaussian_kind, setting.epsilon)
            label = "Liu's Lemma 10 (probabilistic DP)" if gaussian_kind == "pdp" else "the analytic Gaussian (exact)"
            figure = figures.tail_ratio_figure(frame, setting, threshold=float(threshold), gaussian_label=label)
            show_chart(
                figure,
                "tails_ratio_chart",
                screen_top=284,
                alt="Ratio of Laplace to Gaussian tail probability against epsilon, one curve per delta.",
            )
            say(figures.tail_ratio_caption(frame, setting, float(threshold)))
            download_csv("Chart data as CSV", lambda: frame, "gaussmech-liu-tail-ratio.csv", key="tails_download_ratio")
        st.markdown(
            "**Which noise makes a large error rarer?** Liu's ratio of Laplace's to the Gaussian's tail probability at "
            "a fixed error size t, for a scalar query (Δ₁ = Δ₂ = Δ)."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Liu (arXiv:1602.06028), Sec. 3; "
                + math_reference_link("5.7")
                + ". Laplace with $b = \\Delta/\\varepsilon$, the Gaussian with σ from Lemma 10 or the analytic calibration:"
            )
            st.latex(
                r"p_1 = e^{-\varepsilon t/\Delta}, \qquad p_2 = \operatorname{erfc}\Big(\frac{t}{\sigma\sqrt2}\Big), \qquad"
                r"\sigma_{\text{Lemma 10}} = \frac{\Delta\,(z + \sqrt{z^2 + 2\varepsilon})}{2\varepsilon},\ z = -\Phi^{-1}(\delta/2)"
            )
            st.markdown("Points where both tails are below $10^{-4}$ are omitted, as in Liu's figures.")

with cost_tab:
    if cost_tab.open:
        with guarded("the privacy-cost chart"):
            threshold = st.select_slider(
                "Error size t (in units of Δ)",
                options=cached.THRESHOLDS,
                value=3.0,
                format_func=format_number,
                key="tails_threshold",
                bind="query-params",
            )
            deltas = cached.comparison_deltas(setting.delta)
            frame = cached.privacy_cost_frame(float(threshold), deltas)
            figure = figures.privacy_cost_figure(frame, setting, threshold=float(threshold))
            show_chart(
                figure,
                "tails_cost_chart",
                screen_top=284,
                alt="Ratio of the Gaussian's to Laplace's epsilon for the same tail probability.",
            )
            say(figures.privacy_cost_caption(frame, setting, float(threshold)))
            download_csv(
                "Chart data as CSV", lambda: frame, "gaussmech-liu-privacy-cost.csv", key="tails_download_cost"
            )
        st.markdown(
            "**What does the same tail cost in privacy?** Tune Laplace and the Lemma-10 Gaussian so that an error "
            "beyond t has the same probability τ, and compare the ε each one spends."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown("Liu, Sec. 3; " + math_reference_link("5.7") + " [derived]. For a common tail τ at t:")
            st.latex(
                r"\varepsilon_1 = \frac{\Delta \ln(1/\tau)}{t}, \qquad \sigma = \frac{t}{-\Phi^{-1}(\tau/2)}, \qquad"
                r"\varepsilon_2 = \frac{1 + 2 s z}{2 s^2},\ s = \sigma/\Delta,\ z = -\Phi^{-1}(\delta/2)"
            )

with lemma_tab:
    if lemma_tab.open:
        with guarded("the Lemma 11 chart"):
            epsilons = tuple(sorted(set(cached.LEMMA11_EPSILONS) | {float(setting.epsilon)}))
            frame = cached.lemma11_frame(epsilons)
            figure = figures.lemma11_figure(frame, setting, threshold=LEMMA11_DELTA_THRESHOLD)
            show_chart(
                figure,
                "tails_lemma11_chart",
                screen_top=195,
                alt="Variance ratio of Gaussian to Laplace noise against delta, one curve per epsilon.",
            )
            current_ratio = (
                float(lemma11_variance_ratio(setting.epsilon, setting.delta)) if setting.epsilon > 0 else math.nan
            )
            say(figures.lemma11_caption(current_ratio, setting, LEMMA11_DELTA_THRESHOLD))
            download_csv("Chart data as CSV", lambda: frame, "gaussmech-liu-lemma11.csv", key="tails_download_lemma11")
        st.markdown(
            "**When is Gaussian noise noisier than Laplace?** Liu's Lemma 11 compares the variance of the Lemma-10 "
            "Gaussian with Laplace's (b = Δ/ε): below δ ≈ 0.1573 the Gaussian is noisier for every ε."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Liu, Lemma 11 ("
                + math_reference_link("5.7")
                + "): scalar query, Gaussian at the Lemma-10 bound, Laplace with $b = \\Delta/\\varepsilon$:"
            )
            st.latex(
                r"\frac{\operatorname{Var}_G}{\operatorname{Var}_L} = \frac{\big(z + \sqrt{z^2 + 2\varepsilon}\big)^2}{8} \;\ge\; \frac{z^2}{2},"
                r"\qquad z = -\Phi^{-1}(\delta/2)"
            )
            st.markdown(
                "So $\\operatorname{Var}_G > \\operatorname{Var}_L$ whenever $z > \\sqrt2$, i.e. $\\delta < 2\\Phi(-\\sqrt2) \\approx 0.1573$, for every ε > 0. A sufficient condition; the comparison uses probabilistic DP."
            )

round_up_note(setting)
bounded_data_explainer()

render_page_tools(setting, "pages/2_Tail_probabilities.py")
finish_page()  # warns about this page's own link values that could not be used
