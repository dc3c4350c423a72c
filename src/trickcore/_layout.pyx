# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Build the C ``layout_t`` from a Python :class:`~trickcore.layout.Layout`, and batch
wrappers of the rules kernels (used by the Python API and by the property tests that check
them against the plain-Python reference in :mod:`trickcore.reference`)."""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint64_t, uint8_t, int8_t, int16_t
from libc.string cimport memset

cnp.import_array()

_OBJECTIVE_CODES = {"points": OBJECTIVE_POINTS, "tricks": OBJECTIVE_TRICKS, "nil": OBJECTIVE_NIL}


cdef uint64_t _mask_to_layout(object layout, object cardset) except? 0:
    cdef uint64_t out = 0
    for card in cardset:
        out |= (<uint64_t>1) << <int>layout.card_to_bit[int(card)]
    return out


cdef class CoreLayout:
    """The compiled core's view of a Layout; build it with ``layout.core``."""

    def __cinit__(self, layout):
        cdef int i, b, byte, v, start
        cdef uint64_t acc
        memset(&self.c, 0, sizeof(layout_t))
        self.layout = layout
        L = &self.c
        L.n_seats = layout.n_seats
        L.hand_size = layout.hand_size
        L.n_suits = len(layout.suits)
        L.n_cards = len(layout.deck)
        L.deck_mask = ((<uint64_t>1) << L.n_cards) - 1 if L.n_cards < 64 else ~(<uint64_t>0)
        for i in range(64):
            L.suit_of_bit[i] = -1
            L.bit_to_card[i] = layout.bit_to_card[i]
            L.card_to_bit[i] = layout.card_to_bit[i]
        start = 0
        for i, suit in enumerate(layout.suits):
            L.suit_mask[i] = (((<uint64_t>1) << len(suit)) - 1) << start
            for b in range(start, start + len(suit)):
                L.suit_of_bit[b] = i
            start += len(suit)
        L.trump_mask = L.suit_mask[L.n_suits - 1] if layout.trump else 0
        for card, pts in layout.points.items():
            L.points[<int>layout.card_to_bit[int(card)]] = pts
        L.last_trick_bonus = layout.last_trick_bonus
        L.objective = _OBJECTIVE_CODES[layout.objective]
        L.goal = 1 if layout.goal == "max" else -1
        L.lead_restricted = _mask_to_layout(layout, layout.lead_restricted)
        L.breakers = _mask_to_layout(layout, layout.breakers)
        L.unlock_trick = layout.unlock_trick
        L.first_lead_bit = -1 if layout.first_lead is None else layout.card_to_bit[int(layout.first_lead)]
        L.first_trick_forbidden = _mask_to_layout(layout, layout.first_trick_forbidden)
        L.must_play_bit = -1 if layout.must_play_first is None else layout.card_to_bit[int(layout.must_play_first)]
        if layout.trick_meld_table is not None:
            self._meld_table = np.ascontiguousarray(layout.trick_meld_table, dtype=np.int16)
            L.meld_table = <const int16_t*>cnp.PyArray_DATA(self._meld_table)
            L.has_trick_melds = 1
            for card, r in layout.trick_meld_rank.items():
                L.meld_rank[<int>layout.card_to_bit[int(card)]] = r
            L.bell_mask = _mask_to_layout(layout, layout.bell)
        for byte in range(8):
            for v in range(256):
                acc = 0
                for i in range(8):
                    if (v >> i) & 1:
                        b = layout.card_to_bit[byte * 8 + i]
                        if b >= 0:
                            acc |= (<uint64_t>1) << b
                L.to_layout[byte][v] = acc
                acc = 0
                for i in range(8):
                    if (v >> i) & 1:
                        b = layout.bit_to_card[byte * 8 + i]
                        if b >= 0:
                            acc |= (<uint64_t>1) << b
                L.to_card[byte][v] = acc

    def to_layout_bits(self, masks):
        """Universal bit-boards (any shape) -> layout bits."""
        a = np.ascontiguousarray(masks, dtype=np.uint64)
        out = np.empty_like(a)
        cdef uint64_t[::1] src = a.reshape(-1)
        cdef uint64_t[::1] dst = out.reshape(-1)
        cdef Py_ssize_t i
        with nogil:
            for i in range(src.shape[0]):
                dst[i] = to_layout_bits(&self.c, src[i])
        return out

    def to_universal(self, masks):
        """Layout-bit bit-boards (any shape) -> universal card ids."""
        a = np.ascontiguousarray(masks, dtype=np.uint64)
        out = np.empty_like(a)
        cdef uint64_t[::1] src = a.reshape(-1)
        cdef uint64_t[::1] dst = out.reshape(-1)
        cdef Py_ssize_t i
        with nogil:
            for i in range(src.shape[0]):
                dst[i] = to_card_bits(&self.c, src[i])
        return out

    def legal_moves_batch(self, hands, led_suit, trick_index, played, suits_led):
        """Legal cards for many positions; masks in and out are *universal* bit-boards.

        ``led_suit`` is the effective-suit index of the led card (-1 when leading),
        ``played`` all cards played so far (current trick included), ``suits_led`` a bit
        mask of effective suits led in earlier tricks.
        """
        cdef uint64_t[::1] h = np.ascontiguousarray(hands, dtype=np.uint64)
        cdef int8_t[::1] led = np.ascontiguousarray(led_suit, dtype=np.int8)
        cdef int8_t[::1] ti = np.ascontiguousarray(trick_index, dtype=np.int8)
        cdef uint64_t[::1] pl = np.ascontiguousarray(played, dtype=np.uint64)
        cdef uint8_t[::1] sl = np.ascontiguousarray(suits_led, dtype=np.uint8)
        cdef Py_ssize_t n = h.shape[0], i
        if not (led.shape[0] == ti.shape[0] == pl.shape[0] == sl.shape[0] == n):
            raise ValueError("legal_moves_batch: all arguments need the same length")
        out = np.empty(n, dtype=np.uint64)
        cdef uint64_t[::1] o = out
        cdef const layout_t* L = &self.c
        for i in range(n):
            if led[i] >= L.n_suits or led[i] < -1:
                raise ValueError(f"led suit {led[i]} out of range -1..{L.n_suits - 1}")
        with nogil:
            for i in range(n):
                o[i] = to_card_bits(L, legal_moves(L, to_layout_bits(L, h[i]), led[i], ti[i],
                                                   to_layout_bits(L, pl[i]), sl[i]))
        return out

    def trick_winners_batch(self, cards):
        """Winning position (0 = leader) of each trick; ``cards`` is ``int8[n, k]`` of
        universal card ids in play order."""
        a = np.ascontiguousarray(cards, dtype=np.int8)
        if a.ndim != 2 or a.shape[1] < 1 or a.shape[1] > 8:
            raise ValueError("cards must have shape (n_tricks, 1..8)")
        if ((a < 0) | (self.layout.card_to_bit[a.clip(0)] < 0)).any():
            raise ValueError("a card is not in the deck of this layout")
        cdef int8_t[:, ::1] c = a
        cdef Py_ssize_t n = c.shape[0], k = c.shape[1], i, j
        out = np.empty(n, dtype=np.int8)
        cdef int8_t[::1] o = out
        cdef int8_t bits[8]
        cdef const layout_t* L = &self.c
        with nogil:
            for i in range(n):
                for j in range(k):
                    bits[j] = L.card_to_bit[c[i, j]]
                o[i] = trick_winner(L, bits, <int>k)
        return out

    def trick_meld_values(self, tricks):
        """Meld value of each four-card trick given as a universal bit-board."""
        cdef uint64_t[::1] t = np.ascontiguousarray(tricks, dtype=np.uint64)
        out = np.empty(t.shape[0], dtype=np.int16)
        cdef int16_t[::1] o = out
        cdef Py_ssize_t i
        with nogil:
            for i in range(t.shape[0]):
                o[i] = trick_meld_value(&self.c, to_layout_bits(&self.c, t[i]))
        return out


def first_bad_deal(const uint64_t[:, :] hands, uint64_t deck, int n_seats, int hand_size, bint full):
    """First invalid deal of universal ``hands`` (only the first ``n_seats`` columns are
    read) as ``(deal, code)``: code 1 a card outside ``deck``, 2 a card in two hands,
    3 hands of unequal size, 4 hands not of ``hand_size`` cards (``full``: the start of
    play) or of more (a position after some tricks); ``(-1, 0)`` when all are valid.
    One pass without the GIL; the caller words the error (the playouts and the solver's
    batch call, whose numpy checks took 110-135 us a call)."""
    cdef Py_ssize_t n = hands.shape[0], i
    cdef int s, size, code = 0
    cdef uint64_t h, seen
    if hands.shape[1] < n_seats:
        raise ValueError("hands has too few columns")
    with nogil:
        for i in range(n):
            seen = 0
            size = popcount(hands[i, 0])
            for s in range(n_seats):
                h = hands[i, s]
                if h & ~deck:
                    code = 1
                elif h & seen:
                    code = 2
                elif popcount(h) != size:
                    code = 3
                elif size != hand_size if full else size > hand_size:
                    code = 4
                if code:
                    break
                seen |= h
            if code:
                break
    if code:
        return i, code
    return -1, 0
