"""The change's checks as data, made into acceptance tests without reading the ticket's English.

One structured call (a local server's grammar holds the answer to the schema) lists checks:
setup statements, a call, and the value it returns or the error it raises, or that it holds
already. Each is validated mechanically: it parses, every name it reads resolves in the
repository, the plan's contracts or Python's builtins, and it is rendered as a test that
imports what it uses inside itself (a name the change creates fails that test alone).
"""

import ast
import builtins
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, Field

from graphs.implementation.criteria.modules import (
    module_defining,
    promised_module,
)
from graphs.schemas import Contract
from llm.structured import capped, cut_text

MAX_CHECKS = 8
CODE_CHARS = 300


class Check(BaseModel):
    """One check of the change: run `setup`, then `call` returns `returns` or raises `raises`."""

    criterion: int = Field(ge=0, le=50, description="the number of the criterion it checks")
    setup: Annotated[str, cut_text(CODE_CHARS)] = Field(
        default="", max_length=CODE_CHARS, description="Python statements run first, or empty"
    )
    call: Annotated[str, cut_text(CODE_CHARS)] = Field(
        max_length=CODE_CHARS, description="one Python expression: the call checked"
    )
    returns: Annotated[str, cut_text(CODE_CHARS)] = Field(
        default="",
        max_length=CODE_CHARS,
        description="a Python expression of the value the call returns; empty when it raises",
    )
    raises: Annotated[str, cut_text(80)] = Field(
        default="", max_length=80, description="the exception class it raises; empty otherwise"
    )
    holds_already: bool = Field(
        default=False, description="true when the code behaves so already, before the change"
    )


class Checks(BaseModel):
    """The checks of a change, as the model lists them."""

    checks: Annotated[list[Check], capped(MAX_CHECKS), Field(max_length=MAX_CHECKS)] = Field(
        default_factory=list
    )


@dataclass(frozen=True)
class Where:
    """What the names of a check resolve in: the repository and the plan's contracts."""

    repo_dir: Path
    contracts: list[Contract]


@dataclass(frozen=True)
class CheckTest:
    """A check rendered as a pytest function."""

    name: str
    source: str
    holds: bool


class CheckError(ValueError):
    """A check that cannot be a test, and why."""


def parsed(text: str, mode: str, what: str) -> ast.AST:
    """The check's part parsed, or a CheckError naming the part."""
    try:
        return ast.parse(text.strip(), mode=mode)
    except (SyntaxError, ValueError) as error:
        raise CheckError(f"its {what} is not Python ({getattr(error, 'msg', error)})") from None


def read_names(*trees: ast.AST) -> set[str]:
    """The names the trees read that they do not bind themselves."""
    names = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Name)]
    bound = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
    bound |= {a.arg for tree in trees for a in ast.walk(tree) if isinstance(a, ast.arg)}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                bound.add(node.name)
    return {n.id for n in names if isinstance(n.ctx, ast.Load)} - bound


def is_module(repo_dir: Path, name: str) -> bool:
    """Whether the repository has a top-level module or package of that name."""
    return any(
        (root / f"{name}.py").is_file() or (root / name / "__init__.py").is_file()
        for root in (repo_dir, repo_dir / "src")
    )


def import_of(name: str, where: Where) -> str:
    """The import statement that binds `name` for a check, or a CheckError: a name the change
    creates must be one the plan's contracts promise, never one the check made up."""
    if is_module(where.repo_dir, name):
        return f"import {name}"
    module = module_defining(where.repo_dir, name) or promised_module(where.contracts, name)
    if module is None:
        raise CheckError(f"it reads `{name}`, which neither the repository nor the plan defines")
    return f"from {module} import {name}"


def expected_value(returns: ast.expr) -> str:
    """The expected value as the assertion compares it (floats approximately)."""
    text = ast.unparse(returns)
    is_float = isinstance(returns, ast.Constant) and isinstance(returns.value, float)
    return f"pytest.approx({text})" if is_float else text


def resolves(name: str, where: Where) -> bool:
    """Whether a name a check reads is Python's, the repository's or the plan's."""
    try:
        return hasattr(builtins, name) or bool(import_of(name, where))
    except CheckError:
        return False


class PlainWords(ast.NodeTransformer):
    """Unquoted words a check passes or expects, as the text they spell: a small model writes
    `f(device_type)` returns `DeviceType` for the strings."""

    def __init__(self, where: Where, bound: set[str]) -> None:
        self.where, self.bound = where, bound

    def word(self, node: ast.expr) -> ast.expr:
        """The node, or the text it spells when it is a name nothing binds."""
        if isinstance(node, ast.Name) and node.id not in self.bound:
            if not resolves(node.id, self.where):
                return ast.Constant(value=node.id)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        node.args = [self.word(a) for a in node.args]
        for keyword in node.keywords:
            keyword.value = self.word(keyword.value)
        return node


def setup_names(setup: ast.AST) -> set[str]:
    """The names the setup binds."""
    return {
        n.id for n in ast.walk(setup) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }


def setup_and_call(setup_text: str, call_text: str) -> tuple[ast.Module, ast.Expression]:
    """The setup statements and the call: a call written as statements that end in an
    expression (or in an assignment of one) has the statements before it moved to the setup,
    as a small model writes `c = Cache(2); c.put(1, 1); c.get(1)` for a call of a method."""
    setup = parsed(setup_text or "pass", "exec", "setup")
    assert isinstance(setup, ast.Module)
    setup.body = [s for s in setup.body if not isinstance(s, ast.Pass)]
    try:
        return setup, ast.parse(call_text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        statements = parsed(call_text, "exec", "call")
    assert isinstance(statements, ast.Module)
    last = statements.body[-1] if statements.body else None
    if not isinstance(last, ast.Expr | ast.Assign) or isinstance(last.value, ast.Await):
        raise CheckError("its call is not Python: one expression, or statements ending in one")
    setup.body += statements.body[:-1]
    return setup, ast.Expression(body=last.value)


def check_test(check: Check, number: int, where: Where, criterion: str = "") -> CheckTest:
    """The check as a test function whose docstring is the criterion it checks, or a
    CheckError saying why it cannot be one."""
    if bool(check.returns.strip()) == bool(check.raises.strip()):
        raise CheckError("it must state either the value returned or the error raised")
    setup, call = setup_and_call(check.setup, check.call)
    words = PlainWords(where, setup_names(setup))
    call = ast.fix_missing_locations(words.visit(call))
    parts: list[ast.AST] = [setup, call]
    if check.returns.strip():
        returns = parsed(check.returns, "eval", "expected value")
        assert isinstance(returns, ast.Expression)
        returns.body = words.word(returns.body)
        parts.append(returns)
        assertion = f"assert {ast.unparse(call.body)} == {expected_value(returns.body)}"
    else:
        error = check.raises.strip().removesuffix("()")
        if not error.isidentifier():
            raise CheckError(f"its error `{error}` is not an exception class name")
        parts.append(ast.Name(id=error, ctx=ast.Load()))
        assertion = f"with pytest.raises({error}):\n        {ast.unparse(call.body)}"
    needed = sorted(n for n in read_names(*parts) if not hasattr(builtins, n) and n != "pytest")
    imports = [import_of(name, where) for name in needed]
    setup_lines = ast.unparse(setup).splitlines() if setup.body else []
    name = f"test_check_{number}_criterion_{check.criterion}"
    doc = [ast.unparse(ast.Constant(value=criterion.strip()))] if criterion.strip() else []
    body = [*doc, *imports, *setup_lines, *assertion.splitlines()]
    source = f"def {name}():\n" + "".join(f"    {line}\n" for line in body)
    compile(source, name, "exec")
    return CheckTest(name=name, source=source, holds=check.holds_already)


def check_tests(
    checks: Checks, where: Where, criteria: list[str] | None = None
) -> tuple[list[CheckTest], list[str]]:
    """The checks that can be tests (each under the text of the criterion it names by its
    number in `criteria`), and why each of the others cannot."""
    stated = criteria or []
    tests: list[CheckTest] = []
    dropped: list[str] = []
    sources: set[str] = set()
    for number, check in enumerate(checks.checks, 1):
        try:
            text = stated[check.criterion - 1] if 0 < check.criterion <= len(stated) else ""
            test = check_test(check, number, where, text)
        except CheckError as error:
            dropped.append(f"check {number} left out: {error}")
            continue
        body = test.source.split("\n", 1)[1]
        if body not in sources:  # the same check twice is one test
            sources.add(body)
            tests.append(test)
    return tests, dropped


def test_module(tests: list[CheckTest]) -> str:
    """The acceptance test module of the checks."""
    return "import pytest\n\n\n" + "\n\n".join(t.source for t in tests)
