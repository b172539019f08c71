"""A process's descendants, and waiting for them to end, read from Linux's ``/proc``.

For the tests that kill a process and check that its workers did not outlive it (nothing here
needs psutil). :data:`HAS_PROC` says whether this machine has a ``/proc`` to read.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

PROC = Path("/proc")
HAS_PROC = (PROC / "self" / "stat").exists()


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid, or ``None`` once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (command) state ppid ...": the command may hold spaces and parentheses.
    state, ppid = text[text.rindex(")") + 2 :].split()[:2]
    return state, int(ppid)


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``: its children, theirs, and so on."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            children.setdefault(found[1], []).append(int(entry.name))
    below: set[int] = set()
    waiting = [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            if child not in below and alive(child):
                below.add(child)
                waiting.append(child)
    return below


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs: a zombie has ended (and where pid 1 does not reap the
    orphans it adopts, as in some containers, a zombie is all an ended one leaves)."""
    found = _stat(pid)
    return found is not None and found[0] not in {"Z", "X"}


def command_line(pid: int) -> str:
    """What ``pid`` was started as (empty once it is gone)."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


async def survivors(pids: set[int], *, timeout: float) -> set[int]:
    """Those of ``pids`` still alive after waiting up to ``timeout`` seconds for all to end."""
    deadline = time.monotonic() + timeout
    while (left := {p for p in pids if alive(p)}) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return left
