"""What the sandbox costs per test run: the same commands with and without bubblewrap.

    python -m bench.sandbox [--runs N]

Builds the seeded demo/sizes repository's environment once (timed: the first set-up, then
its reuse), then runs `python -c pass` and the repository's real pytest suite N times each,
unsandboxed (TICKETSMITH_SANDBOX=none) and in bubblewrap, and prints medians and ratios.
"""

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from config import ROOT
from integrations.environments.build import Environments
from integrations.workspace.commands import run_command
from integrations.workspace.sandbox import Sandbox

SEED = ROOT / "emulators" / "seed" / "repos" / "sizes"
COMMANDS = {
    "python -c pass": "python -c pass",
    "pytest (3 tests)": "python -m pytest -q -p no:cacheprovider",
}


async def timed(checkout: Path, command: str, env: Path, sandbox: Sandbox) -> float:
    """Wall seconds of one run, failing the bench when the command fails."""
    began = time.perf_counter()
    result = await run_command(checkout, command, 300, env_dir=env, sandbox=sandbox)
    elapsed = time.perf_counter() - began
    if result.exit_code != 0:
        raise SystemExit(f"`{command}` failed ({result.exit_code}): {result.output[-2000:]}")
    return elapsed


async def main(runs: int) -> None:
    """Print set-up times, then per-command medians with and without bubblewrap."""
    sandboxed, plain = Sandbox(mode="bwrap"), Sandbox(mode="none")
    sandboxed.check()
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as scratch:
        checkout = Path(scratch) / "sizes"
        shutil.copytree(SEED, checkout)
        environments = Environments(Path(scratch) / "environments", sandboxed)
        first = await environments.ensure(checkout, "demo/sizes")
        again = await environments.ensure(checkout, "demo/sizes")
        if first.error or first.path is None:
            raise SystemExit(first.error)
        print(
            f"environment set-up: first {first.setup_seconds:.2f}s,"
            f" reused {again.setup_seconds:.3f}s"
        )
        print(f"{runs} runs each; median wall seconds")
        print(f"  {'command':<18} {'none':>8} {'bwrap':>8} {'ratio':>7} {'overhead':>9}")
        for name, command in COMMANDS.items():
            bare, boxed = [], []
            for _ in range(runs):  # interleaved, so load on the machine hits both alike
                bare.append(await timed(checkout, command, first.path, plain))
                boxed.append(await timed(checkout, command, first.path, sandboxed))
            low, high = statistics.median(bare), statistics.median(boxed)
            print(
                f"  {name:<18} {low:>7.3f}s {high:>7.3f}s {high / low:>6.2f}x"
                f" {1000 * (high - low):>7.0f}ms"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    asyncio.run(main(parser.parse_args().runs))
