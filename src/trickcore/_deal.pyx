# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled dealing: exactly uniform random deals and exhaustive enumeration.

The public API is :mod:`trickcore.deals`; it validates every input and builds a
:class:`DealPlan`, so nothing here re-checks what the plan already guarantees.

Columns and positions
---------------------
A deal has ``n_cols`` columns (one per seat, then the kitty); column ``c`` receives its
*fixed* cards plus ``need[c]`` of the ``m`` *unseen* cards.  The unseen cards sit in a
byte array ``a[0 .. m)`` of universal card ids.  Positions ``m-1, m-2, ...`` are filled
from the top by a Fisher-Yates shuffle and grouped into contiguous *blocks*, one per
column; the shuffle stops at position ``stop`` because the positions below it all go to
one column (the *bottom* column, the one needing the most cards), which simply takes
the unseen cards nobody else got.  So a Sheepshead deal (5 x 6 + 2 = 32 cards) costs 26
bounded draws, not 31.

Bounded draws: batched, exact
-----------------------------
Position ``i`` needs a uniform integer in ``[0, i + 1)``.  Following Brackett-Rozinsky
and Lemire, "Batched Ranged Random Integer Generation" (Software: Practice and
Experience, 2024), one 64-bit word ``r`` yields ``k`` such integers for ranges
``n_1 .. n_k`` whose product ``P`` is below ``2**64``: multiply, keep the high 64 bits as
the draw and the low 64 bits as the new ``r``, repeat.  The ``k`` draws are exactly
uniform and independent when the final low word is ``>= 2**64 mod P``; otherwise the
whole batch is redrawn (rejection; no modulo bias).  The split of the ranges into
batches and each batch's threshold ``2**64 mod P`` are computed once per plan (ranges
are the same for every deal), so the per-deal work is one comparison per batch.

The shuffle array is *not* reset between deals: a Fisher-Yates shuffle is uniform
whatever permutation it starts from, so each deal is uniform and independent of the
previous one, and resetting would only cost time.

Random words come from a numpy bit generator through its documented C interface
(``bitgen_t``), used by one thread only (a private generator needs no lock).
"""

import numpy as np
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_IsValid, PyCapsule_GetPointer
from libc.stdint cimport uint64_t, uint8_t, int8_t, int64_t
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

cnp.import_array()

cdef extern from *:
    """
    /* 64 x 64 -> 128-bit product: returns the high word, stores the low word. */
    static inline uint64_t trickcore_mul_hilo(uint64_t a, uint64_t b, uint64_t *lo) {
        __uint128_t x = (__uint128_t)a * (__uint128_t)b;
        *lo = (uint64_t)x;
        return (uint64_t)(x >> 64);
    }
    """
    uint64_t mul_hilo "trickcore_mul_hilo"(uint64_t a, uint64_t b, uint64_t* lo) noexcept nogil

cdef enum:
    MAX_COLS = 9      # at most 8 seats + the kitty
    MAX_CARDS = 64

# Cost model for splitting draws into batches: a batch costs one 64-bit word; a rejected
# batch costs a mispredicted branch, the word and the k multiplications again.
_REJECT_WEIGHT = 3.0
_TWO64 = 1 << 64


ctypedef struct plan_t:
    int m                        # unseen cards to deal
    int n_cols                   # output columns: seats then kitty
    int bottom                   # column that takes the m - (dealt by shuffle) rest
    uint64_t unseen              # bit-board of the unseen cards (universal ids)
    uint8_t cards[MAX_CARDS]     # the unseen card ids, initial shuffle order
    uint64_t fixed[MAX_COLS]     # fixed cards per column
    int need[MAX_COLS]           # unseen cards each column receives
    int n_blocks                 # shuffled blocks (columns other than bottom with need > 0)
    int8_t block_col[MAX_COLS]   # column of each block, top block first
    int block_hi[MAX_COLS]       # highest position of the block (inclusive)
    int block_lo[MAX_COLS]       # lowest position of the block (inclusive)
    int n_batches                # batches of bounded draws, top positions first
    uint8_t batch_len[MAX_CARDS] # draws in each batch
    uint64_t batch_thr[MAX_CARDS]  # accept the batch iff final low word >= this (2**64 mod P)


def _plan_batches(ranges):
    """Split ``ranges`` (draw bounds, in draw order) into batches with product < 2**64.

    Dynamic programming over split points minimising the expected cost (words drawn,
    rejections weighted by ``_REJECT_WEIGHT``).  Returns ``[(k, threshold), ...]``.
    """
    L = len(ranges)
    best = [0.0] * (L + 1)
    choice = [0] * (L + 1)
    for i in range(L - 1, -1, -1):
        best[i] = float("inf")
        P = 1
        for j in range(i, L):
            P *= ranges[j]
            if P >= _TWO64:
                break
            p_rej = (_TWO64 % P) / _TWO64
            cost = 1.0 + _REJECT_WEIGHT * p_rej / (1.0 - p_rej) + best[j + 1]
            if cost < best[i]:
                best[i] = cost
                choice[i] = j + 1
    out = []
    i = 0
    while i < L:
        j = choice[i]
        P = 1
        for x in ranges[i:j]:
            P *= x
        out.append((j - i, _TWO64 % P))
        i = j
    return out


cdef class DealPlan:
    """How to deal the unseen cards of one table with some cards fixed (internal).

    Parameters
    ----------
    cards : sequence of int
        The unseen universal card ids (distinct, < 64).
    needs : sequence of int
        Unseen cards each column receives (seats then kitty); they sum to ``len(cards)``.
    fixed : sequence of int
        Fixed-card bit-board of each column (disjoint from ``cards``).
    batches : sequence of (int, int), optional
        Override the batch plan ``[(draws, threshold), ...]`` (tests use it to force
        frequent rejections; a threshold other than ``2**64 mod P`` is not exact).
    """

    cdef plan_t p
    cdef readonly tuple needs
    cdef readonly tuple batches

    def __cinit__(self, cards, needs, fixed, batches=None):
        cdef int i, c, pos
        cards = [int(x) for x in cards]
        needs = [int(x) for x in needs]
        fixed = [int(x) for x in fixed]
        n_cols = len(needs)
        if not 1 <= n_cols <= MAX_COLS or len(fixed) != n_cols:
            raise ValueError(f"need 1..{MAX_COLS} columns with one fixed mask each")
        if len(set(cards)) != len(cards) or any(not 0 <= x < 64 for x in cards):
            raise ValueError("unseen cards must be distinct ids 0..63")
        if any(x < 0 for x in needs) or sum(needs) != len(cards):
            raise ValueError("needs must be >= 0 and sum to the number of unseen cards")
        unseen = 0
        for x in cards:
            unseen |= 1 << x
        allfixed = 0
        for f in fixed:
            if f < 0 or f >= _TWO64 or f & allfixed or f & unseen:
                raise ValueError("fixed masks must be disjoint 64-bit masks outside the unseen cards")
            allfixed |= f
        self.needs = tuple(needs)
        self.p.m = len(cards)
        self.p.n_cols = n_cols
        self.p.unseen = unseen
        for i in range(len(cards)):
            self.p.cards[i] = cards[i]
        bottom = max(range(n_cols), key=lambda col: needs[col])  # first of the largest
        self.p.bottom = bottom
        self.p.n_blocks = 0
        pos = self.p.m - 1
        for c in range(n_cols):
            self.p.fixed[c] = fixed[c]
            self.p.need[c] = needs[c]
            if c == bottom or needs[c] == 0:
                continue
            self.p.block_col[self.p.n_blocks] = c
            self.p.block_hi[self.p.n_blocks] = pos
            self.p.block_lo[self.p.n_blocks] = pos - needs[c] + 1
            pos -= needs[c]
            self.p.n_blocks += 1
        stop = needs[bottom]
        # Position i (from m-1 down to stop) draws uniformly from [0, i + 1).
        ranges = list(range(self.p.m, stop, -1))
        if batches is None:
            batches = _plan_batches(ranges)
        else:
            batches = [(int(k), int(t)) for k, t in batches]
            if sum(k for k, _ in batches) != len(ranges) or any(k < 1 or not 0 <= t < _TWO64 for k, t in batches):
                raise ValueError(f"batches must cover {len(ranges)} draws with thresholds < 2**64")
            i = 0
            for k, _ in batches:
                P = 1
                for x in ranges[i:i + k]:
                    P *= x
                if P >= _TWO64:
                    raise ValueError("a batch's product of ranges must be below 2**64")
                i += k
        self.batches = tuple(batches)
        self.p.n_batches = len(batches)
        for i, (k, thr) in enumerate(batches):
            self.p.batch_len[i] = k
            self.p.batch_thr[i] = thr

    @property
    def n_cols(self):
        return self.p.n_cols

    @property
    def n_draws(self):
        """Bounded draws per deal (one per shuffled position)."""
        return sum(k for k, _ in self.batches)

    def deal(self, bit_generator, Py_ssize_t n):
        """``n`` deals drawn from ``bit_generator`` (a numpy BitGenerator used only here)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        out = np.empty((n, self.p.n_cols), dtype=np.uint64)
        self.deal_into(bit_generator, out)
        return out

    def deal_into(self, bit_generator, cnp.uint64_t[:, ::1] out):
        """Fill every row of ``out`` (shape ``(n, n_cols)``, uint64, C order) with a deal."""
        cdef const char* name = "BitGenerator"
        cdef bitgen_t* bg
        if out.shape[1] != self.p.n_cols:
            raise ValueError(f"out must have {self.p.n_cols} columns")
        capsule = bit_generator.capsule
        if not PyCapsule_IsValid(capsule, name):
            raise ValueError("not a numpy BitGenerator")
        bg = <bitgen_t*>PyCapsule_GetPointer(capsule, name)
        if out.shape[0] == 0:
            return
        with nogil:
            _deal_kernel(&self.p, bg, &out[0, 0], out.shape[0])

    def enumerate(self, Py_ssize_t count):
        """Every distribution of the unseen cards, ``count`` rows (the caller's multinomial).

        Rows come in a fixed order: the columns other than the bottom one, in column
        order, run through their card subsets in colex order of the unseen cards.
        """
        cdef uint64_t avail[MAX_CARDS]
        cdef int cols[MAX_COLS]
        cdef uint64_t h[MAX_COLS]
        cdef int n_levels = 0, c, i
        cdef Py_ssize_t written
        if self.p.m > 62:
            raise ValueError("enumeration supports at most 62 unseen cards")
        out = np.zeros((count, self.p.n_cols), dtype=np.uint64)
        cdef cnp.uint64_t[:, ::1] view = out
        for c in range(self.p.n_cols):
            h[c] = 0
            if c != self.p.bottom and self.p.need[c] > 0:
                cols[n_levels] = c
                n_levels += 1
        for i in range(self.p.m):
            avail[i] = (<uint64_t>1) << self.p.cards[i]
        if count == 0:
            return out
        with nogil:
            written = _enum_level(&self.p, 0, n_levels, cols, avail, self.p.m, h,
                                  &view[0, 0], 0, count)
        if written != count:
            raise RuntimeError(f"enumerated {written} deals, expected {count}")
        return out


cdef void _deal_kernel(const plan_t* P, bitgen_t* bg, uint64_t* out, Py_ssize_t n) noexcept nogil:
    cdef uint8_t a[MAX_CARDS]
    cdef uint8_t J[MAX_CARDS]
    cdef Py_ssize_t d
    cdef int b, q, k, pos, blk, i, j, c
    cdef uint8_t t
    cdef uint64_t r, h, dealt, thr
    cdef uint64_t* row
    memcpy(a, P.cards, P.m)
    for d in range(n):
        # 1. The bounded draws of this deal, batch by batch (exact: reject and redraw).
        pos = P.m - 1
        for b in range(P.n_batches):
            k = P.batch_len[b]
            thr = P.batch_thr[b]
            while True:
                r = bg.next_uint64(bg.state)
                for q in range(k):
                    J[pos - q] = <uint8_t>mul_hilo(r, <uint64_t>(pos - q + 1), &r)
                if r >= thr:
                    break
            pos -= k
        # 2. Fisher-Yates swaps from the top; each block of positions is one column.
        row = out + d * P.n_cols
        for c in range(P.n_cols):
            row[c] = P.fixed[c]
        dealt = 0
        for blk in range(P.n_blocks):
            h = 0
            for i in range(P.block_hi[blk], P.block_lo[blk] - 1, -1):
                j = J[i]
                t = a[j]
                a[j] = a[i]
                a[i] = t
                h |= (<uint64_t>1) << t
            row[P.block_col[blk]] |= h
            dealt |= h
        # 3. The bottom column takes every unseen card not dealt above.
        row[P.bottom] |= P.unseen ^ dealt


cdef Py_ssize_t _enum_level(const plan_t* P, int level, int n_levels, const int* cols,
                            const uint64_t* avail, int r, uint64_t* h,
                            uint64_t* out, Py_ssize_t row, Py_ssize_t count) noexcept nogil:
    """Write every completion of levels ``level..`` from row ``row``; return the next row.

    ``avail[0..r)`` are the single-card masks still unassigned.  Subsets of ``need``
    indices among ``r`` are walked with Gosper's hack (next integer with as many bits).
    """
    cdef uint64_t nxt[MAX_CARDS]
    cdef uint64_t comb, limit, u, v, chosen, rest
    cdef int g, i, n_next, c
    cdef uint64_t* dst
    if level == n_levels:
        if row >= count:       # never happens when count is the multinomial; stay in bounds
            return row + 1
        rest = 0
        for i in range(r):
            rest |= avail[i]
        dst = out + row * P.n_cols
        for c in range(P.n_cols):
            dst[c] = P.fixed[c] | h[c]
        dst[P.bottom] |= rest
        return row + 1
    c = cols[level]
    g = P.need[c]
    limit = (<uint64_t>1) << r
    comb = ((<uint64_t>1) << g) - 1
    while comb < limit:
        chosen = 0
        n_next = 0
        for i in range(r):
            if (comb >> i) & 1:
                chosen |= avail[i]
            else:
                nxt[n_next] = avail[i]
                n_next += 1
        h[c] = chosen
        row = _enum_level(P, level + 1, n_levels, cols, nxt, n_next, h, out, row, count)
        u = comb & (~comb + 1)
        v = comb + u
        comb = v + (((v ^ comb) // u) >> 2)
    h[c] = 0
    return row
