#!/usr/bin/env bash
# Install SWI-Prolog (Debian package swi-prolog-nox) when it is missing and we can.
# Never fails: without SWI-Prolog the Prolog tests are skipped with a reason,
# unless LOGICPY_REQUIRE_SWI=1 (set by CI), which turns that into a failure.
set -u
if command -v swipl >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing SWI-Prolog (swi-prolog-nox) ..."
    if apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq swi-prolog-nox >/dev/null; then
        swipl --version
        exit 0
    fi
    echo "could not install swi-prolog-nox; the Prolog tests will be skipped" >&2
else
    echo "SWI-Prolog is missing and this is not root on Debian: install swi-prolog-nox by hand; the Prolog tests will be skipped" >&2
fi
exit 0
