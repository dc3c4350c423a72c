"""The invariants of a finished round, :func:`check_round`, for test modules other than
``test_rounds.py`` where they live (pytest imports test modules by path here, so they are
loaded the same way)."""

import importlib.util
from pathlib import Path


def load_check_round():
    """``check_round`` of ``test_rounds.py``."""
    spec = importlib.util.spec_from_file_location("_rounds_invariants", Path(__file__).with_name("test_rounds.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.check_round
