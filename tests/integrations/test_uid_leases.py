"""Uid leases: one uid per run at a time, the same one for a workspace, shared by processes."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.processes import until
from integrations.workspace.uid_leases import UidRange, UidsExhausted, uids_running

BASE = 2_100_000  # apart from the default range the rest of the suite leases from


def test_a_workspace_gets_its_uid_again_also_after_a_restart(tmp_path: Path) -> None:
    first = UidRange(base=BASE, count=64, directory=tmp_path).take("/ws/ticket-A/tests")
    assert first is not None and BASE <= first.uid < BASE + 64
    first.release()
    restarted = UidRange(base=BASE, count=64, directory=tmp_path)  # a new worker process
    again = restarted.take("/ws/ticket-A/tests")
    assert again is not None and again.uid == first.uid
    again.release()


def test_runs_at_once_never_share_a_uid(tmp_path: Path) -> None:
    uids = UidRange(base=BASE, count=3, directory=tmp_path)
    held = [uids.take("/ws/same") for _ in range(3)]  # one workspace's runs at once, too
    assert all(held)
    assert sorted(lease.uid for lease in held if lease) == [BASE, BASE + 1, BASE + 2]
    assert uids.take("/ws/other") is None
    for lease in held:
        if lease:
            lease.release()
    assert uids.take("/ws/other") is not None


def test_a_uid_another_worker_holds_is_not_given(tmp_path: Path) -> None:
    uids = UidRange(base=BASE, count=8, directory=tmp_path)
    probe = uids.take("/ws/ticket-B")
    assert probe is not None
    probe.release()
    holder = f"""
import fcntl, os, sys
fd = os.open({str(tmp_path / f"{probe.uid}.lease")!r}, os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""
    other = subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        lease = uids.take("/ws/ticket-B")
        assert lease is not None and lease.uid != probe.uid
        lease.release()
    finally:
        other.communicate("", timeout=30)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root")
async def test_a_uid_something_else_runs_as_is_skipped(tmp_path: Path) -> None:
    uids = UidRange(base=BASE, count=8, directory=tmp_path)
    probe = uids.take("/ws/ticket-C")
    assert probe is not None
    probe.release()
    as_uid = [f"--reuid={probe.uid}", f"--regid={probe.uid}", "--clear-groups"]
    stranger = subprocess.Popen(["setpriv", *as_uid, "sleep", "300"])
    try:

        async def running() -> bool:
            return probe.uid in uids_running()

        await until(running, 30, "the stranger's process to show")
        lease = uids.take("/ws/ticket-C")
        assert lease is not None and lease.uid != probe.uid
        lease.release()
    finally:
        stranger.kill()
        stranger.wait(timeout=30)


async def test_waiting_for_a_uid_ends_saying_which_setting_gives_more(tmp_path: Path) -> None:
    uids = UidRange(base=BASE, count=1, directory=tmp_path)
    async with uids.lease("/ws/ticket-D", 5) as lease:
        assert lease.uid == BASE
        with pytest.raises(UidsExhausted, match="TICKETSMITH_SANDBOX_UID_COUNT"):
            async with uids.lease("/ws/ticket-E", 0.3):
                pass
    async with uids.lease("/ws/ticket-E", 5) as lease:  # let go at the end of the block
        assert lease.uid == BASE


def test_a_lease_names_its_uid_for_programs_that_look_it_up(tmp_path: Path) -> None:
    lease = UidRange(base=BASE, count=4, directory=tmp_path).take("/ws/ticket-F")
    assert lease is not None
    passwd = lease.passwd.read_text().splitlines()
    assert passwd[-1].startswith(f"ticketsmith-run-{lease.uid - BASE}:x:{lease.uid}:{lease.uid}:")
    assert passwd[:-1] == Path("/etc/passwd").read_text().splitlines()  # the machine's own
    assert lease.group.read_text().splitlines()[-1].endswith(f":x:{lease.uid}:")
    lease.release()
