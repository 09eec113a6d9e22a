"""A function of the plan's contracts that a worker's file still lacks, asked for alone.

Asked for a whole file that must gain a function, a small model can give the file back
without it, revision after revision, though the review names it. Asked for that function
alone, its answer is the size of the change, and the function goes after the file's last
line.
"""

import ast
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.implementation.diagnose.contracts import lacking_functions, promised, ticket_words
from graphs.implementation.journal import WorkerOutcome
from graphs.implementation.revision import read_current
from graphs.implementation.state import WorkerState
from graphs.implementation.worker.answer import ask_for_file, bounded
from graphs.implementation.worker.forgotten_imports import add_forgotten_imports
from graphs.implementation.worker.prompt import worker_messages
from graphs.implementation.worker.retries import with_note
from graphs.implementation.worker.window import choose_window
from graphs.planning.paths import is_test_path
from graphs.schemas import Contract, FileChange

ALONE = (
    "`{path}` still lacks what the plan's contracts promise:\n{contracts}\n"
    "Write only {them}, complete, with its body: it is added after the file's last line, and"
    " the rest of the file stays as it is."
)


def named(contracts: list[Contract]) -> list[str]:
    """The function names the contracts promise."""
    return [found[0] for c in contracts if (found := promised(c)) is not None]


def defined_elsewhere(state: WorkerState, contract: Contract, path: str) -> bool:
    """Whether another file of the repository defines the contract's function: the contract
    may then be placed wrong, and a second definition is not the change."""
    found = promised(contract)
    return found is not None and any(p != path for p in state["index"].defining(found[0]))


def function_sources(text: str, names: list[str]) -> dict[str, str]:
    """The source of each module-level function of these names the text defines, decorators
    included."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    lines = text.splitlines()
    sources: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            sources.setdefault(node.name, "\n".join(lines[first - 1 : node.end_lineno]))
    return sources


def appended(content: str, functions: list[str]) -> str:
    """The file with the functions after its last line."""
    body = "\n\n\n".join(functions) + "\n"
    return body if not content.strip() else content.rstrip("\n") + "\n\n\n" + body


async def add_missing_functions(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    state: WorkerState,
    outcome: WorkerOutcome,
) -> WorkerOutcome:
    """The outcome with the contracts' functions its file lacks asked for alone and added;
    as it was when none is lacking or the answer defines none of them."""
    path, planned = outcome.path, state["assignment"]["file"]
    if not path.endswith(".py") or is_test_path(path) or planned.action == "delete":
        return outcome
    if outcome.change is not None:
        if outcome.change.delete:
            return outcome
        content = outcome.change.content
    else:
        current = state["current"]
        content = current if current is not None else read_current(state["repo_dir"] / path) or ""
    words = ticket_words(state["ticket"], state["requirements"])
    lacking = [
        c
        for c in lacking_functions(state["plan"].contracts, path, content, words)
        if not defined_elsewhere(state, c, path)
    ]
    if not lacking:
        return outcome
    names = named(lacking)
    listed = "\n".join(f"- `{c.signature}`: {c.behaviour.strip()}".rstrip(": ") for c in lacking)
    them = "this function" if len(names) == 1 else "these functions"
    note = ALONE.format(path=path, contracts=listed, them=them)
    window = choose_window(content, " ".join(names))
    shown_as = (
        "Its current content:"
        if window.whole
        else (f"The file has {window.total} lines; lines {window.start + 1}-{window.end} of it:")
    )
    spelled = ", ".join(f"`{n}`" for n in names)
    messages = worker_messages(
        with_note(state, note),
        window,
        content,
        shown_as=shown_as,
        scope=f"function {spelled} alone (not the rest of the file)",
    )
    answer_model = bounded(model, window.text)
    text, tokens, _ = await ask_for_file(answer_model, messages, tools, path, window.text)
    sources = function_sources(text or "", names)
    total = outcome.tokens + tokens
    if not sources:
        return outcome.model_copy(update={"tokens": total})
    new, added = add_forgotten_imports(path, appended(content, list(sources.values())))
    wrote = ", ".join(f"`{n}`" for n in sources)
    before = f"{path}: unchanged" if outcome.change is None else outcome.note
    note = f"{before}; {wrote} asked for alone and added"
    if added:
        note += " (with " + ", ".join(f"`{m}`" for m in added) + ")"
    change = FileChange(path=path, content=new)
    return outcome.model_copy(update={"change": change, "note": note, "tokens": total})
