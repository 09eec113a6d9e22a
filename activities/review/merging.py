"""Bringing the base branch into a pull request's branch: merge, resolve file by file, test."""

from langchain_core.language_models import BaseChatModel

from activities.review.messages import UpdateFromBaseInput, UpdateFromBaseResult
from activities.testing.run import run_project_tests
from graphs.review.merging import resolve_conflict
from integrations.environments.build import Environments
from integrations.git.client import GitWorkspace

TEST_TIMEOUT_SECONDS = 600.0


async def merge_base(
    model: BaseChatModel,
    workspace: GitWorkspace,
    environments: Environments,
    inp: UpdateFromBaseInput,
) -> UpdateFromBaseResult:
    """Merge the base into the checked-out branch; a conflict the model cannot resolve aborts."""
    branch, base, key = inp.repo.branch, inp.repo.base_branch, inp.key
    conflicted = await workspace.merge_from(base)
    if conflicted is None:
        return UpdateFromBaseResult(merged=False)
    resolved: list[str] = []
    tokens = 0
    for path in conflicted:
        text = (workspace.root / path).read_text(encoding="utf-8", errors="replace")
        content, used = await resolve_conflict(model, key, branch, base, path, text)
        tokens += used
        if content is None:
            await workspace.abort_merge()
            unresolved = conflicted[len(resolved) :]
            return UpdateFromBaseResult(
                merged=False, resolved=resolved, unresolved=unresolved, tokens=tokens
            )
        await workspace.write_files({path: content})
        resolved.append(path)
    if conflicted:
        await workspace.conclude_merge(base)
    passed = None
    if inp.test_command:
        report = await run_project_tests(
            environments, workspace, inp.repo.repository, inp.test_command,
            TEST_TIMEOUT_SECONDS, inp.setup_command,
        )  # fmt: skip
        passed = report.passed
    return UpdateFromBaseResult(
        merged=True, sha=await workspace.head_sha(), resolved=resolved, tests_passed=passed,
        tokens=tokens,
    )  # fmt: skip
