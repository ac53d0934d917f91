"""The frame every page lives in: ``render_sidebar()`` draws the menu and the shared controls.

Every page (and ``app.py``) starts with::

    setting = render_sidebar()

which sets the page's title from the menu, applies a shared link's values, draws the custom
menu and the six shared controls, mirrors the values in the URL, shows any warning about a bad
link or entry, and returns the core's :class:`~gaussmech_core.registry_types.Setting`.
:func:`guarded` wraps each part of a page so that a failure shows a plain message instead of a
traceback.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from gaussmech_core.registry_types import Setting

from . import menu, params
from .format import format_exact, format_number
from .page_kit import page_style
from .params import PARAMETERS, Parameter, exact_key, widget_key

PENDING_VIEW_KEY = "_presenter_pending_view"  # presenter._PENDING_VIEW (the sidebar does not import presenter)

__all__ = ["render_sidebar", "finish_page", "entry_box", "guarded"]

_LINK_SLOT = "_gaussmech_link_slot"

_LOG = logging.getLogger(__name__)


def _page_paths() -> tuple[Path, Path]:
    """The app's root folder (where ``app.py`` is) and the running page's script."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    context = get_script_run_ctx()
    if context is None:  # plain `python app.py`: no Streamlit session
        return menu.APP_ROOT, menu.APP_ROOT / "app.py"
    root = Path(context.main_script_path).resolve().parent
    try:  # the pages registry is not public API: without it, the title is generic, nothing breaks
        page = context.pages_manager.get_pages().get(context.page_script_hash, {})
    except AttributeError:
        page = {}
    return root, Path(page.get("script_path") or context.main_script_path)


def render_sidebar() -> Setting:
    """Draw the menu and the shared controls; return the current :class:`Setting`."""
    app_root, page_script = _page_paths()
    entry = menu.entry_for(page_script, app_root)
    st.set_page_config(
        page_title=f"{entry.label} · gaussmech" if entry else "gaussmech",
        page_icon=":material/blur_on:",
        layout="wide",
    )
    page_style()
    if PENDING_VIEW_KEY in st.session_state:  # presenter mode passing a view without charts
        from .presenter import open_pending_view

        open_pending_view()
    params.init_state()
    params.sync_from_url()
    problems = params.entry_problems()
    with st.sidebar:
        st.markdown("### gaussmech")
        _draw_menu(app_root, entry)
        st.divider()
        # The neighbour model first: which mechanism wins depends on it (issue 10), so it is never below the fold.
        choices = [name for name, parameter in PARAMETERS.items() if parameter.control == "choice"]
        for group, names in (
            ("Neighbouring datasets", choices),
            ("Privacy parameters", [name for name in PARAMETERS if name not in choices]),
        ):
            st.markdown(f"#### {group}")
            for name in names:
                parameter = PARAMETERS[name]
                params.prepare_widgets(name)
                _CONTROLS[parameter.control](parameter)
                if name in problems:  # beside the box that was typed into, and as a toast if it has scrolled away
                    st.warning(problems[name], icon=":material/warning:")
                    st.toast(problems[name], icon=":material/warning:")
                if parameter.note:
                    st.caption(parameter.note)
    params.write_url()
    params.note_page_links()
    for message in params.pending_warnings():
        st.warning(message, icon=":material/warning:")
    # finish_page() puts warnings about the page's own link values here, at the top (per session, never shared).
    st.session_state[_LINK_SLOT] = st.container()
    return params.current_setting()


def finish_page() -> None:
    """The last line of every page: warn, at the top of the page, about its own link values that could not be used.

    A link such as ``?tails_alpha=abc`` sets a page control (Streamlit's bind="query-params"); the
    control drops a value it cannot take, and this says so (:func:`gaussmech_ui.params.check_page_links`).
    """
    messages = params.check_page_links()
    slot = st.session_state.pop(_LINK_SLOT, None)
    for message in messages:
        (slot if slot is not None else st).warning(message, icon=":material/warning:")


def _draw_menu(app_root: Path, current) -> None:
    """The menu: one link per page; the current page's link sits in the container ``menu_current``.

    Streamlit draws a focused link with the current page's background, so after a click or a Tab
    the menu showed two "current" pages; :data:`gaussmech_ui.page_kit.PAGE_STYLE` styles focus as
    an outline and the current page by this container, not by Streamlit's own class.
    """
    entries = menu.available_entries(app_root)
    if len(entries) < 2:  # a one-page app has nowhere to go (and Streamlit registers no page to link)
        return
    link_query = params.to_query(params.current_values())
    for entry in entries:
        if current is not None and entry.path == current.path:
            with st.container(key="menu_current"):
                st.page_link(entry.path, label=entry.label, icon=entry.icon, query_params=link_query)
        else:
            st.page_link(entry.path, label=entry.label, icon=entry.icon, query_params=link_query)


def _log_slider_with_entry(parameter: Parameter) -> None:
    """A log-scaled slider over the parameter's stops, and a box for the exact value."""
    name = parameter.name
    is_int = parameter.kind == "int"
    st.select_slider(
        parameter.label,
        # The exact value is one of the options, so after typing ε = 0.37 the slider shows 0.37 too.
        options=params.slider_options(parameter, st.session_state[name]),
        format_func=(lambda v: f"{v:,}") if is_int else format_number,
        key=widget_key(name),
        help=parameter.help,
        on_change=params.on_stop_change,
        args=(name,),
    )
    entry_help = f"Any value {parameter.allowed()}; the slider moves to it."
    # A text box for every kind, read by the one shared parser (params.parse_value): a number box would
    # turn "abc" or "1.5" into a value without a word.
    st.text_input(
        f"Exact {parameter.symbol}",
        key=exact_key(name),
        help=entry_help,
        on_change=params.on_exact_change,
        args=(name,),
    )


def _entry(parameter: Parameter) -> None:
    st.text_input(
        parameter.label,
        key=exact_key(parameter.name),
        help=parameter.help + f" Allowed: {parameter.allowed()}.",
        on_change=params.on_exact_change,
        args=(parameter.name,),
    )


def _choice(parameter: Parameter) -> None:
    st.radio(
        parameter.label,
        options=parameter.choices,
        format_func=params.L1_MODEL_LABELS.get,
        captions=[params.L1_MODEL_MEANINGS[choice] for choice in parameter.choices],
        key=widget_key(parameter.name),
        help=parameter.help,
        on_change=params.on_stop_change,
        args=(parameter.name,),
    )


def _linear_slider(parameter: Parameter) -> None:
    st.slider(
        parameter.label,
        min_value=float(parameter.lower),
        max_value=float(parameter.upper),
        step=parameter.step,
        format="%g",
        key=widget_key(parameter.name),
        help=parameter.help,
        on_change=params.on_stop_change,
        args=(parameter.name,),
    )


_CONTROLS = {
    "log_slider": _log_slider_with_entry,
    "entry": _entry,
    "choice": _choice,
    "slider": _linear_slider,
}


def entry_box(parameter: Parameter, key: str) -> float:
    """A page's own number box, read by the shared parser like the sidebar's: bad text keeps the last value.

    The text is bound to the URL (``key`` is its query key). Text that is not a value of
    ``parameter`` (``abc``, empty, out of range), typed or from a link, leaves the last good value
    in use and shows, right under the box, what was wrong and which value is kept
    (:func:`gaussmech_ui.params.entry_problem`). Returns the value in use.
    """
    state = st.session_state
    kept_key, problem_key = f"_kept_{key}", f"_problem_{key}"
    state.setdefault(kept_key, parameter.default)

    def on_change() -> None:
        raw = state[key]
        try:
            state[kept_key] = params.parse_value(parameter, raw)
        except ValueError as problem:
            state[problem_key] = params.entry_problem(parameter, raw, problem, state[kept_key])
            state[key] = format_exact(state[kept_key])  # the box shows the value in use again

    if key not in state:
        state[key] = format_exact(state[kept_key])
    raw = st.text_input(
        parameter.label,
        key=key,
        bind="query-params",
        on_change=on_change,
        help=f"{parameter.help} Allowed: {parameter.allowed()}.",
    )
    message = state.pop(problem_key, None)
    try:
        state[kept_key] = params.parse_value(parameter, raw)
    except ValueError as problem:  # a link's text (no on_change for it): the message names the link's key
        message = f"The link's `{key}`: " + params.entry_problem(parameter, raw, problem, state[kept_key])
    if message:
        st.warning(message, icon=":material/warning:")
    return state[kept_key]


@contextmanager
def guarded(what: str):
    """Run one part of a page; if it fails, say so in plain words and let the rest of the page draw.

    The traceback goes to the server log, never to the page (USERS.md: "nothing that breaks when
    a student types nonsense").
    """
    try:
        yield
    except Exception as error:  # the page must survive any failure of one of its parts
        _LOG.exception("could not draw %s", what)
        st.error(
            f"Could not draw {what} at these settings ({type(error).__name__}: {error}). "
            "Try a less extreme value of ε, δ or d in the sidebar.",
            icon=":material/error:",
        )
