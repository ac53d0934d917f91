"""gaussmech: the Overview page, where the dashboard opens.

It answers "how much noise does each mechanism need here?": one table of every mechanism in the
registry at the sidebar's setting, a chart of the noise against ε, Balle & Wang's variance
ratio, and the formulas with their sources. Start it with ``python3 dev.py run``.
"""

import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402  (after the frame, so a broken core still shows the sidebar)
from gaussmech_ui.cached import overview as cached  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.figures import overview as figures  # noqa: E402
from gaussmech_ui.figures.common import figure_frame, trace_name  # noqa: E402
from gaussmech_ui.format import cite_math, escape_markdown, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import (  # noqa: E402
    bounded_data_explainer,
    round_up_note,
    show_chart,
    table as page_table,  # noqa: E402
)
from gaussmech_ui.params import EVERY_VARIANT_HELP  # noqa: E402

ROW_HEIGHT = 38
# Text columns shown under the table (they wrap there), so the table itself fits a laptop's width.
TEXT_COLUMNS = ("Guarantee", "Validity", "Source")

st.title("How much noise does each mechanism need?")
st.markdown(
    "Every mechanism's noise at the sidebar's privacy setting; the table under the chart gives its error at d and "
    "whether its guarantee holds here."
)

frame = other_model = None
with guarded("the table of mechanisms"):
    frame = cached.calibration_table(**cached.setting_arguments(setting))
    other_model = cached.calibration_table(**cached.setting_arguments(setting, other_neighbour_model=True))

# The chart first, so that it starts on a projector's first screen; its control and notes under it.
with guarded("the chart of noise against ε"):
    chart_slot = st.container()
    # The answer right under the chart, so it starts on a laptop's first screen (1400×1000).
    answer_slot = st.container()
    every_variant = st.checkbox(
        "Every calibration variant",
        key="overview_every_variant",
        bind="query-params",
        help=EVERY_VARIANT_HELP,
    )
    low, high = cached.epsilon_grid_exponents(setting.epsilon)
    sweep = cached.std_sweep(**cached.setting_arguments(setting, epsilon=False), low_exponent=low, high_exponent=high)
    current_stds = {} if frame is None else frame["coordinate_std"].where(frame["valid"]).to_dict()
    std_figure = figures.std_vs_epsilon_figure(sweep, MECHANISMS, setting, current_stds, every_variant=every_variant)
    with chart_slot:
        show_chart(
            std_figure,
            "overview_std_chart",
            alt="Noise standard deviation per coordinate against ε for every mechanism, on log-log axes.",
            screen_top=162,
        )
    st.caption(
        "Each line is one mechanism's noise at every ε, with δ, Δ and d from the sidebar; gaps are where its "
        "guarantee does not hold. Hover for exact values; click a legend entry to hide or show its curve, or tick "
        "“Every calibration variant” to add the sufficient Gaussian bounds."
    )
    download_csv(
        "Chart data as CSV",
        lambda: figure_frame(std_figure),
        "gaussmech-noise-vs-epsilon.csv",
        key="overview_download_std",
    )

if frame is not None:
    with guarded("the table of mechanisms"):
        answer_slot.info(figures.overview_caption(frame, MECHANISMS, setting, other_model), icon=":material/campaign:")
        for message in figures.claim_warnings(frame, MECHANISMS, setting):
            st.warning(message, icon=":material/warning:")
        failed = figures.failures(frame, MECHANISMS)
        if failed:
            st.error(
                "Some mechanisms could not be computed at this setting; try a less extreme ε, δ or d. "
                + "; ".join(failed),
                icon=":material/error:",
            )
        table, styled_table = figures.overview_table(frame, MECHANISMS, setting)
        with st.container(key="overview_table"):
            # Tall enough for every row: on a projector nothing should hide behind a scroll bar.
            page_table(
                styled_table,
                key="overview_dataframe",
                hide_index=True,
                row_height=ROW_HEIGHT,
                height=(len(table) + 1) * ROW_HEIGHT + 3,
                # The verdict column is wide enough for "✗ no: true δ = 0.181" (it must never be cut).
                # Widths and short headers so that every shown column fits the main column of a 1280 px
                # projector with the sidebar open (785 px); the headers' help, the expander under the table
                # (every mechanism's full name) and the CSV keep the full names.
                column_config={
                    "Mechanism": st.column_config.TextColumn(width=244),
                    "Holds here?": st.column_config.TextColumn(width=168),
                    "Scale": st.column_config.TextColumn(width=80, help="The parameter each mechanism calibrates."),
                    "Noise std per coordinate": st.column_config.TextColumn(
                        "Std/coord.", width=88, help="Noise standard deviation per coordinate."
                    ),
                    f"E‖noise‖₂² at d = {setting.dim:,}": st.column_config.TextColumn(
                        "E‖noise‖₂²",
                        width=100,
                        help=f"Expected squared error of the whole vector at d = {setting.dim:,}.",
                    ),
                    "Error vs analytic Gaussian": st.column_config.TextColumn(
                        "vs aGM", width=82, help="E‖noise‖₂² divided by the analytic Gaussian's."
                    ),
                },
                # The numbers and the verdict fit a laptop's width (1400 px); the guarantee kind, the reason
                # and the source of each row are in the expander under it and in the CSV.
                column_order=[column for column in table.columns if column not in TEXT_COLUMNS],
            )
        with st.expander("Guarantee, validity and source of each mechanism"):
            page_table(table[["Mechanism", *TEXT_COLUMNS]], key="overview_text_table", static=True, hide_index=True)
        st.caption(
            "Scale is the parameter each mechanism calibrates (σ, b, s or σ*); the noise std per coordinate makes "
            "them comparable, and the error column compares E‖noise‖₂² with the analytic Gaussian's. Greyed rows: "
            "the guarantee does not hold at this setting. The CSV has the exact values. Kinds of guarantee: "
            "(ε, δ)-DP bounds every event's probability ratio by e^ε up to δ; probabilistic DP (pDP) only asks that "
            "the privacy loss exceed ε with probability at most δ, a weaker promise; zCDP (zero-concentrated DP) "
            "bounds the Rényi divergences by ρα and is converted to (ε, δ) here; ε-DP (pure) has δ = 0."
        )
        invalid = figures.not_valid_here(frame, MECHANISMS)
        if invalid:
            st.markdown(
                "**Not valid at this setting:**\n" + "\n".join(f"- {escape_markdown(line)}" for line in invalid)
            )
        download_csv(
            "Table as CSV",
            lambda: figures.overview_csv_frame(frame, MECHANISMS, setting),
            "gaussmech-overview-table.csv",
            key="overview_download_table",
        )

st.subheader("What exact calibration saves")
with guarded("the variance-ratio chart"):
    ratios = cached.variance_ratio_frame(
        cached.ratio_deltas(setting.delta), cached.ratio_grid_exponent(setting.epsilon)
    )
    current_ratio = None if frame is None else figures.current_variance_ratio(frame)
    ratio_figure = figures.variance_ratio_figure(ratios, setting.epsilon, setting.delta, current_ratio)
    show_chart(
        ratio_figure,
        "overview_ratio_chart",
        alt="Ratio of the classical to the analytic Gaussian's variance against ε, one curve per δ.",
    )
    st.caption(
        "How many times more variance the classical formula adds than the exact (analytic) calibration: the gap "
        "grows without bound as ε → 0, and is larger for larger δ (Balle & Wang 2018, Section 5.1)."
    )
    download_csv(
        "Chart data as CSV",
        lambda: figure_frame(ratio_figure),
        "gaussmech-variance-ratio.csv",
        key="overview_download_ratio",
    )


with st.expander("The math", icon=":material/function:"):
    st.markdown(
        "Every mechanism releases $f(x) + Z$ for a query $f$ with l2 sensitivity "
        "$\\Delta = \\sup_{x \\sim x'} \\lVert f(x) - f(x') \\rVert_2$. It is $(\\varepsilon, \\delta)$-DP when "
        "for every event $S$, $P[M(x) \\in S] \\le e^{\\varepsilon} P[M(x') \\in S] + \\delta$."
    )
    st.markdown("**Classical Gaussian** (Dwork & Roth 2014, Theorem A.1), a theorem only for $0 < \\varepsilon < 1$:")
    st.latex(r"\sigma_{\mathrm{cGM}} = \frac{\Delta \sqrt{2 \ln(1.25/\delta)}}{\varepsilon}")
    st.markdown(
        "**Analytic Gaussian** (Balle & Wang 2018, Theorem 8): exact for every $\\varepsilon \\ge 0$. gaussmech "
        "finds the smallest $\\sigma$ with"
    )
    st.latex(
        r"\Phi\!\left(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\right)"
        r" - e^{\varepsilon}\, \Phi\!\left(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\right) \le \delta"
    )
    st.markdown(
        "solving in log space with `erfcx`, so that no $e^{\\varepsilon}$ is ever formed, and checking that the "
        "returned $\\sigma$ meets the guarantee; it is never below the exact value ("
        + math_reference_link("2.3")
        + ")."
    )
    st.markdown(
        "**Sufficient Gaussian bounds** (each valid, each larger than the analytic σ): the tail bound "
        "$P[L \\ge \\varepsilon] \\le \\delta$ (Balle & Wang, eq. 2) and Liu's probabilistic DP (Lemma 10), "
        "with $z = -\\Phi^{-1}(\\delta)$ and $z = -\\Phi^{-1}(\\delta/2)$ respectively:"
    )
    st.latex(r"\sigma = \frac{\Delta \left(z + \sqrt{z^2 + 2\varepsilon}\right)}{2\varepsilon}")
    st.markdown("zCDP (Bun & Steinke 2016, Prop. 1.3), with $\\rho = \\Delta^2 / (2\\sigma^2)$:")
    st.latex(
        r"\rho = \left(\sqrt{\ln(1/\delta) + \varepsilon} - \sqrt{\ln(1/\delta)}\right)^2,"
        r"\qquad \sigma = \frac{\Delta}{\sqrt{2\rho}}"
    )
    st.markdown(
        "and its sharper conversion (Canonne, Kamath & Steinke 2020, Cor. 13), where $\\alpha$ is the order of a Rényi divergence:"
    )
    st.latex(
        r"\delta = \inf_{\alpha > 1} \frac{\exp\big((\alpha - 1)(\alpha\rho - \varepsilon)"
        r" + \alpha \ln(1 - 1/\alpha)\big)}{\alpha - 1}"
    )
    st.markdown(
        "Vinterbo's closed form (arXiv:2012.10523), with $z = -\\ln(4\\delta(1-\\delta))$ and "
        "$(a, s) = (1, 1)$ for $\\delta \\le 1/2$:"
    )
    st.latex(r"\sigma = \frac{\Delta \left(\sqrt{a z + \varepsilon} + s\sqrt{a z}\right)}{\varepsilon\sqrt{2}}")
    st.markdown(
        "**Laplace** (Dwork, McSherry, Nissim & Smith 2006), pure $\\varepsilon$-DP with the l1 sensitivity "
        "$\\Delta_1$ ($= \\Delta$ or $\\sqrt{d}\\,\\Delta$, as chosen in the sidebar):"
    )
    st.latex(r"b = \frac{\Delta_1}{\varepsilon}, \qquad \operatorname{std} = \sqrt{2}\, b")
    st.markdown(
        "**Generalized Gaussian** of order $p$ (Liu, arXiv:1602.06028), calibrated with its exact "
        "$(\\varepsilon, \\delta)$ profile ("
        + math_reference_link("5.5")
        + "), or with Liu's Corollary 7 for probabilistic DP "
        "(reconstructed, " + math_reference_link("5.4") + "):"
    )
    st.latex(
        r"f(x) = \frac{p}{2b\,\Gamma(1/p)}\, e^{-(|x|/b)^p},"
        r"\qquad \operatorname{Var} = b^2 \frac{\Gamma(3/p)}{\Gamma(1/p)}"
    )
    st.markdown(
        "**Matrix-variate Gaussian**, i.i.d. form (Chanyaswad et al. 2018, Theorem 2; "
        + math_reference_link("7.2")
        + "): "
        "$s^2 = \\sqrt{mn} / K(\\varepsilon, \\delta)$ for an $m \\times n$ query."
    )
    st.markdown(
        "**R1SMG** (Ji & Li 2024), as published: rank-1 noise $n = \\sqrt{\\sigma^*}\\, z\\, v$ with $v$ uniform "
        "on the sphere and"
    )
    st.latex(
        r"\sigma^* = \frac{2\Delta^2}{\varepsilon\,\psi}, \qquad"
        r"\psi = \left(\frac{\delta\, \Gamma\big(\tfrac{d-1}{2}\big)}{\sqrt{\pi}\, \Gamma\big(\tfrac{d}{2}\big)}\right)^{2/(d-2)}"
    )
    st.markdown(
        "The true $\\delta(\\varepsilon) = E\\big[(1 - e^{\\varepsilon - L})_+\\big]$ of this noise, from its exact "
        "privacy loss ("
        + math_reference_link("6.2")
        + "), with $r_1 = \\lVert n \\rVert$, $r_2 = \\lVert n + \\Delta e \\rVert$:"
    )
    st.latex(r"L = \frac{d-1}{2} \ln\frac{r_2^2}{r_1^2} + \frac{r_2^2 - r_1^2}{2\sigma^*}")
    st.markdown(
        "**Expected squared error** at dimension $d$: $E\\lVert Z \\rVert_2^2 = d\\,\\sigma^2$ for i.i.d. Gaussian "
        "noise, $2 d b^2$ for Laplace, $d\\, b^2\\, \\Gamma(3/p) / \\Gamma(1/p)$ for the generalized Gaussian, and "
        "$\\sigma^*$ for R1SMG. **Variance ratio**: $\\sigma_{\\mathrm{cGM}}^2 / \\sigma_{\\mathrm{aGM}}^2$."
    )
    st.markdown("**Sources of every mechanism in the table:**")
    st.markdown(
        "\n".join(f"- {trace_name(mechanism)}: {cite_math(mechanism.source)}" for mechanism in MECHANISMS.values())
    )

round_up_note(setting)
bounded_data_explainer()

render_page_tools(setting, "app.py")

finish_page()  # warns about this page's own link values that could not be used
