"""Which sandbox limit stopped a run, told from its exit and its output."""

import signal

from integrations.workspace.limits import limit_hit

REFUSED_FORK = "BlockingIOError: [Errno 11] Resource temporarily unavailable"


def test_a_fork_bomb_killed_for_cpu_after_its_forks_were_refused_hit_the_process_limit() -> None:
    xcpu = -int(signal.SIGXCPU)
    assert limit_hit(xcpu, REFUSED_FORK, timed_out=False, too_much_output=False) == "processes"
    assert limit_hit(xcpu, "", timed_out=False, too_much_output=False) == "cpu_time"
    assert limit_hit(1, "MemoryError", timed_out=False, too_much_output=False) == "memory"
    assert limit_hit(0, REFUSED_FORK, timed_out=False, too_much_output=False) is None
