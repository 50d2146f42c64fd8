"""The census results store: one SQLite file, one row per (puzzle, semantics, bounds).

A file is checked, read only, before the store opens it: one that is not SQLite, or holds
other tables, is refused untouched (no journal switched, no table added). Each row is
committed as it arrives (WAL journal), so a census stopped by Ctrl-C or
killed loses no finished row and resumes by skipping the keys already stored. Only the
census driver writes (one writer); workers return rows to it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator

from ....errors import InputError

__all__ = ["Store", "COLUMNS", "to_csv"]

#: Columns of the `census` table, in export order (tree is the tree's JSON; gods_file names
#: the file of the open god types a row's puzzle uses, if any).
COLUMNS = ("key", "n", "types", "puzzle", "description", "assignments", "raw", "semantics",
           "max_questions", "max_complexity", "status", "proof", "reason", "least_questions",
           "least_complexity", "trees", "moves", "seconds", "tree", "gods_file")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS census (
    key TEXT PRIMARY KEY, n INTEGER, types TEXT, puzzle TEXT, description TEXT,
    assignments INTEGER, raw INTEGER, semantics TEXT, max_questions INTEGER,
    max_complexity INTEGER, status TEXT, proof TEXT, reason TEXT, least_questions INTEGER,
    least_complexity INTEGER, trees TEXT, moves INTEGER, seconds REAL, tree TEXT, gods_file TEXT
);
CREATE TABLE IF NOT EXISTS runs (started TEXT, workers INTEGER, engine TEXT, tasks INTEGER,
    done INTEGER, wall REAL);
"""


#: The first bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\0"


class Store:
    """An open census store (a context manager).

    A file that is not a census store (not SQLite, or SQLite with other tables) is refused
    before anything in it changes; a damaged one is an `InputError` naming it, at any step."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._check()
        with self._errors("open"):
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)

    def _check(self) -> None:
        """Refuse a path that is not a census store, reading it only (nothing is written)."""
        if self.path.is_dir():
            raise InputError(f"{self.path}: is a directory, not a census store file")
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(_SQLITE_HEADER))
        except FileNotFoundError:
            return  # a new store
        except OSError as exc:
            raise InputError(f"{self.path}: cannot read: {exc.strerror or exc}") from None
        if not head:
            return  # an empty file: a new store
        if head != _SQLITE_HEADER:
            raise InputError(f"{self.path}: not a logicpy census store: not an SQLite database")
        with self._errors("read"):
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                have = tuple(r[1] for r in db.execute("PRAGMA table_info(census)"))
            finally:
                db.close()
        other = sorted(tables - {"census", "runs"})
        if other:
            raise InputError(f"{self.path}: not a logicpy census store: it holds other tables "
                             f"({', '.join(other[:5])}); use a new --store file")
        if "census" in tables and have != COLUMNS:
            raise InputError(f"{self.path}: a census table with other columns ({', '.join(have)}); "
                             f"use a new --store file")

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """SQLite's errors, and a damaged row's JSON, as one `InputError` naming the store."""
        try:
            yield
        except sqlite3.Error as exc:
            raise InputError(f"{self.path}: not a logicpy census store, or a damaged one "
                             f"(cannot {doing}: {exc})") from None
        except json.JSONDecodeError as exc:
            raise InputError(f"{self.path}: a damaged census store (a stored tree is not JSON: {exc.msg})") from None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def done_keys(self, time_limits: dict[str, float] | None = None) -> set[str]:
        """Keys of the rows already stored, less the timeout rows a new run should retry:
        those whose key `time_limits` maps to no limit (0) or to more seconds than they had."""
        limits = time_limits or {}
        done = set()
        with self._errors("read"):
            for key, status, seconds in self.db.execute("SELECT key, status, seconds FROM census"):
                if status == "timeout" and key in limits and (limits[key] <= 0 or limits[key] > seconds):
                    continue
                done.add(key)
        return done

    def add(self, row: dict[str, Any]) -> None:
        """Store one finished row and commit it at once."""
        values = [json.dumps(row["tree"]) if c == "tree" and row["tree"] is not None else row[c] for c in COLUMNS]
        with self._errors("write"):
            self.db.execute(f"INSERT OR REPLACE INTO census VALUES ({','.join('?' * len(COLUMNS))})", values)
            self.db.commit()

    def record_run(self, started: str, workers: int, engine: str, tasks: int, done: int, wall: float) -> None:
        """Remember one census run (for the measured figures)."""
        with self._errors("write"):
            self.db.execute("INSERT INTO runs VALUES (?,?,?,?,?,?)", (started, workers, engine, tasks, done, wall))
            self.db.commit()

    def rows(self, keys: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Stored rows (all, or those with the given keys), tree decoded from JSON."""
        wanted = None if keys is None else set(keys)
        out = []
        with self._errors("read"):
            cursor = self.db.execute(f"SELECT {','.join(COLUMNS)} FROM census ORDER BY n, assignments, puzzle, semantics")
            for values in cursor:
                row = dict(zip(COLUMNS, values))
                if wanted is not None and row["key"] not in wanted:
                    continue
                row["tree"] = json.loads(row["tree"]) if row["tree"] else None
                out.append(row)
        return out


def to_csv(rows: list[dict[str, Any]]) -> str:
    """Rows as CSV with a header (the tree as its JSON text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([json.dumps(row[c]) if c == "tree" and row[c] is not None else row[c] for c in COLUMNS])
    return buffer.getvalue()
