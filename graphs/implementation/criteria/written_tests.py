"""Criteria the examples reader cannot test as stated, tested by the model within bounds.

"A negative speed raises ValueError" names no call; "`fare(children=2)` on a trip of 40.0
km returns 30.0" calls a function on a trip it describes. The model writes the call; of its
tests only those that check exactly what the criterion states are kept: a `pytest.raises` of
the error it names, or an assertion that a call equals a value it spells. Such a test
computes no expected value, the small model's usual mistake in a test.
"""

import ast
import builtins
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graphs.implementation.criteria.argument_kinds import arguments_fit
from graphs.implementation.criteria.examples import (
    PLAIN_TEXT,
    RAISING,
    examples,
    is_builtin_exception,
)
from graphs.implementation.criteria.imports import (
    forgotten_imports,
    imported_functions,
    imports_known_names,
)
from graphs.implementation.criteria.ticket import ticket_criteria

RAISES = re.compile(r"\braises?\s+(?:an?\s+)?([A-Z]\w*(?:Error|Exception))\b")
EXISTING = re.compile(r"\b(still|already|as before|unchanged)\b", re.IGNORECASE)
# Reporters write "gets a price of 4.5 euros" and "the corner shows `ABC`" as often as
# "returns": a verb of showing may name what it shows before the value ("... of", "... as").
# Not "prints": output is not what a call returns.
STATED_VALUE = re.compile(
    r"\b(?:(?:returns?|is|are|be|equals?)\s+"
    r"|(?:gives?|gets?|shows?|displays?|reads?|becomes?|comes out)\s+"
    r"(?:(?:an?|the)\s+)?(?:[A-Za-z-]+\s+){0,3}?(?:(?<=\s)(?:of|as)\s+)?)"
    r"(?:still\s+)?"
    r"(?:`([^`]+)`|(-?\d+(?:\.\d+)?)(?!\.?\d|\w)|(True|False|None)\b)"
)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
QUOTED = re.compile(r'"[^"\n]*"')
# A value shown to people: words, numbers, units and punctuation, but no brackets or quotes.
DISPLAY_TEXT = re.compile(r"^[^()\[\]{}=`'\"\\]+$")
UNREADABLE = object()
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
SCALES = range(-3, 4)  # g and kg, cm and m, percent and fraction
# "below 0 or above 100": the bound itself is neither, so a test expecting the error there is wrong
BOUND = re.compile(
    r"\b(?:below|under|less than|above|over|greater than|more than|exceeds?)\s+(-?\d+(?:\.\d+)?)\b"
)
# Statements a test may hold besides its checks: setting values up, calling.
SETUP = (ast.Assign, ast.Expr)


@dataclass(frozen=True)
class Stated:
    """What a criterion states that a test may check: errors raised, values returned."""

    errors: frozenset[str] = frozenset()
    values: tuple[object, ...] = ()


def literal(text: str) -> object:
    """The Python value a stated text spells (plain words, or a line of display text such as
    `hall: 3.5 m`, are the text itself), else `UNREADABLE`."""
    text = text.strip()
    if text.startswith("pytest.approx(") and text.endswith(")"):
        text = text[len("pytest.approx(") : -1]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        readable = PLAIN_TEXT.match(text) or (DISPLAY_TEXT.match(text) and not parses_as_code(text))
        return text if readable else UNREADABLE


def parses_as_code(text: str) -> bool:
    """Whether the text is a Python expression (`a.b`, `x > 3`), not a line of prose."""
    try:
        ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def same(left: object, right: object) -> bool:
    """Equal values, a bool never equal to a number."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    return left == right


def stated_values(criterion: str, subject: str | None = None) -> list[object]:
    """The values the criterion says something returns, less those its examples test."""
    found: list[object] = []
    for match in STATED_VALUE.finditer(criterion):
        found.append(literal(next(g for g in match.groups() if g)))
        if match.group(1) is not None:  # "shows `AB` for Ann Bell, and `CD` for Carl Dent"
            later = (m for m in CODE_SPAN.finditer(criterion) if m.start() >= match.end())
            found += [literal(m.group(1)) for m in later if "(" not in m.group(1)]
    tested = [literal(e.value) for e in examples(criterion, subject) if e.value is not None]
    values: list[object] = []
    for value in found:
        if value is not UNREADABLE and not any(same(value, t) for t in [*tested, *values]):
            values.append(value)
    return values


def stated_checks(criteria_text: str | None, subject: str | None = None) -> dict[str, Stated]:
    """Each criterion stating an error without its call (not one the code raises already)
    or a value no stated example tests, with what it states."""
    found: dict[str, Stated] = {}
    for criterion in ticket_criteria(criteria_text):
        errors = frozenset(e for e in RAISES.findall(criterion) if is_builtin_exception(e))
        if EXISTING.search(criterion) or RAISING.search(criterion):
            errors = frozenset()
        values = tuple(stated_values(criterion, subject))
        if errors or values:
            found[criterion] = Stated(errors=errors, values=values)
    return found


def is_raises(item: ast.withitem, errors: frozenset[str]) -> bool:
    """Whether a `with` item is `pytest.raises(E, ...)` for one of the errors."""
    call = item.context_expr
    return (
        isinstance(call, ast.Call)
        and ast.unparse(call.func) == "pytest.raises"
        and bool(call.args)
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id in errors
    )


def checks_only_errors(function: ast.FunctionDef, errors: frozenset[str]) -> bool:
    """Whether a test only sets up values and expects a stated error around its calls."""
    if not errors or any(isinstance(node, ast.Assert) for node in ast.walk(function)):
        return False
    withs = [s for s in function.body if isinstance(s, ast.With)]
    return (
        bool(withs)
        and all(isinstance(s, SETUP + (ast.With,)) for s in function.body)
        and all(len(w.items) == 1 and is_raises(w.items[0], errors) for w in withs)
        and all(isinstance(s, SETUP) for w in withs for s in w.body)
    )


def number(node: ast.expr) -> float | None:
    """The number a literal spells (`-10` included), else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def raises_past_bounds(function: ast.FunctionDef, criterion: str) -> bool:
    """Whether no call expected to raise passes a bound the criterion says is allowed: for
    "a volume below 0 or above 100 raises", `play(volume=0)` must not raise."""
    bounds = {float(b) for b in BOUND.findall(criterion)}
    for block in (n for n in ast.walk(function) if isinstance(n, ast.With)):
        last = block.body[-1] if block.body else None
        for call in (n for n in ast.walk(last) if isinstance(n, ast.Call)) if last else ():
            arguments = [*call.args, *(k.value for k in call.keywords)]
            if any(number(a) in bounds for a in arguments):
                return False
    return True


def call_results(function: ast.FunctionDef) -> frozenset[str]:
    """The names the test binds to what a call returns (`reading = parse_line(line)`)."""
    return frozenset(
        target.id
        for statement in function.body
        if isinstance(statement, ast.Assign)
        and any(isinstance(n, ast.Call) for n in ast.walk(statement.value))
        for target in statement.targets
        if isinstance(target, ast.Name)
    )


def asserts_stated_value(
    check: ast.Assert, values: tuple[object, ...], results: frozenset[str] = frozenset()
) -> bool:
    """`assert <a call, or what one returned> == <a stated value>` (or `is`, or
    `pytest.approx` of one)."""
    test = check.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    right = test.comparators[0]
    if isinstance(right, ast.Call) and ast.unparse(right.func) == "pytest.approx" and right.args:
        right = right.args[0]
    try:
        value = ast.literal_eval(right)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    calls = any(
        isinstance(node, ast.Call) or (isinstance(node, ast.Name) and node.id in results)
        for node in ast.walk(test.left)
    )
    return (
        isinstance(test.ops[0], ast.Eq | ast.Is) and calls and any(same(value, v) for v in values)
    )


def checks_stated_values(function: ast.FunctionDef, values: tuple[object, ...]) -> bool:
    """Whether a test only sets up values and asserts that calls return stated values."""
    asserts = [s for s in function.body if isinstance(s, ast.Assert)]
    results = call_results(function)
    return (
        bool(values and asserts)
        and all(isinstance(s, SETUP + (ast.Assert,)) for s in function.body)
        and all(asserts_stated_value(a, values, results) for a in asserts)
    )


def without_unstated_checks(function: ast.FunctionDef, values: tuple[object, ...]) -> None:
    """Drops the test's asserts of values the criterion does not state, when one it states
    stays: the small model checked `room == "hall"` beside the stated length."""
    results = call_results(function)
    stated = [
        s
        for s in function.body
        if not isinstance(s, ast.Assert) or asserts_stated_value(s, values, results)
    ]
    if any(isinstance(s, ast.Assert) for s in stated):
        function.body = stated


def keywords_known(function: ast.FunctionDef, words: set[str]) -> bool:
    """Whether every keyword argument the test passes is a word the ticket or the code
    spells (the small model copies a keyword of its prompt's example into another test)."""
    return all(
        keyword.arg is None or keyword.arg in words
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
    )


def keys_known(function: ast.FunctionDef, keys: set[str]) -> bool:
    """Whether every string key the test reads (`badge(c)["circle"]`) is one the code or the
    ticket spells as code: the small model read "the corner shows `ABC`" as a key, and every
    revision that made `label` return it broke the repository's own test of `label`."""
    return all(
        node.slice.value in keys
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    )


def numbers_in(text: str) -> set[float]:
    """The numbers a text spells."""
    return {float(n) for n in NUMBER.findall(text)}


def among(number: float, stated: set[float]) -> bool:
    """Whether the number is a stated one in another unit (3200 g for "3.2 kg")."""
    return any(math.isclose(number, value * 10**power) for value in stated for power in SCALES)


def call_numbers(function: ast.FunctionDef) -> list[float]:
    """The numbers the test passes to calls, besides 0 and 1."""
    found: list[float] = []
    for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            value = number(argument)
            if value is not None and value not in (0, 1):
                found.append(float(value))
    return found


def borrows_inputs(function: ast.FunctionDef, criterion: str, others: Sequence[str]) -> bool:
    """Whether the test sets up numbers another criterion states and its own does not: the
    small model tested "a 20 x 15 x 10 cm box of 3.2 kg" on the 60 x 40 x 40 cm box of the
    criterion before, expecting this one's weight."""
    own, theirs = numbers_in(criterion), numbers_in("\n".join(others))
    return any(not among(n, own) and among(n, theirs) for n in call_numbers(function))


def numbers_set_up(function: ast.FunctionDef) -> set[float]:
    """The numbers a test spells, and those two of them make together (a line of 100.0 times
    2 sets up a trip of 200.0)."""
    # `round(total, 2)` sets nothing up: its 2 is no part of the criterion's trip of 200.0
    builtin_arguments = {
        id(argument)
        for call in ast.walk(function)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and hasattr(builtins, call.func.id)
        for argument in call.args[1:]
    }
    spelled = [
        value
        for node in ast.walk(function)
        if isinstance(node, ast.Constant | ast.UnaryOp)
        and id(node) not in builtin_arguments
        and (value := number(node)) is not None
    ]
    pairs = [(a, b) for i, a in enumerate(spelled) for b in spelled[i + 1 :]]
    return (
        {float(n) for n in spelled}
        | {float(a * b) for a, b in pairs}
        | {float(a + b) for a, b in pairs}
    )


def sets_up_stated_inputs(function: ast.FunctionDef, criterion: str, stated: Stated) -> bool:
    """Whether the test sets up every number the criterion's prose states besides the values
    it returns: the small model checked "`fare(children=2)` on a trip of 200.0 km returns
    150.0" on a trip of its own of 20.0 km, which no right change can pass."""
    results = {
        float(v) for v in stated.values if isinstance(v, int | float) and not isinstance(v, bool)
    }
    prose = numbers_in(QUOTED.sub(" ", CODE_SPAN.sub(" ", criterion)))
    needed = {n for n in prose if n not in (0, 1) and n not in results}
    used = numbers_set_up(function)
    return all(among(n, used) for n in needed)


def written_tests(
    text: str, criterion: str, stated: Stated, repo_dir: Path, first: int = 1,
    words: set[str] | None = None, others: Sequence[str] = (), keys: set[str] | None = None,
) -> tuple[list[str], list[str]]:  # fmt: skip
    """The imports and the tests of a model's module that check only what the criterion
    states (with keyword arguments among `words` and string keys among `keys`, when given,
    and no inputs only `others`, the other criteria, state), renamed `test_criterion_N` from
    `first`, the criterion as their docstring; nothing when the module does not parse or
    imports elsewhere."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return [], []
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    if not all(imports_known_names(n, repo_dir) for n in imports):
        return [], []
    imports += forgotten_imports(tree, repo_dir)
    functions = imported_functions(imports, repo_dir)
    tests: list[str] = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
            continue
        if ast.get_docstring(node) is not None:
            node.body = node.body[1:]
        if stated.values:
            without_unstated_checks(node, stated.values)
        errors = checks_only_errors(node, stated.errors) and raises_past_bounds(node, criterion)
        checks = errors or (
            checks_stated_values(node, stated.values)
            and sets_up_stated_inputs(node, criterion, stated)
        )
        known = (
            (words is None or keywords_known(node, words))
            and (keys is None or keys_known(node, keys))
            and arguments_fit(node, functions)
        )
        if checks and known and not node.args.args and not borrows_inputs(node, criterion, others):
            node.name = f"test_criterion_{first + len(tests)}"
            node.decorator_list = []
            node.body.insert(0, ast.Expr(ast.Constant(criterion)))
            tests.append(ast.unparse(node) + "\n")
    return ([ast.unparse(n) for n in imports] if tests else []), tests


def with_written_tests(spelled: str | None, key: str, imports: list[str], tests: list[str]) -> str:
    """The acceptance test module: the stated examples, then the tests written for criteria."""
    head, body = (spelled or "").partition("\n\n\ndef ")[::2]
    lines = head.splitlines() or [f'"""Acceptance tests of {key}, as its criteria state them."""']
    wanted = ["import pytest", *imports]
    lines += [line for line in dict.fromkeys(wanted) if line not in lines]
    parts = ["\n".join(lines) + "\n"] + ([f"def {body.rstrip()}\n"] if body else []) + tests
    return "\n\n".join(parts)
