"""The test run's free ports: outside the kernel's ephemeral range, never handed out twice."""

import socket
from pathlib import Path

from harness.processes import free_port, worker_ports


def test_ports_are_distinct_bindable_and_below_the_ephemeral_range() -> None:
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    assert all(port < low for port in ports), f"{ports} reach into the ephemeral range from {low}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", ports[-1]))


def test_parallel_test_workers_choose_from_ranges_that_do_not_overlap() -> None:
    shares = [worker_ports(f"gw{n}", "3") for n in range(3)]
    for first, second in zip(shares, shares[1:], strict=False):
        assert first.stop <= second.start
    assert all(len(share) >= 3000 for share in shares)
    assert worker_ports(None, None) == range(20000, 32000)
