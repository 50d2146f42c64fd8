"""Where census work runs: Dask distributed, on a local cluster logicpy starts or on a scheduler.

`Engine` is the one interface the census uses: `map_unordered(fn, batches)` yields each
batch's result as soon as a worker returns it. The same code path serves a local cluster
(`LocalCluster`, one single-threaded worker process per core by default, started and
stopped here) and a real cluster (`address`: a running `dask scheduler`, whose workers
must have logicpy installed). Dask retries a task whose worker dies, so a lost worker
costs only the batches it held; a task that raises is retried `RETRIES` times.

Without the `distributed` extra the census runs on a `concurrent.futures` process pool
behind the same interface (engine "processes"), so it still works on one machine.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Iterable, Iterator

from ....errors import InputError

__all__ = ["Engine", "RETRIES", "default_workers"]

#: How many times a batch that raised is run again before the census gives up on it.
RETRIES = 2


def default_workers() -> int:
    """One worker per core of this machine."""
    return os.cpu_count() or 1


#: Seconds between a worker's looks at whether the census that started it is still alive.
WATCH = 0.5


def _die_with(parent: int) -> None:
    """In a worker of a local pool or cluster: ignore Ctrl-C (the census stops the workers
    itself) and end this process within `WATCH` seconds of the census process's end, however
    it ended (kill -9 included), so no worker outlives it."""
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH)
        os._exit(1)

    threading.Thread(target=watch, name="logicpy-watch-parent", daemon=True).start()


class _Flag(list):
    """True once a Ctrl-C was held back."""

    def __bool__(self) -> bool:
        return len(self) > 0


@contextlib.contextmanager
def _held_interrupt(quiet: bool = False) -> Iterator[_Flag]:
    """Ctrl-C during the block noted in the flag, not raised: a cluster half started or half
    stopped cannot be closed cleanly. `quiet`: the processes started in the block write their
    standard error to /dev/null (a worker process that Ctrl-C reaches while it starts, before it
    ignores Ctrl-C, would print a traceback; the census reports what fails through its tasks)."""
    flag = _Flag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: flag.append(signum))
    saved = None
    if quiet:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except OSError:
            saved = None
    try:
        yield flag
    except Exception:
        if not flag:
            raise
    finally:
        if saved is not None:
            os.dup2(saved, 2)
            os.close(saved)
        signal.signal(signal.SIGINT, previous)


def _usage() -> tuple[int, float]:
    """This process's peak resident memory (bytes) and CPU seconds (user + system)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_maxrss * 1024, r.ru_utime + r.ru_stime


class Engine:
    """A pool of workers: Dask distributed (local cluster or `address`), or a process pool.

    Use as a context manager; leaving it stops a cluster logicpy started (never a remote one).
    The workers of a local pool or cluster ignore Ctrl-C and die with the process that started them.
    """

    def __init__(self, workers: int | None = None, address: str | None = None, kind: str = "dask"):
        if kind not in ("dask", "processes"):
            raise InputError(f"--engine must be dask or processes, got {kind!r}")
        if workers is not None and workers < 1:
            raise InputError(f"--workers must be at least 1, got {workers}")
        if address and kind != "dask":
            raise InputError("--cluster needs the dask engine")
        self.kind = kind
        self.address = address
        self.workers = workers or default_workers()
        self._client: Any = None
        self._cluster: Any = None
        self._pool: ProcessPoolExecutor | None = None

    @property
    def name(self) -> str:
        """What runs the work, e.g. "dask local cluster, 2 workers"."""
        workers = f"{self.workers} worker{'s' if self.workers != 1 else ''}"
        if self.kind == "processes":
            return f"process pool, {workers}"
        where = f"dask scheduler {self.address}" if self.address else "dask local cluster"
        return f"{where}, {workers}"

    @property
    def worker_memory(self) -> int:
        """Memory each worker may use, in bytes (the cluster's limit; else an equal share of RAM)."""
        if self._client is not None:
            limits = [int(w.get("memory_limit") or 0) for w in self._client.scheduler_info()["workers"].values()]
            if limits and min(limits) > 0:
                return min(limits)
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        return total // max(self.workers, 1)

    def worker_usage(self) -> list[tuple[int, float]]:
        """Per worker process of a Dask engine: (peak resident bytes, CPU seconds) so far."""
        if self._client is None:
            return []
        return sorted(self._client.run(_usage).values())

    def __enter__(self) -> "Engine":
        if self.kind == "processes":
            self._pool = ProcessPoolExecutor(self.workers, initializer=_die_with, initargs=(os.getpid(),))
            return self
        with _held_interrupt() as interrupted:
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise InputError("the dask engine needs the distributed extra: pip install "
                                 "'logicpy-engine[distributed]' (or use --engine processes)") from None
        if interrupted:
            raise KeyboardInterrupt
        if self.address:
            try:
                self._client = Client(self.address, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise InputError(f"--cluster {self.address}: cannot reach the scheduler: {exc}") from None
            self.workers = len(self._client.scheduler_info()["workers"]) or self.workers
        else:
            # Workers log no tracebacks when the census stops them (Ctrl-C); a failed task is reported by its future.
            with _held_interrupt(quiet=True) as interrupted:  # an error after Ctrl-C counts as the Ctrl-C
                self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=logging.CRITICAL)
                self._client = Client(self._cluster)
                self._client.run(_die_with, os.getpid())
            if interrupted:
                self.__exit__()
                raise KeyboardInterrupt
        return self

    def __exit__(self, *exc: object) -> None:
        with _held_interrupt() as interrupted:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
            self._client = self._cluster = self._pool = None
        if interrupted:
            raise KeyboardInterrupt

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any, BaseException | None]]:
        """(item, fn(item), None) for every item as it finishes (any order); (item, None, error)
        for an item that failed for good: it raised on every retry, or killed every worker
        that ran it (Dask gives up after `distributed.scheduler.allowed-failures` deaths)."""
        items = list(items)
        if self._pool is not None:
            pending = {self._pool.submit(fn, item): item for item in items}
            for future in as_completed(pending):
                error = future.exception()
                yield pending[future], None if error else future.result(), error
            return
        if self._client is None:
            raise RuntimeError("Engine used outside its `with` block")
        from distributed import as_completed as dask_completed

        futures = {self._client.submit(fn, item, retries=RETRIES, pure=False): i for i, item in enumerate(items)}
        try:
            for future in dask_completed(list(futures)):
                item = items[futures[future]]
                if future.status == "error":
                    yield item, None, future.exception()
                else:
                    yield item, future.result(), None
                future.release()
        finally:
            self._client.cancel([f for f in futures if not f.done()])
