"""trickcore: odds, double-dummy values and playouts for trick-taking card games.

The card-game engine: cards (:mod:`trickcore.cards`), game definitions
(:mod:`trickcore.games`), contracts compiled to layouts (:mod:`trickcore.layout`) and the
compiled core that deals, plays out and solves many deals per call.
"""

from .cards import DECK20, DECK32, DECK52, Card, CardSet, parse_card, parse_hand
from .games import GAME_IDS, GAMES, get_game
from .deals import count_deals, enumerate_deals, random_deals
from .layout import Layout
from .playouts import PlayoutResult, playout
from .solver import ManyResult, SolveResult, solve, solve_deadline, solve_many

__version__ = "0.1.0"

__all__ = [
    "Card", "CardSet", "parse_card", "parse_hand", "DECK20", "DECK32", "DECK52",
    "Layout", "GAMES", "GAME_IDS", "get_game",
    "random_deals", "count_deals", "enumerate_deals",
    "playout", "PlayoutResult",
    "solve", "solve_many", "solve_deadline", "SolveResult", "ManyResult",
    "__version__",
]
