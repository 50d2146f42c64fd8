"""A wall-clock limit on a long Python computation, for the commands' `--timeout`.

`time_limit(seconds)` raises `TimeUp` in the main thread once `seconds` have passed. The
alarm rings again every `REPEAT` seconds until the block is left: Python runs a signal
handler between bytecodes, and one that fires inside a finalizer or a weakref callback has
its exception printed and dropped ("Exception ignored in ..."), which would otherwise turn
a timeout into a search that never ends. `TimeUp` is a BaseException so that no
`except Exception` in the computation swallows it either.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["TimeUp", "time_limit", "REPEAT"]

#: Seconds between the repeated rings after the first.
REPEAT = 0.1


class TimeUp(BaseException):
    """The block ran past its time limit."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TimeUp inside the block after `seconds` (None or 0: no limit). Only the main
    thread can be interrupted (elsewhere, or without `setitimer`, the block runs unlimited)."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
