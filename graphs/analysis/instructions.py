"""The repository's own instructions for contributors and agents (AGENTS.md and the like):
read, condensed to fit a small model's prompt, and the check commands they name."""

import re
import shlex
from pathlib import Path

from markdown_it import MarkdownIt
from pydantic import BaseModel, Field

# Most specific first: when the budget runs out, the agents' own file has been read.
INSTRUCTION_FILES = (
    "AGENTS.md",
    ".github/copilot-instructions.md",
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
)
MAX_FILE_BYTES = 200_000
BUDGET_CHARS = 2000
MAX_CHECKS = 3
# Commands that check code without changing it; a fixer (`ruff format`, `black`) is left out.
CHECK_TOOLS = re.compile(
    r"^(?:(?:uv run|poetry run|pdm run|hatch run|python3? -m)\s+)?"
    r"(?:ruff check|ruff format --check|flake8|mypy|pyright|pylint|black --check|isort --check"
    r"|make (?:lint|check|typecheck|type-check)|tox -e (?:lint|type|typing|mypy|flake8))\b"
)
DIRECTIVE = re.compile(
    r"\b(must|never|always|do not|don't|should|shall|required?|avoid|prefer|only|use|run)\b",
    re.IGNORECASE,
)
SHELL_SYNTAX = re.compile(r"[;&|<>`$()]")


class RepositoryInstructions(BaseModel):
    """What the repository asks of whoever changes it, and the commands that check the code."""

    sources: list[str] = Field(default_factory=list)
    text: str = ""
    check_commands: list[str] = Field(default_factory=list)

    def prompt_text(self) -> str:
        """The instructions as a prompt shows them: where they come from, then what they say."""
        if not self.text:
            return ""
        return f"The repository's own instructions ({', '.join(self.sources)}):\n{self.text}"


def read_instructions(repo_dir: Path, budget: int = BUDGET_CHARS) -> RepositoryInstructions:
    """The instruction files the checkout has, condensed to `budget` characters together."""
    found = RepositoryInstructions()
    texts: list[str] = []
    for name in INSTRUCTION_FILES:
        path = repo_dir / name
        if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            continue
        markdown = path.read_text(encoding="utf-8", errors="replace")
        found.sources.append(name)
        texts.append(markdown)
        for command in check_commands(markdown):
            if command not in found.check_commands and len(found.check_commands) < MAX_CHECKS:
                found.check_commands.append(command)
    found.text = condensed(texts, budget)
    return found


def condensed(texts: list[str], budget: int) -> str:
    """The texts whole when they fit; else their headings, list items and directive sentences,
    in order, until the budget is spent."""
    whole = "\n\n".join(t.strip() for t in texts if t.strip())
    if len(whole) <= budget:
        return whole
    kept: list[str] = []
    used = 0
    for line in (line.strip() for text in texts for line in text.splitlines()):
        if not _worth_keeping(line):
            continue
        if used + len(line) + 1 > budget:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)


def _worth_keeping(line: str) -> bool:
    """Headings, list items and sentences that tell the reader what to do."""
    if not line or line.startswith(("<!--", "[!", "![")):
        return False
    return (
        line.startswith("#")
        or bool(re.match(r"^([-*+]|\d+[.)])\s", line))
        or bool(DIRECTIVE.search(line))
    )


def check_commands(markdown: str) -> list[str]:
    """The check commands a markdown text names in code (spans or blocks), as written."""
    found: list[str] = []
    for token in MarkdownIt().parse(markdown):
        codes = [token.content] if token.type in ("fence", "code_block") else []
        if token.type == "inline":
            codes = [child.content for child in token.children or [] if child.type == "code_inline"]
        for code in codes:
            for line in code.splitlines():
                command = line.strip().removeprefix("$ ").strip()
                if _is_check(command) and command not in found:
                    found.append(command)
    return found


def _is_check(command: str) -> bool:
    """A single check command that runs as argv (no shell syntax) and changes nothing."""
    if not CHECK_TOOLS.match(command) or SHELL_SYNTAX.search(command):
        return False
    if "--fix" in command.split():
        return False
    try:
        return bool(shlex.split(command))
    except ValueError:
        return False
