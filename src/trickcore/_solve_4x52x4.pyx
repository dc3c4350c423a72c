# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The point kernel built for 4 seats, a 52-card deck and 4 effective suits (Hearts):
the whole of :mod:`trickcore._solve` with its shape fixed at compile time, card points its
only objective.  See "Builds per shape" in ``_solve.pyx``'s module docstring."""

cdef extern from *:
    """
    #define TC_FIXED_SEATS 4
    #define TC_FIXED_CARDS 52
    #define TC_FIXED_SUITS 4
    #define TC_FIXED_OBJECTIVE 0
    """

include "_solve.pyx"
