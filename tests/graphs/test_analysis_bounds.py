"""The repository summary's prompt stays the same size however large the repository grows."""

import re
from pathlib import Path

from langchain_core.messages import BaseMessage

from graphs.analysis import analyse_repository
from graphs.analysis.landmarks import imported_modules, main_modules
from graphs.models import ScriptedChatModel
from graphs.schemas import TicketContext
from tests.graphs.conftest import write_tree

PROMPT_CHARS = 8_000
TICKET = TicketContext(
    key="SHOP-9",
    summary="Receipts should show the store's opening hours",
    description="Customers ask when the store opens; print the hours under the address.",
)


def shop_repository(root: Path, packages: int) -> Path:
    """A package of `packages` subpackages of ten modules each, all using the money module."""
    files = {
        "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\n',
        "shop/__init__.py": '"""A shop."""\nfrom shop.core.money import Money\n',
        "shop/__main__.py": "from shop.cli import run\n\nrun()\n",
        "shop/cli.py": "import sys\n\n\ndef run() -> None:\n    print(sys.argv)\n",
        "shop/core/__init__.py": "",
        "shop/core/money.py": "class Money(int):\n    def cents(self) -> int:\n        return 0\n",
        "shop/core/clock.py": "def now() -> int:\n    return 0\n",
    }
    for p in range(packages):
        files[f"shop/area{p}/__init__.py"] = ""
        for m in range(10):
            files[f"shop/area{p}/part{m}.py"] = (
                "from shop.core.money import Money\nfrom ..core import clock\n\n\n"
                f"def total_{p}_{m}(items: list[int]) -> Money:\n"
                f'    """The total of area {p}, part {m}."""\n'
                "    return Money(sum(items) + clock.now())\n"
            )
        files[f"tests/test_area{p}.py"] = f"from shop.area{p}.part0 import total_{p}_0\n"
    return write_tree(root, files)


async def summary_prompt(repo: Path) -> str:
    """The text the model is given for the repository summary."""
    seen: list[str] = []

    def answer(messages: list[BaseMessage]) -> str:
        seen.append("\n".join(m.text for m in messages))
        return '{"summary": "A shop."}'

    await analyse_repository(ScriptedChatModel([answer]), repo, TICKET)
    return seen[0]


async def test_the_summary_prompt_is_bounded_and_names_the_main_modules(tmp_path: Path) -> None:
    large = await summary_prompt(shop_repository(tmp_path / "large", 16))  # 160+ modules
    larger = await summary_prompt(shop_repository(tmp_path / "larger", 64))  # 640+ modules
    assert len(large) < PROMPT_CHARS and len(larger) < PROMPT_CHARS
    assert abs(len(larger) - len(large)) < 200  # only the counts' digits differ
    for module in ("shop/__init__.py", "shop/__main__.py", "shop/core/money.py"):
        assert module in large and module in larger, module
    left_out = re.search(r'"files_left_out": (\d+)', larger)
    assert left_out and int(left_out.group(1)) > 700  # and the prompt says how many


def test_the_main_modules_are_the_entry_points_then_the_most_imported(tmp_path: Path) -> None:
    repo = shop_repository(tmp_path / "repo", 16)
    files = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if p.is_file())
    assert main_modules(repo, files, 4) == [
        "shop/__init__.py", "shop/__main__.py", "shop/core/money.py", "shop/core/clock.py",
    ]  # fmt: skip


def test_imports_name_the_modules_they_may_refer_to() -> None:
    source = "from . import a, b\nfrom ..x.y import (z,\n    w)\nimport os, pkg.q as r\n"
    assert imported_modules(source, "pkg.sub") == {
        "pkg.sub", "pkg.sub.a", "pkg.sub.b", "pkg.x.y", "pkg.x.y.z", "pkg.x.y.w", "os", "pkg.q",
    }  # fmt: skip
