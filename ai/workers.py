"""Process pools whose workers end when the process that made them ends, however it ends.

A worker of a :class:`~concurrent.futures.ProcessPoolExecutor` outlives its parent when the
parent dies without shutting the pool down (``kill -9``, the OOM killer): re-parented to pid 1,
it waits for work for ever, and multiprocessing's resource tracker, which stays while anyone
holds its pipe, stays with it. So every worker of :func:`process_pool` is handed the read end of
a pipe, the lifeline, whose write end only the process that made the pool holds, and a thread
that reads it. Nobody ever writes to it: the read returns only when the kernel has closed every
write end, that is when that process has died, and the worker then exits at once (a worker
busy in code that holds the GIL, drawing say, once it lets go). The resource tracker exits when
every holder of its own pipe has gone: the dead process, then its last worker.

Why a pipe rather than Linux's ``PR_SET_PDEATHSIG``: that signal follows the *thread* that
started the worker, and a pool starts its workers from whichever thread submits work (with
``forkserver``, the fork server starts them); it is also Linux's alone. The pipe behaves the
same for every start method and platform, and has no race: a worker that starts after its
parent died finds the pipe already at its end.

It lives in :mod:`ai` (standard library only here) because the engine's pool and :mod:`bot`'s
board-drawing pool both use it, and bot may import ai but not the other way round.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext

_lifeline: tuple[Connection, Connection] | None = None
"""This process's lifeline, once a pool needs it: the read end (each worker gets a copy) and the
write end (kept open, never written to, until this process ends)."""
_lifeline_lock = threading.Lock()


def process_pool(
    workers: int,
    context: BaseContext,
    *,
    initializer: Callable[[], object] | None = None,
) -> ProcessPoolExecutor:
    """A pool of up to ``workers`` processes, started with ``context``, that exit within moments
    of this process's end, even when it is killed; ``initializer`` runs in each as it starts
    (as :class:`~concurrent.futures.ProcessPoolExecutor`'s does)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(_read_end(), initializer),
    )


def _read_end() -> Connection:
    global _lifeline  # noqa: PLW0603 - one lifeline per process, made when first needed
    with _lifeline_lock:
        if _lifeline is None:
            _lifeline = multiprocessing.Pipe(duplex=False)
        return _lifeline[0]


def _start_worker(lifeline: Connection, initializer: Callable[[], object] | None) -> None:
    """Runs first in each worker: watch the lifeline, then do the caller's own start."""
    watcher = threading.Thread(target=_exit_at_end_of, args=(lifeline,), name="lifeline")
    watcher.daemon = True
    watcher.start()
    if initializer is not None:
        initializer()


def _exit_at_end_of(lifeline: Connection) -> None:
    """The lifeline's watcher: block until the pool's maker has died, then end this worker
    without the interpreter's clean-up (its work has nobody left to take it)."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()  # nothing is ever sent: this returns only at the pipe's end
    os._exit(1)


def _forked() -> None:
    """In a child forked from a process that holds a lifeline (a pool started with ``fork``,
    or any other fork): close the child's copy of the write end, or the child would keep its
    own lifeline open (and a forked worker would wait for itself); pools the child makes get a
    lifeline of their own."""
    global _lifeline, _lifeline_lock  # noqa: PLW0603 - they are the parent's copies here
    _lifeline_lock = threading.Lock()  # another thread may have held it at the fork
    if _lifeline is not None:
        _lifeline[1].close()
        _lifeline = None  # the read end stays open while a forked worker's arguments hold it


if sys.platform != "win32":
    os.register_at_fork(after_in_child=_forked)
