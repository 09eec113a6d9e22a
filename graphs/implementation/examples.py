"""Acceptance criteria that state an example (`f(x)` returns `y`), written as tests as stated.

The small model's own tests of a criterion are often wrong: for `chunked([1, 2, 3], 2)`
returns `[[1, 2], [3]]` it wrote a test expecting a ValueError, and the code was fixed to
that. An example the ticket spells is a test already; it costs no model call.
"""

import ast
import builtins
import re
from dataclasses import dataclass
from pathlib import Path

from graphs.implementation.coverage import ticket_criteria
from graphs.implementation.failures import is_test_file
from graphs.schemas import Contract

CALL = r"`([A-Za-z_][\w.]*\([^`]*\))`"
ADVERB = r"(?:still\s+|now\s+|also\s+|should\s+)?"
# A value in backticks, or a bare number or quoted string ("returns 3", "returns 'a'").
VALUE = r"(?:`([^`]+)`|(-?\d+(?:\.\d+)?(?!\.?\d|\w)|\"[^\"]*\"|'[^']*'))"
EXAMPLE = re.compile(rf"{CALL}\s+{ADVERB}(?:returns?|gives?|is)\s+{VALUE}")
# `f(x)` and `g(y)` raise ValueError [with a message containing "empty"]
RAISING = re.compile(
    rf"((?:{CALL}(?:\s*,\s*|\s+(?:and|or)\s+)?)+)\s+{ADVERB}raises?\s+([A-Z]\w*(?:Error|Exception))"
    r"(?:\s+with\s+a\s+message\s+(?:containing|that\s+contains|mentioning)\s+[\"`']([^\"`']+)[\"`'])?"
)
PLAIN_TEXT = re.compile(r"^[\w .,!?'…-]+$")
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "tests", "test"}


@dataclass(frozen=True)
class Example:
    """One stated example: a call and the value it returns, or the exception it raises."""

    call: str
    value: str | None = None  # the right-hand side of the assertion, as Python
    raises: str | None = None  # a built-in exception's name
    match: str | None = None  # text the exception's message contains

    @property
    def name(self) -> str:
        """The function called."""
        return self.call.split("(", 1)[0]

    def body(self) -> str:
        """The test's statements, indented."""
        if self.raises is None:
            return f"    assert {self.call} == {self.value}\n"
        match = "" if self.match is None else f", match={re.escape(self.match)!r}"
        return f"    with pytest.raises({self.raises}{match}):\n        {self.call}\n"


def parses(text: str) -> ast.expr | None:
    """The expression a text is, or None when it is not one."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


def plain_call(call: str) -> bool:
    """Whether the text is a call of a plain function name (not a method, not a class)."""
    node = parses(call)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name)


def is_builtin_exception(name: str) -> bool:
    """Whether the name is one of Python's own exceptions (a test needs no import for it)."""
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, Exception)


def examples(criteria_text: str | None) -> list[Example]:
    """Each example a criterion states: a plain function's call and its value or exception."""
    found: list[Example] = []
    for criterion in ticket_criteria(criteria_text):
        for match in EXAMPLE.finditer(criterion):
            call, value = match.group(1).strip(), match.group(2) or match.group(3)
            right = expected(value.strip())
            if plain_call(call) and right:
                found.append(Example(call=call, value=right))
        for match in RAISING.finditer(criterion):
            calls, error, text = match.group(1), match.group(3), match.group(4)
            if not is_builtin_exception(error):
                continue
            for call in re.findall(CALL, calls):
                if plain_call(call.strip()):
                    found.append(Example(call=call.strip(), raises=error, match=text))
    return found


def module_defining(repo_dir: Path, name: str) -> str | None:
    """The importable module that defines a top-level function or class `name`, if one
    module does."""
    modules = []
    for path in sorted(repo_dir.rglob("*.py")):
        relative = path.relative_to(repo_dir)
        if SKIPPED_DIRS.intersection(relative.parts[:-1]) or is_test_file(relative.name):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        module = module_of(relative.as_posix())
        defined = (n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef))
        if module and any(n.name == name for n in defined):
            modules.append(module)
    return modules[0] if len(modules) == 1 else None


def expected(value: str) -> str | None:
    """The right-hand side of the assertion (floats compared within rounding; a plain word
    such as `IV` or `hello-world` is the text it spells), or None when it is neither."""
    node = parses(value)
    if node is None or any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return repr(value) if PLAIN_TEXT.match(value) else None
    floats = any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(node))
    return f"pytest.approx({value})" if floats else value


def module_of(path: str) -> str | None:
    """The importable module a Python file's path names (`src/` layouts included)."""
    parts = list(Path(path).with_suffix("").parts)
    parts = parts[1:] if parts and parts[0] == "src" else parts
    if not path.endswith(".py") or not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def promised_module(contracts: list[Contract], name: str) -> str | None:
    """The module of the one planned source file whose contract defines function `name`."""
    paths = {
        c.path
        for c in contracts
        if re.search(rf"\bdef\s+{re.escape(name)}\s*\(", c.signature) and not is_test_file(c.path)
    }
    return module_of(paths.pop()) if len(paths) == 1 else None


def example_tests(
    key: str, criteria_text: str | None, repo_dir: Path, contracts: list[Contract] | None = None
) -> str | None:
    """A test module with one test per example the ticket's criteria state, importing each
    function from the module that defines it; a function the change is to create is imported
    inside its tests, from the module the plan's contracts put it in. None when no example can
    be tested that way."""
    imports: dict[str, set[str]] = {}
    tests: list[str] = []
    stated = examples(criteria_text)
    names = {example.name for example in stated}
    modules = {name: module_defining(repo_dir, name) for name in names}  # one walk a name
    for example in stated:
        module, inside = modules[example.name], ""
        if module is None:
            # Imported in the test, so only the tests of the missing function fail to import.
            promised = promised_module(contracts or [], example.name)
            if promised is None:
                continue
            inside = f"    from {promised} import {example.name}\n\n"
        else:
            imports.setdefault(module, set()).add(example.name)
        number = len(tests) + 1
        tests.append(f"def test_example_{number}():\n{inside}{example.body()}")
    if not tests:
        return None
    lines = [f'"""Examples of {key}\'s acceptance criteria, as the ticket states them."""', ""]
    needs_pytest = any("pytest." in t for t in tests)
    lines += ["import pytest", ""] if needs_pytest else []
    lines += [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(imports.items())]
    return "\n".join(lines) + "\n\n\n" + "\n\n".join(tests)
