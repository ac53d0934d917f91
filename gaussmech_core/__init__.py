"""gaussmech_core: exact, vectorized calibration of differential-privacy noise mechanisms.

(The public API is assembled here once the family modules exist.)
"""
