"""The GitLab emulator's merge-request life over real HTTP and the real git CLI: members, notes
and discussions, pushes, pipelines and their faults, merge and close, each sent as GitLab's
webhook to a local receiver."""

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from emulators.gitlab.webhooks import GitLabWebhooks
from tests.emulators.gitlab_served import BOT, BRANCH, CAROL, PROJECT, SECRET, Served, served
from tests.emulators.helpers import add_branch

DAVE = {"PRIVATE-TOKEN": "dave-gl-token"}
POSITION = {
    "position_type": "text", "base_sha": "b" * 40, "start_sha": "s" * 40, "head_sha": "h" * 40,
    "new_path": "calc/extra.py", "old_path": "calc/extra.py", "new_line": 1,
}  # fmt: skip


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[Served]:
    with served(tmp_path) as found:
        yield found


def test_members_are_found_with_their_access_level(emulator: Served) -> None:
    carol = emulator.http.get(f"{PROJECT}/members/all/3001")
    dave = emulator.http.get(f"{PROJECT}/members/all/3002", headers=DAVE)
    assert carol.status_code == 200, carol.text
    assert {k: carol.json()[k] for k in ("id", "username", "name", "state", "access_level")} == {
        "id": 3001, "username": "carol", "name": "Carol Maintainer", "state": "active",
        "access_level": 40,
    }  # fmt: skip
    assert carol.json()["web_url"].endswith("/carol") and dave.json()["access_level"] == 30
    for user_id in (3003, 999):  # mallory is no member; 999 is nobody
        missing = emulator.http.get(f"{PROJECT}/members/all/{user_id}")
        assert (missing.status_code, missing.json()) == (404, {"message": "404 Not found"})


def test_notes_are_paginated_and_sorted_as_gitlab_does(emulator: Served) -> None:
    mr = emulator.open_mr()
    notes = f"{PROJECT}/merge_requests/{mr['iid']}/notes"
    for n in range(25):
        posted = emulator.http.post(notes, headers=CAROL if n % 2 else BOT, json={"body": f"n{n}"})
        assert posted.status_code == 201, posted.text
    first = emulator.http.get(notes, params={"per_page": 10})
    last = emulator.http.get(notes, params={"per_page": 10, "page": 3})
    default = emulator.http.get(notes)
    oldest = emulator.http.get(notes, params={"sort": "asc", "per_page": 500})
    headers = {k: first.headers[k] for k in ("X-Page", "X-Per-Page", "X-Total", "X-Total-Pages",
                                              "X-Next-Page")}  # fmt: skip
    assert headers == {"X-Page": "1", "X-Per-Page": "10", "X-Total": "25", "X-Total-Pages": "3",
                       "X-Next-Page": "2"}  # fmt: skip
    assert last.headers["X-Next-Page"] == "" and len(last.json()) == 5
    assert len(default.json()) == 20 and default.headers["X-Per-Page"] == "20"
    assert [n["body"] for n in first.json()][:2] == ["n24", "n23"]  # newest first by default
    assert oldest.headers["X-Per-Page"] == "100"
    assert [n["body"] for n in oldest.json()] == [f"n{n}" for n in range(25)]
    note = oldest.json()[1]
    assert note["author"] == {"id": 3001, "username": "carol", "name": "Carol Maintainer",
                              "state": "active", "locked": False, "avatar_url": None,
                              "web_url": f"{emulator.url}/carol"}  # fmt: skip
    assert (note["type"], note["system"], note["noteable_type"], note["noteable_iid"]) == (
        None, False, "MergeRequest", mr["iid"]
    )  # fmt: skip
    assert "position" not in note
    bearer = httpx.post(f"{emulator.url}{notes}", json={"body": "b"},
                        headers={"Authorization": "Bearer dave-gl-token"})  # fmt: skip
    assert bearer.status_code == 201 and bearer.json()["author"]["username"] == "dave"
    hooks = emulator.wait("26 Note Hooks", lambda: len(emulator.receiver.hooks("Note Hook")) == 26)
    assert hooks


def test_a_diff_discussion_and_its_reply_are_sent_as_note_hooks(emulator: Served) -> None:
    mr = emulator.open_mr()
    discussions = f"{PROJECT}/merge_requests/{mr['iid']}/discussions"
    started = emulator.http.post(discussions, headers=CAROL,
                                 json={"body": "Name it Y", "position": POSITION})  # fmt: skip
    assert started.status_code == 201, started.text
    thread = started.json()
    assert re.fullmatch(r"[0-9a-f]{40}", thread["id"]) and thread["individual_note"] is False
    first = thread["notes"][0]
    assert (first["type"], first["resolvable"], first["resolved"]) == ("DiffNote", True, False)
    assert first["position"]["new_line"] == 1 and first["position"]["head_sha"] == "h" * 40
    reply = emulator.http.post(f"{discussions}/{thread['id']}/notes", headers=DAVE,
                               json={"body": "Done"})  # fmt: skip
    unknown = emulator.http.post(f"{discussions}/{'0' * 40}/notes", json={"body": "?"})
    plain = emulator.http.post(f"{PROJECT}/merge_requests/{mr['iid']}/notes", json={"body": "hi"})
    assert reply.status_code == 201 and reply.json()["author"]["username"] == "dave"
    assert unknown.status_code == 404 and plain.status_code == 201
    listed = emulator.http.get(discussions).json()
    assert [(d["id"], d["individual_note"], len(d["notes"])) for d in listed] == [
        (thread["id"], False, 2), (listed[1]["id"], True, 1)
    ]  # fmt: skip
    assert listed[1]["notes"][0]["type"] is None and listed[1]["notes"][0]["body"] == "hi"

    hooks = emulator.wait("3 Note Hooks", lambda: (h := emulator.receiver.hooks("Note Hook"))
                          and len(h) == 3 and h)  # fmt: skip
    diff, answer, note = (h["object_attributes"] for h in hooks)
    assert [h["user"]["username"] for h in hooks] == ["carol", "dave", "ticketsmith-bot"]
    assert all(h["object_kind"] == "note" and h["event_type"] == "note" for h in hooks)
    assert (diff["type"], diff["noteable_type"], diff["discussion_id"]) == (
        "DiffNote", "MergeRequest", thread["id"]
    )  # fmt: skip
    assert diff["position"]["new_path"] == "calc/extra.py" and diff["note"] == "Name it Y"
    assert diff["author_id"] == 3001 and diff["url"].endswith(f"#note_{first['id']}")
    assert (answer["discussion_id"], answer["note"]) == (thread["id"], "Done")
    assert note["type"] is None and note["position"] is None
    request = hooks[0]["merge_request"]
    assert (request["iid"], request["source_branch"], request["state"]) == (1, BRANCH, "opened")
    assert request["last_commit"]["id"] == mr["sha"]
    assert hooks[0]["project"]["path_with_namespace"] == "demo-gl/calc"


def test_a_push_sends_its_hooks_and_a_pipeline_that_really_runs_the_tests(tmp_path: Path) -> None:
    with served(tmp_path, ci=True) as emulator:
        mr = emulator.open_mr()
        before, after = emulator.push_as_carol()
        assert before == mr["sha"] and after != before
        pipeline = emulator.finished_pipeline(after)
        jobs = emulator.http.get(f"{PROJECT}/pipelines/{pipeline['id']}/jobs").json()
        trace = emulator.http.get(f"{PROJECT}/jobs/{jobs[0]['id']}/trace")
        updated = emulator.http.get(f"{PROJECT}/merge_requests/{mr['iid']}").json()
        one = emulator.http.get(f"{PROJECT}/pipelines/{pipeline['id']}").json()
        by_ref = emulator.http.get(f"{PROJECT}/pipelines", params={"ref": BRANCH}).json()
        failed = emulator.http.get(f"{PROJECT}/pipelines", params={"status": "failed"}).json()
        unknown = emulator.http.get(f"{PROJECT}/jobs/1")
    assert one == pipeline and [p["id"] for p in by_ref] == [pipeline["id"]] and failed == []
    assert (unknown.status_code, unknown.json()) == (404, {"message": "404 Not found"})

    pushes = [h for h in emulator.receiver.hooks("Push Hook") if h["ref"] == f"refs/heads/{BRANCH}"]
    assert len(pushes) == 1
    push = pushes[0]
    assert (push["object_kind"], push["before"], push["after"], push["checkout_sha"]) == (
        "push", before, after, after
    )  # fmt: skip
    pusher = (push["user_username"], push["user_id"], push["user_name"])
    assert pusher == ("carol", 3001, "Carol Maintainer") and push["total_commits_count"] == 1
    assert push["commits"][0]["id"] == after and push["commits"][0]["title"] == "Name it Y"
    updates = [h["object_attributes"] for h in emulator.receiver.hooks("Merge Request Hook")]
    assert [u["action"] for u in updates] == ["open", "update"]
    assert "oldrev" not in updates[0]
    assert (updates[1]["oldrev"], updates[1]["last_commit"]["id"]) == (before, after)
    assert updated["sha"] == after

    assert (pipeline["status"], pipeline["ref"], pipeline["source"]) == ("success", BRANCH, "push")
    assert pipeline["before_sha"] == before and pipeline["tag"] is False
    job = jobs[0]
    assert (job["name"], job["stage"], job["status"], job["allow_failure"]) == (
        "test", "test", "success", False
    )  # fmt: skip
    assert "failure_reason" not in job and job["commit"]["message"] == "Name it Y"
    assert job["pipeline"]["id"] == pipeline["id"] and job["user"]["username"] == "carol"
    assert trace.status_code == 200 and trace.headers["content-type"].startswith("text/plain")
    assert "$ python -m pytest -q" in trace.text and re.search(r"\d+ passed", trace.text)
    assert trace.text.rstrip().endswith("Job succeeded")
    assert emulator.hook_statuses(pipeline["id"]) == ["created", "pending", "running", "success"]
    hook = emulator.receiver.hooks("Pipeline Hook")[-1]
    assert hook["merge_request"]["iid"] == mr["iid"] and hook["builds"][0]["status"] == "success"
    assert hook["object_attributes"]["detailed_status"] == "passed"


def test_a_network_fault_fails_the_job_and_its_retry_passes(tmp_path: Path) -> None:
    with served(tmp_path, ci=True, real_tests=False) as emulator:
        faults = "/_emulator/gitlab/ci/faults"
        told = emulator.http.post(faults, json={"kind": "network", "repository": "demo-gl/calc"})
        assert told.status_code == 201, told.text
        emulator.open_mr()
        _, sha = emulator.push_as_carol()
        failed = emulator.finished_pipeline(sha, "failed")
        jobs = f"{PROJECT}/pipelines/{failed['id']}/jobs"
        job = emulator.http.get(jobs).json()[0]
        trace = emulator.http.get(f"{PROJECT}/jobs/{job['id']}/trace").text
        assert (job["status"], job["failure_reason"]) == ("failed", "script_failure")
        assert ("fatal: unable to access 'https://gitlab.example.com/demo-gl/calc.git/': Could "
                "not resolve host: gitlab.example.com") in trace  # fmt: skip
        assert trace.rstrip().endswith("ERROR: Job failed: exit code 1")
        assert emulator.tested == []  # the tests never ran

        retried = emulator.http.post(f"{PROJECT}/jobs/{job['id']}/retry")
        again = emulator.http.post(f"{PROJECT}/jobs/{retried.json()['id']}/retry")
        assert retried.status_code == 201, retried.text
        new = retried.json()
        assert (new["name"], new["status"]) == ("test", "pending") and new["id"] != job["id"]
        assert again.status_code == 403
        assert again.json() == {"message": "403 Forbidden  - Job is not retryable"}
        passed = emulator.finished_pipeline(sha, "success")
        latest = emulator.http.get(jobs).json()
        every = emulator.http.get(jobs, params={"include_retried": "true"}).json()
        old = emulator.http.get(f"{PROJECT}/jobs/{job['id']}").json()
        assert passed["id"] == failed["id"] and emulator.tested == [sha]
        assert [(j["id"], j["status"]) for j in latest] == [(new["id"], "success")]
        assert {j["id"] for j in every} == {job["id"], new["id"]} and old["retried"] is True
        assert emulator.http.post(f"{PROJECT}/jobs/{job['id']}/retry").status_code == 403
        finals = [s for s in emulator.hook_statuses(failed["id"]) if s in ("failed", "success")]
        assert finals == ["failed", "success"]
        assert emulator.http.get(faults).json()[0]["times"] == 0


def test_a_merge_request_is_merged_for_real_once_it_is_no_draft(emulator: Served) -> None:
    mr = emulator.open_mr()
    merge = f"{PROJECT}/merge_requests/{mr['iid']}/merge"
    draft = emulator.http.put(merge, headers=CAROL)
    assert (draft.status_code, draft.json()) == (405, {"message": "405 Method Not Allowed"})
    ready = emulator.http.put(f"{PROJECT}/merge_requests/{mr['iid']}", json={"title": "DEMO-1"})
    assert ready.json()["draft"] is False
    stale = emulator.http.put(merge, headers=CAROL, json={"sha": "0" * 40})
    assert stale.status_code == 409
    assert stale.json()["message"] == f"SHA does not match HEAD of source branch: {mr['sha']}"
    merged = emulator.http.put(merge, headers=CAROL, json={"sha": mr["sha"]})
    assert merged.status_code == 200, merged.text
    body = merged.json()
    assert (body["state"], body["merged_by"]["username"]) == ("merged", "carol")
    assert body["merged_at"] and body["detailed_merge_status"] == "not_open"
    main = emulator.git_out("rev-parse", "refs/heads/main")
    assert body["merge_commit_sha"] == main
    assert emulator.git_out("rev-list", "--parents", "-n1", main).split()[2] == mr["sha"]
    assert emulator.http.put(merge, headers=CAROL).status_code == 405  # merged: not opened

    hooks = emulator.wait("3 Merge Request Hooks",
                          lambda: (h := emulator.receiver.hooks("Merge Request Hook"))
                          and len(h) == 3 and h)  # fmt: skip
    opened, update, merge_hook = hooks
    assert [h["object_attributes"]["action"] for h in hooks] == ["open", "update", "merge"]
    assert update["changes"]["title"] == {"previous": "Draft: DEMO-1", "current": "DEMO-1"}
    assert update["changes"]["draft"] == {"previous": True, "current": False}
    assert "oldrev" not in update["object_attributes"] and update["user"]["id"] == 3000
    attrs = merge_hook["object_attributes"]
    assert (attrs["state"], attrs["merge_commit_sha"], merge_hook["user"]["username"]) == (
        "merged", main, "carol"
    )  # fmt: skip
    assert opened["object_kind"] == "merge_request" and opened["event_type"] == "merge_request"


def test_a_conflict_is_refused_and_close_and_reopen_are_sent(emulator: Served) -> None:
    mr = emulator.open_mr("DEMO-1", {"README.md": "the branch's\n"})
    add_branch(emulator.bare, "main", {"README.md": "main's\n"})  # main moves on: a conflict
    path = f"{PROJECT}/merge_requests/{mr['iid']}"
    conflict = emulator.http.put(f"{path}/merge")
    assert (conflict.status_code, conflict.json()) == (406, {"message": "Branch cannot be merged"})
    closed = emulator.http.put(path, json={"state_event": "close"}, headers=DAVE)
    reopened = emulator.http.put(path, json={"state_event": "reopen"})
    assert closed.json()["state"] == "closed" and closed.json()["closed_at"]
    assert reopened.json()["state"] == "opened"
    hooks = emulator.wait("3 Merge Request Hooks",
                          lambda: (h := emulator.receiver.hooks("Merge Request Hook"))
                          and len(h) == 3 and h)  # fmt: skip
    assert [(h["object_attributes"]["action"], h["user"]["username"]) for h in hooks] == [
        ("open", "carol"), ("close", "dave"), ("reopen", "ticketsmith-bot")
    ]  # fmt: skip


def test_hooks_carry_gitlabs_headers_and_keep_their_key_on_redelivery(emulator: Served) -> None:
    emulator.open_mr()
    first = emulator.wait("a delivery", lambda: list(emulator.receiver.received))[0]
    listed = emulator.http.get("/_emulator/gitlab/webhooks").json()
    assert listed["url"] == "http://hooks.test/webhooks/gitlab"
    delivery = listed["deliveries"][0]
    assert (delivery["event"], delivery["attempts"], delivery["state"]) == (
        "Merge Request Hook", [{"status_code": 200, "response": '{"status":"accepted"}'}],
        "delivered",
    )  # fmt: skip
    again = emulator.http.post(f"/_emulator/gitlab/webhooks/{delivery['id']}/redeliver")
    assert again.status_code == 202
    second = emulator.wait("the redelivery", lambda: emulator.receiver.received[1:])[0]
    headers = first.headers
    assert headers["X-Gitlab-Token"] == SECRET and headers["X-Gitlab-Event"] == "Merge Request Hook"
    assert headers["User-Agent"] == "GitLab/17.0.0"
    assert headers["Content-Type"] == "application/json"
    assert headers["Idempotency-Key"] == headers["X-Gitlab-Event-UUID"] == delivery["id"]
    assert headers["X-Gitlab-Instance"] == emulator.url and headers["X-Gitlab-Webhook-UUID"]
    assert second.headers["Idempotency-Key"] == headers["Idempotency-Key"]
    assert second.content == first.content
    assert emulator.http.post("/_emulator/gitlab/webhooks/nope/redeliver").status_code == 404


def test_no_secret_sends_no_token(tmp_path: Path) -> None:
    hooks = GitLabWebhooks("http://hooks.test/webhooks/gitlab")
    delivery = {"id": "d", "event": "Push Hook", "instance": "http://gl"}
    assert "X-Gitlab-Token" not in hooks.headers(delivery, 0, b"{}")
