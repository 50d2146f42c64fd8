"""Shared pytest set-up: SWI-Prolog availability and what to skip without it.

Tests that need SWI-Prolog use the `swi` marker (or the `prolog` fixture). Without
SWI-Prolog they are skipped with the reason, unless LOGICPY_REQUIRE_SWI=1 (CI), which
turns the missing engine into a failure so the bridge is always exercised there.
"""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings

# Property tests judge results, not speed: no per-example deadline on a loaded 2-core machine.
settings.register_profile("logicpy", deadline=None)
settings.load_profile("logicpy")

collect_ignore = ["logicpy/__main__.py"]

REQUIRE_SWI = os.environ.get("LOGICPY_REQUIRE_SWI") == "1"


def swi_missing_reason() -> str | None:
    """Why SWI-Prolog cannot be used here, or None when it can."""
    if shutil.which("swipl") is None:
        return "SWI-Prolog is not installed (Debian: apt-get install swi-prolog-nox)"
    try:
        import pyswip  # noqa: F401
    except Exception as exc:  # ImportError, or pyswip failing to find libswipl
        return f"pyswip cannot be used: {exc}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = swi_missing_reason()
    if reason is None:
        return
    for item in items:
        if "swi" in item.keywords:
            if REQUIRE_SWI:
                item.add_marker(pytest.mark.xfail(reason="LOGICPY_REQUIRE_SWI=1: " + reason, run=False, strict=True))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_sessionstart(session):
    reason = swi_missing_reason()
    if reason is not None and REQUIRE_SWI:
        raise pytest.UsageError(f"LOGICPY_REQUIRE_SWI=1 but {reason}")
