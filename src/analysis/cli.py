"""The ``trickcore`` command line.

::

    trickcore report [GAME ...] [--deals N] [--out reports/] [--rule NAME=VALUE ...  (one GAME)]
    trickcore solve GAME CONTRACT --hands "..." [--leader N] [--declarer N] [--json]
                    [--time-budget S] [--node-budget N]
    trickcore odds GAME "HAND" [--seat N] [--rule NAME=VALUE ...] [--time-budget S] [--pass]
                   [--bids-before ACTION ...] [--scores S ...] [--fixed SEAT=CARDS ...] [--where "CONDITION" ...]
    trickcore simulate GAME -n N --out DIR [--policy dd|dd_payout|greedy|random]
                       [--fixed SEAT=CARDS ...] [--where "CONDITION" ...] [--json]
    trickcore chance GAME "CONDITION" [--fixed SEAT=CARDS ...] [--given "CONDITION" ...] [--contract C]
                     [--rule NAME=VALUE ...] [--json]
    trickcore review GAME CONTRACT --hands "..." --play "CARDS" [--leader N] [--declarer N]
                     [--perspective side|seat] [--time-budget S] [--json]
    trickcore review GAME --round SEED [--policy heuristic|pimc] [--samples N]
    trickcore review [GAME] --record FILE [--index I] [--perspective side|seat] [--json]
    trickcore play GAME [--seed S] [--rounds N] [--policy heuristic|pimc] [--samples K]
                   [--rule NAME=VALUE ...] [--out FILE]
    trickcore crack "HAND" --seat N (--picker P | --recrack) [--rule NAME=VALUE ...] [--deals N] [--json]
                    [--fixed SEAT=CARDS ...] [--where "CONDITION" ...]
    trickcore hearts-pass "HAND" [--direction left|right|across|none] [--seat N] [--candidate "3 CARDS" ...]
                          [--top K] [--rule NAME=VALUE ...] [--deals N] [--json]
                          [--fixed SEAT=CARDS ...] [--where "CONDITION" ...]
    trickcore advise GAME CONTRACT "HAND" --seat N [--play "CARDS"] [--leader N] [--declarer N]
                     [--known SEAT=CARDS ...] [--kitty CARDS] [--bid N | --bids SEAT=TRICKS ...]
                     [--trumps SEAT=MIN ...] [--where "CONDITION" ...]
                     [--samples N] [--json]

A CONDITION is the text a constraint prints (:func:`analysis.constraints.parse_constraint`):
``"seat 1 holds JD"``, ``"seat 2 holds at least 3 of trumps"``, ``"not the kitty holds any of
hearts"``, ``"seat 0 holds at most 20 card points"``, joined by ``and``, ``or``, ``not`` and
parentheses; ``--fixed`` places known cards (``kitty=CARDS`` for the kitty).

Every sub-command has ``--help``.  Bad arguments (and any ``ValueError`` the library raises
on bad input) print a one-line ``trickcore: error: ...`` and exit with code 2.  Ctrl-C ends
with code 130, and ``solve`` stopped by its ``--time-budget`` or ``--node-budget`` with code
3, both after printing what was proved; ``odds`` exits with 3 when its ``--time-budget``
ends before a first chunk of layouts is solved (else it prints the chunks solved,
"stopped by: time_budget"), and ``advise`` likewise before a first layout.

>>> main(["solve", "goathead3", "hearts", "--hands", "JC AH", "JD KH", "AS AC"])
value 17
cards J♣ 17 A♥ 17
line J♣ K♥ A♣ A♥ J♦ A♠
0
>>> args = build_parser().parse_args(["odds", "goathead3", "JC JS AH 10H KH QH", "--rule", "steal=false"])
>>> args.game, args.hand, parse_rules(args.game, args.rule)
('goathead3', 'JC JS AH 10H KH QH', {'steal': False})
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main", "build_parser", "parse_rules"]


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error format (exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"trickcore: error: {message}\n")


def parse_rules(game_id: str, items: Sequence[str] | None) -> dict[str, Any]:
    """Turn ``NAME=VALUE`` strings into typed rule options of ``game_id``.

    Values are matched against the option's valid choices by their text, so ``true``,
    ``10`` or ``after_broken`` become ``True``, ``10`` and ``'after_broken'``.

    >>> parse_rules("goathead3", ["steal=false"])
    {'steal': False}
    >>> parse_rules("goathead3", ["colour=red"])
    Traceback (most recent call last):
      ...
    ValueError: unknown rule option(s) colour for goathead3; valid options: ...
    """
    from trickcore.games import get_game

    game = get_game(game_id)
    rules: dict[str, Any] = {}
    for item in items or ():
        if "=" not in item:
            raise ValueError(f"rule {item!r} is not NAME=VALUE")
        name, text = (part.strip() for part in item.split("=", 1))
        option = game.options.get(name)
        if option is None:
            game.check_rules({name: text})  # raises with the list of valid options
            raise AssertionError("unreachable")  # pragma: no cover
        matches = [c for c in option.choices if str(c).lower() == text.lower()]
        if not matches:
            valid = ", ".join(str(c) for c in option.choices)
            raise ValueError(f"rule option {name} cannot be {text!r}; valid values: {valid}")
        rules[name] = matches[0]
    return rules


def _cmd_solve(args: argparse.Namespace) -> int:
    import trickcore

    rules = parse_rules(args.game, args.rule)
    try:
        result = trickcore.solve(
            args.game, args.contract, args.hands, leader=args.leader, declarer=args.declarer,
            goal=args.goal, objective=args.objective, sides=args.sides, time_budget=args.time_budget,
            node_budget=args.node_budget, **rules
        )
    except TimeoutError as exc:
        _print_solve_bounds(args, exc)
        print(f"trickcore: {exc}; the value is not exact", file=sys.stderr)
        return 3
    except KeyboardInterrupt as exc:
        _print_solve_bounds(args, exc)
        raise
    if args.json:
        print(json.dumps({
            "game": args.game,
            "contract": args.contract,
            "value": int(result.value),
            "card_values": {str(c): int(v) for c, v in result.card_values.items()},
            "line": [str(c) for c in result.line],
            "nodes": int(result.nodes),
        }, ensure_ascii=False))
    else:
        print(f"value {result.value}")
        print("cards " + " ".join(f"{c} {v}" for c, v in result.card_values.items()))
        print("line " + " ".join(str(c) for c in result.line))
    return 0


def _print_solve_bounds(args: argparse.Namespace, stop: BaseException) -> None:
    """What a solve stopped by its time budget or by Ctrl-C had proved: the value's bounds
    and the cards whose values were finished."""
    bounds = getattr(stop, "value_bounds", None)
    if bounds is None:
        return
    card_values = getattr(stop, "card_values", {})
    if args.json:
        print(json.dumps({
            "game": args.game,
            "contract": args.contract,
            "value": None,
            "value_bounds": list(bounds),
            "card_values": {str(c): int(v) for c, v in card_values.items()},
            "line": None,
        }, ensure_ascii=False))
    else:
        print(f"value between {bounds[0]} and {bounds[1]}")
        print("cards " + " ".join(f"{c} {v}" for c, v in card_values.items()))


def _cmd_review(args: argparse.Namespace) -> int:
    from .review import play_and_review, review_play, review_round

    header = None
    # options of one way of giving the hand only: given with another, they would be ignored
    hand_options = {"--leader": args.leader, "--declarer": args.declarer, "--played": args.played,
                    "--sides": args.sides, "--goal": args.goal}
    round_options = {"--policy": args.policy, "--samples": args.samples}
    if args.record is not None or args.round is not None:
        _refuse_options(hand_options, "with --record or --round (they are for a hand given by --hands and --play)")
    if args.round is None:
        _refuse_options(round_options, "without --round (they choose the players of a round it plays)")
    else:
        _refuse_options({"--perspective": args.perspective},
                        "with --round (its review takes the round's own: its declaring side, or each seat alone)")
    if args.record is not None:
        if args.round is not None or args.contract is not None or args.hands is not None \
                or args.play is not None or args.rule:
            raise ValueError("--record reviews a saved round: give no CONTRACT, --hands, --play, --round or --rule "
                             "with it (the game, contract and rules are the record's)")
        index = 0 if args.index is None else args.index
        record, count = _saved_round(args.record, index)
        if args.game is not None and args.game != record.game:
            raise ValueError(f"round {index} of {args.record} is a {record.game} round, not {args.game}")
        game, contract = record.game, record.contract
        rev = review_round(record, perspective=args.perspective, time_budget=args.time_budget,
                           node_budget=args.node_budget)
        header = (f"round {index} of {args.record} ({game}, {count} round{'s' if count > 1 else ''}): "
                  f"{_round_summary(record)}")
    else:
        if args.index is not None:
            raise ValueError("--index picks a round of --record FILE; give --record too")
        if args.game is None:
            raise ValueError("give GAME (or --record FILE, a saved round)")
        game = args.game
        rules = parse_rules(args.game, args.rule)
        if args.round is not None:
            if args.contract is not None or args.hands is not None or args.play is not None:
                raise ValueError("--round plays a round itself: give no CONTRACT, --hands or --play with it")
            args.policy = args.policy or "heuristic"
            policies = _round_policies(args)
            samples = 20 if args.samples is None else args.samples
            record, rev = play_and_review(args.game, policies, seed=args.round, samples=samples,
                                          node_budget=args.node_budget, time_budget=args.time_budget, **rules)
            contract = record.contract
            header = f"round {args.round} ({args.policy} players): {_round_summary(record)}"
        else:
            if args.contract is None or args.hands is None or args.play is None:
                raise ValueError("give CONTRACT, --hands and --play (a hand to review), --round SEED "
                                 "(a round the players play) or --record FILE (a saved round)")
            contract = args.contract
            rev = review_play(
                args.game, args.contract, args.hands, args.play, leader=args.leader or 0,
                declarer=args.declarer or 0, played=args.played, sides=args.sides, goal=args.goal,
                perspective=args.perspective or "side", time_budget=args.time_budget, node_budget=args.node_budget,
                **rules
            )
    _print_review(rev, game, contract, header, args.json)
    return 0


def _refuse_options(options: dict[str, Any], why: str) -> None:
    """``ValueError`` naming the options of ``options`` that were given (not None)."""
    given = [name for name, value in options.items() if value is not None]
    if given:
        raise ValueError(f"{' and '.join(given)} cannot be used {why}")


def _print_review(rev: Any, game: str, contract: str | None, header: str | None, as_json: bool) -> None:
    """The review's table, the declarer's side's values and the summary per seat (or JSON)."""
    if as_json:
        print(json.dumps({
            "game": game, "contract": contract, "perspective": rev.perspective,
            "side": rev.side, "goal": rev.goal, "objective": rev.objective,
            "start": rev.start, "result": rev.result,
            "moves": json.loads(rev.moves.to_json(orient="records", force_ascii=False)),
        }, ensure_ascii=False))
        return
    if header:
        print(header)
    if rev.note:
        print(rev.note)
    cols = ["trick", "seat", "card", "team", "before", "after", "loss", "best_cards"]
    if "ev_loss" in rev.moves:
        cols += ["ev_loss", "ev_best_cards"]
    print(rev.moves[cols].to_string(index=False, na_rep="-", float_format=lambda v: f"{v:.3g}"))
    print()
    if rev.perspective == "side" and rev.side:
        start = "unknown (stopped)" if rev.start is None else rev.start
        taken = "" if rev.result is None else f", taken {rev.result}"
        seats = [str(s) for s in range(rev.side.bit_length()) if rev.side >> s & 1]
        who = f"seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}"
        print(f"{rev.objective} of the declarer's side ({who}): double-dummy value at the start "
              f"{start}{taken}")
    print(rev.summary().to_string(float_format=lambda v: f"{v:.3g}"))


def _saved_round(path: str, index: int) -> tuple[Any, int]:
    """Round ``index`` of the record file ``path`` and how many rounds the file holds."""
    from trickcore.rounds import load_records

    try:
        records = load_records(path)
    except OSError as exc:
        raise ValueError(f"cannot read the record file {path}: {exc.strerror or exc}") from None
    if not records:
        raise ValueError(f"{path} holds no rounds")
    if not 0 <= index < len(records):
        raise ValueError(f"--index {index} is out of range: {path} holds {len(records)} "
                         f"round{'s' if len(records) > 1 else ''}, index 0 to {len(records) - 1}")
    return records[index], len(records)


def _bids_text(record: Any) -> str:
    """A round's bids, announcements and calls, in order, on one line."""
    return "; ".join(f"seat {s} {p} {v}" for s, p, v in record.bids) or "none"


def _round_summary(record: Any) -> str:
    """The contract, the declarer and the bids of a round, on one line."""
    return (f"contract {record.contract}, declarer {'-' if record.declarer is None else record.declarer}; "
            f"bids: {_bids_text(record)}")


def _cmd_play(args: argparse.Namespace) -> int:
    import numpy as np

    from trickcore.games import get_game
    from trickcore.rounds import play_round, save_records

    rules = parse_rules(args.game, args.rule)
    n = get_game(args.game).n_seats
    if args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, not {args.rounds}")
    if args.pimc_samples is not None and args.policy != "pimc":
        raise ValueError("--samples sets the PIMC players' deals a decision: give --policy pimc with it")
    if args.out is not None:     # before the play, which can take long: where the file goes
        folder = os.path.dirname(os.path.abspath(args.out))
        if os.path.isdir(args.out) or not os.path.isdir(folder):
            raise ValueError(f"--out {args.out}: " + ("a directory, not a file" if os.path.isdir(args.out)
                                                      else f"no directory {folder}"))
    try:
        children = np.random.SeedSequence(args.seed).spawn(args.rounds)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad seed {args.seed!r}: {exc}") from None
    records = []
    for i, child in enumerate(children):
        # round i deals from the i-th child of SeedSequence(--seed), as the i-th round of
        # play_match does; PIMC players draw from a child of that child
        (players,) = child.spawn(1)
        policies = _round_policies(args, seeds=[int(x) for x in players.generate_state(n)])
        record = play_round(args.game, policies, seed=child, dealer=i % n, round_index=i, **rules)
        records.append(record)
        print(f"round {i} (dealer {record.dealer}): {_round_result(record)}")
    if args.out is not None:
        save_records(records, args.out)
        print(f"saved {len(records)} round{'s' if len(records) > 1 else ''} to {args.out}")
    return 0


def _round_result(record: Any) -> str:
    """One line of ``trickcore play``: contract, declarer, bids, points, tricks, payouts."""
    def numbers(values: Sequence[float], sign: str = "") -> str:
        return " ".join(f"{v + 0:{sign}g}" for v in values)     # (+ 0: no "-0")

    what = f"thrown in; bids: {_bids_text(record)}" if record.thrown_in else _round_summary(record)
    return (f"{what}; points {numbers(record.points)}; tricks {numbers(record.trick_counts)}; "
            f"payouts {numbers(record.payouts, '+')}")


def _round_policies(args: argparse.Namespace, seeds: Sequence[int] | None = None) -> list[Any]:
    """One ``--policy`` player per seat; PIMC players seeded by ``seeds`` (default: from
    ``--round``) with ``--samples`` deals a decision where ``play`` gives it."""
    from trickcore.games import get_game
    from trickcore.policies import HeuristicPolicy, PIMCPolicy

    n = get_game(args.game).n_seats
    if args.policy == "pimc":
        if seeds is None:
            seeds = [args.round * 100 + s for s in range(n)]
        samples = getattr(args, "pimc_samples", None)
        kwargs = {} if samples is None else {"samples": samples}
        return [PIMCPolicy(seed=seeds[s], **kwargs) for s in range(n)]
    return [HeuristicPolicy() for _ in range(n)]


def _cmd_odds(args: argparse.Namespace) -> int:
    import analysis

    rules = parse_rules(args.game, args.rule)
    kwargs: dict[str, Any] = {
        "seat": args.seat, "rules": rules, "seed": args.seed, "method": args.method,
        "contracts": args.contract, "kitty_policy": args.kitty_policy, "n_jobs": args.jobs,
        "target_se": args.target_se, "target_ev_se": args.target_ev_se, "bags": args.bags,
        "stakes": args.stakes,
    }
    contract = args.contract[0] if args.contract and len(args.contract) == 1 else None
    conditions = _conditions(args, args.game, contract, rules)
    if "fixed" in conditions:
        kwargs["fixed"] = conditions["fixed"]
    earlier = None   # Sheepshead / Goathead: the earlier seats' actions (checked by the library)
    if args.bids_before is not None:
        if args.game in analysis.passing.PASS_GAMES:
            earlier = list(args.bids_before)
        else:
            kwargs["bids_before"] = _bids_total(args.game, args.bids_before)
    if args.max_deals is not None:
        kwargs["max_deals"] = args.max_deals
    if args.time_budget is not None:
        kwargs["time_budget"] = args.time_budget
    if args.chunk_size is not None:
        kwargs["chunk_size"] = args.chunk_size
    if args.policy != "dd":
        kwargs["policy"] = args.policy
    pass_table = None
    if args.scores is not None:
        if args.game not in ("goathead3", "goathead4"):
            raise ValueError("--scores matters only for Goathead's steals (goathead3, goathead4)")
        if args.bids_before is None and not args.pass_odds:
            raise ValueError("--scores is read by --pass and --bids-before (who may steal); give one of them")
    if args.pass_deals is not None and not args.pass_odds:
        raise ValueError("--pass-deals is the sample size of --pass; give --pass too")
    if args.pass_odds:
        # first, so a bad combination (another game, the dealer under dealer_picks) ends
        # before the contract table is computed
        if args.game not in analysis.passing.PASS_GAMES:
            raise ValueError(f"--pass is implemented for sheepshead, goathead3 and goathead4 only (the "
                             f"pick-or-pass decision, the first bid-or-pass); "
                             f"got {args.game}")
        pass_kwargs: dict[str, Any] = {"seat": args.seat, "rules": rules, "seed": args.seed,
                                       "bids_before": earlier, "stakes": args.stakes}
        if args.scores is not None:
            pass_kwargs["scores"] = args.scores
        if args.pass_deals is not None:
            pass_kwargs["n_deals"] = args.pass_deals
        pass_kwargs.update(conditions)
        pass_table = analysis.pass_odds(args.game, args.hand, **pass_kwargs)
        if args.seat and earlier is None:
            # "if you pick" on the same footing as "if you pass": the seats before passed
            kwargs["constraints"] = analysis.passing.earlier_seats_pass(args.game, args.seat, rules)
    if earlier is not None:
        # the contract table on the same footing: the earlier seats acted as given (checked
        # against the rules here too, before any sampling)
        kwargs["constraints"] = analysis.passing.earlier_seats_bid(args.game, args.seat, earlier, rules,
                                                                   scores=args.scores)
    where = conditions.get("constraints")
    if where:   # with the earlier seats' actions, if those set constraints above
        kwargs["constraints"] = [kwargs["constraints"], *where] if "constraints" in kwargs else where
    try:
        table = analysis.contract_odds(args.game, args.hand, **kwargs)
    except TimeoutError as exc:
        # the budget ran out before a first chunk of layouts was solved: nothing to print
        print(f"trickcore: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt as exc:
        # Ctrl-C while sampling: print the figures so far, then end as interrupted
        partial = getattr(exc, "partial_result", None)
        if partial is not None:
            _print_odds(partial, args.json)
            print(f"trickcore: the figures above are of the {int(partial['n'].max())} layouts sampled "
                  "before the interrupt", file=sys.stderr)
        raise
    _print_odds(table, args.json)
    if pass_table is not None:
        _print_pass(pass_table, args.json)
    return 0


def _cmd_crack(args: argparse.Namespace) -> int:
    from .cracking import crack_odds, recrack_odds

    if (args.picker is None) == (not args.recrack):
        raise ValueError("give --picker P (an earlier seat picked: should you crack?) or --recrack (you picked: "
                         "should you re-crack?), one of them")
    kwargs: dict[str, Any] = {"seat": args.seat, "rules": parse_rules("sheepshead", args.rule), "seed": args.seed,
                              "leader": args.leader}
    if args.deals is not None:
        kwargs["n_deals"] = args.deals
    kwargs.update(_conditions(args, "sheepshead", None, kwargs["rules"]))
    table = recrack_odds(args.hand, **kwargs) if args.recrack else crack_odds(args.hand, picker=args.picker, **kwargs)
    a = table.attrs
    if args.json:
        _print_table_json(table)
        return 0
    who = "you picked" if args.recrack else f"seat {a['picker']} picked"
    before = "you" if args.recrack else "it"
    verb = "re-cracking" if args.recrack else "cracking"
    print(f"Sheepshead, seat {a['seat']} holding {a['hand']}, {who} (the seats before {before} passed: "
          f"{a['acceptance']:.1%} of {a['n_drawn']} layouts drawn); payouts double dummy, {a['level']:.0%} intervals:")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}", na_rep="-"))
    print(f"expected payout: never {verb} {a['ev_never']:.3f}, {verb} as HeuristicPolicy does "
          f"{a['ev_heuristic']:.3f}, as advised {a['ev_advised']:.3f} (optimistic: chosen on the same layouts)")
    return 0


def _cmd_hearts_pass(args: argparse.Namespace) -> int:
    from .hearts_pass import hearts_pass_odds

    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1; got {args.top}")
    kwargs: dict[str, Any] = {"seat": args.seat, "rules": parse_rules("hearts", args.rule), "seed": args.seed,
                              "candidates": args.candidate}
    kwargs.update(_conditions(args, "hearts", None, kwargs["rules"]))
    if args.deals is not None:
        kwargs["n_deals"] = args.deals
    table = hearts_pass_odds(args.hand, args.direction, **kwargs)
    a = table.attrs
    shown = table if args.top is None else table.head(args.top)
    if args.json:
        _print_table_json(table, shown)
        return 0
    if a["direction"] == "none":
        print(f"Hearts, seat {a['seat']} holding {a['hand']}, a round without passing: expected penalty points "
              f"over {a['n_deals']} layouts played out greedily, {a['level']:.0%} intervals:")
    else:
        print(f"Hearts, seat {a['seat']} holding {a['hand']}, passing {a['direction']} to seat {a['to']} "
              f"(seat {a['from']} passes to you as HeuristicPolicy): expected penalty points over {a['n_deals']} "
              f"layouts played out greedily, {a['level']:.0%} intervals, diff against the best pass on the same "
              "layouts:")
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if len(shown) < len(table):
        print(f"({len(table) - len(shown)} more passes not shown; --top to show more)")
    return 0


def _cmd_advise(args: argparse.Namespace) -> int:
    from .advice import card_odds

    from .constraints import Count, trumps

    known = _seat_map(_seat_values(args.known, "--known", "SEAT=CARDS", '2="QC JD"'), "--known")
    rules = parse_rules(args.game, args.rule)
    made = [(s, int(t)) for s, t in _seat_values(args.bids, "--bids", "SEAT=TRICKS for every bid in order",
                                                   "1=3 2=4 3=2 0=3", whole=True)]
    least = _seat_values(args.trumps, "--trumps", "SEAT=MIN", "0=4 (seat 0 held four trumps or more)", whole=True)
    assumed = []
    if least:
        cards = trumps(args.game, args.contract, **rules)
        if not cards:
            raise ValueError(f"{args.game} {args.contract!r} has no trumps for --trumps to count")
        assumed = [Count(s, cards, min=int(m)) for s, m in least]
    assumed += _where(args.where, args.game, args.contract, rules)
    try:
        table = card_odds(args.game, args.contract, args.hand, seat=args.seat, play=args.play or (),
                          leader=args.leader, declarer=args.declarer, known=known or None, kitty=args.kitty,
                          bid=args.bid, bids=made or None, where=assumed or None, exchanged=args.exchanged,
                          multiplier=args.multiplier, rules=rules, method=args.method, samples=args.samples,
                          exact_limit=args.exact_limit, seed=args.seed, time_budget=args.time_budget)
    except KeyboardInterrupt as stop:
        partial = getattr(stop, "partial_result", None)
        if partial is None:
            raise
        _print_advice(args, partial)
        print("trickcore: interrupted; the layouts above are those solved before it", file=sys.stderr)
        return 130
    except TimeoutError as stop:
        print(f"trickcore: {stop}", file=sys.stderr)
        return 3
    _print_advice(args, table)
    return 0


def _seat_values(items: Sequence[str] | None, flag: str, form: str, example: str, whole: bool = False,
                 kitty: bool = False, text: bool = False) -> list[tuple[Any, str]]:
    """``SEAT=VALUE`` arguments of ``flag`` as ``(seat, value)`` pairs in order; the value a
    whole number where ``whole``, some text where ``text``, else any text; with ``kitty``
    the seat may be ``kitty`` (then ``"kitty"``).  ``ValueError`` naming the form otherwise."""
    out: list[tuple[Any, str]] = []
    for item in items or ():
        seat, sep, value = item.partition("=")
        key = seat.strip().lower()
        if (not sep or not (key.isdigit() or (kitty and key == "kitty"))
                or (whole and not value.strip().isdigit()) or (text and not value.strip())):
            raise ValueError(f"{flag} takes {form}, e.g. {example}; got {item!r}")
        out.append((key if key == "kitty" else int(key), value))
    return out


def _seat_map(pairs: list[tuple[Any, str]], flag: str) -> dict[Any, str]:
    """:func:`_seat_values`' pairs as ``{seat: value}``; a seat named twice is a ``ValueError``."""
    out: dict[Any, str] = {}
    for seat, value in pairs:
        if seat in out:
            raise ValueError(f"{flag} names {'the kitty' if seat == 'kitty' else f'seat {seat}'} twice")
        out[seat] = value
    return out


def _where(items: Sequence[str] | None, game: str, contract: str | None, rules: dict) -> list[Any]:
    """The ``--where`` conditions, each read by :func:`analysis.constraints.parse_constraint`
    (all must hold); ``trumps`` in them means ``contract``'s."""
    from .constraints import parse_constraint

    return [parse_constraint(text, game, contract, **rules) for text in items or ()]


def _fixed(items: Sequence[str] | None) -> dict[Any, str]:
    """The ``--fixed SEAT=CARDS`` arguments as ``{seat: cards}`` (``"kitty"`` for the kitty)."""
    return _seat_map(_seat_values(items, "--fixed", "SEAT=CARDS (SEAT a number or kitty)", '1="JD AH"',
                                  kitty=True, text=True), "--fixed")


def _conditions(args: argparse.Namespace, game: str, contract: str | None, rules: dict) -> dict[str, Any]:
    """The library's ``constraints=`` and ``fixed=`` from ``--where`` and ``--fixed``, each
    only when given."""
    out: dict[str, Any] = {}
    where, fixed = _where(args.where, game, contract, rules), _fixed(args.fixed)
    if where:
        out["constraints"] = where
    if fixed:
        out["fixed"] = fixed
    return out


def _add_conditions(p: argparse.ArgumentParser, fixed: bool = True) -> None:
    """``--where`` (and ``--fixed``) for the sub-commands that deal the cards nobody sees."""
    if fixed:
        p.add_argument("--fixed", action="append", metavar="SEAT=CARDS",
                       help='cards known to lie in a seat\'s hand (or kitty=CARDS), e.g. 1="JD AH" (repeatable)')
    p.add_argument("--where", action="append", metavar="CONDITION",
                   help='deal only layouts where this holds, e.g. "seat 1 holds JD", "seat 2 holds at least 3 of '
                        'trumps", "not seat 3 holds any of hearts", "seat 0 holds at most 20 card points"; '
                        "and / or / not / parentheses combine clauses (repeatable: all must hold; "
                        "analysis.constraints.parse_constraint)")


def _print_advice(args: argparse.Namespace, table: Any) -> None:
    a = table.attrs
    if args.json:
        _print_table_json(table)
        return
    how = (f"every one of the {a['layouts']:,} layouts" if a["exact"]
           else f"{a['layouts']:,} layouts drawn at random (95% intervals)")
    if "n_eff" in a:
        how += f", weighed by the bids (effective layouts {a['n_eff']:,.1f})"
    wish = {"higher": "higher is better for you", "lower": "lower is better for you",
            "mixed": "your side differs between layouts: compare the payouts"}[a["better"]]
    print(f"{args.game} {args.contract}, seat {args.seat} to play: each card, then double-dummy play, over {how}")
    print(f"value: {a['reference']} ({wish}); best: share of layouts where the card is best; "
          "loss: what it gives away there; diff: against the first card on the same layouts"
          + (" (your payout)" if "payout" in table.columns else ""))
    shown = table.drop(columns=[c for c in table.columns if c.endswith(("_lo", "_hi"))]) if a["exact"] else table
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if a["stopped"]:
        print("stopped early: the figures are those of the layouts solved in time")


def _print_table_json(table: Any, rows: Any = None) -> None:
    """One JSON object: the table's ``attrs`` (but the game, which the command names) and
    ``rows`` (default: all of the table's) as records."""
    attrs = {k: v for k, v in table.attrs.items() if k != "game"}
    shown = table if rows is None else rows
    print(json.dumps({"attrs": attrs, "rows": json.loads(shown.to_json(orient="records"))}, ensure_ascii=False))


def _bids_total(game: str, values: Sequence[str]) -> int:
    """``--bids-before`` of a trick-bid game: one whole number, the sum of the earlier bids."""
    if len(values) != 1:
        raise ValueError(f"--bids-before for {game} is one whole number (Oh Hell with no_equal_total: the sum of "
                         f"the bids before the dealer's); got {' '.join(values)}")
    try:
        return int(values[0])
    except ValueError:
        raise ValueError(f"--bids-before for {game} is one whole number (Oh Hell with no_equal_total: the sum "
                         f"of the bids before the dealer's); got {values[0]!r}") from None


def _print_pass(table: Any, as_json: bool) -> None:
    """The rows of :func:`analysis.pass_odds`, after the contract table."""
    if as_json:
        print(table.to_json(orient="records"))
        return
    a = table.attrs
    acts = a.get("bids_before")
    before = ("passed" if acts is None or all(x == "pass" for x in acts)
              else "acted " + ", ".join(f"{x} (seat {i})" for i, x in enumerate(acts)))
    print()
    print(f"if you pass (seat {a['seat']}, dealer {a['dealer']}, no_pick={a['no_pick']}; the seats before you "
          f"{before}: {a['acceptance']:.1%} of {a['n_drawn']} layouts drawn; the contract table above "
          f"assumes the same):" if a["seat"] else f"if you pass (seat 0, dealer {a['dealer']}, "
          f"no_pick={a['no_pick']}):")
    high = [x for x in acts or () if x not in ("pass", "steal")]
    if high:
        print(f"(the table above lists every contract; after {high[-1]} only a higher one, or a steal where "
              f"the scores allow it, is yours to bid)")
    print(table.drop(columns="method").to_string(index=False))
    lo, hi = a["ev_bounds"]
    if lo != hi:
        print(f"ev of passing between {lo:.3f} and {hi:.3f} (a leaster's payout is not evaluated)")


def _print_odds(table: Any, as_json: bool) -> None:
    if as_json:
        print(table.to_json(orient="records"))
    else:
        print(table.to_string())
        stopped = table.attrs.get("stopped_by")
        if stopped:
            print(f"stopped by: {stopped}")


def _cmd_simulate(args: argparse.Namespace) -> int:
    import analysis

    rules = parse_rules(args.game, args.rule)
    where = _where(args.where, args.game, None, rules)
    # the chunks stream to the store, and each (fresh or already stored) is reduced to a
    # few sums for the summary, so memory does not grow with -n
    summary = analysis.simulate_summary(
        args.game, args.n, seed=args.seed, rules=rules, n_jobs=args.jobs, store=args.out,
        backend=args.backend, policy=args.policy, fixed=_fixed(args.fixed) or None, where=where or None,
    )
    if args.json:
        print(json.dumps({"game": args.game, "n": args.n, "out": args.out,
                          "rows": json.loads(summary.to_json(orient="records"))}))
        return 0
    print(f"wrote {args.n} deals of {args.game} to {args.out} (analysis.store.read_store reads them back); "
          "per contract, 95% intervals:")
    shown = ["contract", "n", "p_make", "p_make_lo", "p_make_hi", "declarer_payout", "declarer_payout_lo",
             "declarer_payout_hi", "side_points"]
    print(summary[[c for c in shown if c in summary.columns]].to_string(index=False,
                                                                      float_format=lambda v: f"{v:.4f}"))
    return 0


def _cmd_chance(args: argparse.Namespace) -> int:
    from .odds import deal_probability

    rules = parse_rules(args.game, args.rule)
    event = _where([args.event], args.game, args.contract, rules)[0]
    given = _where(args.given, args.game, args.contract, rules)
    fixed = _fixed(args.fixed)
    r = deal_probability(args.game, event, fixed=fixed or None, given=given or None, rules=rules,
                         method=args.method, n=args.deals, seed=args.seed)
    if args.json:
        print(json.dumps({"event": repr(event), "given": [repr(c) for c in given], "fixed": fixed, **r}))
        return 0
    from .constraints import KITTY, Holds

    known = [Holds(KITTY if seat == "kitty" else seat, cards) for seat, cards in fixed.items()]
    condition = ", ".join(map(repr, [*known, *given]))
    where = f" | {condition}" if condition else ""
    if r["method"] == "exact":
        print(f"P({event!r}{where}) = {r['p']:.4f} (exact: every one of the {r['n']:,} deals)")
    else:
        print(f"P({event!r}{where}) = {r['p']:.4f} [{r['lo']:.4f}, {r['hi']:.4f}] (95% interval, {r['n']:,} "
              "deals drawn)")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from analysis.report import write_report

    rules = None
    if args.rule:
        if len(args.games) != 1:
            raise ValueError("--rule sets options of one game: name exactly one GAME with it")
        rules = parse_rules(args.games[0], args.rule)
    index = write_report(games=args.games or None, n_deals=args.deals, out=args.out, seed=args.seed,
                         n_jobs=args.jobs, rules=rules)
    print(f"report written: {index}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from trickcore.games import GAME_IDS

    parser = _Parser(prog="trickcore", description="Odds, double-dummy values and balance reports "
                     "for trick-taking card games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("report", help="write the balance report (HTML + Markdown per game)")
    p.add_argument("games", nargs="*", choices=[*GAME_IDS, []], metavar="GAME",
                   help=f"games to include (default: all of {', '.join(GAME_IDS)})")
    p.add_argument("--deals", type=int, default=None, help="deals per game (default: the report's own)")
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=-1, help="parallel workers (default: all cores)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="a rule option of the one GAME named (repeatable): its page under your house rules, "
                        "its rule variants flipped from them")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("solve", help="double-dummy value, each legal card's value and the optimal line")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("contract")
    p.add_argument("--hands", nargs="+", required=True, help='one hand per seat, e.g. "JC AH TH"')
    p.add_argument("--leader", type=int, default=0)
    p.add_argument("--declarer", type=int, default=0)
    p.add_argument("--sides", type=int, default=None, metavar="MASK",
                   help="seat bit mask of the declarer's side (default: the contract's rule), e.g. 1 for seat 0 alone")
    p.add_argument("--goal", choices=("max", "min"), default=None,
                   help="what the declarer's side wants (default: the contract's)")
    p.add_argument("--objective", choices=("points", "tricks", "nil"), default=None,
                   help='what is counted (default: the contract\'s); "nil": can the side take no trick at all')
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--time-budget", type=float, default=None, metavar="S",
                   help="stop after S seconds of search, print the value's bounds and the cards' values "
                        "proved by then, and exit with code 3 (Ctrl-C prints them too, exit code 130)")
    p.add_argument("--node-budget", type=int, default=None, metavar="N",
                   help="as --time-budget, after N search nodes: the same stop and bounds on every machine")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("odds", help="each contract's make probability and expected payout for a hand",
                       description="Each contract's make probability and expected payout for a hand, double "
                                   "dummy on layouts of the unseen cards.  Hearts: a whole deal takes seconds to "
                                   "minutes to solve for one seat; `trickcore hearts-pass HAND --direction none` "
                                   "plays the layouts out greedily instead (and compares passes).  Oh Hell: a "
                                   "13-card layout takes 20-30 s (the seat's fewest tricks); --time-budget or "
                                   "--max-deals bound the run.")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("hand")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--contract", action="append", metavar="NAME", help="only these contracts (repeatable)")
    p.add_argument("--method", choices=("auto", "exact", "sample"), default="auto",
                   help="enumerate every layout of the unseen cards, sample, or decide by their count")
    p.add_argument("--target-se", type=float, default=0.005,
                   help="sampling stops once the make probabilities have this standard error ...")
    p.add_argument("--target-ev-se", type=float, default=None,
                   help="... and the expected payouts this one (payout units; default: relative)")
    p.add_argument("--bags", type=int, default=0,
                   help="Spades: the team's bags before this hand (for the bag roll-over)")
    p.add_argument("--bids-before", nargs="+", default=None, metavar="BID",
                   help="the earlier seats' bids.  Oh Hell with no_equal_total: one number, the sum of the "
                        "bids before the dealer's.  Goathead (and Sheepshead): one action per seat before "
                        "--seat, in order, each a contract, pass or steal (e.g. --bids-before hearts pass): "
                        "the contract table and --pass assume the seats before you acted so by the heuristic "
                        "(analysis.passing.earlier_seats_bid); default: they passed (with --pass)")
    p.add_argument("--max-deals", type=int, default=None, help="sampling budget")
    p.add_argument("--time-budget", type=float, default=None, metavar="SECONDS",
                   help="stop sampling after this many seconds, the solves of a chunk of layouts too, and "
                        "print the chunks solved by then (the figures then depend on the machine's speed; "
                        "13-card Hearts layouts take seconds to minutes each); exit code 3 if none was")
    p.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help="layouts per chunk, the unit of parallel work and of a stopped run "
                        "(default: the game's, 4 for 13-card Hearts and Oh Hell from 9 cards)")
    p.add_argument("--kitty-policy", default="heuristic", help='"heuristic", "dd_best" (optimistic) or "none"')
    p.add_argument("--stakes", choices=("base", "heuristic"), default="base",
                   help="Sheepshead: payouts at the unit stake (base) or times the blitzes and cracks "
                        "heuristic players declare on each layout (heuristic; column multiplier)")
    p.add_argument("--policy", choices=("dd", "dd_payout", "paranoid"), default="dd",
                   help='"dd_payout" (Goathead, Sheepshead): each layout solved only as far as its payout '
                        "needs, the same make rates and payouts with 3-4x less CPU on Sheepshead, without the "
                        'points column; "paranoid": the seat alone against all for a contract without a declarer '
                        "(Goathead's and Sheepshead's leasters; analysis.paranoid)")
    p.add_argument("--jobs", type=int, default=-1, help="parallel workers (default: all cores)")
    p.add_argument("--pass", dest="pass_odds", action="store_true",
                   help="Sheepshead, goathead3, goathead4: also the expected payout of passing "
                        "instead of picking / bidding at your first turn (analysis.pass_odds), printed "
                        "after the contract table (with --json: a second line of records)")
    p.add_argument("--scores", type=float, nargs="+", default=None, metavar="SCORE",
                   help="Goathead: the match scores, one per seat, which decide who may steal (default: all "
                        "equal, so nobody may); read by --pass and --bids-before")
    p.add_argument("--pass-deals", type=int, default=None, metavar="N",
                   help="layouts sampled for --pass (default 2000 Sheepshead, 1000 Goathead)")
    _add_conditions(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_odds)

    p = sub.add_parser("review", help="a played hand card by card: what each card gave away against double-dummy "
                       "play (and, with --round, against what its player could know)")
    p.add_argument("game", nargs="?", default=None, choices=GAME_IDS, metavar="GAME",
                   help="the game (optional with --record, whose rounds name theirs)")
    p.add_argument("contract", nargs="?", default=None, help="the contract played (not with --round)")
    p.add_argument("--hands", nargs="+", default=None,
                   help='one hand per seat at the start of play (or of a later trick), e.g. "JC AH TH"')
    p.add_argument("--play", default=None, help='the cards played, in order from the first lead, e.g. "AS 10S QS"')
    p.add_argument("--leader", type=int, default=None, help="the seat that led the first card (default 0)")
    p.add_argument("--declarer", type=int, default=None, help="(default 0)")
    p.add_argument("--played", default=None, help="for an ending: the cards of the earlier tricks")
    p.add_argument("--sides", type=int, default=None, metavar="MASK",
                   help="seat bit mask of the reference side (default: the declarer's side by the contract's rule)")
    p.add_argument("--goal", choices=("max", "min"), default=None,
                   help="what the reference side wants (default: the contract's)")
    p.add_argument("--perspective", choices=("side", "seat"), default=None,
                   help='"side" (default): one reference side for the whole hand; "seat": each card from its own '
                        "seat, alone against the others (Hearts, leasters); with --record the default is the "
                        "round's own: its declaring side, or seat by seat where there is none")
    p.add_argument("--round", type=int, default=None, metavar="SEED",
                   help="instead of a given hand: deal round SEED, let --policy players bid and play it, and "
                        "review every card also by what its player could know (--samples deals of the unseen "
                        "cards, analysis.play_and_review)")
    p.add_argument("--policy", choices=("heuristic", "pimc"), default=None,
                   help="the players of --round (default heuristic)")
    p.add_argument("--samples", type=int, default=None, help="deals a card for --round's informed values (default 20)")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="instead of a given hand: review a round saved by `trickcore play --out FILE` (or "
                        "trickcore.rounds.save_records) double dummy; GAME may be left out")
    p.add_argument("--index", type=int, default=None, metavar="I",
                   help="which round of --record FILE, counting from 0 (default 0)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--time-budget", type=float, default=None, metavar="S",
                   help="seconds of search per position; a position not solved in time is shown as '-'")
    p.add_argument("--node-budget", type=int, default=None, metavar="N",
                   help="search nodes per position (the same stop on every machine)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_review)

    p = sub.add_parser("play", help="deal and play rounds with heuristic or PIMC players, print each one and "
                       "save them with --out (review one later: review --record FILE --index I)")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("--seed", type=int, default=2026,
                   help="(default 2026) round i deals from the i-th child of numpy's SeedSequence(SEED), and "
                        "is dealt by seat i mod the number of seats as round i of a match (scores 0)")
    p.add_argument("--rounds", type=int, default=1, metavar="N", help="rounds to play (default 1)")
    p.add_argument("--policy", choices=("heuristic", "pimc"), default="heuristic", help="the players")
    p.add_argument("--samples", dest="pimc_samples", type=int, default=None, metavar="K",
                   help="deals the PIMC players sample a decision (default: PIMCPolicy's, 20)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="save the rounds to FILE (JSON Lines, trickcore.rounds.save_records), replacing it")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("crack", help="Sheepshead: your expected payout with and without your crack, after an "
                       "earlier seat picked (analysis.crack_odds), or your re-crack when you picked "
                       "(--recrack, analysis.recrack_odds)")
    p.add_argument("hand", help='your six cards, e.g. "QC QS JC AD 10D 9D"')
    p.add_argument("--seat", type=int, required=True, help="your seat: 0 the dealer's left ... 4 the dealer")
    p.add_argument("--picker", type=int, default=None, help="the seat that picked, before yours")
    p.add_argument("--recrack", action="store_true", help="you picked: should you re-crack a crack?")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--deals", type=int, default=None, metavar="N", help="layouts to evaluate (default 2000)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--leader", type=int, default=0, help="the seat leading the first trick (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_conditions(p)
    p.set_defaults(func=_cmd_crack)

    p = sub.add_parser("hearts-pass", help="Hearts: which three cards to pass; every pass (or those given) played "
                       "out on the same layouts (analysis.hearts_pass_odds)")
    p.add_argument("hand", help='your thirteen cards, e.g. "QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H JH"')
    p.add_argument("--direction", choices=("left", "right", "across", "none"), default="left",
                   help='where the pass goes (default left); "none": a round without passing, the hand\'s own odds')
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-3 (default 0)")
    p.add_argument("--candidate", action="append", default=None, metavar="CARDS",
                   help='a pass to compare, three cards (repeatable; default every three of the hand)')
    p.add_argument("--top", type=int, default=20, help="show the best K passes (default 20)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--deals", type=int, default=None, metavar="N", help="layouts to play (default 2000)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_conditions(p)
    p.set_defaults(func=_cmd_hearts_pass)

    p = sub.add_parser("advise", help="which card to play now: each legal card's value, make rate and payout "
                       "over the layouts of the cards you cannot see, double dummy after it "
                       "(analysis.card_odds)")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("contract")
    p.add_argument("hand", help='your cards at the start of the play, e.g. "QD JC 10S JD KH KC"')
    p.add_argument("--seat", type=int, required=True, help="your seat; it must be your turn after --play")
    p.add_argument("--play", default=None, metavar="CARDS",
                   help='every card played so far, in order from the first lead, e.g. "10D QD QC JS"')
    p.add_argument("--leader", type=int, default=0, help="the seat that led the first trick (default 0)")
    p.add_argument("--declarer", type=int, default=None, help="the declarer (bidder, picker), where there is one")
    p.add_argument("--known", action="append", metavar="SEAT=CARDS",
                   help='cards you know another seat held at the start of the play, e.g. 2="QC" (repeatable)')
    p.add_argument("--kitty", default=None, metavar="CARDS",
                   help="cards you know lie in the kitty or out of play (your burial, Oh Hell's turned card)")
    p.add_argument("--bid", type=int, default=None, help="your bid (Spades: 0 is a nil; Oh Hell)")
    p.add_argument("--bids", nargs="+", metavar="SEAT=TRICKS",
                   help="Spades, Oh Hell: every bid of the round in order, yours too; the layouts are weighed "
                        "by how likely the others' bids are under each (PIMC's bid inference)")
    p.add_argument("--trumps", action="append", metavar="SEAT=MIN",
                   help="assume SEAT held at least MIN trumps at the start of the play, e.g. 0=4 for a "
                        "picker's strength (repeatable; analysis.card_odds's where=)")
    _add_conditions(p, fixed=False)
    p.add_argument("--exchanged", action="store_true", help="the declarer took the kitty (Goathead's payout)")
    p.add_argument("--multiplier", type=int, default=1, help="stake multiplier: doubles, cracks (default 1)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--method", choices=("auto", "exact", "sample"), default="auto",
                   help="every layout, samples, or decide by their count (default)")
    p.add_argument("--samples", type=int, default=200, help="layouts to sample (default 200)")
    p.add_argument("--exact-limit", type=int, default=2000,
                   help="auto: every layout up to this many (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time-budget", type=float, default=None, metavar="S",
                   help="seconds for the whole analysis; the layouts solved by then are shown")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_advise)

    p = sub.add_parser("chance", help="how likely a condition on the hidden cards is, given the cards you know "
                       "(analysis.deal_probability): exact over every deal when they are few, else sampled")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("event", metavar="CONDITION", help='e.g. "seat 1 holds JD" or "seat 2 holds at least 3 of '
                   'trumps:hearts" (the --where language)')
    p.add_argument("--fixed", action="append", metavar="SEAT=CARDS",
                   help='cards you know, e.g. 0="JC JS JH AC 10C KC" for your hand (repeatable; kitty=CARDS)')
    p.add_argument("--given", action="append", metavar="CONDITION",
                   help="what else you assume (repeatable: all must hold); the chance is among those deals")
    p.add_argument("--contract", default=None, help="the contract whose trumps 'trumps' means")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="rule options; Oh Hell's hand_size changes the deal")
    p.add_argument("--method", choices=("auto", "exact", "sample"), default="auto",
                   help="every deal, a sample, or every deal when at most 100,000 (default)")
    p.add_argument("--deals", type=int, default=10_000, metavar="N", help="deals to sample (default 10,000)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_chance)

    p = sub.add_parser("simulate", help="solve and score many deals into a Parquet dataset (resumable), then "
                       "print each contract's make rate and expected payout with 95%% intervals")
    p.add_argument("game", choices=GAME_IDS, metavar="GAME")
    p.add_argument("-n", type=int, required=True, help="number of deals")
    p.add_argument("--out", required=True, help="dataset folder")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--rule", action="append", metavar="NAME=VALUE")
    p.add_argument("--jobs", type=int, default=-1)
    p.add_argument("--backend", default="loky", help='"loky", "dask" or a Dask scheduler address')
    p.add_argument("--policy", default="dd",
                   help='"dd" (exact double dummy, default), "dd_payout" (double dummy only as far as the '
                        'payouts need: same payouts, value bands; Goathead and Sheepshead), "greedy" or "random"')
    _add_conditions(p)
    p.add_argument("--json", action="store_true", help="the summary as JSON records")
    p.set_defaults(func=_cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``trickcore`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"trickcore: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader of the output left (`trickcore review ... | head`): stop quietly, as a
        # tool killed by SIGPIPE does; stdout goes to devnull so that the interpreter's
        # last flush at exit does not fail again (the Python docs' recipe for SIGPIPE)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13
    except OSError as exc:   # an unwritable --out and the like
        print(f"trickcore: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # only `simulate` writes its chunks as they finish (to --out); the others keep nothing
        kept = "; finished chunks are kept and a rerun resumes" if args.command == "simulate" else ""
        print(f"trickcore: interrupted{kept}", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
