/* A second exact solver, independent of trickcore's kernels: the
 * "quick C probe" of issue #3 rebuilt as the issue describes it, alpha-beta with a
 * trick-boundary table and no other technique (no move ordering, no bounds, no
 * equivalent cards, no quasi-symmetry, no twins).  tests/probe_solver.py compiles it with
 * the system's C compiler; tests/test_solver_probe.py checks both kernels against it on
 * whole deals and long endings, which the Python brute force is too slow for, and
 * benches/bench_goal_probe.py times both on the goal rows' deals.
 *
 * A layout is generic: cards are bits 0..n_cards-1 grouped into contiguous effective
 * suits ordered by trick-taking rank (low bit = low card), the trump suit (if any) being
 * the highest range, so a trick's winner is its highest card of the led suit or of trump
 * (trickcore.layout's convention).  Every seat must follow the led suit when it can and
 * may play anything otherwise (the loader refuses layouts with any other rule).  The value
 * is the card points of the tricks the side (a seat mask) takes, plus the last-trick bonus
 * when it takes the last trick, or with count_tricks the number of those tricks; the side
 * maximises it and the other seats minimise it, or the other way round with goal_min (a
 * lone seat wanting few points or tricks).
 *
 * The search: fail-soft alpha-beta over single cards, played in bit order (the lowest
 * card first, or the highest with ``high_first``), over the whole value range at the
 * root.  At a trick boundary a table of 2^20 entries (one way, always replaced) keyed by
 * every seat's remaining hand and the leader stores a lower and an upper bound of the
 * remaining play's value; an entry carries its deal's number and matches only positions of
 * that deal, so the table needs no clearing between deals.
 */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#define MAX_SEATS 5
#define TT_BITS 20

typedef struct {
    uint64_t hands[MAX_SEATS];
    int32_t deal;
    int16_t lo, hi;
    int8_t leader;
} entry_t;

typedef struct {
    int n, n_cards, bonus, high_first, side, goal_min, count_tricks;
    uint64_t suit_mask[64];     /* per card: the mask of its effective suit */
    uint64_t trump_mask;
    int points[64];
    uint64_t hands[MAX_SEATS];
    int table_card[MAX_SEATS], table_seat[MAX_SEATS], tn, leader, turn, tricks_left;
    int32_t deal;
    entry_t *tt;
    int64_t nodes;
} probe_t;

static inline int highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }

static inline uint64_t mix(const probe_t *p, int leader) {
    uint64_t h = 0x9E3779B97F4A7C15ULL * (uint64_t)(leader + 1);
    for (int s = 0; s < p->n; s++) {
        h ^= p->hands[s] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

static int search(probe_t *p, int alpha, int beta);

/* The value of playing card b by the seat to move, then the rest of the play. */
static int play(probe_t *p, int b, int alpha, int beta) {
    int seat = p->turn, v;
    uint64_t bb = 1ULL << b;
    p->hands[seat] &= ~bb;
    p->table_card[p->tn] = b;
    p->table_seat[p->tn] = seat;
    p->tn++;
    if (p->tn < p->n) {
        int saved_turn = p->turn;
        p->turn = (seat + 1) % p->n;
        v = search(p, alpha, beta);
        p->turn = saved_turn;
    } else {
        /* the trick is complete: its winner and its points */
        uint64_t eligible = p->suit_mask[p->table_card[0]] | p->trump_mask;
        int pts = 0, winner_bit = -1, winner = 0;
        for (int i = 0; i < p->n; i++) {
            int c = p->table_card[i];
            pts += p->points[c];
            if (((eligible >> c) & 1) && c > winner_bit) {
                winner_bit = c;
                winner = p->table_seat[i];
            }
        }
        int tv = 0;
        if ((p->side >> winner) & 1)
            tv = p->count_tricks ? 1 : pts + (p->tricks_left == 1 ? p->bonus : 0);
        int saved_leader = p->leader, saved_turn = p->turn;
        int saved_cards[MAX_SEATS], saved_seats[MAX_SEATS];
        memcpy(saved_cards, p->table_card, sizeof saved_cards);   /* the next tricks reuse them */
        memcpy(saved_seats, p->table_seat, sizeof saved_seats);
        p->tn = 0;
        p->leader = p->turn = winner;
        p->tricks_left--;
        v = tv + search(p, alpha - tv, beta - tv);
        p->tricks_left++;
        p->leader = saved_leader;
        p->turn = saved_turn;
        p->tn = p->n;
        memcpy(p->table_card, saved_cards, sizeof saved_cards);
        memcpy(p->table_seat, saved_seats, sizeof saved_seats);
    }
    p->tn--;
    p->hands[seat] |= bb;
    return v;
}

static int search(probe_t *p, int alpha, int beta) {
    p->nodes++;
    entry_t *e = NULL;
    int a0 = alpha, b0 = beta;
    if (p->tn == 0) {
        if (p->tricks_left == 0)
            return 0;
        e = &p->tt[mix(p, p->leader) & ((1u << TT_BITS) - 1)];
        int hit = e->deal == p->deal && e->leader == p->leader;
        for (int s = 0; hit && s < p->n; s++)
            hit = e->hands[s] == p->hands[s];
        if (hit) {
            if (e->lo >= beta) return e->lo;
            if (e->hi <= alpha) return e->hi;
            if (e->lo == e->hi) return e->lo;
            if (e->lo > alpha) alpha = e->lo;
            if (e->hi < beta) beta = e->hi;
        } else {
            e->deal = p->deal;
            e->leader = (int8_t)p->leader;
            memcpy(e->hands, p->hands, sizeof(uint64_t) * p->n);
            e->lo = -32000;
            e->hi = 32000;
        }
    }
    int seat = p->turn, maximise = ((p->side >> seat) & 1) ^ p->goal_min;
    uint64_t moves = p->hands[seat];
    if (p->tn > 0) {
        uint64_t follow = moves & p->suit_mask[p->table_card[0]];
        if (follow) moves = follow;
    }
    int best = maximise ? -32000 : 32000;
    while (moves) {
        int b = p->high_first ? highest_bit(moves) : __builtin_ctzll(moves);
        moves &= ~(1ULL << b);
        int v = play(p, b, alpha, beta);
        if (maximise) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    if (e) {
        /* the entry may have been overwritten by a deeper position with the same index */
        int same = e->deal == p->deal && e->leader == p->leader;
        for (int s = 0; same && s < p->n; s++)
            same = e->hands[s] == p->hands[s];
        if (!same) {
            e->deal = p->deal;
            e->leader = (int8_t)p->leader;
            memcpy(e->hands, p->hands, sizeof(uint64_t) * p->n);
            e->lo = -32000;
            e->hi = 32000;
        }
        if (best <= a0) { if (best < e->hi) e->hi = (int16_t)best; }
        else if (best >= b0) { if (best > e->lo) e->lo = (int16_t)best; }
        else { e->lo = e->hi = (int16_t)best; }
    }
    return best;
}

/* Solve n_deals positions at a trick boundary: hands (n_deals x n, every hand of the
 * same size) in layout bits, leaders, side masks; writes
 * each deal's value and node count, and the seconds the deals took (the table's set-up
 * excluded).  suit_of: the effective suit of each card; trump:
 * the trump suit's index or -1.  Returns 0, or -1 when the table cannot be allocated. */
int probe_solve(int n, int n_cards, const int8_t *suit_of, int trump, const int16_t *points,
                int bonus, int count_tricks, int goal_min, int high_first, int64_t n_deals, const uint64_t *hands,
                const int8_t *leaders, const uint8_t *sides, int16_t *values, int64_t *nodes,
                double *seconds) {
    static probe_t p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.n_cards = n_cards;
    p.bonus = bonus;
    p.high_first = high_first;
    p.goal_min = goal_min != 0;
    p.count_tricks = count_tricks != 0;
    for (int b = 0; b < n_cards; b++) {
        p.points[b] = points[b];
        for (int b2 = 0; b2 < n_cards; b2++)
            if (suit_of[b2] == suit_of[b])
                p.suit_mask[b] |= 1ULL << b2;
        if (suit_of[b] == trump)
            p.trump_mask |= 1ULL << b;
    }
    p.tt = calloc((size_t)1 << TT_BITS, sizeof(entry_t));
    if (!p.tt) return -1;
    for (int64_t d = 0; d < (int64_t)(1u << TT_BITS); d++)
        p.tt[d].deal = -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int64_t d = 0; d < n_deals; d++) {
        p.deal = (int32_t)d;
        for (int s = 0; s < n; s++)
            p.hands[s] = hands[d * n + s];
        p.tricks_left = __builtin_popcountll(p.hands[0]);
        p.leader = p.turn = leaders[d];
        p.side = sides[d];
        p.tn = 0;
        p.nodes = 0;
        values[d] = (int16_t)search(&p, -32000, 32000);
        nodes[d] = p.nodes;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    free(p.tt);
    return 0;
}
