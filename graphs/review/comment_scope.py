"""The definitions of a file a review comment is about; a round's rewrite of others is put back.

A worker writes the whole file, and on the local model a round asked for a docstring in
`power()` rewrote `divide()` too. An inline comment is about the function or class its line
falls in and those its text names; what the round adds is kept, and a change to any other
top-level definition of the file goes back to the branch's version of it.
"""

import ast
import re
from pathlib import Path

from pydantic import BaseModel

from graphs.schemas import FileChange

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_NAME = re.compile(r"[A-Za-z_]\w*")


class InlineComment(BaseModel):
    """The file and line a review comment points at, and what it says (untrusted text)."""

    path: str
    line: int | None = None
    body: str


def _definitions(tree: ast.Module) -> dict[str, Definition]:
    return {n.name: n for n in tree.body if isinstance(n, Definition)}


def _start(node: Definition) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _inner_names(node: Definition) -> set[str]:
    return {n.name for n in ast.walk(node) if isinstance(n, Definition)}


def about(original: ast.Module, comment: InlineComment) -> set[str] | None:
    """The top-level definitions a comment is about: the one its line falls in and those its
    text names (a method names its class); None when it points at none of them."""
    words = set(_NAME.findall(comment.body))
    found = set()
    for name, node in _definitions(original).items():
        inside = comment.line is not None and _start(node) <= comment.line <= (node.end_lineno or 0)
        if inside or words & _inner_names(node):
            found.add(name)
    return found or None


def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def held_to_comments(
    original: str, changed: str, comments: list[InlineComment]
) -> tuple[str, list[str]]:
    """The changed file with each top-level definition no comment is about as it was, and the
    names put back. A file that does not parse, or a comment about none of its definitions,
    leaves the change as it is."""
    before, after = _parsed(original), _parsed(changed)
    if before is None or after is None or not comments:
        return changed, []
    wanted: set[str] = set()
    for comment in comments:
        names = about(before, comment)
        if names is None:
            return changed, []
        wanted |= names
    old, new = _definitions(before), _definitions(after)
    others = [name for name in old if name not in wanted]
    rewritten = [n for n in others if n in new and ast.dump(old[n]) != ast.dump(new[n])]
    removed = [n for n in others if n not in new]
    lines = changed.splitlines(keepends=True)
    for name in sorted(rewritten, key=lambda n: -_start(new[n])):  # bottom up: lines stay put
        node = new[name]
        lines[_start(node) - 1 : node.end_lineno] = [_segment(original, old[name])]
    text = "".join(lines)
    for name in removed:
        text = text.rstrip("\n") + "\n\n\n" + _segment(original, old[name])
    return text, [n for n in old if n in rewritten or n in removed]


def _segment(text: str, node: Definition) -> str:
    """A definition's lines as written, decorators included, ending in a newline."""
    lines = text.splitlines(keepends=True)[_start(node) - 1 : node.end_lineno]
    return "".join(lines).rstrip("\n") + "\n"


def hold_changes(
    repo_dir: Path, changes: list[FileChange], comments: list[InlineComment]
) -> tuple[list[FileChange], list[str]]:
    """The changes with each Python file's definitions its inline comments are not about put
    back (a change left with nothing is dropped), and what was put back, as
    "`divide` in `calc/operations.py`"."""
    held: list[FileChange] = []
    put_back: list[str] = []
    for change in changes:
        on = [comment for comment in comments if comment.path == change.path]
        source = repo_dir / change.path
        if change.delete or not on or not change.path.endswith(".py") or not source.is_file():
            held.append(change)
            continue
        original = source.read_text(encoding="utf-8", errors="replace")
        content, names = held_to_comments(original, change.content, on)
        put_back += [f"`{name}` in `{change.path}`" for name in names]
        if content != original:
            held.append(change.model_copy(update={"content": content}))
    return held, put_back
