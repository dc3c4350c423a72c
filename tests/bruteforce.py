"""An independent, deliberately naive double-dummy reference for the solver tests.

Nothing here uses the solver, the compiled core or layout bits.  The rules of each contract
are written out again from the rule texts (``RULINGS.md`` first) as plain Python tables:
which cards are trump and in what order, the order of the fail suits, card points, the
last-trick bonus, lead restrictions, the sides.  A position is then searched by full minimax
over *every* legal card (no alpha-beta, no equivalent-card pruning, no quick tricks), with a
memo on the complete state, so the only thing that can make it wrong is a wrong rule table,
and :mod:`test_solver_truth` checks those tables against the layouts separately.

Cards are universal ids (``16 * suit + rank``; suit 0 ♣ 1 ♦ 2 ♥ 3 ♠, rank 0 = 2 … 12 = A),
the public currency of ``trickcore``.

Conventions of the value (the solver's contract):

* ``objective == "points"``: card points the declarer's side takes in the remaining play,
  plus the last-trick bonus when it wins the last trick (kitty points are not included);
* ``"tricks"``: tricks the side takes in the remaining play;
* ``"nil"``: 1 if the side (the declarer) takes a trick before the play ends, else 0 —
  play stops at the declarer's first trick;
* ``goal == "max"``: the side maximises the value and every other seat minimises it;
  ``"min"`` the other way round (paranoid: the analysed seat alone against all).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional, Sequence

# --------------------------------------------------------------------------- cards
SUIT_LETTERS = "CDHS"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_OF = {n: i for i, n in enumerate(RANK_NAMES)}
_RANK_OF["T"] = 8
C, D, H, S = 0, 1, 2, 3


def card(text: str) -> int:
    """``card("10H") == card("TH") == 16 * 2 + 8``."""
    text = text.strip().upper()
    return 16 * SUIT_LETTERS.index(text[-1]) + _RANK_OF[text[:-1]]


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def name(c: int) -> str:
    r = RANK_NAMES[c & 15]
    return ("T" if r == "10" else r) + SUIT_LETTERS[c >> 4]


def names(cs: Iterable[int]) -> str:
    return " ".join(name(c) for c in cs)


def mask(cs: Iterable[int]) -> int:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


def unmask(m: int) -> list[int]:
    return [i for i in range(64) if m >> i & 1]


def make_deck(ranks: str) -> list[int]:
    return [16 * s + _RANK_OF[r] for s in range(4) for r in ranks.split()]


DECK20 = make_deck("A 10 K Q J")
DECK32 = make_deck("A K Q J 10 9 8 7")
DECK52 = make_deck(" ".join(RANK_NAMES))


def order(ranks_high_first: str, suit: int) -> list[int]:
    """The cards of one printed suit in the given rank order (high first), returned low→high."""
    return [16 * suit + _RANK_OF[r] for r in reversed(ranks_high_first.split())]


# --------------------------------------------------------------------------- sides
def side_alone(hands: Sequence[frozenset], declarer: int) -> frozenset:
    return frozenset([declarer])


def side_across(hands: Sequence[frozenset], declarer: int) -> frozenset:
    return frozenset([declarer, (declarer + 2) % 4])


def side_holder(c: int) -> Callable:
    def rule(hands: Sequence[frozenset], declarer: int) -> frozenset:
        return frozenset([declarer] + [s for s, h in enumerate(hands) if c in h])

    return rule


def side_goathead4(called_suit: int) -> Callable:
    """RULINGS, Goathead 4 players: holders of J♣ and J♠ are partners; a player holding both
    (or the only black jack outside the kitty) partners the holder of the called queen, or is
    alone if they hold it too or it lies in the kitty; the declarer's side is whichever side
    the declarer is on.  Both black jacks in the kitty: the declarer alone (module doc of
    ``trickcore.games.goathead``)."""
    jc, js, q = card("JC"), card("JS"), 16 * called_suit + _RANK_OF["Q"]

    def rule(hands: Sequence[frozenset], declarer: int) -> frozenset:
        def holder(c):
            for s, h in enumerate(hands):
                if c in h:
                    return s
            return None

        hc, hs, hq = holder(jc), holder(js), holder(q)
        if hc is None and hs is None:
            return frozenset([declarer])
        if hc is not None and hs is not None and hc != hs:
            team = {hc, hs}
        else:
            lone = hc if hc is not None else hs
            team = {lone} if hq is None or hq == lone else {lone, hq}
        if declarer in team:
            return frozenset(team)
        return frozenset(set(range(len(hands))) - team)

    return rule


# --------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rules:
    """One contract, written out from the rule texts."""

    game: str
    contract: str
    n_seats: int
    hand_size: int
    deck: tuple
    trump: tuple  # trump cards low → high (empty: no trump)
    plain: dict  # printed suit → its non-trump cards low → high
    points: dict  # card → points (missing: 0)
    objective: str = "points"
    goal: str = "max"
    side_rule: Callable = side_alone
    last_trick_bonus: int = 0
    lead_restricted: frozenset = frozenset()
    breakers: frozenset = frozenset()
    unlock_trick: int = 127
    first_lead: Optional[int] = None
    first_trick_forbidden: frozenset = frozenset()
    must_play_first: Optional[int] = None
    options: dict = field(default_factory=dict)

    def __post_init__(self):
        eff, strength = {}, {}
        for i, c in enumerate(self.trump):
            eff[c], strength[c] = "T", i
        for s, seq in self.plain.items():
            for i, c in enumerate(seq):
                assert c not in eff, (self.game, self.contract, name(c))
                eff[c], strength[c] = s, i
        assert set(eff) == set(self.deck), (self.game, self.contract)
        object.__setattr__(self, "_eff", eff)
        object.__setattr__(self, "_strength", strength)

    @property
    def kitty_size(self) -> int:
        return len(self.deck) - self.n_seats * self.hand_size

    def suit_of(self, c: int):
        """Effective suit: ``"T"`` for trump, else the printed suit index."""
        return self._eff[c]

    def winner(self, trick: Sequence[int]) -> int:
        """Position (0 = leader) of the card that wins the trick (RULINGS, all games)."""
        trumps = [i for i, c in enumerate(trick) if self._eff[c] == "T"]
        if trumps:
            return max(trumps, key=lambda i: self._strength[trick[i]])
        led = self._eff[trick[0]]
        return max((i for i, c in enumerate(trick) if self._eff[c] == led), key=lambda i: self._strength[trick[i]])

    def legal(self, hand: frozenset, trick: Sequence[int], trick_index: int, broken: bool, suits_led: frozenset) -> list[int]:
        """Cards of ``hand`` that may be played (sorted)."""
        if not trick:
            if trick_index == 0 and self.first_lead is not None and self.first_lead in hand:
                return [self.first_lead]
            if trick_index < self.unlock_trick and not broken:
                allowed = [c for c in hand if c not in self.lead_restricted]
                if allowed:
                    return sorted(allowed)
            return sorted(hand)
        led = self._eff[trick[0]]
        follow = [c for c in hand if self._eff[c] == led]
        if follow:
            if self.must_play_first in follow and led not in suits_led:
                return [self.must_play_first]
            return sorted(follow)
        if trick_index == 0:
            allowed = [c for c in hand if c not in self.first_trick_forbidden]
            if allowed:
                return sorted(allowed)
        return sorted(hand)

    def side(self, hands: Sequence[Iterable[int]], declarer: int) -> frozenset:
        return self.side_rule([frozenset(h) for h in hands], declarer)


GOATHEAD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
SHEEP_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
SUIT_BY_NAME = {"clubs": C, "diamonds": D, "hearts": H, "spades": S}


def _pts(deck, table):
    return {c: table.get(RANK_NAMES[c & 15], 0) for c in deck if table.get(RANK_NAMES[c & 15], 0)}


def goathead_rules(game: str, contract: str) -> Rules:
    n_seats, hand_size = (3, 6) if game == "goathead3" else (4, 4)
    deck = tuple(DECK20)
    points = _pts(deck, GOATHEAD_POINTS)
    jacks = cards("JD JH JS JC")  # low → high: J♣ J♠ J♥ J♦ from the top
    common = dict(game=game, contract=contract, n_seats=n_seats, hand_size=hand_size, deck=deck, points=points)
    if contract == "nil":
        plain = {s: order("A 10 K Q J", s) for s in range(4)}
        return Rules(trump=(), plain=plain, objective="nil", goal="min", **common)
    if contract in ("court", "leasters"):
        plain = {s: order("A 10 K Q", s) for s in range(4)}
        return Rules(trump=tuple(jacks), plain=plain, goal="min" if contract == "leasters" else "max", **common)
    t = SUIT_BY_NAME[contract]
    trump = order("A 10 K Q", t) + jacks
    plain = {s: order("A 10 K Q", s) for s in range(4) if s != t}
    side = side_alone if n_seats == 3 else side_goathead4(t)
    return Rules(trump=tuple(trump), plain=plain, side_rule=side, **common)


def clover_rules(contract: str) -> Rules:
    deck = tuple(DECK32)
    plain_pts = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    common = dict(game="clover", contract=contract, n_seats=4, hand_size=8, deck=deck, side_rule=side_across, last_trick_bonus=-2)
    if contract == "notrump":
        plain = {s: order("A 10 K Q J 9 8 7", s) for s in range(4)}
        points = _pts(deck, {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "8": 8})
        return Rules(trump=(), plain=plain, points=points, **common)
    t = SUIT_BY_NAME[contract]
    trump = order("J 9 A 10 K Q 8 7", t)
    plain = {s: order("A 10 K Q J 9 8 7", s) for s in range(4) if s != t}
    points = _pts(deck, plain_pts)
    trump_pts = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3}
    for c in trump:
        points.pop(c, None)
        v = trump_pts.get(RANK_NAMES[c & 15], 0)
        if v:
            points[c] = v
    return Rules(trump=tuple(trump), plain=plain, points=points, **common)


def gamut_rules(contract: str) -> Rules:
    deck = tuple(DECK32)
    common = dict(game="gamut", contract=contract, n_seats=4, hand_size=8, deck=deck)
    natural = "A K Q J 10 9 8 7"
    if contract == "hearts":
        plain = {s: order(natural, s) for s in range(4)}
        points = {c: 1 for c in plain[H]}
        points[card("QS")] = 8
        hearts = frozenset(plain[H])
        return Rules(trump=(), plain=plain, points=points, goal="min", first_lead=card("9C"),
                     lead_restricted=hearts, breakers=hearts, **common)
    if contract == "spades":
        plain = {s: order(natural, s) for s in range(3)}
        spades = order(natural, S)
        return Rules(trump=tuple(spades), plain=plain, points={}, objective="tricks", side_rule=side_across,
                     lead_restricted=frozenset(spades), breakers=frozenset(spades), **common)
    if contract == "clubs":
        trump = order("A K Q 10 9 8 7", C) + cards("JS JC")
        plain = {D: order(natural, D), H: order(natural, H), S: order("A K Q 10 9 8 7", S)}
        return Rules(trump=tuple(trump), plain=plain, points={}, objective="tricks", **common)
    raise ValueError(contract)


SHEEP_TRUMP_HIGH_FIRST = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"


def sheepshead_rules(contract: str) -> Rules:
    deck = tuple(DECK32)
    trump = tuple(reversed(cards(SHEEP_TRUMP_HIGH_FIRST)))
    plain = {s: order("A 10 K 9 8 7", s) for s in (C, S, H)}
    points = _pts(deck, SHEEP_POINTS)
    common = dict(game="sheepshead", contract=contract, n_seats=5, hand_size=6, deck=deck, trump=trump, plain=plain, points=points)
    if contract == "jd":
        return Rules(side_rule=side_holder(card("JD")), **common)
    if contract in ("jc", "js", "jh"):
        return Rules(side_rule=side_holder(card(contract.upper())), **common)
    if contract.startswith("called_ace_") or contract.startswith("called_ten_"):
        rank = "A" if "_ace_" in contract else "10"
        c = 16 * SUIT_BY_NAME[contract.rsplit("_", 1)[1]] + _RANK_OF[rank]
        return Rules(side_rule=side_holder(c), must_play_first=c, **common)
    if contract == "alone":
        return Rules(**common)
    if contract == "leaster":
        return Rules(goal="min", **common)
    raise ValueError(contract)


def hearts_rules(contract: str = "hearts", *, jack_of_diamonds=False, queen_breaks_hearts=False,
                 points_on_first_trick=False, **_ignored) -> Rules:
    deck = tuple(DECK52)
    plain = {s: order("A K Q J 10 9 8 7 6 5 4 3 2", s) for s in range(4)}
    hearts = frozenset(plain[H])
    points = {c: 1 for c in hearts}
    points[card("QS")] = 13
    if jack_of_diamonds:
        points[card("JD")] = -10
    breakers = hearts | ({card("QS")} if queen_breaks_hearts else set())
    forbidden = frozenset() if points_on_first_trick else hearts | {card("QS")}
    opts = dict(jack_of_diamonds=jack_of_diamonds, queen_breaks_hearts=queen_breaks_hearts,
                points_on_first_trick=points_on_first_trick)
    return Rules(game="hearts", contract=contract, n_seats=4, hand_size=13, deck=deck, trump=(), plain=plain,
                 points=points, goal="min", first_lead=card("2C"), lead_restricted=hearts,
                 breakers=frozenset(breakers), first_trick_forbidden=frozenset(forbidden),
                 options={k: v for k, v in opts.items() if v})


def spades_rules(contract: str = "spades", *, spade_leading="after_broken", **_ignored) -> Rules:
    deck = tuple(DECK52)
    natural = "A K Q J 10 9 8 7 6 5 4 3 2"
    plain = {s: order(natural, s) for s in range(3)}
    spades = frozenset(order(natural, S))
    restrict = {}
    if spade_leading == "after_broken":
        restrict = dict(lead_restricted=spades, breakers=spades)
    elif spade_leading == "after_first_trick":
        # Before trick 1 no spade can have been played ahead of a lead, so "broken" never
        # matters: spades are simply locked for the first lead.
        restrict = dict(lead_restricted=spades, unlock_trick=1)
    opts = {} if spade_leading == "after_broken" else {"spade_leading": spade_leading}
    return Rules(game="spades", contract=contract, n_seats=4, hand_size=13, deck=deck, trump=tuple(order(natural, S)),
                 plain=plain, points={}, objective="tricks", side_rule=side_across, options=opts, **restrict)


def ohhell_rules(contract: str, *, hand_size=10, n_seats=4, **_ignored) -> Rules:
    deck = tuple(DECK52)
    natural = "A K Q J 10 9 8 7 6 5 4 3 2"
    if contract == "notrump":
        trump, plain = (), {s: order(natural, s) for s in range(4)}
    else:
        t = SUIT_BY_NAME[contract]
        trump, plain = tuple(order(natural, t)), {s: order(natural, s) for s in range(4) if s != t}
    return Rules(game="ohhell", contract=contract, n_seats=n_seats, hand_size=hand_size, deck=deck, trump=trump,
                 plain=plain, points={}, objective="tricks",
                 options={} if hand_size == 10 else {"hand_size": hand_size})


GAMES = ("goathead3", "goathead4", "clover", "gamut", "sheepshead", "hearts", "spades", "ohhell")
_GOATHEAD = ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters")
#: Every (game, contract) this module has reference rules for (Gamut's clubs_3/2/1 with
#: folded players are not written out).
REFERENCE_CONTRACTS = frozenset(
    [(g, c) for g in ("goathead3", "goathead4") for c in _GOATHEAD]
    + [("clover", c) for c in ("clubs", "diamonds", "hearts", "spades", "notrump")]
    + [("gamut", c) for c in ("hearts", "spades", "clubs")]
    + [("sheepshead", c) for c in ("jd", "jc", "js", "jh", "alone", "leaster")]
    + [("sheepshead", f"called_{r}_{s}") for r in ("ace", "ten") for s in ("clubs", "spades", "hearts")]
    + [("hearts", "hearts"), ("spades", "spades")]
    + [("ohhell", c) for c in ("clubs", "diamonds", "hearts", "spades", "notrump")]
)


def rules_for(game: str, contract: str, **options) -> Rules:
    """The reference rules of one contract (options as in ``Game.options``)."""
    if game in ("goathead3", "goathead4"):
        return goathead_rules(game, contract)
    if game == "clover":
        return clover_rules(contract)
    if game == "gamut":
        return gamut_rules(contract)
    if game == "sheepshead":
        return sheepshead_rules(contract)
    if game == "hearts":
        return hearts_rules(contract, **options)
    if game == "spades":
        return spades_rules(contract, **options)
    if game == "ohhell":
        return ohhell_rules(contract, **options)
    raise ValueError(f"no reference rules for {game}")


# --------------------------------------------------------------------------- positions
@dataclass
class Position:
    """A point in the play of one round.

    ``hands`` are the cards still held, ``trick`` the cards on the table led by ``leader``,
    ``played`` the cards of completed tricks (in order), ``trick_index`` the number of
    completed tricks, ``suits_led`` the effective suits led to completed tricks, ``deal``
    the full deal it came from (for the side rule) and ``kitty`` the undealt cards.
    """

    rules: Rules
    hands: list
    leader: int
    trick: tuple = ()
    played: tuple = ()
    trick_index: int = 0
    suits_led: frozenset = frozenset()
    declarer: int = 0
    deal: Optional[list] = None
    kitty: tuple = ()

    @property
    def broken(self) -> bool:
        return any(c in self.rules.breakers for c in self.played)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.n_seats

    @property
    def tricks_left(self) -> int:
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    def legal(self) -> list[int]:
        return self.rules.legal(frozenset(self.hands[self.to_move]), self.trick, self.trick_index, self.broken,
                                self.suits_led)

    def play(self, c: int) -> "Position":
        """The position after ``c`` is played (trick completed and collected if it is the last card)."""
        seat = self.to_move
        assert c in self.hands[seat]
        hands = [set(h) for h in self.hands]
        hands[seat].discard(c)
        trick = self.trick + (c,)
        if len(trick) < self.rules.n_seats:
            return replace(self, hands=hands, trick=trick)
        w = (self.leader + self.rules.winner(trick)) % self.rules.n_seats
        return replace(self, hands=hands, trick=(), leader=w, played=self.played + trick,
                       trick_index=self.trick_index + 1,
                       suits_led=self.suits_led | {self.rules.suit_of(trick[0])})

    def side(self) -> frozenset:
        full = self.deal if self.deal is not None else self.hands
        return self.rules.side(full, self.declarer)

    def describe(self) -> str:
        hands = " | ".join(names(sorted(h)) or "-" for h in self.hands)
        return (f"{self.rules.game}/{self.rules.contract} leader={self.leader} trick=[{names(self.trick)}] "
                f"trick_index={self.trick_index} played=[{names(self.played)}] hands: {hands} declarer={self.declarer}")


def deal(rules: Rules, rng: random.Random) -> tuple[list, tuple]:
    deck = list(rules.deck)
    rng.shuffle(deck)
    n, k = rules.n_seats, rules.hand_size
    return [set(deck[i * k:(i + 1) * k]) for i in range(n)], tuple(sorted(deck[n * k:]))


def random_position(rules: Rules, rng: random.Random, tricks_left: int, on_table: int = 0,
                    declarer: Optional[int] = None) -> Position:
    """Deal, then play uniformly random legal cards until ``tricks_left`` tricks remain
    (counting a started trick) with ``on_table`` cards of the current trick played."""
    assert 1 <= tricks_left <= rules.hand_size and 0 <= on_table < rules.n_seats
    hands, kitty = deal(rules, rng)
    leader = 0
    if rules.first_lead is not None:
        for s, h in enumerate(hands):
            if rules.first_lead in h:
                leader = s
    if declarer is None:
        declarer = rng.randrange(rules.n_seats)
    pos = Position(rules, [set(h) for h in hands], leader, declarer=declarer,
                   deal=[frozenset(h) for h in hands], kitty=kitty)
    n_cards = (rules.hand_size - tricks_left) * rules.n_seats + on_table
    for _ in range(n_cards):
        pos = pos.play(rng.choice(pos.legal()))
    return pos


# --------------------------------------------------------------------------- search
class BruteForce:
    """Full minimax over every legal card; ``value(pos)`` is the solver's ``.value``.

    ``side`` (a set of seats) and ``goal`` default to the rules'; one instance keeps its
    memo across calls for the same side, goal and rules.
    """

    def __init__(self, rules: Rules, side: Iterable[int], goal: Optional[str] = None):
        self.rules = rules
        self.side = frozenset(side)
        self.goal = goal or rules.goal
        self.memo: dict = {}
        self.nodes = 0

    def _key(self, pos: Position):
        return (tuple(frozenset(h) for h in pos.hands), pos.leader, pos.trick, pos.trick_index, pos.broken,
                pos.suits_led if pos.rules.must_play_first is not None else None)

    def value(self, pos: Position) -> int:
        key = self._key(pos)
        v = self.memo.get(key)
        if v is None:
            v = self._search(pos)
            self.memo[key] = v
        return v

    def _search(self, pos: Position) -> int:
        self.nodes += 1
        if not pos.trick and not any(pos.hands):
            return 0
        seat = pos.to_move
        wants_max = (seat in self.side) == (self.goal == "max")
        best = None
        for c in pos.legal():
            v = self.after(pos, c)
            if best is None or (v > best if wants_max else v < best):
                best = v
        assert best is not None, pos.describe()
        return best

    def after(self, pos: Position, c: int) -> int:
        """Value of the remaining play (from ``pos``) when ``c`` is played next."""
        r = self.rules
        n = r.n_seats
        if len(pos.trick) + 1 < n:
            return self.value(pos.play(c))
        trick = pos.trick + (c,)
        w = (pos.leader + r.winner(trick)) % n
        nxt = pos.play(c)
        last = not any(nxt.hands)
        mine = w in self.side
        if r.objective == "nil":
            if mine:
                return 1  # play stops at the declarer's first trick
            return 0 if last else self.value(nxt)
        if r.objective == "tricks":
            gain = 1 if mine else 0
        else:
            gain = (sum(r.points.get(x, 0) for x in trick) + (r.last_trick_bonus if last else 0)) if mine else 0
        return gain if last else gain + self.value(nxt)

    def card_values(self, pos: Position) -> dict:
        return {c: self.after(pos, c) for c in pos.legal()}

    def outcome(self, pos: Position, line: Sequence[int]) -> tuple[int, Optional[str]]:
        """Replay ``line`` from ``pos``: (value the side collects, first problem or None).

        A problem is an illegal card, a card that changes the minimax value (not optimal
        for its player), or a line that stops before the play ends."""
        r = self.rules
        total = 0
        target = self.value(pos)
        cur = pos
        for i, c in enumerate(line):
            if not cur.trick and not any(cur.hands):
                return total, f"line continues after the last trick at card {i} ({name(c)})"
            legal = cur.legal()
            if c not in legal:
                return total, f"card {i} ({name(c)}) is illegal for seat {cur.to_move}; legal: {names(legal)}"
            if total + self.after(cur, c) != target:
                return total, f"card {i} ({name(c)}) is not optimal for seat {cur.to_move}"
            trick = cur.trick + (c,)
            nxt = cur.play(c)
            if len(trick) == r.n_seats:
                w = (cur.leader + r.winner(trick)) % r.n_seats
                mine = w in self.side
                last = not any(nxt.hands)
                if r.objective == "nil":
                    if mine:
                        total = 1
                        if i != len(line) - 1:
                            return total, "line continues after the declarer's first trick (nil)"
                        return total, None
                elif r.objective == "tricks":
                    total += mine
                elif mine:
                    total += sum(r.points.get(x, 0) for x in trick) + (r.last_trick_bonus if last else 0)
            cur = nxt
        if cur.trick or any(cur.hands):
            return total, f"line stops after {len(line)} cards, before the end of play"
        return total, None


def solve(pos: Position, side: Optional[Iterable[int]] = None, goal: Optional[str] = None) -> int:
    """Convenience: the brute-force value of ``pos`` (side from the full deal by default)."""
    return BruteForce(pos.rules, pos.side() if side is None else side, goal).value(pos)
