"""Every third-party module the product imports comes with its runtime dependencies."""

import ast
import importlib.metadata as metadata
import sys
from pathlib import Path

from packaging.requirements import Requirement

from config import ROOT
from tests.test_import_graph import PACKAGES as PRODUCT
from tests.test_import_graph import TOP_MODULES

LOCAL = {*PRODUCT, *TOP_MODULES}


def runtime_distributions() -> set[str]:
    """ticketsmith's dependencies without extras, and theirs, all the way down."""
    found: set[str] = set()
    todo = ["ticketsmith"]
    while todo:
        for line in metadata.requires(todo.pop()) or []:
            requirement = Requirement(line)
            if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
                continue
            name = requirement.name.lower().replace("_", "-")
            if name not in found:
                found.add(name)
                todo.append(name)
    return found


def undeclared_imports(files: list[Path], declared: set[str]) -> list[str]:
    """`file:line module` for each import no declared distribution provides."""
    providers = metadata.packages_distributions()
    missing = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in LOCAL or top in sys.stdlib_module_names:
                    continue
                dists = {d.lower().replace("_", "-") for d in providers.get(top, [])}
                if not dists & declared:
                    missing.append(f"{path.name}:{node.lineno} {name}")
    return missing


def test_every_module_the_product_imports_is_a_runtime_dependency() -> None:
    files = [ROOT / f"{name}.py" for name in TOP_MODULES]
    for package in PRODUCT:
        files += [p for p in (ROOT / package).rglob("*.py") if "seed" not in p.parts]
    missing = undeclared_imports(files, runtime_distributions())
    assert not missing, f"imported but not in [project] dependencies: {missing}"


def test_an_import_of_a_development_tool_is_reported(tmp_path: Path) -> None:
    module = tmp_path / "uses_pytest.py"
    module.write_text("import json\nimport httpx\nfrom pytest import fixture\n")
    assert undeclared_imports([module], runtime_distributions()) == ["uses_pytest.py:3 pytest"]
