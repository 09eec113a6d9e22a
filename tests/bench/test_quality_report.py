"""The benchmark's table and results file: per ticket, totals, and refuted claims counted."""

import json
from pathlib import Path

from bench.quality.drive import TicketRun
from bench.quality.report import table, write_results
from bench.quality.scoring import Count, Score


def scored(name: str, hidden: tuple[int, int], claimed: bool) -> TicketRun:
    """A run whose hidden tests passed `hidden[0]` of `hidden[1]`."""
    score = Score(
        existing=Count(passed=2, total=2, output=""),
        hidden=Count(passed=hidden[0], total=hidden[1], output=""),
    )
    return TicketRun(
        name=name, key="A-1", status="completed", seconds=60.0, tokens=1000,
        claimed_success=claimed, score=score,
    )  # fmt: skip


def test_the_table_totals_and_counts_refuted_claims(tmp_path: Path) -> None:
    runs = [
        scored("solved", (4, 4), claimed=True),
        scored("half", (2, 4), claimed=True),  # claimed, refuted by the hidden tests
        TicketRun(name="broken", key="B-1", status="error", seconds=5.0, error="stack died"),
    ]
    assert [r.resolved for r in runs] == [True, False, False]
    text = table(runs)
    assert "solved" in text and "(stack died)" in text
    assert text.splitlines()[-2].split()[:3] == ["total", "1/3", "6/8"]
    assert text.splitlines()[-1] == "claimed success refuted by the hidden tests: 1"

    path = write_results(runs, "local", {"commit": "abc"}, tmp_path)
    data = json.loads(path.read_text())
    assert path.name.endswith("-local.json")
    assert (data["resolved"], data["tickets"], data["false_claims"]) == (1, 3, 1)
    assert data["runs"][1]["false_claim"] is True and data["settings"] == {"commit": "abc"}
