"""The denoising lab: release a histogram, denoise it, and measure what post-processing recovers.

Balle & Wang (2018, Sec. 4): the noise of a release has a public law, so any function of the
release alone is still private, and classical estimators can remove much of the noise at no
privacy cost. Here a person brings a histogram (or picks a built-in one), releases it with a
calibrated mechanism, chains denoisers, and sees the error fall: for this one release, and
averaged over R seeded releases across ε.
"""

import hashlib
import math

import numpy as np
import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_core.denoise import DENOISERS, oracle_prior  # noqa: E402  (after the frame, so a broken core still shows the sidebar)
from gaussmech_core.histogram import (  # noqa: E402
    METRICS,
    RELATIONS,
    evaluate_pipelines,
    neighbour_model,
    release_histogram,
    release_mechanisms,
)
from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402
from gaussmech_core.registry_types import Setting  # noqa: E402
from gaussmech_ui import reproduce  # noqa: E402
from gaussmech_ui.cached import denoising as cached  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.draw_history import history_buttons, release_errors, url_int  # noqa: E402
from gaussmech_ui.examples import EXAMPLES  # noqa: E402
from gaussmech_ui.figures import denoising as figures, history as error_history  # noqa: E402
from gaussmech_ui.format import escape_markdown, format_number, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import (  # noqa: E402
    linked_number_input,
    show_chart,
    table as page_table,  # noqa: E402
)
from gaussmech_ui.round_up import release_round_up_sentence  # noqa: E402

# Page settings worth sharing are bound to the URL (Streamlit's bind="query-params", keyed by the
# widget key) and kept across page switches.
SHARED = dict(bind="query-params", persist_state="session")

SOURCES = {
    "sparse_dirichlet": "Sparse histogram",
    "mean_estimation": "Mean estimation",
    "carshare": "Car-sharing heat map",
    "upload": "Upload a CSV",
}
RELATION_LABELS = {"add_remove": "Add or remove one record", "replace": "Replace one record"}
WEIGHT_LABELS = {"locations": "Locations", "car_hours": "Car-hours"}
PROJECTION_LABELS = {
    "none": "Nothing more",
    **{step: DENOISERS[step].name for step in ("nonnegative", "simplex", "clip_rescale")},
}
REPETITION_STOPS = (5, 10, 20, 50, 100, 200, 500)
RELEASE_MECHANISMS = release_mechanisms()
# Balle & Wang's comparison by default: the release mechanisms whose noise needs no order p and is a
# scale family (drawn once and rescaled to every ε: smooth, paired curves); the others are a choice.
DEFAULT_SWEEP_MECHANISMS = tuple(
    m for m in RELEASE_MECHANISMS if not MECHANISMS[m].uses_order and MECHANISMS[m].histogram.scale_family
)
ESTIMATORS = figures.ESTIMATOR_STEPS
SHAPE_LABELS = {None: "Detect", "1d": "One histogram", "2d": "A grid (heat map)"}
HEADER_LABELS = {None: "Detect", True: "Yes", False: "No"}

st.title("The denoising lab")
st.markdown(
    "**How much noise can post-processing remove, for free?** Cleaning a release with only what is public keeps "
    "its guarantee.",
    help="A histogram is released with calibrated noise, then cleaned using only the release and what is public, "
    "which keeps the privacy guarantee (Balle & Wang 2018, Section 4). The data, the release and the denoising are "
    "set under the chart.",
)
# The release chart comes first, so that it starts on a projector's first screen; sections 1-3 below it
# hold the controls it follows (drawn into this slot once the release is computed).
release_slot = st.container()
# A bad page value in a link is reported by finish_page() (the one link checker of every page).


# --- 1. the data -----------------------------------------------------------------------------------


def integer_input(column, label: str, example_id: str, parameter: str, key: str, step: int = 1, help: str = ""):
    """A whole-number box for one parameter of a built-in example, with its range and default."""
    default, low, high = EXAMPLES[example_id].parameters[parameter]
    if isinstance(default, tuple):  # the heat map's grid: one box per side
        default = default[0 if key.endswith("rows") else 1]
    return int(
        linked_number_input(
            column, label, int(low), int(high), int(default), step=step, key=key, **SHARED, help=help or None
        )
    )


def example_controls(example_id: str):
    """Draw the built-in data set's parameters; return the data (cached)."""
    left, middle, right = st.columns(3)
    if example_id == "sparse_dirichlet":
        parameters = (
            (
                "bins",
                integer_input(
                    left, "Bins d", example_id, "bins", "denoising_bins", 100, "How many bins the histogram has."
                ),
            ),
            (
                "records",
                integer_input(
                    middle,
                    "Records n",
                    example_id,
                    "records",
                    "denoising_records",
                    1000,
                    "How many records fall into the bins: the public total n.",
                ),
            ),
            (
                "seed",
                integer_input(
                    right,
                    "Data seed",
                    example_id,
                    "seed",
                    "denoising_data_seed",
                    1,
                    "Another seed draws another histogram.",
                ),
            ),
        )
    elif example_id == "mean_estimation":
        parameters = (
            (
                "dim",
                integer_input(
                    left, "Dimension d", example_id, "dim", "denoising_dim", 10, "How many coordinates the mean has."
                ),
            ),
            (
                "records",
                integer_input(
                    middle,
                    "Points n",
                    example_id,
                    "records",
                    "denoising_points",
                    100,
                    "Balle & Wang use n = 500. The sensitivity Δ₂ = √d/n shrinks as n grows.",
                ),
            ),
            (
                "seed",
                integer_input(
                    right,
                    "Data seed",
                    example_id,
                    "seed",
                    "denoising_data_seed",
                    1,
                    "Another seed draws another data set.",
                ),
            ),
        )
    else:
        rows = integer_input(left, "Grid rows (latitude)", example_id, "grid", "denoising_grid_rows")
        cols = integer_input(middle, "Grid columns (longitude)", example_id, "grid", "denoising_grid_cols")
        weight = right.radio(
            "Each cell counts",
            list(WEIGHT_LABELS),
            format_func=WEIGHT_LABELS.get,
            key="denoising_weight",
            horizontal=True,
            **SHARED,
            help="Locations: how many of the 249 car-sharing stations fall in the cell "
            "(total 249). Car-hours: their use, one record per car-hour (total about 272,000).",
        )
        parameters = (("grid", (rows, cols)), ("weight", weight))
    with st.spinner("Building the data set ..."):
        return cached.example_data(example_id, parameters)


# The URL remembers that this page had an upload open (a digest of its bytes, never its name or
# content): a session moved to another replica after its own one stopped keeps its URL but not its
# files, and is told so instead of silently showing an empty upload box (issue 23, item 7).
UPLOAD_MARK_KEY = "denoising_upload_mark"


def forget_upload_mark() -> None:
    """The person removed or replaced the file: the mark follows (set again once a new file is read)."""
    if st.session_state.get("denoising_upload") is None:
        st.query_params.pop(UPLOAD_MARK_KEY, None)


def upload_controls():
    """The uploader, the reading options and what was read; the data, or None (with a message)."""
    uploaded = st.file_uploader(
        "A CSV file of counts",
        type=["csv", "tsv", "txt"],
        key="denoising_upload",
        on_change=forget_upload_mark,
        help="One column of counts; two columns (label, count); or a grid of counts (a heat map). Tab, comma "
        "or semicolon separated, UTF-8. The file is read in memory and never written to disk.",
    )
    if uploaded is None and st.query_params.get(UPLOAD_MARK_KEY):
        st.warning(
            "The file this page had open is not on this server any more. The server that held your session "
            "stopped or restarted, and your session continued on another one, which never received the file "
            "(uploads are kept only in the memory of the server they were sent to). Upload it again to continue; "
            "your other settings are kept. (If you opened someone else's link, their file was never shared.)",
            icon=":material/cloud_off:",
        )
    if uploaded is None:
        st.info(
            "Upload a CSV to begin. Three shapes are read: **one column of counts**, **label and count** columns, "
            "or **a grid of counts** (rows × columns, a heat map). Counts must be plain numbers, 0 or more. "
            "The file stays in memory for this session and is never written to disk.",
            icon=":material/upload_file:",
        )
        return None
    content = uploaded.getvalue()
    name = uploaded.name
    st.query_params[UPLOAD_MARK_KEY] = hashlib.blake2b(content, digest_size=4).hexdigest()
    with st.expander("Reading options", icon=":material/tune:"):
        left, right = st.columns(2)
        kind = left.selectbox(
            "Read the file as",
            list(SHAPE_LABELS),
            format_func=SHAPE_LABELS.get,
            key="denoising_upload_shape",
            persist_state="session",
        )
        header = right.selectbox(
            "First row is a header",
            list(HEADER_LABELS),
            format_func=HEADER_LABELS.get,
            key="denoising_upload_header",
            persist_state="session",
        )
    with st.spinner(f"Reading {escape_markdown(name)} ..."):
        data, problem = cached.parsed_upload(content, name, None, kind, header)
    if data is None:
        st.error(f"Could not read **{escape_markdown(name)}**: {escape_markdown(problem)}", icon=":material/error:")
        return None
    if data.kind == "1d" and len(data.candidate_columns) > 1:
        column = st.selectbox(
            "Column holding the counts",
            list(data.candidate_columns),
            index=list(data.candidate_columns).index(data.column) if data.column in data.candidate_columns else 0,
            key="denoising_upload_column",
            help="Several columns hold numbers; pick the one with the counts.",
        )
        if column != data.column:
            data, problem = cached.parsed_upload(content, name, column, kind, header)
            if data is None:
                st.error(
                    f"Could not read the column {escape_markdown(column)}: {escape_markdown(problem)}",
                    icon=":material/error:",
                )
                return None
    return data


def show_what_was_read(data) -> None:
    st.success(escape_markdown(data.summary.describe()), icon=":material/check_circle:")
    for note in data.warnings:
        st.warning(escape_markdown(note), icon=":material/warning:")
    with st.expander("First values read", icon=":material/table_rows:"):
        page_table(figures.preview_frame(data), hide_index=True, key="denoising_preview")


st.subheader("1. The data")
source = (
    st.segmented_control(
        "Data",
        list(SOURCES),
        format_func=SOURCES.get,
        default="sparse_dirichlet",
        required=True,
        key="denoising_data",
        **SHARED,
        help="Three built-in data sets from Balle & Wang's experiments (one click each), or your own CSV.",
    )
    or "sparse_dirichlet"
)
data = None
with guarded("the data"):
    if source == "upload":
        data = upload_controls()
        if data is not None:
            show_what_was_read(data)
    else:
        st.caption(EXAMPLES[source].description)
        data = example_controls(source)
        st.caption(f"**{data.name}.** {data.description}")


# --- 2. the release --------------------------------------------------------------------------------


HISTORY_KEY = "denoising_history"  # how many of the last release seeds the history holds (in the URL)
MAX_HISTORY = 100


def draw_again(draws: int = 1) -> None:
    """ "Draw again": move to the next release seed (the seed box shows it, the URL keeps it), and keep the
    releases so far in the history (the last ``denoising_history`` seeds)."""
    st.session_state["denoising_draw"] = min(int(st.session_state.get("denoising_draw", 0)) + draws, 10**9)
    st.query_params[HISTORY_KEY] = str(min(url_int(HISTORY_KEY, 1, 1, MAX_HISTORY) + draws, MAX_HISTORY))


def new_history() -> None:
    """ "Start a new history": forget the earlier releases (the current one stays)."""
    st.query_params[HISTORY_KEY] = "1"


def release_history(data, mechanism_id: str, model, steps: tuple, total, prior, draw: int) -> None:
    """The error of every release in the history, raw and denoised, with the buttons that add to it."""
    history_buttons(
        "denoising_history",
        draw_again,
        new_history,
        again_help="Release again with the next seed; the earlier releases stay in the history below.",
        restart_help=f"Forget the earlier releases (the history keeps at most {MAX_HISTORY}).",
    )
    wanted = min(url_int(HISTORY_KEY, 1, 1, MAX_HISTORY), draw + 1)
    # Every release of the history is drawn again on each rerun: its size has a budget (issue 23, item 2).
    count = min(wanted, cached.history_releases_within_budget(data.summary.bins))
    if count < wanted:
        st.caption(
            f"The history shows the last {count:,} of {wanted:,} releases: at {data.summary.bins:,} bins, "
            f"{format_number(cached.HISTORY_BUDGET_UNITS, 2)} bin-releases (about a second of the shared "
            "server's time) is the most one rerun draws."
        )
    if count < 2:
        st.caption(
            "“Draw again” releases the same data with the next seed and keeps the earlier releases: a chart of the "
            "error of every release so far, raw and denoised, then builds up here."
        )
        return
    seeds = tuple(range(draw - count + 1, draw + 1))
    raw, denoised = release_errors(
        data.counts,
        mechanism_id,
        setting.epsilon,
        setting.delta,
        model,
        setting.order,
        seeds,
        tuple(steps),
        total,
        prior,
        "mse",
    )
    figure = error_history.error_history_figure(
        raw,
        denoised,
        metric="MSE per bin",
        title=f"The error of every release so far<br><sup>{count:,} release{'s' if count != 1 else ''}, "
        f"seeds {seeds[0]:,} to {seeds[-1]:,}; ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}</sup>",
        current=(float(raw[-1]), float(denoised[-1])),
    )
    show_chart(
        figure,
        "denoising_history_chart",
        alt="Histograms of the error of every release so far, before and after denoising.",
    )
    st.caption(
        f"{count:,} release{'s' if count != 1 else ''} of the same data (seeds {seeds[0]:,} to {seeds[-1]:,}): mean MSE "
        f"{format_number(float(np.mean(raw)))} released, {format_number(float(np.mean(denoised)))} denoised; "
        f"denoising lowered the error in {int(np.sum(denoised < raw)):,} of them. The lines mark this release."
    )


release = None
model = None
if data is not None:
    st.subheader("2. Release it with calibrated noise")
    value_name = "count" if data.nonnegative else "value"
    left, middle, right = st.columns([2, 2, 1])
    mechanism = left.selectbox(
        "Mechanism",
        list(RELEASE_MECHANISMS),
        format_func=lambda m: MECHANISMS[m].name,
        key="denoising_mechanism",
        **SHARED,
        help="How the noise is drawn. ε, δ and the generalized Gaussian's order p come from the sidebar.",
    )
    if data.neighbour_model is not None:
        model = data.neighbour_model
        middle.markdown(f"**Neighbouring data sets:** {model.description}.")
    else:
        relation = middle.radio(
            "Neighbouring data sets differ by",
            list(RELATIONS),
            format_func=RELATION_LABELS.get,
            key="denoising_relation",
            **SHARED,
            help=" ".join(f"{RELATION_LABELS[r]}: {RELATIONS[r].lower()}." for r in RELATIONS),
        )
        model = neighbour_model(relation)
    linked_number_input(
        right,
        "Release seed",
        0,
        10**9,
        key="denoising_draw",
        **SHARED,
        help="Fixes the random noise; the same seed gives the same release.",
    )
    right.button(
        "Draw again",
        key="denoising_draw_again",
        icon=":material/casino:",
        on_click=draw_again,
        help="A new draw of the noise at the same setting: the next release seed.",
    )
    draw = int(st.session_state.get("denoising_draw", 0))
    st.caption(
        f"This relation fixes the sensitivities: **{figures.sensitivity_text(model.l2_sensitivity, model.l1_sensitivity)}** "
        "(the Gaussians use Δ₂, Laplace Δ₁). The sidebar's Δ, d and l1 choice are **not used on this page**: the data "
        f"fix d = {data.summary.bins:,} and the relation fixes Δ. ε = {format_number(setting.epsilon)}, "
        f"δ = {format_number(setting.delta)} and p = {format_number(setting.order)} come from the sidebar."
    )
    entry = MECHANISMS[mechanism]
    # Validity of the release at this ε and δ (the data fix d and Δ, so one coordinate is asked).
    release_validity = entry.validity(Setting(epsilon=setting.epsilon, delta=setting.delta, order=setting.order))
    with guarded("the release"):
        if not release_validity.valid:
            st.warning(
                f"{entry.name} at ε = {format_number(setting.epsilon)}: {release_validity.reason} "
                "Nothing is released with it here.",
                icon=":material/warning:",
            )
        else:
            try:
                release = release_histogram(
                    data.counts, mechanism, setting.epsilon, setting.delta, model, setting.order, rng=draw
                )
            except ValueError as error:
                st.error(
                    f"Could not calibrate the {MECHANISMS[mechanism].name} here: {error}. "
                    "Try a less extreme ε or δ in the sidebar, or another mechanism.",
                    icon=":material/error:",
                )
        if release is not None:
            calibration = release.calibration
            mechanism_name = figures.mechanism_label(entry, setting.order if entry.uses_order else None)
            st.markdown(figures.calibration_sentence(calibration, mechanism_name, entry.scale_symbol))
            # Where a larger scale could be less private (the discrete Gaussian's sawtooth), say so,
            # for the relation this release was calibrated for.
            round_up = release_round_up_sentence(mechanism, setting.epsilon, setting.delta, model, setting.order)
            if round_up:
                st.caption(round_up)
            if entry.uses_order and calibration.sensitivity_symbol == "Δ":  # composed over the changed coordinates
                st.info(
                    f"Calibration of the GG noise: {calibration.note}. No exact calibration is known for several "
                    f"changed coordinates when p ≠ 2 ({math_reference_link('5.4')}).",
                    icon=":material/info:",
                )


# --- 3. denoising ----------------------------------------------------------------------------------

steps: tuple = ()
total = None
prior = None
if data is not None:
    st.subheader("3. Denoise it: post-processing, no privacy cost")
    shape = tuple(data.counts.shape)
    estimators = [step for step in ESTIMATORS if figures.step_fits(DENOISERS[step], shape)]
    default_estimator = figures.default_estimator(data, estimators)
    # One estimator choice per kind of data (each opens on its own default and remembers its choice).
    data_kind = "grid" if data.kind == "2d" else ("histogram" if data.nonnegative else "values")
    left, middle, right = st.columns(3)
    estimator = left.selectbox(
        "Step 1: estimate",
        estimators,
        index=estimators.index(default_estimator),
        format_func=lambda step: DENOISERS[step].name,
        key=f"denoising_estimator_{data_kind}",
        **SHARED,
        help="Shrinkage or thresholding of the noisy values (Balle & Wang, Section 4).",
    )
    projection, rounding = "none", False
    if data.nonnegative:
        total_public = right.toggle(
            "The total n is public",
            value=True,
            key="denoising_total_public",
            **SHARED,
            help=f"Balle & Wang assume the number of records n = {format_number(data.total, 6)} "
            "is public; then the estimate can be made to add up to n.",
        )
        total = float(data.total) if total_public else None
        projections = [p for p in PROJECTION_LABELS if total is not None or p not in ("simplex", "clip_rescale")]
        projection = middle.selectbox(
            "Step 2: use what is public",
            projections,
            index=projections.index("simplex" if total is not None else "nonnegative"),
            format_func=PROJECTION_LABELS.get,
            key="denoising_projection",
            **SHARED,
            help="Counts are never negative, and their total may be public: projecting onto that set never "
            f"increases the l2 error ({math_reference_link('8.5')}). Liu's clip-and-rescale has no such guarantee.",
        )
        whole_total = total is None or float(total).is_integer()
        rounding = right.toggle(
            "Step 3: round to whole counts",
            key="denoising_round",
            **SHARED,
            disabled=not whole_total,
            help="Nearest whole numbers with the same total (largest remainder)."
            + ("" if whole_total else " Not available: the public total is not a whole number."),
        )
        rounding = rounding and whole_total
    steps = tuple(step for step in (estimator, projection, "round" if rounding else "none") if step != "none")
    if "posterior_mean" in estimators:
        prior = data.prior if data.prior is not None else oracle_prior(data.counts)
    st.markdown(f"**Pipeline:** {figures.pipeline_label(steps)}")
    for step in steps:
        denoiser = DENOISERS[step]
        st.caption(f"**{denoiser.name}.** {denoiser.description} *{denoiser.theory}*")
    if "posterior_mean" in steps:
        if data.prior is None:
            st.info(
                "The posterior mean here uses the **oracle prior**: the mean and spread of the true counts. "
                "It is a yardstick for the other estimators, not something a real release could do.",
                icon=":material/visibility:",
            )
        else:
            st.caption(
                f"Prior: N({format_number(data.prior[0])}, {format_number(data.prior[1])}) per coordinate, "
                "known from how the data were generated (Balle & Wang, Theorem 10)."
            )
    if release is not None and MECHANISMS[release.calibration.mechanism].family != "gaussian":
        st.caption(
            "The risk guarantees quoted are for Gaussian noise. With other noise (here "
            f"{MECHANISMS[release.calibration.mechanism].name}) the same estimators run with σ = the noise's "
            "standard deviation, as heuristics."
        )


# --- 4. what came out ------------------------------------------------------------------------------

if data is not None and release is not None:
    st.subheader("4. What came out, bin by bin")
    truth = data.counts
    with guarded("the denoised release"):
        raw_result, denoised_result = evaluate_pipelines(
            truth, release.noisy, release.noise_std, [(), steps], total=total, prior=prior
        )
        denoised = denoised_result.estimate
        mechanism_id = release.calibration.mechanism
        released_name = f"Released: {mechanism_name}, noise std {format_number(release.noise_std)}"
        denoised_name = (
            f"Denoised: {figures.pipeline_label(steps)}" if steps else "Denoised: nothing chosen (= released)"
        )
        release_caption = figures.release_caption(
            mechanism_name=mechanism_name,
            epsilon=setting.epsilon,
            delta=setting.delta,
            noise_std=release.noise_std,
            sensitivity_phrase=f"{release.calibration.sensitivity_symbol} = {format_number(release.calibration.sensitivity)}",
            pure=MECHANISMS[mechanism_id].guarantee == "pure",
            truth=truth,
            raw_metrics=raw_result.metrics,
            denoised_metrics=denoised_result.metrics,
            steps=steps,
            value_name=value_name,
        )
        st.info(
            "The true values are shown **only because this is a teaching lab**: a real release publishes the "
            "released or denoised values alone.",
            icon=":material/school:",
        )
        with release_slot:
            first_bin = 1
            if truth.ndim == 1 and truth.size > figures.MAX_BARS:
                first_bin = st.number_input(
                    f"First bin shown (the charts show {figures.MAX_BARS:,} bins at a time)",
                    1,
                    int(truth.size),
                    1,
                    step=1000,
                    key="denoising_first_bin",
                )
            common = dict(labels=data.labels, row_labels=data.row_labels, column_labels=data.column_labels)
            # A grid is drawn as its data lays it out (an upload: first row on top, its own labels).
            layout = dict(first_row_at_bottom=data.first_row_at_bottom, row_axis_title=data.row_axis_title)
            title_setting = figures.title_setting(setting, model, MECHANISMS[mechanism_id], draw)
            comparison = figures.comparison_figure(
                truth,
                release.noisy,
                denoised,
                title=f"True, released and denoised {value_name}s<br><sup>{figures.html_escape(data.name)}; {title_setting}</sup>",
                released_name=released_name,
                denoised_name=denoised_name,
                released_color=MECHANISMS[mechanism_id].color,
                first_bin=first_bin,
                value_name=value_name,
                **common,
                **layout,
            )
            show_chart(
                comparison,
                "denoising_comparison_chart",
                screen_top=162,
                alt="The true, released and denoised values side by side, on one scale.",
            )
            st.info(release_caption, icon=":material/campaign:")
            release_history(data, mechanism_id, model, steps, total, prior, draw)
        errors = figures.error_figure(
            truth,
            release.noisy,
            denoised,
            title=f"Error of each bin, before and after denoising<br><sup>{title_setting}</sup>",
            released_name="Released",
            denoised_name="Denoised",
            released_color=MECHANISMS[mechanism_id].color,
            first_bin=first_bin,
            **common,
            **layout,
        )
        show_chart(
            errors,
            "denoising_error_chart",
            alt="The error of every bin of the release and of the denoised estimate.",
        )
        left, right = st.columns(2)
        with left:
            download_csv(
                "Released and denoised histogram (CSV)",
                lambda: figures.published_frame(release.noisy, denoised, **common),
                "gaussmech-released-denoised.csv",
                key="denoising_download_published",
            )
        with right:
            download_csv(
                "Chart data: true, released, denoised, errors (CSV)",
                lambda: figures.values_frame(truth, release.noisy, denoised, **common),
                "gaussmech-denoising-values.csv",
                key="denoising_download_values",
            )
        exact_metrics, display_metrics = figures.metrics_frames(truth, raw_result.metrics, denoised_result.metrics)
        st.markdown("**Error of this release, before and after denoising** (Liu's l1 and KL, Balle & Wang's MSE)")
        page_table(display_metrics, hide_index=True, key="denoising_metrics_table")
        reproduce.remember(  # what the "Reproduce in Python" script needs beyond the URL
            "pages/5_Denoising_lab.py",
            counts=truth,
            mechanism=mechanism_id,
            neighbours=model,
            seed=draw,
            steps=steps,
            total=total,
            prior=prior,
            oracle_prior=data.prior is None,
        )
        if not data.nonnegative:
            st.caption("KL divergence: — because these values are not a histogram (they can be negative).")
        download_csv(
            "Metrics table (CSV)", exact_metrics, "gaussmech-denoising-metrics.csv", key="denoising_download_metrics"
        )


# --- 5. error against epsilon ----------------------------------------------------------------------

if data is not None:
    st.subheader("5. Error against ε, averaged over many releases")
    st.caption(
        "One release is one draw of the noise. Here every mechanism releases the data R times at each ε "
        "(seeded, so the picture is reproducible), raw and denoised: the lines are the mean error, the bands "
        "hold the middle 80% of releases (Balle & Wang 2018, figures 1 and 4)."
    )
    metrics = figures.applicable_metrics(data)
    left, middle, right = st.columns([4, 2, 2])
    sweep_mechanisms = left.multiselect(
        "Mechanisms",
        list(RELEASE_MECHANISMS),
        default=list(DEFAULT_SWEEP_MECHANISMS),
        format_func=lambda m: MECHANISMS[m].name,
        key="denoising_sweep_mechanisms",
        persist_state="session",
        help="The classical Gaussian has a curve only where it is valid (ε < 1).",
    )
    metric = middle.selectbox(
        "Error measure", metrics, format_func=lambda m: METRICS[m].name, key="denoising_metric", **SHARED
    )
    repetitions = right.select_slider(
        "Releases per ε (R)",
        REPETITION_STOPS,
        value=20,
        key="denoising_repetitions",
        **SHARED,
        help="More releases give smoother curves and take longer.",
    )
    compare_all = st.toggle(
        "Also compare every other step-1 estimator (with the same steps 2 and 3)", key="denoising_compare_all", **SHARED
    )
    pipelines = figures.sweep_pipelines(steps, estimators, compare_all)
    sweep_prior = prior if any("posterior_mean" in p for p in pipelines) else None
    low, high = cached.epsilon_grid_exponents(setting.epsilon)
    grid = cached.epsilon_grid(low, high)
    units = cached.sweep_units(data.summary.bins, repetitions, len(grid) + 1, len(pipelines), len(sweep_mechanisms))
    run = units <= cached.SWEEP_BUDGET_UNITS
    if not sweep_mechanisms:
        st.info("Pick at least one mechanism to draw the error against ε.", icon=":material/info:")
        run = False
    elif not run:
        # No "run it anyway": one click must not hold the shared server for minutes (issue 23, item 2).
        st.info(
            cached.sweep_refusal(
                data.summary.bins, repetitions, len(grid) + 1, len(pipelines), len(sweep_mechanisms), REPETITION_STOPS
            ),
            icon=":material/hourglass:",
        )
    if run:
        with guarded("the error-against-ε chart"):
            sweeps, current = [], []
            progress = st.progress(0.0, text="Releasing and denoising ...")
            common_arguments = dict(
                pipelines=pipelines,
                delta=setting.delta,
                changed_coordinates=model.changed_coordinates,
                coordinate_sensitivity=model.coordinate_sensitivity,
                repetitions=int(repetitions),
                metrics=metrics,
                total=total,
                prior=sweep_prior,
            )
            for index, sweep_mechanism in enumerate(sweep_mechanisms):
                progress.progress(
                    index / len(sweep_mechanisms),
                    text=f"{MECHANISMS[sweep_mechanism].name}: "
                    f"{repetitions} releases at each of {len(grid)} values of ε ...",
                )
                sweeps.append(
                    cached.mechanism_sweep(
                        data.counts, sweep_mechanism, setting.order, epsilons=grid, **common_arguments
                    )
                )
                current.append(
                    cached.mechanism_sweep(
                        data.counts, sweep_mechanism, setting.order, epsilons=(setting.epsilon,), **common_arguments
                    )
                )
            progress.empty()
            sweep_chart = figures.sweep_figure(
                sweeps,
                MECHANISMS,
                metric,
                truth=data.counts,
                current=current,
                current_epsilon=setting.epsilon,
                title=(
                    f"{METRICS[metric].name} against ε: mean of R = {repetitions} releases, band = middle 80%"
                    f"<br><sup>{figures.html_escape(data.name)}; {figures.title_setting(setting, model)}</sup>"
                ),
            )
            show_chart(
                sweep_chart,
                "denoising_sweep_chart",
                alt="Error against ε for each mechanism, raw (dotted) and denoised (solid), with bands.",
            )
            if len(pipelines) > 1:
                st.markdown(
                    f"**Improvement factor at the current ε = {format_number(setting.epsilon)}** "
                    f"({METRICS[metric].name} raw ÷ {METRICS[metric].name} after {figures.pipeline_label(steps)}, "
                    f"mean of {repetitions} releases)"
                )
                columns = st.columns(max(1, len(current)))
                for column, result in zip(columns, current):
                    factor = float(figures.improvement_at(result, metric)[0, 0])
                    column.metric(
                        MECHANISMS[result.mechanisms[0]].name,
                        "not valid here" if not math.isfinite(factor) else f"{format_number(factor)}×",
                        help="How many times smaller the mean error is after denoising (below 1: larger).",
                    )
                st.caption(
                    figures.sweep_caption(sweeps, MECHANISMS, metric, current=current, current_epsilon=setting.epsilon)
                )
            else:
                st.caption("No denoising step is chosen, so only the raw release is drawn.")
            download_csv(
                "Chart data (CSV)",
                lambda: figures.sweep_frame(sweeps, MECHANISMS),
                "gaussmech-denoising-sweep.csv",
                key="denoising_download_sweep",
            )


# --- the math --------------------------------------------------------------------------------------

with st.expander("The math", icon=":material/function:"):
    st.markdown(
        "A release is $y = \\theta + Z$ with noise $Z$ of a public law and standard deviation $\\sigma$ per "
        "coordinate. Any function of $y$ (and of public facts such as the total $n$) is still differentially "
        "private: post-processing costs no privacy (Balle & Wang 2018, Section 1)."
    )
    st.markdown(
        f"**Sensitivity from the neighbour relation** ({math_reference_link('0')}): one record changes one bin by 1 "
        "(add/remove) or two bins by 1 (replace); in Balle & Wang's mean estimation every coordinate of the "
        "mean of n points in a unit cube moves by at most 1/n."
    )
    st.latex(
        r"\text{add/remove: } \Delta_1 = \Delta_2 = 1, \qquad \text{replace: } \Delta_1 = 2,\ \Delta_2 = \sqrt{2},"
        r"\qquad \text{mean: } \Delta_2 = \sqrt{d}/n,\ \Delta_1 = d/n"
    )
    st.markdown(
        "**Calibration:** analytic Gaussian (Balle & Wang, Theorem 8) and classical Gaussian "
        "$\\sigma = \\Delta_2\\sqrt{2\\ln(1.25/\\delta)}/\\varepsilon$ (only for $\\varepsilon < 1$) at $\\Delta_2$; "
        "Laplace $b = \\Delta_1/\\varepsilon$; generalized Gaussian by its exact profile (Liu; "
        + math_reference_link("5.5")
        + "), "
        "with each changed coordinate at $(\\varepsilon/k, \\delta/k)$ when $k > 1$ coordinates change and "
        "$p \\ne 2$."
    )
    st.markdown("**Posterior mean** under the prior $\\theta \\sim N(m, w^2 I)$ (Balle & Wang, Theorem 10):")
    st.latex(
        r"\hat\theta = m + \frac{w^2}{w^2 + \sigma^2}(y - m), \qquad "
        r"E\lVert\hat\theta - \theta\rVert^2 = \frac{d\,\sigma^2 w^2}{w^2 + \sigma^2}"
    )
    st.markdown(
        "**James–Stein** and its positive part (Theorem 11; $d \\ge 3$), Lindley's version shrinks "
        "towards the mean with $d - 3$; **empirical Bayes** plugs in $\\hat w^2 = \\max(0, \\lVert y\\rVert^2/d - \\sigma^2)$:"
    )
    st.latex(
        r"\hat\theta_{JS+} = \Big(1 - \frac{(d-2)\sigma^2}{\lVert y \rVert^2}\Big)_+ y, \qquad "
        r"\hat\theta_{EB} = \Big(1 - \frac{d\,\sigma^2}{\lVert y \rVert^2}\Big)_+ y"
    )
    st.markdown(
        "**Soft thresholding** (Donoho 1995; Balle & Wang, Theorem 12), with its oracle inequality "
        "(Donoho & Johnstone 1994); for heat maps the same on the orthonormal Haar wavelet details:"
    )
    st.latex(
        r"\hat\theta_i = \operatorname{sign}(y_i)\max(|y_i| - \lambda, 0), \quad \lambda = \sigma\sqrt{2\ln d}, "
        r"\qquad E\lVert\hat\theta-\theta\rVert^2 \le (2\ln d + 1)\Big(\sigma^2 + \sum_i \min(\theta_i^2, \sigma^2)\Big)"
    )
    st.markdown(
        "**Projections** onto what is public never increase the l2 error, because the truth lies in the "
        "convex set (Held, Wolfe & Crowder 1974; Duchi et al. 2008): $\\max(y, 0)$, and onto "
        "$\\{x \\ge 0, \\sum x = n\\}$"
    )
    st.latex(r"x_i = \max(y_i - \tau, 0), \quad \tau \text{ such that } \textstyle\sum_i \max(y_i - \tau, 0) = n")
    st.markdown(
        "**Liu's clip and rescale** clips to $[0, n]$ and rescales to sum $n$: not a projection, no "
        "guarantee. **Rounding** takes the nearest whole numbers with the same total (largest remainder)."
    )
    st.markdown("**Error measures** (Liu's l1 and KL; Balle & Wang's MSE) and the improvement factor:")
    st.latex(
        r"\mathrm{MSE} = \tfrac{1}{d}\lVert\hat\theta - \theta\rVert_2^2, \quad "
        r"\ell_1 = \lVert\hat\theta - \theta\rVert_1, \quad \max_i|\hat\theta_i - \theta_i|, \quad "
        r"\mathrm{KL}\Big(\tfrac{\theta}{\sum\theta}\,\Big\Vert\,\tfrac{\hat\theta_+}{\sum\hat\theta_+}\Big)"
    )
    st.latex(r"\text{improvement} = \frac{\text{error of the raw release}}{\text{error after denoising}}")
    st.markdown(
        "The KL divergence floors the estimate's probability of an occupied bin at $10^{-10}$, so that "
        "an estimate with an empty occupied bin is finite. The relative l2 error is "
        "$\\lVert\\hat\\theta - \\theta\\rVert_2 / \\lVert\\theta\\rVert_2$."
    )
    st.markdown(
        "**Sources:** B. Balle and Y.-X. Wang, *Improving the Gaussian mechanism for differential privacy: analytical "
        "calibration and optimal denoising*, ICML 2018 (Sections 4-5, appendix B). F. Liu, *Generalized Gaussian "
        "mechanism for differential privacy*, arXiv:1602.06028. D. Donoho and I. Johnstone, *Ideal spatial adaptation "
        "by wavelet shrinkage*, Biometrika 1994. D. Lindley, discussion of Stein's paper, JRSS B 1962. J. Duchi et al., "
        "*Efficient projections onto the l1-ball*, ICML 2008."
    )


render_page_tools(setting, "pages/5_Denoising_lab.py")
finish_page()  # warns about this page's own link values that could not be used
