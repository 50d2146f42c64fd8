"""Progress on long work, for the commands: drawn on a terminal, silent when piped."""

from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["terminal_progress"]


@contextmanager
def terminal_progress() -> Iterator[Any]:
    """A transient rich `Progress` on standard error while the block runs, when standard
    error is a terminal; None when it is piped, so nothing is drawn (rich is imported only
    when a bar is shown; without rich, nothing is drawn either). Add tasks with `add_task`
    and move them with `update`."""
    if not sys.stderr.isatty() or importlib.util.find_spec("rich") is None:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        yield bar
