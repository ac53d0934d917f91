"""gaussmech: Privacy profiles and composition: what the guarantee means beyond one (ε, δ) pair.

Five views (lazy tabs, the open one in the URL): the δ(ε) curves of every calibrated mechanism;
the Gaussian's privacy-loss distribution with the two masses of Balle & Wang's Theorem 5; where
the classical formula holds, with Balle & Wang's low-privacy bound; the hypothesis-testing view
(Gaussian DP); and the composition of k releases by four accounting routes.
"""

import streamlit as st

from gaussmech_ui.attack_panel import render_attack_risk_section
from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core import tails as core_tails  # noqa: E402
from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402
from gaussmech_ui.cached import distributions as cached_setting, profiles as cached  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.figures import profiles as figures  # noqa: E402
from gaussmech_ui.figures.common import figure_frame  # noqa: E402
from gaussmech_ui.figures.distributions import trace_name  # noqa: E402
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

st.title("What does the privacy guarantee mean?")
st.markdown(
    "One (ε, δ) pair is one point of a curve of guarantees: the curve, what it means for an attacker, and how it "
    f"adds up (ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)})."
)

TAB_LABELS = [
    "Privacy profiles",
    "What an attacker can do",
    "Privacy loss",
    "Where the classical formula holds",
    "Hypothesis testing",
    "Composition",
]
profile_tab, attack_tab, loss_tab, classical_tab, testing_tab, composition_tab = st.tabs(
    TAB_LABELS, key="profiles_view", bind="query-params"
)

with attack_tab:
    if attack_tab.open:  # the best attacker's numbers, computed only when the tab is open (about 2 s of CPU)
        with guarded("the attack-risk section"):
            render_attack_risk_section(setting, "attack", heading=False, chart_first=True, screen_top=222)

with profile_tab:
    if profile_tab.open:
        with guarded("the privacy-profile chart"):
            every_variant = st.checkbox(
                "Every calibration variant",
                key="profiles_every_variant",
                bind="query-params",
                help=EVERY_VARIANT_HELP,
            )
            curves, claimed, invalid, comparison = cached.profile_curves(**ARGS, every_variant=every_variant)
            figure = figures.profile_figure(curves, MECHANISMS, setting, claimed=claimed)
            show_chart(
                figure,
                "profiles_profile_chart",
                screen_top=264,
                alt="Privacy profile delta of epsilon of each calibrated mechanism, log-log.",
            )
            say(figures.profile_caption(comparison, MECHANISMS, setting, claimed))
            for key, (claimed_delta, true_delta) in claimed.items():
                if true_delta > claimed_delta:
                    st.warning(
                        f"**{trace_name(MECHANISMS[key])}: the published guarantee does not hold here.** Its noise has true "
                        f"δ = {format_number(true_delta)} at ε = {format_number(setting.epsilon)}, not the claimed "
                        f"{format_number(claimed_delta)}. Do not use it to protect data ({math_reference_link('6.2')}).",
                        icon=":material/warning:",
                    )
            if invalid:
                st.caption(
                    "Not drawn: "
                    + "; ".join(f"{MECHANISMS[key].name} ({reason.rstrip('.')})" for key, reason in invalid.items())
                    + "."
                )
            st.caption(
                "Laplace's curve ends where its δ becomes exactly 0 (ε ≥ Δ₁/b); curves below 1e-300 are cut off."
            )
            download_csv(
                "Chart data as CSV",
                lambda: figure_frame(figure),
                "gaussmech-privacy-profiles.csv",
                key="profiles_download_profile",
            )
        st.markdown(
            "**Two mechanisms calibrated to the same (ε, δ) differ everywhere else.** Each curve is the smallest δ "
            "that the noise guarantees at every ε; all pass through or below the chosen point (×)."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "The privacy profile (hockey-stick divergence) of a mechanism; it is (ε, δ)-DP exactly when δ ≥ δ(ε):"
            )
            st.latex(r"\delta(\varepsilon) = \sup_{x \sim x'} E_{Y \sim M(x)}\big[(1 - e^{\varepsilon - L})_+\big]")
            st.markdown("Gaussian with μ = Δ/σ (Balle & Wang 2018, Theorem 8; Dong, Roth & Su 2022):")
            st.latex(
                r"\delta(\varepsilon) = \Phi\Big(\frac{\mu}{2} - \frac{\varepsilon}{\mu}\Big) - e^{\varepsilon}\, \Phi\Big(-\frac{\mu}{2} - \frac{\varepsilon}{\mu}\Big)"
            )
            st.markdown(
                "Laplace with $\\varepsilon_0 = \\Delta_1/b$ ("
                + math_reference_link("4")
                + "), and the generalized Gaussian in one dimension ("
                + math_reference_link("5.5")
                + "):"
            )
            st.latex(
                r"\delta_{\text{Lap}}(\varepsilon) = \big(1 - e^{(\varepsilon - \varepsilon_0)/2}\big)_+, \qquad"
                r"\delta_{\text{GG}}(\varepsilon) = F(y_\varepsilon) - e^{\varepsilon} F(y_\varepsilon - \Delta),\ \ \ell(y_\varepsilon) = \varepsilon"
            )
            st.markdown(
                "R1SMG (Ji & Li 2024) claims (ε, δ)-DP; its curve is the **true** δ(ε) of its noise, from the exact privacy loss "
                "of rank-1 noise with a secret uniform direction ("
                + math_reference_link("6.2")
                + "), computed by quadrature."
            )

with loss_tab:
    if loss_tab.open:
        with guarded("the privacy-loss chart"):
            scale_view = st.segmented_control(
                "Density axis",
                ["log", "linear"],
                default="log",
                required=True,
                key="profiles_loss_scale",
                bind="query-params",
                help="The two masses usually sit far in the tails: the log axis shows them, the linear one the shape.",
            )
            frame, numbers = cached.privacy_loss_frame(**ARGS)
            figure = figures.privacy_loss_figure(frame, setting, **numbers, log_density=scale_view == "log")
            show_chart(
                figure,
                "profiles_loss_chart",
                screen_top=303,
                alt="Density of the Gaussian privacy loss with the two masses of Theorem 5 shaded.",
            )
            say(
                figures.privacy_loss_caption(
                    setting, eta=numbers["eta"], upper=numbers["upper"], lower=numbers["lower"], delta=numbers["delta"]
                )
            )
            download_csv(
                "Chart data as CSV",
                lambda: frame.assign(**numbers),
                "gaussmech-privacy-loss.csv",
                key="profiles_download_loss",
            )
        st.markdown(
            "**Where δ comes from.** The privacy loss of one Gaussian release is itself Gaussian; δ is the blue mass "
            "beyond ε minus e^ε times the orange mass below −ε (Balle & Wang, Theorem 5)."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Balle & Wang 2018, Lemma 3 and Theorem 5 ("
                + math_reference_link("2.1", "2.4")
                + "): with $\\eta = \\Delta^2/(2\\sigma^2)$,"
            )
            st.latex(
                r"L = \log\frac{p_{M(x)}(Y)}{p_{M(x')}(Y)} \sim N(\eta, 2\eta), \qquad"
                r"\delta(\varepsilon) = P[L \ge \varepsilon] - e^{\varepsilon} P[L \le -\varepsilon]"
            )
            st.latex(
                r"= \Phi\Big(\frac{\eta - \varepsilon}{\sqrt{2\eta}}\Big) - e^{\varepsilon}\,\Phi\Big(\frac{-\eta - \varepsilon}{\sqrt{2\eta}}\Big)"
            )
            st.markdown(
                "The older sufficient condition $P[L \\ge \\varepsilon] \\le \\delta$ ignores the second term and so needs more noise."
            )

with classical_tab:
    if classical_tab.open:
        with guarded("the classical-validity map"):
            low = cached.map_delta_exponent(setting.delta)
            log_epsilons, log_deltas, regions, true_deltas, delta_zero = cached.classical_map(low)
            point = cached.classical_point(setting.epsilon, setting.delta)
            figure = figures.classical_map_figure(
                log_epsilons,
                log_deltas,
                regions,
                true_deltas,
                setting,
                labels=core_tails.CLASSICAL_REGION_LABELS,
                current_region=point["region"],
                delta_zero=delta_zero,
            )
            show_chart(
                figure,
                "profiles_map_chart",
                screen_top=222,
                alt="Map of the epsilon-delta plane showing where the classical Gaussian formula is valid.",
            )
            message = figures.classical_map_caption(point["region"], point["true_delta"], setting, point["breakdown"])
            (st.warning if point["region"] == core_tails.CLASSICAL_FAILS else st.info)(
                message, icon=":material/campaign:"
            )
            download_csv(
                "Map data as CSV",
                lambda: figures.map_frame(
                    log_epsilons, log_deltas, regions, true_deltas, core_tails.CLASSICAL_REGION_LABELS
                ),
                "gaussmech-classical-validity-map.csv",
                key="profiles_download_map",
            )
        with guarded("the low-privacy chart"):
            frame = cached.low_privacy_frame(setting.delta, setting.sensitivity, setting.epsilon)
            figure = figures.low_privacy_figure(frame, setting)
            show_chart(
                figure,
                "profiles_low_privacy_chart",
                alt="Analytic and classical sigma against epsilon with Balle and Wang's lower bound.",
            )
            say(figures.low_privacy_caption(frame, setting))
            download_csv(
                "Chart data as CSV",
                lambda: frame,
                "gaussmech-low-privacy-bound.csv",
                key="profiles_download_low_privacy",
            )
        st.markdown(
            "**Where is σ = Δ√(2 ln(1.25/δ))/ε actually private?** Its theorem covers only ε < 1; beyond, the exact δ "
            "of its noise decides. And Balle & Wang show no private σ can fall like 1/ε."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Classical formula (Dwork & Roth 2014, Theorem A.1; Balle & Wang Theorem 1), a theorem for 0 < ε < 1 only ("
                + math_reference_link("1")
                + "):"
            )
            st.latex(r"\sigma_{\text{cGM}} = \frac{\Delta\sqrt{2\ln(1.25/\delta)}}{\varepsilon}")
            st.markdown(
                "Each cell compares the target δ with the exact δ of that noise at ε (Balle & Wang, Theorem 8). Δ cancels."
            )
            st.markdown(
                "Low-privacy bound (Balle & Wang, Theorem 4, with the exact threshold of "
                + math_reference_link("3")
                + "): every (ε, δ)-DP Gaussian has "
                "$\\sigma \\ge \\Delta/\\sqrt{2\\varepsilon}$ whenever"
            )
            st.latex(r"\delta < \delta_0(\varepsilon) = \tfrac12 - e^{\varepsilon}\,\Phi\big(-\sqrt{2\varepsilon}\big)")
            st.markdown(
                "The paper's printed threshold $\\tfrac12 - e^{-3\\varepsilon}/\\sqrt{4\\pi\\varepsilon}$ is numerically false "
                "(" + math_reference_link("3") + "); gaussmech uses δ₀(ε), at which σ = Δ/√(2ε) is exactly (ε, δ₀)-DP."
            )

with testing_tab:
    if testing_tab.open:
        with guarded("the trade-off chart"):
            type_one_error = st.select_slider(
                "False-accusation rate α",
                options=cached.TYPE_ONE_ERRORS,
                value=0.05,
                format_func=format_percent,
                key="profiles_alpha",
                bind="query-params",
            )
            frame, numbers = cached.tradeoff_frame(**ARGS, type_one_error=float(type_one_error))
            figure = figures.tradeoff_figure(
                frame,
                setting,
                mu=numbers["mu"],
                alpha=float(type_one_error),
                gaussian_beta=numbers["gaussian_beta"],
                region_beta=numbers["region_beta"],
            )
            show_chart(
                figure,
                "profiles_tradeoff_chart",
                screen_top=311,
                alt="Trade-off curve of the calibrated Gaussian against the epsilon-delta region.",
            )
            say(figures.tradeoff_caption(float(type_one_error), numbers["gaussian_power"], numbers["region_power"]))
            download_csv(
                "Chart data as CSV",
                lambda: frame.assign(mu=numbers["mu"]),
                "gaussmech-tradeoff.csv",
                key="profiles_download_tradeoff",
            )
        st.markdown(
            '**What can an attacker do?** Any test of "is this person in the data?" trades false accusations (α) '
            "against misses (β); the privacy guarantee says how good the best test can be."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Gaussian differential privacy (Dong, Roth & Su 2022; "
                + math_reference_link("9.3")
                + "): the Gaussian mechanism is μ-GDP with μ = Δ/σ, and no test has type II error below"
            )
            st.latex(r"G_\mu(\alpha) = \Phi\big(\Phi^{-1}(1 - \alpha) - \mu\big)")
            st.markdown("(ε, δ)-DP alone guarantees only (Kairouz, Oh & Viswanath 2015):")
            st.latex(
                r"f_{\varepsilon,\delta}(\alpha) = \max\big(0,\ 1 - \delta - e^{\varepsilon}\alpha,\ e^{-\varepsilon}(1 - \delta - \alpha)\big)"
            )
            st.markdown("The attacker's success rate (power) at false-accusation rate α is $1 - \\beta$.")

with composition_tab:
    if composition_tab.open:
        with guarded("the composition charts"):
            k = int(
                st.select_slider(
                    "Number of releases k",
                    options=cached.RELEASE_STOPS,
                    value=10,
                    format_func=lambda n: f"{n:,}",
                    key="profiles_releases",
                    bind="query-params",
                )
            )
            frame = cached.composition_frame(**ARGS)
            rows = cached.composition_rows(**ARGS, k=k)
            total_text = "exact, zCDP and advanced at total δ = 2kδ (advanced: kδ + δ′, δ′ = kδ); naive: (kε, kδ)"
            figure = figures.composition_figure(frame, setting, total_delta_text=total_text, k=k)
            show_chart(
                figure,
                "profiles_composition_chart",
                screen_top=311,
                alt="Total epsilon of k Gaussian releases by each accounting route.",
            )
            st.markdown(
                f"**Total guarantee after k = {k:,} releases** (each release: σ calibrated to the sidebar's (ε, δ))"
            )
            with st.container(key="profiles_composition_totals"):  # a stable selector for the table
                page_table(figures.composition_table(rows), hide_index=True, key="profiles_composition_table")
            say(figures.composition_caption(rows, k))
            download_csv(
                "Chart data as CSV", lambda: frame, "gaussmech-composition.csv", key="profiles_download_composition"
            )

            per_release = cached.per_release_frame(setting.epsilon, setting.delta, setting.sensitivity)
            sigmas = cached.per_release_at(setting.epsilon, setting.delta, setting.sensitivity, k)
            figure = figures.per_release_sigma_figure(per_release, setting, k=k)
            show_chart(
                figure,
                "profiles_per_release_chart",
                alt="Per-release sigma needed to keep k releases within a total budget, by route.",
            )
            say(figures.per_release_caption(sigmas, k))
            download_csv(
                "Chart data as CSV",
                lambda: per_release,
                "gaussmech-per-release-sigma.csv",
                key="profiles_download_per_release",
            )
        st.markdown(
            "**How does privacy add up over k releases?** The same Gaussian noise, four ways of counting: exact "
            "composition is far tighter than the generic rules, which answers the open question of Balle & Wang's "
            "conclusion (how to calibrate Gaussians under composition) with a picture."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Exact (Dong, Roth & Su 2022, Cor. 3.3; "
                + math_reference_link("9.4")
                + "): k Gaussian releases are μ-GDP with"
            )
            st.latex(
                r"\mu = \sqrt{k}\,\Delta/\sigma, \qquad \sigma_{\text{each}} = \sqrt{k}\;\sigma_{\text{aGM}}(\varepsilon, \delta)"
            )
            st.markdown(
                "zCDP (Bun & Steinke 2016): ρ adds up, $\\rho = k\\Delta^2/(2\\sigma^2)$, then converted (Bun–Steinke Prop. 1.3, or Canonne, Kamath & Steinke 2020, Cor. 13):"
            )
            st.latex(r"\varepsilon = \rho + 2\sqrt{\rho \ln(1/\delta)}")
            st.markdown("Advanced composition (Dwork, Rothblum & Vadhan 2010), for any (ε, δ)-DP steps and any δ′ > 0:")
            st.latex(
                r"\Big(\sqrt{2k\ln(1/\delta')}\,\varepsilon + k\varepsilon(e^{\varepsilon} - 1),\ k\delta + \delta'\Big)"
            )
            st.markdown(
                "Naive summation: (kε, kδ). For the per-release σ, the advanced route gives half of δ to δ′ and splits the rest "
                "as δ/(2k) per release; naive uses σ_aGM(ε/k, δ/k)."
            )

round_up_note(setting)
bounded_data_explainer()

render_page_tools(setting, "pages/3_Privacy_profiles.py")
finish_page()  # warns about this page's own link values that could not be used
