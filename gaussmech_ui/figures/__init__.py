"""Pure Plotly builders: arrays in, ``go.Figure`` out, no ``st.*`` call.

DESIGN.md section 1 planned one module ``figures.py``. It is a package instead, with one module
per topic (``overview.py``, and one per page added later) plus ``common.py`` for the shared
conventions (layout, colours, hover, CSV of traces), so that several engineers can add pages at
the same time without editing the same file. Builders are unit-tested on the ``go.Figure`` they
return (``tests/ui/``).
"""
