"""The product's modules import one another in one direction: each floor of the product imports
only its own floor and those below, with no circles and no test code (nor do the benches and the
harness they share with the tests); the command line imports no more of the workflows than their
payloads."""

import ast
from collections.abc import Callable
from pathlib import Path

from config import ROOT

# The product's floors, lowest first: a module imports only modules of its own floor or below.
# Each name is a package or a top-level module; a new one takes its place here.
FLOORS = (
    ("vocabulary",),  # the words and enums every layer reads
    ("temporal_settings", "config"),  # the settings, plain values
    # What the clients, codecs, telemetry, the sandbox and the models are made of.
    (
        "access",
        "faults",
        "encryption",
        "integrations",
        "llm",
        "localmodel",
        "observability",
        "temporal",
    ),  # fmt: skip
    ("graphs",),  # the agents
    ("activities",),  # every call out of a workflow
    ("workflows",),
    ("tickets",),  # how a ticket starts
    ("cli", "webhooks"),  # what feeds a ticket: the command line and the deliveries
    ("embedded", "emulators", "research", "starter", "toolserver", "worker"),  # the processes
)
# Known arrows up, each to be turned around: (module, the module it imports).
UPWARD: set[tuple[str, str]] = set()
FLOOR = {name: number for number, names in enumerate(FLOORS) for name in names}
PACKAGES = tuple(name for name in FLOOR if (ROOT / name).is_dir())
TOP_MODULES = tuple(name for name in FLOOR if name not in PACKAGES)
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


def test_the_command_line_imports_only_the_workflows_payload_types() -> None:
    leaks = imports_where(
        lambda name: in_package(name, COMMAND_LINE),
        lambda target: in_package(target, "workflows") and not target.endswith(".messages"),
    )
    assert leaks == set(), "words go in the vocabulary; workflow code stays out of the command line"


def floor_of(name: str) -> int:
    """The floor of a dotted module name: its package's, or its own at the top level."""
    return FLOOR[name.split(".")[0]]


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Each (module, imported) where the imported module is on a higher floor."""
    return {
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if floor_of(target) > floor_of(name)
    }


def in_words(arrows: set[tuple[str, str]]) -> list[str]:
    """Each arrow as `a (floor 1) -> b (floor 3)`."""
    return [
        f"{name} (floor {floor_of(name)}) -> {target} (floor {floor_of(target)})"
        for name, target in sorted(arrows)
    ]


def test_every_product_module_stands_on_a_floor() -> None:
    found = {path.stem for path in ROOT.glob("*.py")} | {
        path.parent.name for path in ROOT.glob("*/__init__.py")
    }
    unplaced = found - set(FLOOR) - {"bench", "deploy", "harness", "tests"}
    assert unplaced == set(), f"give each a floor in FLOORS ({__file__}): {sorted(unplaced)}"


def test_no_module_imports_a_higher_floor() -> None:
    up = upward_imports(import_graph()) - UPWARD
    assert up == set(), (
        "imports of a higher floor (move the shared part down, or hand it in from above): "
        + "; ".join(in_words(up))
    )


def test_the_known_upward_arrows_are_still_there() -> None:
    gone = UPWARD - upward_imports(import_graph())
    assert gone == set(), f"turned around: take them out of UPWARD: {in_words(gone)}"


def test_an_upward_import_is_found_and_named() -> None:
    graph = {"config": {"vocabulary.amounts"}, "vocabulary.amounts": {"config"}}
    assert upward_imports(graph) == {("vocabulary.amounts", "config")}
    assert in_words(upward_imports(graph)) == ["vocabulary.amounts (floor 0) -> config (floor 1)"]


def test_a_circle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
