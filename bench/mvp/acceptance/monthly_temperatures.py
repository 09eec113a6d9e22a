"""Acceptance of the temperature report: two months of readings, their averages in order."""

import subprocess
import sys
from pathlib import Path

READINGS = """date,temperature_c
2024-02-01,4.0
2024-01-01,1.0
2024-01-02,3.5
2024-02-02,7.0
2024-01-03,2.0
"""
EXPECTED = ["2024-01: 2.2", "2024-02: 5.5"]


def main() -> int:
    Path("temps.csv").write_text(READINGS)
    done = subprocess.run(
        [sys.executable, "report.py", "temps.csv"], capture_output=True, text=True, timeout=30
    )
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or lines != EXPECTED:
        print(f"FAIL: exit {done.returncode}, printed {lines!r}, expected {EXPECTED!r}")
        print(done.stderr[-500:])
        return 1
    print(f"ok: {lines!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
