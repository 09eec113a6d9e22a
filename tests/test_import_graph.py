"""The product's modules import one another in one direction: no circles, no test code (nor
do the benches and the harness they share with the tests); the shared words are a leaf, and the
layers below the workflows never import them, nor the command line more than their payloads."""

import ast
from collections.abc import Callable
from pathlib import Path

from config import ROOT

PACKAGES = (
    "workflows", "activities", "graphs", "integrations", "webhooks", "emulators", "localmodel",
    "embedded", "observability", "encryption", "tickets", "cli", "temporal", "toolserver",
    "research", "faults", "access", "vocabulary",
)  # fmt: skip
TOP_MODULES = ("config", "temporal_settings", "worker", "starter")
# The words and enums every layer reads; they import nothing of the product.
LEAF = "vocabulary"
# Layers the workflows stand on: they read the shared words from the leaf, never `workflows`.
BELOW_THE_WORKFLOWS = ("temporal", "observability")
# The command line sends and reads the workflows' payload types, and nothing else of them.
COMMAND_LINE = ("cli", "starter")


def product_modules() -> dict[str, Path]:
    """Every product module by its dotted name."""
    modules = {name: ROOT / f"{name}.py" for name in TOP_MODULES}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "seed" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The product modules a module imports anywhere: at the top, in functions, for types."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports."""
    modules = product_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def is_package_init(name: str, graph: dict[str, set[str]]) -> bool:
    return any(other.startswith(f"{name}.") for other in graph)


def test_no_module_circle_among_the_products_modules() -> None:
    graph = import_graph()
    # A package's __init__ importing its own modules is how a package shows its surface.
    graph = {
        name: {t for t in targets if not (is_package_init(t, graph) and name.startswith(t))}
        for name, targets in graph.items()
    }
    assert circles(graph) == [], "modules that import each other, directly or around a circle"


def importers_of_the_tests(paths: dict[str, Path]) -> list[str]:
    """The modules among `paths` that import anything from `tests`."""
    offenders = []
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [module]
            if any(n and (n == "tests" or n.startswith("tests.")) for n in names):
                offenders.append(name)
    return offenders


def test_product_code_never_imports_the_tests() -> None:
    assert importers_of_the_tests(product_modules()) == []


def test_benches_and_the_harness_never_import_the_tests() -> None:
    paths = {
        str(path.relative_to(ROOT)): path
        for folder in ("bench", "harness")
        for path in (ROOT / folder).rglob("*.py")
    }
    assert len(paths) > 10
    assert importers_of_the_tests(paths) == [], "move what both need into harness/"


def in_package(name: str, packages: tuple[str, ...] | str) -> bool:
    """Whether the dotted module name is one of `packages` or inside one."""
    roots = (packages,) if isinstance(packages, str) else packages
    return any(name == root or name.startswith(f"{root}.") for root in roots)


def imports_where(importer: Callable[[str], bool], imported: Callable[[str], bool]) -> set[str]:
    """Each `a -> b` where a product module `importer` accepts imports one `imported` accepts."""
    return {
        f"{name} -> {target}"
        for name, targets in import_graph().items()
        if importer(name)
        for target in targets
        if imported(target)
    }


def test_the_tool_server_does_not_import_the_emulators() -> None:
    leaks = imports_where(
        lambda name: in_package(name, "toolserver"), lambda target: in_package(target, "emulators")
    )
    assert leaks == set(), "share what both need in a package of its own (as `faults/`)"


def test_the_vocabulary_imports_nothing_of_the_product() -> None:
    leaks = imports_where(
        lambda name: in_package(name, LEAF), lambda target: not in_package(target, LEAF)
    )
    assert leaks == set(), "the vocabulary is a leaf: move what it needs into it, or leave it out"


def test_the_layers_below_the_workflows_never_import_them() -> None:
    leaks = imports_where(
        lambda name: in_package(name, BELOW_THE_WORKFLOWS),
        lambda target: in_package(target, "workflows"),
    )
    assert leaks == set(), "read phases, statuses and failure words from the vocabulary"


def test_the_command_line_imports_only_the_workflows_payload_types() -> None:
    leaks = imports_where(
        lambda name: in_package(name, COMMAND_LINE),
        lambda target: in_package(target, "workflows") and not target.endswith(".messages"),
    )
    assert leaks == set(), "words go in the vocabulary; workflow code stays out of the command line"


def test_a_circle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
