"""gaussmech: the math reference, docs/math.md, one header per numbered section.

Every formula the dashboard computes, its source, how it is evaluated stably and its status.
Each section's header has the anchor ``section-6-2`` (see ``gaussmech_ui.math_reference``), so a
caption can link to ``Math_reference#section-6-2``. A search box keeps only the sections that
mention a word; it is in the URL, like every page setting worth sharing.
"""

import streamlit as st

from gaussmech_ui.sidebar import finish_page, guarded, render_sidebar

setting = render_sidebar()

from gaussmech_ui.format import escape_markdown  # noqa: E402
from gaussmech_ui.math_reference import sections  # noqa: E402  (after the frame, as on every page)

# Wide formulas scroll sideways inside their own box instead of widening the page (phones).
STYLE = """<style>
.katex-display { overflow-x: auto; overflow-y: hidden; padding: 0.2em 0; }
@media (max-width: 640px) { .katex-display { font-size: 0.9em; } }
</style>"""

# A link such as Math_reference#section-6-2 opens the page before its sections exist, and
# Streamlit rewrites the URL (adding the shared parameters) without its #fragment before they are
# drawn, so the browser cannot jump to the anchor by itself. The fragment survives in the
# navigation entry of the page load: once the section is drawn, scroll to it and put the fragment
# back in the address bar. Once per anchor, so that typing in the search box does not jump back.
SCROLL_TO_ANCHOR = """<script>
(() => {
  const loaded = performance.getEntriesByType("navigation")[0];
  const loadedUrl = loaded ? new URL(loaded.name) : null;
  const fragment = window.location.hash
    || (loadedUrl && loadedUrl.pathname === window.location.pathname ? loadedUrl.hash : "");
  const anchor = decodeURIComponent(fragment.slice(1));
  if (!anchor.startsWith("section-") || window.__gaussmechScrolledTo === anchor) return;
  let attempts = 0;
  const timer = setInterval(() => {
    const target = document.getElementById(anchor);
    const idle = document.querySelector('[data-testid="stApp"][data-test-script-state="notRunning"]');
    if ((target && idle) || ++attempts > 150) {
      clearInterval(timer);
      if (!target) return;
      window.__gaussmechScrolledTo = anchor;
      if (!window.location.hash) {
        history.replaceState(history.state, "", window.location.pathname + window.location.search + "#" + anchor);
      }
      target.scrollIntoView({block: "start"});
      setTimeout(() => target.scrollIntoView({block: "start"}), 400);  // again, after the formulas' fonts
    }
  }, 100);
})();
</script>"""

st.html(STYLE)
with guarded("the math reference"):
    try:
        title, introduction, numbered = sections()
    except OSError as error:  # a copy of the dashboard without its docs/ folder
        st.error(
            f"The math reference could not be read ({error}); it is docs/math.md in the project's checkout.",
            icon=":material/error:",
        )
        st.stop()
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
        section for section in numbered if all(word in f"{section.heading}\n{section.body}".lower() for word in words)
    ]
    if words and not shown:
        st.warning(
            f"No section mentions “{escape_markdown(query.strip())}”; clear the box to see them all.",
            icon=":material/search_off:",
        )
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
st.html(SCROLL_TO_ANCHOR, unsafe_allow_javascript=True)

finish_page()  # warns about this page's own link values that could not be used
