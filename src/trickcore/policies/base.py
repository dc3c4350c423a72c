"""The policy protocol: one method per decision point of a round.

Every method takes the deciding seat's :class:`~trickcore.rounds.state.Observation` and
returns one item of ``obs.legal`` (or, when ``obs.count`` > 1, a tuple of ``obs.count``
distinct items that ``obs.check`` accepts).  ``obs.phase`` says which step of the game
asks (``"bid"``, ``"raise"``, ``"crack"``, ``"blitz"``, ``"bury"``, ``"kitty_swap"``, ...).

Examples
--------
>>> from trickcore.policies import Policy, RandomPolicy, HeuristicPolicy
>>> isinstance(RandomPolicy(), Policy), isinstance(HeuristicPolicy(), Policy)
(True, True)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..rounds.state import Observation

__all__ = ["Policy", "BasePolicy"]


@runtime_checkable
class Policy(Protocol):
    """A decision maker for one seat.  See the module docstring."""

    def bid(self, obs: Observation) -> Any:
        """Bids, raises and announcements (contracts, trick counts, crack, blitz, ...)."""

    def pick_or_pass(self, obs: Observation) -> Any:
        """Take the kitty / blind (``True``) or not (``False``)."""

    def exchange(self, obs: Observation) -> Any:
        """Bury cards (``count`` of them) or swap one card with the kitty (``None`` or a
        ``(give, take)`` pair)."""

    def pass_cards(self, obs: Observation) -> Any:
        """Cards to pass to other seats (``count`` of them, in the order the game says)."""

    def call(self, obs: Observation) -> Any:
        """A partner call (a contract naming the partner card) or ``"alone"``."""

    def fold(self, obs: Observation) -> Any:
        """Fold (``True``) or play on (``False``)."""

    def play(self, obs: Observation) -> Any:
        """A card from ``obs.legal``."""


class BasePolicy:
    """Shared plumbing: routes every decision to :meth:`choose` unless overridden."""

    def choose(self, obs: Observation) -> Any:  # pragma: no cover - subclasses override
        raise NotImplementedError

    def bid(self, obs: Observation) -> Any:
        return self.choose(obs)

    def pick_or_pass(self, obs: Observation) -> Any:
        return self.choose(obs)

    def exchange(self, obs: Observation) -> Any:
        return self.choose(obs)

    def pass_cards(self, obs: Observation) -> Any:
        return self.choose(obs)

    def call(self, obs: Observation) -> Any:
        return self.choose(obs)

    def fold(self, obs: Observation) -> Any:
        return self.choose(obs)

    def play(self, obs: Observation) -> Any:
        return self.choose(obs)
