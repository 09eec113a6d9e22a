"""A uid of its own for each sandboxed run, so that the processes limit is the run's alone.

The kernel counts RLIMIT_NPROC per uid across the machine: runs that shared a uid shared one
process budget, and one run's fork bomb starved the others. A root worker's runs take their
uids from a range; a run holds its uid by an flock on the uid's lease file, in a folder every
worker on the machine shares, and a workspace gets the same uid each time (its hash picks it)
unless another run holds that uid or something on the machine runs as it.
"""

import asyncio
import contextlib
import fcntl
import hashlib
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

LEASE_DIR = Path("/run/ticketsmith/sandbox-uids")  # /run: no lease outlives a reboot
RETRY_S = 0.2


class UidsExhausted(RuntimeError):
    """Every uid of the range stayed held for as long as a run could wait for one."""


class Lease:
    """One run's hold on a uid, and the passwd and group files that name it; until `release`."""

    def __init__(self, uid: int, passwd: Path, group: Path, fd: int) -> None:
        self.uid = uid
        self.passwd = passwd
        self.group = group
        self._fd = fd

    def release(self) -> None:
        """Let the uid go (closing the lease file drops its lock)."""
        os.close(self._fd)


@dataclass(frozen=True)
class UidRange:
    """The uids sandboxed runs are given, one per run at a time, and where their leases are."""

    base: int = 2_000_000
    count: int = 1024
    directory: Path = LEASE_DIR

    def describe(self) -> str:
        """The range as `first-last`."""
        return f"{self.base}-{self.base + self.count - 1}"

    def take(self, key: str) -> Lease | None:
        """A lease for the workspace `key` (its own uid if free, else the next free one), or
        None while every uid is held."""
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        running = uids_running()
        first = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % self.count
        for step in range(self.count):
            uid = self.base + (first + step) % self.count
            # A run that just ended may still be dying; a uid something else uses is not ours.
            if uid in running:
                continue
            lease = self._hold(uid, key)
            if lease is not None:
                return lease
        return None

    @contextlib.asynccontextmanager
    async def lease(self, key: str, timeout_s: float) -> AsyncIterator[Lease]:
        """Hold a uid for the workspace `key` while the block runs, waiting up to `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        while (lease := self.take(key)) is None:
            if time.monotonic() >= deadline:
                raise UidsExhausted(
                    f"all {self.count} sandbox uids ({self.describe()}) stayed in use for "
                    f"{timeout_s:.0f} s: raise TICKETSMITH_SANDBOX_UID_COUNT"
                )
            await asyncio.sleep(RETRY_S)
        try:
            yield lease
        finally:
            lease.release()

    def _hold(self, uid: int, key: str) -> Lease | None:
        """Lock the uid's lease file (flock: runs in this process exclude each other too)."""
        fd = os.open(self.directory / f"{uid}.lease", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {key}\n".encode(), 0)  # who holds it, for an operator
        name = f"ticketsmith-run-{uid - self.base}"
        passwd = self._named(uid, "passwd", f"{name}:x:{uid}:{uid}:sandboxed run:/tmp:/bin/false")
        group = self._named(uid, "group", f"{name}:x:{uid}:")
        return Lease(uid, passwd, group, fd)

    def _named(self, uid: int, table: str, line: str) -> Path:
        """The machine's /etc/<table> with a line for the uid, so programs can look it up."""
        try:
            own = Path("/etc", table).read_text()
        except OSError:
            own = ""
        path = self.directory / f"{uid}.{table}"
        path.write_text("\n".join([*own.splitlines(), line]) + "\n")
        path.chmod(0o644)
        return path


def uids_running() -> set[int]:
    """The uids that own a process this machine shows (in this PID namespace)."""
    uids: set[int] = set()
    with os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit():
                with contextlib.suppress(OSError):  # it ended meanwhile
                    uids.add(entry.stat(follow_symlinks=False).st_uid)
    return uids
