"""Worlds as valuations of propositional atoms: a world is a bitmask, atom i true iff bit i is set.

`Valuations(n)` is the set of all 2**n valuations without listing them, so a story over 60
atoms (the muddy children, hats, cards) can be stated; the explicit engine lists it only when
it is small enough. Agents, facts and questions built here are ordinary `Projection`s and
`Fact`s (every engine and the verifier read them as such) that also say which atoms they
concern, so the symbolic engine reads them as propositional formulas:

- `sees_all_but(hidden)`, `sees_only(seen, n)`: the agent sees every atom but those (a child
  sees every forehead but its own), or only those;
- `atom_fact(i)`, `any_fact(atoms)`, `count_fact(atoms, at_least, at_most)`: atom i is true;
  some listed atom is true; between so many of them are;
- `count_of(atoms)`: how many atoms are true (a question, e.g. "how many children are muddy").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence, overload

import numpy as np

from ...errors import InputError
from .model import Fact, Projection

__all__ = ["Valuations", "HiddenAtoms", "AtomsFact", "AtomCount", "sees_all_but", "sees_only", "atom_fact",
           "any_fact", "count_fact", "count_of", "EXPLICIT_ATOMS"]

#: The most atoms whose valuations are listed for the explicit engine (2**26 worlds, ~0.5 GB per array).
EXPLICIT_ATOMS = 26


class Valuations(Sequence[int]):
    """All valuations of `n` atoms, as the integers 0 .. 2**n - 1 (atom i is bit i)."""

    def __init__(self, n: int):
        if not 0 <= n <= 62:
            raise InputError(f"a valuation model has 0 to 62 atoms, got {n}")
        self.n = n

    def __len__(self) -> int:
        return 1 << self.n

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Any: ...

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return np.arange(*index.indices(1 << self.n), dtype=np.int64)
        index = int(index)
        if not -(1 << self.n) <= index < (1 << self.n):
            raise IndexError(f"valuation {index} out of range for {self.n} atoms")
        return index % (1 << self.n)

    def __iter__(self) -> Iterator[int]:
        return iter(range(1 << self.n))

    def __contains__(self, value: object) -> bool:
        return isinstance(value, (int, np.integer)) and 0 <= int(value) < (1 << self.n)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self.n > EXPLICIT_ATOMS:
            raise InputError(f"{self.n} atoms make 2**{self.n} worlds, too many to list (at most "
                             f"2**{EXPLICIT_ATOMS}); use the symbolic engine")
        return np.arange(1 << self.n, dtype=dtype or np.int64)

    def __repr__(self) -> str:
        return f"Valuations({self.n})"


@dataclass(frozen=True, eq=False)
class HiddenAtoms(Projection):
    """What an agent sees: every atom but `hidden`."""

    hidden: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class AtomsFact(Fact):
    """True where at least `at_least` and at most `at_most` (None: any number) atoms of `atoms` are true."""

    atoms: tuple[int, ...] = ()
    at_least: int = 1
    at_most: int | None = None


@dataclass(frozen=True, eq=False)
class AtomCount(Projection):
    """How many atoms of `atoms` are true."""

    atoms: tuple[int, ...] = ()


def _mask(atoms: Sequence[int]) -> int:
    return sum(1 << i for i in set(atoms))


def sees_all_but(hidden: Sequence[int], name: str = "every atom but one",
                 show: Callable[[Any], str] = str) -> HiddenAtoms:
    """An agent that sees every atom except `hidden`."""
    keep = ~_mask(hidden)
    return HiddenAtoms(lambda s: s & keep, name, True, show, tuple(hidden))


def sees_only(seen: Sequence[int], n: int, name: str = "some atoms", show: Callable[[Any], str] = str) -> HiddenAtoms:
    """An agent that sees the atoms `seen` of `n` and no other."""
    return sees_all_but(sorted(set(range(n)) - set(seen)), name, show)


def atom_fact(i: int, text: str) -> AtomsFact:
    """Atom `i` is true."""
    return any_fact((i,), text)


def any_fact(atoms: Sequence[int], text: str) -> AtomsFact:
    """Some atom of `atoms` is true."""
    mask = _mask(atoms)
    return AtomsFact(lambda s: (s & mask) != 0, text, True, tuple(atoms), 1, None)


def count_fact(atoms: Sequence[int], text: str, at_least: int = 0, at_most: int | None = None) -> AtomsFact:
    """Between `at_least` and `at_most` (None: no bound) of `atoms` are true."""
    count = count_of(atoms, text).fn
    top = len(set(atoms)) if at_most is None else at_most

    def test(s: Any) -> Any:
        c = count(s)
        return (c >= at_least) & (c <= top)

    return AtomsFact(test, text, True, tuple(atoms), at_least, at_most)


def count_of(atoms: Sequence[int], name: str) -> AtomCount:
    """How many atoms of `atoms` are true (one world or an array of them)."""
    mask = _mask(atoms)

    def count(s: Any) -> Any:
        if isinstance(s, np.ndarray):
            return np.bitwise_count(s & mask).astype(np.int64)
        return int(s & mask).bit_count()

    return AtomCount(count, name, True, str, tuple(atoms))
