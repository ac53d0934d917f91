"""gaussmech: Training (DP-SGD): the noise multiplier σ for a training run, and what it guarantees.

Inputs: dataset size N, batch size B, epochs E, clipping norm C (this page) and ε, δ (sidebar).
Shown: the certified σ with RDP's and the CLT's beside it, labelled; the noise std σ·C; ε against
epochs as the certified band [ε_low, ε_high]; the attack-risk bounds; and, on request, a planner
map of the σ needed over batch size × epochs (docs/math.md section 13). The sampling scheme is
always named: Poisson sampling is what is computed.
"""

import numpy as np
import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import entry_box, finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_ui import chart_log, training  # noqa: E402
from gaussmech_ui.cached import dpsgd as cached  # noqa: E402
from gaussmech_ui.claims import dpsgd as claims  # noqa: E402
from gaussmech_ui.downloads import download_csv  # noqa: E402
from gaussmech_ui.figures import dpsgd as figures  # noqa: E402
from gaussmech_ui.format import format_number, math_reference_link  # noqa: E402
from gaussmech_ui.page_kit import say, show_chart, table  # noqa: E402

PAGE = "pages/6_Training_DP_SGD.py"
MAP_KEY = "_dpsgd_map_for"  # the inputs the planner map was asked for (per session; a click, never a link)

st.title("Which noise multiplier for DP-SGD?")

columns = st.columns([1, 1, 1, 1, 1.4])
with columns[0]:
    dataset_size = int(entry_box(training.DATASET_SIZE, "dpsgd_dataset_size"))
with columns[1]:
    batch_size = int(entry_box(training.BATCH_SIZE, "dpsgd_batch_size"))
with columns[2]:
    epochs = float(entry_box(training.EPOCHS, "dpsgd_epochs"))
with columns[3]:
    clipping_norm = float(entry_box(training.CLIPPING_NORM, "dpsgd_clipping_norm"))
with columns[4]:
    sampling = st.selectbox(
        "How batches are drawn",
        training.SAMPLING_SCHEMES,
        key="dpsgd_sampling",
        bind="query-params",
        help="Poisson sampling is what the analysis assumes; most training code shuffles and cuts fixed-size batches.",
    )
shuffled = sampling == training.SHUFFLED
chart_log.note_inputs(  # the setting line of this page's slides, images and reports (page_facts) states these
    {
        "dpsgd_dataset_size": dataset_size,
        "dpsgd_batch_size": batch_size,
        "dpsgd_epochs": epochs,
        "dpsgd_clipping_norm": clipping_norm,
        "dpsgd_sampling": sampling,
    }
)
scheme = "Poisson sampling" if not shuffled else "Poisson numbers; you shuffle: optimistic"
if shuffled:  # the label belongs next to the numbers, before them
    st.warning(claims.sampling_note(True), icon=":material/warning:")

plan = None
try:
    training.check_target(setting.epsilon, setting.delta)
    plan = training.schedule(dataset_size, batch_size, epochs)
except training.InputProblem as problem:
    st.warning(str(problem), icon=":material/warning:")

answer = None
if plan is not None:
    with guarded("the calibration"):
        try:
            with st.spinner("Calibrating σ (about a second)…"):
                answer = cached.answer(setting.epsilon, setting.delta, plan.sampling_rate, plan.steps)
        except ValueError as problem:
            st.warning(
                f"No noise multiplier meets ε = {format_number(setting.epsilon)} at δ = {format_number(setting.delta)} "
                f"for T = {plan.steps:,} steps at q = {format_number(plan.sampling_rate)} within the accountant's range "
                f"({problem}). Raise ε or δ in the sidebar, or train fewer epochs.",
                icon=":material/warning:",
            )

if answer is not None:
    main = claims.answer_claim(
        answer,
        epsilon=setting.epsilon,
        delta=setting.delta,
        clipping_norm=clipping_norm,
        steps=plan.steps,
        sampling_rate=plan.sampling_rate,
        shuffled=shuffled,
    )
    say(main.text)
    with guarded("the ε-against-epochs chart"):
        lengths = training.epoch_points(plan.epochs)
        steps = tuple(plan.at_epochs(length).steps for length in lengths)
        with st.spinner("Accounting ε at 8 training lengths…"):
            band = cached.epsilon_band(answer["sigma"], setting.delta, plan.sampling_rate, steps, tuple(lengths))
        band = training.tighten_full_length(band, answer, plan.steps)
        figure = figures.epsilon_band_figure(
            band, sigma=answer["sigma"], target=setting.epsilon, delta=setting.delta, scheme=scheme
        )
        show_chart(
            figure,
            "dpsgd_band_chart",
            alt="Certified band of epsilon against epochs, with RDP and CLT.",
            screen_top=280,
        )
        say(claims.band_claim(band, epochs=plan.epochs).text)
        download_csv("Chart data as CSV", band, "gaussmech-dpsgd-epsilon-epochs.csv", key="dpsgd_download_band")

    rdp, clt = claims.rdp_claim(answer), claims.clt_claim(answer, setting.epsilon)
    st.markdown(
        "**Two other accountants' σ for the same target, beside the certified one:**\n"
        f"- {rdp.text}\n- {clt.text}\n"
        f"- At the certified σ, RDP reports ε = {format_number(claims.round_up(answer['rdp_epsilon']))} and the CLT "
        f"ε = {format_number(answer['clt_epsilon'])}"
        + (" (below ε_low: **underestimates: unsafe**)." if answer["clt_epsilon"] < answer["epsilon_low"] else ".")
    )
    sigma_table = training.answer_table(answer, clipping_norm, clt.verdict)
    shown_table = training.shown_table(sigma_table)
    table(shown_table, hide_index=True, key="dpsgd_sigma_table")
    chart_log.note_table("The noise multiplier σ for this training run", shown_table)
    download_csv("σ table as CSV", sigma_table, "gaussmech-dpsgd-sigma.csv", key="dpsgd_download_table")

    if not shuffled:
        st.caption(claims.sampling_note(False))

st.subheader("What can an attacker learn from the trained model?")
prior = float(entry_box(training.PRIOR, "dpsgd_prior"))  # drawn always, so a bad link value is always answered
if answer is None:
    st.caption("No σ at these inputs, so no attack bound: see the message above.")
else:
    with guarded("the attack-risk numbers"):
        risk = cached.attack_risk(answer["sigma"], plan.sampling_rate, plan.steps, prior)
        metrics = st.columns(4)
        shown = claims.attack_claim(risk, shuffled=shuffled)
        for column, (label, name) in zip(metrics, training.ATTACK_METRICS):
            column.metric(label, training.percent_or_number(name, shown.bounds[name][1]))
        st.markdown(shown.text)
        download_csv(
            "Attack numbers as CSV",
            training.attack_frame(risk),
            "gaussmech-dpsgd-attack.csv",
            key="dpsgd_download_attack",
        )

if answer is not None:
    st.subheader("Planner: the σ needed over batch size × epochs")
    batches, epoch_axis = training.planner_axes(plan)
    cells = training.planner_cells(plan, batches, epoch_axis)
    asked = (setting.epsilon, setting.delta, dataset_size, batch_size, epochs)
    computable = int(sum(cell is not None for row in cells for cell in row))
    st.markdown(
        f"{computable} calibrations of σ, computed when asked: each takes about 0.5-3 s, so the map about half a "
        f"minute, a minute or more on a busy server. Cells beyond {training.STEP_BUDGET:,} steps are left empty."
    )
    if st.button("Compute the planner map", key="dpsgd_map_button", icon=":material/grid_on:"):
        st.session_state[MAP_KEY] = asked
    if st.session_state.get(MAP_KEY) == asked:
        with guarded("the planner map"):
            sigmas = np.full((len(epoch_axis), len(batches)), np.nan)
            steps_grid = np.zeros_like(sigmas)
            progress = st.progress(0.0, text="Calibrating the map…")
            for index, (i, j, cell) in enumerate(training.flat_cells(cells)):
                steps_grid[i, j] = (
                    cell.steps if cell is not None else training.steps_of(plan, batches[j], epoch_axis[i])
                )
                if cell is not None:
                    sigmas[i, j] = cached.cell_sigma(setting.epsilon, setting.delta, cell.sampling_rate, cell.steps)
                progress.progress((index + 1) / sigmas.size, text=f"Calibrating the map… {index + 1}/{sigmas.size}")
            progress.empty()
            figure = figures.planner_figure(
                batches,
                epoch_axis,
                sigmas,
                epsilon=setting.epsilon,
                delta=setting.delta,
                dataset_size=dataset_size,
                current=(plan.batch_size, plan.epochs),
                scheme=scheme,
            )
            show_chart(figure, "dpsgd_planner_chart", alt="Heat map of the certified sigma over batch size and epochs.")
            say(claims.planner_claim(batches, epoch_axis, sigmas, steps=steps_grid, budget=training.STEP_BUDGET).text)
            download_csv(
                "Map data as CSV",
                figures.planner_frame(batches, epoch_axis, sigmas, steps_grid),
                "gaussmech-dpsgd-planner.csv",
                key="dpsgd_download_planner",
            )

st.caption(
    "The sidebar's Δ, p, d, neighbour model and data bounds are **not used on this page**: the clipping norm C "
    "plays Δ's part (one example changes the summed gradient by at most C), and neighbours differ by adding or "
    "removing one training example."
)
with st.expander("The math", icon=":material/function:"):
    st.markdown(
        "Each step adds N(0, σ²C²) noise to the sum of the clipped gradients of a Poisson sample (rate q = B/N); "
        "T = ⌈E·N/B⌉ steps compose. The privacy loss is that of the pair (" + math_reference_link("13.1") + "):"
    )
    st.latex(r"P = (1-q)\,N(0, \sigma^2) + q\,N(1, \sigma^2), \qquad Q = N(0, \sigma^2)")
    st.markdown(
        "Its distribution is discretised on a grid twice, once pessimistically and once optimistically, and composed "
        "T times by FFT; every discretisation and truncation error is counted toward ε_high, so "
        "ε_low ≤ ε ≤ ε_high (" + math_reference_link("13.2", "13.3") + "). RDP (Mironov, Talwar & Zhang 2019) is a "
        "valid but looser bound; the CLT (Bu et al. 2020) is an approximation, μ = q√(T(e^{1/σ²} − 1)), that can "
        "fall below the true ε (" + math_reference_link("13.4") + "). The attack numbers are read off the certified "
        "upper δ(ε) curve, so each is an upper bound (" + math_reference_link("13.6") + ")."
    )

render_page_tools(setting, PAGE)
finish_page()  # warns about this page's own link values that could not be used
