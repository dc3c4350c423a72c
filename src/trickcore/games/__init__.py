"""The game registry: ``get_game(id)`` for every game this library analyses.

>>> from trickcore.games import get_game, GAME_IDS
>>> get_game("goathead3").contracts
('diamonds', 'hearts', 'nil', 'spades', 'clubs', 'court', 'leasters')
>>> get_game("bridge")
Traceback (most recent call last):
  ...
ValueError: unknown game 'bridge'; valid games: goathead3, goathead4
"""

from __future__ import annotations

from .base import Game, RuleOption
from .goathead import GOATHEAD3, GOATHEAD4

__all__ = ["Game", "RuleOption", "GAMES", "GAME_IDS", "get_game"]

GAMES: dict[str, Game] = {g.id: g for g in (GOATHEAD3, GOATHEAD4)}
GAME_IDS = tuple(GAMES)


def get_game(game_id: str | Game) -> Game:
    """The game with this id; ``ValueError`` lists the valid ids."""
    if isinstance(game_id, Game):
        return game_id
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r}; valid games: {', '.join(GAME_IDS)}") from None
