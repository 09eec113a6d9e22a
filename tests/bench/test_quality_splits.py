"""The dev and test splits: every ticket in exactly one, split by project, the test split big
enough and reported as one rate (with its interval and spread over seeds), never per ticket."""

import shutil
from pathlib import Path

import pytest

from bench.quality import __main__ as bench
from bench.quality.drive import TicketRun
from bench.quality.rates import rate_of_test_split, wilson
from bench.quality.report import report, table
from bench.quality.scoring import Count, Score
from bench.quality.splits import MIN_TEST_TICKETS, Split, Splits, load_splits, problems
from bench.quality.tickets import TicketError, load_ticket, load_tickets

TICKETS = load_tickets()
SPLITS = load_splits()


def test_every_ticket_is_in_exactly_one_split() -> None:
    assert problems(SPLITS, TICKETS) == []


def test_the_hand_written_tickets_are_all_in_dev() -> None:
    hand_written = [t for t in TICKETS if not t.source]
    assert [t for t in hand_written if SPLITS.splits_of(t) != ["dev"]] == []


def test_the_test_split_is_big_enough() -> None:
    generated = [t for t in TICKETS if t.source]
    if len(generated) < MIN_TEST_TICKETS:
        pytest.skip(f"{len(generated)} generated tickets, fewer than {MIN_TEST_TICKETS}: the "
                    "real projects' files are still being written")  # fmt: skip
    test = SPLITS.tickets_of("test", TICKETS)
    assert len(test) >= MIN_TEST_TICKETS, (
        f"the test split has {len(test)} tickets: list projects under [test] in splits.toml"
    )


def test_a_ticket_in_no_split_or_both_and_a_project_in_both_are_named(tmp_path: Path) -> None:
    generated = tmp_path / "fakecalc-teens"
    shutil.copytree(TICKETS[0].root, generated)
    spec = generated / "ticket.toml"
    spec.write_text('source = "fakecalc"\n' + spec.read_text())
    others = [t for t in TICKETS if t.name != TICKETS[0].name and not t.source]
    tickets = [load_ticket(generated), *others]
    names = [t.name for t in tickets if not t.source]
    found = problems(Splits(dev=Split(tickets=names), test=Split()), tickets)
    assert found == [
        "projects in no split: ['fakecalc']: list each under [dev] or [test] `projects` in "
        "splits.toml"
    ]
    both = Splits(
        dev=Split(tickets=names, projects=["fakecalc"]), test=Split(projects=["fakecalc"])
    )
    assert problems(both, tickets) == ["projects in both splits: ['fakecalc']: keep each in one"]
    hand = Splits(dev=Split(tickets=names[1:], projects=["fakecalc"]), test=Split(tickets=["x"]))
    assert problems(hand, tickets) == [
        f"tickets in no split: ['{names[0]}']: list each under [dev] or [test] `tickets` in "
        "splits.toml",
        "[test] lists tickets the bench does not have: ['x']",
    ]
    split = Splits(dev=Split(tickets=names), test=Split(projects=["fakecalc", "gone"]))
    assert split.tickets_of("test", tickets) == [tickets[0]]
    assert problems(split, tickets) == ["[test] lists projects the bench does not have: ['gone']"]


def test_a_split_is_run_by_name_and_not_with_ticket_names(monkeypatch: pytest.MonkeyPatch) -> None:
    dev = bench.chosen_tickets(bench.build_parser().parse_args(["--split", "dev"]))
    assert [t.name for t in dev] == [t.name for t in SPLITS.tickets_of("dev", TICKETS)]
    named = bench.chosen_tickets(bench.build_parser().parse_args(["slug-separator"]))
    assert [t.name for t in named] == ["slug-separator"]
    with pytest.raises(TicketError, match="a split or ticket names, not both"):
        bench.chosen_tickets(bench.build_parser().parse_args(["--split", "dev", "parse-bool"]))
    monkeypatch.setattr(bench, "load_splits", lambda: Splits(dev=Split(), test=Split()))
    with pytest.raises(TicketError, match="the test split has no tickets: fill in"):
        bench.chosen_tickets(bench.build_parser().parse_args(["--split", "test"]))


def ticket_run(name: str, run: int, resolved: bool, **figures: object) -> TicketRun:
    """A ticket of run `run` (seed 10 + run), resolved or not."""
    score = Score(
        existing=Count(passed=1, total=1, output=""),
        hidden=Count(passed=2 if resolved else 1, total=2, output=""),
    )
    return TicketRun(
        name=name, key="A-1", status="completed", seconds=60.0, tokens=500, run=run,
        seed=10 + run, score=score, **figures,
    )  # fmt: skip


def test_the_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-9)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_test_split_reports_one_rate_never_a_tickets_row() -> None:
    timed = {"first_revision_seconds": 30.0, "prompt_tokens_per_call": 1200.0}
    runs = [
        ticket_run(name, run, resolved=(name, run) in {("a", 1), ("b", 1), ("a", 2)}, **timed)
        for run in (1, 2)
        for name in ("a", "b", "c", "d", "e")
    ]
    text = report(runs, test_split=True)
    assert text == rate_of_test_split(runs)
    lines = text.splitlines()
    assert lines[0] == "test split: 5 tickets, 2 runs (seeds 11, 12)"
    assert (
        lines[1] == "resolved 3/10 = 30.0%, 95% interval 10.8%-60.3% (Wilson, pooled over the runs)"
    )
    assert lines[2] == "resolved per run: mean 1.5 of 5, standard deviation 0.7"
    assert lines[4] == "per step (means over the tickets that recorded it):"
    assert lines[7].split() == ["to", "the", "first", "revision,", "seconds", "30s"]
    assert lines[8].split()[-1] == "1,200" and len(lines) == 9
    assert not any(line.split()[:1] in (["a"], ["b"]) for line in lines)
    assert "run 1" in report(runs, test_split=False)  # dev keeps its tables


def test_a_question_without_a_rubric_is_not_scored() -> None:
    unscored = ticket_run("question", 1, True).model_copy(update={"unscored_question": True})
    runs = [ticket_run("a", 1, True), unscored]
    text = table(runs)
    assert text.splitlines()[2].split()[:2] == ["question", "n/s"]
    assert (
        text.splitlines()[-1]
        == "not scored: 1 (a question without `answer_facts` in its ticket.toml)"
    )
    assert text.splitlines()[-3].split()[:2] == ["total", "1/1"]
    assert "resolved 1/1 = 100.0%" in rate_of_test_split(
        runs
    ) and "not scored: 1" in rate_of_test_split(runs)
