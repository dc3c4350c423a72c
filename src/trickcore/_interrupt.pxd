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

Budgets.  A guard may also carry a deadline (:c:func:`tc_guard_set_deadline`, on the
monotonic clock): a poll past it raises ``TimeoutError`` the same way, so a budget works
in any thread, without signals.  Or a budget of nodes (:c:func:`tc_guard_set_node_limit`,
counted over a batch's deals): the poll then comes at the first trick boundary once the
budget is spent and raises ``TimeoutError``; the search being deterministic, where it
stops and what it had proved are the same on every machine and every run.

What an interrupted search had proved.  The kernels' null-window probes narrow the value
they are working out to an interval; each probe writes it into the guard
(:func:`note_bounds`).  :func:`run_position` and :func:`run_batch` attach it to the
exception they raise (``solve_progress``): the bounds of the position's value and the
values of the cards finished, or the bounds of the deal in progress.  Nothing is lost but
what the search had not proved yet.

Usage in a kernel::

    c.guard ...                       # a tc_guard in the search context
    tc_guard_init(&c.guard)
    # work(&job) without the GIL within the budgets (0: none); raises on Ctrl-C
    run_position(&job, &c.guard, work, seconds, nodes)
    # in the search, at a node:
    check_interrupt(&c.guard, c.nodes)
    # after each probe of the value:
    note_bounds(&c.guard, lower, upper)
    # in a batch, before each deal (then c.nodes = 0):
    tc_guard_next_deal(&c.guard, c.nodes)
"""
from libc.stdint cimport int64_t, int32_t, int16_t, int8_t, uint8_t, uint64_t

cdef extern from *:
    """
    #include <setjmp.h>
    #include <stdint.h>
    #include <time.h>

    /* Search nodes between two looks for a pending signal: 65536 nodes are 2-10 ms of
       search in every kernel. */
    #define TC_POLL_NODES ((int64_t)1 << 16)

    typedef struct {
        int64_t poll_at;        /* node count at which the search next polls */
        int armed;              /* inside tc_run_guarded: a jump target is set */
        jmp_buf jump;
        PyObject *type, *value, *tb;    /* the exception a handler raised, kept */
        double deadline;        /* tc_now() past which a poll raises TimeoutError; 0: none */
        int64_t node_limit;     /* nodes after which a poll raises TimeoutError; 0: none */
        int64_t spent;          /* nodes of the batch's deals before this one */
        int bounded;            /* lower and upper hold the interval proved so far ... */
        int lower, upper;       /* ... of the value the search is working out */
    } tc_guard;

    static double tc_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }

    typedef int (*tc_guarded_fn)(void*);

    static void tc_guard_init(tc_guard* g) {
        g->poll_at = TC_POLL_NODES;
        g->armed = 0;
        g->type = g->value = g->tb = NULL;
        g->deadline = 0;
        g->node_limit = 0;
        g->spent = 0;
        g->bounded = 0;
        g->lower = g->upper = 0;
    }

    /* Polls after ``seconds`` from now raise TimeoutError (seconds <= 0: no deadline). */
    static void tc_guard_set_deadline(tc_guard* g, double seconds) {
        g->deadline = seconds > 0 ? tc_now() + seconds : 0;
    }

    /* The next poll no later than the node limit (the deal's count at which the batch's
       nodes reach it). */
    static inline void tc_poll_by_limit(tc_guard* g) {
        if (g->node_limit && g->node_limit - g->spent < g->poll_at)
            g->poll_at = g->node_limit - g->spent;
    }

    /* Polls after ``limit`` nodes (over a batch's deals) raise TimeoutError (0: no limit);
       the first poll comes at the limit if that is before TC_POLL_NODES. */
    static void tc_guard_set_node_limit(tc_guard* g, int64_t limit) {
        g->node_limit = limit > 0 ? limit : 0;
        tc_poll_by_limit(g);
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

    /* Runs Python's pending signal handlers (with the GIL, taken for the call) and checks
       the deadline; if a handler raised, or the deadline has passed (TimeoutError), keeps
       the exception and jumps back to tc_run_guarded.  Out of line and cold: the search
       only tests the node count. */
    static __attribute__((noinline, cold)) void tc_poll(tc_guard* g, int64_t nodes) {
        PyGILState_STATE st;
        int raised;
        int spent_all = g->node_limit && g->spent + nodes >= g->node_limit;
        g->poll_at = nodes + TC_POLL_NODES;
        tc_poll_by_limit(g);
        if (!g->armed)
            return;
        st = PyGILState_Ensure();
        raised = PyErr_CheckSignals() != 0;
        if (!raised && spent_all) {
            PyErr_SetString(PyExc_TimeoutError, "the solve's node budget was spent");
            raised = 1;
        }
        if (!raised && g->deadline > 0 && tc_now() >= g->deadline) {
            PyErr_SetString(PyExc_TimeoutError, "the solve's time budget was spent");
            raised = 1;
        }
        if (raised)
            PyErr_Fetch(&g->type, &g->value, &g->tb);
        PyGILState_Release(st);
        if (raised)
            longjmp(g->jump, 1);
    }

    /* A new deal of a batch: the search's node count starts again from 0, but the
       ``nodes`` of the deal before count toward the next poll, so that a batch of small
       deals is polled as often as one large search (before session 17 each deal started
       a fresh count: a million Goathead deals of 500 nodes were never polled); nothing
       is proved yet of the new deal. */
    static inline void tc_guard_next_deal(tc_guard* g, int64_t nodes) {
        g->bounded = 0;
        g->spent += nodes;
        g->poll_at -= nodes;
        if (g->poll_at <= 0)
            tc_poll(g, 0);      /* (the next poll then TC_POLL_NODES nodes into the deal) */
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
        double deadline
        int64_t node_limit
        int64_t spent
        int bounded
        int lower
        int upper
    ctypedef int (*tc_guarded_fn)(void*) noexcept nogil
    int64_t TC_POLL_NODES
    void tc_guard_init(tc_guard* g) noexcept nogil
    void tc_guard_set_deadline(tc_guard* g, double seconds) noexcept nogil
    void tc_guard_set_node_limit(tc_guard* g, int64_t limit) noexcept nogil
    void tc_guard_next_deal(tc_guard* g, int64_t nodes) noexcept nogil
    int tc_run_guarded(tc_guard* g, tc_guarded_fn fn, void* arg) noexcept nogil
    void tc_poll(tc_guard* g, int64_t nodes) noexcept nogil
    object tc_take_exception(tc_guard* g)


cdef inline void check_interrupt(tc_guard* g, int64_t nodes) noexcept nogil:
    """Poll for a signal once the search has gone ``TC_POLL_NODES`` nodes since the last
    poll (see the module docstring)."""
    if nodes >= g.poll_at:
        tc_poll(g, nodes)



cdef inline void note_bounds(tc_guard* g, int lower, int upper) noexcept nogil:
    """The search has proved ``lower <= value <= upper`` for the value it is working out
    (written by each probe of the kernels' ``mtd_after``)."""
    g.bounded = 1
    g.lower = lower
    g.upper = upper


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
    int n_done              # out: the cards whose value is in values (the first ones)
    int maximise            # the seat to move wants the value high
    int root_lo             # the position's value bounds before any search
    int root_hi
    int value_known         # value is final (the search has gone on to the line)
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
    # positions (see set_batch_positions), or NULL / 0: every deal from the start of a
    # trick, nothing played before it that a rule reads
    const int8_t* trick     # n_deals x trick_len table cards (layout bits) in play order
    int trick_len
    const uint64_t* played  # n_deals: cards of earlier tricks (layout bits)
    const int32_t* suits_led    # n_deals: effective suits led in earlier tricks
    const int16_t* trick_index  # n_deals


cdef inline void init_position_job(position_job_t* job, void* ctx, int card_values) noexcept nogil:
    job.ctx = ctx
    job.card_values = card_values
    job.n_moves = 0
    job.n_done = 0
    job.maximise = 1
    job.root_lo = job.root_hi = 0
    job.value_known = 0
    job.value = 0
    job.n_line = 0


cdef inline object position_result(position_job_t* job, int64_t nodes):
    """``solve_position``'s result from its finished job: ``(value, {bit: value}, [bits
    of the line], nodes)``."""
    cdef int i
    return (job.value, {job.order[i]: job.values[i] for i in range(job.n_moves)},
            [job.line[i] for i in range(job.n_line)], nodes)


cdef inline object position_progress(position_job_t* job, tc_guard* g):
    """What an interrupted ``solve_position`` had proved: ``{"value_bounds": (lo, hi),
    "values": {bit: value}, "cards": [bits]}``, bounds of the position's value and, with
    ``card_values``, the values of the cards finished among all the cards searched (one
    per run of equivalent cards).  A card not finished is worth between its bounds so
    far (the one in progress: the guard's) and the position's static bounds (the others);
    the position is worth the best of its cards for the seat to move."""
    cdef int i, k = 0, lo, hi
    cdef int los[66]
    cdef int his[66]
    values = {}
    for i in range(job.n_done):
        values[job.order[i]] = job.values[i]
    if job.value_known:
        lo = hi = job.value
    elif not job.card_values:
        lo, hi = (g.lower, g.upper) if g.bounded else (job.root_lo, job.root_hi)
    else:
        # every card's interval: finished ones exact, the one in progress the guard's,
        # the rest the position's static bounds; the value is their max (or min)
        for i in range(job.n_done):
            los[k] = his[k] = job.values[i]
            k += 1
        if job.n_done < job.n_moves:
            los[k], his[k] = (g.lower, g.upper) if g.bounded else (job.root_lo, job.root_hi)
            k += 1
        if job.n_done + 1 < job.n_moves:
            los[k], his[k] = job.root_lo, job.root_hi
            k += 1
        lo, hi = (los[0], his[0]) if k else (job.root_lo, job.root_hi)
        for i in range(1, k):
            if job.maximise:
                lo, hi = max(lo, los[i]), max(hi, his[i])
            else:
                lo, hi = min(lo, los[i]), min(hi, his[i])
        lo, hi = max(lo, job.root_lo), min(hi, job.root_hi)
    return {"value_bounds": (lo, hi), "values": values,
            "cards": [job.order[i] for i in range(job.n_moves)]}


cdef inline void set_budgets(tc_guard* g, double time_budget, int64_t node_budget) noexcept nogil:
    """The search stops after ``time_budget`` seconds and ``node_budget`` nodes (0: none)."""
    tc_guard_set_deadline(g, time_budget)
    tc_guard_set_node_limit(g, node_budget)


cdef inline int run_position(position_job_t* job, tc_guard* g, tc_guarded_fn fn,
                             double time_budget, int64_t node_budget) except -1:
    """:func:`run_guarded` for ``solve_position``, within the budgets (:func:`set_budgets`):
    the exception of an interrupted search carries ``solve_progress``
    (:func:`position_progress`)."""
    set_budgets(g, time_budget, node_budget)
    try:
        run_guarded(g, fn, job)
    except BaseException as exc:
        exc.solve_progress = position_progress(job, g)
        raise
    return 0


cdef inline int run_batch(batch_job_t* job, tc_guard* g, tc_guarded_fn fn,
                          double time_budget, int64_t node_budget) except -1:
    """:func:`run_guarded` for ``solve_batch``, within the budgets (:func:`set_budgets`,
    over all the deals): the exception of an interrupted search carries
    ``solve_progress``, ``{"deal": d, "value_bounds": (lo, hi)}`` for the deal in progress
    (``job.done``; bounds None where none were proved yet)."""
    set_budgets(g, time_budget, node_budget)
    try:
        run_guarded(g, fn, job)
    except BaseException as exc:
        exc.solve_progress = {"deal": job.done,
                              "value_bounds": (g.lower, g.upper) if g.bounded else None}
        raise
    return 0


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
    job.trick = NULL
    job.trick_len = 0
    job.played = NULL
    job.suits_led = NULL
    job.trick_index = NULL


cdef inline int set_batch_positions(batch_job_t* job, const int8_t[:, ::1] trick, const uint64_t[::1] played,
                                    const int32_t[::1] suits_led, const int16_t[::1] trick_index) except -1:
    """``solve_batch``'s positions: each deal's hands hold the table cards ``trick[d]``
    (played in order by the deal's leader and the seats after it, and replayed by the
    search before it starts), ``played[d]`` the cards of earlier tricks, ``suits_led[d]``
    and ``trick_index[d]`` the rule state.  All four or none (``None``: from the start of a
    trick with no rule state, the trick index from the leader's hand size)."""
    cdef Py_ssize_t n = job.n_deals
    if trick is None and played is None and suits_led is None and trick_index is None:
        return 0
    if (trick is None or played is None or suits_led is None or trick_index is None
            or trick.shape[0] != n or played.shape[0] != n or suits_led.shape[0] != n
            or trick_index.shape[0] != n):
        raise ValueError("positions need trick, played, suits_led and trick_index, one row per deal")
    job.trick_len = <int>trick.shape[1]
    job.trick = &trick[0, 0] if job.trick_len else NULL
    job.played = &played[0]
    job.suits_led = &suits_led[0]
    job.trick_index = &trick_index[0]
    return 0
