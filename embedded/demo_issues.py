"""The demo with GitHub Issues as the tracker: Dave files DEMO-1's story as an issue of
demo/calc, Carol labels it, the questions and the plan arrive as issue comments, Carol answers
and Dave approves in comments, the pull request (`Fixes #n`) is merged, and the issue closes."""

import asyncio
import json

import httpx
from temporalio.client import Client

from config import Settings
from embedded.demo import DEMO_ANSWER, DEMO_KEY, ENDED, progress, section, starter
from embedded.stack import StackError
from emulators.app import DEFAULT_SEED
from workflows.ticket.messages import Status, TicketResult

ISSUES_PROJECT = "CALC"  # tracked on GitHub Issues in projects.toml
REPOSITORY = "demo/calc"
DAVE = {"Authorization": "Bearer dave-token"}  # a member in the emulator's seed
CAROL = {"Authorization": "Bearer carol-token"}  # a collaborator
WAIT_S = 1800.0  # a deadline, not a sleep: a small local model takes minutes a phase


def seeded_story(settings: Settings) -> dict[str, str]:
    """DEMO-1's summary and markdown description, as the emulators' seed holds them."""
    seed = json.loads((settings.emulator_seed_file or DEFAULT_SEED).read_text())
    story = next(i for i in seed["issues"] if i["key"] == DEMO_KEY)
    return {"title": story["summary"], "body": story["description"]}


async def file_issue(settings: Settings, http: httpx.AsyncClient) -> int:
    """Dave opens the story of DEMO-1 as a GitHub issue; Carol labels it."""
    issues = f"{settings.github_api_url}/repos/{REPOSITORY}/issues"
    filed = seeded_story(settings)
    opened = await http.post(issues, json=filed, headers=DAVE)
    opened.raise_for_status()
    number = int(opened.json()["number"])
    print(f"Dave opened {REPOSITORY}#{number}: {filed['title']}")
    label = {"labels": [settings.github_start_label]}
    (await http.post(f"{issues}/{number}/labels", json=label, headers=CAROL)).raise_for_status()
    print(f"Carol added the label '{settings.github_start_label}'")
    return number


async def comment(
    settings: Settings, http: httpx.AsyncClient, number: int, body: str, who: dict[str, str]
) -> None:
    """A comment on the issue, as a person writes it on GitHub."""
    path = f"{settings.github_api_url}/repos/{REPOSITORY}/issues/{number}/comments"
    (await http.post(path, json={"body": body}, headers=who)).raise_for_status()


async def drive_issue(settings: Settings, client: Client) -> TicketResult:
    """File, answer, approve and merge a ticket through GitHub issue comments alone."""
    section("file the issue (GitHub Issues is the tracker)")
    async with httpx.AsyncClient(timeout=30) as http:
        number = await file_issue(settings, http)
        key = f"{ISSUES_PROJECT}-{number}"
        either = {Status.AWAITING_ANSWERS, Status.AWAITING_APPROVAL}
        current = await progress(client, either, key=key)
        rounds = 0
        while current.status == Status.AWAITING_ANSWERS:
            rounds += 1
            section("questions, as an issue comment")
            for n, question in enumerate(current.questions, start=1):
                print(f"{n}. {question.text}")
            section("Carol answers in a comment")
            print(DEMO_ANSWER)
            await comment(settings, http, number, DEMO_ANSWER, CAROL)
            current = await progress(client, either, current.question_round, key=key)
        section(f"plan v{current.plan_version}, as an issue comment")
        print(current.plan_markdown)
        section("Dave approves in a comment")
        print(f"@{settings.github_bot_login} /approve")
        await comment(settings, http, number, f"@{settings.github_bot_login} /approve", DAVE)
        opened = await progress(client, {Status.AWAITING_REVIEW, *ENDED}, key=key)
        if opened.status == Status.AWAITING_REVIEW:
            section("merge")
            print(f"$ starter.py merge {key}")
            print(starter(settings, "merge", key))
        handle = client.get_workflow_handle(f"ticket-{key}", result_type=TicketResult)
        result: TicketResult = await asyncio.wait_for(handle.result(), WAIT_S)
        issue = (
            await http.get(f"{settings.github_api_url}/repos/{REPOSITORY}/issues/{number}",
                           headers=CAROL)
        ).json()  # fmt: skip
    print(f"{REPOSITORY}#{number} is {issue['state']} ({issue.get('state_reason') or 'open'})")
    if result.status == Status.MERGED and issue["state"] != "closed":
        raise StackError(f"{key} merged but {REPOSITORY}#{number} is still open")
    return result
