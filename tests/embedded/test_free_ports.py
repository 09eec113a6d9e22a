"""The test run's free ports: outside the kernel's ephemeral range, never handed out twice."""

import socket
from pathlib import Path

from tests.support.processes import free_port


def test_ports_are_distinct_bindable_and_below_the_ephemeral_range() -> None:
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    assert all(port < low for port in ports), f"{ports} reach into the ephemeral range from {low}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", ports[-1]))
