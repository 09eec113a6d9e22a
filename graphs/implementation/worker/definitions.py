"""An answer of definitions spliced into a Python file by its syntax tree.

A worker asked for only the functions, methods and classes it adds or changes writes an
answer the size of the change; each of its statements replaces the file's statement of the
same name (a class's members one by one), new ones are added, and the lines it did not
write stay byte for byte as they were. A whole file given back anyway (it binds every name
the file binds) is taken whole: what it moved, removed or commented on is meant.
"""

import ast
import textwrap
from dataclasses import dataclass

from graphs.implementation.worker.statements import (
    Definition,
    bound_name,
    comments,
    first_line,
    gained_self,
    imported_names,
    is_bare_value,
    is_docstring,
    is_main_guard,
    reindented,
    same,
    same_header,
    source_lines,
    without_first_parameter,
)
from graphs.implementation.worker.window import Window

# A file this short is rewritten whole: its answer is about the size of the change anyway.
WHOLE_FILE_MAX_LINES = 20
# About 1,600 tokens shown: the answer is the change, not the window, so more fits.
DEFINITIONS_WINDOW_CHARS = 5200
NOT_SPLICED = "its answer could not be spliced in"


class SpliceError(ValueError):
    """An answer that cannot be spliced: it does not parse, or it holds no statement."""


@dataclass(frozen=True)
class Spliced:
    """The file's new text, and the names the answer replaced and added (`Class.method`)."""

    content: str
    replaced: tuple[str, ...]
    added: tuple[str, ...]


@dataclass
class _Edit:
    """Lines [start, end) of the file replaced by `lines` (an insertion when start == end)."""

    start: int
    end: int
    lines: list[str]


def parse(text: str, what: str) -> ast.Module:
    """The module's tree, or a SpliceError saying where it does not parse."""
    try:
        return ast.parse(text)
    except SyntaxError as error:
        raise SpliceError(f"{what} does not parse (line {error.lineno}: {error.msg})") from None
    except ValueError as error:
        raise SpliceError(f"{what} does not parse ({error})") from None


class _Splicer:
    """The edits an answer makes to one file, gathered statement by statement."""

    def __init__(self, content: str, answer: str) -> None:
        self.newline = "\r\n" if "\r\n" in content else "\n"
        self.lines = content.splitlines()
        self.tree = parse(content, "the file")
        try:
            self.answer = parse(answer, "the answer")
        except SpliceError:  # a method written at its class's indentation, without the class
            if (dedented := textwrap.dedent(answer)) == answer:
                raise
            self.answer, answer = parse(dedented, "the answer"), dedented
        self.answer_lines = answer.splitlines()
        self.edits: list[_Edit] = []
        self.appended: list[list[str]] = []
        self.imports: list[list[str]] = []
        self.replaced: list[str] = []
        self.added: list[str] = []
        self.named: dict[str, ast.stmt] = {}
        self.bound: set[str] = set()
        self.statements = [node for node in self.tree.body if not is_docstring(node)]
        for node in self.tree.body:
            name = bound_name(node)
            if name is not None:
                self.named[name] = node
                self.bound.add(name)
            if isinstance(node, ast.Import | ast.ImportFrom):
                self.bound |= imported_names(node)
        self.file_bound = frozenset(self.bound)

    def splice(self) -> Spliced:
        """The file with the answer's statements in place."""
        statements = [node for node in self.answer.body if not is_bare_value(node)]
        if not statements:
            raise SpliceError("the answer holds no code to add or change")
        for node in statements:
            self.place(node)
        if self.whole_file():  # what it dropped, moved or commented on is meant so
            content = self.newline.join(self.answer_lines) + self.newline
        else:
            content = self.applied()
        parse(content, "the spliced file")
        return Spliced(content, tuple(self.replaced), tuple(self.added))

    def whole_file(self) -> bool:
        """Whether the answer is the whole file again: it binds every name the file binds at
        its top level, imports included."""
        answer: set[str] = set()
        for node in self.answer.body:
            if (name := bound_name(node)) is not None:
                answer.add(name)
            if isinstance(node, ast.Import | ast.ImportFrom):
                answer |= imported_names(node)
        return bool(self.file_bound) and self.file_bound <= answer

    def place(self, node: ast.stmt) -> None:
        """One statement of the answer placed: an import, a definition, an assignment."""
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                return
            if not imported_names(node) <= self.bound:
                self.imports.append(source_lines(self.answer_lines, node))
                self.bound |= imported_names(node)
            return
        if any(self.unchanged(old, node) for old in self.statements):
            return
        name = bound_name(node)
        old = self.named.get(name) if name else None
        if isinstance(node, ast.ClassDef) and isinstance(old, ast.ClassDef):
            self.merge_class(old, node)
        elif old is not None and name is not None:
            self.replace(old, node, name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and self.method_of(node):
            return
        elif is_main_guard(node):
            guard = next((s for s in self.statements if is_main_guard(s)), None)
            if guard is not None:
                self.replace(guard, node, "__main__")
            else:
                self.appended.append(source_lines(self.answer_lines, node))
        elif name is not None and isinstance(node, ast.Assign | ast.AnnAssign):
            self.assigned(node, name)
        else:
            self.appended.append(self.with_comments(node))
            self.added.append(name or f"line {node.lineno}")

    def assigned(self, node: ast.Assign | ast.AnnAssign, name: str) -> None:
        """A new module-level value: beside the file's constants when it reads none of the
        file's names (a default or a class body may read it on import), else at the end."""
        reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - {name}
        lines = self.with_comments(node)
        if reads & set(self.named):
            self.appended.append(lines)
        else:
            at = self.constants_line()
            self.edits.append(_Edit(at, at, ["", *lines] if at else lines))
        self.added.append(name)

    def unchanged(self, old: ast.stmt, new: ast.stmt) -> bool:
        """Whether the answer's statement is the file's, comments included."""
        return same(old, new) and comments(source_lines(self.lines, old)) == comments(
            source_lines(self.answer_lines, new)
        )

    def with_comments(self, node: ast.stmt) -> list[str]:
        """A new statement's lines with the comment lines right above it in the answer."""
        start = first_line(node)
        while start > 0 and self.answer_lines[start - 1].lstrip().startswith("#"):
            start -= 1
        return self.answer_lines[start : node.end_lineno]

    def replace(self, old: ast.stmt, new: ast.stmt, name: str, indent: str = "") -> None:
        """The file's statement replaced by the answer's, at the old one's indentation."""
        lines = source_lines(self.answer_lines, new)
        if gained_self(old, new) and isinstance(new, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = without_first_parameter(lines, new)
        lines = reindented(lines, new.col_offset, indent)
        end = old.end_lineno or old.lineno
        self.edits.append(_Edit(first_line(old), end, lines))
        self.replaced.append(name)

    def method_of(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A module-level answer replacing the method of that name of the file's one class
        that has it; False when no single class has it."""
        args = node.args.posonlyargs + node.args.args
        if not args or args[0].arg not in ("self", "cls"):
            return False
        owners = [
            (cls, member)
            for cls in self.statements
            if isinstance(cls, ast.ClassDef)
            for member in cls.body
            if isinstance(member, Definition) and member.name == node.name
        ]
        if len({id(cls) for cls, _ in owners}) != 1:
            return False
        cls, member = owners[-1]
        self.replace(member, node, f"{cls.name}.{node.name}", " " * member.col_offset)
        return True

    def merge_class(self, old: ast.ClassDef, new: ast.ClassDef) -> None:
        """The answer's members of a class the file has, each in place of the file's member
        of its name or added at the end of the class; its header when its bases changed."""
        indent = " " * old.body[0].col_offset
        if not same_header(old, new):
            header = self.answer_lines[first_line(new) : new.body[0].lineno - 1]
            self.edits.append(_Edit(first_line(old), old.body[0].lineno - 1, header))
            self.replaced.append(old.name)
        members = {name: m for m in old.body if (name := bound_name(m)) is not None}
        for member in new.body:
            if is_bare_value(member) or isinstance(member, ast.Pass):  # a placeholder
                continue
            if any(self.unchanged(kept, member) for kept in old.body):
                continue
            name = bound_name(member)
            qualified = f"{old.name}.{name or member.lineno}"
            if name is not None and name in members:
                self.replace(members[name], member, qualified, indent)
                continue
            lines = reindented(source_lines(self.answer_lines, member), member.col_offset, indent)
            end = old.end_lineno or old.lineno
            self.edits.append(_Edit(end, end, ["", *lines]))
            self.added.append(qualified)

    def import_line(self) -> int:
        """Where new imports go: after the file's last import before its first definition,
        else after its docstring, else at its top."""
        line = 0
        for node in self.tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                line = node.end_lineno or node.lineno
            elif is_docstring(node) and node is self.tree.body[0]:
                line = node.end_lineno or node.lineno
            elif isinstance(node, Definition):
                break
        return line

    def constants_line(self) -> int:
        """The line after the file's last import or assignment before its first definition."""
        line = self.import_line()
        for node in self.tree.body:
            if isinstance(node, Definition):
                break
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.Import | ast.ImportFrom):
                line = node.end_lineno or node.lineno
        return line

    def applied(self) -> str:
        """The file's lines with every edit made, bottom up, and the new statements added."""
        lines = list(self.lines)
        guard = next((s for s in self.statements if is_main_guard(s)), None)
        edits = []  # the imports first: a new value beside them may read them
        if self.imports:
            at = self.import_line()
            edits.append(_Edit(at, at, [line for block in self.imports for line in block]))
        edits += self.edits
        if self.appended:
            blocks = [line for block in self.appended for line in ["", "", *block]]
            if guard is not None:
                at = first_line(guard)
                edits.append(_Edit(at, at, [*blocks[2:], "", ""]))
            else:
                while lines and not lines[-1].strip():
                    lines.pop()
                edits.append(_Edit(len(lines), len(lines), blocks if lines else blocks[2:]))
        # Bottom up, and of two insertions at one line the later first, so both keep order.
        order = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].end, i))
        for index in reversed(order):
            lines[edits[index].start : edits[index].end] = edits[index].lines
        return self.newline.join(lines) + self.newline


def answered_by_definitions(path: str, current: str) -> bool:
    """Whether a worker's answer for this file is its changed definitions: a Python file
    longer than a few lines that parses (a new, short or broken file is written whole)."""
    if not path.endswith(".py") or len(current.splitlines()) <= WHOLE_FILE_MAX_LINES:
        return False
    try:
        ast.parse(current)
    except (SyntaxError, ValueError):
        return False
    return True


def statement_window(content: str, window: Window) -> Window:
    """The window grown to whole statements (module-level ones, or a class's members), so
    that what the worker is shown, and answers with, parses."""
    if window.whole:
        return window
    lines = content.splitlines(keepends=True)
    tree = ast.parse(content)
    starts = {0, len(lines)}  # the top: comments or a shebang may come before any statement
    for node in tree.body:
        starts.add(first_line(node))
        if isinstance(node, ast.ClassDef):
            starts.update(first_line(member) for member in node.body)
    start = max(line for line in starts if line <= window.start)
    end = min(line for line in starts if line >= window.end)
    return Window(start, end, len(lines), "".join(lines[start:end]))


def splice_definitions(content: str, answer: str) -> Spliced:
    """The file with the answer's definitions, assignments and imports in place of those of
    the same name, and the rest added; a SpliceError when either does not parse."""
    return _Splicer(content, answer).splice()
