"""``python -m gaussmech_core``: the command line of :mod:`gaussmech_core.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
