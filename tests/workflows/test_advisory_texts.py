"""What the pull request says of the dependencies a change brings: the index's words are shown,
never interpreted, and a vulnerable version joins the other reasons for a draft."""

from activities.advisories.messages import AdvisoryReport, CheckedDependency
from activities.messages import RunTestsResult
from graphs.schemas import FileChange, Implementation
from integrations.environments.dependency_changes import DependencyChange
from integrations.security.advisories import Advisory
from workflows.ticket import texts

HOSTILE = Advisory(
    id="GHSA-1234",
    summary="Fixed by @everyone, see [this](https://evil.example) <img src=x>\nsecond line",
    link="javascript:alert(1)",
)


def report(*advisories: Advisory) -> AdvisoryReport:
    change = DependencyChange(name="pyyaml", version="5.3", path="requirements.txt")
    return AdvisoryReport(dependencies=[CheckedDependency(change=change, advisories=[*advisories])])


def test_the_index_words_stay_in_a_code_span_and_only_https_links_are_linked() -> None:
    (line,) = [line for line in texts.advisories_section(report(HOSTILE)) if line.startswith("- ")]
    assert line == (
        "- `pyyaml 5.3` in `requirements.txt`: GHSA-1234:"
        " `Fixed by @everyone, see [this](https://evil.example) <img src=x> second line`"
    )


def test_several_advisories_and_their_fixes_make_one_reason() -> None:
    fixed = Advisory(id="PYSEC-2021-142", fixed_in=["5.4"])
    assert texts.vulnerable_reason(report(fixed, HOSTILE)) == (
        "pyyaml 5.3 has known vulnerabilities: PYSEC-2021-142 (fixed in 5.4), GHSA-1234"
    )
    assert texts.vulnerable_reason(report()) == "" and texts.vulnerable_reason(None) == ""


def test_a_vulnerable_version_joins_failing_tests_as_a_reason() -> None:
    implementation = Implementation(changes=[FileChange(path="a.py", content="")], notes="")
    failing = RunTestsResult(passed=False, exit_code=1, output="")
    passing = RunTestsResult(passed=True, exit_code=0, output="")
    why = "pyyaml 5.3 has known vulnerabilities: PYSEC-2021-142"
    assert texts.draft_reason(implementation, failing, "", why) == f"the tests do not pass; {why}"
    assert texts.draft_reason(implementation, passing, "", why) == why
    assert texts.draft_reason(implementation, passing, "") == "a person should check it first"


def test_a_failed_lookup_asks_for_a_check_by_hand() -> None:
    failure = "AdvisoryIndex GET /pypi/x/1/json -> 503"
    lines = texts.advisories_section(AdvisoryReport(failure=failure))
    assert lines[2] == (
        "The advisories could not be checked (AdvisoryIndex GET /pypi/x/1/json -> 503):"
        " check the new versions by hand."
    )
    assert texts.advisories_section(AdvisoryReport()) == []
