"""The modules a reader of a Python package looks at first: entry points and the most imported."""

import re
from collections import Counter
from pathlib import Path, PurePosixPath

ENTRY_NAMES = ("__init__.py", "__main__.py", "cli.py", "main.py", "app.py")
HEAD_BYTES = 8_000  # imports sit at a module's top
MAX_READ = 2_000  # modules read for their imports, the shallowest first
_FROM = re.compile(
    r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n#]*))", re.MULTILINE
)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.MULTILINE)


def module_name(path: str) -> str | None:
    """The dotted module a Python file is (`src/` dropped), or None for other files and tests."""
    pure = PurePosixPath(path)
    if pure.suffix != ".py" or {"tests", "test", "docs", "doc"} & set(pure.parts[:-1]):
        return None
    parts = list(pure.with_suffix("").parts)
    if parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or None


def entry_points(files: list[str]) -> list[str]:
    """Top packages' `__init__` and `__main__`, and command or app modules, the shallowest first."""
    found = []
    for path in files:
        name, module = PurePosixPath(path).name, module_name(path)
        if module is not None and name in ENTRY_NAMES:
            if name != "__init__.py" or "." not in module:
                found.append(path)
    return sorted(found, key=lambda f: (f.count("/"), ENTRY_NAMES.index(PurePosixPath(f).name), f))


def import_counts(repo_dir: Path, files: list[str]) -> Counter[str]:
    """How many of the repository's modules import each of its own modules, by path."""
    by_module = {name: f for f in files if (name := module_name(f)) is not None}
    counts: Counter[str] = Counter()
    readers = sorted(by_module.values(), key=lambda f: (f.count("/"), f))[:MAX_READ]
    for path in readers:
        try:
            with open(repo_dir / path, "rb") as opened:
                head = opened.read(HEAD_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        imported = {m for m in imported_modules(head, package_of(path)) if m in by_module}
        # `from pkg import module` imports the module, not (for counting) the package
        imported -= {m.rpartition(".")[0] for m in imported}
        counts.update({by_module[m] for m in imported if by_module[m] != path})
    return counts


def package_of(path: str) -> str:
    """The package a module's relative imports start from."""
    module = module_name(path) or ""
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


def imported_modules(source: str, package: str) -> set[str]:
    """Every module name an import in the source may refer to (`from a import b` gives a, a.b)."""
    found: set[str] = set()
    for origin, wrapped, names in _FROM.findall(source):
        base = resolve(package, origin)
        found.add(base)
        for name in (wrapped or names).split(","):
            name = name.split(" as ")[0].strip()
            found.add(f"{base}.{name}" if base else name)
    for names in _IMPORT.findall(source):
        found.update(n.split(" as ")[0].strip() for n in names.split(","))
    return found


def resolve(package: str, name: str) -> str:
    """An import's absolute module name, relative imports resolved against the package."""
    dots = len(name) - len(name.lstrip("."))
    if not dots:
        return name
    base = package.split(".") if package else []
    base = base[: len(base) - (dots - 1)] if dots > 1 else base
    rest = name[dots:]
    return ".".join([*base, rest] if rest else base)


def main_modules(repo_dir: Path, files: list[str], limit: int) -> list[str]:
    """At most `limit` modules: the entry points, then the most imported."""
    chosen = dict.fromkeys(entry_points(files)[: limit // 2])
    for path, _ in sorted(import_counts(repo_dir, files).items(), key=lambda c: (-c[1], c[0])):
        if len(chosen) >= limit:
            break
        chosen.setdefault(path)
    return list(chosen)[:limit]
