"""A second exact solver, in plain C (``probe_solver.c``), for tests and benches.

It is the "quick C probe" of issue #3 rebuilt from the issue's description: fail-soft
alpha-beta over single cards in a fixed card order, a table of bounds at trick boundaries
keyed by the exact hands, and nothing else (no move ordering, bounds, equivalent cards,
quasi-symmetry, twins, winning ranks or lead tables).  It shares no code with trickcore's
kernels; it reads only a layout's card tables (effective suits, points, trump, bonus,
sides), which ``test_solver_truth.py`` checks against the rule texts on their own.  So
where the two solvers agree on whole deals, every pruning of the kernels held on them.
It counts card points or tricks (not Nil), under no rule but following suit.

The C file is compiled on first use with the C compiler Python was built with (``CC``),
or ``cc``, into a temporary directory.

>>> from trickcore import get_game
>>> layout = get_game("goathead3").layout("hearts")
>>> deals = [[int(h) for h in layout.check_hands(["JC AH", "JD KH", "AS AC"])]]
>>> probe_values(layout, deals, leader=0, declarer=0)[0].tolist()    # as trickcore.solve
[17]
"""

from __future__ import annotations

import ctypes
import functools
import shlex
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).with_name("probe_solver.c")
MAX_SEATS = 5


@functools.lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    """``probe_solver.c`` compiled to a shared library and loaded (once per process): by
    the compiler Python was built with, else ``cc``, else ``gcc``."""
    out = Path(tempfile.mkdtemp(prefix="trickcore-probe-")) / "probe_solver.so"
    errors = []
    for cc in dict.fromkeys([sysconfig.get_config_var("CC") or "cc", "cc", "gcc"]):
        try:
            subprocess.run([*shlex.split(cc), "-O2", "-shared", "-fPIC", "-o", str(out), str(SOURCE)],
                           check=True, capture_output=True, text=True)
            break
        except (OSError, subprocess.CalledProcessError) as exc:
            errors.append(f"{cc}: {getattr(exc, 'stderr', None) or exc}")
    else:
        raise RuntimeError("could not compile the probe solver:\n" + "\n".join(errors))
    lib = ctypes.CDLL(str(out))
    arr = np.ctypeslib.ndpointer
    lib.probe_solve.argtypes = [
        ctypes.c_int, ctypes.c_int, arr(np.int8, flags="C"), ctypes.c_int, arr(np.int16, flags="C"),
        ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64, arr(np.uint64, flags="C"),
        arr(np.int8, flags="C"), arr(np.uint8, flags="C"), arr(np.int16, flags="C"),
        arr(np.int64, flags="C"), ctypes.POINTER(ctypes.c_double)]
    lib.probe_solve.restype = ctypes.c_int
    return lib


def check_layout(layout) -> None:
    """Raise ``ValueError`` unless the probe knows every rule of ``layout``: card points or
    tricks, following suit and nothing else."""
    if layout.objective not in ("points", "tricks"):
        raise ValueError(f"the probe counts card points or tricks, not {layout.objective!r} ({layout.name})")
    if (len(layout.lead_restricted) or layout.first_lead is not None or len(layout.first_trick_forbidden)
            or layout.must_play_first is not None):
        raise ValueError(f"{layout.name} has a rule beyond following suit, which the probe does not know")
    if layout.n_seats > MAX_SEATS or len(layout.deck) > 64:
        raise ValueError(f"{layout.name}: at most {MAX_SEATS} seats and 64 cards")


def probe_values(layout, deals, leader: int, declarer: int, high_first: bool = True, sides=None,
                 goal: str | None = None):
    """``(values, nodes, seconds)`` of the probe on ``deals`` (universal bit-boards, shape
    ``(n, n_seats)``, every hand of one size: the start of a trick), ``leader`` leading and
    the side ``layout.sides`` gives ``declarer`` (or ``sides``, a seat mask per deal) wanting
    the value high (or as ``goal`` says, ``"max"`` or ``"min"``, as ``solve_many``'s).
    ``seconds`` is the time of the deals' search alone.  Cards are tried highest first
    (``high_first``) or lowest first."""
    check_layout(layout)
    deals = np.ascontiguousarray(deals, dtype=np.uint64)
    n_deals, n = deals.shape
    if n != layout.n_seats:
        raise ValueError(f"deals have {n} hands, {layout.name} has {layout.n_seats} seats")
    sizes = np.bitwise_count(deals) if n_deals else np.zeros((0, n), int)
    if n_deals and (sizes != sizes[:, :1]).any():
        raise ValueError("the probe starts at a trick boundary: every hand of a deal must have one size")
    n_cards = len(layout.deck)
    suit_of = np.zeros(64, dtype=np.int8)
    for i, mask in enumerate(layout.suit_masks):
        for b in range(n_cards):
            if (int(mask) >> b) & 1:
                suit_of[b] = i
    points = np.zeros(64, dtype=np.int16)
    points[:n_cards] = layout.point_table()[layout.bit_to_card[:n_cards].astype(np.int64)]
    hands = np.ascontiguousarray(layout.to_layout_bits(deals), dtype=np.uint64)
    leaders = np.full(n_deals, leader, dtype=np.int8)
    if sides is None:
        sides = layout.sides(deals, np.full(n_deals, declarer))
    sides = np.ascontiguousarray(np.broadcast_to(np.asarray(sides, dtype=np.uint8), (n_deals,)))
    goal = goal or layout.goal
    if goal not in ("max", "min"):
        raise ValueError(f"goal must be 'max' or 'min', not {goal!r}")
    values = np.zeros(n_deals, dtype=np.int16)
    nodes = np.zeros(n_deals, dtype=np.int64)
    seconds = ctypes.c_double()
    trump = len(layout.suits) - 1 if layout.trump else -1
    rc = _library().probe_solve(n, n_cards, suit_of, trump, points, layout.last_trick_bonus,
                                int(layout.objective == "tricks"), int(goal == "min"), int(high_first),
                                n_deals, hands, leaders, sides, values, nodes, ctypes.byref(seconds))
    if rc != 0:
        raise MemoryError("the probe's table could not be allocated")
    return values, nodes, seconds.value
