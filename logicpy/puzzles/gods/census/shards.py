"""One universe level built sharded by signature: streamed candidates, per-shard dedup on disk.

A level too big for one process (the four-god universe at complexity 3: 7.8·10^8
candidates) is built in two rounds of tasks, on an `Engine` (Dask: a local cluster or
`--cluster`) or in this process:

- map: a task evaluates a range of the level's candidate pieces (`Universe.piece_specs`)
  batch by batch, drops the signatures of lower levels and repeats, and writes what is
  left split into S shards by a hash of the signature (`task-T.*.npy` under the level's
  directory). Only distinct signatures are ever kept, never the candidates.
- reduce: a task per shard reads that shard's slice of every map file and keeps each
  signature once (`shard-S.*.npy`).

Every kept signature carries its candidate number (its position in the in-process
generation order), and a duplicate keeps the smallest: the level is then exactly the
in-process one — the same signatures, ids (sorted by candidate number) and
representatives, whatever the shard count, task order or worker count. A file is written
under a temporary name and renamed, so an interrupted build resumes with the tasks whose
files are missing; a finished level stays on disk as a cache, keyed by a hash of its
inputs. Every file has its SHA-256 beside it, and a finished level records its shards'
checksums and signature count in `level.json`: a level file changed or cut short since it
was written is refused, naming it (a "no tree exists" read from a damaged level would not
be a proof).

Memory: a map task holds one batch and its task's distinct signatures; a reduce task one
shard's; loading the level into this process takes `load_bytes` (the level's distinct
signatures, not its candidates).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from ....errors import InputError
from ..universe import (BATCH, MAX_LEVEL_BYTES, Progress, Universe, UniverseTooBig, fold_connective,
                       gather_bits, signature_keys, sorted_contains)

if TYPE_CHECKING:
    from .cluster import Engine

__all__ = ["Sharding", "ShardStats", "LevelKernel", "build_level", "load_bytes", "DEFAULT_CACHE"]

#: Shards per level (each a reduce task; more shards, less memory per reduce task).
SHARDS = 64
#: Candidates one map task evaluates (about 1-2 s each of work for 4 gods).
TASK_CANDIDATES = 1 << 24
#: Levels with fewer candidates are built in one process (faster than a round of tasks).
MIN_CANDIDATES = 1 << 25
#: Candidates a worker may be given at most (about 20-40 minutes of its time).
MAX_WORKER_CANDIDATES = 2_000_000_000
#: Where levels are kept between runs unless told otherwise.
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "logicpy" / "universe"


@dataclass
class Sharding:
    """How to build a level sharded: on `engine` (None: in this process), under `cache_dir`
    (None: a temporary directory removed afterwards), in `shards` shards, map tasks of about
    `task_candidates` candidates; levels of fewer than `min_candidates` are built in process."""

    engine: "Engine | None" = None
    cache_dir: Path | None = None
    shards: int = SHARDS
    task_candidates: int = TASK_CANDIDATES
    min_candidates: int = -1  # -1: MIN_CANDIDATES
    stats: list["ShardStats"] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.min_candidates < 0:
            self.min_candidates = MIN_CANDIDATES
        if self.shards < 1:
            raise InputError(f"shards must be at least 1, got {self.shards}")
        if self.task_candidates < 1:
            raise InputError(f"task_candidates must be at least 1, got {self.task_candidates}")


@dataclass
class ShardStats:
    """One sharded level: where, map tasks (all / run now, the others found on disk), shards,
    candidates, distinct signatures, wall seconds per round, the largest shard's rows."""

    level: int
    directory: str
    tasks: int
    tasks_run: int
    shards: int
    candidates: int
    distinct: int
    map_seconds: float
    reduce_seconds: float
    load_seconds: float
    largest_shard: int


@dataclass(frozen=True)
class LevelKernel:
    """What a worker needs to evaluate candidates of one level: plain arrays and tuples.

    Piece k is rule `piece_rule[k]` applied to `piece_prefix[k, :piece_nprefix[k]]` then to
    each last child in ids [piece_lo[k], hi); its candidates are numbered from
    `piece_start[k]` (piece_start[-1] is the level's candidate count).
    """

    level: int
    sigs: np.ndarray  # (hi, n_words): signatures of every id below the level
    lower: np.ndarray  # their keys, sorted
    full: np.ndarray
    n_worlds: int
    truth_tables: tuple[tuple[bool, ...] | None, ...]  # per rule; None for ask
    arities: tuple[int, ...]
    ask_masks: dict[int, tuple[np.ndarray, np.ndarray]]
    gather_from: dict[int, np.ndarray]
    piece_rule: np.ndarray
    piece_prefix: np.ndarray
    piece_nprefix: np.ndarray
    piece_lo: np.ndarray
    piece_start: np.ndarray

    @property
    def hi(self) -> int:
        return len(self.sigs)

    @property
    def candidates(self) -> int:
        return int(self.piece_start[-1])

    @classmethod
    def of(cls, u: Universe, level: int) -> "LevelKernel":
        """The kernel of `u`'s next level."""
        if level != u.max_complexity + 1:
            raise ValueError(f"level {level} is not the next level of a universe built to {u.max_complexity}")
        width = u.args_width
        specs = list(u.piece_specs(level))
        hi = u.size
        rule = np.array([r for r, _, _ in specs], dtype=np.int16)
        prefix = np.full((len(specs), width - 1), -1, dtype=np.int32)
        nprefix = np.array([len(p) for _, p, _ in specs], dtype=np.int8)
        for k, (_, p, _) in enumerate(specs):
            prefix[k, : len(p)] = p
        lo = np.array([lo for _, _, lo in specs], dtype=np.int64)
        start = np.concatenate([[0], np.cumsum(hi - lo)]).astype(np.int64)
        layout = u.layout
        ask = {}
        for r, rl in enumerate(u.rules):
            if rl.role == "ask":
                ask = {p: u._fold(rl, (p,), []) for p in range(1, u.puzzle.n_positions + 1)}
        return cls(
            level=level, sigs=u.signatures.copy(), lower=u.seen_keys(), full=layout.full, n_worlds=layout.n_worlds,
            truth_tables=tuple(r.truth_table if r.role == "connective" else None for r in u.rules),
            arities=tuple(r.arity for r in u.rules), ask_masks=ask,
            gather_from=dict(layout._gather_from), piece_rule=rule, piece_prefix=prefix,
            piece_nprefix=nprefix, piece_lo=lo, piece_start=start)

    def digest(self) -> str:
        """A hash of everything the level's result depends on (names its cache directory)."""
        h = hashlib.sha256()
        for a in (self.sigs, self.full, self.piece_rule, self.piece_prefix, self.piece_lo):
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(repr((self.level, self.n_worlds, self.truth_tables, self.arities)).encode())
        for p in sorted(self.ask_masks):
            h.update(self.ask_masks[p][0].tobytes() + self.ask_masks[p][1].tobytes())
        for p in sorted(self.gather_from):
            h.update(self.gather_from[p].tobytes())
        return h.hexdigest()[:20]

    def piece_values(self, k: int) -> np.ndarray:
        """The signatures of piece k's candidates, in candidate order."""
        r, lo = int(self.piece_rule[k]), int(self.piece_lo[k])
        children = self.sigs[lo:]
        table = self.truth_tables[r]
        if table is None:  # ask(p, last)
            p = int(self.piece_prefix[k, 0])
            s1, s0 = self.ask_masks[p]
            if p in self.gather_from:
                children = gather_bits(children, self.gather_from[p], self.n_worlds)
        else:
            prefix = self.piece_prefix[k, : int(self.piece_nprefix[k])]
            s1, s0 = fold_connective(table, self.arities[r], [self.sigs[a] for a in prefix], self.full)
        return (children & s1) | (~children & s0)

    def tasks(self, task_candidates: int) -> list[tuple[int, int, int]]:
        """Map tasks (number, first piece, end piece): consecutive pieces of about `task_candidates`."""
        cuts = np.searchsorted(self.piece_start, np.arange(0, self.candidates, task_candidates), side="right") - 1
        cuts = np.unique(np.concatenate([cuts, [len(self.piece_rule)]]))
        return [(t, int(a), int(b)) for t, (a, b) in enumerate(zip(cuts[:-1], cuts[1:]))]

    def representatives(self, cands: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        """(rule, arguments) of the candidates numbered `cands`, as `Universe` stores them."""
        k = np.searchsorted(self.piece_start, cands, side="right") - 1
        args = np.full((len(cands), width), -1, dtype=np.int32)
        args[:, : width - 1] = self.piece_prefix[k]
        args[np.arange(len(cands)), self.piece_nprefix[k]] = self.piece_lo[k] + (cands - self.piece_start[k])
        return self.piece_rule[k], args


def _first_occurrences(sigs: np.ndarray) -> np.ndarray:
    """Indices of each distinct row's first occurrence, ascending."""
    _, first = np.unique(signature_keys(sigs), return_index=True)  # a stable sort: the first is kept
    first.sort()
    return first


def shard_of(sigs: np.ndarray, shards: int) -> np.ndarray:
    """The shard of each signature: a multiplicative hash of its words, mod `shards`."""
    h = np.zeros(len(sigs), dtype=np.uint64)
    for w in range(sigs.shape[1]):
        h = (h ^ sigs[:, w]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(31)
    return (h % np.uint64(shards)).astype(np.int64)


def _save(path: Path, array: np.ndarray) -> None:
    """Write `array` to `path` atomically (a temporary name, then rename), its checksum beside it
    (`path.sha256`, written first)."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.save(f, array)
    _write_atomic(_sum_path(path), _digest(tmp))
    os.replace(tmp, path)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _sum_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            h.update(chunk)
    return h.hexdigest()


def _damaged(path: Path, why: str) -> InputError:
    return InputError(f"{path}: a damaged universe level file ({why}); delete {path.parent} to build the level again")


def _checked(path: Path, expected: str | None = None) -> Path:
    """`path`, once its checksum matches `expected` (else the one written beside it): a file
    changed, cut short or lost since it was written is refused, naming it."""
    if expected is None:
        try:
            expected = _sum_path(path).read_text(encoding="utf-8").strip()
        except OSError:
            raise _damaged(path, "its checksum file is missing") from None
    try:
        actual = _digest(path)
    except OSError as exc:
        raise _damaged(path, f"cannot read: {exc.strerror or exc}") from None
    if actual != expected:
        raise _damaged(path, "its checksum does not match")
    return path


def _load_array(path: Path, mmap_mode: Any = None) -> np.ndarray:
    """A checked level file's array; an unreadable one is refused naming it."""
    try:
        return np.load(path, mmap_mode=mmap_mode, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise _damaged(path, f"not an array: {exc}") from None


def map_task(kernel: LevelKernel, directory: str, shards: int, task: tuple[int, int, int]) -> dict[str, int]:
    """Evaluate pieces [a, b) of the level; write their new distinct signatures, split by shard.

    Files task-T.sig.npy, task-T.cand.npy (rows grouped by shard, candidate order inside a
    shard) and task-T.offsets.npy (written last: the task is done when it exists).
    """
    t, a, b = task
    out = Path(directory)
    sig_parts: list[np.ndarray] = []
    cand_parts: list[np.ndarray] = []
    batch: list[np.ndarray] = []
    batch_cands: list[np.ndarray] = []
    size = 0

    def flush() -> None:
        nonlocal size
        if not batch:
            return
        values = np.concatenate(batch)
        cands = np.concatenate(batch_cands)
        batch.clear()
        batch_cands.clear()
        fresh = np.flatnonzero(~sorted_contains(kernel.lower, signature_keys(values)))
        keep = fresh[_first_occurrences(values[fresh])]
        sig_parts.append(values[keep])
        cand_parts.append(cands[keep])
        size = 0

    for k in range(a, b):
        values = kernel.piece_values(k)
        batch.append(values)
        batch_cands.append(np.arange(kernel.piece_start[k], kernel.piece_start[k + 1], dtype=np.int64))
        size += len(values)
        if size >= BATCH:
            flush()
    flush()
    sigs = np.concatenate(sig_parts) if sig_parts else np.zeros((0, kernel.full.shape[0]), dtype=np.uint64)
    cands = np.concatenate(cand_parts) if cand_parts else np.zeros(0, dtype=np.int64)
    keep = _first_occurrences(sigs)
    sigs, cands = sigs[keep], cands[keep]
    shard = shard_of(sigs, shards)
    order = np.argsort(shard, kind="stable")
    offsets = np.searchsorted(shard[order], np.arange(shards + 1)).astype(np.int64)
    _save(out / f"task-{t}.sig.npy", sigs[order])
    _save(out / f"task-{t}.cand.npy", cands[order])
    _save(out / f"task-{t}.offsets.npy", offsets)
    return {"candidates": int(kernel.piece_start[b] - kernel.piece_start[a]), "distinct": len(sigs)}


def reduce_task(directory: str, tasks: int, shard: int) -> dict[str, int]:
    """Keep each signature of `shard` once (the smallest candidate number): shard-S.{sig,cand}.npy."""
    out = Path(directory)
    sig_parts, cand_parts = [], []
    for t in range(tasks):  # task order is candidate order
        offsets = np.load(out / f"task-{t}.offsets.npy")
        part = slice(int(offsets[shard]), int(offsets[shard + 1]))
        sig_parts.append(np.array(np.load(out / f"task-{t}.sig.npy", mmap_mode="r")[part]))
        cand_parts.append(np.array(np.load(out / f"task-{t}.cand.npy", mmap_mode="r")[part]))
    sigs, cands = np.concatenate(sig_parts), np.concatenate(cand_parts)
    held = len(sigs)
    keep = _first_occurrences(sigs)
    _save(out / f"shard-{shard}.sig.npy", sigs[keep])
    _save(out / f"shard-{shard}.cand.npy", cands[keep])
    return {"distinct": len(keep), "held": held}


def load_bytes(distinct: int, n_words: int, width: int) -> int:
    """Memory this process needs to load a level of `distinct` signatures: the shards and their
    candidate numbers while sorting, then the stored signature, rule, arguments and dedup key."""
    return distinct * (8 * n_words + 8 + 8) + distinct * (8 * n_words + 2 + 4 * width + 8 * n_words)


def _run(sharding: Sharding, fn: Any, items: list, label: str, progress: Progress | None) -> Iterator[Any]:
    """fn(item) for every item, on the engine or here, yielding results as they finish."""
    total, done = len(items), 0
    if progress:
        progress(label, 0, total)
    if sharding.engine is None:
        results: Iterator[tuple[Any, Any, BaseException | None]] = ((i, fn(i), None) for i in items)
    else:
        results = sharding.engine.map_unordered(fn, items)
    for item, result, error in results:
        if error is not None:
            raise RuntimeError(f"{label}: task {item!r} failed: {type(error).__name__}: {error}") from error
        done += 1
        if progress:
            progress(label, done, total)
        yield result


def build_level(u: Universe, sharding: Sharding, progress: Progress | None = None) -> ShardStats:
    """Build `u`'s next level sharded (resuming from files already on disk) and append it to `u`."""
    level = u.max_complexity + 1
    candidates = u.count_candidates(level)
    workers = sharding.engine.workers if sharding.engine is not None else 1
    if candidates > MAX_WORKER_CANDIDATES * workers:
        raise UniverseTooBig(
            f"complexity {level} would mean {candidates:.2g} candidate questions; sharded, each of "
            f"{workers} worker(s) would evaluate {candidates / workers:.2g} (the limit is "
            f"{MAX_WORKER_CANDIDATES:.0e}): it needs {-(-candidates // MAX_WORKER_CANDIDATES)} workers",
            level, candidates, 0)
    kernel = LevelKernel.of(u, level)
    root = sharding.cache_dir
    temporary = root is None
    base = Path(tempfile.mkdtemp(prefix="logicpy-universe-")) if root is None else Path(root)
    directory = base / f"{kernel.digest()}-c{level}-s{sharding.shards}-t{sharding.task_candidates}"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        return _build(u, kernel, sharding, directory, progress)
    finally:
        if temporary:
            shutil.rmtree(base, ignore_errors=True)


def _build(u: Universe, kernel: LevelKernel, sharding: Sharding, directory: Path,
           progress: Progress | None) -> ShardStats:
    level, shards = kernel.level, sharding.shards
    manifest = _manifest(directory)
    if manifest is None:
        _write_atomic(directory / "level.json", json.dumps({
            "puzzle": str(u.puzzle), "level": level, "candidates": kernel.candidates, "shards": shards,
            "task_candidates": sharding.task_candidates}))
    tasks = kernel.tasks(sharding.task_candidates)
    shard_done = manifest is not None and "files" in manifest or \
        all((directory / f"shard-{s}.cand.npy").exists() for s in range(shards))
    todo = [] if shard_done else [t for t in tasks if not (directory / f"task-{t[0]}.offsets.npy").exists()]
    start = time.perf_counter()
    for _ in _run(sharding, partial(map_task, kernel, str(directory), shards), todo,
                  f"complexity {level}: map", progress):
        pass
    map_seconds = time.perf_counter() - start
    start = time.perf_counter()
    reduce_todo = [s for s in range(shards) if not (directory / f"shard-{s}.cand.npy").exists()]
    for _ in _run(sharding, partial(reduce_task, str(directory), len(tasks)), reduce_todo,
                  f"complexity {level}: reduce", progress):
        pass
    for path in directory.glob("task-*"):  # the shards hold everything now (also a killed task's .tmp)
        path.unlink()
    reduce_seconds = time.perf_counter() - start
    start = time.perf_counter()
    files = _seal(directory, shards)
    sizes = [int(_load_array(directory / f"shard-{s}.cand.npy", "r").shape[0]) for s in range(shards)]
    distinct = sum(sizes)
    if distinct != files["distinct"]:
        raise _damaged(directory / "level.json", f"{distinct:,} signatures in its shards, {files['distinct']:,} when built")
    need = load_bytes(distinct, kernel.full.shape[0], u.args_width)
    if need > MAX_LEVEL_BYTES:
        raise UniverseTooBig(
            f"complexity {level} has {distinct:,} distinct signatures (built sharded in {directory}); "
            f"loading them needs about {need / 2**30:.1f} GiB, more than this process may use "
            f"({MAX_LEVEL_BYTES / 2**30:.1f} GiB)", level, kernel.candidates, need)
    _load(u, kernel, directory, shards, distinct, files["files"])
    stats = ShardStats(level, str(directory), len(tasks), len(todo), shards, kernel.candidates, distinct,
                       map_seconds, reduce_seconds, time.perf_counter() - start, max(sizes))
    sharding.stats.append(stats)
    return stats


def _manifest(directory: Path) -> dict[str, Any] | None:
    """The level's `level.json`, or None when there is none yet; a damaged one is refused."""
    path = directory / "level.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise _damaged(path, f"not readable JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _damaged(path, "not a JSON object")
    return data


def _seal(directory: Path, shards: int) -> dict[str, Any]:
    """The level's checksums: each shard file's and their count of signatures, recorded in
    `level.json` when the level is first complete (each file checked against the checksum
    written beside it), read from there afterwards."""
    manifest = _manifest(directory) or {}
    if "files" in manifest:
        return manifest
    names = [f"shard-{s}.{part}.npy" for s in range(shards) for part in ("sig", "cand")]
    manifest["files"] = {name: _sum_path(directory / name).read_text(encoding="utf-8").strip()
                         if (directory / name).exists() and _checked(directory / name) else "" for name in names}
    manifest["distinct"] = sum(int(_load_array(directory / f"shard-{s}.cand.npy", "r").shape[0]) for s in range(shards))
    _write_atomic(directory / "level.json", json.dumps(manifest))
    return manifest


def _load(u: Universe, kernel: LevelKernel, directory: Path, shards: int, distinct: int,
          sums: dict[str, str]) -> None:
    """Append the level's shards to `u`, in candidate order (the in-process id order), each file
    checked against the level's checksums first."""
    def read(name: str) -> np.ndarray:
        if name not in sums:
            raise _damaged(directory / "level.json", f"no checksum of {name}")
        return _load_array(_checked(directory / name, sums[name]))

    start = time.process_time()
    cands = np.concatenate([read(f"shard-{s}.cand.npy") for s in range(shards)])
    order = np.argsort(cands)  # candidate numbers are distinct
    cands = cands[order]
    sigs = np.concatenate([read(f"shard-{s}.sig.npy") for s in range(shards)])
    if len(sigs) != len(cands):
        raise _damaged(directory, f"{len(sigs):,} signatures but {len(cands):,} candidate numbers")
    first = u.reserve(distinct)
    step = 16 * BATCH
    for a in range(0, distinct, step):
        u.append_rows(sigs[order[a : a + step]], *kernel.representatives(cands[a : a + step], u.args_width))
    del sigs, order, cands
    u.close_level(first, kernel.candidates, time.process_time() - start)
