"""The shared parameters: names, defaults, ranges, and the sync between URL, session and widgets.

Every page reads the same six settings (ε, δ, Δ, p, d and the l1 model) through
:func:`gaussmech_ui.sidebar.render_sidebar`. This module holds what they are and how they move:

* **Pure part** (no Streamlit, unit-tested alone): :data:`PARAMETERS` with ranges, defaults,
  help texts and slider stops; :func:`parse_value` and :func:`parse_query` read untrusted text
  (a link, an entry box) into values or a plain-language problem; :func:`to_query` writes the
  values back as URL text; :func:`nearest_stop` places a value on its log-scaled slider;
  :func:`make_setting` builds the core's :class:`~gaussmech_core.registry_types.Setting`.
* **Session part**: the "permanent key" pattern of DESIGN.md section 1. The value lives under
  the parameter's own name (``st.session_state["epsilon"]``), which Streamlit never deletes;
  the widgets have keys prefixed ``_w_`` (``_w_epsilon`` for the slider, ``_w_epsilon_exact``
  for the entry box), are loaded from the stored value before they are drawn, and copy a change
  back in their ``on_change`` callback. Widget state is dropped when a page without that widget
  runs; the stored value is not, so values survive page switches.
* **URL mirroring**: the query keys are exactly ``epsilon, delta, sensitivity, order, dim`` plus
  ``l1``. The URL is read when it differs from what this session last wrote: on the first run
  (opening a shared link) and when the browser changes it (back button); missing keys keep
  their values, malformed ones become a warning and keep the current value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from gaussmech_core.registry_types import Setting

from .format import format_exact, format_interval, format_number

__all__ = [
    "Parameter",
    "PARAMETERS",
    "DEFAULTS",
    "URL_KEYS",
    "L1_MODEL_LABELS",
    "L1_MODEL_MEANINGS",
    "EVERY_VARIANT_HELP",
    "parse_value",
    "quote_untrusted",
    "parse_query",
    "to_query",
    "nearest_stop",
    "make_setting",
    "display_value",
    "widget_key",
    "exact_key",
    "init_state",
    "sync_from_url",
    "write_url",
    "current_values",
    "current_setting",
    "prepare_widgets",
    "on_stop_change",
    "on_exact_change",
    "entry_problem",
    "entry_problems",
    "slider_options",
    "pending_warnings",
    "add_pending_warnings",
    "page_link_values",
    "link_problem",
    "note_page_links",
    "check_page_links",
]


def _decade_stops(mantissas: tuple[float, ...], first_exponent: int, last: float) -> tuple[float, ...]:
    """Slider stops ``m × 10^k`` from ``10^first_exponent`` up to ``last``, written as decimal literals.

    Building each stop from its decimal text (``float("1.5e-6")``) makes it the float a person
    would type, so ``nearest_stop(1.5e-6)`` lands exactly on a stop.
    """
    stops = []
    exponent = first_exponent
    while True:
        for mantissa in mantissas:
            value = float(f"{mantissa}e{exponent}")
            if value > last * (1 + 1e-12):
                return tuple(stops)
            stops.append(value)
        exponent += 1


@dataclass(frozen=True)
class Parameter:
    """One shared setting: its names, its allowed range, its default, and how to explain it."""

    name: str
    symbol: str
    label: str
    url_key: str
    default: Any
    kind: str  # "float", "int" or "choice"
    control: str  # "log_slider" (slider over stops + exact box), "slider", "entry" or "choice"
    help: str
    note: str = ""
    lower: float | None = None
    upper: float | None = None
    upper_open: bool = False
    choices: tuple[str, ...] = ()
    stops: tuple = field(default=(), repr=False)
    step: float | None = None

    def allowed(self) -> str:
        """The allowed values in words, for messages."""
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        interval = format_interval(self.lower, self.upper, upper_open=self.upper_open)
        return f"a whole number in {interval}" if self.kind == "int" else f"in {interval}"


L1_MODEL_LABELS = {
    "one_coordinate": "One coordinate changes: Δ₁ = Δ",
    "all_coordinates": "Every coordinate may change: Δ₁ = √d·Δ",
}
# One line of meaning under each option of the neighbour-model choice (the sidebar shows them).
L1_MODEL_MEANINGS = {
    "one_coordinate": "A person changes one of the d numbers (one histogram count).",
    "all_coordinates": "A person may change all d numbers: the safe choice if unsure.",
}

# The help of every page's "Every calibration variant" box: what the extra mechanisms are, in one clause each.
EVERY_VARIANT_HELP = (
    "Also the sufficient Gaussian bounds: the tail bound P[L ≥ ε] ≤ δ, probabilistic DP (pDP: the privacy "
    "loss L exceeds ε with probability at most δ, a weaker promise than (ε, δ)-DP), zCDP (zero-concentrated "
    "DP, converted to (ε, δ)) and Vinterbo's closed form; and GG with pDP."
)

PARAMETERS: dict[str, Parameter] = {
    parameter.name: parameter
    for parameter in (
        Parameter(
            name="epsilon",
            symbol="ε",
            label="Privacy parameter ε",
            url_key="epsilon",
            default=1.0,
            kind="float",
            control="log_slider",
            note="Smaller ε: more private, more noise.",
            lower=1e-6,
            upper=1e3,
            stops=_decade_stops((1, 1.5, 2, 3, 5, 7), -6, 1e3),
            help=(
                "ε (epsilon) bounds how much one person's data can change what is released: any "
                "outcome becomes at most e^ε times more or less likely (ε bounds the privacy loss L, "
                "the log of that ratio, which the Privacy profiles page shows). **Smaller ε is more "
                "private** and needs more noise; values from 0.1 to 10 are common."
            ),
        ),
        Parameter(
            name="delta",
            symbol="δ",
            label="Failure probability δ",
            url_key="delta",
            default=1e-5,
            kind="float",
            control="log_slider",
            note="The chance that the ε bound fails.",
            lower=1e-300,
            upper=1.0,
            upper_open=True,
            # The δ people use (1e-10 … 1e-3) spread over the slider, 1, 2, 5 per decade; the box takes the rest
            # of (1e-300, 1), and a value from it or from a link joins the stops (slider_options).
            stops=_decade_stops((1, 2, 5), -16, 0.5),
            help=(
                "δ (delta) is the small probability with which the ε bound may fail, so choose it "
                "well below 1/n for n people (for example 1e-5 to 1e-10). The slider covers 1e-16 to 0.5 "
                "in steps of 1, 2, 5 per decade; type any value from 1e-300 to below 1 in the box."
            ),
        ),
        Parameter(
            name="sensitivity",
            symbol="Δ",
            label="l2 sensitivity Δ",
            url_key="sensitivity",
            default=1.0,
            kind="float",
            control="entry",
            lower=1e-6,
            upper=1e6,
            help=(
                "Δ is the **l2 sensitivity**: the largest Euclidean (l2) distance between the "
                "query's answers on two datasets that differ in one person. Every noise scale "
                "grows in proportion to it."
            ),
        ),
        Parameter(
            name="order",
            symbol="p",
            label="Generalized-Gaussian order p",
            url_key="order",
            default=2.0,
            kind="float",
            control="slider",
            lower=1.0,
            upper=10.0,
            step=0.1,
            help=(
                "The order p of the generalized Gaussian, whose density is proportional to "
                "exp(-(|x|/b)^p): p = 1 is the Laplace distribution, p = 2 the Gaussian, and "
                "larger p gives lighter tails."
            ),
        ),
        Parameter(
            name="dim",
            symbol="d",
            label="Dimension d",
            url_key="dim",
            default=10,
            kind="int",
            control="log_slider",
            lower=1,
            upper=1_000_000,
            stops=tuple(int(s) for s in _decade_stops((1, 2, 3, 5, 7), 0, 1e6)),
            help=(
                "d is how many numbers the query releases (its coordinates). Each coordinate gets "
                "its own noise, so the total squared error grows with d."
            ),
        ),
        Parameter(
            name="l1_model",
            symbol="Δ₁",
            label="Neighbour model: what one person can change",
            url_key="l1",
            default="one_coordinate",
            kind="choice",
            control="choice",
            choices=("one_coordinate", "all_coordinates"),
            help=(
                "Which datasets count as neighbours decides how Laplace's l1 sensitivity Δ₁ follows from "
                "Δ, and so which mechanism adds the least noise. If one person can change only one "
                "coordinate of the answer, Δ₁ = Δ; if they may change every coordinate, the best bound "
                "that follows from Δ alone is Δ₁ = √d·Δ. Every caption that ranks mechanisms says which "
                "model it assumes and what the other would change."
            ),
        ),
        # The data bounds [a, b]: only Liu's bounded-data mechanisms read them (docs/math.md section 5.6).
        Parameter(
            name="data_lower",
            symbol="a",
            label="Data lower bound a",
            url_key="lower",
            default=0.0,
            kind="float",
            control="entry",
            lower=-1e12,
            upper=1e12,
            help=(
                "Every coordinate of the query is known to lie in [a, b]. Only the mechanisms for bounded "
                "data use it (Liu's truncated and boundary-inflated GG, pure ε-DP); they need Δ ≤ b − a."
            ),
        ),
        Parameter(
            name="data_upper",
            symbol="b",
            label="Data upper bound b",
            url_key="upper",
            default=1.0,
            kind="float",
            control="entry",
            lower=-1e12,
            upper=1e12,
            help="The upper end of the data bounds [a, b] (above a).",
            note="a and b are used only by the mechanisms for bounded data.",
        ),
    )
}

DEFAULTS: dict[str, Any] = {name: parameter.default for name, parameter in PARAMETERS.items()}
URL_KEYS: dict[str, str] = {name: parameter.url_key for name, parameter in PARAMETERS.items()}


# --- Pure functions: untrusted text in, values or a plain-language problem out ------------------


def parse_value(parameter: Parameter | str, raw: Any):
    """Read ``raw`` (text from a link or an entry box) as a value of ``parameter``.

    Raises ``ValueError`` whose message completes "the value is ...", in plain words, without
    repeating the text itself (callers show it, safely quoted, with :func:`quote_untrusted`).

    Examples
    --------
    >>> parse_value("epsilon", " 0.5 "), parse_value("dim", "1e3"), parse_value("l1_model", "all_coordinates")
    (0.5, 1000, 'all_coordinates')
    >>> parse_value("delta", "2")
    Traceback (most recent call last):
    ...
    ValueError: outside the allowed range: δ must be in [1e-300, 1)
    """
    if isinstance(parameter, str):
        parameter = PARAMETERS[parameter]
    text = str(raw).strip()
    if parameter.kind == "choice":
        if text not in parameter.choices:
            raise ValueError(f"not a known choice: {parameter.symbol} must be {parameter.allowed()}")
        return text
    if not text:
        raise ValueError("empty")
    if not text.isascii():  # float() also reads "９" (a full-width digit) and other scripts' digits; a link must not
        raise ValueError("not a number")
    try:
        number = float(text)
    except ValueError:
        raise ValueError("not a number") from None
    if math.isnan(number):
        raise ValueError("not a number")
    if math.isinf(number):
        raise ValueError("too large to be a finite number")
    if parameter.kind == "int":
        if not number.is_integer():
            raise ValueError(f"not a whole number: {parameter.symbol} must be {parameter.allowed()}")
        number = int(number)
    too_high = number >= parameter.upper if parameter.upper_open else number > parameter.upper
    if number < parameter.lower or too_high:
        raise ValueError(f"outside the allowed range: {parameter.symbol} must be {parameter.allowed()}")
    return number


def quote_untrusted(text: Any, limit: int = 40) -> str:
    """Untrusted text (from a link or an entry box) as a Markdown code span, shortened.

    Inside a code span Markdown draws nothing, so a link such as ``?dim=[click](http://x)`` shows
    as text, never as a link in the app's own warning.

    Examples
    --------
    >>> quote_untrusted("[click](http://x)"), quote_untrusted("a`b"), quote_untrusted("9" * 50)
    ('`[click](http://x)`', "`a'b`", '`9999999999999999999999999999999999999…`')
    """
    shown = " ".join(str(text).split()).replace("`", "'")
    if len(shown) > limit:
        shown = shown[: limit - 3] + "…"
    return f"`{shown}`"


def display_value(name: str, value: Any) -> str:
    """A value for a message: ``ε = 1``, ``δ = 1e-5``, ``“One coordinate changes: Δ₁ = Δ”``."""
    parameter = PARAMETERS[name]
    if parameter.kind == "choice":
        return f"“{L1_MODEL_LABELS.get(value, value)}”"
    return f"{parameter.symbol} = {format_number(value, 6)}"


def parse_query(query: Mapping[str, Any], fallback: Mapping[str, Any] = DEFAULTS) -> tuple[dict, list[str]]:
    """Read the shared parameters from URL query values.

    Returns the values of the keys present and well-formed, and one warning per malformed key
    saying what was wrong and which value is used instead (the ``fallback`` one). A repeated key
    counts with its last value, as in ``st.query_params``; unknown keys are ignored.

    Examples
    --------
    >>> values, warnings = parse_query({"epsilon": "0.5", "dim": "abc"})
    >>> values
    {'epsilon': 0.5}
    >>> print(warnings[0])
    The link sets `dim=abc`, but that is not a number. Using d = 10 instead.
    """
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for name, parameter in PARAMETERS.items():
        if parameter.url_key not in query:
            continue
        raw = query[parameter.url_key]
        if isinstance(raw, (list, tuple)):
            if not raw:
                continue
            raw = raw[-1]
        try:
            values[name] = parse_value(parameter, raw)
        except ValueError as problem:
            warnings.append(
                f"The link sets {quote_untrusted(f'{parameter.url_key}={raw}')}, but that is {problem}. "
                f"Using {display_value(name, fallback[name])} instead."
            )
    return values, warnings


def to_query(values: Mapping[str, Any]) -> dict[str, str]:
    """The URL query text of the shared parameters: exact, shortest, readable back by :func:`parse_query`.

    Examples
    --------
    >>> to_query({"epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0, "order": 2.0, "dim": 10, "l1_model": "one_coordinate"})
    {'epsilon': '1', 'delta': '1e-5', 'sensitivity': '1', 'order': '2', 'dim': '10', 'l1': 'one_coordinate'}
    """
    query = {}
    for name, parameter in PARAMETERS.items():
        if name not in values:  # e.g. the data bounds, when a caller has none
            continue
        value = values[name]
        query[parameter.url_key] = value if parameter.kind == "choice" else format_exact(value)
    return query


def nearest_stop(parameter: Parameter | str, value: float):
    """The slider stop closest to ``value`` on a log scale (the slider shows this, the box the exact value).

    Examples
    --------
    >>> nearest_stop("epsilon", 1.0), nearest_stop("epsilon", 0.37), nearest_stop("delta", 4e-7)
    (1.0, 0.3, 5e-07)
    """
    if isinstance(parameter, str):
        parameter = PARAMETERS[parameter]
    target = math.log(value)
    return min(parameter.stops, key=lambda stop: abs(math.log(stop) - target))


def make_setting(values: Mapping[str, Any]) -> Setting:
    """The core's :class:`Setting` for these values."""
    return Setting(
        epsilon=float(values["epsilon"]),
        delta=float(values["delta"]),
        sensitivity=float(values["sensitivity"]),
        order=float(values["order"]),
        dim=int(values["dim"]),
        l1_model=values["l1_model"],
        **_data_bounds(values),
    )


def _data_bounds(values: Mapping[str, Any]) -> dict[str, float]:
    """The data bounds of ``values`` when a < b, else the defaults (a Setting needs a < b)."""
    lower = float(values.get("data_lower", DEFAULTS["data_lower"]))
    upper = float(values.get("data_upper", DEFAULTS["data_upper"]))
    if not lower < upper:
        lower, upper = DEFAULTS["data_lower"], DEFAULTS["data_upper"]
    return dict(data_lower=lower, data_upper=upper)


def _repair_data_bounds() -> None:
    """After a link or an entry: a ≥ b cannot be used, so both go back to their defaults, with a warning."""
    state = _state()
    lower, upper = state.get("data_lower", DEFAULTS["data_lower"]), state.get("data_upper", DEFAULTS["data_upper"])
    if lower < upper:
        return
    state["data_lower"], state["data_upper"] = DEFAULTS["data_lower"], DEFAULTS["data_upper"]
    state[_PENDING_WARNINGS] = state.get(_PENDING_WARNINGS, []) + [
        f"The data bounds need a < b, got a = {display_value('data_lower', lower)} and "
        f"b = {display_value('data_upper', upper)}. Using [{display_value('data_lower', DEFAULTS['data_lower'])}, "
        f"{display_value('data_upper', DEFAULTS['data_upper'])}] instead."
    ]


# --- Session part: the permanent-key pattern and the URL mirror ---------------------------------

_INITIALISED = "_gaussmech_initialised"
_LAST_WRITTEN_QUERY = "_gaussmech_last_written_query"
_PENDING_WARNINGS = "_gaussmech_pending_warnings"
_ENTRY_PROBLEMS = "_gaussmech_entry_problems"


def widget_key(name: str) -> str:
    """Key of the parameter's main widget (slider or choice): ``_w_epsilon``."""
    return f"_w_{name}"


def exact_key(name: str) -> str:
    """Key of the parameter's exact-entry box: ``_w_epsilon_exact``."""
    return f"_w_{name}_exact"


def _state():
    import streamlit as st

    return st.session_state


def init_state() -> None:
    """Put every parameter's default into the session once, under its permanent key."""
    state = _state()
    if state.get(_INITIALISED):
        return
    for name, default in DEFAULTS.items():
        state.setdefault(name, default)
    state[_PENDING_WARNINGS] = []
    state[_INITIALISED] = True


def _our_query(query_params) -> dict[str, str]:
    """Our keys of ``st.query_params`` as plain text (last value of a repeated key)."""
    ours = {}
    for url_key in URL_KEYS.values():
        if url_key in query_params:
            values = query_params.get_all(url_key)
            if values:
                ours[url_key] = values[-1]
    return ours


def sync_from_url() -> None:
    """Apply the URL's values when the URL differs from what this session last wrote.

    That is the first run of a session (someone opened a link) or a change the browser made
    (back/forward). After our own write, the URL equals what we wrote and nothing is applied, so
    a slider move is never undone by a stale URL.
    """
    import streamlit as st

    state = _state()
    incoming = _our_query(st.query_params)
    if incoming == state.get(_LAST_WRITTEN_QUERY):
        return
    values, warnings = parse_query(incoming, fallback=current_values())
    for name, value in values.items():
        state[name] = value
    state[_PENDING_WARNINGS] = state.get(_PENDING_WARNINGS, []) + warnings
    _repair_data_bounds()


def write_url() -> None:
    """Mirror the current values in the URL (only the keys that changed are sent)."""
    import streamlit as st

    wanted = to_query(current_values())
    present = _our_query(st.query_params)
    for url_key, text in wanted.items():
        if present.get(url_key) != text:
            st.query_params[url_key] = text
    _state()[_LAST_WRITTEN_QUERY] = wanted


def current_values() -> dict[str, Any]:
    """The stored value of every shared parameter (defaults before the first run)."""
    state = _state()
    return {name: state.get(name, default) for name, default in DEFAULTS.items()}


def current_setting() -> Setting:
    """The core's :class:`Setting` at the stored values."""
    return make_setting(current_values())


def slider_options(parameter: Parameter | str, value) -> tuple:
    """The stops of a log slider with ``value`` among them, so the slider shows the exact value the box holds.

    Examples
    --------
    >>> options = slider_options("epsilon", 0.37)
    >>> 0.37 in options and options.index(0.37) == options.index(0.3) + 1
    True
    >>> slider_options("epsilon", 0.3) == PARAMETERS["epsilon"].stops
    True
    """
    if isinstance(parameter, str):
        parameter = PARAMETERS[parameter]
    if value in parameter.stops:
        return parameter.stops
    return tuple(sorted(set(parameter.stops) | {value}))


def prepare_widgets(name: str) -> None:
    """Load a parameter's widgets from its stored value (before they are drawn)."""
    state = _state()
    parameter = PARAMETERS[name]
    value = state[name]
    if parameter.control == "log_slider":
        state[widget_key(name)] = value
    elif parameter.control in ("slider", "choice"):
        state[widget_key(name)] = value
    if parameter.control in ("log_slider", "entry"):
        state[exact_key(name)] = format_exact(value)


def on_stop_change(name: str) -> None:
    """Callback of a slider or choice: copy the widget's value to the permanent key."""
    state = _state()
    value = state[widget_key(name)]
    state[name] = int(value) if PARAMETERS[name].kind == "int" else value


def on_exact_change(name: str) -> None:
    """Callback of an exact-entry box: parse it with :func:`parse_value`; a bad entry keeps the value.

    The problem (what was wrong, which value is kept) waits in :func:`entry_problems` for the
    sidebar, which shows it beside the box.
    """
    state = _state()
    parameter = PARAMETERS[name]
    raw = state[exact_key(name)]
    problems = state.setdefault(_ENTRY_PROBLEMS, {})
    try:
        state[name] = parse_value(parameter, raw)
        problems.pop(name, None)
    except ValueError as problem:
        problems[name] = entry_problem(name, raw, problem, state[name])
    _repair_data_bounds()


def entry_problem(name: str | Parameter, raw: Any, problem: Exception | str, kept: Any) -> str:
    """The message shown beside an entry box whose text could not be used: what was wrong, which value is kept.

    ``name`` is a shared parameter's name or any :class:`Parameter` (a page's own entry box).

    Examples
    --------
    >>> print(entry_problem("dim", "1.5", "not a whole number", 10))
    Could not use `1.5` for d: that is not a whole number. Keeping d = 10.
    """
    parameter = PARAMETERS[name] if isinstance(name, str) else name
    kept_text = f"{parameter.symbol} = {format_number(kept, 6)}" if parameter.kind != "choice" else str(kept)
    return f"Could not use {quote_untrusted(raw)} for {parameter.symbol}: that is {problem}. Keeping {kept_text}."


def entry_problems() -> dict[str, str]:
    """The problem of each entry box whose last text could not be used, emptied as it is read."""
    state = _state()
    problems = dict(state.get(_ENTRY_PROBLEMS, {}))
    state[_ENTRY_PROBLEMS] = {}
    return problems


def add_pending_warnings(messages: list[str]) -> None:
    """Warnings for the next run's sidebar to show at the top of the page (a settings file's bad values)."""
    state = _state()
    state[_PENDING_WARNINGS] = state.get(_PENDING_WARNINGS, []) + list(messages)


def pending_warnings() -> list[str]:
    """The warnings collected since the last run (bad link or entry), emptied as they are read."""
    state = _state()
    warnings = state.get(_PENDING_WARNINGS, [])
    state[_PENDING_WARNINGS] = []
    return warnings


# --- Page-specific link values: one checker for every page ---------------------------------------
#
# A page's own settings travel in the URL through Streamlit's bind="query-params", keyed by the
# widget key (``tails_alpha``). Streamlit drops or corrects a value its widget cannot take, without
# a word; these functions notice it and say so, as the sidebar does for the shared parameters.
# render_sidebar() calls note_page_links() before the page draws; the page's last line,
# finish_page(), calls check_page_links() after every widget has read the URL.

_PENDING_LINKS = "_gaussmech_pending_page_links"
_SEEN_LINKS = "_gaussmech_seen_page_links"


def page_link_values(query) -> dict[str, str]:
    """The URL's values that are not shared parameters (a page's own settings), as text (last value of a key)."""
    shared = set(URL_KEYS.values())
    values = {}
    for key in query:
        if key in shared:
            continue
        raw = query.get_all(key) if hasattr(query, "get_all") else query[key]
        if isinstance(raw, (list, tuple)):
            if not raw:
                continue
            raw = raw[-1]
        values[key] = str(raw)
    return values


def link_problem(key: str, raw: str, used: Any, *, dropped: bool = True) -> str:
    """The warning for a page setting of a link that its control could not take.

    ``used`` is the control's value now; ``dropped`` says the control went back to its default
    (rather than correcting the value).

    Examples
    --------
    >>> print(link_problem("tails_alpha", "abc", 0.05))
    The link sets `tails_alpha=abc`, but this page cannot use that value. Using the default, 0.05, instead.
    >>> print(link_problem("accuracy_view", "Nope", None))
    The link sets `accuracy_view=Nope`, but this page cannot use that value. Using the default instead.
    """
    if used is None:
        shown = ""
    elif isinstance(used, bool) or not isinstance(used, (int, float)):
        shown = quote_untrusted(used)
    else:
        shown = format_number(used, 6)
    if dropped:
        shown = f"the default, {shown}," if shown else "the default"
    return (
        f"The link sets {quote_untrusted(f'{key}={raw}')}, but this page cannot use that value. Using {shown} instead."
    )


def note_page_links() -> None:
    """Before the page draws: remember the page-specific URL values that came from outside (a link, the back button).

    A value counts as from outside when it differs from what the URL held at the end of the last run.
    """
    import streamlit as st

    state = _state()
    incoming = page_link_values(st.query_params)
    seen = state.get(_SEEN_LINKS, {})
    pending = dict(state.get(_PENDING_LINKS, {}))
    pending.update({key: value for key, value in incoming.items() if seen.get(key) != value})
    state[_PENDING_LINKS] = pending


def check_page_links() -> list[str]:
    """After the page drew: one warning per outside value that its control dropped or changed.

    A value whose control has not been drawn yet (a tab not yet opened) waits for the run that
    draws it; a value the control kept is fine and forgotten.
    """
    import streamlit as st

    state = _state()
    after = page_link_values(st.query_params)
    messages, waiting = [], {}
    for key, raw in state.get(_PENDING_LINKS, {}).items():
        if after.get(key) == raw and key not in state:
            waiting[key] = raw  # its widget has not read it yet
        elif key in state and str(state[key]) == raw:
            continue  # kept: a control at its default leaves the URL (the first tab of ``?tails_view=...``)
        elif after.get(key) != raw:
            used = state[key] if key in state else None
            messages.append(link_problem(key, raw, used, dropped=key not in after))
    state[_PENDING_LINKS] = waiting
    state[_SEEN_LINKS] = after
    return messages
