"""Benchmark: re-scoring many rounds under a rule option, rows per second.

Builds random but valid frames (side-level columns for games with a declarer, per-seat
columns for the others), scores each under its default rules and under a flipped option,
and prints rows/s.  The reference is a plain per-row Python loop scoring Goathead (3
players) on a sample, measured in the same run; its results are checked against the
vectorised scorer, and the ratio is printed.

Usage::

    PYTHONPATH=src python benches/bench_scoring.py            # 1,000,000 rows per game
    PYTHONPATH=src python benches/bench_scoring.py --quick    # 100,000 rows
    PYTHONPATH=src python benches/bench_scoring.py --rows 250000 --repeat 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from trickcore.scoring import score


def goathead3_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    contract = rng.choice(["diamonds", "hearts", "nil", "spades", "clubs", "court"], n)
    d = rng.integers(0, 3, n)
    pts = rng.integers(0, 121, n)
    kitty = np.minimum(rng.integers(0, 26, n), 120 - pts)
    return pd.DataFrame({
        "contract": contract, "declarer": d, "side_mask": (1 << d).astype(np.uint8),
        "side_points": pts, "kitty_points": kitty, "side_tricks": rng.integers(0, 7, n),
        "exchanged": rng.random(n) < 0.8, "multiplier": np.ones(n, dtype=np.int64),
    })


def clover_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    d = rng.integers(0, 4, n)
    return pd.DataFrame({
        "contract": rng.choice(["clubs", "diamonds", "hearts", "spades", "notrump"], n), "declarer": d,
        "side_mask": ((1 << d) | (1 << ((d + 2) % 4))).astype(np.uint8), "side_points": rng.integers(-2, 153, n),
        "side_trick_melds": rng.choice([0, 20, 40, 50, 70], n), "opp_trick_melds": rng.choice([0, 20, 40, 50], n),
        "side_hand_melds": rng.choice([0, 20, 50, 100], n), "opp_hand_melds": rng.choice([0, 20, 50, 100], n),
    })


def sheepshead_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    d = rng.integers(0, 5, n)
    partner = np.where(rng.random(n) < 0.1, -1, (d + rng.integers(1, 5, n)) % 5)
    pts = rng.integers(0, 121, n)
    return pd.DataFrame({
        "contract": np.where(partner < 0, "alone", "jd"), "declarer": d, "partner": partner,
        "side_points": pts, "kitty_points": np.minimum(rng.integers(0, 22, n), 120 - pts),
        "multiplier": rng.choice([1, 2, 4], n),
    })


def split(n: int, total: int, parts: int, rng: np.random.Generator) -> np.ndarray:
    """n random compositions of ``total`` into ``parts`` non-negative parts."""
    cuts = np.sort(rng.integers(0, total + 1, (n, parts - 1)), axis=1)
    edges = np.concatenate([np.zeros((n, 1), dtype=np.int64), cuts, np.full((n, 1), total)], axis=1)
    return np.diff(edges, axis=1)


def spades_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    t = split(n, 13, 4, rng)
    b = np.clip(t + rng.integers(-2, 3, (n, 4)), 0, 13)
    return pd.DataFrame({"contract": "spades", **{f"bid_{s}": b[:, s] for s in range(4)},
                         **{f"tricks_{s}": t[:, s] for s in range(4)}})


def hearts_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    h = split(n, 13, 4, rng)
    q = rng.integers(0, 4, n)
    j = rng.integers(0, 4, n)
    cols = {"contract": "hearts", **{f"hearts_{s}": h[:, s] for s in range(4)}}
    cols.update({f"queen_{s}": q == s for s in range(4)})
    cols.update({f"jack_{s}": j == s for s in range(4)})
    return pd.DataFrame(cols)


def ohhell_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    t = split(n, 10, 4, rng)
    b = np.clip(t + rng.integers(-1, 2, (n, 4)), 0, 10)
    return pd.DataFrame({"contract": "spades", **{f"bid_{s}": b[:, s] for s in range(4)},
                         **{f"tricks_{s}": t[:, s] for s in range(4)}})


CASES = [
    ("goathead3", goathead3_frame, {"no_exchange_bonus": "won_only"}),
    ("clover", clover_frame, {"meld_tie": "both"}),
    ("sheepshead", sheepshead_frame, {"crack": False}),
    ("spades", spades_frame, {"sandbags": False}),
    ("hearts", hearts_frame, {"jack_of_diamonds": True}),
    ("ohhell", ohhell_frame, {"trick_points": "exact_only"}),
]


def reference_goathead3(df: pd.DataFrame) -> np.ndarray:
    """Plain per-row Python scorer (default rules): the reference for speed and values."""
    base = {"nil": 2, "court": 2}
    out = np.zeros((len(df), 3))
    for i, r in enumerate(df.itertuples(index=False)):
        total = r.side_points + r.kitty_points
        if r.contract == "nil":
            won, bonus = r.side_tricks == 0, 0
        else:
            won = total >= 61
            if won:
                bonus = 2 if r.side_tricks == 6 else (1 if total >= 90 else 0)
            else:
                bonus = 2 if r.side_tricks == 0 else (1 if total < 31 else 0)
        stake = (base.get(r.contract, 1) + bonus + (0 if r.exchanged else 1)) * r.multiplier
        sign = 1 if won else -1
        for s in range(3):
            out[i, s] = sign * 2 * stake if s == r.declarer else -sign * stake
    return out


def best_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--quick", action="store_true", help="100,000 rows, 2 repeats")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    n = 100_000 if args.quick else args.rows
    repeat = 2 if args.quick else args.repeat
    rng = np.random.default_rng(args.seed)

    print(f"scoring benchmark: {n:,} rows per game, best of {repeat}")
    print(f"{'game':<12}{'rules':<36}{'seconds':>9}{'rows/s':>14}")
    for game, make, flipped in CASES:
        df = make(n, rng)
        for rules in (None, flipped):
            t = best_time(lambda: score(game, df, rules), repeat)
            label = "defaults" if rules is None else ", ".join(f"{k}={v}" for k, v in rules.items())
            print(f"{game:<12}{label:<36}{t:>9.3f}{n / t:>14,.0f}")

    sample = goathead3_frame(min(n, 50_000), rng)
    ref_t = best_time(lambda: reference_goathead3(sample), 1)
    vec_t = best_time(lambda: score("goathead3", sample), repeat)
    ref = reference_goathead3(sample)
    vec = score("goathead3", sample)[["payout_0", "payout_1", "payout_2"]].to_numpy()
    assert np.array_equal(ref, vec), "vectorised Goathead scoring disagrees with the per-row reference"
    print(f"\nreference: per-row Python loop, goathead3, {len(sample):,} rows: "
          f"{len(sample) / ref_t:,.0f} rows/s; vectorised {len(sample) / vec_t:,.0f} rows/s "
          f"(x{ref_t / vec_t:,.0f}); results identical")


if __name__ == "__main__":
    main()
