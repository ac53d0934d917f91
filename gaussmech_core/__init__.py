"""gaussmech_core: exact, vectorized calibration of differential-privacy noise mechanisms.

The numerical library under the gaussmech dashboard, usable on its own (numpy and scipy only)::

    >>> import gaussmech_core as gm
    >>> round(gm.analytic_gaussian_sigma(1.0, 1e-5), 6)
    3.730632
    >>> gm.gaussian_delta(1.0, gm.analytic_gaussian_sigma(1.0, 1e-5)) <= 1e-5
    True

One module per family (formulas and sources in each docstring; the math is written out in
the project's docs/math.md):

* :mod:`~gaussmech_core.gaussian`: classical and analytic Gaussian (Balle & Wang 2018), the
  privacy profile and its inverse, (0, δ) calibrations, privacy-loss distribution, zCDP and GDP.
* :mod:`~gaussmech_core.discrete_gaussian`: the discrete Gaussian for integer queries (Canonne,
  Kamath & Steinke 2020): exact calibration, pmf, moments, tails, and an exact sampler.
* :mod:`~gaussmech_core.accounting`: composition of k Gaussian releases by every route.
* :mod:`~gaussmech_core.laplace` and :mod:`~gaussmech_core.generalized`: Laplace and Liu's
  generalized Gaussian family (exact (ε, δ) profile, probabilistic DP, truncated variants).
* :mod:`~gaussmech_core.multivariate`: R1SMG as published by Ji & Li (a *claimed* guarantee,
  always with its computed true δ) and the MVG mechanism in its i.i.d. form.
* :mod:`~gaussmech_core.loss`, :mod:`~gaussmech_core.tails`, :mod:`~gaussmech_core.inverse`,
  :mod:`~gaussmech_core.audit`: the distribution of the error, error bounds, calibration from
  a target error, and the distinguishing-test audit.
* :mod:`~gaussmech_core.denoise` and :mod:`~gaussmech_core.histogram`: post-processing.
* :mod:`~gaussmech_core.mechanisms`: the registry ``MECHANISMS`` the dashboard iterates.
"""

from . import (
    accounting,
    audit,
    denoise,
    discrete_gaussian,
    gaussian,
    generalized,
    histogram,
    inverse,
    laplace,
    loss,
    mechanisms,
    multivariate,
    tails,
)
from .accounting import *  # noqa: F401,F403
from .discrete_gaussian import *  # noqa: F401,F403
from .gaussian import *  # noqa: F401,F403
from .generalized import *  # noqa: F401,F403
from .laplace import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .mechanisms import *  # noqa: F401,F403
from .multivariate import *  # noqa: F401,F403
from .registry_types import GUARANTEE_LABELS, Mechanism, Setting, Validity  # noqa: F401

__version__ = "0.1.0"

__all__ = [
    *accounting.__all__,
    *discrete_gaussian.__all__,
    *gaussian.__all__,
    *generalized.__all__,
    *laplace.__all__,
    *loss.__all__,
    *mechanisms.__all__,
    *multivariate.__all__,
    "GUARANTEE_LABELS",
    "Mechanism",
    "Validity",
    "accounting",
    "audit",
    "denoise",
    "discrete_gaussian",
    "gaussian",
    "generalized",
    "histogram",
    "inverse",
    "laplace",
    "loss",
    "mechanisms",
    "multivariate",
    "tails",
]
