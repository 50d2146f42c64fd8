"""The compiled core beside the same core run from source: one child process each.

Each workload runs in a child process with `LOGICPY_PURE=1` (every compiled module from its
source) and in one without (the modules as installed: compiled when the build had a C
compiler); the table gives CPU times (best of the repeats) and the speed-up, and checks that
both forms gave the same result. Without a compiled core both columns measure the source.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from bench.common import ROOT, fmt_seconds, print_table

#: name -> (setup code, timed expression); the expression's value must be JSON.
WORKLOADS = {
    "relational zebra, all solutions": (
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('zebra_example', 'logicpy/data/examples/zebra.py')\n"
        "zebra = importlib.util.module_from_spec(spec); sys.modules[spec.name] = zebra; spec.loader.exec_module(zebra)",
        "len(zebra.solve(zebra.LOGICPY))"),
    "naive reverse of 100, user-written (@relation, eq, conde), run as its clauses": (
        "from bench.bench_relations import nrev_relational\nfrom logicpy.core import loops, run, var\nq = var()\n"
        "loops.ENABLED = False  # its append would run as appendo's loop",
        "run(1, q, nrev_relational(list(range(100)), q))[0][0]"),
    "naive reverse of 100, built-in appendo": (
        "from bench.bench_relations import nrev_appendo\nfrom logicpy.core import run, var\nq = var()",
        "run(1, q, nrev_appendo(list(range(100)), q))[0][0]"),
    "permutations of 8": (
        "from logicpy.core import permuteo, run, var\nq = var()",
        "len(run(0, q, permuteo(list(range(8)), q)))"),
    "two-hop join over 20,000 facts": (
        "from bench.bench_relations import edges_20000\nfrom logicpy.core import run, var\n"
        "e = edges_20000()\nx, y, z = var(), var(), var()",
        "len(run(0, (x, z), e(x, y), e(y, z)))"),
    "tabled left-recursive closure of 1,000 edges, from one node": (
        "from bench.bench_relations import TEDGES\nfrom logicpy.core import Table, conde, run, tabled, var\n"
        "edge = Table.from_rows('edge', TEDGES)\n"
        "@tabled\n"
        "def path(a, b):\n"
        "    c = var()\n"
        "    return conde([path(a, c), edge(c, b)], [edge(a, b)])\n"
        "q = var()\n"
        "def closure():\n"
        "    path.clear()\n"
        "    return len(run(0, q, path(0, q)))",
        "closure()"),
    "8-queens, FD, all solutions": (
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('queens_example', 'logicpy/data/examples/queens.py')\n"
        "queens = importlib.util.module_from_spec(spec); spec.loader.exec_module(queens)",
        "len(queens.solve(8))"),
    "Prolog, consulted: crypt / deriv (the `prolog` benchmark's programs)": (
        "from bench.bench_prolog import BENCH_DIR, GOAL\nfrom logicpy.core.terms import format_term\n"
        "from logicpy.prolog import consult\n"
        "programs = [consult(BENCH_DIR / f'{name}.pl') for name in ('crypt', 'deriv')]",
        "[format_term(p.query(GOAL, 1)[0]['A']) for p in programs]"),
}

CHILD = """
import json, sys, time
from logicpy.core import accelerator
setup, expression, repeat = json.loads(sys.argv[1])
exec(setup)
best, value = float("inf"), None
for _ in range(repeat):
    start = time.process_time()
    value = eval(expression)
    best = min(best, time.process_time() - start)
forms = set(accelerator.status().values())
print(json.dumps([best, value, sorted(forms)]))
"""


def _child(setup: str, expression: str, pure: bool, repeat: int = 5) -> tuple[float, object, list]:
    env = {**os.environ, "LOGICPY_PURE": "1" if pure else "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps([setup, expression, repeat])],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    seconds, value, forms = json.loads(done.stdout)
    return seconds, value, forms


def main() -> None:
    rows = []
    compiled_forms: set[str] = set()
    for name, (setup, expression) in WORKLOADS.items():
        source_s, source_value, _ = _child(setup, expression, pure=True)
        chosen_s, chosen_value, forms = _child(setup, expression, pure=False)
        compiled_forms.update(forms)
        same = "same" if source_value == chosen_value else f"DIFFERENT: {source_value!r} / {chosen_value!r}"
        rows.append([name, fmt_seconds(source_s), fmt_seconds(chosen_s), f"{source_s / chosen_s:.2f}x", same])
    installed = "compiled" if compiled_forms == {"compiled"} else "; ".join(sorted(compiled_forms))
    print_table(f"The core from source vs as installed ({installed}): CPU time, best of 5, one process each",
                ["workload", "source", "installed", "speed-up", "results"], rows)


if __name__ == "__main__":
    main()
