"""gaussmech: Accuracy against dimension, and the audit of multivariate claims (Ji & Li 2024).

Four views (lazy tabs, the open one in the URL): the expected squared error E‖n‖₂² against the
dimension M with Ji & Li's stated constants beside the exact values; the spread of the error
(quantile bands and a table of moments at d); the audit of R1SMG's claimed guarantee (true δ,
and a live distinguishing test against the (ε, δ)-DP ceiling); and "accuracy first", the ε each
mechanism needs for a target error.
"""

import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import entry_box, finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402  (after the frame, so a broken core still shows the sidebar)
from gaussmech_ui.cached import accuracy as cached  # noqa: E402
from gaussmech_ui.cached.arguments import setting_arguments  # noqa: E402
from gaussmech_ui.claims.ranking import other_neighbour_model  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.figures import accuracy as figures  # noqa: E402
from gaussmech_ui.figures.common import figure_frame  # noqa: E402
from gaussmech_ui.format import format_number, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import (  # noqa: E402
    bounded_data_explainer,
    linked_number_input,
    round_up_note,
    show_chart,
    table as page_table,  # noqa: E402
)
from gaussmech_ui.params import Parameter  # noqa: E402

SEED_KEY = "accuracy_seed"
# The target error of "Accuracy first", read by the shared entry parser (bad text keeps the last value, and says so).
TARGET = Parameter(
    name="accuracy_target",
    symbol="t",
    label="Target error t",
    url_key="accuracy_target",
    default=10.0,
    kind="float",
    control="entry",
    lower=1e-12,
    upper=1e300,
    help="In the units of the answer (the same units as Δ).",
)


def draw_again() -> None:
    """New random draws for every simulation on the page (Monte Carlo points and the distinguishing test).

    The next seed goes into the seed box, which is bound to the URL, so the new draws can be shared.
    """
    st.session_state[SEED_KEY] = min(int(st.session_state.get(SEED_KEY, 0)) + 1, 10**9)


st.title("How does the error grow with the dimension?")
st.markdown(
    "The error each mechanism adds to a d-dimensional answer as d grows (Ji & Li, *Less is More*, 2024).",
    help="Exact numbers for every mechanism, including a check of the paper's own mechanism, R1SMG (the R1SMG audit).",
)

# The page's own settings in one collapsed row, so the chart starts on the first screen (a phone too).
with st.expander("This page's settings: MVG's matrix shape and γ, the simulation seed", icon=":material/tune:"):
    controls = st.columns([1, 1, 0.8, 2])
    with controls[0]:
        requested_rows = linked_number_input(
            st,
            "MVG matrix rows M₁",
            1,
            cached.MAX_DIM,
            1,
            step=1,
            key="accuracy_mvg_rows",
            help="The MVG mechanism releases a matrix: the d numbers as M₁ rows × d/M₁ columns. Its loss depends on the "
            "shape through r = min(rows, columns).",
        )
    with controls[1]:
        gamma_ratio = linked_number_input(
            st,
            "MVG γ / Δ",
            0.5,
            1e6,
            0.5,
            step=0.5,
            key="accuracy_mvg_gamma",
            help="γ bounds ‖f(X)‖_F, the size of the answer itself, which MVG's calibration needs. It cannot be below Δ/2; "
            "Ji & Li's C_M assumes exactly Δ/2.",
        )
    with controls[2]:
        # The seed of every simulation on the page: in the link, so a shared URL shows the same draws.
        seed = int(
            linked_number_input(
                st,
                "Simulation seed",
                0,
                10**9,
                step=1,
                key=SEED_KEY,
                help="Fixes the random draws of the simulated points and tests; “Draw again” moves to the next seed.",
            )
        )
rows = int(requested_rows) if setting.dim % int(requested_rows) == 0 else 1
if rows != int(requested_rows):
    st.info(
        f"M₁ = {int(requested_rows):,} does not divide d = {setting.dim:,}, so MVG uses a 1 × {setting.dim:,} matrix. "
        f"Row counts that fit: {', '.join(f'{r:,}' for r in cached.divisors(setting.dim)[:12])}"
        + ("…" if len(cached.divisors(setting.dim)) > 12 else "")
        + ".",
        icon=":material/info:",
    )
controls[3].caption(figures.shape_note(rows, setting.dim))

BOUNDS = dict(data_lower=setting.data_lower, data_upper=setting.data_upper)
page_setting = cached.make_setting(
    setting.epsilon,
    setting.delta,
    setting.sensitivity,
    setting.order,
    setting.dim,
    setting.l1_model,
    rows,
    gamma_ratio,
    **BOUNDS,
)
# The sweeps over M: the sidebar's setting without d, with the page's MVG shape and γ.
SWEEP = {key: value for key, value in setting_arguments(setting).items() if key != "dim"}
SWEEP.update(rows=rows, gamma_ratio=float(gamma_ratio))
# The same sweep under the other neighbour model, for captions that say what it would change.
OTHER_SWEEP = dict(SWEEP, l1_model=other_neighbour_model(setting.l1_model))

mean_tab, spread_tab, audit_tab, first_tab = st.tabs(
    ["Mean error", "Spread of the error", "R1SMG audit", "Accuracy first"], key="accuracy_view", bind="query-params"
)

with mean_tab:
    if mean_tab.open:
        current = None
        with guarded("the chart of expected error against dimension"):
            curves, not_drawn = cached.loss_curves(**SWEEP)
            bounds = cached.paper_bounds(setting.epsilon, setting.delta, setting.sensitivity, rows)
            monte_carlo = cached.monte_carlo_points(**SWEEP, seed=seed)
            current = cached.current_losses(**SWEEP, dim=setting.dim)
            figure = figures.expected_loss_figure(curves, bounds, monte_carlo, current, MECHANISMS, page_setting, rows)
            show_chart(
                figure,
                "accuracy_mean_chart",
                screen_top=254,
                alt="Expected squared error of each mechanism against the dimension, log-log, with Ji and Li's constants.",
            )
            other_current = cached.current_losses(**OTHER_SWEEP, dim=setting.dim)
            caption = figures.expected_loss_caption(current, MECHANISMS, page_setting, other_current)
            if caption:
                st.info(caption, icon=":material/campaign:")
            if not_drawn:
                st.caption(
                    "Left out where the mechanism is not valid: "
                    + "; ".join(
                        f"{figures.trace_name(MECHANISMS[key])} ({reason.rstrip('.')})"
                        for key, reason in not_drawn.items()
                    )
                    + "."
                )
            st.caption(
                "Circles: the mean of simulated ‖n‖₂² with each mechanism's own sampler, with a 95% interval; they fall on the "
                "exact curves. Hover for exact values."
            )
            buttons = st.columns([1, 1.4, 1, 1.6])
            with buttons[0]:
                download_csv(
                    "Chart data as CSV",
                    lambda: figure_frame(figure),
                    "gaussmech-expected-error-vs-dimension.csv",
                    key="accuracy_download_mean",
                )
            with buttons[1]:
                download_csv(
                    "Simulated points as CSV",
                    lambda: monte_carlo.assign(seed=seed),
                    "gaussmech-simulated-error-points.csv",
                    key="accuracy_download_simulated",
                )
            with buttons[2]:
                st.button(
                    "Draw again",
                    key="accuracy_redraw_mean",
                    on_click=draw_again,
                    icon=":material/casino:",
                    help="New random draws for the simulated points.",
                )
        if current is not None:
            with guarded("the comparison with Ji & Li's constants"):
                st.markdown(f"**Ji & Li's constants against the exact values at d = {setting.dim:,}**")
                table = figures.paper_table(current, MECHANISMS, page_setting)
                if len(table):
                    page_table(table, hide_index=True, key="accuracy_paper_table")
                    explanations = figures.paper_explanations()
                    for constant in current["constant"]:
                        if constant:
                            st.markdown(f"- **{constant}**: {explanations[constant]}")
                    download_csv(
                        "Table as CSV", lambda: current, "gaussmech-ji-li-constants.csv", key="accuracy_download_paper"
                    )
                else:
                    st.caption("Ji & Li's constants need ε > 0.")
        st.markdown(
            "**Expected squared error against the dimension.** Each mechanism is calibrated to the sidebar's (ε, δ, Δ) "
            "at every d; solid lines are exact, dotted lines are the constants Ji & Li state for them."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown("Expected squared error of d-dimensional noise (" + math_reference_link("10") + "):")
            st.latex(
                r"E\|n\|_2^2 = d\,\sigma^2 \ \text{(Gaussian)},\quad 2d\,b^2 \ \text{(Laplace, } b = \Delta_1/\varepsilon),"
                r"\quad d\,b^2\,\frac{\Gamma(3/p)}{\Gamma(1/p)} \ \text{(GG}(p))"
            )
            st.latex(
                r"E\|Z\|_F^2 = \frac{(M_1 M_2)^{3/2}}{K(\varepsilon, \delta)} \ \text{(MVG, i.i.d.)},\qquad"
                r"E\|n\|_2^2 = \sigma^* = \frac{2\Delta^2}{\varepsilon\,\psi} \ \text{(R1SMG, as published)}"
            )
            st.markdown(
                "Ji & Li's stated constants (the paper's abstract; "
                + math_reference_link("6.1")
                + "), with r = min(M₁, M₂):"
            )
            st.latex(
                r"C_C = \frac{2\ln(1.25/\delta)\,d}{\varepsilon^2},\quad C_A = \frac{(\Phi^{-1}(\delta))^2 + \varepsilon}{\varepsilon^2}\,d,"
                r"\quad C_M = \frac{\tfrac54 H_r + \tfrac14 H_{r,1/2}}{2\varepsilon}\,M_1M_2,\quad"
                r"C_R = \frac{2}{\varepsilon\psi},\ \psi = \Big(\frac{\delta\,\Gamma(\frac{d-1}{2})}{\sqrt{\pi}\,\Gamma(\frac d2)}\Big)^{\frac{2}{M-2}}"
            )
            for constant, text in figures.paper_explanations().items():
                st.markdown(f"- **{constant}**: {text}")
            st.markdown(
                "The MVG condition is Chanyaswad et al. 2018, Theorem 2 ("
                + math_reference_link("7.1")
                + "; whether β uses ζ(δ) or √ζ(δ) is "
                "unconfirmed [U], we follow the public implementation). Why no (ε, δ)-DP mechanism can keep E‖n‖² bounded "
                "as d grows: fingerprinting lower bounds force Ω(dΔ²/ε²) up to logarithms (Bun, Ullman & Vadhan; Steinke & Ullman)."
            )

with spread_tab:
    if spread_tab.open:
        with guarded("the chart of error quantiles"):
            chart_slot = st.container()  # the chart first, its switch under it (the first screen of a projector)
            relative = st.checkbox(
                "Divide by the mean",
                value=True,
                key="accuracy_relative",
                bind="query-params",
                help="Show ‖n‖₂² / E‖n‖₂²: the shape of each distribution, whatever its size.",
            )
            bands = cached.loss_bands(**SWEEP)
            monte_carlo = cached.monte_carlo_points(**SWEEP, seed=seed)
            current = cached.current_losses(**SWEEP, dim=setting.dim)
            figure = figures.loss_bands_figure(bands, monte_carlo, MECHANISMS, page_setting, rows, relative=relative)
            with chart_slot:
                show_chart(
                    figure,
                    "accuracy_bands_chart",
                    screen_top=253,
                    alt="5, 50 and 95 percent quantiles of the squared error against the dimension.",
                )
            caption = figures.bands_caption(current, MECHANISMS, page_setting)
            if caption:
                st.info(caption, icon=":material/campaign:")
            st.caption(
                "Gaussian, MVG and R1SMG quantiles are exact (σ²·χ²_d and σ*·χ²₁); Laplace and GG quantiles are simulated "
                "(20,000 sums, seed 0) up to d = 100 and use the Cornish–Fisher expansion with exact cumulants beyond. "
                "Circles: quantiles of the simulated losses with distribution-free 95% intervals."
            )
            buttons = st.columns([1, 1, 3])
            with buttons[0]:
                download_csv(
                    "Chart data as CSV",
                    lambda: bands,
                    "gaussmech-error-quantiles-vs-dimension.csv",
                    key="accuracy_download_bands",
                )
            with buttons[1]:
                st.button(
                    "Draw again",
                    key="accuracy_redraw_spread",
                    on_click=draw_again,
                    icon=":material/casino:",
                    help="New random draws for the simulated points.",
                )
        with guarded("the table of the error distribution"):
            st.markdown(f"**The distribution of ‖n‖₂² at d = {setting.dim:,}**")
            page_table(
                figures.loss_table(current, MECHANISMS, page_setting), hide_index=True, key="accuracy_loss_table"
            )
            for note in figures.loss_table_notes(current, MECHANISMS):
                st.caption(note)
            download_csv(
                "Table as CSV",
                lambda: figures.loss_csv_frame(current, MECHANISMS, page_setting),
                "gaussmech-error-distribution.csv",
                key="accuracy_download_loss_table",
            )
        st.markdown(
            "**Not only the mean: how the error is spread.** Shaded: the middle 90% of ‖n‖₂² (5% to 95%), line: the median."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "For i.i.d. Gaussian noise (and MVG, with d = M₁M₂ entries) and for R1SMG ("
                + math_reference_link("6.1")
                + "):"
            )
            st.latex(
                r"\|n\|_2^2 \sim \sigma^2 \chi^2_d:\ \text{skewness } \sqrt{8/d},\ \text{excess kurtosis } 12/d;\qquad"
                r"\|n\|_2^2 = \sigma^* z^2 \sim \sigma^* \chi^2_1:\ 2\sqrt2,\ 12"
            )
            st.markdown(
                "For Laplace and GG(p) coordinates X, the moments of Σ X² are exact from the cumulants of X² "
                "(E|X|^q = b^q Γ((q+1)/p)/Γ(1/p)). Higher kurtosis means a heavier tail relative to the loss's own scale: "
                "R1SMG's error is below 0.39% of its mean in 5% of releases and above 3.84 times its mean in another 5%."
            )

with audit_tab:
    if audit_tab.open:
        # One line of warning, then the chart (drawn into its slot once the audit point is computed), so that
        # it ends on a projector's first screen; the numbers and the full warning follow it.
        with st.container(key="compact_notice_audit"):
            st.warning(
                "**R1SMG is shown here to check a published claim, not as a mechanism to use.**",
                icon=":material/policy:",
            )
        chart_slot = st.container()
        st.markdown(
            "Ji & Li (2024) claim (ε, δ)-DP for R1SMG; our analysis ("
            + math_reference_link("6.2")
            + ") computes what its noise actually guarantees. Every number here "
            "can be checked: the formula is in “The math”, and a Monte Carlo estimate sits next to the quadrature."
        )
        point = None
        with guarded("the true δ of R1SMG"):
            point = cached.r1smg_audit_point(setting.epsilon, setting.delta, setting.sensitivity, setting.dim, seed)
            if point["valid"]:
                metrics = st.columns(3)
                metrics[0].metric("Claimed δ (Ji & Li)", format_number(point["claimed_delta"]))
                metrics[1].metric(
                    f"True δ({format_number(setting.epsilon)}), quadrature",
                    format_number(point["true_delta"]),
                    help=f"Error estimate of the quadrature: {point['quadrature_error']:.3g}.",
                )
                metrics[2].metric(
                    "Monte Carlo check",
                    f"{format_number(point['monte_carlo'])} ± {format_number(1.96 * point['monte_carlo_error'])}",
                    help=f"{point['samples']:,} draws, seed {point['seed']}; ± is a 95% interval.",
                )
            message = figures.audit_caption(point, page_setting)
            (st.warning if point["valid"] and point["true_delta"] > point["claimed_delta"] else st.info)(
                message, icon=":material/campaign:"
            )
        with chart_slot, guarded("the chart of R1SMG's true δ against dimension"):
            curve = cached.r1smg_true_delta_curve(setting.epsilon, setting.delta, setting.sensitivity)
            figure = figures.true_delta_figure(curve, point or {}, MECHANISMS, page_setting)
            show_chart(
                figure,
                "accuracy_true_delta_chart",
                screen_top=315,
                alt="True delta of R1SMG noise against the dimension, next to the claimed delta.",
            )
            download_csv(
                "Chart data as CSV",
                lambda: curve,
                "gaussmech-r1smg-true-delta-vs-dimension.csv",
                key="accuracy_download_true_delta",
            )

        st.subheader("A live check: can a simple test tell two neighbouring datasets apart?")
        st.markdown(
            "Two datasets differ in one person, so their answers differ by a vector of length Δ. We release one of them with "
            "noise, many times, and each time guess the dataset whose answer is **closer to the output**. "
            "(ε, δ)-DP caps how often *any* test can be right: at most (e^ε + δ)/(1 + e^ε)."
        )
        with guarded("the distinguishing test"):
            settings_row = st.columns([1, 1, 3])
            with settings_row[0]:
                trials = st.selectbox(
                    "Simulated releases",
                    options=(2_000, 20_000, 200_000),
                    index=1,
                    format_func=lambda n: f"{n:,}",
                    key="accuracy_trials",
                    bind="query-params",
                )
            with settings_row[1]:
                st.button(
                    "Draw again",
                    key="accuracy_redraw_test",
                    on_click=draw_again,
                    icon=":material/casino:",
                    help="Simulate new releases.",
                )
            rows_test, ceiling = cached.closer_test(
                setting.epsilon, setting.delta, setting.sensitivity, setting.dim, int(trials), seed
            )
            curve_test = cached.closer_test_curve(setting.epsilon, setting.delta, setting.sensitivity)
            figure = figures.closer_test_figure(rows_test, ceiling, MECHANISMS, page_setting)
            show_chart(
                figure,
                "accuracy_test_chart",
                alt="Success rate of the closer-answer test for R1SMG and Gaussian noise, with the DP ceiling.",
            )
            sentences = figures.closer_test_caption(rows_test, ceiling, curve_test, page_setting)
            for sentence in sentences:
                st.markdown(f"- {sentence}")
            download_csv(
                "Simulation results as CSV",
                lambda: rows_test.assign(ceiling=ceiling, seed=seed),
                "gaussmech-distinguishing-test.csv",
                key="accuracy_download_test",
            )
            if setting.dim < 3:
                st.caption("R1SMG needs d ≥ 3; move d in the sidebar to include it.")
        with guarded("the chart of the test against dimension"):
            figure = figures.closer_test_curve_figure(curve_test, rows_test, MECHANISMS, page_setting)
            show_chart(
                figure,
                "accuracy_test_curve_chart",
                alt="Exact success probability of the closer-answer test against the dimension, with the DP ceiling.",
            )
            download_csv(
                "Chart data as CSV",
                lambda: curve_test,
                "gaussmech-distinguishing-test-vs-dimension.csv",
                key="accuracy_download_test_curve",
            )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "R1SMG releases f(x) + n with n = √σ* z v, z ~ N(0, 1) and v uniform on the unit sphere, fresh and secret. "
                "So n is spherically symmetric; with r₁ = ‖n‖, r₂ = ‖n + d‖ and ‖d‖ = Δ, its exact privacy loss is ("
                + math_reference_link("6.2")
                + ")"
            )
            st.latex(
                r"L = \frac{d-1}{2}\ln\frac{r_2^2}{r_1^2} + \frac{r_2^2 - r_1^2}{2\sigma^*},\qquad"
                r"\delta(\varepsilon) = E\big[(1 - e^{\varepsilon - L})_+\big]"
            )
            st.markdown(
                "The test: with u = d/Δ, since ‖n + d‖² − ‖n‖² = 2⟨n, d⟩ + Δ², the output is closer to f(x) exactly when"
            )
            st.latex(
                r"\langle n, u\rangle > -\Delta/2,\qquad \langle n, u\rangle = \sigma Z \ \text{(Gaussian)},\quad"
                r"\langle n, u\rangle = \sqrt{\sigma^*}\,z\,t,\ t = \langle v, u\rangle \ \text{(R1SMG)}"
            )
            st.markdown(
                "so only this projection is simulated (no d-dimensional vectors, even at d = 10⁶). For both noises the density "
                "falls with the distance, so this test is the likelihood-ratio test: the best test with equal priors, with "
                "success (1 + δ(0))/2. Gaussian: Φ(Δ/(2σ)). The ceiling: let e₁ and e₂ be the test's two error "
                "probabilities (α on this page is only the accuracy target's failure probability); (ε, δ)-DP applied to the "
                "test's decision gives 1 − e₁ ≤ e^ε e₂ + δ and 1 − e₂ ≤ e^ε e₁ + δ "
                "(Kairouz, Oh & Viswanath 2015, Theorem 2.1), so"
            )
            st.latex(r"P(\text{right}) = 1 - \frac{e_1 + e_2}{2} \le \frac{e^\varepsilon + \delta}{1 + e^\varepsilon}.")
            st.markdown(
                "The interval around each simulated rate is Wilson's score interval (95%): a confidence interval for a "
                "proportion that, unlike ± 1.96 standard errors, stays inside [0, 1] and is reliable near 0 and 1."
            )

with first_tab:
    if first_tab.open:
        with guarded("the accuracy-first table"):
            inputs = st.columns([1, 1.3, 1.3, 1])
            with inputs[0]:
                target = entry_box(TARGET, "accuracy_target")
            with inputs[1]:
                kind = st.radio(
                    "Kind of target",
                    options=("quantile", "rms"),
                    key="accuracy_kind",
                    bind="query-params",
                    format_func={"quantile": "Bound t with probability 1 − α", "rms": "Root-mean-square error"}.get,
                )
            with inputs[2]:
                scope = st.radio(
                    "Error of",
                    options=("coordinate", "norm"),
                    key="accuracy_scope",
                    bind="query-params",
                    format_func={"coordinate": "each coordinate |nᵢ|", "norm": "the whole vector ‖n‖₂"}.get,
                )
            with inputs[3]:
                alpha = st.selectbox(
                    "α (chance the bound fails)",
                    options=(0.1, 0.05, 0.01, 0.001),
                    index=1,
                    key="accuracy_alpha",
                    bind="query-params",
                    disabled=kind != "quantile",
                    help="The bound may fail with probability α.",
                )
            answer = cached.accuracy_first_answer(
                setting.delta,
                setting.sensitivity,
                setting.order,
                setting.dim,
                setting.l1_model,
                OTHER_SWEEP["l1_model"],
                rows,
                float(gamma_ratio),
                float(target),
                kind,
                float(alpha),
                scope,
                **BOUNDS,
            )
            frame = answer.frame
            st.info(answer.caption, icon=":material/campaign:")
            page_table(answer.table, hide_index=True, key="accuracy_first_table")
            for reason in answer.reasons:
                st.caption(reason)
            for claim in answer.claims:
                st.warning(claim, icon=":material/warning:")
            st.caption(
                f"δ = {format_number(setting.delta)} and Δ = {format_number(setting.sensitivity)} from the sidebar; the sidebar's "
                "ε is not used here. Every ε shown is verified: the noise calibrated at that ε meets the target."
            )
            download_csv(
                "Table as CSV",
                lambda: frame.assign(
                    target=float(target),
                    kind=kind,
                    scope=scope,
                    alpha=float(alpha),
                    dim=setting.dim,
                    delta=setting.delta,
                ),
                "gaussmech-accuracy-first.csv",
                key="accuracy_download_first",
            )
        st.markdown(
            "**Start from the accuracy you need.** Give the largest error you can accept at d; each mechanism's ε is the "
            "smallest (most private) ε in [10⁻⁶, 1000] at which its calibrated noise meets it."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "For each mechanism, error(ε) is the root-mean-square √E‖n‖² (or √(E‖n‖²/d) per coordinate), or the bound t "
                "with P(‖n‖₂ > t) ≤ α (or P(|nᵢ| > t) ≤ α), of the noise the registry calibrates at ε. Every calibration's "
                "scale falls as ε grows, so error(ε) falls too, and the answer is"
            )
            st.latex(
                r"\varepsilon^\star = \min\{\varepsilon \in [10^{-6}, 10^3] : \text{the mechanism is valid at } \varepsilon "
                r"\text{ and error}(\varepsilon) \le t\}"
            )
            st.markdown(
                "found by root-finding on log ε and returned from the feasible side, then verified. Bounds use the exact tails "
                "(χ² for Gaussian noise, erfc for R1SMG); the norm of Laplace and GG noise has no closed-form tail, so its "
                "bound is simulated (or, at large d, the Cornish–Fisher expansion) and marked approximate."
            )

if not first_tab.open:  # "Accuracy first" finds ε for a target error: it shows no scale at the sidebar's ε
    round_up_note(setting)
bounded_data_explainer()

render_page_tools(setting, "pages/4_Accuracy_vs_dimension.py")
finish_page()  # warns about this page's own link values that could not be used
