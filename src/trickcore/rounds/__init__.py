"""Whole rounds and matches: deal, bidding, exchanges, partners, play, scoring.

Every game has one module here whose :class:`~trickcore.rounds.state.RoundState` subclass
writes the round's phases as a flow of decisions (:mod:`trickcore.rounds.state`);
:mod:`trickcore.rounds.match` strings rounds into a match.  Decisions are taken by
policies (:mod:`trickcore.policies`); payouts come from :mod:`trickcore.scoring`.
:func:`save_records` and :func:`load_records` (:mod:`trickcore.rounds.record_io`) keep
finished rounds in a file.

Examples
--------
>>> from trickcore.rounds import play_round, start_round
>>> from trickcore.policies import RandomPolicy
>>> rec = play_round("goathead3", [RandomPolicy(seed=s) for s in range(3)], seed=3)
>>> sorted(rec.row())[:4]
['bids', 'contract', 'dealer', 'declarer']
>>> r = start_round("goathead3", seed=3)      # or step through it by hand
>>> r.act("pass").pending.seat
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..games import get_game
from .record_io import load_records, save_records
from .state import Decision, Observation, RoundRecord, RoundState, Trick

__all__ = [
    "Decision", "Observation", "RoundRecord", "RoundState", "Trick",
    "round_class", "start_round", "play_round", "drive", "play_match", "MatchRecord",
    "save_records", "load_records",
]


def round_class(game: Any) -> type[RoundState]:
    """The :class:`RoundState` subclass that plays ``game``."""
    gid = get_game(game).id
    if gid in ("goathead3", "goathead4"):
        from .goathead import GoatheadRound as cls
    elif gid == "clover":
        from .clover import CloverRound as cls
    elif gid == "gamut":
        from .gamut import GamutRound as cls
    elif gid == "sheepshead":
        from .sheepshead import SheepsheadRound as cls
    elif gid == "hearts":
        from .hearts import HeartsRound as cls
    elif gid == "spades":
        from .spades import SpadesRound as cls
    elif gid == "ohhell":
        from .ohhell import OhHellRound as cls
    else:  # pragma: no cover - the registry and this table grow together
        raise ValueError(f"no round engine for {gid!r}")
    return cls


def start_round(game: Any, *, seed: Any = None, dealer: int = 0, round_index: int = 0,
                scores: Sequence[float] | None = None, hands: Sequence[Any] | None = None,
                kitty: Any = None, multiplier: int = 1, **rules: Any) -> RoundState:
    """A round dealt and run up to its first decision; answer with ``.act(...)``.

    ``hands``/``kitty`` fix the deal (universal cards, any form :func:`parse_hand` takes).
    Unknown rule options or values raise ``ValueError`` listing the valid ones.
    """
    cls = round_class(game)
    r = cls(game, rules, dealer=dealer, round_index=round_index, scores=scores, seed=seed,
            hands=hands, kitty=kitty, multiplier=multiplier)
    return r.start()


def drive(r: RoundState, policies: Sequence[Any]) -> RoundRecord:
    """Ask the policies until the round ends; returns its record."""
    if not hasattr(policies, "__len__") or len(policies) != r.n:
        got = len(policies) if hasattr(policies, "__len__") else repr(policies)
        raise ValueError(f"{r.game.id} needs {r.n} policies, one per seat; got {got}")
    while not r.done:
        d = r.pending
        obs = r.observe(d.seat)
        decide = getattr(policies[d.seat], d.kind, None)
        if not callable(decide):
            raise ValueError(f"the policy of seat {d.seat} ({policies[d.seat]!r}) has no {d.kind}() method; "
                             "a policy answers every decision (trickcore.policies.Policy)")
        answer = decide(obs)
        r.act(answer)
    return r.record


def play_round(game: Any, policies: Sequence[Any], *, seed: Any = None, dealer: int = 0,
               round_index: int = 0, scores: Sequence[float] | None = None,
               hands: Sequence[Any] | None = None, kitty: Any = None, multiplier: int = 1,
               **rules: Any) -> RoundRecord:
    """Play one round with one policy per seat; returns its :class:`RoundRecord`."""
    r = start_round(game, seed=seed, dealer=dealer, round_index=round_index, scores=scores,
                    hands=hands, kitty=kitty, multiplier=multiplier, **rules)
    return drive(r, policies)


from .match import MatchRecord, play_match  # noqa: E402  (match imports play_round)
