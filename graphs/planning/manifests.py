"""The project's packaging changes only when the ticket asks for it.

For a fix inside an existing module the local model planned `pyproject.toml` "to include the
new package"; a rewritten manifest or lock file can break the environment every test runs
in. A planned change to one that the ticket's and the reporter's words do not call for is
dropped, with a line in the plan's risks so that the approver sees it.
"""

import re
from pathlib import PurePosixPath

from graphs.planning.paths import mentions_path
from graphs.schemas import PlannedFile

MANIFEST_NAMES = {
    "pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "Pipfile", "Pipfile.lock",
    "poetry.lock", "uv.lock", "pdm.lock", "package.json", "package-lock.json", "yarn.lock",
    "pnpm-lock.yaml", "Cargo.toml", "Cargo.lock", "go.mod", "go.sum", "Gemfile",
    "Gemfile.lock", "pom.xml", "build.gradle",
}  # fmt: skip
REQUIREMENTS_FILE = re.compile(r"^requirements([-_.][\w.-]+)?\.(txt|in)$")
ASKS_FOR_PACKAGING = re.compile(
    r"\b(?:dependenc(?:y|ies)|depends? on|install\w*|packaging|pin(?:s|ned)?|upgrade\w*|"
    r"downgrade\w*|bump\w*|entry[ -]?points?|console[ -]?scripts?|build[ -]?system|"
    r"requires-python|python_requires|extras?|lock ?file|version of)\b",
    re.IGNORECASE,
)
DROPPED = "Dropped changing `{path}`: the ticket asks for no change to the project's packaging."


def is_manifest(path: str) -> bool:
    """Whether the path is a package manifest, a lock file or a requirements file."""
    where = PurePosixPath(path)
    in_requirements = where.parent.name == "requirements" and where.suffix in {".txt", ".in"}
    return (
        where.name in MANIFEST_NAMES or bool(REQUIREMENTS_FILE.match(where.name)) or in_requirements
    )


def asks_for_packaging(text: str, path: str) -> bool:
    """Whether the text asks to change dependencies or packaging, or names this file."""
    return ASKS_FOR_PACKAGING.search(text) is not None or mentions_path(text, PurePosixPath(path))


def without_unasked_manifests(
    files: list[PlannedFile], asked: str
) -> tuple[list[PlannedFile], list[str]]:
    """The planned files without manifests that `asked` (the ticket's and the reporter's
    words) does not call for, unless nothing else is planned; a risk line for each one."""
    unasked = [f for f in files if is_manifest(f.path) and not asks_for_packaging(asked, f.path)]
    if len(unasked) == len(files):
        return files, []
    kept = [f for f in files if f not in unasked]
    return kept, [DROPPED.format(path=f.path) for f in unasked]
