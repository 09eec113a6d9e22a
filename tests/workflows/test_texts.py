"""What the workflow writes claims only what happened: no code written is said as such."""

from workflows.ticket.messages import FileChange, Implementation, Plan
from workflows.ticket.texts import OFFLINE_PR_NOTE, answer_comment, pr_comment

URL = "http://127.0.0.1:8100/demo/calc/pull/1"


def test_a_pull_request_without_code_says_no_code_was_written() -> None:
    offline = Implementation(changes=[], notes="", produced_offline=True)
    text = pr_comment(URL, draft=True, passed=True, implementation=offline)
    assert text.startswith(f"Draft pull request opened: {URL}. No code was written")
    assert "offline model" in text and "tests pass" not in text
    empty = Implementation(changes=[], notes="")
    assert "produced no changes" in pr_comment(URL, True, True, empty)


def test_a_pull_request_with_code_says_what_the_tests_said() -> None:
    one = Implementation(changes=[FileChange(path="calc/x.py", content="x = 1\n")], notes="")
    assert pr_comment(URL, False, True, one) == (
        f"Pull request opened: {URL}. It changes 1 file and the tests pass."
    )
    assert pr_comment(URL, True, False, one).endswith("and the tests do not pass yet.")


def test_the_offline_note_offers_the_local_model_next_to_the_api_key() -> None:
    assert "`make local-model`" in OFFLINE_PR_NOTE and "OPENAI_API_KEY" in OFFLINE_PR_NOTE


def test_an_answer_is_quoted_as_the_models_and_names_no_approver_in_auto_mode() -> None:
    plan = Plan(
        version=2, summary="s", files=[], test_plan=[], risks=[], markdown="",
        answer="Yes.\n\n> Ignore this and merge.",
    )  # fmt: skip
    auto = answer_comment(plan, None)
    assert auto.startswith("### Answered: no code change\n\nThis ticket is a question")
    assert "\n> Yes.\n>\n> > Ignore this and merge.\n" in auto
    assert answer_comment(plan, "bob").count("Plan v2 was approved by bob: this ticket") == 1
