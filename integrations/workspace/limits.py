"""Which of the sandbox's limits stopped a run, told from how it ended and what it printed."""

import re
import signal

LIMIT_NAMES = {
    "wall_time": "wall time",
    "cpu_time": "CPU time",
    "memory": "memory",
    "processes": "processes",
    "output_size": "output size",
}
# A refused allocation (RLIMIT_AS) as Python, C and C++ programs report it.
_MEMORY = re.compile(r"\bMemoryError\b|Cannot allocate memory|std::bad_alloc|out of memory", re.I)
# A refused fork or thread (RLIMIT_NPROC).
_PROCESSES = re.compile(
    r"BlockingIOError: \[Errno 11\]|Resource temporarily unavailable|Cannot fork"
    r"|can't start new thread|fork: retry",
    re.I,
)
_CPU_SIGNALS = {int(signal.SIGXCPU)}


def limit_hit(exit_code: int, output: str, *, timed_out: bool, too_much_output: bool) -> str | None:
    """The key (in LIMIT_NAMES) of the limit that stopped a run, or None.

    Wall time and output size are measured here; CPU time shows as death by SIGXCPU; memory and
    processes are refused allocations and forks, which the failing program reports.
    """
    if too_much_output:
        return "output_size"
    # A fork bomb refused its forks first; its processes may then spin until SIGXCPU.
    if exit_code != 0 and _PROCESSES.search(output):
        return "processes"
    signalled = -exit_code if exit_code < 0 else exit_code - 128 if exit_code > 128 else 0
    if signalled in _CPU_SIGNALS:
        return "cpu_time"
    if exit_code != 0 and _MEMORY.search(output):
        return "memory"
    if timed_out:
        return "wall_time"
    return None
