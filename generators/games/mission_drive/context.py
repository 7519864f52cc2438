"""Mission: Drive: one action in progress (the copy it changes, its events, the choices written on
it) and the events it records, and a choice in players' words."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from generators.games.mission_drive.facts import Card, Facts
from generators.games.mission_drive.specs import ChargeChoice, DiscardChoice
from generators.games.mission_drive.state import State
from generators.rules.chance import Chance
from generators.rules.contract import Event
from generators.rules.refusals import IllegalAction

# --- applying actions --------------------------------------------------------------------------


class _Event(Event):
    """An event whose details become JSON-ready when first read: the simulator's look-aheads make
    millions and read none. Nothing changes the details once given (words, numbers, spaces and arrows as
    tuples, frozen choices, lists and mappings made for the event), so converting later gives what
    converting now would."""

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        own = self.__dict__  # frozen: set without __setattr__
        own["kind"], own["_raw"] = kind, data

    @property
    def data(self) -> dict[str, Any]:  # type: ignore[override]
        done = self.__dict__.get("_data")
        if done is None:
            done = self.__dict__["_data"] = {k: v if type(v) in _PLAIN else _jsonable(v)
                                             for k, v in self.__dict__["_raw"].items()}
        return done


class NeedChoice(Exception):
    """An action reached a choice (`key`) it does not carry; `options` are the possible ones."""

    def __init__(self, key: str, options: list[Any], what: str):
        super().__init__(what)
        self.key, self.options, self.what = key, options, what


class Ctx:
    """One action in progress: the state being changed, the events so far, and its written choices.
    A plain class with slots: one is made for every action a look-ahead tries."""

    __slots__ = ("chance", "choices", "events", "owned", "s")

    def __init__(self, s: State, chance: Chance, choices: dict[str, list[Any]] | None = None,
                 quiet: bool = False) -> None:
        self.s = s
        self.chance = chance
        self.events: list[Event] | None = None if quiet else []  # None: nobody reads them (a look-ahead)
        self.choices = {"energy": [], "discard": [], "hero_to": []} if choices is None else choices
        self.owned: set[int] = set()  # parts this action copied from the state it was given

    def own(self, items: list[Any], item: Any) -> Any:
        """`item` (a vehicle or an installed upgrade in `items`) made this action's own before it changes:
        the copied state shares them with the state it came from (most actions change none), so the first
        change puts a copy in its place; later changes in the same action find that copy."""
        if id(item) in self.owned:
            return item
        i = next(i for i, x in enumerate(items) if x is item)
        items[i] = new = item.copy()
        self.owned.add(id(new))
        return new

    def event(self, kind: str, /, **data: Any) -> None:
        """Details are kept as given and made JSON-ready when read (see _Event): give values nothing changes
        later (words, numbers, tuples, frozen choices, or lists and mappings made for the event)."""
        events = self.events
        if events is not None:
            events.append(_Event(kind, data))

    def pick(self, key: str, options: list[Any], what: str) -> Any:
        """The next written choice for `key` (it must be possible), None if nothing is possible."""
        if not options:
            return None
        queue = self.choices[key]
        if not queue:
            raise NeedChoice(key, options, what)
        choice = queue.pop(0)
        if choice not in options:
            words = functools.partial(option_words, self.s.facts)
            raise IllegalAction(f"{words(choice)} is not possible for {what}; possible: "
                                f"{', '.join(words(o) for o in options)}")
        return choice


_PLAIN = frozenset({str, int, float, bool, type(None)})  # JSON-ready as they are


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _PLAIN else _jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (ChargeChoice, DiscardChoice)):
        return _choice_data(value)
    if isinstance(value, Card):  # a movement card, named by its label when the event is read
        return value.label()
    return value


def _choice_data(value: Any) -> Any:
    if isinstance(value, ChargeChoice):
        return {"charge": value.charge}
    if isinstance(value, DiscardChoice):
        return {"charge": value.charge} if value.charge is not None else {"card": value.card}
    if isinstance(value, tuple):
        return list(value)
    return value


def discard_words(choice: DiscardChoice, name: Callable[[str], str] = str) -> str:
    if choice.charge is not None:
        return f"a charge from {name(choice.charge)}"
    return f"the device card {name(choice.card or '')}"


def option_words(facts: Facts, value: Any) -> str:
    """One possible choice in players' words (a charge on an upgrade, a card, a space)."""
    if isinstance(value, ChargeChoice):
        return f"a charge on {facts.title(value.charge)}"
    if isinstance(value, DiscardChoice):
        return discard_words(value, facts.title)
    if value == "health":
        return "one health"
    return str(value)

