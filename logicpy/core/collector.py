"""The garbage collector held quiet while logicpy builds what it keeps: a search's states, an
answer rebuilt from a long chain of bindings."""

from __future__ import annotations

import gc
import threading

__all__ = ["QuietCollector", "quiet_collector"]


class QuietCollector:
    """The collector's thresholds raised to `QUIET` while any search, in any thread, has
    taken `AFTER_TURNS` full turns without an answer, and the caller's again when none has
    (at its next answer, when it ends); also while a term deeper than the fast reifier
    goes is rebuilt (`equality._reify_deep`: a Peano number of 200,000 levels took 3.3 s
    with the default thresholds, 0.9 s without).

    A search keeps nearly all it allocates (the substitution holds every binding made on
    the path), so the default thresholds (700, 10, 10) run collections that find nothing,
    full ones among them: a search of tak(18, 12, 6) spent half its time there. A search
    that answers often never raises them (setting them costs about a microsecond, as much
    as an answer of `membero`). No threshold is lowered, and a disabled collector
    (threshold 0) stays disabled."""

    QUIET = (50_000, 20, 100)
    AFTER_TURNS = 8

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.found = gc.get_threshold()

    def enter(self) -> None:
        with self.lock:
            if not self.active:
                self.found = gc.get_threshold()
                if self.found[0]:
                    gc.set_threshold(*map(max, self.found, self.QUIET))
            self.active += 1

    def leave(self) -> None:
        with self.lock:
            self.active -= 1
            if not self.active:
                gc.set_threshold(*self.found)


quiet_collector = QuietCollector()
"""The one collector control of the process (a search, a deep answer being rebuilt)."""
