"""gaussmech: the math reference, docs/math.md, one header per numbered section.

Every formula the dashboard computes, its source, how it is evaluated stably and its status.
Each section's header has the anchor ``section-6-2`` (see ``gaussmech_ui.math_reference``), so a
caption can link to ``Math_reference#section-6-2``. A search box keeps only the sections that
mention a word; it is in the URL, like every page setting worth sharing.
"""

import streamlit as st

from gaussmech_ui.sidebar import guarded, render_sidebar

setting = render_sidebar()

from gaussmech_ui.math_reference import sections  # noqa: E402  (after the frame, as on every page)

with guarded("the math reference"):
    title, introduction, numbered = sections()
    st.title(title)
    st.markdown(introduction)
    query = st.text_input(
        "Find a section or a formula",
        key="math_filter",
        bind="query-params",
        placeholder="e.g. erfcx, discrete Gaussian, 6.2",
        help="Shows only the sections whose number, title or text contain these words (all of them, any case).",
    )
    words = query.lower().split()
    shown = [
        section
        for section in numbered
        if all(word in f"{section.heading}\n{section.body}".lower() for word in words)
    ]
    if words and not shown:
        st.warning(f"No section mentions “{query.strip()}”; clear the box to see them all.", icon=":material/search_off:")
    with st.expander("Contents", expanded=not words):
        st.markdown(
            "\n".join(
                f"{'    ' if section.level == 3 else ''}- [{section.heading}](#{section.anchor})" for section in shown
            )
        )
    for section in shown:
        draw = st.header if section.level == 2 else st.subheader
        draw(section.heading, anchor=section.anchor)
        if section.body:
            st.markdown(section.body)
