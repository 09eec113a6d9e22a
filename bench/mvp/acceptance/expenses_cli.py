"""Acceptance of the expense tracker: add two expenses, read the total."""

import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """One command of the tracker, as its user types it."""
    return subprocess.run(
        [sys.executable, "-m", "expenses", *args], capture_output=True, text=True, timeout=30
    )


def main() -> int:
    for args in (("add", "12.50", "lunch"), ("add", "7.25", "bus")):
        done = run(*args)
        if done.returncode != 0:
            print(f"FAIL add {args}: exit {done.returncode}\n{done.stdout}{done.stderr}")
            return 1
    total = run("total")
    if total.returncode != 0 or "19.75" not in total.stdout:
        print(f"FAIL total: exit {total.returncode}, printed {total.stdout!r}{total.stderr}")
        return 1
    print(f"ok: total printed {total.stdout.strip()!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
