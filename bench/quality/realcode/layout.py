"""A real-code ticket's files on disk: the repository's pyproject, its ticket.toml and manifest."""

import hashlib
import json
from pathlib import Path

from pydantic import BaseModel, Field

from bench.quality.realcode.sources import Project, RealTicket

TICKET_FILE = "ticket.toml"


class Manifest(BaseModel):
    """What a generated ticket was made from and the checksum of every file written."""

    sdist: str
    sha256: str
    # The original modules of the sdist by repository path: reference/ holds the touched ones.
    originals: dict[str, str]
    # The repository's test files (data files included), restored as shipped before scoring.
    tests: list[str] = Field(default_factory=list)
    # Every file of repo/, hidden/ and reference/ by its path in the ticket directory.
    files: dict[str, str]


def checksum(data: bytes) -> str:
    """The hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def ticket_files(root: Path) -> dict[str, str]:
    """The checksums of a ticket directory's files (ticket.toml and caches left out)."""
    return {
        str(path.relative_to(root)): checksum(path.read_bytes())
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.name != TICKET_FILE
    }


def pyproject(project: Project, test_dirs: list[str]) -> str:
    """The small pyproject of a ticket's repository: pytest's settings and import path."""
    paths = ", ".join(json.dumps(p) for p in test_dirs)
    return (
        f'[project]\nname = "{project.project}"\nversion = "{project.source.version}"\n'
        'requires-python = ">=3.11"\ndependencies = []\n\n'
        f"[tool.pytest.ini_options]\ntestpaths = [{paths}]\n"
        f"pythonpath = [{json.dumps(project.source.pythonpath)}]\n"
    )


def toml_string(text: str) -> str:
    """A TOML string: multi-line when it reads better, else a basic string."""
    plain = '"""' not in text and "\\" not in text and all(c >= " " or c == "\n" for c in text)
    if plain and "\n" in text and not text.endswith('"'):
        return f'"""\n{text}"""'
    return json.dumps(text, ensure_ascii=False)


def ticket_toml(project: Project, ticket: RealTicket, manifest: Manifest) -> str:
    """The ticket.toml of a generated ticket: the ticket, its source project and manifest."""
    criteria = "".join(f"  {toml_string(c)},\n" for c in ticket.acceptance_criteria)
    lines = [
        f"# Generated from bench/quality/realcode/{project.path.name} by "
        "`python -m bench.quality.realcode generate`: edit that file, not this one.",
        f"key = {toml_string(ticket.key)}",
        f"kind = {toml_string(ticket.kind)}",
        f"source = {toml_string(project.project)}",
        f"summary = {toml_string(ticket.summary)}",
        f"description = {toml_string(ticket.description)}",
        f"acceptance_criteria = [\n{criteria}]",
        f"answers = {toml_string(ticket.answers)}",
        "",
        "[generated]",
        f"sdist = {toml_string(manifest.sdist)}",
        f"sha256 = {toml_string(manifest.sha256)}",
        f"tests = [{', '.join(json.dumps(t) for t in manifest.tests)}]",
        "",
        "[generated.originals]",
        *(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(manifest.originals.items())),
        "",
        "[generated.files]",
        *(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(manifest.files.items())),
    ]
    return "\n".join(lines) + "\n"
