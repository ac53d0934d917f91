"""Bounded ``st.cache_data`` wrappers around the core's expensive computations.

DESIGN.md section 1 planned one module ``cached.py``. It is a package instead, with one module
per topic (``overview.py``, and one per page added later), so that several engineers can add
pages at the same time without editing the same file.

Conventions (DESIGN.md section 3): cache root-find sweeps and Monte Carlo only; always set
``max_entries``; take plain numbers and strings as arguments (seeds as ``int``, never a
``Generator``), never hide a result-changing argument behind a leading underscore; return plain
data (floats, numpy arrays, pandas frames), never registry objects, which hold functions and do
not pickle.
"""
