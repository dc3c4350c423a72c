# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exact double-dummy solver kernel (see :mod:`trickcore.solver` for the Python API).

Technique (after DDS and the open Skat/Schafkopf solvers):

* fail-soft alpha-beta over single card plays, driven by null-window probes
  ("can the declarer's side reach >= t?") that bisect the possible values to the exact one;
* a transposition table probed at trick boundaries.  An entry stores a lower and an upper
  bound of the value of the *remaining* play, keyed by the remaining hands (packed layout
  bits of every seat), the leader, the side mask and the rule state that still matters
  (broken, suits led while a must-play card is live).  Values of the remaining play do not
  depend on how the position was reached, so entries stay valid across deals of one call;
  a generation counter only steers replacement.  The entry's best card (tried first when
  the position comes back) is the card that cut off or the best of an exact search; a
  node where every card failed (the mover's all-node) keeps the card the entry had: its
  "best" card there is only the loosest fail-soft bound, and on the next probe of the
  bisection, at another threshold, the card that once cut is the better guess (Sheepshead
  exact values 20130 -> 18961 nodes per deal, 400 deals; callgrind over 200 deals
  -8.6%; Goathead and Clover within 0.3%);
* quasi-symmetry (Kupferschmid and Helmert's Skat solver) for the point objective: hands
  are keyed by *relative rank* (the k-th highest live card of a suit, whichever card that
  is), and each entry keeps the live cards it was proved with.  Two positions with one key
  are the same game move for move but for card points, so an entry of other cards still
  bounds the value, shifted by the point differences of the cards that stand for each
  other (``point_shift``).  Cards a rule flag sets apart within their suit must stand at
  the same relative rank in both (``special_match``).  At 2-3 tricks left 3-4x fewer keys
  are distinct than with exact cards, and the point games need 1.5-4x fewer nodes;
* one card searched per run of equivalent cards: cards of one holder, adjacent among the
  live cards (hands and table) of their effective suit, with the same points and rule flags;
* twin bounds (:func:`twin_bound`): two cards of the mover, of one suit and rule flags, with
  no other seat's card (live or on the table) between them, are worth at most ``d`` apart,
  the points between them (swapping them in every continuation keeps every trick's
  winner and moves d points between two tricks; trick melds are not in the value).  So a
  card failing low (high, for a minimiser) bounds its twins, and a twin whose bound is out
  of the window too needs no search.  Solved to cuts, a band's ends are fail-soft values
  and move with the twins, but stay valid bands, which a scorer reads alike: the
  simulations' payouts, make rates and every other scored column are the same, only
  ``side_points_lo``/``_hi`` move (at first the twins were off for bands: Goathead 3p
  to the payout 35.60M instructions and 251 nodes per deal on 300 deals against 33.21M
  and 206 with them, Sheepshead jd -9% nodes, called ace -14%).  Nodes Goathead 3p
  exact -5.9%, 4p -5.5%, Sheepshead -4.0%, Clover -8.4%; callgrind -2.6%, -3.5%, -0.1%,
  -4.1%.  Every fail-soft
  value of a twin kept (also exact ones and those at the window's edge), with the window
  of a twin not skipped narrowed to its bound: nodes Goathead 3p -0.9%, 4p -1.5% more, but
  callgrind +1% to +2% (more twin_bound calls); those at the window's edge alone (for
  twins of equal points): nodes -0.05%, callgrind +0.7% to +1.7%.  Also dropped (callgrind against the
  kept form): a failed card dropping its twins from the order at once, the loop's head
  as before (Goathead 3p exact +0.45%, Sheepshead +0.7%, Clover +0.7%, to the payout
  -0.4%); a plain loop of its own for bands (exact +0.5% to +0.7%, to the payout back
  to the old figure); the leader's two cards as twins in :func:`two_tricks3` (nodes
  +0.2%, callgrind +0.26%, the payout +0.2%); the twins in :func:`follow_line`'s probes
  (nodes -0.05%, callgrind +0.03% Goathead 3p, +0.06% 4p);
* dominated twins (:func:`trick_twins`): inside a trick, where the side taking it is
  known whichever twin the mover plays (no seat of the other team still to play can beat
  the card then winning), the twin the mover would not choose is dropped before the
  search: into the side's trick the dearer twin is worth at least as much to the side,
  into the opponents' at most as much (checked against the brute force on 2,657 such
  pairs: none the other way).  Against the twin bounds alone: nodes Goathead 3p -9.2%,
  Sheepshead -16.6%, Clover -8.8%, 4p -11.6%; callgrind -2.6%, -10.7%, -2.6%, -5.1%.  At the trick's last card only: -2.8%,
  -1.8%, -0.8%, -2.8%.  Dropped: the same at the lead, for a lead no opponent can beat
  or ruff (nodes Goathead 3p -1.5%, Clover -2.4%; callgrind Goathead 3p +0.3%, 4p +0.4%,
  Sheepshead +0.2%, Clover -1.3%); the only table card counted between twins the one
  winning the trick so far (with the twin bounds alone: nodes within 0.2% either way,
  callgrind -0.05% to +0.5%);
* move ordering (the table's best move first, then by what the player's team wants:
  at the lead winners, leads to a partner's winner or ruff, and never into an opponent's
  ruff; following, sure winners, point smears on a trick the team surely takes, cheap
  discards; see ``order_moves``).  A history count of cut-offs as a tie-break moved no
  game's node count by more than 1% once the ordering weighed ruffs and the seats still
  to play, and was dropped;
* bound cut-offs: the points (or tricks) still live cannot move the answer across the null
  window, tightened by tricks whose fate is decided (nobody left to play can beat the
  winning card), the leader's quick tricks and the sure trumps of the team holding the
  top trump (every trump of it above all the other team's trumps, ``top_trumps``), each
  with the cheapest cards the other seats must give to those tricks (5% fewer nodes on
  Goathead, 2-6% on Sheepshead and Clover; the team's trumps rather than one seat's
  run: Goathead 3p to the payout 267 -> 247 nodes, 4p 122 -> 111).  Since session 17
  card points take them at trick boundaries only (inside a trick they cost more than
  they saved: :func:`ab_mid`), and three seats without the leader's quick tricks
  (:func:`boundary_bounds`).  The side's trick
  count proved by a plain search at three tricks left, its points capped by every
  hand's dearest (or cheapest) cards for that many tricks, took 30% of the nodes off
  Goathead 3p to the payout and 20% off Sheepshead, but the searches cost more than
  the nodes (callgrind +36%, +79%): a t=3 subtree is only a few nodes of two_tricks.
  Bounds at two tricks left before ``two_tricks``, may_cut off, or looser, for the
  quick tricks, summing the quick tricks with the team's sure trumps, and a lone
  declarer's dead plain cards (a defender holds as many cards above them) capping its
  tricks all cut nodes and cost more instructions than they saved;
* a lone seat that wants few card points (Hearts, Gamut Hearts, leasters, every paranoid
  minimum) gets none of those bounds (nobody wants tricks there), but at a boundary it
  takes no more points when it can duck every trick left (:func:`ducks_everything`, the
  trick kernel's Nil test), and the others lead first a card it must beat.  Session 15,
  nodes, seat 0 leading: Hearts endings of 6, 7 and 8 tricks (100, 100, 40 deals) 5,003
  -> 3,713, 24,707 -> 15,973, 268,449 -> 182,129, two whole deals 25.8 M -> 22.1 M; Gamut
  Hearts -30%, Goathead leasters 3p -19%, 4p -12%, Sheepshead leaster -8%, Clover spades
  paranoid minimum -5%.  The lone seat leading such a card first too cost Hearts
  endings of 7 and 8 tricks 6-10%.  Other layouts: same nodes, callgrind within 0.1%;
* the last trick is played directly, the last two by :func:`two_tricks` (every line,
  no table); for five seats (Sheepshead) behind a table of their own
  (:func:`two_tricks_tt`): its 2^5 lines cost more than a key and a lookup, and the
  bisection's probes and the tricks before reach the same two-trick positions again and
  again.  Callgrind, benches' deals: Sheepshead jd 100 deals exact 752.66M -> 639.72M
  (-15%; nodes 13,175 -> 11,487 per deal), called ace 20 deals 81.03M -> 76.69M
  (-5.4%), jd 20 deals to the payout 26.52M -> 25.75M; the test in :func:`two_left`
  costs the other layouts +0.06% to +0.14%.  In the main table its entries doubled the
  simulated D1 and LL misses (jd 20 deals: 15.8k -> 31.3k, 9.4k -> 17.4k); in a table of
  its own that stays in the core's cache (4 ways, 2^10 buckets, 196 KB for Sheepshead),
  LL misses 12.3k, instructions +0.5% (jd 100 deals 643.15M: fewer hits).  Three in four
  lookups settle the position (100 deals: 182,572 lookups, 139,814 settled).  Wall time
  falls far less than instructions (``benches/bench_ab.py``, 100 bench deals: 636 -> 606
  us per deal, -4% against -15%): the lookups wait on memory (simulated D1 read misses
  209k -> 497k).  So the table is direct-mapped, ``TWO_BUCKETS`` entries of one way each
  (196 KB): one entry read per lookup, 1.4% more nodes, 1.5% fewer instructions (624.47M
  -> 615.22M) and faster (bench_ab.py, fastest of 60 calls: 602 -> 582 us, to the
  payout 197 -> 188 us; two ways of 2^11 buckets 590 and 196 us; with four ways, 2^8
  and 2^12 buckets were no faster than 2^10).  Also for four seats (16 lines): Clover
  20 deals +1.8%, Goathead 4p 300 deals +4.8% instructions in the main table; the
  direct-mapped table of its own, bench_ab.py, Clover 2.70 -> 2.86 ms, Goathead 4p 10.8
  -> 11.0 us: not kept.  Since session 31 a position the table does not settle is
  solved exactly and stored so (Sheepshead jd nodes -6.7%, time -1.5% to -4.6%; the
  same for four seats, Clover -7.4% nodes but +3.4% time; see :func:`two_tricks_tt`),
  every line of its first trick enumerated without branching on cut-offs
  (:func:`two_tricks_exact`: 1-4% faster than a full-window alpha-beta);
* for three seats (Goathead 3p) the trick at three tricks left in nested loops, every
  seat's cards highest first with the table's card first at the lead, without the
  ordering keys, equivalent cards and twins that the deeper tricks need
  (:func:`three_leads3`, :func:`three_left3`, session 32): the last three tricks took
  about half of Goathead 3p's time.  Goathead 3p hearts x0.90 in paired calls (nodes
  475 -> 562 a deal), the same values and lines;
* for five seats, the leads of a boundary with three tricks left or more behind a small
  table of their own (:func:`lead_search`, session 12): the bisection's next probe
  searches a boundary again and each lead plays its whole trick before the next
  boundary's entry cuts it off, even where the lead's bounds from the last probe already
  settle the window.  Nodes Sheepshead jd (bench's 100 deals, with the line) 11,786 ->
  10,563 (-10.4%), called ace -7.9% (40 deals) and -4.4% (30 deals, seat 1 leading and
  declaring); callgrind jd 100 deals 617.8M -> 578.4M, called ace 20 deals 73.29M ->
  70.58M (with the smaller main table); the other layouts pay the test (+0.1% to +0.3%).
  Wall time (bench_ab.py, 200 calls, fastest / 10th percentile / median): jd 574 / 587 /
  651 -> 559 / 572 / 639 us.  Four seats lose: Clover's nodes -7.6% but 2.08 -> 2.14 ms
  (with the smaller main table below); Goathead 3p +4.7% instructions, 4p +2.2%.  In
  the main table instead, or as slots beside each entry, it cost more wall time than it
  saved (see "session 12" below).

Builds per shape (session 13).  This file is compiled once as it is, the general build
(``trickcore._solve``, every layout and objective), and once more for each shape of the
point games' layouts (:data:`SHAPE_BUILDS`: seats, cards in the deck, effective suits)
by the small modules ``_solve_3x20x4.pyx`` (Goathead 3p with a trump suit),
``_solve_3x20x5.pyx`` (its court and leasters), ``_solve_4x20x4.pyx`` and
``_solve_4x20x5.pyx`` (Goathead 4p), ``_solve_4x32x4.pyx`` (Clover, Gamut hearts),
``_solve_4x52x4.pyx`` (Hearts, session 16: Hearts endings of 7 tricks, 40 deals, 442.0M
-> 401.0M instructions, whole deals about 6% less wall time) and
``_solve_5x32x4.pyx`` (Sheepshead), which define ``TC_FIXED_SEATS``, ``TC_FIXED_CARDS``,
``TC_FIXED_SUITS`` and ``TC_FIXED_OBJECTIVE`` and include this file.  Every read of the
seats, the key words, the entry stride, the suits and the objective goes through
:func:`NSEATS`, :func:`NCARDS`, :func:`KWORDS`, :func:`STRIDE`, ``TC_NSUITS`` and
:func:`OBJ` (and the key's C code through the same macros): constants in a build per
shape, so gcc unrolls the loops over the seats, the key words and the suits, folds the
seat arithmetic (``seat + 1 < n``) and drops the other objectives' branches.
:func:`trickcore.solver._kernel` sends a points layout of one of these shapes to its build
(:func:`shape_build`); a build per shape refuses any other layout (``ValueError``), and
the general build's :func:`_set_search_options` switches them all.  Same nodes and values
as the general build (md5 of every ``solve_many`` output).  Callgrind (``solve_batch``,
the benches' deals): Goathead 3p hearts 300 exact 66.54M -> 61.71M (-7.3%; seats and
deck alone 62.48M, the suits 1.2% more), Sheepshead jd 20 45.29M -> 41.18M (-9.1%;
41.69M), Clover hearts 4 42.77M -> 39.49M (-7.7%; 39.97M), Goathead 4p clubs 300 20.71M
-> 19.22M (-7.2%); wall times in ``benches/RESULTS.md``.  Tried on top and dropped: gcc's inliner limits raised further
(``max-inline-insns-single=800``, ``inline-unit-growth=400``: +0.7% on Goathead 3p).

Cost per node (callgrind instructions of ``solve_batch`` at equal nodes and values; gcc
decides much of it by what it inlines, so each change was measured, not assumed).  The
bounds inside a trick are inlined into ``ab``, :func:`trick_bound` a call of its own (now
inlined too: see the fourth pass); a boundary with two tricks left is taken by
:func:`play_last_card` without calling ``ab``; the first of the last two tricks is
played in nested loops for three seats (:func:`two_tricks3`) and a function per seat for
four (:func:`two_lead4`); key words are assigned, not cleared first; ``-fno-wrapv``
(setup.py).  Against the session's start (benches' seed, Goathead 3p hearts 300 deals,
Sheepshead 20, Clover 10): Goathead 3p payout 46.5M -> 43.3M, exact 100.7M -> 93.0M, Sheepshead 83.4M -> 79.2M, Clover
300.0M -> 281.8M, Goathead 4p clubs (300 deals) 29.7M -> 28.0M.  Tried and dropped
(Goathead 3p payout unless said): ``legal_moves`` forced inline everywhere (+0.4%),
``two_tricks`` or ``first_of_two`` kept out of line (+1.6%, +0.9%), ``-O2`` (+3.2%), the
last card of the first trick as an inlined function of its own (0%), a function per seat
for five seats (Sheepshead +0.7%) and for three (+0.4% against the loops), following in
``two_tricks3`` without ``legal_moves`` where no rule applies (-0.03%),
``cheapest_points`` skipping empty value classes (-0.1%).

A second pass at equal nodes and values (md5 of every ``solve_many`` output; callgrind
of ``solve_batch`` on the benches' deals: Goathead 3p hearts 300 exact and to the payout,
Sheepshead jd 20, Clover hearts 4) took 90.29M, 42.40M, 65.95M and 57.36M to 83.42M,
39.49M, 62.64M and 53.20M: :func:`tt_store` merges into the entry :func:`tt_lookup` found
instead of rescanning the bucket (-0.4% to -1.2%); the BMI2 key, its suits' targets and
its hash in one call that takes the layout's part as one struct (``tc_keyshape``; -1.2%
to -2.0%); :func:`base_bounds` reading the bonus's parts off the context (-1% to -1.2%);
legal cards worked out inline where no rule restricts a lead or a follow
(:func:`rule_moves`, in ``ab``, the last two tricks and :func:`trick_bound`; -1.5% to
-1.7%); ``highest_bit`` as ``63 ^ clz``, one BSR (-0.1% to -0.5%; now ``_layout``'s own, for every kernel); :func:`point_shift`
pairing cards from the lowest up; :func:`same_key` comparing the first key word first;
:func:`representatives` testing a per-card mask of its twins; :func:`ruff_threats`
without a branch per suit (each 0 to -0.45%); the later seats' legal cards once per lead
in :func:`two_tricks3` (Goathead 3p -0.7%) and :func:`two_lead4` (Clover -0.4%).  Tried
and dropped: one
``tt_store`` call for the three outcomes (+0.04%); ``ab`` as two copies of an inline
body for boundary and mid-trick nodes (gcc kept one out-of-line body taking the flag:
+0.6%); the cards that beat the trick's winner as one mask before the loops of the last
two tricks (Sheepshead +1.8%, Clover +0.9%); the following seats' legal cards once per
lead in :func:`first_of_two` (Sheepshead +3.4%); :func:`move_keys` declared inline (gcc
kept it out of line: no change); :func:`cheapest_points` capping ``m`` at the cards'
count instead of bounding the class index (-0.03% to -0.15%, left out).

A third pass at equal nodes and values (same md5s and deals, and Goathead 4p clubs 300):
``ab`` split into two hand-written functions, :func:`ab_lead` at trick boundaries
(table, bounds, best card) and :func:`ab_mid` inside a trick (no table, no key, a lone
card's value returned as it is), each move calling the one it needs; the table's card
searched before :func:`move_keys` weighs the others (83.09M, 39.51M, 62.45M, 53.32M,
25.67M -> 79.85M, 37.94M, 59.56M, 50.67M, 24.67M); lazy ordering, :func:`move_keys`
keeping its best key first and the rest taken by selection (:func:`pick_best`) only
when the first card does not cut off, instead of an insertion sort (-> 79.51M, 37.57M,
59.03M, 50.26M, 24.60M; picking the first by a scan too, -0.1% to -0.5% only).  Tried
and dropped: the lazy ordering and the table's card first in the one ``ab`` (+1.0% to
+1.7% against the single ``ab`` with the sort).  :func:`ab_mid` plays a lone legal card
(or lone representative) itself and leaves two or more to :func:`ab_mid_cards`, so
the lone card's node skips the loop's frame and :func:`representatives` (-> 79.18M,
37.42M, 58.57M, 49.88M, 24.44M).  Tried and dropped: ``play_open`` inline in
``ab_mid`` (Goathead 3p +0.3%, Sheepshead -0.25%).  :func:`move_keys` split into
:func:`lead_keys` and :func:`follow_keys`, each declared inline and inlined by gcc into
its one caller in the search (-> 78.07M, 36.87M, 57.82M, 49.23M, 24.17M; split but out
of line -0.03% to -0.08%, only ``follow_keys`` inline 78.43M, 37.05M, 57.92M, 49.37M,
24.24M).  :func:`mid_trick_bounds` without :func:`base_bounds`'s test for the end of
play, which never holds inside a trick (-> 77.64M, 36.68M, 57.44M, 48.91M, 24.03M).
Tried and dropped: ``ab_mid`` inline into ``play_open`` (+0.8% to +1.2%).  Two or
more cards at the trick's last seat searched by :func:`ab_last_cards`, the loop with
:func:`play_last_card`'s body in it and the trick state saved once per node (->
76.41M, 36.19M, 56.80M, 48.36M, 23.73M; ``play_last_card`` declared inline instead,
+0.9% to +1.6%).  :func:`ab_mid_cards` making and taking back its moves itself
(:func:`place_card`, :func:`unplace_card`) instead of calling :func:`play_open` (->
75.96M, 36.00M, 56.31M, 47.98M, 23.54M).  :func:`ab_lead` testing the table's card
alone for a representative (:func:`represents`) and working out the others'
:func:`representatives` only when it fails (-> 75.75M, 35.87M, 56.20M, 47.85M,
23.51M; with the card left out of the set first, the other cards' representatives
changed: more nodes).  :func:`follow_keys` told by its two callers, as a constant,
whether the seat is the trick's last, so gcc folds that seat's case (no seat still
to play: no threat, no limit) into each copy (-> 75.31M, 35.66M, 55.88M, 47.58M,
23.40M).  :func:`trick_bound` taking the bounds and returning them by value
(``bounds_t``), so ``ab_mid`` keeps them in registers (-> 75.10M, 35.58M, 55.72M,
47.44M, 23.33M).  The loops of :func:`ab_mid_cards` and :func:`ab_last_cards` as
inline functions taking the mover's side as a constant, a copy for each side (->
74.79M, 35.44M, 55.52M, 47.26M, 23.25M; only ``ab_mid_cards``'s: -0.07% to -0.16%).
Tried and dropped (same figures, against the code of the time): :func:`ab_lead`
making and taking back its leads itself instead of calling ``play_open`` (+0.2% to
+0.5%); ``ab_mid`` making and taking back its lone card itself instead of the tail
call to ``play_open`` (+0.7% to +0.9%); ``ab_lead`` calling ``play_open`` directly
instead of through ``PLAY_OPEN`` (0 to +0.15%), ``ab_mid`` likewise (no change);
``ab_lead``'s loop as an inline function with the mover's side a constant (+0.2% to
+0.4%).  From a pass on Goathead 3p at equal nodes: the relative-rank key reading where
each suit's live cards go off a table by the suit's live count (``tc_keyshape.runs``;
-0.7% to -1.5%), :func:`tt_lookup` narrowing local copies of what it returns (stores
through its pointers made gcc reload ``K`` and ``stride`` every way; -0.1% to -0.25%),
and :func:`ab_lead` making the table key only once the bounds every position has fail
to settle the boundary (-1.2% to -1.6%; the prefetch that the bounds used to hide went
with it: interleaved wall times with and without it within 2% either way).  Measured and
not merged: three-seat functions for a trick's second and third cards (``ab`` without
its set-up, lazy keys inline) and for the card closing a trick at three tricks left
(its trick read off the table, the last two tricks searched without playing it into
the state): together -7.5M of Goathead 3p exact's 83.09M (-9.0%) on the code before
the third pass, doing for three seats much of what ``ab_mid`` and ``ab_last_cards`` do
for every layout, and without the twins above (they would need them in their loops).

A fourth pass, for three seats, at equal nodes and values (same md5s; Goathead 3p hearts
300 exact and to the payout, Goathead 4p clubs 300, Sheepshead jd 20, Clover hearts 4):
a trick closing at three tricks left (``close_at``: three seats, plain rules, not Nil)
is read off the table by :func:`close_three` and the last two tricks searched by
:func:`two_tricks3` with the leader and points in its arguments, only the card taken out
of its hand, instead of :func:`complete_trick` and the trick state saved and put back,
from :func:`play_last_card` and :func:`ab_last_cards` (71.20M, 33.13M, 21.37M, 49.70M,
44.19M -> 68.96M, 32.48M, 21.41M, 49.88M, 44.30M: the other layouts pay the test of
``close_at``).  :func:`two_tricks3`'s second and third cards as inline functions taking
their mover's side as a constant, a copy for each side (:func:`two_second3`,
``two_third3``, now :func:`closing_cards`; with the side a variable gcc kept the loops'
locals on the stack: -> 68.15M, 32.25M, the others unchanged; the third card's alone 68.48M).  Tried and
dropped: the lead's level likewise (68.31M); the test in :func:`ab_mid` instead (gcc
reshaped ``ab_mid``: 70.65M, 33.23M, 21.93M, 51.37M, 45.50M; only its lone card's there,
70.07M and Sheepshead 50.66M); :func:`ab_last_cards` handing the trick to a function of
its own with its own :func:`follow_keys` (70.19M, Sheepshead 50.86M); copies of
``ab_mid``, ``ab_mid_cards`` and ``play_open`` for the trick at three tricks left,
chosen once per lead in :func:`ab_lead`, so that no other node tests for it (one inline
body with the choice a constant: gcc inlined neither the body nor the loops, 72.86M,
Sheepshead 53.14M; ``ab_mid3`` written out, 70.30M, Sheepshead 51.24M; so with the
inliner's limits raised as below, 68.72M, 49.98M).  gcc's inliner stopped at its limits
in this module: ``--param=inline-unit-growth=200`` and
``--param=max-inline-insns-single=400`` for gcc builds (setup.py; -> 66.83M, 31.50M,
21.06M, 49.08M, 43.43M; the unit growth alone 67.96M, Sheepshead 49.76M; the single
function's limit alone 67.42M, 50.12M; higher values or ``max-inline-insns-auto=60``
within 0.1%, ``early-inlining-insns=40`` +0.2%).  With those limits, :func:`trick_bound`
declared inline, so that gcc inlines it into ``ab_mid`` (-> 66.37M, 31.15M, 20.92M,
48.55M, 43.02M).  :func:`ab_lead`'s search of its cards as an inline function taking the
mover's side as a constant, a copy for each side (:func:`lead_moves`; dropped in the
third pass at +0.2% to +0.4%: -> 66.07M, 30.96M, 20.87M, 48.44M, 42.87M).  Tried again
with the limits and dropped: ``ab_lead`` calling ``play_open`` directly instead of
through ``PLAY_OPEN`` (-0.03% Goathead 3p, -0.06% Sheepshead; ``ab_mid`` likewise, no
change), ``twin_bound`` called directly (+0.2%, +0.4%), two_tricks3's lead as a copy per
side (+0.25%), the copies for the trick at three tricks left above (67.43M against
66.83M, Sheepshead 49.31M against 49.08M), ``ab_lead`` making and taking back its leads
itself in ``lead_moves`` (+0.4%, +0.25%), ``play_open`` or ``two_tricks3`` declared
inline (no change), ``play_last_card`` declared inline (+1.0%, +1.6%).  Wall times not
measured (two cores shared with other work).

All three passes together with the twins (benches' 100 deals, interleaved best of 15
against the code before them): Goathead 3p hearts exact 27.7 -> 25.6 us per deal
(instructions -13.4%), Sheepshead jd 0.685 -> 0.635 ms (-12.2%), Clover hearts 3.15 ->
2.70 ms.  Time falls less than instructions: the branch mispredictions (callgrind's
model, Goathead 3p: 343k -> 301k, about 3,000 per deal) fell by half as much, and at
this size they are much of a deal's time.

Tried for fewer nodes and dropped (400 deals per game unless said, seed 2026; callgrind
over the same deals through ``solve_many``):

* enhanced transposition cut-offs: before the card that completes a trick, the table
  entries of every child (at least three tricks left) checked for a cut-off.  Nodes
  -4% Goathead 3p, -4.5% Sheepshead, -10% Clover, but mostly the first child's own table
  cut-off no longer counted as a node: instructions +16% Goathead 3p exact, +20% to the
  payout, +8% Clover, Sheepshead flat.  Probing the other children only once the first
  card failed: -0.3% to -0.5% nodes;
* a mid-trick table for the bisection (keyed by the live and table cards, the suits led
  and the deal's number; one way, 2^16 entries) in tricks with 3+ tricks left: Sheepshead
  exact values -9% nodes, -3.3% instructions (200 deals), Clover -6% nodes but -0.4%
  instructions, and Goathead, which never used it, +1.5% instructions from the larger
  ``ab`` (+1.3% with the table's code out of line, which cost Sheepshead half its gain);
  2^12 entries saved half as many nodes;
* principal-variation search (later cards first with a null window) in the full-window
  search of Goathead: 3p -0.8% to -1.2% nodes, 4p +6%;
* bisection for Goathead's exact values, switching to one window search once the
  interval is 2..64 points wide: +13% to +38% nodes over the full window; for
  Sheepshead and Clover the same switch saved at most 1% (Clover up to +14%);
* between the bisection's probes, a probe that tests whether the last fail-soft value is
  the value (``g + 1`` after a fail high, ``g`` after a fail low; a third of the
  fail-soft values are exact, but probes near the value cost the most): after every
  probe (MTD(f) from the middle) Sheepshead jd (100 deals) +14% nodes, Clover (30) +25%;
  after the first probe only +3.8%, +7.4%; after probes whose value passed the threshold
  +5.5%, +0.9%;
* a ``-march=native`` build: wall time Goathead 3p +3%, Sheepshead +2% to +6%, Clover
  +2% to +5% (interleaved runs);
* session 17, profile-guided builds (gcc ``-fprofile-generate``, a training run on other
  deals of Goathead 3p, Sheepshead and Clover, ``-fprofile-use``; with and without
  ``-fprofile-partial-training``): same nodes, wall time Goathead 3p +7% to +10%,
  Sheepshead +1.5% to +6.5%, Clover +4% to +9% (five interleaved pairs of runs);
* the first bisection probe at a fixed threshold (20..70) instead of the middle of the
  bounds: Sheepshead -3% to +2%, Clover +1% to +4%;
* a larger table (8x the buckets for 32-card decks): -0.1% nodes (Sheepshead, Clover);
* orderings: cashing low-point winners first (Goathead 3p +8% nodes), the lead's suit
  length or the others' length as a tie-break (within 2%); following, a winner an
  opponent may still beat after the discards (+5% Sheepshead), sure winners lowest card
  first (+4% to +42%), a plain discard before a trump that does not win (nodes -0.1% to
  -2%, instructions +0.3% to +0.5% Goathead 3p, flat 4p).

Where the nodes go (seed 2026; Goathead 3p hearts 300 deals, Sheepshead jd 20, Clover
hearts 4): the first card cuts off at 85% (Goathead), 91% (Sheepshead) and 90% (Clover)
of the cut nodes at the lead and at 92-98% following; a Sheepshead deal takes 5.4 probes
(the first 26% of the nodes, the next three 16-21% each), a Clover deal 7; the line is 9%
of Goathead 3p's exact nodes and 26% of 4p's.  A close first guess would pay: with the
value known, two null-window probes at it take Sheepshead 5620 -> 3073 nodes per deal
and Clover 25773 -> 15370, a window of the value +-1 Goathead 3p 534 -> 419.  Tried and
dropped in that light (nodes without the line unless said):

* guesses from a greedy line (every seat its first card in the static order; off by 4
  points or more on 55% of Goathead deals): MTD(f) from it Sheepshead +25%, Clover -8%
  (4 deals); a window of +-5 around it, searched again on the side it fails, Goathead 3p
  +5%, Sheepshead +16%, Clover -14%; one null-window probe at it, then one window search
  on the side left, Goathead 3p +5%; the same leads ordered by the greedy value after
  them (at 6+ tricks left) Goathead 3p +18%, Sheepshead +8%, Clover +50%;
* a window of +-0..20 around the middle of the bounds first, then bisection of what is
  left: Sheepshead (100 deals) +4% to +21%, Clover (30 deals) +1% to +9%; Goathead, whose
  value equals the lower bound on 38% of the deals, a first probe just above it: +2%
  (3p), +7% (4p); the bisection's threshold at 35-65% of the interval instead of its
  middle: Sheepshead jd +2% to +19%, Clover +3% to +8%;
* a memo of the root trick's positions across the probes (bounds and best card, keyed by
  the table cards): Sheepshead -0.7% nodes, +0.9% instructions, Clover -0.15% nodes;
  over the first two tricks (keyed by the played cards, leader and suits led, at the
  boundary instead of the table) +6% on both: the table's relative-rank entries do better;
* inside the probes, a full-window search at boundaries with at most three tricks left
  (exact entries for the later probes): +8% (Sheepshead) to +18% (Goathead 4p);
* :func:`top_trumps` mid-trick for the tricks after the current one (a seat still to
  play in it counting one sure trump fewer and not its dearest): nodes Goathead 3p
  -1.7%, Sheepshead (100 deals) -5%, to the payout -8%, Clover -0.7%, but callgrind +20%
  to +36%; at the trick's last seat only, most of the nodes saved and still +14% to +16%;
* orderings: a lead's winner an opponent could ruff put before the low leads (not last):
  Goathead 3p +7%, Clover +5%, Sheepshead jd 100 deals -8% and to the payout -22%, but
  jd 20 deals +16%, called ace +7%, alone -18% (five seats only, likewise); only at 5+
  tricks left Goathead +4% to +7%; only where a partner ruffs too +2% to +10%; a low lead
  toward a partner's winner before a cashed winner +0.2% to +9%; killer cards (the last
  card that cut off at the same tricks left and trick position, where the table has no
  card): +4% to +8% at the leads only, +50% to +106% everywhere;
* an all-node's fail-soft best card stored where its entry had none: Sheepshead +8%;
* the quick tricks and sure trumps also after an entry of the same cards: nodes Goathead
  3p -0.6%, elsewhere within 0.1%; callgrind Goathead 3p -0.9%, 4p -0.8%, Sheepshead +1%;
  only in wide windows or from four tricks left, Goathead within 0.1%, Sheepshead +0.1%
  and +1%;
* table: 4x the buckets for at most 20 live cards, Goathead 3p -0.3% nodes; no table at
  three tricks left: +60% to +130%;
* :func:`follow_line`'s probes inside a trick through a memo of the positions they pass
  (bounds by played cards; the line's next steps in the trick read them): nodes Goathead
  3p -0.6%, 4p -3.2%, Sheepshead -0.4%; callgrind -0.26%, -2.0% and +0.1%;
* session 12, the bounds of each lead of a boundary (at three tricks left or more)
  remembered across the probes, so that a lead refuted or proved at one threshold is not
  searched again into the next trick where its bounds already settle the window (node
  counts with the line, bench deals; wall times ``benches/bench_ab.py`` against the code
  without them; the form in a table of its own is kept for five seats, see
  :func:`lead_search`).  (a) In the main table, keyed by the boundary's key with the lead's
  relative-rank card in the meta word: nodes Sheepshead jd (100 deals) -11.6%, Clover
  hearts (20) -10.3%, Goathead 3p -3.2%, 4p -1.0%; callgrind Sheepshead 20 deals -2.3%,
  Clover 4 -1.9%, Goathead 3p +6.5%; Sheepshead 582 -> 629 us per deal.  (b) The same in
  a direct-mapped table of their own of 2^12 entries, with the main table as it was (196 KB; 2^14 entries saved 0.7
  and 1.5 points more of the nodes, Sheepshead 589 -> 612 us): nodes Sheepshead -10.4%, Clover -7.6%; callgrind Sheepshead 100
  deals 617.8M -> 577.6M (-6.5%), Clover 12 deals -3.6%; Sheepshead fastest call 584 ->
  565 us, median 656 -> 626 us (another run -0.6%, -2.5%), Clover (40 deals) 2.31 ->
  2.43 ms, median +1%.  (c) Eight 32-bit slots (lower and upper bound) beside each entry
  of the main table, read and written with entries of the same cards only (2 MB more for
  32-card decks): nodes Sheepshead -8.5%, Clover -3.8%, Goathead 3p -0.5%; callgrind
  Sheepshead 100 deals -6.4%, Clover 4 -2.5%, Goathead 3p +3.5% (+1.6% with the slots
  off for three seats: gcc then kept ``lead_moves`` out of line); Sheepshead fastest
  554 -> 536 us, median -0.5%, Clover 2.19 -> 2.29 ms.  Fewer nodes, but the lookups and
  the larger table's traffic cost about as much wall time as the nodes saved, until the
  main table shrank to stay in the core's cache (:func:`buckets_for`);
* session 12, the bisection's order of probes.  The root's fail-soft values are nearly
  always the threshold or one below it (Sheepshead jd deal 29 of the bench, value 30:
  probes >= 49, 24, 36, 30, 33, 31 returned 48, 24, 35, 30, 32, 30 in 544, 64,321,
  4,184, 61,523, 40,665 and 3,596 nodes), so they narrow nothing, and a probe six points
  below the value costs as much as one at it.  With the value known in advance (tests
  only), a first probe at value + e, then bisection: Sheepshead (100 deals) nodes x0.89
  at e = 0, x0.94 at +-1, x0.97-1.00 at +-2, x1.00-1.05 at +-4, x1.05-1.06 at +-8; then
  steps of 1, 2, 4, ... from the guess on the side it failed, bisection after the first
  step that turns: x0.61 at e = 0, x0.59-0.76 at +-1, x0.70-0.80 at +-2, x0.84-0.97 at
  +-4, x1.01-1.09 at +-8.  So a first guess pays only within about two points of the
  value (the greedy line's is off by four or more on 55% of Goathead deals).  Without a
  guess, probing next to the last bound (one above a fail high, at the top after a fail
  low) once the interval is at most W points wide: W = 2..16, Sheepshead x0.99-1.00,
  Clover x0.99-1.23.  Where the nodes are (nodes of ``ab_lead`` and ``ab_mid``, without
  the line): at the trick with three tricks left, 65% on Sheepshead, 45% on Clover, 55%
  on Goathead 3p; at four, 27%, 32%, 30%; the bench's hardest Sheepshead deal alone
  takes 15% of the 100 deals' nodes, 84% of them at three tricks left;
* session 12, three seats' last two tricks behind the two-trick table (as for five
  seats), looked up where :func:`close_three` closes the trick at three tricks left (the
  new leader set for the key): Goathead 3p exact 65.98M -> 68.25M instructions, to the
  payout 30.74M -> 31.79M (nodes 502 -> 507): the relative-rank key and the lookup cost
  more than the ~400 instructions of a :func:`two_tricks3` they save;
* session 12, with the leads' table: the positions after a boundary's second card in
  the same table (the lead's key with the second card's relative rank): nodes Sheepshead
  jd -0.7%, called ace (30 deals, seat 1 leading and declaring) -2.3%; the leads' table
  for Clover at 2^10 and 2^8 entries: 2.09 -> 2.15 and 2.17 ms; the two-trick or the
  leads' table at 2^11 entries: Sheepshead within 1%; entries of K + 2 words for decks
  of up to 35 cards (the live cards in the meta word; a bucket of four seats' 32-card
  entries one 64-byte line of a table aligned to lines): same nodes, instructions +0.1%
  to +0.2%, wall time Sheepshead -1.5% to -2%, Clover -1%, Goathead 3p +1.6%, within
  the VM's noise;
* session 12, three seats: the last two tricks after :func:`close_three` behind a small
  direct-mapped memo keyed by the exact hands and the leader in one word (no
  relative-rank key; 2^8 to 2^16 entries of 16 bytes): instructions Goathead 3p exact
  66.06M -> 64.63M (-2.2%), to the payout -2.1%, nodes -0.3%; but no faster (bench_ab.py,
  400 calls: 25.0 -> 25.0-25.2 us, to the payout 12.2 -> 12.6 us): Goathead 3p's time
  goes to mispredicted branches more than to instructions.
* session 14, measured only (an instrumented scratch build, not kept): what a table key
  blind to the holders of the zero-point cards (Sheepshead's and Clover's 7s, 8s and 9s,
  the bottom of every suit) could add, as DDS's winning ranks let one entry stand for
  positions that differ in small cards.  At boundaries with three tricks left or more,
  positions new to the table whose coarse key (the other cards by relative rank, the
  zero-point cards as counts per hand and suit) had been seen before: Sheepshead jd 100
  deals 1,442 of 33,078 (4.4%; 1.3% of the 112,351 lookups), Clover hearts 20 deals 947 of
  38,777 (2.4%).  That bounds the gain from above (the small cards would also have to be
  proved irrelevant, as winning ranks are): the positions these searches meet are new
  ones, not small-card variants of known ones.
* session 17, where the bisection's nodes go (each probe of the exact value against the
  value ``v``, the bench's deals solved one at a time, no line): Sheepshead jd 100 deals,
  5.65 probes a deal; the two probes any search needs (``>= v`` and ``>= v + 1``) took
  26% of the nodes, probes 1-2 points off the value 18%, 3-8 off 38%, further off 18%
  (the first probes, on an empty table, cost as much as the last ones near the value).
  Clover hearts 40 deals, 6.6 probes: 31%, 16%, 38%, 15%.  A guess for the first probe
  from the *restricted game* (every seat plays only one of its ``K`` best cards by the
  move order; its value by bisection in a table of its own, the leads' table off), then
  probes stepping 1, 2, 4, ... away from the guess on the side it failed and bisection
  once a step turns.  The guesses were within one point of the value on 40%, 52%, 62% of
  the Sheepshead jd deals for ``K`` = 1, 2, 3 (mean error 12.2, 5.8, 3.8 points; 3 with a
  full-window search of the restricted game) and on 20%, 25%, 38% of Clover's (14.1, 7.7,
  6.3), and the nodes (the guess's own included, under 1% to 36% of them) went up:
  Sheepshead jd +18%, +8%, +44%, Clover +4%, +4%, +18%; Sheepshead called ace (40 deals)
  -9.5% at ``K`` = 1 (wall time -6%), +0.1% and +28% at 2 and 3.
* session 18, why a lone seat that wants few points (leasters, Hearts, Gamut Hearts, the
  paranoid minima) costs 10-20x the contracts (``benches/bench_lone_min.py``): the same
  20 Sheepshead deals, seat 0 alone, take 7,335 nodes a deal with goal max and 136,988
  with goal min (a side of two seats wanting few points 33,281, of three 62,278).  With
  few points wanted both teams duck tricks: nothing is cashed, so the sure-trick bounds
  have nothing to count (the bounds off cost jd +15% nodes, alone +27%, the leaster
  +41%).  Two tries at that game, values
  the same, nodes (Sheepshead leaster 40 deals, Goathead leasters 3p and 4p 300, Hearts
  endings of 7 tricks 40, Gamut hearts 20, Clover spades paranoid minimum of 6 tricks 20:
  114,628, 1,698, 275, 25,710, 188,542, 17,184): a lower bound for the lone seat, an
  opponent on lead, from the suits in which its every card is above all the others'
  (it must win the trick that leads one; the others smear their dearest legal cards):
  -0.1% to -0.8%; the opponents following onto a trick the lone seat is still to play to
  and must beat (all its cards of the led suit above the winning card) as onto its
  trick, smearing points: -0.4% to -1.5%, wall time within noise.  Both dropped.  (The
  opponents' leads of a suit the lone seat is void in put last paid: :func:`lead_keys`.)
* session 18, the mid-trick table again, now that a build per shape keeps it out of the
  layouts that do not use it: one direct-mapped table of 2^14 entries of 16 bytes, keyed
  by the hands and the table cards in one word (decks of at most 32 cards, plain rules;
  they fix the position within a deal), bounds as the main table's, at the trick's
  second to last-but-one card from three tricks left.  Values the same; nodes Sheepshead
  jd (the bench's 100 deals, with the line) 11,261 -> 10,624 (-5.7%; from four tricks
  left -3.6%, from two -5.7%), Clover hearts (40) 45,204 -> 42,611 (-5.7%); wall time
  Sheepshead 474 -> 467-471 us, Clover 1.84 -> 1.84-1.90 ms: the lookups cost what the
  nodes saved.
* session 26, measured only (a scratch build): a key blind to the order of the suits that
  are alike (the plain suits of Sheepshead jd, Clover hearts, Goathead 3p hearts: the
  same points and meld ranks by rank, no rule flag), so that a position and the one with
  two such suits' holdings swapped share an entry.  At boundaries with three tricks left
  or more, keys new to the search whose suit-sorted key had been seen: Goathead 3p 2.8%,
  Sheepshead 0.2%, Clover 0.3% (bench deals): a search about never meets its positions'
  suit-swapped twins.
* session 27, on the deals that make the mean (a point game's cost per deal is
  heavy-tailed: the hardest 100 of 2,000 Sheepshead jd deals take 38% of the nodes, of
  Clover's 33%; ``benches/RESULTS.md``): the leads' table for four seats from 3, 4 or 5
  tricks left (Clover nodes -3% to -8%, time +0.3% to +2.4%, the hard deals alike);
  Sheepshead's from 4 tricks left (+3.7% nodes, no faster); the main table at 2, 4 and 8
  times the buckets for up to 32 live cards (the hardest Sheepshead deals: nodes -1% to
  -1.6%, time +0.8% to +5%); a null-window probe at a boundary with at most three tricks
  left searched in a window widened by d points, so that its entry serves the later
  probes too (half of Clover's searched boundaries there are revisits): Sheepshead
  -1.3% nodes at d = 1, +18% over the whole range, Clover -0.9% and +14%.  On those
  hardest deals the two probes any exact search needs take 72% of the nodes: the cost
  is in proving the value, not in finding it.

All masks are layout bits (see ``_layout.pxd``).  Everything below the ``def`` functions is
``noexcept nogil``; the Python layer validates every input before calling in.
"""

import importlib

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t, uint16_t
from libc.string cimport memset, memcpy

from trickcore._layout cimport (layout_t, CoreLayout, legal_moves, trick_winner, card_points,
                                trick_meld_value, lowest_bit, highest_bit, popcount, ducks_every_suit,
                                OBJECTIVE_POINTS, OBJECTIVE_TRICKS, OBJECTIVE_NIL)
from trickcore._interrupt cimport (tc_guard, tc_guard_init, tc_guard_next_deal, run_position,
                                   run_batch, note_bounds, check_interrupt, position_job_t,
                                   batch_job_t, init_position_job, position_result,
                                   init_batch_job, set_batch_positions)

cnp.import_array()

cdef extern from *:
    void __builtin_prefetch(const void*) nogil

# Relative-rank keys move each hand's live cards to the top of their suit: one PEXT/PDEP
# pair per hand where the CPU has fast BMI2 (checked at run time: the extension is built
# for every x86-64; Zen 1 and 2 microcode PEXT, so they take the portable loop).  The
# hands are packed into the key words in the same pass (tc_pack_key's loop).
cdef extern from *:
    """
    #include <stdint.h>
    /* The shape a build of this kernel is specialised for (see "Builds per shape" in
       the module docstring): 0 (and -1 for the objective) in the general build, which
       reads them off the layout. */
    #ifndef TC_FIXED_SEATS
    #define TC_FIXED_SEATS 0
    #endif
    #ifndef TC_FIXED_CARDS
    #define TC_FIXED_CARDS 0
    #endif
    #ifndef TC_FIXED_SUITS
    #define TC_FIXED_SUITS 0
    #endif
    #ifndef TC_FIXED_OBJECTIVE
    #define TC_FIXED_OBJECTIVE -1
    #endif
    #define TC_NSUITS(L) (TC_FIXED_SUITS ? TC_FIXED_SUITS : (L)->n_suits)
    #define TC_FIXED_KEY_WORDS ((TC_FIXED_SEATS * TC_FIXED_CARDS + 63) / 64)
    /* Each key word is first written by the hand that starts at its bit 0 or by the one
       running into it from the word before (hands are packed in order and fill the K words),
       so it is assigned there and or-ed into after: no clearing of the words first (gcc
       made that loop a call to memset). */
    static inline void tc_pack_key(const uint64_t* nh, int n, int nc, int K, uint64_t* key) {
        int i, pos = 0;
        (void)K;
        for (i = 0; i < n; i++, pos += nc) {
            int w = pos >> 6, o = pos & 63;
            if (o)
                key[w] |= nh[i] << o;
            else
                key[w] = nh[i];
            if (o && o + nc > 64)
                key[w + 1] = nh[i] >> (64 - o);
        }
    }
    /* key_hash's mix of the meta word and the K key words */
    static inline uint64_t tc_key_hash(const uint64_t* key, int K, uint64_t meta) {
        uint64_t h = meta * (uint64_t)0x9E3779B97F4A7C15ULL;
        int i;
        for (i = 0; i < K; i++) {
            h ^= key[i];
            h *= (uint64_t)0xBF58476D1CE4E5B9ULL;
            h ^= h >> 31;
        }
        return h ^ (h >> 29);
    }
    /* What the relative-rank key of a layout is made of (tc_rank_key_bmi2): each
       effective suit's squeezed cards and highest bit, the cards kept as they are, the
       seats, suits, bits per seat and key words. */
    typedef struct {
        uint64_t sqm[8];
        int top[8];
        uint64_t keep;
        int n, n_suits, nc, K;
        uint64_t runs[8][65];   /* runs[su][k]: where k live cards of suit su go (top_run) */
    } tc_keyshape;
    #if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    #include <immintrin.h>
    /* The whole relative-rank key and its hash in one call: where each squeezed suit's
       live cards go (the top of the suit: a table by the suit's live count, ks->runs,
       instead of a shift and a branch per suit), every hand moved there and packed, then
       tc_key_hash.  A key of one word (n * nc <= 64: Goathead 3p) or of two hands a word
       (32-card decks) is packed without tc_pack_key's word arithmetic.  The layout's
       part comes in one struct: eleven arguments took a fifth of the call's
       instructions. */
    __attribute__((target("bmi2")))
    static uint64_t tc_rank_key_bmi2(const uint64_t* hands, uint64_t live, uint64_t meta,
                                     const tc_keyshape* ks, uint64_t* key) {
        int i, pos = 0, su;
        /* constants in a build per shape: gcc unrolls the hands' loops */
        int n = TC_FIXED_SEATS ? TC_FIXED_SEATS : ks->n, nc = TC_FIXED_CARDS ? TC_FIXED_CARDS : ks->nc;
        int K = TC_FIXED_SEATS ? TC_FIXED_KEY_WORDS : ks->K;
        uint64_t run = 0, keep = ks->keep, src = live & ~keep, k0 = 0;
        for (su = 0; su < (TC_FIXED_SUITS ? TC_FIXED_SUITS : ks->n_suits); su++)
            run |= ks->runs[su][__builtin_popcountll(live & ks->sqm[su])];
        #define TC_H(i) ((hands[i] & keep) | _pdep_u64(_pext_u64(hands[i], src), run))
        if (K == 1) {
            for (i = 0; i < n; i++, pos += nc)
                k0 |= TC_H(i) << pos;
            key[0] = k0;
            return tc_key_hash(key, 1, meta);
        }
        if (nc == 32) {
            for (i = 0; i + 1 < n; i += 2)
                key[i >> 1] = TC_H(i) | (TC_H(i + 1) << 32);
            if (n & 1)
                key[n >> 1] = TC_H(n - 1);
            return tc_key_hash(key, K, meta);
        }
        for (i = 0; i < n; i++, pos += nc) {
            uint64_t h = TC_H(i);
            int w = pos >> 6, o = pos & 63;
            if (o)
                key[w] |= h << o;
            else
                key[w] = h;
            if (o && o + nc > 64)
                key[w + 1] = h >> (64 - o);
        }
        #undef TC_H
        return tc_key_hash(key, K, meta);
    }
    static int tc_fast_bmi2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1")
               && !__builtin_cpu_is("znver2");
    }
    #else
    static uint64_t tc_rank_key_bmi2(const uint64_t* hands, uint64_t live, uint64_t meta,
                                     const tc_keyshape* ks, uint64_t* key) {
        (void)hands; (void)live; (void)meta; (void)ks; (void)key;
        return 0;
    }
    static int tc_fast_bmi2(void) { return 0; }
    #endif
    """
    void tc_pack_key(const uint64_t* nh, int n, int nc, int K, uint64_t* key) nogil
    uint64_t tc_key_hash(const uint64_t* key, int K, uint64_t meta) nogil
    ctypedef struct tc_keyshape:
        uint64_t sqm[8]
        int top[8]
        uint64_t keep
        int n, n_suits, nc, K
        uint64_t runs[8][65]
    uint64_t tc_rank_key_bmi2(const uint64_t* hands, uint64_t live, uint64_t meta,
                              const tc_keyshape* ks, uint64_t* key) nogil
    int tc_fast_bmi2() nogil

cdef int FAST_BMI2 = tc_fast_bmi2()

cdef enum:
    INF = 30000
    MAX_KEY = 8          # key words: 8 seats x 64 bits at most
    ENTRY_EXTRA = 3      # words of an entry besides the key: meta, payload, live cards
    TWO_BUCKETS = 1 << 12    # entries of the two-trick table (two_tricks_tt), one per bucket
    TWO_WAYS = 1             # (direct-mapped: see two_tricks_tt)
    LEAD_BUCKETS = 1 << 12   # entries of the leads' table (lead_search), one per bucket
    LEAD_MIN_TRICKS = 3      # ... kept at boundaries with at least this many tricks left
    TT_WAYS = 2          # entries per bucket of the main table (see buckets_for)
    MAX_CUTS = 16        # cuts per deal (solve_batch's band mode)
    FULL_WINDOW_CARDS = 20   # exact_value: one full-window search up to this many live cards

# A transposition-table entry is ``K + 3`` uint64 words:
#   words 0 .. K-1  the hands of every seat, packed: seat s occupies bits
#                   [s * n_cards, (s + 1) * n_cards) of the K-word bit string; suits in
#                   ``squeeze`` by relative rank (all of them under quasi-symmetry);
#   word  K         meta: leader (bits 0-3) | side mask (4-11) | broken (12) |
#                   suits led (13-20, only while the must-play card is live) | valid (21)
#                   | in the leads' table, the lead's relative-rank card + 1 (22-28);
#   word  K + 1     payload: lower bound int16 (bits 0-15) | upper bound int16 (16-31) |
#                   best card + 1 (32-39, 0 = none) | tricks left (40-47) | generation (48-63);
#   word  K + 2     the live cards (layout bits) the bounds were proved with.


# The part of the state a card play changes besides one hand: it is saved and restored
# whole around a move that completes a trick (play_last_card), the hands are mended bit
# by bit (cheaper than copying them); a move that leaves the trick open is taken back
# field by field (unplace_card).
ctypedef struct trick_t:
    uint64_t table          # cards on the table (current trick)
    uint64_t played         # cards played this round, current trick included
    uint64_t last_trick     # cards of the last completed trick
    int8_t tbits[8]         # table cards in play order
    int32_t tpts            # card points on the table
    int32_t pos_rem         # positive card points still live (hands + table)
    int16_t tneg            # negative card points on the table
    int16_t neg_rem         # negative card points still live
    int16_t suits_led       # effective suits led in earlier tricks (bit mask)
    int16_t trick_index
    int8_t tn               # number of cards on the table
    int8_t turn             # seat to play
    int8_t wpos             # position (0 = leader) of the card winning the trick so far
    int8_t leader
    int8_t led              # effective suit led to the current trick, -1 when leading
    int8_t tleft            # tricks left, the current one included
    int8_t done             # 1: play has stopped (Nil: the declarer took a trick)
    int8_t last_winner      # seat that won the last completed trick (-1: none yet)


# A value's lower and upper bound, returned by value (trick_bound): through pointers, the
# caller's two locals went to the stack.
ctypedef struct bounds_t:
    int lo
    int hi


ctypedef struct state_t:
    uint64_t hands[8]
    uint64_t live           # cards still in the hands (the union of ``hands``)
    int hpos[8]             # positive card points in each hand
    trick_t k               # everything else


ctypedef struct ctx_t:
    const layout_t* L
    int n                   # seats
    int nc                  # cards in the deck (bits per seat in a key)
    int K                   # key words
    int objective
    int bonus               # last-trick bonus
    int bonus_neg           # min(bonus, 0) and max(bonus, 0) (every bound that adds the bonus)
    int bonus_pos
    int side                # seat mask of the declarer's side
    int maxmask             # seat mask of the seats that maximise the side's value
    int all_seats
    int lone_min            # card points for one seat that wants few (Hearts, leasters, the
                            # paranoid minima): ducks_everything bounds it
    const int8_t* cls       # equivalence class per layout bit
    uint64_t squeeze        # suits keyed by relative rank (see make_key)
    tc_keyshape keyshape    # the layout's part of the BMI2 key (tc_rank_key_bmi2)
    uint64_t special        # cards a rule flag sets apart from the rest of their suit
    uint64_t twins          # cards with another card of their class in their suit
    uint64_t twins_of[64]   # ... and those other cards, per card
    uint64_t kin_of[64]     # the other cards of each card's suit with its rule flags (twin_bound)
    int twins_on            # twin bounds and dominated twins
    int suit_top[8]         # highest layout bit of each effective suit
    int8_t owner[64]        # seat holding each card at the start of the search
    uint64_t side_cards     # cards the declarer's side holds at the start of the search
    int n_values            # distinct card point values of the deck ...
    int value_of[64]        # ... in increasing order ...
    uint64_t value_cards[64]    # ... and the cards worth each
    int bmi2                # make_key may use PEXT/PDEP (FAST_BMI2, test hook)
    int plain_rules         # no first lead, restricted lead, must-play or first-trick rule
    uint64_t* tt
    uint64_t tt_mask        # number of buckets - 1
    uint64_t* tt2           # the two-trick positions' own small table (two_tricks_tt) ...
    uint64_t tt2_mask       # ... and its number of buckets - 1
    uint64_t* tt3           # the leads' own small table (lead_search; NULL: none) ...
    uint64_t tt3_mask       # ... and its number of buckets - 1
    int stride              # words per entry
    int gen
    int64_t nodes
    int use_tt              # search switches, read from the test hook once per call
    int use_qt
    int use_small           # two_tricks for the last two tricks (at most five seats)
    int two_tt              # ... behind a table of their own (five seats: two_tricks_tt)
    int close_at            # tricks left at which close_three closes a trick: 3 for three
                            # seats with plain rules (not Nil), else 0 (never)
    tc_guard guard          # Ctrl-C: polled at boundaries (trickcore._interrupt)
    state_t s


# A build per shape (see "Builds per shape" in the module docstring) fixes these at compile
# time; the general build reads them off the context.  Every read of the seats, cards,
# key words, entry stride, effective suits and objective in the search goes through them.
cdef extern from *:
    const int TC_FIXED_SEATS
    const int TC_FIXED_CARDS
    const int TC_FIXED_KEY_WORDS
    const int TC_FIXED_SUITS
    const int TC_FIXED_OBJECTIVE
    int TC_NSUITS(const layout_t* L) nogil      # the layout's effective suits


cdef inline int NSEATS(const ctx_t* c) noexcept nogil:
    return TC_FIXED_SEATS if TC_FIXED_SEATS else c.n


cdef inline int NCARDS(const ctx_t* c) noexcept nogil:
    return TC_FIXED_CARDS if TC_FIXED_CARDS else c.nc


cdef inline int KWORDS(const ctx_t* c) noexcept nogil:
    return TC_FIXED_KEY_WORDS if TC_FIXED_SEATS else c.K


cdef inline int STRIDE(const ctx_t* c) noexcept nogil:
    return TC_FIXED_KEY_WORDS + ENTRY_EXTRA if TC_FIXED_SEATS else c.stride


cdef inline int OBJ(const ctx_t* c) noexcept nogil:
    return TC_FIXED_OBJECTIVE if TC_FIXED_OBJECTIVE >= 0 else c.objective


# Search switches, for tests only: turning the table or the bounds off must never change a
# value, only the node counts.  Each call copies them into its context when it starts, so a
# call already running (in another thread) is never switched half-way.
cdef int USE_TT = 1
cdef int USE_QT = 1
cdef int QUASI = 1
cdef int USE_BMI2 = 1
cdef int USE_SMALL = 1
cdef int USE_TWINS = 1
cdef int USE_TWO_TT = 1
cdef int USE_LEAD_TT = 1
cdef int TT_MIN_TRICKS = 1      # table from 2 tricks left up (where two_tricks does not take them)

# ab_lead and ab_mid call play_open through this pointer so that gcc does not inline it
# there: inlined, ab's loop (in a function near gcc's size limits) paid more in spills and
# set-up than the call (callgrind, Goathead 3p payout: 49.78M inlined, 49.54M through the
# pointer; measured when one ab served both kinds of node)
ctypedef int (*play_fn)(ctx_t*, int, int, int) noexcept nogil
cdef play_fn PLAY_OPEN = play_open
# ... and twin_bound through this one, rarely needed (callgrind, Goathead 3p exact: 81.21M
# called directly, gcc keeping it out of line, 80.93M through the pointer)
ctypedef int (*twin_fn)(ctx_t*, int, uint64_t, const int*, int, int) noexcept nogil
cdef twin_fn TWIN_BOUND = twin_bound


def _set_search_options(bint tt=True, bint bounds=True, bint quasi=True, bint bmi2=True,
                        bint small=True, bint twins=True, bint two_table=True,
                        bint lead_table=True):
    """Test hook: switch the transposition table, the quick-trick bounds, the table's
    quasi-symmetric matches (entries of other cards, bounds shifted by points), the
    BMI2 key packing, the plain search of the last two tricks (:func:`two_tricks`), the
    twins' bounds (:func:`twin_bound`) and the two-trick positions' table
    (:func:`two_tricks_tt`, five seats; off with ``tt`` too) and the leads' table
    (:func:`lead_search`, five seats; off with ``tt`` too) on or off.  Returns whether
    this CPU takes the BMI2 path."""
    global USE_TT, USE_QT, QUASI, USE_BMI2, USE_SMALL, USE_TWINS, USE_TWO_TT, USE_LEAD_TT
    USE_TT = tt
    USE_TWO_TT = two_table
    USE_LEAD_TT = lead_table
    USE_QT = bounds
    QUASI = quasi
    USE_BMI2 = bmi2
    USE_SMALL = small
    USE_TWINS = twins
    if not TC_FIXED_SEATS:
        # the general build switches every build per shape too: the tests that turn a
        # search feature off must reach the build that solves their layout
        for shape in SHAPE_BUILDS:
            importlib.import_module(shape_module_name(*shape))._set_search_options(
                tt, bounds, quasi, bmi2, small, twins, two_table, lead_table)
    return bool(FAST_BMI2)


#: The shapes (seats, cards in the deck, effective suits) of the point games' layouts,
#: each with a build of this kernel of its own for the points objective
#: (``trickcore._solve_{seats}x{cards}x{suits}``, see "Builds per shape" in the module
#: docstring): Goathead 3p and 4p (four suits with a trump suit, five for court and
#: leasters, whose queens and jacks are a suit of their own), Clover and Gamut hearts,
#: Hearts, Sheepshead.
SHAPE_BUILDS = ((3, 20, 4), (3, 20, 5), (4, 20, 4), (4, 20, 5), (4, 32, 4), (4, 52, 4), (5, 32, 4))


def shape_module_name(int seats, int cards, int suits):
    """The module of the build for ``seats`` seats, a deck of ``cards`` cards and
    ``suits`` effective suits."""
    return f"trickcore._solve_{seats}x{cards}x{suits}"


def shape_build(CoreLayout core):
    """Name of the module built for ``core``'s shape and objective, or None where only the
    general build (``trickcore._solve``) solves it."""
    cdef tuple shape = (core.c.n_seats, core.c.n_cards, core.c.n_suits)
    if core.c.objective == OBJECTIVE_POINTS and shape in SHAPE_BUILDS:
        return shape_module_name(*shape)
    return None


cdef check_shape(CoreLayout core):
    """A build per shape solves only layouts of its shape (its key words and loops are
    fixed at compile time): anything else is a ``ValueError``, not a crash."""
    if TC_FIXED_SEATS and (core.c.n_seats != TC_FIXED_SEATS or core.c.n_cards != TC_FIXED_CARDS
                           or core.c.n_suits != TC_FIXED_SUITS
                           or core.c.objective != TC_FIXED_OBJECTIVE):
        raise ValueError(f"this build of the point kernel solves {TC_FIXED_SEATS} seats, "
                         f"{TC_FIXED_CARDS} cards, {TC_FIXED_SUITS} suits and card points, not "
                         f"{core.c.n_seats} seats, {core.c.n_cards} cards, {core.c.n_suits} suits "
                         f"and objective {core.c.objective}")


# --------------------------------------------------------------------------------------
# small helpers

cdef inline uint64_t bit(int b) noexcept nogil:
    return (<uint64_t>1) << b


cdef inline uint64_t all_hands(ctx_t* c) noexcept nogil:
    return c.s.live


cdef inline int in_side(ctx_t* c, int seat) noexcept nogil:
    return (c.side >> seat) & 1


cdef inline int winner_seat(ctx_t* c) noexcept nogil:
    """Seat of the card winning the trick on the table so far."""
    cdef int w = c.s.k.leader + c.s.k.wpos
    return w - NSEATS(c) if w >= NSEATS(c) else w


cdef inline int tricks_left(ctx_t* c) noexcept nogil:
    return c.s.k.tleft


cdef inline void value_bounds(ctx_t* c, int* lo, int* hi) noexcept nogil:
    """Smallest and largest value the remaining play can still give the side."""
    window_bounds(c, lo, hi, INF, -INF)


cdef inline void window_bounds(ctx_t* c, int* lo, int* hi, int alpha, int beta) noexcept nogil:
    """:func:`value_bounds` for a search in the window (``alpha``, ``beta``): a bound that
    cannot take the value out of the window is not worked out."""
    cdef int t = tricks_left(c)
    if c.s.k.tn > 0:
        mid_trick_bounds(c, lo, hi, alpha, beta)
        return
    base_bounds(c, lo, hi, t)
    if t >= 2 and not c.s.k.done and c.use_qt:
        boundary_bounds(c, lo, hi, t, alpha, beta)


cdef inline void mid_trick_bounds(ctx_t* c, int* lo, int* hi, int alpha, int beta) noexcept nogil:
    """:func:`window_bounds` inside a trick (:func:`ab_mid` calls it directly, for the
    trick and Nil objectives only since session 17: see ``ab_mid``).  Small
    enough for gcc to inline into ``ab_mid``, and with it :func:`trick_bound` (needed at
    a third of them on Goathead 3p) since gcc's inliner limits were raised (setup.py;
    before that, gcc kept the whole of it out of line once ``trick_bound`` was inline).
    Not through :func:`base_bounds`, whose test for the end of play never holds here
    (callgrind -0.5% to -0.65%)."""
    cdef int t = tricks_left(c), x = 1
    # base_bounds without its test for the end of play: inside a trick play goes on
    # (``done`` is only ever set as a trick closes) and t >= 1
    if OBJ(c) == OBJECTIVE_POINTS:
        lo[0] = c.s.k.neg_rem + c.bonus_neg
        hi[0] = c.s.k.pos_rem + c.bonus_pos
        x = c.s.k.tpts - c.s.k.tneg
    elif OBJ(c) == OBJECTIVE_TRICKS:
        lo[0] = 0
        hi[0] = t
    else:
        lo[0] = 0
        hi[0] = 1
    # the fate of the trick on the table moves a bound by at most its value (x)
    cdef bounds_t r
    if OBJ(c) == OBJECTIVE_NIL or lo[0] + x >= beta or hi[0] - x <= alpha:
        r = trick_bound(c, lo[0], hi[0], t)
        lo[0] = r.lo
        hi[0] = r.hi


cdef inline void boundary_bounds(ctx_t* c, int* lo, int* hi, int t, int alpha, int beta) noexcept nogil:
    """The sure tricks at a trick boundary (:func:`quick_tricks`, :func:`top_trumps`; the
    first also asks :func:`ducks_everything` for a lone seat that wants few points).

    Three seats do without the leader's quick tricks, but for a lone seat that wants few
    points (session 17, after the bounds inside a trick went, see :func:`ab_mid`): they
    saved 0.6% of Goathead 3p's nodes and cost more, callgrind Goathead 3p hearts 300
    deals 59.67M -> 58.51M (-1.9%), clubs -2.0%, court -1.1%, to the payout -3.5%,
    leasters the same; wall time -3% to -4%.  Four and five seats keep them (without:
    Sheepshead +1.2%, Clover +1.1%); :func:`top_trumps` pays everywhere (without it:
    Goathead 3p +3%, Sheepshead +0.5%, Clover +24%).  Layouts of one or two seats (Gamut's
    clubs_1 and clubs_2) keep them too: a lone seat's quick tricks settle every position
    at once (its lead, which completes the trick, goes through :func:`play_lead`)."""
    if NSEATS(c) != 3 or c.lone_min:
        quick_tricks(c, lo, hi, t, alpha, beta)
    top_trumps(c, lo, hi, t, alpha, beta)


cdef int ducks_everything(ctx_t* c) noexcept nogil:
    """Can the side's one seat, at a trick boundary, take no trick from here on?  (Then it
    takes no card points, no trick meld and no last-trick bonus: the value is at most 0.)
    The Nil test of the trick kernel (``_solve_tricks.nil_safe``, whose docstring has the
    argument): no trump in its hand, and in every suit its ``r``-th lowest card below the
    others' ``r``-th lowest as far as both have cards; it plays its highest card below
    the led one, or discards.  On lead it also needs a card an opponent must beat, the
    rest of its hand passing the test.  Not in the first trick, whose rules (a forced
    first lead, cards forbidden on it) can force other cards."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int seat = lowest_bit(<uint64_t>c.side), j, x, su
    cdef uint64_t mine = s.hands[seat], theirs, m, h
    if s.k.trick_index == 0 or (mine & L.trump_mask):
        return 0
    theirs = s.live & ~mine
    if s.k.leader != seat:
        return ducks_every_suit(L, TC_NSUITS(L), mine, theirs)
    m = mine & ~L.lead_restricted
    while m:
        x = lowest_bit(m)
        m &= m - 1
        su = L.suit_of_bit[x]
        for j in range(NSEATS(c)):
            h = s.hands[j] & L.suit_mask[su]
            if j != seat and h and lowest_bit(h) > x:
                return ducks_every_suit(L, TC_NSUITS(L), mine & ~bit(x), theirs)
    return 0


cdef inline int may_cut(ctx_t* c, int seat, int alpha, int beta) noexcept nogil:
    """Can sure tricks of ``seat`` (worth at most the points in its hand) take the value out
    of the window (``alpha``, ``beta``)?  Always "maybe" for the trick objectives."""
    cdef state_t* s = &c.s
    if OBJ(c) != OBJECTIVE_POINTS:
        return 1
    if (c.side >> seat) & 1:
        return s.hpos[seat] + c.bonus_neg >= beta
    return s.k.pos_rem - s.hpos[seat] + c.bonus_pos <= alpha


cdef inline void base_bounds(ctx_t* c, int* lo, int* hi, int t) noexcept nogil:
    """The bounds every position has: nothing, or everything still live."""
    if c.s.k.done or t == 0:
        lo[0] = 0
        hi[0] = 0
    elif OBJ(c) == OBJECTIVE_POINTS:
        lo[0] = c.s.k.neg_rem + c.bonus_neg
        hi[0] = c.s.k.pos_rem + c.bonus_pos
    elif OBJ(c) == OBJECTIVE_TRICKS:
        lo[0] = 0
        hi[0] = t
    else:
        lo[0] = 0
        hi[0] = 1


cdef inline void top_trumps(ctx_t* c, int* lo, int* hi, int t, int alpha, int beta) noexcept nogil:
    """Sure tricks of the team holding the highest live trump.  Every trump of that team
    above all trumps of the other team wins its trick for the team, whatever anyone plays:
    the trick goes to its highest trump, which is that card or a higher one of the same
    team (a non-trump never beats a trump).  A seat plays each of its cards in a trick of
    its own, so the team wins at least ``k`` tricks, the most such cards of one seat (two
    seats' cards may share a trick); Nil is excluded (play may stop first).  Card
    points: all those trumps; in ``k`` such tricks, a card of every other seat, at least
    its cheapest ones (the team's seats: beyond their sure trumps, their cheapest
    others).  Cards never change hands during a search, so the teams' cards are
    ``side_cards`` and its complement."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t live, opp, sure, team_cards, mine
    cdef int top, k = 0, ks, pts, i, team
    if not L.trump_mask or OBJ(c) == OBJECTIVE_NIL:
        return
    live = all_hands(c) & L.trump_mask
    if not live:
        return
    top = highest_bit(live)
    team_cards = c.side_cards if (c.side_cards >> top) & 1 else ~c.side_cards
    team = (c.side >> c.owner[top]) & 1
    opp = live & ~team_cards
    sure = live & team_cards
    if opp:
        sure &= ~((bit(highest_bit(opp)) << 1) - 1)
    for i in range(NSEATS(c)):
        if ((c.side >> i) & 1) == team:
            ks = popcount(s.hands[i] & sure)
            if ks > k:
                k = ks
    if OBJ(c) == OBJECTIVE_TRICKS:
        if team:
            if k > lo[0]:
                lo[0] = k
        elif t - k < hi[0]:
            hi[0] = t - k
    elif s.k.neg_rem == 0:
        pts = card_points(L, sure)
        for i in range(NSEATS(c)):
            if ((c.side >> i) & 1) == team:
                mine = s.hands[i] & sure
                if mine:
                    pts += cheapest_points(c, s.hands[i] & ~mine, k - popcount(mine))
                else:
                    pts += cheapest_points(c, s.hands[i], k)
            else:
                pts += cheapest_points(c, s.hands[i], k)
        if team:
            if pts + c.bonus_neg > lo[0]:
                lo[0] = pts + c.bonus_neg
        elif s.k.pos_rem - pts + c.bonus_pos < hi[0]:
            hi[0] = s.k.pos_rem - pts + c.bonus_pos


cdef inline int cheapest_points(ctx_t* c, uint64_t cards, int m) noexcept nogil:
    """Sum of the ``m`` smallest card values among ``cards`` (all of them if fewer): the
    cards of each point value, cheapest value first (a few bit counts, no sorting)."""
    cdef int j = 0, k, total = 0
    while m > 0 and j < c.n_values:
        k = popcount(cards & c.value_cards[j])
        if k > m:
            k = m
        total += k * c.value_of[j]
        m -= k
        j += 1
    return total


cdef inline int cheapest_card(ctx_t* c, uint64_t cards) noexcept nogil:
    """``cheapest_points(c, cards, 1)``: the value of the cheapest card of ``cards`` (0 if
    none), the first value class that holds one."""
    cdef int j = 0
    if not cards:
        return 0
    while not (cards & c.value_cards[j]):
        j += 1
    return c.value_of[j]


cdef inline void quick_tricks(ctx_t* c, int* lo, int* hi, int t, int alpha, int beta) noexcept nogil:
    """At a trick boundary: the tricks the leader can cash from the top, suit after suit.

    In a suit the leader's cards above every other live card of it win when led, unless a
    seat void in it ruffs: so their count is capped by the suit length of every other seat
    that holds a trump.  Cashing a suit never touches another suit of a seat that holds
    trumps (it follows), so the counts add up.  A restricted suit counts only once broken;
    positions with a forced first lead or a live must-play card are skipped.

    Card points: the leader's cashed cards, plus, for the one suit the leader cashes first,
    what the other seats must follow with (each its cheapest cards of the suit, one per
    round while it still holds some).  Only the first suit: a seat void in it may discard
    from another suit and shorten it.  Or, if more, every other seat's cheapest cards,
    one per cashed trick."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int leader = s.k.leader, su, k, o, qt = 0, qpts = 0, lside, len_o, follow, best_follow = 0
    cdef uint64_t lh = s.hands[leader], live = all_hands(c), sm, mine, others, run
    if s.k.trick_index == 0 and L.first_lead_bit >= 0:
        return
    if L.must_play_bit >= 0 and (live >> L.must_play_bit) & 1:
        return
    lside = (c.side >> leader) & 1
    if lside != ((c.maxmask >> leader) & 1):
        # the leader's team does not want these tricks: no guarantee.  Then neither team
        # may want tricks: a lone seat that wants few points may duck every one left
        # (here, not in boundary_bounds: there gcc stopped inlining it, +1% instructions
        # on Goathead 3p)
        if c.lone_min and hi[0] > 0 and ducks_everything(c):
            hi[0] = 0
        return
    if OBJ(c) == OBJECTIVE_NIL or (OBJ(c) == OBJECTIVE_POINTS and s.k.neg_rem != 0):
        return
    if not may_cut(c, leader, alpha, beta):
        return
    cdef int broken = (s.k.played & L.breakers) != 0 or s.k.trick_index >= L.unlock_trick
    for su in range(TC_NSUITS(L)):
        sm = L.suit_mask[su]
        mine = lh & sm
        if not mine:
            continue
        if (sm & L.lead_restricted) and not broken:
            continue
        others = live & sm & ~lh
        if others:
            run = mine & ~((bit(highest_bit(others)) << 1) - 1)
        else:
            run = mine
        if not run:
            continue
        k = popcount(run)
        if L.trump_mask and sm != L.trump_mask:
            for o in range(NSEATS(c)):
                if o != leader and (s.hands[o] & L.trump_mask):
                    len_o = popcount(s.hands[o] & sm)
                    if len_o < k:
                        k = len_o
        qt += k
        if OBJ(c) == OBJECTIVE_POINTS:
            follow = 0
            for o in range(NSEATS(c)):
                if o != leader and s.hands[o] & sm:
                    follow += cheapest_points(c, s.hands[o] & sm, k)
            if follow > best_follow:
                best_follow = follow
        while k > 0:
            qpts += L.points[highest_bit(run)]
            run &= ~bit(highest_bit(run))
            k -= 1
    if qt == 0:
        return
    follow = 0
    if OBJ(c) == OBJECTIVE_POINTS:
        for o in range(NSEATS(c)):
            if o != leader:
                follow += cheapest_points(c, s.hands[o], qt)
    qpts += best_follow if best_follow > follow else follow
    if OBJ(c) == OBJECTIVE_TRICKS:
        if lside:
            if qt > lo[0]:
                lo[0] = qt
        elif t - qt < hi[0]:
            hi[0] = t - qt
    elif OBJ(c) == OBJECTIVE_POINTS and s.k.neg_rem == 0:
        # the side wins at least the points of the leader's cashed cards (or loses them)
        if lside:
            if qpts + c.bonus_neg > lo[0]:
                lo[0] = qpts + c.bonus_neg
        else:
            if s.k.pos_rem - qpts + c.bonus_pos < hi[0]:
                hi[0] = s.k.pos_rem - qpts + c.bonus_pos


cdef inline bounds_t trick_bound(ctx_t* c, int lo, int hi, int t) noexcept nogil:
    """Mid-trick: when no seat still to play against the current winner's team can beat
    the winning card, the trick's fate is known.  A card that cannot beat it now cannot
    beat a later, higher winner either.  Card points: the trick's, and the cheapest legal
    card of every seat still to play."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int pos = s.k.wpos
    cdef int wside = (c.side >> winner_seat(c)) & 1
    cdef uint64_t beats = (L.trump_mask | L.suit_mask[s.k.led]) & ~((bit(s.k.tbits[pos]) << 1) - 1)
    cdef int i, seat = s.k.turn, tpts, tneg
    cdef uint64_t legal
    cdef bounds_t r
    r.lo = lo
    r.hi = hi
    for i in range(s.k.tn, NSEATS(c)):
        if i > s.k.tn:
            seat = seat + 1 if seat + 1 < NSEATS(c) else 0
        if ((c.side >> seat) & 1) != wside:
            if s.hands[seat] & beats:
                legal = node_moves(c, seat)
                if legal & beats:
                    return r
    if OBJ(c) == OBJECTIVE_POINTS:
        tpts = s.k.tpts
        tneg = s.k.tneg
        if tneg == 0 and s.k.neg_rem == 0:
            seat = s.k.turn
            for i in range(s.k.tn, NSEATS(c)):
                if i > s.k.tn:
                    seat = seat + 1 if seat + 1 < NSEATS(c) else 0
                legal = node_moves(c, seat)
                tpts += cheapest_card(c, legal)
        if wside:
            r.lo += tpts - tneg
        else:
            r.hi -= tpts - tneg
    elif OBJ(c) == OBJECTIVE_TRICKS:
        if wside:
            r.lo = 1
        else:
            r.hi = t - 1
    else:
        if wside:
            r.lo = 1
        elif t == 1:
            r.hi = 0
    return r


# --------------------------------------------------------------------------------------
# making a move

cdef inline void place_card(ctx_t* c, int b, int turn) noexcept nogil:
    """Put layout bit ``b`` of ``turn`` (the seat to move) on the table: the card leaves
    its hand, its points join the trick's, the turn passes on and the trick's led suit and
    winning card so far follow.  The part of a move :func:`apply_card` and ``ab``'s loop
    share; :func:`unplace_card` is its inverse."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int pts = L.points[b]
    cdef uint64_t m = bit(b)
    s.hands[turn] &= ~m
    s.live &= ~m
    s.k.tbits[s.k.tn] = <int8_t>b
    s.k.tn += 1
    s.k.table |= m
    s.k.played |= m
    s.k.tpts += pts
    if pts < 0:
        s.k.tneg += pts
    else:
        s.hpos[turn] -= pts
    s.k.turn = turn + 1 if turn + 1 < NSEATS(c) else 0
    if s.k.tn == 1:
        s.k.led = L.suit_of_bit[b]
        s.k.wpos = 0
    elif ((L.trump_mask | L.suit_mask[s.k.led]) >> b) & 1 and b > s.k.tbits[s.k.wpos]:
        s.k.wpos = s.k.tn - 1       # the highest eligible card so far (as trick_winner finds)


cdef inline void unplace_card(ctx_t* c, int b, int turn, int o_wpos) noexcept nogil:
    """Take back :func:`place_card` of layout bit ``b`` by ``turn``, a card that did not
    complete its trick (``o_wpos``: the trick's winning position before it).  Puts back
    only what ``place_card`` changed, cheaper than saving and restoring the trick state
    around each of the search's moves (most of them do not complete a trick).  The table
    slot the card took is left as it is: slots at or past ``tn`` are never read."""
    cdef state_t* s = &c.s
    cdef int pts = c.L.points[b]
    cdef uint64_t m = bit(b)
    s.k.tn -= 1
    if s.k.tn == 0:
        s.k.led = -1
    s.k.wpos = o_wpos
    s.k.turn = turn
    s.k.table &= ~m
    s.k.played &= ~m
    s.k.tpts -= pts
    if pts < 0:
        s.k.tneg -= pts
    else:
        s.hpos[turn] += pts
    s.hands[turn] |= m
    s.live |= m


cdef inline int complete_trick(ctx_t* c, int b) noexcept nogil:
    """:func:`apply_card` for the card that completes the trick: its move and the trick's
    end in one step, without the table updates the next trick would undo (the card's table
    slot, the trick's points and count, the next seat to play)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int turn = s.k.turn, pts = L.points[b], w, tv = 0, neg = s.k.tneg
    cdef uint64_t m = bit(b)
    s.hands[turn] &= ~m
    s.live &= ~m
    s.k.played |= m
    if pts < 0:
        neg += pts
    else:
        s.hpos[turn] -= pts
    pts += s.k.tpts
    if ((L.trump_mask | L.suit_mask[s.k.led]) >> b) & 1 and b > s.k.tbits[s.k.wpos]:
        s.k.wpos = NSEATS(c) - 1          # this card wins (the trick has n - 1 cards before it)
        w = turn
    else:
        w = winner_seat(c)
    if in_side(c, w):
        if OBJ(c) == OBJECTIVE_POINTS:
            tv = pts
        else:
            tv = 1
    s.k.suits_led |= 1 << s.k.led
    s.k.tpts = 0
    s.k.tneg = 0
    s.k.pos_rem -= pts - neg
    s.k.neg_rem -= neg
    s.k.last_trick = s.k.table | m
    s.k.last_winner = w
    s.k.table = 0
    s.k.tn = 0
    s.k.led = -1
    s.k.leader = w
    s.k.turn = w
    s.k.trick_index += 1
    s.k.tleft -= 1
    if s.live == 0:
        s.k.done = 1
        if OBJ(c) == OBJECTIVE_POINTS and in_side(c, w):
            tv += c.bonus
    if OBJ(c) == OBJECTIVE_NIL and tv:
        s.k.done = 1
    return tv


cdef inline int apply_card(ctx_t* c, int b) noexcept nogil:
    """Play layout bit ``b`` for the seat to move.  Returns the side's value of the trick
    if this card completes it (0 otherwise); updates the state to the next trick."""
    if c.s.k.tn == NSEATS(c) - 1:
        return complete_trick(c, b)
    place_card(c, b, c.s.k.turn)
    return 0


cdef inline int _neg_points(const layout_t* L, uint64_t cards) noexcept nogil:
    cdef int total = 0, p
    while cards:
        p = L.points[lowest_bit(cards)]
        if p < 0:
            total += p
        cards &= cards - 1
    return total


# --------------------------------------------------------------------------------------
# transposition table

cdef inline int norm_bit(ctx_t* c, int b, uint64_t live) noexcept nogil:
    """Relative-rank image of live card ``b``: in a suit whose cards are interchangeable but
    for rank, the k-th highest live card maps to the k-th highest bit of the suit."""
    cdef int su
    if not (c.squeeze >> b) & 1:
        return b
    su = c.L.suit_of_bit[b]
    return c.suit_top[su] - popcount(live & c.L.suit_mask[su] & ~((bit(b) << 1) - 1))


cdef inline int denorm_bit(ctx_t* c, int nb, uint64_t live) noexcept nogil:
    """Inverse of :func:`norm_bit` for the current live cards (-1 if there is none)."""
    cdef int su, k
    cdef uint64_t m
    if not (c.squeeze >> nb) & 1:
        return nb
    su = c.L.suit_of_bit[nb]
    m = live & c.L.suit_mask[su]
    k = c.suit_top[su] - nb
    while k > 0 and m:
        m &= ~bit(highest_bit(m))
        k -= 1
    return highest_bit(m) if m else -1


cdef inline uint64_t top_run(int top, int k) noexcept nogil:
    """The ``k`` bits ending at bit ``top`` (where a suit's ``k`` live cards go)."""
    return ((bit(top) << 1) - 1) & ~(bit(top + 1 - k) - 1)


cdef inline uint64_t make_key(ctx_t* c, uint64_t* key, uint64_t* h) noexcept nogil:
    """Pack the position into ``key[0..K-1]``; returns the meta word and sets ``h`` to
    their hash (:func:`key_hash`).  Suits in ``c.squeeze`` are stored by relative rank:
    their live cards are moved, in order, to the top of the suit's bits, each in its
    holder's hand (a suit with no gap below its top needs no move)."""
    cdef int i, pos, b, su, top
    cdef uint64_t m, sm, run
    cdef uint64_t nh[8]
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t meta
    cdef uint64_t live = all_hands(c)
    meta = <uint64_t>s.k.leader | (<uint64_t>c.side << 4) | (<uint64_t>1 << 21)
    if s.k.played & c.L.breakers:
        meta |= <uint64_t>1 << 12
    if c.L.must_play_bit >= 0 and (live >> c.L.must_play_bit) & 1:
        meta |= (<uint64_t>(s.k.suits_led & 255)) << 13
    if not c.squeeze:
        tc_pack_key(s.hands, NSEATS(c), NCARDS(c), KWORDS(c), key)
    elif c.bmi2:
        h[0] = tc_rank_key_bmi2(s.hands, live, meta, &c.keyshape, key)
        return meta
    else:
        for i in range(NSEATS(c)):
            nh[i] = s.hands[i] & ~c.squeeze
        for su in range(TC_NSUITS(L)):
            sm = L.suit_mask[su]
            m = live & sm
            if not m or not (c.squeeze & sm):
                continue
            top = c.suit_top[su]
            run = top_run(top, popcount(m))
            if m == run:
                for i in range(NSEATS(c)):
                    nh[i] |= s.hands[i] & m
                continue
            pos = top
            while m:
                b = highest_bit(m)
                m &= ~bit(b)
                nh[c.owner[b]] |= bit(pos)
                pos -= 1
        tc_pack_key(nh, NSEATS(c), NCARDS(c), KWORDS(c), key)
    h[0] = key_hash(c, key, meta)
    return meta


cdef inline uint64_t key_hash(ctx_t* c, uint64_t* key, uint64_t meta) noexcept nogil:
    """The table's hash of a key (``tc_key_hash``)."""
    return tc_key_hash(key, KWORDS(c), meta)


cdef inline int special_match(ctx_t* c, uint64_t stored, uint64_t live) noexcept nogil:
    """Do the cards with a rule flag of their own stand at the same relative rank in both
    positions (live in both and as many live cards above them in their suit, or in
    neither)?  Only then are the two game trees the same move for move."""
    cdef uint64_t m = c.special & (stored | live), above_b
    cdef int b
    while m:
        b = lowest_bit(m)
        m &= m - 1
        if not ((stored >> b) & 1 and (live >> b) & 1):
            return 0
        above_b = c.L.suit_mask[c.L.suit_of_bit[b]] & ~((bit(b) << 1) - 1)
        if popcount(stored & above_b) != popcount(live & above_b):
            return 0
    return 1


cdef inline void point_shift(ctx_t* c, uint64_t stored, uint64_t live, int* dneg, int* dpos) noexcept nogil:
    """How far the value of the current position (live cards ``live``) can lie from that
    of a stored position with the same relative-rank key (live cards ``stored``): the two
    game trees are the same move for move, card ``i`` of one standing for the card of the
    same relative rank in the other, so along any line the side's value differs by the
    sum of ``points(current) - points(stored)`` over the cards the side takes, i.e. by
    between the sum of the negative and the sum of the positive differences."""
    cdef const layout_t* L = c.L
    cdef uint64_t diff = stored ^ live, ms, ml
    cdef int su, d, x, neg = 0, pos = 0
    for su in range(TC_NSUITS(L)):
        if not (diff & L.suit_mask[su]):
            continue
        ms = stored & L.suit_mask[su]
        ml = live & L.suit_mask[su]
        # the key gives both as many cards of the suit: paired from the lowest up, the
        # same pairs as from the top, and a lowest bit is cheaper to find and clear
        while ml:
            d = L.points[lowest_bit(ml)] - L.points[lowest_bit(ms)]
            x = d & (d >> 31)               # min(d, 0) and max(d, 0) without a branch
            neg += x
            pos += d - x
            ms &= ms - 1
            ml &= ml - 1
    dneg[0] = neg
    dpos[0] = pos


cdef inline int entry_shift(ctx_t* c, const uint64_t* e, uint64_t live, int* dneg, int* dpos) noexcept nogil:
    """For an entry with this position's key: 0 if it cannot stand for the position (a
    flagged card elsewhere, :func:`special_match`), else 1 with its point shift."""
    if e[KWORDS(c) + 2] == live:
        dneg[0] = 0
        dpos[0] = 0
        return 1
    if c.special and not special_match(c, e[KWORDS(c) + 2], live):
        return 0
    point_shift(c, e[KWORDS(c) + 2], live, dneg, dpos)
    return 1


cdef inline int same_key(ctx_t* c, const uint64_t* e, const uint64_t* key, uint64_t meta) noexcept nogil:
    """Is entry ``e`` of this key and meta word?  The first key word is compared first: it
    tells most other positions apart and needs no index."""
    cdef int i
    if e[0] != key[0] or e[KWORDS(c)] != meta:
        return 0
    for i in range(1, KWORDS(c)):
        if e[i] != key[i]:
            return 0
    return 1


cdef inline int tt_lookup(ctx_t* c, uint64_t* table, uint64_t mask, int ways, uint64_t* key,
                          uint64_t meta, uint64_t h, uint64_t live, int* lo, int* hi, int* hint,
                          uint64_t** same) noexcept nogil:
    """Narrow [lo, hi] by every entry for this relative-rank key: exactly for an entry of
    the same cards, shifted by :func:`point_shift` for one of other cards.  Returns 2 if
    an entry of the same cards was found, 1 if only others, 0 if none; ``hint`` gets the
    best card of the closest entry (normalised, -1 if none), ``same`` the first entry of
    the same cards (NULL if none), where :func:`tt_store` merges the node's result.  The
    loop works on local copies written back at the end: stores through the int pointers
    could alias the context, whose fields (K, stride) gcc then read again every way."""
    cdef int K = KWORDS(c), stride = STRIDE(c)
    cdef uint64_t* e = table + ((h & mask) * ways) * stride
    cdef int way, found = 0, elo, ehi, dneg, dpos, best_d = 1 << 30
    cdef int nlo = lo[0], nhi = hi[0], nhint = -1
    cdef uint64_t* nsame = NULL
    cdef uint64_t p
    for way in range(ways):
        if same_key(c, e, key, meta) and entry_shift(c, e, live, &dneg, &dpos):
            p = e[K + 1]
            elo = <int16_t>(p & 0xFFFF)
            ehi = <int16_t>((p >> 16) & 0xFFFF)
            if elo > -INF:
                elo += dneg
            if ehi < INF:
                ehi += dpos
            if elo > nlo:
                nlo = elo
            if ehi < nhi:
                nhi = ehi
            if dpos - dneg < best_d:
                best_d = dpos - dneg
                nhint = <int>((p >> 32) & 0xFF) - 1
            if dneg == 0 and dpos == 0:
                if found != 2:
                    nsame = e
                found = 2
            elif found == 0:
                found = 1
        e += stride
    lo[0] = nlo
    hi[0] = nhi
    hint[0] = nhint
    same[0] = nsame
    return found


cdef inline void tt_store(ctx_t* c, uint64_t* table, uint64_t mask, int ways, uint64_t* key,
                          uint64_t meta, uint64_t h, uint64_t live, int lower, int upper, int best,
                          int tleft, uint64_t* e) noexcept nogil:
    """Record bounds for the position: merged into the entry of the same cards (same
    key, no point shift) if there is one, else into the emptiest or oldest way.  ``e``:
    that entry as :func:`tt_lookup` found it before the node's search (NULL if none).
    The search below stored only positions of fewer cards, which have other keys: the
    entry is still there unless one of them took its way, and no other entry of the
    same cards can have come (no rescan of the bucket: callgrind -1%)."""
    cdef uint64_t* cand
    cdef uint64_t* victim = NULL
    cdef int way, i, old_lo, old_hi, score, vscore = 1 << 30
    cdef uint64_t p
    if e != NULL and not same_key(c, e, key, meta):
        e = NULL
    if e != NULL:
        p = e[KWORDS(c) + 1]
        old_lo = <int16_t>(p & 0xFFFF)
        old_hi = <int16_t>((p >> 16) & 0xFFFF)
        if old_lo > lower:
            lower = old_lo
        if old_hi < upper:
            upper = old_hi
        if best < 0:
            best = <int>((p >> 32) & 0xFF) - 1
        victim = e
    else:
        cand = table + ((h & mask) * ways) * STRIDE(c)
        for way in range(ways):
            p = cand[KWORDS(c) + 1]
            if cand[KWORDS(c)] == 0:
                victim = cand
                break
            # prefer replacing entries of older deals, then the shallowest
            score = <int>((p >> 40) & 0xFF) + (256 if <int>((p >> 48) & 0xFFFF) == c.gen else 0)
            if score < vscore:
                vscore = score
                victim = cand
            cand += STRIDE(c)
        for i in range(KWORDS(c)):
            victim[i] = key[i]
        victim[KWORDS(c)] = meta
        victim[KWORDS(c) + 2] = live
    victim[KWORDS(c) + 1] = ((<uint64_t>(<uint16_t>lower)) | ((<uint64_t>(<uint16_t>upper)) << 16)
                       | ((<uint64_t>(best + 1) & 0xFF) << 32) | ((<uint64_t>tleft & 0xFF) << 40)
                       | ((<uint64_t>c.gen & 0xFFFF) << 48))


cdef inline void store_outcome(ctx_t* c, uint64_t* table, uint64_t mask, int ways, uint64_t* key,
                               uint64_t meta, uint64_t h, int v, int a0, int b0, int best,
                               int tleft, uint64_t* e) noexcept nogil:
    """:func:`tt_store` of a search's fail-soft value ``v`` in the window (``a0``,
    ``b0``): an upper bound where it failed low, a lower bound where it failed high, else
    the exact value."""
    if v <= a0:
        tt_store(c, table, mask, ways, key, meta, h, c.s.live, -INF, v, best, tleft, e)
    elif v >= b0:
        tt_store(c, table, mask, ways, key, meta, h, c.s.live, v, INF, best, tleft, e)
    else:
        tt_store(c, table, mask, ways, key, meta, h, c.s.live, v, v, best, tleft, e)


# --------------------------------------------------------------------------------------
# move generation and ordering

cdef inline uint64_t rule_moves(ctx_t* c, uint64_t hand, int led, uint64_t played) noexcept nogil:
    """:func:`legal_moves` of ``hand`` in the current trick (``led``: its suit, -1 at the
    lead; ``played``: the cards played, this trick's included).  Where no rule restricts
    a lead or a follow (``plain_rules``) it is only "follow suit if you can", worked out
    inline: in ``ab`` the call, with its six arguments, was 2% of the instructions."""
    cdef uint64_t f
    if c.plain_rules:
        if led >= 0:
            f = hand & c.L.suit_mask[led]
            if f:
                return f
        return hand
    return legal_moves(c.L, hand, led, c.s.k.trick_index, played, c.s.k.suits_led)


cdef inline uint64_t node_moves(ctx_t* c, int seat) noexcept nogil:
    """:func:`rule_moves` of ``seat`` (to move, or still to play) in the trick on the table."""
    return rule_moves(c, c.s.hands[seat], c.s.k.led, c.s.k.played)


cdef inline uint64_t representatives(ctx_t* c, uint64_t moves) noexcept nogil:
    """Drop every card whose next higher live card of its suit is also one of ``moves`` with
    the same class: the two are interchangeable, the higher one represents the run."""
    cdef uint64_t live = all_hands(c) | c.s.k.table
    cdef uint64_t out = moves, m = moves & c.twins, above
    cdef int b, nb
    while m:
        b = lowest_bit(m)
        m &= m - 1
        above = live & ~((bit(b) << 1) - 1) if b < 63 else 0
        if above:
            nb = lowest_bit(above)
            if ((moves & c.twins_of[b]) >> nb) & 1:     # a move of b's suit and class
                out &= ~bit(b)
    return out


cdef inline int represents(ctx_t* c, uint64_t moves, int b) noexcept nogil:
    """Is card ``b`` of ``moves`` one of :func:`representatives` (``moves``)?  The same
    test for one card."""
    cdef uint64_t live, above
    if not (c.twins >> b) & 1:
        return 1
    live = all_hands(c) | c.s.k.table
    above = live & ~((bit(b) << 1) - 1) if b < 63 else 0
    return not (above and ((moves & c.twins_of[b]) >> lowest_bit(above)) & 1)


cdef inline void ruff_threats(ctx_t* c, int turn, int* partner_ruffs, int* opp_ruffs) noexcept nogil:
    """The plain suits a partner (``partner_ruffs``) or an opponent (``opp_ruffs``) of
    ``turn`` could ruff if led: void in the suit, holding a trump (bit masks of suits)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int i, su, mine = (c.side >> turn) & 1, void, partner = 0, opp = 0
    for i in range(NSEATS(c)):
        if i == turn or not (s.hands[i] & L.trump_mask):
            continue
        void = 0        # the plain suits seat i is void in, without a branch per suit
        for su in range(TC_NSUITS(L) - 1):
            void |= (not (s.hands[i] & L.suit_mask[su])) << su
        if ((c.side >> i) & 1) == mine:
            partner |= void
        else:
            opp |= void
    partner_ruffs[0] = partner
    opp_ruffs[0] = opp


cdef inline uint64_t still_to_play(ctx_t* c, int turn, uint64_t* partners) noexcept nogil:
    """Mid-trick: the cards with which the opponents of ``turn`` still to play in this trick
    after ``turn`` could win it (returned), and those of its partners (``partners``): their
    cards of the led suit, or their trumps if void.  Both teams in one pass over the seats."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int i, seat = turn, mine = (c.side >> turn) & 1
    cdef uint64_t opp = 0, own = 0, cards, sm = L.suit_mask[s.k.led]
    for i in range(s.k.tn + 1, NSEATS(c)):
        seat = seat + 1 if seat + 1 < NSEATS(c) else 0
        cards = s.hands[seat] & sm
        if not cards:
            cards = s.hands[seat] & L.trump_mask
        if ((c.side >> seat) & 1) == mine:
            own |= cards
        else:
            opp |= cards
    partners[0] = own
    return opp


cdef inline int beaten(uint64_t by, uint64_t eligible, int b) noexcept nogil:
    """Can a card of ``by`` beat card ``b`` (``eligible``: the led suit and trump)?"""
    return (by & eligible & ~((bit(b) << 1) - 1)) != 0


cdef inline int pick_best(int* keys, int i, int n) noexcept nogil:
    """Selection step of the lazy move ordering: swap the largest of ``keys[i..n-1]`` into
    ``keys[i]`` and return it.  Keys are distinct (each embeds its card), so picking them
    one by one gives the order a full sort would, and a node that cuts off on its first
    card (85-98% of the cut nodes) pays for one scan instead of the sort."""
    cdef int j, top = i, k = keys[i]
    for j in range(i + 1, n):
        if keys[j] > k:
            k = keys[j]
            top = j
    keys[top] = keys[i]
    keys[i] = k
    return k


cdef int move_keys(ctx_t* c, uint64_t reps, int turn, int* out) noexcept nogil:
    """:func:`order_moves` for ``ab``: a key per card of ``reps`` (one or more) into
    ``out``, the best in ``out[0]`` and the rest unsorted; returns how many.  The search
    takes the others best first only when it needs them (:func:`pick_best`).  The
    table's card, if any, is not weighed: :func:`ab_lead` searches it before.  A key is
    the card's weight ``sc`` and its bit in one int, ``sc * 64 + 63 - b``: in decreasing
    order the lower card comes first on a tie, and no two keys are equal.  The lead and
    the following seats each have a function of their own (:func:`lead_keys`,
    :func:`follow_keys`), which :func:`ab_lead` and :func:`ab_mid_cards` call directly:
    small enough for gcc to inline them there, where the one ``move_keys`` stayed a call."""
    if c.s.k.tn > 0:
        return follow_keys(c, reps, turn, out, c.s.k.tn == NSEATS(c) - 1)
    return lead_keys(c, reps, turn, out)


cdef inline int follow_keys(ctx_t* c, uint64_t reps, int turn, int* out, int last) noexcept nogil:
    """:func:`move_keys` inside a trick; ``last``: ``turn`` is the trick's last seat (a
    constant where it is inlined)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int n = 0, b, p, sc, tb, wseat, wbit, partner_win, key, kmax = -(1 << 30), top = 0
    cdef int want_win, ours = 0, smear, wbase, wlim
    cdef uint64_t eligible, m = reps, threat = 0, helpers, above
    want_win = ((c.side >> turn) & 1) == ((c.maxmask >> turn) & 1)
    # the per-trick quantities are worked out before the loop over the cards
    eligible = L.trump_mask | L.suit_mask[s.k.led]
    wbit = s.k.tbits[s.k.wpos]
    wseat = winner_seat(c)
    partner_win = ((c.side >> wseat) & 1) == ((c.side >> turn) & 1)
    wlim = -1
    # ours: the trick goes to our team whatever we play (1), or is open (0)
    if want_win and not last:
        threat = still_to_play(c, turn, &helpers) & eligible
        if partner_win:
            ours = not beaten(threat, eligible, wbit)
        else:
            helpers &= eligible
            if helpers:
                tb = highest_bit(helpers)
                ours = tb > wbit and not beaten(threat, eligible, tb)
            if not ours and threat:
                wlim = highest_bit(threat)  # an opponent still to play beats cards below it
    else:
        ours = partner_win
    above = eligible & ~((bit(wbit) << 1) - 1)     # cards that would win the trick so far
    smear = (want_win and ours) or (not want_win and not partner_win)
    if not want_win:
        wbase = -3000
    elif partner_win:
        wbase = 0           # overtakes a partner: after smears, before throwing low
    elif ours:
        wbase = 900         # a partner will win it anyway
    else:
        wbase = 3000        # wins the trick
    while m:
        b = lowest_bit(m)
        m &= m - 1
        p = 16 * L.points[b]
        if (above >> b) & 1:      # would win the trick so far
            if b < wlim:
                sc = 500 - p - b    # an opponent still to play may beat it
            elif want_win:
                sc = wbase + p - b
            else:
                # nobody here wants the trick (weights tuned with the leads' above):
                # between the smears and the throws
                sc = (16 if L.trump_mask else -16) - p + b
        elif smear:
            # the trick goes where we want it: smear (into the team's trick the lowest of
            # equal points, onto the others' the highest)
            sc = 1000 + p - b if want_win else 1000 + 8 * L.points[b] + b
        elif want_win or L.trump_mask:
            sc = -p - b
        else:
            sc = -2 * p + b
        key = sc * 64 + 63 - b
        if key > kmax:
            kmax = key
            top = n
        out[n] = key
        n += 1
    out[top] = out[0]
    out[0] = kmax
    return n


cdef inline int lead_keys(ctx_t* c, uint64_t reps, int turn, int* out) noexcept nogil:
    """:func:`move_keys` at a trick's lead."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int n = 0, b, p, sc, tb, key, kmax = -(1 << 30), top = 0
    cdef int partner_ruffs = 0, opp_ruffs = 0, su, o, lone
    cdef uint64_t live, m = reps, mates
    if ((c.side >> turn) & 1) == ((c.maxmask >> turn) & 1):
        live = all_hands(c)
        # the partners' cards (the team's cards but the player's own)
        mates = live & (c.side_cards if (c.side >> turn) & 1 else ~c.side_cards) & ~s.hands[turn]
        if L.trump_mask:
            ruff_threats(c, turn, &partner_ruffs, &opp_ruffs)
        while m:
            b = lowest_bit(m)
            m &= m - 1
            p = 16 * L.points[b]
            su = L.suit_of_bit[b]
            tb = highest_bit(live & L.suit_mask[su])
            if tb == b or (mates >> tb) & 1:
                sc = 1500 + p - b       # a winner, or toward the partner's: dearest first
            else:
                sc = -p - b
            if (opp_ruffs >> su) & 1:
                sc -= 5000              # an opponent ruffs it
            elif (partner_ruffs >> su) & 1:
                sc += 800               # a partner ruffs it
            elif (L.trump_mask >> b) & 1:
                sc -= 1000              # a trump: after the plain suits of its kind
            key = sc * 64 + 63 - b
            if key > kmax:
                kmax = key
                top = n
            out[n] = key
            n += 1
    else:
        # a team that wants no tricks (a lone seat that wants few points, and the others
        # against it).  Weights tuned on node counts (session 18, see order_moves), one
        # set for trump games (leasters, paranoid minima with a trump) and one without
        # (Hearts, Gamut hearts): with trumps the cheapest card first, without the
        # dearest (a point card led is one the others can take, or the lone seat must);
        # then the higher card.  Against the lone seat the others lead last a suit it is
        # void in (where it sheds a card on their trick) and late one whose top card it
        # holds; the lone seat leads first a card an opponent can beat.
        live = all_hands(c)
        lone = lowest_bit(<uint64_t>c.side)
        while m:
            b = lowest_bit(m)
            m &= m - 1
            su = L.suit_of_bit[b]
            if L.trump_mask:
                sc = -32 * L.points[b] + b
            else:
                sc = 8 * L.points[b] + b
                for o in range(0 if (c.side >> turn) & 1 else NSEATS(c)):
                    if (c.side >> o) & 1 and (s.hands[o] & L.suit_mask[su]) \
                            and not (s.hands[o] & L.suit_mask[su] & (bit(b) - 1)):
                        sc += 8         # a card the side must beat
                        break
            if c.lone_min:
                if (c.side >> turn) & 1:
                    if (live & ~s.hands[turn] & L.suit_mask[su]) >> b:
                        sc += 500
                elif not (s.hands[lone] & L.suit_mask[su]):
                    sc -= 2000
                elif (s.hands[lone] >> highest_bit(live & L.suit_mask[su])) & 1:
                    sc -= 500
            key = sc * 64 + 63 - b
            if key > kmax:
                kmax = key
                top = n
            out[n] = key
            n += 1
    out[top] = out[0]
    out[0] = kmax
    return n


cdef inline int key_card(int key) noexcept nogil:
    """The card of a :func:`move_keys` key."""
    return 63 - (key & 63)


cdef int order_moves(ctx_t* c, uint64_t reps, int turn, int hint, int* out) noexcept nogil:
    """Write the cards of ``reps`` into ``out`` best-first; returns how many.  ``hint``
    (a card, or -1) goes first.

    Leads (for a team that wants tricks): a winner or a card toward the partner's winner,
    the dearest first (the lower of equal points), else low; a plain suit an opponent
    could ruff goes last, one a partner could
    ruff earlier (the two rules took 20-50% of the nodes off every point game with a
    trump: Goathead 3p -33%, Sheepshead -32%, Clover -50%); a trump lead, a trump winner
    too, goes after the plain leads of its kind (400 deals, nodes with the exact value:
    Goathead 3p -3%, 4p -3%, Sheepshead -1.4%, Clover -10%; to the payout: Goathead 3p
    -1% to -3%, 4p -4% to -6%, Sheepshead -3% to -6%; moving back only the trump
    winners or only the other trumps did no better).  Following (for a team that
    wants tricks), from the seats still to play in the trick: win where no opponent can
    beat the card; let a partner win who surely will (smear points on the trick, the
    dearest and then the lowest card first); win where an opponent still could beat the
    card (cheapest points first); overtake a partner's card that an opponent can still
    beat with one no opponent can; throw low (Goathead 3p -19% nodes, Clover -14%,
    Sheepshead -10%).

    Session 18 tuned these weights by a coordinate search over the node counts of 11
    layouts of the three point games (seed 11, 20-300 deals each), then checked them on
    other deals: cashing a winner no longer before leading toward the partner's, the
    dearest such lead first instead of the cheapest toward the partner (and the lowest
    winner, not the highest), the smears lowest card first, and overtaking a partner's
    card with a sure winner before throwing low instead of after it.  Nodes, every points
    contract of Goathead 3p and 4p (200 deals), Sheepshead (40) and Clover (12): mean
    -6.8% (seed 7) and -7.9% (seed 99), within +10% (Sheepshead called ace of spades,
    seed 7) and -20%; 300 Sheepshead jd deals -5.2%, -8.2%, -7.8% (seeds 2026, 5, 6),
    1,000 Goathead 3p hearts deals about -4%, 60 Clover hearts deals -5% to -14%.

    The same search for a team that wants no tricks (:func:`lead_keys`' second branch and
    the ``not want_win`` cards here), a set of weights with trumps and one without, tuned
    on seeds 13-15 and checked on seeds 7, 2026 and 99 (``benches/bench_lone_min.py``'s
    rows and 20 Hearts endings of 8 tricks), nodes against the orderings before:
    Goathead 3p leasters -10% to -15%, 4p -5% to -10%, Hearts endings of 7 tricks -12%
    to -36% (100 deals of seeds 5 and 6: -6%, -5%), of 8 tricks -41% to -53%, Gamut
    hearts -0.4% to -50%, Sheepshead leaster -1% to -14% (200 deals: +1%, -16%), Clover's
    paranoid minimum -10% to +1% (60 deals: -11%, +9%).  One set for every layout cost
    the Sheepshead leaster up to +19%."""
    cdef int n, i, first = 0
    if not (reps & (reps - 1)):        # one card (or none): nothing to order
        out[0] = lowest_bit(reps) if reps else -1
        return 1 if reps else 0
    if hint >= 0 and (reps >> hint) & 1:
        out[0] = hint
        reps &= ~bit(hint)
        first = 1
    n = move_keys(c, reps, turn, out + first)
    for i in range(n):
        out[first + i] = key_card(pick_best(out + first, i, n))
    return first + n


# --------------------------------------------------------------------------------------
# the search

cdef int last_trick(ctx_t* c) noexcept nogil:
    """At a trick boundary, every seat holds one card: the side's value of that trick (the
    highest card of the led suit or trump wins every live point and the bonus)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int led = L.suit_of_bit[lowest_bit(s.hands[s.k.leader])]
    cdef int top = highest_bit(s.live & (L.trump_mask | L.suit_mask[led]))
    cdef int w = 0
    c.nodes += 1
    while not (s.hands[w] >> top) & 1:
        w += 1
    if not in_side(c, w):
        return 0
    if OBJ(c) == OBJECTIVE_POINTS:
        return s.k.pos_rem + s.k.neg_rem + c.bonus
    return 1


cdef inline void take_back(ctx_t* c, const trick_t* saved, int seat, int b) noexcept nogil:
    """Undo :func:`apply_card` of layout bit ``b`` by ``seat`` (``saved``: the state's
    ``k`` before it)."""
    cdef int p = c.L.points[b]
    c.s.k = saved[0]
    c.s.hands[seat] |= bit(b)
    c.s.live |= bit(b)
    if p > 0:
        c.s.hpos[seat] += p


cdef inline int play_search(ctx_t* c, int b, int alpha, int beta) noexcept nogil:
    """Value of the remaining play after the seat to move plays ``b``.  ``ab``'s loop makes
    the same choice itself, once per node.  A lead of three seats at three tricks left
    goes to :func:`three_left3`, as :func:`three_leads3`'s do: the line's probes,
    Goathead 3p x0.98 in paired calls (the second card's probes by :func:`three_last3`
    too, the live cards saved around the last two tricks: x1.01 of that)."""
    if c.s.k.tn == NSEATS(c) - 1:
        return play_last_card(c, b, alpha, beta)
    if NSEATS(c) == 3 and c.s.k.tn == 0 and c.s.k.tleft == c.close_at:
        return three_left3(c, b, alpha, beta)
    return play_open(c, b, alpha, beta)


cdef int play_open(ctx_t* c, int b, int alpha, int beta) noexcept nogil:
    """:func:`play_search` for a card that leaves the trick open (most moves: 57% on
    Goathead 3p): made and taken back in place (:func:`place_card`, :func:`unplace_card`)
    instead of saving and restoring the trick state."""
    cdef int turn = c.s.k.turn, o_wpos = c.s.k.wpos, v
    place_card(c, b, turn)
    v = ab_mid(c, alpha, beta)
    unplace_card(c, b, turn, o_wpos)
    return v


cdef int play_last_card(ctx_t* c, int b, int alpha, int beta) noexcept nogil:
    """:func:`play_search` for the card that completes a trick: the trick state is saved
    whole and put back (the next tricks overwrite most of it)."""
    cdef trick_t saved
    cdef int seat = c.s.k.turn
    cdef int tv
    if c.s.k.tleft == c.close_at:
        return close_three(c, b, seat, alpha, beta)
    memcpy(&saved, &c.s.k, sizeof(trick_t))     # (Cython's assignment copied it twice)
    tv = complete_trick(c, b)
    cdef int v = after_trick(c, tv, alpha, beta)
    take_back(c, &saved, seat, b)
    return v


cdef inline int after_trick(ctx_t* c, int tv, int alpha, int beta) noexcept nogil:
    """The value of the position a card closing a trick worth ``tv`` to the side has just
    made (:func:`complete_trick`): ``tv`` where play has stopped, else ``tv`` and the
    search of the next boundary (:func:`two_left` directly at two tricks left, its node
    counted here, :func:`ab_lead` otherwise)."""
    if c.s.k.done:
        return tv
    if c.s.k.tleft == 2 and c.use_small:
        c.nodes += 1                    # ab's node, its two-trick case without the call
        return tv + two_left(c, alpha - tv, beta - tv)
    return tv + ab_lead(c, alpha - tv, beta - tv)


cdef inline int close_three(ctx_t* c, int b, int turn, int alpha, int beta) noexcept nogil:
    """:func:`play_last_card` for three seats at three tricks left (``close_at``: plain
    rules, not Nil): the trick closed by ``b`` is read off the table (its winner, value
    and points) and the last two tricks searched by :func:`two_tricks3` with the new
    leader and points in its arguments, only ``b`` taken out of its hand: no
    :func:`complete_trick`, no saving and restoring of the trick state.  The same nodes
    (``ab``'s at the boundary and ``two_tricks``'), bounds and values as that way."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int pts = L.points[b], w, tneg = s.k.tneg
    if pts < 0:
        tneg += pts
    if overtakes(L, s.k.led, b, s.k.tbits[s.k.wpos]):
        w = turn
    else:
        w = winner_seat(c)
    return closed_at_three(c, w, pts + s.k.tpts, tneg, bit(b), s.k.played | bit(b), alpha, beta)


cdef inline int closed_at_three(ctx_t* c, int w, int pts, int tneg, uint64_t held,
                                uint64_t played, int alpha, int beta) noexcept nogil:
    """The side's value of a trick of three seats closed at three tricks left, won by
    ``w`` with ``pts`` card points (``tneg`` of them negative), and of the last two tricks
    after it: the bounds every position has at two tricks left, else :func:`two_tricks3`
    with the trick's cards ``held`` (those still in the hands: the state was not played
    into) taken out of the hands around it.  ``played``: the cards played, the trick's
    included.  :func:`close_three` and :func:`three_last3` close their tricks here."""
    cdef state_t* s = &c.s
    cdef int tv = 0, lo, hi, v, i
    cdef uint64_t hands[3]
    if in_side(c, w):
        tv = pts if OBJ(c) == OBJECTIVE_POINTS else 1
    alpha -= tv
    beta -= tv
    c.nodes += 1                    # ab's node at the boundary (two_left)
    # base_bounds at two tricks left, the trick's points gone from the live ones
    if OBJ(c) == OBJECTIVE_POINTS:
        lo = s.k.neg_rem - tneg + c.bonus_neg
        hi = s.k.pos_rem - (pts - tneg) + c.bonus_pos
    else:
        lo = 0
        hi = 2
    if settled(lo, hi, alpha, beta):
        return tv + (hi if hi <= alpha else lo)
    c.nodes += 1                    # two_tricks' node
    for i in range(3):
        hands[i] = s.hands[i]
        s.hands[i] &= ~held
    s.live &= ~held
    v = two_tricks3(c, w, s.k.pos_rem + s.k.neg_rem - pts, played, alpha, beta)
    for i in range(3):
        s.hands[i] = hands[i]
    s.live |= held
    return tv + v


cdef inline int three_leads3(ctx_t* c, uint64_t moves, int hint, int alpha, int beta,
                             int* best_card_out, int maximise) noexcept nogil:
    """:func:`ab_lead`'s search of the leads ``moves`` of three seats at three tricks left
    (``close_at``), in place of :func:`lead_moves`: the table's card ``hint``
    (normalised, or -1) first, then the others highest first, each through
    :func:`three_left3`; a copy for each mover.  Returns the fail-soft value, the card
    behind it in ``best_card_out``.

    Against :func:`lead_moves` (its ordering keys, equivalent cards and twin bounds) over
    :func:`three_left3`: ``benches/bench_ab.py`` Goathead 3p hearts x0.964 (0.957-0.976),
    nodes 534 -> 562.  The leads lowest first x1.023 of this, without the table's card
    first x1.005; Clover's leads at three tricks left in the same order (the followers
    through :func:`ab_mid`) x1.025 against :func:`lead_moves`."""
    cdef int best = -INF if maximise else INF
    cdef int b, v, best_card = -1
    if hint >= 0:
        hint = denorm_bit(c, hint, all_hands(c))
        if not (moves >> hint) & 1:
            hint = -1
    while moves:
        if hint >= 0:
            b = hint
            hint = -1
        else:
            b = highest_bit(moves)
        moves &= ~bit(b)
        v = three_left3(c, b, alpha, beta)
        if (v > best) if maximise else (v < best):
            best_card = b
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    best_card_out[0] = best_card
    return best


cdef inline int three_left3(ctx_t* c, int c0, int alpha, int beta) noexcept nogil:
    """The search after the lead ``c0`` of three seats at three tricks left (``close_at``:
    plain rules, not Nil), from :func:`three_leads3` and :func:`play_search` (the line's
    and every card's probes): the trick's second and third cards in nested loops
    (:func:`three_second3`, :func:`three_last3`), each card that closes it read off as
    :func:`close_three` reads it (:func:`closed_at_three`), the state not played into.

    The generic search (:func:`ab_mid` for the second and third cards) spends on each
    node its set-up, equivalent cards, dominated twins, the ordering keys and the twin
    bounds, where each seat holds three cards at most.  Here every seat's legal cards
    are tried highest first, nothing else.  ``benches/bench_ab.py``, paired calls, this
    function under :func:`lead_moves` against the generic search (1,000 bench deals,
    seed 2026): Goathead 3p hearts x0.918 (0.916-0.921), random seats clubs x0.916,
    court x0.881, leasters x0.936; nodes 475 -> 534 a deal (this path's counted as the
    generic one's), the same values and lines.  Tried in the same runs: lowest card
    first at both seats x0.944 (highest first at the third seat only x0.987 of that, at
    the second only x0.974); the third seat's cards by the trick's immediate value to
    the mover x1.044 against highest first; equivalent cards (:func:`representatives`)
    at both seats x1.017; the third seat's dominated twins (:func:`trick_twins`' rule)
    x1.013, nodes 564 -> 534; the second and third cards played into the state and closed
    by :func:`close_three` x0.944 against the generic search.  The same loops for every
    trick of three seats (each closing card through :func:`after_trick`): x2.03, nodes
    534 -> 1,413: above three tricks left the ordering and the twins pay.  Four and five
    seats at three tricks left, every follower's cards in nested loops through
    :func:`after_trick`: Sheepshead jd nodes 11,017 -> 14,213, x1.009; with
    :func:`follow_keys`' ordering x1.033 (Clover x1.000 and x1.021)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int s0 = s.k.turn
    cdef int s1 = s0 + 1 if s0 + 1 < 3 else 0
    cdef int s2 = s1 + 1 if s1 + 1 < 3 else 0
    cdef int led = L.suit_of_bit[c0]
    cdef uint64_t el = L.trump_mask | L.suit_mask[led]
    # the later seats' legal cards depend on the led suit alone (as in two_tricks3)
    cdef uint64_t m1 = rule_moves(c, s.hands[s1], led, s.k.played | bit(c0))
    cdef uint64_t m2 = rule_moves(c, s.hands[s2], led, s.k.played | bit(c0))
    c.nodes += 1                    # ab_mid's node of the second card
    if (c.maxmask >> s1) & 1:
        return three_second3(c, m1, m2, el, c0, s0, s1, s2, alpha, beta, (c.maxmask >> s2) & 1, 1)
    return three_second3(c, m1, m2, el, c0, s0, s1, s2, alpha, beta, (c.maxmask >> s2) & 1, 0)


cdef inline int three_second3(ctx_t* c, uint64_t moves, uint64_t m2, uint64_t el, int c0, int s0,
                              int s1, int s2, int alpha, int beta, int max2,
                              int maximise) noexcept nogil:
    """:func:`three_left3`'s second card (``moves``: its legal cards, ``m2`` the third
    seat's), highest first; a copy for each mover (``maximise`` a constant), as
    :func:`two_second3`."""
    cdef int best = -INF if maximise else INF
    cdef int b, v, wbit, wseat
    while moves:
        b = highest_bit(moves)
        moves &= ~bit(b)
        wbit = c0                   # the card winning so far, and its seat
        wseat = s0
        if (el >> b) & 1 and b > c0:
            wbit = b
            wseat = s1
        c.nodes += 1                # ab_mid's node of the third card
        if max2:
            v = three_last3(c, m2, el, wbit, wseat, s2, c0, b, alpha, beta, 1)
        else:
            v = three_last3(c, m2, el, wbit, wseat, s2, c0, b, alpha, beta, 0)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int three_last3(ctx_t* c, uint64_t moves, uint64_t el, int wbit, int wseat, int seat,
                            int c0, int c1, int alpha, int beta, int maximise) noexcept nogil:
    """:func:`three_left3`'s third card, which closes the trick after the cards ``c0``
    and ``c1``, highest first; a copy for each mover."""
    cdef const layout_t* L = c.L
    cdef int best = -INF if maximise else INF
    cdef int b, v, w, p
    cdef uint64_t table = bit(c0) | bit(c1)
    cdef int tpts = L.points[c0] + L.points[c1]
    cdef int tneg = min(L.points[c0], 0) + min(L.points[c1], 0)
    while moves:
        b = highest_bit(moves)
        moves &= ~bit(b)
        w = seat if (el >> b) & 1 and b > wbit else wseat
        p = L.points[b]
        v = closed_at_three(c, w, tpts + p, tneg + min(p, 0), table | bit(b),
                            c.s.k.played | table | bit(b), alpha, beta)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int two_left(ctx_t* c, int alpha, int beta) noexcept nogil:
    """``ab`` at a trick boundary with two tricks left (the node counted by the caller):
    the bounds every position has, else :func:`two_tricks` (for five seats through the
    table, :func:`two_tricks_tt`).  :func:`play_last_card` calls it directly (a sixth of
    ``ab``'s calls on Goathead 3p), without ``ab``'s set-up."""
    cdef int lo, hi
    base_bounds(c, &lo, &hi, 2)
    if settled(lo, hi, alpha, beta):
        return hi if hi <= alpha else lo
    if c.two_tt:
        return two_tricks_tt(c, alpha, beta, lo, hi)
    return two_tricks(c, alpha, beta)


cdef inline int table_settles(int lo, int hi, int* alpha, int* beta, int* v) noexcept nogil:
    """After a table lookup gave ``[lo, hi]``: 1 if they settle the window (``alpha``,
    ``beta``), the fail-soft value in ``v``; else 0, the window narrowed to them."""
    if settled(lo, hi, alpha[0], beta[0]):
        v[0] = hi if hi <= alpha[0] else lo
        return 1
    if lo > alpha[0]:
        alpha[0] = lo
    if hi < beta[0]:
        beta[0] = hi
    return 0


cdef int two_tricks_tt(ctx_t* c, int alpha, int beta, int lo, int hi) noexcept nogil:
    """:func:`two_tricks` behind the table, for five seats: the entries of the same
    relative-rank key narrow ``[lo, hi]`` (the bounds every position has) as at any
    boundary.  What the table does not settle is solved exactly, in the window of those
    bounds rather than the caller's, and stored so (no best card: the two tricks' search
    does not order its cards): the bisection's later probes and the other tricks that
    reach the position again find its value, where a null-window bound settled only
    three lookups in four.  A full window cuts off fewer of the (at most 2^5) lines, so
    each solve costs more (``perf``: the last two tricks' search 6% -> 11% of the
    samples), but the hits save more than that.  Session 31, ``benches/bench_ab.py``
    against the caller's window, same values: Sheepshead jd (100 deals) nodes 11,322 -> 10,566, time -1.5% to -4.6% over
    four runs (300 deals of seed 7: 473 -> 466 us); to the payout 140 -> 135 us (200
    deals), called ace with random seats 485 -> 469 us, alone 392 -> 366 us, leaster
    3.08 -> 3.02 ms.  Tried and dropped: the exact solve only where the table has an
    entry that does not settle the position (nodes -0.2%, no faster); the table with
    exact values for four seats (Clover nodes -7.4% but time +3.4%, Goathead 4p +6%), or
    a memo of exact values keyed by the four hands themselves (Clover -5.8% nodes, +4%
    time: most of its two-trick positions come only once); exact values at three tricks
    left too, where the main table's entry of the same cards does not settle the
    boundary (Sheepshead nodes 10,566 -> 10,925; from four tricks left 15,502)."""
    cdef int v, hint = -1, a0, b0
    cdef uint64_t key[MAX_KEY]
    cdef uint64_t meta, h
    cdef uint64_t* same = NULL
    meta = make_key(c, key, &h)
    tt_lookup(c, c.tt2, c.tt2_mask, TWO_WAYS, key, meta, h, c.s.live, &lo, &hi, &hint, &same)
    if table_settles(lo, hi, &alpha, &beta, &v):
        return v
    a0 = lo - 1
    b0 = hi + 1
    if OBJ(c) == OBJECTIVE_NIL:
        v = two_tricks(c, a0, b0)
    else:
        c.nodes += 1                # the node two_tricks counts
        v = two_tricks_exact(c)
    store_outcome(c, c.tt2, c.tt2_mask, TWO_WAYS, key, meta, h, v, a0, b0, -1, 2, same)
    return v


cdef inline int overtakes(const layout_t* L, int led, int b, int wbit) noexcept nogil:
    """Does card ``b`` take over a trick of the ``led`` suit won so far by card ``wbit``
    (:func:`beaten` for one card, written so that the last two tricks' loops keep their
    code: through ``beaten`` Sheepshead +0.7% instructions)?"""
    return ((L.trump_mask | L.suit_mask[led]) >> b) & 1 and b > wbit


cdef inline int take_value(int maximise, int v, int* best, int* alpha, int* beta) noexcept nogil:
    """One card's value ``v`` into its node's fail-soft ``best`` and window (alpha, beta),
    for the mover who maximises or minimises; 1 when the window closes (a cut-off).  The
    last two tricks' searches (:func:`two_tricks3`, :func:`two_lead4` and its levels,
    :func:`first_of_two`) share it; inlined, the locals stay in registers.

    Without branches (two conditional moves; the window closes only when ``v`` moved
    it, since it was open before): whether a card beats the best so far is a coin toss
    the CPU mispredicts, and Goathead 3p's time goes to such branches as much as to
    instructions.  Against the nested tests (session 12, ``benches/bench_ab.py``,
    fastest / 10th percentile / median): Goathead 3p 25.2 / 25.8 / 27.2 -> 24.5 / 25.2
    / 26.5 us (400 calls; another run -3.1% / -1.8% / -1.4%), Sheepshead jd 535 / 555 /
    595 -> 527 / 540 / 574 us, Clover within 2%, though instructions rose 0.3% to 0.8%
    (callgrind's branch model: Goathead 3p 959k -> 939k mispredicted).  The same for
    :func:`settled` (bitwise ors), :func:`rule_moves` (a conditional move), the trick's
    winner in :func:`two_second3` and :func:`closing_cards`, :func:`note_failed` and
    :func:`last_of_two` saved nothing more in wall time (the model: another -7%)."""
    if maximise:
        best[0] = v if v > best[0] else best[0]
        alpha[0] = v if v > alpha[0] else alpha[0]
    else:
        best[0] = v if v < best[0] else best[0]
        beta[0] = v if v < beta[0] else beta[0]
    return alpha[0] >= beta[0]


cdef inline int closing_value(ctx_t* c, int wseat, int tpts, uint64_t gone, int live_pts) noexcept nogil:
    """The side's value of the first of the last two tricks, closed with ``tpts`` points and
    the cards ``gone`` on the table and won by ``wseat``, plus the forced last trick
    (:func:`last_of_two`; Nil stops at the declarer's trick).  ``live_pts``: the hands'
    points at the boundary before that trick."""
    cdef int tv = 0
    if in_side(c, wseat):
        tv = tpts if OBJ(c) == OBJECTIVE_POINTS else 1
    if OBJ(c) == OBJECTIVE_NIL and tv:
        return tv
    return tv + last_of_two(c, wseat, gone, live_pts - tpts)


cdef int two_tricks(ctx_t* c, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta value at a trick boundary with two tricks left: every legal
    card of the first trick (at most 2^5 lines), the last trick forced.  Cheaper than the
    table, its bounds and the move ordering of :func:`ab`, and the state is not touched:
    the trick so far travels in the arguments of :func:`first_of_two`.  Callgrind, exact
    solves: 14% (Goathead 3p) and 27% (4p) fewer instructions than playing the first
    trick through :func:`apply_card`, which was 14% and 18% fewer than :func:`ab`."""
    c.nodes += 1
    if NSEATS(c) == 3:
        return two_tricks3(c, c.s.k.leader, c.s.k.pos_rem + c.s.k.neg_rem, c.s.k.played,
                           alpha, beta)
    if NSEATS(c) == 4:
        return two_lead4(c, alpha, beta)
    return first_of_two(c, 0, c.s.k.leader, -1, -1, c.s.k.leader, 0, 0, alpha, beta)


cdef int two_tricks_exact(ctx_t* c) noexcept nogil:
    """The exact value at a trick boundary with two tricks left (not Nil, whose play
    stops at the declarer's first trick): every line of the first trick, without
    branching on cut-offs, the last trick forced.  :func:`two_tricks_tt`'s solve (five
    seats); the state is not touched.

    Per lead, the followers' legal cards depend on the led suit alone (``legal_moves``:
    the suit, the suits led in earlier tricks and the trick's number, never the other
    cards of the trick), so the followers with two legal cards are found once and their
    choices enumerated as the bits of ``combo`` in Gray-code order: each line flips one
    follower's card, the first trick's cards and points following by one xor and one
    add.  Each line's first winner comes off a bit mask (the highest card of the led suit
    or trump) and its value from :func:`closing_value` (the last trick forced), then the
    minimax over the followers with a choice halves the array of values from the last of
    them back to the first.

    Why: five seats solve the positions their table does not settle in the window of
    their bounds, where alpha-beta (:func:`first_of_two`) cuts off few lines and
    mispredicts the cut-offs it makes.  Session 31, ``benches/bench_ab.py``'s median
    ratio of paired calls to the full-window alpha-beta (95% interval; same nodes,
    values, side tricks and last-trick winners): Sheepshead jd (100 deals) x0.974
    (0.971-0.979), x0.984 to x0.990 in three more processes, 300 deals of seed 7 x0.960
    (0.950-0.972), to the payout x0.959, called ace with random seats x0.969, alone
    x0.962 and x0.981, leaster x0.961.  In place of the null-window search of four seats'
    last two tricks (exact values: nodes Clover hearts 39,856 -> 38,265, Goathead 4p
    148 -> 147): Clover x0.992 to x1.001 over six processes (two others read x0.945,
    which no later run repeated), Goathead 4p x0.991 and x1.016 (intervals 0.96-1.07);
    Goathead 3p x0.995 (0.983-1.042): left to their searches."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int n = NSEATS(c), leader = s.k.leader, i, j, k, seat, c0, led, pts, combo, a, b
    cdef int half, idx
    cdef int live_pts = s.k.pos_rem + s.k.neg_rem     # the hands' points
    cdef uint64_t played = s.k.played
    cdef int max0 = (c.maxmask >> leader) & 1
    cdef int best = -INF if max0 else INF
    cdef uint64_t m0, mv, el, cards
    cdef uint64_t flip[8]       # per follower with a choice: its two legal cards ...
    cdef int dpts[8]            # ... the points its next flip adds ...
    cdef int fmax[8]            # ... and whether it maximises
    cdef int vals[128]          # a value per line (2^k lines, k followers with a choice)
    m0 = rule_moves(c, s.hands[leader], -1, played)
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - 1
        led = L.suit_of_bit[c0]
        el = L.trump_mask | L.suit_mask[led]
        # the first line: every follower with a choice plays its lower card
        cards = bit(c0)
        pts = L.points[c0]
        k = 0
        seat = leader
        for i in range(1, n):
            seat = seat + 1 if seat + 1 < n else 0
            mv = rule_moves(c, s.hands[seat], led, played | bit(c0))
            a = lowest_bit(mv)
            cards |= bit(a)
            pts += L.points[a]
            if mv & (mv - 1):
                b = highest_bit(mv)
                flip[k] = mv
                dpts[k] = L.points[b] - L.points[a]
                fmax[k] = (c.maxmask >> seat) & 1
                k += 1
        combo = 0
        for i in range(1 << k):
            if i:
                j = lowest_bit(<uint64_t>i)
                cards ^= flip[j]
                pts += dpts[j]
                dpts[j] = -dpts[j]      # the next flip of this follower takes it back
                combo ^= 1 << j
            # the first trick's winner: the highest card of the led suit or trump
            vals[combo] = closing_value(c, c.owner[highest_bit(cards & el)], pts, cards, live_pts)
        # the minimax over the followers with a choice, the last of them first
        j = k - 1
        while j >= 0:
            half = 1 << j
            if fmax[j]:
                for idx in range(half):
                    a = vals[idx]
                    b = vals[idx | half]
                    vals[idx] = a if a > b else b
            else:
                for idx in range(half):
                    a = vals[idx]
                    b = vals[idx | half]
                    vals[idx] = a if a < b else b
            j -= 1
        if max0:
            best = vals[0] if vals[0] > best else best
        else:
            best = vals[0] if vals[0] < best else best
    return best


cdef int two_tricks3(ctx_t* c, int s0, int live_pts, uint64_t played, int alpha,
                     int beta) noexcept nogil:
    """:func:`first_of_two` for three seats, its three levels written out as nested loops
    (the same cards in the same order, the same cut-offs and fail-soft values): gcc
    inlined the recursion for up to five seats and set up every level in advance
    (callgrind, Goathead 3p payout: 5.2M -> 4.4M instructions in two_tricks).  Four
    seats take a function per level (:func:`two_lead4`), five the recursion.  The
    leader ``s0``, the hands' points ``live_pts`` and the cards ``played`` come in the
    arguments: :func:`close_three` calls it on a trick it has not played into the
    state (only the hands are)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int s1 = s0 + 1 if s0 + 1 < 3 else 0
    cdef int s2 = s1 + 1 if s1 + 1 < 3 else 0
    cdef int max0 = (c.maxmask >> s0) & 1, max1 = (c.maxmask >> s1) & 1, max2 = (c.maxmask >> s2) & 1
    cdef int best0 = -INF if max0 else INF
    cdef int v, c0, led, t1
    cdef uint64_t m0, m1, m2_all, g1, el
    m0 = rule_moves(c, s.hands[s0], -1, played)
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - 1
        led = L.suit_of_bit[c0]
        el = L.trump_mask | L.suit_mask[led]
        g1 = bit(c0)
        t1 = L.points[c0]
        m1 = rule_moves(c, s.hands[s1], led, played | g1)
        # the third seat's legal cards depend on the led suit, not on the second card
        # (played cards matter only at a lead): once per lead
        m2_all = rule_moves(c, s.hands[s2], led, played | g1)
        if max1:
            v = two_second3(c, m1, m2_all, el, c0, s0, s1, s2, t1, g1, live_pts, alpha, beta,
                            max2, 1)
        else:
            v = two_second3(c, m1, m2_all, el, c0, s0, s1, s2, t1, g1, live_pts, alpha, beta,
                            max2, 0)
        if take_value(max0, v, &best0, &alpha, &beta):
            break
    return best0


cdef inline int two_second3(ctx_t* c, uint64_t moves, uint64_t m2, uint64_t el, int c0, int s0,
                            int s1, int s2, int tpts, uint64_t gone, int live_pts, int alpha,
                            int beta, int max2, int maximise) noexcept nogil:
    """The second card of :func:`two_tricks3`'s trick (``moves``: its legal cards, ``m2``
    the third seat's), a copy for each mover (``maximise`` a constant), like
    :func:`closing_cards`."""
    cdef const layout_t* L = c.L
    cdef int best = -INF if maximise else INF
    cdef int b, v, wbit, wseat
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        if (el >> b) & 1 and b > c0:
            wbit = b
            wseat = s1
        else:
            wbit = c0
            wseat = s0
        if max2:
            v = closing_cards(c, m2, el, wbit, wseat, s2, tpts + L.points[b], gone | bit(b),
                           live_pts, alpha, beta, 1)
        else:
            v = closing_cards(c, m2, el, wbit, wseat, s2, tpts + L.points[b], gone | bit(b),
                           live_pts, alpha, beta, 0)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int closing_cards(ctx_t* c, uint64_t moves, uint64_t el, int wbit, int wseat,
                              int seat, int tpts, uint64_t gone, int live_pts, int alpha,
                              int beta, int maximise) noexcept nogil:
    """The last card of the first of the last two tricks (``moves``: its legal cards,
    ``el``: the led suit and trump): each closes the trick and leaves the last one forced
    (:func:`closing_value`).  The third card of :func:`two_tricks3`'s trick and the
    fourth of :func:`two_lead4`'s (:func:`two_last`); a copy for each mover
    (``maximise`` a constant): with the choice a variable gcc kept the level's locals on
    the stack."""
    cdef const layout_t* L = c.L
    cdef int best = -INF if maximise else INF
    cdef int b, v, nwseat
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        if (el >> b) & 1 and b > wbit:
            nwseat = seat
        else:
            nwseat = wseat
        v = closing_value(c, nwseat, tpts + L.points[b], gone | bit(b), live_pts)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef int two_lead4(ctx_t* c, int alpha, int beta) noexcept nogil:
    """:func:`first_of_two` for four seats with every level of the first trick a function
    of its own (the lead, :func:`two_mid2`, :func:`two_mid1`, :func:`two_last`), inlined
    into one another: the same cards in the same order, the same cut-offs and fail-soft
    values (callgrind, Clover: -1.1% instructions).  Five seats keep the recursion (this
    way, Sheepshead +0.7%); three take nested loops (:func:`two_tricks3`, 0.4% fewer than
    this way)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int seat = s.k.leader
    cdef int nseat = seat + 1 if seat + 1 < 4 else 0
    cdef int maximise = (c.maxmask >> seat) & 1
    cdef int best = -INF if maximise else INF
    cdef int b, v, led
    cdef uint64_t moves = rule_moves(c, s.hands[seat], -1, s.k.played)
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        led = L.suit_of_bit[b]
        v = two_mid2(c, nseat, led, b, seat, L.points[b], bit(b), alpha, beta)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int two_mid2(ctx_t* c, int seat, int led, int wbit, int wseat, int tpts,
                         uint64_t gone, int alpha, int beta) noexcept nogil:
    """A card of the first trick after the lead with two more to come (see :func:`two_mid1`)."""
    cdef const layout_t* L = c.L
    cdef int maximise = (c.maxmask >> seat) & 1
    cdef int best = -INF if maximise else INF
    cdef int b, v, nwbit, nwseat, nseat = seat + 1 if seat + 1 < NSEATS(c) else 0
    cdef int lseat = nseat + 1 if nseat + 1 < NSEATS(c) else 0
    cdef uint64_t moves = rule_moves(c, c.s.hands[seat], led, c.s.k.played | gone)
    # the next two seats' legal cards depend on the led suit only: once per lead
    cdef uint64_t next_moves = rule_moves(c, c.s.hands[nseat], led, c.s.k.played | gone)
    cdef uint64_t last_moves = rule_moves(c, c.s.hands[lseat], led, c.s.k.played | gone)
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        if overtakes(L, led, b, wbit):
            nwbit = b
            nwseat = seat
        else:
            nwbit = wbit
            nwseat = wseat
        v = two_mid1(c, nseat, led, nwbit, nwseat, tpts + L.points[b], gone | bit(b), alpha, beta,
                     next_moves, last_moves)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int two_mid1(ctx_t* c, int seat, int led, int wbit, int wseat, int tpts,
                         uint64_t gone, int alpha, int beta, uint64_t moves,
                         uint64_t last_moves) noexcept nogil:
    """:func:`first_of_two` for a card of the first trick after the lead with one more to
    come: ``seat`` to play to the ``led`` suit, winning card ``wbit`` of ``wseat``,
    ``tpts`` points and the cards ``gone`` on the table; ``moves`` and ``last_moves``:
    the legal cards of ``seat`` and of the last seat."""
    cdef const layout_t* L = c.L
    cdef int maximise = (c.maxmask >> seat) & 1
    cdef int best = -INF if maximise else INF
    cdef int b, v, nwbit, nwseat, nseat = seat + 1 if seat + 1 < NSEATS(c) else 0
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        if overtakes(L, led, b, wbit):
            nwbit = b
            nwseat = seat
        else:
            nwbit = wbit
            nwseat = wseat
        v = two_last(c, nseat, led, nwbit, nwseat, tpts + L.points[b], gone | bit(b), alpha, beta,
                     last_moves)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int two_last(ctx_t* c, int seat, int led, int wbit, int wseat, int tpts,
                         uint64_t gone, int alpha, int beta, uint64_t moves) noexcept nogil:
    """:func:`first_of_two` for the last card of the first trick (``moves``: its legal
    cards): :func:`closing_cards`, with the hands' points at the boundary."""
    cdef uint64_t el = c.L.trump_mask | c.L.suit_mask[led]
    cdef int live_pts = c.s.k.pos_rem + c.s.k.neg_rem
    if (c.maxmask >> seat) & 1:
        return closing_cards(c, moves, el, wbit, wseat, seat, tpts, gone, live_pts, alpha, beta, 1)
    return closing_cards(c, moves, el, wbit, wseat, seat, tpts, gone, live_pts, alpha, beta, 0)


cdef int last_of_two(ctx_t* c, int leader, uint64_t gone, int rest_pts) noexcept nogil:
    """Side's value of the forced last trick, led by ``leader``: every seat holds one card
    of its hand minus ``gone`` (the cards of the trick before it), ``rest_pts`` points in
    all (the live points less the first trick's: no loop over the cards)."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef uint64_t rest = s.live & ~gone
    cdef int led = L.suit_of_bit[lowest_bit(s.hands[leader] & ~gone)]
    cdef int top = highest_bit(rest & (L.trump_mask | L.suit_mask[led]))
    cdef int w = c.owner[top]          # cards never change hands during a search
    if not in_side(c, w):
        return 0
    if OBJ(c) == OBJECTIVE_POINTS:
        return rest_pts + c.bonus
    return 1


cdef int first_of_two(ctx_t* c, int pos, int seat, int led, int wbit, int wseat, int tpts,
                      uint64_t gone, int alpha, int beta) noexcept nogil:
    """:func:`two_tricks` from the ``pos``-th card of the first trick, ``seat`` to play:
    ``led`` suit, winning card ``wbit`` of ``wseat``, ``tpts`` points and the cards
    ``gone`` on the table."""
    cdef state_t* s = &c.s
    cdef const layout_t* L = c.L
    cdef int maximise = (c.maxmask >> seat) & 1
    cdef int best = -INF if maximise else INF
    cdef int b, v, nled, nwbit, nwseat
    cdef int live_pts = s.k.pos_rem + s.k.neg_rem     # at the boundary: the hands' points
    cdef uint64_t moves = rule_moves(c, s.hands[seat], led, s.k.played | gone)
    while moves:
        b = lowest_bit(moves)
        moves &= moves - 1
        if pos == 0:
            nled = L.suit_of_bit[b]
            nwbit = b
            nwseat = seat
        else:
            nled = led
            if overtakes(L, led, b, wbit):
                nwbit = b
                nwseat = seat
            else:
                nwbit = wbit
                nwseat = wseat
        if pos == NSEATS(c) - 1:
            v = closing_value(c, nwseat, tpts + L.points[b], gone | bit(b), live_pts)
        else:
            v = first_of_two(c, pos + 1, seat + 1 if seat + 1 < NSEATS(c) else 0, nled, nwbit, nwseat,
                             tpts + L.points[b], gone | bit(b), alpha, beta)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
    return best


cdef inline int settled(int lo, int hi, int alpha, int beta) noexcept nogil:
    """Do the bounds [lo, hi] of a position decide a search in the window (alpha, beta)?
    Its fail-soft value is then ``hi`` if ``hi <= alpha``, else ``lo``."""
    return hi <= alpha or lo >= beta or lo == hi


cdef int twin_bound(ctx_t* c, int y, uint64_t kin, const int* vals, int turn,
                    int maximise) noexcept nogil:
    """The tightest bound on the value of card ``y`` of the seat to move (``turn``) that
    the values ``vals`` of its searched kin ``kin`` give: for a maximiser the least
    ``vals[x] + d``, for a minimiser the greatest ``vals[x] - d`` (``d``: the points of x
    and y apart), over the kin x with no card of another seat, live or on the table,
    between x and y; +-INF when there is none.

    Twins: two cards of one seat, of one suit and rule flags (``kin_of``: the first lead
    and the must-play card have none), with no other seat's card between them, are the
    same card to every trick and every rule but for their points.  Swapping them in every
    continuation keeps each trick's winner, and moves ``d`` points between the two tricks
    they fall to: the values after the one and after the other differ by at most d (by
    nothing for the trick objectives).  Checked against the brute force of the tests on
    1,597 such pairs of every point game, 2-4 tricks from the end: no pair apart by more,
    287 by exactly d.  ``vals[x]`` bounds x's value from above at a maximiser's node (x
    failed low), from below at a minimiser's (x failed high)."""
    cdef const layout_t* L = c.L
    cdef uint64_t foreign = ((c.s.live & ~c.s.hands[turn]) | c.s.k.table) & L.suit_mask[L.suit_of_bit[y]]
    cdef uint64_t between
    cdef int x, d, v, out = INF if maximise else -INF
    while kin:
        x = lowest_bit(kin)
        kin &= kin - 1
        if x < y:
            between = (bit(y) - 1) & ~((bit(x) << 1) - 1)
        else:
            between = (bit(x) - 1) & ~((bit(y) << 1) - 1)
        if foreign & between:
            continue
        d = L.points[x] - L.points[y]
        if d < 0:
            d = -d
        if OBJ(c) != OBJECTIVE_POINTS:
            d = 0       # tricks (or Nil's first trick) do not see the points
        if maximise:
            v = vals[x] + d
            if v < out:
                out = v
        else:
            v = vals[x] - d
            if v > out:
                out = v
    return out


cdef uint64_t trick_twins(ctx_t* c, uint64_t moves, int turn, int maximise) noexcept nogil:
    """Inside a trick: of two twins (see :func:`twin_bound`), the one the mover would not
    choose, where the side that takes the trick is known.  The trick's winner is the same
    with either twin; if no seat still to play of the other team can beat the card then
    winning, the trick's side is known, and swapping the twins moves their point
    difference between this trick and a later one: into a trick of the declarer's side
    the dearer twin is worth at least as much to the side as the cheaper one, into an
    opponents' trick at most as much.  The maximiser keeps the twin worth more (the
    minimiser the one worth less); every dropped card is worth no more (no less) than one
    kept, so values and bounds stay.  Checked against the brute force of the tests on
    2,657 such pairs of every point game, 2-4 tricks from the end: none the other way."""
    cdef const layout_t* L = c.L
    cdef state_t* s = &c.s
    cdef uint64_t out = moves, m = moves, grp, foreign, between, opp = 0, own = 0, eligible
    cdef int b, nb, wbit = s.k.tbits[s.k.wpos], wseat = winner_seat(c), led = s.k.led
    cdef int holder, wb, side_wins, high, threats_known = 0
    # the other seats' live cards and the winning table card: twins lie on one side of it
    foreign = (s.live & ~s.hands[turn]) | bit(wbit)
    eligible = L.trump_mask | L.suit_mask[led]
    while m:
        b = lowest_bit(m)
        m &= m - 1
        grp = moves & c.kin_of[b] & ~((bit(b) << 1) - 1)
        if not grp:
            continue
        nb = lowest_bit(grp)
        between = (bit(nb) - 1) & ~((bit(b) << 1) - 1)
        if foreign & between:
            continue
        if overtakes(L, led, b, wbit):
            holder = turn
            wb = b
        else:
            holder = wseat
            wb = wbit
        if s.k.tn < NSEATS(c) - 1:
            if not threats_known:
                opp = still_to_play(c, turn, &own)
                threats_known = 1
            # the trick is the holder's team's unless a seat of the other team still to
            # play can beat that card (a card beating a partner's card beats it too)
            if beaten(opp if ((c.side >> holder) & 1) == ((c.side >> turn) & 1) else own, eligible, wb):
                continue
        side_wins = in_side(c, holder)
        if OBJ(c) != OBJECTIVE_POINTS or L.points[b] == L.points[nb]:
            out &= ~bit(b)                  # worth the same
            continue
        # keep the dearer twin where it goes to the side's trick and the mover maximises,
        # or to the opponents' and the mover minimises
        high = side_wins == maximise
        if (L.points[nb] > L.points[b]) == high:
            out &= ~bit(b)
        else:
            out &= ~bit(nb)
    return out


cdef inline int twin_settles(ctx_t* c, int b, uint64_t searched, const int* vals, int turn,
                             int maximise, int* best, int* alpha, int* beta) noexcept nogil:
    """Does the bound that card ``b``'s failed twins among ``searched`` give
    (:func:`twin_bound`) lie out of the window too?  Then ``b`` needs no search: its bound
    is taken into the node's ``best`` as its fail-soft value, and 1 returned."""
    cdef int v
    if not searched & c.kin_of[b]:
        return 0
    v = TWIN_BOUND(c, b, searched & c.kin_of[b], vals, turn, maximise)
    if (v <= alpha[0]) if maximise else (v >= beta[0]):
        take_value(maximise, v, best, alpha, beta)
        return 1
    return 0


cdef inline void note_failed(int b, int v, int maximise, int alpha, int beta, uint64_t* searched,
                             int* vals) noexcept nogil:
    """Keep card ``b``'s fail-soft value ``v`` for its twins if it failed (below the window
    of a maximiser, above a minimiser's: then a bound of its value)."""
    if (v < alpha) if maximise else (v > beta):
        searched[0] |= bit(b)
        vals[b] = v


cdef int ab(ctx_t* c, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta value of the remaining play for the declarer's side: the
    search's entry (the moves call :func:`ab_lead` and :func:`ab_mid` directly)."""
    if c.s.k.tn > 0:
        return ab_mid(c, alpha, beta)
    return ab_lead(c, alpha, beta)


cdef int lead_search(ctx_t* c, int b, int alpha, int beta, const uint64_t* key, uint64_t meta,
                     uint64_t h, int revisit) noexcept nogil:
    """``PLAY_OPEN`` of the lead ``b`` behind the leads' table (five seats, at least
    ``LEAD_MIN_TRICKS`` tricks left): the position after the lead is keyed by its
    boundary's key (``key``, ``meta``, ``h``) and the lead's relative-rank card in the
    meta word, so the table's relative-rank matches and point shifts (:func:`tt_lookup`)
    hold for it as for the boundary.  Its bounds settle the window or narrow it, and the
    search's outcome is stored as :func:`ab_lead` stores its own.

    Why: a boundary that the bisection's next probe searches again tries its leads
    again, and each lead plays its whole trick (four more cards on Sheepshead) before
    the next boundary's entry cuts it off, even where the lead was refuted or proved at
    a threshold that settles this one too.  Looked up only where the boundary's own
    entry was found (``revisit``): a boundary seen for the first time has no leads
    stored (same nodes, fewer lookups).  Sheepshead jd, bench deals: nodes -10%; see
    the module docstring for the figures and the layouts left without it."""
    cdef int nb, lo = -INF, hi = INF, hint, v
    cdef uint64_t* same = NULL
    cdef uint64_t lmeta, lh
    nb = norm_bit(c, b, c.s.live)
    lmeta = meta | (<uint64_t>(nb + 1) << 22)
    lh = h ^ (<uint64_t>(nb + 1) * <uint64_t>0xD6E8FEB86659FD93ULL)
    lh ^= lh >> 29
    if revisit:
        tt_lookup(c, c.tt3, c.tt3_mask, 1, <uint64_t*>key, lmeta, lh, c.s.live, &lo, &hi,
                  &hint, &same)
        if table_settles(lo, hi, &alpha, &beta, &v):
            return v
    v = PLAY_OPEN(c, b, alpha, beta)
    store_outcome(c, c.tt3, c.tt3_mask, 1, <uint64_t*>key, lmeta, lh, v, alpha, beta, -1,
                  c.s.k.tleft, same)
    return v


cdef inline int play_lead(ctx_t* c, int b, int alpha, int beta) noexcept nogil:
    """The search after the lead ``b`` (:func:`ab_lead`, no leads' table): a lead leaves
    its trick open, but for a lone seat (Gamut's clubs_1 in the general build), whose lead
    completes it.  Builds per shape fold the test away (``NSEATS`` a constant)."""
    if NSEATS(c) == 1:
        return play_last_card(c, b, alpha, beta)
    return PLAY_OPEN(c, b, alpha, beta)


cdef inline int lead_moves(ctx_t* c, uint64_t moves, int hint, int turn, int alpha, int beta,
                           int* best_card_out, int maximise, int tabled, const uint64_t* key,
                           uint64_t meta, uint64_t h, int revisit) noexcept nogil:
    """:func:`ab_lead`'s search of the leads ``moves`` (legal cards), the table's card
    ``hint`` (denormalised, or -1) first; a copy for each mover (``maximise`` a
    constant) and for the leads' table or none (``tabled`` a constant: then each lead
    through :func:`lead_search` with the boundary's ``key``, ``meta``, ``h`` and
    ``revisit``).  Returns the fail-soft value, the card behind it in
    ``best_card_out``."""
    cdef int n_moves, i, b, v, best, best_card = -1, cut = 0
    cdef uint64_t tried = 0      # the table's card, once searched
    cdef int order[64]
    cdef int vals[64]           # fail-soft values of cards that failed, for their twins
    cdef uint64_t searched = 0  # those cards
    best = -INF if maximise else INF
    if hint >= 0:
        hint = denorm_bit(c, hint, all_hands(c))
        if (moves >> hint) & 1 and represents(c, moves, hint):
            # the representatives of the other cards only once this one fails
            tried = bit(hint)
            if tabled:
                v = lead_search(c, hint, alpha, beta, key, meta, h, revisit)
            else:
                v = play_lead(c, hint, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    best_card = hint
                    if v > alpha:
                        alpha = v
                        cut = alpha >= beta
            elif v < best:
                best = v
                best_card = hint
                if v < beta:
                    beta = v
                    cut = alpha >= beta
            note_failed(hint, v, maximise, alpha, beta, &searched, vals)
    if not cut:
        moves = representatives(c, moves) & ~tried
    if moves and not cut:
        if moves & (moves - 1):
            n_moves = lead_keys(c, moves, turn, order)
        else:
            n_moves = 1                             # one card: nothing to weigh
            order[0] = 63 - lowest_bit(moves)       # its key (weight 0)
        for i in range(n_moves):
            b = key_card(pick_best(order, i, n_moves) if i else order[0])
            if twin_settles(c, b, searched, vals, turn, maximise, &best, &alpha, &beta):
                continue
            if tabled:
                v = lead_search(c, b, alpha, beta, key, meta, h, revisit)
            else:
                v = play_lead(c, b, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    best_card = b
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    best_card = b
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
            note_failed(b, v, maximise, alpha, beta, &searched, vals)
    best_card_out[0] = best_card
    return best


cdef int tabled_lead_moves(ctx_t* c, uint64_t moves, int hint, int turn, int alpha, int beta,
                           int* best_card_out, int maximise, const uint64_t* key, uint64_t meta,
                           uint64_t h, int revisit) noexcept nogil:
    """:func:`lead_moves` through the leads' table, out of :func:`ab_lead`'s line: the
    layouts without the table run the same ``ab_lead`` as before it."""
    if maximise:
        return lead_moves(c, moves, hint, turn, alpha, beta, best_card_out, 1, 1, key, meta, h,
                          revisit)
    return lead_moves(c, moves, hint, turn, alpha, beta, best_card_out, 0, 1, key, meta, h,
                      revisit)


cdef int ab_lead(ctx_t* c, int alpha, int beta) noexcept nogil:
    """:func:`ab` at a trick boundary: the table, its bounds and its best card.  The
    table's card (a legal representative) is searched before any other card is weighed:
    where it cuts off, :func:`move_keys` is never called.  The cards are searched by
    :func:`lead_moves`, a copy for each mover."""
    cdef state_t* s = &c.s
    cdef int lo, hi, turn, best, best_card = -1, hint = -1, tleft
    cdef int maximise, a0, b0
    cdef uint64_t key[MAX_KEY]
    cdef uint64_t meta = 0, h = 0
    cdef uint64_t moves
    cdef int use_tt, found
    cdef uint64_t* same = NULL
    c.nodes += 1
    if s.k.done:
        return 0
    tleft = tricks_left(c)
    if tleft == 1:
        return last_trick(c)
    if tleft == 2 and c.use_small:
        return two_left(c, alpha, beta)
    check_interrupt(&c.guard, c.nodes)
    # the bounds every position has first: where they settle the node (a seventh of
    # the boundaries on Goathead 3p) no key is made
    base_bounds(c, &lo, &hi, tleft)
    if settled(lo, hi, alpha, beta):
        return hi if hi <= alpha else lo
    found = 0
    use_tt = c.use_tt and tleft > TT_MIN_TRICKS
    if use_tt:
        meta = make_key(c, key, &h)
        found = tt_lookup(c, c.tt, c.tt_mask, TT_WAYS, key, meta, h, s.live, &lo, &hi, &hint, &same)
        if settled(lo, hi, alpha, beta):
            return hi if hi <= alpha else lo
    if found != 2 and tleft >= 2 and c.use_qt:
        boundary_bounds(c, &lo, &hi, tleft, alpha, beta)
        if settled(lo, hi, alpha, beta):
            return hi if hi <= alpha else lo
    if lo > alpha:
        alpha = lo
    if hi < beta:
        beta = hi
    a0 = alpha
    b0 = beta
    turn = s.k.turn
    maximise = (c.maxmask >> turn) & 1
    moves = node_moves(c, turn)
    if NSEATS(c) == 3 and tleft == c.close_at:
        if maximise:
            best = three_leads3(c, moves, hint, alpha, beta, &best_card, 1)
        else:
            best = three_leads3(c, moves, hint, alpha, beta, &best_card, 0)
    elif c.tt3 != NULL and use_tt and tleft >= LEAD_MIN_TRICKS:
        best = tabled_lead_moves(c, moves, hint, turn, alpha, beta, &best_card, maximise, key,
                                 meta, h, found)
    elif maximise:
        best = lead_moves(c, moves, hint, turn, alpha, beta, &best_card, 1, 0, NULL, 0, 0, 0)
    else:
        best = lead_moves(c, moves, hint, turn, alpha, beta, &best_card, 0, 0, NULL, 0, 0, 0)
    if use_tt:
        if (best <= a0) if maximise else (best >= b0):
            best_card = -1      # no card stood out: the entry keeps the card it had
        elif best_card >= 0:
            best_card = norm_bit(c, best_card, all_hands(c))
        store_outcome(c, c.tt, c.tt_mask, TT_WAYS, key, meta, h, best, a0, b0, best_card, tleft, same)
    return best


cdef int ab_mid(ctx_t* c, int alpha, int beta) noexcept nogil:
    """:func:`ab` inside a trick (three nodes in four on Sheepshead): no table, no best
    card, no key.  A lone card (a third of these nodes) is its node's value, played
    without the frame of :func:`ab_mid_cards` and :func:`ab_last_cards`, which search
    two or more.

    No bounds for card points (session 17): :func:`mid_trick_bounds` (the points still
    live, the trick's fate by :func:`trick_bound`) saved 1-13% of the nodes but cost more
    than that, at every node of every trick.  Callgrind of ``solve_batch`` on the benches'
    deals without them: Goathead 3p hearts 300 deals 62.30M -> 60.56M, Sheepshead jd 20
    43.07M -> 41.61M, Clover hearts 4 52.03M -> 49.89M, Goathead 4p clubs 300 -3.4%,
    Sheepshead called ace -5.1%, Goathead 3p leasters -2.0%, Clover's paranoid minimum
    -1.3%, Hearts endings -0.4%, but Gamut hearts +2.5%, Sheepshead leaster +0.5%; wall
    time Goathead 3p -4%, Sheepshead -5%, Clover -8% (interleaved runs).  Without only the
    trick's fate, or only up to four tricks left, half of that; kept for the lone seats
    that want few points, those +1.1% to +1.5% and less gain for the others.  The trick
    and Nil objectives keep them.  Then, for three seats, the dominated twins
    (:func:`trick_twins`) only at the trick's last card: nodes +4.4%, callgrind Goathead
    3p -1.5% (four seats: +6.8% nodes and slower; five: +17% nodes).  Both together,
    against session 16's search: Goathead 3p 59.75M, Sheepshead 40.95M, Clover 49.16M
    (-4.1%, -4.9%, -5.5%), Goathead 4p -2.6%, Sheepshead called ace -5.8%, Goathead 3p
    leasters -3.9%, Clover's paranoid minimum -2.0%, Hearts endings -1.0%, Sheepshead
    leaster -0.3%, Gamut hearts +1.8%; values the same (bands with ``cuts`` may move, as
    any search change moves their fail-soft ends)."""
    cdef int lo, hi
    cdef uint64_t moves
    c.nodes += 1
    if OBJ(c) != OBJECTIVE_POINTS:
        mid_trick_bounds(c, &lo, &hi, alpha, beta)
        if settled(lo, hi, alpha, beta):
            return hi if hi <= alpha else lo
    moves = node_moves(c, c.s.k.turn)
    if moves & (moves - 1):
        moves = representatives(c, moves)
        if moves & (moves - 1) and c.twins_on and (NSEATS(c) > 3 or c.s.k.tn == NSEATS(c) - 1):
            moves = trick_twins(c, moves, c.s.k.turn, (c.maxmask >> c.s.k.turn) & 1)
        if moves & (moves - 1):
            if c.s.k.tn == NSEATS(c) - 1:
                return ab_last_cards(c, moves, alpha, beta)
            return ab_mid_cards(c, moves, alpha, beta)
    if not moves:
        return -INF if (c.maxmask >> c.s.k.turn) & 1 else INF
    if c.s.k.tn == NSEATS(c) - 1:
        return play_last_card(c, lowest_bit(moves), alpha, beta)
    return PLAY_OPEN(c, lowest_bit(moves), alpha, beta)


cdef int ab_mid_cards(ctx_t* c, uint64_t moves, int alpha, int beta) noexcept nogil:
    """:func:`ab_mid`'s search of two or more cards ``moves`` (representatives) that
    leave the trick open, each made and taken back here (:func:`play_open`'s body)."""
    cdef int turn = c.s.k.turn, n_moves
    cdef int order[64]
    n_moves = follow_keys(c, moves, turn, order, 0)
    if (c.maxmask >> turn) & 1:
        return cards_loop(c, order, n_moves, turn, alpha, beta, 1, CARDS_OPEN)
    return cards_loop(c, order, n_moves, turn, alpha, beta, 0, CARDS_OPEN)


cdef enum:
    # which move cards_loop searches: a card that leaves the trick open, one that
    # closes it, one that closes it at three seats' three tricks left (close_three)
    CARDS_OPEN = 0
    CARDS_CLOSE = 1
    CARDS_CLOSE_THREE = 2


cdef inline int cards_loop(ctx_t* c, int* order, int n_moves, int turn, int alpha, int beta,
                           int maximise, int kind) noexcept nogil:
    """The loop of :func:`ab_mid_cards` and :func:`ab_last_cards` over the ordered cards
    ``order``, a copy for each mover and kind of move (``maximise`` and ``kind``
    constants): the twins' bounds, each card's search and the fail-soft value.  Cards
    that leave the trick open are made and taken back field by field
    (:func:`place_card`); cards that close it save the trick state once for the loop
    (:func:`play_last_card` written in), or, at three seats' three tricks left, go
    through :func:`close_three`, which saves nothing."""
    cdef int o_wpos = c.s.k.wpos, i, b, v
    cdef int best = -INF if maximise else INF
    cdef trick_t saved
    cdef int vals[64]           # fail-soft values of cards that failed, for their twins
    cdef uint64_t searched = 0  # those cards
    if kind == CARDS_CLOSE:
        memcpy(&saved, &c.s.k, sizeof(trick_t))
    for i in range(n_moves):
        b = key_card(pick_best(order, i, n_moves) if i else order[0])
        if twin_settles(c, b, searched, vals, turn, maximise, &best, &alpha, &beta):
            continue
        if kind == CARDS_OPEN:
            place_card(c, b, turn)
            v = ab_mid(c, alpha, beta)
            unplace_card(c, b, turn, o_wpos)
        elif kind == CARDS_CLOSE_THREE:
            v = close_three(c, b, turn, alpha, beta)
        else:
            v = after_trick(c, complete_trick(c, b), alpha, beta)
            take_back(c, &saved, turn, b)
        if take_value(maximise, v, &best, &alpha, &beta):
            break
        note_failed(b, v, maximise, alpha, beta, &searched, vals)
    return best


cdef int ab_last_cards(ctx_t* c, uint64_t moves, int alpha, int beta) noexcept nogil:
    """:func:`ab_mid`'s search of two or more cards ``moves`` (representatives) at the
    trick's last seat: :func:`play_last_card` written into the loop, the trick state
    saved once for all the cards instead of once per card."""
    cdef int turn = c.s.k.turn, n_moves
    cdef int order[64]
    n_moves = follow_keys(c, moves, turn, order, 1)
    if c.s.k.tleft == c.close_at:
        if (c.maxmask >> turn) & 1:
            return cards_loop(c, order, n_moves, turn, alpha, beta, 1, CARDS_CLOSE_THREE)
        return cards_loop(c, order, n_moves, turn, alpha, beta, 0, CARDS_CLOSE_THREE)
    if (c.maxmask >> turn) & 1:
        return cards_loop(c, order, n_moves, turn, alpha, beta, 1, CARDS_CLOSE)
    return cards_loop(c, order, n_moves, turn, alpha, beta, 0, CARDS_CLOSE)


cdef enum:
    NO_PROBE = -INF     # narrow_value: no first probe of the caller's, bisection from the start


cdef int narrow_value(ctx_t* c, int b, int lower, int upper, int first) noexcept nogil:
    """Exact value after the seat to move plays ``b`` (``b < 0``: of the position itself),
    which lies in ``[lower, upper]``.

    Null-window probes "value >= beta?" narrow the interval; fail-soft results move the
    bounds past the probe when they can.  The first probe is at ``first`` when it lies in
    ``(lower, upper]``; the others bisect the interval: log2 of the value range, which beat
    MTD(f)'s steps from the last result on point games (whose values spread over 0..150)
    in node counts."""
    cdef int g, beta
    note_bounds(&c.guard, lower, upper)
    while lower < upper:
        if lower < first <= upper:
            beta = first
            first = NO_PROBE
        else:
            beta = lower + (upper - lower + 1) // 2
        if b >= 0:
            g = play_search(c, b, beta - 1, beta)
        else:
            g = ab(c, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
        note_bounds(&c.guard, lower, upper)     # what an interrupt keeps
    return lower


cdef int card_value(ctx_t* c, int b, int has_best, int best, int maximise) noexcept nogil:
    """Exact value after the seat to move plays ``b``, one card of :func:`search_position`'s
    every card's value; ``best`` (when ``has_best``) is the best value of the cards
    searched before it.

    As :func:`exact_value`, a position of at most ``FULL_WINDOW_CARDS`` live cards (card
    points) takes one full-window search.  A larger one bisects its bounds, but its first
    probe asks whether the card reaches ``best``: most cards are worth the best or a
    little less, and a fail-soft answer below it is often the card's value, where the
    middle of the bounds starts every card from scratch (the trick kernel does the same,
    session 24).  Session 30, ``solve`` on random deals, seats and declarers (every card's
    value, the same values), against every card bisected from the middle: nodes Goathead
    3p hearts (200 deals) 1,458 -> 1,012 a deal, 4p clubs (200) 385 -> 256, Sheepshead jd
    (40) 34,787 -> 34,557, Clover hearts (6) 213,882 -> 207,803, a Hearts ending of six
    tricks for one seat's fewest points (20) 6,822 -> 6,592.  Tried and dropped: the
    position's exact value first, bounding every card (the maximiser's cards at most it,
    the first probe at it): Goathead 3p 1,289, Sheepshead 34,807, Clover 228,740, Hearts
    7,335; after a first probe that fails low, one or two probes at its fail-soft answer
    (is that the card's value?) before bisecting, or one above the lower bound after a
    first probe that fails high (nodes within -4% to +4% of bisecting, by game: Sheepshead
    jd -2% and -4%, Clover +2% to +4%, Hearts -7% to +4%, called ace -3.5% to +1%)."""
    cdef int lower, upper, g, lo, hi
    cdef state_t saved = c.s
    g = apply_card(c, b)
    value_bounds(c, &lo, &hi)
    c.s = saved
    lower = g + lo
    upper = g + hi
    if OBJ(c) == OBJECTIVE_POINTS and popcount(c.s.live) + c.s.k.tn <= FULL_WINDOW_CARDS:
        note_bounds(&c.guard, lower, upper)
        g = play_search(c, b, lower - 1, upper + 1)
        note_bounds(&c.guard, g, g)
        return g
    if not has_best:
        return narrow_value(c, b, lower, upper, NO_PROBE)
    # the maximiser's "does it reach best?", the minimiser's "does it stay <= best?"
    return narrow_value(c, b, lower, upper, best if maximise or best == upper else best + 1)


cdef int exact_value(ctx_t* c) noexcept nogil:
    """Exact value of the current position.  Card points in positions of at most
    ``FULL_WINDOW_CARDS`` live cards: one alpha-beta search over the whole value range;
    otherwise null-window bisection (:func:`narrow_value`).  Measured in instructions, the
    full window saves 8-21% up to 20 live cards (Goathead deals, the last four or five
    tricks of Sheepshead, Clover and Hearts) and costs 2-23% from 24 up, 64-91% on whole
    Sheepshead and Clover deals: bigger trees need the narrow windows' cut-offs."""
    cdef int lo, hi
    value_bounds(c, &lo, &hi)
    if OBJ(c) == OBJECTIVE_POINTS and popcount(c.s.live) + c.s.k.tn <= FULL_WINDOW_CARDS:
        note_bounds(&c.guard, lo, hi)
        lo = ab(c, lo - 1, hi + 1)
        note_bounds(&c.guard, lo, lo)
        return lo
    return narrow_value(c, -1, lo, hi, NO_PROBE)


cdef int value_band(ctx_t* c, const int16_t* cuts, int n_cuts, int* band_hi) noexcept nogil:
    """Only as much of the value as ``cuts`` ask: for every cut ``t``, whether the value is
    ``>= t``.  Returns ``lo`` and sets ``band_hi`` such that ``lo <= value <= band_hi`` and
    no cut lies in ``(lo, band_hi]``: a scorer whose result changes only at the cuts scores
    every value of the band alike.  One null-window probe per step, at the lowest cut still
    undecided, upward until one fails; fail-soft results settle the cuts they pass too.
    Far fewer nodes than the exact value when the cuts are few (a point game's make /
    schneider thresholds).

    Lowest first, not the middle cut: a low threshold is cheap to prove and the bounds it
    leaves in the table make the next probe cheaper.  Random declarers, no line: Goathead
    3p 357 -> 287 nodes (made contracts alike, 321 -> 322), 4p 115 -> 113, Sheepshead jd
    -1%, called ace -9% (800 deals; 60 deals with a few hard ones had +85%)."""
    cdef int lower, upper, g, i, t
    value_bounds(c, &lower, &upper)
    note_bounds(&c.guard, lower, upper)
    while True:
        t = INF
        for i in range(n_cuts):         # cuts are sorted: the first one open
            if lower < cuts[i] <= upper:
                t = cuts[i]
                break
        if t == INF:
            break
        g = ab(c, t - 1, t)
        if g >= t:
            lower = g
        else:
            upper = g
        note_bounds(&c.guard, lower, upper)
    band_hi[0] = upper
    return lower


cdef int follow_line(ctx_t* c, int lo, int hi, int8_t* line, int* side_tricks, int* side_melds,
                     int* opp_melds) noexcept nogil:
    """Play one line from the current state to the end, recording the cards; returns the
    number of cards played.  The value of the current state must lie in ``[lo, hi]``; each
    step keeps a card whose child provably does too (a null-window probe per card tried):
    the maximiser a child worth ``>= lo``, the minimiser one worth ``<= hi``.  With
    ``lo == hi`` (the exact value) the line is optimal; with a band it ends inside the band.

    The cards are tried in the static move order alone (no table hint), so
    the line, and the side tricks, last-trick winner and trick melds read off it, depend
    only on the position and its value: not on the deals solved before in the same call
    nor on how the search got there (a table-ordered line moved Clover's double-dummy
    meld payouts by 1% with a search change).  Costs 1-2% more nodes per solve.  The last
    card of the order is taken without a probe once the others failed (the value lies in
    ``[lo, hi]``, so it must): Goathead 3p exact -0.6% nodes, 4p -2.6%."""
    cdef state_t* s = &c.s
    cdef int n_line = 0, turn, maximise, n_moves, i, b, chosen, tv, v, meld
    cdef int order[64]
    cdef uint64_t moves
    while not s.k.done and (all_hands(c) or s.k.tn):
        turn = s.k.turn
        maximise = (c.maxmask >> turn) & 1
        moves = legal_moves(c.L, s.hands[turn], s.k.led, s.k.trick_index, s.k.played, s.k.suits_led)
        n_moves = order_moves(c, representatives(c, moves), turn, -1, order)
        chosen = order[n_moves - 1]     # the last card needs no probe: the others failed
        for i in range(n_moves - 1):
            b = order[i]
            if maximise:
                if play_search(c, b, lo - 1, lo) >= lo:
                    chosen = b
                    break
            else:
                if play_search(c, b, hi, hi + 1) <= hi:
                    chosen = b
                    break
        line[n_line] = <int8_t>chosen
        n_line += 1
        tv = apply_card(c, chosen)
        lo -= tv
        hi -= tv
        if s.k.tn == 0:
            if in_side(c, s.k.last_winner):
                side_tricks[0] += 1
            if c.L.has_trick_melds:
                meld = trick_meld_value(c.L, s.k.last_trick)
                if in_side(c, s.k.last_winner):
                    side_melds[0] += meld
                else:
                    opp_melds[0] += meld
    return n_line


# --------------------------------------------------------------------------------------
# set-up shared by the Python entry points

cdef void init_ctx(ctx_t* c, const layout_t* L, const int8_t* cls, uint64_t* tt, uint64_t n_buckets,
                   uint64_t two_buckets, uint64_t lead_buckets, int side, int goal_max) noexcept nogil:
    c.L = L
    c.n = L.n_seats
    c.nc = L.n_cards
    c.K = (L.n_seats * L.n_cards + 63) // 64
    c.stride = c.K + ENTRY_EXTRA
    c.objective = L.objective
    c.bonus = L.last_trick_bonus
    c.bonus_neg = c.bonus if c.bonus < 0 else 0
    c.bonus_pos = c.bonus if c.bonus > 0 else 0
    c.all_seats = (1 << L.n_seats) - 1
    c.cls = cls
    c.tt = tt
    c.tt_mask = n_buckets - 1
    # the two-trick table follows the main one in the same block, and the leads' table
    # follows that (table_buckets: 0 buckets where the layout has none)
    c.tt2 = tt + n_buckets * TT_WAYS * STRIDE(c)
    c.tt2_mask = two_buckets - 1
    c.tt3 = NULL
    c.tt3_mask = lead_buckets - 1
    if USE_TT and USE_LEAD_TT and lead_buckets:
        c.tt3 = c.tt2 + two_buckets * TWO_WAYS * STRIDE(c)
    c.gen = 1
    c.nodes = 0
    tc_guard_init(&c.guard)
    c.use_tt = USE_TT
    c.use_qt = USE_QT
    # measured on every game (at most five seats: 2^5 lines a trick); more seats untried
    c.use_small = USE_SMALL and L.n_seats <= 5
    c.two_tt = USE_TT and USE_TWO_TT and two_buckets > 0
    c.bmi2 = FAST_BMI2 and USE_BMI2
    c.plain_rules = (L.first_lead_bit < 0 and not L.lead_restricted and L.must_play_bit < 0
                     and not L.first_trick_forbidden)
    c.close_at = 3 if (c.use_small and L.n_seats == 3 and L.objective != OBJECTIVE_NIL
                       and c.plain_rules) else 0
    cdef int su, b, b2, uniform, i
    cdef uint64_t fm
    c.squeeze = 0
    c.twins = 0
    for b in range(L.n_cards):
        c.twins_of[b] = 0
        for b2 in range(L.n_cards):
            if b2 != b and L.suit_of_bit[b2] == L.suit_of_bit[b] and cls[b2] == cls[b]:
                c.twins |= bit(b)
                c.twins_of[b] |= bit(b2)
    # kin: the same effective suit and rule flags, points free (twin_bound); the first
    # lead and the must-play card are set apart by their identity, so they have none
    cdef uint64_t lone = 0
    c.twins_on = USE_TWINS
    if L.first_lead_bit >= 0:
        lone |= bit(L.first_lead_bit)
    if L.must_play_bit >= 0:
        lone |= bit(L.must_play_bit)
    for b in range(L.n_cards):
        c.kin_of[b] = 0
        if (lone >> b) & 1 or not USE_TWINS:
            continue
        for b2 in range(L.n_cards):
            if (b2 != b and L.suit_of_bit[b2] == L.suit_of_bit[b] and not (lone >> b2) & 1
                    and ((L.lead_restricted >> b) & 1) == ((L.lead_restricted >> b2) & 1)
                    and ((L.breakers >> b) & 1) == ((L.breakers >> b2) & 1)
                    and ((L.first_trick_forbidden >> b) & 1) == ((L.first_trick_forbidden >> b2) & 1)):
                c.kin_of[b] |= bit(b2)
    for su in range(TC_NSUITS(L)):
        c.suit_top[su] = highest_bit(L.suit_mask[su])
        uniform = 1
        for b in range(c.suit_top[su] + 1):
            if (L.suit_mask[su] >> b) & 1 and cls[b] != cls[c.suit_top[su]]:
                uniform = 0
        if uniform:
            c.squeeze |= L.suit_mask[su]
    # Quasi-symmetry (point objective): every suit is keyed by relative rank, and a stored
    # bound of other cards holds shifted by the point differences (see point_shift).
    # Rule flags shared by a whole suit (Hearts' restricted lead) keep the trees alike;
    # a flag on some cards of a suit only (Q♠ breaking hearts, the called ace) must sit
    # at the same relative rank in both positions (special_match).  Clover's trick melds
    # are not part of the value (they are collected along the optimal line followed at
    # the end), so they do not stand in the way.
    # the deck's cards grouped by point value, cheapest first (cheapest_points)
    cdef int j, k
    c.n_values = 0
    for b in range(L.n_cards):
        j = 0
        while j < c.n_values and c.value_of[j] < L.points[b]:
            j += 1
        if j == c.n_values or c.value_of[j] != L.points[b]:
            for k in range(c.n_values, j, -1):    # insert a new value at j
                c.value_of[k] = c.value_of[k - 1]
                c.value_cards[k] = c.value_cards[k - 1]
            c.value_of[j] = L.points[b]
            c.value_cards[j] = 0
            c.n_values += 1
        c.value_cards[j] |= bit(b)
    c.special = 0
    cdef uint64_t flags[3]
    flags[0] = L.lead_restricted
    flags[1] = L.breakers
    flags[2] = L.first_trick_forbidden
    for su in range(TC_NSUITS(L)):
        for i in range(3):
            fm = flags[i] & L.suit_mask[su]
            if fm and fm != L.suit_mask[su]:
                c.special |= fm
    if L.first_lead_bit >= 0:
        c.special |= bit(L.first_lead_bit)
    if L.must_play_bit >= 0:
        c.special |= bit(L.must_play_bit)
    if OBJ(c) == OBJECTIVE_POINTS and QUASI:
        c.squeeze = L.deck_mask
    for su in range(TC_NSUITS(L)):
        c.keyshape.sqm[su] = L.suit_mask[su] & c.squeeze
        c.keyshape.top[su] = c.suit_top[su]
        c.keyshape.runs[su][0] = 0
        for k in range(1, popcount(c.keyshape.sqm[su]) + 1):
            c.keyshape.runs[su][k] = c.keyshape.sqm[su] & ~((bit(c.suit_top[su] + 1 - k)) - 1)
    c.keyshape.keep = ~c.squeeze
    c.keyshape.n = NSEATS(c)
    c.keyshape.n_suits = L.n_suits
    c.keyshape.nc = NCARDS(c)
    c.keyshape.K = KWORDS(c)
    set_side(c, side, goal_max)


cdef inline void set_side(ctx_t* c, int side, int goal_max) noexcept nogil:
    c.side = side
    c.maxmask = side if goal_max else (c.all_seats & ~side)
    c.lone_min = (OBJ(c) == OBJECTIVE_POINTS and not goal_max and popcount(<uint64_t>side) == 1
                  and c.L.must_play_bit < 0)


cdef void init_state(ctx_t* c, const uint64_t* hands, int leader, uint64_t played,
                     int suits_led, int trick_index) noexcept nogil:
    cdef state_t* s = &c.s
    cdef int i
    cdef uint64_t live = 0
    cdef uint64_t m
    memset(s, 0, sizeof(state_t))
    c.side_cards = 0
    for i in range(NSEATS(c)):
        if (c.side >> i) & 1:
            c.side_cards |= hands[i]
        m = hands[i]
        while m:
            c.owner[lowest_bit(m)] = <int8_t>i
            m &= m - 1
        s.hands[i] = hands[i]
        live |= hands[i]
        s.hpos[i] = card_points(c.L, hands[i]) - _neg_points(c.L, hands[i])
    s.k.leader = leader
    s.k.turn = leader
    s.k.led = -1
    s.k.played = played
    s.k.suits_led = suits_led
    s.k.trick_index = trick_index
    s.k.last_winner = -1
    s.live = live
    s.k.tleft = popcount(live) // NSEATS(c)
    s.k.neg_rem = _neg_points(c.L, live)
    s.k.pos_rem = card_points(c.L, live) - s.k.neg_rem


cdef uint64_t buckets_for(int stride, double tt_mb, int live_cards):
    """Power-of-two bucket count within ``tt_mb`` (and no larger than the game needs).

    Two ways of twice as many buckets as the four ways the table had until session 11
    (the same entries and memory): a lookup reads 2 entries instead of 4, in one or two
    cache lines, at the cost of fewer entries of one key side by side for the
    quasi-symmetric matches (nodes +0.3% to +2.9%, instructions -0.8% to +0.1%).
    ``benches/bench_ab.py`` against four ways: Goathead 3p 25.5 -> 24.9 us per deal,
    Sheepshead jd 608 -> 577 us, Clover hearts 2.71 -> 2.65 ms (one way of four times
    the buckets: more nodes, no faster).  Up to 32 live cards, 2^16 entries: four times
    as many saved at most 0.3% of the instructions (Clover 20 deals, Sheepshead 100) and
    cost more in wall time (Sheepshead 606 -> 592 us per deal, Clover 2.82 -> 2.77 ms
    with the smaller table).

    Session 12: up to 32 live cards, 2^14 entries instead of 2^16 (Sheepshead 786 KB,
    beside the two-trick and leads' tables of 196 KB each; Clover 655 KB), meant to keep
    the tables in a "1 MB" L2 cache.  (Session 14: the core's L2 is 512 KB, a Zen 3's;
    lscpu's "1 MiB (2 instances)" is both cores'.  So the tables do not fit in L2; the
    gain below presumably came from a footprint a quarter as large in L3 and the TLB.
    Tables that do fit, measured then: Sheepshead's three in 491 KB +6.8% nodes and no
    faster, Clover's main table at 2^13 entries +2-4% nodes, -0.7% to -3.7% in wall
    time; not kept.)  Nodes Sheepshead jd (bench deals, leads' table on) +0.3%, Clover
    +1.5%; ``benches/bench_ab.py``, fastest / 10th percentile /
    median against 2^16 entries: jd 559 / 572 / 639 -> 536 / 550 / 614 us (200 calls),
    Clover (40 deals, no leads' table) 2.20 / 2.27 / 2.55 -> 2.08 / 2.13 / 2.39 ms, called
    ace with random seats (100 deals) 623 / 626 / 670 -> 602 / 608 / 659 us, jd with random
    seats within 1%; a table-hungry set (called ace, 30 deals, seat 1 leading and
    declaring: 22,316 nodes a deal) lost 4-8%.  2^15 entries lay between; 2^13 saved as
    much wall time on Sheepshead and Clover with 1.4% and 4% more nodes, and lost 12% on
    that set; four ways of the same 2^14 entries, fewer nodes there (22,807 -> 22,238)
    but the same time (1,084 -> 1,087 us; jd 538 -> 535 us).  Up to 20 live cards
    (Goathead; 512-640 KB) the table was left as it was: half of it ran no faster
    (Goathead 3p 25.3 -> 25.5 us, clubs 26.7 -> 27.4).

    Session 25: above 40 live cards (whole Hearts deals) the table takes what ``tt_mb``
    allows, up to 2^26 buckets, instead of at most 2^21 (the default, 256 MB, still gives
    2^21).  Eight whole Hearts deals of
    ``bench_hearts_deals.py``, seat 0's fewest points: at 1024 MB the heaviest deal took
    186 M nodes and 15.9 s against 276 M and 24.6 s, two more 20% fewer nodes in the same
    time, the rest alike (43.1 -> 34.4 s for the eight)."""
    cdef uint64_t budget = <uint64_t>(tt_mb * 1048576.0 / (8.0 * stride * TT_WAYS))
    cdef uint64_t cap
    if live_cards <= 20:
        cap = 1 << 13
    elif live_cards <= 32:
        cap = 1 << 13
    elif live_cards <= 40:
        cap = 1 << 19
    else:
        cap = 1 << 26           # whole deals: what tt_mb allows (2^21 buckets at the default)
    if budget > cap:
        budget = cap
    cdef uint64_t n = 1
    while n * 2 <= budget:
        n *= 2
    return n


cdef inline int two_tricks_tabled(const layout_t* L) noexcept nogil:
    """Whether :func:`two_tricks` goes through a table of its own (:func:`two_tricks_tt`):
    five seats, whose 2^5 lines cost more than a key and a lookup.  Four seats (2^4
    lines) lose more to the key than the table saves."""
    return L.n_seats == 5


cdef inline int leads_tabled(const layout_t* L) noexcept nogil:
    """Whether the leads of a boundary are searched behind a table of their own
    (:func:`lead_search`): five seats, whose tricks are long to search again.  Four
    seats (Clover) saved nodes and lost wall time, Goathead 3p lost instructions."""
    return L.n_seats == 5


cdef uint64_t power_of_two_within(uint64_t most, double words):
    """The largest power of two at most ``most`` and at most ``words`` (1 at the least)."""
    cdef uint64_t n = 1
    while n * 2 <= most and n * 2 <= words:
        n *= 2
    return n


cdef inline int entry_stride(const layout_t* L) noexcept nogil:
    """Words of a table entry of layout ``L``: its key words and ``ENTRY_EXTRA``."""
    return (L.n_seats * L.n_cards + 63) // 64 + ENTRY_EXTRA


cdef uint64_t block_words(const layout_t* L, uint64_t main, uint64_t two, uint64_t leads):
    """Words of the block holding tables of ``main``, ``two`` and ``leads`` buckets."""
    return (main * TT_WAYS + two * TWO_WAYS + leads) * entry_stride(L)


def table_buckets(CoreLayout core, double tt_mb, int live_cards):
    """``(main, two, leads)``: the buckets of the main table, of the two-trick positions'
    table (:func:`two_tricks_tt`) and of the leads' table (:func:`lead_search`; 0 for a
    table the layout has none of), all three within ``tt_mb`` megabytes together (one
    bucket each at the least).  A side table takes at most a quarter of ``tt_mb`` (its
    full ``TWO_BUCKETS`` / ``LEAD_BUCKETS`` entries from 0.77 MB up, Sheepshead's 196 KB
    each), the main table what is left, up to :func:`buckets_for`'s cap: until session 14
    the side tables came on top of ``tt_mb``, so a call given 1 MB took 1.125 MB.
    They follow the main table in one block of ``table_words`` words."""
    cdef int stride = entry_stride(&core.c)
    cdef double quarter = tt_mb * 1048576.0 / 4 / (8.0 * stride)
    cdef uint64_t two = power_of_two_within(TWO_BUCKETS, quarter / TWO_WAYS) if two_tricks_tabled(&core.c) else 0
    cdef uint64_t leads = power_of_two_within(LEAD_BUCKETS, quarter) if leads_tabled(&core.c) else 0
    cdef double rest = tt_mb - (two * TWO_WAYS + leads) * stride * 8.0 / 1048576.0
    if rest < 0:
        rest = 0        # buckets_for then gives its one bucket
    return int(buckets_for(stride, rest, live_cards)), int(two), int(leads)


def table_words(CoreLayout core, double tt_mb, int live_cards):
    """Words of the block holding the three tables of :func:`table_buckets`."""
    main, two, leads = table_buckets(core, tt_mb, live_cards)
    return int(block_words(&core.c, main, two, leads))


# --------------------------------------------------------------------------------------
# Python entry points (inputs already validated and translated to layout bits)

# The entry points' searches run guarded (trickcore._interrupt): Ctrl-C stops them.

cdef int search_position(void* arg) noexcept nogil:
    """:func:`solve_position`'s search, guarded: the value (or every card's) and a line."""
    cdef position_job_t* j = <position_job_t*>arg
    cdef ctx_t* c = <ctx_t*>j.ctx
    cdef state_t* s = &c.s
    cdef int i, turn = s.k.turn, maximise = (c.maxmask >> s.k.turn) & 1
    cdef int dummy_t = 0, dummy_a = 0, dummy_b = 0
    j.maximise = maximise
    value_bounds(c, &j.root_lo, &j.root_hi)
    if j.card_values:
        j.n_moves = order_moves(c, representatives(c, legal_moves(
            c.L, s.hands[turn], s.k.led, s.k.trick_index, s.k.played, s.k.suits_led)), turn, -1, j.order)
        for i in range(j.n_moves):
            j.values[i] = card_value(c, j.order[i], i > 0, j.value, maximise)
            j.n_done = i + 1
            if i == 0 or (j.values[i] > j.value if maximise else j.values[i] < j.value):
                j.value = j.values[i]
    else:
        j.value = exact_value(c)
    j.value_known = 1
    j.n_line = follow_line(c, j.value, j.value, j.line, &dummy_t, &dummy_a, &dummy_b)
    return 0


def solve_position(CoreLayout core, const int8_t[::1] cls, uint64_t[::1] hands, int leader,
                   const int8_t[::1] trick, uint64_t played, int suits_led, int trick_index,
                   int side, bint goal_max, double tt_mb, bint card_values, double time_budget=0,
                   int64_t node_budget=0):
    """Solve one position.  ``hands`` are the remaining hands (layout bits), ``trick`` the
    table cards in play order (layout bits) led by ``leader``, ``played`` the cards of
    earlier tricks.  Returns ``(value, {bit: value}, [bits of the line], nodes)``.  A
    signal handler's exception (Ctrl-C), or ``TimeoutError`` once ``time_budget`` seconds
    or ``node_budget`` nodes are spent (0: no budget), stops the search and is raised,
    carrying what the search had proved (``solve_progress``, see
    ``trickcore._interrupt.position_progress``)."""
    check_shape(core)
    cdef ctx_t c
    cdef position_job_t job
    cdef const layout_t* L = &core.c
    cdef int n = L.n_seats, i
    cdef uint64_t live = 0
    for i in range(n):
        live |= hands[i]
    live_cards = popcount(live) + trick.shape[0]
    main, two, leads = table_buckets(core, tt_mb, live_cards)
    cdef uint64_t n_buckets = main, two_buckets = two, lead_buckets = leads
    tt_arr = np.zeros(block_words(L, n_buckets, two_buckets, lead_buckets), dtype=np.uint64)
    cdef uint64_t[::1] tt = tt_arr
    cdef uint64_t start[8]
    for i in range(n):
        start[i] = hands[i]
    for i in range(trick.shape[0]):
        start[(leader + i) % n] |= bit(trick[i])
    with nogil:
        init_ctx(&c, L, &cls[0], &tt[0], n_buckets, two_buckets, lead_buckets, side, goal_max)
        # the table cards are put back in their hands and replayed, so that the state
        # (trick, led suit, live points) is exactly what the search builds itself
        init_state(&c, start, leader, played, suits_led, trick_index)
        for i in range(trick.shape[0]):
            apply_card(&c, trick[i])
    # (a trick is never complete here: the Python layer checks len(trick) < n_seats)
    if c.s.k.done or (all_hands(&c) == 0):
        return 0, {}, [], 0
    init_position_job(&job, &c, card_values)
    run_position(&job, &c.guard, search_position, time_budget, node_budget)
    return position_result(&job, c.nodes)


cdef inline void start_deal(ctx_t* c, const batch_job_t* j, Py_ssize_t d) noexcept nogil:
    """The state of deal ``d`` of a batch: the start of a trick, or a position whose
    table cards are replayed from their holders' hands, as :func:`solve_position` does."""
    cdef int n = NSEATS(c), i
    if j.played == NULL:
        init_state(c, &j.hands[d * n], j.leaders[d], 0, 0, c.L.hand_size - popcount(j.hands[d * n]))
        return
    init_state(c, &j.hands[d * n], j.leaders[d], j.played[d], j.suits_led[d], j.trick_index[d])
    for i in range(j.trick_len):
        apply_card(c, j.trick[d * j.trick_len + i])


cdef int search_deals(void* arg) noexcept nogil:
    """:func:`solve_batch`'s loop over the deals, guarded; ``done`` counts the deals
    whose outputs are written."""
    cdef batch_job_t* j = <batch_job_t*>arg
    cdef ctx_t* c = <ctx_t*>j.ctx
    cdef const layout_t* L = c.L
    cdef Py_ssize_t d
    cdef int n = NSEATS(c), v, hi, st, sm, om, lw
    cdef int8_t line_cards[64]
    for d in range(j.n_deals):
        set_side(c, j.sides[d], j.goal_max)
        c.gen = 1 + (d & 0x7FFF)
        tc_guard_next_deal(&c.guard, c.nodes)    # (the deal before's nodes: Ctrl-C, budget)
        c.nodes = 0
        start_deal(c, j, d)
        if c.s.k.done or not (all_hands(c) or c.s.k.tn):
            v = hi = 0              # (nothing left to play)
        elif j.cuts != NULL:
            v = value_band(c, &j.cuts[d * j.n_cuts], j.n_cuts, &hi)
            j.value_hi[d] = <int16_t>hi
        else:
            v = exact_value(c)
            hi = v
        st = 0
        sm = 0
        om = 0
        if j.line:
            follow_line(c, v, hi, line_cards, &st, &sm, &om)
            lw = c.s.k.last_winner
        else:
            st = sm = om = lw = -1
        j.value[d] = <int16_t>v
        j.side_tricks[d] = <int8_t>st
        j.last_winner[d] = <int8_t>lw
        j.side_melds[d] = <int16_t>sm
        j.opp_melds[d] = <int16_t>om
        j.nodes[d] = c.nodes
        j.done = d + 1
    return 0


def solve_batch(CoreLayout core, const int8_t[::1] cls, const uint64_t[:, ::1] hands,
                const int8_t[::1] leaders, const uint8_t[::1] sides, bint goal_max,
                double tt_mb, int16_t[::1] value, int8_t[::1] side_tricks,
                int8_t[::1] last_winner, int16_t[::1] side_melds, int16_t[::1] opp_melds,
                int64_t[::1] nodes, const int16_t[:, ::1] cuts=None, int16_t[::1] value_hi=None,
                bint line=True, int64_t[::1] solved=None, double time_budget=0,
                int64_t node_budget=0, const int8_t[:, ::1] trick=None,
                const uint64_t[::1] played=None, const int32_t[::1] suits_led=None,
                const int16_t[::1] trick_index=None):
    """Solve ``hands.shape[0]`` deals from the start of a trick (layout bits, validated);
    fills the output arrays.  Runs without the GIL.  With ``trick``, ``played``,
    ``suits_led`` and ``trick_index`` (all four, one row per deal), each deal is a
    position: its hands still hold the table cards ``trick[d]``, which are replayed
    (``trickcore._interrupt.set_batch_positions``).

    With ``cuts`` (``cuts[d]`` sorted, at most ``MAX_CUTS``) only the cuts are settled:
    ``value[d] <= value <= value_hi[d]`` with no cut in ``(value, value_hi]``
    (:func:`value_band`), and the other outputs follow a line that stays in that band
    (:func:`follow_line`).  ``line=False`` skips the line (a sixth of a band's nodes on
    Goathead deals): ``side_tricks``, ``last_winner`` and the melds are then -1.

    A signal handler's exception (Ctrl-C), or ``TimeoutError`` once ``time_budget``
    seconds or ``node_budget`` nodes (over all the deals) are spent (0: no budget), stops
    the search and is raised, carrying the deal in progress and its value's bounds so far
    (``solve_progress``, see ``trickcore._interrupt.run_batch``); ``solved[0]`` (when
    given) is then the number of deals whose outputs were written, the first ones."""
    check_shape(core)
    cdef ctx_t c
    cdef batch_job_t job
    cdef const layout_t* L = &core.c
    cdef Py_ssize_t n_deals = hands.shape[0], d
    cdef int n = L.n_seats
    cdef int max_live = 0, i
    cdef int banded = cuts is not None
    cdef int n_cuts = cuts.shape[1] if banded else 0
    if banded and (n_cuts == 0 or n_cuts > MAX_CUTS or cuts.shape[0] != n_deals
                   or value_hi is None or value_hi.shape[0] != n_deals):
        raise ValueError(f"cuts need 1..{MAX_CUTS} values for each deal and a value_hi per deal")
    if solved is not None and solved.shape[0] < 1:
        raise ValueError("solved must hold one count")
    cdef uint64_t live
    for d in range(n_deals):
        live = 0
        for i in range(n):
            live |= hands[d, i]
        if popcount(live) > max_live:
            max_live = popcount(live)
    main, two, leads = table_buckets(core, tt_mb, max_live)
    cdef uint64_t n_buckets = main, two_buckets = two, lead_buckets = leads
    tt_arr = np.zeros(block_words(L, n_buckets, two_buckets, lead_buckets), dtype=np.uint64)
    cdef uint64_t[::1] tt = tt_arr
    if n_deals == 0:
        if solved is not None:
            solved[0] = 0
        return
    init_batch_job(&job, &c, hands, leaders, sides, goal_max, line, value, side_tricks, last_winner,
                   side_melds, opp_melds, nodes)
    if banded:
        job.cuts = &cuts[0, 0]
        job.n_cuts = n_cuts
        job.value_hi = &value_hi[0]
    set_batch_positions(&job, trick, played, suits_led, trick_index)
    with nogil:
        init_ctx(&c, L, &cls[0], &tt[0], n_buckets, two_buckets, lead_buckets, sides[0], goal_max)
    try:
        run_batch(&job, &c.guard, search_deals, time_budget, node_budget)
    finally:
        if solved is not None:
            solved[0] = job.done
