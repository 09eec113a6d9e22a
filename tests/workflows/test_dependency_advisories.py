"""A change that adds or moves a dependency: a known vulnerability in the new version opens a
draft naming the advisory, a clean one a ready pull request, and a lookup that fails is said."""

from temporalio.testing import WorkflowEnvironment

from graphs.schemas import FileChange
from integrations.security.advisories import Advisory
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_implementation_tests import auto_ticket

PYSEC = Advisory(
    id="PYSEC-2018-28",
    aliases=["CVE-2018-18074"],
    summary="Requests sends the Authorization header on an https-to-http redirect.",
    fixed_in=["2.20.0"],
    link="https://osv.dev/vulnerability/PYSEC-2018-28",
)
REASON = "requests 2.19.0 has known vulnerabilities: PYSEC-2018-28 (fixed in 2.20.0)"


def adding(requirements: str) -> FakeActivities:
    """A ticket whose change passes its tests and writes `requirements.txt`."""
    fakes = FakeActivities(tests_passed=True)
    fakes.added_files = [FileChange(path="requirements.txt", content=requirements)]
    fakes.advisories = {"requests==2.19.0": [PYSEC]}
    return fakes


async def test_a_vulnerable_pin_opens_a_draft_naming_the_advisory(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = adding("requests==2.19.0\n")
    await auto_ticket(time_skipping_env, fakes, "DEPS-1")
    (pr,) = fakes.calls["open_pull_request"]
    assert pr.draft
    assert f"**Draft: {REASON}.**" in pr.body
    assert "## Dependency advisories" in pr.body
    assert (
        "- `requests 2.19.0` in `requirements.txt`: [PYSEC-2018-28]"
        "(https://osv.dev/vulnerability/PYSEC-2018-28) (fixed in 2.20.0): `Requests sends"
    ) in pr.body
    (notice,) = [n.content for n in fakes.calls["notify_discord"] if "pull request" in n.content]
    assert notice.endswith(f"The tests pass. Draft: {REASON}.")
    comment = next(c.body for c in fakes.calls["post_jira_comment"] if "pull request" in c.body)
    assert f"It is a draft: {REASON}." in comment
    check_row("vulnerable dependency", **fakes.said())


async def test_a_clean_pin_opens_a_ready_pull_request(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = adding("requests==2.31.0\nhttpx>=0.27\n")
    await auto_ticket(time_skipping_env, fakes, "DEPS-2")
    (pr,) = fakes.calls["open_pull_request"]
    assert not pr.draft
    assert "- `requests 2.31.0` in `requirements.txt`: no known vulnerabilities" in pr.body
    assert "- `httpx>=0.27` in `requirements.txt`: not checked, not pinned" in pr.body


async def test_a_failed_lookup_is_said_and_the_ticket_goes_on(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = adding("requests==2.19.0\n")
    fakes.advisory_error = "AdvisoryIndex GET /pypi/requests/2.19.0/json -> 503: unavailable"
    await auto_ticket(time_skipping_env, fakes, "DEPS-3")
    (pr,) = fakes.calls["open_pull_request"]
    assert not pr.draft  # nothing is known against it
    assert "The advisories could not be checked (AdvisoryIndex GET" in pr.body
    assert "check the new versions by hand" in pr.body
    assert "- `requests 2.19.0`" not in pr.body  # the report came back empty


async def test_a_change_without_dependency_files_asks_nothing(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(tests_passed=True)
    await auto_ticket(time_skipping_env, fakes, "DEPS-4")
    assert fakes.calls["check_dependency_advisories"] == []
    (pr,) = fakes.calls["open_pull_request"]
    assert "Dependency advisories" not in pr.body
