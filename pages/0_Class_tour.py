"""gaussmech: the Class tour, six steps for a 45-minute class on differential-privacy noise.

One idea per step, each with one live chart, a question for the room, a button that sets the
step's values and a link to the full page at the same setting (gaussmech_ui/tour.py). The layout
is compact so that on a 1280×720 projector the step's chart starts on the first screen.
"""

import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_ui import presenter, tour  # noqa: E402
from gaussmech_ui.page_kit import table  # noqa: E402

tour.compact_layout()
tour.step_from_url()
# The title and the step's controls share one row, so that the step's chart and its question for the
# room are on a 1280×620 projector's first screen (on a phone the row stacks).
heading, choose, previous, following = st.columns([1.75, 3.1, 0.95, 0.95], vertical_alignment="bottom")
heading.title(
    "Class tour",
    help="Six steps for a 45-minute class. Every chart is live (the sidebar's ε, δ, Δ and d change it), and the "
    "address bar's link puts every laptop in the room on the same step and values.",
)
number = choose.selectbox(
    "Step",
    options=[step.number for step in tour.STEPS],
    format_func=lambda n: f"Step {n} of {len(tour.STEPS)}: {tour.STEPS[n - 1].title}",
    key=tour.STEP_KEY,
    label_visibility="collapsed",
)
previous.button(
    "Back",
    key="tour_previous",
    on_click=tour.move_step,
    args=(-1,),
    icon=":material/arrow_back:",
    use_container_width=True,
    disabled=number == 1,
)
following.button(
    "Next",
    key="tour_next",
    on_click=tour.move_step,
    args=(1,),
    icon=":material/arrow_forward:",
    use_container_width=True,
    disabled=number == len(tour.STEPS),
)
tour.step_to_url()
step = tour.STEPS[int(number) - 1]
with guarded(f"step {step.number} of the tour"):
    if presenter.is_presenting():  # the tour is the deck: one step per slide
        tour.render_slide(step, setting)
    else:
        tour.render_step(step, setting)

if not presenter.is_presenting():
    with st.expander("The plan of the class", icon=":material/school:"):
        table(tour.step_frame(), hide_index=True, key="tour_plan")

render_page_tools(setting, "pages/0_Class_tour.py")

finish_page()  # warns about this page's own link values that could not be used
