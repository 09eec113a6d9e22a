"""Acceptance criteria that state an example (`f(x)` returns `y`), written as tests as stated.

The small model's own tests of a criterion are often wrong: for `pairs([1, 2, 3])`
returns `[(1, 2), (2, 3)]` it may write a test expecting a ValueError, and the code is then
fixed to that. An example the ticket spells is a test already; it costs no model call.
"""

import ast
import builtins
import re
from dataclasses import dataclass
from pathlib import Path

from graphs.implementation.criteria.modules import (
    module_defining,
    planned_module,
    promised_module,
)
from graphs.implementation.criteria.ticket import ticket_criteria
from graphs.schemas import Contract

CALL = r"`([A-Za-z_][\w.]*\([^`]*\))`"
ADVERB = r"(?:still\s+|now\s+|also\s+|should\s+)?"
# A value in backticks, or a bare number or quoted string ("returns 3", "returns 'a'").
VALUE = r"(?:`([^`]+)`|(-?\d+(?:\.\d+)?(?!\.?\d|\w)|\"[^\"]*\"|'[^']*'|(?:True|False|None)(?!\w)))"
EXAMPLE = re.compile(rf"{CALL}\s+{ADVERB}(?:returns?|gives?|is)\s+{VALUE}")
# `f(x)` and `g(y)` raise ValueError [with a message containing "empty"]
RAISING = re.compile(
    rf"((?:{CALL}(?:\s*,\s*|\s+(?:and|or)\s+)?)+)\s+{ADVERB}raises?\s+([A-Z]\w*(?:Error|Exception))"
    r"(?:\s+with\s+a\s+message\s+(?:containing|that\s+contains|mentioning)\s+[\"`']([^\"`']+)[\"`'])?"
)
# "yes", "on" and "1" are True: values of the one function the ticket names, in a criterion
# that calls nothing.
QUOTED = r'"[^"\n]*"'
TRUTH = re.compile(
    rf"((?:{QUOTED}(?:\s*,\s*|\s*,?\s+(?:and|or)\s+)?)+)\s+(?:are|is)\s+{ADVERB}"
    r"`?(True|False|None)`?(?!\w)"
)
SINGLETONS = {"True", "False", "None"}
PLAIN_TEXT = re.compile(r"^[\w .,!?'…-]+$")


@dataclass(frozen=True)
class Example:
    """One stated example: a call and the value it returns, or the exception it raises."""

    call: str
    value: str | None = None  # the right-hand side of the assertion, as Python
    raises: str | None = None  # a built-in exception's name
    match: str | None = None  # text the exception's message contains
    criterion: str | None = None  # the test's docstring, when its criterion calls nothing

    @property
    def name(self) -> str:
        """The function called."""
        return self.call.split("(", 1)[0]

    def body(self) -> str:
        """The test's statements, indented."""
        about = "" if self.criterion is None else f"    {self.criterion!r}\n"
        if self.raises is None:
            compare = "is" if self.value in SINGLETONS else "=="
            return f"{about}    assert {self.call} {compare} {self.value}\n"
        match = "" if self.match is None else f", match={re.escape(self.match)!r}"
        return f"{about}    with pytest.raises({self.raises}{match}):\n        {self.call}\n"


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


def implied_subject(text: str, repo_dir: Path) -> str | None:
    """The function a ticket is about: the one function the repository defines of those its
    text names in backticks (`app.options.read_flag`, `read_flag()`), else None."""
    names = set()
    for code in re.findall(r"`([^`\n]+)`", text):
        named = re.fullmatch(r"([A-Za-z_][\w.]*)(?:\(.*\))?", code.strip())
        if named:
            names.add(named.group(1).rsplit(".", 1)[-1])
    defined = [n for n in sorted(names) if module_defining(repo_dir, n, functions_only=True)]
    return defined[0] if len(defined) == 1 else None


def implied_examples(criterion: str, subject: str | None) -> list[Example]:
    """The values a criterion that calls nothing states for the subject's quoted arguments."""
    if subject is None or re.search(CALL, criterion):
        return []
    found = []
    for match in TRUTH.finditer(criterion):
        for argument in re.findall(QUOTED, match.group(1)):
            if isinstance(parses(argument), ast.Constant):
                call = f"{subject}({argument})"
                found.append(Example(call=call, value=match.group(2), criterion=criterion))
    return found


def examples(criteria_text: str | None, subject: str | None = None) -> list[Example]:
    """Each example a criterion states: a plain function's call and its value or exception;
    with a subject, the values stated for its quoted arguments."""
    found: list[Example] = []
    for criterion in ticket_criteria(criteria_text):
        found += implied_examples(criterion, subject)
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


def expected(value: str) -> str | None:
    """The right-hand side of the assertion (floats compared within rounding; a plain word
    such as `IV` or `hello-world` is the text it spells), or None when it is neither."""
    node = parses(value)
    if node is None or any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return repr(value) if PLAIN_TEXT.match(value) else None
    floats = any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(node))
    return f"pytest.approx({value})" if floats else value


def example_tests(
    key: str,
    criteria_text: str | None,
    repo_dir: Path,
    contracts: list[Contract] | None = None,
    subject: str | None = None,
    planned: list[str] | None = None,
) -> str | None:
    """A test module with one test per example the ticket's criteria state, importing each
    function from the module that defines it; a function the change is to create is imported
    inside its tests, from the module the plan's contracts put it in, else the subject's or
    the one planned source module. None when no example can be tested that way."""
    imports: dict[str, set[str]] = {}
    tests: list[str] = []
    stated = examples(criteria_text, subject)
    names = {example.name for example in stated} | ({subject} if subject else set())
    modules = {name: module_defining(repo_dir, name) for name in names}  # one walk a name
    fallback = planned_module(planned or [], modules.get(subject) if subject else None)
    for example in stated:
        module, inside = modules[example.name], ""
        if module is None:
            # Imported in the test, so only the tests of the missing function fail to import.
            promised = promised_module(contracts or [], example.name) or fallback
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
