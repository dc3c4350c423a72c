"""Engine benchmark: Goathead 3p deals x its six bid contracts, solved and scored.

Measures, in one run:

1. the *reference*: ``trickcore.solve_many`` alone on the same deals (the compiled solver,
   no engine, no scoring, no pandas) — what the engine cannot beat;
2. ``analysis.simulate_summary`` with ``n_jobs=1`` and ``n_jobs=2``: deals per second,
   the engine's overhead over the reference (wall and CPU, and — robust to a busy
   machine — the engine's own time outside ``solve_many`` in the same run), the parallel
   speed-up, and the extrapolated time of 1,000,000 deals;  for each ``--policy``: ``dd``
   (exact double-dummy values) and ``dd_payout`` (solved only as far as the payouts need:
   the same payouts, value bands instead of points), and the ratio between them;
3. peak memory of streaming runs of growing size (each in a fresh process, n_jobs=2):
   the high-water RSS of the parent plus every worker process (``VmHWM``), which must stay
   flat as the number of deals grows — so a 10,000,000-deal run needs what these need.

The throughput runs use the engine's default chunk of 16,384 deals
(``analysis.engine.DEFAULT_CHUNK_SIZE``), the chunks a 1,000,000-deal run is cut into, so
the extrapolation carries the per-chunk costs that run pays (``--chunk`` to change it;
smaller chunks pay the fixed costs of a chunk more often).  The default 65,536 deals are
four chunks, two per worker at ``n_jobs=2``; ``--quick`` runs 4,096 deals in chunks of 1,024.

Usage::

    python benches/bench_engine.py --quick     # about two minutes
    python benches/bench_engine.py             # a few minutes
    python benches/bench_engine.py --policy dd_payout
    python benches/bench_engine.py --policy dd_payout --full 1000000   # a real million-deal run

``--full N`` skips the throughput and memory runs above and runs one real N-deal
``simulate_summary`` instead (a fresh process, ``n_jobs=2``, the engine's default chunks):
its wall time and the peak RSS of the parent and every worker — the measured figure the
extrapolations stand in for (``--full 10000000`` for the 10-million-deal memory claim).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

GAME = "goathead3"


def _contracts():
    from analysis import bid_contracts

    return bid_contracts(GAME)


def reference_solver(n: int, seed: int, policy: str) -> tuple[float, float]:
    """(wall s, CPU s) of solve_many on n deals x every bid contract, one core, no engine
    (``dd_payout``: with the scorer's cuts, computed before the clock starts)."""
    from analysis.simulate import _payout_cuts
    from trickcore import get_game
    from trickcore.deals import random_deals
    from trickcore.solver import solve_many

    g = get_game(GAME)
    deals = random_deals(GAME, n, seed=seed)
    cuts = {c: _payout_cuts(g, c, deals, {}, False, None) for c in _contracts()
            if policy == "dd_payout" and g.layout(c).objective == "points"}
    t, cpu = time.perf_counter(), time.process_time()
    for c in _contracts():
        # as the engine does: a band (or Nil's trick count) needs no line of play
        solve_many(GAME, c, deals[:, :3], leader=0, declarer=0, cuts=cuts.get(c), line=policy != "dd_payout")
    return time.perf_counter() - t, time.process_time() - cpu


def engine_run(n: int, n_jobs: int, chunk_size: int, seed: int, policy: str = "dd") -> tuple[float, float, float]:
    """(wall s, CPU s of this process, s inside solve_many: measured with n_jobs=1 only, else NaN)."""
    import trickcore.solver
    from analysis import simulate_summary

    inside = [0.0 if n_jobs == 1 else float("nan")]
    solve_many = trickcore.solver.solve_many

    def timed(*args, **kwargs):  # the engine looks solve_many up at each call
        t0 = time.perf_counter()
        try:
            return solve_many(*args, **kwargs)
        finally:
            inside[0] += time.perf_counter() - t0

    trickcore.solver.solve_many = timed
    try:
        t, cpu = time.perf_counter(), time.process_time()
        s = simulate_summary(GAME, n, seed=seed, n_jobs=n_jobs, chunk_size=chunk_size, progress=False,
                             policy=policy)
        dt = time.perf_counter() - t
        cpu = time.process_time() - cpu
    finally:
        trickcore.solver.solve_many = solve_many
    assert (s["n"] == n).all()
    return dt, cpu, inside[0]


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out + [g for c in out for g in _children(c)]


def _hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def memory_child(n: int, chunk_size: int, n_jobs: int, policy: str) -> None:
    """Run in a fresh process: stream n deals, print the peak RSS of parent + workers (MB)."""
    from analysis import simulate_summary

    pid = os.getpid()
    workers: dict[int, int] = {}

    def sample(chunk, frame):  # after each chunk: record every worker's high-water mark
        for c in _children(pid):
            try:
                workers[c] = max(workers.get(c, 0), _hwm_kb(c))
            except OSError:
                pass

    t = time.perf_counter()
    simulate_summary(GAME, n, seed=1, n_jobs=n_jobs, chunk_size=chunk_size, progress=False, on_chunk=sample,
                     policy=policy)
    dt = time.perf_counter() - t
    sample(None, None)
    parent = _hwm_kb(pid)
    print(json.dumps({"n": n, "parent_mb": parent / 1024, "workers_mb": sum(workers.values()) / 1024,
                      "n_workers": len(workers), "seconds": dt}))


def memory(n: int, chunk_size: int, n_jobs: int, policy: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--memory-child", str(n), str(chunk_size), str(n_jobs), policy],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (about a minute)")
    ap.add_argument("--deals", type=int, help="deals for the throughput runs (default 4 chunks)")
    ap.add_argument("--chunk", type=int, help="chunk size of the throughput runs (default the engine's, 16,384; "
                                              "1,024 with --quick)")
    ap.add_argument("--mem-chunk", type=int, help="chunk size of the memory runs (default 8192; 2048 with --quick)")
    ap.add_argument("--policy", choices=("dd", "dd_payout", "both"), default="both",
                    help="exact double-dummy values, payout-only solving, or both (default)")
    ap.add_argument("--full", type=int, metavar="N",
                    help="only a real N-deal run (n_jobs=2, default chunks): wall time and peak RSS")
    ap.add_argument("--memory-child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_child:
        n_mem, chunk_mem, jobs_mem, policy_mem = args.memory_child
        memory_child(int(n_mem), int(chunk_mem), int(jobs_mem), policy_mem)
        return
    from analysis.engine import DEFAULT_CHUNK_SIZE

    chunk = args.chunk or (1_024 if args.quick else DEFAULT_CHUNK_SIZE)
    if args.full:
        policy = "dd_payout" if args.policy == "both" else args.policy
        r = memory(args.full, chunk, 2, policy)
        print(f"# Engine: {GAME}, {len(_contracts())} bid contracts per deal, {os.cpu_count()} cores, "
              f"one real run of {args.full} deals in chunks of {chunk}, n_jobs=2, policy {policy}")
        print(f"wall time {r['seconds']:.1f} s = {args.full / r['seconds']:.0f} deals/s "
              f"({1e6 * r['seconds'] / args.full:.1f} s per 1,000,000 deals; goal 60 s)")
        print(f"peak RSS: parent {r['parent_mb']:.0f} MB + {r['n_workers']} child processes {r['workers_mb']:.0f} MB "
              f"= {r['parent_mb'] + r['workers_mb']:.0f} MB (goal <= 1 GB)")
        return
    n = args.deals or 4 * chunk
    policies = ("dd", "dd_payout") if args.policy == "both" else (args.policy,)
    print(f"# Engine: {GAME}, {len(_contracts())} bid contracts per deal, {os.cpu_count()} cores, "
          f"{n} deals in chunks of {chunk}")
    if n < 2 * chunk:
        print(f"(n_jobs=2 has {-(-n // chunk)} chunk(s) to share: give --deals >= {2 * chunk} to measure the speed-up)")
    engine_run(min(n, 256), 2, 128, seed=1)   # warm up: start the worker pool once
    rate = {}
    for policy in policies:
        ref, ref_cpu = reference_solver(n, seed=11, policy=policy)
        t1, t1_cpu, t1_solve = engine_run(n, 1, chunk, seed=11, policy=policy)
        t2, _, _ = engine_run(n, 2, chunk, seed=11, policy=policy)
        rate[policy] = n / t2
        print(f"## policy {policy}")
        print(f"reference solve_many alone, 1 core : {n} deals in {ref:7.2f} s = {n / ref:8.0f} deals/s "
              f"(CPU {ref_cpu:.2f} s)")
        print(f"simulate_summary n_jobs=1          : {n} deals in {t1:7.2f} s = {n / t1:8.0f} deals/s "
              f"(x{t1 / ref:.3f} the reference's wall time, x{t1_cpu / ref_cpu:.3f} its CPU time)")
        print(f"  of which outside solve_many      : {t1 - t1_solve:7.2f} s = {100 * (t1 - t1_solve) / t1_solve:.1f}% "
              f"of the {t1_solve:.2f} s inside it ({1e3 * (t1 - t1_solve) / -(-n // chunk):.0f} ms per chunk)")
        print(f"simulate_summary n_jobs=2          : {n} deals in {t2:7.2f} s = {n / t2:8.0f} deals/s "
              f"(speed-up x{t1 / t2:.2f} over n_jobs=1)")
        print(f"1,000,000 deals at the n_jobs=2 rate: {1e6 / (n / t2):7.0f} s (extrapolated, chunks of {chunk}; "
              "goal 60 s)")
    if len(rate) == 2:
        print(f"dd_payout over dd, n_jobs=2: x{rate['dd_payout'] / rate['dd']:.2f} (same payouts and make rates)")
    if not args.quick:
        from analysis import contract_odds

        t, cpu = time.perf_counter(), time.process_time()
        o = contract_odds(GAME, "JC JS AH 10H AC KD", contracts="hearts", n_jobs=2, chunk_size=8192, progress=False)
        dt = time.perf_counter() - t
        print(f"contract_odds exact, one hand, one contract: {int(o.n.iloc[0])} layouts in {dt:.1f} s "
              f"= {o.n.iloc[0] / dt:.0f} layouts/s (n_jobs=2; method {o.attrs['method']})")
    mem_chunk = args.mem_chunk or (2_048 if args.quick else 8_192)
    sizes = [2 * mem_chunk, 4 * mem_chunk]
    rows = [memory(m, mem_chunk, 2, policies[0]) for m in sizes]
    for r in rows:
        print(f"peak RSS ({policies[0]}), {r['n']:>7} deals, chunk {mem_chunk}, n_jobs=2: parent {r['parent_mb']:6.0f} MB + "
              f"{r['n_workers']} child processes {r['workers_mb']:6.0f} MB = {r['parent_mb'] + r['workers_mb']:6.0f} MB "
              f"({r['seconds']:.0f} s)")
    growth = (rows[-1]["parent_mb"] + rows[-1]["workers_mb"]) - (rows[0]["parent_mb"] + rows[0]["workers_mb"])
    print(f"growth from {rows[0]['n']} to {rows[-1]['n']} deals: {growth:+.0f} MB "
          "(flat: a 10,000,000-deal run peaks at the same level with the same chunk size)")


if __name__ == "__main__":
    main()
