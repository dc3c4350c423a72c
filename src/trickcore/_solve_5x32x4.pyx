# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The point kernel built for 5 seats, a 32-card deck and 4 effective suits (Sheepshead):
the whole of :mod:`trickcore._solve` with its shape fixed at compile time, card points its
only objective.  See "Builds per shape" in ``_solve.pyx``'s module docstring."""

cdef extern from *:
    """
    #define TC_FIXED_SEATS 5
    #define TC_FIXED_CARDS 32
    #define TC_FIXED_SUITS 4
    #define TC_FIXED_OBJECTIVE 0
    """

include "_solve.pyx"
