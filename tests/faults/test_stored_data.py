"""Stored data is checked before it is believed: universe levels on disk and census stores."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.gods import CLASSIC
from logicpy.puzzles.gods.census.shards import Sharding
from logicpy.puzzles.gods.census.storage import Store
from logicpy.puzzles.gods.universe import Universe


def build(cache, complexity=2):
    u = Universe(CLASSIC, 0)
    u.extend_to(complexity, sharding=Sharding(min_candidates=0, cache_dir=cache, shards=4))
    return u


def level_dir(cache, level):
    (directory,) = cache.glob(f"*-c{level}-*")
    return directory


def test_a_cached_level_loads_again_the_same(tmp_path):
    first = build(tmp_path)
    again = build(tmp_path)
    assert again.level_counts() == first.level_counts() == [11, 69, 2156]


@pytest.mark.parametrize("damage", ["half the rows", "one byte", "truncated", "checksum gone"])
def test_a_damaged_level_file_is_refused_naming_it(tmp_path, damage):
    build(tmp_path)
    shard = level_dir(tmp_path, 2) / "shard-1.sig.npy"
    if damage == "half the rows":  # a consistent, smaller file: only the checksums tell
        rows = np.load(shard)
        np.save(shard, rows[: len(rows) // 2])
        cand = shard.with_name("shard-1.cand.npy")
        np.save(cand, np.load(cand)[: len(rows) // 2])
    elif damage == "one byte":
        data = bytearray(shard.read_bytes())
        data[-1] ^= 1
        shard.write_bytes(bytes(data))
    elif damage == "truncated":
        shard.write_bytes(shard.read_bytes()[:100])
    else:
        (level_dir(tmp_path, 2) / "level.json").write_text("{")
    with pytest.raises(InputError, match=r"damaged universe level file") as info:
        build(tmp_path)
    assert str(level_dir(tmp_path, 2)) in str(info.value)


def other_app_db(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('keep me')")
    db.commit()
    db.close()


def test_another_applications_sqlite_file_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "notes.sqlite"
    other_app_db(path)
    before = path.read_bytes()
    assert main(["gods", "census", "--gods", "1", "--engine", "processes", "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other tables (notes)" in err and str(path) in err
    assert path.read_bytes() == before  # no WAL switch, no table added
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)


@pytest.mark.parametrize("damage", ["cut in half", "garbage after the header", "a directory", "text"])
def test_a_damaged_store_is_one_line_naming_it(tmp_path, capsys, damage):
    path = tmp_path / "c.sqlite"
    with Store(path) as store:
        store.record_run("now", 1, "test", 0, 0, 0.0)
    data = path.read_bytes()
    if damage == "cut in half":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage after the header":
        path.write_bytes(data[:100] + b"\xff" * 8000)
    elif damage == "a directory":
        path.unlink()
        path.mkdir()
    else:
        path.write_text("hello\n" * 1000)
    code = main(["gods", "census", "--gods", "1", "--engine", "processes", "--store", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(path) in err and "Traceback" not in err


def test_a_damaged_tree_in_a_store_is_one_line(tmp_path):
    path = tmp_path / "c.sqlite"
    with Store(path):
        pass
    db = sqlite3.connect(path)
    db.execute("INSERT INTO census (key, n, tree) VALUES ('k', 1, '{not json')")
    db.commit()
    db.close()
    with Store(path) as store, pytest.raises(InputError, match="a stored tree is not JSON"):
        store.rows()
