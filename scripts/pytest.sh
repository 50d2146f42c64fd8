#!/usr/bin/env bash
# Run pytest; exit code 5 (nothing collected) is reported plainly instead of passing silently.
# Usage: scripts/pytest.sh PYTHON [pytest args...]
py=$1; shift
"$py" -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests for: $*" >&2
    if [ "${LOGICPY_ALLOW_EMPTY:-0}" = 1 ]; then exit 0; fi
    exit 1
fi
exit "$rc"
