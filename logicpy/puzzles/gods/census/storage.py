"""The census results store: one SQLite file, one row per (puzzle, semantics, bounds).

Each row is committed as it arrives (WAL journal), so a census stopped by Ctrl-C or
killed loses no finished row and resumes by skipping the keys already stored. Only the
census driver writes (one writer); workers return rows to it.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

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


class Store:
    """An open census store (a context manager)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
            have = [r[1] for r in self.db.execute("PRAGMA table_info(census)")]
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{self.path}: not a logicpy census store: {exc}") from None
        if tuple(have) != COLUMNS:
            raise InputError(f"{self.path}: a census table with other columns ({', '.join(have)}); "
                             f"use a new --store file")

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
        for key, status, seconds in self.db.execute("SELECT key, status, seconds FROM census"):
            if status == "timeout" and key in limits and (limits[key] <= 0 or limits[key] > seconds):
                continue
            done.add(key)
        return done

    def add(self, row: dict[str, Any]) -> None:
        """Store one finished row and commit it at once."""
        values = [json.dumps(row["tree"]) if c == "tree" and row["tree"] is not None else row[c] for c in COLUMNS]
        self.db.execute(f"INSERT OR REPLACE INTO census VALUES ({','.join('?' * len(COLUMNS))})", values)
        self.db.commit()

    def record_run(self, started: str, workers: int, engine: str, tasks: int, done: int, wall: float) -> None:
        """Remember one census run (for the measured figures)."""
        self.db.execute("INSERT INTO runs VALUES (?,?,?,?,?,?)", (started, workers, engine, tasks, done, wall))
        self.db.commit()

    def rows(self, keys: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Stored rows (all, or those with the given keys), tree decoded from JSON."""
        cursor = self.db.execute(f"SELECT {','.join(COLUMNS)} FROM census ORDER BY n, assignments, puzzle, semantics")
        wanted = None if keys is None else set(keys)
        out = []
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
