"""How large a ticket's history grows: events, bytes and the largest payload, by QA revisions.

Tickets run in --auto mode with a scripted QA reviewer that asks for fixes until the wanted
revision, once with plain payloads and once with payloads encrypted by the worker's codec; then
one ticket whose change is --large-kib of code, whose payloads go to the payload store.
Temporal's limits: 51,200 events and 50 MB per history, 2 MB per payload (warned from 512 KB).
Usage: python -m bench.history [--revisions 1,5,15] [--large-kib 300]
"""

import argparse
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.support.figures import CannotMeasureError, Report, run_main
from bench.support.histories import size
from bench.support.stack import (
    ADDITIONS,
    OPERATIONS,
    bench_stack,
    client_for,
    run_ticket,
    ticket_keys,
)
from encryption.codec import new_key
from harness.model_server import FakeModelServer
from harness.team import TeamBrain

EVENT_LIMIT = 50_000
BYTE_LIMIT = 50 * 2**20
PAYLOAD_WARNING = 512 * 2**10


@dataclass
class RevisingBrain(TeamBrain):
    """The team, with a QA reviewer that wants fixes until revision `revisions`."""

    revisions: int = 1
    reviews: int = 0

    def _review(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        self.reviews += 1
        if self.reviews >= self.revisions:
            return super()._review(body, inputs)
        fixes = [{"path": p, "instruction": f"Revise it ({self.reviews})."} for p in self.additions]
        return json.dumps({"passed": False, "summary": "Needs another pass.", "fixes": fixes})


def large_additions(kib: int) -> dict[str, str]:
    """The usual change, with about `kib` KiB of generated table rows in the module."""
    row = "TABLE_{:06d} = {:>12}  # one row of a generated lookup table\n"
    rows = "".join(row.format(n, n * 7) for n in range(kib * 1024 // len(row.format(0, 0))))
    return {**ADDITIONS, OPERATIONS: ADDITIONS[OPERATIONS] + "\n\n" + rows}


def on_disk(store: Path) -> tuple[int, int]:
    """Files in the payload store and their bytes."""
    files = [p for p in store.rglob("*") if p.is_file()] if store.exists() else []
    return len(files), sum(p.stat().st_size for p in files)


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__)
    parser.add_argument("--revisions", default="1,5,15", help="QA revisions (default 1,5,15)")
    parser.add_argument("--large-kib", type=int, default=300, help="the large change (0: none)")
    args = parser.parse_args()
    wanted = [int(r) for r in args.revisions.split(",")]
    runs = [(revisions, 0) for revisions in wanted]
    if args.large_kib:
        runs.append((1, args.large_kib))
    report = Report("history: events and bytes of one ticket by QA revisions")
    brain = RevisingBrain(additions=ADDITIONS)
    model = FakeModelServer(brain)
    model.start()
    try:
        for encrypted in (False, True):
            keys: dict[str, Any] = {"encryption_keys": new_key("bench")} if encrypted else {}
            label = "encrypted" if encrypted else "plain"
            with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
                async with bench_stack(Path(tmp), model, len(runs), **keys) as stack:
                    client = await client_for(stack.settings)
                    store = stack.settings.payload_store_path
                    # Payloads under the store's threshold (the store off: Temporal's warning).
                    threshold = stack.settings.payload_store_threshold_kib * 1024 or PAYLOAD_WARNING
                    for key, (revisions, large) in zip(ticket_keys(len(runs)), runs, strict=True):
                        brain.revisions, brain.reviews = revisions, 0
                        brain.additions = large_additions(large) if large else ADDITIONS
                        before = on_disk(store)
                        result = await run_ticket(client, stack.settings, key, timeout_s=900)
                        if not result.pr_url:
                            raise CannotMeasureError(f"{key} failed: {result.message}")
                        found = await size(client, f"ticket-{key}")
                        name = f"{label}, {revisions} revision{'s' * (revisions > 1)}"
                        if large:
                            name = f"{label}, {large} KiB change"
                        report.figure(
                            f"{name}: events / bytes",
                            f"{found.events} / {found.bytes / 1024:.0f} KiB",
                            "far below 50k events / 50 MB",
                            found.events < EVENT_LIMIT / 10 and found.bytes < BYTE_LIMIT / 10,
                        )
                        report.figure(
                            f"{name}: largest payload",
                            f"{found.largest_payload / 1024:.1f} KiB",
                            f"< {threshold // 1024} KiB",
                            found.largest_payload < threshold,
                        )
                        report.note(f"largest payload in {found.largest_payload_where}")
                        files_after, bytes_after = on_disk(store)
                        files, stored_bytes = files_after - before[0], bytes_after - before[1]
                        report.figure(
                            f"{name}: stored payloads",
                            f"{found.stored} referenced ({found.stored_bytes / 1024:.0f} KiB); "
                            f"{files} files, {stored_bytes / 1024:.0f} KiB written",
                        )
                        if brain.reviews != revisions:
                            report.note(f"the reviewer was asked {brain.reviews} times")
    finally:
        model.stop()
    return report.done()


if __name__ == "__main__":
    run_main(main())
