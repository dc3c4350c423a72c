# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Double-dummy kernel specialised for trick-count objectives ('tricks' and 'nil').

Same entry points, arguments and results as :mod:`trickcore._solve` (``solve_position``,
``solve_batch``); :mod:`trickcore.solver` dispatches here for layouts whose objective is
'tricks' or 'nil' (Spades, Gamut Spades and Clubs, Oh Hell, Goathead Nil).  Card points
never matter to these objectives, so cards are told apart only by rank, holder and the
rule flags of the layout (restricted lead, breaker, first-trick rules, forced cards).

Technique (after Bo Haglund's DDS):

* null-window probes "can the declarer's side reach >= t tricks?" over a fail-soft
  alpha-beta: the first probe bisects the possible trick counts, the next ones test just
  above the new lower bound or at the new upper bound (MTD(f)-like: the fail-soft answer
  is usually the value, so the last probe, the costly one, comes at once: 2% fewer nodes
  than bisecting to the end).  A full bridge-like deal (four seats in two partnerships,
  trumps) starts instead one trick above an estimate from the side's top cards, trumps and
  short suits: a probe above the value is cheap and usually answers the value, leaving one
  probe at it (400 bridge deals of two seeds: 3.8% and 2.4% fewer nodes; two tricks above:
  3.1% and 0.1%, three: 1.7% and 1.3% more; on 100 deals, probing at the true value saved
  8%);
* a transposition table probed at trick boundaries.  Positions are described by *relative
  ranks*: the live cards (hands and table) of each suit from the top down with their
  holders, so that which cards of a suit were played or undealt does not matter.  An entry
  stores a lower and an upper bound on the side's remaining tricks and the **winning
  ranks** of its search: only the top ``k`` live cards of each suit whose holders mattered
  (down to the lowest card that won a trick by rank, or that a quick-trick bound used),
  plus the suit lengths of every hand, the leader and the live rule state.  One entry so
  matches every position that agrees on those cards, whoever holds the small cards.  The
  table hashes the exact part (lengths, leader, rule state) to a *head* listing its
  entries; entries that pin the top card of every suit are listed under those holders too
  (two short lists per probe instead of one long one; a third level, by the top two cards,
  cost 1% more instructions and nodes on full deals; the head of the exact part counts the
  entries listed under top holders, and a probe looks for those lists only under a
  count).  The holders' sequence
  and the lengths are updated card by card and the table reads them from the state in
  place, so a probe neither rebuilds nor copies them.  One table per deal (session
  28): ``solve_batch`` empties the table, the killer cards and the history count before
  each row that is another deal than the row before (more cards moved than a trick
  holds: :func:`another_deal`), and keeps them for the positions of one deal (each legal
  card of the seat to move, as ``solve_after_cards`` asks: six of West's cards on a
  bridge deal, 74,665 nodes together against 189,456 one at a time).  Entries hold for any deal of the layout, but
  another deal's rarely match: they only lengthened the lists a probe walks and the
  memory it touches, and another deal's killer cards misled the lead's order.  Bridge
  deals (``bench_solver_dds.py``'s 500): nodes 236,807 -> 232,707 a deal, CPU time
  -10% (200 deals, four interleaved calls of each build: 18.97 -> 17.10 ms median);
  ``bench_solver_dds.py``'s ratio to DDS 1.09-1.10 -> 1.00 on the same day; the other
  trick layouts (``benches/bench_ab.py``) Gamut -3%, Oh Hell hearts -3.6%, Goathead Nil
  and Oh Hell notrump alike; ``bench_bids.py`` (300 deals of seed 7) Spades' team
  tricks -1.7% nodes, Oh Hell's fewest tricks at 10 cards -2.2% and -8.4%, at 8 cards
  +0.7% and +1.0%.  A deal's node count no
  longer depends on the other deals of the batch (as long as the rows before it are
  other deals by that test).  Emptying costs no pass over the
  heads: a head carries the generation it was made in (:func:`occupied`), and a clear
  starts a new one.  Within a deal the table is still emptied before a position once it
  is half full: a full table is cleared whole, and a clear in the middle of a hard
  search throws away that search's own work (on full bridge deals this alone saved 8%
  of the nodes, when the table was shared across deals).  From five tricks left the
  table is probed
  before the bounds, as DDS does (a hit spares the bounds' work: on full bridge deals 7%
  fewer instructions for 2% more nodes, the winning ranks of a table answer being less
  precise than a bound's; from two tricks: 8% more nodes, from four 4%);
* quick tricks (the leader's cashable top cards, and the long cards once these have drawn
  the other seats' cards, capped by the lengths of the seats that could ruff, or a small
  card led to the partner's winners), sure trump tricks and decided
  tricks mid-trick (the winning card safe, or DDS's quick trick of the second hand for any
  seat: a team's seats still to play hold the best card left of the led suit or can ruff,
  and no seat of the other team still to play can ruff; 9% fewer nodes on full bridge
  deals) cut the search, and contribute the cards they rely on to the winning
  ranks.  Sure trump tricks count, for each seat, its trumps above all of the other team's
  trumps but the ``j`` highest, less ``j`` (DDS's "later tricks" in a general form: a
  trick holding a trump is won by a trump, the seat's trumps fall in different tricks and
  each higher trump beats at most one of them).  Unlike the leader's quick tricks this also
  bounds the side that is not on lead: K-Q over the declarer's ace is a sure trick.  The
  leader's side-suit quick tricks and a teammate's sure trump tricks add up (cashing side
  suits leaves every trump in place when the opponents holding trumps follow suit and the
  teammate has other cards to discard).  DDS's guarded king: the second best trump with
  another trump, just after the best trump's holder of the other team and not on lead, is
  a trick for a team that wants tricks (1% fewer nodes on full deals; the kernel found a
  team that does not want tricks, paranoid Spades, needs the restriction).  In a probe the
  bounds that cannot decide it are skipped (a seat with fewer trumps than needed);
* Nil's own bounds at a trick boundary (Goathead Nil, 300 deals, the declarer on lead:
  61% fewer instructions on three-player deals, 40% on four): the declarer surely takes
  no trick when, without a trump, its ``r``-th lowest card of every suit is below the
  other team's ``r``-th lowest (playing its highest card below the led card, it always has
  one: see ``nil_safe``), or, on lead, when it holds a card an opponent must beat and the
  rest passes that test; with an opponent on lead it surely takes one when the leader and
  every other opponent can play below its lowest card of a suit it holds.  These decide
  most deals at the first boundaries: a Nil that stands had cost 630 nodes to prove by
  search.  A paranoid minimum (one seat wanting few tricks against the others) takes the
  first test too, as an upper bound of 0 tricks more (session 15, ``benches/bench_bids.py``,
  nodes of Oh Hell's fewest tricks, 100 deals: 8 cards spades -1.6%, notrump -14.7%, 10
  cards -7.8%, -16.8%; 60 deals of 8-9 cards: notrump -3.6%, hearts +0.6%, spades +2.3%).
  Its other test as a lower bound of 1 cost more than it saved (Spades +15% to +75%
  nodes on three whole deals): it relies on every live card of a suit, which makes the
  table's entries match few positions;
* one card searched per run of equivalent cards (same holder, adjacent among the live
  cards of the suit, same rule flags); when the searched card matters to a result, the
  whole run does (the equivalence must hold wherever the entry is reused);
* DDS's small cards: once a card fails to decide the probe and its result relied on no
  card of its suit at or below it, the lower cards of that suit in the same hand are not
  searched: the positions after them agree with the searched one on the suit lengths and
  on the holders of every card that mattered, so the table's own argument gives them the
  same result (suits of cards told apart by rule flags excepted; 39% fewer nodes on full
  bridge deals);
* move ordering per position.  Leading with four seats in two partnerships that both want
  tricks (bridge, Spades): DDS's lead weights, one graded sum per card: whether the lead
  can win the trick (our or the partner's top card, a partner's ruff, no opponent ruffing
  over it), where the best three cards of the suit lie, the opponents' lengths (few cards
  to play: a small tree), a bonus for the last card that cut off at the same depth (a
  killer move) and a small one for the table's best card (on full bridge deals 60% fewer
  nodes than the ordering below, which put the table's card first); following, DDS's
  weights for the second, third and fourth hand (whether our team can win the trick, win
  cheaply, make the fourth hand spend its best card, do not ruff a partner's sure winner,
  discard from length but not from K-x: 18% fewer nodes).  Other leads: the
  table's best move, then cash winners / lead toward the
  partner's winners / toward a partner's ruff, with DDS's weights for where
  the second and third best cards lie (DDS's weight for short opposing holdings is off:
  with the sure-trick bounds it cost 3% more nodes); other hands following,
  second hand low, win cheaply or with a sure winner, let a partner's safe winner stand,
  discard low from long suits; a history count of cut-offs breaks ties.  A team that
  wants no tricks (Nil, a paranoid minimum, and the others against that seat) leads first
  a card that a seat of the other team must beat (all its cards of the suit higher), then
  low cards (later: those with the most cards of the other team above them: Oh Hell's
  fewest tricks -8% nodes on 100 8-card and 30 10-card deals of one seed, -3.5% to +1% on
  the four rows of ``benches/bench_bids.py``, Goathead Nil -4% to -7%; the same less 8 per
  card of its own team above them +2%) (session 15, nodes: Goathead Nil 3p -7.5%, 4p -8.7%, 300 deals; paranoid
  minimum Oh Hell 8 cards notrump -9.2%, hearts -4.5%, 9 cards spades -2.1%, 60 deals;
  Gamut Clubs -17.5%, Gamut Spades +0.2%, 100 deals).  Following, such a team takes a
  trick it cannot lose (no seat of the other team still to play beats its card) with its
  highest such card, else its lowest card that beats the trick so far, and a card that
  cannot win the trick is its highest (it had played low under a partner's winning
  card): the fewest tricks of Oh Hell (``benches/bench_bids.py``, 100 deals) -16% to
  -25% nodes more, Gamut Clubs and Spades -25% to -34% in all with the leads.  A
  paranoid minimum also orders by the killer card (the last card that cut off with as
  many cards left, after the table's card), which the other plain layouts do not: Oh
  Hell's fewest tricks (``bench_bids.py``) -6% to -16% nodes, 10-card spades on another
  seed -25%; for Nil too, Goathead 3p +4.7%, 4p -0.5%, Spades -3%: not kept there.
  Session 18 tuned these weights on node counts (a coordinate search on Oh Hell's fewest
  tricks, 8 and 9 cards, seed 21; checked on seeds 7 and 2026): a paranoid minimum leads
  the cards with the most of the other team's cards above them, the higher of equals
  first, a card the other team must beat only just ahead (8, not 3000), a trump after
  the plain cards; every team that wants no tricks takes a trick it cannot lose further
  behind its other cards (-6000, not -3000).  Nodes: Oh Hell's fewest tricks at 9 cards
  -14% to -22%, 10 cards -25% and -36%, 7 cards -6%; Gamut Clubs' minimum -5%, -21%; Nil
  (only the second rule: the first cost Spades' Nil +140% on small counts) Goathead 3p
  -1%, 4p -3% and +0.3%, Spades -16% and -5%; the trick games' contracts unchanged;
* cost per node (~840 instructions on full bridge deals, from ~1,120): a card that does
  not complete the trick is made and taken back in place, in the search loop itself (only
  the trick-completing card saves and restores the state, in a function of its own); bit
  counts by the POPCNT instruction, suit lengths by a bit count, tricks left from a table
  (no division); mid-trick the bounds are called only where one trick can decide the
  probe; the second hand's weights read the trick once per position; a lone card to play
  gets no weights (callgrind, first 10 bridge deals, each step at equal nodes: 2.769 G ->
  2.697 G, 2.511 G -> 2.421 G, 2.421 G -> 2.321 G; in a later build, 2.77 M nodes: 2.640 G
  -> 2.583 G (the move in the loop; gcc did not inline play_search, which recurses through
  ``ab``) -> 2.545 G (lone card) -> 2.522 G (the key read in place) -> 2.514 G (suit and
  class of a card in one byte; no history count kept for DDS's orders, which do not read
  it) instructions).  A later session, from 2.460 G in its build, same 2.77 M nodes: a
  lone legal card skips ``representatives`` and the ordering call (2.441 G); the settings
  of earlier experiments compiled in, those tests vary read once into the context (2.400
  G); table entries keep the masks of their top cards, not the counts (2.378 G: 72 bytes
  an entry instead of 48); ``play_last_card`` saves the trick and rule part of the state
  in one copy (2.373 G); ``tt_store`` compares with masks worked out once (2.364 G); a
  match leaves at the first suit that differs (2.346 G); the test of stopped play only at
  trick boundaries (2.332 G); the level 0 head counts the entries of level 1 under its
  lengths and a probe looks for a head of level 1 only under a count (2.313 G: three
  probes in four found none; 200 deals 46,404,071 -> 46,409,997 nodes, the extra level 0
  heads moving the clears); the top cards' holders of level 1 read only then (2.300 G);
  ``top_cards`` drops the lowest bits when that is fewer steps (2.277 G); the ordering's
  insertion stops at a sentinel weight instead of testing its index (2.261 G; simulated
  mispredicted branches 41.40 M -> 40.71 M).  Simulated L1 data misses went the other way
  over these steps (``--cache-sim=yes``, from the 2.400 G build: reads 5.56 M -> 7.48 M,
  writes 1.25 M -> 1.58 M; the larger entries and the extra heads are the likely cause,
  not measured apart); CPU times on the shared machine could not tell the builds apart.
  Per trick the search is close to DDS's: 200 bridge deals, 76 k completed tricks per deal
  (DDS's own count, ``futureTricks.nodes``, 69 k; 75.4 k positions at a trick boundary by
  ``_counters``), so most of the time gap is the cost per node.  DDS itself under callgrind (``SolveBoardInternal``, the same first 10 deals, 76 k
  tricks per deal there against our 89 k positions at a trick boundary): 1.850 G
  instructions, 8.44 M L1 read misses, 22.7 M + 5.9 M mispredicted branches (ours 2.261 G,
  7.41 M, 40.7 M);
* memory of the table (a later session): the heads and the pool start at a huge page
  boundary and are advised to huge pages (``madvise``; with 4 KB pages the 185 MB of a
  bridge table missed the TLB on nearly every probe, which callgrind does not see: CPU time
  of 200 bridge deals, five interleaved runs, mean 5.97 s -> 5.73 s, min 5.54 s -> 5.41 s);
  an entry that decides a probe moves to the front of its list (hits were found after 6.2
  entries of a list of level 0 on average, 5.6 of level 1; 200 deals 46,409,997 ->
  46,215,918 nodes; first 10 deals 2.261 G -> 2.253 G instructions, simulated L1 read
  misses 7.41 M -> 5.66 M, write misses 1.57 M -> 1.30 M, mispredicted branches 40.71 M ->
  40.27 M).  ``representatives`` without a loop where no rule tells a suit's cards apart
  (the chains of moves linked through dead cards by a carry upward and a fill downward:
  2.253 G -> 2.236 G instructions, mispredicted branches 40.27 M -> 36.93 M, same nodes);
  the lists' links in an array of their own, 8 bytes an entry with a filter of the holders
  of the top two cards of each suit that the entry needs (a level 0 list's walk opened an
  entry for 21% of the links, level 1 for 38%, against 13% and 13% that matched):
  2.236 G -> 2.296 G instructions (``tt_probe`` no longer inlined), but L1 read misses
  5.69 M -> 3.08 M, write misses 1.31 M -> 0.94 M, mispredicted branches 36.93 M -> 35.88 M,
  and CPU time of 200 deals, five interleaved runs on a loaded machine, mean 6.68 s ->
  6.12 s, min 6.39 s -> 5.65 s; then each list's links side by side in an arena (newest
  last, a full list moved to twice its room at the arena's end, 4 links per pool entry;
  the move to the front a shift of the links after the hit): same nodes, 2.296 G -> 2.290 G
  instructions, L1 read misses 3.08 M -> 2.19 M, CPU time mean 6.70 s -> 6.48 s (five
  interleaved runs, load 4.5); entries of 40 bytes instead of 72: the mask of a suit's
  needed holders is bit 8 of each needed nibble of its word (seats fit 3 bits; see
  ``needs``), so a 72-byte entry no longer spans two cache lines every time: same nodes,
  2.290 G -> 2.323 G instructions, but L1 read misses 2.19 M -> 1.81 M, write misses
  0.83 M -> 0.64 M, LL write misses 331 k -> 212 k, the bridge pool 151 MB -> 84 MB; CPU
  time, nine interleaved pairs in two batches: mean 5.60 s -> 5.48 s and 5.13 s -> 4.80 s.
  (A filter of the top four holders, 16-byte links: 2.285 G, L1 read misses 2.22 M, no
  better: dropped.)  These steps together, ``bench_solver_dds.py`` (500 deals) on a quiet
  machine, two interleaved pairs: ours 27.4 and 26.9 ms/deal -> 23.1 and 22.7 ms/deal,
  DDS 22.8 to 26.1 ms/deal in the same runs, ratio 1.20 and 1.11 -> 0.97 and 0.87;
  and (session 29) a table kept from one call to the next (:func:`_take_table`), emptied
  by a new generation: fresh memory is zeroed by the OS page by page as the search first
  writes it (``clear_page_erms`` 3.4% of a ``solve`` per bridge deal under ``perf``).
  Every card's value by ``solve`` per deal, 60 deals, six interleaved passes: 30.98 ->
  28.73 ms fastest, paired ratio 0.87-0.94; ``bench_solver_dds.py --every-card`` 1.07x ->
  1.01x DDS; ``bench_rounds.py --policy pimc`` 0.970, the same cards;
* ``_layout``'s ``highest_bit`` as ``63 ^ clz`` (one BSR, as the point kernel had it on its
  own): same nodes and values, first 10 deals 2.323 G -> 2.293 G instructions;

Tried and dropped (bridge deals; nodes on 200 deals, instructions on the first 10):
killer cards for the following hands (DDS's weights plus a bonus for the last card that cut
off at the same depth: +3% nodes at bonus 3, +35% at 10); the table only from three tricks
left (+3.3% nodes, +2.5% instructions); picking the best card lazily in the search loop
instead of sorting (most positions cut off at the first card, but the all-nodes pay a scan
per card: +1.7% instructions); entry lists in chunks of four contiguous entries instead of
one link per entry (same nodes but for clears, +1.2% instructions, 19% fewer simulated L1
read misses in ``ab``, wall times indistinguishable on the shared machine); the
trick-completing card written out in the loop too (gcc then inlines it: +2.4%
instructions) or saving the whole state for it (+0.4%); representatives suit by suit
(+1.4%); a 16-bit test of the top cards' holders before an entry's full match (-0.3%, an
unpredictable branch more: not kept); larger bonuses for the table's card or the killer
card at the lead (+0.6% / +0.9% nodes).  Later (instructions on the first 10 deals, same
nodes): ``representatives`` without a branch per card (the next live card's test as a
mask, a table of the cards of the same suit and class per card): +1.8% instructions for
4% fewer simulated mispredicted branches (``--branch-sim=yes``), not kept without a
quiet machine to time it; the ordering's weight and card in one int key (one array to
shift, as in ``_solve``), decoded in a pass at the end: +0.4%; ``tt_store``'s search for
the same entry without branches (all four suits at once): +0.9% (most entries differ at
the first suit); the layout pointer and "this card completes the trick" held in locals
across ``ab``'s loop: +0.6% (register pressure in the loop); the key made after the
bounds below five tricks left (bounds decide many of those positions): -0.06%, for a
prefetch of the head that no longer overlaps the bounds; ``side_trumps`` over the side's
seats only (two of four): +0.05%; a table match that leaves at the second suit too:
-0.6% instructions for 2.5% more simulated mispredicted branches (41.40 M -> 42.44 M);
``-fno-wrapv`` after Python's ``-fwrapv``: +0.6%.  Later still, with the lists' filtered
link arrays and 40-byte entries (2.323 G on the first 10 deals): the table before the
bounds from four tricks left (2.259 G instructions for 1.7% more nodes there, 2% more on
200 deals; from three: 2.339 G, +6.5% nodes; from six and eight: 2.359 G and 2.476 G for
1.2% and 2.2% fewer nodes): not kept without a quiet machine to time it; the position's
filter word worked out only once a head is found (-0.01%); prefetching the entries of
the first four links that pass the filter before the walk (+5.5% instructions, the extra
scan of long lists; CPU time within noise).  Table sizes on 200 bridge deals: sharing the
table across deals hardly matters (heads 2^17 and pool 2^19, 12 clears: 0.06% more nodes
than 2^19 / 2^21 and 3 clears; 2^16 / 2^18 clears inside hard deals: +8%); the heads,
not the pool, fill first (half the heads used at a clear, 43-49% of the pool).
Session 28 (CPU time of interleaved calls on bridge deals, a build of each): the head of
level 1 prefetched beside level 0's at every boundary (perf put a third of ``tt_probe``'s
samples on the loads of the two heads): paired ratio 1.01 (median of 30 calls of 40
deals); heads 2^17 with the pool at 2^21 (a quarter of the heads' memory): 0.996 (six
calls of 200 deals); at a lead, the table's card searched before the others are weighed
(a cut-off then spares DDS's lead weights): nodes +0.55%, paired ratio 0.993.  All
dropped.

Test and bench hooks: ``_set_search_options`` (table / bounds / small-card pruning off:
values must not move), ``_last_stats`` (node counts), ``_counters`` and ``_cutstats``
(cut-off counts and which move cut off, in a build with ``STATS = 1``), ``_tune`` (the
following hands' and the lead's orders, first probe, where the table comes before the
bounds; the other settings of earlier experiments are compiled in, and ``_tune`` accepts
only their values).

Soundness of the winning ranks: a trick whose winning card beat another card of its suit
depends on the holders of every live card of that suit ranked at or above it; a trick won
by the only card of its suit (a ruff or a discard) depends only on suit lengths, which are
part of the key.  A bound proved in one position therefore holds in every position whose
suit lengths, rule state and holders of the recorded top cards agree.

All masks are layout bits (see ``_layout.pxd``).  Everything below the ``def`` functions is
``noexcept nogil``; the Python layer validates every input before calling in.
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t, uint16_t
from libc.string cimport memset, memcpy

from trickcore._layout cimport (layout_t, CoreLayout, legal_moves, lowest_bit, highest_bit, insert_move, popcount,
                                ducks_every_suit, OBJECTIVE_TRICKS, OBJECTIVE_NIL)
from trickcore._interrupt cimport (tc_guard, tc_guard_init, tc_guard_next_deal, run_position,
                                   run_batch, note_bounds, check_interrupt, position_job_t,
                                   batch_job_t, init_position_job, position_result,
                                   init_batch_job, set_batch_positions)

cnp.import_array()

cdef extern from *:
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    #define TRICKCORE_FNEED 0x8888888888888888ULL
    #define TRICKCORE_LOW56 0x00FFFFFFFFFFFFFFULL
    """
    const uint64_t FNEED "TRICKCORE_FNEED"     # bit 8 of every nibble (table entries)
    const uint64_t LOW56 "TRICKCORE_LOW56"     # a head's tag without its generation

cdef enum:
    STATS = 0            # 1: instrumented build (cut-off statistics in _cutstats)
    INF = 30000
    MAXS = 4             # effective suits at most
    LENW = 2             # words of 4-bit suit lengths: 8 seats x MAXS suits at most
    LINKS = 4            # links of the table's lists per pool entry (a list's room doubles)


ctypedef struct state_t:
    uint64_t hands[8]
    uint64_t live           # union of the hands
    uint64_t own[MAXS]      # holders of the cards in hands per suit, top first, 4 bits each
    uint64_t lens[LENW]     # suit length of every seat, 4 bits per (seat, suit)
    # from here on the state of the trick and of the rules: play_last_card saves and puts
    # back these TAIL bytes in one copy (keep them together and at the end)
    uint64_t table          # cards on the table (current trick)
    uint64_t played         # cards played this round, current trick included
    int8_t tbits[8]         # table cards in play order
    int tn                  # number of cards on the table
    int wpos                # position (0 = leader) of the card winning the trick so far
    int leader
    int led                 # effective suit led to the current trick, -1 when leading
    int suits_led           # effective suits led in earlier tricks (bit mask)
    int trick_index
    int done                # 1: play has stopped (Nil: the declarer's side took a trick)
    int last_winner         # seat that won the last completed trick (-1: none yet)
    int rank_win            # layout bit of that trick's winner if it beat a card of its suit, else -1


cdef enum:
    TAIL = 8 + 8 + 8 + 9 * 4    # state_t from table to rank_win (checked below)


cdef state_t _tail_check
if (<char*>&_tail_check.rank_win) + sizeof(int) - (<char*>&_tail_check.table) != TAIL:
    raise ImportError("state_t: TAIL does not span table .. rank_win")


# The key of a position at a trick boundary (computed once per probe), besides the state's
# own suit lengths (lens) and holders' sequences (own), which the table reads in place.
ctypedef struct pkey_t:
    uint64_t meta           # leader | side | rule state
    uint64_t absmask        # live cards of suits whose cards are not interchangeable by rank
    uint64_t h              # hash of lens, meta, absmask
    uint64_t gen            # the table's generation in the top 8 bits (see ``tt_clear``;
                            # tt_store takes it anew: the search may have emptied the table)


# The table: a hash table of *heads* (suit lengths of every seat, meta, absmask: what must
# be equal), each heading a list of entries (holders of the top cards that must agree, and
# the bounds) allocated from a pool.  When the pool or the heads fill up, all is cleared.
ctypedef struct head_t:
    uint64_t tag            # hash | 1 (0: empty slot)
    uint64_t lens[LENW]
    uint64_t meta
    uint64_t absmask
    uint64_t sub            # level and holders of the top cards of each suit (see sub_key)
    int32_t first           # the list's links: links[first .. first + count), newest last
    int32_t count
    int32_t n_sub           # level 0: entries stored under the heads of level 1 with these lengths
    int32_t cap             # room for links at ``first``


ctypedef struct entry_t:
    uint64_t w[MAXS]        # the holders of the top k cards of each suit that must agree,
                            # 8 | holder a nibble (the mask is read off bit 8, see ``needs``)
    int8_t lo               # lower bound of the side's remaining tricks (value)
    int8_t hi               # upper bound
    int8_t best_su          # best move: suit and place from the top among live cards (-1: none)
    int8_t best_rel


# An entry's link in its list: the lists are arrays of links in an arena beside the pool
# (8 bytes an entry, a list's links side by side; a full list moves to twice the room at
# the arena's end).  The walk of a list reads these and opens an entry only when its
# filter passes.
ctypedef struct link_t:
    uint32_t f              # filter: the holders of the top two cards of each suit that the
                            # entry needs to agree, 8 bits a suit, 8 | holder where needed
    int32_t e               # the entry (pool index)


ctypedef struct ctx_t:
    const layout_t* L
    int n                   # seats
    int nsu                 # effective suits
    int LW                  # words of pkey_t.lens in use
    int objective
    int side                # seat mask of the declarer's side
    int maxmask             # seats that maximise the side's value
    int all_seats
    int8_t cls[64]          # equivalence class per layout bit (rule flags only)
    int8_t suit_cls[64]     # suit * 32 + class per layout bit (one test for both)
    int8_t owner[64]        # seat holding each card of the deal (fixed: cards only leave hands)
    int8_t seat_at[24]      # i % n for i < 3n: seat arithmetic without a division
    int8_t tricks_of[72]    # i // n: tricks left with i cards in hands and on the table
    uint64_t nonuni         # cards of suits with cards of different classes
    uint64_t suited         # cards of every suit
    uint64_t suit_tops      # the highest card of every suit
    uint64_t suit_lows      # the lowest card of every suit
    int suit_top[MAXS]
    int suit_low[MAXS]
    head_t* heads
    uint64_t hmask          # number of heads - 1
    int64_t n_heads_used
    entry_t* pool
    link_t* links           # the arena of the lists' links
    int64_t links_size
    int64_t links_used
    int64_t pool_size
    int64_t pool_used
    int64_t nodes
    int32_t hist[8][64]
    int8_t killer[72]       # last card that cut off the search, per number of cards left
    int dds_lead            # 4 seats, partners across, both teams want tricks: DDS's lead weights
    int plain_tn            # bit tn: order_moves_plain orders the move with tn cards on the table
    int note_cuts           # the search loop keeps the history count of cut-offs
    int note_killer         # the search loop keeps the killer card of a lead
    int static_order        # order moves by the position alone (no killer card, no history)
    int lone_min            # 'tricks' for one seat that wants few (paranoid minimum)
    uint64_t gen            # generation of the table's heads, 1..255 (see ``tt_clear``)
    tc_guard guard          # Ctrl-C: polled at boundaries (trickcore._interrupt)
    state_t s


cdef int USE_TT = 1
cdef int USE_QT = 1
cdef int USE_GUESS = 1
cdef int TT_FIRST = 5           # tricks left from which the table is probed before the bounds
cdef int GUESS_UP = 1
cdef int PRUNE = 1
cdef int LEADMODE = 1
cdef int FOLLOWMODE = 7

# Settings of earlier experiments, compiled in (gcc folds them: the search loop and the
# table probe read no module global for them; ``_tune`` accepts only these values)
cdef enum:
    MTD_MODE = 1
    LEADW = 3
    OPPABOVE = 0
    RELCO = -1
    HINT_ALL = 1
    LIST_CAP = 1 << 30          # (no cap: the lists' arrays grow)
    LEVELS = 2                  # entry lists per head: by the holders of the top 0, 1 cards
    KILLER = 0
    SUITW = 0
    DISC = 3
    HIST = 1
    KBONUS = 1
    HBONUS = 1
cdef int64_t C_BND = 0, C_BCUT = 0, C_TTCUT = 0, C_MID = 0, C_MIDCUT = 0


# cut-off statistics of an instrumented build (STATS = 1), for benches: CS[hint][cards on the
# table][index of the move that cut off, 5: later, 6: no cut-off]; WASTE[cards on the table]
# [tricks left at a lead, else 0]: nodes spent on the moves tried before the cut-off one
# ([13]: on the cut-off move itself)
cdef int64_t CS[2][8][7]
cdef int64_t WASTE[8][14]
cdef int64_t PROBE[2][16]
memset(PROBE, 0, sizeof(PROBE))
memset(CS, 0, sizeof(CS))
memset(WASTE, 0, sizeof(WASTE))


def _cutstats():
    """Cut-off statistics since the last ``_tune`` call (zero unless STATS is set)."""
    return ([[[CS[h][t][i] for i in range(7)] for t in range(8)] for h in range(2)],
            [[WASTE[t][k] for k in range(14)] for t in range(8)], [[PROBE[i][k] for k in range(16)] for i in range(2)])


def _counters():
    """Node and cut-off counts since the last ``_tune`` call (zero unless STATS is set)."""
    return dict(boundary=C_BND, bound_cuts=C_BCUT, tt_cuts=C_TTCUT, mid=C_MID, mid_cuts=C_MIDCUT)


def _tune(int killer=0, int suitw=0, int disc=3, int hist=1, int levels=2, int cap=1 << 30, int mode=1, int hint_all=1, int leadw=3, int oppabove=0, int relco=-1, int prune=1, int leadmode=1, int kbonus=1, int hbonus=1, int followmode=7, int guess=1, int guess_up=1, int tt_first=5):
    memset(CS, 0, sizeof(CS))
    memset(WASTE, 0, sizeof(WASTE))
    memset(PROBE, 0, sizeof(PROBE))
    global USE_GUESS, GUESS_UP, TT_FIRST
    TT_FIRST = tt_first
    USE_GUESS = guess
    GUESS_UP = guess_up
    global FOLLOWMODE, LEADMODE, PRUNE, C_BND, C_BCUT, C_TTCUT, C_MID, C_MIDCUT
    C_BND = C_BCUT = C_TTCUT = C_MID = C_MIDCUT = 0
    for name, value, fixed in (("killer", killer, KILLER), ("suitw", suitw, SUITW), ("disc", disc, DISC),
                               ("hist", hist, HIST), ("levels", levels, LEVELS), ("cap", cap, LIST_CAP),
                               ("mode", mode, MTD_MODE), ("hint_all", hint_all, HINT_ALL),
                               ("leadw", leadw, LEADW), ("oppabove", oppabove, OPPABOVE),
                               ("relco", relco, RELCO), ("kbonus", kbonus, KBONUS), ("hbonus", hbonus, HBONUS)):
        if value != fixed:
            raise ValueError(f"{name}={value}: compiled in as {fixed} (see the enum of settings)")
    PRUNE = prune
    LEADMODE = leadmode
    FOLLOWMODE = followmode
# statistics of the last call (for benches): nodes of the value search, nodes of the line,
# table clears, longest entry list scanned
cdef int64_t ST_VALUE = 0, ST_LINE = 0, ST_CLEARS = 0, ST_LONGEST = 0


def _last_stats():
    """Statistics of the last solve_position/solve_batch call (summed over its deals):
    ``{'value_nodes', 'line_nodes', 'table_clears', 'longest_list'}``."""
    return {"value_nodes": ST_VALUE, "line_nodes": ST_LINE, "table_clears": ST_CLEARS,
            "longest_list": ST_LONGEST}


def _set_search_options(bint tt=True, bounds=True, bint prune=True):
    """Test hook: switch the transposition table, the quick-trick bounds and the pruning of
    small cards on or off (module globals, not thread-safe).  Must never change a value,
    only node counts."""
    global USE_TT, USE_QT, PRUNE
    USE_TT = tt
    USE_QT = bool(bounds)
    PRUNE = prune


# --------------------------------------------------------------------------------------
# small helpers

cdef inline int popcnt(uint64_t x) noexcept nogil:
    """Bit count: one instruction where the build targets it (setup.py adds -mpopcnt on
    x86-64; the bit-twiddling count this replaced cost 2% of the instructions)."""
    return popcount(x)


cdef inline uint64_t bit(int b) noexcept nogil:
    return (<uint64_t>1) << b


cdef inline uint64_t above(int b) noexcept nogil:
    """Bits strictly above ``b`` (0 <= b <= 63; no branch: ~1 shifted)."""
    return (~(<uint64_t>1)) << b


cdef inline uint64_t all_hands(ctx_t* c) noexcept nogil:
    return c.s.live


cdef inline int in_side(ctx_t* c, int seat) noexcept nogil:
    return (c.side >> seat) & 1


cdef inline int tricks_left(ctx_t* c) noexcept nogil:
    return c.tricks_of[popcnt(all_hands(c)) + c.s.tn]


cdef inline int seat_len(ctx_t* c, int seat, int su) noexcept nogil:
    """Cards of suit ``su`` in ``seat``'s hand (a bit count: cheaper than reading the
    state's length words)."""
    return popcnt(c.s.hands[seat] & c.L.suit_mask[su])


cdef inline uint64_t top_cards(uint64_t m, int k) noexcept nogil:
    """The ``k`` highest bits of ``m`` (the lowest ``popcnt(m) - k`` dropped one by one, or
    the highest ``k`` taken one by one, whichever is fewer steps)."""
    cdef uint64_t out = 0
    cdef int b, drop = popcnt(m) - k
    if drop <= 0:
        return m
    if drop <= k:
        while drop:
            m &= m - 1
            drop -= 1
        return m
    while k > 0:
        b = highest_bit(m)
        out |= bit(b)
        m &= ~bit(b)
        k -= 1
    return out


# --------------------------------------------------------------------------------------
# bounds (each with the cards it relies on, for the winning ranks)

cdef inline void value_bounds(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi,
                              int beta) noexcept nogil:
    """Smallest and largest value the remaining play can still give the side; ``rlo`` /
    ``rhi``: the cards whose holders each bound relies on (besides lengths).  With
    ``beta >= 0`` only the bounds that could still decide the probe ``>= beta`` are
    worked out (a seat's sure trump tricks are not counted when it has too few trumps)."""
    cdef int t = tricks_left(c)
    rlo[0] = 0
    rhi[0] = 0
    lo[0] = 0
    if c.s.done or t == 0:
        hi[0] = 0
        return
    hi[0] = 1 if c.objective == OBJECTIVE_NIL else t
    if c.s.tn > 0:
        if beta <= 1 or beta >= t:      # (beta < 0 included) else one trick cannot decide
            trick_bound(c, lo, hi, rlo, rhi, t)
    elif not USE_QT:
        return
    elif c.objective == OBJECTIVE_NIL:
        nil_bounds(c, lo, hi, rlo, rhi)
    elif t >= 2:
        if c.lone_min and nil_safe(c, rhi):
            hi[0] = 0
            return
        quick_tricks(c, lo, hi, rlo, rhi, t, beta)
        if beta >= 0 and (lo[0] >= beta or hi[0] < beta):
            return          # decided: the trump count would not change the cut
        top_trumps(c, lo, hi, rlo, rhi, t, beta)


cdef void nil_bounds(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """Nil at a trick boundary: :func:`nil_safe` (no trick) and :func:`nil_caught` (a
    trick).  A function of its own, called only for Nil: written into
    :func:`value_bounds`, it made gcc stop inlining ``team_secures`` there (+1% of the
    instructions on bridge deals)."""
    if nil_safe(c, rhi):
        hi[0] = 0
    elif not in_side(c, c.s.leader) and nil_caught(c, rlo):
        lo[0] = 1


cdef inline int nil_caught(ctx_t* c, uint64_t* rlo) noexcept nogil:
    """Nil, at a trick boundary with a seat of the other team on lead: does the declarer's
    side surely take a trick?  Yes when nobody holds a trump (or the suit is trump) and the
    leader holds a suit the side holds, with a card below the side's lowest card of the
    suit, and every other seat of the other team holds a card of the suit below that one
    or none: the leader leads low, the others play low or discard, and the side must
    follow above them all.  ``rlo``: the live cards of that suit."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t live = all_hands(c), mine = 0, lh = s.hands[s.leader], d, sm, h
    cdef int i, su, dmin, ok
    if L.must_play_bit >= 0 or (s.trick_index == 0 and (L.first_trick_forbidden or L.first_lead_bit >= 0)):
        return 0             # (rules that can force other cards than the low ones)
    for i in range(c.n):
        if in_side(c, i):
            mine |= s.hands[i]
    for su in range(c.nsu):
        sm = L.suit_mask[su]
        d = mine & sm
        if not d or not (lh & sm) or (L.lead_restricted & sm):
            continue
        if (live & L.trump_mask) and sm != L.trump_mask:
            continue
        dmin = lowest_bit(d)
        if lowest_bit(lh & sm) > dmin:
            continue
        ok = 1
        for i in range(c.n):
            if i != s.leader and not in_side(c, i):
                h = s.hands[i] & sm
                if h and lowest_bit(h) > dmin:
                    ok = 0
                    break
        if ok:
            rlo[0] = live & sm
            return 1
    return 0


cdef inline int nil_safe(ctx_t* c, uint64_t* rhi) noexcept nogil:
    """Nil, at a trick boundary: can the declarer surely take no trick?  With a seat of the
    other team on lead, yes when it holds no trump and in every suit its ``r``-th lowest
    card is below the other team's ``r``-th lowest (as far as both have cards).  The suit
    is only ever led by the others (the declarer never wins a trick to lead); the declarer
    plays its highest card below the led card and, when void, discards the highest card of
    a suit (no trump: a discard never wins).  The condition says it has such a card, and
    it still holds after the trick: the cards the others play or discard only raise their
    ``r``-th lowest, and taking out the led card (their ``j``-th lowest) and the declarer's
    card (its ``i``-th lowest, ``i >= j`` but when it was its highest) shifts both
    sequences alike from ``j`` on.  Its lowest card instead would lose: 2 and 4 against a
    5 then a 3.  ``rhi``: every live card of the suits the declarer holds (their holders are
    what the bound reads).  (An opponent's own ``r``-th lowest does not bound the ``r``-th
    lead: an opponent who led its high cards first leads its lowest one later.)

    With the declarer on lead, yes when it holds a card that an opponent must beat (all
    the opponent's cards of its suit are higher) and the rest of its hand passes the
    test above: after the trick an opponent leads, and the cards the others played only
    help."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t live = all_hands(c), mine, theirs, m, h, used = 0
    cdef int j, su, x, ok = 0, seat
    if L.first_trick_forbidden or L.must_play_bit >= 0 or popcnt(<uint64_t>c.side) != 1:
        return 0             # (two seats of the side would spend two cards in a trick)
    seat = lowest_bit(<uint64_t>c.side)
    mine = s.hands[seat]
    if mine & L.trump_mask:
        return 0
    theirs = live & ~mine
    if s.leader != seat:
        ok = ducks_every_suit(c.L, c.nsu, mine, theirs)
    elif L.first_lead_bit < 0:
        m = mine & ~L.lead_restricted
        while m and not ok:
            x = lowest_bit(m)
            m &= m - 1
            su = L.suit_of_bit[x]
            for j in range(c.n):
                h = s.hands[j] & L.suit_mask[su]
                if j != seat and h and lowest_bit(h) > x:
                    ok = ducks_every_suit(c.L, c.nsu, mine & ~bit(x), theirs)
                    break
    if not ok:
        return 0
    for su in range(c.nsu):
        if mine & L.suit_mask[su]:
            used |= live & L.suit_mask[su]
    rhi[0] = used
    return 1


cdef inline void sure_tricks(ctx_t* c, int seat, int k, uint64_t cards, int t, int* lo, int* hi,
                             uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """``seat``'s team surely takes ``k`` of the ``t`` tricks left (relying on ``cards``):
    a lower bound of the value if that is the declarer's side, else an upper bound."""
    if in_side(c, seat):
        if k > lo[0]:
            lo[0] = k
            rlo[0] = cards
    elif t - k < hi[0]:
        hi[0] = t - k
        rhi[0] = cards


cdef inline int seat_trump_tricks(uint64_t hh, uint64_t opp, uint64_t* cards) noexcept nogil:
    """Sure trump tricks of a seat holding trumps ``hh`` against the other team's ``opp``.
    A trick holding a trump is won by a trump at least as high, so when the seat's ``m``
    highest trumps are each above all of ``opp`` but its ``j`` highest, the seat's team wins
    at least ``m - j`` tricks whatever anyone plays: the seat's cards fall in ``m``
    different tricks and the ``j`` higher trumps beat at most ``j`` of them.  ``cards``:
    the ``m`` trumps (the bound relies on the holders of the trumps down to the lowest)."""
    cdef uint64_t o = opp, cnt_cards
    cdef int j = 0, val, best = 0, thr, pc = popcnt(hh)
    cards[0] = 0
    if not hh:
        return 0
    while pc - j > best:        # else no later j can do better
        if o:
            thr = highest_bit(o)
            cnt_cards = hh & above(thr)
        else:
            cnt_cards = hh
        val = popcnt(cnt_cards) - j
        if val > best:
            best = val
            cards[0] = cnt_cards
        if not o or cnt_cards == hh:
            return best
        o &= ~bit(thr)
        j += 1
    return best


cdef inline uint64_t side_trumps(ctx_t* c) noexcept nogil:
    """The live trumps of the declarer's side."""
    cdef uint64_t side_t = 0
    cdef int seat
    for seat in range(c.n):
        if in_side(c, seat):
            side_t |= c.s.hands[seat]
    return side_t & c.L.trump_mask


cdef inline int needed(ctx_t* c, int seat, int t, int beta) noexcept nogil:
    """Sure tricks of ``seat``'s team that would decide the probe ``>= beta`` (0: any
    count may, without a probe)."""
    if beta < 0:
        return 0
    return beta if in_side(c, seat) else t - beta + 1


cdef inline void top_trumps(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi, int t,
                            int beta) noexcept nogil:
    """Sure trump tricks of every seat (see ``seat_trump_tricks``): a bound for either
    team, whoever leads."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t live, opp, hh, cards, side_t
    cdef int seat, best
    if not L.trump_mask:
        return
    live = all_hands(c) & L.trump_mask
    if not live:
        return
    side_t = side_trumps(c)
    for seat in range(c.n):
        hh = s.hands[seat] & live
        if not hh or popcnt(hh) < needed(c, seat, t, beta):
            continue
        opp = (live & ~side_t) if in_side(c, seat) else side_t
        best = seat_trump_tricks(hh, opp, &cards)
        if best > 0:
            sure_tricks(c, seat, best, cards, t, lo, hi, rlo, rhi)
    kx_behind_ace(c, lo, hi, rlo, rhi, t, live)


cdef inline void kx_behind_ace(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi, int t,
                               uint64_t live) noexcept nogil:
    """DDS's guarded king: at a trick boundary, the seat ``h`` holding the second best
    trump and another one, sitting just after the holder of the best trump (of the other
    team), not on lead, wins a trick for its team.  Until that team wins a trick ``h`` never
    leads, so the ace's holder always plays before ``h``: ``h`` plays the king whenever the
    ace's holder played another card (and wins), and keeps it under the ace (it still has a
    second trump to follow with), after which the king is the best trump.  A choice, not a
    forced trick: only for a team that wants tricks for itself.  Relies on the
    holders of the two best trumps (and ``h``'s trump length, in the key)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int a, k, h, holder_a
    if s.tn != 0 or popcnt(live) < 3:
        return
    if L.must_play_bit >= 0 and (all_hands(c) >> L.must_play_bit) & 1:
        return
    if s.trick_index == 0 and L.first_trick_forbidden:
        return
    a = highest_bit(live)
    k = highest_bit(live & ~bit(a))
    holder_a = c.owner[a]
    h = c.owner[k]
    if h == s.leader or in_side(c, h) == in_side(c, holder_a) or c.seat_at[h + c.n - 1] != holder_a:
        return
    if in_side(c, h) != ((c.maxmask >> h) & 1):
        return          # the king's team does not want tricks for itself: it need not win
    if popcnt(s.hands[h] & live) < 2:
        return
    sure_tricks(c, h, 1, bit(a) | bit(k), t, lo, hi, rlo, rhi)


cdef inline void quick_tricks(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi, int t,
                              int beta) noexcept nogil:
    """At a trick boundary: the tricks the leader can cash from the top, suit after suit.

    The leader's cards above every other live card of a suit win when led unless a seat
    void in it ruffs, and when no other seat holds more cards of the suit than they are,
    so do all of the leader's cards of the suit (DDS's long tricks); the count is capped by
    the suit length of every other seat that holds a trump; cashing a suit never touches another suit of a seat that holds trumps (it
    follows), so the counts add up.  A restricted suit counts only once broken; positions
    with a forced first lead or a live must-play card are skipped."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int leader = s.leader, su, k, o, qt = 0, len_o, p, best_p = 0, i
    cdef int lside = in_side(c, leader)
    cdef uint64_t lh = s.hands[leader], live = all_hands(c), sm, mine, others, run, used = 0
    cdef uint64_t used_p = 0, opp = 0
    cdef int broken, n_ruff = 0, n_oruff = 0, qn = 0, best_pn = 0, need, k_run
    cdef uint64_t tc
    cdef uint64_t used_n = 0, used_pn = 0, live_t, side_t, tcards
    cdef int ruffers[8]         # other seats holding a trump (all, then the opponents)
    cdef int oruffers[8]
    if s.trick_index == 0 and L.first_lead_bit >= 0:
        return
    if L.must_play_bit >= 0 and (live >> L.must_play_bit) & 1:
        return
    if lside != ((c.maxmask >> leader) & 1):
        return          # the leader's team does not want tricks for itself
    broken = (s.played & L.breakers) != 0 or s.trick_index >= L.unlock_trick
    for o in range(c.n):
        if in_side(c, o) != lside:
            opp |= s.hands[o]
        if o != leader and (s.hands[o] & L.trump_mask):
            ruffers[n_ruff] = o
            n_ruff += 1
            if in_side(c, o) != lside:
                oruffers[n_oruff] = o
                n_oruff += 1
    for su in range(c.nsu):
        sm = L.suit_mask[su]
        mine = lh & sm
        if not mine:
            continue
        if (sm & L.lead_restricted) and not broken:
            continue
        others = live & sm & ~lh
        run = mine & above(highest_bit(others)) if others else mine
        if not run:
            continue
        k = k_run = popcnt(run)
        if run != mine:
            # once the top cards have drawn every other seat's cards, the rest win too
            for o in range(c.n):
                if o != leader and seat_len(c, o, su) > k:
                    break
            else:
                k = popcnt(mine)
        if sm != L.trump_mask:
            for i in range(n_ruff):
                len_o = seat_len(c, ruffers[i], su)
                if len_o < k:
                    k = len_o
        if k > 0:
            tc = run if k >= k_run else top_cards(run, k)
            qt += k
            used |= tc
            if sm != L.trump_mask:
                qn += k
                used_n |= tc
    # or: lead a small card to a partner's winners, which the partner then cashes
    for su in range(c.nsu):
        sm = L.suit_mask[su]
        if not (lh & sm) or ((sm & L.lead_restricted) and not broken):
            continue
        p = c.owner[highest_bit(live & sm)]
        if p == leader or in_side(c, p) != lside:
            continue
        run = s.hands[p] & sm
        if opp & sm:
            run &= above(highest_bit(opp & sm))
        k = k_run = popcnt(run)
        if sm != L.trump_mask:
            for i in range(n_oruff):
                len_o = seat_len(c, oruffers[i], su)
                if len_o < k:
                    k = len_o
        if k > best_p or (sm != L.trump_mask and k > best_pn):
            tc = run if k >= k_run else top_cards(run, k)
            if k > best_p:
                best_p = k
                used_p = tc
            if sm != L.trump_mask and k > best_pn:
                best_pn = k
                used_pn = tc
    if best_p > qt:
        qt = best_p
        used = used_p
    # the side-suit tricks leave every trump in place (the opponents who hold trumps follow
    # suit; a teammate with enough other cards to play need not ruff), so the sure trump
    # tricks of a seat of the team still come on top of them
    live_t = live & L.trump_mask
    need = needed(c, leader, t, beta)
    if live_t and (beta < 0 or qt < need) and not (s.trick_index == 0 and L.first_trick_forbidden):
        if best_pn > qn:
            qn = best_pn
            used_n = used_pn
        side_t = side_trumps(c)
        opp = (live_t & ~side_t) if lside else side_t
        for o in range(c.n):
            if (in_side(c, o) == lside and (s.hands[o] & live_t) and qn + popcnt(s.hands[o] & live_t) >= need
                    and popcnt(s.hands[o] & ~L.trump_mask) >= qn):
                k = seat_trump_tricks(s.hands[o] & live_t, opp, &tcards)
                if qn + k > qt:
                    qt = qn + k
                    used = used_n | tcards
    if qt:
        sure_tricks(c, leader, qt, used, t, lo, hi, rlo, rhi)


cdef inline void trick_bound(ctx_t* c, int* lo, int* hi, uint64_t* rlo, uint64_t* rhi, int t) noexcept nogil:
    """Mid-trick: when no seat still to play against the current winner's team can beat the
    winning card, the trick's fate is known (relies on the holders of the cards above it);
    else when a team can take it whatever the others play (``team_secures``: for teams that
    want their own tricks, and without first-trick or forced-card rules)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int pos = s.wpos
    cdef int wbit = s.tbits[pos]
    cdef int wseat = c.seat_at[s.leader + pos]
    cdef int wside = in_side(c, wseat)
    cdef uint64_t beats = (L.trump_mask | L.suit_mask[s.led]) & above(wbit)
    cdef int i, seat
    cdef uint64_t legal
    cdef uint64_t cards = bit(wbit)
    for i in range(s.tn, c.n):
        seat = c.seat_at[s.leader + i]
        if in_side(c, seat) != wside:
            if s.hands[seat] & beats:
                legal = legal_moves(L, s.hands[seat], s.led, s.trick_index, s.played, s.suits_led)
                if legal & beats:
                    break
    else:
        secure_bound(c, wside, cards, lo, hi, rlo, rhi, t)
        return
    if c.maxmask != c.side or c.objective != OBJECTIVE_TRICKS or L.first_trick_forbidden or L.must_play_bit >= 0:
        return
    # the seats still to play of either team may secure the trick for it
    if team_secures(c, 1 - wside, &cards):
        secure_bound(c, 1 - wside, cards, lo, hi, rlo, rhi, t)
    elif team_secures(c, wside, &cards):
        secure_bound(c, wside, cards, lo, hi, rlo, rhi, t)


cdef inline void secure_bound(ctx_t* c, int team, uint64_t cards, int* lo, int* hi, uint64_t* rlo,
                              uint64_t* rhi, int t) noexcept nogil:
    """The current trick goes to ``team`` (1: the declarer's side), relying on ``cards``."""
    if team:
        lo[0] = 1
        rlo[0] = cards
    elif c.objective == OBJECTIVE_NIL:
        if t == 1:
            hi[0] = 0
            rhi[0] = cards
    else:
        hi[0] = t - 1
        rhi[0] = cards


cdef inline int team_secures(ctx_t* c, int team, uint64_t* cards) noexcept nogil:
    """DDS's quick trick of the second hand, for any seat still to play: a seat of ``team``
    (1: the declarer's side) still to play can take the trick whatever the others play,
    with its team's best card of the led suit above the winning card and every card the
    other team can still play, or by ruffing; no seat of the other team still to play can
    ruff, and the trick was not ruffed yet.  ``cards``: the card it relies on (the holders
    of the cards above it; a ruff relies on suit lengths only)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t lm = L.suit_mask[s.led], tm = L.trump_mask, h, opp = 0, mine = 0
    cdef int wbit = s.tbits[s.wpos], i, seat, ruff = 0
    if tm and lm != tm and (tm >> wbit) & 1:
        return 0
    for i in range(s.tn, c.n):
        seat = c.seat_at[s.leader + i]
        h = s.hands[seat]
        if in_side(c, seat) != team:
            if h & lm:
                opp |= h & lm
            elif h & tm:
                return 0            # may ruff
        elif h & lm:
            mine |= h & lm
        elif h & tm:
            ruff = 1
    if mine and highest_bit(mine) > wbit and (not opp or highest_bit(mine) > highest_bit(opp)):
        cards[0] = bit(highest_bit(mine))
        return 1
    if ruff and lm != tm:
        cards[0] = 0
        return 1
    return 0


# --------------------------------------------------------------------------------------
# making a move

cdef inline void place_card(ctx_t* c, int b, int turn, int su) noexcept nogil:
    """Put layout bit ``b`` (suit ``su``) of ``turn`` on the table: the card leaves its
    holder's hand, the holders' sequence of its suit and its holder's suit length; the
    trick's led suit and winner so far follow.  The part of a move both
    :func:`apply_card` and :func:`play_search` make."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t m = bit(b)
    cdef uint64_t lowm = KMASK[popcnt(s.live & L.suit_mask[su] & above(b))]
    cdef int pos = 4 * (turn * c.nsu + su)
    s.own[su] = (s.own[su] & lowm) | ((s.own[su] >> 4) & ~lowm)
    s.lens[pos >> 6] -= (<uint64_t>1) << (pos & 63)
    s.live &= ~m
    s.hands[turn] &= ~m
    s.tbits[s.tn] = <int8_t>b
    s.tn += 1
    s.table |= m
    s.played |= m
    if s.tn == 1:
        s.led = su
        s.wpos = 0
    elif ((L.trump_mask | L.suit_mask[s.led]) >> b) & 1 and b > s.tbits[s.wpos]:
        s.wpos = s.tn - 1


cdef inline void unplace_card(ctx_t* c, int b, int turn, int su, int o_wpos,
                              uint64_t o_own) noexcept nogil:
    """Take back :func:`place_card` of layout bit ``b`` (suit ``su``) by ``turn``, a card
    that did not complete its trick; ``o_wpos`` and ``o_own`` are the trick's winning
    position and the suit's holders' sequence from before it.  Small and not recursive, so
    gcc inlines it into the search loop (which :func:`play_search`, recursing through
    :func:`ab`, is not)."""
    cdef state_t* s = &c.s
    cdef uint64_t m = bit(b)
    cdef int pos = 4 * (turn * c.nsu + su)
    s.tn -= 1
    if s.tn == 0:
        s.led = -1
    s.wpos = o_wpos
    s.played &= ~m
    s.table &= ~m
    s.hands[turn] |= m
    s.live |= m
    s.lens[pos >> 6] += (<uint64_t>1) << (pos & 63)
    s.own[su] = o_own


cdef inline int apply_card(ctx_t* c, int b) noexcept nogil:
    """Play layout bit ``b`` for the seat to move.  Returns 1 if this card completes a trick
    that the side wins (0 otherwise); updates the state to the next trick."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int w, wb, tv = 0
    place_card(c, b, c.seat_at[s.leader + s.tn], L.suit_of_bit[b])
    if s.tn < c.n:
        return 0
    wb = s.tbits[s.wpos]
    w = c.seat_at[s.leader + s.wpos]
    if in_side(c, w):
        tv = 1
    # the winner's rank mattered only if it beat another card of its own suit
    if s.table & L.suit_mask[L.suit_of_bit[wb]] & ~bit(wb):
        s.rank_win = wb
    else:
        s.rank_win = -1
    s.suits_led |= 1 << s.led
    s.last_winner = w
    s.table = 0
    s.tn = 0
    s.led = -1
    s.leader = w
    s.trick_index += 1
    if all_hands(c) == 0:
        s.done = 1
    if c.objective == OBJECTIVE_NIL and tv:
        s.done = 1
    return tv


# --------------------------------------------------------------------------------------
# transposition table

cdef inline void make_key(ctx_t* c, pkey_t* k) noexcept nogil:
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t live = all_hands(c), h
    cdef int i, su, broken
    # the suit lengths and holders' sequences are read from the state itself (the search
    # below the probe leaves them as it found them, for the store)
    k.meta = (<uint64_t>s.leader) | (<uint64_t>c.side << 4)
    if L.lead_restricted:
        broken = (s.played & L.breakers) != 0
        if broken:
            k.meta |= <uint64_t>1 << 12
        elif s.trick_index < L.unlock_trick and L.unlock_trick <= 64:
            k.meta |= (<uint64_t>(s.trick_index + 1)) << 24
    if s.trick_index == 0:
        k.meta |= <uint64_t>1 << 13
    if L.must_play_bit >= 0 and (live >> L.must_play_bit) & 1:
        k.meta |= (<uint64_t>(s.suits_led & 255)) << 14
    k.absmask = live & c.nonuni
    h = k.meta * <uint64_t>0x9E3779B97F4A7C15 ^ k.absmask
    for i in range(c.LW):
        h ^= s.lens[i]
        h *= <uint64_t>0xBF58476D1CE4E5B9
        h ^= h >> 31
    h ^= h >> 29
    k.h = h | 1
    k.gen = c.gen << 56


cdef inline uint64_t kmask(int k) noexcept nogil:
    return ~(<uint64_t>0) if k >= 16 else (((<uint64_t>1) << (4 * k)) - 1)


cdef uint64_t KMASK[17]         # kmask(k) for k = 0..16
for _k in range(17):
    KMASK[_k] = kmask(_k)


cdef inline uint64_t sub_key(ctx_t* c, pkey_t* k, int level) noexcept nogil:
    """Entries whose every live suit needs the holders of its top ``level`` cards to agree
    are listed apart, under those holders: lists stay short, a probe looks at each level."""
    cdef uint64_t sub = <uint64_t>level << 56
    cdef int su
    if level == 1:
        # the holder of the top card of each suit, 12 bits apart (read from the state when
        # needed: most probes look for no head of level 1)
        return (sub | (c.s.own[0] & 15) | ((c.s.own[1] & 15) << 12) | ((c.s.own[2] & 15) << 24)
                | ((c.s.own[3] & 15) << 36))
    if level:
        for su in range(c.nsu):
            sub |= (c.s.own[su] & kmask(level)) << (12 * su)
    return sub


cdef inline uint64_t sub_hash(pkey_t* k, uint64_t sub) noexcept nogil:
    cdef uint64_t h = k.h
    if sub:
        h ^= sub * <uint64_t>0xD6E8FEB86659FD93
        h ^= h >> 32
        h *= <uint64_t>0x9E3779B97F4A7C15
        h ^= h >> 29
    return (h & LOW56) | 1 | k.gen


cdef inline int same_head(ctx_t* c, head_t* e, pkey_t* k, uint64_t tag, uint64_t sub) noexcept nogil:
    cdef int i
    if e.tag != tag or e.sub != sub or e.meta != k.meta or e.absmask != k.absmask:
        return 0
    for i in range(c.LW):
        if e.lens[i] != c.s.lens[i]:
            return 0
    return 1


cdef inline head_t* find_head(ctx_t* c, pkey_t* k, uint64_t tag, uint64_t sub) noexcept nogil:
    """The head of the position's suit lengths and rule state (and ``sub``), or the empty
    slot where it belongs (not :func:`occupied`)."""
    cdef uint64_t i = tag & c.hmask
    cdef head_t* e = &c.heads[i]
    while occupied(c, e):
        if same_head(c, e, k, tag, sub):
            return e
        i = (i + 1) & c.hmask
        e = &c.heads[i]
    return e


cdef inline uint64_t needs(uint64_t w) noexcept nogil:
    """7 (a holder's bits) in each nibble of ``w`` with bit 8 set (a holder that must
    agree), else 0."""
    cdef uint64_t m = w & FNEED
    return m - (m >> 3)


cdef inline int matches(entry_t* e, const uint64_t* own) noexcept nogil:
    """The position (``own``: its holders' sequences) agrees with the holders the entry
    needs.  All MAXS suits at once after the first, without branches (unused suits have
    k = 0: ``w`` = 0)."""
    if (e.w[0] ^ own[0]) & needs(e.w[0]):
        return 0
    return (((e.w[1] ^ own[1]) & needs(e.w[1])) | ((e.w[2] ^ own[2]) & needs(e.w[2]))
            | ((e.w[3] ^ own[3]) & needs(e.w[3]))) == 0


cdef inline uint64_t entry_cards(ctx_t* c, entry_t* e) noexcept nogil:
    """The live cards an entry's match relies on (its top ``k`` cards of every suit)."""
    cdef uint64_t live = all_hands(c), out = 0
    cdef int su
    for su in range(c.nsu):
        if e.w[su]:
            out |= top_cards(live & c.L.suit_mask[su], popcnt(e.w[su] & FNEED))
    return out


cdef inline entry_t* tt_probe(ctx_t* c, pkey_t* k, int beta, int* hint) noexcept nogil:
    """A matching entry whose bounds decide the probe ``>= beta`` (or NULL); ``hint`` gets
    the best move of a matching entry."""
    cdef head_t* hd
    cdef int32_t i
    cdef entry_t* e
    cdef int level
    cdef uint64_t sub
    cdef head_t* hd0
    cdef link_t* ln
    cdef link_t* first
    cdef link_t* last
    cdef link_t found
    cdef uint32_t spack = state_filter(c)
    global ST_LONGEST
    # the head of level 0 first: without entries of level 1 under its lengths (counted in
    # it), no head of level 1 is looked for (the entries are still read level 1 first)
    hd0 = find_head(c, k, sub_hash(k, 0), 0)
    if not occupied(c, hd0):
        return NULL
    for level in range(LEVELS - 1, -1, -1):
        if level:
            if hd0.n_sub == 0:
                continue
            sub = sub_key(c, k, level)
            hd = find_head(c, k, sub_hash(k, sub), sub)
            if not occupied(c, hd):
                continue
        else:
            hd = hd0
        if hd.count > ST_LONGEST:
            ST_LONGEST = hd.count
        first = &c.links[hd.first]
        ln = first + hd.count
        while ln != first:
            ln -= 1
            if filter_pass(ln.f, spack):
                e = &c.pool[ln.e]
                if matches(e, c.s.own):
                    if e.lo >= beta or e.hi < beta:
                        # the entry moves to the front of its list (the next probes of its
                        # kind find it at once)
                        found = ln[0]
                        last = first + hd.count - 1
                        while ln != last:
                            ln[0] = ln[1]
                            ln += 1
                        last[0] = found
                        return e
                    if e.best_su >= 0 and hint[0] < 0:
                        hint[0] = denorm(c, e.best_su, e.best_rel)
    return NULL


cdef inline uint32_t filter_word(const uint64_t* own, const uint64_t* msk) noexcept nogil:
    """An entry's filter (see ``link_t``) from its masked holders and masks."""
    cdef uint32_t f = 0
    cdef uint64_t m2
    cdef int su
    for su in range(MAXS):
        m2 = msk[su] & 0xFF
        f |= <uint32_t>(((own[su] & m2) | (0x88 & m2)) << (8 * su))
    return f


cdef inline uint32_t state_filter(ctx_t* c) noexcept nogil:
    """The position's holders of the top two cards of each suit, as ``filter_pass`` reads
    them (8 | holder: the bit 8 of a needed holder cancels)."""
    return <uint32_t>((c.s.own[0] & 0xFF) | ((c.s.own[1] & 0xFF) << 8) | ((c.s.own[2] & 0xFF) << 16)
                      | ((c.s.own[3] & 0xFF) << 24)) | 0x88888888U


cdef inline int filter_pass(uint32_t f, uint32_t spack) noexcept nogil:
    """The holders an entry's filter needs agree with the position's (``f``'s needed
    nibbles are 8 | holder, the others 0: the mask is 15 in each needed nibble)."""
    cdef uint32_t m = f & 0x88888888U
    return ((f ^ spack) & (m | (m - (m >> 3)))) == 0


cdef inline int denorm(ctx_t* c, int su, int rel) noexcept nogil:
    """The live card ``rel`` places below the top of suit ``su`` (-1 if none)."""
    cdef uint64_t m = (all_hands(c) | c.s.table) & c.L.suit_mask[su]
    while rel > 0 and m:
        m &= ~bit(highest_bit(m))
        rel -= 1
    return highest_bit(m) if m else -1


cdef inline int occupied(ctx_t* c, head_t* e) noexcept nogil:
    """The head is in use in the table's current generation (a head's tag carries the
    generation it was made in, in its top 8 bits; zeroed memory is generation 0)."""
    return (e.tag >> 56) == c.gen


cdef inline void next_generation(ctx_t* c) noexcept nogil:
    """Start the heads' next generation, in which every head reads as empty; after
    generation 255 the heads are zeroed and the count starts again at 1 (a head's tag
    holds 8 bits of it, and zeroed memory is generation 0)."""
    c.gen += 1
    if c.gen > 255:
        memset(c.heads, 0, (c.hmask + 1) * sizeof(head_t))
        c.gen = 1


cdef void tt_clear(ctx_t* c) noexcept nogil:
    """Empty the table: a new generation of heads (the old ones read as empty: no pass
    over the heads, whose zeroing cost a bridge table's 32 MB), the pool and the links
    used from their start again; the heads are zeroed once in 255 generations."""
    global ST_CLEARS
    ST_CLEARS += 1
    next_generation(c)
    c.n_heads_used = 0
    c.pool_used = 0
    c.links_used = 0


cdef inline void init_head(ctx_t* c, head_t* hd, pkey_t* k, uint64_t tag, uint64_t sub) noexcept nogil:
    cdef int i
    hd.tag = tag
    hd.sub = sub
    for i in range(LENW):
        hd.lens[i] = c.s.lens[i]
    hd.meta = k.meta
    hd.absmask = k.absmask
    hd.first = 0
    hd.count = 0
    hd.n_sub = 0
    hd.cap = 0
    c.n_heads_used += 1


cdef void tt_store(ctx_t* c, pkey_t* k, uint64_t rel, int lower, int upper, int best,
                   int tleft) noexcept nogil:
    cdef const layout_t* L = c.L
    cdef uint64_t live = all_hands(c), sm, rs
    cdef uint8_t kk[MAXS]
    cdef uint64_t own[MAXS]
    cdef uint64_t msk[MAXS]
    cdef int su, i, level
    cdef int32_t j
    cdef uint64_t sub, tag, tag0
    cdef head_t* hd
    cdef head_t* hd0
    cdef entry_t* e
    cdef link_t* ln
    cdef int new_heads, room
    cdef uint32_t f
    # the key was made before the search below, which may have emptied the table: its
    # tags take the generation of now
    k.gen = c.gen << 56
    for su in range(c.nsu):
        sm = L.suit_mask[su]
        rs = rel & sm & live
        if sm & c.nonuni:
            kk[su] = <uint8_t>popcnt(live & sm)
        elif rs:
            kk[su] = <uint8_t>popcnt(live & sm & ~(bit(lowest_bit(rs)) - 1))
        else:
            kk[su] = 0
        msk[su] = KMASK[kk[su]]
        own[su] = c.s.own[su] & msk[su]
    for su in range(c.nsu, MAXS):
        kk[su] = 0
        msk[su] = 0
        own[su] = 0
    level = LEVELS - 1
    for su in range(c.nsu):
        if live & L.suit_mask[su] and kk[su] < level:
            level = kk[su]
    sub = sub_key(c, k, level)
    tag = sub_hash(k, sub)
    hd = find_head(c, k, tag, sub)
    f = filter_word(own, msk)
    if occupied(c, hd):
        ln = &c.links[hd.first]
        for i in range(hd.count):
            if ln[i].f != f:
                continue
            e = &c.pool[ln[i].e]
            for su in range(c.nsu):
                if e.w[su] != (own[su] | (msk[su] & FNEED)):
                    break
            else:
                if lower > e.lo:
                    e.lo = <int8_t>lower
                if upper < e.hi:
                    e.hi = <int8_t>upper
                if best >= 0:
                    e.best_su = L.suit_of_bit[best]
                    e.best_rel = <int8_t>popcnt(live & L.suit_mask[e.best_su] & above(best))
                return
    # heads to add: this list's, and for an entry of level 1 the level 0 head that counts
    # it (tt_probe looks for level 1 heads only under a count); links: twice the room of a
    # full list
    tag0 = sub_hash(k, 0)
    new_heads = (not occupied(c, hd)) + (sub != 0 and not occupied(c, find_head(c, k, tag0, 0)))
    room = 0 if occupied(c, hd) and hd.count < hd.cap else (2 * hd.cap if occupied(c, hd) and hd.cap else 2)
    if (c.pool_used >= c.pool_size or c.links_used + room > c.links_size
            or (new_heads and <uint64_t>(4 * (c.n_heads_used + new_heads)) > 3 * (c.hmask + 1))):
        tt_clear(c)
        # (the tags of the new generation)
        k.gen = c.gen << 56
        tag = sub_hash(k, sub)
        tag0 = sub_hash(k, 0)
        hd = find_head(c, k, tag, sub)
    if not occupied(c, hd):
        init_head(c, hd, k, tag, sub)
    if sub:
        hd0 = find_head(c, k, tag0, 0)
        if not occupied(c, hd0):
            init_head(c, hd0, k, tag0, 0)
        hd0.n_sub += 1
    j = <int32_t>c.pool_used
    c.pool_used += 1
    e = &c.pool[j]
    for su in range(MAXS):
        e.w[su] = own[su] | (msk[su] & FNEED)
    e.lo = <int8_t>(lower if lower > 0 else 0)
    e.hi = <int8_t>(upper if upper < tleft else tleft)
    if best >= 0:
        e.best_su = L.suit_of_bit[best]
        e.best_rel = <int8_t>popcnt(live & L.suit_mask[e.best_su] & above(best))
    else:
        e.best_su = -1
        e.best_rel = 0
    if hd.count == hd.cap:
        room = 2 * hd.cap if hd.cap else 2
        memcpy(&c.links[c.links_used], &c.links[hd.first], hd.count * sizeof(link_t))
        hd.first = <int32_t>c.links_used
        hd.cap = room
        c.links_used += room
    c.links[hd.first + hd.count].f = f
    c.links[hd.first + hd.count].e = j
    hd.count += 1


# --------------------------------------------------------------------------------------
# move generation and ordering

cdef inline uint64_t representatives(ctx_t* c, uint64_t moves) noexcept nogil:
    """Drop every card whose next higher live card of its suit is also one of ``moves`` with
    the same class: the two are interchangeable, the higher one represents the run.
    Without rule classes, all cards at once: the cards of ``moves`` linked through dead
    cards (played, undealt) form chains; each chain but its top card is dropped (no branch
    per card: the loop's tests were 8% of the mispredicted branches on bridge deals)."""
    cdef uint64_t dead, up, nxt, has_pred, mark, gen, pro
    if moves & c.nonuni:
        return representatives_cls(c, moves)
    dead = c.suited & ~(c.s.live | c.s.table) & ~c.suit_tops    # (a suit's top card ends
    # every run: no carry and no fill crosses into the next suit)
    # the first card above each card of moves that is not dead: the card itself above it
    # or, through a run of dead cards, the carry of adding the run's bottom bit to it
    up = (moves << 1) & ~c.suit_lows
    nxt = (up & ~dead) | (((up & dead) + dead) & ~dead)
    has_pred = nxt & moves & ~c.suit_lows      # cards of moves with one of moves below
    # their predecessors: the card just below, or below the run of dead cards just below
    # (filled downward through the run, runs of up to 15 cards)
    gen = (has_pred >> 1) & dead
    pro = dead
    gen |= pro & (gen >> 1)
    pro &= pro >> 1
    gen |= pro & (gen >> 2)
    pro &= pro >> 2
    gen |= pro & (gen >> 4)
    pro &= pro >> 4
    gen |= pro & (gen >> 8)
    return moves & ~(((has_pred >> 1) | (gen >> 1)) & ~dead)


cdef uint64_t representatives_cls(ctx_t* c, uint64_t moves) noexcept nogil:
    """``representatives`` card by card, for suits whose cards rules tell apart."""
    cdef uint64_t live = all_hands(c) | c.s.table
    cdef uint64_t out = moves, m = moves, up
    cdef int b, nb
    while m:
        b = lowest_bit(m)
        m &= m - 1
        up = live & above(b)
        if up:
            nb = lowest_bit(up)
            if (moves >> nb) & 1 and c.suit_cls[nb] == c.suit_cls[b]:
                out &= ~bit(b)
    return out


cdef inline int lead_adjust(ctx_t* c, int turn, uint64_t sm, int top, int ours) noexcept nogil:
    """DDS's lead weights by where the second and third best cards of the suit lie: lead
    toward a tenace over the left-hand opponent's honour, not into the right-hand one's."""
    cdef uint64_t live = c.s.live & sm & ~bit(top)
    cdef int lho = c.seat_at[turn + 1], rho = c.seat_at[turn + c.n - 1], second, third, h2, h3 = -1
    cdef int my_team = in_side(c, turn), adj = 0
    if not live:
        return 0
    second = highest_bit(live)
    h2 = c.owner[second]
    live &= ~bit(second)
    if live:
        third = highest_bit(live)
        h3 = c.owner[third]
    if ours:
        if h2 == rho and popcnt(c.s.hands[rho] & sm) != 1:
            adj -= 1 * LEADW
        elif h2 == lho:
            adj += (22 if popcnt(c.s.hands[lho] & sm) != 1 else 16) * LEADW
        return adj
    if (c.owner[top] == rho or h2 == rho) and popcnt(c.s.hands[rho] & sm) != 1:
        adj -= 10 * LEADW
    elif c.owner[top] == lho and h2 != turn and in_side(c, h2) == my_team and popcnt(c.s.hands[h2] & sm) != 1:
        adj += 31 * LEADW
    if h2 >= 0 and h3 >= 0 and in_side(c, h2) == my_team and in_side(c, h3) == my_team:
        adj += 30 * LEADW
    return adj


# DDS's lead weights by where the best cards of the suit lie (lead_case), for three kinds
# of lead: with trumps left a lead that can win the trick for the leader's team, one that
# cannot, and without trumps one that cannot (a winning one there has its own two
# weights).  A weight is a constant plus a rank term: 0 none, 1 the card's place from the
# top among the suit's live cards (low cards first), 2 minus its rank, 3 minus its place.
cdef int LEAD_K[3][9]
cdef int LEAD_T[3][9]
cdef int LEAD_KILLER[4]         # bonus of the last card that cut off at this depth
cdef int LEAD_HINT[4]           # bonus of the table's best card
for _i, (_k, _t) in enumerate((
        ((35, 48, 31, -3, 42, 28, 40, 22, 11), (1, 1, 0, 1, 1, 1, 0, 1, 1)),
        ((2, 33, 38, -14, 34, 34, 35, 15, 15), (1, 1, 0, 1, 1, 1, 0, 2, 2)),
        ((28, -17, -17, -17, 0, 0, 48, 29, 12), (1, 1, 1, 1, 1, 1, 0, 3, 1)))):
    for _j in range(9):
        LEAD_K[_i][_j] = _k[_j]
        LEAD_T[_i][_j] = _t[_j]
for _i, (_k, _h) in enumerate(((55, 18), (18, 0), (47, 19), (126, 32))):
    LEAD_KILLER[_i] = _k
    LEAD_HINT[_i] = _h


cdef inline int lead_case(int b, int turn, int p, int l, int r, int ln_l, int ln_r, int top,
                          int second, int whand, int shand, int seq) noexcept nogil:
    """Where the best cards of the led suit lie: 0 an opponent's singleton top card, 1-3 our
    top card (1 the partner's second best, 2 leading the top card itself, 3 other), 4-5 the
    partner's top card (4 with our second best), 6 leading the second best card with a
    card below it, 7 another card with one below it, 8 other."""
    if (ln_l == 1 and whand == l) or (ln_r == 1 and whand == r):
        return 0
    if whand == turn:
        return 1 if shand == p else (2 if b == top else 3)
    if whand == p:
        return 4 if shand == turn else 5
    if seq:
        return 6 if b == second else 7
    return 8


cdef inline int can_overruff(ctx_t* c, int p, int l, int r, int ruff_l, int ruff_r) noexcept nogil:
    """The partner's best trump beats those of the opponents who would ruff."""
    cdef uint64_t tm = c.L.trump_mask, ht = c.s.hands[p] & tm
    return (not ruff_l or ht > (c.s.hands[l] & tm)) and (not ruff_r or ht > (c.s.hands[r] & tm))


ctypedef struct lead_suit_t:
    int top, second, whand, shand   # the best two live cards of the suit and their holders
    int ln_l, ln_r                  # the opponents' lengths
    int kind_top, kind_rest         # kind of lead (LEAD_K row, 3: no trumps and winning)
                                    # of the suit's top card and of the others
    int delta[4]                    # the suit's part of the weight per kind of lead


cdef void lead_suit_dds(ctx_t* c, int turn, int su, int tleft, lead_suit_t* o) noexcept nogil:
    """The suit's part of DDS's lead weights (4 seats, partners across, both teams wanting
    tricks): whether a lead of it can win the trick (our top card, the partner's top card
    or a partner's ruff, no opponent ruffing over it), where its best three cards lie and
    the opponents' lengths (a small tree when they have few cards to play)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int tsu = c.nsu - 1
    cdef uint64_t sm = L.suit_mask[su], live = s.live & sm, m
    cdef int p = c.seat_at[turn + 2], l = c.seat_at[turn + 1], r = c.seat_at[turn + 3]
    cdef int thand = -1, ln_p = seat_len(c, p, su), ln_l, ln_r, whand, shand
    cdef int trump = L.trump_mask != 0 and (s.live & L.trump_mask) != 0
    cdef int is_t = trump and sm == L.trump_mask
    cdef int ruff_l = 0, ruff_r = 0, ruff_p = 0, top_p, top_o, delta, count_l, count_r, over
    o.top = highest_bit(live)
    o.whand = whand = c.owner[o.top]
    o.second = o.shand = shand = -1
    m = live & ~bit(o.top)
    if m:
        o.second = highest_bit(m)
        o.shand = shand = c.owner[o.second]
        m &= ~bit(o.second)
        if m:
            thand = c.owner[highest_bit(m)]
    o.ln_l = ln_l = seat_len(c, l, su)
    o.ln_r = ln_r = seat_len(c, r, su)
    top_p = highest_bit(s.hands[p] & sm) if s.hands[p] & sm else -1
    m = (s.hands[l] | s.hands[r]) & sm
    top_o = highest_bit(m) if m else -1
    count_l = (ln_l if ln_l else tleft + 1) << 2
    count_r = (ln_r if ln_r else tleft + 1) << 2
    if trump:
        ruff_l = not is_t and ln_l == 0 and seat_len(c, l, tsu) > 0
        ruff_r = not is_t and ln_r == 0 and seat_len(c, r, tsu) > 0
        ruff_p = not is_t and ln_p == 0 and seat_len(c, p, tsu) > 0
        delta = -(((count_l + count_r) << 5) // 13)
        if ruff_l or ruff_r:
            delta -= 12
        if ruff_p and ln_r > 0:
            delta += 17
        if (not is_t and seat_len(c, turn, su) == 1 and seat_len(c, turn, tsu) > 0 and ln_p > 1
                and whand == p):
            delta += 19             # the partner wins and gives a ruff
        over = ruff_p and can_overruff(c, p, l, r, ruff_l, ruff_r)
        o.kind_top = 0 if not (ruff_l or ruff_r) or over else 1
        if top_p > top_o:
            o.kind_rest = 0 if not (ruff_l or ruff_r) else 1
        else:
            o.kind_rest = 0 if over else 1
    else:
        delta = -(((count_l + count_r) << 5) // 19)
        if ln_p == 0:
            delta -= 9
        o.kind_top = 3
        o.kind_rest = 3 if top_p > top_o else 2
    # no trumps, the lead wins: better when the second best card is not with an opponent
    o.delta[3] = delta
    if shand == r:
        if ln_r != 1:
            o.delta[3] -= 1
    elif shand == l:
        o.delta[3] += 22 if ln_l != 1 else 16
    o.delta[3] += 45 if (shand != l or ln_l == 1) and (shand != r or ln_r == 1) else 18
    # otherwise not into the right-hand opponent's top cards; toward the partner's second
    # best card over the left-hand opponent's best one
    if whand == r or shand == r:
        if ln_r != 1:
            delta -= 12 if trump else 10
    elif whand == l and shand == p:
        if ln_p != 1:
            delta += 27 if trump else 31
    o.delta[0] = delta
    # a lead that cannot win: the next round is ours with the second and third best cards
    if shand == p and thand == p:
        delta += 20 if trump else 35
    elif ((shand == turn and thand == p) or (shand == p and thand == turn)) and ln_p > 1:
        delta += 13 if trump else 25
    o.delta[1] = o.delta[2] = delta


cdef inline int lead_weight_dds(ctx_t* c, lead_suit_t* o, int turn, int b, int hint,
                                int killer) noexcept nogil:
    """DDS's weight of leading ``b`` (its suit's part in ``o``): where the card stands among
    the suit's best cards, the last card that cut off at this depth and the table's best
    card."""
    cdef int kind = o.kind_top if b == o.top else o.kind_rest
    cdef int w = o.delta[kind], case, t
    cdef int rrank = 1 + popcnt(c.s.live & c.L.suit_mask[c.L.suit_of_bit[b]] & above(b))
    if kind == 3:
        w += rrank
    else:
        case = lead_case(b, turn, c.seat_at[turn + 2], c.seat_at[turn + 1], c.seat_at[turn + 3],
                         o.ln_l, o.ln_r, o.top, o.second, o.whand, o.shand, has_run_below(c, b))
        w += LEAD_K[kind][case]
        t = LEAD_T[kind][case]
        if t == 1:
            w += rrank
        elif t == 2:
            w -= b - c.suit_low[c.L.suit_of_bit[b]]
        elif t == 3:
            w -= rrank
    if b == killer:
        w += LEAD_KILLER[kind] * KBONUS
    elif b == hint:
        w += LEAD_HINT[kind] * HBONUS
    return w


cdef inline int has_run_below(ctx_t* c, int b) noexcept nogil:
    """``b`` stands for a lower card of its holder (the next live card below it in its
    suit, of the same class): DDS's sequence."""
    cdef uint64_t below = (c.s.live | c.s.table) & (bit(b) - 1) & c.L.suit_mask[c.L.suit_of_bit[b]]
    cdef int nb
    if not below:
        return 0
    nb = highest_bit(below)
    return (c.s.hands[c.owner[b]] >> nb) & 1 and c.cls[nb] == c.cls[b]


cdef inline int kx(ctx_t* c, int seat, int su, uint64_t sm, int n) noexcept nogil:
    """``seat`` holds ``n == 2`` cards of the suit with its second best card (K-x: keep)."""
    cdef uint64_t live
    if n != 2:
        return 0
    live = c.s.live & sm
    live &= ~bit(highest_bit(live))
    return live != 0 and c.owner[highest_bit(live)] == seat


cdef inline int discard_value(ctx_t* c, int turn, int su, int n_su, int div, int kx_pen,
                              int top_pen) noexcept nogil:
    """DDS's value of a suit to discard from: its length (scaled by ``div``), less
    ``kx_pen`` from K-x and ``top_pen`` from a singleton best card."""
    cdef uint64_t sm = c.L.suit_mask[su]
    cdef int v = (n_su << 6) // div
    if kx(c, turn, su, sm, n_su):
        v -= kx_pen
    elif n_su == 1 and c.owner[highest_bit(c.s.live & sm)] == turn:
        v -= top_pen
    return v


ctypedef struct second_t:
    # what the second hand's weights read of the trick, worked out once per position
    int led, lead, max3, max4, min3, min4, trump
    uint64_t lm, tm, h3, h4, t3, t4


cdef inline void second_setup(ctx_t* c, int turn, second_t* f) noexcept nogil:
    cdef state_t* s = &c.s
    cdef int third = c.seat_at[turn + 1], fourth = c.seat_at[turn + 2]
    f.led = s.led
    f.lead = s.tbits[0]
    f.lm = c.L.suit_mask[s.led]
    f.tm = c.L.trump_mask
    f.h3 = s.hands[third] & f.lm
    f.h4 = s.hands[fourth] & f.lm
    f.max3 = highest_bit(f.h3) if f.h3 else -1
    f.max4 = highest_bit(f.h4) if f.h4 else -1
    f.min3 = lowest_bit(f.h3) if f.h3 else 99
    f.min4 = lowest_bit(f.h4) if f.h4 else 99
    f.trump = f.tm != 0 and (s.live & f.tm) != 0
    f.t3 = s.hands[third] & f.tm
    f.t4 = s.hands[fourth] & f.tm


cdef int second_weight_dds(ctx_t* c, second_t* f, int turn, int b) noexcept nogil:
    """DDS's weight of ``b`` for the second hand (4 seats, partners across, both teams
    wanting tricks): following suit, whether our team can win the trick (our card or the
    partner's, over the third hand, no ruff by it), then win cheaply, force out the third
    hand's card or play low; void, ruff (over the third hand if it may overruff) or discard
    low from a long suit."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int su = L.suit_of_bit[b], led = f.led, lead = f.lead
    cdef uint64_t lm = f.lm, tm = f.tm
    cdef uint64_t h3 = f.h3, h4 = f.h4
    cdef int max3 = f.max3, max4 = f.max4
    cdef int min3 = f.min3, min4 = f.min4
    cdef int trump = f.trump
    cdef uint64_t t3 = f.t3, t4 = f.t4
    cdef int rank = b - c.suit_low[su] + 2, win, rrank, seq, n_su, add
    cdef uint64_t sm = L.suit_mask[su]
    if su == led:
        rrank = 1 + popcnt((s.live | s.table) & lm & above(b))
        seq = has_run_below(c, b)
        if not trump:
            if max4 > lead and max4 > max3:
                return -rank                    # the partner wins: play low
            if b > lead and b > max3:
                return 81 - rank
            if (min3 != 99 and min3 > b) or (min4 != 99 and min4 > b):
                return -3 + rrank               # makes no difference: play low
            if b < lead:
                return -11 + rrank
            return (10 + rrank) if seq else (13 - rank)
        if lm == tm:
            win = (max4 > lead and max4 > max3) or (b > lead and b > max3)
        elif b > lead and b > max3:
            win = max3 >= 0 or not t3 or (max4 < 0 and t4 != 0 and t4 > t3)
        elif max4 > lead and max4 > max3:
            win = max3 >= 0 or not t3
        elif lead > max4 and lead > max3 and lead > b:
            win = max4 < 0 and t4 != 0 and (max3 >= 0 or not t3 or t4 > t3)
        else:
            win = max4 < 0 and t4 != 0         # the partner ruffs
        if win:
            if min3 != 99 and min3 > b:
                return 40 + rrank               # the partner must be winning
            if max4 > lead and (s.hands[s.leader] & lm) > h4:
                return 41 + rrank
            if b > lead:
                if b < max4:
                    return 78 - rank
                if b > max3:
                    return 73 - rank            # the cheapest sure win
                return (62 if seq else 49) - rank
            return (47 if max4 >= 0 else 40) - rank
        if (min3 != 99 and b < min3) or (min4 != 99 and b < min4):
            return -9 + rrank                   # beaten anyway
        if b < lead:
            return -16 + rrank
        return (22 if seq else 10) - rank
    n_su = seat_len(c, turn, su)
    if not trump:
        if h4 > (h3 | bit(lead)):
            return discard_value(c, turn, su, n_su, 23, 2, 3) - rank    # the partner can win
        return discard_value(c, turn, su, n_su, 33, 6, 8) - rank
    if lm == tm:
        # trumps led, we discard
        if h4 > (h3 | bit(lead)):
            return (n_su << 6) // 44 - rank
        return discard_value(c, turn, su, n_su, 36, 4, 0) - rank
    if sm != tm:
        # a side-suit discard
        if h3:
            if h4 > (h3 | bit(lead)) or (not h4 and t4):
                return 60 + (n_su << 6) // 44 - rank
        elif not h4 and t4 > t3:
            return 60 + (n_su << 6) // 44 - rank        # the partner overruffs
        elif not t3 and h4 > bit(lead):
            return 60 + (n_su << 6) // 44 - rank
        return -2 + discard_value(c, turn, su, n_su, 36, 4, 0) - rank
    # we ruff
    if h3 or (not h4 and t4 > t3):
        return 24 - rank + (n_su << 6) // 44
    if bit(b) > t3:
        return 24 - rank + (n_su << 6) // 44        # over the third hand's trumps
    return 15 - rank + discard_value(c, turn, su, n_su, 36, 4, 0)


cdef inline int force_out(ctx_t* c, uint64_t mine, uint64_t h4, int wbit, int second_wins) noexcept nogil:
    """The third hand's card that makes the fourth hand spend its best card (DDS): our
    lowest card above the fourth hand's cards below its top run, or, with the second hand
    winning, our lowest card above it (-1: none)."""
    cdef uint64_t live = c.s.live | c.s.table, below
    cdef int t, nb, lim
    t = highest_bit(h4)
    while True:
        below = live & (bit(t) - 1) & c.L.suit_mask[c.L.suit_of_bit[t]]
        if not below:
            return -1       # one run: nothing to force
        nb = highest_bit(below)
        if not (h4 >> nb) & 1:
            break
        t = nb
    below = h4 & (bit(t) - 1)
    if not below:
        return -1
    lim = highest_bit(below)
    if lim > wbit:
        mine &= above(lim)
    elif second_wins:
        mine &= above(wbit)
    else:
        return -1
    return lowest_bit(mine) if mine else -1


cdef uint64_t third_follow_first(ctx_t* c, int turn, uint64_t reps, int forced) noexcept nogil:
    """DDS's order for the third hand following suit, as the cards to play first (each part
    lowest first): play low when the partner's card stands or our cards are too low to
    matter, win over the fourth hand when we can, else make it spend its best card
    (``forced``)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int lead = s.tbits[0], wbit = s.tbits[s.wpos], partner_wins = s.wpos == 0
    cdef uint64_t lm = L.suit_mask[s.led], tm = L.trump_mask
    cdef int fourth = c.seat_at[turn + 1]
    cdef uint64_t h4 = s.hands[fourth] & lm, t4 = s.hands[fourth] & tm
    cdef int max4 = highest_bit(h4) if h4 else -1, max3 = highest_bit(reps)
    cdef int trump = tm != 0 and (s.live & tm) != 0
    if partner_wins and lead > max4 and (not trump or lm == tm or h4 or not t4):
        return 0                                # the partner's card stands
    if trump and lm != tm and ((tm >> wbit) & 1 or (partner_wins and not h4)):
        return 0                                # ruffed, or the fourth hand ruffs or not
    if (h4 and max3 < lowest_bit(h4)) or max3 < wbit:
        return 0                                # our cards are too low to matter
    if max3 > max4:
        return reps & above(wbit) & (above(max4) if max4 >= 0 else ~(<uint64_t>0))
    return bit(forced) if forced >= 0 else 0


cdef int third_weight_dds(ctx_t* c, int turn, int b) noexcept nogil:
    """DDS's weight of ``b`` for the third hand, void in the led suit: discard from length,
    do not ruff the partner's sure winner, ruff low or over the fourth hand."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int su = L.suit_of_bit[b], led = s.led, lead = s.tbits[0], wbit = s.tbits[s.wpos]
    cdef uint64_t lm = L.suit_mask[led], tm = L.trump_mask, sm = L.suit_mask[su]
    cdef int fourth = c.seat_at[turn + 1]
    cdef uint64_t h4 = s.hands[fourth] & lm, t4 = s.hands[fourth] & tm
    cdef int max4 = highest_bit(h4) if h4 else -1
    cdef int trump = tm != 0 and (s.live & tm) != 0
    cdef int rank = b - c.suit_low[su] + 2, n_su, w, partner_wins = s.wpos == 0
    cdef int ruffed = trump and lm != tm and (tm >> wbit) & 1
    cdef uint64_t sec
    n_su = seat_len(c, turn, su)
    if not trump:
        return discard_value(c, turn, su, n_su, 24, 4, 4) - rank
    if lm == tm or sm != tm:
        return (n_su << 6) // 40 - rank         # discard small from a long suit
    if partner_wins and lead > max4 and (h4 or not t4):
        return -rank - 50                       # do not ruff the partner's sure winner
    if ruffed and b < wbit:
        return -32 + (1 + popcnt(s.live & tm & above(b))) + (n_su << 6) // 40   # underruff
    w = (n_su << 6) // 50 - rank
    if partner_wins:
        if h4:
            sec = (s.live | s.table) & lm
            sec &= ~bit(highest_bit(sec))
            return w + (36 if sec and c.owner[highest_bit(sec)] == s.leader else 48)
        return w + (48 if bit(b) > t4 else -12)
    if h4:
        return w + 72                           # ruff low
    return w + (48 if bit(b) > t4 else 36)


cdef int fourth_weight_dds(ctx_t* c, int turn, int b) noexcept nogil:
    """DDS's weight of ``b`` for the fourth hand, void in the led suit: discard from
    length, overruff or ruff to win (following suit, ``order_moves`` plays low when the
    partner wins or the trick was ruffed, else wins as cheaply as possible)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int su = L.suit_of_bit[b], led = s.led, wbit = s.tbits[s.wpos]
    cdef uint64_t lm = L.suit_mask[led], tm = L.trump_mask, sm = L.suit_mask[su]
    cdef int trump = tm != 0 and (s.live & tm) != 0
    cdef int rank = b - c.suit_low[su] + 2, n_su, val, partner_wins = s.wpos == 1
    cdef int ruffed = trump and lm != tm and (tm >> wbit) & 1
    n_su = seat_len(c, turn, su)
    if not trump:
        return discard_value(c, turn, su, n_su, 27, 6, 8) - rank
    val = discard_value(c, turn, su, n_su, 24, 2, 0)
    if lm == tm:
        return val - rank
    if partner_wins:
        return (2 if sm == tm else 25) - rank + val
    if ruffed:
        if sm == tm:
            return (33 if b > wbit else -13) + 1 + popcnt(s.live & tm & above(b))
        return 14 - rank + val
    if sm == tm:
        return 33 + 1 + popcnt(s.live & tm & above(b))
    return 14 - rank + val


cdef inline int insert_sentinel(int b, int sc, int* scores, int* out, int n) noexcept nogil:
    """``insert_move`` for a weight array whose ``scores[-1]`` is above every weight (the
    shifting loop needs no test of the index)."""
    cdef int i = n
    while scores[i - 1] < sc:
        scores[i] = scores[i - 1]
        out[i] = out[i - 1]
        i -= 1
    scores[i] = sc
    out[i] = b
    return n + 1


cdef int order_moves(ctx_t* c, uint64_t reps, int turn, int hint, int* out) noexcept nogil:
    """Write the cards of ``reps`` into ``out`` best-first; returns how many.  Four seats in
    two partnerships that both want tricks get DDS's weights for the card's place in the
    trick, other layouts ``order_moves_plain``."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int scores_at[65]
    cdef int* scores = &scores_at[1]
    cdef int n = 0, b, sc, su, killer = -1, tleft = 0, forced = -1
    cdef lead_suit_t ls
    cdef second_t f2
    cdef uint64_t m = reps, lm, hb, first
    if not (reps & (reps - 1)):
        # one card to play (a singleton, a run, the only card of the suit led): no weights
        if not reps:
            return 0
        out[0] = lowest_bit(reps)
        return 1
    if (c.plain_tn >> s.tn) & 1:
        return order_moves_plain(c, reps, turn, hint, out)
    scores_at[0] = INF * 64         # above every weight (insert_sentinel)
    if s.tn == 0:
        killer = -1 if c.static_order else c.killer[popcnt(s.live)]
        tleft = c.tricks_of[popcnt(s.live)]
    elif s.tn >= 2 and not (reps & ~L.suit_mask[s.led]):
        # following suit, the third and fourth hands' orders are two runs, lowest first
        if s.tn == 3:
            first = 0 if s.wpos == 1 else reps & above(s.tbits[s.wpos])
        else:
            lm = L.suit_mask[s.led]
            hb = s.hands[c.seat_at[turn + 1]] & lm
            if hb and highest_bit(hb) > highest_bit(reps):
                forced = force_out(c, reps, hb, s.tbits[s.wpos], s.wpos == 1)
            first = third_follow_first(c, turn, reps, forced)
        m = reps & first
        while m:
            out[n] = lowest_bit(m)
            m &= m - 1
            n += 1
        m = reps & ~first
        while m:
            out[n] = lowest_bit(m)
            m &= m - 1
            n += 1
        return n
    if s.tn == 0:
        for su in range(c.nsu):
            m = reps & L.suit_mask[su]
            if m:
                lead_suit_dds(c, turn, su, tleft, &ls)
            while m:
                b = lowest_bit(m)
                m &= m - 1
                n = insert_sentinel(b, lead_weight_dds(c, &ls, turn, b, hint, killer), scores, out, n)
        return n
    # no history count of cut-offs to break ties here: it cost 1% more nodes
    if s.tn == 1:
        # (a loop of its own: with one loop for every seat, gcc warned that f2 might be
        # read unset, not seeing that it is set and read under the same test)
        second_setup(c, turn, &f2)
        while m:
            b = lowest_bit(m)
            m &= m - 1
            n = insert_sentinel(b, second_weight_dds(c, &f2, turn, b), scores, out, n)
        return n
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if s.tn == 2:
            sc = third_weight_dds(c, turn, b)
        else:
            sc = fourth_weight_dds(c, turn, b)
        n = insert_sentinel(b, sc, scores, out, n)
    return n


cdef int order_moves_plain(ctx_t* c, uint64_t reps, int turn, int hint, int* out) noexcept nogil:
    """``order_moves`` for the other layouts and positions: the table's card first, then
    DDS-style heuristics in fixed tiers."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int scores[64]
    cdef int n = 0, b, sc, i, su, top, pos, wseat, wbit = 0, partner_win = 0, last = 0, o
    cdef int my_team = in_side(c, turn)
    cdef int want_win = my_team == ((c.maxmask >> turn) & 1)
    cdef uint64_t live = all_hands(c), m = reps, sm, opp_hands = 0, eligible = 0, rest_opp = 0
    cdef uint64_t opp_ruff_suits = 0, partner_ruff_suits = 0, hb
    cdef int sw, rel, rk, beats, sure, partner_safe = 0
    cdef int killer = c.killer[popcnt(live)] if (KILLER or c.lone_min) and not c.static_order else -1
    for o in range(c.n):
        if o == turn:
            continue
        if in_side(c, o) != my_team:
            opp_hands |= s.hands[o]
    if s.tn == 0:
        # suits a seat of either team could ruff (void, holding trumps)
        if L.trump_mask:
            for su in range(c.nsu):
                sm = L.suit_mask[su]
                if sm == L.trump_mask:
                    continue
                for o in range(c.n):
                    if o != turn and not (s.hands[o] & sm) and (s.hands[o] & L.trump_mask):
                        if in_side(c, o) != my_team:
                            opp_ruff_suits |= 1 << su
                        else:
                            partner_ruff_suits |= 1 << su
    else:
        eligible = L.trump_mask | L.suit_mask[s.led]
        pos = s.wpos
        wbit = s.tbits[pos]
        wseat = c.seat_at[s.leader + pos]
        partner_win = in_side(c, wseat) == my_team
        last = s.tn == c.n - 1
        for i in range(s.tn + 1, c.n):
            o = c.seat_at[s.leader + i]
            if in_side(c, o) != my_team:
                hb = s.hands[o] & L.suit_mask[s.led]
                if not hb:
                    hb = s.hands[o] & L.trump_mask
                rest_opp |= hb
        partner_safe = not (rest_opp & above(wbit) & eligible)
    while m:
        b = lowest_bit(m)
        m &= m - 1
        su = L.suit_of_bit[b]
        sm = L.suit_mask[su]
        rel = b - c.suit_low[su]            # rank within the suit (bigger = higher)
        if b == hint:
            sc = 1 << 20
        elif b == killer:
            sc = 1 << 19
        elif s.tn == 0:
            top = highest_bit((live | s.table) & sm)
            sw = 0
            if SUITW:
                # a smaller tree: the opponents hold few cards of the suit (DDS)
                sw = -SUITW * popcnt(opp_hands & sm)
            if not want_win:
                # first a card the other team must beat (one of its seats holds only
                # higher cards of the suit): it loses its trick, or hands it to them;
                # then the cards with the most cards of the other team above them, the
                # lower of equals first.  A paranoid minimum (weights tuned on node
                # counts, session 18): the higher of equals first, a card the other team
                # must beat barely ahead, a trump after the plain cards
                rk = rel if c.lone_min else -rel
                sc = 16 * popcnt(opp_hands & sm & above(b)) + rk
                for o in range(c.n):
                    if in_side(c, o) != my_team and (s.hands[o] & sm) and not (s.hands[o] & sm & (bit(b) - 1)):
                        sc = (8 if c.lone_min else 3000) + rk
                        break
                if c.lone_min and (L.trump_mask >> b) & 1:
                    sc -= 500
            elif top == b:
                sc = 6000 if not (opp_ruff_suits >> su) & 1 else 1000
                sc += 16 * popcnt(s.hands[turn] & sm) + sw
            elif in_side(c, c.owner[top]) == my_team:
                sc = (5000 if not (opp_ruff_suits >> su) & 1 else 800) - rel + sw
                if LEADW:
                    sc += lead_adjust(c, turn, sm, top, 1)
            elif (partner_ruff_suits >> su) & 1 and not (opp_ruff_suits >> su) & 1:
                sc = 4000 - rel + sw
            else:
                # lead where the opponents' top card is not alone; prefer low cards
                sc = 2000 - OPPABOVE * popcnt(opp_hands & sm & above(b)) + RELCO * rel + sw
                if (opp_ruff_suits >> su) & 1:
                    sc -= 1000
                if LEADW:
                    sc += lead_adjust(c, turn, sm, top, 0)
        else:
            beats = (eligible >> b) & 1 and b > wbit    # would win the trick so far
            # ... and surely: nobody of the other team still to play beats it
            sure = beats and (last or not (rest_opp & above(b) & (L.trump_mask | sm)))
            if not want_win:
                if sure:
                    sc = -6000 + rel    # a trick it takes anyway: with its highest such card
                elif beats:
                    sc = -3000 - rel
                else:
                    sc = 1000 + rel     # it cannot win this trick: shed the highest such card
            else:
                if partner_win and partner_safe:
                    sc = (-1000 - rel) if beats else (1000 - rel)   # let it stand, play low
                elif sure:
                    sc = 5000 - b                    # a sure winner: the cheapest first
                elif beats and not partner_win:
                    sc = (3000 - b) if s.tn != 1 else (-100 - rel)   # second hand low
                elif partner_win:
                    sc = 1000 - rel
                else:
                    sc = -rel
                if DISC and su != s.led and not beats:
                    sc += DISC * popcnt(s.hands[turn] & sm)   # discard from a long suit
        # a history count of cut-offs breaks ties
        sc = sc * 1024 + ((c.hist[turn][b] if c.hist[turn][b] < 1023 else 1023) if HIST and not c.static_order else 0)
        n = insert_move(b, sc, scores, out, n)
    return n


# --------------------------------------------------------------------------------------
# the search

cdef int last_trick(ctx_t* c, uint64_t* rel) noexcept nogil:
    """Every seat holds one card (at a trick boundary): play them out."""
    cdef state_t saved = c.s
    cdef int i, seat, tv = 0
    for i in range(c.n):
        seat = c.seat_at[c.s.leader + c.s.tn]
        tv = apply_card(c, lowest_bit(c.s.hands[seat]))
    rel[0] = bit(c.s.rank_win) if c.s.rank_win >= 0 else 0
    c.nodes += 1
    c.s = saved
    return tv


cdef inline uint64_t run_below(ctx_t* c, int b) noexcept nogil:
    """The cards that ``b`` stands for: those of its holder just below it in its suit (no
    other live card between them, same class)."""
    cdef uint64_t live = all_hands(c) | c.s.table, out = 0, below
    cdef uint64_t mine = c.s.hands[c.owner[b]]
    cdef int nb
    while True:
        below = live & (bit(b) - 1) & c.L.suit_mask[c.L.suit_of_bit[b]]
        if not below:
            break
        nb = highest_bit(below)
        if not (mine >> nb) & 1 or c.cls[nb] != c.cls[b]:
            break
        out |= bit(nb)
        b = nb
    return out


cdef inline int play_search(ctx_t* c, int b, int beta, uint64_t* rel) noexcept nogil:
    """Value of the remaining play after the seat to move plays ``b`` (null window below
    ``beta``); ``rel``: the cards the result relies on.  When ``b`` itself matters, so do
    the holders of the cards it stands for (the run below it): the equivalence that let
    the search skip them must hold wherever the result is reused.  ``ab``'s loop writes
    the same steps out (keep the two alike)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int su = L.suit_of_bit[b], turn = c.seat_at[s.leader + s.tn]
    cdef int v, o_wpos
    cdef uint64_t o_own = s.own[su]
    if s.tn == c.n - 1:
        v = play_last_card(c, b, beta, rel)
    else:
        # a card that does not complete the trick: made and taken back in place (the search
        # below leaves the state as it found it, the table cards before this one included)
        o_wpos = s.wpos
        place_card(c, b, turn, su)
        v = ab(c, beta, rel)
        unplace_card(c, b, turn, su, o_wpos, o_own)
    if (rel[0] >> b) & 1:
        rel[0] |= run_below(c, b)       # (the state is back as it was before ``b``)
    return v


cdef int play_last_card(ctx_t* c, int b, int beta, uint64_t* rel) noexcept nogil:
    """``play_search`` for the card that completes a trick: what apply_card changes is
    saved and put back (the next tricks overwrite the table cards too)."""
    cdef state_t* s = &c.s
    cdef int su = c.L.suit_of_bit[b], turn = c.seat_at[s.leader + s.tn]
    cdef int lw = (4 * (turn * c.nsu + su)) >> 6
    cdef uint64_t o_own = s.own[su], o_lens = s.lens[lw], o_live = s.live, o_hand = s.hands[turn]
    cdef uint64_t o_tail[8]     # the state from ``table`` on (the trick and its rule state)
    cdef int tv, v
    memcpy(o_tail, &s.table, TAIL)
    tv = apply_card(c, b)
    rel[0] = 0
    if s.done:
        v = tv
    else:
        v = tv + ab(c, beta - tv, rel)
    if s.rank_win >= 0:
        rel[0] |= bit(s.rank_win)
    s.own[su] = o_own
    s.lens[lw] = o_lens
    s.live = o_live
    s.hands[turn] = o_hand
    memcpy(&s.table, o_tail, TAIL)
    return v


cdef int ab(ctx_t* c, int beta, uint64_t* rel) noexcept nogil:
    """Fail-soft null-window search: is the side's remaining value ``>= beta``?  Returns a
    value ``v`` with ``v >= beta`` a lower bound or ``v < beta`` an upper bound; ``rel``
    gets the live cards whose holders the answer relies on."""
    cdef state_t* s = &c.s
    cdef int lo, hi, turn, n_moves, i, b, v, best, best_card = -1, hint = -1, tleft = 0
    cdef int maximise, cut
    cdef uint64_t rlo, rhi, crel, acc = 0, moves
    cdef pkey_t key
    cdef entry_t* e
    cdef int order[64]
    cdef int at_boundary = s.tn == 0
    cdef int use_tt = 0
    c.nodes += 1
    rel[0] = 0
    if at_boundary:
        # (play stops only at the end of a trick: mid-trick positions need no test)
        if s.done:
            return 0
        tleft = tricks_left(c)
        if tleft == 1:
            return last_trick(c, rel)
        check_interrupt(&c.guard, c.nodes)
        use_tt = USE_TT
        if use_tt:
            make_key(c, &key)
            __builtin_prefetch(&c.heads[key.h & c.hmask])
    global C_BND, C_BCUT, C_TTCUT, C_MID, C_MIDCUT
    if STATS:
        if at_boundary:
            C_BND += 1
        else:
            C_MID += 1
    if use_tt and tleft >= TT_FIRST:
        # deep positions: the table before the bounds (DDS's order from five tricks left:
        # a hit spares the bounds' work, for a little less precise winning ranks)
        e = tt_probe(c, &key, beta, &hint)
        if e != NULL:
            if STATS:
                C_TTCUT += 1
            rel[0] = entry_cards(c, e)
            return e.lo if e.lo >= beta else e.hi
    if at_boundary or beta <= 1 or c.objective == OBJECTIVE_NIL or beta >= c.tricks_of[popcnt(s.live) + s.tn]:
        value_bounds(c, &lo, &hi, &rlo, &rhi, beta)
    else:
        # mid-trick, one trick cannot decide the probe (value_bounds would give 0 and the
        # tricks left): no call
        lo = 0
        hi = INF
    if hi < beta:
        rel[0] = rhi
        if STATS:
            if at_boundary:
                C_BCUT += 1
            else:
                C_MIDCUT += 1
        return hi
    if lo >= beta:
        rel[0] = rlo
        if STATS:
            if at_boundary:
                C_BCUT += 1
            else:
                C_MIDCUT += 1
        return lo
    if use_tt and tleft < TT_FIRST:
        e = tt_probe(c, &key, beta, &hint)
        if e != NULL:
            if STATS:
                C_TTCUT += 1
            rel[0] = entry_cards(c, e)
            return e.lo if e.lo >= beta else e.hi
    turn = c.seat_at[s.leader + s.tn]
    maximise = (c.maxmask >> turn) & 1
    moves = legal_moves(c.L, s.hands[turn], s.led, s.trick_index, s.played, s.suits_led)
    if not (moves & (moves - 1)):
        # one legal card (a singleton of the suit led, say) or none: no representatives,
        # no ordering call (lowest_bit(0) is an unspecified value, not read then)
        order[0] = lowest_bit(moves)
        n_moves = moves != 0
    else:
        n_moves = order_moves(c, representatives(c, moves), turn, hint, order)
    best = -INF if maximise else INF
    cdef int64_t n0 = c.nodes, nfail = 0
    cdef uint64_t skip = 0, sm, rs, o_own
    cdef int su, o_wpos, last_pos = c.n - 1
    for i in range(n_moves):
        b = order[i]
        if (skip >> b) & 1:
            continue
        if STATS:
            nfail = c.nodes - n0
        # play_search's body, written out here: gcc keeps play_search a function of its
        # own (it recurses through ab), and the call cost ~2% of the instructions
        su = c.L.suit_of_bit[b]
        if s.tn == last_pos:
            v = play_last_card(c, b, beta, &crel)
        else:
            o_own = s.own[su]
            o_wpos = s.wpos
            place_card(c, b, turn, su)
            v = ab(c, beta, &crel)
            unplace_card(c, b, turn, su, o_wpos, o_own)
        if (crel >> b) & 1:
            crel |= run_below(c, b)
        if maximise:
            if v > best:
                best = v
                best_card = b
            if v >= beta:
                acc = crel
                if i > 0 and c.note_cuts:
                    c.hist[turn][b] += 1    # (read only by order_moves_plain)
                if c.note_killer and s.tn == 0 or KILLER:
                    c.killer[popcnt(all_hands(c))] = <int8_t>b
                break
        else:
            if v < best:
                best = v
                best_card = b
            if v < beta:
                acc = crel
                if i > 0 and c.note_cuts:
                    c.hist[turn][b] += 1    # (read only by order_moves_plain)
                if c.note_killer and s.tn == 0 or KILLER:
                    c.killer[popcnt(all_hands(c))] = <int8_t>b
                break
        acc |= crel
        if PRUNE:
            # DDS's small cards: when no card of the suit at or below b mattered to the
            # result, every lower card of the suit would give the same result (the
            # positions agree on the holders of all the cards that mattered)
            sm = c.L.suit_mask[su]
            if not (sm & c.nonuni):
                rs = crel & sm
                if not rs:
                    skip |= sm
                elif lowest_bit(rs) > b:
                    skip |= sm & (bit(lowest_bit(rs)) - 1)
    if STATS and ((maximise and best >= beta) or (not maximise and best < beta)):
        CS[hint >= 0][s.tn][i if i < 5 else 5] += 1
        WASTE[s.tn][tleft if s.tn == 0 else 0] += nfail
        WASTE[s.tn][13] += c.nodes - n0 - nfail
    elif STATS:
        CS[hint >= 0][s.tn][6] += 1
    rel[0] = acc
    if use_tt:
        cut = (best >= beta) == (maximise == 1)
        if not cut and HINT_ALL == 0:
            best_card = -1
        if best >= beta:
            tt_store(c, &key, acc, best, INF, best_card, tleft)
        else:
            tt_store(c, &key, acc, -INF, best, best_card, tleft)
    return best


cdef int first_guess(ctx_t* c) noexcept nogil:
    """The first probe of a paranoid minimum: 1, whether the others can force a trick on
    the seat at all (the values are mostly 0 to 3; Oh Hell's fewest tricks, 8 cards, 100
    deals: nodes -10% to -20% against bisecting, 10 cards, 30 deals: -2% to -6%; 2, or one
    above the seat's top cards, did as well, 3 worse; on four whole Spades deals, values
    4-8, 170 M -> 206 M nodes, one deal's probes from below costing more: a whole deal's
    Nil question is asked with ``objective='nil'`` instead).

    Of a full bridge-like deal (four seats in two partnerships that both want tricks, a
    trump suit, 13 tricks left): one trick above an estimate of the side's tricks from its
    top cards (4-3-2-1 for the four best cards of every suit), its trumps and the short
    side suits of either team (a least-squares fit to 1,500 random bridge deals: residual
    1.1 tricks).  A probe above the value is cheap and its fail-soft answer is usually the
    value itself, after which one probe at the value ends the search; probing just below
    it costs a probe at the value plus one above.

    Else 0 (bisect).  Only the order of the probes depends on it, never a value."""
    cdef const layout_t* L = c.L
    cdef uint64_t sidec = 0, sm
    cdef int seat, su, r, n_su, hcp = 0, trumps = 0, short_s = 0, short_o = 0, est
    if c.lone_min:
        return 1
    if not c.dds_lead or not L.trump_mask or tricks_left(c) != 13 or c.s.tn:
        return 0
    for seat in range(c.n):
        if in_side(c, seat):
            sidec |= c.s.hands[seat]
    for su in range(c.nsu):
        sm = L.suit_mask[su]
        for r in range(4):
            if (sidec >> (c.suit_top[su] - r)) & 1:
                hcp += 4 - r
        if sm == L.trump_mask:
            trumps = popcnt(sidec & sm)
            continue
        for seat in range(c.n):
            n_su = seat_len(c, seat, su)
            if n_su < 2:
                if in_side(c, seat):
                    short_s += 2 - n_su
                else:
                    short_o += 2 - n_su
    # weights in 64ths: -7.83 + 0.393 hcp + 0.967 trumps + 0.419 short - 0.481 short_o
    est = -501 + 25 * hcp + 62 * trumps + 27 * short_s - 31 * short_o
    return ((est + 32) >> 6) + GUESS_UP if est > -32 else GUESS_UP


cdef int mtd_after(ctx_t* c, int b, int guess) noexcept nogil:
    """Exact value after the seat to move plays ``b`` (``b < 0``: of the position itself):
    null-window probes narrow [lower, upper] from the position's value bounds (the first
    at ``guess`` when it lies inside them, else bisecting; the next ones probe next to the
    bound the last answer moved)."""
    cdef int lower, upper, g, beta = 0, lo, hi, tv, first
    cdef uint64_t r1, r2
    cdef state_t saved
    if b >= 0:
        saved = c.s
        tv = apply_card(c, b)
        value_bounds(c, &lo, &hi, &r1, &r2, -1)
        c.s = saved
        lower = tv + lo
        upper = tv + hi
    else:
        value_bounds(c, &lo, &hi, &r1, &r2, -1)
        lower = lo
        upper = hi
    g = guess
    first = 1
    note_bounds(&c.guard, lower, upper)
    cdef int np_ = 0
    cdef int pb[16]
    cdef int64_t pn[16]
    cdef int64_t n0
    while lower < upper:
        if first and guess > lower:
            beta = guess if guess < upper else upper
        elif MTD_MODE == 0 or first:
            beta = lower + (upper - lower + 1) // 2
        elif g >= beta:
            beta = lower + 1
        else:
            beta = upper
        first = 0
        n0 = c.nodes
        if b >= 0:
            g = play_search(c, b, beta, &r1)
        else:
            g = ab(c, beta, &r1)
        if STATS and np_ < 16:
            pb[np_] = beta
            pn[np_] = c.nodes - n0
            np_ += 1
        if g < beta:
            upper = g
        else:
            lower = g
        note_bounds(&c.guard, lower, upper)     # what an interrupt keeps
    if STATS:
        for g in range(np_):
            PROBE[0][min(max(pb[g] - lower + 7, 0), 15)] += 1
            PROBE[1][min(max(pb[g] - lower + 7, 0), 15)] += pn[g]
    return lower


cdef int follow_line(ctx_t* c, int value, int8_t* line, int* side_tricks) noexcept nogil:
    """Play one optimal line from the current state (whose exact value is ``value``) to the
    end, recording the cards; returns the number of cards played.  Each step keeps the
    first card, in an order of the position alone, whose child provably has the position's
    value (a null-window probe per card tried), so the line (the last trick's winner) is
    the same whatever deals the table and the killer cards saw before."""
    cdef state_t* s = &c.s
    cdef int n_line = 0, turn, maximise, n_moves, i, b, chosen, tv
    cdef int order[64]
    cdef uint64_t r
    while not s.done and (all_hands(c) or s.tn):
        turn = c.seat_at[s.leader + s.tn]
        maximise = (c.maxmask >> turn) & 1
        # the line must not depend on the deals solved before (their table entries, killer
        # cards and history): the cards are tried in an order of the position alone
        c.static_order = 1
        n_moves = order_moves(c, representatives(c, legal_moves(c.L, s.hands[turn], s.led, s.trick_index,
                                                                s.played, s.suits_led)),
                              turn, -1, order)
        c.static_order = 0
        chosen = order[0]
        if n_moves > 1:
            for i in range(n_moves):
                b = order[i]
                if maximise:
                    if play_search(c, b, value, &r) >= value:
                        chosen = b
                        break
                else:
                    if play_search(c, b, value + 1, &r) <= value:
                        chosen = b
                        break
        line[n_line] = <int8_t>chosen
        n_line += 1
        tv = apply_card(c, chosen)
        value -= tv
        if s.tn == 0 and in_side(c, s.last_winner):
            side_tricks[0] += 1
    return n_line


# --------------------------------------------------------------------------------------
# set-up shared by the Python entry points

cdef void init_ctx(ctx_t* c, const layout_t* L, head_t* heads, uint64_t n_heads, entry_t* pool,
                   int64_t pool_size, int side, int goal_max) noexcept nogil:
    cdef int su, b, uniform, top
    cdef uint64_t sm
    c.L = L
    c.n = L.n_seats
    c.nsu = L.n_suits
    c.LW = (L.n_seats * L.n_suits * 4 + 63) // 64
    c.objective = L.objective
    c.all_seats = (1 << L.n_seats) - 1
    for b in range(24):
        c.seat_at[b] = <int8_t>(b % L.n_seats)
    for b in range(72):
        c.tricks_of[b] = <int8_t>(b // L.n_seats)
    c.heads = heads
    c.hmask = n_heads - 1
    c.gen = 1
    c.n_heads_used = 0
    c.pool = pool
    c.links = <link_t*>&pool[pool_size]     # (the pool's array holds the links after it)
    c.links_size = LINKS * pool_size
    c.links_used = 0
    c.pool_size = pool_size
    c.pool_used = 0
    c.nodes = 0
    tc_guard_init(&c.guard)
    memset(c.hist, 0, sizeof(c.hist))
    memset(c.killer, -1, sizeof(c.killer))
    c.static_order = 0
    memset(c.owner, 0, sizeof(c.owner))
    # classes: cards of a suit are interchangeable by rank unless a rule tells them apart
    for b in range(64):
        c.cls[b] = 0
        c.suit_cls[b] = -1
        if b < L.n_cards:
            sm = bit(b)
            c.cls[b] = <int8_t>((1 if L.lead_restricted & sm else 0) | (2 if L.breakers & sm else 0)
                                | (4 if L.first_trick_forbidden & sm else 0)
                                | (8 if b == L.first_lead_bit else 0) | (16 if b == L.must_play_bit else 0))
            c.suit_cls[b] = <int8_t>(L.suit_of_bit[b] * 32 + c.cls[b])
    c.nonuni = 0
    c.suited = c.suit_tops = c.suit_lows = 0
    for su in range(L.n_suits):
        sm = L.suit_mask[su]
        top = highest_bit(sm)
        c.suit_top[su] = top
        c.suit_low[su] = lowest_bit(sm)
        c.suited |= sm
        c.suit_tops |= bit(top)
        c.suit_lows |= bit(lowest_bit(sm))
        uniform = 1
        for b in range(top + 1):
            if (sm >> b) & 1 and c.cls[b] != c.cls[top]:
                uniform = 0
        if not uniform:
            c.nonuni |= sm
    set_side(c, side, goal_max)


cdef inline void set_side(ctx_t* c, int side, int goal_max) noexcept nogil:
    c.side = side
    c.maxmask = side if goal_max else (c.all_seats & ~side)
    c.dds_lead = LEADMODE and c.n == 4 and (side == 5 or side == 10) and c.maxmask == side
    # (module settings read once here, not per node)
    c.plain_tn = 0xFF if not c.dds_lead else ((~FOLLOWMODE) << 1) & 0xFE
    c.note_cuts = not c.dds_lead or FOLLOWMODE != 7
    c.lone_min = (c.objective == OBJECTIVE_TRICKS and popcnt(<uint64_t>side) == 1 and not goal_max)
    c.note_killer = KILLER or c.dds_lead or c.lone_min


cdef void init_key_words(ctx_t* c) noexcept nogil:
    """``own`` and ``lens`` of the state from its hands (then kept up to date by apply_card)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t m, own
    cdef int i, su, pos, j, b
    for i in range(LENW):
        s.lens[i] = 0
    pos = 0
    for i in range(c.n):
        for su in range(c.nsu):
            s.lens[pos >> 6] |= (<uint64_t>popcnt(s.hands[i] & L.suit_mask[su])) << (pos & 63)
            pos += 4
    for su in range(MAXS):
        s.own[su] = 0
    for su in range(c.nsu):
        m = s.live & L.suit_mask[su]
        own = 0
        j = 0
        while m and j < 16:
            b = highest_bit(m)
            m &= ~bit(b)
            own |= (<uint64_t>c.owner[b]) << (4 * j)
            j += 1
        s.own[su] = own


cdef void init_state(ctx_t* c, const uint64_t* hands, int leader, uint64_t played,
                     int suits_led, int trick_index) noexcept nogil:
    cdef state_t* s = &c.s
    cdef int i
    cdef uint64_t m
    memset(s, 0, sizeof(state_t))
    for i in range(c.n):
        s.hands[i] = hands[i]
        m = hands[i]
        while m:
            c.owner[lowest_bit(m)] = <int8_t>i
            m &= m - 1
    s.live = 0
    for i in range(c.n):
        s.live |= hands[i]
    init_key_words(c)
    s.leader = leader
    s.led = -1
    s.played = played
    s.suits_led = suits_led
    s.trick_index = trick_index
    s.last_winner = -1
    s.rank_win = -1


def _sizes(double tt_mb, int live_cards):
    """Heads and pool entries (powers of two) within ``tt_mb``, no more than the position
    needs.  Above 40 live cards (a whole 52-card deal) the table is the largest that
    ``tt_mb`` allows (up to 2^24 heads and 2^26 entries): the default 256 MB gives 2^19
    heads and 2^21 entries (176 MB), which a bridge deal's search fills little
    (the same nodes at 64 MB), but a seat's paranoid minimum over a whole deal fills it
    many times over.  Session 25, the first four Spades deals of ``bench_bids.py`` (seed
    2026), seat 0's fewest tricks, 23.9 s at 256 MB (139.5 M nodes on the second deal),
    19.2 s at 1024 (109.0 M); at 64 MB 32.0 s (291.9 M).  Oh Hell at 13 cards, the same
    nodes at 256 and 1024 MB (69.7 M on its heavier deal), 2.6x at 64."""
    cdef int64_t heads, pool
    if live_cards <= 20:
        heads, pool = 1 << 10, 1 << 12
    elif live_cards <= 32:
        heads, pool = 1 << 14, 1 << 16
    elif live_cards <= 40:
        heads, pool = 1 << 16, 1 << 18
    else:
        heads, pool = 1 << 24, 1 << 26
    while heads > 16 and _bytes(heads, pool) > tt_mb * 1048576.0:
        heads //= 2
        pool //= 2
    return int(heads), int(pool)


cdef inline double _bytes(int64_t heads, int64_t pool):
    """Bytes of a table of ``heads`` heads and ``pool`` entries with their links."""
    return heads * sizeof(head_t) + pool * (sizeof(entry_t) + LINKS * sizeof(link_t))


cdef extern from *:
    """
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void trickcore_hugepages(void* p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        (void)madvise(p, n, MADV_HUGEPAGE);
    #else
        (void)p; (void)n;
    #endif
    }
    """
    void trickcore_hugepages(void* p, size_t n) nogil


cdef enum:
    HUGE = 1 << 21          # bytes of a huge page (x86-64, arm64)


cdef size_t HUGE_FROM = 8 << 20     # tables from this size get huge pages


def _huge_array(size_t nbytes):
    """Zeroed memory for a table of ``nbytes``: ``(array, offset)``, the table starting
    ``offset`` words into ``array``.  A large table starts at a huge page boundary and asks
    the kernel for huge pages (Linux, ``madvise``; nothing is touched here, the pages fill
    as the search writes them): the table is probed at random, and with 4 KB pages nearly
    every probe of a full bridge table missed the TLB."""
    cdef uint64_t[::1] a
    cdef size_t p, start
    if nbytes < HUGE_FROM:
        return np.zeros(nbytes // 8, dtype=np.uint64), 0
    arr = np.zeros((nbytes + HUGE) // 8, dtype=np.uint64)
    a = arr
    p = <size_t>&a[0]
    start = (p + HUGE - 1) & ~(<size_t>HUGE - 1)
    trickcore_hugepages(<void*>start, nbytes)
    return arr, (start - p) // 8


def table_bytes(double tt_mb, int live_cards):
    """Bytes of the table a search of ``live_cards`` cards allocates within ``tt_mb``
    (:func:`_sizes`; a large table's alignment to a huge page adds address space, not
    memory that is written)."""
    nh, npool = _sizes(tt_mb, live_cards)
    return int(_bytes(nh, npool))


#: Tables kept between calls, one free table per size: ``(heads, pool entries)`` ->
#: ``[heads, pool, generation]`` (:func:`_take_table`, :func:`_give_back`).
_free_tables = {}


def _take_table(double tt_mb, int live_cards):
    """``(heads, pool entries, table)`` for a search of ``live_cards`` cards within
    ``tt_mb``: the free table of that size a call before gave back, else a new one
    (:func:`_huge_array`'s ``(array, offset)`` for the heads and for the pool, then the
    generation its heads were last written in, 0 for fresh memory).

    Why keep them: a bridge table is tens of MB, and fresh memory is zeroed by the kernel
    page by page as the search first writes it: a ``solve`` per bridge deal (every card's
    value, as ``bench_solver_dds.py --every-card`` asks) spent 3.4% of its samples in the
    OS's page clearing and 7-10% of its time on fresh tables.
    A table taken again is emptied by a new generation (:func:`resume_table`), without a
    pass over it.  Threads never share one: a table is taken out of ``_free_tables``
    (under the GIL) for the whole call, and a second thread asking for the same size meanwhile
    makes its own.  Like DDS's tables, a size's table stays allocated once used (a whole
    bridge deal's search writes about 40 MB of its 176), up to the default size
    (:data:`KEEP_TABLE_BYTES`)."""
    nh, npool = _sizes(tt_mb, live_cards)
    table = _free_tables.pop((nh, npool), None)
    if table is None:
        table = [_huge_array(nh * sizeof(head_t)),
                 _huge_array(npool * (sizeof(entry_t) + LINKS * sizeof(link_t))), 0]
    return nh, npool, table


#: Tables larger than this are not kept (a caller's ``tt_mb`` above the default 256 MB)
KEEP_TABLE_BYTES = 256 << 20


def _give_back(nh, npool, table, int generation):
    """Keep ``table`` for the next call of its size (:func:`_take_table`), its heads last
    written in ``generation``, unless it is larger than :data:`KEEP_TABLE_BYTES` (a search
    given more memory than the default fills it, and would keep it resident).  Only a
    search that ended normally gives its table back."""
    if _bytes(nh, npool) > KEEP_TABLE_BYTES:
        return
    table[2] = generation
    _free_tables.setdefault((nh, npool), table)


cdef void init_ctx_on(ctx_t* c, const layout_t* L, list table, uint64_t n_heads, int64_t pool_size,
                      int side, int goal_max):
    """:func:`init_ctx` on a table of :func:`_take_table` (``n_heads`` heads, ``pool_size``
    entries), in the generation after the one its heads were last written in.  The caller
    keeps ``table`` (its arrays) alive for the search."""
    cdef uint64_t[::1] heads = table[0][0]
    cdef uint64_t[::1] pool = table[1][0]
    init_ctx(c, L, <head_t*>&heads[<Py_ssize_t>table[0][1]], n_heads, <entry_t*>&pool[<Py_ssize_t>table[1][1]],
             pool_size, side, goal_max)
    resume_table(c, table[2])


cdef void resume_table(ctx_t* c, int generation) noexcept nogil:
    """After :func:`init_ctx` on a table a call before used, its heads last written in
    ``generation`` (0: fresh memory, nothing to do): start the next generation, so that
    every head reads as empty (:func:`tt_clear`'s way, without counting a clear)."""
    if generation == 0:
        return
    c.gen = generation
    next_generation(c)


def supports(CoreLayout core):
    """True when this kernel can solve the layout: objective 'tricks' or 'nil', at most 8
    effective suits of at most 16 cards (the holders of a suit fit one key word)."""
    cdef const layout_t* L = &core.c
    if L.objective != OBJECTIVE_TRICKS and L.objective != OBJECTIVE_NIL:
        return False
    if L.n_suits > MAXS or L.n_seats > 8:
        return False
    for su in range(L.n_suits):
        if popcnt(L.suit_mask[su]) > 16:
            return False
    return True


def _check_layout(CoreLayout core):
    if not supports(core):
        raise ValueError(f"{core.layout.name}: not a trick-count layout this kernel can solve")


# --------------------------------------------------------------------------------------
# Python entry points (inputs already validated and translated to layout bits)

# The entry points' searches run guarded (trickcore._interrupt): Ctrl-C stops them.

cdef int search_position(void* arg) noexcept nogil:
    """:func:`solve_position`'s search, guarded: the value (or every card's) and a line."""
    cdef position_job_t* j = <position_job_t*>arg
    cdef ctx_t* c = <ctx_t*>j.ctx
    cdef state_t* s = &c.s
    cdef int i, dummy = 0, turn = (s.leader + s.tn) % c.n
    cdef int maximise = (c.maxmask >> turn) & 1
    cdef uint64_t r1, r2
    j.maximise = maximise
    value_bounds(c, &j.root_lo, &j.root_hi, &r1, &r2, -1)
    if j.card_values:
        j.n_moves = order_moves(c, representatives(c, legal_moves(
            c.L, s.hands[turn], s.led, s.trick_index, s.played, s.suits_led)), turn, -1, j.order)
        # each card's first probe at the best value so far (most cards are worth it or one
        # trick less, and a fail-soft answer below it is mostly the card's value), the
        # first card's at the deal's guess: session 24, against bisecting every card's
        # range, the same values in 4-14% fewer nodes (bridge deals with every card's
        # value: 474,502 -> 430,516 a deal; benches/RESULTS.md)
        for i in range(j.n_moves):
            j.values[i] = mtd_after(c, j.order[i], j.value if i else (first_guess(c) if USE_GUESS else 0))
            j.n_done = i + 1
            if i == 0 or (j.values[i] > j.value if maximise else j.values[i] < j.value):
                j.value = j.values[i]
    else:
        j.value = mtd_after(c, -1, 0)
    j.value_known = 1
    j.n_line = follow_line(c, j.value, j.line, &dummy)
    return 0


def solve_position(CoreLayout core, const int8_t[::1] cls, uint64_t[::1] hands, int leader,
                   const int8_t[::1] trick, uint64_t played, int suits_led, int trick_index,
                   int side, bint goal_max, double tt_mb, bint card_values, double time_budget=0,
                   int64_t node_budget=0):
    """Solve one position (as :func:`trickcore._solve.solve_position`; ``cls`` is unused:
    the classes come from the layout's rule flags, card points do not matter here).
    Returns ``(value, {bit: value}, [bits of the line], nodes)``.  A signal handler's
    exception (Ctrl-C), or ``TimeoutError`` once ``time_budget`` seconds or
    ``node_budget`` nodes are spent, stops the search and is raised, carrying what it had
    proved (``solve_progress``)."""
    cdef ctx_t c
    cdef position_job_t job
    cdef const layout_t* L = &core.c
    cdef int n = L.n_seats, i
    cdef uint64_t live = 0
    _check_layout(core)
    for i in range(n):
        live |= hands[i]
    nh, npool, table = _take_table(tt_mb, popcnt(live) + trick.shape[0])
    cdef uint64_t start[8]
    for i in range(n):
        start[i] = hands[i]
    for i in range(trick.shape[0]):
        start[(leader + i) % n] |= bit(trick[i])
    init_ctx_on(&c, L, table, nh, npool, side, goal_max)
    with nogil:
        # the table cards go back to their hands and are replayed, so that the state is
        # exactly what the search builds itself
        init_state(&c, start, leader, played, suits_led, trick_index)
        for i in range(trick.shape[0]):
            apply_card(&c, trick[i])
    if c.s.done or (all_hands(&c) == 0):
        _give_back(nh, npool, table, c.gen)
        return 0, {}, [], 0
    init_position_job(&job, &c, card_values)
    run_position(&job, &c.guard, search_position, time_budget, node_budget)
    _give_back(nh, npool, table, c.gen)
    return position_result(&job, c.nodes)


cdef inline void start_deal(ctx_t* c, const batch_job_t* j, Py_ssize_t d) noexcept nogil:
    """The state of deal ``d`` of a batch (as :func:`trickcore._solve.start_deal`)."""
    cdef int n = c.n, i
    if j.played == NULL:
        init_state(c, &j.hands[d * n], j.leaders[d], 0, 0, c.L.hand_size - popcnt(j.hands[d * n]))
        return
    init_state(c, &j.hands[d * n], j.leaders[d], j.played[d], j.suits_led[d], j.trick_index[d])
    for i in range(j.trick_len):
        apply_card(c, j.trick[d * j.trick_len + i])


cdef inline int another_deal(const uint64_t* before, const uint64_t* hands, int n) noexcept nogil:
    """Whether ``hands`` (one row of a batch) are another deal than the row ``before``
    rather than another position of the same deal: more cards moved or left than a trick
    holds (each legal card of a seat after another, as ``solve_after_cards`` asks, moves
    two; the next trick of a line ``n``)."""
    cdef int s, moved = 0
    for s in range(n):
        moved += popcnt(before[s] ^ hands[s])
    return moved > 2 * n


cdef int search_deals(void* arg) noexcept nogil:
    """:func:`solve_batch`'s loop over the deals, guarded; ``done`` counts the deals
    whose outputs are written."""
    global ST_VALUE, ST_LINE
    cdef batch_job_t* j = <batch_job_t*>arg
    cdef ctx_t* c = <ctx_t*>j.ctx
    cdef const layout_t* L = c.L
    cdef Py_ssize_t d
    cdef int n = c.n, v, st
    cdef int64_t vn
    cdef int8_t line_cards[64]
    for d in range(j.n_deals):
        set_side(c, j.sides[d], j.goal_max)
        if d and another_deal(&j.hands[(d - 1) * n], &j.hands[d * n], n):
            # a deal of its own: an empty table, and no killer card or history count
            # from the deal before (see the module docstring, "one table per deal")
            tt_clear(c)
            memset(c.hist, 0, sizeof(c.hist))
            memset(c.killer, -1, sizeof(c.killer))
        elif (2 * c.pool_used > c.pool_size or 2 * c.n_heads_used > <int64_t>(c.hmask + 1)
                or 2 * c.links_used > c.links_size):
            # positions of one deal, the table more than half full: start the position
            # with an empty table rather than clear it in the middle of a long search,
            # losing all of that position's work
            tt_clear(c)
        tc_guard_next_deal(&c.guard, c.nodes)    # (the deal before's nodes: Ctrl-C, budget)
        c.nodes = 0
        start_deal(c, j, d)
        if c.s.done or not (all_hands(c) or c.s.tn):
            v = 0                   # (nothing left to play)
        else:
            v = mtd_after(c, -1, first_guess(c) if USE_GUESS else 0)
        ST_VALUE += c.nodes
        vn = c.nodes
        j.value[d] = <int16_t>v
        if j.line:
            st = 0
            follow_line(c, v, line_cards, &st)
            ST_LINE += c.nodes - vn
            j.side_tricks[d] = <int8_t>st
            j.last_winner[d] = <int8_t>c.s.last_winner
            j.side_melds[d] = 0
            j.opp_melds[d] = 0
        else:
            j.side_tricks[d] = j.last_winner[d] = -1
            j.side_melds[d] = j.opp_melds[d] = -1
        j.nodes[d] = c.nodes
        j.done = d + 1
    return 0


def solve_batch(CoreLayout core, const int8_t[::1] cls, const uint64_t[:, ::1] hands,
                const int8_t[::1] leaders, const uint8_t[::1] sides, bint goal_max,
                double tt_mb, int16_t[::1] value, int8_t[::1] side_tricks,
                int8_t[::1] last_winner, int16_t[::1] side_melds, int16_t[::1] opp_melds,
                int64_t[::1] nodes, bint line=True, int64_t[::1] solved=None, double time_budget=0,
                int64_t node_budget=0, const int8_t[:, ::1] trick=None,
                const uint64_t[::1] played=None, const int32_t[::1] suits_led=None,
                const int16_t[::1] trick_index=None):
    """Solve ``hands.shape[0]`` deals from the start of a trick (layout bits, validated);
    fills the output arrays (melds are 0: trick objectives have none).  ``trick``,
    ``played``, ``suits_led``, ``trick_index``: positions, as in
    :func:`trickcore._solve.solve_batch`.  Runs without the
    GIL; the table is shared by the deals (its entries hold for any deal).  ``line=False``
    follows no line after the value: ``side_tricks``, ``last_winner`` and the melds are
    then -1.  A signal handler's exception (Ctrl-C), or ``TimeoutError`` once
    ``time_budget`` seconds or ``node_budget`` nodes (over all the deals) are spent (0: no
    budget), stops the search and is raised, carrying the deal in progress and its value's
    bounds so far (``solve_progress``, see ``trickcore._interrupt.run_batch``);
    ``solved[0]`` (when given) is then the number of deals whose outputs were written, the
    first ones."""
    cdef ctx_t c
    cdef batch_job_t job
    cdef const layout_t* L = &core.c
    cdef Py_ssize_t n_deals = hands.shape[0], d
    cdef int n = L.n_seats
    cdef int max_live = 0, i
    cdef uint64_t live
    _check_layout(core)
    if solved is not None and solved.shape[0] < 1:
        raise ValueError("solved must hold one count")
    global ST_VALUE, ST_LINE, ST_CLEARS, ST_LONGEST
    ST_VALUE = ST_LINE = ST_CLEARS = ST_LONGEST = 0
    for d in range(n_deals):
        live = 0
        for i in range(n):
            live |= hands[d, i]
        if popcnt(live) > max_live:
            max_live = popcnt(live)
    if n_deals == 0:
        if solved is not None:
            solved[0] = 0
        return
    nh, npool, table = _take_table(tt_mb, max_live)
    init_batch_job(&job, &c, hands, leaders, sides, goal_max, line, value, side_tricks, last_winner,
                   side_melds, opp_melds, nodes)
    set_batch_positions(&job, trick, played, suits_led, trick_index)
    init_ctx_on(&c, L, table, nh, npool, sides[0], goal_max)
    try:
        run_batch(&job, &c.guard, search_deals, time_budget, node_budget)
    finally:
        if solved is not None:
            solved[0] = job.done
    _give_back(nh, npool, table, c.gen)
