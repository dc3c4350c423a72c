"""Column checks and small array helpers shared by the per-game scoring modules.

Every scorer reads plain numpy arrays out of the input frame once, validates them with a
``ValueError`` that names the offending column, and builds its result frame with
:func:`result_frame`.  Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

#: Seats and hand size of every game this package scores (facts of the rule texts; the
#: registry in :mod:`trickcore.games` is cross-checked when it knows the game).
TABLES: dict[str, tuple[int, int]] = {
    "goathead3": (3, 6),
    "goathead4": (4, 4),
    "clover": (4, 8),
    "gamut": (4, 8),
    "sheepshead": (5, 6),
    "hearts": (4, 13),
    "spades": (4, 13),
    "ohhell": (4, 10),
}

#: Rule options the scorer reads, with the rulings as defaults and their valid values.
#: They mirror ``Game.options`` of :mod:`trickcore.games`; when the registry already
#: defines an option, the registry validates it (see :func:`resolve_rules`).
OPTIONS: dict[str, dict[str, tuple[Any, tuple[Any, ...]]]] = {
    "goathead3": {
        "kitty_points": ("declarer", ("declarer", "if_exchanged")),
        "no_exchange_bonus": ("won_or_lost", ("won_or_lost", "won_only")),
        "leasters_tie": ("nobody_pays", ("nobody_pays", "split")),
        "steal": (True, (True, False)),
        "raise_without_exchange": (True, (True, False)),
        "rounds": (15, tuple(range(1, 101))),
    },
    "clover": {
        "notrump_outbid": (True, (True, False)),
        "turned_suit_again": (False, (False, True)),
        "meld_tie": ("neither", ("neither", "both")),
        "melds_when_set": ("defenders_keep", ("defenders_keep", "defenders_lose")),
        "rounds": (8, (8, 12)),
    },
    "gamut": {
        "diamonds_doubling": ("multiply", ("multiply", "once")),
        "target": (40, tuple(range(1, 1001))),
        "team_bid_cap": (True, (True, False)),
        "last_may_fold": (False, (False, True)),
    },
    "sheepshead": {
        "partner": ("jd", ("jd", "called_ace")),
        "jd_picker": ("alone", ("alone", "call_jack")),
        "no_pick": ("dealer_picks", ("dealer_picks", "redeal", "doubler", "leaster")),
        "crack": (True, (True, False)),
        "blitz": (True, (True, False)),
        "announce_alone": (False, (False, True)),
        "leaster_tie": ("nobody_scores", ("nobody_scores", "split")),
        "rounds": (10, tuple(range(1, 101))),
    },
    "hearts": {
        "jack_of_diamonds": (False, (False, True)),
        "queen_breaks_hearts": (False, (False, True)),
        "points_on_first_trick": (False, (False, True)),
        "passing": ("cycle", ("cycle", "none")),
        "target": (100, tuple(range(1, 1001))),
    },
    "spades": {
        "spade_leading": ("after_broken", ("after_broken", "after_first_trick", "always")),
        "sandbags": (True, (True, False)),
        "target": (500, tuple(range(1, 5001))),
    },
    "ohhell": {
        "hand_size": (10, tuple(range(1, 14))),
        "no_equal_total": (False, (False, True)),
        "trump_card": ("last_dealt", ("last_dealt", "next_card")),
        "sequence": ("10-1-10", ("10-1-10", "always_13")),
        "trick_points": ("always", ("always", "exact_only", "never")),
        "target": (100, tuple(range(1, 1001))),
    },
}
OPTIONS["goathead4"] = OPTIONS["goathead3"]


def check_game(game: Any) -> str:
    """The game id, or ``ValueError`` listing the games this package scores."""
    gid = getattr(game, "id", game)
    if not isinstance(gid, str) or gid not in TABLES:
        raise ValueError(f"unknown game {game!r}; valid games: {', '.join(TABLES)}")
    return gid


def _registry_game(gid: str):
    """The registry's Game for ``gid``, or None while the registry does not define it yet."""
    from ..games import GAMES

    return GAMES.get(gid)


def resolve_rules(game: str, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every rule option of ``game``: the given ones validated, the others their defaults.

    Options the registry's ``Game`` defines are checked by ``Game.check_rules``; the rest
    (while the registry is being completed) against :data:`OPTIONS`.  Unknown names or
    values raise ``ValueError`` listing the valid ones.
    """
    from ..games.base import rule_dict

    gid = check_game(game)
    given = rule_dict(rules)
    table = OPTIONS[gid]
    g = _registry_game(gid)
    registry_opts = set(g.options) if g is not None else set()
    unknown = sorted(set(given) - set(table) - registry_opts)
    if unknown:
        valid = ", ".join(sorted(set(table) | registry_opts))
        raise ValueError(f"unknown rule option(s) {', '.join(unknown)} for {gid}; valid options: {valid}")
    out: dict[str, Any] = {}
    if g is not None:
        out.update(g.check_rules({k: v for k, v in given.items() if k in registry_opts}))
    for name, (default, choices) in table.items():
        if name in out:
            continue
        value = given.get(name, default)
        kind_ok = isinstance(value, bool) == isinstance(default, bool)
        if not kind_ok or value not in choices:
            shown = ", ".join(repr(c) for c in choices[:8]) + (" ..." if len(choices) > 8 else "")
            raise ValueError(f"rule option {name!r} cannot be {value!r}; valid values: {shown}")
        out[name] = value
    return out


def table(game: str) -> tuple[int, int]:
    """(n_seats, hand_size) of ``game``."""
    return TABLES[check_game(game)]


class Table:
    """A mapping of column name to a 1-d array (a scalar: a constant column) read as the
    scorers read a DataFrame — ``name in table.columns``, ``table[name]`` (a Series),
    ``len(table)``, ``table.index`` (``0 … n-1``) — without building one (which costs a
    scorer's caller more than the scoring itself when the columns are already arrays).

    >>> t = Table({"contract": ["hearts", "court"], "declarer": 0})
    >>> len(t), "declarer" in t.columns, t["declarer"].tolist()
    (2, True, [0, 0])
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        lengths = {len(v) for v in data.values() if np.ndim(v) > 0}
        if len(lengths) != 1:
            raise ValueError("a mapping of columns needs 1-d columns of one length"
                             + (f"; got lengths {sorted(lengths)}" if lengths else " (got only scalars)"))
        self._data = data
        self._n = lengths.pop()
        self.columns = tuple(data)
        self.index = pd.RangeIndex(self._n)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, column: str) -> pd.Series:
        v = self._data[column]
        if np.ndim(v) == 0:
            v = np.full(self._n, v)
        elif np.ndim(v) != 1:
            raise ValueError(f"column {column!r} must be 1-d")
        return pd.Series(v, index=self.index, copy=False)

    def numbers(self, column: str) -> np.ndarray | None:
        """The column as a read-only numpy array if it is one of numbers or booleans (or such a
        scalar), else ``None``: what the scorers' readers take without making a Series."""
        v = self._data[column]
        if np.ndim(v) == 0 and isinstance(v, (bool, int, float, np.number, np.bool_)):
            return np.full(self._n, v)
        if not isinstance(v, np.ndarray) or v.ndim != 1 or v.dtype.kind not in "biuf":
            return None
        out = v.view()
        out.flags.writeable = False  # as a Series' to_numpy(): the caller's array stays the caller's
        return out


def _numbers(frame: pd.DataFrame | Table, column: str) -> np.ndarray | None:
    return frame.numbers(column) if isinstance(frame, Table) else None


def check_frame(frame: Any) -> pd.DataFrame | Table:
    """``frame`` itself (a DataFrame), or a :class:`Table` of a mapping of columns."""
    if isinstance(frame, pd.DataFrame):
        return frame
    if isinstance(frame, Mapping):
        return Table(frame)
    raise ValueError(f"frame must be a pandas DataFrame or a mapping of columns, not {type(frame).__name__}")


def require(frame: pd.DataFrame, columns: Iterable[str], why: str) -> None:
    """``ValueError`` naming every column of ``columns`` that ``frame`` lacks."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"missing column(s) {', '.join(missing)} (needed for {why})")


def seat_columns(prefix: str, n_seats: int) -> list[str]:
    return [f"{prefix}_{s}" for s in range(n_seats)]


def ints(frame: pd.DataFrame, column: str, lo: int | None = None, hi: int | None = None,
         rows: np.ndarray | None = None) -> np.ndarray:
    """Column as int64; ``ValueError`` on missing values, fractions or values out of [lo, hi]
    (checked only on ``rows`` when given, a boolean mask)."""
    a = _numbers(frame, column)
    s = frame[column] if a is None else a
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "iu":
        out = np.asarray(s).astype(np.int64, copy=False)  # fast path: nothing can be missing
    else:
        s = frame[column]
        if s.dtype == bool or s.dtype == "boolean":
            raise ValueError(f"column {column!r} must hold integers, not booleans")
        try:
            a = s.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):
            raise ValueError(f"column {column!r} must hold integers") from None
        chk = a if rows is None else a[rows]
        if np.isnan(chk).any():
            raise ValueError(f"column {column!r} has missing values")
        if (chk != np.round(chk)).any():
            raise ValueError(f"column {column!r} must hold whole numbers")
        out = np.nan_to_num(a).astype(np.int64)
    if lo is None and hi is None:
        return out
    chk = out if rows is None or rows.all() else out[rows]
    if lo is not None and chk.size and chk.min() < lo:
        raise ValueError(f"column {column!r} has {chk.min()}, below the smallest valid value {lo}")
    if hi is not None and chk.size and chk.max() > hi:
        raise ValueError(f"column {column!r} has {chk.max()}, above the largest valid value {hi}")
    return out


def int_block(frame: pd.DataFrame, prefix: str, n_seats: int, lo: int | None = None,
              hi: int | None = None, rows: np.ndarray | None = None) -> np.ndarray:
    """Per-seat columns ``prefix_0 … prefix_{n-1}`` as an int64 array of shape (n, n_seats)."""
    if len(frame) == 0:
        return np.zeros((0, n_seats), dtype=np.int64)
    return np.stack([ints(frame, c, lo, hi, rows) for c in seat_columns(prefix, n_seats)], axis=1)


def bools(frame: pd.DataFrame, column: str, rows: np.ndarray | None = None) -> np.ndarray:
    """Column as bool; accepts bool or 0/1 integers, ``ValueError`` otherwise."""
    a = _numbers(frame, column)
    if a is not None and a.dtype == bool:
        return a
    s = frame[column]
    if s.dtype == bool:
        return s.to_numpy()
    if s.dtype == "boolean":  # pandas' nullable booleans
        if s.isna().to_numpy()[slice(None) if rows is None else rows].any():
            raise ValueError(f"column {column!r} has missing values")
        return s.to_numpy(dtype=bool, na_value=False)
    a = ints(frame, column, 0, 1, rows)
    return a.astype(bool)


def bool_block(frame: pd.DataFrame, prefix: str, n_seats: int, rows: np.ndarray | None = None) -> np.ndarray:
    if len(frame) == 0:
        return np.zeros((0, n_seats), dtype=bool)
    return np.stack([bools(frame, c, rows) for c in seat_columns(prefix, n_seats)], axis=1)


def multiplier(frame: pd.DataFrame) -> np.ndarray:
    """The optional ``multiplier`` column (default 1), an integer ≥ 1."""
    if "multiplier" not in frame.columns:
        return np.ones(len(frame), dtype=np.int64)
    return ints(frame, "multiplier", 1)


class Contracts:
    """The ``contract`` column as small integer codes (index into ``valid``).

    Comparing a million strings is slow; factorizing once and comparing codes is not.
    """

    def __init__(self, codes: np.ndarray, valid: Sequence[str]) -> None:
        self.codes = codes
        self.valid = tuple(valid)

    def is_(self, *names: str) -> np.ndarray:
        """bool per row: the contract is one of ``names``."""
        lut = np.zeros(len(self.valid), dtype=bool)
        for name in names:
            lut[self.valid.index(name)] = True
        return lut[self.codes]

    def lookup(self, values: Mapping[str, Any], default: Any = 0) -> np.ndarray:
        """Per-row value of a per-contract table."""
        lut = np.array([values.get(c, default) for c in self.valid])
        return lut[self.codes]


def contracts(frame: pd.DataFrame, valid: Sequence[str], game: str) -> Contracts:
    """The ``contract`` column as :class:`Contracts`; ``ValueError`` lists unknown contracts."""
    require(frame, ["contract"], f"{game} scoring")
    column = frame["contract"]
    if isinstance(column.dtype, pd.CategoricalDtype):  # already coded: no strings to compare
        codes = column.cat.codes.to_numpy()
        uniques = list(column.cat.categories)
        seen = np.bincount(codes[codes >= 0].astype(np.intp), minlength=len(uniques)) > 0
    else:
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
        uniques = list(uniques)
        seen = np.ones(len(uniques), dtype=bool)
    index = {c: i for i, c in enumerate(valid)}
    bad = sorted({repr(u) for u, s in zip(uniques, seen) if s and u not in index})
    if (codes < 0).any():
        bad.append("missing")
    if bad:
        raise ValueError(f"unknown contract(s) {', '.join(bad)} for {game}; valid contracts: {', '.join(valid)}")
    lut = np.array([index.get(u, 0) for u in uniques] or [0], dtype=np.int8)
    return Contracts(lut[codes] if len(codes) else np.zeros(0, dtype=np.int8), valid)


def seat_masks(n_seats: int) -> np.ndarray:
    """bit ``s`` for each seat ``s``, shape (n_seats,)."""
    return (np.int64(1) << np.arange(n_seats, dtype=np.int64))


def mask_matrix(mask: np.ndarray, n_seats: int) -> np.ndarray:
    """bool (n, n_seats): seat ``s`` is in the bit mask."""
    return (np.asarray(mask, dtype=np.int64)[:, None] >> np.arange(n_seats)) & 1 == 1


def side_payouts(on_side: np.ndarray, sign_stake: np.ndarray) -> np.ndarray:
    """Net-zero payouts when the declarer's side wins ``sign_stake`` per stake unit.

    Each member of the larger side (both sides when equal) wins or loses one stake; the
    members of the smaller side share the opposite total equally.  Three players: each
    defender ±stake, the declarer ∓2 stakes; four players alone: ±3 stakes; two against two:
    ±stake each.
    """
    n_seats = on_side.shape[1]
    k = on_side.sum(axis=1).astype(np.float64)
    m = n_seats - k
    s = sign_stake.astype(np.float64)
    # per-member amount for the declarer's side and for the defenders
    side_each = np.where(k >= m, s, s * m / np.maximum(k, 1))
    opp_each = np.where(m >= k, -s, -s * k / np.maximum(m, 1))
    return np.where(on_side, side_each[:, None], opp_each[:, None])


def result_frame(frame: pd.DataFrame, payouts: np.ndarray, extras: Mapping[str, Any]) -> pd.DataFrame:
    """``payout_0 … payout_{n-1}`` (float64) then the extras, on ``frame``'s index."""
    data: dict[str, Any] = {f"payout_{s}": payouts[:, s].astype(np.float64) for s in range(payouts.shape[1])}
    data.update(extras)
    return pd.DataFrame(data, index=frame.index)


def na_bool(values: np.ndarray, defined: np.ndarray) -> pd.arrays.BooleanArray:
    """A nullable boolean array: ``values`` where ``defined``, else ``<NA>``."""
    return pd.arrays.BooleanArray(np.asarray(values, dtype=bool), ~np.asarray(defined, dtype=bool))


def na_int(values: np.ndarray, defined: np.ndarray) -> pd.arrays.IntegerArray:
    """A nullable Int64 array: ``values`` where ``defined``, else ``<NA>``."""
    return pd.arrays.IntegerArray(np.asarray(values, dtype=np.int64), ~np.asarray(defined, dtype=bool))


def put(dst: np.ndarray, src: np.ndarray, rows: np.ndarray) -> None:
    """``dst[rows] = src[rows]``, without the masked copies when every row is selected."""
    if rows.all():
        dst[...] = src
    else:
        dst[rows] = src[rows]
