"""Played rounds saved to a file and loaded back: JSON Lines, one round per line.

:func:`save_records` writes :class:`~trickcore.rounds.RoundRecord` objects (what
:func:`~trickcore.rounds.play_round` returns, or a match's ``rounds``) and
:func:`load_records` reads them back equal, field for field, so a round can be reviewed
(:func:`analysis.review.review_round`, ``trickcore review --record FILE``) long after it was
played.

The format
----------
Every line is one JSON object: ``"format": "trickcore round"`` and ``"version": 1``, then
the record's fields by name.  Cards are card text that :func:`trickcore.parse_card` reads
(``"JC"``, ``"10H"``); a trick is ``{"leader": 1, "plays": [[1, "AS"], [2, "10S"], ...],
"winner": 2}``; a bid is ``[seat, phase, value]``.  The open dicts (``rules``, ``frame``,
``extra``, ``scored``) and the bid values keep their Python types: ``None``, ``bool``,
``int``, ``float`` and ``str`` are JSON's own, a list is an array, and the rest is written
as a one-key object: ``{"$tuple": [...]}``, ``{"$card": "JC"}``, ``{"$cards": "JC 10H"}``
(a :class:`~trickcore.cards.CardSet`), ``{"$float": "nan"}`` (and ``"inf"``, ``"-inf"``),
``{"$dict": [[key, value], ...]}`` (a dict whose keys are not all text, or one key of which
starts with ``$``).  numpy scalars are saved as the Python numbers they equal.  Any other
type (an array, an object) is a ``TypeError`` naming where it sits: nothing is turned into
text silently.

Loading checks every line and raises ``ValueError`` naming the file, the line and what is
wrong: text that is not JSON, an unknown format version, game, contract or rule option, a
missing or unknown field, malformed card text, a card outside the game's deck or played
twice, a trick with the wrong number of plays for the contract's layout, plays out of seat
order, a leader who did not win the trick before, a winner the cards do not make, trick
counts that do not match the winners.  :func:`save_records` runs the same checks before it
writes, so what it writes loads back.

Writing goes to a temporary file in the same folder, which replaces ``path`` only once
every line is written and flushed to disk: an interrupted save leaves the old file (or no
file), never a shorter one.

Examples
--------
>>> import os, tempfile
>>> from trickcore.rounds import play_round, save_records, load_records
>>> from trickcore.policies import HeuristicPolicy
>>> rec = play_round("goathead3", [HeuristicPolicy()] * 3, seed=4)
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "rounds.jsonl")
...     save_records([rec, rec], path)
...     loaded = load_records(path)
...     first_line = open(path, encoding="utf-8").readline()
>>> loaded == [rec, rec]
True
>>> import json
>>> line = json.loads(first_line)
>>> line["version"], line["contract"], line["tricks"][0]
(1, 'court', {'leader': 1, 'plays': [[1, 'JC'], [2, 'JD'], [0, 'JH']], 'winner': 1})
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import secrets
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..cards import Card, CardSet, parse_card, parse_hand
from ..games import get_game
from ..games.base import _is_int
from ..layout import resolve_layout
from .state import RoundRecord, Trick

__all__ = ["save_records", "load_records", "FORMAT", "VERSION"]

#: The ``format`` field of every line.
FORMAT = "trickcore round"
#: The ``version`` field written; the versions :func:`load_records` reads.
VERSION = 1
_VERSIONS = (1,)

_FIELDS = tuple(f.name for f in dataclasses.fields(RoundRecord))
_TRICK_FIELDS = ("leader", "plays", "winner")


class _Bad(Exception):
    """What is wrong with one line (turned into a ``ValueError`` naming the line)."""


# -- writing ------------------------------------------------------------------------------

def save_records(records: Iterable[RoundRecord], path: str | os.PathLike) -> None:
    """Write ``records`` (:class:`~trickcore.rounds.RoundRecord` objects) to ``path`` as
    JSON Lines, one round per line (see the module's docstring for the format).

    ``path`` is replaced as a whole: the lines go to a temporary file in the same folder,
    which takes the name ``path`` once it is complete.  Every record is encoded and checked
    as :func:`load_records` checks it before anything is written.

    Raises
    ------
    TypeError
        An item that is not a ``RoundRecord``, or a value of a type the format cannot hold
        faithfully (naming the record, the field and the type).
    ValueError
        A record that would not load back (the same checks as :func:`load_records`).
    OSError
        The folder of ``path`` does not exist or cannot be written.

    >>> import os, tempfile
    >>> from trickcore.rounds import play_round
    >>> from trickcore.policies import HeuristicPolicy
    >>> rec = play_round("spades", [HeuristicPolicy()] * 4, seed=1)
    >>> rec.extra["note"] = object()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_records([rec], os.path.join(folder, "r.jsonl"))
    Traceback (most recent call last):
      ...
    TypeError: records[0].extra['note']: cannot save a value of type object (<object object at ...>)
    """
    if isinstance(records, RoundRecord):
        raise TypeError("records must be a list of RoundRecords; put a single record in a list")
    lines = []
    for i, rec in enumerate(records):
        if not isinstance(rec, RoundRecord):
            raise TypeError(f"records[{i}] is a {type(rec).__name__}, not a RoundRecord")
        obj = _record_to_json(rec, f"records[{i}]")
        try:
            _record_from_json(obj)
        except _Bad as exc:
            raise ValueError(f"records[{i}] would not load back: {exc}") from None
        lines.append(json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")))
    _write_atomic(os.fspath(path), "".join(line + "\n" for line in lines))


def _write_atomic(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # os.open with mode 0o666: the new file gets the usual permissions (the umask applies)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _card_text(card: Card) -> str:
    return card.rank_name + card.suit_letter          # "JC", "10H": what parse_card reads


def _record_to_json(rec: RoundRecord, where: str) -> dict[str, Any]:
    def need(ok: bool, name: str, what: str) -> None:
        if not ok:
            value = getattr(rec, name)
            raise TypeError(f"{where}.{name} must be {what}, not {type(value).__name__} {value!r}")

    def integer(name: str, none: bool = False) -> int | None:
        value = getattr(rec, name)
        if none and value is None:
            return None
        need(_is_int(value), name, "a whole number" + (" or None" if none else ""))
        return int(value)

    def seq(name: str) -> list:
        need(isinstance(getattr(rec, name), list), name, "a list")
        return [_encode(x, f"{where}.{name}[{i}]") for i, x in enumerate(getattr(rec, name))]

    def mapping(name: str) -> Any:
        need(isinstance(getattr(rec, name), dict), name, "a dict")
        return _encode(getattr(rec, name), f"{where}.{name}")

    need(isinstance(rec.game, str), "game", "a game id (text)")
    need(rec.contract is None or isinstance(rec.contract, str), "contract", "text or None")
    need(isinstance(rec.thrown_in, (bool, np.bool_)), "thrown_in", "True or False")
    need(isinstance(rec.bids, list), "bids", "a list")
    bids = []
    for i, bid in enumerate(rec.bids):
        if not (isinstance(bid, tuple) and len(bid) == 3 and _is_int(bid[0]) and isinstance(bid[1], str)):
            raise TypeError(f"{where}.bids[{i}] must be a (seat, phase, value) tuple, not {bid!r}")
        bids.append([int(bid[0]), bid[1], _encode(bid[2], f"{where}.bids[{i}] value")])
    need(isinstance(rec.tricks, list), "tricks", "a list")
    tricks = []
    for k, t in enumerate(rec.tricks):
        at = f"{where}.tricks[{k}]"
        if not isinstance(t, Trick):
            raise TypeError(f"{at} is a {type(t).__name__}, not a Trick")
        if not (_is_int(t.leader) and _is_int(t.winner) and isinstance(t.plays, tuple)):
            raise TypeError(f"{at} must have whole-number leader and winner seats and a tuple of plays, not {t!r}")
        plays = []
        for j, play in enumerate(t.plays):
            if not (isinstance(play, tuple) and len(play) == 2 and _is_int(play[0]) and isinstance(play[1], Card)):
                raise TypeError(f"{at}.plays[{j}] must be a (seat, Card) tuple, not {play!r}")
            plays.append([int(play[0]), _card_text(play[1])])
        tricks.append({"leader": int(t.leader), "plays": plays, "winner": int(t.winner)})
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": rec.game,
        "round_index": integer("round_index"),
        "dealer": integer("dealer"),
        "rules": mapping("rules"),
        "bids": bids,
        "contract": rec.contract,
        "declarer": integer("declarer", none=True),
        "side_mask": integer("side_mask"),
        "multiplier": integer("multiplier"),
        "tricks": tricks,
        "points": seq("points"),
        "trick_counts": seq("trick_counts"),
        "payouts": seq("payouts"),
        "thrown_in": bool(rec.thrown_in),
        "frame": mapping("frame"),
        "extra": mapping("extra"),
        "scored": mapping("scored"),
    }


def _encode(value: Any, where: str) -> Any:
    """``value`` as JSON data that :func:`_decode` turns back into an equal value."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Card):               # before int: a Card is an int
        return {"$card": _card_text(value)}
    if isinstance(value, CardSet):
        return {"$cards": " ".join(_card_text(c) for c in value)}
    if _is_int(value):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else {"$float": repr(f)}
    if isinstance(value, list):
        return [_encode(x, f"{where}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, tuple):
        return {"$tuple": [_encode(x, f"{where}[{i}]") for i, x in enumerate(value)]}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v, f"{where}[{k!r}]") for k, v in value.items()}
        return {"$dict": [[_encode(k, f"{where} key {k!r}"), _encode(v, f"{where}[{k!r}]")]
                          for k, v in value.items()]}
    text = repr(value)
    text = text if len(text) <= 60 else text[:57] + "..."
    raise TypeError(f"{where}: cannot save a value of type {type(value).__name__} ({text})")


# -- reading ------------------------------------------------------------------------------

def load_records(path: str | os.PathLike) -> list[RoundRecord]:
    """The rounds saved in ``path`` by :func:`save_records`, in order, as
    :class:`~trickcore.rounds.RoundRecord` objects equal to the ones saved.

    Every line is checked (see the module's docstring); the first problem raises
    ``ValueError`` naming the file and the line.  A missing file raises
    ``FileNotFoundError``.

    >>> import os, tempfile
    >>> from trickcore.rounds import play_round
    >>> from trickcore.policies import HeuristicPolicy
    >>> rec = play_round("hearts", [HeuristicPolicy()] * 4, seed=2)
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "rounds.jsonl")
    >>> save_records([rec], path)
    >>> load_records(path) == [rec]
    True
    >>> with open(path, "a", encoding="utf-8") as f:       # a line cut short
    ...     _ = f.write('{"format": "trickcore round", "version": 1, "game": "hea')
    >>> load_records(path)
    Traceback (most recent call last):
      ...
    ValueError: .../rounds.jsonl, line 2: not JSON (Unterminated string starting at: ...)
    """
    name = os.fspath(path)
    out = []
    with open(name, "rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise _Bad("not UTF-8 text") from None
                if not line.strip():
                    raise _Bad("empty line (a record file holds one round on every line)")
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise _Bad(f"not JSON ({exc})") from None
                out.append(_record_from_json(obj))
            except _Bad as exc:
                raise ValueError(f"{name}, line {number}: {exc}") from None
    return out


def _record_from_json(obj: Any) -> RoundRecord:
    if not isinstance(obj, dict):
        raise _Bad(f"not a round record (a JSON object), but {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise _Bad(f"not a trickcore round record (format {obj.get('format')!r}, expected {FORMAT!r})")
    if "version" not in obj:
        raise _Bad("missing field 'version'")
    if not _is_int(obj["version"]) or obj["version"] not in _VERSIONS:
        raise _Bad(f"format version {obj['version']!r} is not one this trickcore reads "
                   f"({', '.join(map(str, _VERSIONS))})")
    missing = [f for f in _FIELDS if f not in obj]
    if missing:
        raise _Bad(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}")
    unknown = sorted(set(obj) - set(_FIELDS) - {"format", "version"})
    if unknown:
        raise _Bad(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}")

    if not isinstance(obj["game"], str):
        raise _Bad(f"game must be a game id, not {obj['game']!r}")
    try:
        game = get_game(obj["game"])
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    n = game.n_seats

    def whole(name: str, low: int = 0, high: int | None = None) -> int:
        v = obj[name]
        if not _is_int(v) or v < low or (high is not None and v >= high):
            span = f"from {low}" + ("" if high is None else f" to {high - 1}")
            raise _Bad(f"{name} must be a whole number {span}, not {v!r}")
        return v

    def seat(v: Any, what: str) -> int:
        if not _is_int(v) or not 0 <= v < n:
            raise _Bad(f"{what} must be a seat 0..{n - 1} of {game.id}, not {v!r}")
        return v

    round_index = whole("round_index")
    dealer = seat(obj["dealer"], "dealer")
    side_mask = whole("side_mask", 0, 1 << n)
    multiplier = whole("multiplier", 1)
    declarer = None if obj["declarer"] is None else seat(obj["declarer"], "declarer")
    contract = obj["contract"]
    if contract is not None:
        if not isinstance(contract, str):
            raise _Bad(f"contract must be text or null, not {contract!r}")
        try:
            game.check_contract(contract)
        except ValueError as exc:
            raise _Bad(str(exc)) from None
    if not isinstance(obj["thrown_in"], bool):
        raise _Bad(f"thrown_in must be true or false, not {obj['thrown_in']!r}")

    dicts = {}
    for name in ("rules", "frame", "extra", "scored"):
        value = _decode(obj[name], name)
        if not isinstance(value, dict):
            raise _Bad(f"{name} must be an object, not {obj[name]!r}")
        dicts[name] = value
    try:
        game.check_rules(dicts["rules"])
    except ValueError as exc:
        raise _Bad(f"rules: {exc}") from None

    if not isinstance(obj["bids"], list):
        raise _Bad(f"bids must be a list, not {obj['bids']!r}")
    bids = []
    for i, bid in enumerate(obj["bids"]):
        if not (isinstance(bid, list) and len(bid) == 3 and isinstance(bid[1], str)):
            raise _Bad(f"bid {i + 1} must be [seat, phase, value], not {bid!r}")
        bids.append((seat(bid[0], f"the seat of bid {i + 1}"), bid[1], _decode(bid[2], f"bid {i + 1}")))

    lists = {}
    for name, kinds in (("points", "int"), ("trick_counts", "int"), ("payouts", "number")):
        value = obj[name]
        ok = isinstance(value, list) and len(value) == n and all(
            _is_int(x) if kinds == "int" else (_is_int(x) or isinstance(x, float)) for x in value)
        if not ok:
            what = "whole numbers" if kinds == "int" else "numbers"
            raise _Bad(f"{name} must be {n} {what}, one per seat, not {value!r}")
        lists[name] = list(value)

    tricks = _tricks(obj["tricks"], game, contract, dicts["rules"], seat)
    counts = [sum(t.winner == s for t in tricks) for s in range(n)]
    if lists["trick_counts"] != counts:
        raise _Bad(f"trick_counts {lists['trick_counts']} do not match the tricks' winners ({counts})")

    return RoundRecord(
        game=game.id, round_index=round_index, dealer=dealer, rules=dicts["rules"], bids=bids,
        contract=contract, declarer=declarer, side_mask=side_mask, multiplier=multiplier, tricks=tricks,
        points=lists["points"], trick_counts=lists["trick_counts"], payouts=lists["payouts"],
        thrown_in=obj["thrown_in"], frame=dicts["frame"], extra=dicts["extra"], scored=dicts["scored"],
    )


def _tricks(data: Any, game: Any, contract: str | None, rules: dict[str, Any], seat: Any) -> list[Trick]:
    """The tricks, checked against each other and against the contract's layout."""
    if not isinstance(data, list):
        raise _Bad(f"tricks must be a list, not {data!r}")
    if not data:
        return []
    if contract is None:
        raise _Bad("the round has tricks but no contract")
    try:
        layout = resolve_layout(game, contract, rules)
    except ValueError as exc:
        raise _Bad(f"contract {contract}: {exc}") from None
    n = game.n_seats
    deck = layout.deck
    seen: dict[Card, int] = {}
    active: list[int] | None = None
    out = []
    for k, t in enumerate(data, 1):
        if not isinstance(t, dict) or sorted(t) != sorted(_TRICK_FIELDS):
            raise _Bad(f"trick {k} must be an object with the fields leader, plays and winner, not {t!r}")
        leader = seat(t["leader"], f"the leader of trick {k}")
        winner = seat(t["winner"], f"the winner of trick {k}")
        if not isinstance(t["plays"], list):
            raise _Bad(f"the plays of trick {k} must be a list, not {t['plays']!r}")
        if len(t["plays"]) != layout.n_seats:
            raise _Bad(f"trick {k} has {len(t['plays'])} plays; a trick of {layout.name} has {layout.n_seats}")
        plays = []
        for j, play in enumerate(t["plays"], 1):
            if not (isinstance(play, list) and len(play) == 2 and isinstance(play[1], str)):
                raise _Bad(f"play {j} of trick {k} must be [seat, card text], not {play!r}")
            s = seat(play[0], f"the seat of play {j} of trick {k}")
            try:
                card = parse_card(play[1])
            except ValueError as exc:
                raise _Bad(f"play {j} of trick {k}: {exc}") from None
            if card not in deck:
                raise _Bad(f"play {j} of trick {k}: {card} is not in the deck of {game.id}")
            if card in seen:
                raise _Bad(f"play {j} of trick {k}: {card} was played already, in trick {seen[card]}")
            seen[card] = k
            plays.append((s, card))
        seats = [s for s, _ in plays]
        if seats[0] != leader:
            raise _Bad(f"trick {k} is led by seat {seats[0]}, but its leader is seat {leader}")
        if active is None:
            if len(set(seats)) != len(seats):
                raise _Bad(f"a seat plays twice in trick {k}: seats {seats}")
            active = sorted(seats)
        order = sorted(active, key=lambda s: (s - leader) % n)
        if seats != order:
            raise _Bad(f"trick {k}: seats play in the order {seats}; from leader {leader} the order is {order}")
        if out and leader != out[-1].winner:
            raise _Bad(f"trick {k} is led by seat {leader}, but seat {out[-1].winner} won trick {k - 1}")
        won = seats[layout.trick_winner([c for _, c in plays])]
        if winner != won:
            raise _Bad(f"trick {k} is won by seat {won} ({plays[seats.index(won)][1]}), not by seat {winner}")
        out.append(Trick(leader, tuple(plays), winner))
    return out


def _decode(data: Any, where: str) -> Any:
    """The value :func:`_encode` wrote as ``data``."""
    if isinstance(data, list):
        return [_decode(x, where) for x in data]
    if not isinstance(data, dict):
        return data                      # None, bool, int, float, str
    tags = [k for k in data if k.startswith("$")]
    if not tags:
        return {k: _decode(v, where) for k, v in data.items()}
    if len(data) != 1:
        raise _Bad(f"{where}: a tagged value has exactly one key, not {sorted(data)}")
    tag, x = tags[0], data[tags[0]]
    try:
        if tag == "$tuple" and isinstance(x, list):
            return tuple(_decode(v, where) for v in x)
        if tag == "$card" and isinstance(x, str):
            return parse_card(x)
        if tag == "$cards" and isinstance(x, str):
            return parse_hand(x) if x.strip() else CardSet()
        if tag == "$float" and x in ("nan", "inf", "-inf"):
            return float(x)
        if tag == "$dict" and isinstance(x, list) and all(isinstance(p, list) and len(p) == 2 for p in x):
            out = {}
            for k, v in x:
                key = _decode(k, where)
                try:
                    out[key] = _decode(v, where)
                except TypeError:
                    raise _Bad(f"{where}: a dict key cannot be {key!r}") from None
            return out
    except ValueError as exc:            # malformed card text
        raise _Bad(f"{where}: {exc}") from None
    raise _Bad(f"{where}: unknown or malformed tagged value {data!r}")
