"""What `starter.py status` and `list` print, from a status query's answer."""

from datetime import UTC, datetime, timedelta

from activities.pricing import cost_of
from cli.status.render import preview, render_list, render_status, to_text, usage_table
from vocabulary.prices import parse_prices
from workflows.ticket.messages import Decision, Phase, PhaseUsage, Status, TicketStatus

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
PRICES = parse_prices('{"gpt-4o-mini": {"input": 0.15, "output": 0.60}}')


def phase(name: Phase, start_s: float, end_s: float | None, tokens: int, wait_s: float = 0):
    ended = T0 + timedelta(seconds=end_s) if end_s is not None else None
    return PhaseUsage(
        phase=name,
        started_at=T0 + timedelta(seconds=start_s),
        ended_at=ended,
        tokens=tokens,
        cost=cost_of("gpt-4o-mini", tokens - 1000, 1000, PRICES),
        waiting_seconds=wait_s,
    )


def rows(text: str) -> list[list[str]]:
    """The words of each non-blank line that is not a rule."""
    return [
        line.split() for line in text.splitlines() if line.strip() and set(line.strip()) != {"─"}
    ]


def test_usage_table_keeps_waiting_on_people_apart() -> None:
    table = usage_table(
        [phase(Phase.REFINEMENT, 0, 100, 6867, wait_s=60), phase(Phase.PLANNING, 100, 140, 2850)]
    )
    assert rows(to_text(table)) == [
        ["phase", "working", "waiting", "tokens", "in", "out", "cost"],
        ["refinement", "40.0s", "60.0s", "6,867", "5,867", "1,000", "$0.0015"],
        ["planning", "40.0s", "0.0s", "2,850", "1,850", "1,000", "$0.0009"],
        ["total", "80.0s", "60.0s", "9,717", "7,717", "2,000", "$0.0024"],
    ]


def test_a_model_without_a_price_is_said_under_the_table() -> None:
    unpriced = phase(Phase.PLANNING, 100, 140, 2850)
    unpriced.cost = cost_of("gpt-5", 2000, 850, PRICES)
    text = to_text(usage_table([phase(Phase.REFINEMENT, 0, 100, 6867), unpriced]), width=200)
    assert ["planning", "40.0s", "0.0s", "2,850", "2,000", "850", "unknown"] in rows(text)
    assert ["total", "140.0s", "0.0s", "9,717", "7,867", "1,850", "$0.0015+?"] in rows(text)
    assert "cost: $0.0015 + 2,850 tokens of gpt-5 with no price in TICKETSMITH_MODEL_PRICES" in (
        " ".join(text.split())
    )


def test_status_shows_each_phase_so_far() -> None:
    current = TicketStatus(
        key="DEMO-1",
        phase=Phase.PLANNING,
        status=Status.AWAITING_APPROVAL,
        message="Waiting for an approval",
        plan_version=1,
        tokens=9717,
        token_budget=50000,
        cost=cost_of("gpt-4o-mini", 7717, 2000, PRICES),
        cost_cap=5.0,
        usage=[phase(Phase.REFINEMENT, 0, 100, 6867, 60), phase(Phase.PLANNING, 100, None, 2850)],
    )
    current.usage[-1].waiting_since = T0 + timedelta(seconds=130)  # the plan waits since then
    text = to_text(render_status(current, "http://ui/DEMO-1", now=T0 + timedelta(seconds=200)))
    assert "DEMO-1: planning / awaiting_approval" in text
    assert ["refinement", "40.0s", "60.0s", "6,867", "5,867", "1,000", "$0.0015"] in rows(text)
    # under way, waiting
    assert ["planning", "30.0s", "70.0s", "2,850", "1,850", "1,000", "$0.0009"] in rows(text)
    assert "model tokens: 9,717 of 50,000 (7,717 in / 2,000 out)" in text
    assert "cost: $0.0024 of $5.00" in text
    assert text.rstrip().endswith("http://ui/DEMO-1")


def test_status_without_usage_has_no_table() -> None:
    current = TicketStatus(key="DEMO-1", phase=Phase.REFINEMENT, status=Status.RUNNING)
    assert "working" not in to_text(render_status(current, "link"))


ANSWER = "Acceptance: `calc pow 2 -1` prints 0.5.\n\n- whole numbers print without a point\n" + (
    "- and more detail " * 12
)


def test_decisions_are_one_line_previews_and_whole_with_full() -> None:
    decision = Decision(kind="answer", author="alice", at=T0, text=ANSWER)
    current = TicketStatus(
        key="DEMO-1", phase=Phase.PLANNING, status=Status.RUNNING, decisions=[decision]
    )
    short = to_text(render_status(current, "link"), width=200)
    line = next(line for line in short.splitlines() if "alice answer" in line)
    assert line.endswith("…") and "\n" not in line and "prints 0.5. - whole numbers" in line
    assert len(line.split("alice answer: ")[1]) == 100
    full = to_text(render_status(current, "link", full=True), width=200)
    assert "      - whole numbers print without a point" in full.splitlines()
    assert " ".join(full.split()).count("and more detail") == 12


def test_preview_collapses_whitespace_and_keeps_short_text() -> None:
    assert preview("a\n\n  b\tc") == "a b c"
    assert preview("x" * 150, 10) == "x" * 9 + "…"


def test_list_is_a_table_with_one_ticket_a_row() -> None:
    text = to_text(
        render_list(
            [
                {
                    "key": "DEMO-2",
                    "status": "completed",
                    "phase": "done",
                    "started": "2026-01-05 09:00",
                }
            ]
        )
    )
    assert rows(text) == [
        ["KEY", "STATUS", "PHASE", "STARTED"],
        ["DEMO-2", "completed", "done", "2026-01-05", "09:00"],
    ]
    assert to_text(render_list([])).strip() == "no tickets"


def test_status_shows_the_pull_request_its_checks_and_rounds() -> None:
    from workflows.review.messages import CheckState, PullRequestView, RoundRecord

    view = PullRequestView(
        number=7,
        head_sha="abc1234def",
        checks=[CheckState(name="ci / tests", conclusion="success", head_sha="abc1234def")],
        rounds=[
            RoundRecord(
                number=1,
                kind="ci",
                trigger="failed: ci / tests",
                started_at=T0,
                commit="abc1234def",
                files=["calc/operations.py"],
                outcome="pushed abc1234",
            ),
            RoundRecord(
                number=1,
                kind="rerun",
                trigger="`tests`: a network error",
                started_at=T0,
                outcome="rerun 1 of 3 on abc1234",
            ),
        ],  # fmt: skip
        ci_rounds=1,
        ci_reruns=1,
        waiting_for="CI results, reviews or a merge of pull request #7",
    )
    current = TicketStatus(
        key="DEMO-1", phase=Phase.REVIEW, status=Status.AWAITING_REVIEW, message="Waiting",
        pr_url="http://forge/demo/calc/pull/7", pull_request=view,
    )  # fmt: skip
    text = to_text(render_status(current, "http://ui", T0))
    assert "  pull request #7: open, head abc1234" in text
    assert "    check ci / tests: success" in text
    assert "  rounds: 1 CI fix, 0 review; 1 CI reruns" in text
    assert "    ci round 1: failed: ci / tests -> pushed abc1234" in text
    assert "    CI rerun 1: `tests`: a network error -> rerun 1 of 3 on abc1234" in text
    assert "  waiting for: CI results, reviews or a merge of pull request #7" in text


def test_status_says_why_a_pull_request_is_a_draft() -> None:
    current = TicketStatus(
        key="DEMO-1", phase=Phase.REVIEW, status=Status.AWAITING_REVIEW,
        pr_url="http://forge/demo/calc/pull/7", pr_draft=True,
        pr_draft_reason="the tests do not pass",
    )  # fmt: skip
    text = to_text(render_status(current, "http://ui", T0))
    assert "  pull request: http://forge/demo/calc/pull/7 (draft: the tests do not pass)" in text
    ready = current.model_copy(update={"pr_draft": False, "pr_draft_reason": ""})
    assert "  pull request: http://forge/demo/calc/pull/7\n" in to_text(render_status(ready, "u"))
