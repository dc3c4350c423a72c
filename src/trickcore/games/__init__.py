"""The game registry: ``get_game(id)`` for every game this library analyses.

========== ============================================================================
id         contracts
========== ============================================================================
goathead3  diamonds hearts nil spades clubs court leasters
goathead4  the same, four players
clover     clubs diamonds hearts spades notrump
gamut      hearts spades clubs clubs_3 clubs_2 clubs_1
sheepshead jd jc js jh called_ace_{clubs,spades,hearts} called_ten_{...} alone leaster
hearts     hearts
spades     spades
ohhell     clubs diamonds hearts spades notrump (option ``hand_size``)
========== ============================================================================

>>> from trickcore.games import get_game, GAME_IDS
>>> GAME_IDS
('goathead3', 'goathead4', 'clover', 'gamut', 'sheepshead', 'hearts', 'spades', 'ohhell')
>>> get_game("goathead3").contracts
('diamonds', 'hearts', 'nil', 'spades', 'clubs', 'court', 'leasters')
>>> get_game("bridge")
Traceback (most recent call last):
  ...
ValueError: unknown game 'bridge'; valid games: goathead3, goathead4, clover, gamut, sheepshead, hearts, spades, ohhell
>>> get_game("spades").layout("spades", spade_leading="sometimes")
Traceback (most recent call last):
  ...
ValueError: rule option 'spade_leading' cannot be 'sometimes'; valid values: 'after_broken', 'after_first_trick', 'always'
"""

from __future__ import annotations

from .base import Game, RuleOption
from .cardswithcats import HEARTS, OHHELL, SPADES
from .clover import CLOVER
from .gamut import GAMUT
from .goathead import GOATHEAD3, GOATHEAD4
from .sheepshead import SHEEPSHEAD

__all__ = ["Game", "RuleOption", "GAMES", "GAME_IDS", "get_game"]

GAMES: dict[str, Game] = {
    g.id: g for g in (GOATHEAD3, GOATHEAD4, CLOVER, GAMUT, SHEEPSHEAD, HEARTS, SPADES, OHHELL)
}
"""Every game by id."""
GAME_IDS = tuple(GAMES)
"""The game ids, in the order of the table above."""


def get_game(game_id: str | Game) -> Game:
    """The game with this id; ``ValueError`` lists the valid ids."""
    if isinstance(game_id, Game):
        return game_id
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r}; valid games: {', '.join(GAME_IDS)}") from None
