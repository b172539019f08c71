"""Turns between the workers of a distributed run (tests/conftest.py): an `alone` test waits for
the tests running beside it, and those that come after it wait for it."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.conftest import take_turn

WAIT = 10.0
"""Seconds to wait for what must happen (a slow machine is slow, not wrong)."""
PAUSE = 0.2
"""Seconds in which what must not happen would most likely have happened."""


def _eventually(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _gate_shut(folder: Path) -> bool:
    """Whether someone holds the gate (an `alone` test waiting for the room to empty)."""
    gate = os.open(folder / "gate", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(gate, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(gate)
    return False


def test_tests_that_are_not_alone_run_side_by_side(tmp_path: Path) -> None:
    with take_turn(tmp_path, alone=False), take_turn(tmp_path, alone=False):
        pass  # the second did not wait for the first


def test_an_alone_test_waits_for_the_one_running_and_the_next_one_waits_for_it(
    tmp_path: Path,
) -> None:
    log: list[str] = []
    done = threading.Event()

    def alone() -> None:
        with take_turn(tmp_path, alone=True):
            log.append("alone")
            done.wait(WAIT)

    def next_one() -> None:
        with take_turn(tmp_path, alone=False):
            log.append("next")

    first, second = threading.Thread(target=alone), threading.Thread(target=next_one)
    with take_turn(tmp_path, alone=False):  # a test running in the other worker
        first.start()
        assert _eventually(lambda: _gate_shut(tmp_path))
        second.start()  # comes after the alone one, and keeps coming
        time.sleep(PAUSE)
        assert log == []
    assert _eventually(lambda: log == ["alone"])
    time.sleep(PAUSE)
    assert log == ["alone"]  # the next one waits while the alone one runs
    done.set()
    first.join(WAIT)
    second.join(WAIT)
    assert log == ["alone", "next"]
