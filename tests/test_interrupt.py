"""Ctrl-C inside a long solve: the compiled search polls for signals (trickcore._interrupt).

Each test starts a solve that takes a second or more uninterrupted (a whole Hearts deal
for one seat, a whole Spades deal's fewest tricks) and lets a timer's signal handler raise
a fraction of a second in.  Without the polls the handler could only run once the solve
had returned, so ``partial_result`` would be missing (the exception would come from the
test's own code, after the call) and the solve would have finished every deal.

A ``time_budget`` stops a solve the same way (``TimeoutError``), and either exception
carries what the search had proved: the bounds of the value it was working out and, for
``solve``, the values of the cards finished.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from trickcore import CardSet
from trickcore.deals import random_deals
from trickcore.solver import solve, solve_many

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer (POSIX)")


class Alarm(Exception):
    """What the test's SIGALRM handler raises."""


@contextlib.contextmanager
def raising_after(seconds, exc_type=Alarm, again=None):
    """Inside the block, a SIGALRM handler raises ``exc_type`` in the main thread after
    ``seconds``, and then every ``again`` seconds if given (a user pressing Ctrl-C once
    more); the timer and the old handler are back as the block ends.

    ``again`` is for runs that would go on for long if the exception were lost: Python
    drops an exception that a signal handler raises while a finaliser runs (``__del__``,
    a weakref callback, a generator closed by the garbage collector: "Exception ignored
    in ..."), so once in many runs the first interrupt never reaches the code under test.
    """
    def handler(signum, frame):
        if again is not None:
            signal.setitimer(signal.ITIMER_REAL, again)
        raise exc_type

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def last_tricks(hands, k):
    """Each hand's ``k`` highest cards (an ending of ``k`` tricks; suits need not fit)."""
    out = []
    for h in hands:
        bits = [1 << i for i in range(64) if (int(h) >> i) & 1]
        out.append(sum(bits[-k:]))
    return np.array(out, dtype=np.uint64)


def hard_hearts_deal():
    # seat 0's paranoid fewest points on this whole deal: 19, about 12 million nodes
    return random_deals("hearts", 1, seed=11)[0, :4]


#: seat 0 alone, wanting few points
ALONE = dict(sides=1, goal="min")


def endings_then_the_hard_deal():
    """Four 5-trick Hearts endings (milliseconds each) and then :func:`hard_hearts_deal`;
    and the endings' values, solved on their own."""
    endings = np.array([last_tricks(row[:4], 5) for row in random_deals("hearts", 4, seed=3)])
    alone = solve_many("hearts", "hearts", endings, **ALONE)
    return np.vstack([endings, hard_hearts_deal()[None, :]]), alone.value.tolist()


def test_solve_many_point_kernel_stops_and_keeps_the_deals_before():
    deals, alone = endings_then_the_hard_deal()
    started = time.perf_counter()
    with pytest.raises(Alarm) as info, raising_after(0.25):
        solve_many("hearts", "hearts", deals, **ALONE)
    elapsed = time.perf_counter() - started
    part = info.value.partial_result
    assert len(part) == 4, f"the endings take milliseconds; {len(part)} of them kept after {elapsed:.2f} s"
    # (the values, not the nodes: the call with a whole deal sizes its table for 52 cards)
    assert part.value.tolist() == alone
    assert (part.nodes > 0).all() and (part.side_tricks >= 0).all()
    # the same table afterwards: a later call is unaffected
    again = solve_many("hearts", "hearts", deals[:4], **ALONE)
    assert again.value.tolist() == alone


def test_solve_many_trick_kernel_stops():
    # seat 0's fewest tricks on a whole Spades deal (trick kernel): 6, about 20 million nodes
    deal = random_deals("spades", 4, seed=5)[3:4, :4]
    with pytest.raises(Alarm) as info, raising_after(0.25):
        solve_many("spades", "spades", deal, **ALONE)
    assert len(info.value.partial_result) == 0
    lo, hi = info.value.value_bounds
    assert 0 <= lo <= 6 <= hi <= 13
    if hasattr(info.value, "add_note"):     # Python 3.11+
        assert info.value.__notes__ == [
            "solve_many: the first 0 of 1 deals were solved; the exception's partial_result holds them; "
            f"deal 0's value lies in [{lo}, {hi}] (value_bounds)"]


def test_time_budget_stops_solve_many_with_the_bounds_proved():
    deals, alone = endings_then_the_hard_deal()
    started = time.perf_counter()
    whole = solve_many("hearts", "hearts", deals, **ALONE)
    took = time.perf_counter() - started      # about a second; the first probe a third of it
    assert whole.value.tolist() == alone + [19]
    # a twentieth of the time stops the hard deal, with bounds that hold
    with pytest.raises(TimeoutError) as info:
        solve_many("hearts", "hearts", deals, time_budget=0.05 * took, **ALONE)
    assert info.value.partial_result.value.tolist() == alone
    lo, hi = info.value.value_bounds
    assert 0 <= lo <= 19 <= hi <= 26
    # what the probes finished by then narrows the bounds: at 70% of the work, counted in
    # nodes so that the stop is the same on every run (the same guard ends both budgets;
    # in seconds, a run warmer or less loaded than the one timed could finish)
    budget = int(whole.nodes.sum() * 0.7)
    with pytest.raises(TimeoutError) as info:
        solve_many("hearts", "hearts", deals, node_budget=budget, **ALONE)
    assert info.value.partial_result.value.tolist() == alone
    lo, hi = info.value.value_bounds
    assert 0 <= lo <= 19 <= hi <= 26 and hi - lo < 26, f"no probe finished in {budget} nodes, 70% of them"
    # the trick kernel alike
    with pytest.raises(TimeoutError) as info:
        solve_many("spades", "spades", random_deals("spades", 4, seed=5)[3:4, :4], time_budget=0.1, **ALONE)
    assert 0 <= info.value.value_bounds[0] <= 6 <= info.value.value_bounds[1] <= 13
    for bad in (0, -1, float("nan"), float("inf"), "soon", True):
        with pytest.raises(ValueError, match="time_budget"):
            solve_many("hearts", "hearts", deals[:4], time_budget=bad, **ALONE)


def test_a_batch_of_small_deals_stops_too():
    # every deal is far below the poll's 65,536 nodes: the polls count the batch's nodes
    deals = random_deals("goathead3", 100_000, seed=1)      # some 2 s of 460-node deals
    with pytest.raises(Alarm) as info, raising_after(0.2):
        solve_many("goathead3", "hearts", deals)
    part = info.value.partial_result
    assert 0 < len(part) < len(deals)
    assert part.value[:50].tolist() == solve_many("goathead3", "hearts", deals[:50]).value.tolist()
    # the trick kernel alike, by the time budget: Nil deals of 55 nodes, some 2.7 us each
    deals = random_deals("goathead3", 300_000, seed=2)
    with pytest.raises(TimeoutError) as info:
        solve_many("goathead3", "nil", deals, time_budget=0.05)
    assert 0 < len(info.value.partial_result) < len(deals)
    # (None: stopped between two deals, before the next one had proved anything)
    assert info.value.value_bounds in ((0, 0), (0, 1), (1, 1), None)


def test_contract_odds_time_budget_stops_the_solves_of_a_chunk():
    from analysis import contract_odds

    # seat 0's whole Hearts hand of the hard deal: its layouts take seconds and more each,
    # so no chunk of them is solved within the budget; before session 17 the run went on
    # until a whole chunk was (minutes)
    hand = str(CardSet(int(hard_hearts_deal()[0])))
    with pytest.raises(TimeoutError, match="no chunk of 2 layouts was solved within the time budget of 0.2 s"):
        contract_odds("hearts", hand, method="sample", time_budget=0.2, chunk_size=2, n_jobs=1, progress=False)


def test_time_budget_stops_solve_with_the_cards_finished():
    # a 11-trick Hearts ending for seat 0 alone, whose cards are worth 22 or 23: about 15
    # million nodes for every card's value
    deal = random_deals("hearts", 12, seed=5)[3, :4]
    pos = [str(CardSet(int(h))) for h in last_tricks(deal, 11)]
    started = time.perf_counter()
    full = solve("hearts", "hearts", pos, **ALONE)
    took = time.perf_counter() - started
    assert full.value == 22 and set(full.card_values.values()) == {22, 23}
    stops = []
    for share in (0.35, 0.55, 0.75):    # of the work, in time: the cards are solved in turn
        try:
            solve("hearts", "hearts", pos, time_budget=share * took, **ALONE)
        except TimeoutError as stop:
            stops.append(stop)
    assert stops, f"a solve of {took:.2f} s was never stopped by a budget of a fraction of that"
    for stop in stops:
        lo, hi = stop.value_bounds
        assert 0 <= lo <= 22 <= hi <= 26
        assert set(stop.card_values) < set(full.card_values)
        assert all(full.card_values[card] == v for card, v in stop.card_values.items())
    # by three quarters of the work, some card's value is known or the bounds have moved
    assert any(s.card_values or s.value_bounds != (0, 26) for s in stops)


def test_solve_stops():
    hands = [str(CardSet(int(h))) for h in hard_hearts_deal()]
    with pytest.raises(Alarm) as info, raising_after(0.25):
        solve("hearts", "hearts", hands, sides=1, goal="min")
    # raised inside the search (its handler ran from the kernel's poll), not after it
    assert any(entry.name.endswith(".solve_position") for entry in info.traceback)
    # the kernel is usable at once afterwards
    r = solve("goathead3", "hearts", ["JC AH", "JD KH", "AS AC"])
    assert r.value == 17


def test_cli_solve_exits_130_on_ctrl_c():
    # a deal whose solve runs for many minutes
    hands = [str(CardSet(int(h))) for h in random_deals("hearts", 3, seed=11)[2, :4]]
    argv = ["solve", "hearts", "hearts", "--hands", *hands, "--sides", "1", "--goal", "min"]
    # the child says when its imports are done, so that SIGINT comes during the solve
    # Ctrl-C's handler set as an interactive shell leaves it: a test run started in the
    # background (``pytest &``) passes its children SIGINT ignored, and Python then keeps it so
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from analysis.cli import main; print('ready', flush=True); "
            f"sys.exit(main({argv!r}))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "ready\n"
        time.sleep(0.5)     # parsing the hands takes milliseconds: the search is running
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the solve did not stop on SIGINT")
    assert (proc.returncode, err.strip()) == (130, "trickcore: interrupted")
    # what was proved by then: the value's bounds, the cards whose values were finished
    first, cards = out.splitlines()
    lo, hi = (int(x) for x in first.removeprefix("value between ").split(" and "))
    assert 0 <= lo <= hi <= 26 and cards.startswith("cards")


def test_cli_solve_time_budget_exits_3_with_the_bounds(capsys):
    import json

    from analysis.cli import main
    hands = [str(CardSet(int(h))) for h in random_deals("hearts", 3, seed=11)[2, :4]]
    argv = ["solve", "hearts", "hearts", "--hands", *hands, "--sides", "1", "--goal", "min"]
    assert main([*argv, "--time-budget", "0.2", "--json"]) == 3
    captured = capsys.readouterr()
    shown = json.loads(captured.out)
    assert shown["value"] is None and shown["line"] is None
    lo, hi = shown["value_bounds"]
    assert 0 <= lo <= hi <= 26
    assert captured.err.strip() == "trickcore: the solve's time budget was spent; the value is not exact"
    # a budget of nodes: the same bounds on every run
    assert main([*argv, "--node-budget", "200000"]) == 3
    first = capsys.readouterr()
    assert main([*argv, "--node-budget", "200000"]) == 3
    assert capsys.readouterr() == first
    assert first.out.startswith("value between ")
    assert first.err.strip() == "trickcore: the solve's node budget was spent; the value is not exact"
    assert main([*argv, "--time-budget", "-1"]) == 2
    assert "time_budget must be a positive number" in capsys.readouterr().err
    # odds: no layout of the seat's hand solved in time, exit code 3
    argv = ["odds", "hearts", hands[0], "--time-budget", "0.2", "--chunk-size", "1", "--jobs", "1"]
    assert main(argv) == 3
    assert capsys.readouterr().err.strip().endswith(
        "trickcore: contract_odds: no chunk of 1 layouts was solved within the time budget of 0.2 s; "
        "a larger time budget or a smaller chunk size lets one finish")


def test_contract_odds_interrupted_keeps_the_layouts_sampled(monkeypatch):
    from analysis import contract_odds

    kw = dict(method="sample", target_se=1e-9, chunk_size=256, n_jobs=1, progress=False, seed=4)
    hand = "JC JS AH 10H KH QH"
    # a 256-layout chunk takes some 40 ms: the whole run some 20 s, were every interrupt lost
    with pytest.raises(KeyboardInterrupt) as info, raising_after(1.5, KeyboardInterrupt, again=1.0):
        contract_odds("goathead3", hand, max_deals=256 * 500, **kw)
    part = info.value.partial_result
    assert part.attrs["stopped_by"] == "interrupted"
    n = int(part["n"].iloc[0])
    assert n > 0 and n % 256 == 0           # whole chunks only
    # the same figures as a run asked for exactly that many layouts
    again = contract_odds("goathead3", hand, max_deals=n, **kw)
    assert again.attrs["stopped_by"] == "max_deals"
    np.testing.assert_array_equal(part.to_numpy(), again.to_numpy())


def test_cli_odds_prints_the_figures_so_far_on_ctrl_c(capsys):
    import json

    from analysis.cli import main
    # a 2,048-layout chunk takes some 0.3 s: the whole run some 30 s, were every interrupt lost
    with raising_after(2.0, KeyboardInterrupt, again=1.0):
        rc = main(["odds", "goathead3", "JC JS AH 10H KH QH", "--method", "sample", "--target-se", "1e-9",
                   "--max-deals", str(2048 * 100), "--jobs", "1", "--json"])
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()     # (after the progress bar's lines)
    rows = json.loads(captured.out)
    n = rows[0]["n"]
    assert rc == 130 and n > 0 and n % 2048 == 0 and all(r["n"] == n for r in rows)
    assert err[-2:] == [f"trickcore: the figures above are of the {n} layouts sampled before the interrupt",
                        "trickcore: interrupted"]
