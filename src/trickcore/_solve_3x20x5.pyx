# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The point kernel built for 3 seats, a 20-card deck and 5 effective suits (Goathead for three players, court and leasters):
the whole of :mod:`trickcore._solve` with its shape fixed at compile time, card points its
only objective.  See "Builds per shape" in ``_solve.pyx``'s module docstring."""

cdef extern from *:
    """
    #define TC_FIXED_SEATS 3
    #define TC_FIXED_CARDS 20
    #define TC_FIXED_SUITS 5
    #define TC_FIXED_OBJECTIVE 0
    """

include "_solve.pyx"
