#!/usr/bin/env bash
# What a user gets: build the sdist and the wheel (the wheel from the sdist), install the wheel
# into a fresh venv in an empty directory, and run the README's user commands there, each
# checked for its exit status and a known answer. Then the sdist's whole fast suite runs from the
# unpacked sdist, with every extra installed.
# Usage: scripts/wheel-check.sh [PYTHON]   (PYTHON has the `build` package; default: .venv/bin/python)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
PY=${1:-$repo/.venv/bin/python}
work=$(mktemp -d "${TMPDIR:-/tmp}/logicpy-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

say() { printf '%s\n' "$*"; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }

# check STATUS EXPECTED-TEXT COMMAND...: the command exits with STATUS and prints EXPECTED-TEXT.
check() {
    local status=$1 expected=$2 out code
    shift 2
    set +e
    out=$("$@" 2>&1 </dev/null)
    code=$?
    set -e
    if [[ $code -ne $status ]]; then
        fail "$* exited $code, expected $status"; say "$out" | tail -5
    elif [[ $out != *"$expected"* ]]; then
        fail "$* did not print: $expected"; say "$out" | tail -5
    else
        say "ok: $*"
    fi
}

# check_piped INPUT EXPECTED-TEXT COMMAND...: as check (status 0), with INPUT on standard input.
check_piped() {
    local input=$1 expected=$2 out
    shift 2
    if ! out=$(printf '%b' "$input" | "$@" 2>&1); then
        fail "$* (input $input) exited non-zero"; say "$out" | tail -5
    elif [[ $out != *"$expected"* ]]; then
        fail "$* (input $input) did not print: $expected"; say "$out" | tail -5
    else
        say "ok: $input | $*"
    fi
}

say "== building the sdist and the wheel"
"$PY" -m build --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
# Python warnings from the build backend (a deprecated license table warns, for one)
warnings=$(grep -E "[A-Za-z]+Warning:|[Dd]eprecat" "$work/build.log" || true)
[[ -z $warnings ]] || { fail "the build warns:"; say "$warnings" | head -5; }
sdist=$(ls "$work"/dist/*.tar.gz)
wheel=$(ls "$work"/dist/*.whl)
say "$(basename "$sdist") $(basename "$wheel")"

say "== what they hold"
sdist_files=$(tar tzf "$sdist")
wheel_files=$("$PY" -m zipfile -l "$wheel")
base=$(basename "$sdist" .tar.gz)
for f in LICENSE conftest.py tests/core/ tests/puzzles/ tests/test_examples.py logicpy/data/prolog/lists.pl \
         logicpy/data/prolog/bench/nrev.pl logicpy/data/examples/einstein/zebra.json; do
    grep -q "^$base/$f" <<<"$sdist_files" || fail "the sdist lacks $f"
done
for f in logicpy/data/prolog/lists.pl logicpy/data/prolog/gods.pl logicpy/data/prolog/bench/tak.pl \
         logicpy/data/examples/zebra.py logicpy/data/examples/einstein/zebra.json logicpy/py.typed \
         logicpy/puzzles/calendar/data/ licenses/LICENSE; do
    grep -q "$f" <<<"$wheel_files" || fail "the wheel lacks $f"
done

say "== installing the wheel (with the prolog extra) into a fresh venv"
"$PY" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' && base_python=$("$PY" -c 'import sys; print(sys._base_executable)') || base_python=$PY
"$base_python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[prolog]" >"$work/pip.log" 2>&1 \
    || { tail -20 "$work/pip.log"; exit 1; }
# how many core modules the wheel must hold compiled (checked below under LOGICPY_REQUIRE_COMPILED=1)
modules=$("$PY" -c 'from logicpy.core.accelerator import MODULES; print(len(MODULES))')
mkdir "$work/empty"
cd "$work/empty"
export PATH="$work/venv/bin:$PATH"

say "== the README's commands, from an empty directory"
check 0 "logicpy $(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/pyproject.toml")" logicpy --version
if [[ ${LOGICPY_REQUIRE_COMPILED:-0} == 1 ]]; then
    check 0 "core: $modules of $modules modules compiled" logicpy --version
fi
check 0 "verified: tree replayed in every world (12 hidden worlds, 16 paths)" logicpy gods
check 0 "Japanese     Green   Coffee        Parliament    Zebra" logicpy einstein zebra
check 0 "1 solution" logicpy einstein bake_sale.txt --count
check 0 "unique solution: July 16" logicpy cheryl
check 0 "October 6: 7 solutions" logicpy calendar 10 6
check 0 "arrangements: 11,120,640" logicpy prisoners --count
check 0 "verified: all 36 pairs of the 9 are cuffed together exactly once" logicpy prisoners
check 2 "pip install 'logicpy-engine[nauty]'" logicpy prisoners --distinct
check_piped 'appendo(X, Y, [1]).\n' "X = [1], Y = []" logicpy repl
check_piped 'consult(lists).\nappend(X, [b], [a, b]).\n' "X = [a]" logicpy repl
check 0 "lists.pl  prisoners.pl" logicpy files
check 0 "logicpy/data/examples/zebra.py" logicpy files zebra.py
check 0 "the Japanese owns the zebra" sh -c 'python "$(logicpy files zebra.py)"'
if command -v swipl >/dev/null; then
    check 0 "agree on 4 answers" logicpy crosscheck lists 'append(X, Y, [1,2,3])' --against logicpy.core.lists:appendo
    check 0 "result: agree" logicpy gods crosscheck gods
else
    say "skip: SWI-Prolog is not installed, so no crosscheck"
fi

say "== the sdist's whole fast suite, run from the unpacked sdist (every extra and the test extra installed)"
tar xzf "$sdist" -C "$work"
# the cross-checks against peer solvers look for shared/peers in a folder above the tree: the same one
[[ -d "$repo/../shared/peers" ]] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[all,test]" >>"$work/pip.log" 2>&1 \
    || { tail -20 "$work/pip.log"; exit 1; }
# the sdist holds every test file of the tree it was built from
if command -v git >/dev/null && git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    missing=$(comm -23 <(git -C "$repo" ls-files 'tests/*' 'docs/*' 'bench/*' | sort) \
                       <(cd "$work/$base" && find tests docs bench -type f | sort))
    [[ -z $missing ]] || { fail "the sdist lacks files the tests read:"; say "$missing" | head -5; }
fi
set +e
# (the tests import logicpy from the unpacked sdist, which holds no compiled module: the source fallback)
(cd "$work/$base" && LOGICPY_REQUIRE_COMPILED=0 "$work/venv/bin/python" -m pytest -m "not slow" -q -p no:cacheprovider) \
    >"$work/sdist-tests.log" 2>&1
code=$?
set -e
grep -E "^(FAILED|ERROR) " "$work/sdist-tests.log" | head -20 || true
tail -1 "$work/sdist-tests.log"
[[ $code -eq 0 ]] || fail "the sdist's fast suite exited $code"

if [[ $failures -ne 0 ]]; then
    say "wheel check: $failures failed"
    exit 1
fi
say "wheel check: all passed"
