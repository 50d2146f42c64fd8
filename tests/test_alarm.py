"""The commands' --timeout alarm (logicpy/alarm.py): it cannot be lost by the computation it stops."""

from __future__ import annotations

import time

import pytest

from logicpy.alarm import TimeUp, time_limit


def test_a_ring_swallowed_once_rings_again():
    """A ring dropped where Python ignores exceptions (a finalizer) must not end the limit."""
    swallowed = 0
    start = time.monotonic()
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            while time.monotonic() - start < 5:
                try:
                    while time.monotonic() - start < 5:
                        pass
                except TimeUp:
                    swallowed += 1
                    if swallowed > 1:
                        raise
    assert swallowed == 2 and time.monotonic() - start < 2


def test_except_exception_does_not_catch_it():
    caught = []
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            try:
                time.sleep(2)
            except Exception as exc:  # noqa: BLE001 - the point of the test
                caught.append(exc)
    assert caught == []


def test_no_limit_and_leaving_early_leave_no_alarm():
    with time_limit(None):
        pass
    with time_limit(0.05):
        pass
    time.sleep(0.2)  # a ring left armed would raise here
