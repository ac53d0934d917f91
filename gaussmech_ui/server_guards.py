"""Requests a browser may send that the app refuses: clearing every session's caches (issue 23, item 6).

Streamlit's protocol lets any client send ``clear_cache``, and the server then empties every
``st.cache_data`` of the process: one student could make thirty others recompute everything at
once, as often as they like. The viewer toolbar hides the menu item (``client.toolbarMode``), but
a script can still send the message. :func:`refuse_client_cache_clearing` makes the server ignore
it (and log it); the operator clears caches by restarting the replica.
"""

from __future__ import annotations

import logging

__all__ = ["refuse_client_cache_clearing"]

_LOGGER = logging.getLogger(__name__)
_MARK = "_gaussmech_refuses_cache_clearing"


def _ignore_clear_cache_request(session) -> None:
    _LOGGER.warning("A client asked to clear every cache; refused (gaussmech_ui.server_guards).")


def refuse_client_cache_clearing() -> None:
    """Make every session ignore a client's ``clear_cache`` message (once per process)."""
    from streamlit.runtime.app_session import AppSession

    if not getattr(AppSession, _MARK, False):
        AppSession._handle_clear_cache_request = _ignore_clear_cache_request  # type: ignore[method-assign]
        setattr(AppSession, _MARK, True)
