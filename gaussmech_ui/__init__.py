"""The Streamlit side of gaussmech: pages' helpers, cached computations, figures.

Importing it inside a running server puts the per-session upload budget in place
(:mod:`gaussmech_ui.upload_budget`) before any page can receive a file, and makes the server
ignore a client's request to clear every cache (:mod:`gaussmech_ui.server_guards`).
"""

from .server_guards import refuse_client_cache_clearing as _refuse_client_cache_clearing
from .upload_budget import install as _install_upload_budget

_install_upload_budget()
_refuse_client_cache_clearing()
