"""The Streamlit side of gaussmech: pages' helpers, cached computations, figures.

Importing it inside a running server puts the per-session upload budget in place
(:mod:`gaussmech_ui.upload_budget`), before any page can receive a file.
"""

from .upload_budget import install as _install_upload_budget

_install_upload_budget()
