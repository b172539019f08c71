"""What the storage and load benchmarks share: a durable throwaway PostgreSQL server, and a
watch on the CPU time of the processes a benchmark runs (itself, bots, PostgreSQL's).

The tests' server (:mod:`tests.postgres`) turns ``fsync`` and ``synchronous_commit`` off and
lives in /dev/shm, memory: right for tests, wrong for a benchmark that sets it beside an SQLite
file synced on every commit (``synchronous=FULL``). :func:`durable_postgres` starts the same
server with PostgreSQL's own defaults (``fsync``, ``synchronous_commit``, ``full_page_writes``
on) in a directory on disk (by default /tmp, where the benchmarks also put their SQLite files),
so that a commit on either backend returns once it is on the disk.

:class:`CpuWatch` reads ``/proc`` (Linux): each group's user + system seconds (its processes'
own, or their whole trees'), sampled every second, as a share of one core over the whole run
and over its busiest few seconds, beside the machine's (``/proc/stat``: every tenant's work,
iowait, and the time the hypervisor took, steal).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from unittest import mock

import tests.postgres
from tests.postgres import INSTALL_HINT, MISSING_BINARIES, PostgresServer, find_server_binaries

DURABLE: Mapping[str, str] = {
    **tests.postgres.SETTINGS,
    "fsync": "on",
    "synchronous_commit": "on",
    "full_page_writes": "on",
}
"""The tests' server settings with PostgreSQL's defaults for durability put back."""

DEFAULT_DIRECTORY = Path("/tmp")
"""Where the benchmarks' databases go: a disk (not tmpfs), open to the ``postgres`` user."""


@contextlib.contextmanager
def durable_postgres(parent: Path = DEFAULT_DIRECTORY) -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server in a new directory under ``parent``, committing durably;
    stopped and deleted at the end. Exits with a hint when PostgreSQL's programs are missing."""
    binaries = find_server_binaries()
    if binaries is None:
        raise SystemExit(f"{MISSING_BINARIES}: {INSTALL_HINT}")
    server = PostgresServer(binaries)
    directory = Path(tempfile.mkdtemp(prefix="dvonn-bench-pg-", dir=parent))
    # tests.postgres reads its settings from the module when it starts the server.
    with mock.patch.object(tests.postgres, "SETTINGS", DURABLE):
        server.start(directory)
    try:
        yield server
    finally:
        server.stop()


def postmaster_pid(server: PostgresServer) -> int | None:
    """The server's main process (its backends are its children), from ``postmaster.pid``."""
    try:
        return int((server.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


# --- CPU time --------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")

Scope = Literal["own", "tree", "children"]
"""Which processes a group counts: its roots only, roots and descendants, descendants only."""


@dataclass(frozen=True)
class Group:
    """Processes whose CPU time is added up under one name."""

    name: str
    roots: Sequence[int]
    scope: Scope = "own"


@dataclass(frozen=True)
class _Proc:
    ppid: int
    own: float
    """User + system seconds of the process itself (all its threads)."""
    reaped: float
    """User + system seconds of its children that it waited for (exited)."""


def _processes() -> dict[int, _Proc]:
    found: dict[int, _Proc] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        # man 5 proc: ppid is field 4, utime..cstime fields 14..17 (here from field 3 on).
        utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
        found[int(entry.name)] = _Proc(
            int(fields[1]), (utime + stime) / TICK, (cutime + cstime) / TICK
        )
    return found


def _machine() -> tuple[float, float, float, float]:
    """Seconds since boot, summed over every CPU: busy, iowait, steal, all."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    total = user + nice + system + idle + iowait + irq + softirq + steal
    busy = user + nice + system + irq + softirq
    return busy / TICK, iowait / TICK, steal / TICK, total / TICK


def _descendants(roots: Sequence[int], processes: Mapping[int, _Proc]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, proc in processes.items():
        children.setdefault(proc.ppid, []).append(pid)
    found: set[int] = set()
    todo = [child for root in roots for child in children.get(root, [])]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def peak_rss(roots: Sequence[int]) -> dict[int, int]:
    """The peak resident set size (``VmHWM``, KiB) of each living process of ``roots`` and of
    their descendants, by pid (Linux)."""
    pids = [*roots, *sorted(_descendants(roots, _processes()))]
    found: dict[int, int] = {}
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # exited meanwhile
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                found[pid] = int(line.split()[1])
    return found


@dataclass(frozen=True)
class Sample:
    at: float
    groups: dict[str, float]
    """Each group's CPU seconds so far (counted from its processes' starts)."""
    busy: float
    iowait: float
    steal: float
    total: float


def sample(groups: Sequence[Group]) -> Sample:
    """Every group's CPU seconds and the machine's, now. The moment is the middle of the reads:
    on a busy machine this process may wait for a core between them."""
    before = time.perf_counter()
    busy, iowait, steal, total = _machine()
    processes = _processes()
    after = time.perf_counter()
    seconds: dict[str, float] = {}
    for group in groups:
        roots = [pid for pid in group.roots if pid in processes]
        pids: set[int] = set()
        if group.scope in ("own", "tree"):
            pids.update(roots)
        if group.scope in ("tree", "children"):
            pids.update(_descendants(roots, processes))
        # A child that exited counts in its parent's ``reaped``; not so the roots' own children
        # when the group leaves them out ("own": the benchmark, whose children are the bots).
        seconds[group.name] = sum(
            processes[pid].own + (processes[pid].reaped if group.scope != "own" else 0.0)
            for pid in pids
        )
    return Sample((before + after) / 2, seconds, busy, iowait, steal, total)


@dataclass
class CpuUsage:
    """CPU time over a run, as a percentage of one core (two cores: up to 200 %)."""

    seconds: float
    groups: dict[str, float]
    machine_busy: float
    iowait: float
    steal: float
    peak_seconds: float = 0.0
    peak_groups: dict[str, float] = field(default_factory=dict)
    peak_machine: float = 0.0
    cores: int = field(default_factory=lambda: os.cpu_count() or 1)

    @staticmethod
    def between(first: Sample, last: Sample) -> CpuUsage:
        wall = max(last.at - first.at, 1e-9)
        cores = (last.total - first.total) / wall  # CPU seconds a second: the cores
        return CpuUsage(
            seconds=wall,
            groups={
                name: 100 * (last.groups[name] - first.groups.get(name, 0.0)) / wall
                for name in last.groups
            },
            machine_busy=100 * (last.busy - first.busy) / wall,
            iowait=100 * (last.iowait - first.iowait) / wall,
            steal=100 * (last.steal - first.steal) / wall,
            cores=round(cores) or 1,
        )

    def render(self) -> str:
        def shares(groups: Mapping[str, float]) -> str:
            return ", ".join(f"{name} {share:.0f}%" for name, share in groups.items())

        text = (
            f"CPU over {self.seconds:.1f} s (% of one core): {shares(self.groups)}; machine busy "
            f"{self.machine_busy:.0f}% of {100 * self.cores}%, iowait {self.iowait:.0f}%, "
            f"steal {self.steal:.0f}%"
        )
        if self.peak_groups:
            text += (
                f"\n  busiest {self.peak_seconds:.0f} s: {shares(self.peak_groups)}; "
                f"machine busy {self.peak_machine:.0f}%"
            )
        return text


class CpuWatch:
    """Samples ``groups`` every ``interval`` seconds while running (``async with``); then
    :attr:`usage` is the whole run's, and its busiest ``window`` seconds' (the most CPU
    time in all the groups together)."""

    def __init__(
        self,
        groups: Sequence[Group],
        *,
        interval: float = 1.0,
        window: float = 5.0,
        busiest_by: Sequence[str] | None = None,
    ):
        """``busiest_by``: the groups whose total picks the busiest window (default: all;
        leave out groups that overlap others, such as one bot of several)."""
        self.groups = list(groups)
        self.busiest_by = list(busiest_by) if busiest_by is not None else None
        self.interval = interval
        self.window = window
        self.samples: list[Sample] = []
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> CpuWatch:
        self.samples = [sample(self.groups)]
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.samples.append(sample(self.groups))

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.samples.append(sample(self.groups))

    def _load(self, usage: CpuUsage) -> float:
        names = self.busiest_by if self.busiest_by is not None else usage.groups
        return sum(usage.groups.get(name, 0.0) for name in names)

    @property
    def usage(self) -> CpuUsage:
        usage = CpuUsage.between(self.samples[0], self.samples[-1])
        best: CpuUsage | None = None
        for i, first in enumerate(self.samples):
            last = next((s for s in self.samples[i:] if s.at - first.at >= self.window), None)
            if last is None:
                break
            window = CpuUsage.between(first, last)
            if best is None or self._load(window) > self._load(best):
                best = window
        if best is not None:
            usage.peak_seconds = best.seconds
            usage.peak_groups = best.groups
            usage.peak_machine = best.machine_busy
        return usage
