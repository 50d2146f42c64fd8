"""`python -m bench`: its help lists every benchmark, and a wrong name is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_help_lists_every_benchmark_with_its_summary() -> None:
    out = bench("--help")
    assert out.returncode == 0, out.stderr
    names = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "bench").glob("bench_*.py"))
    for name in names:
        assert f"  {name} " in out.stdout
    assert "The relational core on programs a Prolog user writes" in out.stdout


def test_an_unknown_benchmark_is_refused_with_exit_2() -> None:
    out = bench("no_such_bench")
    assert out.returncode == 2
    assert "unknown benchmark(s): no_such_bench" in out.stderr
    assert out.stdout == ""


def test_every_aim_names_a_row_a_benchmark_records() -> None:
    """The aims' summary reads the figures by row name: each name is one a benchmark records."""
    from bench import common
    from bench.common import PROLOG_SUITE, SHAPES_SUITE, SHAPES_SUITE_CLAUSES, suite_rows

    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "bench").glob("bench_*.py"))
    names = {value: name for name, value in vars(common).items() if isinstance(value, str)}
    suites = {row: suite for suite in (PROLOG_SUITE, SHAPES_SUITE, SHAPES_SUITE_CLAUSES) for row in suite_rows(suite)}
    for aim in common.AIMS:
        for row in (aim.row, aim.over):
            assert row is None or row in suites or f'("{row}",' in sources or f"record({names.get(row)}," in sources \
                or sources.count(names.get(row, "-")) >= 2, row  # imported and recorded through a variable
    assert "record_suite(suite, list(ratios.values()))" in (ROOT / "bench" / "bench_prolog.py").read_text()
    assert "(SHAPES_SUITE, ratios," in (ROOT / "bench" / "bench_shapes.py").read_text()
    assert "(SHAPES_SUITE_CLAUSES, clause_ratios," in (ROOT / "bench" / "bench_shapes.py").read_text()


def test_aims_are_judged_on_the_figures_of_the_run() -> None:
    from bench.common import AIMS, JOIN, NREV_APPENDO, NREV_CLAUSES, NREV_USER, aims_rows

    figures = {JOIN: (0.095, 0.010), NREV_USER: (0.004, 0.0001), NREV_APPENDO: (0.003, 0.0001),
               NREV_CLAUSES: (0.0045, 0.0001)}
    rows = {row[0]: row[2:] for row in aims_rows(figures)}
    by_row = {aim.row if aim.over is None else (aim.row, aim.over): aim.text for aim in AIMS}
    assert rows[by_row[JOIN]] == ["9.5x", "met"]
    assert rows[by_row[NREV_USER]] == ["40.0x", "met"]
    assert rows[by_row[(NREV_USER, NREV_APPENDO)]] == ["1.3x", "met"]
    assert rows[by_row[NREV_APPENDO]] == ["30.0x", "not met"]
    assert rows[by_row[NREV_CLAUSES]] == ["45.0x", "not met"]
    judged = {by_row[JOIN], by_row[NREV_USER], by_row[NREV_APPENDO], by_row[(NREV_USER, NREV_APPENDO)],
              by_row[NREV_CLAUSES]}
    assert [r[2:] for r in aims_rows(figures, {}) if r[0] not in judged] == [["not run", ""]] * (len(AIMS) - len(judged))


def test_a_suites_median_and_worst_are_judged_against_their_aims() -> None:
    import bench.common as common
    from bench.common import AIMS, PROLOG_SUITE, SHAPES_SUITE, aims_rows, record_suite, suite_rows

    saved = dict(common.SUITE_RATIOS)
    try:
        assert record_suite(PROLOG_SUITE, [10.0, 50.0, 20.0, 150.0]) == (35.0, 150.0)
        assert record_suite(SHAPES_SUITE, [2.0, 8.0, 24.0]) == (8.0, 24.0)
        assert record_suite("empty", []) is None
        suites = {row: common.SUITE_RATIOS[row] for row in suite_rows(PROLOG_SUITE) + suite_rows(SHAPES_SUITE)}
    finally:
        common.SUITE_RATIOS.clear()
        common.SUITE_RATIOS.update(saved)
    rows = {aim.row: row[2:] for aim, row in zip(AIMS, aims_rows({}, suites))}
    median, worst = suite_rows(PROLOG_SUITE)
    assert rows[median] == ["35.0x", "not met"] and rows[worst] == ["150.0x", "not met"]
    median, worst = suite_rows(SHAPES_SUITE)
    assert rows[median] == ["8.0x", "met"] and rows[worst] == ["24.0x", "met"]
