# cython: language_level=3
"""The compiled view of a :class:`trickcore.layout.Layout` and the rules kernels.

Every compiled module (deals, playouts, solver) cimports this file.  All masks here are in
*layout bits*: effective suits are contiguous bit ranges ordered by rank, trump is the
highest range, so "highest eligible bit wins the trick".  The ``to_layout`` / ``to_card``
byte tables translate whole bit-boards between universal card ids and layout bits.
"""
from libc.stdint cimport uint64_t, uint8_t, int8_t, int16_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

ctypedef struct layout_t:
    int n_seats              # seats at the table (2..8)
    int hand_size            # cards per hand in a full round = tricks per round
    int n_suits              # effective suits (trump, if any, is the last one)
    int n_cards              # cards in the deck; layout bits 0 .. n_cards-1 are used
    uint64_t deck_mask       # (1 << n_cards) - 1
    uint64_t suit_mask[8]    # layout-bit mask of each effective suit
    int8_t suit_of_bit[64]   # effective suit of each layout bit (-1 past the deck)
    uint64_t trump_mask      # suit_mask[n_suits - 1] when there is a trump suit, else 0
    int16_t points[64]       # card points per layout bit
    int last_trick_bonus     # points to the winner of the last trick
    int objective            # 0 points, 1 tricks, 2 nil (see OBJECTIVE_* below)
    int goal                 # +1: the declarer's side maximises the value, -1: minimises
    uint64_t lead_restricted # may not be led until broken ...
    uint64_t breakers        # ... i.e. until one of these has been played
    int unlock_trick         # ... or this trick index is reached
    int first_lead_bit       # holder must lead it to trick 0 (-1: none)
    uint64_t first_trick_forbidden  # void on trick 0: avoid these if possible
    int must_play_bit        # holder must play it when its suit is first led (-1: none)
    int has_trick_melds      # 1 when tricks score melds (Clover)
    int8_t meld_rank[64]     # rank index 0..7 per layout bit for trick melds
    uint64_t bell_mask       # the trick holds all of these: +4096 in the meld table index
    const int16_t* meld_table  # 8192 meld values, memory owned by the CoreLayout object
    int8_t bit_to_card[64]   # universal card id of each layout bit (-1 past the deck)
    int8_t card_to_bit[64]   # layout bit of each universal card id (-1 not in the deck)
    uint64_t to_layout[8][256]  # byte-wise translation tables, universal -> layout
    uint64_t to_card[8][256]    # layout -> universal

cdef enum:
    OBJECTIVE_POINTS = 0
    OBJECTIVE_TRICKS = 1
    OBJECTIVE_NIL = 2

cdef class CoreLayout:
    cdef layout_t c
    cdef object _meld_table      # keeps meld_table's buffer alive
    cdef readonly object layout  # the Python Layout it was built from


cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)

cdef inline int lowest_bit(uint64_t x) noexcept nogil:
    """Index of the lowest set bit; ``x`` must be non-zero."""
    return __builtin_ctzll(x)

cdef inline int highest_bit(uint64_t x) noexcept nogil:
    """Index of the highest set bit; ``x`` must be non-zero.  ``63 ^ clz``, equal to
    ``63 - clz`` for 0..63: gcc folds it into one BSR, where the subtraction left a BSR,
    an XOR and a SUB."""
    return 63 ^ __builtin_clzll(x)

cdef inline int ducks_every_suit(const layout_t* L, int n_suits, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The solver kernels' Nil test (``_solve_tricks.nil_safe`` argues it): in each of the
    first ``n_suits`` effective suits, the ``r``-th lowest card of ``mine`` below the
    ``r``-th lowest of ``theirs``, as far as both have cards."""
    cdef uint64_t d, o
    cdef int su
    for su in range(n_suits):
        d = mine & L.suit_mask[su]
        o = theirs & L.suit_mask[su]
        while d and o:
            if lowest_bit(d) > lowest_bit(o):
                return 0
            d &= d - 1
            o &= o - 1
    return 1

cdef inline int insert_move(int b, int sc, int* scores, int* out, int n) noexcept nogil:
    """Insert card ``b`` of weight ``sc`` into a move list of ``n`` cards kept best first
    (the earlier one first on a tie); returns the new count.  The solver kernels' move
    ordering."""
    cdef int i = n
    while i > 0 and scores[i - 1] < sc:
        scores[i] = scores[i - 1]
        out[i] = out[i - 1]
        i -= 1
    scores[i] = sc
    out[i] = b
    return n + 1

cdef inline uint64_t to_layout_bits(const layout_t* L, uint64_t x) noexcept nogil:
    return (L.to_layout[0][x & 255] | L.to_layout[1][(x >> 8) & 255]
            | L.to_layout[2][(x >> 16) & 255] | L.to_layout[3][(x >> 24) & 255]
            | L.to_layout[4][(x >> 32) & 255] | L.to_layout[5][(x >> 40) & 255]
            | L.to_layout[6][(x >> 48) & 255] | L.to_layout[7][(x >> 56) & 255])

cdef inline uint64_t to_card_bits(const layout_t* L, uint64_t x) noexcept nogil:
    return (L.to_card[0][x & 255] | L.to_card[1][(x >> 8) & 255]
            | L.to_card[2][(x >> 16) & 255] | L.to_card[3][(x >> 24) & 255]
            | L.to_card[4][(x >> 32) & 255] | L.to_card[5][(x >> 40) & 255]
            | L.to_card[6][(x >> 48) & 255] | L.to_card[7][(x >> 56) & 255])

cdef inline uint64_t legal_moves(const layout_t* L, uint64_t hand, int led_suit, int trick_index,
                                 uint64_t played, int suits_led) noexcept nogil:
    """Legal cards of ``hand`` (layout bits).

    ``led_suit``: effective suit led in the current trick, -1 when leading.
    ``played``: every card played so far this round, current trick included.
    ``suits_led``: bit mask of the effective suits led in *earlier* tricks.
    """
    cdef uint64_t follow, allowed
    if led_suit < 0:
        if trick_index == 0 and L.first_lead_bit >= 0 and (hand >> L.first_lead_bit) & 1:
            return (<uint64_t>1) << L.first_lead_bit
        if (hand & L.lead_restricted) and trick_index < L.unlock_trick and not (played & L.breakers):
            allowed = hand & ~L.lead_restricted
            if allowed:
                return allowed
        return hand
    follow = hand & L.suit_mask[led_suit]
    if follow:
        if (L.must_play_bit >= 0 and (follow >> L.must_play_bit) & 1
                and not (suits_led >> led_suit) & 1):
            return (<uint64_t>1) << L.must_play_bit
        return follow
    if trick_index == 0 and (hand & L.first_trick_forbidden):
        allowed = hand & ~L.first_trick_forbidden
        if allowed:
            return allowed
    return hand

cdef inline int trick_winner(const layout_t* L, const int8_t* bits, int n) noexcept nogil:
    """Position (0 = leader) of the winning card among ``n`` layout bits in play order."""
    cdef uint64_t eligible = L.trump_mask | L.suit_mask[L.suit_of_bit[bits[0]]]
    cdef int best = 0, best_bit = bits[0], i, b
    for i in range(1, n):
        b = bits[i]
        if (eligible >> b) & 1 and b > best_bit:
            best = i
            best_bit = b
    return best

cdef inline int card_points(const layout_t* L, uint64_t cards) noexcept nogil:
    """Sum of the card points of a layout-bit mask."""
    cdef int total = 0
    while cards:
        total += L.points[lowest_bit(cards)]
        cards &= cards - 1
    return total

cdef inline int trick_meld_value(const layout_t* L, uint64_t trick) noexcept nogil:
    """Meld value of a complete four-card trick (layout-bit mask); 0 without trick melds."""
    cdef int r[4]
    cdef int n = 0, i, j, t, code
    cdef uint64_t rest = trick
    if not L.has_trick_melds:
        return 0
    while rest and n < 4:
        r[n] = L.meld_rank[lowest_bit(rest)]
        n += 1
        rest &= rest - 1
    for i in range(1, n):          # insertion sort of at most four values
        t = r[i]
        j = i - 1
        while j >= 0 and r[j] > t:
            r[j + 1] = r[j]
            j -= 1
        r[j + 1] = t
    code = 0
    for i in range(n):
        code |= r[i] << (3 * i)
    if L.bell_mask and (trick & L.bell_mask) == L.bell_mask:
        code += 4096
    return L.meld_table[code]
