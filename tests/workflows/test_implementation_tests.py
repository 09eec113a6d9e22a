"""The implementation phase runs the tests once: the graph's last run, else the test activity."""

import asyncio

from temporalio.testing import WorkflowEnvironment

from graphs.schemas import CriterionCoverage
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import DEADLINE_S, running_ticket, ticket_input
from workflows.ticket.messages import Status

# A criterion a test added by the change exercises, and passes.
TESTED_BY_THE_CHANGE = CriterionCoverage(
    criterion="power(2, 3) is 8", test="tests/t.py::test_p", passed=True, added=True
)


async def auto_ticket(env: WorkflowEnvironment, fakes: FakeActivities, key: str) -> None:
    """Run one ticket in auto mode to its end."""
    inp = ticket_input(key)
    inp.auto = True
    async with running_ticket(env, fakes, inp) as handle:
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
    assert result.status == Status.COMPLETED, result.message


async def test_the_graphs_test_run_is_not_repeated(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities(tests_passed=True)
    await auto_ticket(time_skipping_env, fakes, "TESTED-1")
    assert fakes.calls["run_tests"] == []
    (pr,) = fakes.calls["open_pull_request"]
    assert "The test command passed." in pr.body and "5 passed" in pr.body
    assert not pr.draft


async def test_failing_tests_from_the_graph_make_a_draft(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(tests_passed=False)
    await auto_ticket(time_skipping_env, fakes, "TESTED-2")
    assert fakes.calls["run_tests"] == []
    (pr,) = fakes.calls["open_pull_request"]
    assert "failed (exit code 1)" in pr.body and pr.draft
    assert "The tests fail (exit code 1). Draft: the tests do not pass." in str(fakes.said())


async def test_untested_changes_are_tested_by_the_activity(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()  # its implementation ran no tests
    await auto_ticket(time_skipping_env, fakes, "TESTED-3")
    assert len(fakes.calls["run_tests"]) == 1


async def test_passing_tests_that_test_no_criterion_open_a_draft_saying_so(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(tests_passed=True)
    fakes.criteria = [
        TESTED_BY_THE_CHANGE,
        CriterionCoverage(criterion="power(2, -1) is 0.5"),
    ]
    await auto_ticket(time_skipping_env, fakes, "TESTED-4")
    (pr,) = fakes.calls["open_pull_request"]
    assert pr.draft and "The test command passed." in pr.body
    assert "no test exercises 1 of the 2 acceptance criteria" in pr.body
    assert "- power(2, -1) is 0.5 (no test covers it)" in pr.body
    comment = next(c.body for c in fakes.calls["post_jira_comment"] if "pull request" in c.body)
    assert "It is a draft: no test exercises 1 of the 2 acceptance criteria." in comment
    check_row("pull request draft", **fakes.said())
    (notice,) = [n.content for n in fakes.calls["notify_discord"] if "pull request" in n.content]
    assert notice == (
        "TESTED-4: draft pull request opened: http://forge/demo/calc/pull/7. The tests pass."
        " Draft: no test exercises 1 of the 2 acceptance criteria."
    )


async def test_passing_tests_that_test_every_criterion_open_a_ready_pull_request(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(tests_passed=True)
    fakes.criteria = [
        TESTED_BY_THE_CHANGE,
        CriterionCoverage(criterion="add still adds", test="tests/t.py::test_add", passed=True),
    ]
    await auto_ticket(time_skipping_env, fakes, "TESTED-5")
    (pr,) = fakes.calls["open_pull_request"]
    assert not pr.draft and "**Draft" not in pr.body


async def test_criteria_exercised_only_by_tests_older_than_the_change_open_a_draft(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(tests_passed=True)
    fakes.criteria = [
        CriterionCoverage(criterion="power(0, 0) is 1", test="tests/t.py::test_add", passed=True)
    ]
    await auto_ticket(time_skipping_env, fakes, "TESTED-6")
    (pr,) = fakes.calls["open_pull_request"]
    assert pr.draft and "were in the repository before the change" in pr.body
