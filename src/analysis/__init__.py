"""analysis: the pandas layer of trickcore (odds, payouts, balance, reports, CLI)."""

from .advice import card_odds
from .constraints import KITTY, Constraint, Count, Holds, HoldsAny, Points, Predicate, sample_deals, trumps
from .cracking import crack_odds, recrack_odds
from .engine import chunk_plan, chunk_seed, run_chunks
from .hearts_pass import hearts_pass_odds
from .odds import compare_kitty_policies, contract_odds, deal_probability, heuristic_exchange
from .passing import pass_odds
from .review import PlayReview, play_and_review, review_play, review_round
from .simulate import bid_contracts, compare, evaluate, hands_text, simulate, simulate_summary
from .stats import Moments, diff_interval, mean_interval, wilson_interval
from .store import ChunkStore, read_metadata, read_store

__all__ = [
    "simulate", "simulate_summary", "compare", "evaluate", "bid_contracts", "hands_text",
    "contract_odds", "compare_kitty_policies", "deal_probability", "heuristic_exchange", "pass_odds",
    "crack_odds", "recrack_odds", "hearts_pass_odds", "card_odds",
    "review_play", "review_round", "play_and_review", "PlayReview",
    "Constraint", "Holds", "HoldsAny", "Count", "Points", "Predicate", "KITTY", "trumps", "sample_deals",
    "run_chunks", "chunk_plan", "chunk_seed",
    "wilson_interval", "mean_interval", "diff_interval", "Moments",
    "ChunkStore", "read_store", "read_metadata",
]
