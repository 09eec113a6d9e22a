"""The definitions a change touches, asked of the model as data, and the file shown as them.

Shown a whole module and asked for what it changes, a small model copies the module: an
answer of a thousand tokens for a change of ten lines. Asked first which of the module's
definitions the change touches (a choice among their names, which the server's grammar
enforces), it is then shown those in full and the rest as one line each, so its answer can
only be about the size of the change.
"""

import ast
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field, create_model

from graphs.implementation.state import WorkerState
from graphs.implementation.worker.prompt import answers_text, criteria_text
from graphs.implementation.worker.statements import Definition, bound_name, first_line
from graphs.implementation.worker.window import Window
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, capped, trim

MAX_TARGETS = 3
MAX_SHOWN = 4  # those the ticket names and those the model chose
# A module with fewer definitions than this is shown whole: choosing among them saves little.
MIN_DEFINITIONS = 3
FEEDBACK_CHARS = 1200


@dataclass(frozen=True)
class DefinitionSpan:
    """A function, class, method (`Class.method`) or module constant, and its lines [start, end)."""

    name: str
    start: int
    end: int
    outline: str  # its signature, or its first line


def _outline(node: ast.stmt, lines: list[str]) -> str:
    """The line that names a definition: its signature and the first line of its docstring."""
    header = lines[node.lineno - 1].strip()
    if isinstance(node, Definition):
        doc = (ast.get_docstring(node) or "").strip().splitlines()
        return f"{header} {doc[0]}" if doc else header
    return trim(header, 100)


def definitions_of(content: str) -> list[DefinitionSpan]:
    """The module's functions, classes, methods and constants, in the order they appear."""
    lines = content.splitlines(keepends=True)
    found: list[DefinitionSpan] = []
    for node in ast.parse(content).body:
        name = bound_name(node)
        if name is None:
            continue
        found.append(
            DefinitionSpan(
                name, first_line(node), node.end_lineno or node.lineno, _outline(node, lines)
            )
        )
        if isinstance(node, ast.ClassDef):
            found += [
                DefinitionSpan(
                    f"{name}.{member.name}",
                    first_line(member),
                    member.end_lineno or member.lineno,
                    _outline(member, lines),
                )
                for member in node.body
                if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return found


def _looks_like_code(name: str) -> bool:
    """Whether a name cannot be read as an English word: snake_case, camelCase or digits."""
    return "_" in name.strip("_") or any(c.isdigit() for c in name) or name[1:] != name[1:].lower()


def named_in(text: str, found: list[DefinitionSpan]) -> list[str]:
    """The definitions a text names as code, in the order it names them: called (`name(`),
    quoted (`` `name` ``), a traceback's frame (`, in name`), or as a name no word could be."""
    places: dict[str, int] = {}
    for definition in found:
        name = re.escape(definition.name.rpartition(".")[2])
        spellings = [rf"\b{name}\(", rf"`{name}\b", rf"\.{name}\b", rf", in {name}\b"]
        if "." not in definition.name and _looks_like_code(definition.name):
            spellings.append(rf"(?<![\w.]){name}\b")
        match = re.search("|".join(spellings), text)
        if match:
            places[definition.name] = match.start()
    return sorted(places, key=places.__getitem__)


def targets_schema(names: list[str]) -> type[BaseModel]:
    """The answer's shape: up to MAX_TARGETS of the module's definition names."""
    choice: Any = Literal[tuple(names)]
    return create_model(
        "Targets",
        __doc__="The definitions the change touches",
        change=(
            Annotated[list[choice], capped(MAX_TARGETS), Field(max_length=MAX_TARGETS)],
            Field(description="The names of the definitions to change, most important first"),
        ),
    )


async def ask_targets(
    model: BaseChatModel, state: WorkerState, path: str, found: list[DefinitionSpan]
) -> tuple[list[str], int]:
    """The names of the definitions the change touches: those the ticket or the failing tests
    name as code, then the model's choice; and the tokens the call used."""
    ticket, requirements = state["ticket"], state["requirements"]
    planned = state["assignment"]["file"]
    names = [d.name for d in found]
    inputs = {
        "path": path,
        "purpose": planned.purpose,
        "definitions": [d.outline for d in found],
        "names": names,
    }
    system, human = task_prompt(
        "targets",
        inputs,
        key=ticket.key,
        summary=ticket.summary,
        description=trim(ticket.description.strip(), 1500) or "(nothing more)",
        criteria=criteria_text(ticket, requirements),
        answers=answers_text(requirements),
        feedback=trim(state["feedback"], FEEDBACK_CHARS) or "(first revision)",
        path=path,
    )
    # What the ticket and the failing tests name as code is shown whatever the model chose:
    # a small model's choice among many names is the weaker evidence.
    spelled = named_in(
        "\n".join([ticket.summary, ticket.description, criteria_text(ticket, requirements),
                   answers_text(requirements), state["feedback"]]),
        found,
    )  # fmt: skip
    try:
        answer, tokens = await ask_structured(model, system, human, targets_schema(names))
    except ModelAnswerError as error:
        return spelled[:MAX_SHOWN], error.tokens
    chosen = list(dict.fromkeys([*spelled, *getattr(answer, "change", [])]))
    return chosen[:MAX_SHOWN], tokens


def shown_targets(content: str, found: list[DefinitionSpan], names: list[str]) -> Window | None:
    """The window of the chosen definitions: each in full, a class's chosen methods under
    their class line; None when none of the names is a definition of the file."""
    lines = content.splitlines(keepends=True)
    by_name = {d.name: d for d in found}
    chosen = [by_name[name] for name in names if name in by_name]
    if not chosen:
        return None
    parts: list[str] = []
    shown_class = ""
    for definition in sorted(chosen, key=lambda d: d.start):
        owner, _, member = definition.name.partition(".")
        if member and owner in names:
            continue  # the whole class is shown already
        body = "".join(lines[definition.start : definition.end]).rstrip("\n")
        if member and owner != shown_class:  # a method under its class line, once a class
            body = lines[by_name[owner].start].rstrip("\n") + "\n" + body
        elif member:
            parts[-1] += "\n\n" + body
            continue
        shown_class = owner if member else ""
        parts.append(body)
    text = "\n\n\n".join(parts) + "\n"
    first, last = min(d.start for d in chosen), max(d.end for d in chosen)
    return Window(first, last, len(lines), text)


def others_note(found: list[DefinitionSpan], names: list[str], total: int) -> str:
    """What the worker is told of the file beyond the definitions it is shown."""
    rest = [d.outline for d in found if d.name not in names and d.name.split(".")[0] not in names]
    listed = "\n".join(f"- {line}" for line in rest) or "- (nothing else)"
    return (
        f"The file has {total} lines. You are shown only the definitions to change, chosen"
        f" for this ticket: {', '.join(f'`{n}`' for n in names)}. The file also defines"
        f" these, which stay as they are (not shown):\n{listed}"
    )


def only_targets(
    answer: str, found: list[DefinitionSpan], names: list[str]
) -> tuple[str, list[str]]:
    """The answer without the file's definitions it was not asked to change (a small model
    shown their outline may write them again from it), and the names it left out."""
    try:
        tree = ast.parse(answer)
    except SyntaxError:
        return answer, []  # the splice says why it cannot be used
    existing = {d.name for d in found}
    lines = answer.splitlines(keepends=True)
    cut: list[tuple[int, int]] = []
    dropped: list[str] = []

    def drop(node: ast.stmt, name: str) -> None:
        cut.append((first_line(node), node.end_lineno or node.lineno))
        dropped.append(name)

    for node in tree.body:
        name = bound_name(node)
        if name is None or name in names or name not in existing:
            continue
        if not isinstance(node, ast.ClassDef):
            drop(node, name)
            continue
        members = [m for m in node.body if bound_name(m) is not None]
        unasked = [
            m
            for m in members
            if f"{name}.{bound_name(m)}" in existing and f"{name}.{bound_name(m)}" not in names
        ]
        if len(unasked) == len(members):
            drop(node, name)
        else:
            for member in unasked:
                drop(member, f"{name}.{bound_name(member)}")
    for start, end in sorted(cut, reverse=True):
        del lines[start:end]
    return "".join(lines), dropped
