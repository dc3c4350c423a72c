# cython: language_level=3
"""Ctrl-C inside a long compiled search: the solver kernels' interrupt guard.

A search runs without the GIL, so Python's signal handlers (Ctrl-C's ``KeyboardInterrupt``,
or a user's ``signal.alarm`` handler raising a timeout) would only run once the whole call
returned: a Hearts deal that takes minutes could not be stopped.  So every ``TC_POLL_NODES``
search nodes the kernel takes the GIL for a moment and runs the pending handlers
(``PyErr_CheckSignals``; in threads other than the main one it does nothing).  When a
handler raises, the exception is kept and the search is left at once by ``longjmp`` back
to :c:func:`tc_run_guarded`, the frame that started it: the search's nested C frames hold
no Python object and no lock, and the interrupted deal's state is dropped (the tables
only ever hold proved bounds, so they stay true, though they are discarded too).  The
entry point then raises the kept exception, with the deals finished before it.

Cost: one compare of the node count per trick-boundary node that searches on (callgrind
of the benches' layouts within -0.1% to +0.7%: ``benches/RESULTS.md``, session 16); a poll
is a GIL round trip, about a microsecond every few milliseconds of search.

The entry points of both kernels hand their guarded search one of the two jobs below
(``void*`` to :c:func:`tc_run_guarded`): the kernel's context and its inputs and outputs.

Usage in a kernel::

    c.guard ...                       # a tc_guard in the search context
    tc_guard_init(&c.guard)
    run_guarded(&c.guard, work, &job)   # work(&job) without the GIL; raises on Ctrl-C
    # and in the search, at a node:
    check_interrupt(&c.guard, c.nodes)
"""
from libc.stdint cimport int64_t, int16_t, int8_t, uint8_t, uint64_t

cdef extern from *:
    """
    #include <setjmp.h>
    #include <stdint.h>

    /* Search nodes between two looks for a pending signal: 65536 nodes are 2-10 ms of
       search in every kernel. */
    #define TC_POLL_NODES ((int64_t)1 << 16)

    typedef struct {
        int64_t poll_at;        /* node count at which the search next polls */
        int armed;              /* inside tc_run_guarded: a jump target is set */
        jmp_buf jump;
        PyObject *type, *value, *tb;    /* the exception a handler raised, kept */
    } tc_guard;

    typedef int (*tc_guarded_fn)(void*);

    static void tc_guard_init(tc_guard* g) {
        g->poll_at = TC_POLL_NODES;
        g->armed = 0;
        g->type = g->value = g->tb = NULL;
    }

    /* The search's node count starts again from 0 (a new deal). */
    static inline void tc_guard_restart(tc_guard* g) {
        g->poll_at = TC_POLL_NODES;
    }

    /* Runs fn(arg); -1 if a signal handler raised during it (tc_take_exception gives the
       exception), else fn's result.  setjmp in a frame of its own whose locals are never
       written after it, so that nothing here is undefined after the jump back. */
    static int tc_run_guarded(tc_guard* g, tc_guarded_fn fn, void* arg) {
        int r;
        if (setjmp(g->jump)) {
            g->armed = 0;
            return -1;
        }
        g->armed = 1;
        r = fn(arg);
        g->armed = 0;
        return r;
    }

    /* Runs Python's pending signal handlers (with the GIL, taken for the call); if one
       raised, keeps its exception and jumps back to tc_run_guarded.  Out of line and cold:
       the search only tests the node count. */
    static __attribute__((noinline, cold)) void tc_poll(tc_guard* g, int64_t nodes) {
        PyGILState_STATE st;
        int raised;
        g->poll_at = nodes + TC_POLL_NODES;
        if (!g->armed)
            return;
        st = PyGILState_Ensure();
        raised = PyErr_CheckSignals() != 0;
        if (raised)
            PyErr_Fetch(&g->type, &g->value, &g->tb);
        PyGILState_Release(st);
        if (raised)
            longjmp(g->jump, 1);
    }

    /* The kept exception (a new reference, its traceback attached), or None. */
    static PyObject* tc_take_exception(tc_guard* g) {
        PyObject *t = g->type, *v = g->value, *tb = g->tb;
        g->type = g->value = g->tb = NULL;
        if (t == NULL) {
            Py_RETURN_NONE;
        }
        PyErr_NormalizeException(&t, &v, &tb);
        if (tb != NULL && v != NULL)
            PyException_SetTraceback(v, tb);
        Py_XDECREF(t);
        Py_XDECREF(tb);
        if (v == NULL) {
            Py_RETURN_NONE;
        }
        return v;
    }
    """
    ctypedef struct tc_guard:
        int64_t poll_at
    ctypedef int (*tc_guarded_fn)(void*) noexcept nogil
    int64_t TC_POLL_NODES
    void tc_guard_init(tc_guard* g) noexcept nogil
    void tc_guard_restart(tc_guard* g) noexcept nogil
    int tc_run_guarded(tc_guard* g, tc_guarded_fn fn, void* arg) noexcept nogil
    void tc_poll(tc_guard* g, int64_t nodes) noexcept nogil
    object tc_take_exception(tc_guard* g)


cdef inline void check_interrupt(tc_guard* g, int64_t nodes) noexcept nogil:
    """Poll for a signal once the search has gone ``TC_POLL_NODES`` nodes since the last
    poll (see the module docstring)."""
    if nodes >= g.poll_at:
        tc_poll(g, nodes)



cdef inline int run_guarded(tc_guard* g, tc_guarded_fn fn, void* arg) except -1:
    """Run ``fn(arg)`` without the GIL under the guard ``g``; raise the exception of a
    signal handler that stopped it (Ctrl-C)."""
    cdef int rc
    with nogil:
        rc = tc_run_guarded(g, fn, arg)
    if rc < 0:
        raise tc_take_exception(g)
    return 0


# What ``solve_position`` hands its guarded search.
ctypedef struct position_job_t:
    void* ctx               # the kernel's search context (its ``ctx_t``)
    int card_values         # the value of each card (else the value only) ...
    int n_moves             # ... of these cards, in this order (the search fills them)
    int order[64]
    int values[64]          # out: each card's value (card_values)
    int value               # out: the position's value
    int n_line              # out: the line's cards
    int8_t line[64]


# What ``solve_batch`` hands its guarded loop over the deals.
ctypedef struct batch_job_t:
    void* ctx               # the kernel's search context (its ``ctx_t``)
    const uint64_t* hands   # n_deals x n_seats
    const int8_t* leaders
    const uint8_t* sides
    int goal_max
    Py_ssize_t n_deals
    const int16_t* cuts     # n_deals x n_cuts, or NULL: exact values
    int n_cuts
    int line
    int16_t* value          # outputs, one per deal
    int16_t* value_hi       # (with cuts)
    int8_t* side_tricks
    int8_t* last_winner
    int16_t* side_melds
    int16_t* opp_melds
    int64_t* nodes
    Py_ssize_t done         # deals whose outputs are written (the first ones)


cdef inline void init_position_job(position_job_t* job, void* ctx, int card_values) noexcept nogil:
    job.ctx = ctx
    job.card_values = card_values
    job.n_moves = 0
    job.value = 0
    job.n_line = 0


cdef inline object position_result(position_job_t* job, int64_t nodes):
    """``solve_position``'s result from its finished job: ``(value, {bit: value}, [bits
    of the line], nodes)``."""
    cdef int i
    return (job.value, {job.order[i]: job.values[i] for i in range(job.n_moves)},
            [job.line[i] for i in range(job.n_line)], nodes)


cdef inline void init_batch_job(batch_job_t* job, void* ctx, const uint64_t[:, ::1] hands,
                                const int8_t[::1] leaders, const uint8_t[::1] sides, int goal_max,
                                int line, int16_t[::1] value, int8_t[::1] side_tricks,
                                int8_t[::1] last_winner, int16_t[::1] side_melds,
                                int16_t[::1] opp_melds, int64_t[::1] nodes):
    """``solve_batch``'s job over ``hands.shape[0] >= 1`` deals, exact values (no cuts)."""
    job.ctx = ctx
    job.hands = &hands[0, 0]
    job.leaders = &leaders[0]
    job.sides = &sides[0]
    job.goal_max = goal_max
    job.n_deals = hands.shape[0]
    job.cuts = NULL
    job.n_cuts = 0
    job.line = line
    job.value = &value[0]
    job.value_hi = NULL
    job.side_tricks = &side_tricks[0]
    job.last_winner = &last_winner[0]
    job.side_melds = &side_melds[0]
    job.opp_melds = &opp_melds[0]
    job.nodes = &nodes[0]
    job.done = 0
