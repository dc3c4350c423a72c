# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled playouts: many complete rounds of card play in one ``nogil`` loop.

The Python API is :func:`trickcore.playouts.playout`, which validates every input first;
:func:`run` trusts what it is given (layout-bit hands of ``hand_size`` cards, seats in
range, a live numpy bit generator).

Every card is chosen among ``legal_moves(L, hand, led_suit, trick_index, played,
suits_led)`` exactly as the kernel documents it: ``played`` holds every card played this
round *including* the current trick, ``suits_led`` the effective suits led in *earlier*
tricks.  Two policies exist, per seat and per deal (``greedy_seats`` bit mask):

* random: uniform among the legal cards, drawn from a numpy bit generator through its C
  API (``bitgen_t``) with Lemire's unbiased bounded-integer method; one draw per card,
  a forced card too.
* greedy: see :func:`_greedy_card` and the module documentation of
  :mod:`trickcore.playouts`.
"""

import numpy as np
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int16_t, int32_t
from numpy.random cimport bitgen_t

from trickcore._layout cimport (
    layout_t, CoreLayout, legal_moves, card_points, trick_meld_value, lowest_bit, highest_bit, OBJECTIVE_POINTS, OBJECTIVE_TRICKS, OBJECTIVE_NIL,
)

cnp.import_array()

cdef extern from *:
    """
    /* Two bit instructions the generic x86-64 build cannot emit: POPCNT (counting the
       legal cards) and PDEP (selecting the r-th legal card in one step).  They are written
       as inline assembly, so no call is paid, and run only when the CPU has them (PDEP
       only where it is fast: Intel, AMD from Zen 3); elsewhere portable code runs. */
    #include <stdint.h>
    #if defined(__GNUC__) && defined(__x86_64__)
    static inline uint64_t tc_pdep(uint64_t a, uint64_t m) {
        uint64_t r;
        __asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(a), "rm"(m));
        return r;
    }
    static inline int tc_popcnt(uint64_t x) {
        uint64_t r;
        __asm__("popcntq %1, %0" : "=r"(r) : "rm"(x) : "cc");
        return (int)r;
    }
    static int tc_fast_pdep(void) {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi2")) return 0;
        if (__builtin_cpu_is("amd") && (__builtin_cpu_is("znver1") || __builtin_cpu_is("znver2")))
            return 0;
        return __builtin_cpu_is("intel") || __builtin_cpu_is("amd");
    }
    static int tc_has_popcnt(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt");
    }
    #else
    static inline uint64_t tc_pdep(uint64_t a, uint64_t m) { (void)a; (void)m; return 0; }
    static inline int tc_popcnt(uint64_t x) { (void)x; return 0; }
    static int tc_fast_pdep(void) { return 0; }
    static int tc_has_popcnt(void) { return 0; }
    #endif
    """
    uint64_t tc_pdep(uint64_t a, uint64_t m) noexcept nogil
    int tc_popcnt(uint64_t x) noexcept nogil
    int tc_fast_pdep() noexcept nogil
    int tc_has_popcnt() noexcept nogil

cdef bint _FAST_PDEP = tc_fast_pdep()
cdef bint _HAS_POPCNT = tc_has_popcnt()


def _cpu_features(pdep=None, popcnt=None):
    """Which bit instructions are in use, as ``(pdep, popcnt)``; passing ``False`` turns
    one off (the tests compare the portable code with the fast one), ``True`` turns it
    back on only if the CPU has it."""
    global _FAST_PDEP, _HAS_POPCNT
    if pdep is not None:
        _FAST_PDEP = bool(pdep) and tc_fast_pdep()
    if popcnt is not None:
        _HAS_POPCNT = bool(popcnt) and tc_has_popcnt()
    return bool(_FAST_PDEP), bool(_HAS_POPCNT)

# Card value for the greedy policy (see greedy_tables): a trump outranks every plain card,
# then points, then rank.  |points| <= 63 keeps the three fields apart.
cdef enum:
    _RANK_SCALE = 1
    _POINT_SCALE = 64
    _TRUMP_SCALE = 8192


cdef inline int _popcount(uint64_t x) noexcept nogil:
    """POPCNT when the CPU has it, else a branch-free SWAR count (``__builtin_popcountll``
    would be a libgcc call in the generic x86-64 build)."""
    if _HAS_POPCNT:
        return tc_popcnt(x)
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef inline uint32_t _bounded(bitgen_t* rng, uint32_t k) noexcept nogil:
    """Uniform integer in [0, k), k >= 1 (Lemire 2019, unbiased)."""
    cdef uint64_t m = <uint64_t>rng.next_uint32(rng.state) * k
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < k:
        threshold = (<uint32_t>(0 - k)) % k
        while low < threshold:
            m = <uint64_t>rng.next_uint32(rng.state) * k
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline int _nth_bit(uint64_t x, int r) noexcept nogil:
    """Index of the r-th (0-based, from the low end) set bit of x."""
    if _FAST_PDEP:
        return lowest_bit(tc_pdep((<uint64_t>1) << r, x))
    while r > 0:
        x &= x - 1
        r -= 1
    return lowest_bit(x)


cdef inline int _min_value(const int32_t* value, uint64_t mask) noexcept nogil:
    """The bit of ``mask`` with the lowest value (lowest bit on ties); mask non-zero."""
    cdef int best = lowest_bit(mask), b
    mask &= mask - 1
    while mask:
        b = lowest_bit(mask)
        if value[b] < value[best]:
            best = b
        mask &= mask - 1
    return best


cdef inline int _max_value(const int32_t* value, uint64_t mask) noexcept nogil:
    """The bit of ``mask`` with the highest value (lowest bit on ties); mask non-zero."""
    cdef int best = lowest_bit(mask), b
    mask &= mask - 1
    while mask:
        b = lowest_bit(mask)
        if value[b] > value[best]:
            best = b
        mask &= mask - 1
    return best


cdef inline int _forced_win(const int32_t* value, const int16_t* points, uint64_t win,
                            bint last) noexcept nogil:
    """Goal "min", every legal card wins: fewest points; among those the strongest when
    playing last (the trick is ours anyway), else the weakest (someone may still overtake)."""
    cdef int best = lowest_bit(win), b
    win &= win - 1
    while win:
        b = lowest_bit(win)
        if points[b] < points[best] or (points[b] == points[best] and (
                (last and value[b] > value[best]) or (not last and value[b] < value[best]))):
            best = b
        win &= win - 1
    return best


cdef inline int _greedy_card(const layout_t* L, const int32_t* value, const int16_t* gpoints,
                             uint64_t legal, int pos, int best_bit, int led_suit,
                             int trick_value, bint partner_winning, bint goal_max,
                             bint last) noexcept nogil:
    """The greedy policy's card among ``legal`` (layout bits).

    ``pos`` is the position in the trick (0 = leading), ``best_bit`` the currently winning
    card, ``trick_value`` what the trick is worth so far (card points, or 1 per trick).
    """
    cdef uint64_t win, duck
    if pos == 0:
        return _min_value(value, legal)
    # Cards that would beat the current winner: eligible (led suit or trump) and higher.
    # Layout bits put trump above every plain suit, so "higher bit" is exactly "beats".
    win = legal & (L.trump_mask | L.suit_mask[led_suit]) & ~(((<uint64_t>2) << best_bit) - 1)
    if goal_max:
        if trick_value > 0 and win and not partner_winning:
            return _min_value(value, win)
        return _min_value(value, legal)
    # goal "min": avoid winning tricks that hold points; take one that is worth less than 0.
    if trick_value < 0 and win:
        return _min_value(value, win)
    duck = legal & ~win
    if duck:
        return _max_value(value, duck)
    return _forced_win(value, gpoints, win, last)


def greedy_tables(CoreLayout core):
    """Per-layout-bit ``(value int32[64], points int16[64])`` the greedy policy uses.

    ``points`` are the layout's card points when the objective is points, else 0.
    ``value = 8192 * trump + 64 * points + rank``, ``trump`` 1 for a trump card, ``rank``
    the card's rank inside its effective suit (0 = lowest): a trump is worth more than any
    plain card, then the card points decide, then the rank.
    """
    cdef const layout_t* L = &core.c
    value = np.zeros(64, dtype=np.int32)
    points = np.zeros(64, dtype=np.int16)
    cdef int b, s, start
    for s in range(L.n_suits):
        start = lowest_bit(L.suit_mask[s])
        for b in range(start, highest_bit(L.suit_mask[s]) + 1):
            p = L.points[b] if L.objective == OBJECTIVE_POINTS else 0
            points[b] = p
            trump = 1 if (L.trump_mask >> b) & 1 else 0
            value[b] = trump * _TRUMP_SCALE + p * _POINT_SCALE + (b - start) * _RANK_SCALE
    return value, points


def run(CoreLayout core, hands, leaders, declarers, sides, greedy_seats, bit_generator):
    """Play every deal out; return the raw result arrays (see ``playouts.PlayoutResult``).

    ``hands``: ``uint64[n, n_seats]`` in *layout bits*, each of ``hand_size`` cards;
    ``leaders``, ``declarers``: ``int8[n]``; ``sides``: ``uint8[n]`` seat mask of the
    declarer's side; ``greedy_seats``: ``uint8[n]`` seats that play greedily (the others
    play at random); ``bit_generator``: a ``numpy.random.BitGenerator`` (its lock is held
    during the loop).
    """
    cdef const layout_t* L = &core.c
    cdef uint64_t[:, ::1] h_in = hands
    cdef int8_t[::1] lead_in = leaders
    cdef int8_t[::1] decl_in = declarers
    cdef uint8_t[::1] side_in = sides
    cdef uint8_t[::1] greedy_in = greedy_seats
    cdef Py_ssize_t n = h_in.shape[0], i
    cdef int ns = L.n_seats, hs = L.hand_size
    # Shapes are checked even here: a wrong one would read past an array in the loop.
    if h_in.shape[1] != ns:
        raise ValueError(f"hands must have {ns} columns")
    if not (lead_in.shape[0] == decl_in.shape[0] == side_in.shape[0] == greedy_in.shape[0] == n):
        raise ValueError("leaders, declarers, sides and greedy_seats need one entry per deal")
    tricks_a = np.zeros((n, ns), dtype=np.int8)
    points_a = np.zeros((n, ns), dtype=np.int16)
    melds_a = np.zeros((n, ns), dtype=np.int16)
    winners_a = np.full((n, hs), -1, dtype=np.int8)
    leaders_a = np.full((n, hs), -1, dtype=np.int8)
    cards_a = np.full((n, hs, ns), -1, dtype=np.int8)
    last_a = np.full(n, -1, dtype=np.int8)
    played_a = np.zeros(n, dtype=np.int8)
    kitty_a = np.zeros(n, dtype=np.int16)
    cdef int8_t[:, ::1] o_tricks = tricks_a
    cdef int16_t[:, ::1] o_points = points_a
    cdef int16_t[:, ::1] o_melds = melds_a
    cdef int8_t[:, ::1] o_winners = winners_a
    cdef int8_t[:, ::1] o_leaders = leaders_a
    cdef int8_t[:, :, ::1] o_cards = cards_a
    cdef int8_t[::1] o_last = last_a
    cdef int8_t[::1] o_played = played_a
    cdef int16_t[::1] o_kitty = kitty_a
    value_a, gpoints_a = greedy_tables(core)
    cdef int32_t[::1] value_v = value_a
    cdef int16_t[::1] gpoints_v = gpoints_a
    cdef const int32_t* value = &value_v[0]
    cdef const int16_t* gpoints = &gpoints_v[0]
    cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")

    cdef uint64_t h[8]
    cdef uint64_t played, legal, trick_mask, eligible = 0, one = 1
    cdef int suits_led, leader, t, p, s, b, led, k, winner, pts, declarer
    cdef int best_bit, best_seat
    cdef uint8_t side, greedy
    cdef bint goal_max = L.goal > 0, stop_on_declarer = L.objective == OBJECTIVE_NIL
    cdef bint points_value = L.objective == OBJECTIVE_POINTS
    cdef bint melds = L.has_trick_melds != 0

    if n == 0:
        return dict(tricks=tricks_a, points=points_a, melds=melds_a, winners=winners_a,
                    leaders=leaders_a, cards=cards_a, last_trick_winner=last_a,
                    tricks_played=played_a, kitty_points=kitty_a)
    lock = bit_generator.lock
    with lock:
      with nogil:
        for i in range(n):
            played = 0
            for s in range(ns):
                h[s] = h_in[i, s]
                played |= h[s]
            o_kitty[i] = <int16_t>card_points(L, L.deck_mask & ~played)
            leader = lead_in[i]
            declarer = decl_in[i]
            side = side_in[i]
            greedy = greedy_in[i]
            # The holder of a forced first lead (2♣ in Hearts) leads whoever was given.
            if L.first_lead_bit >= 0:
                for s in range(ns):
                    if (h[s] >> L.first_lead_bit) & 1:
                        leader = s
            played = 0
            suits_led = 0
            for t in range(hs):
                led = -1
                trick_mask = 0
                # What the trick is worth to the greedy policy: its card points (and the
                # last-trick bonus) for a points objective, else 1.
                pts = L.last_trick_bonus if t == hs - 1 else 0
                best_bit = -1
                best_seat = -1
                s = leader
                for p in range(ns):
                    legal = legal_moves(L, h[s], led, t, played, suits_led)
                    if (greedy >> s) & 1:
                        b = _greedy_card(L, value, gpoints, legal, p, best_bit, led,
                                         pts if points_value else 1,
                                         ((side >> s) & 1) == ((side >> best_seat) & 1) if p else 0,
                                         goal_max, p == ns - 1)
                    else:
                        # A forced card draws too: a branch on "one legal card" mispredicts
                        # often enough to cost more than the draw.
                        b = _nth_bit(legal, <int>_bounded(rng, <uint32_t>_popcount(legal)))
                    h[s] &= ~(one << b)
                    played |= one << b
                    trick_mask |= one << b
                    o_cards[i, t, s] = L.bit_to_card[b]
                    if p == 0:
                        led = L.suit_of_bit[b]
                        eligible = L.trump_mask | L.suit_mask[led]
                        best_bit = b
                        best_seat = s
                    else:
                        # Branch-free: whether a random card beats the winner is unpredictable.
                        k = -(<int>((eligible >> b) & 1) & <int>(b > best_bit))
                        best_bit = (b & k) | (best_bit & ~k)
                        best_seat = (s & k) | (best_seat & ~k)
                    pts += L.points[b]
                    s += 1
                    if s == ns:
                        s = 0
                # best_seat follows the kernel's trick_winner rule card by card (the tests
                # check every recorded trick against Layout.trick_winner).
                winner = best_seat
                suits_led |= 1 << led
                o_winners[i, t] = <int8_t>winner
                o_leaders[i, t] = <int8_t>leader
                o_tricks[i, winner] += 1
                if t == hs - 1:
                    o_last[i] = <int8_t>winner
                o_points[i, winner] += pts
                if melds:
                    o_melds[i, winner] += trick_meld_value(L, trick_mask)
                leader = winner
                o_played[i] = t + 1
                if stop_on_declarer and winner == declarer:
                    break
    return dict(tricks=tricks_a, points=points_a, melds=melds_a, winners=winners_a,
                leaders=leaders_a, cards=cards_a, last_trick_winner=last_a,
                tricks_played=played_a, kitty_points=kitty_a)
