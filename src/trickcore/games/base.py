"""What every game definition provides: identity, deck, contracts, named rule options and a
:class:`~trickcore.layout.Layout` per contract."""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..layout import Layout

__all__ = ["RuleOption", "Game", "suit_cards"]

_INVALID = object()


def rule_dict(rules: Any) -> dict[str, Any]:
    """``rules`` (a mapping of rule option names to values, or ``None``) as a new dict;
    anything else is a ``ValueError``.

    >>> rule_dict(["steal"])
    Traceback (most recent call last):
      ...
    ValueError: rule options must be a mapping {name: value}, not ['steal']
    """
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise ValueError(f"rule options must be a mapping {{name: value}}, not {rules!r}")
    return dict(rules)


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


@dataclass(frozen=True)
class RuleOption:
    """A named rule option; its default is the ruling in ``RULINGS.md``."""

    name: str
    default: Any
    choices: tuple[Any, ...] | range
    doc: str = ""
    #: True when the option changes the :class:`~trickcore.layout.Layout` (legal moves,
    #: trick winners, card points or trick melds); the others are read by the round engine
    #: and the scorer only.
    affects_layout: bool = False

    def __post_init__(self) -> None:
        if not self._valid(self.default):
            raise ValueError(f"rule option {self.name!r}: default {self.default!r} is not a valid value")

    def _canonical(self, value: Any) -> Any:
        """The valid value equal to ``value`` (ints from numpy too), else ``_INVALID``.

        Kinds are compared as well as values, so ``1`` is not ``True``, ``True`` is not ``1``
        and ``1.0`` is not ``1`` (Python's ``True in range(2)`` would say otherwise).
        """
        if isinstance(self.choices, range):
            return int(value) if _is_int(value) and int(value) in self.choices else _INVALID
        for c in self.choices:
            if isinstance(c, bool):
                same_kind = isinstance(value, (bool, np.bool_))
            elif isinstance(c, int):
                same_kind = _is_int(value)
            else:
                same_kind = isinstance(value, type(c))
            if same_kind and value == c:
                return c
        return _INVALID

    def _valid(self, value: Any) -> bool:
        return self._canonical(value) is not _INVALID

    def valid_values(self) -> str:
        """The valid values, as error messages show them."""
        if isinstance(self.choices, range):
            return f"an integer from {self.choices.start} to {self.choices.stop - 1}"
        return ", ".join(repr(c) for c in self.choices)

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is valid, else raise ``ValueError`` listing the valid ones.

        >>> RuleOption("target", 100, range(1, 1001)).check(0)
        Traceback (most recent call last):
          ...
        ValueError: rule option 'target' cannot be 0; valid values: an integer from 1 to 1000
        """
        out = self._canonical(value)
        if out is _INVALID:
            raise ValueError(f"rule option {self.name!r} cannot be {value!r}; valid values: {self.valid_values()}")
        return out


@dataclass(frozen=True)
class Game:
    """A game: its table, its contracts and its rule options.

    Subclasses implement :meth:`_build_layout`; :meth:`layout` validates the contract and
    the rule options first, so that every error names what is valid.
    """

    id: str
    title: str
    n_seats: int
    hand_size: int
    kitty_size: int
    deck: CardSet
    contracts: tuple[str, ...]
    options: Mapping[str, RuleOption] = field(default_factory=dict)

    def check_contract(self, contract: str) -> str:
        if contract not in self.contracts:
            raise ValueError(
                f"unknown contract {contract!r} for {self.id}; valid contracts: {', '.join(self.contracts)}"
            )
        return contract

    def check_rules(self, rules: Mapping[str, Any] | None = None, **more: Any) -> dict[str, Any]:
        """Validate rule options and fill in defaults; unknown names raise ``ValueError``."""
        given = dict(rule_dict(rules), **more)
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            valid = ", ".join(sorted(self.options)) or "(this game has none)"
            raise ValueError(f"unknown rule option(s) {', '.join(unknown)} for {self.id}; valid options: {valid}")
        out = {name: opt.default for name, opt in self.options.items()}
        for name, value in given.items():
            out[name] = self.options[name].check(value)
        return out

    def layout(self, contract: str, **rules: Any) -> Layout:
        """The layout of ``contract`` under the given rule options (defaults: the rulings).

        Built once per contract and options, then the same (immutable) object is returned:
        building one and its compiled view costs milliseconds, which every solver and
        engine call by game id would pay again.

        >>> from trickcore import get_game
        >>> g = get_game("goathead3")
        >>> g.layout("hearts") is g.layout("hearts", kitty_points="declarer")
        True
        """
        self.check_contract(contract)
        full = self.check_rules(rules)
        key = (contract, tuple(sorted(full.items())))
        built = self._layouts.get(key)
        if built is None:
            built = self._layouts[key] = self._build_layout(contract, full)
        return built

    @cached_property
    def _layouts(self) -> dict[tuple, Layout]:
        """The layouts built so far, by contract and resolved options."""
        return {}

    def layouts(self, **rules: Any) -> dict[str, Layout]:
        """Every contract's layout under the same rule options."""
        return {c: self.layout(c, **rules) for c in self.contracts}

    @property
    def layout_options(self) -> tuple[str, ...]:
        """Names of the rule options that change layouts (the others only affect bidding
        and scoring)."""
        return tuple(name for name, opt in self.options.items() if opt.affects_layout)

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:  # pragma: no cover
        raise NotImplementedError

    def _layout_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The subset of rule options a layout records (those that differ from defaults)."""
        return {k: v for k, v in rules.items() if v != self.options[k].default}


def suit_cards(deck: CardSet, suit: str, order: Sequence[str], exclude: Sequence[str] = ()) -> tuple[Card, ...]:
    """Cards of one printed ``suit`` in ``deck``, ranked by ``order`` (given high to low),
    returned low to high, leaving out ranks in ``exclude``."""
    cards = [Card.make(r, suit) for r in order if r not in exclude]
    for c in cards:
        if c not in deck:
            raise ValueError(f"{c} is not in the deck")
    return tuple(reversed(cards))
