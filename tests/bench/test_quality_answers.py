"""A question's answer is what the product posted on the issue, checked against the rubric."""

from datetime import UTC, datetime

from bench.quality.answers import missing_facts, posted_answer
from bench.quality.tickets import load_tickets
from integrations.jira.client import JiraComment

(QUESTION,) = load_tickets(["cents-rounding"])


def comment(body: str, step: str | None = None) -> JiraComment:
    """A comment of the issue, the product's when it names its step."""
    footer = f"\n\n_ticketsmith ref: ticket-CENT-1/0199/{step}_" if step else ""
    return JiraComment(
        id="1", author_id="bot", author_name="ticketsmith", body=body + footer,
        created=datetime(2026, 12, 1, tzinfo=UTC),
    )  # fmt: skip


def test_the_answer_leaves_out_the_questions_asked_and_the_benchs_answers() -> None:
    comments = [
        comment("Is it intended? Should the export change?", "questions-1"),
        comment(QUESTION.answers),  # the reporter's answers, as the bench gave them
        comment("It is intended: half a cent goes to the even cent.", "answered-v1"),
    ]
    answer = posted_answer(QUESTION, comments)
    assert "Should the export change" not in answer and QUESTION.answers.strip() not in answer
    assert answer.startswith("It is intended: half a cent goes to the even cent.")


def test_facts_match_any_alternative_ignoring_case_spacing_and_quotes() -> None:
    facts = [["banker's rounding", "half to even"], ["no change"]]
    assert missing_facts(facts, "This is BANKER\u2019S\n   rounding; No\tchange needed.") == []
    assert missing_facts(facts, "Rounds half to\neven.") == ["no change"]
    assert missing_facts(facts, "") == ["banker's rounding", "no change"]
