"""The advisory check against a real HTTP server answering as PyPI's JSON API does, with a real
git remote for the base branch's dependency files."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.advisories.check import AdvisoryActivities
from activities.advisories.messages import AdvisoryReport, CheckAdvisoriesInput
from activities.messages import RepoRef
from activities.repo import Workspaces
from graphs.schemas import FileChange
from harness.serving import serve
from integrations.security.advisories import AdvisoryIndexClient
from tests.activities.test_push_secrets import commit_to_base

REQUESTS_ADVISORY = {
    "id": "PYSEC-2018-28",
    "aliases": ["CVE-2018-18074", "GHSA-x84v-xcm2-53pg"],
    "summary": None,
    "details": "The Requests package before 2.20.0 sends an HTTP Authorization header"
    " to an http URI upon receiving a same-hostname https-to-http redirect.\nMore.",
    "fixed_in": ["2.20.0"],
    "link": "https://osv.dev/vulnerability/PYSEC-2018-28",
    "source": "osv",
    "withdrawn": None,
}
# The same vulnerability under its GitHub id, and one the database withdrew.
SAME_UNDER_GHSA = REQUESTS_ADVISORY | {"id": "GHSA-x84v-xcm2-53pg", "aliases": ["CVE-2018-18074"]}
WITHDRAWN = REQUESTS_ADVISORY | {"id": "PYSEC-2099-1", "aliases": [], "withdrawn": "2024-01-01"}
RELEASES = {
    ("requests", "2.19.0"): [SAME_UNDER_GHSA, REQUESTS_ADVISORY, WITHDRAWN],
    ("idna", "3.7"): [],
}


def pypi_app(asked: list[str], failing: set[str]) -> FastAPI:
    """PyPI's per-release JSON: `info`, `urls` and `vulnerabilities`; 404 for unknown releases."""
    app = FastAPI()

    @app.get("/pypi/{name}/{version}/json")
    async def release(name: str, version: str) -> JSONResponse:
        asked.append(f"{name}=={version}")
        if name in failing:
            return JSONResponse({"message": "upstream unavailable"}, status_code=503)
        if (name, version) not in RELEASES:
            return JSONResponse({"message": "Not Found"}, status_code=404)
        body = {"info": {"name": name, "version": version}, "urls": [],
                "vulnerabilities": RELEASES[(name, version)]}  # fmt: skip
        return JSONResponse(body)

    return app


@pytest.fixture
def index() -> Iterator[tuple[str, list[str], set[str]]]:
    """The served index's URL, the releases asked for, and the names it fails on."""
    asked: list[str] = []
    failing: set[str] = set()
    with serve(pypi_app(asked, failing)) as url:
        yield url, asked, failing


def check_input(remote: RepoRef, requirements: str) -> CheckAdvisoriesInput:
    changes = [
        FileChange(path="requirements.txt", content=requirements),
        FileChange(path="calc/ops.py", content="def add(a, b):\n    return a + b\n"),
    ]
    return CheckAdvisoriesInput(repo=remote, changes=changes)


async def check(url: str | None, tmp_path: Path, inp: CheckAdvisoriesInput) -> AdvisoryReport:
    workspaces = Workspaces(tmp_path / "workspaces", None, "t", "t@e")
    client = AdvisoryIndexClient(url) if url else None
    try:
        activities = AdvisoryActivities(client, workspaces)
        return await ActivityEnvironment().run(activities.check_dependency_advisories, inp)
    finally:
        if client is not None:
            await client.aclose()


CHANGED = "flask==3.0.0\nrequests==2.19.0\nidna==3.7\nhttpx>=0.27\nprivate-pkg==1.0\n"


async def test_new_versions_are_looked_up_and_the_vulnerable_one_named(
    index: tuple[str, list[str], set[str]], remote: RepoRef, tmp_path: Path
) -> None:
    url, asked, _ = index
    commit_to_base(remote, tmp_path, {"requirements.txt": "flask==3.0.0\nrequests==2.18.0\n"})
    report = await check(url, tmp_path, check_input(remote, CHANGED))
    # flask is on the base already; httpx names no one version: neither is asked about.
    assert sorted(asked) == ["idna==3.7", "private-pkg==1.0", "requests==2.19.0"]
    by_name = {d.change.name: d for d in report.dependencies}
    assert set(by_name) == {"requests", "idna", "httpx", "private-pkg"}
    requests = by_name["requests"]
    assert requests.change.previous == "2.18.0"
    assert [a.id for a in requests.advisories] == ["PYSEC-2018-28"]  # once, withdrawn left out
    assert requests.advisories[0].fixed_in == ["2.20.0"]
    assert requests.advisories[0].summary.startswith("The Requests package before 2.20.0")
    assert by_name["idna"].advisories == [] and by_name["idna"].unchecked == ""
    assert by_name["httpx"].unchecked == "not pinned to one version"
    assert by_name["private-pkg"].unchecked == "the index has no such release"
    assert [d.change.name for d in report.vulnerable] == ["requests"]
    assert report.failure == ""


async def test_an_index_that_fails_raises_a_retryable_typed_error(
    index: tuple[str, list[str], set[str]], remote: RepoRef, tmp_path: Path
) -> None:
    url, _, failing = index
    failing.add("requests")
    with pytest.raises(ApplicationError) as raised:
        await check(url, tmp_path, check_input(remote, "requests==2.19.0\n"))
    assert raised.value.type == "AdvisoryIndexUnavailable"
    assert not raised.value.non_retryable
    assert "503" in raised.value.message


async def test_an_unreachable_index_is_a_typed_error(remote: RepoRef, tmp_path: Path) -> None:
    with pytest.raises(ApplicationError) as raised:
        await check("http://127.0.0.1:9", tmp_path, check_input(remote, "requests==2.19.0\n"))
    assert raised.value.type == "AdvisoryIndexUnreachable"


async def test_without_an_index_the_report_says_the_lookup_is_off(
    remote: RepoRef, tmp_path: Path
) -> None:
    report = await check(None, tmp_path, check_input(remote, "requests==2.19.0\n"))
    assert "TICKETSMITH_ADVISORY_INDEX_URL is empty" in report.failure
    assert [d.change.name for d in report.dependencies] == ["requests"]


async def test_a_change_without_dependency_files_asks_nothing(
    index: tuple[str, list[str], set[str]], remote: RepoRef, tmp_path: Path
) -> None:
    url, asked, _ = index
    inp = check_input(remote, "")
    inp.changes = inp.changes[1:]
    report = await check(url, tmp_path, inp)
    assert report.dependencies == [] and asked == []
