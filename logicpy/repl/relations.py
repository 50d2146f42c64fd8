"""The toplevel's relations by name; what a query may not need is imported when first needed.

At start the toplevel has the names `logicpy.core` has already imported (its lists,
control and constraint relations); the rest of the core (finite domains, tabling, exact
cover, facts) and the puzzles' relations (`goals.DEFAULT_MODULES` after the core) cost
more to import than a query takes, so they are loaded the first time a name is not
found, or the names are listed. Each name then takes the place it would have taken had
everything been loaded at start: it never replaces a name defined or loaded since.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import goals

#: Modules whose imported names are loaded when the toplevel starts.
DEFAULT_MODULES = tuple(m for m in goals.DEFAULT_MODULES if not m.startswith("logicpy.puzzles."))


class _OnDemand(dict[str, Any]):
    """A dict that has `relations` complete itself before a miss or a listing."""

    def __init__(self, relations: Relations, contents: dict[str, Any]) -> None:
        super().__init__(contents)
        self._relations = relations

    def _complete(self) -> None:
        if not self._relations.complete:
            self._relations.load_pending()

    def __missing__(self, name: str) -> Any:
        self._complete()
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if not dict.__contains__(self, name):
            self._complete()
        return dict.get(self, name, default)

    def __contains__(self, name: object) -> bool:
        if not dict.__contains__(self, name):
            self._complete()
        return dict.__contains__(self, name)

    def __iter__(self) -> Iterator[str]:
        self._complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._complete()
        return dict.__len__(self)

    def keys(self) -> Any:  # dict's own view
        self._complete()
        return dict.keys(self)

    def values(self) -> Any:  # dict's own view
        self._complete()
        return dict.values(self)

    def items(self) -> Any:  # dict's own view
        self._complete()
        return dict.items(self)


@dataclass
class Relations(goals.Relations):
    """`goals.Relations` that completes itself with `goals.DEFAULT_MODULES` when first needed."""

    complete: bool = False
    _at_start: dict[str, Any] = field(default_factory=dict, repr=False)
    _started: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        self.table = _OnDemand(self, self.table)
        self.source = _OnDemand(self, self.source)

    def load(self, module_name: str) -> list[str]:
        """`goals.Relations.load`; a start module's first load takes only the names it has imported."""
        if module_name in DEFAULT_MODULES and module_name not in self._started and not self.complete:
            self._started.add(module_name)
            return self._load_imported(module_name)
        self.load_pending()
        return super().load(module_name)

    def _load_imported(self, module_name: str) -> list[str]:
        module = importlib.import_module(module_name)
        loaded = []
        for name in goals.relation_names(module):
            value = vars(module).get(name)
            if value is None:  # not imported yet: loaded on demand
                continue
            for table, item in ((self.table, value), (self.source, module), (self._at_start, value)):
                dict.__setitem__(table, name, item)
            loaded.append(name)
        return loaded

    def load_pending(self) -> None:
        """Load everything `goals.DEFAULT_MODULES` holds; a name replaces only one from the start."""
        if self.complete:
            return
        self.complete = True
        whole = goals.Relations()
        for module_name in goals.DEFAULT_MODULES:
            whole.load(module_name)
        for name, relation in dict.items(whole.table):
            current = dict.get(self.table, name)
            if current is None or current is self._at_start.get(name):
                dict.__setitem__(self.table, name, relation)
                dict.__setitem__(self.source, name, whole.source[name])
