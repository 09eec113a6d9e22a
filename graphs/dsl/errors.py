"""Definition errors that name the step and the field at fault."""

from typing import Any

from pydantic import ValidationError

from graphs.dsl.model import STEP_KINDS


class DefinitionError(ValueError):
    """A graph definition that cannot run; each problem names its step and field."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        listed = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source} is not a valid graph definition:\n{listed}")


def step_label(raw: Any) -> str | None:
    """A step's name as written, else its agent, else its kind."""
    if not isinstance(raw, dict):
        return None
    if raw.get("name"):
        return str(raw["name"])
    if raw.get("agent"):
        return str(raw["agent"])
    kinds = [k for k in STEP_KINDS if k in raw]
    return f"({kinds[0]} step)" if kinds else None


def where(raw: Any, loc: tuple[str | int, ...]) -> tuple[str, str]:
    """The innermost step a pydantic error location lies in, and the field path inside it."""
    current, step, path = raw, "the graph", ""
    field: list[str] = []
    tag_next = False
    for part in loc:
        if tag_next and part in STEP_KINDS:
            tag_next = False
            continue  # the union tag pydantic puts after a step's index
        tag_next = False
        if isinstance(current, list) and isinstance(part, int) and part < len(current):
            current = current[part]
            path += f"[{part}]"
            label = step_label(current)
            if label is not None:
                step, field, tag_next = f"step '{label}' at {path.lstrip('.')}", [], True
            continue
        if isinstance(current, dict) and part in current:
            current = current[part]
            path += f".{part}"
            field.append(str(part))
            continue
        if isinstance(part, str) and part.rstrip("_") in STEP_KINDS + ("in", "not", "all", "any"):
            continue  # a union tag pydantic adds to the location
        field.append(str(part))
    return step, ".".join(field) or "(the step itself)"


def from_validation(source: str, raw: Any, err: ValidationError) -> DefinitionError:
    """A pydantic error as a DefinitionError naming each problem's step and field."""
    problems = []
    for item in err.errors():
        step, field = where(raw, tuple(item["loc"]))
        message = item["msg"].removeprefix("Value error, ")
        if field.endswith("max_iterations") and item["type"] == "missing":
            message = "a loop needs `max_iterations`: a cycle without a bound is refused"
        problems.append(f"{step}, field '{field}': {message}")
    return DefinitionError(source, list(dict.fromkeys(problems)))
