"""The Class tour: six steps for a 45-minute class, one idea, one live chart and one question each.

Each :class:`TourStep` has the values it is best shown at (the "set this step's values" button),
the question to ask the room, and the full page it comes from (linked at the current setting).
:func:`render_step` draws a step; every number in it is computed by :mod:`gaussmech_core` at the
sidebar's setting, so the class can move a slider and see the idea change.

Step 1 keeps its "draw again" history: the draws are numbered, each from its own seeded stream
(seed, draw number), and the URL holds the seed and the number of draws (``tour_seed``,
``tour_draws``), so a shared link shows the same history.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from gaussmech_core import denoise, tails
from gaussmech_core.gaussian import analytic_gaussian_sigma
from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS, evaluate
from gaussmech_core.registry_types import Setting

from . import chart_log, params, presenter
from .attack_panel import attack_risk_frame, render_attack_risk_section, setting_arguments
from .cached.cache import UPLOAD_HASH_FUNCS
from .claims.attack import risk_caption
from .claims.ranking import neighbour_model_phrase, reader_name
from .claims.trends import comparison, trend
from .draw_history import DrawHistory, url_int
from .figures import tour as figures
from .figures.attack_risk import attack_tpr_figure
from .format import format_number, format_percent
from .page_kit import show_chart

__all__ = [
    "TourStep",
    "STEPS",
    "STEP_KEY",
    "step_from_url",
    "step_to_url",
    "move_step",
    "compact_layout",
    "apply_values",
    "draw_history",
    "render_step",
    "render_slide",
    "TRUE_COUNT",
    "MAX_DRAWS",
]

STEP_KEY = "tour_step"
SEED_KEY = "tour_seed"
DRAWS_KEY = "tour_draws"
TRUE_COUNT = 42.0
MAX_DRAWS = 400


@dataclass(frozen=True)
class TourStep:
    """One step of the tour."""

    number: int
    title: str
    idea: str
    question: str
    values: dict
    page: str
    page_label: str


_BASE = {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0, "order": 2.0, "dim": 1, "l1_model": "one_coordinate"}

STEPS: tuple[TourStep, ...] = (
    TourStep(
        1,
        "What noise does to one count",
        "A count of 42 people is released with Gaussian noise. Each release lands somewhere else; the curve is "
        "where it can land. Press “Draw again” a few times and watch the history fill the curve.",
        "The release says 45. How sure can you be that the true count is 42 and not 43?",
        dict(_BASE),
        "pages/1_Noise_distributions.py",
        "Noise distributions",
    ),
    TourStep(
        2,
        "Why the exact calibration beats the classical one",
        "The textbook formula σ = Δ√(2 ln(1.25/δ))/ε is a theorem only for ε < 1 (the green band). Beyond it, "
        "the noise it gives can have a true δ above the δ it was asked for: it fails silently.",
        "Where does the orange curve cross the dashed line, and what does a library that uses the formula there promise?",
        {**_BASE, "epsilon": 0.5},
        "pages/3_Privacy_profiles.py",
        "Privacy profiles",
    ),
    TourStep(
        3,
        "Laplace against Gaussian tails",
        "Calibrated to the same ε, Laplace noise (pure ε-DP, no δ) is often smaller. But its tail falls like "
        "e^(−t/b), the Gaussian's like e^(−t²/2σ²): far enough out, the Gaussian's large errors are always rarer. How far?",
        "For a count you publish once, would you rather have smaller typical errors or rarer huge ones?",
        dict(_BASE),
        "pages/2_Tail_probabilities.py",
        "Tail probabilities",
    ),
    TourStep(
        4,
        "What dimension does to error, and why a falling curve is suspicious",
        "Releasing d numbers at once, the error of the whole vector grows with d for every proven mechanism. "
        "R1SMG claims far less, an error that even falls as d grows; its true δ shows why: the claim does not hold.",
        "A paper says its noise barely grows with d. What would you check first?",
        {**_BASE, "dim": 50, "l1_model": "all_coordinates"},
        "pages/4_Accuracy_vs_dimension.py",
        "Accuracy vs dimension",
    ),
    TourStep(
        5,
        "What ε means as odds",
        "(ε, δ) bounds how much a decision made from one release can move anyone's belief about Alice; here is "
        "what the best attacker actually achieves against each mechanism at this setting.",
        "You were 10% sure Alice is in the data. After the release, can you be 50% sure?",
        {**_BASE, "dim": 10},
        "pages/3_Privacy_profiles.py",
        "Privacy profiles",
    ),
    TourStep(
        6,
        "Denoising is free",
        "Anything computed from the release alone (clipping negative counts, using a public total) has the same "
        "privacy guarantee, and here it makes the answer more accurate.",
        "Why can post-processing never cost privacy?",
        {**_BASE, "dim": 20},
        "pages/5_Denoising_lab.py",
        "Denoising lab",
    ),
)


_STEP_WRITTEN = "_tour_step_written"


def step_from_url() -> None:
    """Apply the URL's ``tour_step`` when it differs from what this session last wrote (a shared link)."""
    raw = st.query_params.get(STEP_KEY)
    if raw is None or raw == st.session_state.get(_STEP_WRITTEN):
        return
    try:
        number = int(raw)
        if not 1 <= number <= len(STEPS):
            raise ValueError
    except ValueError:
        st.warning(
            f"The link sets {params.quote_untrusted(f'{STEP_KEY}={raw}')}, but the tour has steps 1 to {len(STEPS)}; "
            "showing step 1."
        )
        number = 1
    st.session_state[STEP_KEY] = number


def step_to_url() -> None:
    """Mirror the current step in the URL, so the link puts the class on the same step."""
    text = str(int(st.session_state.get(STEP_KEY, 1)))
    if st.query_params.get(STEP_KEY) != text:
        st.query_params[STEP_KEY] = text
    st.session_state[_STEP_WRITTEN] = text


def move_step(step: int) -> None:
    """Callback of "Back" / "Next"."""
    current = int(st.session_state.get(STEP_KEY, 1))
    st.session_state[STEP_KEY] = min(max(current + step, 1), len(STEPS))


_COMPACT_STYLE = """
<style>
.st-key-tour_idea p { margin-bottom: 0.2rem; }
</style>
"""


def compact_layout() -> None:
    """Less space under the step's idea, so the chart of a step starts on a 1280×720 screen (the page top: page_kit)."""
    st.html(_COMPACT_STYLE)


def apply_values(values: dict) -> None:
    """Callback of "set this step's values": store them as the shared parameters (the URL follows)."""
    for name, value in values.items():
        st.session_state[name] = value


def draw_history(seed: int, count: int, sigma: float) -> np.ndarray:
    """The first ``count`` released counts of history ``seed``: draw i uses the stream (seed, i)."""
    return np.array([TRUE_COUNT + np.random.default_rng([seed, i]).normal(0.0, sigma) for i in range(count)])


HISTORY = DrawHistory(seed_key=SEED_KEY, draws_key=DRAWS_KEY, button_prefix="tour", max_draws=MAX_DRAWS)


# On a slide: a line of the chart's caption (0.95rem) and the characters it holds; the question's box
# beyond its text (padding, border) and the gaps around caption and question.
_SLIDE_CAPTION_LINE = (23, 150)
_SLIDE_QUESTION_FRAME = 16 + 16


def _slide_chart_height(step: TourStep, caption: str) -> int:
    """The height of a step's chart on its slide (so the slide and its controls fit :data:`presenter.SLIDE_HEIGHT`)."""
    caption_lines = -(-len(caption) // _SLIDE_CAPTION_LINE[1])
    return presenter.chart_height_for(
        f"{step.number}. {step.title}. {step.idea}\n{step.question}",
        other_pixels=caption_lines * _SLIDE_CAPTION_LINE[0] + _SLIDE_QUESTION_FRAME,
    )


# Where a step's chart starts on a 1280 px wide screen (the title row, the idea and the question above
# it): the chart's height follows the window from there, so it ends on a 1280×620 projector's first screen.
_TOUR_CHART_TOP = 299


def _show(figure, key: str, alt: str, caption: str) -> None:
    if presenter.is_presenting():
        number = int(st.session_state.get(STEP_KEY, 1))
        figure = presenter.slide_figure(figure, _slide_chart_height(STEPS[number - 1], caption))
        show_chart(figure, key, alt=alt)
    else:
        show_chart(figure, key, alt=alt, screen_top=_TOUR_CHART_TOP)
    st.caption(caption)


def _step_one(setting: Setting) -> None:
    sigma = float(analytic_gaussian_sigma(setting.epsilon, setting.delta, setting.sensitivity))
    seed, count = HISTORY.seed, HISTORY.count
    draws = draw_history(seed, count, sigma)
    inside = float(np.mean(np.abs(draws - TRUE_COUNT) <= 2 * sigma))
    _show(
        figures.count_release_figure(TRUE_COUNT, sigma, draws, setting),
        "tour_count_chart",
        "The density of a noisy count around the true count, with a histogram of the draws so far.",
        f"{count} draw{'s' if count != 1 else ''} (seed {seed}); latest release {format_number(float(draws[-1]))}. "
        f"The analytic Gaussian needs σ = {format_number(sigma)} at ε = {format_number(setting.epsilon)}, "
        f"δ = {format_number(setting.delta)}, Δ = {format_number(setting.sensitivity)}; "
        f"{format_percent(inside, 3)} of these draws are within 2σ of the truth (95.4% in the long run).",
    )
    if not presenter.is_presenting():  # a slide has its "Draw again" in the controls row
        HISTORY.buttons()


def _step_two(setting: Setting) -> None:
    epsilons = np.logspace(-2, 2, 300)
    true_deltas = np.asarray(tails.classical_true_delta(epsilons, setting.delta), dtype=float)
    breakdown = float(tails.classical_breakdown_epsilon(setting.delta))
    ratio = ""
    if 0 < setting.epsilon < 1:
        classical = evaluate("classical_gaussian", setting).scale
        analytic = evaluate(DEFAULT_MECHANISM_ID, setting).scale
        ratio = (
            f" At ε = {format_number(setting.epsilon)} the classical σ = {format_number(classical)} adds "
            f"{format_number((classical / analytic) ** 2)}× the variance of the exact σ = {format_number(analytic)}."
        )
    where = (
        f"From about ε = {format_number(breakdown)} on, its true δ exceeds δ = {format_number(setting.delta)}."
        if math.isfinite(breakdown)
        else f"Up to ε = 100 its true δ stays below δ = {format_number(setting.delta)}, but only by luck beyond ε = 1."
    )
    _show(
        figures.classical_delta_figure(epsilons, true_deltas, setting),
        "tour_classical_chart",
        "True delta of Gaussian noise with the classical sigma, against epsilon, with the target delta.",
        where + ratio,
    )


def _step_three(setting: Setting) -> None:
    flat = replace(setting, dim=1)
    curves, bounds = {}, []
    for mechanism_id in (DEFAULT_MECHANISM_ID, "laplace"):
        calibration = evaluate(mechanism_id, flat)
        if calibration.scale is None:
            continue
        mechanism = MECHANISMS[mechanism_id]
        curves[mechanism.name] = (calibration, mechanism)
    if not curves:
        st.warning("Neither mechanism is valid at this setting; set the step's values.")
        return
    top = max(float(tails.coordinate_error_bound(m, c.scale, flat, 1e-9)) for c, m in curves.values())
    t = np.linspace(0.0, top, 400)
    drawn = {}
    for name, (calibration, mechanism) in curves.items():
        drawn[name] = (np.asarray(mechanism.tail(t, calibration.scale, flat), dtype=float), mechanism.color)
        b95 = float(tails.coordinate_error_bound(mechanism, calibration.scale, flat, 0.05))
        bounds.append(f"{name}: 95% of errors below {format_number(b95)}")
    _show(
        figures.tail_figure(t, drawn, flat),
        "tour_tail_chart",
        "Tail probability of one noise coordinate for the analytic Gaussian and Laplace, on a log scale.",
        "; ".join(bounds) + ". " + _crossing_sentence(curves, flat),
    )


def _crossing_sentence(curves, setting: Setting) -> str:
    """Where the two log tails cross (the Gaussian's is below beyond it), found on a fine grid."""
    if len(curves) < 2:
        return ""
    (gauss_name, (gauss, gauss_mechanism)), (lap_name, (lap, lap_mechanism)) = list(curves.items())[:2]
    far = 40.0 * max(gauss.coordinate_std, lap.coordinate_std)
    t = np.linspace(far / 20000.0, far, 20000)
    difference = np.asarray(
        tails.log_coordinate_tail(gauss_mechanism, t, gauss.scale, setting), dtype=float
    ) - np.asarray(tails.log_coordinate_tail(lap_mechanism, t, lap.scale, setting), dtype=float)
    below = np.flatnonzero(np.diff(np.sign(difference)) < 0)
    if difference[0] < 0:
        return "The Gaussian's tail is below Laplace's everywhere here: its large errors are rarer at every size."
    if not below.size:
        return f"Up to t = {format_number(far)} Laplace's large errors stay rarer."
    crossing = float(t[below[0] + 1])
    chance = float(np.exp(tails.log_coordinate_tail(lap_mechanism, crossing, lap.scale, setting)))
    return (
        f"The tails cross at t ≈ {format_number(crossing)}, where either error has chance about {format_number(chance)}: "
        f"errors smaller than that are rarer with {lap_name}, larger ones with {gauss_name}."
    )


def _step_four(setting: Setting) -> None:
    dims = np.unique(np.round(np.logspace(0, 3, 31)).astype(int))
    dims = dims[dims >= 3]
    curves = {}
    for mechanism_id in (DEFAULT_MECHANISM_ID, "laplace", "r1smg"):
        mechanism = MECHANISMS[mechanism_id]
        values = []
        for d in dims:
            calibration = evaluate(mechanism, replace(setting, dim=int(d)))
            values.append(math.sqrt(calibration.expected_loss) if calibration.expected_loss is not None else math.nan)
        dash = "dash" if mechanism.guarantee == "claimed" else "solid"
        curves[mechanism.name] = (np.array(values), mechanism.color, dash)
    claimed = evaluate("r1smg", setting)
    if claimed.true_delta is not None:
        verdict = (
            f"At d = {setting.dim}, R1SMG's noise has true δ = {format_number(claimed.true_delta)} at ε = "
            f"{format_number(setting.epsilon)}, {format_number(claimed.true_delta / setting.delta)}× the δ it claims."
        )
    else:
        verdict = claimed.validity.reason or "R1SMG is not defined here."
    _show(
        figures.dimension_figure(dims, curves, setting),
        "tour_dimension_chart",
        "Root-mean-square error of the whole vector against the dimension for three mechanisms.",
        dimension_caption(dims, curves, setting) + " " + verdict,
    )


def dimension_caption(dims: np.ndarray, curves: dict, setting: Setting) -> str:
    """What the dimension chart draws, in words computed from its curves (``{name: (values, colour, dash)}``).

    Each curve's ends (:func:`gaussmech_ui.claims.trends.trend`), where Laplace lies against the
    default Gaussian (:func:`~gaussmech_ui.claims.trends.comparison`), and the Δ₁ that Laplace
    follows under the sidebar's neighbour model, so "Next" with another model changes the words too.
    """
    default, laplace, claimed = (MECHANISMS[key] for key in (DEFAULT_MECHANISM_ID, "laplace", "r1smg"))
    values = {name: curve[0] for name, curve in curves.items()}
    gaussian = trend(f"{reader_name(default)}'s error", dims, values[default.name])
    against = comparison("", f"{reader_name(default)}'s", dims, values[laplace.name], values[default.name]).strip()
    lap = trend(
        f"{reader_name(laplace)}'s, with {neighbour_model_phrase(setting.l1_model)},", dims, values[laplace.name]
    )
    fallen = trend(f"{claimed.short_name}'s (dashed; its guarantee is only claimed)", dims, values[claimed.name])
    sentences = [f"On the chart, {gaussian}." if gaussian else ""]
    sentences.append(f"{lap[0].upper()}{lap[1:]} and {against}." if lap and against else "")
    sentences.append(f"{fallen}." if fallen else "")
    return " ".join(sentence for sentence in sentences if sentence)


def _step_five(setting: Setting) -> None:
    if not presenter.is_presenting():
        render_attack_risk_section(
            setting, "attack", with_inverse=False, heading=False, chart_first=True, screen_top=_TOUR_CHART_TOP
        )
        return
    # One chart per slide: the attacker's bars and their reading at an even prior, without the table.
    prior = 0.5
    frame = attack_risk_frame(**setting_arguments(setting), prior=prior)
    _show(
        attack_tpr_figure(frame, setting),
        "attack_risk_chart",
        "Bars of the best attacker's true-positive rate at a 1% false-positive rate, one per mechanism.",
        risk_caption(frame, setting, prior, MECHANISMS),
    )


@st.cache_data(hash_funcs=UPLOAD_HASH_FUNCS, max_entries=32)
def _histogram_release(epsilon: float, delta: float, sensitivity: float, seed: int):
    truth = np.array([0, 3, 12, 25, 18, 9, 4, 1, 0, 0, 2, 7, 15, 11, 5, 2, 1, 0, 0, 1], dtype=float)
    sigma = float(analytic_gaussian_sigma(epsilon, delta, sensitivity))
    noisy = truth + np.random.default_rng(seed).normal(0.0, sigma, truth.size)
    denoised = denoise.project_to_simplex(noisy, truth.sum())
    return truth, noisy, denoised, sigma


def _step_six(setting: Setting) -> None:
    seed = url_int(SEED_KEY, 0, 0, 2**31 - 1)
    truth, noisy, denoised, sigma = _histogram_release(setting.epsilon, setting.delta, setting.sensitivity, seed)
    before = float(np.sqrt(np.mean((noisy - truth) ** 2)))
    after = float(np.sqrt(np.mean((denoised - truth) ** 2)))
    _show(
        figures.denoising_figure(truth, noisy, denoised, setting),
        "tour_denoising_chart",
        "A 20-bin histogram: true counts, the noisy release and the release projected onto non-negative counts with the public total.",
        f"Root-mean-square error per bin: {format_number(before)} for the noisy release (σ = {format_number(sigma)}), "
        f"{format_number(after)} after projecting onto the histograms with the public total {format_number(float(truth.sum()))} "
        f"(seed {seed}). Same (ε = {format_number(setting.epsilon)}, δ = {format_number(setting.delta)}) guarantee: "
        "post-processing never weakens it (Dwork & Roth 2014, Prop. 2.1).",
    )


_DRAW = {1: _step_one, 2: _step_two, 3: _step_three, 4: _step_four, 5: _step_five, 6: _step_six}


def render_step(step: TourStep, setting: Setting) -> None:
    """Draw one step: idea, the question for the room, the live chart with its caption, the value button and the link."""
    with st.container(key="tour_idea"):
        st.markdown(f"**{step.number}. {step.title}.** {step.idea}")
    # The question sits above the chart, so it is on a 1280×620 projector's first screen at every step.
    with st.container(border=True, key="tour_question"):
        st.markdown(f"**Ask the room:** {step.question}")
    with st.container(key=f"tour_step_{step.number}"):
        _DRAW[step.number](setting)
    left, right = st.columns(2)
    left.button(
        "Set this step's values",
        key=f"tour_set_values_{step.number}",
        on_click=apply_values,
        args=(step.values,),
        icon=":material/tune:",
        use_container_width=True,
        help="ε = {epsilon:g}, δ = {delta:g}, Δ = {sensitivity:g}, d = {dim}".format(**step.values),
    )
    with right:
        st.page_link(
            step.page,
            label=f"Open {step.page_label} at this setting",
            icon=":material/open_in_new:",
            query_params=params.to_query(params.current_values()),
        )


def _draw_again() -> None:
    st.button(
        "Draw again",
        key="tour_draw_again",
        on_click=HISTORY.add,
        args=(1,),
        icon=":material/casino:",
        use_container_width=True,
        help="One more draw; the earlier ones stay in the history.",
    )


def render_slide(step: TourStep, setting: Setting) -> None:
    """Draw one step as a presenter slide: its idea, its live chart, its question; Draw again where it draws."""
    log = chart_log.current_log()
    if log is not None:
        log.deck_drawn = True  # the page tools draw no second deck
    with presenter.slide_frame(setting):
        with st.container(key="presenter_text"):
            st.markdown(f"**{step.number}. {step.title}.** {step.idea}")
        with st.container(key=f"tour_step_{step.number}"):
            _DRAW[step.number](setting)
        with st.container(border=True, key="tour_question"):
            st.markdown(f"**Ask the room:** {step.question}")
        presenter.deck_controls(
            f"Step {step.number} of {len(STEPS)}",
            on_previous=lambda: move_step(-1),
            on_next=lambda: move_step(1),
            first=step.number == 1,
            last=step.number == len(STEPS),
            extra=_draw_again if step.number == 1 else None,
        )


def step_frame() -> pd.DataFrame:
    """The tour's plan as a table (for the page's overview expander)."""
    return pd.DataFrame([{"Step": s.number, "Idea": s.title, "Question": s.question} for s in STEPS])
