"""The claims layer: every sentence the app writes from numbers, as a typed claim with its rule.

* :mod:`.base`: the :class:`Claim` type and the recording the claims audit reads.
* :mod:`.ranking`: rankings with ties from the noise law (:func:`rank`), the names and
  assumptions of a ranking in words.
* :mod:`.odds`: the (ε, δ)-DP promise in words, and one observer's numbers.
* :mod:`.attack`: the "at most" sentences of the attack numbers, from mechanisms whose
  guarantee holds.
* :mod:`.reasons`: why a ranking comes out as it does (ratios, excess ranges) and the warning
  that a published guarantee fails here (its true δ above the claimed δ).

Pages, the presenter slides, the reports and the reproduce scripts take their sentences from here
(DESIGN.md section 3, "Sentences from numbers are claims").
"""

from .base import Claim, record, recording

__all__ = ["Claim", "record", "recording"]
