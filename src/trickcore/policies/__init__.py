"""Decision policies for whole rounds: random, per-game heuristics, and PIMC.

* :class:`RandomPolicy` — uniform among legal answers.
* :class:`HeuristicPolicy` — each game's usual strategy, in a few readable rules.
* :class:`PIMCPolicy` — Perfect Information Monte Carlo: deal the unseen cards consistently
  with what the seat has seen, solve every sample double dummy, play the best average card.

>>> from trickcore.policies import RandomPolicy, HeuristicPolicy, PIMCPolicy
>>> from trickcore.rounds import play_round
>>> rec = play_round("goathead3", [HeuristicPolicy(), RandomPolicy(seed=1), RandomPolicy(seed=2)], seed=5)
>>> len(rec.payouts)
3
"""

from .base import BasePolicy, Policy
from .heuristic import HeuristicPolicy
from .pimc import PIMCPolicy
from .random import RandomPolicy

__all__ = ["Policy", "BasePolicy", "RandomPolicy", "HeuristicPolicy", "PIMCPolicy"]
