"""A policy that picks uniformly among the legal answers (seeded, reproducible).

>>> from trickcore.policies import RandomPolicy
>>> from trickcore.rounds import play_round
>>> rec = play_round("goathead3", [RandomPolicy(seed=s) for s in range(3)], seed=0)
>>> rec.game
'goathead3'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rounds.state import Observation
from .base import BasePolicy

__all__ = ["RandomPolicy"]


class RandomPolicy(BasePolicy):
    """Uniformly random legal decisions; ``seed`` makes them reproducible."""

    def __init__(self, seed: Any = None) -> None:
        try:
            self.rng = np.random.default_rng(seed)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad seed {seed!r}: {exc}") from None

    def choose(self, obs: Observation) -> Any:
        legal = obs.legal
        if obs.count <= 1:
            return legal[int(self.rng.integers(len(legal)))]
        for _ in range(1000):
            idx = self.rng.choice(len(legal), size=obs.count, replace=False)
            pick = tuple(legal[int(i)] for i in idx)
            if obs.check is None or not obs.check(pick):
                return pick
        from itertools import combinations

        for pick in combinations(legal, obs.count):  # pragma: no cover - tight constraints
            if obs.check is None or not obs.check(pick):
                return pick
        raise ValueError("no legal combination")  # pragma: no cover
