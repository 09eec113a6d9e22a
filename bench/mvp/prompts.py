"""The MVP benchmark's prompts and their acceptance scripts."""

import tomllib
from pathlib import Path

from pydantic import BaseModel, ValidationError

PROMPTS_FILE = Path(__file__).resolve().parent / "prompts.toml"
ACCEPTANCE_DIR = Path(__file__).resolve().parent / "acceptance"


class PromptError(ValueError):
    """A prompts file that is malformed, or a prompt name nobody wrote."""


class BenchPrompt(BaseModel):
    """One request to the MVP builder and the script that accepts its project."""

    name: str
    kind: str
    prompt: str
    acceptance: str

    @property
    def script(self) -> Path:
        """The acceptance script's file."""
        return ACCEPTANCE_DIR / self.acceptance


def load_prompts(names: list[str] | None = None, path: Path = PROMPTS_FILE) -> list[BenchPrompt]:
    """Every prompt (or the named ones), each with an acceptance script that exists."""
    try:
        prompts = [BenchPrompt(**p) for p in tomllib.loads(path.read_text())["prompts"]]
    except (OSError, KeyError, tomllib.TOMLDecodeError, ValidationError, TypeError) as err:
        raise PromptError(f"{path}: {err}") from err
    missing = [p.acceptance for p in prompts if not p.script.is_file()]
    if missing:
        raise PromptError(f"{path}: acceptance scripts missing from {ACCEPTANCE_DIR}: {missing}")
    if names:
        known = {p.name: p for p in prompts}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise PromptError(f"unknown prompts {unknown}; known: {', '.join(known)}")
        prompts = [known[n] for n in names]
    return prompts
