"""Failing tests mapped to the files that must change, with the source of each test."""

import ast
from pathlib import Path

from graphs.implementation.diagnose.failing_line import where_it_fails
from graphs.implementation.revision import file_text, is_test_file
from graphs.schemas import FailedTest, FileChange, TestReport

MAX_TESTS_PER_FILE = 2
TEST_SOURCE_CHARS = 700
ERROR_CHARS = 500


def owners(failure: FailedTest, paths: list[str]) -> list[str]:
    """The planned files a failure concerns: the source files its traceback names (else every
    planned source file: the code under test is the likelier culprit), and its test file."""
    sources = [p for p in paths if not is_test_file(p)]
    named = [p for p in sources if p in failure.details or p in failure.message] or sources
    if failure.file in paths:
        named.append(failure.file)
    return list(dict.fromkeys(named))


def map_failures(report: TestReport, paths: list[str]) -> dict[str, list[FailedTest]]:
    """For each planned file, the failing tests of a run that concern it."""
    return assign_failures(report.failed_tests, paths)


def assign_failures(failures: list[FailedTest], paths: list[str]) -> dict[str, list[FailedTest]]:
    """For each planned file, the failures that concern it."""
    mapped: dict[str, list[FailedTest]] = {path: [] for path in paths}
    for failure in failures:
        for path in owners(failure, paths):
            mapped[path].append(failure)
    return mapped


def test_source(test_id: str, file: str, text: str) -> str | None:
    """The source of the test function the id names, if it can be found."""
    name = test_id.rsplit("::", 1)[-1].split("[", 1)[0]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return ast.get_source_segment(text, node)
    return None


def describe_failures(
    failures: list[FailedTest], repo_dir: Path, files: dict[str, FileChange], own: str = ""
) -> str:
    """The failing tests of one file for its worker: id, source, the end of the error and,
    for the worker of source file `own`, the line of it where each test fails."""
    blocks: list[str] = []
    own_text = file_text(repo_dir, files, own) if own and not is_test_file(own) else ""
    for failure in failures[:MAX_TESTS_PER_FILE]:
        source = test_source(
            failure.test_id, failure.file, file_text(repo_dir, files, failure.file)
        )
        error = failure.details.strip() or failure.message
        error = error if len(error) <= ERROR_CHARS else "..." + error[-ERROR_CHARS:]
        lines = [f"FAILED {failure.test_id}"]
        if source:
            lines += ["```python", source[:TEST_SOURCE_CHARS], "```"]
        lines += ["Error:", "```", error, "```"]
        pointer = where_it_fails(failure, own, own_text) if own_text else ""
        if pointer:
            lines.append(pointer)
        blocks.append("\n".join(lines))
    more = len(failures) - MAX_TESTS_PER_FILE
    if more > 0:
        blocks.append(f"(and {more} more failing tests)")
    return "\n\n".join(blocks)
