"""The benchmark over several runs: resolve rates, resolved per run and its spread, seeds."""

import argparse
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bench.quality import __main__ as bench
from bench.quality import rates
from bench.quality.drive import TicketRun, tokens_so_far, where_cut
from bench.quality.rates import rate_table, spread
from bench.quality.report import ResultsError, read_many, read_results, report, write_results
from bench.quality.revisions import (
    implementation_seconds,
    log_size,
    logged_calls,
    model_steps,
    steps_line,
    tokens_at_first_revision,
)
from bench.quality.scoring import Count, Score
from bench.quality.tickets import load_tickets
from graphs.progress import ImplementationProgress
from tickets.projects import load_projects
from workflows.ticket.messages import Phase, PhaseUsage, Status, TicketResult, TicketStatus

RESULTS = Path(bench.__file__).resolve().parent / "results"


def ticket_run(name: str, run: int, resolved: bool, **figures: object) -> TicketRun:
    """One ticket of run `run` (seed 100 + run), resolved or failing one hidden test of four."""
    score = Score(
        existing=Count(passed=2, total=2, output=""),
        hidden=Count(passed=4 if resolved else 3, total=4, output=""),
    )
    return TicketRun(
        name=name, key="A-1", status="completed", seconds=100.0 * run, tokens=1000 * run,
        run=run, seed=100 + run, score=score, **figures,
    )  # fmt: skip


def three_runs() -> list[TicketRun]:
    """Three runs of two tickets: `easy` resolved in all, `hard` only in the second."""
    timed = {
        "first_revision_seconds": 60.0,
        "first_revision_tokens": 9000,
        "prompt_tokens_per_call": 1800.0,
        "cached_share": 0.6,
    }
    return [
        ticket_run("easy", 1, True, **timed, revisions=2, implementation_seconds=80.0),
        ticket_run("hard", 1, False),
        ticket_run("easy", 2, True, **timed, revisions=4, implementation_seconds=80.0),
        ticket_run("hard", 2, True),
        ticket_run("easy", 3, True),
        ticket_run("hard", 3, False, claimed_success=True),  # refuted
    ]


def test_each_ticket_has_its_rate_and_the_runs_their_spread() -> None:
    runs = three_runs()
    counts = spread(runs)
    assert (counts.resolved, counts.tickets) == ([1, 2, 1], [2, 2, 2])
    assert counts.mean == pytest.approx(4 / 3)
    assert counts.stdev == pytest.approx(0.57735, abs=1e-4)

    lines = rate_table(runs).splitlines()
    easy, hard = lines[1].split(), lines[2].split()
    # resolved, rate, hidden, refuted, tokens, time, first revision, its tokens, s/revision,
    # the code writers' prompt tokens per call and the share the prompt cache served
    assert easy == [
        "easy", "3/3", "100%", "12/12", "0", "2,000", "200s", "60s", "9,000", "30s", "1,800", "60%"
    ]  # fmt: skip
    assert hard == ["hard", "1/3", "33%", "10/12", "1", "2,000", "200s", "-", "-", "-", "-", "-"]
    assert lines[3] == "runs: 3 (seeds 101, 102, 103); resolved per run: 1/2, 2/2, 1/2"
    assert lines[4] == "mean 1.3 resolved per run, min-max 1-2, standard deviation 0.6"
    assert lines[5] == "claimed success refuted by the hidden tests: 1"


def test_a_single_run_has_no_standard_deviation() -> None:
    one = [r for r in three_runs() if r.run == 1]
    assert spread(one).stdev is None
    assert rate_table(one).splitlines()[-2].endswith("min-max 1-1, standard deviation -")


def test_the_results_file_records_runs_and_seeds_and_reads_back(tmp_path: Path) -> None:
    runs = three_runs()
    settings = {"runs": 3, "seeds": [101, 102, 103]}
    path = write_results(runs, "local", settings, tmp_path)
    data = json.loads(path.read_text())
    assert (data["tickets"], data["resolved"], data["resolved_per_run"]) == (2, 4, [1, 2, 1])
    assert data["settings"]["seeds"] == [101, 102, 103]
    assert [(r["run"], r["seed"]) for r in data["runs"]][:3] == [(1, 101), (1, 101), (2, 102)]
    assert read_results(path) == runs

    text = report(read_results(path))
    assert text.startswith("run 1, seed 101\n") and "\n\nrun 3, seed 103\n" in text
    assert "over 3 runs\n" in text and "hard                      1/3" in text


def test_older_results_files_still_report() -> None:
    older = [  # written before runs had seeds
        path
        for path in sorted(RESULTS.glob("*.json"))
        if "seeds" not in json.loads(path.read_text()).get("settings", {})
    ]
    assert len(older) >= 2, "no older results files to read"
    runs = read_results(older[-1])
    assert runs and {r.run for r in runs} == {1} and all(r.seed is None for r in runs)
    assert all(r.first_revision_seconds is None for r in runs)
    text = report(read_many(older[-2:]))  # two older files read as two runs
    assert "run 2\n" in text and "over 2 runs\n" in text and "runs: 2; resolved per run" in text


def test_a_file_that_is_not_results_is_named(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"date": "today"}')
    with pytest.raises(ResultsError, match="other.json: not a quality benchmark results file"):
        read_results(other)


def test_every_run_gets_its_own_data_directory_and_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # run_settings writes os.environ, which later tests in this process read: it is restored
    saved = dict(os.environ)
    request.addfinalizer(lambda: (os.environ.clear(), os.environ.update(saved)))
    for name in ("DATA_DIR", "PROJECTS_FILE", "EMULATOR_SEED_FILE", "MODEL_PROVIDER",
                 "MODEL_SEED", "JIRA_ACCEPTANCE_CRITERIA_FIELD"):  # fmt: skip
        monkeypatch.delenv(f"TICKETSMITH_{name}", raising=False)
    monkeypatch.setattr(bench, "DATA_DIR", tmp_path / "bench-quality")
    args = argparse.Namespace(
        model="offline", seed=41, runs=2,
        example_tests=None, definition_edits=None, max_revisions=None,
        revision_minutes=None,
        ticket_minutes=10,
    )  # fmt: skip
    tickets = load_tickets(["slug-separator"])
    first = bench.run_settings(args, tickets, 1)
    second = bench.run_settings(args, tickets, 2)
    assert (first.model_seed, second.model_seed) == (41, 42)
    assert first.data_dir == tmp_path / "bench-quality" / "run-1"
    assert second.data_dir == tmp_path / "bench-quality" / "run-2"
    # the tickets work within the deadline: their pull requests open before it cuts them
    projects = load_projects(second.data_dir / "projects.toml")
    assert projects["SLUG"].work_minutes == 9.5
    assert os.environ["TICKETSMITH_MODEL_SEED"] == "42"


def test_a_ticket_is_bounded_in_time_unless_told_otherwise() -> None:
    bounded = bench.build_parser().parse_args([])
    assert (bounded.revision_minutes, bounded.ticket_minutes) == (6.0, 12.0)
    assert bench.bench_overrides(bounded)["TICKETSMITH_IMPLEMENTATION_MINUTES"] == "6.0"
    assert bench.work_minutes(bounded) == 11.5
    unbounded = bench.build_parser().parse_args(["--revision-minutes", "0"])
    assert "TICKETSMITH_IMPLEMENTATION_MINUTES" not in bench.bench_overrides(unbounded)
    endless = bench.build_parser().parse_args(["--ticket-minutes", "0"])
    assert bench.work_minutes(endless) is None


def test_the_first_revision_is_read_once_its_files_are_written() -> None:
    def status(revision: int, stage: str) -> TicketStatus:
        progress = ImplementationProgress(revision=revision, stage=stage, tokens=500)
        return TicketStatus(
            key="A-1", phase=Phase.IMPLEMENTATION, status=Status.RUNNING, tokens=4000,
            implementation=progress,
        )  # fmt: skip

    assert tokens_at_first_revision(status(1, "writing files")) is None
    assert tokens_at_first_revision(status(1, "running the tests")) == 4500
    assert tokens_at_first_revision(status(2, "writing files")) == 4500
    started = datetime(2026, 1, 1, tzinfo=UTC)
    usage = PhaseUsage(
        phase=Phase.IMPLEMENTATION, started_at=started, ended_at=started + timedelta(seconds=95),
        waiting_seconds=5.0,
    )  # fmt: skip
    result = TicketResult(key="A-1", status=Status.COMPLETED, usage=[usage])
    assert implementation_seconds(result) == 90.0


def test_a_ticket_cut_at_its_deadline_keeps_its_tokens_and_where_it_was() -> None:
    planning = TicketStatus(
        key="A-1", phase=Phase.PLANNING, status=Status.RUNNING, tokens=3000, step="draft plan"
    )
    progress = ImplementationProgress(revision=2, stage="running the tests", tokens=800)
    implementing = TicketStatus(
        key="A-1", phase=Phase.IMPLEMENTATION, status=Status.RUNNING, tokens=3000,
        implementation=progress,
    )  # fmt: skip
    assert (tokens_so_far(planning), where_cut(planning)) == (3000, "in planning (draft plan)")
    assert tokens_so_far(implementing) == 3800
    assert where_cut(implementing) == "in revision 2 (running the tests)"
    assert (tokens_so_far(None), where_cut(None)) == (0, "its status did not answer")


def test_a_tickets_writer_calls_are_read_from_the_log_after_its_start(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    assert log_size(log) == 0 and logged_calls(log, 0) == {}
    call = "model call task=implement_file prompt_tokens={} completion_tokens=90 seconds=9.0"
    log.write_text(call.format(3000) + " cached_tokens=0\n")
    since = log_size(log)
    with log.open("a") as more:
        more.write(call.format(2000) + " tokens_per_s=10.0 cached_tokens=1500\n")
        more.write("model call task=review prompt_tokens=900 completion_tokens=40 seconds=3.0\n")
        more.write(call.format(1000) + " cached_tokens=500\n")
    calls = logged_calls(log, since)["implement_file"]
    assert (calls.calls, calls.prompt_per_call, calls.cached_share) == (2, 1500.0, 2000 / 3000)


def test_a_run_continued_in_a_later_file_joins_the_run_it_continues(tmp_path: Path) -> None:
    first = [ticket_run("easy", 1, True), ticket_run("hard", 1, False)]
    rest = [ticket_run("other", 1, True), ticket_run("easy", 2, False)]  # seed 101, then 102
    again = [ticket_run("easy", 1, False)]  # seed 101 on a ticket its run already has
    paths = [
        write_results(runs, "local", {}, path=tmp_path / f"{name}.json")
        for name, runs in (("first", first), ("rest", rest), ("again", again))
    ]
    series = read_many(paths)
    runs = {(r.name, r.run, r.seed) for r in series}
    assert runs == {
        ("easy", 1, 101), ("hard", 1, 101), ("other", 1, 101),
        ("easy", 2, 102), ("easy", 3, 101),
    }  # fmt: skip
    assert "runs: 3 (seeds 101, 102); resolved per run: 2/3, 0/1, 0/1" in report(series)


def test_each_model_step_is_read_from_the_worker_log_and_reported(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    log.write_text("an older ticket's call: model call task=plan prompt_tokens=9 "
                   "completion_tokens=1 seconds=1.0 cached_tokens=0\n")  # fmt: skip
    since = log_size(log)
    calls = [
        ("analysis", 1200, 40.0, 0),
        ("plan", 1600, 90.0, 400),
        ("implement_file", 1400, 30.0, 1000),
        ("implement_file", 1500, 20.0, 1200),
    ]
    with log.open("a") as out:
        for task, prompt, seconds, cached in calls:
            out.write(f'{{"event": "model call task={task} prompt_tokens={prompt} '
                      f'completion_tokens=50 seconds={seconds} tokens_per_s=2.0 '
                      f'cached_tokens={cached}"}}\n')  # fmt: skip
    steps = model_steps(logged_calls(log, since))
    assert list(steps) == ["analysis", "plan", "implement_file"]
    assert steps["implement_file"].model_dump() == {
        "calls": 2, "seconds": 50.0, "prompt_tokens": 2900, "cached_tokens": 2200,
    }  # fmt: skip
    assert steps_line(steps).startswith("analysis 40s 1,200 tok 0% cached | plan 90s 1,600 tok")
    runs = [ticket_run("a", 1, True, model_steps=steps), ticket_run("b", 1, False)]
    lines = rate_table(runs).splitlines() + rates.rate_of_test_split(runs).splitlines()
    plan = [line for line in lines if "model step plan" in line]
    assert (
        plan and "90s" in plan[0] and "1,600 prompt tokens" in plan[0] and "25% cached" in plan[0]
    )
