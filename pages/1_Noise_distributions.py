"""gaussmech: Noise distributions: what each calibrated noise looks like.

Four views, one idea each (lazy tabs: only the open one is computed; the tab is in the URL):
the densities of every mechanism's per-coordinate noise at its calibrated scale; the generalized
Gaussian family between Laplace and the Gaussian; a seeded Monte Carlo histogram over the
density; and noise vectors in 2-D and 3-D (isotropic Gaussian against rank-1 R1SMG noise).
"""

from dataclasses import replace

import numpy as np
import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS  # noqa: E402
from gaussmech_ui.cached import distributions as cached  # noqa: E402
from gaussmech_ui.claims.ranking import other_neighbour_model  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.draw_history import DrawHistory, coordinate_history, history_histogram  # noqa: E402
from gaussmech_ui.figures import distributions as figures  # noqa: E402
from gaussmech_ui.figures.common import figure_frame  # noqa: E402
from gaussmech_ui.format import format_number, format_percent, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import bounded_data_explainer, chart, round_up_note, say, seed_controls, show_chart  # noqa: E402
from gaussmech_ui.params import EVERY_VARIANT_HELP  # noqa: E402

SAMPLE_SIZES = (100, 1_000, 10_000, 100_000, 1_000_000)
VECTOR_POINTS = 600


ARGS = cached.setting_arguments(setting)
HISTORY_BINS = 30


# "Draw again" with memory: one release at a time, the history in the URL (seed and count).
HISTORY = DrawHistory(
    seed_key="distributions_history_seed",
    draws_key="distributions_history_draws",
    button_prefix="distributions_history",
)


def release_by_release(mechanism_id: str, table, curve) -> None:
    """One release of one coordinate per click; the draws so far as a histogram over the exact density."""
    mechanism = MECHANISMS[mechanism_id]
    st.markdown(
        "**Release by release.** Each “Draw again” releases one more noisy value; the histogram of all the "
        "releases so far settles onto the density as the class keeps drawing (seed and count are in the link)."
    )
    HISTORY.buttons()
    seed, count = HISTORY.seed, HISTORY.count
    scale = float(table.loc[mechanism_id, "scale"])
    draws = coordinate_history(mechanism_id, scale, setting, seed, count)
    x = curve["x"].to_numpy(dtype=float)
    histogram = history_histogram(draws, float(x[0]), float(x[-1]), bins=HISTORY_BINS)
    figure = figures.sample_histogram_figure(histogram, curve, mechanism, setting, size=count, seed=seed)
    std = float(table.loc[mechanism_id, "coordinate_std"])
    within = float(np.mean(np.abs(draws) <= 2 * std))
    show_chart(
        figure,
        "distributions_history_chart",
        alt="Histogram of the releases drawn so far, one per click, over the exact density of the noise.",
    )
    st.caption(
        f"{count:,} release{'s' if count != 1 else ''} so far (history seed {seed}); the latest noise is "
        f"{format_number(float(draws[-1]))}, and {format_percent(within, 3)} of them are within 2 standard deviations "
        f"({format_number(2 * std)}) of 0. At ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}."
    )


st.title("What does the noise look like?")
st.markdown(
    "The random noise each mechanism adds to the true answer, at the scale it needs for "
    f"ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}."
)

TAB_LABELS = ["Densities", "Generalized Gaussian family", "Draw samples", "Noise as vectors"]
density_tab, family_tab, sample_tab, vector_tab = st.tabs(TAB_LABELS, key="distributions_view", bind="query-params")

with density_tab:
    if density_tab.open:
        with guarded("the density chart"):
            left, middle, right = st.columns([1, 1, 1.3])
            with left:
                scale_view = st.segmented_control(
                    "Density axis",
                    ["linear", "log"],
                    default="linear",
                    required=True,
                    key="distributions_density_scale",
                    bind="query-params",
                    help="The log view shows the tails: how rarely each noise is very large.",
                )
            with middle:
                every_variant = st.checkbox(
                    "Every calibration variant",
                    key="distributions_every_variant",
                    bind="query-params",
                    help=EVERY_VARIANT_HELP,
                )
            with right:
                reference = st.selectbox(
                    "x-axis spans ±6 std of",
                    list(MECHANISMS),
                    format_func=lambda key: MECHANISMS[key].name,
                    key="distributions_reference",
                    bind="query-params",
                    help="Zoom the window to one mechanism's noise; much wider noise then looks flat.",
                )
            curves, stds, invalid = cached.density_curves(**ARGS, every_variant=every_variant, reference=reference)
            if reference not in stds:
                st.caption(
                    f"{MECHANISMS[reference].name} is not drawn here, so the window follows the analytic Gaussian."
                )
            figure = figures.density_figure(curves, MECHANISMS, setting, log_density=scale_view == "log")
            other_model = cached.setting_arguments(replace(setting, l1_model=other_neighbour_model(setting.l1_model)))
            other_stds, _ = cached.coordinate_stds(**other_model, every_variant=every_variant)
            chart(
                figure,
                "distributions_density_chart",
                screen_top=284,
                alt="Densities of each mechanism's per-coordinate noise at its calibrated scale.",
                caption=figures.density_caption(stds, MECHANISMS, invalid, setting, other_stds),
                data=lambda: figure_frame(figure),
                file_name="gaussmech-noise-densities.csv",
                download_key="distributions_download_density",
            )
        st.markdown(
            "**How wide is each mechanism's noise?** The density of the noise added to one coordinate, for every "
            "mechanism at its calibrated scale: the narrower, the less error."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Per-coordinate densities at the calibrated scale ("
                + math_reference_link("4", "5.1", "6.1", "10")
                + "):"
            )
            st.latex(
                r"\text{Gaussian: } \frac{1}{\sigma\sqrt{2\pi}} e^{-x^2/(2\sigma^2)}, \qquad"
                r"\text{Laplace: } \frac{1}{2b} e^{-|x|/b}, \qquad"
                r"\text{GG}(p)\text{: } \frac{p}{2b\,\Gamma(1/p)} e^{-(|x|/b)^p}"
            )
            st.markdown(
                "R1SMG (Ji & Li 2024, claimed) adds $\\sqrt{\\sigma^*}\\, z\\, v$ with $v$ uniform on the sphere; one "
                "coordinate $\\sqrt{\\sigma^*} z v_1$ has the density below (infinite at 0, a logarithmic spike), with "
                "$c_d (1-t^2)^{(d-3)/2}$ the density of $v_1$:"
            )
            st.latex(
                r"p(x) = 2\int_0^1 c_d\,(1-t^2)^{(d-3)/2}\, \frac{\varphi\big(x/(\sqrt{\sigma^*} t)\big)}{\sqrt{\sigma^*}\, t}\, dt"
            )
            st.markdown(
                "Sources: Balle & Wang 2018 (analytic Gaussian), Dwork & Roth 2014 (classical), Dwork, McSherry, Nissim & "
                "Smith 2006 (Laplace), Liu arXiv:1602.06028 (GG), Chanyaswad et al. 2018 (MVG), Ji & Li 2024 (R1SMG)."
            )

with family_tab:
    if family_tab.open:
        with guarded("the generalized Gaussian chart"):
            mode = st.segmented_control(
                "Compare",
                ["equal_variance", "calibrated"],
                format_func={"equal_variance": "at equal variance", "calibrated": "at each one's calibrated scale"}.get,
                default="equal_variance",
                required=True,
                key="distributions_family_mode",
                bind="query-params",
            )
            curves, styles, at_mean, stds = cached.gg_family_curves(**ARGS, mode=mode)
            figure = figures.gg_family_figure(curves, styles, setting, mode=mode)
            show_chart(
                figure,
                "distributions_family_chart",
                screen_top=275,
                alt="Generalized Gaussian density next to Laplace and Gaussian densities.",
            )
            named_stds = {styles[key]["name"]: value for key, value in stds.items()}
            say(figures.gg_family_caption(mode, setting.order, at_mean, named_stds))
            missing = [styles[key]["name"] for key in ("gg", "laplace") if key not in curves]
            if missing:
                st.warning(
                    "Not drawn at this setting: "
                    + ", ".join(missing)
                    + ". The generalized Gaussian's exact calibration "
                    "needs one coordinate changing, d = 1 or p = 2 (sidebar); Laplace needs ε > 0.",
                    icon=":material/warning:",
                )
            download_csv(
                "Chart data as CSV",
                lambda: figure_frame(figure),
                "gaussmech-generalized-gaussian.csv",
                key="distributions_download_family",
            )
        st.markdown(
            f"**How does the order p shape the noise?** The generalized Gaussian with p = {setting.order:g} (sidebar) "
            "between Laplace (p = 1) and the Gaussian (p = 2)."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "The generalized Gaussian GG(0, b, p) (Liu, arXiv:1602.06028; "
                + math_reference_link("5.1")
                + "): p = 1 is Laplace, p = 2 the Gaussian with σ² = b²/2."
            )
            st.latex(
                r"f(x) = \frac{p}{2b\,\Gamma(1/p)}\, e^{-(|x|/b)^p}, \qquad \operatorname{Var} = b^2\, \frac{\Gamma(3/p)}{\Gamma(1/p)}"
            )
            st.markdown(
                "At equal variance σ², the density at the mean (Liu's remark: 0.707/σ for Laplace, 0.399/σ for the Gaussian):"
            )
            st.latex(r"f(0) = \frac{p\, \sqrt{\Gamma(3/p)}}{2\sigma\, \Gamma(1/p)^{3/2}}")
            st.markdown(
                "Calibrated: GG(p) by its exact (ε, δ) privacy profile in one dimension ("
                + math_reference_link("5.5")
                + ", cf. Rinberg et al. 2025), "
                "Laplace $b = \\Delta_1/\\varepsilon$ (pure ε-DP), the Gaussian by Balle & Wang's Theorem 8."
            )

with sample_tab:
    if sample_tab.open:
        with guarded("the Monte Carlo histogram"):
            # The controls in one row, so that the histogram ends on a projector's first screen.
            left, middle, right = st.columns([1.1, 1, 1.15], vertical_alignment="bottom")
            with left:
                mechanism_id = st.selectbox(
                    "Mechanism",
                    list(MECHANISMS),
                    index=list(MECHANISMS).index(DEFAULT_MECHANISM_ID),
                    format_func=lambda key: figures.trace_name(MECHANISMS[key]),
                    key="distributions_sample_mechanism",
                    bind="query-params",
                )
            with middle:
                size = st.select_slider(
                    "Number of draws n",
                    options=SAMPLE_SIZES,
                    value=10_000,
                    format_func=lambda n: f"{n:,}",
                    key="distributions_draws",
                    bind="query-params",
                    help="Up to a million draws (cached: the same n and seed are drawn only once).",
                )
            with right:
                seed = seed_controls("distributions")
            table = cached.calibration_table(**ARGS)
            if not bool(table.loc[mechanism_id, "valid"]):
                st.warning(
                    f"{MECHANISMS[mechanism_id].name} has no noise to draw at this setting: {table.loc[mechanism_id, 'reason']}",
                    icon=":material/warning:",
                )
            else:
                histogram, curve, summary = cached.sample_histogram(mechanism_id, **ARGS, size=int(size), seed=seed)
                mechanism = MECHANISMS[mechanism_id]
                figure = figures.sample_histogram_figure(
                    histogram, curve, mechanism, setting, size=int(size), seed=seed
                )
                show_chart(
                    figure,
                    "distributions_sample_chart",
                    screen_top=284,
                    alt="Histogram of Monte Carlo draws of one noise coordinate over its exact density.",
                )
                say(figures.sample_caption(summary, mechanism, int(size)))
                if mechanism.guarantee == "claimed":
                    st.warning(
                        f"{figures.trace_name(mechanism)}: drawn at the scale its authors claim is private. That claim does "
                        "not hold in general; see the Privacy profiles page.",
                        icon=":material/warning:",
                    )
                download_csv(
                    "Histogram and density as CSV",
                    lambda: figure_frame(figure),
                    "gaussmech-noise-draws.csv",
                    key="distributions_download_sample",
                )
                release_by_release(mechanism_id, table, curve)
        st.markdown(
            "**Does the sampler match the curve?** Draw noise from a mechanism's own sampler and compare its histogram "
            "with the exact density: with more draws the bars settle on the curve."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Each bar is (draws in the bin) / (n × bin width), so it estimates the density. The samplers ("
                + math_reference_link("4", "5.1", "6.1")
                + "):"
            )
            st.latex(
                r"\text{Laplace: } b\,(E_1 - E_2),\quad \text{GG}(p)\text{: } S\, b\, G^{1/p},\ G \sim \Gamma(1/p, 1),\quad"
                r"\text{R1SMG, one coordinate: } \sqrt{\sigma^*}\, z\, \frac{g_1}{\sqrt{g_1^2 + \chi^2_{d-1}}}"
            )
            st.markdown(
                "By the central limit theorem the bars scatter around the curve by about $\\sqrt{f(x)/(n\\,h)}$ for bin width $h$; "
                "a floating-point sampler for pictures, not a hardened one (Mironov 2012)."
            )

with vector_tab:
    if vector_tab.open:
        with guarded("the noise-vector scatter"):
            left, right = st.columns([1.2, 1])
            with left:
                direction = st.segmented_control(
                    "R1SMG's direction v",
                    ["fixed", "fresh"],
                    format_func={"fixed": "one draw of v", "fresh": "a fresh v for each release"}.get,
                    default="fixed",
                    required=True,
                    key="distributions_direction",
                    bind="query-params",
                    help="R1SMG's covariance σ* v vᵀ has rank 1: given v, every noise vector lies on one line. "
                    "Ji & Li draw a new v for every release.",
                )
            with right:
                seed = seed_controls("distributions_vectors")
            fixed = direction == "fixed"
            columns = st.columns(2)
            for column, vector_dim in zip(columns, (2, 3)):
                with column:
                    points, styles, expected_loss = cached.noise_vectors(
                        **ARGS, vector_dim=vector_dim, size=VECTOR_POINTS, seed=seed, fixed_direction=fixed
                    )
                    subtitle = f"{VECTOR_POINTS} releases each, seed {seed}"
                    figure = figures.vector_scatter_figure(
                        points, styles, expected_loss=expected_loss, setting=setting, subtitle=subtitle
                    )
                    show_chart(
                        figure,
                        f"distributions_vectors_{vector_dim}d_chart",
                        screen_top=284,
                        alt=f"{vector_dim}-D scatter of Gaussian and R1SMG noise vectors.",
                    )
                    download_csv(
                        f"{vector_dim}-D points as CSV",
                        lambda figure=figure: figures.scatter_frame(figure),
                        f"gaussmech-noise-vectors-{vector_dim}d.csv",
                        key=f"distributions_download_vectors_{vector_dim}d",
                    )
            say(figures.vector_caption(points, fixed, expected_loss))
            st.warning(
                "R1SMG is shown as published (Ji & Li 2024): its privacy claim is not proven and fails from d = 4 on "
                "(" + math_reference_link("6.2") + "). The picture shows its noise's shape, not a recommendation.",
                icon=":material/warning:",
            )
        st.markdown(
            "**What does the whole noise vector look like?** The isotropic Gaussian against R1SMG's rank-1 noise, both "
            "with the same expected squared error, around the true value (black cross)."
        )
        with st.expander("The math", icon=":material/function:"):
            st.markdown(
                "Both noises have the same expected squared error $E\\lVert n \\rVert_2^2 = D\\sigma^2$ in D = 2 or 3 dimensions, with σ the analytic Gaussian's:"
            )
            st.latex(
                r"n_{\text{Gauss}} \sim N(0, \sigma^2 I_D), \qquad n_{\text{R1SMG}} = \sqrt{\sigma^*}\, z\, v,\ "
                r"z \sim N(0,1),\ v = g/\lVert g\rVert,\ g \sim N(0, I_D),\ \sigma^* = D\sigma^2"
            )
            st.markdown(
                "Given v, R1SMG's covariance is $\\sigma^* v v^\\top$ (rank 1): all its noise lies on the line through the true "
                "value along v (Ji & Li 2024, as published; "
                + math_reference_link("6.1")
                + "). Over fresh draws of v the noise is spherically "
                "symmetric with a half-normal radius (" + math_reference_link("6.2") + ")."
            )

round_up_note(setting)
bounded_data_explainer()

render_page_tools(setting, "pages/1_Noise_distributions.py")
finish_page()  # warns about this page's own link values that could not be used
