"""The prepare node: index the repository and make one assignment per planned file."""

from pathlib import Path
from typing import Any

from graphs.analysis.graph import index_repository
from graphs.analysis.index import CodeIndex, Snippet
from graphs.implementation.revision import read_current
from graphs.implementation.state import Assignment, ImplementationState
from graphs.implementation.tester.gate import module_name
from graphs.schemas import PlannedFile
from llm.fences import safe_relative_path

CONTEXT_SNIPPETS = 2


TEST_SNIPPET_CHARS = 800


def prepare(state: ImplementationState) -> dict[str, Any]:
    """Index the repository and make one assignment per safe, distinct planned file."""
    index = index_repository(state["repo_dir"])
    assignments: list[Assignment] = []
    notes: list[str] = []
    seen: set[str] = set()
    for planned in state["plan"].files:
        path = safe_relative_path(planned.path)
        if path is None:
            notes.append(f"{planned.path}: skipped, the path is outside the repository")
            continue
        if path in seen:
            continue
        seen.add(path)
        file = planned.model_copy(update={"path": path})
        assignments.append(assignment(index, state["repo_dir"], file))
    return {"index": index, "assignments": assignments, "notes": notes, "revision": 0}


def assignment(index: CodeIndex, repo_dir: Path, file: PlannedFile) -> Assignment:
    """A planned file with the code its worker is shown: its tests first, then related code."""
    query = f"{file.path} {file.purpose}"
    related = [s for s in index.context_query(query, k=CONTEXT_SNIPPETS + 1) if s.path != file.path]
    own = tests_of(repo_dir, file.path)
    related = [*own, *(s for s in related if s.path not in {o.path for o in own})]
    return Assignment(file=file, context=related[:CONTEXT_SNIPPETS])


def tests_of(repo_dir: Path, path: str) -> list[Snippet]:
    """The start of the repository's test module that imports this source file, if any."""
    module = module_name(path)
    if module is None:
        return []
    parent, _, leaf = module.rpartition(".")
    spellings = [f"import {module}", f"from {module} import"]
    if parent:
        spellings.append(f"from {parent} import {leaf}")
    for test in sorted(repo_dir.glob("tests/**/test_*.py")):
        text = read_current(test) or ""
        if any(spelling in text for spelling in spellings):
            lines = text[:TEST_SNIPPET_CHARS].count("\n") + 1
            relative = str(test.relative_to(repo_dir))
            return [Snippet(path=relative, start_line=1, end_line=lines, text=text, score=1.0)]
    return []
