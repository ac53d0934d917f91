"""gaussmech: the Class tour, six steps for a 45-minute class on differential-privacy noise.

One idea per step, each with one live chart, a question for the room, a button that sets the
step's values and a link to the full page at the same setting (gaussmech_ui/tour.py).
"""

import streamlit as st

from gaussmech_ui.page_tools import render_page_tools
from gaussmech_ui.sidebar import guarded, render_sidebar

setting = render_sidebar()

from gaussmech_ui import tour  # noqa: E402

st.title("Class tour: six ideas about privacy noise")
st.markdown(
    "Six steps for a 45-minute class, about seven minutes each. Every chart is live: the sidebar's ε, δ, Δ and d "
    "change it, and the link in the address bar puts every laptop in the room on the same step and values."
)


def _next_step() -> None:
    st.session_state[tour.STEP_KEY] = min(int(st.session_state.get(tour.STEP_KEY, 1)) + 1, len(tour.STEPS))


tour.step_from_url()
number = st.radio(
    "Step",
    options=[step.number for step in tour.STEPS],
    format_func=lambda n: f"{n}. {tour.STEPS[n - 1].title}",
    key=tour.STEP_KEY,
    horizontal=True,
)
tour.step_to_url()
step = tour.STEPS[int(number) - 1]
with guarded(f"step {step.number} of the tour"):
    tour.render_step(step, setting)
if step.number < len(tour.STEPS):
    st.button("Next step", key="tour_next", on_click=_next_step, icon=":material/arrow_forward:")

with st.expander("The plan of the class", icon=":material/school:"):
    st.dataframe(tour.step_frame(), hide_index=True, key="tour_plan")

render_page_tools(setting, "pages/0_Class_tour.py")
