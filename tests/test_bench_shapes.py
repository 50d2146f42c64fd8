"""The relations of `python -m bench shapes`: each gives the answer computed here in Python
and SWI-Prolog's for the same program (prolog/relations_suite.pl), as it runs and with
every relation run as its clauses (`loops.disabled()`)."""

from __future__ import annotations

import math
import shutil
from typing import Any

import pytest

from bench.bench_shapes import ENVIRONMENTS, ROWS, SHUFFLED, Row, as_clauses, expression, peano_int, swi_answer
from logicpy.core import format_term


def _value(e: Any, env: list[int]) -> int:
    op = e[0]
    if op == "var":
        return env[peano_int(e[1])]
    if op == "not":
        return 1 - _value(e[1], env)
    a, b = _value(e[1], env), _value(e[2], env)
    return {"and": a & b, "or": a | b, "xor": a ^ b}[op]


EXPECTED: dict[str, Any] = {
    "peano_add": 61,
    "peano_mul": 625,
    "typecheck": [("arrow", "o", "o")] * 20,
    "interpreter": [_value(expression(8, 1), env) for env in ENVIRONMENTS],
    "hanoi": 2 ** 9 - 1,
    "quicksort": sorted(SHUFFLED),
    "flatten": list(range(512, 1024)),
    "flatten_backwards": math.comb(14, 7) // 8,  # Catalan(7): binary trees with 8 leaves
    "zebra": [("-", "japanese", "norwegian")],
    "paths": math.comb(12, 6),
    "bst": sorted(set(SHUFFLED)),
    "nrev": list(range(100, 0, -1)),
}


def test_the_suite_has_ten_or_more_relations_each_with_an_answer_here() -> None:
    assert len(ROWS) >= 10
    assert sorted(row.goal for row in ROWS) == sorted(EXPECTED)


@pytest.mark.parametrize("row", ROWS, ids=[row.goal for row in ROWS])
def test_each_relation_gives_the_expected_answer_and_swis(row: Row) -> None:
    mine, clauses = row.run(), as_clauses(row.run)()
    assert mine == EXPECTED[row.goal]
    assert format_term(clauses) == format_term(mine)
    if shutil.which("swipl"):
        assert swi_answer(row.goal) == format_term(mine)
