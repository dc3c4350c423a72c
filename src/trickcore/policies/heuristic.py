"""Per-game "usual strategy" heuristics: a few readable rules of thumb per decision.

Card play (every game):

* Objective ``max`` (take points or tricks): when following, if a known partner already
  wins the trick, throw the card worth most points; else win as cheaply as possible
  (the lowest winning card); if nothing wins, throw the least valuable card.  When
  leading, the declaring side leads its highest trump; others lead the highest card of
  their longest plain suit.
* Objective ``min`` (Hearts, Gamut Hearts, leasters, a Nil declarer, a Spades nil
  bidder, an Oh Hell player who already has the bid): play the highest card that does not
  win the trick, else the highest card; lead the lowest card.
* Partners are used only when the seat may know them (fixed partnerships, the three-
  player Goathead defenders, its own partner card).

Bidding and exchanges use simple hand counts (trumps, aces, high cards) per game; see the
``_bid_*`` methods; Sheepshead's cracks and re-cracks by :func:`sheepshead_cracks` and
:func:`sheepshead_recracks`.  Hearts passes give the three most dangerous cards (:func:`danger_key`),
but keep Q♠ guarded by at least :data:`QUEEN_GUARD` lower spades.  Every answer is taken
from ``obs.legal``, so the heuristic never needs to know a rule the round engine already
enforces.

>>> from trickcore.policies import HeuristicPolicy, RandomPolicy
>>> from trickcore.rounds import play_round
>>> rec = play_round("goathead3", [HeuristicPolicy()] * 3, seed=2)
>>> rec.contract in ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..games import get_game
from ..layout import Layout
from ..rounds.state import Observation
from .base import BasePolicy

__all__ = ["HeuristicPolicy", "bury_key", "danger_key", "shortlist", "queen_guarded", "QUEEN_GUARD",
           "sheepshead_cracks", "sheepshead_recracks"]

#: Lower spades that let a Hearts pass keep Q♠: with them the queen can be played under a
#: higher spade or kept back until the others' spades are gone.  Measured with the round
#: engine (seat 0 keeping a guarded queen, the others HeuristicPolicy as before, the same
#: deals, passes left, right and across by turns): 2,500 rounds of new deals, -0.33 penalty
#: points a round for the seat (95% interval +-0.11; 5.6% of the rounds changed); keeping
#: A♠ and K♠ too behind three lower spades, -0.25 +-0.15; a guard of four, -0.19 +-0.11
#: (1,500 rounds).
QUEEN_GUARD = 3

_SUIT_OF = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

#: Goathead: the hand strength (``_goathead_eval``) a seat needs to bid or steal, by the
#: number of seats.  :mod:`analysis.passing` reads the same rule, vectorised.
GOATHEAD_BID_STRENGTH = {3: 3.5, 4: 2.5}

#: Sheepshead: a hand picks with at least this many trumps, this many of them queens or
#: jacks (also :func:`analysis.passing.heuristic_picks`).
SHEEPSHEAD_PICK_TRUMPS = 3
SHEEPSHEAD_PICK_HIGH = 2


def sheepshead_cracks(trumps: Any, queens: Any, partner: Any) -> Any:
    """Whether a Sheepshead seat after the picker cracks: the picker's partner (it holds the
    partner card) always, a defender with at least five trumps or four with two queens.
    Counts of the seat's hand at the start of play; scalars or numpy arrays (elementwise,
    as :mod:`analysis.stakes` models a table of these players).

    Chosen with the round engine, every crack answer of HeuristicPolicy's table flipped in
    turn on 6,000 deals (the seat's payout with the other answer, everything else as
    before): a defender cracking gained -1.33 a round with three trumps, -0.08 with four
    and one queen, +0.55 with four and two, +1.24 with five; the partner +1.75 with one
    trump to +6.83 with five (the picking side wins most rounds; the old rule, four trumps
    for anybody, left the partner's gain).  Checked on 6,000 new deals, one seat playing
    these rules and :func:`sheepshead_recracks` among the old ones: +0.30 +-0.05 a round
    for it (95%); with ``partner="called_ace"`` (5,000 deals) +0.26 +-0.06.

    >>> sheepshead_cracks(4, 1, False), sheepshead_cracks(4, 2, False), sheepshead_cracks(1, 0, True)
    (False, True, True)
    """
    t = np.asarray(trumps)
    out = np.asarray(partner, dtype=bool) | (t >= 5) | ((t >= 4) & (np.asarray(queens) >= 2))
    return bool(out) if out.ndim == 0 else out


def sheepshead_recracks(trumps: Any, high: Any, alone: Any) -> Any:
    """Whether the Sheepshead picker or its partner re-cracks a crack: with at least four
    trumps; a picker playing alone (``alone``: nobody else holds the partner card) with six,
    or five of them queens and jacks (``high``) four.  Counts of the seat's hand at the
    start of play (the picker's after its burial); scalars or numpy arrays.

    Measured as :func:`sheepshead_cracks`: re-cracking with a partner gained -0.60 a round
    for the picker with three trumps, +1.39 with four, +4.46 with five; the partner +0.02,
    +2.45, +4.51; the picker alone lost 9.28 with four trumps and 0.59 with five (-5.40 with
    three queens and jacks, +4.59 with four) and gained 11.11 with six (the old rule:
    five trumps for either).

    >>> sheepshead_recracks(4, 2, False), sheepshead_recracks(5, 3, True), sheepshead_recracks(5, 4, True)
    (True, False, True)
    """
    t = np.asarray(trumps)
    out = np.where(np.asarray(alone, dtype=bool), (t >= 6) | ((t >= 5) & (np.asarray(high) >= 4)), t >= 4)
    return bool(out) if out.ndim == 0 else out


@lru_cache(maxsize=256)
def _layout(game: str, contract: str, rules: tuple) -> Layout:
    return get_game(game).layout(contract, **dict(rules))


def _rules_key(obs: Observation) -> tuple:
    return tuple(sorted(obs.rules.items()))


def _trumps(lay: Layout, hand: CardSet) -> list[Card]:
    if not lay.trump:
        return []
    t = set(lay.suits[-1])
    return [c for c in hand if c in t]


def _strength(lay: Layout, hand: CardSet) -> float:
    """A rough trick-taking count: trumps weigh by rank, plain aces and tens count."""
    score = 0.0
    top = set(lay.suits[-1][-4:]) if lay.trump else set()
    for c in _trumps(lay, hand):
        score += 1.5 if c in top else 1.0
    trump = set(lay.suits[-1]) if lay.trump else set()
    for s in lay.suits[:-1] if lay.trump else lay.suits:
        held = [c for c in s if c in hand and c not in trump]
        if held and held[-1] == s[-1]:
            score += 1.0
    return score


def bury_key(lay: Layout) -> Callable[[Card], tuple]:
    """Sort key of the cards a declarer would rather bury first: non-trumps before trumps,
    then the most points, then the lowest card (what :meth:`HeuristicPolicy.exchange`
    buries)."""
    trump = set(lay.suits[-1]) if lay.trump else set()
    pts = lay.point_table()

    def key(c: Card) -> tuple:
        return (c in trump, -int(pts[c]), lay.rank_order(c))

    return key


def queen_guarded(lay: Layout, hand: CardSet) -> bool:
    """Whether a Hearts hand keeps Q♠ when it passes: it holds Q♠, Q♠ carries points under
    the layout's rules, and at least :data:`QUEEN_GUARD` lower spades guard it."""
    qs = Card.parse("QS")
    if qs not in hand or int(lay.point_table()[qs]) <= 0:
        return False
    return sum(1 for c in hand.suit("S") if lay.rank_order(c) < lay.rank_order(qs)) >= QUEEN_GUARD


def danger_key(lay: Layout) -> Callable[[Card], tuple]:
    """Sort key of how dangerous a card is to keep in a points-avoiding game (high: pass
    it first): point cards that are queens or higher, then the rank inside its suit, then
    the points (what :meth:`HeuristicPolicy.pass_cards` passes in Hearts-like games, but
    for a guarded Q♠: :func:`queen_guarded`)."""
    pts = lay.point_table()

    def danger(c: Card) -> tuple:
        within = lay.suits[lay.effective_suit(c)].index(c)  # rank inside its suit
        return (int(pts[c]) > 0 and c.rank_name in ("Q", "K", "A"), within, int(pts[c]))

    return danger


def shortlist(ranked: Sequence[Any], count: int, k: int,
              check: Callable[[tuple], str | None] | None = None) -> list[tuple]:
    """The ``k`` most plausible ``count``-card answers when ``ranked`` lists the cards in
    order of preference: combinations ordered by the sum of their cards' positions (then
    lexicographically), keeping those ``check`` accepts.

    >>> shortlist("abcde", 2, 4)
    [('a', 'b'), ('a', 'c'), ('a', 'd'), ('b', 'c')]
    >>> shortlist("abc", 2, 5, check=lambda p: "no a" if "a" in p else None)
    [('b', 'c')]
    """
    idx = sorted(combinations(range(len(ranked)), count), key=lambda ix: (sum(ix), ix))
    out = []
    for ix in idx:
        pick = tuple(ranked[i] for i in ix)
        if check is None or not check(pick):
            out.append(pick)
            if len(out) >= k:
                break
    return out


class HeuristicPolicy(BasePolicy):
    """Rule-of-thumb decisions for every game (see the module docstring)."""

    # -- generic ------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Any:
        return obs.legal[0]

    def _layout_for(self, obs: Observation, contract: str) -> Layout:
        rules = dict(obs.rules)
        if obs.game == "ohhell" and obs.layout is not None:
            rules["hand_size"] = obs.layout.hand_size
        return _layout(obs.game, contract, tuple(sorted(rules.items())))

    # -- bidding ------------------------------------------------------------------------
    def bid(self, obs: Observation) -> Any:
        legal = obs.legal
        phase = obs.phase
        if phase in ("blitz", "red_blitz"):
            return legal[-1]
        if phase in ("crack", "recrack"):
            return legal[-1] if self._stakes(obs) else legal[0]
        if obs.game in ("goathead3", "goathead4"):
            return self._bid_goathead(obs)
        if obs.game == "clover":
            return self._bid_clover(obs)
        if phase == "choose_game":
            return self._choose_gamut(obs)
        if phase == "bid":  # trick-count bids: Spades, Gamut Spades, Oh Hell
            return self._bid_tricks(obs)
        return legal[0]

    def _stakes(self, obs: Observation) -> bool:
        """Sheepshead's crack or re-crack (``obs.phase``): :func:`sheepshead_cracks`,
        :func:`sheepshead_recracks`."""
        trumps = _trumps(obs.layout, obs.hand)
        queens = sum(1 for c in trumps if c.rank_name == "Q")
        holds_partner_card = bool(obs.partner_cards & obs.hand)
        if obs.phase == "crack":
            return sheepshead_cracks(len(trumps), queens, holds_partner_card and obs.seat != obs.declarer)
        high = queens + sum(1 for c in trumps if c.rank_name == "J")
        # the picker is alone when no other seat holds the partner card: none was called,
        # or the picker holds it or buried it
        alone = obs.seat == obs.declarer and not (obs.partner_cards - obs.hand - obs.kitty_known)
        return sheepshead_recracks(len(trumps), high, alone)

    def _goathead_eval(self, obs: Observation, contract: str) -> float:
        lay = self._layout_for(obs, contract)
        if contract == "nil":
            # few high cards: count cards that are unlikely to win a trick
            low = sum(1 for c in obs.hand if lay.rank_order(c) % 5 <= 1)
            return low * 1.0 - 1.0
        return _strength(lay, obs.hand)

    def _bid_goathead(self, obs: Observation) -> Any:
        legal = [x for x in obs.legal if x not in ("pass", "steal")]
        need = GOATHEAD_BID_STRENGTH[obs.n_seats]
        if obs.phase == "raise":
            best = max(legal, key=lambda c: (self._goathead_eval(obs, c), -legal.index(c)))
            cur = legal[0]
            return best if self._goathead_eval(obs, best) > self._goathead_eval(obs, cur) + 1 else cur
        if "steal" in obs.legal:
            cur = [b for _, p, b in obs.bids if p == "bid" and b not in ("pass", "steal")][-1]
            if self._goathead_eval(obs, cur) >= need:
                return "steal"
        if not legal:
            return "pass"
        best = max(legal, key=lambda c: self._goathead_eval(obs, c))
        return best if self._goathead_eval(obs, best) >= need else "pass"

    def _bid_clover(self, obs: Observation) -> Any:
        def good(suit: str) -> float:
            lay = self._layout_for(obs, suit)
            t = _trumps(lay, obs.hand)
            top = sum(1 for c in t if c.rank_name in ("J", "9"))
            return len(t) + top

        if obs.phase == "accept":
            suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[obs.turned.suit_letter]
            return "play" if good(suit) >= 5 else "pass"
        suits = [x for x in obs.legal if x in _SUIT_OF]
        if suits:
            best = max(suits, key=good)
            if good(best) >= 5:
                return best
        if "notrump" in obs.legal and sum(1 for c in obs.hand if c.rank_name == "A") >= 3:
            return "notrump"
        # the dealer's partner of last resort: somebody has to play eventually
        if obs.phase == "name" and obs.seat == obs.dealer and suits:
            return max(suits, key=good)
        return "pass"

    def _choose_gamut(self, obs: Observation) -> Any:
        clubs = self._layout_for(obs, "clubs")
        n_clubs = len(_trumps(clubs, obs.hand))
        high = sum(1 for c in obs.hand if c.rank_name in ("A", "K"))
        if n_clubs >= 4:
            return "clubs"
        if high <= 1:
            return "hearts"
        return "spades" if high >= 3 else "pass"

    def _bid_tricks(self, obs: Observation) -> Any:
        lay = obs.layout
        est = 0.0
        trump = set(lay.suits[-1]) if lay.trump else set()
        long_trump = len(_trumps(lay, obs.hand)) >= 4
        for c in obs.hand:
            if c in trump:
                est += {"A": 1.0, "K": 0.9, "Q": 0.6}.get(c.rank_name, 0.5 if long_trump else 0.1)
            elif c.rank_name == "A":
                est += 0.8
            elif c.rank_name == "K":
                est += 0.3
        want = int(round(est))
        return min(obs.legal, key=lambda b: (abs(b - want), b))

    # -- kitty, calls, folds ------------------------------------------------------------
    def pick_or_pass(self, obs: Observation) -> Any:
        if obs.game == "sheepshead":
            lay = self._layout_for(obs, "jd")
            t = _trumps(lay, obs.hand)
            high = sum(1 for c in t if c.rank_name in ("Q", "J"))
            return True if len(t) >= SHEEPSHEAD_PICK_TRUMPS and high >= SHEEPSHEAD_PICK_HIGH else False
        return True  # Goathead: the kitty's points count anyway, so look at it

    def call(self, obs: Observation) -> Any:
        return obs.legal[0]

    def fold(self, obs: Observation) -> Any:
        if False not in obs.legal:
            return obs.legal[0]
        folded = sum(1 for _, p, v in obs.bids if p == "fold" and v)
        if folded == obs.n_seats - 1:  # the others folded (``last_may_fold``): every trick is ours
            return False
        lay = self._layout_for(obs, "clubs")
        strong = len(_trumps(lay, obs.hand)) + sum(1 for c in obs.hand if c.rank_name == "A")
        return True if strong <= 1 and True in obs.legal else False

    def exchange(self, obs: Observation) -> Any:
        lay = obs.layout
        if obs.count > 1:  # bury: the most points among non-trumps, keeping the rules
            if lay is None:
                bids = [b for _, p, b in obs.bids if p == "bid" and b not in ("pass", "steal")]
                lay = self._layout_for(obs, "jd" if obs.game == "sheepshead" else bids[-1])
            ranked = sorted(obs.legal, key=bury_key(lay))
            for pick in combinations(ranked, obs.count):
                if obs.check is None or not obs.check(pick):
                    return pick
            return tuple(ranked[: obs.count])  # pragma: no cover
        # Goathead 4p swap: take the strongest kitty card if it beats our weakest card
        swaps = [x for x in obs.legal if x is not None]
        if not swaps:
            return None
        give, take = min(swaps, key=lambda gt: lay.rank_order(gt[0]) - lay.rank_order(gt[1]))
        return (give, take) if lay.rank_order(take) > lay.rank_order(give) + 2 else None

    def pass_cards(self, obs: Observation) -> Any:
        lay = obs.layout
        pts = lay.point_table()
        if obs.phase == "to_declarer":  # Clover: the partner's best trump
            return (max(obs.legal, key=lambda c: (c in set(lay.suits[-1]) if lay.trump else False, lay.rank_order(c))),)
        if obs.phase == "to_partner":
            return (min(obs.legal, key=lambda c: (int(pts[c]), lay.rank_order(c))),)
        # Hearts-like passes: the dangerous cards (points, then high cards), but a guarded Q♠ stays
        keep = {Card.parse("QS")} if queen_guarded(lay, CardSet(obs.legal)) else set()
        ranked = sorted((c for c in obs.legal if c not in keep), key=danger_key(lay), reverse=True)
        return tuple(ranked[: obs.count])

    # -- card play ----------------------------------------------------------------------
    def _wants_min(self, obs: Observation) -> bool:
        lay = obs.layout
        if obs.game == "ohhell":
            bid = [b for s, p, b in obs.bids if s == obs.seat and p == "bid"][0]
            taken = sum(1 for t in obs.tricks if t.winner == obs.seat)
            return taken >= bid
        if obs.game in ("spades", "gamut") and lay.objective == "tricks":
            bids = [b for s, p, b in obs.bids if s == obs.seat and p == "bid"]
            return bool(bids) and bids[0] == 0
        if lay.objective == "nil":
            return obs.seat == obs.declarer
        if obs.declarer is None or lay.contract in ("leasters", "leaster"):
            return lay.goal == "min"
        return False

    def _friend(self, obs: Observation, seat: int) -> bool:
        if seat == obs.seat:
            return True
        if obs.game in ("spades", "clover") or (obs.game == "gamut" and obs.layout.contract == "spades"):
            return (seat - obs.seat) % 4 == 2
        if obs.game == "goathead3" and obs.declarer is not None and obs.layout.objective == "points":
            return obs.seat != obs.declarer and seat != obs.declarer
        return False

    def play(self, obs: Observation) -> Any:
        lay = obs.layout
        legal = list(obs.legal)
        if len(legal) == 1:
            return legal[0]
        pts = lay.point_table()
        trick = [c for _, c in obs.trick]
        rank = lay.rank_order

        def wins(c: Card) -> bool:
            return lay.trick_winner(trick + [c]) == len(trick)

        if self._wants_min(obs):
            if not trick:
                return min(legal, key=rank)
            safe = [c for c in legal if not wins(c)]
            return max(safe or legal, key=lambda c: (int(pts[c]) if not safe else 0, rank(c)))
        if not trick:
            trump = [c for c in legal if lay.trump and c in set(lay.suits[-1])]
            if trump and obs.declarer is not None and self._friend(obs, obs.declarer):
                return max(trump, key=rank)
            plain = [c for c in legal if c not in trump] or legal
            by_suit: dict[int, list[Card]] = {}
            for c in plain:
                by_suit.setdefault(lay.effective_suit(c), []).append(c)
            longest = max(by_suit.values(), key=len)
            return max(longest, key=rank)
        win_pos = lay.trick_winner(trick)
        if self._friend(obs, obs.trick[win_pos][0]):
            return max(legal, key=lambda c: (int(pts[c]), -rank(c)))
        winners = [c for c in legal if wins(c)]
        if winners:
            return min(winners, key=rank)
        return min(legal, key=lambda c: (int(pts[c]), rank(c)))
