"""Processes that die with the one that started them, even when it is killed with SIGKILL.

Two means: a child started through `popen_bound` gets the kernel's parent-death signal, and
`Reaper` is a watchdog process that kills the processes registered with it (including ones
started by a library, such as the SDK's dev server) once its parent's end of a pipe closes.
"""

import ctypes
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def _die_with_parent() -> None:
    """In the child before exec: the kernel kills it when its parent dies."""
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the parent died before the signal was armed
        os._exit(1)


def popen_bound(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """`subprocess.Popen` in its own process group, killed when this process dies.

    The kernel signals when the thread that started the child ends: call it from the main
    thread (or the event loop's), not from a short-lived worker thread.
    """
    return subprocess.Popen(argv, start_new_session=True, preexec_fn=_die_with_parent, **kwargs)


def children(pid: int | None = None) -> list[int]:
    """The direct children of a process (this one by default), read from /proc."""
    parent = os.getpid() if pid is None else pid
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _parent_of(int(entry.name)) == parent:
            found.append(int(entry.name))
    return found


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot: a pid plus this names one process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


class Reaper:
    """A watchdog process that kills what it was given once this process is gone."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "embedded.reaper"],
            stdin=subprocess.PIPE,
            start_new_session=True,
        )

    def guard(self, pid: int) -> None:
        """Kill this process (and its group) when the process that owns the reaper dies."""
        started = start_time(pid)
        if started is not None and self._process.stdin is not None:
            self._process.stdin.write(f"{pid} {started}\n".encode())
            self._process.stdin.flush()

    def guard_children(self) -> None:
        """Guard every child of this process that exists now (except the reaper)."""
        for pid in children():
            if pid != self._process.pid:
                self.guard(pid)

    def close(self) -> None:
        """Kill what is still guarded now, and stop the watchdog."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


def _kill_guarded(guarded: dict[int, str]) -> None:
    for pid, started in guarded.items():
        if start_time(pid) != started:
            continue  # gone, or the pid now names another process
        try:
            # Its whole group only when it leads one: a library's child may share ours.
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def main() -> None:
    """Read `PID START` lines until the pipe closes, then kill those processes."""
    guarded: dict[int, str] = {}
    for line in sys.stdin:
        pid, started = line.split()
        guarded[int(pid)] = started
    _kill_guarded(guarded)


if __name__ == "__main__":
    main()
