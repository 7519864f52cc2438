"""States cheap to copy: records copied by one dictionary update, and copy-on-write drafts.

A game state is a tree of records (plain classes with a `__dict__`) and collections. `apply` must
never change the state it is given, yet most actions touch a small part of it, so copying the whole
tree for each action (as a look-ahead or a search does millions of times) wastes most of its work.

- `Record`: a base class whose `copy` is one C-level dictionary update (no `__init__`, no loop over
  fields) and whose `evolve` makes a changed copy.
- `Draft`: one action's working copy of a state. Every part is shared with the state it came from
  until the action asks to change it (`own`, `own_in`); that part alone is then copied, once per
  draft. The state it came from is never written: the shared suite checks it by serialization.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, Self, TypeVar

S = TypeVar("S", bound="Record")
T = TypeVar("T")


class Record:
    """A part of a game state. Subclasses are dataclasses (`@dataclass(eq=...)` as they need);
    copies go through `copy` / `evolve`, never `copy.copy` (its generic protocol costs several times
    more) nor `dataclasses.replace` (it runs `__init__` and every field's default machinery)."""

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__ = self.__dict__.copy()  # one C-level copy (cheaper than update into a fresh dict)
        return new

    def evolve(self, **changes: Any) -> Self:
        """A copy with `changes` (field names) applied."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        for name in changes:
            if name not in d:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        d.update(changes)
        return new


def _copied(value: T) -> T:
    if isinstance(value, Record):
        return value.copy()
    if isinstance(value, list):
        return list(value)  # type: ignore[return-value]
    if isinstance(value, dict):
        return dict(value)  # type: ignore[return-value]
    if isinstance(value, set):
        return set(value)  # type: ignore[return-value]
    if isinstance(value, (tuple, frozenset, str, int, float, bool, type(None))):
        return value  # immutable: shared as it is
    raise TypeError(f"cannot own a {type(value).__name__}: make it a Record or a list, dict or set")


class Draft(Generic[S]):
    """One action's copy of `base`: `state` is a shallow copy whose parts are shared with `base`
    until `own` / `own_in` copies the one about to change. Owning twice returns the same copy."""

    __slots__ = ("_owned", "state")

    def __init__(self, base: S) -> None:
        self.state: S = base.copy()
        self._owned: set[int] = {id(self.state)}

    def own(self, holder: Any, name: str) -> Any:
        """`holder.<name>` (a list, dict, set or Record), made this draft's own before it changes.
        `holder` must be the draft's state or a part already owned."""
        if id(holder) not in self._owned:
            raise ValueError("own the holder first: it is still shared with the original state")
        value = holder.__dict__[name]
        if id(value) in self._owned:
            return value
        new = _copied(value)
        holder.__dict__[name] = new
        self._owned.add(id(new))
        return new

    def own_in(self, container: list[Any] | dict[Any, Any], key: int | Hashable) -> Any:
        """`container[key]` (a Record or a collection), made this draft's own; `container` must
        already be owned (`own`)."""
        if id(container) not in self._owned:
            raise ValueError("own the container first: it is still shared with the original state")
        value = container[key]  # type: ignore[index]
        if id(value) in self._owned:
            return value
        new = _copied(value)
        container[key] = new  # type: ignore[index]
        self._owned.add(id(new))
        return new

    def owns(self, value: Any) -> bool:
        return id(value) in self._owned
