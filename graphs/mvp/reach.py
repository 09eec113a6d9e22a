"""What the project's entry point and tests reach: its modules by import, its functions by call."""

import ast
from pathlib import PurePosixPath

from graphs.implementation.criteria.modules import module_of
from graphs.implementation.worker.named_functions import parsed
from graphs.mvp.asserting import asserting_tests, called_name, is_test_file

# Toolkits that open a desktop window: they need a display the project's users may not have.
DESKTOP_TOOLKITS = ("tkinter", "turtle", "PyQt5", "PyQt6", "PySide2", "PySide6", "wx", "kivy",
                    "pygame", "gi")  # fmt: skip


def modules_by_name(paths: list[str]) -> dict[str, str]:
    """The project's Python files by the module name they are imported as."""
    named = {}
    for path in sorted(paths):
        name = module_of(path)
        if name and name not in named:
            named[name] = path
    return named


def imported(tree: ast.Module, module: str | None, is_package: bool) -> set[str]:
    """The dotted names a module imports, relative imports resolved, `from a import b` as both
    `a` and `a.b` (b may be a submodule)."""
    names: set[str] = set()
    package = (module or "").split(".") if is_package else (module or "").split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1] if node.level > 1 else package
                base = ".".join([*anchor, *([base] if base else [])])
            names.add(base)
            names |= {f"{base}.{alias.name}" if base else alias.name for alias in node.names}
    return names


def with_parents(name: str) -> list[str]:
    """A dotted name and its packages: `a.b.c`, `a.b`, `a` (importing one runs them all)."""
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 0, -1)]


def reached_files(files: dict[str, str], starts: list[str], code: list[str]) -> set[str]:
    """The project's files reached by import from the start files and from extra code."""
    named = modules_by_name(list(files))
    reached: set[str] = set()
    pending = [path for path in starts if path in files]
    for source in code:
        tree = parsed(source)
        if tree is not None:
            pending += [named[n] for name in imported(tree, None, False)
                        for n in with_parents(name) if n in named]  # fmt: skip
    while pending:
        path = pending.pop()
        if path in reached:
            continue
        reached.add(path)
        tree = parsed(files[path])
        if tree is None:
            continue
        names = imported(tree, module_of(path), path.endswith("__init__.py"))
        pending += [named[n] for name in names for n in with_parents(name) if n in named]
    return reached


def unreached_modules(files: dict[str, str], entry: str | None, code: list[str]) -> list[str]:
    """The project's modules that neither the entry point nor any test imports."""
    tests = [path for path in files if is_test_file(path) or path.endswith("conftest.py")]
    starts = [*tests, *([entry] if entry else [])]
    reached = reached_files(files, starts, code)
    return sorted(
        path
        for path in files
        if path.endswith(".py") and path not in reached and not path.endswith("__init__.py")
        and not path.startswith(("tests/", "test/")) and PurePosixPath(path).name != "setup.py"
    )  # fmt: skip


def desktop_windows(files: dict[str, str]) -> list[str]:
    """The modules that open a desktop window, with the toolkit they use."""
    found = []
    for path, source in sorted(files.items()):
        tree = parsed(source) if path.endswith(".py") and not is_test_file(path) else None
        if tree is None:
            continue
        tops = {name.split(".")[0] for name in imported(tree, module_of(path), False)}
        toolkits = sorted(tops & set(DESKTOP_TOOLKITS))
        if toolkits:
            found.append(f"{path} opens a desktop window ({', '.join(toolkits)})")
    return found


def calls_by_function(files: dict[str, str]) -> dict[str, set[str]]:
    """For each function or class name the project's modules define, the names it calls."""
    graph: dict[str, set[str]] = {}
    for path, source in files.items():
        tree = parsed(source) if path.endswith(".py") and not is_test_file(path) else None
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                called = {called_name(c) for c in ast.walk(node) if isinstance(c, ast.Call)}
                graph.setdefault(node.name, set()).update(called - {""})
                if isinstance(node, ast.ClassDef):  # a class's methods run with it
                    graph[node.name] |= {
                        item.name
                        for item in node.body
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    }
    return graph


def exercised_names(files: dict[str, str]) -> set[str]:
    """The names tests that check something use, and what those call in turn."""
    used: set[str] = set()
    for path, source in files.items():
        if not is_test_file(path):
            continue
        for test in asserting_tests(source):
            for node in ast.walk(test):
                if isinstance(node, ast.Name):
                    used.add(node.id)
                elif isinstance(node, ast.Attribute):
                    used.add(node.attr)
    graph = calls_by_function(files)
    pending = list(used)
    while pending:
        for callee in graph.get(pending.pop(), set()):
            if callee not in used:
                used.add(callee)
                pending.append(callee)
    return used


def promised_name(signature: str) -> str | None:
    """The function or class a contract's signature promises: `add` of `Todo.add(title)`."""
    head = signature.strip().removeprefix("async ").removeprefix("def ").removeprefix("class ")
    head = head.split("(", 1)[0].split(":", 1)[0].strip()
    name = head.rsplit(".", 1)[-1].strip()
    return name if name.isidentifier() else None
